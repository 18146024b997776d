"""p-values by sacreBLEU's rule (only resamples strictly larger than the observed statistic count) by default,
in the API, on the command line and in the report; the conservative rule (ties count too) on request; the
number of ties said whenever there are some.

TER ties often: its statistic is a ratio of small integers. On the bundled example (300 WMT22 en-de
segments, reference A) 12 of sacreBLEU's 10,000 AR trials tie the observed difference."""

from __future__ import annotations

import json
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

import bleuscope
from bleuscope import BLEU, TER
from bleuscope.analysis.significance import TiesWarning, all_pairs, paired_ar, paired_bootstrap

from ..conftest import read_lines, requires_wmt, system_path

sacrebleu = pytest.importorskip("sacrebleu")
from sacrebleu.significance import PairedTest  # noqa: E402

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
AR_TRIALS = 10000


@pytest.fixture(autouse=True)
def _no_sacrebleu_seed(monkeypatch):
    monkeypatch.delenv("SACREBLEU_SEED", raising=False)


def _example():
    systems = {name: read_lines(EXAMPLE / f"hyp.{name}.txt") for name in ("Online-B", "OpenNMT")}
    return systems, [read_lines(EXAMPLE / "ref.A.txt")]


def _sacrebleu_p(systems: dict, refs, metric, test: str, n: int) -> list[float]:
    metric.references = None
    paired = PairedTest(list(systems.items()), {"M": metric}, references=refs, test_type=test, n_samples=n)
    scores = paired()[1]
    (column,) = (key for key in scores if key != "System")
    return [res.p_value for res in scores[column][1:]]


def test_ar_default_equals_sacrebleu_when_trials_tie():
    systems, refs = _example()
    with pytest.warns(TiesWarning, match=r"approximate randomization: 12 of 10000 trials tie the observed "
                                         r"difference between 'Online-B' and 'OpenNMT'; p = 0\.0132"):
        ours = paired_ar(systems, refs, metric=TER(), n_samples=AR_TRIALS)
    theirs = _sacrebleu_p(systems, refs, sacrebleu.metrics.TER(), "ar", AR_TRIALS)
    assert ours["OpenNMT"].ties == 12
    assert [ours["OpenNMT"].p_value] == theirs
    with pytest.warns(TiesWarning, match="the conservative rule"):
        conservative = paired_ar(systems, refs, metric=TER(), n_samples=AR_TRIALS, strict=False)
    assert conservative["OpenNMT"].p_value == pytest.approx(theirs[0] + 12 / (AR_TRIALS + 1), abs=1e-15)


def test_all_pairs_default_equals_sacrebleu_when_trials_tie():
    systems, refs = _example()
    with pytest.warns(TiesWarning, match="12 of 10000 trials"):
        res = all_pairs(systems, refs, metric=TER(), test="ar", n_samples=AR_TRIALS)
    assert [res.p_value("Online-B", "OpenNMT")] == _sacrebleu_p(systems, refs, sacrebleu.metrics.TER(), "ar",
                                                                 AR_TRIALS)


def test_no_ties_no_warning_and_the_rules_agree():
    systems, refs = _example()
    with warnings.catch_warnings():
        warnings.simplefilter("error", TiesWarning)
        strict = paired_bootstrap(systems, refs, metric=BLEU(), n_samples=500)
        conservative = paired_bootstrap(systems, refs, metric=BLEU(), n_samples=500, strict=False)
    assert strict["OpenNMT"].ties == 0
    assert strict["OpenNMT"].p_value == conservative["OpenNMT"].p_value
    assert [strict["OpenNMT"].p_value] == _sacrebleu_p(systems, refs, sacrebleu.metrics.BLEU(), "bs", 500)


def test_identical_copy_is_significant_by_sacrebleus_rule():
    systems, refs = _example()
    same = {"a": systems["Online-B"], "copy": list(systems["Online-B"])}
    with pytest.warns(TiesWarning, match="200 of 200 resamples tie"):
        res = paired_bootstrap(same, refs, n_samples=200)
    assert res["copy"].p_value == 1 / 201 == _sacrebleu_p(same, refs, sacrebleu.metrics.BLEU(), "bs", 200)[0]
    with pytest.warns(TiesWarning):
        assert paired_bootstrap(same, refs, n_samples=200, strict=False)["copy"].p_value == 1.0


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bleuscope", *args], capture_output=True, text=True,
                          cwd=EXAMPLE, timeout=300)


def test_command_line_default_is_sacrebleus_rule_and_says_how_many_ties():
    systems, refs = _example()
    theirs = _sacrebleu_p(systems, refs, sacrebleu.metrics.TER(), "ar", AR_TRIALS)[0]
    base = ["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "-m", "ter", "--paired-ar", "-f", "json"]
    run = _cli(*base)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)[1]["TER"]["p_value"] == theirs
    assert "12 of 10000 trials tie the observed difference" in run.stderr
    conservative = _cli(*base, "--conservative-p")
    assert conservative.returncode == 0, conservative.stderr
    assert json.loads(conservative.stdout)[1]["TER"]["p_value"] == pytest.approx(theirs + 12 / 10001, abs=1e-15)
    quiet = _cli(*base, "-q")
    assert quiet.stderr == ""


def test_conservative_p_needs_a_paired_test():
    run = _cli("ref.A.txt", "-i", "hyp.Online-B.txt", "--conservative-p")
    assert run.returncode == 2
    assert run.stderr.strip().splitlines() == [
        "bleuscope: error: --conservative-p goes with --paired-bs, --paired-ar or --paired-all"
    ]


def test_report_p_values_are_sacrebleus():
    from bleuscope.report.compute import compute_report

    systems, refs = _example()
    same = {"a": systems["Online-B"], "copy": list(systems["Online-B"])}
    with pytest.warns(TiesWarning):
        data = compute_report(same, refs, n_bootstrap=100)
    assert data.bleu_summary.all_pairs.p_value("a", "copy") == 1 / 101


@requires_wmt
@pytest.mark.full  # about a minute: sacreBLEU's TER statistics of 2 x 1002 segments
def test_wmt_ter_ar_with_ties_equals_sacrebleu():
    """newstest2021 en-de, reference A, TER: Online-B vs Online-W tie in 27 of 10,000 trials, near p = 0.05."""
    systems = {n: read_lines(system_path("newstest2021", "en-de", n)) for n in ("Online-B", "Online-W")}
    refs = [read_lines(system_path("newstest2021", "en-de", "ref.A"))]
    with pytest.warns(TiesWarning, match="27 of 10000 trials"):
        ours = paired_ar(systems, refs, metric=TER(), n_samples=AR_TRIALS)
    assert [ours["Online-W"].p_value] == _sacrebleu_p(systems, refs, sacrebleu.metrics.TER(), "ar", AR_TRIALS)
