"""The one door to the compiled core (:mod:`bleuscope.core.native`): the compiled core against the numpy
reference engine and sacreBLEU.

native == numpy row by row (every segment's statistics), on the real WMT data and on random input; both
engines == sacreBLEU on corpus and sentence scores (the ``engine`` fixture); thread-count invariance; errors
instead of crashes.
"""

from __future__ import annotations

import functools
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core import native
from bleuscope.core.checks import TokenizedInputWarning
from bleuscope.core.native import tok as native_tok
from bleuscope.metrics.bleu import counting as bleu_counting
from bleuscope.metrics.bleu.encoding import EncodedLines
from bleuscope.tokenizers import BaseTokenizer, CJKTokenizationWarning, get_tokenizer

from ..conftest import DATA, read_lines, requires_core, requires_wmt

_core = native.compiled_core()
sacrebleu = pytest.importorskip("sacrebleu")

pytestmark = pytest.mark.filterwarnings("ignore::bleuscope.CJKTokenizationWarning")

NATIVE_TOKENIZERS = ["none", "13a", "intl", "char", "zh", "cjk-char"]
SACREBLEU_TOKENIZERS = ["none", "13a", "intl", "char", "zh"]

# (testset, pair, first system): European, Chinese and Japanese targets, 1 to 3 references, paragraphs
PAIRS = [
    ("generaltest2022", "en-de", "Online-B"),
    ("generaltest2022", "de-en", "Online-A"),
    ("generaltest2022", "en-zh", "Online-W"),
    ("newstest2021", "en-ru", "Online-G"),
    ("newstest2021", "en-de", "UEdin"),
    ("wmttest2024", "en-ja", "GPT-4"),
]


@functools.cache
def _pair(testset: str, pair: str, system: str):
    base = DATA / testset / pair
    hyps = read_lines(base / "sys" / f"{system}.txt")
    refs = [read_lines(p) for p in sorted(base.glob("ref.*.txt"))]
    return hyps, refs


def _rows(hyps, refs, tokenize, lowercase, order, engine, threads=None):
    return bleu_counting.count_text(
        hyps,
        refs,
        tokenizer=get_tokenizer(tokenize),
        lowercase=lowercase,
        order=order,
        engine=engine,
        threads=threads,
    )


def _assert_same_rows(hyps, refs, tokenize, lowercase, order=4, threads=None):
    native = _rows(hyps, refs, tokenize, lowercase, order, "native", threads)
    numpy_rows = _rows(hyps, refs, tokenize, lowercase, order, "numpy")
    assert native.dtype == np.int64 and native.shape == numpy_rows.shape
    bad = np.flatnonzero((native != numpy_rows).any(axis=1))
    assert not len(bad), f"segment {bad[0]}: native {native[bad[0]]} != numpy {numpy_rows[bad[0]]}"
    return native


# -- real data -------------------------------------------------------------------------------------------
@requires_core
@requires_wmt
@pytest.mark.parametrize("testset,pair,system", PAIRS)
@pytest.mark.parametrize("tokenize", NATIVE_TOKENIZERS)
@pytest.mark.parametrize("lowercase", [False, True])
def test_wmt_rows_native_equal_numpy(testset, pair, system, tokenize, lowercase):
    hyps, refs = _pair(testset, pair, system)
    # all references, with every 7th line of the last one missing (None), and the first reference alone
    refs_missing = [*refs[:-1], [None if i % 7 == 3 else x for i, x in enumerate(refs[-1])]]
    _assert_same_rows(hyps, refs_missing, tokenize, lowercase)
    _assert_same_rows(hyps, refs[:1], tokenize, lowercase, order=5)


@requires_wmt
@pytest.mark.parametrize("testset,pair,system", PAIRS)
@pytest.mark.parametrize("tokenize", SACREBLEU_TOKENIZERS)
def test_wmt_corpus_score_equals_sacrebleu(testset, pair, system, tokenize, engine):
    # the first 500 segments (tests/parity/test_wmt_parity.py compares whole files with the default engine)
    hyps, refs = _pair(testset, pair, system)
    hyps, refs = hyps[:500], [r[:500] for r in refs]
    lowercase = tokenize in ("13a", "char")
    ours = BLEU(tokenize=tokenize, lowercase=lowercase, engine=engine).corpus_score(hyps, refs)
    theirs = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs)
    assert (ours.counts, ours.totals, ours.sys_len, ours.ref_len) == (
        theirs.counts,
        theirs.totals,
        theirs.sys_len,
        theirs.ref_len,
    )
    assert ours.score == theirs.score


