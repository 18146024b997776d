"""Regression tests for the command-line defects a new user hit: -o by file kind, unbounded reads, repeated
-i/-r, prefix matching, closed stdout, UTF-16 input, sacreBLEU test sets, -m, lazy imports, and the API
reading compressed paths as the command does."""

from __future__ import annotations

import bz2
import gzip
import importlib
import io
import json
import lzma
import os
import signal
import stat
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU, cli
from bleuscope.core import files as bio

from ..conftest import default_ctrl_c

EXAMPLE = Path(cli.example_dir())
HYP_B, HYP_O = str(EXAMPLE / "hyp.Online-B.txt"), str(EXAMPLE / "hyp.OpenNMT.txt")
REF_A, REF_B = str(EXAMPLE / "ref.A.txt"), str(EXAMPLE / "ref.B.txt")


def lines(path) -> list[str]:
    return Path(path).read_text(encoding="utf-8").split("\n")[:-1]


class _Stdin:
    def __init__(self, data: bytes):
        self.buffer = io.BytesIO(data)

    def isatty(self) -> bool:
        return False


@pytest.fixture
def run_main(capsys, monkeypatch):
    def call(argv, stdin: bytes = b""):
        monkeypatch.setattr(sys, "stdin", _Stdin(stdin))
        code = cli.main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return call


def one_line_error(code, err, expected_code, *fragments):
    assert code == expected_code, err
    text = err.strip("\n")
    assert "\n" not in text and text.startswith("bleuscope: error: "), err
    for fragment in fragments:
        assert fragment in text, err


def command(args, **kwargs):
    return subprocess.run([sys.executable, "-m", "bleuscope", *args], capture_output=True, timeout=120, **kwargs)


# -- -o FILE: by the kind of file ----------------------------------------------------------------------------
def test_output_through_a_symlink_writes_its_target(run_main, tmp_path):
    target = tmp_path / "real.json"
    target.write_text("old\n")
    link = tmp_path / "link.json"
    link.symlink_to(target)
    code, out, err = run_main([REF_A, "-i", HYP_B, "-o", str(link)])
    assert code == 0, err
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert json.loads(target.read_text())["score"] == 37.6
    assert sorted(os.listdir(tmp_path)) == ["link.json", "real.json"]


def test_output_to_a_fifo_is_written_directly(run_main, tmp_path):
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    code, _, err = run_main([REF_A, "-i", HYP_B, "-b", "-o", str(fifo)])
    reader.join(10)
    if reader.is_alive():  # the command never opened the FIFO: release the reader
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert code == 0, err
    assert got == [b"37.6\n"]
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_output_to_character_devices(run_main):
    code, _, err = run_main([REF_A, "-i", HYP_B, "-o", "/dev/null"])
    assert code == 0, err
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full on this system")
    code, _, err = run_main([REF_A, "-i", HYP_B, "-o", "/dev/full"])
    one_line_error(code, err, 1, "/dev/full: cannot write the output", "No space left")
    assert stat.S_ISCHR(os.stat("/dev/full").st_mode)  # the device node is still there


def test_output_refuses_a_read_only_file(run_main, tmp_path):
    path = tmp_path / "keep.json"
    path.write_text("precious\n")
    path.chmod(0o444)
    code, _, err = run_main([REF_A, "-i", HYP_B, "-o", str(path)])
    one_line_error(code, err, 1, "keep.json: the file is read-only")
    assert path.read_text() == "precious\n" and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_output_replaces_a_regular_file_keeping_its_mode(run_main, tmp_path):
    path = tmp_path / "out.json"
    path.write_text("old\n")
    path.chmod(0o640)
    code, _, err = run_main([REF_A, "-i", HYP_B, "-b", "-o", str(path)])
    assert code == 0, err
    assert path.read_text() == "37.6\n" and stat.S_IMODE(path.stat().st_mode) == 0o640


# -- bounded reading -----------------------------------------------------------------------------------------
def test_dev_zero_is_refused_after_one_line_limit(run_main):
    code, _, err = run_main([REF_A, "-i", "/dev/zero"])
    one_line_error(code, err, 1, "/dev/zero:1: line longer than 1,048,576 bytes", "--max-line-bytes")


def test_dev_urandom_is_refused(run_main):
    code, _, err = run_main([REF_A, "-i", "/dev/urandom"])
    one_line_error(code, err, 1, "/dev/urandom:")


