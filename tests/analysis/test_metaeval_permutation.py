"""The vectorized permutation tests against the procedure written out one permutation at a time (mtme's
loop: a fresh np.random draw per permutation, early stopping at block boundaries), on generated data with
ties; and the random stream carried from one test to the next as mtme's global stream is."""

from __future__ import annotations

import numpy as np
import pytest

from bleuscope.analysis import metaeval as me


def looped_perm_both(gold, m1, m2, num_sys, average_by, variant, k, seed, block_size, early_min=0.02,
                     early_max=0.5):
    rs = np.random.RandomState(seed)
    rows_g = me.correlation.reshape(gold, num_sys, average_by)
    rows1 = me.correlation.reshape(m1, num_sys, average_by)
    rows2 = me.correlation.reshape(m2, num_sys, average_by)
    gs, a, b, lens = [], [], [], []
    for rg, r1, r2 in zip(rows_g, rows1, rows2):
        ok = ~np.isnan(rg)
        lens.append(ok.sum())
        gs.append(rg[ok]), a.append(r1[ok]), b.append(r2[ok])
    g, s1, s2 = np.concatenate(gs), np.concatenate(a), np.concatenate(b)
    s1 = (s1 - s1.mean()) / s1.std()
    s2 = (s2 - s2.mean()) / s2.std()
    bounds = np.r_[0, np.cumsum(lens)]

    def corr(x):
        vals = [me.kendall_variant(g[p:q], x[p:q], variant) for p, q in zip(bounds[:-1], bounds[1:])]
        vals = np.array(vals)
        return np.mean(vals[~np.isnan(vals)])

    delta = corr(s2) - corr(s1)
    large = 0
    for i in range(1, k + 1):
        w = rs.binomial(1, 0.5, s1.size)
        c1, c2 = corr(w * s1 + (1 - w) * s2), corr((1 - w) * s1 + w * s2)
        large += c2 - c1 >= delta
        if i % block_size == 0 and not early_min <= large / i <= early_max:
            break
    return large / i, delta, i, rs.random_sample()


@pytest.mark.parametrize(("average_by", "variant", "block"), [("item", "acc23", 50), ("sys", "b", 30),
                                                              ("none", "23", 1000)])
def test_perm_both_kendall_equals_the_loop(average_by, variant, block):
    rng = np.random.default_rng(11)
    gold = rng.integers(0, 4, 5 * 8).astype(float)
    m1 = gold + rng.integers(0, 3, gold.size)
    m2 = rng.integers(0, 6, gold.size).astype(float)
    gold[[2, 9]] = np.nan
    rs = np.random.RandomState(99)
    got = me.permutation_sig_diff(gold, m1, m2, num_sys=5, statistic="kendall_variant", variant=variant,
                                  average_by=average_by, k=120, rng=rs, block_size=block)
    p, delta, used, after = looped_perm_both(gold, m1, m2, 5, average_by, variant, 120, 99, block)
    assert (got.p, got.k_used) == (p, used)
    assert got.delta == pytest.approx(delta, abs=1e-12)
    # the stream stops where the loop's stops: the next draw is the same
    assert rs.random_sample() == after


def looped_pairwise(gold, m1, m2, num_sys, eps1, eps2, k, seed, block_size):
    rs = np.random.RandomState(seed)
    g = gold.reshape(num_sys, -1).T
    a, b = m1.reshape(num_sys, -1).T, m2.reshape(num_sys, -1).T

    def agree(rg, rm, eps, w, take):
        n = rg.size
        hits = 0
        for i in range(n):
            for j in range(i + 1, n):
                md = rm[take(w[i, j])][i] - rm[take(w[i, j])][j]
                e = eps[take(w[i, j])]
                ms = 0 if abs(md) <= e else np.sign(md)
                hits += ms == np.sign(rg[i] - rg[j])
        return hits / (n * (n - 1) / 2)

    def corr(w_all, first):
        vals = []
        for r, (rg, r1, r2) in enumerate(zip(g, a, b)):
            w = w_all[r] if w_all is not None else np.ones((rg.size, rg.size), int)
            vals.append(agree(rg, (r1, r2), (eps1, eps2), w, (lambda x: 1 - x) if first else (lambda x: x)))
        return np.mean(vals)

    ones = [np.ones((num_sys, num_sys), int)] * g.shape[0]
    delta = np.mean([agree(rg, (r1, r2), (eps1, eps2), w, lambda x: 1) for rg, r1, r2, w in zip(g, a, b, ones)]) - \
        np.mean([agree(rg, (r1, r2), (eps1, eps2), w, lambda x: 0) for rg, r1, r2, w in zip(g, a, b, ones)])
    large = 0
    for i in range(1, k + 1):
        ws = [rs.binomial(1, 0.5, (num_sys, num_sys)) for _ in range(g.shape[0])]
        c1 = corr(ws, True)   # metric 1 where w = 1
        c2 = corr(ws, False)
        if c2 - c1 >= delta:
            large += 1
            if i % block_size == 0 and not 0.02 <= large / i <= 0.5:
                break
    return large / i, delta, i


def test_pairwise_permutation_equals_the_loop():
    rng = np.random.default_rng(2)
    gold = rng.integers(0, 3, 4 * 6).astype(float)
    m1 = gold + rng.integers(0, 2, gold.size) * 0.5
    m2 = rng.integers(0, 4, gold.size).astype(float)
    got = me.pairwise_permutation_sig_diff(gold, m1, m2, num_sys=4, average_by="item", k=40, seed=5,
                                           epsilon1=0.5, epsilon2=0.0, block_size=20)
    p, delta, used = looped_pairwise(gold, m1, m2, 4, 0.5, 0.0, 40, 5, 20)
    assert (got.p, got.k_used) == (p, used)
    assert got.delta == pytest.approx(delta, abs=1e-12)


def test_clusters_rank_a_clearly_worse_metric_below():
    rng = np.random.default_rng(1)
    gold = rng.normal(size=6 * 40)
    metrics = {"good": gold + rng.normal(scale=0.3, size=gold.size),
               "also_good": gold + rng.normal(scale=0.3, size=gold.size),
               "noise": rng.normal(size=gold.size)}
    c = me.compare_metrics(gold, metrics, "pearson", num_sys=6, k=200, seed=1)
    assert c.names[-1] == "noise" and c.ranks[0] == 1 and c.ranks[-1] == c.ranks[1] + 1
    assert c.sig_matrix[0, 2] < 0.05 and c.sig_matrix[1, 2] < 0.05
    assert me.assign_ranks(np.array([[0, 0.5, 0.01], [0, 0, 0.2], [0, 0, 0]])) == [1, 1, 2]
