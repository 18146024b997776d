"""The report on WMT22 en-de (eight systems, BLEU, chrF and TER) in headless Chromium: the n-gram and
word-frequency analyses, printing to PDF with the browser's default of no background graphics (the PDF's text
checked with pdftotext), narrow screens, deep links, keyboard sorting, the exports, dark mode, the A-vs-B
diff, the scatter linked to the rows, and hostile filters; never a console error or a network request."""

from __future__ import annotations

import shutil
import subprocess

import numpy as np
import pytest

from bleuscope.report import report_data
from bleuscope.report.render import render
from bleuscope.report.tables import systems_table

from ..conftest import DATA, read_lines, requires_wmt

pytestmark = requires_wmt
BASE = DATA / "generaltest2022" / "en-de"


@pytest.fixture(scope="module")
def wmt(tmp_path_factory):
    from bleuscope.metrics.chrf import CHRF
    from bleuscope.metrics.ter import TER

    names = sorted(p.stem for p in (BASE / "sys").glob("*.txt"))
    systems = {n: read_lines(BASE / "sys" / f"{n}.txt") for n in names}
    refs = [read_lines(BASE / "ref.A.txt"), read_lines(BASE / "ref.B.txt")]
    data = report_data(systems, refs, sources=read_lines(BASE / "src.txt"), metrics=[CHRF(), TER()],
                       n_bootstrap=100, max_segments=1000, reference_names=["A", "B"],
                       title="generaltest2022 en-de")
    path = tmp_path_factory.mktemp("wmt") / "report.html"
    path.write_text(render(data), encoding="utf-8")
    return path, data


