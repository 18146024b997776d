"""``-e/--encoding`` applies to every input file: when it does not fit, the error names the reference files it
does not fit either, not only the hypothesis file read first."""

from __future__ import annotations

from pathlib import Path

import pytest

import bleuscope
from bleuscope.cli import main

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
INVALID_HYP = ("bleuscope: error: hyp.txt:1: invalid utf-16 (UTF-16 stream does not start with BOM); pass "
               "--encoding ENCODING if the file is not utf-16")


@pytest.fixture
def files(tmp_path: Path, monkeypatch) -> Path:
    for name, target in (("ref.A.txt", "ref.txt"), ("ref.B.txt", "ref2.txt"), ("hyp.Online-B.txt", "hyp.txt")):
        (tmp_path / target).write_bytes((EXAMPLE / name).read_bytes())
    text = (EXAMPLE / "hyp.Online-B.txt").read_text(encoding="utf-8")
    (tmp_path / "hyp16.txt").write_bytes(text.encode("utf-16"))
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("extra", [[], ["-m", "chrf", "ter"], ["--confidence"], ["-sl"]])
def test_utf8_reference_is_named_when_the_hypothesis_fails_first(files, capsys, extra):
    assert main(["ref.txt", "-i", "hyp.txt", "-e", "utf-16", *extra]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"{INVALID_HYP}; the reference ref.txt is not utf-16 either (ref.txt looks like UTF-8): --encoding applies "
        "to every input file"
    ]


def test_several_references_are_all_named(files, capsys):
    assert main(["ref.txt", "ref2.txt", "-i", "hyp.txt", "-e", "utf-16"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{INVALID_HYP}; the references ref.txt, ref2.txt are not utf-16 either (ref.txt, ref2.txt look like "
        "UTF-8): --encoding applies to every input file"
    ]


def test_utf16_hypothesis_with_utf8_reference_names_the_reference(files, capsys):
    assert main(["ref.txt", "-i", "hyp16.txt", "-e", "utf-16"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "bleuscope: error: ref.txt:1: invalid utf-16 (UTF-16 stream does not start with BOM); pass --encoding "
        "ENCODING if the file is not utf-16"
    ]


def test_report_names_the_utf8_reference(files, capsys):
    from bleuscope.report.cli import main as report

    assert report(["ref.txt", "-i", "hyp16.txt", "-e", "utf-16", "-o", "r.html"]) == 1
    assert capsys.readouterr().err.splitlines() == [
        "bleuscope report: error: ref.txt:1: invalid utf-16 (UTF-16 stream does not start with BOM); pass "
        "--encoding ENCODING if the file is not utf-16"
    ]
    assert not (files / "r.html").exists()
