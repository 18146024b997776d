"""Statistics of any metric: per-segment rows (:class:`SegmentStatistics`), their checks and their one summable
total (:class:`Totals`).

**Totals.** A corpus score needs only the column sums of the rows plus the ``nrefs`` signature field.
:class:`Totals` holds the sums and three counters (segments, sum and sum of squares of the reference counts,
from which ``nrefs`` -- a count or ``var`` -- is recovered exactly); it is one int64 vector
(:meth:`Totals.state`) that adds up across chunks, shards, processes, ranks or machines.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .signature import nrefs_value


def check_statistics(stats, names: list[str], bounded=(), what: str = "statistics") -> np.ndarray:
    """``stats`` (one row ``[D]`` or rows ``[S, D]`` of counts) as int64, or a ``ValueError`` naming the column
    and the row: the wrong number of columns, a negative count, a count above its total (``bounded``: pairs
    of column indices ``(count, total)``), or values that are not whole numbers. ``names``: the D columns.
    Rows ``[S, D]`` of int16 or int32 are returned as they are (a million lines' rows kept compact are not
    copied; numpy sums them into int64)."""
    arr = np.asarray(stats)
    width = len(names)
    if arr.ndim not in (1, 2) or arr.shape[-1] != width:
        raise ValueError(f"{what} must have {width} columns ({', '.join(names)}) per row, got shape {arr.shape}")
    if arr.dtype.kind not in "iub":
        if arr.dtype.kind != "f" or not np.all(np.isfinite(arr)) or not np.all(arr == np.round(arr)):
            raise ValueError(f"{what} must be whole numbers (counts), got {arr.dtype} values that are not")
    rows = arr.reshape(-1, width)

    def where(r: int, c: int) -> str:
        return f"row {r}, column {c} ({names[c]})" if arr.ndim == 2 else f"column {c} ({names[c]})"

    bad = np.argwhere(rows < 0)
    if len(bad):
        r, c = (int(x) for x in bad[0])
        raise ValueError(f"{what}: {where(r, c)} is negative ({rows[r, c]}); counts are >= 0")
    for count, total in bounded:
        over = np.flatnonzero(rows[:, count] > rows[:, total])
        if len(over):
            r = int(over[0])
            raise ValueError(
                f"{what}: {where(r, count)} = {rows[r, count]} exceeds its total, column {total} ({names[total]}) "
                f"= {rows[r, total]}"
            )
    if arr.ndim == 2 and arr.dtype in (np.int16, np.int32):
        return arr
    return arr.astype(np.int64, copy=False)


@dataclass(frozen=True)
class SegmentStatistics:
    """Per-segment sufficient statistics and the number of references each segment was scored against."""

    stats: np.ndarray  # int64 [S, W]
    nrefs: np.ndarray  # int64 [S]

    def __len__(self) -> int:
        return len(self.stats)

    def total(self) -> np.ndarray:
        return self.stats.sum(axis=0)


@dataclass(frozen=True)
class Totals:
    """Summed statistics rows of any metric plus the counters that recover ``nrefs`` exactly; add with ``+``.

    ``state()`` is one int64 vector ``[stats..., segments, sum(nrefs), sum(nrefs**2)]``: states add up
    element-wise (an all-reduce, a Ray aggregation) and :meth:`from_state` turns a sum back into totals."""

    stats: np.ndarray  # int64 [W]
    segments: int = 0
    nrefs_sum: int = 0
    nrefs_squares: int = 0

    @classmethod
    def zeros(cls, width: int) -> Totals:
        return cls(np.zeros(width, dtype=np.int64))

    @classmethod
    def of(cls, seg: SegmentStatistics) -> Totals:
        """Totals of per-segment statistics."""
        return cls.of_rows(seg.stats, seg.nrefs)

    @classmethod
    def of_rows(cls, stats, nrefs) -> Totals:
        """Totals of int64 rows ``[S, W]`` and their reference counts (one int, or one per segment)."""
        stats = np.asarray(stats, dtype=np.int64)
        return cls.of_sum(stats.sum(axis=0, dtype=np.int64), nrefs, len(stats))

    @classmethod
    def of_sum(cls, total, nrefs, segments: int | None = None) -> Totals:
        """Totals of an already summed row ``[W]`` and the per-segment reference counts (or one int for
        ``segments`` segments)."""
        k = np.asarray(nrefs, dtype=np.int64)
        if k.ndim == 0:
            if segments is None:
                raise TypeError("one nrefs for every segment needs the number of segments (segments=)")
            k = np.full(segments, int(k), dtype=np.int64)
        return cls(np.asarray(total, dtype=np.int64), len(k), int(k.sum()), int((k * k).sum()))

    def state(self) -> np.ndarray:
        """int64 ``[stats..., segments, sum(nrefs), sum(nrefs**2)]``: sum these across shards."""
        return np.concatenate([self.stats, [self.segments, self.nrefs_sum, self.nrefs_squares]]).astype(np.int64)

    @classmethod
    def from_state(cls, state, width: int | None = None) -> Totals:
        """Totals of a :meth:`state` vector (or a sum of several); ``width``: the statistics columns expected."""
        arr = np.asarray(state)
        if arr.ndim != 1 or len(arr) < 4:
            raise ValueError("a state is a 1-D vector [stats..., segments, sum(nrefs), sum(nrefs**2)]")
        if width is not None and arr.shape != (width + 3,):
            raise ValueError(f"state must have shape ({width + 3},) for these settings, got {arr.shape}")
        if not np.issubdtype(arr.dtype, np.integer):
            if not np.array_equal(arr, np.round(arr)):
                raise ValueError("state must hold integers (statistics are counts)")
        arr = arr.astype(np.int64)
        if (arr < 0).any():
            raise ValueError("state must not be negative")
        return cls(arr[:-3].copy(), int(arr[-3]), int(arr[-2]), int(arr[-1]))

    def __add__(self, other: Totals) -> Totals:
        if not isinstance(other, Totals):
            return NotImplemented
        if self.stats.shape != other.stats.shape:
            raise ValueError(f"cannot add totals of {len(self.stats)} and {len(other.stats)} statistics columns "
                             "(different metrics or settings)")
        return Totals(self.stats + other.stats, self.segments + other.segments,
                      self.nrefs_sum + other.nrefs_sum, self.nrefs_squares + other.nrefs_squares)

    def nrefs(self) -> str:
        """The ``nrefs`` signature value: the reference count of every segment, or ``var``."""
        return nrefs_value(self.segments, self.nrefs_sum, self.nrefs_squares)

    def score(self, metric):
        """The metric's corpus score of these totals (its ``score_from_statistics``)."""
        if self.segments == 0:
            raise ValueError("no segments were scored: the input is empty")
        return metric.score_from_statistics(self.stats, self.nrefs())


__all__ = [
    "check_statistics",
    "SegmentStatistics",
    "Totals",
]
