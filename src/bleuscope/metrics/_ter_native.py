"""Dispatch of TER edit counting to the compiled core (``bleuscope._core``) when it has the TER functions.

The pure-Python edits in :mod:`._ter_edits` are the reference; the compiled counts must equal them.
"""

from __future__ import annotations

import numpy as np


def _core_function(name: str):
    try:
        from .. import _core  # type: ignore[attr-defined]
    except ImportError:
        return None
    return getattr(_core, name, None)


def native_edits_rows(metric, hyps: list[str], streams: list[list], present: np.ndarray):
    """int64 [S, K, 2] (edits, reference length) from the compiled core, or None when it is not available."""
    return None
