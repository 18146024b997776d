"""The report with ``--scores NAME=FILE``: the file's score is a metric column like chrF's (corpus score =
exact mean, sentence scores = the file's values, bootstrap intervals and clusters from its rows)."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from bleuscope import cli
from bleuscope.analysis.significance import confidence_interval
from bleuscope.cli.main import main
from bleuscope.core.files import read_lines
from bleuscope.metrics.scores import Scores
from bleuscope.report import report_data

FILES = ("ref.A.txt", "hyp.Online-B.txt", "hyp.OpenNMT.txt")


@pytest.fixture()
def example(tmp_path, monkeypatch):
    for f in FILES:
        shutil.copy(f"{cli.example_dir()}/{f}", tmp_path / f)
    monkeypatch.chdir(tmp_path)
    texts = {f[:-4]: list(read_lines(f)) for f in FILES[1:]}
    rng = np.random.default_rng(9)
    values = {s: -np.round(rng.exponential(2, len(h)) * (rng.random(len(h)) < 0.5), 1) for s, h in texts.items()}
    rows = ["system\tline\tscore"] + [f"{s}\t{i + 1}\t{v}" for s, vs in values.items() for i, v in enumerate(vs)]
    (tmp_path / "mqm.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    return texts, values


def test_scores_metric_is_a_report_column(example):
    texts, values = example
    refs = [list(read_lines("ref.A.txt"))]
    sc = Scores.from_files("mqm", ["mqm.tsv"], texts)
    data = report_data(list(texts.items()), refs, metrics=[sc], n_bootstrap=200, seed=3)
    summary = next(m for m in data.metrics if m.name == "mqm")
    assert summary.scores == tuple(sc.system_score(s) for s in texts)
    np.testing.assert_array_equal(summary.sentence_scores, np.array([values[s] for s in texts]))
    for k, s in enumerate(texts):
        ci = confidence_interval(sc.statistics(s), metric=sc, n_samples=200, seed=3)
        assert (summary.intervals[k].lower, summary.intervals[k].upper) == pytest.approx((ci.lower, ci.upper), abs=1e-12)
    assert summary.clusters is not None and sorted(i for c in summary.clusters for i in c) == [0, 1]


def test_report_command_takes_scores(example, capsys):
    assert main(["report", "ref.A.txt", "-i", *FILES[1:], "-m", "bleu", "chrf", "--scores", "mqm=mqm.tsv",
                 "-o", "r.html", "-q", "--n-bootstrap", "100"]) == 0
    page = open("r.html", encoding="utf-8").read()
    assert "mqm 95% CI" in page and "mqm cluster" in page
    (open("bad.tsv", "w")).write("system\tline\tscore\nhyp.Online-B\t1\t1\n")
    assert main(["report", "ref.A.txt", "-i", *FILES[1:], "--scores", "x=bad.tsv", "-o", "s.html", "-q"]) == 1
    assert "bad.tsv: system 'hyp.Online-B' has no score for segment 2" in capsys.readouterr().err
    json.dumps(None)
