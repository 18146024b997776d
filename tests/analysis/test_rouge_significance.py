"""Significance tests on ROUGE through the generic Metric path, against an independent computation: the
resampled corpus scores are exact means (Fractions) of rouge-score's per-segment F on the same draws."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from bleuscope.analysis.significance import paired_ar, paired_bootstrap
from bleuscope.metrics.rouge import ROUGE

from ..conftest import requires_wmt
from ..metrics.rouge_data import wmt_segments

N = 120


def system_f(metric, hyps, refs) -> list[Fraction]:
    return [Fraction(float(x)) for x in metric.sentence_scores(hyps, refs).prf[:, 0, 2]]


def score(values) -> float:
    return 100 * float(sum(values, Fraction(0)) / len(values))


@requires_wmt
@pytest.mark.parametrize("rouge_type", ["rouge2", "rougeLsum"])
def test_paired_ar_and_bootstrap_on_per_segment_f(rouge_type):
    base, refs = wmt_segments("generaltest2022", "de-en", "Online-B", limit=150)
    other, _ = wmt_segments("generaltest2022", "de-en", "PROMT", limit=150)
    metric = ROUGE((rouge_type, "rouge1"), use_stemmer=True)
    fa, fb = system_f(metric, base, refs[:1]), system_f(metric, other, refs[:1])
    observed = abs(score(fa) - score(fb))
    seg = len(fa)

    ar = paired_ar([("base", base), ("other", other)], refs[:1], metric=metric, n_samples=N, seed=7)
    masks = np.random.default_rng(7).integers(2, size=(N, seg), dtype=bool)
    diffs = []
    for m in masks:
        a = [x if keep else y for x, y, keep in zip(fa, fb, m)]
        b = [y if keep else x for x, y, keep in zip(fa, fb, m)]
        diffs.append(abs(score(a) - score(b)))
    expected_p = (sum(d >= observed for d in diffs) + 1) / (N + 1)
    assert ar["other"].score == score(fb) and ar["base"].score == score(fa)
    assert ar["other"].p_value == expected_p

    bs = paired_bootstrap([("base", base), ("other", other)], refs[:1], metric=metric, n_samples=N, seed=3)
    idx = np.random.default_rng(3).choice(seg, size=(N, seg), replace=True)
    sa = np.array([score([fa[i] for i in row]) for row in idx])
    sb = np.array([score([fb[i] for i in row]) for row in idx])
    d = np.abs(sb - sa)
    expected_bs_p = (np.count_nonzero(d - d.mean() >= observed) + 1) / (N + 1)
    assert bs["other"].p_value == expected_bs_p
    assert bs.signature.startswith(f"nrefs:1|bs:{N}|seed:3|types:{rouge_type},rouge1|stem:yes|tok:default|agg:mean")


def test_rouge_interval_is_the_exact_one_under_the_default_precision():
    # ROUGE has no sacreBLEU counterpart, so float32 resample sums (sacreBLEU's arithmetic for BLEU, chrF, TER)
    # must not round its fixed-point rows: the default precision gives the exact interval
    from bleuscope import ROUGE
    from bleuscope.analysis.significance import confidence_interval
    from bleuscope.cli.main import example_dir

    folder = Path(example_dir())
    hyps = (folder / "hyp.Online-B.txt").read_text(encoding="utf-8").split("\n")[:-1]
    refs = [(folder / "ref.A.txt").read_text(encoding="utf-8").split("\n")[:-1]]
    default = confidence_interval(hyps, refs, metric=ROUGE(types=("rougeL",)))
    exact = confidence_interval(hyps, refs, metric=ROUGE(types=("rougeL",)), precision="exact")
    assert (default.lower, default.upper, default.mean) == (exact.lower, exact.upper, exact.mean)
