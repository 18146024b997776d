"""An endless hypothesis stream (``yes | bleuscope ref.txt``) ends with the line-count error at the first
line without a counterpart, as a finite file with too many lines does, instead of reading forever."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import bleuscope

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
COMMAND = [sys.executable, "-m", "bleuscope"]


def _with_stdin_from(producer: list[str], *args: str) -> subprocess.CompletedProcess:
    source = subprocess.Popen(producer, stdout=subprocess.PIPE)
    try:
        return subprocess.run([*COMMAND, *args], stdin=source.stdout, capture_output=True, text=True, cwd=EXAMPLE,
                              timeout=120)
    finally:
        source.stdout.close()
        source.kill()
        source.wait()


def test_endless_hypotheses_stop_with_the_line_count_error():
    run = _with_stdin_from(["yes"], "ref.A.txt")
    assert run.returncode == 1 and run.stdout == ""
    (line,) = run.stderr.splitlines()
    assert line.startswith("bleuscope: error: line counts differ: hypothesis <stdin> has at least ")
    assert line.endswith(" lines but reference ref.A.txt has 300; <stdin>:301 has no counterpart (nothing is "
                         "truncated and was not read to its end)")


def test_endless_hypotheses_with_other_metrics_and_tests():
    for args in (["-m", "chrf", "ter"], ["--confidence"], ["-sl"]):
        run = _with_stdin_from(["yes"], "ref.A.txt", *args)
        assert run.returncode == 1, args
        assert "<stdin>:301 has no counterpart" in run.stderr, args


def test_a_file_on_stdin_is_still_counted_to_its_end(tmp_path):
    longer = tmp_path / "hyp.txt"
    lines = (EXAMPLE / "hyp.Online-B.txt").read_text(encoding="utf-8")
    longer.write_text(lines + "one more\nand another\n", encoding="utf-8")
    with open(longer, "rb") as stdin:
        run = subprocess.run([*COMMAND, "ref.A.txt"], stdin=stdin, capture_output=True, text=True, cwd=EXAMPLE,
                             timeout=120)
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "bleuscope: error: line counts differ: hypothesis <stdin> has 302 lines but reference ref.A.txt has 300; "
        "<stdin>:301 has no counterpart (nothing is truncated)"
    ]


def test_a_pipe_that_ends_gets_its_exact_count():
    run = _with_stdin_from(["head", "-n", "299", str(EXAMPLE / "hyp.Online-B.txt")], "ref.A.txt")
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        "bleuscope: error: line counts differ: hypothesis <stdin> has 299 lines but reference ref.A.txt has 300; "
        "ref.A.txt:300 has no counterpart (nothing is truncated)"
    ]
