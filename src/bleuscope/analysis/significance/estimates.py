"""What is read off resampled scores: sacreBLEU's percentile interval and the p-value of an observed
statistic."""

from __future__ import annotations

import statistics

import numpy as np


def interval(scores: np.ndarray, mean_rule: str, float32: bool = False) -> tuple[float, float, float, float]:
    """(mean, half-width, lower, upper) by sacreBLEU's rule; ``mean_rule`` picks its two mean functions.
    ``float32``: the scores are numpy.float32 values in sacreBLEU (chrF, TER), and so are its mean and
    half-width (``statistics.mean`` of float32 values returns a float32)."""
    s = np.sort(scores.astype(np.float32) if float32 else scores)
    n = len(s)
    lo = n // 40
    lower, upper = s[lo], s[n - lo - 1]
    mean = statistics.mean(s.tolist()) if mean_rule == "statistics" else s.mean()
    if float32 and mean_rule == "statistics":
        mean = np.float32(mean)
    return float(mean), float(0.5 * (upper - lower)), float(lower), float(upper)


def p_value(sampled: np.ndarray, observed: float, strict: bool) -> tuple[float, int]:
    """(p, ties): ``(#{sampled >= observed} + 1) / (N + 1)``, or ``>`` only with ``strict`` (sacreBLEU's rule);
    ``ties`` counts the sampled statistics equal to the observed one."""
    greater = int(np.count_nonzero(sampled > observed))
    ties = int(np.count_nonzero(sampled == observed))
    count = greater if strict else greater + ties
    return (count + 1) / (len(sampled) + 1), ties