@requires_wmt
@pytest.mark.parametrize("smooth_method", ["exp", "floor", "add-k", "none"])
def test_wmt_sentence_scores_equal_sacrebleu(smooth_method, engine):
    hyps, refs = _pair("generaltest2022", "de-en", "Online-A")
    hyps, refs = hyps[:300], [r[:300] for r in refs]
    ours = BLEU(engine=engine, smooth_method=smooth_method, effective_order=True).sentence_scores(hyps, refs)
    theirs = sacrebleu.BLEU(smooth_method=smooth_method, effective_order=True)
    expected = [theirs.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps)]
    assert ours.scores.tolist() == expected


@requires_core
@requires_wmt
def test_chen_cherry_counts_one_more_order_natively():
    hyps, refs = _pair("generaltest2022", "en-de", "Online-B")
    native = BLEU(engine="native", smooth_method="chen-cherry-5").segment_statistics(hyps, refs)
    numpy_stats = BLEU(engine="numpy", smooth_method="chen-cherry-5").segment_statistics(hyps, refs)
    assert native.stats.shape[1] == 2 + 2 * 5
    np.testing.assert_array_equal(native.stats, numpy_stats.stats)


# -- random input ----------------------------------------------------------------------------------------
# words from a small alphabet (so that n-grams repeat and match) mixed with arbitrary Unicode: punctuation,
# CJK, combining marks, Turkish dotted I, final sigma, unusual whitespace
_ALPHABET = st.sampled_from(
    list("ab ,.-'\"&<>;:!?$%")
    + [
        "\u0130",
        "\u03a3",
        "\u00df",
        "\u3000",
        "\u00a0",
        "\u4e00",
        "\u3042",
        "\uac00",
        "\u0301",
        "\t",
        "\x1c",
        "\u2028",
        "1",
        "\uff11",
        "&quot;",
        "&amp;",
    ]
)
_TEXT = st.one_of(
    st.lists(_ALPHABET, max_size=30).map("".join),
    st.text(max_size=40),
)
_LINE = st.one_of(_TEXT, st.just(""), st.just("   "))


@st.composite
def _segments(draw, max_refs=5):
    n = draw(st.integers(1, 12))
    k = draw(st.integers(1, max_refs))
    hyps = draw(st.lists(_LINE, min_size=n, max_size=n))
    refs = [draw(st.lists(st.one_of(_LINE, st.none()), min_size=n, max_size=n)) for _ in range(k)]
    return hyps, refs


@requires_core
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_segments(), st.sampled_from(NATIVE_TOKENIZERS), st.booleans(), st.integers(1, 6))
def test_random_text_native_equals_numpy(segments, tokenize, lowercase, order):
    hyps, refs = segments
    _assert_same_rows(hyps, refs, tokenize, lowercase, order=order)


@requires_core
@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.sampled_from(["a", "b", "c", "a b", "\ud800", "x\udfff y", "é"]), min_size=1, max_size=20),
    st.sampled_from(NATIVE_TOKENIZERS),
    st.booleans(),
)
def test_lone_surrogates_take_the_python_tokenizer(words, tokenize, lowercase):
    hyp = " ".join(words)
    refs = [[" ".join(reversed(words))], [hyp.upper()]]
    _assert_same_rows([hyp], refs, tokenize, lowercase)


@requires_core
def test_long_lines_and_many_references():
    rng = np.random.default_rng(7)
    vocab = np.array([f"w{i}" for i in range(50)])
    long_hyp = " ".join(rng.choice(vocab, 60_000))
    long_ref = " ".join(rng.choice(vocab, 40_000))
    hyps = [long_hyp, "w1 w2 w3", ""]
    refs = [[long_ref if k % 2 else "w1 w2 w3 w4", None if k == 3 else "w2 w3", ""] for k in range(12)]
    rows = _assert_same_rows(hyps, refs, "13a", False, order=4)
    assert rows[0, 0] == 60_000 and rows[0, 2] > 0


