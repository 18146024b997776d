"""Out-of-range option values are ValueErrors with a clear message (TypeError only for a wrong type), and
token ids beyond 64 bits are named with their position."""

from __future__ import annotations

import math

import numpy as np
import pytest

from bleuscope import BLEU, CHRF, TokenBLEU
from bleuscope.metrics.chrf.scorer import MAX_CHAR_ORDER, MAX_WORD_ORDER

sacrebleu = pytest.importorskip("sacrebleu")

NON_FINITE = [math.nan, math.inf, -math.inf]


@pytest.mark.parametrize("value", NON_FINITE)
def test_non_finite_weights_are_value_errors(value):
    with pytest.raises(ValueError, match=r"weights\[0\] must be a finite number"):
        BLEU(weights=[value, 0.5, 0.25, 0.25])
    with pytest.raises(ValueError, match=r"weights\[2\] must be a finite number"):
        TokenBLEU(weights=[0.25, 0.25, value, 0.5])


@pytest.mark.parametrize("value", NON_FINITE)
@pytest.mark.parametrize("method", ["floor", "add-k", "chen-cherry-4"])
def test_non_finite_smooth_value_is_a_value_error(value, method):
    with pytest.raises(ValueError, match="smooth_value must be a finite number"):
        BLEU(smooth_method=method, smooth_value=value)


@pytest.mark.parametrize("value", NON_FINITE)
def test_non_finite_chrf_beta_is_a_value_error(value):
    with pytest.raises(ValueError, match="beta must be a finite integer"):
        CHRF(beta=value)


def test_wrong_types_stay_type_errors():
    with pytest.raises(TypeError, match="weights"):
        BLEU(weights=["a", 0.5, 0.25, 0.25])
    with pytest.raises(TypeError, match="smooth_value"):
        BLEU(smooth_method="floor", smooth_value="0.1")
    with pytest.raises(TypeError, match="beta must be an integer"):
        CHRF(beta="2")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"char_order": 10**7}, f"char_order must be at most {MAX_CHAR_ORDER}, got 10000000"),
        ({"char_order": 1_000_000}, f"char_order must be at most {MAX_CHAR_ORDER}"),
        ({"word_order": MAX_WORD_ORDER + 1}, f"word_order must be at most {MAX_WORD_ORDER}"),
        ({"char_order": math.inf}, "char_order must be a finite integer"),
    ],
)
def test_chrf_orders_are_bounded(options, message):
    with pytest.raises(ValueError, match=message):  # before anything is allocated (no MemoryError)
        CHRF(**options).corpus_score(["a b c"], [["a b c"]])


def test_the_highest_orders_still_equal_sacrebleu():
    hyps = ["The quick brown fox jumps over the lazy dog .", "Ein kleiner Test", ""]
    refs = [["The quick brown fox jumped over a lazy dog .", "Ein kleiner Test !", "x"]]
    ours = CHRF(char_order=MAX_CHAR_ORDER, word_order=MAX_WORD_ORDER).corpus_score(hyps, refs)
    theirs = sacrebleu.metrics.CHRF(char_order=MAX_CHAR_ORDER, word_order=MAX_WORD_ORDER).corpus_score(hyps, refs)
    assert ours.score == theirs.score


@pytest.mark.parametrize(
    ("hypotheses", "references", "where"),
    [
        ([[1, 2, 2**64]], [[[1, 2]]], r"hypotheses\[0\]\[2\] \(row 0, column 2\) = 18446744073709551616"),
        ([[5], [1, 2, 3, 2**64]], [[[5]], [[1]]], r"hypotheses\[1\]\[3\] \(row 1, column 3\)"),
        ([[1, 2]], [[[1, -(2**63) - 1]]], r"references\[0\]\[0\]\[1\] \(segment 0, reference 0, column 1\)"),
        ([[1, 2], [3]], [[[1, 2]], [[3], [4, 2**64]]], r"references\[1\]\[1\]\[1\] \(segment 1, reference 1, column 1\)"),
    ],
)
def test_token_ids_beyond_64_bits_are_named(hypotheses, references, where):
    with pytest.raises(ValueError, match=where + r".*does not fit in 64 bits"):
        TokenBLEU().corpus_score(hypotheses, references)


def test_ids_of_2_63_and_above_mixed_with_negative_ids_are_named():
    with pytest.raises(ValueError, match=r"hypotheses\[0\]\[2\] \(row 0, column 2\) = 9223372036854775808.*"
                                         r"negative id hypotheses\[0\]\[0\] \(row 0, column 0\) = -1"):
        TokenBLEU().corpus_score([[-1, 2, 2**63]], [[[1, 2]]])


def test_python_lists_with_ids_from_2_63_score_as_unsigned_arrays_do():
    ids = [1, 2, 2**63, 2**64 - 1, 7]
    ref = [1, 2, 2**63, 5, 2**64 - 1, 7]
    from_lists = TokenBLEU().corpus_score([ids], [[ref]])
    from_arrays = TokenBLEU().corpus_score(np.array([ids], dtype=np.uint64), np.array([[ref]], dtype=np.uint64))
    as_text = BLEU(tokenize="none").corpus_score([" ".join(map(str, ids))], [[" ".join(map(str, ref))]])
    assert from_lists.counts == from_arrays.counts == as_text.counts
    assert from_lists.score == from_arrays.score == as_text.score
