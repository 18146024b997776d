"""Token-id BLEU equals the text path (BLEU(tokenize="none") and sacreBLEU) on the same tokens, over the full
uint64 range of ids."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core import native
from bleuscope.metrics.bleu.token_ids import TokenBLEU, token_corpus_bleu, token_sentence_bleu

from ...conftest import DATA, read_lines, requires_core, requires_wmt

sacrebleu = pytest.importorskip("sacrebleu")


def _text(ids) -> str:
    return " ".join(f"w{int(x)}" for x in ids)


def _text_path(hyp_rows, ref_rows_per_seg, **options):
    """Sentence scores and corpus score through the text API; refs per segment, None = missing."""
    n_ref = max(len(r) for r in ref_rows_per_seg)
    hyps = [_text(h) for h in hyp_rows]
    streams = [[(_text(r[k]) if k < len(r) and r[k] is not None else None) for r in ref_rows_per_seg]
               for k in range(n_ref)]
    bleu = BLEU(tokenize="none", **options)
    return bleu.sentence_scores(hyps, streams).scores, bleu.corpus_score(hyps, streams)


SMOOTH = ["exp", "floor", "add-k", "none"] + [f"chen-cherry-{i}" for i in range(1, 8)]
options = st.fixed_dictionaries({
    "smooth_method": st.sampled_from(SMOOTH),
    "effective_order": st.booleans(),
    "max_ngram_order": st.integers(1, 5),
})


@st.composite
def padded_batches(draw):
    """A padded batch: ids [B, L], refs [B, R, L], lengths (-1 = missing reference, at least one present)."""
    b = draw(st.integers(1, 8))
    n_ref = draw(st.integers(1, 3))
    width = draw(st.integers(0, 12))
    vocab = draw(st.integers(1, 6))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    hyp = rng.integers(1, vocab + 1, size=(b, width))
    refs = rng.integers(1, vocab + 1, size=(b, n_ref, width))
    hl = rng.integers(0, width + 1, size=b)
    rl = rng.integers(-1, width + 1, size=(b, n_ref))
    rl[:, 0] = np.maximum(rl[:, 0], 0)
    perm = rng.permuted(np.arange(n_ref)[None, :].repeat(b, axis=0), axis=1)
    rl = np.take_along_axis(rl, perm, axis=1)  # the always-present reference is not always the first
    return hyp, refs, hl, rl


def _rows_of(hyp, refs, hl, rl):
    hyp_rows = [hyp[i, : hl[i]] for i in range(len(hyp))]
    ref_rows = [[refs[i, k, : rl[i, k]] if rl[i, k] >= 0 else None for k in range(refs.shape[1])]
                for i in range(len(hyp))]
    return hyp_rows, ref_rows


@settings(max_examples=80, deadline=None)
@given(batch=padded_batches(), opts=options)
def test_lengths_layout_equals_text_path(batch, opts):
    hyp, refs, hl, rl = batch
    want_sent, want_corpus = _text_path(*_rows_of(*batch), **opts)
    tb = TokenBLEU(**opts)
    assert np.array_equal(tb.sentence_scores(hyp, refs, hyp_lengths=hl, ref_lengths=rl), want_sent)
    got = tb.corpus_score(hyp, refs, hyp_lengths=hl, ref_lengths=rl)
    assert got.score == want_corpus.score
    assert (got.counts, got.totals, got.sys_len, got.ref_len) == (
        want_corpus.counts, want_corpus.totals, want_corpus.sys_len, want_corpus.ref_len)


@settings(max_examples=60, deadline=None)
@given(batch=padded_batches(), opts=options, side=st.sampled_from(["right", "left"]), pad=st.sampled_from([0, -1, 99]))
def test_padding_and_lists_equal_lengths(batch, opts, side, pad):
    """pad_id stripping (right/left) and ragged lists give what explicit lengths give."""
    hyp, refs, hl, rl = batch
    rl = np.where(rl == 0, -1, rl)  # an all-padding reference row is a missing reference
    if not (rl >= 0).any(axis=1).all():
        rl[:, 0] = np.maximum(rl[:, 0], 1) if refs.shape[2] else 0
    width = hyp.shape[1]
    cols = np.arange(width)
    if side == "right":
        hp = np.where(cols[None] < hl[:, None], hyp, pad)
        rp = np.where(cols[None, None] < rl[:, :, None], refs, pad)
    else:  # the same tokens, moved to the right edge
        hp = np.full_like(hyp, pad)
        rp = np.full_like(refs, pad)
        for i in range(len(hyp)):
            hp[i, width - hl[i]:] = hyp[i, : hl[i]]
            for k in range(refs.shape[1]):
                if rl[i, k] > 0:
                    rp[i, k, width - rl[i, k]:] = refs[i, k, : rl[i, k]]
    if width == 0:
        rl = np.zeros_like(rl)  # no columns: every reference is a real, empty one
    want = TokenBLEU(**opts).sentence_scores(hyp, refs, hyp_lengths=hl, ref_lengths=rl)
    got = TokenBLEU(pad_id=pad, padding_side=side, **opts).sentence_scores(hp, rp)
    assert np.array_equal(got, want)
    hyp_rows, ref_rows = _rows_of(hyp, refs, hl, rl)
    lists = TokenBLEU(**opts).sentence_scores([r.tolist() for r in hyp_rows],
                                              [[r.tolist() for r in seg if r is not None] for seg in ref_rows])
    assert np.array_equal(lists, want)
    assert np.array_equal(token_sentence_bleu(hyp_rows, [[r for r in seg if r is not None] for seg in ref_rows], **opts), want)


@settings(max_examples=40, deadline=None)
@given(batch=padded_batches(), shift=st.sampled_from([-(10**6), 2**40, 2**62]))
def test_any_integer_ids(batch, shift):
    """Negative and huge ids (re-mapped to dense ids internally) give the same scores; dtypes too."""
    hyp, refs, hl, rl = batch
    want = TokenBLEU().sentence_scores(hyp, refs, hyp_lengths=hl, ref_lengths=rl)
    got = TokenBLEU().sentence_scores(hyp + shift, refs + shift, hyp_lengths=hl, ref_lengths=rl)
    assert np.array_equal(got, want)
    small = TokenBLEU().sentence_scores(hyp.astype(np.uint8), refs.astype(np.int16), hyp_lengths=hl, ref_lengths=rl)
    assert np.array_equal(small, want)


def test_one_reference_2d_and_variable_reference_counts():
    hyp = np.array([[1, 2, 3, 4, 0], [5, 6, 7, 0, 0]])
    ref = np.array([[1, 2, 3, 5, 0], [5, 6, 7, 8, 0]])
    tb = TokenBLEU(pad_id=0, effective_order=True)
    two_d = tb.sentence_scores(hyp, ref)
    three_d = tb.sentence_scores(hyp, ref[:, None, :])
    assert np.array_equal(two_d, three_d)
    var = tb.sentence_scores(hyp, [[ref[0], [9, 9, 9]], [ref[1]]])
    sb = sacrebleu.BLEU(tokenize="none", effective_order=True)
    assert var[0] == sb.sentence_score("w1 w2 w3 w4", ["w1 w2 w3 w5", "w9 w9 w9"]).score
    assert var[1] == sb.sentence_score("w5 w6 w7", ["w5 w6 w7 w8"]).score
    score = token_corpus_bleu(hyp, ref, pad_id=0)
    assert score.counts == [6, 4, 2, 0]
    assert score.signature.startswith("nrefs:1|")


@requires_wmt
@pytest.mark.parametrize("smooth", ["exp", "floor"])
def test_wmt_tokens_as_ids_equal_sacrebleu(smooth):
    """13a-tokenized WMT segments mapped to ids: scores equal sacreBLEU on the token strings."""
    base = DATA / "generaltest2022" / "en-de"
    tok = sacrebleu.BLEU(tokenize="13a").tokenizer
    hyps = [tok(x).split() for x in read_lines(base / "sys" / "Online-B.txt")[:200]]
    refs_a = [tok(x).split() for x in read_lines(base / "ref.A.txt")[:200]]
    refs_b = [tok(x).split() for x in read_lines(base / "ref.B.txt")[:200]]
    vocab: dict[str, int] = {}
    ids = lambda toks: [vocab.setdefault(t, len(vocab) + 1) for t in toks]  # noqa: E731
    width = max(map(len, hyps + refs_a + refs_b))
    hyp_arr = np.zeros((200, width), dtype=np.int32)
    ref_arr = np.zeros((200, 2, width), dtype=np.int32)
    for i in range(200):
        hyp_arr[i, : len(hyps[i])] = ids(hyps[i])
        ref_arr[i, 0, : len(refs_a[i])] = ids(refs_a[i])
        ref_arr[i, 1, : len(refs_b[i])] = ids(refs_b[i])
    tb = TokenBLEU(pad_id=0, smooth_method=smooth, effective_order=True)
    got = tb.sentence_scores(hyp_arr, ref_arr)
    sb = sacrebleu.BLEU(tokenize="none", smooth_method=smooth, effective_order=True)
    want = [sb.sentence_score(" ".join(h), [" ".join(a), " ".join(b)]).score for h, a, b in zip(hyps, refs_a, refs_b)]
    assert got.tolist() == want
    corpus = sacrebleu.BLEU(tokenize="none", smooth_method=smooth).corpus_score(
        [" ".join(h) for h in hyps], [[" ".join(a) for a in refs_a], [" ".join(b) for b in refs_b]])
    assert TokenBLEU(pad_id=0, smooth_method=smooth).corpus_score(hyp_arr, ref_arr).score == corpus.score


@pytest.mark.parametrize("call,exc,word", [
    (lambda t: t.sentence_scores(np.array([[1.0, 2.0]]), np.array([[1, 2]])), TypeError, "hypotheses"),
    (lambda t: t.sentence_scores(np.array([[True]]), np.array([[1]])), TypeError, "hypotheses"),
    (lambda t: t.sentence_scores(np.array([1, 2]), np.array([[1, 2]])), ValueError, "hypotheses"),
    (lambda t: t.sentence_scores("1 2", [[1]]), TypeError, "hypotheses"),
    (lambda t: t.sentence_scores(np.array([[1, 2]]), np.array([[1, 2], [3, 4]])), ValueError, "segments"),
    (lambda t: t.sentence_scores(np.array([[1, 2]]), np.zeros((1, 0, 2), dtype=int)), ValueError, "references"),
    (lambda t: t.sentence_scores(np.array([[1, 2]]), np.array([[1, 2]]), hyp_lengths=[3]), ValueError, "hyp_lengths"),
    (lambda t: t.sentence_scores(np.array([[1, 2]]), np.array([[1, 2]]), hyp_lengths=[[1]]), ValueError, "hyp_lengths"),
    (lambda t: t.sentence_scores(np.array([[1, 2]]), np.array([[[1, 2]]]), ref_lengths=[[-1]]), ValueError, "segment 0"),
    (lambda t: t.sentence_scores(np.array([[1, 2]]), np.array([[[1, 2]]]), ref_lengths=[[-2]]), ValueError, "ref_lengths"),
    (lambda t: t.sentence_scores([[1, 2], [3]], [[[1]], [[3]]], hyp_lengths=[1, 1]), ValueError, "hyp_lengths"),
    (lambda t: t.sentence_scores([[1, 2], [3]], [[1], [3]]), TypeError, r"references\[0\]"),
    (lambda t: t.sentence_scores([[1, 2], ["a"]], [[[1]], [[3]]]), TypeError, r"hypotheses\[1\]"),
    (lambda t: t.sentence_scores([], []), ValueError, "empty"),
])
def test_bad_input(call, exc, word):
    with pytest.raises(exc, match=word):
        call(TokenBLEU())


def test_padding_errors_and_missing_references():
    right = TokenBLEU(pad_id=0)
    with pytest.raises(ValueError, match="row 0 has a token after its padding"):
        right.sentence_scores(np.array([[1, 0, 2]]), np.array([[1, 2, 0]]))
    with pytest.raises(ValueError, match="padding inside"):
        TokenBLEU(pad_id=0, padding_side="left").sentence_scores(np.array([[0, 1, 0, 2]]), np.array([[1, 2, 0, 0]]))
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        right.sentence_scores(np.array([[1, 2], [3, 4]]), np.array([[[1, 2]], [[0, 0]]]))
    with pytest.raises(TypeError, match="pad_id"):
        TokenBLEU(pad_id=1.5)
    with pytest.raises(ValueError, match="padding_side"):
        TokenBLEU(padding_side="middle")
    with pytest.raises(ValueError, match="smooth_value"):
        TokenBLEU(smooth_method="exp", smooth_value=0.1)
    # with explicit lengths the pad id may appear as a real token
    assert right.sentence_scores(np.array([[1, 0, 2, 3]]), np.array([[1, 0, 2, 3]]), hyp_lengths=[4],
                                 ref_lengths=[[4]])[0] == pytest.approx(100.0)


def test_large_batches_are_counted_in_chunks(monkeypatch):
    import bleuscope.metrics.bleu.token_ids as token_ids

    rng = np.random.default_rng(5)
    hyp = rng.integers(1, 5, size=(7, 9))
    refs = rng.integers(1, 5, size=(7, 2, 9))
    lengths = {"hyp_lengths": rng.integers(0, 10, size=7), "ref_lengths": rng.integers(0, 10, size=(7, 2))}
    whole = TokenBLEU().statistics(hyp, refs, **lengths)
    monkeypatch.setattr(token_ids, "CHUNK_SEGMENTS", 2)
    assert np.array_equal(TokenBLEU().statistics(hyp, refs, **lengths), whole)
    monkeypatch.setattr(token_ids, "CHUNK_SEGMENTS", 50_000)
    for tokens in (1, 5, 13):
        monkeypatch.setattr(token_ids, "CHUNK_TOKENS", tokens)
        assert np.array_equal(TokenBLEU().statistics(hyp, refs, **lengths), whole)


# ---------------------------------------------------------------------------------------------------------
# padded id matrices on the compiled core (IdCounter.padded_rows) against the general path and the numpy
# engine
# ---------------------------------------------------------------------------------------------------------
core = native.compiled_core()


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
    return general, _on_numpy(scorer).statistics(hyp, ref, **lengths)


def _on_numpy(scorer: TokenBLEU) -> TokenBLEU:
    """A copy of ``scorer`` that counts and scores with the numpy reference engine."""
    import copy
    import dataclasses

    from bleuscope.metrics.bleu.counting import IdCounter

    twin = copy.copy(scorer)
    twin.bleu = copy.copy(scorer.bleu)
    twin.bleu.options = dataclasses.replace(scorer.bleu.options, engine="numpy")
    twin._ids = IdCounter(scorer.stats_order, engine="numpy")
    return twin


@requires_core
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


@requires_core
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
    assert (
        ours.tobytes() == _on_numpy(scorer).sentence_scores(hyp, ref, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths).tobytes()
    )


@requires_core
def test_thread_count_does_not_change_the_rows():
    rng = np.random.default_rng(5)
    hyp, hyp_lens = _padded(rng, 300, 200, "right", 50)
    ref, ref_lens = _padded(rng, 600, 180, "right", 50)
    ref_lens[::7] = -1  # missing
    args = (hyp.view(np.uint64), hyp_lens, ref.reshape(300, 2, 180).view(np.uint64), ref_lens.reshape(300, 2))
    one = core.IdCounter(4, threads=1).padded_rows(*args)
    for threads in (2, 3, 8):
        np.testing.assert_array_equal(core.IdCounter(4, threads=threads).padded_rows(*args), one)


@requires_core
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


# -- token ids of the full uint64 range --------------------------------------------------------------------
def test_token_bleu_accepts_uint64_ids_above_int64():
    big = np.uint64(2**63)
    hyp = np.array([[big, big + np.uint64(1), np.uint64(2**64 - 1), np.uint64(5)]], dtype=np.uint64)
    ref = np.array([[big, big + np.uint64(1), np.uint64(2**64 - 1), np.uint64(7)]], dtype=np.uint64)
    # the same token structure with small ids
    small_hyp, small_ref = np.array([[1, 2, 3, 5]]), np.array([[1, 2, 3, 7]])
    got = TokenBLEU().corpus_score(hyp, ref)
    assert got == TokenBLEU().corpus_score(small_hyp, small_ref)
    text = BLEU(tokenize="none").corpus_score(
        [" ".join(map(str, hyp[0].tolist()))], [[" ".join(map(str, ref[0].tolist()))]]
    )
    assert got.score == text.score and got.counts == text.counts == [3, 2, 1, 0]
    # a list of sequences with uint64 rows and pad stripping
    ragged = TokenBLEU(pad_id=0).sentence_scores(
        [np.array([2**64 - 1, 0], dtype=np.uint64)], [[np.array([2**64 - 1], dtype=np.uint64)]]
    )
    assert ragged.tolist() == TokenBLEU().sentence_scores([[9]], [[[9]]]).tolist()


def test_token_ids_mixing_negative_and_huge_ids_is_an_error():
    with pytest.raises(ValueError, match="negative ids with ids >= 2\\*\\*63"):
        TokenBLEU().corpus_score([np.array([2**64 - 1], dtype=np.uint64)], [[np.array([-1])]])