@requires_core
@settings(max_examples=100, deadline=None)
@given(
    st.integers(1, 8), st.integers(1, 4), st.integers(1, 6), st.sampled_from(["int64", "uint64", "int32"]), st.data()
)
def test_random_ids_native_equal_numpy(n_seg, n_refs, order, dtype, data):
    values = [0, 1, 2, 3, -1, -(2**63), 2**63 - 1] if dtype != "uint64" else [0, 1, 2, 2**63, 2**64 - 1]
    if dtype == "int32":
        values = [0, 1, 2, -1, 2**31 - 1]

    def stream():
        lens = data.draw(st.lists(st.integers(0, 9), min_size=n_seg, max_size=n_seg))
        ids = data.draw(st.lists(st.sampled_from(values), min_size=sum(lens), max_size=sum(lens)))
        return EncodedLines(ids=np.array(ids, dtype=dtype), lengths=np.array(lens, dtype=np.int64))

    hyp = stream()
    refs = [stream() for _ in range(n_refs)]
    present = np.array(
        data.draw(st.lists(st.lists(st.booleans(), min_size=n_refs, max_size=n_refs), min_size=n_seg, max_size=n_seg)),
        dtype=bool,
    ).reshape(n_seg, n_refs)
    # a missing reference has no tokens
    refs = [
        EncodedLines(
            ids=np.concatenate(
                [
                    r.ids[s : s + n]
                    for s, n, p in zip(np.concatenate([[0], np.cumsum(r.lengths)[:-1]]), r.lengths, present[:, k])
                    if p
                ]
                + [r.ids[:0]]
            ),
            lengths=np.where(present[:, k], r.lengths, 0),
        )
        for k, r in enumerate(refs)
    ]
    native = bleu_counting.count_ids(hyp, refs, order=order, present=present, engine="native")
    numpy_rows = bleu_counting.count_ids(hyp, refs, order=order, present=present, engine="numpy")
    np.testing.assert_array_equal(native, numpy_rows)
    assert native.dtype == np.int64


# -- threads ---------------------------------------------------------------------------------------------
@requires_core
@requires_wmt
def test_rows_do_not_depend_on_the_thread_count():
    hyps, refs = _pair("generaltest2022", "en-de", "Online-B")
    hyps, refs = hyps * 3, [r * 3 for r in refs]  # > 2 units of work per thread
    one = _rows(hyps, refs, "13a", False, 4, "native", threads=1)
    for threads in (2, 3, 7, None):
        np.testing.assert_array_equal(_rows(hyps, refs, "13a", False, 4, "native", threads=threads), one)
    ids = bleu_counting.count_ids(
        EncodedLines(np.arange(60_000) % 97, np.full(6000, 10)),
        [EncodedLines(np.arange(60_000) % 89, np.full(6000, 10))],
        order=4,
        engine="native",
        threads=1,
    )
    for threads in (2, 5):
        np.testing.assert_array_equal(
            bleu_counting.count_ids(
                EncodedLines(np.arange(60_000) % 97, np.full(6000, 10)),
                [EncodedLines(np.arange(60_000) % 89, np.full(6000, 10))],
                order=4,
                engine="native",
                threads=threads,
            ),
            ids,
        )


# -- engine choice and errors ----------------------------------------------------------------------------
@requires_core
def test_auto_uses_native_and_python_tokenizers_hand_over_ids(monkeypatch):
    assert native.resolve_engine("auto") == "native"
    calls = []
    real = bleu_counting.IdCounter.rows

    def spy(self, *args):
        calls.append("native" if self.compiled is not None else "numpy")
        return real(self, *args)

    monkeypatch.setattr(bleu_counting.IdCounter, "rows", spy)

    class Upper(BaseTokenizer):  # a tokenizer the compiled core does not have
        name = "upper"

        def __call__(self, line):
            return line.upper()

    rows = bleu_counting.count_text(["a b", "c"], [["A B", "d"]], tokenizer=Upper(), lowercase=False, order=2)
    assert calls == ["native"] and rows[:, 2].tolist() == [2, 0]


def _count_text(hyps, refs, tokenizer="13a", order=4, fallback=None):
    return _core.TextCounter(tokenizer, order=order, fallback=fallback).rows(hyps, refs)


@requires_core
@pytest.mark.parametrize("threads", [1, 2])
def test_bad_items_of_later_chunks_are_named_by_their_place_in_the_lists(threads):
    hyps, refs = ["a b"] * 20, [["a"] * 20, ["b"] * 20]
    counter = _core.TextCounter("13a", order=4, threads=threads)
    bad_hyps = hyps[:15] + [3] + hyps[16:]
    with pytest.raises(TypeError, match=r"^hypotheses\[15\] must be a str, got int$"):
        counter.rows(bad_hyps, refs, block_segments=7)
    bad_refs = [refs[0], refs[1][:9] + [b"x"] + refs[1][10:]]
    with pytest.raises(TypeError, match=r"^references\[1\]\[9\] must be a str or None, got bytes$"):
        counter.total(hyps, bad_refs, block_segments=7)
    with pytest.raises(TypeError, match=r"^references\[1\]\[9\] must be a str or None, got bytes$"):
        counter.systems([hyps], bad_refs)


