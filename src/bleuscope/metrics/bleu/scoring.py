"""BLEU from sufficient statistics: a pure function of the statistics and a :class:`ScoringConfig`.

One vectorized implementation serves corpus scores (one row: the column sums) and sentence scores (one
row per segment). It follows sacreBLEU 2.6.0's ``BLEU.compute_bleu`` step by step, so that the floats are
the same to the last bit: precisions ``100 * correct / total``; the loop over orders stops at the first
order without hypothesis n-grams; zero precisions enter the log sum as ``-9999999999``; the log terms are
added left to right and ``math.log``/``math.exp`` are used (numpy's SIMD versions differ in the last ulp).
"""

from __future__ import annotations

import functools
import math
import sys
from dataclasses import dataclass

import numpy as np

from ...core import native
from ...core.native import bleu as native_bleu
from .layout import layout
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
    native_values = native.libm_map(func, flat)  # the same C functions, called from the compiled core
    if native_values is not None:
        return native_values.reshape(values.shape)
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


def compute_scores(
    stats: np.ndarray, config: ScoringConfig, *, float32: bool = False, engine: str = "auto"
) -> ScoreArrays:
    """BLEU for every row of ``stats`` ([S, 2 + 2N] int64).

    ``float32=True`` scores (float32) resample sums the way sacreBLEU 2.6.0 scores its bootstrap and
    randomization resamples: every ``100. * correct / total`` (and the smoothing terms) evaluated on
    ``numpy.float32`` scalars. Only sacreBLEU's own smoothing methods with uniform weights have that
    arithmetic; other configurations are scored exactly from the integer values.

    ``engine`` is the metric's engine option (:data:`bleuscope.core.native.ENGINES`): ``"auto"`` and
    ``"native"`` score int64 rows of sacreBLEU's smoothing methods with uniform weights in the compiled core
    (the same operations in the same order, the same C ``log``/``exp``: bit-identical), other rows with the
    vectorized code below; ``"numpy"`` always uses that code (the reference the tests compare against).
    """
    stats = np.atleast_2d(np.asarray(stats))
    if native.check_engine(engine) != "numpy" and not float32:
        compiled = _native_scores(stats, config)
        if compiled is not None:
            return compiled
    n_ord, method = config.max_ngram_order, config.smooth_method
    if float32 and (config.weights is not None or method not in SACREBLEU_SMOOTHING):
        float32 = False  # no sacreBLEU counterpart: score the (integer) sums exactly
        stats = stats.astype(np.int64)
    n_stat = stats_order(method, n_ord)  # chen-cherry-5/7 also need the (N+1)-gram matches
    cols = layout(n_stat)
    if stats.shape[1] != cols.width:
        raise ValueError(
            f"statistics have {stats.shape[1]} columns, expected {cols.width} for max_ngram_order={n_ord}"
            + (f" with smooth_method={method!r} (orders 1..{n_stat})" if n_stat != n_ord else "")
        )
    if float32:
        stats = stats.astype(np.float32)
        lengths = stats[:, cols.lengths()].astype(np.int64)
    else:
        lengths = stats[:, cols.lengths()]
    bp = brevity_penalty(lengths[:, cols.hyp_len], lengths[:, cols.ref_len])
    if is_chen_cherry(method):
        precisions, eff_order, any_match = chen_cherry_precisions(
            stats, method, config.smooth_value, n_ord, config.effective_order
        )
    else:
        dtype = np.float32 if float32 else np.float64
        correct = stats[:, cols.correct_upto(n_ord)].astype(dtype)
        total = stats[:, cols.total_upto(n_ord)].astype(dtype)
        precisions, eff_order, any_match = _sacrebleu_precisions(correct, total, config, float32)
    return _combine(precisions, eff_order, any_match, bp, config)


#: the highest n-gram order the compiled BLEU scorer scores (it keeps per-order values on the stack); higher
#: orders are scored by the numpy code
NATIVE_SCORER_MAX_ORDER = 64


@functools.lru_cache(maxsize=32)
def _compiled_scorer(order: int, smooth_method: str, smooth_value: float, effective_order: bool):
    """The compiled scorer of these settings, built once (it keeps no state between calls); None when the
    core is not built or ``order`` is beyond its scorer's."""
    if order > NATIVE_SCORER_MAX_ORDER:
        return None
    return native_bleu.bleu_scorer(order, smooth_method, smooth_value, effective_order)


