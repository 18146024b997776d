"""Confidence intervals and paired significance tests: live parity with sacreBLEU 2.6.0, statistics, input.

Parity tests run sacreBLEU's own code (``PairedTest``, ``corpus_score(n_bootstrap=...)``, the ``sacrebleu``
command) on the shared WMT data and require the same scores, means, CIs and p-values, bit for bit (sacreBLEU
prints 1-4 decimals; equality is stricter). The default run uses one pair, a baseline and two close systems
and reduced sample counts; ``--full`` sweeps every pair with all systems and sacreBLEU's default counts.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuscope.analysis.significance as sg
from bleuscope import BLEU, METEOR, TER
from bleuscope.analysis.significance import (
    all_pairs,
    confidence_interval,
    paired_ar,
    paired_bootstrap,
    resampling,
    system_statistics,
)
from bleuscope.metrics.bleu import counting as bleu_counting
from bleuscope.metrics.base import Metric
from bleuscope.tokenizers import get_tokenizer

from ..conftest import DATA, all_pairs as data_pairs, pair_dir, read_lines, requires_core, requires_wmt

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.significance import PairedTest, _bootstrap_resample  # noqa: E402

ENDE = ("generaltest2022", "en-de")
# close systems (p-values well above the 1/(N+1) floor) with Online-W as the baseline, and the clearly
# better Online-B
CLOSE = ["Online-W", "Online-A", "Online-G", "Online-B"]
TOKENIZE = {"zh": "zh", "ja": "char", "ko": "char"}  # by target language (WMT22 en-ja: char)


def _load(testset, pair, systems=None, refs=None):
    base = pair_dir(testset, pair)
    if systems is None:
        systems = sorted(p.stem for p in (base / "sys").glob("*.txt"))
    if refs is None:
        refs = sorted(p.name[4:-4] for p in base.glob("ref.*.txt"))
    hyps = {s: read_lines(base / "sys" / f"{s}.txt") for s in systems}
    return hyps, [read_lines(base / f"ref.{r}.txt") for r in refs]


def _sacre_paired(hyps: dict, refs, test, n, tokenize="13a", n_ar_confidence=-1):
    metric = sacrebleu.BLEU(tokenize=tokenize, references=refs)
    ps = PairedTest(list(hyps.items()), {"BLEU": metric}, references=None, test_type=test, n_samples=n,
                    n_ar_confidence=n_ar_confidence)
    sigs, scores = ps()
    return sigs["BLEU"].format(), scores["BLEU"]


def _assert_same(ours: sg.PairedTestResult, theirs, with_ci: bool):
    assert len(ours.systems) == len(theirs)
    for mine, res in zip(ours.systems, theirs):
        assert mine.score == res.score
        assert mine.p_value == res.p_value
        if with_ci:
            assert (mine.mean, mine.ci) == (float(res.mean), float(res.ci)), mine.system
        else:
            assert mine.mean is None and res.mean is None


@pytest.fixture(autouse=True)
def _no_sacrebleu_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


@pytest.fixture(scope="module")
def ende():
    hyps, refs = _load(*ENDE, systems=CLOSE, refs=["A"])
    bleu = BLEU()
    stats = {name: bleu.segment_statistics(h, refs) for name, h in hyps.items()}
    return hyps, refs, stats


# ---------------------------------------------------------------------------------------------------------
# parity with sacreBLEU (default run: one pair, baseline + 2 systems, reduced n)
# ---------------------------------------------------------------------------------------------------------
@requires_wmt
def test_paired_bootstrap_equals_sacrebleu(ende):
    hyps, refs, stats = ende
    three = {k: hyps[k] for k in CLOSE[:3]}
    sig_theirs, theirs = _sacre_paired(three, refs, "bs", 500)
    ours = paired_bootstrap(three, refs, metric=BLEU(), n_samples=500)
    _assert_same(ours, theirs, with_ci=True)
    assert 0.01 < ours.systems[1].p_value < 1  # a non-trivial p-value, not the 1/(N+1) floor
    assert all(s.ties == 0 for s in ours.systems)
    assert ours.signature.split("|version:")[0] == sig_theirs.split("|version:")[0]
    # the same from cached statistics (no text): identical
    again = paired_bootstrap({k: stats[k] for k in CLOSE[:3]}, metric=BLEU(), n_samples=500)
    assert again == ours


@requires_wmt
def test_paired_ar_equals_sacrebleu_with_confidence(ende):
    hyps, refs, stats = ende
    three = {k: hyps[k] for k in CLOSE[:3]}
    sig_theirs, theirs = _sacre_paired(three, refs, "ar", 1000, n_ar_confidence=200)
    ours = paired_ar({k: stats[k] for k in CLOSE[:3]}, metric=BLEU(), n_samples=1000, confidence_n=200)
    _assert_same(ours, theirs, with_ci=True)
    assert ours.signature.split("|version:")[0] == sig_theirs.split("|version:")[0]
    assert 0.01 < ours.systems[1].p_value < 1


@requires_wmt
def test_paired_ar_equals_sacrebleu_other_seed(ende, monkeypatch):
    hyps, refs, stats = ende
    three = {k: hyps[k] for k in (CLOSE[0], CLOSE[2], CLOSE[3])}
    monkeypatch.setenv("SACREBLEU_SEED", "777")
    _, theirs = _sacre_paired(three, refs, "ar", 500)
    ours = paired_ar({k: stats[k] for k in three}, metric=BLEU(), n_samples=500, seed=777)
    _assert_same(ours, theirs, with_ci=False)
    assert ours.seed == 777 and "seed:777" in ours.signature


@requires_wmt
def test_confidence_interval_equals_sacrebleu_corpus_score():
    hyps, refs = _load(*ENDE, systems=["OpenNMT"], refs=["A", "B"])
    theirs = sacrebleu.BLEU().corpus_score(hyps["OpenNMT"], refs, n_bootstrap=500)
    ours = confidence_interval(hyps["OpenNMT"], refs, n_samples=500)
    assert ours.score == theirs.score
    assert (ours.mean, ours.ci) == (theirs._mean, theirs._ci)
    assert ours.lower <= ours.mean <= ours.upper and ours.ci == pytest.approx((ours.upper - ours.lower) / 2)
    assert "nrefs:2|bs:500|seed:12345|" in ours.signature


def _run_cli(args, *, tool, where=ENDE):
    if tool == "bleuscope":  # in-process (the installed command's entry point), same working directory
        from bleuscope import cli

        out, err = io.StringIO(), io.StringIO()
        cwd = os.getcwd()
        try:
            os.chdir(pair_dir(*where))
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                code = cli.main(args)
        finally:
            os.chdir(cwd)
        assert code == 0, err.getvalue()
        return out.getvalue()
    cmd = [sys.executable, "-m", "sacrebleu"]
    env = {k: v for k, v in os.environ.items() if k not in ("SACREBLEU_SEED", "SACREBLEU_FORMAT")}
    proc = subprocess.run(cmd + args, capture_output=True, text=True, cwd=pair_dir(*where), env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


@requires_wmt
@pytest.mark.parametrize("flags", [["--paired-bs", "-pbsn", "200"], ["--paired-ar", "-parn", "300"]])
def test_cli_paired_json_equals_sacrebleu(flags):
    files = ["ref.A.txt", "-i", "sys/Online-W.txt", "sys/Online-A.txt"]
    theirs = json.loads(_run_cli(files + flags + ["-f", "json", "-q"], tool="sacrebleu"))
    ours = json.loads(_run_cli(files + flags + ["-f", "json", "-q"], tool="bleuscope"))
    assert [r["system"] for r in ours] == [r["system"] for r in theirs]
    for mine, their in zip(ours, theirs):
        for key in ("score", "p_value", "mean", "ci"):
            assert mine["BLEU"][key] == their["BLEU"][key], (mine["system"], key)


@requires_wmt
def test_cli_paired_text_and_confidence_equal_sacrebleu():
    files = ["ref.A.txt", "-i", "sys/Online-W.txt", "sys/Online-G.txt"]
    args = files + ["--paired-bs", "-pbsn", "100", "-f", "text", "-w", "3", "-q", "-nc"]
    theirs = _run_cli(args, tool="sacrebleu")
    ours = _run_cli(args[:-1], tool="bleuscope")

    def cells(text):
        return [line.strip("│ ").split("│")[-1].strip() for line in text.splitlines() if line.startswith("│")]

    assert cells(ours)[1:] == cells(theirs)[1:]  # every score / mean ± CI / (p = ...) cell
    assert "nrefs:1|bs:100|seed:12345|case:mixed" in ours
    single = ["ref.A.txt", "ref.B.txt", "-i", "sys/PROMT.txt", "--confidence", "-cin", "100", "-w", "4", "-q"]
    t = json.loads(_run_cli(single + ["-f", "json"], tool="sacrebleu"))
    o = json.loads(_run_cli(single + ["-f", "json"], tool="bleuscope"))
    for key in ("score", "confidence_mean", "confidence_var", "confidence", "verbose_score", "nrefs", "bs", "seed"):
        assert o[key] == t[key], key


# ---------------------------------------------------------------------------------------------------------
# float32 parity: sacreBLEU's arithmetic on resamples, reproduced bit for bit
# ---------------------------------------------------------------------------------------------------------
# small counts, and counts whose 100 * c is no longer a float32 integer (the multiplication rounds too)
_COUNTS = st.one_of(st.integers(0, 3000), st.integers(0, 2**24))
_SMOOTHING = [("exp", None), ("floor", None), ("floor", 0.3), ("add-k", None), ("add-k", 2), ("none", None)]


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(
        st.tuples(st.integers(0, 5000), st.integers(0, 5000), st.lists(_COUNTS, min_size=4, max_size=4),
                  st.lists(_COUNTS, min_size=4, max_size=4)),
        min_size=1, max_size=8),
    smoothing=st.sampled_from(_SMOOTHING),
    effective=st.booleans(),
)
def test_float32_scoring_equals_sacrebleu_compute(rows, smoothing, effective):
    method, value = smoothing
    stats = np.array([[h, r, *c, *t] for h, r, c, t in rows], dtype=np.float32)
    ours = BLEU(smooth_method=method, smooth_value=value, effective_order=effective)
    theirs = sacrebleu.BLEU(smooth_method=method, smooth_value=value, effective_order=effective)
    got = ours.sacrebleu.score_rows(stats)
    want = [theirs._compute_score_from_stats(row.copy()).score for row in stats]
    assert got.tolist() == want


def test_float32_accumulation_emulates_numpy_sum():
    rng = np.random.default_rng(3)
    x = rng.integers(0, 60_000, size=(700, 10)).astype(np.float32)  # sums far above 2**24: inexact
    idx = rng.choice(len(x), size=(5, len(x)))
    want = np.stack([x[i].sum(0) for i in idx])  # what sacreBLEU computes per resample
    assert (resampling.float32_sums(idx, x) == want).all()
    assert want.max() > resampling.FLOAT32_EXACT


@requires_wmt
def test_bootstrap_parity_beyond_float32_exact_range(ende):
    """Statistics scaled so that resample sums exceed 2**24: float32 rounding is emulated, not skipped."""
    _, _, stats = ende
    big = stats["Online-W"].stats * 4000
    theirs = sorted(s.score for s in _bootstrap_resample(big.tolist(), sacrebleu.BLEU(), 40)[1])
    ours = resampling.bootstrap_scores((big,), BLEU(), 40, 12345, "sacrebleu")[0]
    exact = resampling.bootstrap_scores((big,), BLEU(), 40, 12345, "exact")[0]
    assert sorted(ours.tolist()) == theirs
    assert not np.array_equal(ours, exact)  # the float32 effects are real here
    np.testing.assert_allclose(ours, exact, rtol=1e-5)


@requires_wmt
def test_exact_precision_is_true_bleu_of_resamples(ende):
    _, _, stats = ende
    x = stats["Online-A"].stats
    ours = resampling.bootstrap_scores((x,), BLEU(), 20, 5, "exact")[0]
    idx = np.random.default_rng(5).choice(len(x), size=(20, len(x)))
    want = [BLEU().score_from_statistics(x[i]).score for i in idx]
    assert ours.tolist() == want


@requires_wmt
def test_blocked_draws_equal_one_draw(ende, monkeypatch):
    """Memory-bounded row blocks (AR masks in multiples of 32 rows) keep sacreBLEU's random stream."""
    _, _, stats = ende
    systems = {k: stats[k] for k in CLOSE[:3]}
    ref_bs = paired_bootstrap(systems, metric=BLEU(), n_samples=300)
    ref_ar = paired_ar(systems, metric=BLEU(), n_samples=400, confidence_n=100)
    monkeypatch.setattr(resampling, "BLOCK_ELEMENTS", 40 * len(stats["Online-B"]))  # 40-row blocks (AR: 32)
    assert resampling.block_rows(len(stats["Online-B"])) == 40
    assert paired_bootstrap(systems, metric=BLEU(), n_samples=300) == ref_bs
    assert paired_ar(systems, metric=BLEU(), n_samples=400, confidence_n=100) == ref_ar


