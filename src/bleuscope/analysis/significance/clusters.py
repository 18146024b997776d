"""Ranking systems into significance clusters from their scores and pairwise p-values."""

from __future__ import annotations

import numpy as np


def significance_clusters(order: list[int], scores: np.ndarray, p: np.ndarray, alpha: float):
    """(clusters, rank ranges) of systems listed best first in ``order`` (``scores``: higher is better).

    Clusters are separated between ranks k and k+1 exactly when every system above the line beats every
    system below it with p < alpha; a system's rank range is (1 + #significantly better, K - #significantly
    worse).
    """
    k = len(order)
    sig = p < alpha
    boundaries = []
    for cut in range(1, k):
        above, below = order[:cut], order[cut:]
        if all(sig[i, j] and scores[i] > scores[j] for i in above for j in below):
            boundaries.append(cut)
    clusters, start = [], 0
    for cut in boundaries + [k]:
        clusters.append(order[start:cut])
        start = cut
    better = [sum(1 for j in range(k) if sig[i, j] and scores[j] > scores[i]) for i in range(k)]
    worse = [sum(1 for j in range(k) if sig[i, j] and scores[j] < scores[i]) for i in range(k)]
    ranks = tuple((1 + better[i], k - worse[i]) for i in range(k))
    return clusters, ranks
