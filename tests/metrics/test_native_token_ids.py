"""Padded token-id matrices counted in place by the compiled core (``_core.IdCounter.padded_rows``) against the
general path (rows stripped in numpy, then counted) and the numpy engine: the same statistics rows."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.core import backend
from bleuscope.metrics.bleu.token_ids import TokenBLEU

core = backend.compiled_core()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")


def _padded(rng, n_rows: int, width: int, side: str, vocab: int, empty_share: float = 0.1):
    """Rows of ids 1..vocab padded with 0 on ``side`` (some rows all padding)."""
    lengths = rng.integers(0, width + 1, n_rows)
    lengths[rng.random(n_rows) < empty_share] = 0
    mat = np.zeros((n_rows, width), dtype=np.int64)
    for r, n in enumerate(lengths):
        ids = rng.integers(1, vocab + 1, n)
        if side == "right":
            mat[r, :n] = ids
        elif n:
            mat[r, width - n :] = ids
    return mat, lengths


def _general_and_numpy(scorer: TokenBLEU, hyp, ref, **lengths):
    """Statistics by the general path (lists of rows) and by the numpy engine."""
    general = (
        scorer._statistics_and_nrefs(list(hyp), list(ref) if ref.ndim == 3 else list(ref[:, None, :]), None, None)[0]
        if not lengths
        else None
    )
    engine = scorer.bleu.engine
    scorer.bleu.engine = "numpy"
    try:
        numpy_stats = scorer.statistics(hyp, ref, **lengths)
    finally:
        scorer.bleu.engine = engine
    return general, numpy_stats


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    side=st.sampled_from(["right", "left"]),
    n_refs=st.integers(0, 3),
    vocab=st.sampled_from([3, 20, 1000]),
    order=st.integers(1, 5),
)
def test_padded_matrices_count_like_the_general_path(seed, side, n_refs, vocab, order):
    rng = np.random.default_rng(seed)
    n_seg = int(rng.integers(1, 12))
    hyp, _ = _padded(rng, n_seg, int(rng.integers(0, 20)), side, vocab)
    if n_refs == 0:  # [B, L]: one reference each
        ref, _ = _padded(rng, n_seg, int(rng.integers(1, 20)), side, vocab, empty_share=0.0)
        ref[:, 0 if side == "right" else -1] = 1  # never all padding
    else:
        ref3, _ = _padded(rng, n_seg * n_refs, int(rng.integers(1, 20)), side, vocab, empty_share=0.3)
        ref = ref3.reshape(n_seg, n_refs, -1)
        ref[:, 0, 0 if side == "right" else -1] = 2  # reference 0 of every segment is present
    scorer = TokenBLEU(pad_id=0, padding_side=side, max_ngram_order=order)
    native = scorer.statistics(hyp, ref)
    general, numpy_stats = _general_and_numpy(scorer, hyp, ref)
    np.testing.assert_array_equal(native, general)
    np.testing.assert_array_equal(native, numpy_stats)


@pytest.mark.parametrize("side", ["right", "left"])
def test_explicit_lengths_and_missing_references(side):
    rng = np.random.default_rng(3)
    n_seg, n_refs, width = 40, 3, 16
    hyp = rng.integers(0, 6, (n_seg, width))  # 0 is a real token here: lengths say where rows end
    ref = rng.integers(0, 6, (n_seg, n_refs, width))
    hyp_lengths = rng.integers(0, width + 1, n_seg)
    ref_lengths = rng.integers(-1, width + 1, (n_seg, n_refs))
    ref_lengths[:, 1] = rng.integers(0, width + 1, n_seg)
    scorer = TokenBLEU(pad_id=0, padding_side=side, smooth_method="floor")
    native = scorer.statistics(hyp, ref, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths)
    _, numpy_stats = _general_and_numpy(scorer, hyp, ref, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths)
    np.testing.assert_array_equal(native, numpy_stats)
    ours = scorer.sentence_scores(hyp, ref, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths)
    scorer.bleu.engine = "numpy"
    assert (
        ours.tobytes() == scorer.sentence_scores(hyp, ref, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths).tobytes()
    )


def test_thread_count_does_not_change_the_rows():
    rng = np.random.default_rng(5)
    hyp, hyp_lens = _padded(rng, 300, 200, "right", 50)
    ref, ref_lens = _padded(rng, 600, 180, "right", 50)
    ref_lens[::7] = -1  # missing
    args = (hyp.view(np.uint64), hyp_lens, ref.reshape(300, 2, 180).view(np.uint64), ref_lens.reshape(300, 2))
    one = core.IdCounter(4, threads=1).padded_rows(*args)
    for threads in (2, 3, 8):
        np.testing.assert_array_equal(core.IdCounter(4, threads=threads).padded_rows(*args), one)


def test_errors_are_the_general_paths():
    scorer = TokenBLEU(pad_id=0)
    with pytest.raises(ValueError, match="row 1 has a token after its padding"):
        scorer.statistics(np.array([[1, 2, 0], [1, 0, 3]]), np.array([[1, 2, 3], [1, 2, 3]]))
    with pytest.raises(ValueError, match="segment 0 has no reference"):
        scorer.statistics(np.array([[1, 2, 0]]), np.array([[0, 0, 0]]))
    with pytest.raises(ValueError, match="hyp_lengths"):
        scorer.statistics(np.array([[1, 2, 0]]), np.array([[1, 2, 3]]), hyp_lengths=[4])
    with pytest.raises(ValueError, match="outside"):
        core.IdCounter(4).padded_rows(
            np.zeros((1, 2), np.uint64), np.array([3]), np.zeros((1, 1, 2), np.uint64), np.array([[1]])
        )