# ---------------------------------------------------------------------------------------------------------
# statistical sanity
# ---------------------------------------------------------------------------------------------------------
@requires_wmt
@pytest.mark.parametrize("test", ["bs", "ar"])
def test_system_against_itself(ende, test):
    _, _, stats = ende
    x = stats["Online-A"]
    run = paired_bootstrap if test == "bs" else paired_ar
    res = run({"a": x, "copy": x.stats.copy()}, metric=BLEU(), n_samples=300, strict=False)
    other = res["copy"]
    assert other.p_value == 1.0 and other.delta == 0.0 and other.score == res["a"].score
    assert other.ties == 300
    if test == "bs":
        assert (other.mean, other.ci) == (res["a"].mean, res["a"].ci)
    strict = run({"a": x, "copy": x.stats.copy()}, metric=BLEU(), n_samples=300)  # sacreBLEU's rule, the default
    assert strict["copy"].p_value == 1 / 301


@requires_wmt
def test_strict_rule_reproduces_sacrebleu_on_identical_systems(ende):
    hyps, refs, _ = ende
    same = {"base": hyps["Online-G"][:600], "copy": list(hyps["Online-G"][:600])}
    refs = [r[:600] for r in refs]
    _, theirs = _sacre_paired(same, refs, "bs", 200)
    ours = paired_bootstrap(same, refs, n_samples=200)
    _assert_same(ours, theirs, with_ci=True)
    assert theirs[1].p_value == 1 / 201  # sacreBLEU calls an identical copy "significant"
    assert paired_bootstrap(same, refs, n_samples=200, strict=False)["copy"].p_value == 1.0


