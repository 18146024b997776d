"""bleuscope.nltk against NLTK 3.10.4, live: exact issue/peer vectors, WMT data, property tests, quirks."""

from __future__ import annotations

import functools
import math
import warnings
from fractions import Fraction as PyFraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.core import native
from bleuscope.metrics.bleu.counting import count_token_lists
from bleuscope.integrations import nltk as bn
from bleuscope.tokenizers import get_tokenizer

from ..conftest import DATA, read_lines, requires_core, requires_wmt

nb = pytest.importorskip("nltk.translate.bleu_score")

REF = "It is the guiding principle which guarantees the military forces always being under the command of the Party"
HYP = "It is a guide to action which ensures that the military always obeys the commands of the Party"
METHODS = range(8)
WEIGHT_SETS = [
    (0.25, 0.25, 0.25, 0.25),
    [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), (0.25, 0.25, 0.25, 0.25), (0.2, 0.2, 0.2, 0.2, 0.2)],
    (0.1, 0.3, 0.5, 0.1),
    (1.0,),
]


def _ours(i, **params):
    return getattr(bn.SmoothingFunction(**params), f"method{i}")


def _theirs(i, **params):
    return getattr(nb.SmoothingFunction(**params), f"method{i}")


def _quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def _outcome(fn, *args, **kwargs):
    """The result, or the exception class raised."""
    try:
        return _quiet(fn, *args, **kwargs)
    except (AssertionError, IndexError, ZeroDivisionError, ValueError) as e:
        return type(e)


def _close(a, b, rel=1e-12):
    if isinstance(b, type):
        return isinstance(a, type) and issubclass(a, b)
    if isinstance(b, list):
        return isinstance(a, list) and len(a) == len(b) and all(_close(x, y, rel) for x, y in zip(a, b))
    if type(a) is not type(b):
        return False
    return a == b or math.isclose(a, b, rel_tol=rel, abs_tol=0.0)


# -- exact vectors: NLTK 3.10.4's documented values (../shared/docs/peers.md §3.5) ------------------------------
def test_documented_vectors_exact():
    ref, hyp = REF.split(), HYP.split()
    with pytest.warns(UserWarning, match="0 counts of 4-gram overlaps"):
        assert bn.sentence_bleu([ref], hyp) == 3.6718992240469637e-78
    assert bn.sentence_bleu([ref], hyp, weights=(1 / 3, 1 / 3, 1 / 3)) == 0.20140621167558334
    assert bn.sentence_bleu([ref], hyp, smoothing_function=bn.SmoothingFunction().method2) == 0.18353610946423723


def test_issue_vectors_against_live_nltk_all_methods():
    ref, hyp = REF.split(), HYP.split()
    expected = [3.6718992240469637e-78, 0.08590764835663624, 0.18353610946423723, 0.12846189726767718,
                0.11201347150863071, 0.20770609093574036, 0.08427425947726826, 0.21902134351488484]
    for i in METHODS:
        ours = _quiet(bn.sentence_bleu, [ref], hyp, smoothing_function=_ours(i))
        theirs = _quiet(nb.sentence_bleu, [ref], hyp, smoothing_function=_theirs(i))
        assert ours == theirs == expected[i]
        assert type(ours) is float
    weights = [(1 / 2, 1 / 2), (1 / 3,) * 3, (1 / 4,) * 4]
    got = _quiet(bn.sentence_bleu, [ref], hyp, weights)
    assert got == _quiet(nb.sentence_bleu, [ref], hyp, weights)
    assert got == [0.3615507630310936, 0.20140621167558334, 3.6718992240469637e-78]


def test_cat_sat_vectors():
    h, r = "the cat sat on".split(), "the cat sat down on".split()
    for i in METHODS:
        assert _quiet(bn.sentence_bleu, [r], h, smoothing_function=_ours(i)) == _quiet(
            nb.sentence_bleu, [r], h, smoothing_function=_theirs(i))
    # zero-skipping: epsilon=0 leaves exact zeros, which NLTK skips (as if p = 1)
    ours = bn.sentence_bleu([r], h, smoothing_function=bn.SmoothingFunction(epsilon=0).method1)
    assert ours == nb.sentence_bleu([r], h, smoothing_function=nb.SmoothingFunction(epsilon=0).method1)
    assert ours == 0.5917606269910581


