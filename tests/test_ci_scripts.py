"""The CI scripts name test files and folders by path: each must exist, or CI would fail (or, for a ``-k``
selection, test less than it says) only after a test file moved."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = sorted((ROOT / ".ci").iterdir())
TEST_PATH = re.compile(r"(?<![\w/.])tests/[\w/.-]*\w")


def test_the_ci_scripts_are_found():
    assert {p.name for p in SCRIPTS} >= {"run", "wheel"}


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda p: p.name)
def test_every_test_path_in_a_ci_script_exists(script):
    paths = TEST_PATH.findall(script.read_text(encoding="utf-8"))
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert not missing, f".ci/{script.name} names test paths that do not exist: {missing}"


def test_the_path_pattern_finds_paths():
    text = "pytest tests/core/test_x.py tests/parity -k a  # not mytests/y.py"
    assert TEST_PATH.findall(text) == ["tests/core/test_x.py", "tests/parity"]
