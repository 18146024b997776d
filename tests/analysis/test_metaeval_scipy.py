"""bleuscope.analysis.metaeval against independent computations on generated data with ties: scipy's
Pearson, Spearman and Kendall, and brute-force pair counts written out here."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.analysis import metaeval as me

scipy_stats = pytest.importorskip("scipy.stats")

# few distinct values: many ties on both sides
tied = st.lists(st.integers(0, 4), min_size=3, max_size=40)


def brute_counts(g, m, eps=0.0):
    con = dis = tm = tg = tb = 0
    for a, b in itertools.combinations(range(len(g)), 2):
        gd, md = g[a] - g[b], m[a] - m[b]
        mt = abs(md) <= eps
        if gd == 0 and mt:
            tb += 1
        elif gd == 0:
            tg += 1
        elif mt:
            tm += 1
        elif (gd > 0) == (md > 0):
            con += 1
        else:
            dis += 1
    return con, dis, tm, tg, tb


@settings(max_examples=30, deadline=None)
@given(st.data())
def test_against_scipy_and_brute_force(data):
    g = np.array(data.draw(tied), dtype=float)
    m = np.array(data.draw(st.lists(st.integers(0, 4), min_size=g.size, max_size=g.size)), dtype=float) * 0.5
    s = me.tau_stats(g, m)
    assert (s.con, s.dis, s.ties_metric, s.ties_gold, s.ties_both) == brute_counts(g, m)
    eps = data.draw(st.sampled_from([0.0, 0.5, 1.0]))
    con, dis, tm, tg, tb = brute_counts(g, m, eps)
    tot = con + dis + tm + tg + tb
    assert me.kendall_variant(g, m, "acc23", eps) == (con + tb) / tot
    assert me.kendall_variant(g, m, "23", eps) == (con + tb - dis - tm - tg) / tot
    const = np.all(g == g[0]) or np.all(m == m[0])
    for variant in ("b", "c"):
        want = scipy_stats.kendalltau(g, m, variant=variant).statistic
        got = me.kendall(g, m, variant)
        assert (math.isnan(got) and math.isnan(want)) or got == pytest.approx(want, rel=1e-14, abs=1e-15)
    if const:
        assert math.isnan(me.pearson(g, m)) and math.isnan(me.spearman(g, m))
    else:
        assert me.pearson(g, m) == pytest.approx(scipy_stats.pearsonr(g, m).statistic, rel=1e-14, abs=1e-15)
        assert me.spearman(g, m) == pytest.approx(scipy_stats.spearmanr(g, m).statistic, rel=1e-14, abs=1e-15)
    # system-level pairwise accuracy: sign agreement over all pairs
    agree = sum(np.sign(g[a] - g[b]) == np.sign(m[a] - m[b]) for a, b in itertools.combinations(range(g.size), 2))
    assert me.pairwise_accuracy(g, m) == agree / math.comb(g.size, 2)


def test_long_vectors_merge_sort_counts_equal_pair_counts():
    # above the pairwise limit the discordant pairs come from the merge sort
    rng = np.random.default_rng(7)
    g = rng.integers(0, 30, 1500).astype(float)
    m = rng.integers(0, 50, 1500) / 7
    s = me.tau_stats(g, m)
    want = scipy_stats.kendalltau(g, m)
    assert me.kendall(g, m) == pytest.approx(want.statistic, rel=1e-13)
    i, j = np.triu_indices(g.size, 1)
    gd, md = np.sign(g[i] - g[j]), np.sign(m[i] - m[j])
    assert s.con == int(((gd * md) > 0).sum()) and s.dis == int(((gd * md) < 0).sum())
    assert s.ties_both == int(((gd == 0) & (md == 0)).sum())
    assert s.ties_gold == int(((gd == 0) & (md != 0)).sum())


def test_grouping_is_the_mean_of_row_correlations():
    rng = np.random.default_rng(3)
    g = rng.integers(0, 5, 6 * 20).astype(float)
    m = rng.normal(size=g.size) + g
    g[[3, 17, 40]] = np.nan
    for by, mat in (("sys", lambda v: v.reshape(6, -1)), ("item", lambda v: v.reshape(6, -1).T)):
        vals = []
        for rg, rm in zip(mat(g), mat(m)):
            ok = ~np.isnan(rg)
            vals.append(scipy_stats.pearsonr(rg[ok], rm[ok]).statistic)
        assert me.correlate(g, m, "pearson", num_sys=6, average_by=by) == pytest.approx(np.mean(vals), rel=1e-13)


def test_acc_eq_is_the_best_acc23_over_candidate_thresholds():
    rng = np.random.default_rng(5)
    g = rng.integers(0, 3, 5 * 12).astype(float)
    m = rng.integers(0, 8, g.size) / 4
    r = me.kendall_with_ties_opt(g, m, 5, "item")
    rows = list(zip(g.reshape(5, -1).T, m.reshape(5, -1).T))
    best = max(np.mean([me.kendall_variant(rg, rm, "acc23", eps) if eps else me.kendall_variant(rg, rm, "acc23")
                        for rg, rm in rows]) for eps in r.thresholds)
    assert r.best_tau == pytest.approx(best, rel=1e-13)


def test_bad_input_names_the_argument():
    with pytest.raises(ValueError, match="metric: score 1 is nan"):
        me.correlate([1, 2, 3], [1, np.nan, 2], "pearson")
    with pytest.raises(ValueError, match="average_by"):
        me.correlate([1, 2, 3], [1, 2, 2], "pearson", average_by="doc")
    with pytest.raises(ValueError, match="num_sys"):
        me.correlate([1, 2, 3], [1, 2, 2], "pearson", num_sys=2, average_by="sys")
    with pytest.raises(ValueError, match="statistic"):
        me.correlate([1, 2, 3], [1, 2, 2], "kendall_d")
