"""Fixtures of the command-line tests: WordNet for METEOR, the command run in-process, the bundled example files."""

from __future__ import annotations

import io
import sys

import pytest

from bleuscope import cli

from ..meteor_support import nltk_data_dir, wordnet  # noqa: F401 - WordNet 3.0 for the METEOR tests


@pytest.fixture
def run_main(capsys, monkeypatch):
    """``main(argv)`` in-process with ``stdin`` bytes on standard input: returns (exit code, stdout, stderr)."""

    def call(argv: list, stdin: bytes = b""):
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
        code = cli.main([str(a) for a in argv])
        out, err = capsys.readouterr()
        return code, out, err

    return call


@pytest.fixture
def example(monkeypatch):
    """The bundled example folder as the working directory (relative names, as sacreBLEU prints them)."""
    monkeypatch.chdir(cli.example_dir())
    return cli.example_dir()


def one_line_error(code: int, err: str, expected_code: int, *fragments: str) -> str:
    """The one-line message of a user error (no traceback), after checking the exit code and fragments."""
    lines = err.splitlines()
    assert (code, len(lines), lines[0].startswith("bleuscope: error: ")) == (expected_code, 1, True), err
    missing = [f for f in fragments if f not in lines[0]]
    assert not missing, (missing, lines[0])
    return lines[0]
