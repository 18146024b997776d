"""Property-based tests: arbitrary Unicode corpora agree with sacreBLEU; invariants of the statistics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU

sacrebleu = pytest.importorskip("sacrebleu")

# words from a small vocabulary (so that n-grams match) mixed with hostile pieces
PIECES = [
    "the", "cat", "The", "CAT", "sat", "on", "mat", "a", "b", "1990", "2000", "3.14", "1,000",
    ".", ",", "-", "'", '"', "!", "?", "(", ")", "&quot;", "&amp;", "&lt;", "&gt;", "&", "<skipped>",
    "U.S.", "e-mail", "don't", "«", "»", "—", "…", "€", "$", "“", "”",
    "中", "文", "测试", "。", "，", "日本語", "カタカナ", "ひらがな", "한국어", "𠀀", "Ａ", "１",
    "e\u0301", "\u0301", "İ", "ß", "Σ", "ΣΑΣ", "😀", "👍🏽", "\u200b", "\u2060", "\ufeff", "\x1d", "\x08",
]
SPACES = [" ", " ", " ", "  ", "\t", "\u00a0", "\u2009", "\u3000", "\u2028", "\x1c", "\x85", "\u200a"]


@st.composite
def segments(draw, max_pieces=12):
    n = draw(st.integers(0, max_pieces))
    out = []
    for _ in range(n):
        out.append(draw(st.sampled_from(PIECES)) if draw(st.booleans()) else draw(st.text(max_size=3)))
        out.append(draw(st.sampled_from(SPACES)) if draw(st.integers(0, 4)) else "")
    if draw(st.booleans()):
        out.insert(0, draw(st.sampled_from(SPACES)))
    return "".join(out)


@st.composite
def corpora(draw, allow_none=True):
    n = draw(st.integers(1, 6))
    k = draw(st.integers(1, 3))
    hyps = [draw(segments()) for _ in range(n)]
    refs = [[draw(segments()) for _ in range(n)] for _ in range(k)]
    if allow_none and k > 1 and draw(st.booleans()):
        for i in range(n):  # drop some references, but keep at least one per segment
            j = draw(st.integers(0, k - 1))
            if draw(st.booleans()):
                for kk in range(k):
                    if kk != j and draw(st.booleans()):
                        refs[kk][i] = None
    return hyps, refs


TOKENIZERS = ["13a", "intl", "char", "none", "zh"]
SMOOTH = [("exp", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2), ("none", None)]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from(TOKENIZERS), st.booleans(), st.sampled_from(SMOOTH), st.booleans(),
       st.integers(1, 5))
def test_corpus_score_agrees_with_sacrebleu(corpus, tok, lc, smooth, eff, order):
    hyps, refs = corpus
    opts = dict(tokenize=tok, lowercase=lc, smooth_method=smooth[0], smooth_value=smooth[1],
                effective_order=eff, max_ngram_order=order)
    ours = BLEU(**opts).corpus_score(hyps, refs)
    theirs = sacrebleu.BLEU(**opts).corpus_score(hyps, refs)
    assert ours.score == theirs.score
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.precisions == list(theirs.precisions)
    if smooth[0] != "add-k":
        assert ours.counts == theirs.counts and ours.totals == theirs.totals


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from(TOKENIZERS), st.sampled_from(SMOOTH), st.booleans())
def test_sentence_scores_agree_with_sacrebleu_loop(corpus, tok, smooth, eff):
    hyps, refs = corpus
    opts = dict(tokenize=tok, smooth_method=smooth[0], smooth_value=smooth[1], effective_order=eff)
    ours = BLEU(**opts).sentence_scores(hyps, refs)
    sb = sacrebleu.BLEU(**opts)
    for i, h in enumerate(hyps):
        seg_refs = [r[i] for r in refs if r[i] is not None]
        assert ours.scores[i] == sb.sentence_score(h, seg_refs).score


@pytest.mark.filterwarnings("ignore::bleuscope.CJKTokenizationWarning")
@settings(max_examples=100, deadline=None)
@given(corpora(), st.sampled_from(TOKENIZERS), st.randoms(use_true_random=False))
def test_statistics_sum_and_permutation_invariance(corpus, tok, rnd):
    hyps, refs = corpus
    bleu = BLEU(tokenize=tok)
    seg = bleu.segment_statistics(hyps, refs)
    whole = bleu.corpus_score(hyps, refs)
    assert seg.total().tolist() == [whole.sys_len, whole.ref_len] + whole.counts + whole.totals
    order = list(range(len(hyps)))
    rnd.shuffle(order)
    shuffled = bleu.corpus_score([hyps[i] for i in order], [[r[i] for i in order] for r in refs])
    assert shuffled.counts == whole.counts and shuffled.ref_len == whole.ref_len
    assert shuffled.score == whole.score
    # clipped matches never exceed totals; scores stay in range
    n = bleu.max_ngram_order
    assert (seg.stats[:, 2: 2 + n] <= seg.stats[:, 2 + n:]).all()
    assert 0.0 <= whole.score <= 100.00000000000004


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(PIECES[:10]), min_size=4, max_size=12))
def test_identical_hypothesis_scores_100(words):
    line = " ".join(words)
    assert BLEU(tokenize="none").corpus_score([line], [[line]]).score == pytest.approx(100.0, abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.one_of(st.text(), st.integers(), st.none(), st.binary(), st.dictionaries(st.text(), st.text())))
def test_bad_hypotheses_containers_raise_typeerror(bad):
    with pytest.raises((TypeError, ValueError)):
        BLEU().corpus_score(bad, [["x"]])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.integers(), st.floats(), st.binary(), st.lists(st.text())), min_size=1, max_size=4))
def test_non_string_items_raise_typeerror(items):
    with pytest.raises(TypeError, match=r"hypotheses\[\d+\] must be a string"):
        BLEU().corpus_score(items, [["x"] * len(items)])


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5), st.integers(0, 5))
def test_length_mismatch_never_truncates(n_hyp, n_ref):
    if n_hyp == n_ref:
        return
    with pytest.raises(ValueError, match="lines but hypotheses has"):
        BLEU().corpus_score(["a"] * n_hyp, [["a"] * n_ref])


def test_engine_chunking_is_invisible(monkeypatch):
    import bleuscope.metrics.bleu.counting as bleu_mod

    rng = np.random.default_rng(0)
    words = ["a", "b", "c", "d", "e"]
    hyps = [" ".join(rng.choice(words, rng.integers(0, 9))) for _ in range(200)]
    refs = [[" ".join(rng.choice(words, rng.integers(0, 9))) for _ in range(200)] for _ in range(2)]
    whole = BLEU().segment_statistics(hyps, refs).stats
    monkeypatch.setattr(bleu_mod, "CHUNK_SEGMENTS", 7)
    assert (BLEU().segment_statistics(hyps, refs).stats == whole).all()
    assert BLEU().corpus_score(hyps, refs).score == sacrebleu.BLEU().corpus_score(hyps, refs).score
