"""What the significance tests return: one system's interval, a paired test against a baseline, all pairs
with significance clusters; and the signature a result records."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ...core.signature import format_signature


@dataclass(frozen=True)
class ConfidenceInterval:
    """Bootstrap estimate for one system: ``mean ± ci`` with bounds ``[lower, upper]``.

    ``mean`` is the mean of the resampled scores (sacreBLEU's "μ"), not ``score``. The bounds are the sorted
    resampled scores at ``N // 40`` and ``N - N // 40 - 1`` (a 95% percentile interval for N = 1000), and
    ``ci`` is half their distance, as in sacreBLEU.
    """

    system: str
    score: float
    mean: float
    ci: float
    lower: float
    upper: float
    n_samples: int
    seed: int
    metric: str = "BLEU"
    signature: str = ""

    def format(self, width: int = 2) -> str:
        return f"{self.score:.{width}f} (μ = {self.mean:.{width}f} ± {self.ci:.{width}f})"

    def __str__(self) -> str:
        return f"{self.metric} = {self.format()}"


@dataclass(frozen=True)
class SystemComparison:
    """One system of a paired test against the baseline (the baseline itself has ``p_value=None``).

    ``delta`` is ``score - baseline score``. ``mean``/``ci``/``lower``/``upper`` come from the bootstrap
    resamples (paired bootstrap, or AR with ``confidence_n``) and are ``None`` otherwise. ``ties`` counts the
    resampled statistics exactly equal to the observed one: the only case where ``>`` (sacreBLEU's rule, the
    default) and ``>=`` (the conservative rule, ``strict=False``) give different p-values.
    """

    system: str
    score: float
    delta: float
    p_value: float | None
    mean: float | None
    ci: float | None
    lower: float | None
    upper: float | None
    is_baseline: bool
    ties: int
    n_samples: int
    seed: int

    def to_dict(self) -> dict:
        """sacreBLEU's JSON fields for one cell: ``score``, ``p_value``, ``mean``, ``ci``."""
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


@dataclass(frozen=True)
class PairedTestResult:
    """A baseline against one or more systems; ``systems[0]`` is the baseline."""

    test: str  # "bs" (paired bootstrap) or "ar" (approximate randomization)
    metric: str
    baseline: str
    systems: tuple[SystemComparison, ...]
    n_samples: int
    seed: int
    confidence_n: int | None
    signature: str

    def __getitem__(self, name: str) -> SystemComparison:
        for s in self.systems:
            if s.system == name:
                return s
        raise KeyError(name)

    def __iter__(self):
        return iter(self.systems)

    def __len__(self) -> int:
        return len(self.systems)

    def format(self, width: int = 2) -> str:
        """One line per system: score, ``(μ = mean ± ci)`` when resampled, delta and p-value."""
        lines = [
            f"{'bootstrap' if self.test == 'bs' else 'approximate randomization'} "
            f"({self.n_samples} {'resamples' if self.test == 'bs' else 'trials'}), {self.signature}"
        ]
        for s in self.systems:
            line = f"{s.system}: {self.metric} = {s.score:.{width}f}"
            if s.mean is not None:
                line += f" (μ = {s.mean:.{width}f} ± {s.ci:.{width}f})"
            line += " [baseline]" if s.is_baseline else f" Δ = {s.delta:+.{width}f} p = {s.p_value:.4f}"
            lines.append(line)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> list[dict]:
        """sacreBLEU's ``--format json`` shape: ``[{"system": ..., "BLEU": {score, p_value, mean, ci}}, ...]``."""
        return [{"system": s.system, self.metric: s.to_dict()} for s in self.systems]


@dataclass(frozen=True, eq=False)
class AllPairsResult:
    """Every pair of systems compared with one test, and a ranking into significance clusters.

    ``p_values[i, j]`` is the p-value of the paired test between ``systems[i]`` and ``systems[j]``; it equals
    the p-value of the baseline-vs-system test with ``systems[i]`` as the baseline (same seed, same draws) and
    is symmetric. ``order`` lists system indices by descending score (ascending for a metric where lower is better). Clusters (best first) are separated
    between ranks k and k+1 exactly when every system above the line beats every system below it with
    p < alpha, so a system's cluster never contains a system it significantly beats with all others in
    between. ``rank_ranges[i] = (1 + #systems significantly better, K - #systems significantly worse)``.
    """

    test: str
    metric: str
    systems: tuple[str, ...]
    scores: tuple[float, ...]
    means: tuple[float | None, ...]
    cis: tuple[float | None, ...]
    p_values: np.ndarray  # float64 [K, K], read-only; diagonal 1.0
    alpha: float
    order: tuple[int, ...]
    clusters: tuple[tuple[str, ...], ...]
    cluster_of: tuple[int, ...]  # 1-based cluster per system (same order as `systems`)
    rank_ranges: tuple[tuple[int, int], ...]
    n_samples: int
    seed: int
    signature: str

    def __eq__(self, other) -> bool:
        if not isinstance(other, AllPairsResult):
            return NotImplemented
        return all(
            np.array_equal(getattr(self, f), getattr(other, f))
            if f == "p_values"
            else getattr(self, f) == getattr(other, f)
            for f in self.__dataclass_fields__
        )

    __hash__ = None  # type: ignore[assignment]  # holds an array

    def _index(self, name: str) -> int:
        try:
            return self.systems.index(name)
        except ValueError:
            raise KeyError(name) from None

    def p_value(self, a: str, b: str) -> float:
        return float(self.p_values[self._index(a), self._index(b)])

    def significant(self, a: str, b: str) -> bool:
        return self.p_value(a, b) < self.alpha

    def format(self, width: int = 2) -> str:
        """One line per system, best first: cluster, rank range, score."""
        lines = [
            f"all pairs, {'bootstrap' if self.test == 'bs' else 'approximate randomization'} "
            f"({self.n_samples}), alpha {self.alpha:g}, {self.signature}"
        ]
        for i in self.order:
            lo, hi = self.rank_ranges[i]
            rank = f"{lo}" if lo == hi else f"{lo}-{hi}"
            lines.append(
                f"cluster {self.cluster_of[i]}  rank {rank:<5} {self.systems[i]}: "
                f"{self.metric} = {self.scores[i]:.{width}f}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> list[dict]:
        """A list of systems (best first) in sacreBLEU's shape, plus ``cluster``, ``rank`` and ``p_values``."""
        rows = []
        for i in self.order:
            cell = {
                "score": self.scores[i],
                "mean": self.means[i],
                "ci": self.cis[i],
                "cluster": self.cluster_of[i],
                "rank": list(self.rank_ranges[i]),
                "p_values": {self.systems[j]: float(self.p_values[i, j]) for j in self.order if j != i},
            }
            rows.append({"system": self.systems[i], self.metric: cell})
        return rows


def signature_with_test(sig_fields: dict | None, inserted: dict, short: bool = False) -> str:
    """A metric's signature fields with a test's fields (``bs``/``ar``, ``seed``) inserted after ``nrefs``.

    This is sacreBLEU's order, e.g. ``nrefs:1|bs:1000|seed:12345|case:mixed|...``.
    """
    if sig_fields is None:
        return format_signature(inserted, short=short)
    out = {}
    placed = False
    for key, value in sig_fields.items():
        if not placed and key != "nrefs":
            out.update(inserted)
            placed = True
        out[key] = value
    if not placed:
        out.update(inserted)
    return format_signature(out, short=short)