@requires_core
def test_bad_input_raises_python_errors():
    with pytest.raises(ValueError, match="reference stream 0 has 1 lines"):
        _count_text(["a", "b"], [["a"]])
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be a str"):
        _count_text(["a", 3], [["a", "b"]])
    with pytest.raises(TypeError, match=r"references\[0\]\[0\] must be a str or None"):
        _count_text(["a"], [[b"a"]])
    with pytest.raises(ValueError, match="no tokenizer"):
        _count_text(["a"], [["a"]], "ja-mecab")
    with pytest.raises(ValueError, match="order must be"):
        _count_text(["a"], [["a"]], order=0)
    with pytest.raises(ValueError, match="but no fallback was given"):
        _count_text(["\ud800"], [["a"]])
    with pytest.raises(ValueError, match="returned 0 token lists for 2 lines"):
        _count_text(["\ud800"], [["a"]], fallback=lambda lines: [])
    ids, lens = np.arange(3, dtype=np.uint64), np.array([1, 2])
    counter = _core.IdCounter(2)
    with pytest.raises(ValueError, match="lengths add up to 3, but there are 2 ids"):
        counter.rows(ids, lens, [ids[:2]], [lens])
    with pytest.raises(ValueError, match="negative"):
        counter.rows(ids, np.array([4, -1]), [ids], [lens])
    with pytest.raises(ValueError, match="marked missing but has 1 ids"):
        counter.rows(ids, lens, [ids], [lens], np.array([[False], [True]]))


@requires_core
def test_a_panic_becomes_a_runtime_error():
    with pytest.raises(RuntimeError, match="internal error in bleuscope._core"):
        _core._panic_for_tests()
    # the module still works afterwards
    assert _count_text(["a b"], [["a b"]], order=2).tolist() == [[2, 2, 2, 1, 2, 1]]


@requires_core
@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.floats(min_value=1e-300, max_value=1e300), min_size=64, max_size=300),
    st.lists(st.floats(min_value=-800.0, max_value=700.0), min_size=64, max_size=300),
)
def test_libm_log_and_exp_are_bit_identical_to_math(positives, exponents):
    import math

    pos, ex = np.array(positives), np.array(exponents)
    assert native.libm_map(math.log, pos).tolist() == [math.log(x) for x in positives]
    assert native.libm_map(math.exp, ex).tolist() == [math.exp(x) for x in exponents]
    # where math raises, the native map declines and the Python loop raises the same error
    assert native.libm_map(math.log, np.concatenate([pos, [-1.0]])) is None
    assert native.libm_map(math.exp, np.concatenate([ex, [1000.0]])) is None


@requires_core
def test_tokenizers_whose_tables_cannot_be_had_stay_in_python_and_say_why(monkeypatch):
    from bleuscope.core import unicode_tables

    tok = get_tokenizer("intl")
    assert native_tok.native_tokenizer_name(tok, False) == "intl"
    # built-in tables of other versions, and a derivation that fails: intl (regex classes) and every
    # lowercased tokenizer (str.lower) stay in Python, with the reason; the table-free ones stay native
    monkeypatch.setattr(native_tok, "_support", {})
    monkeypatch.setattr(native_tok, "_tables_state", {})
    monkeypatch.setattr(
        _core, "TOKENIZER_TABLES", {**_core.TOKENIZER_TABLES, "regex_version": "0", "unidata_version": "0"}
    )

    def no_tables(*args, **kwargs):
        raise OSError("no space left on device")

    monkeypatch.setattr(unicode_tables, "load_or_derive", no_tables)
    assert native_tok.native_tokenizer_name(tok, False) is None
    native, why = native_tok.tokenizer_support("intl", False)
    assert not native and "no space left on device" in why
    assert native_tok.native_tokenizer_name(get_tokenizer("13a"), True) is None
    for name in ("13a", "none", "char", "zh"):
        assert native_tok.tokenizer_support(name, False) == (True, "needs no Unicode table")
    # still counted natively, from the Python tokenizer's ids, with the same rows
    rows = _rows(["Hello, world!"], [["hello world !"]], "13a", True, 4, "native")
    assert rows.tolist() == _rows(["Hello, world!"], [["hello world !"]], "13a", True, 4, "numpy").tolist()


@requires_core
def test_a_mark_after_an_ideographic_space_is_its_own_token():
    # U+3000 is whitespace and a cjk-char character: the combining mark after it is a token of its own, not
    # glued to the next word (a case found by the long native == numpy fuzz run)
    hyps, refs = ["\u3000\u0301a", "x \u3000\uff9ey"], [["\u0301 a", "x \uff9e y"]]
    rows = _assert_same_rows(hyps, refs, "cjk-char", False, order=2)
    assert rows[:, 0].tolist() == [2, 3] and rows[:, 2].tolist() == [2, 3]


