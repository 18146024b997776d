"""The metric a significance test resamples, as an :class:`AdditiveStatistic`.

A test only needs a ``name`` and a vectorized ``score(stats_rows) -> float64 [R]`` of corpus-total rows;
optionally ``score_float32`` (sacreBLEU's float32 scoring of bootstrap resamples). :func:`as_statistic`
adapts what a caller passes: a bleuscope metric (BLEU, chrF, TER, through the :class:`~bleuscope.metrics.base.Metric`
contract), a
:class:`ScoringConfig`, an :class:`AdditiveStatistic` or a plain function.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from ...metrics.base import is_metric
from ...metrics.bleu.scoring import ScoringConfig, compute_scores


@runtime_checkable
class AdditiveStatistic(Protocol):
    """A metric whose corpus score is a function of the column sums of per-segment integer statistics.

    ``score(stats_rows)`` maps int64 rows ``[R, D]`` (each row a corpus total) to float64 scores ``[R]``.
    Optionally, ``score_float32(sums)`` scores float32 rows the way sacreBLEU scores bootstrap resamples.
    """

    name: str

    def score(self, stats: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class BLEUStatistic:
    """BLEU as an :class:`AdditiveStatistic` (rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``)."""

    config: ScoringConfig = field(default_factory=ScoringConfig)
    name: str = "BLEU"

    def score(self, stats: np.ndarray) -> np.ndarray:
        return compute_scores(stats, self.config).score

    def score_float32(self, sums: np.ndarray) -> np.ndarray:
        """BLEU of float32 resample sums with sacreBLEU 2.6.0's arithmetic (see :mod:`bleuscope.analysis.significance`)."""
        return compute_scores(sums, self.config, float32=True).score


@dataclass(frozen=True)
class MetricStatistic:
    """Any metric (:class:`bleuscope.metrics.base.Metric`: BLEU, chrF, TER, ...) as an
    :class:`AdditiveStatistic`, through its ``score_rows``."""

    metric: object

    @property
    def name(self) -> str:
        return self.metric.name

    @property
    def higher_is_better(self) -> bool:
        return bool(getattr(self.metric, "higher_is_better", True))

    def score(self, stats: np.ndarray) -> np.ndarray:
        return np.asarray(self.metric.score_rows(stats), dtype=np.float64)

    def score_float32(self, sums: np.ndarray) -> np.ndarray:
        """The metric's scores of float32 resample sums (sacreBLEU's arithmetic where it has one)."""
        return np.asarray(self.metric.score_rows(np.atleast_2d(sums), float32=True), dtype=np.float64)

    def float32_statistics(self, stats: np.ndarray) -> np.ndarray | None:
        """sacreBLEU's float32 per-segment rows when they are not the int64 rows cast (TER's mean reference
        length), else None."""
        convert = getattr(self.metric, "float32_statistics", None)
        return None if convert is None else convert(stats)

    @property
    def sacrebleu_arithmetic(self) -> bool:
        """Whether sacreBLEU has this metric, so that ``precision="sacrebleu"`` reproduces its float32
        resampling; a metric declares ``sacrebleu_arithmetic = False`` when it has no sacreBLEU counterpart."""
        return bool(getattr(self.metric, "sacrebleu_arithmetic", True))

    @property
    def bootstrap_scores_float32(self) -> bool:
        """sacreBLEU's resampled scores of this metric are numpy.float32 (chrF, TER), so its means, CI
        half-widths and paired differences run in float32."""
        return bool(getattr(self.metric, "bootstrap_scores_float32", False))


@dataclass(frozen=True)
class FunctionStatistic:
    """Wrap a vectorized function ``score(stats_rows) -> scores`` as an :class:`AdditiveStatistic`."""

    function: object
    name: str = "score"

    def score(self, stats: np.ndarray) -> np.ndarray:
        out = np.asarray(self.function(stats), dtype=np.float64)
        if out.shape != (len(stats),):
            raise ValueError(
                f"metric function returned shape {out.shape} for {len(stats)} rows; expected ({len(stats)},)"
            )
        return out


def as_statistic(metric) -> AdditiveStatistic:
    """An additive metric (a :class:`BLEU` scorer, chrF, TER, ...), a :class:`ScoringConfig`, an
    :class:`AdditiveStatistic` or a plain function."""
    if metric is None:
        return BLEUStatistic()
    if is_metric(metric):  # BLEU, chrF, TER, ...: only through the Metric contract
        return MetricStatistic(metric)
    if isinstance(metric, ScoringConfig):
        return BLEUStatistic(metric)
    if isinstance(metric, AdditiveStatistic):
        return metric
    if callable(metric):
        return FunctionStatistic(metric, getattr(metric, "__name__", "score"))
    raise TypeError(
        "metric must be a bleuscope BLEU, a ScoringConfig, an object with a vectorized score(stats) method, "
        f"or a function; got {type(metric).__name__}"
    )
