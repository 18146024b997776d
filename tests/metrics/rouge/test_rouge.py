"""ROUGE against rouge-score 0.1.2 (``==`` on every precision, recall and F), on WMT segments, summary-like
documents, corner cases and generated text; the corpus mean, the signature and the statistics rows; the input
checked once; the compiled counts and best-reference choice equal the Python reference's."""

from __future__ import annotations

import re
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.core.native import rouge as native_rouge
from bleuscope.metrics.rouge import ROUGE
from bleuscope.metrics.rouge.scorer import RougeTokenizerWarning
from bleuscope.metrics.rouge.scores import prf, prf_of, to_limbs
from bleuscope.metrics.rouge.tokenize import TOKENIZERS

from ...conftest import requires_core, requires_wmt, spy_on_validation
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


# -- sentence_scores checks its input once: the lists, then their items in the compiled core or, when the core
# does not count the input or stops at an item, in Python (the messages of check_inputs)
HYPS = ["the cat sat on the mat", "a dog barks", "hello world"]
REFS = [["the cat is on the mat", "dogs bark", None], ["a cat sat", None, "hello there world"]]


@pytest.mark.parametrize("options", [{}, {"engine": "numpy"}, {"tokenizer": "unicode"}])
def test_the_references_checked_once(monkeypatch, options):
    rouge = ROUGE(["rouge1", "rougeL"], **options)
    expected = ROUGE(["rouge1", "rougeL"], engine="numpy").sentence_scores(HYPS, REFS)
    streams = spy_on_validation(monkeypatch, "check_references")
    got = rouge.sentence_scores(HYPS, REFS)
    assert streams.call_count == 1  # also on the Python path (numpy engine, Unicode tokenizer)
    if "tokenizer" not in options:
        np.testing.assert_array_equal(got.prf, expected.prf)
        np.testing.assert_array_equal(got.counts, expected.counts)
    assert got.signature == rouge.signature("var")


BAD = [
    (["a", 3, "b"], [["x", "y", "z"]]),
    (["a", "b", "c"], [["x", b"y", "z"]]),
    (["a", "b", "c"], [["x", None, "z"], ["x", None, None]]),
    ([], [["x"]]),
    (["a", "b"], [["x"]]),
    (["a", "b"], "x"),
    ("a b", [["x"]]),
    (["a", None], [["x", "y"]]),
]


@pytest.mark.parametrize("options", [{}, {"engine": "numpy"}, {"tokenizer": "unicode"}])
@pytest.mark.parametrize("as_iterators", [False, True])
@pytest.mark.parametrize(("hyps", "refs"), BAD)
def test_errors_are_those_of_check_inputs(options, as_iterators, hyps, refs):
    rouge = ROUGE(["rouge1"], **options)
    with pytest.raises((TypeError, ValueError)) as expected:
        rouge.check_inputs(hyps, refs)
    if as_iterators and isinstance(hyps, list) and isinstance(refs, list):
        hyps, refs = iter(hyps), [iter(r) for r in refs]
    with pytest.raises(expected.type, match=f"^{re.escape(str(expected.value))}$"):
        rouge.sentence_scores(hyps, refs)


# -- the compiled counts equal the Python reference's (bleuscope.metrics.rouge)
TYPES = ALL_TYPES + ("rouge9",)


def _on_both_engines(native_method, python_method, hyps, streams, **options):
    present = np.array([[s[i] is not None for s in streams] for i in range(len(hyps))])
    native = getattr(ROUGE(TYPES, engine="native", **options), native_method)(hyps, streams, present)
    python = getattr(ROUGE(TYPES, engine="numpy", **options), python_method)(hyps, streams, present)
    return native, python


def native_and_python(hyps, streams, **options):
    """Each segment's counts from the compiled core and from the Python reference."""
    return _on_both_engines("pair_counts", "python_pair_counts", hyps, streams, **options)


@requires_core
@pytest.mark.parametrize("tokenizer", TOKENIZERS)
@pytest.mark.parametrize("stem", [False, True])
def test_compiled_counts_of_corner_cases(tokenizer, stem):
    hyps = [h for h, _ in CORNER_CASES]
    refs = [r for _, r in CORNER_CASES]
    native, python = native_and_python(hyps, [refs, hyps[::-1], [None] * len(hyps)], use_stemmer=stem, tokenizer=tokenizer)
    assert np.array_equal(native, python)


NATIVE_TEXT = st.text(alphabet=st.sampled_from(list("abAB cd\n\n.,-'01") + ["\u212a", "\u0130", "日", "本", "é", "\u0301"]),
               max_size=120)


