"""Is one metric's correlation with humans significantly higher than another's? Permutation tests.

``permutation_sig_diff`` is PERM-BOTH (Deutsch et al. 2021, mtme's ``PermutationSigDiff``): the two
metrics' z-scored scores are swapped segment by segment at random, and the p-value is the share of swaps
whose correlation difference is at least the observed one. ``pairwise_permutation_sig_diff`` (mtme's
``PairwisePermutationSigDiff``) swaps the two metrics' pairwise comparisons instead, which lets each metric
keep its own calibrated tie threshold (WMT23's and WMT24's segment-level significance).

The random draws are mtme's, under the same seed: mtme draws from numpy's global legacy stream, so
``np.random.seed(S)`` before an mtme call equals ``seed=S`` here (or pass one ``np.random.RandomState`` as
``rng`` to several calls, as mtme's global stream runs on from one pair of metrics to the next). Draws are
taken in chunks that never pass an early-stopping point, so the stream stops where mtme's stops.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from .correlation import (
    as_gold,
    as_metric,
    check_average_by,
    kendall,
    kendall_variant,
    kendall_with_ties_opt,
    pearson,
    reshape,
    soft_pairwise_accuracy,
    spearman,
)

STATISTICS = ("pearson", "spearman", "kendall", "kendall_variant", "kendall_with_ties_opt", "accuracy", "spa")
_CHUNK = 100  # permutations drawn at once (at most)


@dataclasses.dataclass(frozen=True)
class SigDiff:
    """p: the p-value of 'metric 2 correlates better than metric 1'; delta: corr(metric 2) - corr(metric 1);
    k_used: the permutations run (fewer than asked when early stopping decided)."""

    p: float
    delta: float
    k_used: int


def zscore(a: np.ndarray) -> np.ndarray:
    """(a - mean) / population standard deviation, with scipy.stats.zscore's operations (NaN if constant)."""
    a = np.asarray(a, dtype=np.float64)
    mn = np.mean(a)
    d = a - mn
    std = np.mean(d * d) ** 0.5
    with np.errstate(invalid="ignore", divide="ignore"):
        z = d / std
    if std <= abs(np.finfo(np.float64).eps * mn):
        z[:] = np.nan
    return z


def _scalar_fn(statistic: str, args: dict[str, Any]) -> Callable[[np.ndarray, np.ndarray], float]:
    if statistic == "pearson":
        return pearson
    if statistic == "spearman":
        return spearman
    if statistic == "kendall":
        variant = args.get("variant", "b")
        return lambda g, m: kendall(g, m, variant)
    if statistic == "kendall_variant":
        variant, eps = args.get("variant", "b"), args.get("epsilon", 0.0)
        return lambda g, m: kendall_variant(g, m, variant, eps)
    if statistic == "spa":
        num_sys = args["num_sys"]
        return lambda g, m: soft_pairwise_accuracy(g, m, num_sys)
    if statistic == "accuracy":
        def accuracy(g: np.ndarray, m: np.ndarray) -> float:
            i, j = np.triu_indices(g.size, 1)
            return float(np.mean(np.sign(g[i] - g[j]) == np.sign(m[i] - m[j]))) if i.size else math.nan
        return accuracy
    raise ValueError(f"statistic: {statistic!r} is not one of {', '.join(STATISTICS)}")


def _filtered_groups(gold: np.ndarray, metrics: list[np.ndarray], num_sys: int, average_by: str):
    """Gold and metric scores flattened row by row (rows of ``average_by``), gold-missing entries removed,
    and each row's start offset (rows with no score left out)."""
    gmat = reshape(gold, num_sys, average_by)
    mmats = [reshape(m, num_sys, average_by) for m in metrics]
    lens: list[int] = []
    gs: list[np.ndarray] = []
    ms: list[list[np.ndarray]] = [[] for _ in metrics]
    for r, g in enumerate(gmat):
        ok = ~np.isnan(g)
        if ok.sum():
            lens.append(int(ok.sum()))
            gs.append(g[ok])
            for out, mat in zip(ms, mmats):
                out.append(mat[r][ok])
    bounds = np.r_[0, np.cumsum(lens)].astype(np.int64)
    return bounds, np.concatenate(gs), [np.concatenate(x) for x in ms]


