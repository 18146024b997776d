"""The compiled scorer (``bleuscope._core.BleuScorer``) against the numpy reference scoring: the
same scores, precisions and brevity penalties to the last bit, and sacreBLEU's sentence scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.core import backend
from bleuscope.metrics.bleu.scoring import ScoringConfig, compute_scores

pytestmark = pytest.mark.skipif(not backend.native_available(), reason="the compiled core is not built")

METHODS = [("none", None), ("floor", 0.1), ("floor", 0.7), ("add-k", 1), ("add-k", 0.5), ("exp", None)]


def _same_bits(a, b) -> bool:
    return a.dtype == b.dtype and a.shape == b.shape and a.tobytes() == b.tobytes()


def _assert_same(stats: np.ndarray, config: ScoringConfig) -> None:
    native = compute_scores(stats, config)
    ref = compute_scores(stats, config, engine="numpy")
    for field in ("score", "precisions", "bp"):
        assert _same_bits(getattr(native, field), getattr(ref, field)), (field, config)


@st.composite
def statistics(draw):
    order = draw(st.integers(1, 6))
    rows = []
    for _ in range(draw(st.integers(1, 40))):
        hyp_len = draw(st.integers(0, 60))
        ref_len = draw(st.integers(0, 60))
        totals = [max(hyp_len - i, 0) for i in range(order)]
        correct = [draw(st.integers(0, t)) for t in totals]
        rows.append([hyp_len, ref_len, *correct, *totals])
    return order, np.array(rows, dtype=np.int64)


@settings(max_examples=150, deadline=None)
@given(statistics(), st.sampled_from(METHODS), st.booleans())
def test_native_scores_are_bit_identical_to_numpy(data, method, effective_order):
    order, stats = data
    _assert_same(stats, ScoringConfig(order, method[0], method[1], effective_order))


@pytest.mark.parametrize("method", METHODS)
def test_native_scores_of_large_random_batches(method):
    rng = np.random.default_rng(7)
    n, order = 5000, 4
    hyp = rng.integers(0, 50, n)
    totals = np.stack([np.maximum(hyp - i, 0) for i in range(order)], axis=1)
    correct = (totals * rng.random((n, order)) ** 2).astype(np.int64)
    correct[rng.random(n) < 0.3] = 0
    stats = np.concatenate([hyp[:, None], rng.integers(0, 50, (n, 1)), correct, totals], axis=1)
    for effective_order in (False, True):
        _assert_same(stats.astype(np.int64), ScoringConfig(order, method[0], method[1], effective_order))


def test_native_sentence_scores_match_sacrebleu():
    sacrebleu = pytest.importorskip("sacrebleu")
    from bleuscope import BLEU

    hyps = ["the cat sat on the mat", "a", "", "completely different words here", "the the the the"]
    refs = ["the cat is on the mat", "a b c", "something", "nothing in common at all", "the cat"]
    for method in ("none", "floor", "add-k", "exp"):
        ours = BLEU(smooth_method=method, effective_order=True).sentence_scores(hyps, [refs]).scores
        theirs = sacrebleu.BLEU(smooth_method=method, effective_order=True)
        expected = [theirs.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
        assert ours.tolist() == expected, method


def test_weighted_configuration_scores_like_numpy():
    stats = np.array([[5, 6, 3, 1, 0, 0, 5, 4, 3, 2]], dtype=np.int64)
    weighted = ScoringConfig(4, "exp", None, False, weights=(0.4, 0.3, 0.2, 0.1))
    assert _same_bits(compute_scores(stats, weighted).score, compute_scores(stats, weighted, engine="numpy").score)
