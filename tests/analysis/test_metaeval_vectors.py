"""bleuscope.analysis.metaeval against mt-metrics-eval's own test vectors (mtme 68a481a, stats_test.py and
tau_optimization_test.py): the inputs and the values mtme returned at full precision, copied here as facts
(see ../shared/oracles/mtme/README.md). Equality is exact unless a comment says otherwise."""

from __future__ import annotations

import numpy as np
import pytest

from bleuscope.analysis import metaeval as me

G6 = [1, 2, 3, 4, 5, 6]
M6 = [2, 1, 4, 3, 3, 7]


@pytest.mark.parametrize(
    ("statistic", "average_by", "kwargs", "want"),
    [
        ("pearson", "none", {}, 0.7763237542601484),
        ("pearson", "sys", {}, 0.7603395372462078),
        ("pearson", "item", {}, 1.0),
        ("pearson", "item", {"pdp": True}, 0.9258200997725516),
        ("pearson", "none", {"pdp": True}, 0.7763237542601484),
        ("pearson", "sys", {"pdp": True}, 0.7661308776828738),
        ("kendall_b", "none", {}, 0.5520524474738833),
        ("kendall_b", "sys", {}, 0.5749149571305296),
        ("kendall_b", "item", {}, 1.0),
        ("kendall_c", "none", {}, 0.5555555555555556),
        ("kendall_c", "sys", {}, 0.611111111111111),
        ("kendall_c", "item", {}, 1.0),
    ],
)
def test_correlation_class_vectors(statistic, average_by, kwargs, want):
    got = me.correlate(G6, M6, statistic, num_sys=2, average_by=average_by, **kwargs)
    assert got == pytest.approx(want, rel=0, abs=1e-15)


def test_kendall_variants_vectors():
    g, m = [1, 2, 2, 3, 4], [2, 1, 1.5, 5, 3]
    assert me.kendall_variant(g, m, "b") == 0.31622776601683794
    assert me.kendall_variant(g, m, "c") == 0.32
    assert me.kendall_variant(g, m, "23") == 0.2
    assert me.kendall_variant(g, m, "acc23") == 0.6
    assert me.kendall_variant(g, m, "acc23", epsilon=2) == 0.4
    assert me.correlate(g, m, "acc_eq") == 0.7
    g7, m7 = [7, 1, 2, 7, 4, 3, 2], [4, 1, 3, 6, 1, 5, 6]
    assert me.kendall_variant(g7, m7, "b") == 0.2631578947368421
    assert me.kendall_variant(g7, m7, "c") == 0.25510204081632654
    g7, m7 = [1, 1, 1, 2, 2, 3, 4], [1, 1, 2, 2, 4, 3, 3]
    assert me.kendall_variant(g7, m7, "23") == 0.3333333333333333
    assert me.kendall_variant(g7, m7, "acc23") == 0.6666666666666666
    assert me.kendall_variant(g7, m7, "23", 0.0) == 0.3333333333333333
    assert me.kendall_variant(g7, m7, "23", 0.1) == 0.3333333333333333
    assert me.kendall_variant(g7, m7, "23", 1.0) == -0.047619047619047616


def test_kendall_like_and_agreement_vectors():
    assert me.kendall_like([10, 11, 100, 150], [2, 1, 4, 3]) == (0.6, 5, 4, 1)
    assert me.kendall_like([10, 11, 100, 150], [2, 1, 4, 3], 1) == (0.3333333333333333, 6, 4, 2)
    assert me.kendall_like([10, np.nan, 100, 150], [2, 1, 4, 3], 1)[0] == 0.3333333333333333
    assert me.agreement([1, 2, 3, 3, 4], [1, 1, 2, 1, 2]) == (5, 10)


def test_kendall_with_ties_opt_vectors():
    g, m = [1, 2, 2, 3, 3, 4], [2, 1, 1.5, 5, 3, 2]
    r = me.kendall_with_ties_opt(g, m, 1, "none")
    assert (r.best_tau, r.best_threshold) == (0.5333333333333333, 0.0)
    r = me.kendall_with_ties_opt(g, m, 2, "sys")
    assert (r.best_tau, r.best_threshold) == (0.3333333333333333, 2.0)
    r = me.kendall_with_ties_opt(g, m, 2, "item")
    assert (r.best_tau, r.best_threshold) == (1.0, 0.0)


def test_spa_vector():
    assert me.soft_pairwise_accuracy([1, 2, 3, 2, 3, 4], [2, 2, 4, 1, 3, 5], 2) == 0.872


@pytest.mark.parametrize(
    ("gold", "metric", "average_by", "kwargs", "want"),
    [
        (G6, [2, 1, 8, 3, 5, 6], "sys", {}, 0.8871931608775137),
        (G6, [2, 1, 8, 3, 5, 6], "item", {}, 0.3333333333333333),
        ([1, None, 3, 4, 5, 6], [2, 1, 8, 3, 5, 6], "item", {}, 0.0),
        (G6, [2, 2, 2, 4, 5, 6], "sys", {}, 0.9999999999999998),
        (G6, [2, 2, 2, 4, 5, 6], "sys", {"replace_nans_with_zeros": True}, 0.4999999999999999),
    ],
)
def test_average_correlation_vectors(gold, metric, average_by, kwargs, want):
    assert me.average_correlation(me.pearson, gold, metric, 2, average_by, **kwargs) == want