@requires_core
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(NATIVE_TEXT, NATIVE_TEXT, st.text(max_size=40)), min_size=1, max_size=5), st.booleans(),
       st.sampled_from(TOKENIZERS))
def test_generated(rows, stem, tokenizer):
    hyps = [r[0] for r in rows]
    streams = [[r[1] for r in rows], [r[2] for r in rows]]
    native, python = native_and_python(hyps, streams, use_stemmer=stem, tokenizer=tokenizer)
    assert np.array_equal(native, python)


# the compiled tokenizer classifies 64 bytes at a time and keys tokens of up to 16 bytes: runs of letters
# around 16 and 64 bytes long, the two characters whose lowercase is ASCII (U+212A, U+0130) and other lead
# bytes of theirs (U+010D, U+2014) at every offset
RUN_TEXT = st.lists(
    st.sampled_from(["a", "B", "7", "q", "\u212a", "\u0130", "\u010d", "\u2014", " ", "\n", "abcdefghijklmno",
                     "RUNNING", "Generalizations", "x" * 17, ".,", "Q" * 63, "w" * 64]),
    max_size=60,
).map("".join)


@requires_core
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(RUN_TEXT, RUN_TEXT), min_size=1, max_size=4), st.booleans())
def test_generated_runs_and_boundaries(rows, stem):
    hyps = [r[0] for r in rows]
    native, python = native_and_python(hyps, [[r[1] for r in rows], hyps[::-1]], use_stemmer=stem)
    assert np.array_equal(native, python)


@requires_core
def test_threads_do_not_change_counts():
    rng = np.random.default_rng(3)
    vocab = np.array([f"w{i}" for i in range(30)] + ["running", "generalizations", "\n"])
    hyps = [" ".join(rng.choice(vocab, size=rng.integers(0, 40))) for _ in range(3000)]
    refs = [" ".join(rng.choice(vocab, size=rng.integers(0, 40))) for _ in range(3000)]
    present = np.ones((3000, 1), dtype=bool)
    one = ROUGE(TYPES, use_stemmer=True, engine="native", threads=1).pair_counts(hyps, [refs], present)
    two = ROUGE(TYPES, use_stemmer=True, engine="native", threads=2).pair_counts(hyps, [refs], present)
    assert np.array_equal(one, two)
    assert np.array_equal(one[:200], ROUGE(TYPES, use_stemmer=True, engine="numpy").python_pair_counts(
        hyps[:200], [refs[:200]], present[:200]))


@requires_core
def test_long_lines_and_long_documents():
    rng = np.random.default_rng(5)
    vocab = np.array([f"t{i}" for i in range(40)])
    hyp = " ".join(rng.choice(vocab, size=3000))
    ref = " ".join(rng.choice(vocab, size=2500))
    native, python = native_and_python([hyp, hyp.replace(" t1 ", "\n")], [[ref, ref.replace(" t2 ", "\n")]])
    assert np.array_equal(native, python)


def best_both(hyps, streams, **options):
    """Each segment's best reference per type, chosen in the compiled core and by the reference."""
    return _on_both_engines("chunk_values", "chunk_values", hyps, streams, **options)


@requires_core
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(NATIVE_TEXT, NATIVE_TEXT, st.one_of(st.none(), NATIVE_TEXT), st.booleans()), min_size=1, max_size=6),
       st.booleans(), st.sampled_from(TOKENIZERS))
def test_best_reference_values_equal_the_reference(rows, stem, tokenizer):
    # three streams: a reference, a copy of it where the flag says so (ties: the first wins) or the next
    # row's, and one with missing references
    hyps = [r[0] for r in rows]
    first = [r[1] for r in rows]
    second = [r[1] if r[3] else rows[(i + 1) % len(rows)][1] for i, r in enumerate(rows)]
    (counts, values), (ref_counts, ref_values) = best_both(hyps, [first, second, [r[2] for r in rows]],
                                                          use_stemmer=stem, tokenizer=tokenizer)
    assert counts.dtype == np.int64 and values.dtype == np.float64
    assert np.array_equal(counts, ref_counts)
    assert np.array_equal(values.view(np.int64), ref_values.view(np.int64))  # bit for bit


