"""Scores from a file as a metric: :class:`Scores` (COMET, MetricX, MQM, DA, ... per segment and system).

The corpus score of a system is the mean of its segment scores. To make that mean additive like every other
metric's statistics (shards, chunks, bootstrap resamples, approximate-randomization swaps), each segment's
float64 value is carried **exactly** as fixed-point integers: ``value * 2**scale`` split into a positive
and a negative part of three 31-bit limbs each, plus a segment count, seven int64 columns. ``scale`` is the
smallest power of two that makes every value of the file an integer (a float64 of magnitude about 1 needs
about 2**-53), at most 92 - (the binary exponent of the largest magnitude); a value finer than that (below
about 2**-92 of the largest) is rounded to it, which the signature's ``scale`` field records. Sums of limbs stay
exact in int64 (and in float64 products, below 2**53) up to 2**22 segments.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from ...core.files import InputError
from ...core.stats import SegmentStatistics
from ..base import Metric, ScoreText

_LIMB_BITS = 31
_LIMB = 1 << _LIMB_BITS
_WIDTH = 7  # [pos hi, pos mid, pos lo, neg hi, neg mid, neg lo, segments]
_MAX_BITS = 92


def _scale_for(values: np.ndarray) -> int:
    v = np.abs(values[np.isfinite(values) & (values != 0)])
    if v.size == 0:
        return 0
    mant, exp = np.frexp(v)  # v = mant * 2**exp, mant in [0.5, 1): mant * 2**53 is an integer
    odd = np.ldexp(mant, 53).astype(np.int64)
    tz = np.array([(x & -x).bit_length() - 1 for x in odd.tolist()], dtype=np.int64)  # its trailing zeros
    need = int(np.max(53 - exp - tz))
    top = int(np.max(exp))
    if top > 60:
        raise ValueError(f"values: a score of magnitude 2**{top - 1} or more; scores must lie below 2**60")
    return max(0, min(need, _MAX_BITS - top))


def _limbs(values: np.ndarray, scale: int) -> np.ndarray:
    """int64 [S, 6] limbs of the positive and negative parts of round(value * 2**scale)."""
    out = np.zeros((values.size, 6), dtype=np.int64)
    for i, v in enumerate(values.tolist()):
        n = round(math.ldexp(v, scale)) if math.isfinite(v) else 0
        a = abs(n)
        limbs = [a >> (2 * _LIMB_BITS), (a >> _LIMB_BITS) & (_LIMB - 1), a & (_LIMB - 1)]
        out[i, (0 if n >= 0 else 3):(3 if n >= 0 else 6)] = limbs
    return out


def _total(row: Sequence[int]) -> int:
    pos = (int(row[0]) << (2 * _LIMB_BITS)) + (int(row[1]) << _LIMB_BITS) + int(row[2])
    neg = (int(row[3]) << (2 * _LIMB_BITS)) + (int(row[4]) << _LIMB_BITS) + int(row[5])
    return pos - neg


@dataclass(frozen=True)
class ScoresScore(ScoreText):
    """The mean of a system's segment scores read from a file."""

    score: float
    name: str
    n_segments: int
    signature: str | None = None


