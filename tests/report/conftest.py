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


#: WMT22 en-de: eight systems, two references, the source
WMT_EN_DE = Path(__file__).resolve().parents[3] / "shared" / "data" / "mt" / "generaltest2022" / "en-de"


def wmt_en_de_inputs():
    names = sorted(p.stem for p in (WMT_EN_DE / "sys").glob("*.txt"))
    systems = {n: read_lines(WMT_EN_DE / "sys" / f"{n}.txt") for n in names}
    refs = [read_lines(WMT_EN_DE / "ref.A.txt"), read_lines(WMT_EN_DE / "ref.B.txt")]
    return systems, refs, read_lines(WMT_EN_DE / "src.txt")


@pytest.fixture(scope="session")
def wmt_en_de_report():
    """The report data of WMT22 en-de with -m bleu chrf ter (100 resamples: the tests check shapes and
    formats of the exports, not interval widths)."""
    if not (WMT_EN_DE / "ref.A.txt").exists():
        pytest.skip("../shared/data/mt not found")
    from bleuscope.metrics.chrf import CHRF
    from bleuscope.metrics.ter import TER
    from bleuscope.report import report_data

    systems, refs, sources = wmt_en_de_inputs()
    return report_data(systems, refs, sources=sources, metrics=[CHRF(), TER()], n_bootstrap=100,
                       max_segments=200, reference_names=["A", "B"], title="generaltest2022 en-de",
                       labels=block_labels(len(refs[0])))


#: labels of four blocks of segments (WMT22's domains come in blocks; these names test the escaping)
BLOCK_LABELS = ("news & co", "e-commerce", "social_media #1", "conversation {chat}")


def block_labels(n: int) -> list[str]:
    return [BLOCK_LABELS[min(3, 4 * i // n)] for i in range(n)]