def _open(browser, url: str, **context_options):
    context = browser.new_context(**context_options)
    pg = context.new_page()
    pg.problems, pg.requests = [], []
    pg.on("console", lambda m: pg.problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    pg.on("pageerror", lambda e: pg.problems.append(f"page error: {e}"))
    pg.on("dialog", lambda d: (pg.problems.append(f"dialog: {d.message}"), d.dismiss()))
    pg.on("request", lambda r: pg.requests.append(r.url))
    pg.goto(url)
    return context, pg


@pytest.fixture()
def page(browser, wmt):
    path, _ = wmt
    context, pg = _open(browser, path.as_uri())
    yield pg
    assert pg.problems == []
    assert all(u.startswith(path.as_uri()) or u.startswith("blob:") for u in pg.requests), pg.requests
    context.close()


def _index(data, name: str) -> str:
    return str(data.systems.index(name))


def test_quote_ngrams_lead_online_b_against_lan_bridge(page, wmt):
    _, data = wmt
    page.select_option("#ng-a", _index(data, "Online-B"))
    page.select_option("#ng-b", _index(data, "Lan-Bridge"))
    first = page.locator("#ngrams-a-body td.ng").all_inner_texts()[:6]
    assert {"„Wir", "“", "„Ich"} <= set(first), first
    lan_bridge = page.locator("#ngrams-a-body tr").first.locator("td.num").all_inner_texts()
    assert lan_bridge[2] == "0"  # B (Lan-Bridge) never matches it: it writes <unk>
    page.locator("#ngrams-a-body td.ng button", has_text="„Wir").first.click()
    assert "only n-gram “„Wir”" in page.inner_text("#subset")
    rows = page.locator("#seg-body tr")
    assert rows.count() >= 1
    for text in rows.all_inner_texts():
        assert "„Wir" in text and "<unk>" in text
    assert page.locator("#segments th .name-b").inner_text() == "Lan-Bridge"


def test_word_accuracy_table(page, wmt):
    _, data = wmt
    wa = data.word_accuracy
    rows = page.locator("#word-accuracy-table tbody tr")
    assert rows.count() == len(wa.labels) == 9
    best = data.metrics[0].order[0]
    cells = rows.nth(len(wa.labels) - 1).locator("td").all_inner_texts()
    assert cells[0] == ">=1000" and int(cells[1]) == wa.ref_words[-1]
    value, interval = cells[2].split(maxsplit=1)  # the interval on its own line
    assert value == f"{wa.fmeasure[best][-1]:.3f}"
    assert interval == f"[{wa.lower[best][-1]:.3f}, {wa.upper[best][-1]:.3f}]"


def test_print_to_pdf_without_backgrounds_keeps_every_column(browser, wmt, tmp_path):
    """Printed with the browser's default of no background graphics, for the pair Online-A vs PROMT chosen by
    a deep link: every system's scores, the p-value matrix's last column, every bucket table's last column and
    the chosen pair's top n-grams (their text, not only their numbers) are in the PDF's text; no table is
    wider than the printed page."""
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) not installed")
    path, data = wmt
    a, b = data.systems.index("Online-A"), data.systems.index("PROMT")
    context, page = _open(browser, f"{path.as_uri()}#v:a={a}&b={b}")
    pdf = tmp_path / "report.pdf"
    page.emulate_media(media="print")
    page.set_viewport_size({"width": 720, "height": 1000})  # A4's text width at 96 dpi with 12 mm margins
    assert page.evaluate(CUT_TABLES) == []
    page.pdf(path=str(pdf), format="A4", print_background=False)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                          check=True).stdout
    flat = " ".join(text.split())
    systems_part = text[text.index("Click a column header"):text.index("BLEU details")]
    for header in ("95%", "cluster", "rank"):
        assert systems_part.count(header) >= 3, header  # one per metric
    words = systems_part.split()
    for k, name in enumerate(data.systems):  # every system's score of every metric: no column cut
        assert name in words
        for m in data.metrics:
            assert f"{m.scores[k]:.2f}" in words, (name, m.name)
    assert "▲" in text and "▼" in text  # significance without colour
    last = data.metrics[0].order[-1]  # the right-most column of every bucket table
    for table in (*data.length_buckets, *data.length_diff_buckets):
        assert f"{table.scores[last][2]:.2f}" in text, table.metric
    bleu = data.metrics[0]  # the p-value matrix's right-most column
    best, worst = bleu.order[0], bleu.order[-1]
    assert f"{bleu.scores[best] - bleu.scores[worst]:+.2f}" in text
    assert text.count("A − B [95% CI]") >= 2 and flat.count(" segments ") >= 2  # both n-gram tables, whole
    assert "export:" not in flat and "previous" not in flat  # controls do not print
    diff = next(d for d in data.ngram_differences if (d.a, d.b) == (min(a, b), max(a, b)))
    top = [r.ngram for r in (*diff.a_better[:5], *diff.b_better[:5])]
    ngram_part = flat[flat.index("n-grams one system gets right"):flat.index("Word accuracy by frequency")]
    for gram in top:
        assert f" {gram} " in f" {ngram_part} ", gram
    assert page.problems == []
    context.close()


#: tables wider than their box that nothing lets the reader see: a table is cut unless it fits its container
#: or an ancestor scrolls sideways (the page itself never does)
CUT_TABLES = """() => {
  const out = [];
  for (const t of document.querySelectorAll("table")) {
    if (!t.offsetParent) continue;  // not shown (a closed <details>)
    const box = t.parentElement;
    if (t.getBoundingClientRect().width <= box.clientWidth + 1) continue;
    let el = box, scrolls = false;
    while (el && el !== document.body) {
      const o = getComputedStyle(el).overflowX;
      if ((o === "auto" || o === "scroll") && el.clientWidth < el.scrollWidth + 1) { scrolls = true; break; }
      el = el.parentElement;
    }
    if (!scrolls) out.push(t.id || t.className);
  }
  return out;
}"""