def test_corpus_last_segment_quirk_and_order():
    a = ("a b c d e f g".split(), "a b c d e f g".split())
    b = ("the cat sat on".split(), "the cat sat down on".split())
    for i in (4, 5, 6, 7):
        for corpus in ([a, b], [b, a]):
            refs, hyps = [[r] for _, r in corpus], [h for h, _ in corpus]
            assert bn.corpus_bleu(refs, hyps, smoothing_function=_ours(i)) == nb.corpus_bleu(
                refs, hyps, smoothing_function=_theirs(i))
    refs, hyps = [[a[1]], [b[1]]], [a[0], b[0]]
    assert bn.corpus_bleu(refs, hyps, smoothing_function=_ours(6)) == 1.2246850808848098  # > 1, as NLTK
    assert bn.corpus_bleu(refs[::-1], hyps[::-1], smoothing_function=_ours(5)) == 0.9242489414170105


def test_max1_denominator_and_small_corpora():
    six = "one two three four five six".split()
    refs, hyps = [[["a"]], [six]], [["a"], six]
    assert bn.corpus_bleu(refs, hyps) == nb.corpus_bleu(refs, hyps) == 0.8408964152537146
    refs = [[["a"]], [["x", "y"]], [["p", "q", "r", "s"]]]
    hyps = [["a"], ["x", "y"], ["p", "q", "r", "t"]]
    assert bn.corpus_bleu(refs, hyps, smoothing_function=_ours(1)) == 0.2558620078690811


def test_tiny_values_with_warnings_and_auto_reweigh():
    three = ["a", "b", "c"]
    with pytest.warns(UserWarning):
        assert bn.sentence_bleu([three], three) == nb.sentence_bleu([three], three) == 1.2213386697554703e-77
    assert bn.sentence_bleu([three], three, auto_reweigh=True) == 1.0
    assert bn.sentence_bleu([["a", "b"]], ["a", "b"], auto_reweigh=True) == 1.0
    # a list equal to the default weights is not reweighed (NLTK compares with the tuple)
    assert _quiet(bn.sentence_bleu, [three], three, [0.25] * 4, None, True) == _quiet(
        nb.sentence_bleu, [three], three, [0.25] * 4, None, True)


def test_docstring_example_three_references():
    h1 = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
    r1 = "It is a guide to action that ensures that the military will forever heed Party commands".split()
    r2 = REF.split()
    r3 = "It is the practical guide for the army always to heed the directions of the party".split()
    assert bn.sentence_bleu([r1, r2, r3], h1) == 0.5045666840058485


def test_modified_precision_closest_ref_and_brevity_penalty():
    refs = ["the cat is on the mat".split(), "there is a cat on the mat".split()]
    p = bn.modified_precision(refs, "the the the the the the the".split(), 1)
    assert isinstance(p, PyFraction) and (p.numerator, p.denominator) == (2, 7)
    assert float(p) == float(nb.modified_precision(refs, "the the the the the the the".split(), 1))
    q = bn.modified_precision(refs, "the cat".split(), 3)  # no trigram: max(1, 0) denominator
    assert (q.numerator, q.denominator) == (0, 1)
    raw = bn.modified_precision([["a", "b", "a", "b"]], ["a", "b", "a", "b", "c"], 1)
    theirs = nb.modified_precision([["a", "b", "a", "b"]], ["a", "b", "a", "b", "c"], 1)
    assert (raw.numerator, raw.denominator) == (theirs.numerator, theirs.denominator) == (4, 5)
    ten = bn.modified_precision([["a"] * 4], ["a"] * 8, 1)  # 4/8, kept un-reduced, equal by value
    assert (ten.numerator, ten.denominator) == (4, 8) and ten == PyFraction(1, 2)
    assert bn.closest_ref_length([["a"] * 13, ["a"] * 11], 12) == 11
    assert bn.closest_ref_length([["a"] * 11, ["a"] * 8, ["a"] * 6, ["a"] * 7], 7) == 7
    assert bn.brevity_penalty(bn.closest_ref_length([["a"] * 11, ["a"] * 8], 7), 7) == 0.8668778997501817
    assert bn.brevity_penalty(28, 12) == nb.brevity_penalty(28, 12) == 0.2635971381157267
    assert bn.brevity_penalty(13, 12) == 0.9200444146293233
    assert bn.brevity_penalty(5, 6) == 1 and type(bn.brevity_penalty(5, 6)) is int
    assert bn.brevity_penalty(5, 0) == 0 and type(bn.brevity_penalty(5, 0)) is int


