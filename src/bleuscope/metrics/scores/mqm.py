"""MQM scores from MQM error annotations (Google's ``mqm_*.tsv`` ratings: one row per error or ``No-error``,
columns ``system doc doc_id seg_id rater source target category severity [comment]``).

A segment's score is minus the mean over its raters of each rater's summed error weights, with the weights
of mt-metrics-eval's ``converters/score_mqm.py`` (the most specific of severity / category / subcategory
applies): Major 5, Minor 1, Neutral 0, Major Non-translation 25, Minor Fluency/Punctuation 0.1. So 0 is a
perfect segment and higher is better (as mtme and ``data/human/derived`` store MQM). Sums run in row order
and then over raters in the order they first appear, as there.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

import numpy as np

from ...core.files import InputError

DEFAULT_WEIGHTS = {"major": 5.0, "minor": 1.0, "neutral": 0.0, "major/non-translation!": 25.0,
                   "minor/fluency/punctuation": 0.1}
RATING_COLUMNS = ("system", "seg_id", "rater", "category", "severity")


def error_weight(weights: Mapping[str, float], severity: str, category: str) -> float:
    items = [x.lower() for x in [severity, *category.split("/")]]
    while items:
        key = "/".join(items)
        if key in weights:
            return weights[key]
        items = items[:-1]
    return 0.0


def parse_weights(spec: str) -> dict[str, float]:
    """``"Major:5 Minor:1 ..."`` (mtme's flag format) as a weights table."""
    out = {}
    for item in spec.split():
        key, sep, value = item.rpartition(":")
        if not sep or not key:
            raise ValueError(f"weights: {item!r} is not SEVERITY[/CATEGORY...]:WEIGHT")
        out[key.lower()] = float(value)
    return out


def mqm_from_ratings(lines: list[str], name: str, weights: Mapping[str, float] | None = None
                     ) -> dict[str, np.ndarray]:
    """``{system: scores by seg_id}`` (NaN where a segment was not rated) from the lines of a ratings TSV."""
    weights = DEFAULT_WEIGHTS if weights is None else weights
    header = lines[0].rstrip("\r\n").split("\t")
    missing = [c for c in RATING_COLUMNS if c not in header]
    if missing:
        raise InputError(f"{name}:1: not an MQM ratings file: no {', '.join(missing)} column")
    col = {c: header.index(c) for c in RATING_COLUMNS}
    per: dict[str, dict[int, dict[str, list[float]]]] = {}
    for lineno, raw in enumerate(lines[1:], start=2):
        text = raw.rstrip("\r\n")
        if not text:
            continue
        f = text.split("\t")
        if len(f) < len(header) - 1:  # the comment column may be absent
            raise InputError(f"{name}:{lineno}: {len(f)} fields, the header has {len(header)}")
        try:
            seg = int(f[col["seg_id"]])
        except ValueError:
            raise InputError(f"{name}:{lineno}: seg_id {f[col['seg_id']]!r} is not a whole number") from None
        if seg < 1:
            raise InputError(f"{name}:{lineno}: seg_id {seg}: segments are numbered from 1")
        w = error_weight(weights, f[col["severity"]], f[col["category"]])
        per.setdefault(f[col["system"]], {}).setdefault(seg, {}).setdefault(f[col["rater"]], []).append(w)
    out = {}
    for system, segs in per.items():
        arr = np.full(max(segs), math.nan)
        for seg, raters in segs.items():
            totals = []
            for vals in raters.values():
                t: float = 0
                for v in vals:  # sum() from an int 0, left to right
                    t = t + v
                totals.append(t)
            g: float = 0
            for t in totals:
                g = g + t
            arr[seg - 1] = -(g / len(totals))
        out[system] = arr
    return out
