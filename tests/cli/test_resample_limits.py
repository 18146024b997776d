"""Resample counts: a documented limit (one-line usage error, exit 2, before any input is read), a million
still possible, a progress line on a terminal for long runs, and Ctrl-C stops a long run cleanly."""

from __future__ import annotations

import json
import os
import pty
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

import bleuscope
from bleuscope.analysis.significance import all_pairs, confidence_interval, paired_ar, paired_bootstrap
from bleuscope.analysis.significance.inputs import MAX_RESAMPLES
from bleuscope.cli import significance as cli_significance

from ..conftest import default_ctrl_c

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
SYSTEMS = ["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt"]


def _cli(*args: str, cwd: Path = EXAMPLE) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "bleuscope", *args], capture_output=True, text=True, cwd=cwd,
                          timeout=120)


def test_the_command_line_limit_is_the_librarys():
    assert cli_significance.MAX_RESAMPLES == MAX_RESAMPLES == 10_000_000


@pytest.mark.parametrize(
    ("args", "option", "value"),
    [
        (["--confidence", "--confidence-n", str(10**12)], "--confidence-n/-cin", 10**12),
        (["--paired-bs", "--paired-bs-n", str(10**10)], "--paired-bs-n/-pbsn", 10**10),
        (["--paired-ar", "--paired-ar-n", str(10**10)], "--paired-ar-n/-parn", 10**10),
        (["--paired-ar", "--paired-ar-n", str(MAX_RESAMPLES + 1)], "--paired-ar-n/-parn", MAX_RESAMPLES + 1),
    ],
)
def test_counts_above_the_limit_are_usage_errors(args, option, value):
    run = _cli(*SYSTEMS, *args)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [
        f"bleuscope: error: argument {option}: expected a whole number from 1 to 10,000,000, got '{value}' "
        "(see bleuscope --help)"
    ]


def test_report_bootstrap_count_above_the_limit_is_a_usage_error(tmp_path):
    run = _cli("report", *SYSTEMS, "--n-bootstrap", str(10**9), "-o", str(tmp_path / "r.html"))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.splitlines() == [
        "bleuscope report: error: argument --n-bootstrap: must be from 1 to 100,000, got 1000000000 "
        "(see bleuscope report --help)"
    ]
    assert not (tmp_path / "r.html").exists()


@pytest.mark.parametrize("run", [confidence_interval, paired_bootstrap, paired_ar, all_pairs])
def test_the_library_refuses_counts_above_the_limit(run):
    x = np.array([[3, 3, 2, 2, 1, 1, 0, 0, 3, 3]], dtype=np.int64).repeat(5, axis=0)
    system = x if run is confidence_interval else {"a": x, "b": x[::-1].copy()}
    with pytest.raises(ValueError, match=r"n_samples must be at most 10,000,000 \(the limit on resamples\), "
                                         r"got 10,000,000,000"):
        run(system, n_samples=10**10)


def _on_a_terminal(args: list[str]):
    """The command with stderr on a pseudo-terminal: (process, master fd)."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "bleuscope", *args], stdout=subprocess.PIPE, stderr=slave,
                            cwd=EXAMPLE, preexec_fn=default_ctrl_c)
    os.close(slave)
    return proc, master


def _read_until(master: int, proc, needle: bytes, deadline: float) -> bytes:
    seen = b""
    while needle not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.5)
        if ready:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # the process closed its end
                break
            if not chunk:
                break
            seen += chunk
        elif proc.poll() is not None:
            break
    return seen


def test_a_million_trials_run_with_a_progress_line_on_a_terminal():
    proc, master = _on_a_terminal([*SYSTEMS, "--paired-ar", "--paired-ar-n", "1000000", "-f", "json"])
    try:
        terminal = _read_until(master, proc, b"\r\x1b[K", time.monotonic() + 300)
        out, _ = proc.communicate(timeout=300)
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert b" resamples (" in terminal  # "bleuscope: 131,072 resamples (52,000/s)  2.5s"
    baseline, system = json.loads(out)
    assert baseline["BLEU"]["p_value"] is None and 0 < system["BLEU"]["p_value"] <= 1


def test_ctrl_c_stops_a_long_run_cleanly():
    proc, master = _on_a_terminal([*SYSTEMS, "--paired-ar", "--paired-ar-n", str(MAX_RESAMPLES)])
    try:
        seen = _read_until(master, proc, b" resamples (", time.monotonic() + 300)
        assert b" resamples (" in seen
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
        rest = _read_until(master, proc, b"interrupted\r\n", time.monotonic() + 10)
    finally:
        os.close(master)
    assert proc.returncode == 130 and out == b""
    assert rest.endswith(b"\r\x1b[Kbleuscope: interrupted\r\n")
    assert b"Traceback" not in seen + rest


def test_a_large_corpus_shows_progress_with_the_default_resamples(tmp_path):
    """Progress follows the work (resamples x segments): 1,000 resamples of 60,000 lines show the line."""
    for name in ("ref.A.txt", "hyp.Online-B.txt"):
        lines = (EXAMPLE / name).read_text(encoding="utf-8").splitlines()
        (tmp_path / name).write_text("\n".join((lines * (60_000 // len(lines) + 1))[:60_000]) + "\n", encoding="utf-8")
    threshold = cli_significance.PROGRESS_MIN_RESAMPLED_SEGMENTS // 60_000
    assert threshold < 1000  # the default count passes it
    proc, master = _on_a_terminal([str(tmp_path / "ref.A.txt"), "-i", str(tmp_path / "hyp.Online-B.txt"),
                                   "--confidence", "-f", "json"])
    try:
        terminal = _read_until(master, proc, b"\r\x1b[K", time.monotonic() + 300)
        out, _ = proc.communicate(timeout=300)
    finally:
        os.close(master)
    assert proc.returncode == 0
    assert b" resamples (" in terminal
    assert json.loads(out)["signature"].startswith("nrefs:1|bs:1000|seed:12345")