@requires_wmt
def test_bootstrap_ci_coverage_near_nominal(ende):
    """Percentile-interval coverage of the true corpus BLEU over repeated samples from a finite population."""
    bleu = BLEU()
    population = np.concatenate([s.stats for s in ende[2].values()])
    truth = bleu.score_from_statistics(population).score
    rng = np.random.default_rng(2024)
    reps, covered = 150, 0
    for r in range(reps):
        sample = population[rng.choice(len(population), size=400, replace=False)]
        ci = confidence_interval(sample, metric=bleu, n_samples=200, seed=r, precision="exact")
        covered += ci.lower <= truth <= ci.upper
    # nominal 1 - 2*5/200 = 0.95; binomial sd over 150 replications ~0.018
    assert 0.88 <= covered / reps <= 0.99


class _Ratio(Metric):
    """A plug-in metric known by its statistics only: 100 * (sum of column 0) / (sum of column 1)."""

    name = "ratio"
    stats_width = 2

    def count_checked(self, hyps, streams, present=None):
        raise NotImplementedError("statistics are counted elsewhere")

    def score_rows(self, rows, *, float32=False):
        rows = np.atleast_2d(rows).astype(np.float64)
        return 100.0 * rows[:, 0] / rows[:, 1]

    def score_from_statistics(self, stats, nrefs=None):
        return float(self.score_rows(np.asarray(stats).sum(axis=0))[0])

    def signature_fields(self, nrefs=None):
        return {"nrefs": str(nrefs)}


