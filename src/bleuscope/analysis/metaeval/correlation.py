"""Correlations between a metric's scores and human scores, with WMT's groupings.

The arithmetic is that of Google's mt-metrics-eval ("mtme", the WMT metrics task's code), written anew on
numpy: Pearson and Spearman as scipy computes them, Kendall's tau b and c, the variants ``23`` and ``acc23``
of Deutsch et al. (2023, "Ties Matter") with a metric tie threshold epsilon, the calibrated epsilon of
``acc_eq`` (``KendallWithTiesOpt``), system-level pairwise accuracy and soft pairwise accuracy (SPA, one
minus the pairwise confidence error).

Scores come as one flat vector per side, system-major: the ``num_sys`` systems' segment scores one system
after another (``num_items`` items each), as mtme packs them. A missing human score is ``None`` or NaN; its
pair is left out (mtme's None filtering). ``average_by`` says how the matrix becomes vectors: ``"none"``
(one correlation over everything), ``"sys"`` (one per system, averaged) or ``"item"`` (one per item across
systems, averaged).
"""

from __future__ import annotations

import dataclasses
import functools
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

AVERAGE_BY = ("none", "sys", "item")
KENDALL_VARIANTS = ("b", "c", "23", "acc23")

# groups with at most this many scores count their pairs directly (all pairs at once, vectorized); longer
# vectors count discordant pairs by merge sort, O(n log^2 n), without O(n^2) memory
_PAIRWISE_LIMIT = 400


def as_gold(values: Any, name: str = "gold") -> np.ndarray:
    """Human scores as float64, ``None`` -> NaN (missing)."""
    arr = np.array([np.nan if v is None else v for v in values] if not isinstance(values, np.ndarray) else values,
                   dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name}: expected a flat vector of scores, got shape {arr.shape}")
    return arr


def as_metric(values: Any, name: str = "metric") -> np.ndarray:
    """Metric scores as float64; a missing (None/NaN) or infinite metric score is an error."""
    arr = as_gold(values, name)
    bad = ~np.isfinite(arr)
    if bad.any():
        raise ValueError(f"{name}: score {int(np.flatnonzero(bad)[0])} is {arr[bad][0]} (every metric score "
                         "must be a finite number; a missing human score is what removes a pair)")
    return arr


def check_average_by(average_by: str) -> None:
    if average_by not in AVERAGE_BY:
        raise ValueError(f"average_by: {average_by!r} is not one of {', '.join(AVERAGE_BY)}")


def reshape(vector: np.ndarray, num_sys: int, average_by: str) -> np.ndarray:
    """The packed vector as rows to correlate: one row ('none'), a row per system or a row per item."""
    check_average_by(average_by)
    vector = np.asarray(vector)
    if average_by == "none":
        return vector.reshape(1, -1)
    if num_sys < 1 or vector.size % num_sys:
        raise ValueError(f"num_sys: {vector.size} scores do not split into {num_sys} systems")
    mat = vector.reshape(num_sys, -1)
    return mat if average_by == "sys" else mat.T


# ---------------------------------------------------------------------------------------------------------
# the per-vector statistics


def _is_constant(a: np.ndarray) -> bool:
    return bool(np.all(a == a[0]))


def pearson(gold: np.ndarray, metric: np.ndarray) -> float:
    """Pearson's r as scipy.stats.pearsonr computes it; NaN when either side is constant (mtme's rule)."""
    x = np.asarray(gold, dtype=np.float64)
    y = np.asarray(metric, dtype=np.float64)
    if x.size < 2 or _is_constant(x) or _is_constant(y):
        return math.nan
    xm = x - x.mean()
    ym = y - y.mean()
    xmax = np.max(np.abs(xm))
    ymax = np.max(np.abs(ym))
    # scipy's norm along an axis: the square root of a sum of squares (not numpy's dot of a flat vector)
    xs, ys = xm / xmax, ym / ymax
    normxm = xmax * np.sqrt(np.add.reduce(xs * xs))
    normym = ymax * np.sqrt(np.add.reduce(ys * ys))
    r = float(np.clip(np.vecdot(xm / normxm, ym / normym), -1.0, 1.0))
    return float(round(r)) if x.size == 2 else r