@pytest.mark.parametrize("width", [390, 800, 1400, 1920])
def test_no_table_is_cut_and_no_sideways_scroll(browser, wmt, width):
    """One page load per width: the page never scrolls sideways, every table fits its box or scrolls in it,
    and at 1,400 px and more the length tables fit without scrolling."""
    path, _ = wmt
    context, pg = _open(browser, path.as_uri(), viewport={"width": width, "height": 800})
    assert pg.evaluate("document.documentElement.scrollWidth") <= width
    assert pg.evaluate(CUT_TABLES) == []
    if width >= 1400:
        wide = pg.evaluate("""() => [...document.querySelectorAll('#buckets table, #word-accuracy table')]
                              .filter(t => t.getBoundingClientRect().width > t.parentElement.clientWidth + 1)
                              .map(t => t.id)""")
        assert wide == []
    # chart labels keep their size (a chart scrolls in its box instead of shrinking)
    smallest = pg.evaluate("""() => Math.min(...[...document.querySelectorAll('svg.chart text')]
                              .filter(t => t.getBoundingClientRect().height > 0)
                              .map(t => t.getBoundingClientRect().height))""")
    assert smallest >= 9, smallest
    pg.select_option("#view", "diff")
    assert pg.evaluate("document.documentElement.scrollWidth") <= width
    if width == 390:  # the scatter plot by keyboard: Tab to it, arrows step through the segments
        pg.focus("#scatter-svg")
        pg.keyboard.press("ArrowRight")
        pg.keyboard.press("ArrowRight")
        assert pg.inner_text("#subset").startswith("only segment 2")
        assert pg.locator("#scatter-svg .pick").count() == 1
    assert pg.problems == []
    context.close()


def test_deep_link_opens_the_same_view(page, browser, wmt):
    _, data = wmt
    page.select_option("#sys-a", _index(data, "Online-A"))
    page.select_option("#sys-b", _index(data, "PROMT"))
    page.select_option("#metric", "1")
    page.click('#segments th[data-key="delta"] button')
    page.click('#segments th[data-key="delta"] button')
    page.select_option("#field", "ref")
    page.fill("#filter", "die")
    page.click("#next")
    info, first_rows = page.inner_text("#page-info"), page.locator("#seg-body tr").first.inner_text()
    url = page.url
    assert "#v:" in url and "q=die" in url
    context, other = _open(browser, url)
    assert other.input_value("#sys-a") == _index(data, "Online-A")
    assert other.input_value("#sys-b") == _index(data, "PROMT")
    assert other.input_value("#metric") == "1" and other.input_value("#field") == "ref"
    assert other.input_value("#filter") == "die"
    assert other.get_attribute('#segments th[data-key="delta"]', "aria-sort") == "descending"
    assert other.inner_text("#page-info") == info and info.startswith("51–")
    assert other.locator("#seg-body tr").first.inner_text() == first_rows
    assert other.problems == []
    context.close()


def test_keyboard_sorting(page):
    button = page.locator('#segments th[data-key="len"] button')
    assert button.evaluate("b => b.tabIndex") == 0
    page.focus("#filter")
    for _ in range(40):  # Tab from the filter reaches the sort buttons
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.closest('th') && "
                         "document.activeElement.closest('th').getAttribute('data-key')") == "len":
            break
    else:
        pytest.fail("the len sort button is not reachable with Tab")
    page.keyboard.press("Enter")
    assert page.get_attribute('#segments th[data-key="len"]', "aria-sort") == "ascending"
    page.keyboard.press("Enter")
    assert page.get_attribute('#segments th[data-key="len"]', "aria-sort") == "descending"
    lengths = [int(x) for x in page.locator("#seg-body tr td:nth-child(2)").all_inner_texts()]
    assert lengths == sorted(lengths, reverse=True)
    page.locator('#systems-table th[data-sort] button', has_text="TER rank").press("Enter")
    ranks = page.locator("#systems-table tbody tr td:last-child").all_inner_texts()
    assert [int(r.split("–")[0]) for r in ranks] == sorted(int(r.split("–")[0]) for r in ranks)
    for control in page.locator("select, input").all():  # every control has a label
        assert control.evaluate("c => c.labels.length") >= 1