def test_ci_coverage_plug_in_metric():
    """A plug-in metric (a ratio of sums) through the Metric contract alone: coverage near 95%."""
    ratio = _Ratio()
    rng = np.random.default_rng(7)
    covered, reps = 0, 200
    for r in range(reps):
        den = rng.integers(5, 40, size=300)
        num = rng.binomial(den, 0.3)
        ci = confidence_interval(np.stack([num, den], axis=1), metric=ratio, n_samples=200, seed=r)
        assert ci.metric == "ratio" and ci.signature == f"bs:200|seed:{r}"
        covered += ci.lower <= 30.0 <= ci.upper
    assert 0.90 <= covered / reps <= 0.99


@requires_wmt
@pytest.mark.parametrize("test,n", [("bs", 300), ("ar", 300)])
def test_all_pairs_consistent_with_pairwise(ende, test, n):
    _, _, stats = ende
    res = all_pairs(stats, metric=BLEU(), test=test, n_samples=n)
    assert res == all_pairs(stats, metric=BLEU(), test=test, n_samples=n)  # deterministic for a seed
    assert res != all_pairs(stats, metric=BLEU(), test=test, n_samples=n, seed=1)
    with pytest.raises(ValueError):
        res.p_values[0, 1] = 0.5  # read-only
    names = list(stats)
    assert res.systems == tuple(names)
    assert np.array_equal(res.p_values, res.p_values.T) and (np.diag(res.p_values) == 1).all()
    run = paired_bootstrap if test == "bs" else paired_ar
    for i, a in enumerate(names):
        pairwise = run(stats, metric=BLEU(), baseline=a, n_samples=n)
        for b in names:
            if b != a:
                assert res.p_value(a, b) == pairwise[b].p_value, (a, b)
        if test == "bs":
            assert (res.means[i], res.cis[i]) == (pairwise[a].mean, pairwise[a].ci)
    _check_clusters(res)


def _check_clusters(res: sg.AllPairsResult):
    order = list(res.order)
    scores = np.array(res.scores)
    assert [res.systems[i] for i in order] == [s for c in res.clusters for s in c]
    assert all(scores[order[k]] >= scores[order[k + 1]] for k in range(len(order) - 1))
    sig = res.p_values < res.alpha
    pos = 0
    for c in res.clusters[:-1]:  # every system above a line significantly beats every system below it
        pos += len(c)
        assert all(sig[i, j] and scores[i] > scores[j] for i in order[:pos] for j in order[pos:])
    for c_idx, c in enumerate(res.clusters):  # and no finer split would satisfy that
        members = [res.systems.index(s) for s in c]
        for cut in range(1, len(members)):
            above = order[: order.index(members[cut])]
            below = order[order.index(members[cut]):]
            assert not all(sig[i, j] and scores[i] > scores[j] for i in above for j in below)
    for i, (lo, hi) in enumerate(res.rank_ranges):
        assert 1 <= lo <= order.index(i) + 1 <= hi <= len(order)


