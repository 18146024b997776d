"""score_from_statistics refuses statistics that no input can produce, naming the column and the row: the
wrong number of columns, a negative count, a match count above its total (BLEU, chrF, TER); for the metrics
with fixed-point rows (ROUGE, METEOR, and TokenBLEU, and the significance tests given statistics) also values
that are not whole numbers and fixed-point values above the row's segment count (a mean above 1). Rows summed
from valid rows always pass."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU, CHRF, TER
from bleuscope.analysis.significance import confidence_interval, paired_bootstrap
from bleuscope.metrics.bleu.token_ids import TokenBLEU
from bleuscope.metrics.meteor.scorer import METEOR
from bleuscope.metrics.rouge.scorer import ROUGE

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


# -- the metrics with fixed-point rows
FIXED_POINT_HYPS = ["the cat sat on the mat", "a quick brown fox jumps", "hello world", ""]
FIXED_POINT_REFS = [["the cat is on the mat", "a fast brown fox jumped", "hello there world", "nothing here"]]


@pytest.fixture(scope="module")
def rouge_rows():
    return ROUGE().segment_statistics(FIXED_POINT_HYPS, FIXED_POINT_REFS).stats


@pytest.fixture(scope="module")
def meteor_rows():
    return METEOR().segment_statistics(FIXED_POINT_HYPS, FIXED_POINT_REFS).stats


def test_valid_rows_and_their_sums_score_as_before(rouge_rows, meteor_rows):
    for metric, rows in ((ROUGE(), rouge_rows), (METEOR(), meteor_rows)):
        want = metric.corpus_score(FIXED_POINT_HYPS, FIXED_POINT_REFS).score
        assert metric.score_from_statistics(rows).score == want
        assert metric.score_from_statistics(rows.sum(axis=0)).score == want
        assert metric.score_from_statistics(rows.astype(np.int32)).score == want


def test_rouge_negative_limb_names_row_and_column(rouge_rows):
    bad = rouge_rows.copy()
    bad[2, 5] = -1
    with pytest.raises(ValueError, match=r"ROUGE statistics: row 2, column 5 \(rouge1_recall_mid\) is negative"):
        ROUGE().score_from_statistics(bad)


def test_rouge_value_above_one_names_row_and_columns(rouge_rows):
    bad = rouge_rows.copy()
    bad[1, 4] += 1 << 29  # rouge1 recall of segment 1 above 1
    with pytest.raises(ValueError, match=r"row 1, columns 4-6 \(rouge1_recall_hi, rouge1_recall_mid, rouge1_recall_lo\)"
                                         r" hold the value .* more than the row's 1 segment"):
        ROUGE().score_from_statistics(bad)


def test_rouge_values_without_segments(rouge_rows):
    bad = rouge_rows.copy()
    bad[0, 0] = 0
    with pytest.raises(ValueError, match=r"row 0, columns 1-3 .* more than the row's 0 segment"):
        ROUGE().score_from_statistics(bad)


def test_rouge_wrong_width_and_fractions(rouge_rows):
    with pytest.raises(ValueError, match="must have 37 columns"):
        ROUGE().score_from_statistics(rouge_rows[:, :-1])
    with pytest.raises(ValueError, match="whole numbers"):
        ROUGE().score_from_statistics(rouge_rows + 0.5)


def test_meteor_counts_above_totals(meteor_rows):
    bad = meteor_rows.copy()
    bad[0, 1] = bad[0, 2] + 1
    with pytest.raises(ValueError, match=r"row 0, column 1 \(matches\) = \d+ exceeds its total, column 2 \(hyp_len\)"):
        METEOR().score_from_statistics(bad)
    bad = meteor_rows.copy()
    bad[1, 4] = bad[1, 1] + 3
    with pytest.raises(ValueError, match=r"row 1, column 4 \(chunks\) = \d+ exceeds its total, column 1 \(matches\)"):
        METEOR().score_from_statistics(bad)


def test_meteor_value_above_one_and_negative(meteor_rows):
    bad = meteor_rows.copy()
    bad[3, 5] = (1 << 28) + 1
    with pytest.raises(ValueError, match=r"row 3, columns 5-7 \(value_hi, value_mid, value_lo\) hold the value"):
        METEOR().score_from_statistics(bad)
    bad = meteor_rows.copy()
    bad[2, 3] = -4
    with pytest.raises(ValueError, match=r"row 2, column 3 \(ref_len\) is negative \(-4\)"):
        METEOR().score_from_statistics(bad)
    with pytest.raises(ValueError, match="must have 8 columns"):
        METEOR().score_from_statistics(np.zeros((2, 9), dtype=np.int64))


def test_token_bleu_refuses_invalid_rows():
    metric = TokenBLEU()
    with pytest.raises(ValueError, match=r"row 0, column 2 \(correct_1\) is negative \(-1\)"):
        metric.score_from_statistics(np.array([[5, 5, -1, 0, 0, 0, 5, 4, 3, 2]]))
    with pytest.raises(ValueError, match=r"row 1, column 3 \(correct_2\) = 5 exceeds its total, column 7 \(total_2\)"):
        metric.score_from_statistics(np.array([[5, 5, 1, 1, 1, 1, 5, 4, 3, 2], [5, 5, 4, 5, 0, 0, 5, 4, 3, 2]]))
    with pytest.raises(ValueError, match="must have 10 columns"):
        metric.score_from_statistics(np.zeros((1, 9), dtype=np.int64))


def test_significance_on_statistics_names_system_row_and_column(rouge_rows, meteor_rows):
    bad = rouge_rows.copy()
    bad[3, 10] = -7
    with pytest.raises(ValueError, match=r"system 'b': ROUGE statistics: row 3, column 10 .* is negative"):
        paired_bootstrap({"a": rouge_rows, "b": bad}, metric=ROUGE(), n_samples=10)
    bad = meteor_rows.copy()
    bad[1, 1] = 99
    with pytest.raises(ValueError, match=r"system 'sys': METEOR statistics: row 1, column 1 \(matches\)"):
        confidence_interval(bad, metric=METEOR(), n_samples=10, name="sys")


@settings(max_examples=60, deadline=None)
@given(row=st.integers(0, 3), col=st.integers(0, 36), amount=st.integers(1, 1 << 40), negative=st.booleans())
def test_rouge_any_single_corruption_is_named(rouge_rows, row, col, amount, negative):
    stats = rouge_rows.copy()
    if negative:
        stats[row, col] = -amount
        message = rf"row {row}, column {col} \(\w+\) is negative"
    else:  # push one fixed-point value (or the segment count's values) above the count
        group = 1 + (max(col, 1) - 1) // 3 * 3
        stats[row, group] = (stats[row, 0] << 28) + amount
        message = rf"row {row}, columns {group}-{group + 2} \(\w+, \w+, \w+\) hold the value"
    with pytest.raises(ValueError, match=message):
        ROUGE().score_from_statistics(stats)


@settings(max_examples=40, deadline=None)
@given(weights=st.lists(st.integers(0, 1000), min_size=4, max_size=4))
def test_rows_summed_any_number_of_times_pass(rouge_rows, meteor_rows, weights):
    """A bootstrap resample's sum (each segment counted any number of times) is valid: no false refusals."""
    w = np.array(weights, dtype=np.int64)
    for metric, rows in ((ROUGE(), rouge_rows), (METEOR(), meteor_rows)):
        metric.check_statistics(w @ rows)