def _average(vals: np.ndarray, replace_nans_with_zeros: bool) -> float:
    vals = np.nan_to_num(vals) if replace_nans_with_zeros else vals[~np.isnan(vals)]
    return float(np.average(vals)) if len(vals) else 0.0


class _PairTable:
    """Every within-row pair (i < j) of the filtered vectors, row by row, and the gold side's sign."""

    def __init__(self, bounds: np.ndarray, gold: np.ndarray):
        ii, jj, starts = [], [], [0]
        for b, e in zip(bounds[:-1], bounds[1:]):
            i, j = np.triu_indices(int(e - b), 1)
            ii.append(i + b)
            jj.append(j + b)
            starts.append(starts[-1] + i.size)
        self.i = np.concatenate(ii)
        self.j = np.concatenate(jj)
        self.starts = np.array(starts, dtype=np.int64)
        self.counts = np.diff(self.starts)
        self.gold_sign = np.sign(gold[self.i] - gold[self.j])

    def sums(self, per_pair: np.ndarray) -> np.ndarray:
        """Per-row sums of a (batch, pairs) array: (batch, rows); rows without pairs get 0."""
        if self.counts.size and np.all(self.counts == self.counts[0]) and self.counts[0] > 0:
            return per_pair.reshape(per_pair.shape[0], self.counts.size, -1).sum(axis=2, dtype=np.int64)
        out = np.zeros((per_pair.shape[0], self.counts.size), dtype=np.int64)
        has = self.counts > 0
        if has.any():
            out[:, has] = np.add.reduceat(per_pair, self.starts[:-1][has], axis=1)
        return out


class _SwapForms:
    """Per-row pair counts of the swapped vectors as quadratic forms in the swap mask.

    For a pair (i, j) whose members come from metric 1 (mask 1) or metric 2 (mask 0), an indicator such as
    "the hybrid orders the pair as the humans do" takes one of four values T[w_i, w_j], so it equals
    T00 + (T10 - T00) w_i + (T01 - T00) w_j + (T00 - T01 - T10 + T11) w_i w_j; summed over a row's pairs it
    is c + b.w + w'Aw. One batched matrix product per chunk of permutations then gives every row's counts
    (exact: integers in float64), instead of comparing every pair of every permutation."""

    def __init__(self, table: _PairTable, bounds: np.ndarray, s1: np.ndarray, s2: np.ndarray, kinds: list[str]):
        sizes = np.diff(bounds)
        self.n_rows, width = sizes.size, int(sizes.max())
        local = np.arange(width)
        self.pad = local[None, :] < sizes[:, None]
        self.index = np.where(self.pad, bounds[:-1, None] + local[None, :], 0)
        row_of = np.repeat(np.arange(self.n_rows), table.counts)
        li, lj = table.i - bounds[row_of], table.j - bounds[row_of]
        self.forms = []
        for swap in (False, True):  # hybrid 1 takes metric 1 where the mask is 1; hybrid 2 metric 2
            a, b = (s2, s1) if swap else (s1, s2)
            per_kind = []
            for kind in kinds:
                t = {}
                for wi in (0, 1):
                    for wj in (0, 1):
                        vi = (a if wi else b)[table.i]
                        vj = (a if wj else b)[table.j]
                        t[wi, wj] = _indicator(kind, np.sign(vi - vj), table.gold_sign).astype(np.float64)
                c = np.bincount(row_of, t[0, 0], minlength=self.n_rows)
                lin = np.zeros((self.n_rows, width))
                np.add.at(lin, (row_of, li), t[1, 0] - t[0, 0])
                np.add.at(lin, (row_of, lj), t[0, 1] - t[0, 0])
                quad = np.zeros((self.n_rows, width, width))
                np.add.at(quad, (row_of, li, lj), t[0, 0] - t[0, 1] - t[1, 0] + t[1, 1])
                per_kind.append((c, lin, quad))
            self.forms.append(per_kind)

    def counts(self, mask: np.ndarray, hybrid: int) -> list[np.ndarray]:
        """(batch, rows) integer counts of each kind for the hybrid (0 or 1) under the masks."""
        w = mask[:, self.index] * self.pad  # (batch, rows, width)
        wt = np.ascontiguousarray(w.transpose(1, 0, 2))  # (rows, batch, width)
        out = []
        for c, lin, quad in self.forms[hybrid]:
            q = np.einsum("rbj,rbj->rb", np.matmul(wt, quad), wt).T
            out.append(np.rint(c[None, :] + np.einsum("brj,rj->br", w, lin) + q).astype(np.int64))
        return out


