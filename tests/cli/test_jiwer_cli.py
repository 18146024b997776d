"""``bleuscope jiwer``: what jiwer 4.0.0's own command prints (run beside it through click's runner) on WMT
files and on the traps of its line handling (short lines skipped, ``\\r`` line ends), the note on skipped
lines, one-line errors, and the examples of its ``--help``."""

from __future__ import annotations

import shlex
import shutil
from pathlib import Path

import pytest

import bleuscope
from bleuscope.cli.jiwer import build_parser
from bleuscope.cli.main import main

from ..conftest import DATA, read_lines, requires_wmt

jiwer_cli = pytest.importorskip("jiwer.cli")
click_testing = pytest.importorskip("click.testing")

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
FLAGS = [[], ["-c"], ["-a"], ["-g"], ["-c", "-g"], ["-c", "-a"], ["-a", "-g"]]


def theirs(*argv) -> str:
    result = click_testing.CliRunner().invoke(jiwer_cli.cli, [str(a) for a in argv])
    assert result.exit_code == 0, result.output
    return result.output


def ours(capsys, *argv) -> tuple[int, str, str]:
    code = main(["jiwer", *map(str, argv)])
    out, err = capsys.readouterr()
    return code, out, err


@requires_wmt
@pytest.mark.parametrize("flags", FLAGS)
def test_the_output_of_jiwers_command_on_wmt_files(capsys, tmp_path, flags):
    base = DATA / "generaltest2022" / "de-en"
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("\n".join(read_lines(base / "ref.A.txt")[:400]) + "\n", encoding="utf-8")
    hyp.write_text("\n".join(read_lines(base / "sys" / "Online-B.txt")[:400]) + "\n", encoding="utf-8")
    code, out, _ = ours(capsys, "-r", ref, "-h", hyp, *flags)
    assert code == 0
    assert out == theirs("-r", ref, "-h", hyp, *flags)


@pytest.mark.parametrize("flags", FLAGS)
def test_short_lines_and_carriage_returns_as_jiwers_command_reads_them(capsys, tmp_path, flags):
    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    # lines of one character are skipped on each side separately; \r and \r\n end lines as \n does
    ref.write_bytes(b"the cat sat\r\na\nx y z\rb c d\n  \nlast one\n")
    hyp.write_bytes(b"the cat sit\nb\nx z\rb c\n.\nlast two\r\n")
    code, out, err = ours(capsys, "-r", ref, "-h", hyp, *flags)
    assert code == 0 and out == theirs("-r", ref, "-h", hyp, *flags)
    assert "ref.txt: skipped 2 line(s) of at most one character (the first at line 2)" in err
    assert "hyp.txt: skipped 2 line(s) of at most one character (the first at line 2)" in err


def test_keeping_short_lines_pairs_every_line(capsys, tmp_path):
    from bleuscope import jiwer

    ref, hyp = tmp_path / "ref.txt", tmp_path / "hyp.txt"
    ref.write_text("a b\nc\nd e\n", encoding="utf-8")
    hyp.write_text("a b\nx\nd e\n", encoding="utf-8")
    code, out, err = ours(capsys, "-r", ref, "-h", hyp, "--keep-short-lines")
    assert code == 0 and err == ""
    assert float(out) == jiwer.wer(["a b", "c", "d e"], ["a b", "x", "d e"]) == 0.2


def test_errors_are_one_line(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    ref, hyp = Path("ref.txt"), Path("hyp.txt")
    ref.write_text("a b\nc d\ne f\n", encoding="utf-8")
    hyp.write_text("a b\nc d\n", encoding="utf-8")
    for flags in ([], ["-a"]):
        code, _, err = ours(capsys, "-r", ref, "-h", hyp, *flags)
        assert code == 2
        assert err.strip() == ("bleuscope: error: ref.txt has 3 sentences and hyp.txt 2: they must pair up (-g aligns "
                               "the whole texts instead)")
    hyp.write_bytes(b"a b\nc \xff\ne f\n")
    code, _, err = ours(capsys, "-r", ref, "-h", hyp)
    assert code == 1 and "error: hyp.txt:2: invalid UTF-8" in err and len(err.strip().splitlines()) == 1
    code, out, _ = ours(capsys, "-r", ref, "-h", hyp, "--encoding", "latin-1", "-g")
    assert code == 0 and float(out) > 0
    code, _, err = ours(capsys, "-r", "missing.txt", "-h", hyp)
    assert code == 1 and "missing.txt" in err and len(err.strip().splitlines()) == 1
    code, _, err = ours(capsys, "-r", ref, "-h", ref, "--display", "html")
    assert code == 2 and "give -a" in err
    code, _, err = ours(capsys, "-r", ref)
    assert code == 2 and "-h/--hypothesis" in err


def test_streamed_count_over_many_chunks(capsys, tmp_path, monkeypatch):
    from bleuscope import jiwer
    from bleuscope.cli import jiwer as command

    monkeypatch.setattr(command, "CHUNK", 7)
    monkeypatch.chdir(tmp_path)
    refs = [f"w{i % 5} x{i % 3} y" for i in range(100)]
    hyps = [f"w{i % 4} x{i % 3}" for i in range(100)]
    (tmp_path / "r").write_text("\n".join(refs) + "\n", encoding="utf-8")
    (tmp_path / "h").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    code, out, _ = ours(capsys, "-r", tmp_path / "r", "-h", tmp_path / "h")
    assert code == 0 and float(out) == jiwer.wer(refs, hyps)
    (tmp_path / "h").write_text("\n".join(hyps[:60]) + "\n", encoding="utf-8")
    code, _, err = ours(capsys, "-r", "r", "-h", "h")
    assert code == 2 and "error: r has at least 63 sentences and h 60:" in err


def help_examples() -> list[str]:
    block = build_parser().format_help().split("\nexamples (", 1)[1]
    return [line.strip() for line in block.split("\n")[1:] if line.startswith("  bleuscope jiwer ")]


@pytest.mark.parametrize("example", help_examples())
def test_help_example_runs_as_written(example, tmp_path, monkeypatch, capsys):
    work = tmp_path / "example"
    shutil.copytree(EXAMPLE, work)
    monkeypatch.chdir(work)
    argv = shlex.split(example.split("  ")[0])[1:]
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert out and "error" not in err
    assert out == theirs(*argv[1:])
