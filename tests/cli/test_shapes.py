"""Output shapes of several metrics with significance tests, compared with sacreBLEU 2.6.0 run with the same
options: one JSON document (a list) for ``--confidence``, one row per system with a cell per metric for the
paired tests, and one table with a column per metric."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

sacrebleu = pytest.importorskip("sacrebleu")

HYPS = ["hyp.Online-B.txt", "hyp.OpenNMT.txt"]


def sacrebleu_command(args: list[str]) -> str:
    run = subprocess.run(
        [sys.executable, "-c", "from sacrebleu.sacrebleu import main; main()", *args],
        capture_output=True, text=True, check=True,
    )
    return run.stdout


def without_version(value):
    """Signature values and fields with the version part removed (sacreBLEU's and bleuscope's differ)."""
    if isinstance(value, str):
        return "|".join(p for p in value.split("|") if not p.startswith("version:"))
    return value


def assert_sacrebleu_prefix(ours: dict, theirs: dict) -> None:
    """sacreBLEU's keys come first, in its order, with its values; bleuscope may add keys after them."""
    assert list(ours)[: len(theirs)] == list(theirs)
    for key, want in theirs.items():
        if key == "version":
            continue
        assert without_version(ours[key]) == without_version(want), key


@pytest.mark.parametrize("metrics", [["bleu", "chrf"], ["bleu", "chrf", "ter"], ["chrf", "ter"]])
def test_confidence_with_several_metrics_is_one_json_list(run_main, example, metrics):
    args = ["ref.A.txt", "-i", HYPS[0], "-m", *metrics, "--confidence", "-cin", "100", "-f", "json"]
    code, out, err = run_main(args)
    assert code == 0, err
    ours, theirs = json.loads(out), json.loads(sacrebleu_command(args))
    assert isinstance(ours, list) and len(ours) == len(theirs) == len(metrics)
    for mine, want in zip(ours, theirs):
        assert_sacrebleu_prefix(mine, want)


def test_confidence_with_several_metrics_text_is_aligned_as_sacrebleu(run_main, example):
    args = ["ref.A.txt", "-i", HYPS[0], "-m", "bleu", "chrf", "ter", "--confidence", "-cin", "100", "-f", "text"]
    code, out, err = run_main(args)
    assert code == 0, err
    theirs = sacrebleu_command(args)
    assert len({line.index(" = ") for line in out.splitlines()}) == 1  # aligned on "=" (the versions differ)
    assert [without_version(line.split(" = ", 1)[0].strip()) for line in out.splitlines()] == [
        without_version(line.split(" = ", 1)[0].strip()) for line in theirs.splitlines()
    ]
    assert [line.split(" = ", 1)[1] for line in out.splitlines()] == [
        line.split(" = ", 1)[1] for line in theirs.splitlines()
    ]


def test_paired_ar_with_several_metrics_is_one_json_list(run_main, example):
    args = ["ref.A.txt", "-i", *HYPS, "-m", "bleu", "chrf", "--paired-ar", "-parn", "200", "-f", "json"]
    code, out, err = run_main(args)
    assert code == 0, err
    ours, theirs = json.loads(out), json.loads(sacrebleu_command(args))
    assert [row["system"] for row in ours] == [row["system"] for row in theirs]
    for mine, want in zip(ours, theirs):
        assert list(mine) == list(want) == ["system", "BLEU", "chrF2"]
        for metric in ("BLEU", "chrF2"):
            assert_sacrebleu_prefix(mine[metric], want[metric])


@pytest.mark.parametrize("test", ["bs", "ar"])
def test_paired_with_several_metrics_equals_sacrebleu_paired_test(run_main, example, test):
    """sacreBLEU's command cannot print JSON for chrF/TER bootstrap results (numpy float32 values), so its
    PairedTest gives the expected rows: the same systems, metrics, scores, p-values, means and CIs."""
    from sacrebleu.significance import PairedTest

    n = "50" if test == "bs" else "100"
    args = ["ref.A.txt", "-i", *HYPS, "-m", "bleu", "chrf", "ter", f"--paired-{test}", f"-p{test}n", n, "-f", "json"]
    code, out, err = run_main(args)
    assert code == 0, err
    ours = json.loads(out)
    refs = [open("ref.A.txt", encoding="utf-8").read().split("\n")[:-1]]
    systems = [(name, open(path, encoding="utf-8").read().split("\n")[:-1])
               for name, path in zip(["Baseline: " + HYPS[0], HYPS[1]], HYPS)]
    metrics = {"BLEU": sacrebleu.BLEU(references=refs), "CHRF": sacrebleu.CHRF(references=refs),
               "TER": sacrebleu.TER(references=refs)}
    _sigs, scores = PairedTest(systems, metrics, references=None, test_type=test, n_samples=int(n))()
    assert [row["system"] for row in ours] == scores["System"]
    labels = [k for k in scores if k != "System"]
    assert labels == ["BLEU", "chrF2", "TER"]
    for k, row in enumerate(ours):
        assert list(row) == ["system", *labels]
        for label in labels:
            want = {key: (None if v is None else float(v)) for key, v in scores[label][k].__dict__.items()}
            assert {key: row[label][key] for key in want} == want


@pytest.mark.parametrize("fmt, test", [("text", "bs"), ("text", "ar"), ("latex", "ar")])
def test_paired_with_several_metrics_is_one_table_as_sacrebleu(run_main, example, fmt, test):
    n = "50" if test == "bs" else "100"
    args = ["ref.A.txt", "-i", *HYPS, "-m", "bleu", "chrf", "ter", f"--paired-{test}", f"-p{test}n", n, "-f", fmt]
    code, out, err = run_main(args)
    assert code == 0, err
    theirs = sacrebleu_command(args)

    def table(text: str) -> list[str]:
        lines = text.split("\n")
        return lines[: lines.index("")]  # the table ends at the first empty line

    assert table(out) == table(theirs)
    assert out.count("Metric signatures") == 1
    sigs = [line.split()[1] for line in out.split("Metric signatures\n-----------------\n")[1].splitlines()]
    assert sigs == ["BLEU", "chrF2", "TER"]


def test_paired_single_metric_json_is_unchanged_by_the_merge(run_main, example):
    args = ["ref.A.txt", "-i", *HYPS, "-m", "bleu", "--paired-bs", "-pbsn", "100", "-f", "json"]
    code, out, err = run_main(args)
    assert code == 0, err
    ours, theirs = json.loads(out), json.loads(sacrebleu_command(args))
    for mine, want in zip(ours, theirs):
        assert list(mine) == list(want) == ["system", "BLEU"]
        assert_sacrebleu_prefix(mine["BLEU"], want["BLEU"])
