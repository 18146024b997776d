"""``bleuscope meta-eval`` on the WMT22 zh-en MQM of ../shared/data (a 300-line cut in the default run, the
five human-scored sets with --full): every record against scipy and brute-force pair counts computed here
from the same per-segment scores; bad inputs name the file."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from bleuscope import BLEU, CHRF, TER
from bleuscope.cli.main import main

scipy_stats = pytest.importorskip("scipy.stats")

SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
MT, HUMAN = SHARED / "mt", SHARED / "human" / "derived"
ZHEN = MT / "generaltest2022" / "zh-en"
ZHEN_SYSTEMS = ["AISP-SJTU", "HuaweiTSC", "JDExploreAcademy", "LanguageX", "Online-A", "Online-B", "Online-W", "ref.B"]
pytestmark = pytest.mark.skipif(not ZHEN.exists(), reason="WMT data not present")


def sys_path(d: Path, s: str) -> Path:
    return d / f"{s}.txt" if s.startswith("ref.") else d / "sys" / f"{s}.txt"


def read(p: Path) -> list[str]:
    return p.read_text(encoding="utf-8").split("\n")[:-1]


def human_matrix(path: Path, systems, n, column="score"):
    lines = read(path)
    head = lines[0].split("\t")
    si, li, vi = head.index("system"), head.index("line"), head.index(column)
    out = {s: np.full(n, np.nan) for s in systems}
    for row in lines[1:]:
        f = row.split("\t")
        if f[si] in out and int(f[li]) <= n:
            out[f[si]][int(f[li]) - 1] = float(f[vi])
    return out


def expected_records(systems, texts, refs, human):
    """The statistics by scipy and by counting pairs, on the metrics' own sentence and corpus scores."""
    gold = np.concatenate([human[s] for s in systems])
    gsys = np.array([np.nanmean(human[s]) for s in systems])
    n = len(systems)
    out = {}
    for metric, sentence in ((BLEU(), BLEU(effective_order=True)), (CHRF(), CHRF()), (TER(), TER())):
        sign = 1 if metric.higher_is_better else -1
        seg = np.concatenate([sign * np.asarray(sentence.sentence_scores(texts[s], refs)) for s in systems])
        msys = np.array([sign * metric.corpus_score(texts[s], refs).score for s in systems])
        ok = ~np.isnan(gold)
        out[(metric.name, "seg", "none", "pearson")] = scipy_stats.pearsonr(gold[ok], seg[ok]).statistic
        out[(metric.name, "seg", "none", "kendall_b")] = scipy_stats.kendalltau(gold[ok], seg[ok]).statistic
        items = []
        for g, m in zip(gold.reshape(n, -1).T, seg.reshape(n, -1).T):
            keep = ~np.isnan(g)
            g, m = g[keep], m[keep]
            if g.size > 1 and not (np.all(g == g[0]) or np.all(m == m[0])):
                items.append(scipy_stats.pearsonr(g, m).statistic)
        out[(metric.name, "seg", "item", "pearson")] = np.mean(items)
        accs = []
        for g, m in zip(gold.reshape(n, -1).T, seg.reshape(n, -1).T):
            pairs = [(a, b) for a, b in itertools.combinations(range(n), 2)]
            accs.append(np.mean([np.sign(g[a] - g[b]) == np.sign(m[a] - m[b]) for a, b in pairs]))
        out[(metric.name, "seg", "item", "acc23")] = np.mean(accs)
        out[(metric.name, "sys", "none", "pearson")] = scipy_stats.pearsonr(gsys, msys).statistic
        out[(metric.name, "sys", "none", "spearman")] = scipy_stats.spearmanr(gsys, msys).statistic
        agree = [np.sign(gsys[a] - gsys[b]) == np.sign(msys[a] - msys[b]) for a, b in itertools.combinations(range(n), 2)]
        out[(metric.name, "sys", "none", "pairwise_accuracy")] = np.mean(agree)
    return out


def run_json(capsys, argv):
    assert main(["meta-eval", *argv, "-f", "json"]) == 0
    return json.loads(capsys.readouterr().out)


