"""METEOR's compiled word table and WordNet database (``rust/python/src/meteor.rs``)."""

from __future__ import annotations

from . import core
from .tok import tokenizer_support


def wordnet_tables(parts: list[tuple]):
    """The compiled core's WordNet database built from the files' bytes (see ``_core.WordNetTables``), or
    None when the core is not built. Its format errors are :func:`wordnet_format_error` instances."""
    module = core()
    return None if module is None else module.WordNetTables(parts)


def wordnet_format_error() -> type[Exception]:
    """The exception the compiled core raises for a malformed WordNet file (a ValueError)."""
    module = core()
    return ValueError if module is None else module.WordNetFormatError


def meteor_table(*, porter: bool, wordnet=None):
    """A compiled METEOR word table (``_core.MeteorTable``: word ids, stems, synonym sets and the batch
    alignment), stemming words itself when ``porter`` and reading synonym sets from ``wordnet``
    (:func:`wordnet_tables`) when given; None when the core is not built. Non-ASCII words are lowercased
    there (for the stemmer and WordNet) only when the core's Unicode tables are this Python's (as for its
    lowercasing tokenizers); else their stems and synonym sets are left to Python."""
    module = core()
    if module is None:
        return None
    return module.MeteorTable(porter=porter, wordnet=wordnet, unicode=tokenizer_support("13a", True)[0])


__all__ = ["meteor_table", "wordnet_format_error", "wordnet_tables"]
