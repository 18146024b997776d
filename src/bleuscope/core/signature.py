"""Signatures: the settings that produced a score, in sacreBLEU's ``key:value|...`` format.

The fields and their order are sacreBLEU's (``nrefs|case|eff|tok|smooth|version``); statistical runs insert
their fields after ``nrefs`` as sacreBLEU does. Two additions that sacreBLEU lacks: ``order:N`` when the
maximum n-gram order is not 4, and ``w:...`` when the weights are not uniform, so that differently computed
scores never share a signature. The version field names bleuscope (``version:bleuscope-X.Y.Z``).
"""

from __future__ import annotations

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


def format_signature(fields: dict[str, str], short: bool = False) -> str:
    """``fields`` in order; ``None`` values are left out."""
    parts = []
    for key, value in fields.items():
        if value is None:
            continue
        parts.append(f"{SHORT_KEYS.get(key, key) if short else key}:{value}")
    return "|".join(parts)


def nrefs_field(counts) -> str:
    """``nrefs`` value from the per-segment reference counts: the count, or ``var`` when it varies."""
    counts = np.asarray(counts)
    if len(counts) and counts.min() == counts.max():
        return str(int(counts[0]))
    return "var"


def version_field() -> str:
    return f"bleuscope-{__version__}"