@requires_core
def test_blocks_of_a_large_call_keep_their_segments():
    # more segments than one block of the compiled core's reader, with lines for the Python tokenizer
    # (lone surrogates) in several blocks, missing references, and non-ASCII lines read as code points
    n = 40_000
    hyps = [f"w{i % 13} w{i % 7} é{i % 5} ." if i % 9999 else "x\ud800 w1" for i in range(n)]
    refs = [
        [f"w{i % 13} é{i % 5} w{i % 7} ." if i % 3 else None for i in range(n)],
        [f"w{i % 7} w{i % 13}" if i % 12345 else "\udfff w2" for i in range(n)],
    ]
    rows = _assert_same_rows(hyps, refs, "13a", False, threads=2)
    assert rows[:, 2].sum() > n


# ---------------------------------------------------------------------------------------------------------
# the corpus-total path (_core.TextCounter.total, used by BLEU.corpus_score): it sums rows block by block
# and checks the input while reading it (item types, hypotheses ending in ' .', references per segment), so
# these tests compare it with the per-row path, the numpy engine and sacreBLEU, and check that the warnings
# and errors are those of the checked path
# ---------------------------------------------------------------------------------------------------------
def _python_facts(hyps, refs):
    n_refs = [sum(s[i] is not None for s in refs) for i in range(len(hyps))]
    counts = np.bincount(n_refs, minlength=len(refs) + 1)
    return counts.tolist(), sum(h.endswith(" .") for h in hyps)


@requires_core
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_segments(), st.sampled_from(NATIVE_TOKENIZERS), st.booleans(), st.integers(1, 5))
def test_total_is_the_sum_of_the_rows(segments, tokenize, lowercase, order):
    hyps, refs = segments
    hyps = [h + " ." if i % 2 else h for i, h in enumerate(hyps)]
    counter = _counter(tokenize, lowercase, order, 1)
    rows = counter.rows(hyps, refs)
    total, nref_counts, periods = counter.total(hyps, refs)
    assert total.tolist() == rows.sum(axis=0).tolist()
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)
    same_rows, nref_counts, periods = counter.rows(hyps, refs, facts=True)
    assert same_rows.tolist() == rows.tolist()
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)


def _counter(tokenize, lowercase, order=4, threads=0, fallback=True):
    from bleuscope.tokenizers import get_tokenizer

    tok = get_tokenizer(tokenize)

    def python_tokens(lines):
        return tok.tokenize_batch([x.lower() for x in lines] if lowercase else lines)

    return _core.TextCounter(
        tokenize, lowercase=lowercase, order=order, threads=threads, fallback=python_tokens if fallback else None
    )


@requires_core
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_segments(max_refs=3), st.sampled_from(SACREBLEU_TOKENIZERS), st.booleans())
def test_corpus_score_native_equals_numpy_and_sacrebleu(segments, tokenize, lowercase):
    hyps, refs = segments
    refs = [[r if r is not None else "" for r in s] for s in refs]  # sacreBLEU has no missing references
    native = BLEU(tokenize=tokenize, lowercase=lowercase, engine="native").corpus_score(hyps, refs)
    numpy = BLEU(tokenize=tokenize, lowercase=lowercase, engine="numpy").corpus_score(hyps, refs)
    theirs = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs)
    assert native.counts == numpy.counts == list(theirs.counts)
    assert native.totals == numpy.totals == list(theirs.totals)
    assert (native.sys_len, native.ref_len) == (numpy.sys_len, numpy.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert native.score == numpy.score
    assert native.score == pytest.approx(theirs.score, abs=1e-9)


@requires_core
def test_blocks_lone_surrogates_and_missing_references():
    # more segments than one block of the reader; Python-tokenizer lines (lone surrogates) in several blocks
    n = 40_000
    hyps = [f"w{i % 13} w{i % 7} é{i % 5} ." if i % 9999 else "x\ud800 w1 ." for i in range(n)]
    refs = [
        [f"w{i % 13} é{i % 5} w{i % 7} ." if i % 3 else None for i in range(n)],
        [f"w{i % 7} w{i % 13}" if i % 12345 else "\udfff w2" for i in range(n)],
    ]
    with pytest.warns(TokenizedInputWarning):
        native = BLEU(engine="native", threads=2).corpus_score(hyps, refs)
    with pytest.warns(TokenizedInputWarning):
        rows = BLEU(engine="native").segment_statistics(hyps, refs)
    assert native.counts + native.totals == rows.stats.sum(axis=0)[2:].tolist()
    scorer = BLEU(engine="native")
    with pytest.warns(TokenizedInputWarning):
        scored = scorer.corpus_score(hyps, refs)
    assert "nrefs:var" in scored.signature
    total, nref_counts, periods = _counter("13a", False, threads=2).total(hyps, refs)
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)