class Scores(Metric):
    """Per-segment scores of each system, read from files, as a metric.

    ``Scores.from_files("COMET", ["comet.json"], systems={"Online-B": hyps, ...})`` or
    ``Scores("MQM", {"Online-B": [...], ...}, higher_is_better=True)``. Significance tests take
    ``scores.statistics(system)`` (or the system's hypothesis list, when the scores were bound to the
    texts): ``paired_bootstrap({s: scores.statistics(s) for s in scores.systems}, metric=scores)``."""

    stats_width = _WIDTH

    @property
    def name(self) -> str:
        """The name given to the scores (``"COMET"``, ``"MQM"``)."""
        return self._name

    @property
    def higher_is_better(self) -> bool:
        return self._higher_is_better

    def __init__(self, name: str, values: Mapping[str, npt.ArrayLike], *, higher_is_better: bool = True,
                 aggregate: str = "mean", source: str | None = None,
                 texts: Mapping[str, Sequence[str]] | None = None):
        if aggregate != "mean":
            raise ValueError(f"aggregate: only 'mean' is supported, not {aggregate!r}")
        if not values:
            raise ValueError("values: no system has scores")
        self._name = name
        self._higher_is_better = bool(higher_is_better)
        self.aggregate = aggregate
        self.source = source
        self.values = {s: np.asarray(v, dtype=np.float64) for s, v in values.items()}
        sizes = {v.size for v in self.values.values()}
        if len(sizes) != 1:
            raise ValueError(f"values: systems have different numbers of segments ({sorted(sizes)})")
        for s, v in self.values.items():
            if not np.isfinite(v).all():
                raise ValueError(f"values[{s!r}]: segment {int(np.flatnonzero(~np.isfinite(v))[0]) + 1} is "
                                 f"{v[~np.isfinite(v)][0]}: every segment needs a finite score")
        self.scale = _scale_for(np.concatenate(list(self.values.values())))
        self._by_text: dict[tuple[str, ...], list[str]] = {}
        for s, hyps in (texts or {}).items():
            self._by_text.setdefault(tuple(hyps), []).append(s)

    @classmethod
    def from_files(cls, name: str, paths: Sequence[str], systems: Mapping[str, Sequence[str]] | Sequence[str],
                   n_segments: int | None = None, *, column: str | None = None, higher_is_better: bool = True,
                   aggregate: str = "mean") -> Scores:
        """Scores of ``systems`` (names, or names -> hypothesis lists, which also gives the segment count)
        read from ``paths`` (one file for all systems or one per system) and checked."""
        from .files import read_scores_files

        names = list(systems)
        if n_segments is None:
            if not isinstance(systems, Mapping):
                raise ValueError("n_segments: give the number of segments, or the systems' hypotheses")
            n_segments = len(next(iter(systems.values())))
        values = read_scores_files(paths, names, n_segments, column=column)
        return cls(name, values, higher_is_better=higher_is_better, aggregate=aggregate,
                   source=", ".join(paths), texts=systems if isinstance(systems, Mapping) else None)

    @property
    def systems(self) -> list[str]:
        return list(self.values)

    def statistics(self, system: str) -> SegmentStatistics:
        """The fixed-point rows of one system (what the significance tests resample)."""
        if system not in self.values:
            raise KeyError(f"{self.name}: no scores for system {system!r} (systems: {', '.join(self.values)})")
        v = self.values[system]
        rows = np.concatenate([_limbs(v, self.scale), np.ones((v.size, 1), dtype=np.int64)], axis=1)
        return SegmentStatistics(stats=rows, nrefs=np.zeros(v.size, dtype=np.int64))

    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        owners = self._by_text.get(tuple(hyps))
        if not owners:
            raise InputError(f"{self.name}: these hypotheses are not those of a system whose scores were read "
                             f"(systems: {', '.join(self.values)}); a score from a file belongs to a whole "
                             "system's output, so give its statistics (Scores.statistics) instead")
        rows = [self.statistics(s).stats for s in owners]
        if any(not np.array_equal(rows[0], r) for r in rows[1:]):
            raise InputError(f"{self.name}: systems {', '.join(owners)} have the same hypotheses but different "
                             "scores; give each system's statistics (Scores.statistics)")
        return rows[0]

    def score_rows(self, rows: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """The mean of each summed row: correctly rounded (Python integers) for up to 100,000 rows, e.g. a
        bootstrap's resamples; beyond that in float64 (within a few units in the last place)."""
        rows = np.atleast_2d(np.asarray(rows))
        if rows.shape[0] <= 100_000:
            return np.array([self.exact_mean(r) for r in rows.tolist()], dtype=np.float64)
        f = rows.astype(np.float64)
        pos = (f[:, 0] * float(_LIMB) + f[:, 1]) * float(_LIMB) + f[:, 2]
        neg = (f[:, 3] * float(_LIMB) + f[:, 4]) * float(_LIMB) + f[:, 5]
        with np.errstate(invalid="ignore", divide="ignore"):
            return np.ldexp((pos - neg) / f[:, 6], -self.scale)

    def exact_mean(self, row: Sequence[int]) -> float:
        """The correctly rounded mean of a summed row (Python integers)."""
        count = int(row[6])
        return _total(row) / (count << self.scale) if count > 0 else math.nan

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> ScoresScore:
        arr = np.asarray(stats)
        if arr.ndim == 1:
            arr = arr[None]
        if arr.ndim != 2 or arr.shape[1] != _WIDTH:
            raise ValueError(f"{self.name}: statistics rows have {_WIDTH} columns, got shape {arr.shape}")
        if arr.dtype.kind not in "iu" or (arr < 0).any():
            raise ValueError(f"{self.name}: statistics must be non-negative integers")
        total = [sum(int(x) for x in arr[:, c]) for c in range(_WIDTH)]
        sig = self.signature(nrefs) if nrefs is not None else None
        return ScoresScore(self.exact_mean(total), self.name, total[6], sig)

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        return {"nrefs": None if nrefs is None else str(nrefs), "scores": self.source or "values",
                "higher": "yes" if self.higher_is_better else "no", "aggregate": self.aggregate,
                "scale": f"2^-{self.scale}"}

    def system_score(self, system: str) -> float:
        """The corpus score of one system: the correctly rounded mean of its segment scores."""
        return self.score_from_statistics(self.statistics(system).stats).score
