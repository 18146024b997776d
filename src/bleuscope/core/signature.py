"""Signatures: the settings that produced a score, in sacreBLEU's ``key:value|...`` format.

The fields and their order are sacreBLEU's (``nrefs|case|eff|tok|smooth|version``); statistical runs insert
their fields after ``nrefs`` as sacreBLEU does. Two additions that sacreBLEU lacks: ``order:N`` when the
maximum n-gram order is not 4, and ``w:...`` when the weights are not uniform, so that differently computed
scores never share a signature. The version field names bleuscope (``version:bleuscope-X.Y.Z``).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from .._version import __version__

SHORT_KEYS = {
    "nrefs": "#",
    "bs": "bs",
    "ar": "ar",
    "seed": "rs",
    "case": "c",
    "eff": "e",
    "tok": "tok",
    "smooth": "s",
    "order": "o",
    "w": "w",
    "version": "v",
}


def format_signature(fields: dict[str, str | None], short: bool = False, keys: Mapping[str, str] | None = None) -> str:
    """``fields`` in order; ``None`` values are left out. ``short``: short names (:data:`SHORT_KEYS`, and
    ``keys`` for a metric's own fields)."""
    names = SHORT_KEYS if not keys else {**SHORT_KEYS, **keys}
    parts = []
    for key, value in fields.items():
        if value is None:
            continue
        parts.append(f"{names.get(key, key) if short else key}:{value}")
    return "|".join(parts)


def nrefs_value(segments: int, total: int, squares: int) -> str:
    """The ``nrefs`` field of ``segments`` segments whose reference counts sum to ``total`` and their squares
    to ``squares``: the count when every segment has the same one, else ``var`` (zero variance <=> constant
    count, exact in integers). This is the one place the rule is written."""
    if segments == 0:
        raise ValueError("no segments were scored")
    return str(total // segments) if segments * squares == total * total else "var"


def nrefs_field(counts) -> str:
    """``nrefs`` value from the per-segment reference counts (see :func:`nrefs_value`)."""
    counts = np.asarray(counts, dtype=np.int64)
    if not len(counts):
        return "var"
    return nrefs_value(len(counts), int(counts.sum()), int((counts * counts).sum()))


def version_field() -> str:
    return f"bleuscope-{__version__}"
