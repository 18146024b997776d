"""The additive-metric interface every bleuscope metric implements (BLEU, chrF, TER, ...).

A metric is *additive* when its corpus score is a pure function of the column sums of per-segment
integer statistics rows. Everything above the metrics (significance tests, streaming accumulators, the
process pool, Ray, the report) only uses this interface, so a new metric plugs in without changes there:

* ``segment_statistics(hypotheses, references)`` -> :class:`SegmentStatistics` (int64 rows + reference
  count per segment);
* ``score_rows(rows, float32=False)`` -> float64 score per row, where each row is a (summed) statistics
  row. ``float32=True`` reproduces sacreBLEU's arithmetic on float32 sums (what its resampling tests do);
  a metric without a sacreBLEU counterpart may ignore it;
* ``score_from_statistics(stats, nrefs=None)`` -> the metric's rich score object for the column sums;
* ``signature_fields(nrefs)`` / ``signature(nrefs, short=False)``;
* ``name`` (``"BLEU"``, ``"chrF2"``, ``"TER"``), ``higher_is_better`` and ``stats_width``.

Optional hooks, used where present:

* ``chunk_counter()`` -> a picklable callable ``(hyps, ref_streams) -> int64 rows`` for validated input
  (``None`` = missing reference): the process pool (``n_jobs``) sends it to worker processes, streamed
  input is counted with it, and with ``new_encoder()`` / ``count(hyps, streams, encoder=...)`` several
  systems share one tokenization cache (:func:`bleuscope.analysis.significance.system_statistics`);
* ``float32_statistics(stats)`` and ``bootstrap_scores_float32``: sacreBLEU's float32 rows and float32
  score arithmetic in resampling, for metrics where they differ from the int64 rows cast (chrF, TER).
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np

from ..core.stats import SegmentStatistics


@runtime_checkable
class AdditiveMetric(Protocol):
    """See the module docstring."""

    name: str
    higher_is_better: bool

    @property
    def stats_width(self) -> int: ...

    def segment_statistics(self, hypotheses, references) -> SegmentStatistics: ...

    def score_rows(self, rows: np.ndarray, *, float32: bool = False) -> np.ndarray: ...

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None): ...

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]: ...

    def signature(self, nrefs: str | int | None = None, *, short: bool = False) -> str: ...


__all__ = ["AdditiveMetric", "SegmentStatistics"]
