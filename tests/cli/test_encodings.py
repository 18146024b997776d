"""Wide encodings: UTF-32 (with and without a byte order mark, both byte orders) and UTF-16 without a mark
are recognised and named in the hint; text that still holds NUL characters after decoding is never scored;
``-e/--encoding`` applies to every input file: when it does not fit, the error names the reference files it does
not fit either, not only the hypothesis file read first."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import sacrebleu

import bleuscope
from bleuscope.cli import main

from .conftest import one_line_error

HYPS = ["Das ist ein kleiner Test.", "Noch ein Satz, etwas länger als der erste.", "Kurz."] * 40
REFS = ["Das ist ein kleiner Test!", "Noch ein Satz, etwas kürzer als der erste.", "Kurz."] * 40


def write(path, lines, encoding):
    path.write_bytes("".join(line + "\n" for line in lines).encode(encoding))
    return str(path)


@pytest.mark.parametrize(
    "encoding, hint",
    [
        ("utf-32", "pass --encoding utf-32"),  # with a byte order mark (little-endian here)
        ("utf-32-be", "UTF-32BE without a byte order mark, pass --encoding utf-32-be"),
        ("utf-32-le", "UTF-32LE without a byte order mark, pass --encoding utf-32-le"),
        ("utf-16-le", "UTF-16LE without a byte order mark, pass --encoding utf-16-le"),
        ("utf-16-be", "UTF-16BE without a byte order mark, pass --encoding utf-16-be"),
        ("utf-16", "UTF-16 byte order mark"),
    ],
)
def test_wide_encodings_are_named_and_not_scored_as_utf8(run_main, tmp_path, encoding, hint):
    ref = write(tmp_path / "ref.txt", REFS, "utf-8")
    hyp = write(tmp_path / "hyp.txt", HYPS, encoding)
    code, out, err = run_main([ref, "-i", hyp])
    line = one_line_error(code, err, 1, "hyp.txt:1:", hint)
    assert out == ""
    if encoding == "utf-32":
        assert "UTF-16" not in line  # its mark begins with UTF-16's: the longer one is named


@pytest.mark.parametrize("encoding", ["utf-32", "utf-32-le", "utf-32-be", "utf-16-le", "utf-16-be"])
def test_following_the_hint_gives_sacrebleus_score(run_main, tmp_path, encoding):
    ref = write(tmp_path / "ref.txt", REFS, "utf-8")
    hyp = write(tmp_path / "hyp.txt", HYPS, encoding)
    _, _, err = run_main([ref, "-i", hyp])
    suggested = err.rsplit("--encoding ", 1)[1].split()[0]
    ref2 = write(tmp_path / "ref2.txt", REFS, encoding)
    code, out, err = run_main([ref2, "-i", hyp, "-e", suggested, "-q"])
    assert code == 0, err
    assert json.loads(out)["score_unrounded"] == sacrebleu.corpus_bleu(HYPS, [REFS]).score


def test_utf32_read_as_utf16_is_refused_with_the_utf32_hint(run_main, tmp_path):
    """Following a UTF-16 guess on a UTF-32 file leaves NULs in the text: refused, naming file and line."""
    ref = write(tmp_path / "ref.txt", REFS, "utf-32")
    hyp = write(tmp_path / "hyp.txt", HYPS, "utf-32")
    code, out, err = run_main([ref, "-i", hyp, "-e", "utf-16"])
    one_line_error(code, err, 1, "hyp.txt:1:", "NUL character", "it looks like UTF-32, pass --encoding utf-32")
    assert out == ""


def test_a_nul_in_utf8_text_is_refused_with_its_line(run_main, tmp_path):
    ref = write(tmp_path / "ref.txt", REFS, "utf-8")
    hyps = list(HYPS)
    hyps[57] = "ein\x00Satz"
    hyp = write(tmp_path / "hyp.txt", hyps, "utf-8")
    code, _, err = run_main([ref, "-i", hyp])
    one_line_error(code, err, 1, "hyp.txt:58: NUL character (U+0000) at column 4", "binary file")


def test_api_readers_refuse_nul_text(tmp_path):
    from bleuscope import BLEU

    ref = write(tmp_path / "ref.txt", REFS, "utf-16-le")
    with pytest.raises(ValueError, match="ref.txt:1: NUL character .* pass --encoding utf-16-le"):
        BLEU().corpus_score(HYPS, [tmp_path / "ref.txt"])
    assert ref


# -- -e/--encoding names every input file it does not fit
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
