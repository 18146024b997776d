"""comet-compare's procedure (COMET comet/cli/compare.py) written out here in numpy, step by step, against
bleuscope.analysis.comet_compare and ``bleuscope comet-compare``."""

from __future__ import annotations

import itertools
import json

import numpy as np
import pytest

from bleuscope.analysis.comet_compare import comet_compare, format_report
from bleuscope.cli.main import main

scipy_stats = pytest.importorskip("scipy.stats")


def written_out(seg_scores: dict, num_splits=300, ratio=0.4):
    np.random.seed(1)  # seed_everything(1)
    seg = np.array(list(seg_scores.values()), dtype="float32")
    n = seg.shape[1]
    ids = np.random.choice(n, size=(max(int(n * ratio), 1), num_splits), replace=True)
    sys_scores = np.zeros((seg.shape[0], num_splits), dtype="float32")
    for s in range(seg.shape[0]):
        sub = np.zeros((ids.shape[0], num_splits), dtype="float32")
        for a in range(ids.shape[0]):
            sub[a] = seg[s][ids[a]]
        acc = np.zeros(num_splits, dtype="float32")
        for a in range(ids.shape[0]):  # a reduction over the middle axis: row by row in float32
            acc = acc + sub[a]
        sys_scores[s] = acc / np.float32(ids.shape[0])
    out = []
    for (i, x), (j, y) in itertools.combinations(enumerate(seg_scores), 2):
        d = sys_scores[i] - sys_scores[j]
        t = scipy_stats.ttest_rel(seg[i], seg[j])
        out.append((x, y, float(np.mean(sys_scores[i])), float(np.mean(sys_scores[j])),
                    float((np.abs(d) < 0.001).sum()) / num_splits, float((d >= 0.001).sum()) / num_splits,
                    float((d <= -0.001).sum()) / num_splits, float(t.statistic), float(t.pvalue)))
    return out


def test_comet_compare_equals_the_written_out_procedure(tmp_path, capsys):
    rng = np.random.default_rng(4)
    base = rng.normal(0.8, 0.05, 250)
    scores = {"sysA": base + rng.normal(0, 0.01, 250), "sysB": base + 0.004 + rng.normal(0, 0.01, 250),
              "sysC": base - 0.02 + rng.normal(0, 0.02, 250)}
    got = comet_compare(scores)
    want = written_out(scores)
    assert [(r.x_name, r.y_name, r.x_mean, r.y_mean, r.ties, r.x_wins, r.y_wins, r.statistic, r.p_value)
            for r in got] == want
    report = format_report(got, list(scores))
    assert "x_name: sysA\ny_name: sysB\n\nBootstrap Resampling Results:\nx-mean:\t" in report
    assert f"p_value:\t{want[0][8]:.4f}" in report
    comet_json = {f"hyp/{s}.txt": [{"src": "s", "mt": "m", "ref": "r", "COMET": float(v)} for v in vs]
                  for s, vs in scores.items()}
    path = tmp_path / "comet.json"
    path.write_text(json.dumps(comet_json), encoding="utf-8")
    assert main(["comet-compare", str(path)]) == 0
    assert capsys.readouterr().out == report