@requires_core
@pytest.mark.filterwarnings("ignore::bleuscope.core.checks.TokenizedInputWarning")
@pytest.mark.parametrize("block_segments", [1, 7, 1000, 0])
def test_block_size_does_not_change_rows_or_totals(block_segments):
    # blocks end after block_segments segments (0: the default); lines for the Python tokenizer and missing references land in different blocks
    n = 3000
    hyps = [f"w{i % 13} ž{i % 7} ." if i % 997 else "x\ud800 w1" for i in range(n)]
    refs = [[f"w{i % 7} ž{i % 13}" if i % 5 else None for i in range(n)], [f"w{i % 13} ." for i in range(n)]]
    counter = _counter("13a", True, threads=2)
    expected = BLEU(engine="numpy", lowercase=True).segment_statistics(hyps, refs).stats
    rows = counter.rows(hyps, refs, block_segments=block_segments)
    assert rows.tolist() == expected.tolist()
    total, nref_counts, periods = counter.total(hyps, refs, block_segments=block_segments)
    assert total.tolist() == expected.sum(axis=0).tolist()
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)
    rows, nref_counts, periods = counter.rows(hyps, refs, block_segments=block_segments, facts=True)
    assert rows.tolist() == expected.tolist()
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)


# the compiled core's chunks of segments read from Python: 1,024 with several threads, 8,192 with one
CHUNK_EDGES = [0, 1, 1023, 1024, 1025, 2049, 8191, 8192, 8193]


