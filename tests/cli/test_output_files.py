"""``-o`` of the main command: an output that is one of the inputs is refused however it is named, and
SIGTERM while the output is being written removes the temporary file as Ctrl-C does; --encoding is checked."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import bleuscope
from bleuscope.cli import main, output
from bleuscope.cli.output import UsageError

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"


@pytest.fixture
def files(tmp_path: Path, monkeypatch) -> Path:
    for name, target in (("ref.A.txt", "ref.txt"), ("hyp.Online-B.txt", "hyp.txt")):
        (tmp_path / target).write_bytes((EXAMPLE / name).read_bytes())
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("link", ["hard link", "symbolic link"])
def test_output_linked_to_an_input_is_refused(files, capsys, link):
    (os.link if link == "hard link" else os.symlink)("hyp.txt", "out.txt")
    before = (files / "hyp.txt").read_bytes()
    assert main(["ref.txt", "-i", "hyp.txt", "-o", "out.txt"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["bleuscope: error: -o out.txt would overwrite an input file (hyp.txt is the same file)"]
    assert (files / "hyp.txt").read_bytes() == before


def test_output_that_is_the_file_on_stdin_is_refused(files):
    with open(files / "hyp.txt", "rb") as stdin:
        run = subprocess.run([sys.executable, "-m", "bleuscope", "ref.txt", "-o", "hyp.txt"], stdin=stdin,
                             capture_output=True, text=True, cwd=files, timeout=120)
    assert run.returncode == 2
    assert run.stderr.splitlines() == [
        "bleuscope: error: -o hyp.txt would overwrite an input file (<stdin> is the same file)"
    ]
    assert (files / "hyp.txt").read_bytes() == (EXAMPLE / "hyp.Online-B.txt").read_bytes()


def test_sigterm_while_writing_removes_the_temporary_file(files):
    # enough segments that the sentence scores are still being written when the signal comes
    lines = (files / "hyp.txt").read_text(encoding="utf-8") * 400
    refs = (files / "ref.txt").read_text(encoding="utf-8") * 400
    (files / "big.hyp").write_text(lines, encoding="utf-8")
    (files / "big.ref").write_text(refs, encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "bleuscope", "big.ref", "-i", "big.hyp", "-sl", "-f", "jsonl",
                             "-o", "seg.jsonl", "-q"], cwd=files, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 120
    while not list(files.glob(".seg.jsonl.*.tmp")) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.02)
    assert list(files.glob(".seg.jsonl.*.tmp")), "the temporary output file never appeared"
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == -signal.SIGTERM, err  # still ends by the signal, as without the clean-up
    assert sorted(p.name for p in files.iterdir()) == ["big.hyp", "big.ref", "hyp.txt", "ref.txt"]


#: in a child process: SIGTERM arrives as soon as the temporary file exists, before write_atomic has its name
#: (the signal is delivered inside mkstemp, the narrowest place a loaded machine can hit)
_SIGNAL_IN_MKSTEMP = """
import os, signal, sys, tempfile
from bleuscope.core.files import write_atomic

real_mkstemp = tempfile.mkstemp

def mkstemp_then_signal(*args, **kwargs):
    made = real_mkstemp(*args, **kwargs)
    os.kill(os.getpid(), signal.SIGTERM)
    for _ in range(100):  # the handler runs at the next check of pending signals, still in here
        pass
    return made

tempfile.mkstemp = mkstemp_then_signal
write_atomic(sys.argv[1], "text\\n" * int(sys.argv[2]))
"""


@pytest.mark.parametrize("existing", [False, True])
def test_sigterm_as_the_temporary_file_is_created_leaves_nothing_behind(tmp_path, existing):
    out = tmp_path / "out.txt"
    if existing:
        out.write_text("old\n", encoding="utf-8")
    run = subprocess.run([sys.executable, "-c", _SIGNAL_IN_MKSTEMP, str(out), "1000"], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == -signal.SIGTERM, run.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == (["out.txt"] if existing else [])
    if existing:
        assert out.read_text(encoding="utf-8") == "old\n"  # untouched


def test_unknown_encoding_is_a_usage_error():
    with pytest.raises(UsageError, match="unknown encoding 'nope'"):
        output.check_encoding("nope")
    with pytest.raises(UsageError, match="not a text encoding"):
        output.check_encoding("rot13")
    assert output.check_encoding("UTF8") == "utf-8"