def average_ranks(a: np.ndarray) -> np.ndarray:
    """1-based ranks, ties given the mean of their ranks (scipy.stats.rankdata's 'average')."""
    a = np.asarray(a)
    order = np.argsort(a, kind="mergesort")
    s = a[order]
    starts = np.r_[True, s[1:] != s[:-1]]
    dense = np.cumsum(starts) - 1
    first = np.flatnonzero(starts)
    last = np.r_[first[1:], a.size] - 1
    mean_rank = (first + last) / 2.0 + 1.0
    ranks = np.empty(a.size, dtype=np.float64)
    ranks[order] = mean_rank[dense]
    return ranks


def spearman(gold: np.ndarray, metric: np.ndarray) -> float:
    """Spearman's rho as scipy.stats.spearmanr computes it (Pearson of average ranks via corrcoef)."""
    x = np.asarray(gold, dtype=np.float64)
    y = np.asarray(metric, dtype=np.float64)
    if x.size < 2 or _is_constant(x) or _is_constant(y):
        return math.nan
    return float(np.corrcoef(np.vstack([average_ranks(x), average_ranks(y)]))[1, 0])


@dataclasses.dataclass(frozen=True)
class TauStats:
    """Pair counts of two score vectors: concordant, discordant, tied only in the metric, tied only in the
    human scores, tied in both."""

    con: int
    dis: int
    ties_metric: int
    ties_gold: int
    ties_both: int

    @property
    def pairs(self) -> int:
        return self.con + self.dis + self.ties_metric + self.ties_gold + self.ties_both


def _dense_ranks(a: np.ndarray) -> np.ndarray:
    order = np.argsort(a, kind="mergesort")
    s = a[order]
    dense = np.empty(a.size, dtype=np.int64)
    dense[order] = np.cumsum(np.r_[True, s[1:] != s[:-1]]) - 1
    return dense