def _edge_input(n):
    # words shared between segments and a few per segment, missing references, and lines only the Python
    # tokenizer takes (lone surrogates) in the middle and at the end of later chunks
    python_lines = {n // 2, n - 1, 1024 + 512, 8192 + 3} if n > 1 else set()
    hyps = [f"w{i % 13} ž{i % 7} w{(i * 7) % 11} ." if i not in python_lines else "x\ud800 w1" for i in range(n)]
    refs = [
        [f"w{i % 7} ž{i % 13} w{(i * 5) % 11}" if i % 5 else None for i in range(n)],
        [f"w{i % 13} w{(i * 7) % 11} ." if i != n - 2 else "\udfff w3" for i in range(n)],
    ]
    return hyps, refs


@requires_core
@pytest.mark.filterwarnings("ignore::bleuscope.core.checks.TokenizedInputWarning")
@pytest.mark.parametrize("n", CHUNK_EDGES)
def test_chunk_edges_give_the_same_rows_on_any_thread_count(n):
    # sizes at the edges of the chunks the calling thread reads and the others count, with lines for the
    # fallback inside later chunks: rows, totals and input facts equal one thread's and the numpy engine's
    hyps, refs = _edge_input(n)
    expected = BLEU(engine="numpy").segment_statistics(hyps, refs).stats if n else np.zeros((0, 10), np.int64)
    facts = _python_facts(hyps, refs)
    for threads in (1, 2, 3):
        counter = _counter("13a", False, threads=threads)
        for block_segments in (0, 7):
            rows, nref_counts, periods = counter.rows(hyps, refs, block_segments=block_segments, facts=True)
            assert rows.tolist() == expected.tolist(), (threads, block_segments)
            assert (nref_counts.tolist(), periods) == facts
            total, nref_counts, periods = counter.total(hyps, refs, block_segments=block_segments)
            assert total.tolist() == expected.sum(axis=0).tolist(), (threads, block_segments)
            assert (nref_counts.tolist(), periods) == facts


@requires_core
@pytest.mark.parametrize("threads", [1, 2])
def test_lists_emptied_while_counting_raise_and_keep_what_was_read_alive(threads):
    # the core reads the caller's lists in place, a chunk at a time: the items of the chunks read stay
    # referenced while they are counted, whatever Python code does to the lists meanwhile (here the
    # fallback empties them); the next chunk's read then fails with Python's own error. With one thread
    # the fallback of chunk 0 runs before chunk 1 is read; with two, the thread counting chunk 0 may be
    # descheduled until every chunk is read, and then the count completes with the whole input's total
    n = 20_000
    hyps = [f"w{i % 13} x{i} ž{i % 5}" if i != 100 else "x\ud800 w1" for i in range(n)]
    refs = [[f"w{i % 7} x{i} ž{i % 3}" for i in range(n)]]
    splitting = _core.TextCounter("13a", threads=1, fallback=lambda lines: [line.split() for line in lines])
    expected, _, _ = splitting.total(list(hyps), [list(refs[0])])

    def emptying_fallback(lines):
        hyps.clear()
        refs[0].clear()
        return [line.split() for line in lines]

    counter = _core.TextCounter("13a", threads=threads, fallback=emptying_fallback)
    if threads == 1:
        with pytest.raises(IndexError):
            counter.total(hyps, refs)
        return
    try:
        total, _, _ = counter.total(hyps, refs)
    except IndexError:
        return
    assert total.tolist() == expected.tolist()


def _constructions(monkeypatch, name: str) -> list:
    """Records every construction of the compiled class ``name`` (its arguments)."""
    built = []
    real = getattr(_core, name)

    def counting(*args, **kwargs):
        built.append((args, kwargs))
        return real(*args, **kwargs)

    monkeypatch.setattr(_core, name, counting)
    return built


@requires_core
@pytest.mark.parametrize(
    ("metric", "compiled"),
    [("BLEU", "TextCounter"), ("CHRF", "ChrfCounter"), ("TER", "TerCounter"), ("ROUGE", "RougeCounter"),
     ("WER", "EditAligner")],
)
def test_a_metric_builds_its_compiled_counter_once(monkeypatch, tmp_path, metric, compiled):
    import bleuscope

    built = _constructions(monkeypatch, compiled)
    scorer = getattr(bleuscope, metric)()
    assert len(built) == 1
    hyps = [f"w{i} x{i % 7} the cat" for i in range(100)]
    refs = [[f"w{i} x{i % 5} the cat" for i in range(100)]]
    # ten chunks streamed, lists in memory, sentence scores, several systems, files read by the core
    streamed = scorer.score_stream(iter(hyps), [iter(refs[0])], chunk_size=10)
    assert streamed.score == scorer.corpus_score(hyps, refs).score
    scorer.sentence_scores(hyps, refs)
    systems, streams, present = scorer.check_systems([hyps, hyps[::-1]], refs)
    scorer.counter.systems(systems, streams, present)
    (tmp_path / "h").write_text("\n".join(hyps) + "\n")
    (tmp_path / "r").write_text("\n".join(refs[0]) + "\n")
    assert scorer.corpus_score(tmp_path / "h", [tmp_path / "r"]).score == streamed.score
    assert len(built) == 1
    scorer.threads = 2  # other settings: built again, once
    scorer.corpus_score(hyps, refs)
    scorer.corpus_score(hyps, refs)
    assert len(built) == 2 and built[1][1]["threads"] == 2


@requires_core
def test_meteor_builds_its_compiled_word_table_once(monkeypatch):
    # METEOR's compiled word table (stems and WordNet's synonym sets) is built on first use, once: its
    # threads are the alignment's, given per call, so setting them builds nothing
    from bleuscope import METEOR

    built = _constructions(monkeypatch, "MeteorTable")
    scorer = METEOR()
    hyps = [f"the cats sat on mat {i % 7}" for i in range(100)]
    refs = [[f"a cat sits on the mat {i % 5}" for i in range(100)]]
    streamed = scorer.score_stream(iter(hyps), [iter(refs[0])], chunk_size=10)
    assert streamed.score == scorer.corpus_score(hyps, refs).score
    scorer.sentence_scores(hyps, refs)
    scorer.threads = 2
    scorer.corpus_score(hyps, refs)
    assert len(built) == 1


@requires_core
def test_native_corpus_score_reads_the_lists_without_copying_them(monkeypatch):
    hyps, refs = ["the cat sat on the mat", "a dog"], [["the cat sat on a mat", "a dog ran"]]
    seen = []
    real = bleu_counting.BLEUCounter.unchecked

    def spy(self, h, streams, **kwargs):
        seen.append((h, streams))
        return real(self, h, streams, **kwargs)

    monkeypatch.setattr(bleu_counting.BLEUCounter, "unchecked", spy)
    score = BLEU().corpus_score(hyps, refs)
    assert seen and seen[0][0] is hyps and seen[0][1][0] is refs[0]
    assert score.score == BLEU(engine="numpy").corpus_score(hyps, refs).score


@requires_core
def test_long_non_ascii_lines():
    # lines of 3,000 non-ASCII characters, read in place as UTF-8
    line = " ".join(["žluťoučký kůň"] * 215)
    hyps = [line + f" {i}" for i in range(1500)]
    refs = [[line for _ in range(1500)]]
    rows = _counter("13a", False, threads=1, fallback=False).rows(hyps, refs)
    assert rows.tolist() == BLEU(engine="numpy").segment_statistics(hyps, refs).stats.tolist()


@pytest.mark.parametrize("method", ["corpus_score", "sentence_scores"])
def test_warnings_come_from_both_paths_alike(engine, method):
    tokenized = ["a b ."] * 100 + ["c d"]
    refs = [["a b ."] * 101]
    with pytest.warns(TokenizedInputWarning) as record:
        getattr(BLEU(engine=engine), method)(tokenized, refs)
    assert record[0].filename == __file__  # attributed to the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        getattr(BLEU(engine=engine), method)(tokenized[1:], [refs[0][1:]])  # 99: no warning
        getattr(BLEU(engine=engine, force=True), method)(tokenized, refs)
    with pytest.warns(CJKTokenizationWarning) as record:
        getattr(BLEU(engine=engine), method)(["東京は晴れです"], [["東京は雨です"]])
    assert record[0].filename == __file__


@requires_core
@pytest.mark.parametrize(
    "hyps,refs,error",
    [
        (["a", 3], [["a", "b"]], "hypotheses[1] must be a string, got int"),
        (["a", "b"], [["a", b"b"]], "references[0][1] must be a string, got bytes"),
        (["a", "b"], [["a", None], [None, None]], "segment 1 has no reference"),
        (["a", "b"], [["a"]], "references[0] has 1 lines but hypotheses has 2"),
        ([], [[]], "hypotheses is empty"),
    ],
)
def test_errors_are_those_of_the_checked_path(hyps, refs, error):
    for engine in ("native", "numpy"):
        with pytest.raises((TypeError, ValueError), match=error.replace("[", r"\[").replace("]", r"\]")):
            BLEU(engine=engine).corpus_score(hyps, refs)
        with pytest.raises((TypeError, ValueError), match=error.replace("[", r"\[").replace("]", r"\]")):
            BLEU(engine=engine).sentence_scores(hyps, refs)  # the rows' path reads the input alike


@requires_core
def test_non_list_inputs_are_read_like_lists():
    hyps = ("the cat sat", "on the mat")
    refs = (iter(["the cat sat", "on a mat"]),)
    a = BLEU(engine="native").corpus_score(hyps, refs)
    b = BLEU(engine="numpy").corpus_score(list(hyps), [["the cat sat", "on a mat"]])
    assert (a.counts, a.totals, a.score) == (b.counts, b.totals, b.score)


@requires_core
@pytest.mark.filterwarnings("ignore::bleuscope.core.checks.TokenizedInputWarning")
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_reading_the_next_block_while_counting_changes_nothing(threads):
    # with several threads the next block is read from Python while the current one is counted: the same
    # totals, and an item error in a later block is raised as with one thread (after the earlier blocks)
    n = 5000
    hyps = [f"w{i % 13} ž{i % 7} ." if i % 1999 else "x\ud800 w1" for i in range(n)]
    refs = [[f"w{i % 7} ž{i % 13} ." for i in range(n)]]
    counter = _counter("13a", False, threads=threads)
    expected = BLEU(engine="numpy").segment_statistics(hyps, refs).stats
    total, _, _ = counter.total(hyps, refs, block_segments=1000)
    assert total.tolist() == expected.sum(axis=0).tolist()
    bad = hyps[:3500] + [b"bytes"] + hyps[3501:]
    with pytest.raises(TypeError, match=r"hypotheses\[3500\] must be a str"):
        counter.total(bad, refs, block_segments=1000)
    no_fallback = _counter("13a", False, threads=threads, fallback=False)
    with pytest.raises(ValueError, match="need the Python tokenizer"):  # block 0's error comes first
        no_fallback.total(bad, refs, block_segments=2000)


# -- generated text that reaches the corners of the counting table: long segments, words around the 15/16-byte
# limit of exact word keys and the 7/8-byte border of their two halves (at every position, the last word of a
# line included), words repeated within a segment (clipping against several references), references missing,
# and the scanner's Unicode cases
WORDS = [
    "a", "b", "ab", "abc", "abcdefg", "abcdefh", "abcdefgh", "abcdefgi", "abcdefghijklmnop",
    "abcdefghijklmnoq", "abcdefghijklmno", "abcdefghijklmnx", "abcdefgXijklmno", "abcdefghijklmnopq",
    "abcdefghijklmnopr", "abcdéfghijklmn", "abcdéfghijklmnx", "abcdéfghijklmno", "the", "The", "cat", "Wörter", "ß", "中文", "。", ",", ".", "3.5", "1,000", "e-mail",
    "don't", "&amp;", "U.S.", "x\u00a0y", "\u2009", "😀",
]

segment_st = st.lists(st.sampled_from(WORDS), max_size=90).map(" ".join)


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 8))
    k = draw(st.integers(1, 4))
    hyps = [draw(segment_st) for _ in range(n)]
    refs = [[draw(st.none() | segment_st) if kk else draw(segment_st) for _ in range(n)] for kk in range(k)]
    return hyps, refs


@requires_core
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpora(), st.sampled_from(["13a", "none", "intl", "zh"]), st.booleans(), st.integers(1, 6))
def test_native_rows_equal_the_reference_engine(corpus, tokenize, lowercase, order):
    hyps, refs = corpus
    native = BLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=order, engine="native")
    reference = BLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=order, engine="numpy")
    rows = native.segment_statistics(hyps, refs).stats
    np.testing.assert_array_equal(rows, reference.segment_statistics(hyps, refs).stats)
    assert native.corpus_score(hyps, refs).score == pytest.approx(reference.corpus_score(hyps, refs).score, abs=0)