def test_return_types_zero_and_empty():
    assert bn.sentence_bleu([["a"]], ["b"]) == 0 and type(bn.sentence_bleu([["a"]], ["b"])) is int
    assert bn.sentence_bleu([["a"]], ["b"], [(1.0,), (0.5, 0.5)]) == [0, 0]
    assert bn.sentence_bleu([["a"]], [], smoothing_function=_ours(1)) == 0
    assert bn.sentence_bleu([[]], ["a"]) == nb.sentence_bleu([[]], ["a"]) == 0
    with pytest.raises(ZeroDivisionError):
        nb.corpus_bleu([], [])
    with pytest.raises(ValueError, match="empty"):
        bn.corpus_bleu([], [])
    with pytest.raises(ZeroDivisionError):
        bn.corpus_bleu([], [])
    assert bn.sentence_bleu_batch([], []) == []
    assert bn.sentence_bleu([["a", "b"]], ["a", "b"], [(0.5, 0.5)]) == 1.0  # one tuple in a list -> float
    assert bn.sentence_bleu_batch([[["a"]], [["a", "b"]]], [["b"], ["a", "b"]], (0.5, 0.5)) == [0, 1.0]


def test_strings_are_characters_with_a_warning():
    with pytest.warns(UserWarning, match="characters"):
        ours = bn.sentence_bleu(["the cat"], "the cat")
    assert ours == nb.sentence_bleu(["the cat"], "the cat") == 1.0
    with pytest.warns(UserWarning, match=r"hypotheses\[1\]"):
        bn.corpus_bleu([[["a", "b"]], [["c", "d"]]], [["a", "b"], "c d"])


def test_errors():
    with pytest.raises(ValueError, match="should be the same"):
        bn.corpus_bleu([[["a"]]], [["a"], ["b"]])
    with pytest.raises(AssertionError):  # NLTK's exception type still works
        bn.corpus_bleu([[["a"]]], [["a"], ["b"]])
    with pytest.raises(ValueError, match=r"list_of_references\[1\] has no reference"):
        bn.corpus_bleu([[["a"]], []], [["a"], ["b"]])
    with pytest.raises(TypeError, match=r"hypotheses\[0\]"):
        bn.corpus_bleu([[["a"]]], [5])
    with pytest.raises(AssertionError, match="bigrams"):
        bn.sentence_bleu([["a", "b"]], ["a", "b"], smoothing_function=_ours(6))
    with pytest.raises(AssertionError):
        nb.sentence_bleu([["a", "b"]], ["a", "b"], smoothing_function=_theirs(6))
    with pytest.raises(IndexError):
        bn.sentence_bleu([["a", "b", "c"]], ["a", "b", "c"], (0.5, 0.5), smoothing_function=_ours(6))
    with pytest.raises(IndexError):
        nb.sentence_bleu([["a", "b", "c"]], ["a", "b", "c"], (0.5, 0.5), smoothing_function=_theirs(6))
    with pytest.raises(TypeError, match="weights"):
        bn.sentence_bleu([["a"]], ["a"], ("x", 1))


