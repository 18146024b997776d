"""Benchmark figures are data: the README's table is generated from the newest committed run, and no page
carries a hand-typed timing or speed-up."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import publish  # noqa: E402 - benchmarks/ is not a package
import results_table  # noqa: E402

#: a timing ("0.30 s", "12 ms", "2.7 CPU-s") or a speed-up in words ("41x faster", "30x sacreBLEU")
FIGURE = re.compile(
    r"\b\d+(?:\.\d+)?\s?(?:ms|CPU-s|CPU s)\b|\b\d+\.\d+\s?s\b|\b\d+(?:\.\d+)?\s?[x×]\s+(?:faster|slower|sacre|NLTK|wc)",
    re.IGNORECASE,
)
PAGES = [ROOT / "README.md", ROOT / "benchmarks" / "README.md",
         *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)]


def test_readme_table_is_generated_from_the_newest_run():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert publish.replace_block(text, publish.generated_block()) == text, "run python benchmarks/publish.py"


def test_every_committed_run_has_its_conditions():
    files = results_table.result_files()
    assert files, "no committed benchmark run in benchmarks/results/"
    for path in files:
        run = json.loads(path.read_text(encoding="utf-8"))
        assert run["started"] and run["machine"] and run["rows"], path.name
        assert "load average" in run["machine"], path.name
        assert run["environment"]["python"] and run["environment"]["versions"]["bleuscope"], path.name


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_hand_typed_figure(page):
    text = page.read_text(encoding="utf-8")
    if page.name == "README.md" and page.parent == ROOT:  # the generated block is the one place for figures
        start, end = text.find(publish.BEGIN), text.find(publish.END)
        text = text[:start] + text[end:]
    hits = [m.group(0) for m in FIGURE.finditer(text)]
    assert not hits, f"{page.name}: hand-typed figures {hits[:5]}; generate them from benchmarks/results/"


def test_summary_ratios_are_computed_from_the_rows():
    run = {"started": "2026-01-01 00:00 UTC", "machine": "m; load average at the end 1.0", "rows": [
        {"task": "t", "tool": "bleuscope", "seconds": 0.5},
        {"task": "t", "tool": "peer", "seconds": 20.0},
        {"task": "u", "tool": "peer", "seconds": 1.0},   # no bleuscope row: no line
    ]}
    table = results_table.summary_markdown(run)
    assert "| t | 0.500 s | peer 40.0x |" in table
    assert "| u |" not in table
