"""Ctrl-C while the compiled core counts: every metric, the report, ``--confidence`` and standard input end
with exit 130 and the one line ``bleuscope: interrupted`` soon after the signal (the core polls Python's
signal handlers while it counts), with no traceback, no Rust panic and no output file.

The inputs are a generated corpus of a million lines (``../shared/tools/make_corpus.py``, about a second to
write); each command is interrupted well before it could finish, so a run costs about a second."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from ..conftest import default_ctrl_c, requires_core

MAKE_CORPUS = Path(__file__).resolve().parents[3] / "shared" / "tools" / "make_corpus.py"

#: seconds from the signal to the exit: the core stops within its poll interval (20 ms) plus a unit of
#: work; the bound leaves room for a machine busy with other tests, while a core that counts on to the end
#: of a million lines, or waits for it, takes longer
PROMPT = 2.0

pytestmark = [requires_core, pytest.mark.skipif(not MAKE_CORPUS.is_file(), reason="make_corpus.py not found")]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("interrupt_corpus")
    subprocess.run([sys.executable, str(MAKE_CORPUS), str(out), "1000000"], check=True, capture_output=True)
    head = out / "head"  # the report's input: it keeps every segment's statistics
    head.mkdir()
    for name in ("hyp.txt", "ref.txt"):
        with open(out / name, "rb") as f, open(head / name, "wb") as g:
            g.writelines(line for _, line in zip(range(200_000), f))
    return out


def cpu_seconds(pid: int) -> float:
    """The user and system time of a process so far (all its threads)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for_cpu(proc: subprocess.Popen, seconds: float) -> None:
    """Until the process has used ``seconds`` of CPU time (past its start-up, about 0.4 s: in the count however
    busy the machine is), or has ended."""
    deadline = time.monotonic() + 120
    while proc.poll() is None and time.monotonic() < deadline:
        try:
            if cpu_seconds(proc.pid) >= seconds:
                return
        except (OSError, IndexError):
            return
        time.sleep(0.02)


def interrupt(argv: list[str], after: float, *, cwd: Path, stdin_path: Path | None = None):
    """Runs ``python -m bleuscope argv`` and sends SIGINT once it has used ``after`` CPU-seconds: (exit code,
    seconds from the signal to the exit, stdout, stderr)."""
    stdin = open(stdin_path, "rb") if stdin_path else subprocess.DEVNULL
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "bleuscope", *argv],
            stdin=stdin, stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=cwd, preexec_fn=default_ctrl_c,
            env={**os.environ, "OMP_NUM_THREADS": "1"},
        )
        wait_for_cpu(proc, after)
        finished_before = proc.poll() is not None
        sent = time.monotonic()
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=120)
        waited = time.monotonic() - sent
    finally:
        if stdin_path:
            stdin.close()
    assert not finished_before, f"the command ended before the signal: {err.decode()[-500:]}"
    return proc.returncode, waited, out.decode(), err.decode()


def assert_interrupted(code: int, waited: float, out: str, err: str, prog: str = "bleuscope") -> None:
    # the report's input warnings may come first
    lines = err.strip().splitlines()
    assert (code, lines[-1:], out) == (130, [f"{prog}: interrupted"], ""), err[-2000:]
    assert all(line.startswith(f"{prog}: ") for line in lines), err[-2000:]  # no traceback, no panic
    assert waited < PROMPT, f"exit {waited:.2f} s after the signal"


@pytest.fixture(scope="module")
def bleu_cpu_seconds(corpus) -> float:
    """The CPU time of a whole BLEU run on the corpus: BLEU is fast enough (about 1.5 CPU-s on a machine of
    2026) that a fixed moment could fall after its end on a faster machine, so its signals are sent at
    fractions of this."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "bleuscope", "ref.txt", "-i", "hyp.txt", "-q"], cwd=corpus, check=True,
                   capture_output=True, env={**os.environ, "OMP_NUM_THREADS": "1"})
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


@pytest.mark.parametrize(
    ("metric", "after"),
    [("bleu", 0.45), ("bleu", 0.75), ("chrf", 1.2), ("ter", 1.2), ("rouge", 1.2), ("meteor", 1.5)],
)
def test_ctrl_c_while_the_core_counts_a_metric(corpus, tmp_path, nltk_data_dir, request, metric, after):
    """``after`` is CPU-seconds, or for BLEU the fraction of a whole run's CPU time."""
    if metric == "bleu":
        after *= request.getfixturevalue("bleu_cpu_seconds")
    extra = ["--meteor-wordnet", str(nltk_data_dir)] if metric == "meteor" else []
    result = interrupt(["ref.txt", "-i", "hyp.txt", "-q", "-m", metric, *extra], after, cwd=corpus)
    assert_interrupted(*result)


def test_ctrl_c_leaves_no_output_file(corpus, tmp_path):
    out = tmp_path / "out.json"
    result = interrupt(["ref.txt", "-i", "hyp.txt", "-q", "-m", "bleu", "chrf", "-o", str(out)], 1.5, cwd=corpus)
    assert_interrupted(*result)
    assert list(tmp_path.iterdir()) == []


def test_ctrl_c_while_the_confidence_interval_is_counted(corpus):
    assert_interrupted(*interrupt(["ref.txt", "-i", "hyp.txt", "-q", "--confidence"], 1.2, cwd=corpus))


def test_ctrl_c_while_standard_input_is_counted(corpus):
    result = interrupt(["ref.txt", "-q", "-m", "chrf"], 1.2, cwd=corpus, stdin_path=corpus / "hyp.txt")
    assert_interrupted(*result)


def test_ctrl_c_in_the_report(corpus, tmp_path):
    out = tmp_path / "r.html"
    result = interrupt(["report", "head/ref.txt", "-i", "head/hyp.txt", "-o", str(out)], 1.5, cwd=corpus)
    assert_interrupted(*result, prog="bleuscope report")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("metric", ["BLEU", "CHRF"])
def test_ctrl_c_in_a_library_call(corpus, metric):
    """A corpus score of lists in memory: the KeyboardInterrupt reaches the caller as it does in Python code."""
    script = f"""
import os, signal, sys, threading, time
from bleuscope import {metric}
hyps = open("hyp.txt", encoding="utf-8").read().split("\\n")[:-1]
refs = open("ref.txt", encoding="utf-8").read().split("\\n")[:-1]
metric = {metric}()
sent = []
threading.Timer(0.3, lambda: (sent.append(time.monotonic()), os.kill(os.getpid(), signal.SIGINT))).start()
try:
    metric.corpus_score(hyps, [refs])
except KeyboardInterrupt:
    print("interrupted", time.monotonic() - sent[0])
"""
    done = subprocess.run([sys.executable, "-c", script], cwd=corpus, capture_output=True, text=True, timeout=120,
                          preexec_fn=default_ctrl_c)
    assert done.returncode == 0 and done.stderr == "", done.stderr[-2000:]
    word, waited = done.stdout.split()
    assert word == "interrupted" and float(waited) < PROMPT