def _indicator(kind: str, metric_sign: np.ndarray, gold_sign: np.ndarray) -> np.ndarray:
    con, dis, tm, tg, both = _categories(metric_sign, gold_sign)
    return {"agree": con | both, "con": con, "dis": dis, "tm": tm, "tg": tg, "both": both}[kind]


def _kendall_from_counts(con, dis, tm, tg, tb, variant: str) -> np.ndarray:
    """KendallVariants' formulas on count arrays (NaN where mtme gives NaN or divides by zero)."""
    tot = con + dis + tm + tg + tb
    with np.errstate(invalid="ignore", divide="ignore"):
        if variant == "acc23":
            v = (con + tb) / tot
        elif variant == "23":
            v = (con + tb - dis - tm - tg) / tot
        else:  # b
            xtie, ytie = tm + tb, tg + tb
            v = (con - dis) / np.sqrt(tot - xtie) / np.sqrt(tot - ytie)
            v = np.where((xtie == tot) | (ytie == tot), np.nan, v)
    return np.where(tot == 0, np.nan, v)


def _categories(metric_sign: np.ndarray, gold_sign: np.ndarray):
    m_tie = metric_sign == 0
    g_tie = gold_sign == 0
    both = m_tie & g_tie
    con = ~m_tie & ~g_tie & (metric_sign == gold_sign)
    tm = m_tie & ~g_tie
    tg = g_tie & ~m_tie
    dis = ~m_tie & ~g_tie & ~con
    return con, dis, tm, tg, both