@settings(max_examples=25, deadline=None)
@given(
    k=st.integers(2, 4),
    n_seg=st.integers(3, 25),
    data=st.data(),
)
def test_all_pairs_properties_random_statistics(k, n_seg, data):
    """Random per-segment BLEU statistics: symmetry, equality with pairwise tests, valid clusters."""
    systems = {}
    for s in range(k):
        rows = []
        for _ in range(n_seg):
            hyp = data.draw(st.integers(0, 12))
            totals = [max(0, hyp - n) for n in range(4)]
            correct = [data.draw(st.integers(0, t)) for t in totals]
            rows.append([hyp, data.draw(st.integers(1, 12)), *correct, *totals])
        systems[f"s{s}"] = np.array(rows, dtype=np.int64)
    test = data.draw(st.sampled_from(["bs", "ar"]))
    res = all_pairs(systems, metric=BLEU(), test=test, n_samples=64, seed=data.draw(st.integers(0, 99)))
    p = res.p_values
    assert np.array_equal(p, p.T) and ((p >= 1 / 65) & (p <= 1)).all()
    run = paired_bootstrap if test == "bs" else paired_ar
    base = run(systems, metric=BLEU(), n_samples=64, seed=res.seed)
    for name in list(systems)[1:]:
        assert base[name].p_value == res.p_value("s0", name)
    _check_clusters(res)


@requires_wmt
@pytest.mark.parametrize("testset,pair,tok,order,smooth", [("newstest2021", "en-de", "13a", 4, "exp"),
                                                           ("generaltest2022", "en-zh", "zh", 5, "floor"),
                                                           ("generaltest2022", "de-en", "13a", 4, "chen-cherry-5")])
def test_system_statistics_equals_segment_statistics(testset, pair, tok, order, smooth):
    hyps, refs = _load(testset, pair, systems=None)
    hyps = {k: v[:400] for k, v in list(hyps.items())[:3]}
    refs = [r[:400] for r in refs]
    refs[-1][7] = None  # a missing reference: nrefs varies
    bleu = BLEU(tokenize=tok, max_ngram_order=order, smooth_method=smooth)  # chen-cherry-5 counts N+1-grams
    shared = sg.system_statistics(bleu, list(hyps.values()), refs)
    for seg, h in zip(shared, hyps.values()):
        alone = bleu.segment_statistics(h, refs)
        assert np.array_equal(seg.stats, alone.stats) and np.array_equal(seg.nrefs, alone.nrefs)
    # every smoothing method works end to end (methods without a sacreBLEU counterpart are scored exactly)
    res = paired_bootstrap(hyps, refs, metric=bleu, n_samples=50)
    assert [s.score for s in res] == [bleu.corpus_score(h, refs).score for h in hyps.values()]
    assert res.systems[1].p_value == paired_bootstrap(dict(zip(hyps, shared)), metric=bleu, n_samples=50).systems[1].p_value
    with pytest.raises(ValueError, match=r"systems\[1\] has 399 segments"):
        sg.system_statistics(bleu, [hyps[k][: 400 - i] for i, k in enumerate(hyps)], refs)


@settings(max_examples=30, deadline=None)
@given(
    rows=st.lists(st.tuples(st.integers(0, 30), st.integers(1, 30), st.integers(0, 30), st.integers(0, 30)),
                  min_size=1, max_size=30),
    seed=st.integers(0, 2**63),
    n=st.integers(1, 80),
    test=st.sampled_from(["bs", "ar"]),
)
def test_identical_systems_and_interval_invariants(rows, seed, n, test):
    """Any statistics: an identical copy gives p = 1, delta 0, all ties; intervals are ordered."""
    x = np.array([[h, r, min(c, t), t] for h, r, c, t in rows], dtype=np.int64)
    metric = BLEU(max_ngram_order=1)
    run = paired_bootstrap if test == "bs" else paired_ar
    res = run({"a": x, "b": x.copy()}, metric=metric, n_samples=n, seed=seed, strict=False)
    assert (res["b"].p_value, res["b"].delta, res["b"].ties) == (1.0, 0.0, n)
    assert run({"a": x, "b": x.copy()}, metric=metric, n_samples=n, seed=seed)["b"].p_value == 1 / (n + 1)
    ci = confidence_interval(x, metric=metric, n_samples=n, seed=seed)
    assert ci.lower <= ci.upper and ci.ci == 0.5 * (ci.upper - ci.lower)
    assert ci.score == BLEU(max_ngram_order=1).score_from_statistics(x).score


# ---------------------------------------------------------------------------------------------------------
# seeds, signatures, results
# ---------------------------------------------------------------------------------------------------------
@requires_wmt
def test_seed_none_draws_and_records_a_seed(ende):
    _, _, stats = ende
    two = {k: stats[k] for k in CLOSE[:2]}
    a = paired_bootstrap(two, metric=BLEU(), n_samples=100, seed=None)
    b = paired_bootstrap(two, metric=BLEU(), n_samples=100, seed=None)
    assert a.seed != b.seed and f"seed:{a.seed}" in a.signature
    assert paired_bootstrap(two, metric=BLEU(), n_samples=100, seed=a.seed) == a  # reproducible
    assert confidence_interval(stats["Online-B"], metric=BLEU(), n_samples=50, seed=0).seed == 0
    with pytest.raises(Exception):
        a.seed = 1  # frozen
    text = str(a)
    assert f"p = {a.systems[1].p_value:.4f}" in text and f"μ = {a.systems[0].mean:.2f}" in text and a.signature in text
    assert a.to_json()[0] == {"system": "Online-W", "BLEU": {"score": a.systems[0].score, "p_value": None,
                                                              "mean": a.systems[0].mean, "ci": a.systems[0].ci}}


