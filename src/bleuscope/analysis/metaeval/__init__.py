"""Meta-evaluation: how well a metric's scores agree with human scores, with WMT's statistics and
significance tests, computed as Google's mt-metrics-eval computes them.

``correlate(gold, metric, "acc_eq", num_sys=9, average_by="item")`` gives one number; see
:mod:`.correlation` for the statistics, :mod:`.permutation` for the tests between two metrics and
:mod:`.tasks` for WMT23/WMT24-style tables with significance clusters.
"""

from __future__ import annotations

from .correlation import (
    AVERAGE_BY,
    TauOptimization,
    TauStats,
    agreement,
    average_correlation,
    kendall,
    kendall_like,
    kendall_variant,
    kendall_with_ties_opt,
    pairwise_accuracy,
    pairwise_p_values,
    pdp_pearson,
    pearson,
    soft_pairwise_accuracy,
    spearman,
    tau_optimization,
    tau_stats,
)
from .permutation import SigDiff, pairwise_permutation_sig_diff, permutation_sig_diff, zscore
from .tasks import STATISTICS, MetricComparison, assign_ranks, compare_metrics, correlate

__all__ = [
    "AVERAGE_BY", "STATISTICS", "MetricComparison", "SigDiff", "TauOptimization", "TauStats", "agreement",
    "assign_ranks", "average_correlation", "compare_metrics", "correlate", "kendall", "kendall_like",
    "kendall_variant", "kendall_with_ties_opt", "pairwise_accuracy", "pairwise_p_values",
    "pairwise_permutation_sig_diff", "pdp_pearson", "pearson", "permutation_sig_diff",
    "soft_pairwise_accuracy", "spearman", "tau_optimization", "tau_stats", "zscore",
]