def test_nltk_smoothing_objects_and_custom_callables():
    ref, hyp = REF.split(), HYP.split()
    for i in METHODS:  # NLTK's own SmoothingFunction methods are recognised and vectorized
        assert _quiet(bn.sentence_bleu, [ref], hyp, smoothing_function=_theirs(i, epsilon=0.2, alpha=3, k=4)) == \
            _quiet(nb.sentence_bleu, [ref], hyp, smoothing_function=_theirs(i, epsilon=0.2, alpha=3, k=4))

    def custom(p_n, references, hypothesis, hyp_len):
        return [PyFraction(p.numerator + 2, p.denominator + 3) for p in p_n]

    refs = [[REF.split()], [["a", "b", "c"]]]
    hyps = [HYP.split(), ["a", "b", "x"]]
    ours = bn.corpus_bleu(refs, hyps, smoothing_function=custom)
    assert ours == nb.corpus_bleu(refs, hyps, smoothing_function=custom)
    assert bn.sentence_bleu_batch(refs, hyps, smoothing_function=custom) == [
        nb.sentence_bleu(r, h, smoothing_function=custom) for r, h in zip(refs, hyps)]

    def two_orders_as_floats(p_n, **kwargs):  # fewer orders than weights: NLTK's zip truncates
        return [float(p) + 0.01 for p in p_n[:2]]

    for auto in (False, True):
        assert bn.corpus_bleu(refs, hyps, smoothing_function=two_orders_as_floats, auto_reweigh=auto) == \
            nb.corpus_bleu(refs, hyps, smoothing_function=two_orders_as_floats, auto_reweigh=auto)
        assert bn.sentence_bleu([["a", "b", "c"]], ["a", "b"], smoothing_function=two_orders_as_floats,
                                auto_reweigh=auto) == nb.sentence_bleu(
            [["a", "b", "c"]], ["a", "b"], smoothing_function=two_orders_as_floats, auto_reweigh=auto)


def test_direct_method_calls_match_nltk():
    ref, hyp = REF.split(), HYP.split()
    for i in METHODS:
        p_ours = [bn.modified_precision([ref], hyp, n) for n in range(1, 5)]
        p_theirs = [nb.modified_precision([ref], hyp, n) for n in range(1, 5)]
        args = (ref and [ref], hyp, len(hyp))
        ours = _quiet(getattr(bn.SmoothingFunction(), f"method{i}"), p_ours, *args)
        theirs = _quiet(getattr(nb.SmoothingFunction(), f"method{i}"), p_theirs, *args)
        assert [float(x) for x in ours] == [float(x) for x in theirs]
        assert [type(x) is float for x in ours] == [type(x) is float for x in theirs]


def test_smoothing_parameters_of_other_types():
    ref, hyp = REF.split(), HYP.split()
    for params in ({"epsilon": 1}, {"alpha": 0.5}, {"alpha": 2}, {"k": 2.5}, {"k": 1}):
        for i in METHODS:
            assert _quiet(bn.sentence_bleu, [ref], hyp, smoothing_function=_ours(i, **params)) == _quiet(
                nb.sentence_bleu, [ref], hyp, smoothing_function=_theirs(i, **params)), (i, params)


# -- the WMT data -----------------------------------------------------------------------------------------------
@functools.lru_cache(maxsize=None)
def _wmt(pair: str, system: str, refs: tuple, tok: str, start: int, count: int):
    base = DATA / pair
    split = str.split if tok == "none" else (lambda line, t=get_tokenizer(tok): t(line).split())
    hyps = [split(x) for x in read_lines(base / "sys" / f"{system}.txt")[start:start + count]]
    streams = [[split(x) for x in read_lines(base / f"ref.{r}.txt")[start:start + count]] for r in refs]
    return hyps, [list(seg) for seg in zip(*streams)]


