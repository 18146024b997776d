"""MBR (bleuscope.analysis.mbr): expected utilities and the selection equal a loop of sacreBLEU's sentence_score
over every pair, with weights, without self pairs, with pseudo-references and other metrics; bad input; the
hypothesis and pseudo-reference lists checked once (``Metric.pairwise_checked`` takes them as checked), while
``pairwise`` on unchecked lists still checks them, and both give the pair scores."""

from __future__ import annotations

import numpy as np
import pytest

from bleuscope import BLEU, CHRF, METEOR, ROUGE, TER
from bleuscope.analysis.mbr import expected_utility, mbr_select, utilities_from_matrix
from bleuscope.metrics.bleu import pairwise  # noqa: F401 (loaded before the spies are set)

from ..conftest import spy_on_validation
from ..metrics.bleu.test_pairwise import _sacre_matrix

CANDIDATES = ["the cat sat on the mat", "a cat sat on the mat", "the cat is on the mat", "dogs bark"]


@pytest.mark.parametrize(
    "metric", [BLEU(effective_order=True), CHRF(), ROUGE(["rouge1"]), METEOR()], ids=lambda m: type(m).__name__
)
@pytest.mark.parametrize("pseudo", [None, CANDIDATES[::-1]])
def test_mbr_checks_the_lists_once(monkeypatch, metric, pseudo):
    expected = np.array(
        [[metric.sentence_score(h, [r]).score for r in (CANDIDATES if pseudo is None else pseudo)] for h in CANDIDATES]
    )
    checked, streams = spy_on_validation(monkeypatch, "check_text_list"), spy_on_validation(monkeypatch, "check_references")
    result = mbr_select(CANDIDATES, pseudo, bleu=metric)
    # the hypotheses and the pseudo-references once each (not again in pairwise, nor per pair)
    assert (checked.call_count, streams.call_count) == (1 if pseudo is None else 2, 0)
    np.testing.assert_array_equal(result.matrix, expected)
    np.testing.assert_array_equal(metric.pairwise(CANDIDATES, CANDIDATES if pseudo is None else pseudo), expected)


# -- MBR -----------------------------------------------------------------------------------------------------

MBR_CANDS = ["the cat sat on the mat", "a cat sat on a mat", "the cat sat", "dogs bark loudly", "the cat sat on mat"]


def test_expected_utility_uniform_with_self_pairs():
    loop = _sacre_matrix(MBR_CANDS, MBR_CANDS, effective_order=True)
    got = expected_utility(MBR_CANDS)  # default scorer: BLEU(effective_order=True), self pairs included
    assert got == pytest.approx(loop.mean(axis=1), rel=1e-12)
    res = mbr_select(MBR_CANDS)
    assert res.index == int(np.argmax(loop.mean(axis=1)))
    assert res.hypothesis == MBR_CANDS[res.index]
    assert np.array_equal(res.matrix, loop)


def test_expected_utility_without_self_pairs_and_weights():
    loop = _sacre_matrix(MBR_CANDS, MBR_CANDS, effective_order=True)
    w = np.array([0.5, 1.0, 2.0, 0.25, 1.5])
    got = expected_utility(MBR_CANDS, weights=w, include_self=False)
    for h in range(len(MBR_CANDS)):
        others = [r for r in range(len(MBR_CANDS)) if r != h]
        want = sum(w[r] * loop[h, r] for r in others) / sum(w[r] for r in others)
        assert got[h] == pytest.approx(want, rel=1e-12)
    res = mbr_select(MBR_CANDS, MBR_CANDS, weights=w.tolist(), include_self=False)
    assert res.index == int(np.argmax(got))


def test_expected_utility_separate_pseudo_references_and_scorer():
    refs = ["the cat sat on the mat", "the dog sat on the mat"]
    bleu = BLEU(smooth_method="floor")
    got = expected_utility(MBR_CANDS, refs, [3, 1], bleu=bleu)
    loop = _sacre_matrix(MBR_CANDS, refs, smooth_method="floor")
    assert got == pytest.approx((loop @ np.array([3.0, 1.0])) / 4.0, rel=1e-12)


@pytest.mark.parametrize("kwargs,exc,word", [
    ({"pseudo_references": ["x"], "include_self": False}, ValueError, "include_self"),
    ({"weights": [1, 2]}, ValueError, "weights"),
    ({"weights": [1, -1, 1, 1, 1]}, ValueError, r"weights\[1\]"),
    ({"weights": [1, float("nan"), 1, 1, 1]}, ValueError, r"weights\[1\]"),
    ({"weights": [0, 0, 0, 0, 0]}, ValueError, "weights"),
    ({"weights": 1.0}, TypeError, "weights"),
    ({"weights": ["a"] * 5}, TypeError, "weights"),
    ({"include_self": "no"}, TypeError, "include_self"),
    ({"bleu": "13a"}, TypeError, "bleu"),
    ({"bleu": TER()}, ValueError, "lower TER scores are better"),
])
def test_mbr_bad_input(kwargs, exc, word):
    with pytest.raises(exc, match=word):
        mbr_select(MBR_CANDS, **kwargs)


def test_mbr_with_another_metric_uses_its_sentence_scores():
    chrf = CHRF()
    want = np.array([[chrf.sentence_score(h, [r]).score for r in MBR_CANDS] for h in MBR_CANDS])
    res = mbr_select(MBR_CANDS, bleu=chrf)
    assert np.array_equal(res.matrix, want)
    assert np.array_equal(res.utilities, utilities_from_matrix(want)) and res.index == int(np.argmax(res.utilities))


def test_mbr_exclude_self_needs_another_candidate():
    with pytest.raises(ValueError, match="hypothesis 0"):
        expected_utility(["only one"], include_self=False)
    with pytest.raises(ValueError, match="hypothesis 2"):  # all the weight on its own entry
        utilities_from_matrix(np.ones((3, 3)), [0, 0, 1], include_self=False)
    with pytest.raises(ValueError, match="square"):
        utilities_from_matrix(np.ones((2, 3)), include_self=False)