# ---------------------------------------------------------------------------------------------------------
# strict input
# ---------------------------------------------------------------------------------------------------------
def _tiny():
    """Three systems of 12 valid BLEU rows (the tests check the metric's rules on statistics: matches <= totals)."""
    rng = np.random.default_rng(0)
    out = {}
    for i in range(3):
        hyp = rng.integers(5, 9, size=(12, 1))
        totals = hyp - np.arange(4)
        correct = rng.integers(0, 9, size=(12, 4)) % (totals + 1)
        out[f"s{i}"] = np.concatenate([hyp, rng.integers(1, 9, size=(12, 1)), correct, totals], axis=1)
    return out


@pytest.mark.parametrize("kwargs,exc,match", [
    ({"n_samples": 0}, ValueError, "n_samples"),
    ({"n_samples": True}, TypeError, "n_samples"),
    ({"n_samples": 10.0}, TypeError, "n_samples"),
    ({"seed": -1}, ValueError, "seed"),
    ({"seed": "12345"}, TypeError, "seed"),
    ({"precision": "float32"}, ValueError, "precision"),
    ({"strict": 1}, TypeError, "strict"),
    ({"baseline": "nope"}, ValueError, "baseline"),
    ({"metric": 3}, TypeError, "metric"),
])
def test_bad_arguments(kwargs, exc, match):
    with pytest.raises(exc, match=match):
        paired_bootstrap(_tiny(), **{"metric": BLEU(), **kwargs})


def test_bad_systems():
    t = _tiny()
    with pytest.raises(ValueError, match="needs a baseline and at least one"):
        paired_ar({"s0": t["s0"]}, metric=BLEU())
    with pytest.raises(ValueError, match="different shapes"):
        paired_bootstrap({"a": t["s0"], "b": t["s1"][:5]}, metric=BLEU())
    with pytest.raises(TypeError, match="integer statistics"):
        paired_bootstrap({"a": t["s0"], "b": t["s1"].astype(float)}, metric=BLEU())
    with pytest.raises(ValueError, match="negative"):
        paired_bootstrap({"a": t["s0"], "b": -t["s1"]}, metric=BLEU())
    with pytest.raises(ValueError, match="references are only used"):
        paired_bootstrap(t, [["x"] * 12], metric=BLEU())
    with pytest.raises(ValueError, match="references are required"):
        paired_bootstrap({"a": ["x y"], "b": ["x"]})
    with pytest.raises(TypeError, match="either hypothesis texts"):
        paired_bootstrap({"a": ["x y"] * 12, "b": t["s1"]}, [["x"] * 12])
    with pytest.raises(TypeError, match=r"systems\[1\]"):
        paired_bootstrap([("a", t["s0"]), t["s1"]], metric=BLEU())
    with pytest.raises(ValueError, match="used twice"):
        paired_bootstrap([("a", t["s0"]), ("a", t["s1"])], metric=BLEU())
    with pytest.raises(TypeError, match="mapping"):
        paired_bootstrap(t["s0"], metric=BLEU())
    with pytest.raises(ValueError, match="columns"):
        paired_bootstrap({"a": t["s0"][:, :6], "b": t["s1"][:, :6]}, metric=BLEU())
    with pytest.raises(ValueError, match="hypotheses\\[0\\] has|references\\[0\\] has"):
        paired_bootstrap({"a": ["x"] * 3, "b": ["y"] * 3}, [["x"] * 2])
    with pytest.raises(ValueError, match="system 'b' has 2 segments but system 'a' has 3"):
        paired_bootstrap({"a": ["x"] * 3, "b": ["y"] * 2}, [["x"] * 3])
    with pytest.raises(TypeError, match=r"system 'b'\[1\] must be a string"):
        paired_bootstrap({"a": ["x"] * 2, "b": ["y", 3]}, [["x"] * 2])
    with pytest.raises(ValueError, match="alpha"):
        all_pairs(t, metric=BLEU(), alpha=1.5)
    with pytest.raises(ValueError, match="test must be"):
        all_pairs(t, metric=BLEU(), test="t")
    with pytest.raises(TypeError, match="metric must be a bleuscope metric"):
        confidence_interval(t["s0"], metric=lambda s: s.sum())
    with pytest.raises(TypeError, match="metric must be a bleuscope metric"):
        confidence_interval(t["s0"], metric=BLEU().config)


