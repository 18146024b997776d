"""One statistic by name, metrics ranked into significance clusters, and WMT23/WMT24-style task sets.

The names are those of ``bleuscope meta-eval -f json``: ``pearson``, ``spearman``, ``kendall_b``,
``kendall_c``, ``kendall_23``, ``acc23``, ``acc_eq`` (acc23 at the calibrated tie threshold),
``pairwise_accuracy`` (system level) and ``spa`` (soft pairwise accuracy: system level, computed from
segment scores).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any

import numpy as np

from .correlation import (
    as_gold,
    as_metric,
    average_correlation,
    kendall,
    kendall_variant,
    kendall_with_ties_opt,
    pairwise_accuracy,
    pdp_pearson,
    pearson,
    soft_pairwise_accuracy,
    spearman,
)
from .permutation import pairwise_permutation_sig_diff, permutation_sig_diff

STATISTICS = ("pearson", "spearman", "kendall_b", "kendall_c", "kendall_23", "acc23", "acc_eq",
              "pairwise_accuracy", "spa")


def correlate(
    gold: Any, metric: Any, statistic: str, *, num_sys: int = 1, average_by: str = "none",
    epsilon: float = 0.0, pdp: bool = False, replace_nans_with_zeros: bool = False, sample_rate: float = 1.0,
    rng: np.random.RandomState | None = None,
) -> float:
    """One statistic of ``metric`` against ``gold`` (flat, system-major vectors; missing gold = None/NaN).

    ``pairwise_accuracy`` takes system-level scores (one per system); ``spa`` segment-level ones, with
    ``num_sys`` systems."""
    if statistic not in STATISTICS:
        raise ValueError(f"statistic: {statistic!r} is not one of {', '.join(STATISTICS)}")
    if statistic == "pearson" and pdp:
        return pdp_pearson(gold, metric, num_sys, average_by)
    fns = {
        "pearson": pearson,
        "spearman": spearman,
        "kendall_b": lambda g, m: kendall(g, m, "b"),
        "kendall_c": lambda g, m: kendall(g, m, "c"),
        "kendall_23": lambda g, m: kendall_variant(g, m, "23", epsilon),
        "acc23": lambda g, m: kendall_variant(g, m, "acc23", epsilon),
    }
    if statistic in fns:
        return average_correlation(fns[statistic], gold, metric, num_sys, average_by,
                                   replace_nans_with_zeros=replace_nans_with_zeros)
    if statistic == "acc_eq":
        return kendall_with_ties_opt(gold, metric, num_sys, average_by, "acc23", sample_rate, rng).best_tau
    if statistic == "pairwise_accuracy":
        return pairwise_accuracy(gold, metric)
    return soft_pairwise_accuracy(gold, metric, num_sys)


def assign_ranks(sig_matrix: np.ndarray, pval: float = 0.05) -> list[int]:
    """Cluster ranks from a significance matrix over metrics sorted best first (``sig_matrix[i, j]``, j > i:
    the p-value that metric j is not worse than metric i): a metric opens a new cluster when some metric
    of the current cluster is significantly better than it (mtme's ``AssignRanks``)."""
    n = sig_matrix.shape[0]
    ranks, rank, start = [], 1, 0
    for i in range(n):
        if np.any(sig_matrix[start:i, i] <= pval):
            rank += 1
            start = i
        ranks.append(rank)
    return ranks


@dataclasses.dataclass(frozen=True)
class MetricComparison:
    """Metrics best first: their values, cluster ranks, and the p-value matrix (upper triangle)."""

    names: list[str]
    values: list[float]
    ranks: list[int]
    sig_matrix: np.ndarray

    def records(self) -> list[dict[str, Any]]:
        return [{"metric": n, "value": v, "rank": r} for n, v, r in zip(self.names, self.values, self.ranks)]


def _perm_statistic(statistic: str, epsilon: float) -> tuple[str, dict[str, Any]]:
    table: dict[str, tuple[str, dict[str, Any]]] = {
        "pearson": ("pearson", {}),
        "spearman": ("spearman", {}),
        "kendall_b": ("kendall", {"variant": "b"}),
        "kendall_c": ("kendall", {"variant": "c"}),
        "kendall_23": ("kendall_variant", {"variant": "23", "epsilon": epsilon}),
        "acc23": ("kendall_variant", {"variant": "acc23", "epsilon": epsilon}),
        "acc_eq": ("kendall_with_ties_opt", {"variant": "acc23", "sample_rate": 1.0}),
        "pairwise_accuracy": ("accuracy", {}),
        "spa": ("spa", {}),
    }
    return table[statistic]


def compare_metrics(
    gold: Any, metrics: Mapping[str, Any], statistic: str, *, num_sys: int = 1, average_by: str = "none",
    k: int = 1000, seed: int | None = None, rng: np.random.RandomState | None = None,
    perm_test: str = "scores", pval: float = 0.05, block_size: int = 100, early_min: float = 0.02,
    early_max: float = 0.5, epsilon: float = 0.0,
) -> MetricComparison:
    """Rank metrics by ``statistic`` and group them into significance clusters (mtme's ``CompareMetrics``):
    each pair (best first) is tested with PERM-BOTH (``perm_test='scores'``) or the pairwise permutation
    test (``'pairs'``, acc23/kendall_23/acc_eq only), all pairs drawing from one random stream in order.
    ``k=0`` ranks without tests (every metric then shares rank 1)."""
    if not metrics:
        raise ValueError("metrics: nothing to compare")
    if perm_test not in ("scores", "pairs"):
        raise ValueError(f"perm_test: {perm_test!r} is not 'scores' or 'pairs'")
    g = as_gold(gold)
    scores = {name: as_metric(v, f"metrics[{name!r}]") for name, v in metrics.items()}
    values = {name: correlate(g, m, statistic, num_sys=num_sys, average_by=average_by, epsilon=epsilon)
              for name, m in scores.items()}
    names = sorted(values, key=lambda n: (-values[n] if not math.isnan(values[n]) else math.inf, n))
    n = len(names)
    sig = np.zeros((n, n))
    if k:
        if rng is None:
            rng = np.random.RandomState(seed)
        for i in range(n):
            for j in range(i + 1, n):
                sig[i, j] = _pvalue(g, scores[names[j]], scores[names[i]], statistic, num_sys, average_by, k, rng,
                                    perm_test, block_size, early_min, early_max, epsilon)
    return MetricComparison(names, [values[x] for x in names], assign_ranks(sig, pval), sig)


def _pvalue(g, m1, m2, statistic, num_sys, average_by, k, rng, perm_test, block_size, early_min, early_max,
            epsilon) -> float:
    if perm_test == "pairs":
        variant = {"acc23": "acc23", "acc_eq": "acc23", "kendall_23": "23"}.get(statistic)
        if variant is None:
            raise ValueError(f"perm_test='pairs' takes acc23, kendall_23 or acc_eq, not {statistic!r}")
        eps = None if statistic == "acc_eq" else epsilon
        return pairwise_permutation_sig_diff(g, m1, m2, num_sys=num_sys, variant=variant, average_by=average_by,
                                             k=k, rng=rng, block_size=block_size, early_min=early_min,
                                             early_max=early_max, epsilon1=eps, epsilon2=eps).p
    name, args = _perm_statistic(statistic, epsilon)
    return permutation_sig_diff(g, m1, m2, num_sys=num_sys, statistic=name, average_by=average_by, k=k, rng=rng,
                                block_size=block_size, early_min=early_min, early_max=early_max, **args).p


@dataclasses.dataclass(frozen=True)
class Task:
    """One column of a WMT metrics-task table: a level, a statistic, a grouping and its significance test."""

    level: str  # "sys" or "seg"
    statistic: str
    average_by: str = "none"
    perm_test: str = "scores"

    @property
    def label(self) -> str:
        grouping = "" if self.average_by == "none" else f"-{self.average_by}"
        return f"{self.level}-{self.statistic}{grouping}"


# WMT23 (mtme tasks.WMT23, one language pair): system-level pairwise accuracy and Pearson, segment-level
# Pearson (no grouping) and acc_eq grouped by item with the pairwise permutation test.
WMT23 = (Task("sys", "pairwise_accuracy"), Task("sys", "pearson"), Task("seg", "pearson"),
         Task("seg", "acc_eq", "item", "pairs"))
# WMT24 (mtme tasks.WMT24): soft pairwise accuracy at system level, acc_eq by item at segment level.
WMT24 = (Task("sys", "spa"), Task("seg", "acc_eq", "item", "pairs"))
TASK_SETS = {"wmt23": WMT23, "wmt24": WMT24}
