"""The HTML report in headless Chromium (Debian's /usr/bin/chromium driven by Playwright, no browser download):
it loads without console errors or network requests, sorts and filters through the DOM, switches the compared
systems, keeps injected markup as text, and shows its static parts with JavaScript off; a scores-from-file
column (human MQM-like scores) is in the systems table with its interval and cluster."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import bleuscope
from bleuscope import BLEU
from bleuscope.metrics.scores import Scores
from bleuscope.report import write_report

from ..conftest import read_lines
from .conftest import CHROMIUM, chromium_available

sync_api = pytest.importorskip(
    "playwright.sync_api", reason='Playwright is not installed (pip install -e ".[test]", or pip install playwright)')
if not chromium_available():
    pytest.skip(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set BLEUSCOPE_CHROMIUM)",
                allow_module_level=True)

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
INJECTED = ('<script>window.__pwned = 1</script><img src="https://example.invalid/x.png" '
            'onerror="window.__pwned = 2"></textarea>"quoted" \x08')


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    systems = {name: read_lines(EXAMPLE / f"hyp.{name}.txt") for name in ("Online-B", "OpenNMT")}
    systems["Online-B"][3] = INJECTED
    systems["Online-B"][7] = "lang " * 20_000  # a 100,000-character line
    systems["OpenNMT"][9] += "\r"  # a CRLF line end
    systems["copy<b>"] = list(systems["OpenNMT"])
    systems["copy<b>"][0] = "Sie können uns jederzeit wieder kontaktieren"
    refs = [read_lines(EXAMPLE / "ref.A.txt"), read_lines(EXAMPLE / "ref.B.txt")]
    path = tmp_path_factory.mktemp("report") / "report.html"
    write_report(path, systems, refs, sources=[f"source {i}" for i in range(300)], n_bootstrap=200,
                 reference_names=["A", "B"], pair=("Online-B", "OpenNMT"))
    sentence = {k: BLEU(effective_order=True).sentence_scores(h, refs).scores for k, h in systems.items()}
    return path, sentence


@pytest.fixture()
def page(browser, report):
    path, _ = report
    context = browser.new_context()
    pg = context.new_page()
    pg.problems = []
    pg.requests = []
    pg.on("console", lambda m: pg.problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning")
          else None)
    pg.on("pageerror", lambda e: pg.problems.append(f"page error: {e}"))
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.goto(path.as_uri())
    yield pg
    context.close()


def column(pg, cls: str) -> list[float]:
    return [float(t.replace("+", "")) for t in pg.locator(f"#seg-body td.{cls}").all_inner_texts()]


def test_opens_without_errors_or_network(page, report):
    path, _ = report
    assert page.locator("#systems-table tbody tr").count() == 3
    assert page.locator("#seg-body tr").count() == 50
    assert page.inner_text("#page-info") == "1–50 of 300"
    page.click("#next")
    assert page.inner_text("#page-info") == "51–100 of 300"
    assert page.problems == []
    assert page.requests == [path.as_uri()]


def test_sort_by_columns(page, report):
    _, sentence = report
    page.click('#segments th[data-key="delta"]')
    assert page.get_attribute('#segments th[data-key="delta"]', "aria-sort") == "ascending"
    deltas = column(page, "delta")
    assert deltas == sorted(deltas) and len(deltas) == 50
    lowest = (sentence["OpenNMT"] - sentence["Online-B"]).min()
    assert deltas[0] == pytest.approx(lowest, abs=0.051)
    page.click('#segments th[data-key="b"]')
    page.click('#segments th[data-key="b"]')
    assert page.get_attribute('#segments th[data-key="b"]', "aria-sort") == "descending"
    scores = column(page, "score-b")
    assert scores == sorted(scores, reverse=True) and scores[0] == pytest.approx(sentence["OpenNMT"].max(), abs=0.051)
    first_segment = int(page.get_attribute("#seg-body tr >> nth=0", "data-seg"))
    assert sentence["OpenNMT"][first_segment - 1] == sentence["OpenNMT"].max()
    assert page.problems == []


def test_filter(page):
    page.fill("#filter", "COVID")
    info = page.inner_text("#page-info")
    assert "filtered from 300" in info
    rows = page.locator("#seg-body tr")
    assert 0 < rows.count() <= 50
    for text in rows.all_text_contents():
        assert "covid" in text.lower()
    page.fill("#filter", "no segment has this text")
    assert page.inner_text("#page-info").startswith("no segment matches")
    page.fill("#filter", "")
    page.select_option("#diff", "b")
    assert all(d > 0 for d in column(page, "delta"))
    assert page.problems == []


def test_injected_markup_stays_text(page, report):
    path, _ = report
    assert page.evaluate("window.__pwned") is None
    page.fill("#filter", "window.__pwned")
    row = page.locator("#seg-body tr")
    assert row.count() == 1
    text = row.inner_text()
    assert '<script>window.__pwned = 1</script><img src="https://example.invalid/x.png"' in text
    assert '</textarea>"quoted"' in text and "\u2408" in text
    assert page.locator("#seg-body img, #seg-body script, #seg-body textarea").count() == 0
    assert page.inner_text("#systems-table").count("copy<b>") == 1
    assert page.evaluate("window.__pwned") is None
    assert page.requests == [path.as_uri()] and page.problems == []


def test_choosing_the_pair_updates_the_views(page, report):
    _, sentence = report
    dots = page.get_attribute("#scatter-svg .dots", "d")
    page.select_option("#sys-b", label="copy<b>")
    assert page.text_content("#scatter-y") == "copy<b>"
    assert page.get_attribute("#scatter-svg .dots", "d") != dots
    assert page.locator("#segments th .name-b").inner_text() == "copy<b>"
    assert float(page.locator("#seg-body td.score-b").first.inner_text()) == pytest.approx(
        sentence["copy<b>"][0], abs=0.051)
    wins = page.locator("#wins-body tr").count()
    assert 0 < wins <= 10
    assert page.problems == []


def test_static_parts_without_javascript(browser, report):
    path, _ = report
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(path.as_uri())
    assert pg.locator("#systems-table tbody tr").count() == 3
    assert pg.locator("#p-matrix tbody tr").count() == 3
    assert pg.locator("table.dist tbody tr").count() == 3
    assert pg.locator("#ngrams-a-body tr").count() > 0 and pg.locator("#word-accuracy-table tbody tr").count() == 9
    assert pg.locator("#seg-body tr").count() == 50
    assert pg.locator("p.no-js").is_visible() and not pg.locator("#filter").is_visible()
    context.close()


def test_long_lines_fold_and_input_warnings_show(page):
    row = page.locator('#seg-body tr[data-seg="8"]')
    assert row.bounding_box()["height"] < 600  # the 100,000 characters scroll inside their cell
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")
    warnings = page.inner_text("#warnings")
    assert "OpenNMT: 1 line(s) end with a carriage return" in warnings
    assert page.locator('#seg-body tr[data-seg="10"] .ctl').first.inner_text() == "\u240d"
    assert page.problems == []


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


# where the first and the last character of an element's text are drawn (x of their boxes' centres)
ENDS = """el => {
  const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const nodes = [];
  while (walker.nextNode()) { if (walker.currentNode.data.trim()) { nodes.push(walker.currentNode); } }
  const at = (node, i) => { const r = document.createRange(); r.setStart(node, i); r.setEnd(node, i + 1);
                            const b = r.getBoundingClientRect(); return b.left + b.width / 2; };
  const first = nodes[0], last = nodes[nodes.length - 1];
  return [at(first, 0), at(last, last.data.trimEnd().length - 1)];
}"""


@pytest.mark.parametrize("javascript", [True, False])
def test_right_to_left_segments_read_right_to_left(browser, tmp_path, javascript):
    # an Arabic or Hebrew segment is a right-to-left paragraph in its cell whatever the page's direction: its
    # first word on the right, its final full stop at its left end (in a left-to-right paragraph the stop
    # would be drawn at the right, after the last word read)
    hebrew = "שלום לכם חברים."
    systems = {"A": ["the cat sat .", hebrew, "مرحبا بالعالم الجميل."], "B": ["the cat sat", "שלום חברים.", "مرحبا."]}
    refs = [["the cat sat .", hebrew, "مرحبا بالعالم."]]
    path = tmp_path / "report.html"
    write_report(path, systems, refs, n_bootstrap=50, pair=("A", "B"))
    context = browser.new_context(java_script_enabled=javascript)
    page = context.new_page()
    page.goto(path.as_uri())
    for seg, word in ((1, "שלום"), (2, "مرحبا")):
        for cell in page.locator(f'#seg-body tr[data-seg="{seg + 1}"] td.text div.cell').all():
            start, stop = cell.evaluate(ENDS)
            assert stop < start, (seg, cell.inner_text())
            assert word in cell.inner_text()
    start, stop = page.locator('#seg-body tr[data-seg="1"] td.text div.cell').first.evaluate(ENDS)
    assert start < stop  # the English segment stays left to right
    context.close()