def check(records, expected):
    seen = 0
    for r in records:
        key = (r["metric"], r["level"], r["grouping"], r["statistic"])
        if key in expected:
            assert r["value"] == pytest.approx(expected[key], rel=1e-12, abs=1e-14), key
            seen += 1
    assert seen == len(expected)


def test_zh_en_mqm_cut_against_scipy_and_pair_counts(tmp_path, capsys):
    n = 300
    texts = {s: read(sys_path(ZHEN, s))[:n] for s in ZHEN_SYSTEMS}
    refs = [read(ZHEN / "ref.A.txt")[:n]]
    for s, lines in texts.items():
        (tmp_path / f"{s}.txt").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (tmp_path / "ref.A.txt").write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    human = human_matrix(HUMAN / "generaltest2022.zh-en.mqm.seg.tsv", ZHEN_SYSTEMS, n)
    rows = ["system\tline\tscore"] + [f"{s}\t{i + 1}\t{v}" for s in ZHEN_SYSTEMS for i, v in enumerate(human[s])]
    (tmp_path / "mqm.tsv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    records = run_json(capsys, [str(tmp_path / "ref.A.txt"), "-i", *(str(tmp_path / f"{s}.txt") for s in ZHEN_SYSTEMS),
                                "--human", str(tmp_path / "mqm.tsv")])
    assert {tuple(sorted(r)) for r in records} == {("grouping", "human", "level", "metric", "statistic", "value")}
    assert {r["statistic"] for r in records} == {"pearson", "spearman", "kendall_b", "kendall_c", "kendall_23",
                                                "acc23", "acc_eq", "pairwise_accuracy", "spa"}
    check(records, expected_records(ZHEN_SYSTEMS, texts, refs, human))
    # the same metric read back from a scores file is the same column
    bleu = np.concatenate([np.asarray(BLEU(effective_order=True).sentence_scores(texts[s], refs))
                           for s in ZHEN_SYSTEMS])
    lines = ["system\tline\tscore"] + [f"{s}\t{i + 1}\t{float(bleu[k * n + i])!r}" for k, s in enumerate(ZHEN_SYSTEMS)
                                       for i in range(n)]
    (tmp_path / "bleu.tsv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    again = run_json(capsys, [str(tmp_path / "ref.A.txt"), "-i", *(str(tmp_path / f"{s}.txt") for s in ZHEN_SYSTEMS),
                              "--human", str(tmp_path / "mqm.tsv"), "--scores", f"sb={tmp_path / 'bleu.tsv'}",
                              "--level", "seg"])
    ours = {(r["grouping"], r["statistic"]): r["value"] for r in records if r["metric"] == "BLEU" and r["level"] == "seg"}
    assert {(r["grouping"], r["statistic"]): r["value"] for r in again} == ours
    # a task table: clusters with ranks
    table = run_json(capsys, [str(tmp_path / "ref.A.txt"), "-i", *(str(tmp_path / f"{s}.txt") for s in ZHEN_SYSTEMS),
                              "--human", str(tmp_path / "mqm.tsv"), "-m", "bleu", "chrf", "--task", "wmt24", "-k", "20"])
    assert {r["task"] for r in table} == {"sys-spa", "seg-acc_eq-item"}
    assert all(r["rank"] >= 1 for r in table)
    for fmt in ("text", "latex", "tsv"):
        assert main(["meta-eval", str(tmp_path / "ref.A.txt"), "-i", *(str(tmp_path / f"{s}.txt") for s in ZHEN_SYSTEMS[:3]),
                     "--human", str(tmp_path / "mqm.tsv"), "-m", "ter", "--level", "sys", "-f", fmt]) == 0
        out = capsys.readouterr().out
        assert "TER" in out and "pairwise" in out


