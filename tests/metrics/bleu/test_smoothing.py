"""Chen & Cherry (2014) smoothing in the main API: the paper's formulas by hand, NLTK and sacreBLEU where the
definitions coincide, signatures and bad input."""

from __future__ import annotations

import functools
import math
import random
import warnings
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.metrics.bleu.scoring import ScoringConfig, compute_scores

from ...conftest import DATA, read_lines, requires_core, requires_wmt

CC = [f"chen-cherry-{i}" for i in range(1, 8)]
HYP, REF = "the cat sat on", "the cat sat down on"  # m = 4 2 1 0, l = 4 3 2 1, T = 4, r = 5


def _bleu(precisions, hyp_len, ref_len, weights=None):
    """100 * BP * exp(sum w_n log p_n), the textbook formula."""
    n = len(precisions)
    weights = weights or [1 / n] * n
    if any(p == 0 for p in precisions):
        return 0.0
    bp = 1.0 if hyp_len > ref_len else math.exp(1 - ref_len / hyp_len)
    return 100 * bp * math.exp(sum(w * math.log(p) for w, p in zip(weights, precisions)))


def _score(method, hyp, refs, **kw):
    return BLEU(tokenize="none", smooth_method=method, **kw).sentence_score(hyp, refs).score


def test_paper_formulas_by_hand():
    ln4 = math.log(4)
    m5 = [F(5)]  # m'_0 = m_1 + 1
    for m_n, m_next in zip([4, 2, 1, 0], [2, 1, 0, 0]):  # m_{N+1} = 0 (no 5-gram)
        m5.append((m5[-1] + m_n + m_next) / 3)
    m7 = [5.0]
    counts7 = [4, 2, 1, ln4 / 5]  # chen-cherry-4 counts: the first zero order gets (ln T / K)**1
    for m_n, m_next in zip(counts7, counts7[1:] + [0]):
        m7.append((m7[-1] + m_n + m_next) / 3)
    p3 = (1 + 5 * F(4, 9) / 1) / (2 + 5)
    expected = {
        "chen-cherry-1": [1, 2 / 3, 1 / 2, 0.1 / 1],
        "chen-cherry-2": [1, 3 / 4, 2 / 3, 1 / 2],
        "chen-cherry-3": [1, 2 / 3, 1 / 2, 1 / 2],
        "chen-cherry-4": [1, 2 / 3, 1 / 2, (ln4 / 5) / 1],
        "chen-cherry-5": [float(m5[i + 1] / l) for i, l in enumerate([4, 3, 2, 1])],
        "chen-cherry-6": [1, 2 / 3, float(p3), float((0 + 5 * p3 ** 2 / F(2, 3)) / (1 + 5))],
        "chen-cherry-7": [m7[i + 1] / l for i, l in enumerate([4, 3, 2, 1])],
    }
    for method, precisions in expected.items():
        assert _score(method, HYP, [REF]) == pytest.approx(_bleu(precisions, 4, 5), rel=1e-12), method


def test_method4_uses_k_per_zero_order_and_parameter():
    # hyp "a b x y z" vs ref "a b c d e": m = 2 1 0 0, l = 5 4 3 2, T = 5; K = 3
    r = math.log(5) / 3
    want = _bleu([2 / 5, 1 / 4, r / 3, r ** 2 / 2], 5, 5)
    assert _score("chen-cherry-4", "a b x y z", ["a b c d e"], smooth_value=3) == pytest.approx(want, rel=1e-12)
    # one-token hypothesis: ln(1) = 0, the smoothed counts are 0 and so is the score
    assert _score("chen-cherry-4", "a", ["a b"], max_ngram_order=2) == 0.0


def test_no_match_and_short_hypotheses():
    # no unigram match: the paper still smooths (methods 1, 3, 4, 5, 7), unlike sacreBLEU/NLTK
    assert _score("chen-cherry-1", "x y", ["a b c"], max_ngram_order=2) == pytest.approx(
        _bleu([0.1 / 2, 0.1 / 1], 2, 3), rel=1e-12)
    assert _score("chen-cherry-3", "x y", ["a b c"], max_ngram_order=2) == pytest.approx(
        _bleu([0.5 / 2, 0.25 / 1], 2, 3), rel=1e-12)
    assert _score("chen-cherry-2", "x y", ["a b c"], max_ngram_order=2) == 0.0  # p_1 = 0
    # orders the hypothesis is too short for: 0 unless effective_order; method 2 keeps (0+1)/(0+1)
    assert _score("chen-cherry-1", "a b", ["a b"]) == 0.0
    assert _score("chen-cherry-1", "a b", ["a b"], effective_order=True) == pytest.approx(100.0, rel=1e-12)
    assert _score("chen-cherry-2", "a b", ["a b"]) == pytest.approx(100.0, rel=1e-12)
    assert _score("chen-cherry-6", "a b c", ["a b c"], effective_order=True) == pytest.approx(100.0, rel=1e-12)
    assert _score("chen-cherry-5", "", ["a b"]) == 0.0