# ---------------------------------------------------------------------------------------------------------
# command line (through the bleuscope command's hook)
# ---------------------------------------------------------------------------------------------------------
@requires_wmt
@pytest.mark.parametrize("flags,message", [
    (["-cin", "10"], "--confidence-n needs --confidence"),
    (["--paired-ar", "-pbsn", "10"], "--paired-bs-n needs --paired-bs"),
    (["--paired-bs", "-parn", "10"], "--paired-ar-n needs --paired-ar"),
    (["--seed", "3"], "--seed needs"),
    (["--paired-bs", "-ci", "-cin", "20"], "--paired-bs-n, not --confidence-n"),
    (["--paired-alpha", "0.1"], "--paired-alpha needs --paired-all"),
    (["-ci", "--paired-jobs", "2"], "--paired-jobs goes with"),
    (["--paired-ar", "--paired-all", "-ci"], "does not report confidence intervals"),
])
def test_cli_usage_errors(flags, message, capsys):
    from bleuscope import cli

    base = pair_dir(*ENDE)
    argv = [str(base / "ref.A.txt"), "-i", str(base / "sys/Online-B.txt"), str(base / "sys/Online-A.txt"), *flags]
    code = cli.main(argv)
    assert code == 2
    assert message in capsys.readouterr().err


@requires_wmt
def test_cli_single_system_paired_is_usage_error(capsys):
    from bleuscope import cli

    base = pair_dir(*ENDE)
    assert cli.main([str(base / "ref.A.txt"), "-i", str(base / "sys/Online-B.txt"), "--paired-bs"]) == 2
    assert "several hypothesis files" in capsys.readouterr().err


@requires_wmt
def test_cli_paired_all_formats(ende, capsys):
    from bleuscope import cli

    base = pair_dir(*ENDE)
    files = [str(base / f"sys/{s}.txt") for s in CLOSE[:3]]
    res = all_pairs({f: v for f, v in zip(files, ende[2].values())}, metric=BLEU(), n_samples=200)
    best, second = res.systems[res.order[0]], res.systems[res.order[1]]
    for fmt in ["json", "jsonl", "tsv", "text", "latex"]:
        assert cli.main([str(base / "ref.A.txt"), "-i", *files, "--paired-all", "-pbsn", "200", "-f", fmt,
                         "-w", "2", "-q"]) == 0
        text = capsys.readouterr().out
        if fmt == "json":
            rows = json.loads(text)
            assert [r["system"] for r in rows] == [res.systems[i] for i in res.order]
            assert rows[0]["BLEU"]["score"] == res.scores[res.order[0]]
            assert rows[1]["BLEU"]["p_values"][best] == res.p_value(second, best)
            assert rows[0]["BLEU"]["cluster"] == 1
        elif fmt == "jsonl":
            assert [json.loads(line)["system"] for line in text.splitlines()] == [res.systems[i] for i in res.order]
        else:
            assert best in text and f"{res.scores[res.order[0]]:.2f}" in text, fmt
            assert f"{res.p_value(best, second):.4f}" in text, fmt
            assert "bs:200|seed:12345" in text, fmt


@requires_wmt
def test_cli_seed_none_prints_the_drawn_seed(capsys):
    from bleuscope import cli

    base = pair_dir(*ENDE)
    argv = [str(base / "ref.A.txt"), "-i", str(base / "sys/Online-B.txt"), "-ci", "-cin", "50", "--seed", "none",
            "-f", "json"]
    assert cli.main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    seed = int(out["seed"])
    again = confidence_interval(read_lines(base / "sys/Online-B.txt"), [read_lines(base / "ref.A.txt")],
                                n_samples=50, seed=seed)
    assert out["confidence_mean_unrounded"] == again.mean


# ---------------------------------------------------------------------------------------------------------
# full sweep: every pair, baseline + all systems, sacreBLEU's default counts
# ---------------------------------------------------------------------------------------------------------
def _pairs_with_systems():
    if not DATA.exists():
        return []
    return [p for p in data_pairs() if (pair_dir(*p) / "sys").exists()]


@pytest.mark.full
@requires_wmt
@pytest.mark.parametrize("testset,pair", _pairs_with_systems())
def test_full_sweep_equals_sacrebleu(testset, pair):
    hyps, refs = _load(testset, pair)
    tok = TOKENIZE.get(pair.split("-")[1], "13a")
    bleu = BLEU(tokenize=tok)
    stats = {k: bleu.segment_statistics(h, refs) for k, h in hyps.items()}
    _, theirs = _sacre_paired(hyps, refs, "bs", 1000, tokenize=tok)
    _assert_same(paired_bootstrap(stats, metric=bleu), theirs, with_ci=True)
    _, theirs = _sacre_paired(hyps, refs, "ar", 10000, tokenize=tok)
    _assert_same(paired_ar(stats, metric=bleu), theirs, with_ci=False)
    name, first = next(iter(hyps.items()))
    t = sacrebleu.BLEU(tokenize=tok).corpus_score(first, refs, n_bootstrap=1000)
    ours = confidence_interval(stats[name], metric=bleu)
    assert (ours.score, ours.mean, ours.ci) == (t.score, t._mean, t._ci)


@pytest.mark.full
@requires_wmt
@pytest.mark.parametrize("testset,pair", [("generaltest2022", "de-en"), ("generaltest2022", "en-zh"),
                                          ("newstest2021", "en-ru"), ("generaltest2022", "cs-en")])