def test_average_correlation_weighted_vector():
    # macro=False: each row weighted by its number of scored entries
    got = me.average_correlation(me.pearson, [1, None, 3, 4, 5, 6], [2, 1, 8, 3, 5, 6], 2, "sys",
                                 weights=lambda g, m: g.size)
    assert got == 0.9891883036371795


@pytest.mark.parametrize(("average_by", "want"), [("item", 0.9682773237093575), ("none", 0.9746849717802676)])
def test_pdp_with_missing_vectors(average_by, want):
    assert me.pdp_pearson([1, 5, None, 10, 2, 12], [3, 15, 1, 20, 4, 24], 2, average_by) == pytest.approx(
        want, rel=0, abs=1e-15)


def test_tau_optimization_vectors():
    r = me.tau_optimization([0, 2, 6, 8], [1, 2, 3, 4])
    assert r.thresholds == [0.0, 2.0, 4.0, 6.0, 8.0]
    assert r.taus == [1.0, 0.6666666666666666, 0.5, 0.16666666666666666, 0.0]
    assert (r.best_threshold, r.best_tau) == (0.0, 1.0)
    r = me.tau_optimization([0, 2, 6, 8], [1, 1, 1, 4])
    assert r.taus == [0.5, 0.5, 0.6666666666666666, 0.6666666666666666, 0.5]
    assert (r.best_threshold, r.best_tau) == (4.0, 0.6666666666666666)
    n = None
    metric = [[0, 5, 2, 3, 2], [n, 2, 1, 5, 3], [9, 1, 5, 3, 8], [9, 3, 4, 4, 1], [n, n, n, n, n]]
    human = [[1, 5, 2, 1, 1], [4, 2, 2, 1, 4], [5, 9, 2, 8, 7], [7, 6, n, 3, 2], [n, n, n, n, n]]
    metric = [[np.nan if v is None else v for v in row] for row in metric]
    r = me.tau_optimization(metric, human)
    assert r.thresholds == [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]
    # the running total's rounding, bit for bit (e.g. 0.4916666666666668)
    assert r.taus == [0.4666666666666667, 0.4916666666666668, 0.38333333333333347, 0.29166666666666674,
                      0.2666666666666667, 0.2, 0.15833333333333335, 0.15833333333333335, 0.1166666666666667]
    assert (r.best_threshold, r.best_tau) == (1.0, 0.4916666666666668)
    r = me.tau_optimization([0, 2, 6, 14], [1, 2, 3, 4], sample_rate=0.5, rng=np.random.RandomState(123))
    assert r.thresholds == [0.0, 6.0, 8.0, 14.0]


G8 = [1, 2, 3, 4, 5, 5, 7, 8]
A8 = [1, 2, 3, 3, 7, 3, 5, 5]
B8 = [2, 1, 2, 6, 8, 8, 7, 6]


@pytest.mark.parametrize(
    ("average_by", "p", "delta"),
    [("none", 0.506, -0.0024838486599123577), ("sys", 0.931, -1.3333333333333333),
     ("item", 0.849, -0.1485331307316824)],
)
def test_permutation_sig_diff_vectors(average_by, p, delta):
    # mtme under np.random.seed(20240101): PermutationSigDiff(corr1, corr2, pearsonr, average_by, 1000)
    r = me.permutation_sig_diff(G8, A8, B8, num_sys=4, statistic="pearson", average_by=average_by, k=1000,
                                seed=20240101)
    assert (r.p, r.k_used) == (p, 1000)
    assert r.delta == pytest.approx(delta, rel=0, abs=1e-15)


def test_pairwise_permutation_sig_diff_vector():
    g, a, b = [1, 3, 3, 3, 1, 2, 1, 2], [2, 4, 6, 6, 2, 6, 3, 7], [1, 5, 4, 4, 4, 3, 2, 1]
    assert me.kendall_with_ties_opt(g, a, 4, "item").best_tau == 0.6666666666666666
    assert me.kendall_with_ties_opt(g, b, 4, "item").best_tau == 0.5833333333333334
    r = me.pairwise_permutation_sig_diff(g, a, b, num_sys=4, variant="acc23", average_by="item", k=10,
                                         seed=20240101)
    assert (r.p, r.delta, r.k_used) == (0.8, -0.08333333333333337, 10)


@pytest.mark.parametrize("gold", [[10, 11, 100, 150], [10, None, 100, 150]])
def test_kendall_like_item_averaged_vectors(gold):
    # Correlation.KendallLike(average_by='item', thresh=1): rows weighted by their number of pairs (macro=False)
    got = me.average_correlation(lambda g, m: me.kendall_like(g, m, 1)[0], gold, [2, 1, 4, 3], 2, "item",
                                 weights=lambda g, m: me.kendall_like(g, m, 1)[1])
    assert got == 1.0
