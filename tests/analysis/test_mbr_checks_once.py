"""MBR checks the hypothesis and pseudo-reference lists once (``Metric.pairwise_checked`` takes them as
checked); ``pairwise`` on unchecked lists still checks them, and both give the pair scores."""

from __future__ import annotations

import numpy as np
import pytest

from bleuscope import BLEU, CHRF, METEOR, ROUGE
from bleuscope.analysis.mbr import mbr_select
from bleuscope.metrics.bleu import pairwise  # noqa: F401 (loaded before the spies are set)

from ..conftest import spy_on_validation

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
    # the hypotheses and the pseudo-references once each (before: again in pairwise, and the H x R pairs)
    assert (checked.call_count, streams.call_count) == (1 if pseudo is None else 2, 0)
    np.testing.assert_array_equal(result.matrix, expected)
    np.testing.assert_array_equal(metric.pairwise(CANDIDATES, CANDIDATES if pseudo is None else pseudo), expected)
