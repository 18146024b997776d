"""``bleuscope.integrations.lm_eval`` against lm-evaluation-harness 0.4.13's ``lm_eval.api.metrics`` (installed
without its dependencies, see ../shared/oracles/README.md) and the recorded aggregations and standard errors in
``../shared/oracles/lm-eval/``."""

from __future__ import annotations

import csv
import os
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.integrations import lm_eval as ours

from ..conftest import DATA

ORACLE = DATA.parent.parent / "oracles" / "lm-eval"
os.environ.setdefault("DISABLE_MULTIPROC", "1")  # lm-eval's bootstrap in this process (the pool gives the same)


def _lines(path):
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _golden_rows():
    path = ORACLE / "lm-eval-aggregations.tsv"
    if not path.is_file():
        return []
    out = []
    for i, row in enumerate(csv.DictReader(path.open(encoding="utf-8"), delimiter="\t")):
        default = row["bootstrap_iters"] != "0" or (row["pair"] == "en-de" and row["system"] == "Online-B")
        out.append(pytest.param(row, id=f"{i}-{row['pair']}-{row['system']}-{row['refs']}-{row['metric']}-"
                                       f"{row['first_n']}-{row['bootstrap_iters']}",
                                marks=[] if default else [pytest.mark.full]))
    return out


def golden_items(row):
    base = DATA / row["set"] / row["pair"]
    hyp = _lines(base / "sys" / f"{row['system']}.txt")
    refs = [_lines(base / f"ref.{r}.txt") for r in row["refs"].split(",")]
    if row["first_n"] != "all":
        n = int(row["first_n"])
        hyp, refs = hyp[:n], [r[:n] for r in refs]
    return [[g[0] if len(g) == 1 else list(g), h] for g, h in zip(zip(*refs), hyp)]


@pytest.mark.parametrize("row", _golden_rows())
def test_recorded_aggregations_and_stderr(row):
    items = golden_items(row)
    agg = ours.AGGREGATIONS[row["metric"]]
    assert agg(items) == float(row["score"])
    if row["bootstrap_iters"] != "0":
        assert ours.stderr_for_metric(agg, int(row["bootstrap_iters"]))(items) == float(row["stderr"])


def test_direction_and_registry_agree_with_lm_eval():
    registry = pytest.importorskip("lm_eval.api.registry")
    pytest.importorskip("lm_eval.api.metrics")
    for name, agg in ours.AGGREGATIONS.items():
        assert ours.HIGHER_IS_BETTER[name] == registry.is_higher_better(name)
        assert registry.get_metric_aggregation(name).__name__ == {"chrf++": "chrfpp"}.get(name, name) == agg.__name__
    assert ours.HIGHER_IS_BETTER["ter"] is False


words = st.text(alphabet="abcde .,!?", max_size=25)
single = st.lists(st.tuples(words, words), min_size=2, max_size=8)
multi = st.integers(1, 3).flatmap(
    lambda k: st.lists(st.tuples(st.lists(words, min_size=k, max_size=k), words), min_size=2, max_size=6))
ragged = st.lists(st.tuples(st.lists(words, min_size=1, max_size=3), words), min_size=2, max_size=6)


def _items(pairs, as_list=False):
    return [[g if as_list or not isinstance(g, str) else g, h] for g, h in pairs]


@settings(max_examples=30, deadline=None)
@given(st.one_of(single, multi, ragged))
def test_aggregations_equal_lm_eval(pairs):
    metrics = pytest.importorskip("lm_eval.api.metrics")
    items = [[g, h] for g, h in pairs]
    for name, lm_name in (("bleu", "bleu"), ("chrf", "chrf"), ("chrf++", "chrfpp"), ("ter", "ter")):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ours.ReferencesTruncatedWarning)
            got = ours.AGGREGATIONS[name](items)
        assert got == getattr(metrics, lm_name)(items)


