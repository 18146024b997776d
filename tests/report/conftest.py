"""Fixtures of the report's tests: the two example systems shipped with the package and their references."""

import os
import shutil
from pathlib import Path

import pytest

import bleuscope

from ..conftest import read_lines

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
#: the browser of the page tests: Debian's Chromium driven by Playwright (no browser download)
CHROMIUM = os.environ.get("BLEUSCOPE_CHROMIUM", "/usr/bin/chromium")


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) or shutil.which(CHROMIUM) is not None


@pytest.fixture(scope="module")
def example():
    systems = {"Online-B": read_lines(EXAMPLE / "hyp.Online-B.txt"), "OpenNMT": read_lines(EXAMPLE / "hyp.OpenNMT.txt")}
    refs = [read_lines(EXAMPLE / "ref.A.txt"), read_lines(EXAMPLE / "ref.B.txt")]
    return systems, refs


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium per test module."""
    sync_api = pytest.importorskip("playwright.sync_api")
    if not chromium_available():
        pytest.skip(f"Chromium not found at {CHROMIUM}")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()
