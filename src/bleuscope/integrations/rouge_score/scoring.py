"""rouge-score's ``scoring`` module: ``Score``, ``AggregateScore``, ``BaseScorer``, ``BootstrapAggregator``
and ``fmeasure``, with its behaviour (see :mod:`bleuscope.metrics.rouge.aggregate` for the aggregator)."""

from __future__ import annotations

import abc
import collections

from ...metrics.rouge.aggregate import bootstrap_aggregate, check_aggregator_options
from ...metrics.rouge.scores import AggregateScore, Score

__all__ = ["AggregateScore", "BaseScorer", "BootstrapAggregator", "Score", "fmeasure"]


class BaseScorer(abc.ABC):
    """A scorer: ``score(target, prediction) -> {score_type: Score}``."""

    @abc.abstractmethod
    def score(self, target: str, prediction: str) -> dict:
        """Scores of ``prediction`` against ``target``."""


class BootstrapAggregator:
    """Bootstrap confidence intervals of the mean of added scores, as rouge-score computes them: the same
    draws from numpy's global random state and the same arithmetic, so the same low/mid/high."""

    def __init__(self, confidence_interval: float = 0.95, n_samples: int = 1000) -> None:
        check_aggregator_options(confidence_interval, n_samples)
        self._n_samples = n_samples
        self._confidence_interval = confidence_interval
        self._scores: dict[str, list] = collections.defaultdict(list)

    def add_scores(self, scores: dict) -> None:
        """Add one sample: a dict ``{score_type: Score}``."""
        for score_type, score in scores.items():
            self._scores[score_type].append(score)

    def aggregate(self) -> dict:
        """``{score_type: AggregateScore(low, mid, high)}`` (low/mid/high of the first score's class)."""
        import numpy as np

        result = {}
        for score_type, scores in self._scores.items():
            part = bootstrap_aggregate({score_type: np.vstack(tuple(scores))}, self._n_samples,
                                       self._confidence_interval, scores[0].__class__)
            result[score_type] = part[score_type]
        return result


def fmeasure(precision, recall):
    """``2 * P * R / (P + R)``, 0.0 when ``P + R`` is not positive."""
    if precision + recall > 0:
        return 2 * precision * recall / (precision + recall)
    return 0.0
