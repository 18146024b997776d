"""``bleuscope report -o`` follows the main command's output rules (one shared implementation): never an
input file (same inode: also through symbolic and hard links), never a read-only file, a symbolic link's
target written through the link, FIFOs and character devices written directly, ``-o -`` to standard output."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import bleuscope
from bleuscope.report.cli import main

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
FAST = ["--n-bootstrap", "20", "--max-segments", "5"]


@pytest.fixture
def files(tmp_path: Path, monkeypatch) -> Path:
    for name, target in (("ref.A.txt", "ref.txt"), ("hyp.Online-B.txt", "hcopy.txt"), ("hyp.OpenNMT.txt", "hyp2.txt")):
        lines = (EXAMPLE / name).read_text(encoding="utf-8").split("\n")[:40]
        (tmp_path / target).write_text("\n".join(lines) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _report(capsys, *output: str) -> tuple[int, str, str]:
    code = main(["ref.txt", "-i", "hcopy.txt", "hyp2.txt", *FAST, "-o", *output])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("link", ["same name", "symbolic link", "hard link"])
def test_output_that_is_an_input_is_refused(files, capsys, link):
    before = (files / "hcopy.txt").read_bytes()
    if link == "same name":
        target, suffix = "hcopy.txt", ""
    elif link == "symbolic link":
        os.symlink("hcopy.txt", files / "out.html")
        target, suffix = "out.html", " (hcopy.txt is the same file)"
    else:
        os.link(files / "hcopy.txt", files / "out.html")
        target, suffix = "out.html", " (hcopy.txt is the same file)"
    code, out, err = _report(capsys, target)
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"bleuscope report: error: -o {target} would overwrite an input file{suffix}"]
    assert (files / "hcopy.txt").read_bytes() == before


def test_read_only_file_is_not_replaced(files, capsys):
    (files / "ro.html").write_text("keep", encoding="utf-8")
    os.chmod(files / "ro.html", 0o444)
    code, out, err = _report(capsys, "ro.html")
    assert (code, out) == (1, "")
    assert err.splitlines() == [
        "bleuscope report: error: ro.html: the file is read-only; it is not replaced (make it writable, or choose "
        "another name)"
    ]
    assert (files / "ro.html").read_text(encoding="utf-8") == "keep"
    assert stat.S_IMODE(os.stat(files / "ro.html").st_mode) == 0o444


def test_symbolic_link_is_written_through(files, capsys):
    (files / "target.html").write_text("old", encoding="utf-8")
    os.symlink("target.html", files / "link.html")
    code, _, err = _report(capsys, "link.html")
    assert code == 0, err
    assert os.path.islink(files / "link.html")
    assert (files / "target.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert "wrote link.html" in err


def test_fifo_is_written_directly(files, capsys):
    fifo = files / "page.fifo"
    os.mkfifo(fifo)
    received = []
    reader = threading.Thread(target=lambda: received.append(fifo.read_bytes()))
    reader.start()
    code, _, err = _report(capsys, str(fifo))
    reader.join(timeout=60)
    assert code == 0, err
    assert received and received[0].startswith(b"<!DOCTYPE html>")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_character_device_stays_a_device(files, capsys):
    # a node of our own for the null device (never /dev/null itself: a broken writer would replace the system's)
    null = files / "null"
    try:
        os.mknod(null, 0o666 | stat.S_IFCHR, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("creating a device node needs root")
    code, _, err = _report(capsys, str(null))
    assert code == 0, err
    assert stat.S_ISCHR(os.stat(null).st_mode) and os.stat(null).st_rdev == os.makedev(1, 3)


def test_dash_writes_standard_output(files):
    run = subprocess.run([sys.executable, "-m", "bleuscope", "report", "ref.txt", "-i", "hcopy.txt", "hyp2.txt",
                          *FAST, "-o", "-"], capture_output=True, text=True, cwd=files, timeout=300)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("<!DOCTYPE html>")
    assert "<stdin>" not in run.stderr and "wrote the page to standard output" in run.stderr
    assert not (files / "-").exists()


def test_new_file_is_written_atomically_with_no_temporary_left(files, capsys):
    code, _, err = _report(capsys, "report.html")
    assert code == 0, err
    assert (files / "report.html").read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert sorted(p.name for p in files.iterdir()) == ["hcopy.txt", "hyp2.txt", "ref.txt", "report.html"]
