"""``bleuscope ... --scores NAME=FILE``: a file's segment scores as one more column of the corpus table and of
--confidence / --paired-bs / --paired-ar, with the numbers of the library's tests on the same statistics."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from bleuscope import cli
from bleuscope.analysis.significance import confidence_interval, paired_ar, paired_bootstrap
from bleuscope.cli.main import main
from bleuscope.metrics.scores import Scores


@pytest.fixture()
def example(tmp_path, monkeypatch):
    for f in ("ref.A.txt", "hyp.Online-B.txt", "hyp.OpenNMT.txt"):
        shutil.copy(f"{cli.example_dir()}/{f}", tmp_path / f)
    monkeypatch.chdir(tmp_path)
    n = sum(1 for _ in open(tmp_path / "ref.A.txt", encoding="utf-8"))
    rng = np.random.default_rng(5)
    values = {"hyp.Online-B": rng.normal(0.85, 0.05, n), "hyp.OpenNMT": rng.normal(0.84, 0.05, n)}
    (tmp_path / "comet.json").write_text(json.dumps(
        {f"{s}.txt": [{"src": "", "mt": "", "ref": "", "COMET": float(v)} for v in vs] for s, vs in values.items()}))
    return values


def run(capsys, *argv):
    code = main(["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "--scores", "comet=comet.json",
                 "-f", "json", *argv])
    captured = capsys.readouterr()
    return code, captured


def test_corpus_and_significance_columns(example, capsys):
    sc = Scores("comet", example)
    stats = {s: sc.statistics(s) for s in example}
    assert main(["ref.A.txt", "-i", "hyp.Online-B.txt", "--scores", "comet=comet.json", "-f", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert [r["score_unrounded"] for r in rows if r["name"] == "comet"] == [sc.system_score("hyp.Online-B")]
    code, out = run(capsys, "--paired-bs")
    assert code == 0
    got = json.loads(out.out)
    want = paired_bootstrap({"hyp.Online-B.txt": stats["hyp.Online-B"], "hyp.OpenNMT.txt": stats["hyp.OpenNMT"]},
                            metric=sc)
    assert got[1]["comet"]["p_value"] == pytest.approx(want["hyp.OpenNMT.txt"].p_value, abs=0)
    assert got[1]["comet"]["mean"] == pytest.approx(want["hyp.OpenNMT.txt"].mean, abs=0)
    code, out = run(capsys, "--paired-ar", "--paired-ar-n", "500")
    assert code == 0
    want = paired_ar({"a": stats["hyp.Online-B"], "b": stats["hyp.OpenNMT"]}, metric=sc, n_samples=500)
    assert json.loads(out.out)[1]["comet"]["p_value"] == want["b"].p_value
    code, out = run(capsys, "--confidence")
    assert code == 0
    ci = confidence_interval(stats["hyp.OpenNMT"], metric=sc)
    assert json.loads(out.out)[1]["comet"]["ci"] == pytest.approx(ci.ci, abs=0)


def test_bad_scores_options(example, capsys, tmp_path):
    (tmp_path / "bad.tsv").write_text("system\tline\tscore\nhyp.Online-B\t1\t0.5\n")
    code = main(["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "--scores", "x=bad.tsv"])
    assert code == 1 and "bad.tsv: system 'hyp.Online-B' has no score for segment 2 (299 of 300" in capsys.readouterr().err
    (tmp_path / "other.tsv").write_text("system\tline\tscore\nOnline-B\t1\t0.5\n")
    code = main(["ref.A.txt", "-i", "hyp.Online-B.txt", "--scores", "x=other.tsv"])
    assert code == 1 and "other.tsv: no scores for system 'hyp.Online-B'" in capsys.readouterr().err
    code = main(["ref.A.txt", "-i", "hyp.Online-B.txt", "--scores", "x=bad.tsv", "-sl"])
    assert code == 2 and "--scores does not go with it" in capsys.readouterr().err
    code = main(["ref.A.txt", "-i", "hyp.Online-B.txt", "--scores", "BLEU=comet.json"])
    assert code == 2 and "already a metric's" in capsys.readouterr().err
