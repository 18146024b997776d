"""ROUGE against rouge-score 0.1.2 (``==`` on every precision, recall and F), on WMT segments, summary-like
documents, corner cases and generated text; the corpus mean, the signature and the statistics rows."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.metrics.rouge import ROUGE
from bleuscope.metrics.rouge.scorer import RougeTokenizerWarning
from bleuscope.metrics.rouge.scores import prf, prf_of, to_limbs

from ...conftest import requires_wmt
from ..rouge_data import ALL_TYPES, CORNER_CASES, PAIRS, summaries, wmt_segments

rouge_scorer = pytest.importorskip("rouge_score.rouge_scorer")

ENGINES = ("numpy", "auto")


def peer_scores(types, stem, hyps, streams):
    """rouge-score's score (one reference) or score_multi (several) per segment."""
    scorer = rouge_scorer.RougeScorer(list(types), use_stemmer=stem)
    out = []
    for i, hyp in enumerate(hyps):
        refs = [s[i] for s in streams]
        out.append(scorer.score(refs[0], hyp) if len(refs) == 1 else scorer.score_multi(refs, hyp))
    return out


def assert_same(types, stem, hyps, streams, engine):
    expected = peer_scores(types, stem, hyps, streams)
    got = ROUGE(types, use_stemmer=stem, engine=engine).sentence_scores(hyps, streams)
    for i, exp in enumerate(expected):
        for k, t in enumerate(types):
            assert tuple(got.prf[i, k]) == tuple(exp[t]), (i, t, hyps[i], [s[i] for s in streams])
    return got


@requires_wmt
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("stem", [False, True])
@pytest.mark.parametrize("testset,pair", PAIRS[:2])
def test_wmt_segments_equal_rouge_score(testset, pair, stem, engine):
    hyps, refs = wmt_segments(testset, pair, limit=400 if engine == "auto" else 80)  # the reference is slow
    assert_same(ALL_TYPES, stem, hyps, refs[:1], engine)


@requires_wmt
@pytest.mark.parametrize("engine", ENGINES)
def test_wmt_several_references_equal_score_multi(engine):
    hyps, refs = wmt_segments("newstest2021", "en-de", limit=200)  # three references
    assert len(refs) == 3
    assert_same(("rouge1", "rouge2", "rougeL", "rougeLsum"), True, hyps, refs, engine)


@requires_wmt
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("stem", [False, True])
def test_summary_documents_equal_rouge_score(stem, engine):
    hyps, refs = wmt_segments("generaltest2022", "de-en", limit=600 if engine == "auto" else 150)
    docs_h, docs_r = summaries(hyps, 5), summaries(refs[0], 5)
    assert_same(ALL_TYPES, stem, docs_h, [docs_r], engine)


@requires_wmt
@pytest.mark.parametrize("engine", ENGINES)
def test_only_rougelsum_and_other_wmt_pairs(engine):
    for testset, pair in PAIRS[2:]:
        hyps, refs = wmt_segments(testset, pair, limit=150)
        assert_same(("rougeLsum",), False, summaries(hyps, 3), [summaries(refs[0], 3)], engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("stem", [False, True])
def test_corner_cases(stem, engine):
    hyps = [h for h, _ in CORNER_CASES]
    refs = [r for _, r in CORNER_CASES]
    assert_same(ALL_TYPES, stem, hyps, [refs], engine)
    assert_same(ALL_TYPES, stem, refs, [hyps], engine)


TEXT = st.text(
    alphabet=st.sampled_from(list("abcAB xyz\n\n.,!-'0123") + ["\u212a", "\u0130", "é", "ß", "日", "\t", "\r"]),
    max_size=80,
)
UNICODE_TEXT = st.text(max_size=60)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(TEXT, TEXT, TEXT), min_size=1, max_size=6), st.booleans())
def test_generated_text_equals_rouge_score(rows, stem):
    hyps = [r[0] for r in rows]
    refs = [[r[1] for r in rows], [r[2] for r in rows]]
    for engine in ENGINES:
        assert_same(ALL_TYPES, stem, hyps, refs[:1], engine)
        assert_same(("rouge1", "rougeL", "rougeLsum"), stem, hyps, refs, engine)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(UNICODE_TEXT, UNICODE_TEXT), min_size=1, max_size=4), st.booleans())
