"""Without ../shared/data/mt the WMT sweep skips; the run must then say so in its summary, loudly."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]

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