def _chunk_sizes(k: int, block_size: int, cap: int = _CHUNK):
    """Chunks of permutations that end on every early-stopping point (multiples of block_size)."""
    step = max(1, min(_CHUNK, block_size, cap))
    i = 0
    while i < k:
        nxt = min(k, i + step, (i // block_size + 1) * block_size)
        yield i, nxt
        i = nxt


def permutation_sig_diff(
    gold: Any, metric1: Any, metric2: Any, *, num_sys: int = 1, statistic: str = "pearson",
    average_by: str = "none", k: int = 1000, seed: int | None = None, rng: np.random.RandomState | None = None,
    block_size: int = 1000, early_min: float = 0.02, early_max: float = 0.5,
    replace_nans_with_zeros: bool = False, **statistic_args: Any,
) -> SigDiff:
    """PERM-BOTH: the p-value that ``metric2`` correlates better with ``gold`` than ``metric1``.

    ``statistic``: 'pearson', 'spearman', 'kendall' (scipy's tau b/c, ``variant=``), 'kendall_variant'
    (``variant=`` 'b', 'c', '23', 'acc23', ``epsilon=``), 'kendall_with_ties_opt' (acc_eq; ``variant=``,
    ``sample_rate=``: recalibrated on every permutation, slow) or 'accuracy' (pairwise accuracy). Early
    stopping: after every ``block_size`` permutations, stop if p < early_min or p > early_max."""
    check_average_by(average_by)
    g = as_gold(gold)
    m1, m2 = as_metric(metric1, "metric1"), as_metric(metric2, "metric2")
    if not (g.size == m1.size == m2.size):
        raise ValueError(f"gold, metric1 and metric2 differ in length: {g.size}, {m1.size}, {m2.size}")
    if rng is None:
        rng = np.random.RandomState(seed)
    fast = None
    chunk_cap = block_size
    if statistic == "kendall_with_ties_opt":
        variant, rate = statistic_args.get("variant", "acc23"), statistic_args.get("sample_rate", 1.0)
        s1, s2 = zscore(m1), zscore(m2)
        if rate < 1.0:
            chunk_cap = 1  # the calibration draws from the same stream, between the permutation draws

        def corr_batch(mat: np.ndarray | None, mask: np.ndarray | None = None, hybrid: int = 0) -> np.ndarray:
            assert mat is not None, "the scores (this statistic counts no masks)"
            return np.array([kendall_with_ties_opt(g, row, num_sys, average_by, variant, rate, rng).best_tau
                             for row in mat])
    else:
        bounds, gf, (f1, f2) = _filtered_groups(g, [m1, m2], num_sys, average_by)
        s1, s2 = zscore(f1), zscore(f2)
        variant = statistic_args.get("variant", "b")
        sizes = np.diff(bounds)
        kinds = ["agree"] if statistic == "accuracy" or variant in ("23", "acc23") else \
            ["con", "dis", "tm", "tg", "both"]
        if statistic in ("kendall_variant", "accuracy") and statistic_args.get("epsilon", 0.0) == 0 \
                and (statistic == "accuracy" or variant in ("b", "23", "acc23")) \
                and sizes.size * int(sizes.max()) ** 2 <= 8_000_000 and not np.isnan(s1).any() \
                and not np.isnan(s2).any():
            fast = _SwapForms(_PairTable(bounds, gf), bounds, s1, s2, kinds)
        fn = _scalar_fn(statistic, {**statistic_args, "num_sys": num_sys})
        pairs = sizes * (sizes - 1) // 2

        def from_counts(counts: list[np.ndarray]) -> np.ndarray:
            if len(counts) == 1:  # agreements: acc23 (or accuracy) and tau_23 = (2 agree - pairs) / pairs
                agree = counts[0]
                with np.errstate(invalid="ignore", divide="ignore"):
                    if statistic == "accuracy" or variant == "acc23":
                        vals = agree / pairs
                    else:
                        vals = (2 * agree - pairs) / pairs
                return np.where(pairs == 0, np.nan, vals)
            con, dis, tm, tg, tb = counts
            return _kendall_from_counts(con, dis, tm, tg, tb, variant)

        def corr_batch(mat: np.ndarray | None, mask: np.ndarray | None = None, hybrid: int = 0) -> np.ndarray:
            if fast is not None and mask is not None:
                vals = from_counts(fast.counts(mask, hybrid))
            else:
                assert mat is not None, "the scores, where no mask is counted"
                vals = np.array([[fn(gf[b:e], row[b:e]) for b, e in zip(bounds[:-1], bounds[1:])]
                                 for row in mat])
            return np.array([_average(v, replace_nans_with_zeros) for v in vals])

    delta = float(corr_batch(s2[None])[0] - corr_batch(s1[None])[0])
    large = 0
    i = 0
    for a, b in _chunk_sizes(k, block_size, chunk_cap):
        w1 = rng.binomial(1, 0.5, size=(b - a, s1.size))
        if fast is not None:
            c1, c2 = corr_batch(None, w1, 0), corr_batch(None, w1, 1)
        else:
            c1 = corr_batch(np.where(w1 == 1, s1, s2))
            c2 = corr_batch(np.where(w1 == 1, s2, s1))
        large += int(np.sum(c2 - c1 >= delta))
        i = b
        if i % block_size == 0:
            p = large / i
            if p < early_min or p > early_max:
                break
    return SigDiff(large / i if i else 0.0, delta, i)


def pairwise_permutation_sig_diff(
    gold: Any, metric1: Any, metric2: Any, *, num_sys: int = 1, variant: str = "acc23",
    average_by: str = "none", k: int = 1000, seed: int | None = None, rng: np.random.RandomState | None = None,
    block_size: int = 1000, early_min: float = 0.02, early_max: float = 0.5,
    epsilon1: float | None = None, epsilon2: float | None = None, sample_rate: float = 1.0,
    replace_nans_with_zeros: bool = False,
) -> SigDiff:
    """The pairwise permutation test: for every within-row pair of segments, the two metrics' verdicts
    (each at its own tie threshold; None = calibrated as acc_eq does) are swapped at random.

    As in mtme, the early-stopping check runs only on a permutation whose difference reached delta."""
    if variant == "c":
        raise ValueError("variant: tau-c is not defined once pairs are permuted")
    check_average_by(average_by)
    g = as_gold(gold)
    m1, m2 = as_metric(metric1, "metric1"), as_metric(metric2, "metric2")
    if rng is None:
        rng = np.random.RandomState(seed)
    if epsilon1 is None:
        epsilon1 = kendall_with_ties_opt(g, m1, num_sys, average_by, variant, sample_rate, rng).best_threshold
    if epsilon2 is None:
        epsilon2 = kendall_with_ties_opt(g, m2, num_sys, average_by, variant, sample_rate, rng).best_threshold
    if epsilon1 < 0 or epsilon2 < 0:
        raise ValueError("epsilon must be non-negative")
    bounds, gf, (f1, f2) = _filtered_groups(g, [m1, m2], num_sys, average_by)
    table = _PairTable(bounds, gf)
    kinds = ["agree"] if variant in ("23", "acc23") else ["con", "dis", "tm", "tg", "both"]
    ind1 = [_indicator(x, _tie_sign(f1[table.i] - f1[table.j], epsilon1), table.gold_sign) for x in kinds]
    ind2 = [_indicator(x, _tie_sign(f2[table.i] - f2[table.j], epsilon2), table.gold_sign) for x in kinds]
    # position of pair (a, b), a < b, in its row's n x n draw matrix; rows' matrices follow one another
    sizes = np.diff(bounds)
    pairs = sizes * (sizes - 1) // 2
    offsets = np.r_[0, np.cumsum(sizes * sizes)]
    row_of = np.repeat(np.arange(sizes.size), table.counts)
    draw_pos = offsets[row_of] + (table.i - bounds[row_of]) * sizes[row_of] + (table.j - bounds[row_of])
    per_draw = int(offsets[-1])

    def corr(counts: list[np.ndarray]) -> np.ndarray:
        if len(counts) == 1:
            with np.errstate(invalid="ignore", divide="ignore"):
                vals = counts[0] / pairs if variant == "acc23" else (2 * counts[0] - pairs) / pairs
            vals = np.where(pairs == 0, np.nan, vals)
        else:
            con, dis, tm, tg, tb = counts
            vals = _kendall_from_counts(con, dis, tm, tg, tb, variant)
        return np.array([_average(v, replace_nans_with_zeros) for v in np.atleast_2d(vals)])

    base1 = [table.sums(x[None].astype(np.int64))[0] for x in ind1]
    base2 = [table.sums(x[None].astype(np.int64))[0] for x in ind2]
    diff = [x.astype(np.int8) - y.astype(np.int8) for x, y in zip(ind1, ind2)]  # metric 1 minus metric 2
    delta = float(corr(base2)[0] - corr(base1)[0])
    large = 0
    i = 0
    stop = False
    for a, b in _chunk_sizes(k, block_size):
        draws = rng.binomial(1, 0.5, size=(b - a, per_draw))[:, draw_pos].astype(np.int8)
        # hybrid 1 takes metric 1's verdict where the draw is 1, hybrid 2 metric 2's: linear in the draws
        moved = [table.sums(draws * d) for d in diff]
        h1 = [b2[None] + m for b2, m in zip(base2, moved)]
        h2 = [b1[None] - m for b1, m in zip(base1, moved)]
        hit = corr(h2) - corr(h1) >= delta
        for n, h in enumerate(hit.tolist(), start=a + 1):
            i = n
            if h:
                large += 1
                if i % block_size == 0:
                    p = large / i
                    if p < early_min or p > early_max:
                        stop = True
                        break
        if stop:
            break
    return SigDiff(large / i if i else 0.0, delta, i)


def _tie_sign(diff: np.ndarray, epsilon: float) -> np.ndarray:
    sign = np.sign(diff)
    sign[np.abs(diff) <= epsilon] = 0
    return sign