def test_weights_and_corpus_level_on_summed_counts():
    bleu = BLEU(tokenize="none", smooth_method="chen-cherry-1", weights=(0.1, 0.2, 0.3, 0.4))
    want = _bleu([1, 2 / 3, 1 / 2, 0.1], 4, 5, [0.1, 0.2, 0.3, 0.4])
    assert bleu.sentence_score(HYP, [REF]).score == pytest.approx(want, rel=1e-12)
    hyps = ["a b c d e f g", HYP]
    refs = [["a b c d e f g", REF]]
    for method in CC:
        b = BLEU(tokenize="none", smooth_method=method)
        s = b.corpus_score(hyps, refs)
        assert s.score == b.corpus_score(hyps[::-1], [refs[0][::-1]]).score  # no last-segment dependence
        assert s.counts == [11, 8, 6, 4] and s.totals == [11, 9, 7, 5]
        seg = b.segment_statistics(hyps, refs)
        assert b.score_from_statistics(seg.stats).score == s.score
    # corpus chen-cherry-5: the formula on the summed counts, with the summed 5-gram matches (3)
    m = [F(12)]
    for m_n, m_next in zip([11, 8, 6, 4], [8, 6, 4, 3]):
        m.append((m[-1] + m_n + m_next) / 3)
    want = _bleu([float(m[i + 1] / t) for i, t in enumerate([11, 9, 7, 5])], 11, 12)
    assert BLEU(tokenize="none", smooth_method="chen-cherry-5").corpus_score(hyps, refs).score == pytest.approx(
        want, rel=1e-12)


def test_statistics_of_methods_5_and_7_carry_the_next_order():
    for method, width in (("chen-cherry-5", 12), ("chen-cherry-7", 12), ("chen-cherry-6", 10)):
        b = BLEU(tokenize="none", smooth_method=method)
        seg = b.segment_statistics([HYP], [[REF]])
        assert seg.stats.shape == (1, width)
        scores = b.sentence_scores([HYP], [[REF]])
        assert scores[0].counts == [4, 2, 1, 0] and scores[0].totals == [4, 3, 2, 1]
        assert scores.scores[0] == b.sentence_score(HYP, [REF]).score


def test_signature_and_options():
    assert BLEU(smooth_method="chen-cherry-4").signature(nrefs=1).split("|")[4] == "smooth:chen-cherry-4[5]"
    assert BLEU(smooth_method="chen-cherry-1", smooth_value=0.001).signature(nrefs=1).split("|")[4] == \
        "smooth:chen-cherry-1[0.001]"
    assert BLEU(smooth_method="chen-cherry-6", smooth_value=2.5).signature(nrefs=1).split("|")[4] == \
        "smooth:chen-cherry-6[2.5]"
    assert BLEU(smooth_method="chen-cherry-5").signature(nrefs=1).split("|")[4] == "smooth:chen-cherry-5"
    assert BLEU(smooth_method="floor").signature(nrefs=1).split("|")[4] == "smooth:floor[0.10]"  # unchanged
    with pytest.raises(ValueError, match="smooth_value is not used"):
        BLEU(smooth_method="chen-cherry-2", smooth_value=1)
    with pytest.raises(ValueError, match="must be > 0"):
        BLEU(smooth_method="chen-cherry-4", smooth_value=0)
    with pytest.raises(ValueError, match="unknown smooth_method"):
        BLEU(smooth_method="chen-cherry-8")
    with pytest.raises(TypeError):
        BLEU(smooth_method="chen-cherry-1", smooth_value="0.1")