@pytest.mark.parametrize("limit, block", [(100, 100), (100, 7), (1000, 64), (1 << 20, 1 << 20)])
def test_long_line_is_named_whatever_the_block_size(tmp_path, limit, block):
    path = tmp_path / "h.txt"
    body = ["short", "x" * limit, "y" * (limit + 1), "z"]  # line 2 is exactly at the limit: accepted
    path.write_bytes("\n".join(body).encode() + b"\n")
    reader = bio.iter_line_blocks(str(path), max_line_bytes=limit, block_bytes=block)
    with pytest.raises(bio.InputError, match=rf"h.txt:3: line longer than {limit:,} bytes"):
        list(reader)
    path.write_bytes("\n".join(body[:2]).encode())  # no final newline, last line at the limit
    assert [x for b in bio.iter_line_blocks(str(path), max_line_bytes=limit, block_bytes=block) for x in b] == body[:2]


def test_long_line_without_newline_in_the_command(run_main, tmp_path):
    path = tmp_path / "one_line.txt"
    path.write_bytes(b"word " * 3000)
    code, _, err = run_main([REF_A, "-i", str(path), "--max-line-bytes", "10000"])
    one_line_error(code, err, 1, "one_line.txt:1: line longer than 10,000 bytes")


@pytest.mark.parametrize("block", [1, 3, 16, 1 << 20])
def test_block_reader_matches_whole_file_reading(tmp_path, block):
    text = "première ligne\n\u2028inside\r\n\x1d\n\nlast without newline"
    path = tmp_path / "t.txt"
    path.write_bytes(text.encode())
    got = [x for b in bio.iter_line_blocks(str(path), block_bytes=block) for x in b]
    assert got == text.split("\n")
    path16 = tmp_path / "t16.txt"
    path16.write_bytes(text.encode("utf-16"))
    assert [x for b in bio.iter_line_blocks(str(path16), "utf-16", block_bytes=block) for x in b] == text.split("\n")


def test_ctrl_c_while_reading_exits_130_with_one_line(tmp_path):
    proc = subprocess.Popen(
        [sys.executable, "-m", "bleuscope", REF_A],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=default_ctrl_c,
    )
    proc.stdin.write(b"a line\n" * 10)
    proc.stdin.flush()  # stdin stays open: the command waits for more input
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    proc.stdin.close()
    assert proc.returncode == 130
    assert err.decode().strip() == "bleuscope: interrupted"


# -- repeated -i / -r ----------------------------------------------------------------------------------------
def test_repeated_references_accumulate(run_main):
    code, out, err = run_main([HYP_B, "-r", REF_A, "-r", REF_B, "-b", "-w", "2"])
    assert code == 0, err
    both = BLEU().corpus_score(lines(HYP_B), [lines(REF_A), lines(REF_B)]).score
    assert out == f"{both:.2f}\n" and out == "51.95\n"


def test_repeated_inputs_accumulate(run_main):
    code, out, err = run_main([REF_A, "-i", HYP_B, "-i", HYP_O, "-b", "-w", "2"])
    assert code == 0, err
    expected = [BLEU().corpus_score(lines(h), [lines(REF_A)]).score for h in (HYP_B, HYP_O)]
    assert out == "".join(f"{s:.2f}\n" for s in expected)


# -- no prefix matching ----------------------------------------------------------------------------------------
def test_t_is_the_test_set_not_the_tokenizer(run_main):
    code, _, err = run_main([REF_A, "-i", HYP_B, "-t", "intl"])
    assert code != 0 and "tokenizer" not in err
    code, _, err = run_main(["-t", "wmt22", "-l", "en-de", "--list", "-x"])
    one_line_error(code, err, 2, "unrecognized arguments: -x")


@pytest.mark.parametrize("prefix", ["--tok", "--token", "--lower", "--sentence", "--hyp", "--max-ngram"])
def test_long_option_prefixes_are_refused(run_main, prefix):
    argv = [REF_A, "-i", HYP_B, prefix] + ([] if prefix in ("--lower", "--sentence") else ["13a"])
    code, _, err = run_main(argv)
    one_line_error(code, err, 2, prefix)


# -- closed stdout, UTF-16 -----------------------------------------------------------------------------------
@pytest.mark.parametrize("args", [f"{HYP_B} -r {REF_A} -sl -f jsonl", "-h"])
@pytest.mark.parametrize("reader", ["true", "head -1"])
def test_closed_stdout_exits_0_quietly_like_head(args, reader):
    status = subprocess.run(
        ["bash", "-c", f"set -o pipefail; {sys.executable} -m bleuscope {args} | {reader} >/dev/null"],
        capture_output=True,
        timeout=120,
    )
    assert (status.returncode, status.stderr) == (0, b"")