def test_export_buttons_download_the_tables(page, wmt):
    _, data = wmt
    with page.expect_download() as info:
        page.click('#systems .export[data-export="systems"] button[data-format="csv"]')
    download = info.value
    assert download.suggested_filename == "systems.csv"
    assert open(download.path(), encoding="utf-8").read() == systems_table(data).csv()
    with page.expect_download() as info:
        page.click('#systems .export[data-export="systems"] button[data-format="tex"]')
    assert "\\begin{tabular}" in open(info.value.path(), encoding="utf-8").read()
    import xml.etree.ElementTree as ET

    with page.expect_download() as info:
        page.click('button[data-format="svg"][data-chart="chart-word-accuracy"]')
    assert info.value.suggested_filename == "chart-word-accuracy.svg"
    svg = ET.parse(info.value.path()).getroot()  # a well-formed standalone SVG with its styles
    ns = "{http://www.w3.org/2000/svg}"
    assert svg.tag == f"{ns}svg" and svg.find(f"{ns}style") is not None
    dots = svg.findall(f".//{ns}circle")
    wa = data.word_accuracy
    assert len(dots) == sum(f is not None and lo is not None for k in range(len(data.systems))
                            for f, lo in zip(wa.fmeasure[k], wa.lower[k]))
    names = page.eval_on_selector_all(".export button", "bs => bs.map(b => b.getAttribute('aria-label'))")
    assert len(names) == len(set(names)) and all(n and n.split(" of ", 1)[1] for n in names)


def test_dark_mode_diff_scatter_and_hostile_filters(browser, wmt):
    path, data = wmt
    context, pg = _open(browser, path.as_uri(), color_scheme="dark")
    assert pg.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(22, 24, 27)"
    pg.select_option("#view", "diff")
    assert pg.locator("#seg-body .only-a").count() > 0 and pg.locator("#seg-body .only-b").count() > 0
    pg.locator("#scatter-svg").click(position={"x": 200, "y": 60})
    assert pg.inner_text("#subset").startswith("only segment ")
    assert pg.locator("#seg-body tr").count() == 1 and pg.locator("#scatter-svg .pick").count() == 1
    pg.click("#subset button")
    pg.check("#regex")
    for pattern in ("(", "[", "a{99999999}", "(a+)+$", "<img src=x onerror=alert(1)>"):
        pg.fill("#filter", pattern)
    pg.fill("#filter", "(")
    assert pg.inner_text("#page-info") == "invalid regular expression"
    pg.fill("#filter", "„W[a-z]+")
    marks = pg.locator("#seg-body mark").all_text_contents()
    assert marks and all(m.startswith("„W") for m in marks)
    assert pg.problems == [] and pg.evaluate("document.querySelectorAll('img').length") == 0
    context.close()


