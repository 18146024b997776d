"""Hostile input and options a new user tried: each is one line naming the problem (the option, or the file and
line), the right exit code and no file touched: standard output closed, option values beyond any machine
integer, huge JSON numbers, JSON nested thousands of levels deep, empty field names, exports over an input, and
decompression bombs whose line count differs from the other files (found out within seconds, not after a
billion lines)."""

from __future__ import annotations

import gzip
import json
import lzma
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bleuscope import cli
from bleuscope.cli import main
from bleuscope.core.files import InputError, jsonl_record

from .conftest import one_line_error

EXAMPLE = Path(cli.example_dir())
HYP, REF = str(EXAMPLE / "hyp.Online-B.txt"), str(EXAMPLE / "ref.A.txt")
HUGE = "1" + "0" * 30  # beyond 2**64


def command(args, timeout: float = 60):
    return subprocess.run([sys.executable, "-m", "bleuscope", *args], capture_output=True, timeout=timeout)


@pytest.mark.parametrize("args", [[REF, "-i", HYP], ["report", REF, "-i", HYP, "-o", "-"]])
def test_closed_standard_output_is_one_line(args):
    # the shell's `>&-`: the command starts with file descriptor 1 closed (Python's sys.stdout is then None)
    done = subprocess.run([sys.executable, "-m", "bleuscope", *args], stdin=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, timeout=60, preexec_fn=lambda: os.close(1))
    prog = "bleuscope report" if args[0] == "report" else "bleuscope"
    assert done.returncode == 1
    assert done.stderr.decode() == f"{prog}: error: <stdout>: cannot write the output (standard output is closed)\n"


@pytest.mark.parametrize(
    ("option", "message"),
    [
        ("--max-line-bytes", "argument --max-line-bytes: expected a whole number from 1 to 1,073,741,823"),
        ("-w", "argument -w/--width: expected a whole number from 0 to 100"),
    ],
)
def test_option_values_beyond_a_machine_integer_are_usage_errors(run_main, option, message):
    code, _, err = run_main([REF, "-i", HYP, option, HUGE])
    one_line_error(code, err, 2, message, HUGE)


def test_the_highest_max_line_bytes_is_taken(run_main):
    code, out, err = run_main([REF, "-i", HYP, "--max-line-bytes", str((1 << 30) - 1), "-b"])
    assert (code, err) == (0, "") and float(out) > 0


def test_a_huge_json_number_is_a_field_of_the_wrong_kind(run_main, tmp_path):
    path = tmp_path / "v.jsonl"
    rows = [json.dumps({"output": "a line"})] * 23 + ['{"output": ' + "9" * 5001 + "}"]
    path.write_text("\n".join(rows) + "\n", encoding="utf-8")
    code, _, err = run_main([REF, "-i", path, "--hyp-field", "output"])
    one_line_error(code, err, 1, "v.jsonl:24: field 'output' must be a string, found a number")


def test_huge_json_numbers_in_other_fields_are_ignored(run_main, tmp_path):
    path = tmp_path / "v.jsonl"
    hyps = Path(HYP).read_text(encoding="utf-8").split("\n")[:-1]
    path.write_text("".join(f'{{"id": {"7" * 5001}, "output": {json.dumps(h)}}}\n' for h in hyps), encoding="utf-8")
    code, out, err = run_main([REF, "-i", path, "--hyp-field", "output", "-b"])
    assert code == 0, err
    assert out == run_main([REF, "-i", HYP, "-b"])[1]


@pytest.mark.parametrize("option", ["--hyp-field", "--ref-field"])
def test_an_empty_field_name_is_a_usage_error(run_main, option):
    """Not "not given": ``--hyp-field ''`` scored stdin against the references."""
    jsonl = str(EXAMPLE / "preds.jsonl")
    argv = [REF, option, ""] if option == "--hyp-field" else [REF, "-i", jsonl, "--hyp-field", "output", option, ""]
    code, _, err = run_main(argv, stdin=Path(HYP).read_bytes())
    one_line_error(code, err, 2, f"{option} needs a field name, got ''")