def test_utf16_input_gets_a_hint_and_reads_with_the_encoding(run_main, tmp_path):
    for encoding, bom in (("utf-16", None), ("utf-16-be", b"\xfe\xff")):
        path = tmp_path / f"h.{encoding}.txt"
        data = Path(HYP_B).read_text(encoding="utf-8").encode(encoding)
        if bom is not None:
            data = bom + data
        path.write_bytes(data)
        code, _, err = run_main([REF_A, "-i", str(path)])
        one_line_error(code, err, 1, "looks like UTF-16", "--encoding utf-16", ":1: invalid UTF-8")
    ref16 = tmp_path / "r.utf-16.txt"
    ref16.write_bytes(Path(REF_A).read_text(encoding="utf-8").encode("utf-16"))
    code, _, err = run_main([REF_A, "-i", str(tmp_path / "h.utf-16.txt"), "--encoding", "utf-16"])
    one_line_error(code, err, 1, "ref.A.txt:1: invalid utf-16", "--encoding")  # -e applies to every file
    code, out, err = run_main(
        [str(ref16), "-i", str(tmp_path / "h.utf-16.txt"), "--encoding", "utf-16", "-b", "-w", "4"]
    )
    assert code == 0, err
    assert out == f"{BLEU().corpus_score(lines(HYP_B), [lines(REF_A)]).score:.4f}\n"


# -- -m ------------------------------------------------------------------------------------------------------
def test_metrics_option_accepts_bleu(run_main):
    code, out, err = run_main([REF_A, "-i", HYP_B, "-m", "bleu", "-b"])
    assert (code, out) == (0, "37.6\n"), err
    code, _, err = run_main([REF_A, "-i", HYP_B, "-m", "nosuchmetric"])
    one_line_error(code, err, 2, "-m/--metrics")


# -- the help examples run as written ------------------------------------------------------------------------
def help_examples() -> list[str]:
    text = cli.build_parser().format_help()
    block = text.split("examples (", 1)[1].split("\n\nexit status")[0]
    return [line.strip().split("   ")[0].strip() for line in block.split("\n")[1:] if line.strip()]


def test_help_lists_examples():
    examples = help_examples()
    assert len(examples) >= 6 and all(e.startswith("bleuscope ") for e in examples)
    assert any("--hyp-field output --ref-field target" in e for e in examples)


@pytest.mark.parametrize("example", help_examples())
def test_help_example_runs_as_written(example, tmp_path, run_main):
    import shlex
    import shutil

    work = tmp_path / "example"
    shutil.copytree(EXAMPLE, work)
    cwd = os.getcwd()
    os.chdir(work)
    try:
        code, out, err = run_main(shlex.split(example)[1:])
    finally:
        os.chdir(cwd)
    assert code == 0, err
    assert "error" not in err
    if "-o seg.jsonl" in example:
        first = json.loads((work / "seg.jsonl").read_text().split("\n")[0])
        assert first["line"] == 1 and first["signature"].startswith("nrefs:1|")
    elif "--ref-field target" in example:  # the JSON Lines pairs Online-B with reference A
        assert json.loads(out)["score_unrounded"] == BLEU().corpus_score(lines(HYP_B), [lines(REF_A)]).score


# -- the API reads paths with the command's readers ----------------------------------------------------------
def test_api_reads_compressed_paths(tmp_path):
    hyp = tmp_path / "h.gz"
    hyp.write_bytes(gzip.compress(Path(HYP_B).read_bytes()))
    ref = tmp_path / "r.xz"
    ref.write_bytes(lzma.compress(Path(REF_A).read_bytes()))
    ref2 = tmp_path / "r2.bz2"
    ref2.write_bytes(bz2.compress(Path(REF_B).read_bytes()))
    expected = BLEU().corpus_score(lines(HYP_B), [lines(REF_A), lines(REF_B)])
    assert BLEU().corpus_score(hyp, [ref, ref2]).score == expected.score