def test_sharing_links_stars_filters_and_segment_export(browser, wmt):
    """A link by system names and section opens at that section with that pair; two starred segments survive
    the link and export as TSV and JSON with the view's columns; the length and |B − A| filters keep exactly
    the segments they say; a segment's permalink opens that segment; the clicked n-gram is marked in its
    segments."""
    import json

    path, data = wmt
    a, b = data.systems.index("Online-A"), data.systems.index("PROMT")
    context, pg = _open(browser, f"{path.as_uri()}#v:a=Online-A&b=PROMT&m=chrF2&sec=ngrams")
    assert pg.input_value("#ng-a") == str(a) and pg.input_value("#ng-b") == str(b) and pg.input_value("#metric") == "1"
    top = pg.evaluate("document.getElementById('ngrams').getBoundingClientRect().top")
    assert abs(top) < 5 and pg.evaluate("window.scrollY") > 1000  # opened where it points, not at the top
    pg.click('#seg-body tr[data-seg="2"] button.star')
    pg.click('#seg-body tr[data-seg="5"] button.star')
    assert pg.inner_text("#star-info") == "2 starred" and "star=2.5" in pg.url
    context2, other = _open(browser, pg.url)
    other.select_option("#diff", "star")
    assert [r.get_attribute("data-seg") for r in other.locator("#seg-body tr").all()] == ["2", "5"]
    with other.expect_download() as info:
        other.click('#segment-export button[data-format="json"]')
    rows = json.loads(open(info.value.path(), encoding="utf-8").read())
    chrf = data.metrics[1].sentence_scores
    assert [r["segment"] for r in rows] == [2, 5] and all(r["starred"] for r in rows)
    assert rows[0]["A Online-A"] == data.hypotheses[a][1] and rows[1]["B PROMT"] == data.hypotheses[b][4]
    assert rows[0]["B chrF2"] == pytest.approx(chrf[b][1], abs=0.005)
    with other.expect_download() as info:
        other.click('#segment-export button[data-format="tsv"]')
    lines = open(info.value.path(), encoding="utf-8").read().splitlines()
    assert lines[0].split("\t")[:2] == ["segment", "reference_length"] and len(lines) == 3
    other.select_option("#diff", "all")
    other.fill("#len-min", "20")
    other.fill("#len-max", "29")
    other.fill("#delta-min", "10")
    n = data.shown_segments
    lengths = data.reference_lengths[:n]
    delta = np.round(chrf[b][:n], 2) - np.round(chrf[a][:n], 2)  # the page holds two decimals
    expected = int(((lengths >= 20) & (lengths <= 29) & (abs(delta) >= 10)).sum())
    assert other.inner_text("#page-info").endswith(f"of {expected} (filtered from {n})")
    link = other.locator('#seg-body tr a.permalink').first
    seg = int(link.inner_text())
    link.click()
    assert other.locator("#seg-body tr").count() == 1 and other.inner_text("#subset").startswith(f"only segment {seg}")
    assert f"seg={seg}" in other.url
    other.click("#subset button")
    other.fill("#len-min", "")
    other.fill("#len-max", "")
    other.fill("#delta-min", "")
    other.locator("#ngrams-a-body td.ng button").first.click()
    gram = other.locator("#ngrams-a-body td.ng button").first.inner_text()
    marks = other.locator("#seg-body mark").all_text_contents()
    assert marks and all("".join(m.split()) == "".join(gram.split()) for m in marks)
    assert pg.problems == [] and other.problems == []
    context2.close()
    context.close()


def test_ngram_collapse_and_words_only(page, wmt):
    """The collapse toggle hides an n-gram inside a higher-ranked one of the same list, the words-only switch
    those with a token of no letter or digit; the tables still list 25 from the kept candidates, in rank
    order."""
    import unicodedata

    _, data = wmt
    page.select_option("#ng-a", _index(data, "Online-B"))
    page.select_option("#ng-b", _index(data, "Lan-Bridge"))
    before = page.locator("#ngrams-a-body td.ng").all_inner_texts()
    page.check("#ng-collapse")
    page.check("#ng-words")
    a, b = data.systems.index("Online-B"), data.systems.index("Lan-Bridge")
    diff = next(d for d in data.ngram_differences if (d.a, d.b) == (min(a, b), max(a, b)))
    candidates = [r.ngram for r in (diff.a_better if a < b else diff.b_better)]

    def word(t):
        return any(unicodedata.category(c)[0] in "LN" for c in t) and t != "<unk>"

    expected = []
    for g in candidates:
        if all(word(t) for t in g.split()) and not any(f" {g} " in f" {x} " for x in expected):
            expected.append(g)
    shown = page.locator("#ngrams-a-body td.ng").all_inner_texts()
    assert shown == expected[:25] and shown != before
    assert "nc=1" in page.url and "nw=1" in page.url
    page.uncheck("#ng-collapse")
    page.uncheck("#ng-words")
    for kind, group in (("o", data.ngram_over), ("u", data.ngram_under)):  # compare-mt's over/under views
        page.select_option("#ng-kind", kind)
        over = next(d for d in group if (d.a, d.b) == (min(a, b), max(a, b)))
        rows = over.a_better if a < b else over.b_better
        assert page.locator("#ngrams-a-body td.ng").all_inner_texts() == [r.ngram for r in rows]
        counts = page.locator("#ngrams-a-body tr").first.locator("td.num").all_inner_texts()
        assert counts[1:3] == ([str(rows[0].a), str(rows[0].b)] if a < b else [str(rows[0].b), str(rows[0].a)])
        assert f"nk={kind}" in page.url and "generates" in page.inner_text("#ngrams-a-title") or kind == "u"