def test_full_cli_equals_sacrebleu(testset, pair):
    base = pair_dir(testset, pair)
    systems = sorted(p.name for p in (base / "sys").glob("*.txt"))[:4]
    refs = sorted(p.name for p in base.glob("ref.*.txt"))
    tok = ["-tok", TOKENIZE.get(pair.split("-")[1], "13a")]
    files = refs + ["-i"] + [f"sys/{s}" for s in systems] + tok + ["-f", "json", "-q"]
    for flags in (["--paired-bs"], ["--paired-ar"]):
        theirs = json.loads(_run_cli(files + flags, tool="sacrebleu", where=(testset, pair)))
        ours = json.loads(_run_cli(files + flags, tool="bleuscope", where=(testset, pair)))
        assert [r["system"] for r in ours] == [r["system"] for r in theirs]
        for mine, their in zip(ours, theirs):
            for key in ("score", "p_value", "mean", "ci"):
                assert mine["BLEU"][key] == their["BLEU"][key], (flags, mine["system"], key)
    single = refs + ["-i", f"sys/{systems[-1]}", "-ci", "-w", "4", "-f", "json", "-q"] + tok
    t = json.loads(_run_cli(single, tool="sacrebleu", where=(testset, pair)))
    o = json.loads(_run_cli(single, tool="bleuscope", where=(testset, pair)))
    for key in ("score", "confidence_mean", "confidence_var", "confidence", "verbose_score", "bs", "seed"):
        assert o[key] == t[key], key


# ---------------------------------------------------------------------------------------------------------
# several systems against shared references on the compiled core (BLEUCounter.systems, used by
# system_statistics): the rows of separate per-system counts, the numpy engine's too
# ---------------------------------------------------------------------------------------------------------
WORDS = ["The", "cat", "sat", ".", "on", "é", "Straße", "日本語", "a,b", "(x)", "1.5", "-", "ǅ"]

line = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)


@requires_core
@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(line, min_size=n, max_size=n), min_size=1, max_size=4),
            st.lists(st.lists(line | st.none(), min_size=n, max_size=n), min_size=1, max_size=3),
        )
    ),
    st.sampled_from(["13a", "intl", "none", "char", "zh"]),
    st.booleans(),
)
def test_systems_count_like_separate_calls(data, tokenize, lowercase):
    systems, refs = data
    tok = get_tokenizer(tokenize)
    counter = bleu_counting.BLEUCounter(tokenize, tok, lowercase=lowercase, order=4)
    if counter.compiled is None:
        return
    rows = np.concatenate(counter.systems(systems, refs, None))
    n_seg = len(systems[0])
    for k, hyps in enumerate(systems):
        numpy_rows = bleu_counting.count_text(hyps, refs, tokenizer=tok, lowercase=lowercase, order=4, engine="numpy")
        np.testing.assert_array_equal(rows[k * n_seg : (k + 1) * n_seg], numpy_rows)


@requires_core
def test_system_statistics_on_the_core_equals_the_numpy_engine():
    systems = [["The cat sat on the mat .", "a b c", ""], ["The cat is here .", "a b", "x"], ["c", "", "z y"]]
    refs = [["The cat sat on a mat .", "a b c d", "x y z"], ["A cat .", None, "z"]]
    native = system_statistics(BLEU(), systems, refs)
    reference = system_statistics(BLEU(engine="numpy"), systems, refs)
    for a, b in zip(native, reference):
        np.testing.assert_array_equal(a.stats, b.stats)
        np.testing.assert_array_equal(a.nrefs, b.nrefs)


@requires_core
def test_lines_for_the_python_tokenizer_fall_back():
    tok = get_tokenizer("13a")
    counter = bleu_counting.BLEUCounter("13a", tok, lowercase=False, order=4)
    numpy_rows = bleu_counting.count_text(["a \ud800 b"], [["a b"]], tokenizer=tok, lowercase=False, order=4, engine="numpy")
    assert counter.systems([["a \ud800 b"], ["a b"]], [["a b"]], None)[0].tolist() == numpy_rows.tolist()
    stats = system_statistics(BLEU(), [["a \ud800 b"], ["a b"]], [["a b"]])
    assert stats[1].stats[0, :4].tolist() == [2, 2, 2, 1]


def test_system_statistics_applies_the_metrics_own_input_checks():
    """The systems go through the metric's own checks: TER's reference limit, and METEOR's token lists."""
    with pytest.raises(ValueError, match="TER's exact statistics support up to 16"):
        system_statistics(TER(), [["a"], ["b"]], [["x"]] * 17, names=["s", "t"])
    meteor = METEOR()
    tokens = [[["the", "cat"]], [["a", "cat"]]]
    rows = system_statistics(meteor, tokens, [[["the", "cat"]]])
    for system, seg in zip(tokens, rows):
        np.testing.assert_array_equal(seg.stats, meteor.segment_statistics(system, [[["the", "cat"]]]).stats)