def test_bad_inputs_name_the_file(tmp_path, capsys):
    hyp = tmp_path / "A.txt"
    hyp.write_text("a b\nc d\n", encoding="utf-8")
    (tmp_path / "B.txt").write_text("a b\nc e\n", encoding="utf-8")
    ref = tmp_path / "ref.txt"
    ref.write_text("a b\nc d\n", encoding="utf-8")
    human = tmp_path / "h.tsv"
    human.write_text("system\tline\tscore\nA\t1\t1\nA\t2\t0\nB\t1\t0\nB\t2\t1\n", encoding="utf-8")
    bad = tmp_path / "comet.tsv"
    bad.write_text("system\tline\tscore\nA\t1\t0.5\nA\t2\t0.5\nC\t1\t0.1\nC\t2\t0.2\n", encoding="utf-8")
    base = [str(ref), "-i", str(hyp), str(tmp_path / "B.txt"), "--human", str(human)]
    assert main(["meta-eval", *base, "--scores", f"comet={bad}"]) == 1
    assert "comet.tsv: no scores for system 'B'" in capsys.readouterr().err
    assert main(["meta-eval", *base, "--scores", "comet"]) == 2
    assert "expected NAME=FILE" in capsys.readouterr().err
    human.write_text("system\tline\tscore\nA\t1\t1\nA\t2\tinf\n", encoding="utf-8")
    assert main(["meta-eval", *base]) == 1
    assert "h.tsv:3: the score is 'inf'" in capsys.readouterr().err


@pytest.mark.full
@pytest.mark.parametrize(
    ("testset", "ref", "human", "column", "systems"),
    [
        ("generaltest2022/zh-en", "ref.A", "generaltest2022.zh-en.mqm.seg.tsv", "score", ZHEN_SYSTEMS),
        ("generaltest2022/zh-en", "ref.A", "generaltest2022.zh-en.da.seg.tsv", "raw", None),
        ("generaltest2022/de-en", "ref.A", "generaltest2022.de-en.da.seg.tsv", "raw", None),
        ("generaltest2022/cs-en", "ref.B", "generaltest2022.cs-en.da.seg.tsv", "raw", None),
        ("newstest2021/en-de", "ref.C", "newstest2021.en-de.mqm.seg.tsv", "score",
         ["Facebook-AI", "HuaweiTSC", "Online-W", "UEdin", "VolcTrans-GLAT", "ref.A", "ref.D"]),
    ],
)
def test_wmt_sets_against_scipy(capsys, testset, ref, human, column, systems):
    d = MT / testset
    if systems is None:
        systems = sorted(p.stem for p in (d / "sys").glob("*.txt")) + sorted(
            p.stem for p in d.glob("ref.*.txt") if p.stem != ref)
    texts = {s: read(sys_path(d, s)) for s in systems}
    refs = [read(d / f"{ref}.txt")]
    hum = human_matrix(HUMAN / human, systems, len(refs[0]), column)
    records = run_json(capsys, [str(d / f"{ref}.txt"), "-i", *(str(sys_path(d, s)) for s in systems),
                                "--human", str(HUMAN / human), "--human-column", column])
    check(records, expected_records(systems, texts, refs, hum))
    assert not any(math.isnan(r["value"]) for r in records if r["value"] is not None)


@pytest.mark.full
def test_docs_worked_example_figures(capsys):
    """The figures of docs/meta-evaluation.md's worked example, recomputed."""
    page = (Path(__file__).resolve().parents[2] / "docs" / "meta-evaluation.md").read_text(encoding="utf-8")
    systems = sorted(p.stem for p in (ZHEN / "sys").glob("*.txt"))
    argv = [str(ZHEN / "ref.A.txt"), "-i", *(str(ZHEN / "sys" / f"{s}.txt") for s in systems), str(ZHEN / "ref.B.txt"),
            "--human", str(HUMAN / "generaltest2022.zh-en.da.seg.tsv"), "--human-column", "z", "--level", "sys",
            "-w", "3"]
    assert main(["meta-eval", *argv]) == 0
    out = capsys.readouterr().out
    assert out.strip() in page
    sys_rows = [line.split("\t") for line in read(HUMAN / "generaltest2022.zh-en.da.sys.tsv")[1:]]
    seg = human_matrix(HUMAN / "generaltest2022.zh-en.da.seg.tsv", [r[0] for r in sys_rows], 1875, "z")
    for row in sys_rows:
        if row[-1] == "-":
            continue
        mean = float(np.nanmean(seg[row[0]]))
        assert f"| {row[0]} | {row[2].replace('-', '−')} | {repr(mean).replace('-', '−')} |" in page