def _check_wmt(hyps, refs, method, weights, auto_reweigh):
    sf_o, sf_t = _ours(method), _theirs(method)
    theirs = [_outcome(nb.sentence_bleu, r, h, weights, sf_t, auto_reweigh) for r, h in zip(refs, hyps)]
    if any(isinstance(t, type) for t in theirs):  # NLTK raised on some segment: so must the batch
        failing = next(t for t in theirs if isinstance(t, type))
        assert _close(_outcome(bn.sentence_bleu_batch, refs, hyps, weights, sf_o, auto_reweigh), failing)
        keep = [i for i, t in enumerate(theirs) if not isinstance(t, type)]
        hyps, refs, theirs = [hyps[i] for i in keep], [refs[i] for i in keep], [theirs[i] for i in keep]
    ours = _quiet(bn.sentence_bleu_batch, refs, hyps, weights, sf_o, auto_reweigh)
    assert len(ours) == len(theirs)
    bad = [i for i, (a, b) in enumerate(zip(ours, theirs)) if not _close(a, b)]
    assert not bad, f"{len(bad)} segments differ, first {bad[0]}: {ours[bad[0]]!r} vs {theirs[bad[0]]!r}"
    for i in range(0, len(hyps), max(1, len(hyps) // 7)):  # the scalar path agrees with the batch
        assert _close(_quiet(bn.sentence_bleu, refs[i], hyps[i], weights, sf_o, auto_reweigh), theirs[i])
    corpus_t = _outcome(nb.corpus_bleu, refs, hyps, weights, sf_t, auto_reweigh)
    assert _close(_outcome(bn.corpus_bleu, refs, hyps, weights, sf_o, auto_reweigh), corpus_t)


WMT_CASES = [
    ("generaltest2022/en-de", "Online-B", ("A",), "none", 0),
    ("generaltest2022/en-de", "Online-B", ("A", "B"), "13a", 300),
    ("newstest2021/en-de", "Facebook-AI", ("A", "C", "D"), "13a", 0),
    ("generaltest2022/de-en", "LT22", ("A",), "13a", 600),
]


@requires_wmt
@pytest.mark.parametrize("case", WMT_CASES, ids=lambda c: f"{c[0]}/{c[1]}/{'+'.join(c[2])}/{c[3]}")
@pytest.mark.parametrize("method", METHODS)
def test_wmt_sentence_and_corpus_match_nltk(case, method):
    pair, system, refs, tok, start = case
    hyps, segs = _wmt(pair, system, refs, tok, start, 150)
    _check_wmt(hyps, segs, method, WEIGHT_SETS[1], False)
    _check_wmt(hyps[:60], segs[:60], method, WEIGHT_SETS[method % len(WEIGHT_SETS)], method % 2 == 1)


@requires_wmt
def test_wmt_short_segments_auto_reweigh():
    hyps, segs = _wmt("generaltest2022/en-de", "Online-B", ("A", "B"), "13a", 0, 400)
    short = [(h[:3], s) for h, s in zip(hyps, segs)][:200]  # hypotheses of at most 3 tokens
    h, s = [x[0] for x in short], [x[1] for x in short]
    for method in METHODS:
        _check_wmt(h, s, method, (0.25, 0.25, 0.25, 0.25), True)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("pair,system,refs", [
    ("generaltest2022/en-de", "JDExploreAcademy", ("A", "B")),
    ("generaltest2022/zh-en", "Online-W", ("A", "B")),
    ("newstest2021/en-ru", "Online-G", ("A", "B")),
])
@pytest.mark.parametrize("tok", ["none", "13a"])
@pytest.mark.parametrize("method", METHODS)
def test_wmt_full_sweep(pair, system, refs, tok, method):
    hyps, segs = _wmt(pair, system, refs, tok, 0, 10**6)
    for weights in WEIGHT_SETS:
        _check_wmt(hyps, segs, method, weights, True)
    single = [[s[0]] for s in segs]
    _check_wmt(hyps, single, method, WEIGHT_SETS[0], False)


# -- property tests ---------------------------------------------------------------------------------------------
TOKENS = st.lists(st.sampled_from("abcde"), min_size=0, max_size=9)
SEGMENT = st.tuples(st.lists(TOKENS, min_size=1, max_size=3), TOKENS)
WEIGHTS = st.sampled_from(WEIGHT_SETS + [(0.5, 0.5), (1 / 3, 1 / 3, 1 / 3), [(1.0,), (0.25,) * 4]])
SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(segments=st.lists(SEGMENT, min_size=1, max_size=5), method=st.sampled_from(list(METHODS)),
       weights=WEIGHTS, auto=st.booleans())
def test_property_corpus_and_batch_match_nltk(segments, method, weights, auto):
    refs = [s[0] for s in segments]
    hyps = [s[1] for s in segments]
    expected = _outcome(nb.corpus_bleu, refs, hyps, weights, _theirs(method), auto)
    assert _close(_outcome(bn.corpus_bleu, refs, hyps, weights, _ours(method), auto), expected)
    per_segment = [_outcome(nb.sentence_bleu, r, h, weights, _theirs(method), auto) for r, h in zip(refs, hyps)]
    batch = _outcome(bn.sentence_bleu_batch, refs, hyps, weights, _ours(method), auto)
    failing = [t for t in per_segment if isinstance(t, type)]
    if failing:
        assert _close(batch, failing[0])
    else:
        assert _close(batch, per_segment)


@SETTINGS
@given(segment=SEGMENT, method=st.sampled_from(list(METHODS)),
       params=st.fixed_dictionaries({"epsilon": st.sampled_from([0.1, 0, 1, 0.5]),
                                     "alpha": st.sampled_from([5, 1, 0.5, 2]),
                                     "k": st.sampled_from([5, 1, 2.5])}))
def test_property_sentence_bleu_parameters(segment, method, params):
    refs, hyp = segment
    expected = _outcome(nb.sentence_bleu, refs, hyp, (0.25,) * 4, _theirs(method, **params))
    assert _close(_outcome(bn.sentence_bleu, refs, hyp, (0.25,) * 4, _ours(method, **params)), expected)


@settings(max_examples=60, deadline=None)
@given(refs=st.lists(TOKENS, min_size=1, max_size=3), hyp=TOKENS, n=st.integers(1, 5))
def test_property_modified_precision(refs, hyp, n):
    ours, theirs = bn.modified_precision(refs, hyp, n), nb.modified_precision(refs, hyp, n)
    assert (ours.numerator, ours.denominator) == (theirs.numerator, theirs.denominator)
    assert bn.closest_ref_length(refs, len(hyp)) == nb.closest_ref_length(refs, len(hyp))


# ---------------------------------------------------------------------------------------------------------
# the statistics on the compiled core (_core.IdCounter.token_list_rows) against the general token-list path
# on the numpy engine, and the fallback for tokens that are not plain str
# ---------------------------------------------------------------------------------------------------------
core = native.compiled_core()

tokens = st.lists(
    st.sampled_from(["a", "b", "the", "é", "日本", "a b", "", "ß", "SS"]) | st.text(max_size=3), max_size=10
)


@requires_core
@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(tokens, st.lists(tokens, min_size=1, max_size=3)), min_size=1, max_size=20), st.integers(1, 5)
)
def test_token_lists_count_like_the_numpy_engine(segments, order):
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    native = core.IdCounter(order).token_list_rows(hyps, refs)
    expected = count_token_lists(hyps, refs, order=order, engine="numpy")
    np.testing.assert_array_equal(native, expected)


