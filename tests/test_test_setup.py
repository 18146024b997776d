"""The test run's own output: one closing line on what was skipped and why, the library's expected warnings
(ties in resampling, ...) kept out of it by the pytest configuration, and a loud summary when the WMT data is
missing."""

from __future__ import annotations

import builtins
import importlib
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from .conftest import pytest_terminal_summary, skip_reasons

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    tomllib = None

ROOT = Path(__file__).resolve().parents[1]


def report(reason: str):
    return SimpleNamespace(longrepr=("tests/x.py", 1, f"Skipped: {reason}"))


def test_skip_reasons_are_counted_most_frequent_first():
    reports = [report("full sweep: run with --full")] * 3 + [report("WordNet 3.0 not installed")]
    assert skip_reasons(reports) == [("full sweep: run with --full", 3), ("WordNet 3.0 not installed", 1)]


def test_the_closing_line_says_what_was_skipped_and_why():
    lines = []
    reporter = SimpleNamespace(
        stats={"skipped": [report("full sweep: run with --full")] * 1821 + [report(f"r{k}") for k in range(5)]},
        write_line=lambda text, **_: lines.append(text),
        write_sep=lambda *a, **k: lines.append("sep"),
    )
    pytest_terminal_summary(reporter, 0, None)
    assert lines == ["skipped 1,826: 1,821 full sweep: run with --full; 1 r0; 1 r1; 1 r2; "
                     "2 for 2 other reasons (pytest -rs lists them)"]


def test_the_filtered_warnings_are_the_librarys_own_classes_or_named_messages():
    """A filter hides either one of bleuscope's own warning classes (the tests provoke them on purpose) or one
    message of another library by its text: never a whole category of someone else's warnings, which could be
    news."""
    if tomllib is None:
        pytest.skip("tomllib is Python 3.11+")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    filters = config["tool"]["pytest"]["ini_options"]["filterwarnings"]
    assert filters
    for entry in filters:
        action, message, category, *rest = entry.split(":")
        assert action == "ignore" and not rest, entry
        if category.startswith("bleuscope."):
            module, _, name = category.rpartition(".")
            cls = getattr(importlib.import_module(module), name)
            assert issubclass(cls, UserWarning) and not message, entry
        else:
            assert issubclass(getattr(builtins, category), Warning), entry
            assert len(message.strip("\\s*")) >= 20, entry  # a message's own words, not a pattern for any


# -- without ../shared/data/mt the WMT sweep skips; the run must then say so in its summary, loudly
TESTS = ROOT / "tests"

NEEDS_WMT = '''
from ..conftest import requires_wmt


@requires_wmt
def test_needs_the_wmt_data():
    pass


def test_runs_anyway():
    pass
'''


def _run_in_a_checkout_without_data(tmp_path: Path) -> subprocess.CompletedProcess:
    tests = tmp_path / "checkout" / "tests"
    (tests / "parity").mkdir(parents=True)
    shutil.copy(TESTS / "conftest.py", tests / "conftest.py")
    (tests / "__init__.py").write_text("", encoding="utf-8")
    (tests / "parity" / "__init__.py").write_text("", encoding="utf-8")
    (tests / "parity" / "test_sweep.py").write_text(NEEDS_WMT, encoding="utf-8")
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", "tests"],
                          capture_output=True, text=True, cwd=tests.parent, timeout=300)


def test_summary_says_the_wmt_sweep_did_not_run(tmp_path):
    run = _run_in_a_checkout_without_data(tmp_path)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "WMT PARITY SWEEP DID NOT RUN" in run.stdout
    assert "1 tests comparing with sacreBLEU/NLTK on the real WMT data were skipped: ../shared/data/mt not found" in (
        run.stdout)
    assert "1 passed, 1 skipped" in run.stdout
