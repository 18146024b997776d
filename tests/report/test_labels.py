"""``--labels FILE``: every metric's scores per segment label, with intervals (compare-mt's
``bucket_type=label``): each cell is the metric's corpus score of that label's segments, recomputed here."""

from __future__ import annotations

import csv
import io

import pytest

from bleuscope import BLEU
from bleuscope.metrics.chrf import CHRF
from bleuscope.report import report_data
from bleuscope.report.cli import main as report_main
from bleuscope.report.tables import all_tables

from .conftest import EXAMPLE


def _labels(n: int) -> list[str]:
    return ["news" if i % 3 == 0 else "social" if i % 3 == 1 else "chat & <talk>" for i in range(n - 4)] + ["rare"] * 4


def test_label_buckets_are_corpus_scores_of_their_segments(example):
    systems, refs = example
    labels = _labels(len(refs[0]))
    data = report_data(systems, refs, metrics=[CHRF()], labels=labels, n_bootstrap=100)
    assert [t.metric for t in data.label_buckets] == ["BLEU", "chrF2"]
    for table, metric in zip(data.label_buckets, (BLEU(), CHRF())):
        assert table.labels == ("news", "social", "chat & <talk>", "rare")
        for g, label in enumerate(table.labels):
            idx = [i for i, x in enumerate(labels) if x == label]
            for k, hyps in enumerate(systems.values()):
                expected = metric.corpus_score([hyps[i] for i in idx], [[r[i] for i in idx] for r in refs]).score
                assert table.counts[k][g] == len(idx)
                assert table.scores[k][g] == pytest.approx(expected, abs=1e-9)
                if len(idx) < table.min_segments:  # "rare": 4 segments, no interval
                    assert table.lower[k][g] is None
                else:
                    assert table.lower[k][g] <= table.scores[k][g] + 1e-9 <= table.upper[k][g] + 2e-9
    names = {t.name for t in all_tables(data)}
    assert {"label-BLEU", "label-chrF2"} <= names
    rows = list(csv.DictReader(io.StringIO(next(t for t in all_tables(data) if t.name == "label-BLEU").csv())))
    assert {r["label"] for r in rows} == set(labels) and len(rows) == 4 * len(systems)
    with pytest.raises(ValueError, match="labels has 3 lines but the systems have 300 segments"):
        report_data(systems, refs, labels=["a", "b", "c"], n_bootstrap=10)


def test_labels_option(tmp_path, capsys):
    refs = (EXAMPLE / "ref.A.txt").read_text(encoding="utf-8")
    n = refs.count("\n")
    (tmp_path / "labels.txt").write_text("\n".join(_labels(n)) + "\n", encoding="utf-8")
    (tmp_path / "short.txt").write_text("a\nb\n", encoding="utf-8")
    out = tmp_path / "r.html"
    args = [str(EXAMPLE / "ref.A.txt"), "-i", str(EXAMPLE / "hyp.Online-B.txt"), str(EXAMPLE / "hyp.OpenNMT.txt"),
            "-o", str(out), "-q", "--n-bootstrap", "20", "--max-segments", "5", "-m", "chrf", "--labels"]
    assert report_main([*args, str(tmp_path / "labels.txt")]) == 0, capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    assert '<section id="labels">' in page and 'href="#labels"' in page and "chat &amp; &lt;talk&gt;" in page
    assert report_main([*args, str(tmp_path / "short.txt")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.startswith("bleuscope report: error: line counts differ: label ") and "has 2 lines" in err
