"""Corpus BLEU over iterables and files larger than memory, in chunks, with the in-memory result.

Corpus BLEU only needs the *sum* of the per-segment sufficient statistics, so a corpus can be read in
chunks of segments, each chunk turned into statistics and added to a running total; nothing but one chunk
and the tokenizer cache is held in memory. The integers are the same as in one in-memory pass, so the
score is bit-identical.

* :func:`bleuscope.core.files.read_lines` reads a file lazily, one segment per line, splitting on ``"\\n"``
  only (never on ``\\r``, U+2028, U+001D or the other characters :meth:`str.splitlines` treats as line breaks).
* :func:`iter_statistics` yields :class:`~bleuscope.core.stats.SegmentStatistics` chunk by chunk for a hypothesis
  stream and reference streams (lists, generators, paths, open files); streams of different lengths are an
  error naming the stream that ended first and where.
* :func:`corpus_score_stream` / :func:`corpus_score_files` give the corpus score; ``BLEU.corpus_score``
  takes the same path (``BLEU.score_stream``) when it receives iterators, open files or paths. The chunk readers
  live in :mod:`bleuscope.core.chunks`, below the metrics.
* :class:`Accumulator` (any metric) and :class:`BLEUAccumulator` (``update`` / ``add_statistics`` /
  ``merge`` / ``compute`` / ``reset``) keep the running statistics; its :meth:`~BLEUAccumulator.state` is one int64 vector that can simply be *summed*
  across shards, processes or ranks (e.g. with an all-reduce) and turned back into an accumulator.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from ..core.chunks import is_streaming_input, iter_statistics
from ..core.stats import SegmentStatistics, Totals
from ..metrics.base import check_metric
from ..metrics.bleu.counting import MAX_CACHED_VOCABULARY
from ..metrics.bleu.scorer import BLEU, BLEUScore


# -- accumulation ------------------------------------------------------------------------------------------
class Accumulator:
    """Running corpus statistics of any metric (:class:`bleuscope.metrics.base.Metric`): ``update`` with
    batches, ``compute`` the corpus score at any time.

    What it holds is a :class:`~bleuscope.core.stats.Totals`: the summed statistics
    row plus the counters from which ``nrefs`` -- a number or ``var`` -- is recovered exactly; its
    :meth:`state` is one int64 vector that sums across shards: ``Accumulator.from_state(sum_of_states, metric)``.
    """

    def __init__(self, metric) -> None:
        self.metric = check_metric(metric)
        self._width = metric.stats_width
        self.reset()

    def reset(self) -> None:
        """Forget everything accumulated (the tokenizer cache is kept)."""
        self._totals = Totals.zeros(self._width)

    # -- views of the state ----------------------------------------------------------------------------
    @property
    def totals(self) -> np.ndarray:
        """Summed statistics row (a copy)."""
        return self._totals.stats.copy()

    @property
    def n_segments(self) -> int:
        return self._totals.segments

    def nrefs(self) -> str:
        """``nrefs`` signature value: the reference count per segment, or ``var`` when it varies."""
        if self._totals.segments == 0:
            raise ValueError("nothing accumulated yet")
        return self._totals.nrefs()

    def state(self) -> np.ndarray:
        """int64 ``[totals..., n_segments, sum(nrefs), sum(nrefs**2)]``: sum these across shards."""
        return self._totals.state()

    @classmethod
    def from_state(cls, state, *args, **options) -> Accumulator:
        """An accumulator holding ``state`` (e.g. the sum of several :meth:`state` vectors); the other
        arguments are those of the constructor."""
        acc = cls(*args, **options)
        try:
            acc._totals = Totals.from_state(state, acc._width)
        except ValueError as err:
            raise ValueError(f"{err} ({acc.metric.name})") from None
        return acc

    # -- adding ----------------------------------------------------------------------------------------
    def update(self, hypotheses, references, *, chunk_size: int | None = None) -> SegmentStatistics | None:
        """Add a batch (lists, iterables, paths or files, as :func:`iter_statistics` takes).

        Returns the batch's per-segment statistics when it fitted in one chunk, else ``None`` (large
        streams are not kept)."""
        parts = 0
        last = None
        for seg in iter_statistics(self.metric, hypotheses, references, chunk_size=chunk_size):
            self.add_statistics(seg)
            parts += 1
            last = seg
        return last if parts == 1 else None

    def add_statistics(self, stats, nrefs=None) -> None:
        """Add per-segment statistics: a :class:`SegmentStatistics`, or an int array [S, W] with ``nrefs``
        (one int for all segments, or one per segment)."""
        if isinstance(stats, SegmentStatistics):
            if nrefs is not None:
                raise TypeError("nrefs is taken from the SegmentStatistics; do not pass it")
            stats, nrefs = stats.stats, stats.nrefs
        arr = np.asarray(stats)
        if arr.ndim != 2 or arr.shape[1] != self._width:
            raise ValueError(
                f"stats must be per-segment statistics of shape [S, {self._width}] for these {self.metric.name} "
                "settings, "
                f"got shape {arr.shape}"
            )
        if not np.issubdtype(arr.dtype, np.integer):
            raise TypeError(f"stats must be an integer array, got dtype {arr.dtype}")
        if nrefs is None:
            raise TypeError("nrefs is required with a raw statistics array (an int, or one per segment)")
        k = np.asarray(nrefs)
        if k.ndim == 0:
            k = np.full(len(arr), k)
        if k.shape != (len(arr),) or not np.issubdtype(k.dtype, np.integer) or (k < 1).any():
            raise ValueError(f"nrefs must be a positive int or {len(arr)} positive ints, got {nrefs!r}")
        if (arr < 0).any():
            raise ValueError("stats must not be negative")
        self._totals = self._totals + Totals.of_rows(arr, k)

    def merge(self, *others: Accumulator) -> Accumulator:
        """Add the statistics of other accumulators (same settings) into this one; returns ``self``."""
        mine = self.metric.signature_fields("?")
        for other in others:
            if not isinstance(other, Accumulator):
                raise TypeError(f"can only merge {type(self).__name__} objects, got {type(other).__name__}")
            theirs = other.metric.signature_fields("?")
            if theirs != mine:
                diff = sorted(key for key in mine if mine[key] != theirs.get(key))
                raise ValueError(f"cannot merge accumulators with different settings ({', '.join(diff)})")
            self._totals = self._totals + other._totals
        return self

    def __iadd__(self, other: Accumulator) -> Accumulator:
        return self.merge(other)

    # -- scoring ---------------------------------------------------------------------------------------
    def compute(self):
        """The corpus score of everything accumulated (identical to one in-memory ``corpus_score``)."""
        if self.n_segments == 0:
            raise ValueError("nothing accumulated yet: call update() or add_statistics() first")
        return self._totals.score(self.metric)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(segments={self.n_segments}, {self.metric.signature('?', short=True)})"


class BLEUAccumulator(Accumulator):
    """An :class:`Accumulator` of corpus BLEU: ``BLEUAccumulator(bleu)`` or ``BLEUAccumulator(**options)``
    (the :class:`~bleuscope.BLEU` options)."""

    def __init__(self, bleu: BLEU | None = None, **options) -> None:
        if bleu is not None and options:
            raise TypeError("give either a BLEU object or BLEU options, not both")
        if bleu is None:
            bleu = BLEU(**options)
        super().__init__(check_metric(bleu, "bleu"))
        self._bleu = bleu

    @property
    def bleu(self) -> BLEU:
        return self._bleu

    def compute(self) -> BLEUScore:
        """Corpus BLEU of everything accumulated (identical to one in-memory ``corpus_score``)."""
        return super().compute()


# -- corpus scores -----------------------------------------------------------------------------------------
def corpus_score_stream(
    bleu: BLEU, hypotheses, references, *, chunk_size: int | None = None, encoding: str = "utf-8", n_jobs=None
) -> BLEUScore:
    """Corpus score of ``bleu`` (BLEU or any other metric) over streams (lists, iterables, paths, open files),
    in bounded memory."""
    return check_metric(bleu, "bleu").score_stream(hypotheses, references, chunk_size=chunk_size, encoding=encoding, n_jobs=n_jobs)


def corpus_score_files(
    hypothesis_file,
    reference_files: Sequence,
    *,
    bleu: BLEU | None = None,
    chunk_size: int | None = None,
    encoding: str = "utf-8",
    n_jobs=None,
    **options,
) -> BLEUScore:
    """Corpus BLEU of a hypothesis file against reference files, read lazily line by line.

    Paths may be ``str`` or :class:`os.PathLike`; pass a ``BLEU`` object or the BLEU options.
    """
    if bleu is not None and options:
        raise TypeError("give either bleu= or BLEU options, not both")
    if bleu is None:
        bleu = BLEU(**options)
    if isinstance(reference_files, (str, bytes, os.PathLike)):
        raise TypeError("reference_files must be a list of paths; for one reference file pass [path]")
    if not isinstance(hypothesis_file, (str, os.PathLike)):
        raise TypeError(f"hypothesis_file must be a path, got {type(hypothesis_file).__name__}")
    ref_paths = list(reference_files)
    for k, p in enumerate(ref_paths):
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"reference_files[{k}] must be a path, got {type(p).__name__}")
    paths = [Path(p) for p in [hypothesis_file] + ref_paths]
    for p in paths:
        if not p.is_file():
            raise FileNotFoundError(f"no such file: {p}")
    return corpus_score_stream(bleu, paths[0], paths[1:], chunk_size=chunk_size, encoding=encoding, n_jobs=n_jobs)


__all__ = [
    "Accumulator",
    "BLEUAccumulator",
    "MAX_CACHED_VOCABULARY",
    "corpus_score_files",
    "corpus_score_stream",
    "is_streaming_input",
    "iter_statistics",
]
