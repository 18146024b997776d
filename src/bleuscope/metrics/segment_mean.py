"""What the metrics whose corpus score is the mean of segment values share (CharacTER, EED): the
statistics row, its exact sums, the score types and the input checks.

**The statistics row** of a segment is ``[1, value as three fixed-point limbs]`` (ROUGE's and METEOR's exact
rows, :mod:`bleuscope.metrics.rouge.scores`): the value (a float64 in [0, 1], or a float32 widened) times
2**90 is an integer, split into limbs of 28 + 31 + 31 bits. Rows add up exactly in int64 in any order, so the
mean of any shards, streams, worker chunks or bootstrap resamples is the exact mean of the segment values
rounded once; the segment count is the first column. (``statistics.mean`` or ``sum(values) / len(values)``
of the same floats may differ from it in the last bit; :attr:`SegmentMeanScores.values` keeps the floats.)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.stats import check_statistics
from ..core.validation import check_reference_presence, check_references
from .base import Metric, ScoreBatch, ScoreText
from .rouge.scores import LIMBS, check_fixed_point, exact_mean, to_limbs

#: columns of a statistics row: the segment count, then the value's limbs
STATS_WIDTH = 1 + LIMBS
ROW_NAMES = ["segments", "value_hi", "value_mid", "value_lo"]


@dataclass(frozen=True)
class SegmentMeanScore(ScoreText):
    """One score of a mean-of-segments metric: ``value`` as the metric defines it (0-1), ``score`` = 100 x
    value (bleuscope's 0-100 scale); a segment's, or a corpus mean."""

    score: float
    value: float
    signature: str = ""
    name: str = field(default="")

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "value": self.value, "signature": self.signature}


@dataclass(frozen=True)
class SegmentMeanScores(ScoreBatch):
    """The segment values of a batch: ``values`` (0-1, the defining implementation's floats) and ``scores``
    (100 x values), float64 [S]."""

    scores: np.ndarray
    values: np.ndarray
    signature: str = ""
    name: str = ""

    def __getitem__(self, i: int) -> SegmentMeanScore:
        return SegmentMeanScore(float(self.scores[i]), float(self.values[i]), self.signature, self.name)


class SegmentMeanMetric(Metric):
    """A metric whose corpus score is the mean of per-segment values in [0, 1]; a subclass writes ``name``,
    ``segment_values(hyps, streams, present)`` and ``signature_fields``."""

    higher_is_better = False
    stats_width = STATS_WIDTH

    def segment_values(self, hyps: list, streams: list, present: np.ndarray) -> np.ndarray:  # pragma: no cover
        raise NotImplementedError

    def check_reference_streams(self, references, n_segments: int) -> tuple[list, np.ndarray]:
        """Validated ``(reference streams, presence [S, K])``: strings or None, a reference for every segment."""
        streams = check_references(references, n_segments)
        return streams, check_reference_presence(streams)

    def rows_of(self, values: np.ndarray) -> np.ndarray:
        """Statistics rows ``[S, 4]`` of segment values."""
        values = np.asarray(values, dtype=np.float64)
        ones = np.ones((len(values), 1), dtype=np.int64)
        return np.concatenate([ones, to_limbs(values).reshape(len(values), LIMBS)], axis=1)

    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        if present is None:
            present = check_reference_presence(streams)
        return self.rows_of(self.segment_values(hyps, streams, present))

    def check_statistics(self, stats) -> np.ndarray:
        """``stats`` as int64 rows ``[R, 4]``, or a ValueError naming the column and row (wrong width, not whole
        numbers, negative, a value sum above the row's segment count)."""
        what = f"{self.name} statistics"
        rows = check_statistics(stats, ROW_NAMES, (), what)
        rows = np.asarray(rows, dtype=np.int64).reshape(-1, STATS_WIDTH)
        check_fixed_point(rows, 0, [1], ROW_NAMES, what)
        return rows

    def mean_values(self, rows: np.ndarray) -> np.ndarray:
        """float64 mean value (0-1) per row of (summed) statistics: exact, rounded once."""
        rows = np.asarray(rows, dtype=np.int64)
        if rows.ndim == 1:
            rows = rows[None, :]
        if rows.ndim != 2 or rows.shape[1] != STATS_WIDTH:
            raise ValueError(f"{self.name} statistics rows must have {STATS_WIDTH} columns, got shape {rows.shape}")
        return np.array([exact_mean(r[1:4], r[0]) for r in rows], dtype=np.float64)

    def score_rows(self, rows: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """float64 100 x mean value per row of (summed) statistics (``float32`` is ignored)."""
        return 100 * self.mean_values(rows)

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> SegmentMeanScore:
        """The corpus score (the mean segment value) from per-segment rows (summed here) or one summed row."""
        rows = self.check_statistics(stats)
        total = rows.sum(axis=0)
        if total[0] <= 0:
            raise ValueError(f"{self.name}'s corpus score needs at least one segment")
        value = float(self.mean_values(total)[0])
        sig = self.signature(nrefs) if nrefs is not None else ""
        return SegmentMeanScore(100 * value, value, sig, self.name)

    def sentence_scores(self, hypotheses, references, *, n_jobs: int | None = None) -> SegmentMeanScores:
        """Each segment's value (``references[k][i]``: reference k of segment i; None = missing)."""
        from ..core.signature import nrefs_field

        hyps, streams, present = self.check_inputs(hypotheses, references)
        values = np.asarray(self.segment_values(hyps, streams, present), dtype=np.float64)
        return SegmentMeanScores(100 * values, values, self.signature(nrefs_field(present.sum(axis=1))), self.name)
