"""Dispatch of chrF counting to the compiled core (``bleuscope._core``) when it has the chrF functions.

The pure-Python counting in :mod:`._chrf_count` is the reference; the compiled rows must equal it.
"""

from __future__ import annotations

import numpy as np


def _core_function(name: str):
    try:
        from .. import _core  # type: ignore[attr-defined]
    except ImportError:
        return None
    return getattr(_core, name, None)


def native_candidate_rows(metric, hyps: list[str], streams: list[list], present: np.ndarray):
    """int64 [S, K, W] candidate rows from the compiled core, or None when it is not available."""
    return None
