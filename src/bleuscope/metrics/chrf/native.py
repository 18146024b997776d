"""Dispatch of chrF counting to the compiled core (``bleuscope._core.chrf_candidates``) when it is built.

The pure-Python counting in :mod:`.counting` is the reference; the compiled rows must equal it (tests
compare the two). Python does the lowercasing (``str.lower`` is the definition); the core counts.
"""

from __future__ import annotations

import os

import numpy as np

#: set to "0" to force the pure-Python implementation (for comparisons)
ENV_SWITCH = "BLEUSCOPE_NATIVE_METRICS"


def core_function(name: str):
    """``bleuscope._core.<name>``, or None when the compiled core is not built or lacks it."""
    if os.environ.get(ENV_SWITCH, "1") == "0":
        return None
    try:
        from ... import _core  # type: ignore[attr-defined]
    except ImportError:
        return None
    return getattr(_core, name, None)


def default_threads() -> int:
    return max(1, min(8, os.cpu_count() or 1))


def native_candidate_rows(metric, hyps: list[str], streams: list[list], present: np.ndarray):
    """int64 [S, K, W] candidate rows from the compiled core, or None when it is not available."""
    count = core_function("chrf_candidates")
    if count is None:
        return None
    if metric.lowercase:
        hyps = [h.lower() for h in hyps]
        streams = [[None if r is None else r.lower() for r in s] for s in streams]
    flat = count(hyps, streams, metric.char_order, metric.word_order, metric.whitespace,
                 default_threads() if len(hyps) >= 2000 else 1)
    if flat is None:
        return None
    return flat.reshape(len(hyps), len(streams), metric.stats_width)