# -- lazy start --------------------------------------------------------------------------------------------
def test_help_imports_nothing_heavy():
    code = (
        "import sys, bleuscope.cli as c; c.build_parser().format_help(); "
        "print(sorted(m for m in ('numpy', 'regex', 'sacrebleu') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_smoothing_choices_match_the_library():
    from bleuscope.cli.main import SMOOTH_METHODS
    from bleuscope.metrics.bleu.scoring import SMOOTH_DEFAULTS

    assert list(SMOOTH_METHODS) == list(SMOOTH_DEFAULTS)


def test_significance_defaults_match_the_library():
    from bleuscope.analysis import significance
    from bleuscope.cli import significance as cli_sig

    assert (cli_sig.BOOTSTRAP_SAMPLES, cli_sig.AR_TRIALS, cli_sig.DEFAULT_SEED) == (
        significance.BOOTSTRAP_SAMPLES,
        significance.AR_TRIALS,
        significance.DEFAULT_SEED,
    )


# -- subcommands ---------------------------------------------------------------------------------------------
def test_report_subcommand_is_dispatched_with_the_rest_of_argv(run_main, monkeypatch):
    import types

    seen = {}
    module = types.ModuleType("fake_report_cli")
    module.main = lambda argv: seen.setdefault("argv", argv) and 7
    monkeypatch.setitem(sys.modules, "fake_report_cli", module)
    monkeypatch.setitem(importlib.import_module("bleuscope.cli.main").SUBCOMMANDS, "report", "fake_report_cli")
    code, _, _ = run_main(["report", "ref.txt", "-i", "a.txt", "-o", "r.html"])
    assert code == 7 and seen["argv"] == ["ref.txt", "-i", "a.txt", "-o", "r.html"]


def test_report_is_a_file_name_when_the_subcommand_is_not_installed(run_main, monkeypatch, tmp_path):
    monkeypatch.setitem(
        importlib.import_module("bleuscope.cli.main").SUBCOMMANDS, "report", "bleuscope_no_such_module.cli"
    )
    monkeypatch.chdir(tmp_path)
    code, _, err = run_main(["report", "-i", HYP_B])
    one_line_error(code, err, 1, "report: no such file")


# -- sentence scores are rendered piece by piece -------------------------------------------------------------
@pytest.mark.parametrize(
    "fmt, score_only",
    [("text", False), ("json", False), ("jsonl", False), ("tsv", False), ("text", True), ("json", True)],
)  # -b goes with text and json
def test_sentence_rendering_in_pieces_equals_one_piece(fmt, score_only):
    from bleuscope.cli import render
    from bleuscope.cli.metrics import get_metric
    from bleuscope.cli.scoring import SystemResult

    bleu = BLEU(effective_order=True)
    hyps, refs = lines(HYP_B)[:53], [lines(REF_A)[:53], lines(REF_B)[:53]]
    seg = bleu.segment_statistics(hyps, refs)
    result = render.MetricResults(get_metric("bleu"), bleu, [SystemResult(name="h", stats=seg.stats, nrefs="2", score=None)])
    options = render.RenderOptions(format=fmt, width=2, score_only=score_only)
    whole = "".join(render.render_sentences(result, options, chunk=10_000))
    assert "".join(render.render_sentences(result, options, chunk=7)) == whole
    if fmt == "json" and not score_only:
        assert [o["score"] for o in json.loads(whole)] == bleu.sentence_scores(hyps, refs).scores.tolist()
    if score_only:
        assert whole.split() == [f"{s:.2f}" for s in bleu.sentence_scores(hyps, refs).scores]


def test_output_to_dev_stdout_writes_the_open_descriptor(tmp_path):
    piped = command([REF_A, "-i", HYP_B, "-b", "-o", "/dev/stdout"])
    assert (piped.returncode, piped.stdout, piped.stderr) == (0, b"37.6\n", b"")
    target = tmp_path / "redirected.txt"
    target.write_text("old\n")
    inode = target.stat().st_ino
    with open(target, "r+b") as f:  # the shell's `> file`: the command's stdout is this open file
        proc = subprocess.run(
            [sys.executable, "-m", "bleuscope", REF_A, "-i", HYP_B, "-b", "-o", "/dev/stdout"],
            stdout=f,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    assert proc.returncode == 0, proc.stderr
    assert target.read_text() == "37.6\n" and target.stat().st_ino == inode  # written in place, not replaced


# -- the block reader against whole-file reading, on arbitrary input -----------------------------------------
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.text(alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="\x00"), max_size=12), max_size=8),
    st.integers(1, 9),
    st.booleans(),
    st.one_of(st.none(), st.integers(0, 200)),
)
def test_block_reader_is_whole_file_reading_at_any_block_size(tmp_path, parts, block, final_newline, bad_at):
    data = bytearray("\n".join(parts).encode("utf-8") + (b"\n" if final_newline and parts else b""))
    if bad_at is not None:  # an invalid byte at a character boundary: the error names its exact place
        starts = [i for i in range(len(data) + 1) if i == len(data) or data[i] & 0xC0 != 0x80]
        pos = starts[bad_at % len(starts)]
        data[pos:pos] = b"\xff"
    path = tmp_path / "f.txt"
    path.write_bytes(bytes(data))
    reader = bio.iter_line_blocks(str(path), block_bytes=block, max_line_bytes=1 << 20)
    if bad_at is None:
        expected = bio.split_lines(bytes(data).decode("utf-8"))
        assert [x for b in reader for x in b] == expected
        return
    line = data.count(b"\n", 0, pos) + 1
    column = pos - (data.rfind(b"\n", 0, pos) + 1) + 1
    with pytest.raises(bio.InputError) as e:
        list(reader)
    assert f"f.txt:{line}: invalid UTF-8 (byte 0xff at byte offset {pos} of the file, column {column} " in str(e.value)
