"""``bleuscope -m wer cer mer wil wip``: jiwer 4.0.0's rates (x 100) in every format, significance through
the generic path, shards equal to one file, and one-line errors for what the edit rates refuse."""

from __future__ import annotations

import json

import pytest

from bleuscope.cli.main import main

from ..conftest import DATA, read_lines, requires_wmt

jiwer = pytest.importorskip("jiwer")

PAIR = DATA / "generaltest2022" / "de-en"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@requires_wmt
def test_rates_equal_jiwer(capsys):
    ref, hyp = PAIR / "ref.A.txt", PAIR / "sys" / "Online-B.txt"
    code, out, _ = run(capsys, ref, "-i", hyp, "-m", "wer", "cer", "mer", "wil", "wip", "-f", "jsonl")
    assert code == 0
    got = {o["name"]: o for o in map(json.loads, out.splitlines())}
    refs, hyps = read_lines(ref), read_lines(hyp)
    for name, peer in (("WER", jiwer.wer), ("CER", jiwer.cer), ("MER", jiwer.mer), ("WIL", jiwer.wil), ("WIP", jiwer.wip)):
        assert got[name]["score_unrounded"] == 100 * peer(refs, hyps)
        assert "profile:jiwer" in got[name]["signature"] and "avg:corpus" in got[name]["signature"]


@requires_wmt
def test_paired_bootstrap_and_profiles(capsys):
    ref = PAIR / "ref.A.txt"
    systems = [PAIR / "sys" / "Online-B.txt", PAIR / "sys" / "PROMT.txt"]
    code, out, _ = run(capsys, ref, "-i", *systems, "-m", "wer", "--paired-bs", "--paired-bs-n", "100", "-f", "json")
    assert code == 0 and "p_value" in out and "profile:jiwer" in out
    code, out, _ = run(capsys, ref, "-i", systems[0], "-m", "cer", "--wer-profile", "nemo", "-f", "json")
    assert code == 0 and "profile:nemo|tok:raw-chars" in json.loads(out)["signature"]


def test_what_the_edit_rates_refuse_is_a_one_line_error(capsys, tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("a b\n", encoding="utf-8")
    code, _, err = run(capsys, f, f, "-i", f, "-m", "wer")
    assert code != 0 and err.count("\n") == 1 and "one reference per segment" in err
    code, _, err = run(capsys, f, "-i", f, "-m", "wip", "--wer-profile", "torchmetrics")
    assert code == 2 and err.count("\n") == 1 and "has no WIP" in err


@requires_wmt
def test_the_mean_of_segment_rates_on_the_command_line(capsys):
    from bleuscope.metrics.wer import WER

    ref, hyp = PAIR / "ref.A.txt", PAIR / "sys" / "Online-B.txt"
    code, out, _ = run(capsys, ref, "-i", hyp, "-m", "wer", "--wer-average", "segments", "-f", "json")
    assert code == 0
    got = json.loads(out)
    want = WER(average="segments").corpus_score(read_lines(hyp), [read_lines(ref)])
    assert got["score_unrounded"] == want.score
    assert "avg:segments" in got["signature"]
    code, _, err = run(capsys, ref, "-i", hyp, "-m", "wer", "--wer-average", "median")
    assert code == 2 and "--wer-average" in err


def test_the_mean_of_segment_rates_in_the_report(tmp_path, capsys):
    from pathlib import Path

    import bleuscope
    from bleuscope.metrics.wer import WER
    from bleuscope.report.cli import main as report_main

    example = Path(bleuscope.__file__).parent / "data" / "example"
    ref, hyp = example / "ref.A.txt", example / "hyp.Online-B.txt"
    out = tmp_path / "r.html"
    assert report_main([str(ref), "-i", str(hyp), str(example / "hyp.OpenNMT.txt"), "-m", "wer", "--wer-average",
                        "segments", "-o", str(out), "--n-bootstrap", "50"]) == 0
    page = out.read_text(encoding="utf-8")
    want = WER(average="segments").corpus_score(read_lines(hyp), [read_lines(ref)])
    assert want.signature in page and f"{want.score:.2f}" in page