def _native_scores(stats: np.ndarray, config: ScoringConfig) -> ScoreArrays | None:
    """The compiled core's scores, or None when it is not built or does not cover ``config``/``stats``."""
    if (
        config.weights is not None
        or config.smooth_method not in SACREBLEU_SMOOTHING
        or stats.dtype != np.int64
        or stats.ndim != 2
        or stats.shape[1] != 2 + 2 * config.max_ngram_order
    ):
        return None
    value = config.smooth_value
    scorer = _compiled_scorer(
        config.max_ngram_order, config.smooth_method, 0.0 if value is None else float(value), config.effective_order
    )
    if scorer is None:
        return None
    score, precisions, bp = scorer.score_rows(np.ascontiguousarray(stats))
    return ScoreArrays(score=score, precisions=precisions, bp=bp)


def _sacrebleu_precisions(correct: np.ndarray, total: np.ndarray, config: ScoringConfig, float32: bool):
    """sacreBLEU's loop over the orders: (precisions in percent [S, N], orders in the mean, rows with a
    match). ``correct``/``total`` are float64 (exact integers) or, with ``float32``, float32 sums; in float32
    mode every product and quotient is rounded to float32 where sacreBLEU's scalar arithmetic rounds it
    (numpy >= 2; under numpy 1.x those products promote to float64 and only the sums are float32)."""
    method, value = config.smooth_method, config.smooth_value
    n_rows, n_ord = correct.shape
    any_match = (correct != 0).any(axis=1)  # early exit of sacreBLEU #141
    rounds = float32 and SCALARS_STAY_FLOAT32

    def rnd(x):
        return x.astype(np.float32) if rounds else x

    if method == "add-k":  # `correct[n - 1] += smooth_value` for n >= 2, stored back in the array's dtype
        add = np.float32(value) if rounds else value
        correct[:, 1:] = correct[:, 1:] + add
        total[:, 1:] = total[:, 1:] + add
    if float32 and not rounds:
        correct, total = correct.astype(np.float64), total.astype(np.float64)
    hundred = np.float32(100.0) if rounds else 100.0
    floor_numerator = None if value is None else (np.float32(100.0 * value) if rounds else 100.0 * value)
    precisions = np.zeros((n_rows, n_ord), dtype=np.float64)
    running = any_match.copy()  # rows still inside the order loop (no `break` yet)
    eff_order = np.full(n_rows, n_ord, dtype=np.int64)
    smooth_mteval = np.ones(n_rows, dtype=np.float64)
    for i in range(n_ord):
        c, t = correct[:, i], total[:, i]
        running &= t != 0
        if not running.any():
            break
        if config.effective_order:
            eff_order[running] = i + 1
        zero = running & (c == 0)
        hit = running & (c != 0)
        precisions[hit, i] = rnd(rnd(hundred * c[hit]) / t[hit])
        if method == "exp" and zero.any():
            smooth_mteval[zero] *= 2
            precisions[zero, i] = rnd(100.0 / rnd(smooth_mteval[zero] * t[zero]))
        elif method == "floor" and zero.any():
            precisions[zero, i] = rnd(floor_numerator / t[zero])
    return precisions, eff_order, any_match


#: sacreBLEU adds the log precisions with Python's ``sum()``, which compensates its rounding (Neumaier's
#: algorithm) from CPython 3.12 on and adds left to right before: the last bit of a score depends on it
COMPENSATED_SUM = sys.version_info >= (3, 12)


def python_sum(columns: list[np.ndarray], n_rows: int) -> np.ndarray:
    """Python's ``sum()`` of each row's terms (``columns[i][r]``: term i of row r; a term that is 0.0 adds
    nothing), as the running CPython computes it."""
    total = np.zeros(n_rows, dtype=np.float64)
    with np.errstate(over="ignore", invalid="ignore"):  # as Python's floats: inf and nan, no warning
        if not COMPENSATED_SUM:
            for x in columns:
                total = total + x
            return total
        comp = np.zeros(n_rows, dtype=np.float64)
        for x in columns:  # CPython's builtin_sum_impl, every row at once
            t = total + x
            comp = comp + np.where(np.abs(total) >= np.abs(x), (total - t) + x, (x - t) + total)
            total = t
        return np.where((comp != 0) & np.isfinite(comp), total + comp, total)


def _combine(precisions, eff_order, any_match, bp, config: ScoringConfig) -> ScoreArrays:
    """The geometric mean of the precisions over the orders in use, times the brevity penalty."""
    n_rows, n_ord = precisions.shape
    logs = my_log(precisions)
    order_idx = np.arange(n_ord)
    inside = order_idx[None, :] < eff_order[:, None]
    if config.weights is None:
        log_sum = python_sum([np.where(inside[:, i], logs[:, i], 0.0) for i in range(n_ord)], n_rows)
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