@pytest.mark.parametrize("export", ["--csv", "--latex"])
def test_report_exports_never_overwrite_an_input(tmp_path, export):
    tables = tmp_path / "tables"
    tables.mkdir()
    ext = "csv" if export == "--csv" else "tex"
    system = tables / f"systems.{ext}"  # the name of the report's systems table
    system.write_bytes(Path(HYP).read_bytes())
    before = {p.name: p.read_bytes() for p in tables.iterdir()}
    done = command(["report", REF, "-i", str(system), "-o", str(tmp_path / "r.html"), export, str(tables), "-q"])
    assert done.returncode == 2
    assert done.stderr.decode() == (
        f"bleuscope report: error: {export} {tables / f'systems.{ext}'} would overwrite an input file\n"
    )
    assert {p.name: p.read_bytes() for p in tables.iterdir()} == before  # no table written beside it either
    assert not (tmp_path / "r.html").exists()


def write_bomb(path: Path, lines: int = 1_000_000_000) -> None:
    """``lines`` empty lines in a few MB: gzip members of 10 MB of newlines, one after the other (or xz)."""
    if path.suffix == ".xz":
        path.write_bytes(lzma.compress(b"\n" * 200_000_000, preset=1))  # 2e8 lines: xz compresses it to 30 kB
        return
    member = gzip.compress(b"\n" * 10_000_000, compresslevel=9)
    with open(path, "wb") as f:
        for _ in range(lines // 10_000_000):
            f.write(member)


@pytest.fixture(scope="module")
def bombs(tmp_path_factory):
    out = tmp_path_factory.mktemp("bombs")
    write_bomb(out / "bomb-lines.gz")
    write_bomb(out / "bomb-lines.xz")
    return out


@pytest.mark.parametrize("name", ["bomb-lines.gz", "bomb-lines.xz"])
@pytest.mark.parametrize("side", ["hypothesis", "reference"])
def test_a_line_count_mismatch_stops_once_it_is_certain(bombs, name, side):
    """Before: the longer file was read to its end (10**9 lines: six minutes) to print its exact count."""
    bomb = str(bombs / name)
    args = [REF, "-i", bomb] if side == "hypothesis" else [bomb, "-i", HYP]
    done = command(args, timeout=30)
    message = done.stderr.decode()
    assert done.returncode == 1 and message.count("\n") == 1, message
    assert f"{side} {bomb} has at least 1050000" in message and "has 300" in message
    assert "was not read to its end" in message and f"{bomb}:301 has no counterpart" in message


def test_a_short_mismatch_still_gives_the_exact_counts(run_main, tmp_path):
    path = tmp_path / "long.txt"
    path.write_bytes(Path(HYP).read_bytes() + b"one more\n" * 5)
    code, _, err = run_main([REF, "-i", path])
    one_line_error(code, err, 1, "long.txt has 305 lines but reference", "ref.A.txt has 300; ", "long.txt:301")
    assert "not read to its end" not in err


# -- a JSON Lines line nested thousands of levels deep: an error naming the file and the line, not a
# RecursionError traceback, as hypotheses, as references, and in shards
NESTING_DEPTH = 100_000
NESTING_MESSAGE = "JSON nested too deeply (arrays or objects inside each other thousands of levels deep)"


def _deep(kind: str) -> str:
    opening, closing = ("[", "]") if kind == "array" else ('{"a": ', "}")
    return '{"hyp": ' + opening * NESTING_DEPTH + "1" + closing * NESTING_DEPTH + ', "ref": "x"}'


@pytest.mark.parametrize("kind", ["array", "object"])
def test_record_reader_names_file_and_line(kind):
    with pytest.raises(InputError, match=re.escape(f"preds.jsonl:7: {NESTING_MESSAGE}")):
        jsonl_record(_deep(kind), [("hyp", "hyp"), ("ref", "ref")], "preds.jsonl", 7)


@pytest.fixture
def jsonl(tmp_path: Path, monkeypatch) -> Path:
    good = json.dumps({"hyp": "a b c", "ref": "a b c"})
    (tmp_path / "deep.jsonl").write_text(good + "\n" + _deep("array") + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c\nd e f\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "deep.jsonl"


@pytest.mark.parametrize(
    "argv",
    [
        ["deep.jsonl", "--hyp-field", "hyp", "--ref-field", "ref"],  # hypotheses and references in one file
        ["deep.jsonl", "-i", "hyp.txt", "--ref-field", "ref"],  # references
        ["deep*.jsonl", "--hyp-field", "hyp", "--ref-field", "ref"],  # shards
    ],
)
def test_command_gives_one_line_naming_file_and_line(jsonl, capsys, argv):
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"bleuscope: error: deep.jsonl:2: {NESTING_MESSAGE}; a field holds a string or a list of "
                                "strings"]
