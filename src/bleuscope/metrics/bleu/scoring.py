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

from ...core import backend
from ...core.stats import layout
from .smoothing import CHEN_CHERRY_DEFAULTS, chen_cherry_precisions, is_chen_cherry, stats_order

LOG_ZERO = -9999999999.0  # sacreBLEU's my_log(0)

#: the smoothing methods sacreBLEU has (the others have no sacreBLEU float32 arithmetic to reproduce)
SACREBLEU_SMOOTHING = ("none", "floor", "add-k", "exp")

#: does ``Python float * numpy.float32`` stay float32 (numpy >= 2, NEP 50) or promote to float64?
SCALARS_STAY_FLOAT32 = (np.float32(1.0) * 1.0).dtype == np.float32

SMOOTH_DEFAULTS: dict[str, float | None] = {
    "none": None,
    "floor": 0.1,
    "add-k": 1,
    "exp": None,
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


def map_float(func, values: np.ndarray) -> np.ndarray:
    """``func`` (a ``math`` function) applied to every value: numpy's SIMD versions differ in the last ulp."""
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    native = backend.libm_map(func, flat)  # the same C functions, called from the compiled core
    if native is not None:
        return native.reshape(values.shape)
    return np.fromiter(map(func, flat.tolist()), dtype=np.float64, count=flat.size).reshape(values.shape)


def my_log(values: np.ndarray) -> np.ndarray:
    """sacreBLEU's ``my_log``: ``math.log``, with ``LOG_ZERO`` for 0."""
    out = np.full(values.shape, LOG_ZERO)
    nz = values != 0.0
    if nz.any():
        out[nz] = map_float(math.log, values[nz])
    return out


def brevity_penalty(sys_len: np.ndarray, ref_len: np.ndarray) -> np.ndarray:
    sys_len = np.asarray(sys_len, dtype=np.int64)
    ref_len = np.asarray(ref_len, dtype=np.int64)
    bp = np.ones(sys_len.shape, dtype=np.float64)
    short = sys_len < ref_len
    positive = short & (sys_len > 0)
    if positive.any():
        ratio = ref_len[positive] / sys_len[positive]
        bp[positive] = map_float(math.exp, 1.0 - ratio)
    bp[short & (sys_len == 0)] = 0.0
    return bp


def compute_scores(stats: np.ndarray, config: ScoringConfig, *, float32: bool = False) -> ScoreArrays:
    """BLEU for every row of ``stats`` ([S, 2 + 2N] int64).

    ``float32=True`` scores (float32) resample sums the way sacreBLEU 2.6.0 scores its bootstrap and
    randomization resamples: every ``100. * correct / total`` (and the smoothing terms) evaluated on
    ``numpy.float32`` scalars. Only sacreBLEU's own smoothing methods with uniform weights have that
    arithmetic; other configurations are scored exactly from the integer values.
    """
    if float32 and config.weights is None and config.smooth_method in SACREBLEU_SMOOTHING:
        precisions, eff_order, any_match, bp = _precisions_float32(np.atleast_2d(np.asarray(stats)), config)
    else:
        stats = np.atleast_2d(np.asarray(stats))
        if float32:
            stats = stats.astype(np.int64)
        precisions, eff_order, any_match, bp = _precisions_exact(stats, config)
    return _combine(precisions, eff_order, any_match, bp, config)


def _precisions_exact(stats: np.ndarray, config: ScoringConfig):
    """sacreBLEU's loop over orders on exact integer statistics: (precisions, orders used, rows with a
    match, brevity penalty)."""
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

    return precisions, eff_order, any_match, bp


def _f32(x):
    """Round to float32 where sacreBLEU's scalar arithmetic does (numpy >= 2); else keep float64."""
    return x.astype(np.float32) if SCALARS_STAY_FLOAT32 else x


def _precisions_float32(sums: np.ndarray, config: ScoringConfig):
    """As :func:`_precisions_exact`, with sacreBLEU's float32 arithmetic on float32 sums."""
    n_ord = config.max_ngram_order
    cols = layout(n_ord)
    if sums.shape[1] != cols.width:
        raise ValueError(f"statistics have {sums.shape[1]} columns, expected {cols.width}")
    sums = sums.astype(np.float32)
    n_rows = len(sums)
    bp = brevity_penalty(sums[:, cols.hyp_len].astype(np.int64), sums[:, cols.ref_len].astype(np.int64))
    method, value = config.smooth_method, config.smooth_value
    correct = sums[:, cols.correct].copy()
    total = sums[:, cols.total].copy()
    any_match = (correct != 0).any(axis=1)
    if method == "add-k":  # `correct[n - 1] += smooth_value` on a float32 array (stored back as float32)
        add = np.float32(value) if SCALARS_STAY_FLOAT32 else np.float64(value)
        correct[:, 1:] = (correct[:, 1:] + add).astype(np.float32)
        total[:, 1:] = (total[:, 1:] + add).astype(np.float32)
    hundred = np.float32(100.0) if SCALARS_STAY_FLOAT32 else 100.0
    precisions = np.zeros((n_rows, n_ord), dtype=np.float64)
    running = any_match.copy()
    eff_order = np.full(n_rows, n_ord, dtype=np.int64)
    smooth = np.ones(n_rows, dtype=np.float64)
    for i in range(n_ord):
        c, t = correct[:, i], total[:, i]
        running &= t != 0
        if not running.any():
            break
        if config.effective_order:
            eff_order[running] = i + 1
        zero = running & (c == 0)
        hit = running & (c != 0)
        c64 = c if SCALARS_STAY_FLOAT32 else c.astype(np.float64)
        t64 = t if SCALARS_STAY_FLOAT32 else t.astype(np.float64)
        precisions[hit, i] = _f32(_f32(hundred * c64[hit]) / t64[hit])
        if method == "exp" and zero.any():
            smooth[zero] *= 2
            denom = _f32(smooth[zero] * t64[zero])
            precisions[zero, i] = _f32(100.0 / denom)
        elif method == "floor" and zero.any():
            num = 100.0 * value  # a Python float, rounded to float32 when it meets a float32
            num = np.float32(num) if SCALARS_STAY_FLOAT32 else num
            precisions[zero, i] = _f32(num / t64[zero])
    return precisions, eff_order, any_match, bp


def _combine(precisions, eff_order, any_match, bp, config: ScoringConfig) -> ScoreArrays:
    """The geometric mean of the precisions over the orders in use, times the brevity penalty."""
    n_rows, n_ord = precisions.shape
    logs = my_log(precisions)
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
        score[ok] = bp[ok] * map_float(math.exp, mean_log[ok])
    return ScoreArrays(score=score, precisions=precisions, bp=bp)
