"""rouge-score's ``BootstrapAggregator`` arithmetic, step for step, so that low/mid/high are equal to its own.

For each score type in the order the types were first added: ``n_samples`` times, draw
``numpy.random.choice(numpy.arange(S), size=S)`` from numpy's *global* random state, take ``numpy.mean`` of
the resampled ``[S, 3]`` matrix over axis 0; then ``numpy.percentile`` of the ``[n_samples, 3]`` means at
``100 * ((1 - ci) / 2, 0.5, 1 - (1 - ci) / 2)``. The calls and the array shapes are the same as
rouge-score's, because both the random stream and numpy's summation order depend on them.
"""

from __future__ import annotations

import numpy as np

from .scores import AggregateScore, Score


def check_aggregator_options(confidence_interval, n_samples) -> None:
    """rouge-score's checks (and messages) of the aggregator's options."""
    if confidence_interval < 0 or confidence_interval > 1:
        raise ValueError("confidence_interval must be in range [0, 1]")
    if n_samples <= 0:
        raise ValueError("n_samples must be positive")


def resample_percentiles(matrix: np.ndarray, n_samples: int, confidence_interval: float) -> np.ndarray:
    """``[3 bounds, measures]`` from a ``[samples, measures]`` matrix (advances numpy's global state)."""
    means = np.zeros((n_samples, matrix.shape[1]))
    population = np.arange(matrix.shape[0])
    for i in range(n_samples):
        idx = np.random.choice(population, size=matrix.shape[0])
        means[i, :] = np.mean(matrix[idx, :], axis=0)
    delta = (1 - confidence_interval) / 2
    return np.percentile(means, 100 * np.array([delta, 0.5, 1 - delta]), axis=0)


def bootstrap_aggregate(
    matrices: dict, n_samples: int = 1000, confidence_interval: float = 0.95, score_class=Score
) -> dict[str, AggregateScore]:
    """``{type: AggregateScore(low, mid, high)}`` from ``{type: [S, 3] matrix}`` (in insertion order)."""
    check_aggregator_options(confidence_interval, n_samples)
    out = {}
    for rouge_type, matrix in matrices.items():
        bounds = resample_percentiles(np.asarray(matrix, dtype=np.float64), n_samples, confidence_interval)
        low, mid, high = (score_class(*bounds[j, :]) for j in range(3))
        out[rouge_type] = AggregateScore(low=low, mid=mid, high=high)
    return out