def test_strings_where_lists_are_expected_are_type_errors():
    bleu = BLEU(smooth_method="chen-cherry-3")
    with pytest.raises(TypeError, match="hypotheses"):
        bleu.corpus_score("a b c", [["a b c"]])
    with pytest.raises(TypeError, match="references"):
        bleu.sentence_score("a b c", "a b c")
    with pytest.raises(TypeError, match="hypothesis"):
        bleu.sentence_score(["a", "b"], ["a b"])
    with pytest.raises(TypeError, match=r"hypotheses\[0\] must be a string"):  # token lists: NLTK's layout
        bleu.corpus_score([["a", "b"]], [["a b"]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # alpha = 0 on a short hypothesis: no numpy warning, a finite score
        assert _score("chen-cherry-6", "a b c", ["a b c"], smooth_value=0, effective_order=True) == \
            pytest.approx(100.0, rel=1e-12)


# -- differential: NLTK (methods 1, 2, 3, 6) and sacreBLEU (add-k = 2, exp = 3) where definitions coincide -------
NLTK_SAME = {"chen-cherry-1": 1, "chen-cherry-2": 2, "chen-cherry-3": 3, "chen-cherry-6": 6}


@functools.lru_cache(maxsize=None)
def _wmt_lines(n: int = 300):
    base = DATA / "generaltest2022" / "en-de"
    return read_lines(base / "sys" / "Online-B.txt")[:n], read_lines(base / "ref.A.txt")[:n]


@requires_wmt
@pytest.mark.parametrize("method", list(NLTK_SAME))
def test_sentence_scores_equal_nltk_where_definitions_coincide(method):
    nb = pytest.importorskip("nltk.translate.bleu_score")
    hyps, refs = _wmt_lines()
    ours = BLEU(tokenize="none", smooth_method=method).sentence_scores(hyps, [refs])
    sf = getattr(nb.SmoothingFunction(), f"method{NLTK_SAME[method]}")
    checked = 0
    for i, (h, r) in enumerate(zip(hyps, refs)):
        row = ours.stats[i]
        if len(h.split()) < 4 or row[2] == 0 or (method == "chen-cherry-6" and row[4] == 0):
            continue
        theirs = nb.sentence_bleu([r.split()], h.split(), smoothing_function=sf)
        assert ours.scores[i] / 100 == pytest.approx(theirs, rel=1e-12), i
        checked += 1
    assert checked > 200


@requires_wmt
@pytest.mark.parametrize("method,peer", [("chen-cherry-2", "add-k"), ("chen-cherry-3", "exp")])
def test_sentence_scores_equal_sacrebleu_where_definitions_coincide(method, peer):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, refs = _wmt_lines()
    ours = BLEU(tokenize="13a", smooth_method=method).sentence_scores(hyps, [refs])
    metric = sacrebleu.BLEU(tokenize="13a", smooth_method=peer)
    for i, (h, r) in enumerate(zip(hyps, refs)):
        if ours.stats[i, 2] == 0 or ours.stats[i, 0] < 4:  # sacreBLEU: 0 without matches; stops at l_n = 0
            continue
        assert ours.scores[i] == pytest.approx(metric.sentence_score(h, [r]).score, rel=1e-12), i


# -- properties: an independent per-sentence implementation of the paper's formulas ------------------------------
def _ngrams(tokens, n):
    out = {}
    for i in range(len(tokens) - n + 1):
        g = tuple(tokens[i:i + n])
        out[g] = out.get(g, 0) + 1
    return out


def _paper_sentence(method, hyp, refs, value, order=4):
    """Per-sentence oracle in exact fractions where the paper's formulas allow it; floats for logs."""
    h = hyp.split()
    rs = [r.split() for r in refs]
    m, l = [], []
    for n in range(1, order + 2):
        hc = _ngrams(h, n)
        mx = {}
        for r in rs:
            for g, c in _ngrams(r, n).items():
                mx[g] = max(mx.get(g, 0), c)
        m.append(sum(min(c, mx.get(g, 0)) for g, c in hc.items()))
        l.append(max(0, len(h) - n + 1))
    if any(x == 0 for x in l[:order]) and method != "chen-cherry-2" or not h:
        return None  # the main API's shortness rules apply; covered elsewhere
    zero_rank, k = [], 0
    for x in m[:order]:
        k += x == 0
        zero_rank.append(k if x == 0 else 0)
    if method == "chen-cherry-1":
        p = [(value if x == 0 else x) / t for x, t in zip(m, l[:order])]
    elif method == "chen-cherry-2":
        p = [m[0] / l[0]] + [(x + 1) / (t + 1) for x, t in zip(m[1:order], l[1:order])]
    elif method == "chen-cherry-3":
        p = [(0.5 ** z if z else x) / t for x, t, z in zip(m, l, zero_rank)]
    elif method in ("chen-cherry-4", "chen-cherry-7"):
        c = [(math.log(len(h)) / value) ** z if z else x for x, z in zip(m, zero_rank)]
        if method == "chen-cherry-4":
            p = [x / t for x, t in zip(c, l)]
        else:
            prev, p = c[0] + 1.0, []  # m'_0 from the smoothed unigram count
            for i in range(order):
                prev = (prev + c[i] + (c[i + 1] if i + 1 < order else m[order])) / 3
                p.append(prev / l[i])
    elif method == "chen-cherry-5":
        prev, p = F(m[0] + 1), []
        for i in range(order):
            prev = (prev + m[i] + m[i + 1]) / 3
            p.append(float(prev / l[i]))
    else:  # chen-cherry-6
        p = [F(m[0], l[0]), F(m[1], l[1])]
        for i in range(2, order):
            prior = p[i - 1] ** 2 / p[i - 2] if p[i - 2] else 0
            p.append((m[i] + F(value) * prior) / (l[i] + F(value)))
        p = [float(x) for x in p]
    ref_len = min((len(r) for r in rs), key=lambda x: (abs(x - len(h)), x))
    return _bleu(p, len(h), ref_len)


SENT = st.lists(st.sampled_from("abcd"), min_size=0, max_size=10).map(" ".join)
PARAM = {"chen-cherry-1": 0.1, "chen-cherry-4": 5.0, "chen-cherry-6": 5.0, "chen-cherry-7": 5.0}


@settings(max_examples=150, deadline=None)
@given(pairs=st.lists(st.tuples(SENT, st.lists(SENT, min_size=1, max_size=3)), min_size=1, max_size=6),
       method=st.sampled_from(CC), value=st.sampled_from([None, 0.5, 2.0]))
def test_property_vectorized_scores_equal_the_paper_oracle(pairs, method, value):
    if method not in PARAM:
        value = None
    hyps = [h for h, _ in pairs]
    n_refs = max(len(r) for _, r in pairs)
    streams = [[r[k] if k < len(r) else None for _, r in pairs] for k in range(n_refs)]
    bleu = BLEU(tokenize="none", smooth_method=method, smooth_value=value)
    scores = bleu.sentence_scores(hyps, streams)
    for i, (h, refs) in enumerate(pairs):
        want = _paper_sentence(method, h, refs, value if value is not None else PARAM.get(method))
        if want is not None:
            assert scores.scores[i] == pytest.approx(want, rel=1e-12, abs=1e-300)


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(0, 10**6), method=st.sampled_from(CC))
def test_property_scores_bounded_and_batch_equals_single(seed, method):
    rng = random.Random(seed)
    hyps = [" ".join(rng.choices("abc", k=rng.randint(0, 8))) for _ in range(5)]
    refs = [[" ".join(rng.choices("abc", k=rng.randint(1, 8))) for _ in range(5)]]
    bleu = BLEU(tokenize="none", smooth_method=method, effective_order=bool(seed % 2))
    batch = bleu.sentence_scores(hyps, refs).scores
    single = np.array([bleu.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])])
    assert np.array_equal(batch, single)
    assert np.all(np.isfinite(batch)) and np.all(batch >= 0)