@settings(max_examples=60, deadline=None)
@given(row=st.integers(0, 3), col=st.integers(0, 7), amount=st.integers(1, 1 << 40),
       how=st.sampled_from(["negative", "above"]))
def test_meteor_any_single_corruption_is_named(meteor_rows, row, col, amount, how):
    """One cell made negative, or pushed above what bounds it (matches above a length, chunks above the
    matches, the value above the segment count): the message names that cell."""
    stats = meteor_rows.copy()
    if how == "negative":
        stats[row, col] = -amount
        message = rf"row {row}, column {col} \(\w+\) is negative"
    elif col in (1, 4):  # matches above hyp_len, chunks above matches
        total = 2 if col == 1 else 1
        stats[row, col] = stats[row, total] + amount
        message = rf"row {row}, column {col} \(\w+\) = \d+ exceeds its total, column {total}"
    elif col >= 5:
        stats[row, 5] = (stats[row, 0] << 28) + amount
        message = rf"row {row}, columns 5-7 \(value_hi, value_mid, value_lo\) hold the value"
    elif col == 0:  # no segment, a value above zero
        stats[row, 0], stats[row, 5] = 0, amount % (1 << 28) + 1
        message = rf"row {row}, columns 5-7 .* more than the row's 0 segment"
    else:  # matches above a length
        stats[row, 1] = stats[row, col] + amount
        message = rf"row {row}, column 1 \(matches\) = \d+ exceeds its total, column [23]"
    with pytest.raises(ValueError, match=message):
        METEOR().score_from_statistics(stats)
