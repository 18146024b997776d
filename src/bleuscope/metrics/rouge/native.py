"""The compiled core's ROUGE counts (through :mod:`bleuscope.core.backend`), or None when it cannot do the job."""

from __future__ import annotations

import numpy as np


def native_pair_counts(metric, hyps: list[str], streams: list[list], present: np.ndarray, *, required: bool):
    """int64 ``[S, K, T, 3]`` pair counts from the compiled core, or None (``required``: an error instead)."""
    from ...core import backend

    counter = getattr(backend, "rouge_pair_counts", None)
    if counter is None or not backend.native_available():
        if required:
            raise backend.NativeEngineUnavailableError(
                "engine='native' was asked for, but the compiled core (bleuscope._core) has no ROUGE counter "
                "in this installation; use engine='auto' or 'python'"
            )
        return None
    return counter(hyps, streams, present, metric.types, metric.use_stemmer, metric.tokenizer)