def test_random_unicode_equals_rouge_score(rows, stem):
    hyps = [r[0] for r in rows]
    refs = [r[1] for r in rows]
    for engine in ENGINES:
        assert_same(("rouge1", "rouge2", "rougeL", "rougeLsum"), stem, hyps, [refs], engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_long_document(engine):
    rng = np.random.default_rng(7)
    vocab = [f"w{i}" for i in range(50)] + ["the", "of", "running", "runs"]
    def doc(n):
        words = rng.choice(vocab, size=n)
        return " ".join(w + ("\n" if rng.random() < 0.05 else "") for w in words)
    hyp, ref = doc(1500), doc(1700)
    assert_same(ALL_TYPES, True, [hyp], [[ref]], engine)
    # one long line: rougeLsum is one sentence against one sentence
    assert_same(("rougeL", "rougeLsum"), False, [hyp.replace("\n", " ")], [[ref.replace("\n", " ")]], engine)


def test_corpus_score_is_the_exact_mean():
    hyps, refs = [h for h, _ in CORNER_CASES], [r for _, r in CORNER_CASES]
    metric = ROUGE()
    batch = metric.sentence_scores(hyps, [refs])
    corpus = metric.corpus_score(hyps, [refs])
    for k, t in enumerate(metric.types):
        for v, name in enumerate(("precision", "recall", "fmeasure")):
            exact = sum(Fraction(float(x)) for x in batch.prf[:, k, v]) / len(hyps)
            assert getattr(corpus, name)[t] == float(exact)
    assert corpus.score == 100 * corpus.fmeasure["rouge1"]
    assert corpus.signature.startswith("nrefs:1|types:rouge1,rouge2,rougeL,rougeLsum|stem:no|tok:default|agg:mean")


def test_rows_sum_like_shards():
    hyps, refs = [h for h, _ in CORNER_CASES], [r for _, r in CORNER_CASES]
    metric = ROUGE(("rouge2", "rougeLsum"))
    rows = metric.segment_statistics(hyps, [refs]).stats
    assert rows.shape == (len(hyps), metric.stats_width)
    whole = metric.score_from_statistics(rows)
    halves = metric.score_from_statistics(rows[:7].sum(0) + rows[7:].sum(0))
    assert whole == halves
    assert metric.score_rows(rows.sum(0))[0] == whole.score


def test_limbs_are_exact():
    values = np.array([0.0, 1.0, 1 / 3, 2 / 7, 1 / (2**37 + 1), np.nextafter(1.0, 0)])
    limbs = to_limbs(values)
    for v, (hi, mid, lo) in zip(values, limbs):
        assert Fraction((int(hi) << 62) + (int(mid) << 31) + int(lo), 2**90) == Fraction(float(v))
        assert 0 <= mid < 2**31 and 0 <= lo < 2**31 and 0 <= hi <= 2**28


COUNT = st.integers(min_value=0, max_value=2**40)


@settings(max_examples=500, deadline=None)
@given(st.lists(st.tuples(COUNT, COUNT, COUNT), min_size=1, max_size=20), st.booleans())
def test_scalar_prf_equals_the_vectorized_one(triples, ngram):
    # matches never exceed either count in real rows; small counts make ties, zeros and equal values common
    triples = [(min(m, h, r) if ngram or (h and r) else m, h, r) for m, h, r in triples]
    triples += [(m % 7, h % 7, r % 7) for m, h, r in triples]
    counts = np.array(triples, dtype=np.int64)
    vectorized = prf(counts, np.array(ngram))
    for row, values in zip(triples, vectorized):
        assert prf_of(*row, ngram) == tuple(values), row


def test_bad_input():
    with pytest.raises(ValueError, match="unknown ROUGE type 'rouge0'"):
        ROUGE(("rouge0",))
    with pytest.raises(ValueError, match="unknown ROUGE type"):
        ROUGE(("rougeX",))
    with pytest.raises(ValueError, match="unknown ROUGE tokenizer"):
        ROUGE(tokenizer="moses")
    with pytest.raises(TypeError, match="use_stemmer"):
        ROUGE(use_stemmer="yes")
    with pytest.raises(ValueError, match="repeated"):
        ROUGE(("rouge1", "rouge1"))
    with pytest.raises(ValueError, match="has 1 lines but hypotheses has 2"):
        ROUGE().corpus_score(["a", "b"], [["a"]])


def test_unicode_tokenizers_are_options_in_the_signature():
    hyps, refs = ["Привет, мир! 日本語"], [["привет мир 日本"]]
    with pytest.warns(RougeTokenizerWarning, match="tokenizer='unicode'"):
        default = ROUGE(("rouge1",)).corpus_score(hyps, refs)
    assert default.fmeasure["rouge1"] == 0.0  # rouge-score drops every non-ASCII letter
    uni = ROUGE(("rouge1",), tokenizer="unicode").corpus_score(hyps, refs)
    assert uni.precision["rouge1"] == 2 / 3 and uni.recall["rouge1"] == 2 / 3
    cjk = ROUGE(("rouge1",), tokenizer="unicode-cjk").corpus_score(hyps, refs)
    assert cjk.precision["rouge1"] == 4 / 5 and cjk.recall["rouge1"] == 4 / 4
    assert "tok:unicode-cjk" in cjk.signature


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("stem", [False, True])
def test_full_wmt_sweep(stem):
    """Every WMT pair with system outputs: every segment of two systems against each reference (--full)."""
    from ...conftest import DATA, all_pairs

    for testset, pair in all_pairs():
        systems = sorted(p.stem for p in (DATA / testset / pair / "sys").glob("*.txt"))[:2]
        for system in systems:
            hyps, refs = wmt_segments(testset, pair, system)
            assert_same(("rouge1", "rouge2", "rougeL", "rougeLsum"), stem, hyps, refs, "auto")