@requires_core
def test_best_reference_of_corner_cases_and_references_per_segment():
    hyps = [h for h, _ in CORNER_CASES]
    refs = [r for _, r in CORNER_CASES]
    missing = [None if i % 2 else r for i, r in enumerate(refs[::-1])]
    for stem in (False, True):
        (counts, values), (ref_counts, ref_values) = best_both(hyps, [missing, refs, hyps], use_stemmer=stem)
        assert np.array_equal(counts, ref_counts)
        assert np.array_equal(values.view(np.int64), ref_values.view(np.int64))
    _, _, nrefs = native_rouge.rouge_counter(("rouge1",), stem=False, pretokenized=False, threads=None).best(
        hyps, [missing, refs])
    assert nrefs.tolist() == [1 + (r is not None) for r in missing]
    # equal F from different counts (P 1/2, R 1 and P 1, R 1/2): the first reference wins, as in score_multi
    short, long = "a b", "a b c d e f x y"
    for streams, first in (([[short], [long]], [2, 4, 2]), ([[long], [short]], [4, 4, 8])):
        (counts, values), (ref_counts, _) = best_both(["a b c d"], streams)
        assert counts[0, 0].tolist() == first == ref_counts[0, 0].tolist()
        assert values[0, 0, 2] == 2 / 3


@requires_core
def test_sentence_scores_name_a_bad_item_as_the_checks_do():
    rouge = ROUGE(("rouge1", "rougeL"))
    with pytest.raises(TypeError, match=r"^hypotheses\[1\] must be a string, got int$"):
        rouge.sentence_scores(["a", 3], [["a", "b"]])
    with pytest.raises(TypeError, match=r"^hypotheses\[0\] must be a string, got None$"):
        rouge.sentence_scores([None, "b"], [["a", "b"]])
    with pytest.raises(TypeError, match=r"^references\[1\]\[0\] must be a string, got bytes$"):
        rouge.sentence_scores(["a", "b"], [["a", "b"], [b"a", "b"]])
    with pytest.raises(ValueError, match="^segment 1 has no reference"):
        rouge.sentence_scores(["a", "b"], [["a", None], ["a", None]])
    with pytest.raises(ValueError, match="hypotheses is empty"):
        rouge.sentence_scores([], [[]])
    with pytest.raises(ValueError, match=r"references\[0\] has 1 lines but hypotheses has 2"):
        rouge.sentence_scores(["a", "b"], [["a"]])
    # iterators are read once, and score as the lists do (also when an item is then found bad)
    lists = rouge.sentence_scores(["a b", "c"], [["a", "c d"], [None, "c"]])
    iterated = rouge.sentence_scores(iter(["a b", "c"]), iter([iter(["a", "c d"]), (x for x in [None, "c"])]))
    assert np.array_equal(lists.prf, iterated.prf) and lists.signature == iterated.signature
    with pytest.raises(TypeError, match=r"^hypotheses\[1\] must be a string, got float$"):
        rouge.sentence_scores(iter(["a", 1.5]), iter([iter(["a", "b"])]))


@requires_core
def test_best_reference_across_the_cores_blocks_of_segments():
    # more segments than the core holds as text at a time (2**17): every block, and the references per
    # segment, as the counts of every pair give them
    rng = np.random.default_rng(9)
    vocab = np.array(["a", "b", "c", "d", "e", "\n"])
    n = (1 << 17) + 3000
    texts = [" ".join(rng.choice(vocab, size=k)) for k in rng.integers(0, 6, size=2 * n)]
    hyps, refs = texts[:n], texts[n:]
    missing = [None if i % 3 else r for i, r in enumerate(refs[::-1])]
    rouge = ROUGE(("rouge1", "rougeL"), engine="native", threads=2)
    present = np.array([[True, m is not None] for m in missing])
    counts, values = rouge.chunk_values(hyps, [refs, missing], present)
    every = rouge.pair_counts(hyps, [refs, missing], present)
    want_counts, want_values = rouge.best_counts(every, present)
    assert np.array_equal(counts, want_counts)
    assert np.array_equal(values.view(np.int64), want_values.view(np.int64))
    _, _, nrefs = native_rouge.rouge_counter(("rouge1",), stem=False, pretokenized=False, threads=None).best(
        hyps, [refs, missing])
    assert np.array_equal(nrefs, present.sum(axis=1))


@requires_core
@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(RUN_TEXT, NATIVE_TEXT), min_size=1, max_size=5), st.booleans(),
       st.sampled_from([("rouge1",), ("rouge1", "rougeLsum"), ("rougeL", "rouge1")]))
def test_rouge1_alone_and_with_others(rows, stem, types):
    # rouge1 alone keeps no token ids in the core (it tallies while reading)
    hyps = [r[0] for r in rows]
    streams = [[r[1] for r in rows], hyps[::-1]]
    present = np.ones((len(hyps), 2), dtype=bool)
    native = ROUGE(types, engine="native", use_stemmer=stem).pair_counts(hyps, streams, present)
    python = ROUGE(types, engine="numpy", use_stemmer=stem).python_pair_counts(hyps, streams, present)
    assert np.array_equal(native, python)
