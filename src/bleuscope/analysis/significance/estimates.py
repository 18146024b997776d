"""What is read off resampled scores: sacreBLEU's percentile interval and the p-value of an observed
statistic."""

from __future__ import annotations

import statistics
import warnings

import numpy as np


class TiesWarning(UserWarning):
    """Resampled statistics equal to the observed one: the two p-value rules differ by their number."""


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


def warn_ties(test: str, baseline: str, system: str, ties: int, n_samples: int, p: float, strict: bool) -> None:
    """Say how many resamples tied the observed statistic and what the other rule would give (no-op without)."""
    if not ties:
        return
    unit = "resamples" if test == "bs" else "trials"
    other = p + ties / (n_samples + 1) if strict else p - ties / (n_samples + 1)
    if strict:
        rule = (f"p = {p:.4f} counts only larger ones (sacreBLEU's rule); counting the ties as at least as large "
                f"(strict=False, --conservative-p) gives p = {other:.4f}")
    else:
        rule = (f"p = {p:.4f} counts them as at least as large (the conservative rule); sacreBLEU's rule "
                f"(only larger ones) gives p = {other:.4f}")
    name = "paired bootstrap" if test == "bs" else "approximate randomization"
    warnings.warn(
        TiesWarning(f"{name}: {ties} of {n_samples} {unit} tie the observed difference between {baseline!r} and "
                    f"{system!r}; {rule}"),
        stacklevel=4,
    )
