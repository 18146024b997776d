"""score_from_statistics refuses statistics that no input can produce, naming the column and the row: the
wrong number of columns, a negative count, a match count above its total (BLEU, chrF, TER)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU, CHRF, TER

HYPS = ["The cat sat on the mat.", "A quick brown fox.", "Hello world"]
REFS = [["The cat is on the mat.", "A fast brown fox!", "Hello, world"]]


@pytest.mark.parametrize("metric", [BLEU(), CHRF(), CHRF(word_order=2), TER(), BLEU(smooth_method="chen-cherry-5")])
def test_valid_statistics_score_as_before(metric):
    stats = metric.segment_statistics(HYPS, REFS).stats
    assert metric.score_from_statistics(stats).score == metric.corpus_score(HYPS, REFS).score


def test_bleu_negative_count_names_row_and_column():
    with pytest.raises(ValueError, match=r"row 0, column 2 \(correct_1\) is negative \(-1\)"):
        BLEU().score_from_statistics(np.array([[5, 5, -1, 0, 0, 0, 5, 4, 3, 2]]))


def test_bleu_count_above_total_names_row_and_column():
    with pytest.raises(ValueError, match=r"row 1, column 3 \(correct_2\) = 5 exceeds its total, column 7 \(total_2\) = 4"):
        BLEU().score_from_statistics(np.array([[5, 5, 1, 1, 1, 1, 5, 4, 3, 2], [5, 5, 4, 5, 0, 0, 5, 4, 3, 2]]))


def test_summed_row_names_the_column():
    with pytest.raises(ValueError, match=r"column 6 \(total_1\) is negative"):
        BLEU().score_from_statistics(np.array([5, 5, 0, 0, 0, 0, -5, 4, 3, 2]))


@pytest.mark.parametrize("metric, width", [(BLEU(), 10), (CHRF(), 18), (TER(), 2)])
def test_wrong_shape_says_the_columns(metric, width):
    with pytest.raises(ValueError, match=f"must have {width} columns"):
        metric.score_from_statistics(np.zeros((2, width + 1), dtype=np.int64))
    with pytest.raises(ValueError, match=f"must have {width} columns"):
        metric.score_from_statistics(np.zeros((2, 2, width), dtype=np.int64))


def test_chrf_match_above_reference_ngrams():
    row = [4, 2, 3] + [0] * 15
    with pytest.raises(ValueError, match=r"column 2 \(match_1\) = 3 exceeds its total, column 1 \(ref_1\) = 2"):
        CHRF().score_from_statistics(np.array([row]))


def test_ter_negative_edits():
    with pytest.raises(ValueError, match=r"row 0, column 0 \(edits\) is negative"):
        TER().score_from_statistics(np.array([[-1, 500]]))


def test_non_integral_values_are_refused():
    with pytest.raises(ValueError, match="whole numbers"):
        BLEU().score_from_statistics(np.array([[5, 5, 0.5, 0, 0, 0, 5, 4, 3, 2]]))


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 4), st.integers(0, 3), st.integers(1, 50), st.booleans())
def test_any_single_corruption_is_named(row, order, amount, negative):
    """One cell made negative, or a match count pushed above its total: the message names that cell."""
    stats = BLEU().segment_statistics(HYPS * 2, [REFS[0] * 2]).stats.copy()
    row %= len(stats)
    col = 2 + order
    if negative:
        stats[row, col] = -amount
        message = rf"row {row}, column {col} \(correct_{order + 1}\) is negative"
    else:
        stats[row, col] = stats[row, 6 + order] + amount
        message = rf"row {row}, column {col} \(correct_{order + 1}\) = \d+ exceeds its total"
    with pytest.raises(ValueError, match=message):
        BLEU().score_from_statistics(stats)
