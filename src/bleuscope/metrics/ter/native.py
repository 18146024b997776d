"""Dispatch of TER edit counting to the compiled core (``bleuscope._core.ter_edits_rows``) when it is built.

The pure-Python edits in :mod:`.edits` are the reference; the compiled counts must equal them (tests
compare the two). Python normalizes the text (Tercom's rules, then words joined by single spaces).
"""

from __future__ import annotations

import numpy as np

from ..chrf.native import core_function, default_threads


def native_edits_rows(metric, hyps: list[str], streams: list[list], present: np.ndarray):
    """int64 [S, K, 2] (edits, reference length) from the compiled core, or None when it is not available."""
    count = core_function("ter_edits_rows")
    if count is None:
        return None
    normalize, normalize_reference = metric.normalizer.segment, metric.normalizer.reference_segment
    hyps = [normalize(h) for h in hyps]
    streams = [[None if r is None else normalize_reference(r) for r in s] for s in streams]
    flat = count(hyps, streams, default_threads() if len(hyps) >= 64 else 1)
    if flat is None:
        return None
    return flat.reshape(len(hyps), len(streams), 2)
