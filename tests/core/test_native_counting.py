"""The compiled core's BLEU statistics equal the numpy reference engine's, row by row, on generated text
that reaches the corners of its counting table: long segments, words around the 15/16-byte limit of exact
word keys and the 7/8-byte border of their two halves (at every position, the last word of a line
included), words repeated within a segment
(clipping against several references), references missing, and the scanner's Unicode cases."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU

from ..conftest import requires_core

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