@requires_core
def test_blocks_and_threads_give_the_same_rows():
    rng = np.random.default_rng(2)
    words = [f"w{i}" for i in range(40)]
    hyps = [[words[j] for j in rng.integers(0, 40, rng.integers(0, 30))] for _ in range(20_000)]
    refs = [[[words[j] for j in rng.integers(0, 40, rng.integers(0, 30))]] for _ in range(20_000)]
    one = core.IdCounter(4, threads=1).token_list_rows(hyps, refs)
    np.testing.assert_array_equal(core.IdCounter(4, threads=2).token_list_rows(hyps, refs), one)
    np.testing.assert_array_equal(one[:500], count_token_lists(hyps[:500], refs[:500], order=4, engine="numpy"))


@requires_core
def test_other_tokens_take_the_general_path():
    counter = core.IdCounter(4)
    assert counter.token_list_rows([[1, 2, 3]], [[[1, 2]]]) is None
    assert counter.token_list_rows(["abc"], [[["a", "b"]]]) is None  # a string: characters as tokens
    assert counter.token_list_rows([["\ud800"]], [[["x"]]]) is None  # not UTF-8
    # and the public function still scores them
    assert bn.corpus_bleu([[[1, 2, 3, 4]]], [[1, 2, 3, 4]]) == 1.0
    assert bn.sentence_bleu([["\ud800", "a", "b", "c"]], ["\ud800", "a", "b", "c"]) == 1.0