def _count_inversions(y: np.ndarray) -> int:
    """Pairs i < j with y[i] > y[j] (strictly), by a bottom-up merge sort over integer keys."""
    n = y.size
    if n < 2:
        return 0
    y = y.astype(np.int64)
    span = int(y.max()) + 1
    total = 0
    width = 1
    pos = np.arange(n)
    while width < n:
        block = pos // (2 * width)
        right = (pos // width) % 2 == 1
        keys = block * span + y  # each block of 2*width sorted on its two halves separately
        left_keys = keys[~right]
        left_block = block[~right]
        # elements of the left half not above r: searchsorted in the (globally sorted) left keys
        r_keys = keys[right]
        r_block = block[right]
        left_start = np.searchsorted(left_block, r_block, side="left")
        left_end = np.searchsorted(left_block, r_block, side="right")
        not_above = np.searchsorted(left_keys, r_keys, side="right") - left_start
        total += int(((left_end - left_start) - not_above).sum())
        y = np.sort(keys) - block * span  # merge: sorting the keys keeps blocks apart
        width *= 2
    return total


def tau_stats(gold: np.ndarray, metric: np.ndarray, epsilon: float = 0.0) -> TauStats:
    """Pair counts; a metric difference of at most ``epsilon`` (when epsilon > 0) counts as a metric tie."""
    g = np.asarray(gold, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    n = g.size
    if epsilon < 0:
        raise ValueError("epsilon must be non-negative")
    if n <= _PAIRWISE_LIMIT or epsilon > 0:
        counts = np.zeros(5, dtype=np.int64)
        step = max(1, 2_000_000 // max(n, 1))  # rows i of the pairs (i, j > i), in slabs to bound memory
        for a in range(0, n, step):
            rows = np.arange(a, min(n, a + step))
            i = np.repeat(rows, n - 1 - rows)
            j = np.concatenate([np.arange(r + 1, n) for r in rows]) if i.size else i
            counts += _pair_categories(g[i] - g[j], m[i] - m[j], epsilon)
        return TauStats(*map(int, counts))
    tot = n * (n - 1) // 2
    # sort on (metric, gold): pairs tied in the metric come in gold order, so they add no inversion
    xm = _dense_ranks(m)
    yg = _dense_ranks(g)
    order = np.lexsort((yg, xm))
    x, y = xm[order], yg[order]
    dis = _count_inversions(y)
    obs = np.r_[True, (x[1:] != x[:-1]) | (y[1:] != y[:-1]), True]
    cnt = np.diff(np.flatnonzero(obs)).astype(np.int64)
    both = int((cnt * (cnt - 1) // 2).sum())
    cx = np.bincount(x).astype(np.int64)
    cy = np.bincount(y).astype(np.int64)
    xtie = int((cx * (cx - 1) // 2).sum())
    ytie = int((cy * (cy - 1) // 2).sum())
    con = tot - (xtie - both) - (ytie - both) - both - dis
    return TauStats(con, dis, xtie - both, ytie - both, both)


def _pair_categories(gd: np.ndarray, md: np.ndarray, epsilon: float) -> np.ndarray:
    m_tie = np.abs(md) <= epsilon if epsilon > 0 else md == 0
    g_tie = gd == 0
    both = m_tie & g_tie
    con = ~m_tie & ~g_tie & ((gd > 0) == (md > 0))
    n = gd.size
    c, b, tm, tg = int(con.sum()), int(both.sum()), int((m_tie & ~g_tie).sum()), int((g_tie & ~m_tie).sum())
    return np.array([c, n - c - b - tm - tg, tm, tg, b], dtype=np.int64)


def tau_from_stats(s: TauStats, variant: str, size: int = 0, minclasses: int = 0) -> float:
    """mtme's KendallVariants formulas (no clipping); NaN for b/c when one side is all ties."""
    tot = s.pairs
    xtie = s.ties_metric + s.ties_both
    ytie = s.ties_gold + s.ties_both
    if variant in ("b", "c") and (xtie == tot or ytie == tot):
        return math.nan
    if variant == "b":
        return float((s.con - s.dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie))
    if variant == "c":
        return float(2 * (s.con - s.dis) / (size**2 * (minclasses - 1) / minclasses))
    if tot == 0:
        return math.nan
    if variant == "23":
        return (s.con + s.ties_both - s.dis - s.ties_metric - s.ties_gold) / tot
    if variant == "acc23":
        return (s.con + s.ties_both) / tot
    raise ValueError(f"variant: {variant!r} is not one of {', '.join(KENDALL_VARIANTS)}")


def kendall_variant(gold: np.ndarray, metric: np.ndarray, variant: str = "b", epsilon: float = 0.0) -> float:
    """Kendall's tau b or c, or the '23'/'acc23' variants with metric tie threshold ``epsilon``."""
    if variant not in KENDALL_VARIANTS:
        raise ValueError(f"variant: {variant!r} is not one of {', '.join(KENDALL_VARIANTS)}")
    if epsilon > 0 and variant == "c":
        raise ValueError("epsilon > 0 is not defined for tau-c")
    g = np.asarray(gold, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    s = tau_stats(g, m, epsilon)
    minclasses = min(np.unique(m).size, np.unique(g).size) if variant == "c" else 0
    return tau_from_stats(s, variant, g.size, minclasses)


def kendall(gold: np.ndarray, metric: np.ndarray, variant: str = "b") -> float:
    """Kendall's tau b or c as scipy.stats.kendalltau gives it (clipped to [-1, 1])."""
    if variant not in ("b", "c"):
        raise ValueError(f"variant: {variant!r} is not 'b' or 'c'")
    if variant == "c":
        v = kendall_variant(gold, metric, variant)
    else:  # scipy divides by the first argument's (gold's) side first
        s = tau_stats(gold, metric)
        tot = s.pairs
        gtie, mtie = s.ties_gold + s.ties_both, s.ties_metric + s.ties_both
        v = math.nan if gtie == tot or mtie == tot else float(
            (s.con - s.dis) / np.sqrt(tot - gtie) / np.sqrt(tot - mtie))
    return v if math.isnan(v) else float(min(1.0, max(-1.0, v)))


def agreement(gold: np.ndarray, metric: np.ndarray) -> tuple[int, int]:
    """Pairs where sign(gold difference) equals sign(metric difference), and the number of pairs (gold
    None/NaN left out): system-level pairwise accuracy is their ratio."""
    g = np.asarray(gold, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    keep = ~np.isnan(g)
    g, m = g[keep], m[keep]
    i, j = np.triu_indices(g.size, 1)
    return int((np.sign(g[i] - g[j]) == np.sign(m[i] - m[j])).sum()), int(i.size)


def pairwise_accuracy(gold: Any, metric: Any, *, groups: Sequence[int] | None = None) -> float:
    """System-level pairwise accuracy (Kocmi et al. 2021): the share of system pairs the metric orders as the
    humans do, ties counting as agreement only when both tie. ``groups`` pools several sets of systems
    (e.g. language pairs) given as consecutive runs of these sizes, as WMT23's global accuracy does."""
    g = as_gold(gold)
    m = as_metric(metric)
    sizes = [g.size] if groups is None else list(groups)
    if sum(sizes) != g.size or g.size != m.size:
        raise ValueError(f"groups: sizes {sizes} do not add up to the {g.size} scores")
    agree = pairs = b = 0
    for n in sizes:
        a, p = agreement(g[b:b + n], m[b:b + n])
        agree, pairs, b = agree + a, pairs + p, b + n
    return agree / pairs if pairs else math.nan


# ---------------------------------------------------------------------------------------------------------
# averaging over rows


def average_correlation(
    fn: Callable[[np.ndarray, np.ndarray], float],
    gold: Any,
    metric: Any,
    num_sys: int = 1,
    average_by: str = "none",
    *,
    replace_nans_with_zeros: bool = False,
    weights: Callable[[np.ndarray, np.ndarray], float] | None = None,
) -> float:
    """``fn`` on each row of ``reshape(...)`` (gold-missing pairs removed, rows of 0 or 1 pair skipped),
    averaged: a plain mean of the rows' values, or weighted by ``weights(row_gold, row_metric)`` (mtme's
    ``macro=False``: the number of scored pairs). NaN values are dropped or count as 0. 0 if no row has a
    value (as mtme)."""
    g = as_gold(gold)
    m = as_metric(metric)
    if g.size != m.size:
        raise ValueError(f"metric: {m.size} scores for {g.size} human scores")
    tot = 0.0
    n = 0.0
    for rg, rm in zip(reshape(g, num_sys, average_by), reshape(m, num_sys, average_by)):
        keep = ~np.isnan(rg)
        rg, rm = rg[keep], rm[keep]
        if rg.size <= 1:
            continue
        value = fn(rg, rm)
        k = 1 if weights is None else weights(rg, rm)
        if not math.isnan(value):
            tot += k * value
            n += k
        elif replace_nans_with_zeros:
            n += k
    return tot / n if n else 0.0


# ---------------------------------------------------------------------------------------------------------
# epsilon calibration (acc_eq)


@dataclasses.dataclass(frozen=True)
class TauOptimization:
    """The calibration curve: each candidate threshold and the averaged tau it gives; the best of them."""

    thresholds: list[float]
    taus: list[float]
    best_threshold: float
    best_tau: float


def _tau_fn(variant: str) -> Callable[[int, int, int, int, int], float]:
    if variant == "acc23":
        return lambda c, d, th, tm, tb: (c + tb) / (c + d + th + tm + tb)
    if variant == "23":
        return lambda c, d, th, tm, tb: (c + tb - d - th - tm) / (c + d + th + tm + tb)
    raise ValueError(f"variant: only '23' and 'acc23' take a calibrated epsilon, not {variant!r}")


def tau_optimization(
    metric_rows: Any, gold_rows: Any, variant: str = "acc23", sample_rate: float = 1.0,
    rng: np.random.RandomState | None = None,
) -> TauOptimization:
    """The metric tie threshold that maximizes the row-averaged '23'/'acc23' tau (Deutsch et al. 2023).

    Each pair (both scores present) starts in its category; taking the pairs by increasing metric
    difference, each becomes a metric tie in turn, and the average tau after each distinct difference is a
    candidate. The running total is updated in the order and with the float operations of mtme's loop, so the
    curve is the same to the last bit. ``sample_rate`` < 1 keeps each pair with that probability, one
    ``rng.random_sample()`` per pair in enumeration order (mtme draws with ``np.random.random()``)."""
    if not 0 < sample_rate <= 1:
        raise ValueError(f"sample_rate must be in (0, 1], got {sample_rate}")
    tau = _tau_fn(variant)
    mrows = np.atleast_2d(np.array(metric_rows, dtype=np.float64))
    grows = np.atleast_2d(np.array([[np.nan if v is None else v for v in r] for r in np.atleast_2d(
        np.array(gold_rows, dtype=object))], dtype=np.float64))
    if mrows.shape != grows.shape:
        raise ValueError(f"metric and human rows differ in shape: {mrows.shape} vs {grows.shape}")
    diffs, cats, tie_cats, rows_of = [], [], [], []
    for row, (g, m) in enumerate(zip(grows, mrows)):
        keep = ~np.isnan(g) & ~np.isnan(m)
        g, m = g[keep], m[keep]
        if g.size == 0:
            continue
        i, j = np.triu_indices(g.size, 1)
        if sample_rate < 1.0:
            draws = (rng or np.random.RandomState()).random_sample(i.size)
            i, j = i[draws <= sample_rate], j[draws <= sample_rate]
        if i.size == 0:
            continue
        gd, md = g[i] - g[j], m[i] - m[j]
        g_tie, m_tie = gd == 0, md == 0
        # categories: 0 con, 1 dis, 2 ties_human, 3 ties_metric, 4 ties_both
        cat = np.where(g_tie & m_tie, 4, np.where(g_tie, 2, np.where(m_tie, 3, np.where(
            ((gd > 0) & (md > 0)) | ((gd < 0) & (md < 0)), 0, 1))))
        diffs.append(np.abs(m[i] - m[j]))
        cats.append(cat)
        tie_cats.append(np.where(g_tie, 4, 3))
        rows_of.append(np.full(i.size, row))
    if not diffs:
        return TauOptimization([0.0], [math.nan], 0.0, math.nan)
    diff = np.concatenate(diffs)
    cat = np.concatenate(cats)
    tie_cat = np.concatenate(tie_cats)
    row_of = np.concatenate(rows_of)
    rows = sorted(set(row_of.tolist()))
    index = {r: k for k, r in enumerate(rows)}
    stats = np.zeros((len(rows), 5), dtype=np.int64)
    np.add.at(stats, (np.searchsorted(rows, row_of), cat), 1)
    st = stats.tolist()
    total: float = 0
    for s in st:  # left to right from an int 0, as Python's sum() did before 3.12
        total = total + tau(*s)
    num_rows = len(rows)
    thresholds = [0.0]
    taus = [total / num_rows]
    order = np.argsort(diff, kind="stable")
    for d, c, t, r in zip(diff[order].tolist(), cat[order].tolist(), tie_cat[order].tolist(),
                          row_of[order].tolist()):
        s = st[index[r]]
        total -= tau(*s)
        s[c] -= 1
        s[t] += 1
        total += tau(*s)
        overall = total / num_rows
        if thresholds[-1] == d:
            taus[-1] = overall
        else:
            thresholds.append(d)
            taus.append(overall)
    best = int(np.nanargmax(taus))
    return TauOptimization(thresholds, taus, thresholds[best], taus[best])


def kendall_with_ties_opt(
    gold: Any, metric: Any, num_sys: int = 1, average_by: str = "none", variant: str = "acc23",
    sample_rate: float = 1.0, rng: np.random.RandomState | None = None,
) -> TauOptimization:
    """acc_eq (variant 'acc23') or tau_eq ('23'): the tau at the calibrated metric tie threshold, averaged
    over the rows of ``average_by``."""
    g = as_gold(gold)
    m = as_metric(metric)
    return tau_optimization(reshape(m, num_sys, average_by), reshape(g, num_sys, average_by), variant,
                            sample_rate, rng)


# ---------------------------------------------------------------------------------------------------------
# soft pairwise accuracy


@functools.lru_cache(maxsize=4)
def _sign_masks(num_permutations: int, num_segments: int, seed: int) -> np.ndarray:
    signs = np.random.default_rng(seed).random(size=(num_permutations, num_segments), dtype=np.float32)
    np.rint(signs, out=signs, casting="same_kind")
    signs *= 2.0
    signs -= 1.0
    signs.flags.writeable = False
    return signs


def pairwise_p_values(seg_scores: np.ndarray, num_permutations: int = 1000, seed: int = 4) -> np.ndarray:
    """p-values of 'system i beats system j' (upper triangle) by a paired permutation test on segment scores
    (systems x segments), with the sign masks of Thompson's PCE code: float32 ``default_rng(seed).random``
    rounded to 0/1 and mapped to -1/+1, shared by all pairs."""
    scores = np.asarray(seg_scores)
    num_systems, num_segments = scores.shape
    signs = _sign_masks(num_permutations, num_segments, seed)
    scores32 = scores.astype(np.float32)
    sys_scores = np.sum(scores32, axis=1)
    partial = np.matmul(signs, scores32.T)
    p = np.full((num_systems, num_systems), np.nan)
    for a in range(num_systems):
        for b in range(a + 1, num_systems):
            p[a, b] = np.sum(partial[:, a] - partial[:, b] >= sys_scores[a] - sys_scores[b]) / num_permutations
    return p


def soft_pairwise_accuracy(gold: Any, metric: Any, num_sys: int, num_permutations: int = 1000,
                           seed: int = 4) -> float:
    """SPA = 1 - PCE (Thompson et al. 2024): one minus the mean over system pairs of |p_human - p_metric|,
    each p from a paired permutation test on the segment scores. Segments whose human score is missing are
    removed first, and every system must keep the same number of them (mtme's rule)."""
    g = as_gold(gold)
    m = as_metric(metric)
    keep = ~np.isnan(g)
    g, m = g[keep], m[keep]
    if g.size % num_sys:
        raise ValueError(f"gold: {g.size} scored segments do not split evenly into {num_sys} systems (SPA needs "
                         "the same scored segments for every system)")
    pg = pairwise_p_values(g.reshape(num_sys, -1), num_permutations, seed)
    pm = pairwise_p_values(m.reshape(num_sys, -1), num_permutations, seed)
    upper = np.triu_indices(num_sys, 1)
    return float(1.0 - np.mean(np.abs(pg - pm)[upper]))


# ---------------------------------------------------------------------------------------------------------
# WMT20's Kendall-like tau and Pearson over pairwise differences


def kendall_like(gold: np.ndarray, metric: np.ndarray, thresh: float = 25.0) -> tuple[float, int, int, int]:
    """WMT20's 'Kendall-like' tau (DARR): pairs whose gold difference is at least ``thresh``; concordant when
    the metric orders them the same way strictly, discordant otherwise (a metric tie counts against it).
    Returns (tau, pairs, concordant, discordant)."""
    g = np.asarray(gold, dtype=np.float64)
    m = np.asarray(metric, dtype=np.float64)
    i, j = np.triu_indices(g.size, 1)
    ok = ~np.isnan(g[i]) & ~np.isnan(g[j])
    i, j = i[ok], j[ok]
    d = g[i] - g[j]
    sel = np.abs(d) >= thresh
    d, md = d[sel], (m[i] - m[j])[sel]
    con = int((((d > 0) & (md > 0)) | ((d < 0) & (md < 0))).sum())
    dis = int(d.size - con)
    n = con + dis
    return ((con - dis) / n if n else 0.0), n, con, dis


def pdp_pearson(gold: Any, metric: Any, num_sys: int = 1, average_by: str = "none") -> float:
    """Pairwise-difference Pearson: one Pearson over every within-row difference (both orders and the zero
    diagonal, as mtme enumerates them) of all rows of ``average_by``; pairs with a missing gold score are
    left out."""
    g = as_gold(gold)
    m = as_metric(metric)
    gm, mm = reshape(g, num_sys, average_by), reshape(m, num_sys, average_by)
    if gm.shape[1] < 2:
        raise ValueError("pairwise differences need at least 2 scores per row")
    gd = (gm[:, None, :] - gm[:, :, None]).reshape(-1)
    md = (mm[:, None, :] - mm[:, :, None]).reshape(-1)
    keep = ~np.isnan(gd)
    return pearson(gd[keep], md[keep])
