"""The scorer a Ray actor holds (bleuscope.runtime.ray.Scorer), used in this process: every metric and
TokenBLEU through one call, with the numbers of the scorer's own sentence_scores."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

from bleuscope import BLEU, CHRF, TER, TokenBLEU
from bleuscope.runtime.ray import Scorer

from ..metrics.test_contract import HYPS, REFS, WordOverlap


@pytest.mark.parametrize("metric", [BLEU(), CHRF(), TER(), WordOverlap()], ids=lambda m: type(m).__name__)
def test_scorer_gives_the_metrics_sentence_scores(metric):
    got = Scorer(metric).sentence_scores(HYPS, REFS)
    assert got.dtype == np.float64 and np.array_equal(got, metric.sentence_scores(HYPS, REFS).scores)


def test_scorer_gives_token_bleus_sentence_scores():
    tb = TokenBLEU(pad_id=0, effective_order=True)
    hyps = np.array([[5, 6, 7, 0], [5, 9, 0, 0]])
    refs = np.array([[5, 6, 7, 8], [5, 9, 9, 0]])
    got = Scorer(tb).sentence_scores(hyps, refs)
    assert got.dtype == np.float64 and np.array_equal(got, tb.sentence_scores(hyps, refs))
    assert Scorer(tb).corpus_score(hyps, refs).score == tb.corpus_score(hyps, refs).score


def test_a_scorer_outside_ray_starts_no_ray():
    """Made in a plain process, the scorer keeps its thread setting and Ray stays uninitialized (asking Ray for
    the task's CPUs there would start a local Ray instance)."""
    pytest.importorskip("ray")
    code = (
        "import ray\nfrom bleuscope import BLEU\nfrom bleuscope.runtime.ray import Scorer\n"
        "assert Scorer(BLEU()).scorer.threads is None\nassert not ray.is_initialized()\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True, timeout=120)
