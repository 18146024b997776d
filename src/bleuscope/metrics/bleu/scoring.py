"""BLEU from sufficient statistics: a pure function of the statistics and a :class:`ScoringConfig`.

One vectorized implementation serves corpus scores (one row: the column sums) and sentence scores (one
row per segment). It follows sacreBLEU 2.6.0's ``BLEU.compute_bleu`` step by step, so that the floats are
the same to the last bit: precisions ``100 * correct / total``; the loop over orders stops at the first
order without hypothesis n-grams; zero precisions enter the log sum as ``-9999999999``; the log terms are
added left to right and ``math.log``/``math.exp`` are used (numpy's SIMD versions differ in the last ulp).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .core.stats import layout
from .smoothing import CHEN_CHERRY_DEFAULTS, chen_cherry_precisions, is_chen_cherry, stats_order

LOG_ZERO = -9999999999.0  # sacreBLEU's my_log(0)

SMOOTH_DEFAULTS: dict[str, float | None] = {
    "none": None, "floor": 0.1, "add-k": 1, "exp": None,
    **CHEN_CHERRY_DEFAULTS,  # Chen & Cherry (2014) methods 1-7: smoothing.py
}


@dataclass(frozen=True)
class ScoringConfig:
    """Everything, besides the statistics, that a BLEU score depends on."""

    max_ngram_order: int = 4
    smooth_method: str = "exp"
    smooth_value: float | None = None  # resolved: the method's default when it takes a value
    effective_order: bool = False
    weights: tuple[float, ...] | None = None  # None: uniform (sacreBLEU's formula)


@dataclass(frozen=True)
class ScoreArrays:
    """Vectorized results, one entry per row of statistics."""

    score: np.ndarray  # float64 [S], 0-100
    precisions: np.ndarray  # float64 [S, N]
    bp: np.ndarray  # float64 [S]


def _map_float(func, values: np.ndarray) -> np.ndarray:
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    return np.fromiter(map(func, flat.tolist()), dtype=np.float64, count=flat.size).reshape(values.shape)


def _my_log(values: np.ndarray) -> np.ndarray:
    out = np.full(values.shape, LOG_ZERO)
    nz = values != 0.0
    if nz.any():
        out[nz] = _map_float(math.log, values[nz])
    return out


def brevity_penalty(sys_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    sys_len = np.asarray(sys_len, dtype=np.int64)
    ref_len = np.asarray(ref_len, dtype=np.int64)
    bp = np.ones(sys_len.shape, dtype=np.float64)
    short = sys_len < ref_len
    positive = short & (sys_len > 0)
    if positive.any():
        ratio = ref_len[positive] / sys_len[positive]
        bp[positive] = _map_float(math.exp, 1.0 - ratio)
    bp[short & (sys_len == 0)] = 0.0
    return bp


def compute_scores(stats: np.ndarray, config: ScoringConfig) -> ScoreArrays:
    """BLEU for every row of ``stats`` ([S, 2 + 2N] int64)."""
    stats = np.atleast_2d(np.asarray(stats))
    n_ord = config.max_ngram_order
    n_stat = stats_order(config.smooth_method, n_ord)  # chen-cherry-5/7 also need the (N+1)-gram matches
    cols = layout(n_stat)
    if stats.shape[1] != cols.width:
        raise ValueError(
            f"statistics have {stats.shape[1]} columns, expected {cols.width} for max_ngram_order={n_ord}"
            + (f" with smooth_method={config.smooth_method!r} (orders 1..{n_stat})" if n_stat != n_ord else "")
        )
    n_rows = stats.shape[0]
    sys_len, ref_len = stats[:, cols.hyp_len], stats[:, cols.ref_len]
    correct = stats[:, cols.correct_upto(n_ord)].astype(np.float64)
    total = stats[:, cols.total_upto(n_ord)].astype(np.float64)
    bp = brevity_penalty(sys_len, ref_len)

    method, value = config.smooth_method, config.smooth_value
    any_match = (stats[:, cols.correct_upto(n_ord)] != 0).any(axis=1)  # early exit of sacreBLEU #141
    precisions = np.zeros((n_rows, n_ord), dtype=np.float64)
    running = any_match.copy()  # rows still inside the order loop (no `break` yet)
    eff_order = np.full(n_rows, n_ord, dtype=np.int64)
    smooth_mteval = np.ones(n_rows, dtype=np.float64)
    if is_chen_cherry(method):  # precisions from smoothing.py; the sacreBLEU loop below then stops at once
        precisions, eff_order, any_match = chen_cherry_precisions(stats, method, value, n_ord, config.effective_order)
        running[:] = False
    for i in range(n_ord):
        c, t = correct[:, i], total[:, i]
        if method == "add-k" and i > 0:
            c, t = c + value, t + value
        running &= t != 0
        if not running.any():
            break
        if config.effective_order:
            eff_order[running] = i + 1
        zero = running & (c == 0)
        hit = running & (c != 0)
        precisions[hit, i] = 100.0 * c[hit] / t[hit]
        if method == "exp":
            smooth_mteval[zero] *= 2
            precisions[zero, i] = 100.0 / (smooth_mteval[zero] * t[zero])
        elif method == "floor":
            precisions[zero, i] = 100.0 * value / t[zero]

    logs = _my_log(precisions)
    order_idx = np.arange(n_ord)
    inside = order_idx[None, :] < eff_order[:, None]
    if config.weights is None:
        log_sum = np.zeros(n_rows, dtype=np.float64)
        for i in range(n_ord):
            log_sum = log_sum + np.where(inside[:, i], logs[:, i], 0.0)
        with np.errstate(invalid="ignore", divide="ignore"):
            mean_log = log_sum / eff_order
    else:
        w = np.asarray(config.weights, dtype=np.float64)
        mean_log = np.zeros(n_rows, dtype=np.float64)
        for i in range(n_ord):
            mean_log = mean_log + np.where(inside[:, i], w[i] * logs[:, i], 0.0)
        if config.effective_order:
            # weights of the orders in use, renormalised to sum to 1
            norm = np.where(inside, w[None, :], 0.0).sum(axis=1)
            mean_log = np.where(norm > 0, mean_log / np.where(norm > 0, norm, 1.0), 0.0)
    score = np.zeros(n_rows, dtype=np.float64)
    ok = any_match
    if ok.any():
        score[ok] = bp[ok] * _map_float(math.exp, mean_log[ok])
    return ScoreArrays(score=score, precisions=precisions, bp=bp)
