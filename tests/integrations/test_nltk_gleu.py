"""bleuscope.nltk_gleu against NLTK 3.10.4's gleu_score itself (a test dependency) on WMT data, the
doctest values NLTK 3.10.4 returns (../shared/oracles/goldens/gleu-nltk-doctests.json), and NLTK's edge
cases (empty sides, other token types, min_len=0, max_len=-1)."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nltk.translate import gleu_score as nltk

import bleuscope.nltk_gleu as ours
from bleuscope.integrations.nltk_gleu import GLEUInputError

from ..metrics.goldens_support import GOLDENS, MT, lines


def test_short_name_is_the_integration():
    import bleuscope
    from bleuscope.integrations import nltk_gleu

    assert bleuscope.nltk_gleu is nltk_gleu is ours


def test_doctest_values():
    cases = json.loads((GOLDENS / "gleu-nltk-doctests.json").read_text(encoding="utf-8"))["cases"]
    assert len(cases) >= 5
    values = []
    for case in cases:
        if "expression" in case:  # the doctest's mean of the two sentence scores before it
            assert case["expression"] == "(score1 + score2) / 2"
            assert (values[-2] + values[-1]) / 2 == case["value"]
            continue
        if case["function"] == "corpus_gleu":
            got = ours.corpus_gleu(case["list_of_references"], case["hypotheses"], **case["kwargs"])
        else:
            got = ours.sentence_gleu(case["references"], case["hypothesis"], **case["kwargs"])
        assert got == case["value"], case["doctest_shows"]
        values.append(got)


@pytest.mark.parametrize("pair", ["de-en", "en-de", "zh-en"])
def test_equals_nltk_on_wmt(pair):
    base = MT / "generaltest2022" / pair
    refs_a, refs_b = lines(base / "ref.A.txt"), lines(base / "ref.B.txt")
    system = sorted((base / "sys").iterdir())[0]
    hyps = [h.split() for h in lines(system)][:600]
    list_of_refs = [[a.split(), b.split()] for a, b in zip(refs_a, refs_b)][:600]
    for lo, hi in ((1, 4), (2, 3), (1, 1)):
        assert ours.corpus_gleu(list_of_refs, hyps, lo, hi) == nltk.corpus_gleu(list_of_refs, hyps, lo, hi)
    for refs, hyp in list(zip(list_of_refs, hyps))[:200]:
        assert ours.sentence_gleu(refs, hyp) == nltk.sentence_gleu(refs, hyp)


TOKENS = st.lists(st.sampled_from(["a", "b", "c", "a b"]), max_size=9)


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(TOKENS, st.lists(TOKENS, max_size=3)), max_size=4),
       st.integers(0, 3), st.sampled_from([-1, 1, 2, 4, 6]))
def test_equals_nltk_on_generated_input(segments, min_len, max_len):
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    assert ours.corpus_gleu(refs, hyps, min_len, max_len) == nltk.corpus_gleu(refs, hyps, min_len, max_len)


def test_nltk_edge_cases():
    assert ours.corpus_gleu([], []) == nltk.corpus_gleu([], []) == 0.0
    assert ours.sentence_gleu([[]], []) == nltk.sentence_gleu([[]], []) == 0.0
    # a string is a sequence of characters to NLTK; integers are tokens too
    assert ours.sentence_gleu(["abcd"], "abce") == nltk.sentence_gleu(["abcd"], "abce")
    assert ours.sentence_gleu([[1, 2, 3]], [1, 2, 4]) == nltk.sentence_gleu([[1, 2, 3]], [1, 2, 4])
    with pytest.raises(AssertionError):
        nltk.corpus_gleu([[["a"]]], [])
    with pytest.raises(GLEUInputError, match="list_of_references has 1 entries, hypotheses has 0"):
        ours.corpus_gleu([[["a"]]], [])


# words of the core's reader and counter: ASCII read where it lies, other text copied, 15/16-byte words
# (keyed exactly / by hash), hypotheses past 64 tokens (counted without position masks)
WIDE_TOKENS = st.lists(st.sampled_from(["a", "b", "é", "字", "fifteen bytes..", "sixteen bytes...",
                                        "sixteen bytes..!", "seventeen bytes..", "ab"]), max_size=70)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(WIDE_TOKENS, st.lists(WIDE_TOKENS, max_size=3), st.booleans()), max_size=5),
       st.integers(1, 3), st.integers(1, 5))
def test_equals_nltk_and_the_python_definition_on_wide_tokens(segments, min_len, max_len):
    from bleuscope.metrics.gleu.reference import corpus_value, segment_row

    max_len = max(min_len, max_len)
    hyps = [h for h, _, _ in segments]
    refs = [tuple(r) if as_tuple else r for _, r, as_tuple in segments]
    got = ours.corpus_gleu(refs, hyps, min_len, max_len)
    assert got == nltk.corpus_gleu(refs, hyps, min_len, max_len)
    if hyps:
        assert got == corpus_value([segment_row(h, r, min_len, max_len) for r, h in zip(refs, hyps)])
