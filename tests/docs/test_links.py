"""Relative links in the README and the repository's Markdown files point at files that exist (the site's own
pages are checked by the Sphinx build with -W, which also checks their anchors)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
FILES = [ROOT / "README.md", ROOT / "CONTRIBUTING.md", ROOT / "CHANGELOG.md", ROOT / "benchmarks" / "README.md"]


def relative_links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.S)  # not inside code blocks
    return [m.group(1) for m in LINK.finditer(text) if not re.match(r"[a-z]+:|#", m.group(1))]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(path):
    missing = [link for link in relative_links(path) if not (path.parent / link.split("#")[0]).exists()]
    assert not missing, f"{path.name}: links to missing files {missing}"


def test_the_link_check_sees_links():
    assert len(relative_links(ROOT / "README.md")) >= 10
