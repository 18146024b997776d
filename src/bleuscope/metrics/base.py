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

from ..core import chunks, pool
from ..core.signature import nrefs_field
from ..core.stats import SegmentStatistics
from ..core.validation import check_text_list


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


class CorpusScoring:
    """The corpus and sentence entry points every additive metric shares, written once.

    A metric class inherits them and provides ``check_inputs`` / ``count_checked`` (or its own
    ``segment_statistics``), ``score_from_statistics`` and a ``_last_nrefs`` attribute (the ``nrefs``
    signature field of the last scored input). ``corpus_score`` sends iterables, open files and paths to
    ``score_stream`` (chunked, bounded memory); a metric with a faster path for in-memory lists (BLEU's
    total-only count) overrides ``corpus_score`` alone.
    """

    def segment_statistics(self, hypotheses, references, *, n_jobs: int | None = None) -> SegmentStatistics:
        """Per-segment statistics rows of validated input (``check_inputs``, then ``count_checked``);
        ``n_jobs`` > 1 (or -1: every CPU) counts chunks in worker processes (identical rows)."""
        hyps, streams, present = self.check_inputs(hypotheses, references)
        if n_jobs is not None:
            stats = pool.statistics_checked(self, hyps, streams, present, n_jobs)
        else:
            stats = self.count_checked(hyps, streams, present)
        return SegmentStatistics(stats=stats, nrefs=present.sum(axis=1).astype(np.int64))

    def corpus_score(self, hypotheses, references, *, n_jobs: int | None = None):
        """Corpus score: the statistics of every segment summed, then scored once."""
        if chunks.is_streaming_input(hypotheses, references):
            return self.score_stream(hypotheses, references, n_jobs=n_jobs)
        seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
        self._last_nrefs = nrefs_field(seg.nrefs)
        return self.score_from_statistics(seg.stats, self._last_nrefs)

    def score_stream(
        self,
        hypotheses,
        references,
        *,
        chunk_size: int | None = None,
        encoding: str = "utf-8",
        n_jobs: int | None = None,
    ):
        """Corpus score of streamed input (iterables, open files, paths), read in chunks of ``chunk_size``
        segments with bounded memory (:func:`bleuscope.core.chunks.iter_statistics`); ``corpus_score`` takes
        this path for such input."""
        total = chunks.sum_statistics(
            self, hypotheses, references, chunk_size=chunk_size, encoding=encoding, n_jobs=n_jobs
        )
        self._last_nrefs = total.nrefs_field
        return self.score_from_statistics(total.stats, self._last_nrefs)

    def sentence_score(self, hypothesis: str, references):
        """Score of one hypothesis against its references (a list of strings)."""
        if not isinstance(hypothesis, str):
            raise TypeError(f"hypothesis must be a string, got {type(hypothesis).__name__}")
        refs = check_text_list(references, "references", allow_none=True)
        if not refs:
            raise ValueError("references is empty: give at least one reference string")
        return self.corpus_score([hypothesis], [[r] for r in refs])


class ChunkCounter:
    """Validated text chunk -> a metric's statistics rows; picklable (what worker processes receive), with
    the ``new_encoder()`` / ``count()`` shape the significance module also uses for BLEU's counter."""

    def __init__(self, metric) -> None:
        self.metric = metric

    def __call__(self, hyps: list, ref_streams: list) -> np.ndarray:
        return self.metric.count_checked(hyps, ref_streams)

    def new_encoder(self) -> None:
        return None  # chrF and TER keep no vocabulary between chunks

    def count(self, hyps: list, ref_streams: list, encoder=None) -> np.ndarray:
        return self(hyps, ref_streams)


class ScoreText:
    """sacreBLEU's text forms of one score, shared by every metric's score type (a frozen dataclass with
    ``score``, ``name`` and, optionally, a ``verbose`` property with the details printed after the score)."""

    @property
    def verbose(self) -> str:
        """The details sacreBLEU prints after the score (none unless the metric defines them)."""
        return ""

    def format(self, width: int = 2, score_only: bool = False, signature: str | None = None) -> str:
        """``NAME = SCORE DETAILS``, or ``NAME|SIGNATURE = SCORE DETAILS``, e.g.
        ``BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ...)`` or ``chrF2 = 55.12``."""
        sc = f"{self.score:.{width}f}"
        if score_only:
            return sc
        head = f"{self.name}|{signature}" if signature else self.name
        details = self.verbose
        return f"{head} = {sc} {details}" if details else f"{head} = {sc}"

    def __str__(self) -> str:
        return self.format()

    def __float__(self) -> float:
        return float(self.score)


class ScoreBatch:
    """The sequence behaviour of a batch of sentence scores (a frozen dataclass with a ``scores`` array and
    a ``__getitem__`` that builds one score object)."""

    def __len__(self) -> int:
        return len(self.scores)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def tolist(self) -> list[float]:
        return self.scores.tolist()
