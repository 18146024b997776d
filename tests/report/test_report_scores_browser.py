"""A report with a scores-from-file column (human MQM-like scores) in headless Chromium: the column is in the
systems table with its interval and cluster, sorts like the others, and the page loads without errors."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import bleuscope
from bleuscope.metrics.scores import Scores
from bleuscope.report import write_report

from ..conftest import read_lines
from .conftest import CHROMIUM, chromium_available

pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
if not chromium_available():
    pytest.skip(f"Chromium not found at {CHROMIUM}", allow_module_level=True)

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"


def test_scores_column_in_the_browser(browser, tmp_path):
    systems = {name: read_lines(EXAMPLE / f"hyp.{name}.txt") for name in ("Online-B", "OpenNMT")}
    refs = [read_lines(EXAMPLE / "ref.A.txt")]
    rng = np.random.default_rng(1)
    values = {"Online-B": -rng.exponential(1.0, 300), "OpenNMT": -rng.exponential(3.0, 300)}
    mqm = Scores("MQM", values, texts=systems)
    path = tmp_path / "report.html"
    write_report(path, systems, refs, metrics=[mqm], n_bootstrap=200)
    context = browser.new_context()
    page = context.new_page()
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.goto(path.as_uri())
    headers = page.locator("th").all_inner_texts()
    assert any(h.strip().startswith("MQM") for h in headers), headers
    assert any("MQM" in h and "CI" in h for h in headers) and any("MQM" in h and "cluster" in h for h in headers)
    want = f"{mqm.system_score('Online-B'):.2f}"
    assert want in page.locator("table").first.inner_text()
    assert problems == []
    context.close()