# ---------------------------------------------------------------------------------------------------------
# the compiled scorer (_core.BleuScorer) against the numpy scoring: the same scores, precisions and brevity
# penalties to the last bit, and sacreBLEU's sentence scores
# ---------------------------------------------------------------------------------------------------------
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


@requires_core
@settings(max_examples=150, deadline=None)
@given(statistics(), st.sampled_from(METHODS), st.booleans())
def test_native_scores_are_bit_identical_to_numpy(data, method, effective_order):
    order, stats = data
    _assert_same(stats, ScoringConfig(order, method[0], method[1], effective_order))


@requires_core
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


def test_sentence_scores_match_sacrebleu(engine):
    sacrebleu = pytest.importorskip("sacrebleu")
    from bleuscope import BLEU

    hyps = ["the cat sat on the mat", "a", "", "completely different words here", "the the the the"]
    refs = ["the cat is on the mat", "a b c", "something", "nothing in common at all", "the cat"]
    for method in ("none", "floor", "add-k", "exp"):
        ours = BLEU(smooth_method=method, effective_order=True, engine=engine).sentence_scores(hyps, [refs]).scores
        theirs = sacrebleu.BLEU(smooth_method=method, effective_order=True)
        expected = [theirs.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]
        assert ours.tolist() == expected, method


@requires_core
def test_weighted_configuration_scores_like_numpy():
    stats = np.array([[5, 6, 3, 1, 0, 0, 5, 4, 3, 2]], dtype=np.int64)
    weighted = ScoringConfig(4, "exp", None, False, weights=(0.4, 0.3, 0.2, 0.1))
    assert _same_bits(compute_scores(stats, weighted).score, compute_scores(stats, weighted, engine="numpy").score)