@settings(max_examples=12, deadline=None)
@given(st.one_of(single, ragged), st.sampled_from(["bleu", "chrf", "ter"]), st.integers(2, 30))
def test_stderr_equals_lm_eval_bootstrap(pairs, name, iters):
    """lm-eval's chunks, seeds and draws, and its sample standard deviation: the same float, also when the
    documents' reference counts differ (a resample's count is the smallest among the documents drawn)."""
    metrics = pytest.importorskip("lm_eval.api.metrics")
    items = [[g, h] for g, h in pairs]
    lm_fn = {"bleu": metrics.bleu, "chrf": metrics.chrf, "ter": metrics.ter}[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = metrics.bootstrap_stderr(lm_fn, items, iters=iters)
        assert ours.bootstrap_stderr(ours.AGGREGATIONS[name], items, iters) == expected
        assert ours.stderr_for_metric(lm_fn, iters)(items) == expected  # lm-eval's own function, computed by us


def test_chrf_parameters_are_kept_in_the_stderr():
    """A chrF aggregation's own parameters in its resamples (lm-eval's stderr_for_metric only knows its default
    chrf and chrfpp functions, so a chrF task with other parameters gets the default chrF's stderr)."""
    metrics = pytest.importorskip("lm_eval.api.metrics")
    sacrebleu = pytest.importorskip("sacrebleu")
    hyp = _lines(DATA / "generaltest2022" / "en-de" / "sys" / "Online-B.txt")[:60]
    ref = _lines(DATA / "generaltest2022" / "en-de" / "ref.A.txt")[:60]
    items = [[r, h] for r, h in zip(ref, hyp)]
    char4 = ours.chrf_aggregation("chrf4", char_order=4, word_order=1, beta=1)

    def lm_eval_style_chrf4(xs):
        refs, preds = metrics._sacreformat(*list(zip(*xs)))
        return sacrebleu.CHRF(char_order=4, word_order=1, beta=1).corpus_score(preds, refs).score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = metrics.bootstrap_stderr(lm_eval_style_chrf4, items, iters=20)
        default = metrics.bootstrap_stderr(metrics.chrf, items, iters=20)
    assert ours.bootstrap_stderr(char4, items, 20) == expected != default
    assert ours.bootstrap_stderr(ours.chrfpp, items, 20) == pytest.approx(
        metrics.bootstrap_stderr(metrics.chrfpp, items, iters=20), abs=0)


def test_numpy_method_draws_exactly_iters_resamples():
    items = [[f"ref {i} a b", f"hyp {i} a"] for i in range(40)]
    values = ours.bootstrap_replicates(ours.bleu, items, 1500, method="numpy", seed=3)
    assert len(values) == 1500
    assert len(ours.bootstrap_replicates(ours.bleu, items, 1500)) == 1000  # lm-eval's chunking
    stderr = ours.bootstrap_stderr(ours.bleu, items, 1500, method="numpy", seed=3)
    assert stderr == float(np.std(values, ddof=1))
    # the resamples are the corpus scores of the resampled items
    rng = np.random.default_rng(3)
    idx = rng.integers(0, 40, size=(1500, 40))[:5]
    for k in range(5):
        assert values[k] == ours.bleu([items[i] for i in idx[k]])


def test_truncation_warns_and_keeps_lm_eval_numbers():
    metrics = pytest.importorskip("lm_eval.api.metrics")
    items = [[["the cat sat", "a cat sat"], "the cat sat"], [["a dog barked"], "a dog"]]
    with pytest.warns(ours.ReferencesTruncatedWarning, match="only the first 1 of each, 1 reference"):
        got = ours.bleu(items)
    assert got == metrics.bleu(items)


def test_bad_items_are_refused():
    with pytest.raises(ValueError, match=r"items\[1\]: the gold is a string but items\[0\]'s is a list"):
        ours.bleu([[["a b", "a c"], "a b"], ["abc", "a b"]])
    with pytest.raises(ValueError, match=r"items\[0\]: a result given as a list must hold exactly one string"):
        ours.ter([["a", ["b", "c"]]])
    with pytest.raises(ValueError, match="items is empty"):
        ours.chrf([])
    with pytest.raises(TypeError, match="f must be one of bleuscope's lm-eval aggregations"):
        ours.bootstrap_stderr(len, [["a", "a"]], 10)


def test_patch_stderr_gives_lm_evals_evaluator_our_stderr():
    evaluator_utils = pytest.importorskip("lm_eval.evaluator_utils")
    metrics = pytest.importorskip("lm_eval.api.metrics")
    saved = evaluator_utils.stderr_for_metric
    items = [[f"the {w} sat on a mat", f"the {w} sat"] for w in "cat dog cow hen owl".split()]
    try:
        ours.patch_stderr()
        fn = evaluator_utils.stderr_for_metric(metric=ours.bleu, bootstrap_iters=50)
        assert fn(items) == ours.bootstrap_stderr(ours.bleu, items, 50)
        assert evaluator_utils.stderr_for_metric(metric=metrics.mean, bootstrap_iters=50) is metrics.mean_stderr
        ours.patch_stderr(bootstrap_iters=2000)
        fn = evaluator_utils.stderr_for_metric(metric=ours.ter, bootstrap_iters=100)
        assert fn(items) == ours.bootstrap_stderr(ours.ter, items, 2000)
    finally:
        evaluator_utils.stderr_for_metric = saved


def test_ter_stderr_adds_mean_lengths_in_the_order_drawn():
    """References of different lengths give fractional mean lengths, whose float sum depends on the order lm-eval's
    sacreBLEU run adds them in: the same float as lm-eval's."""
    metrics = pytest.importorskip("lm_eval.api.metrics")
    items = [[["a b c", "a b"], "a b"], [["x y z w", "x"], "x y"], [["p q", "p q r"], "q"], [["", "", "?"], ""]]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for iters in (2, 7, 40):
            assert ours.bootstrap_stderr(ours.ter, items, iters) == metrics.bootstrap_stderr(metrics.ter, items,
                                                                                               iters=iters)
