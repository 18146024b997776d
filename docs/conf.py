"""Sphinx configuration of the bleuscope site (Markdown pages through MyST, the API from the docstrings).

Build: ``pip install -e ".[docs]" && sphinx-build -W --keep-going -b html docs docs/_build/html``.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))

from bleuscope._version import __version__  # noqa: E402 - after the path set-up

project = "bleuscope"
author = "the bleuscope developers"
copyright = "2026, the bleuscope developers"
release = version = __version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.intersphinx",
    "sphinx_copybutton",
    # MathJax from the package, not a CDN: the site works offline
    "sphinx-mathjax-offline",
    "bleuscope_docs",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
root_doc = "index"
exclude_patterns = ["_build", "Thumbs.db", ".DS_Store"]
# heading anchors make "page.md#section" links checkable: a link to a missing anchor is a warning (-W: an error)
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist", "dollarmath"]
nitpicky = False
# option names such as --hyp-field must stay two hyphens (copy-paste), quotes straight
smartquotes = False
# no network at build time: intersphinx inventories are not fetched
intersphinx_mapping: dict = {}

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": False}
napoleon_google_docstring = True
napoleon_numpy_docstring = True

html_theme = "furo"
html_title = f"bleuscope {release}"
html_static_path: list[str] = []
copybutton_prompt_text = r"\$ "
copybutton_prompt_is_regexp = True
