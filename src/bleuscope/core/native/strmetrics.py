"""The string metrics' compiled functions (``rust/python/src/strmetrics.rs``): GLEU, Self-BLEU, CharacTER
and EED. Each returns None when the numpy (Python) engine is chosen or the core is not built."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import core, core_threads, resolve_engine

if TYPE_CHECKING:
    import numpy as np


def _string_metric_core(engine: str):
    """The compiled module for a string metric's job, or None when the numpy (Python) engine is chosen."""
    if resolve_engine(engine) != "native":
        return None
    return core()


def gleu_rows(hyps: list, ref_streams: list, *, min_len: int, max_len: int, engine: str = "auto",
              threads: int | None = None, layout: str = "streams") -> np.ndarray | None:
    """GLEU ``(tp, n_all)`` rows int64 ``[S, 2]`` by the compiled core (items: strings split as ``str.split()``
    or token lists of ``str``; ``layout="lists"``: NLTK's list of references per hypothesis), or None when the
    Python implementation must do the job."""
    module = _string_metric_core(engine)
    if module is None:
        return None
    count = module.gleu_list_rows if layout == "lists" else module.gleu_rows
    rows = count(hyps, ref_streams, min_len, max_len, threads=core_threads(threads))
    return None if rows is None else rows.reshape(-1, 2)


def character_values(hyps: list, ref_streams: list, *, float64: bool = False, engine: str = "auto",
                     threads: int | None = None) -> np.ndarray | None:
    """CharacTER float64 ``[S]`` (the smallest over the references present; ``float64``: shifts scored in
    float64 as PyPI ``cer`` 1.2.0) by the compiled core, or None."""
    module = _string_metric_core(engine)
    if module is None:
        return None
    return module.character_values(hyps, ref_streams, float64=float64, threads=core_threads(threads))


def eed_values(hyps: list, ref_streams: list, parameters: tuple, *, engine: str = "auto",
               threads: int | None = None) -> np.ndarray | None:
    """EED float64 ``[S]`` of preprocessed text (``parameters``: alpha, deletion, insertion, substitution,
    rho) by the compiled core, or None."""
    module = _string_metric_core(engine)
    if module is None:
        return None
    return module.eed_values(hyps, ref_streams, *parameters, threads=core_threads(threads))


def self_bleu(sentences: list, weights: list, epsilon: float | None, *, engine: str = "auto"):
    """The compiled core's Self-BLEU ``(scores [W * N], matches, totals, closest, lengths, distinct,
    ngrams)`` (see ``_core.self_bleu``), or None."""
    module = _string_metric_core(engine)
    if module is None:
        return None
    return module.self_bleu(sentences, [list(map(float, w)) for w in weights], epsilon)


__all__ = ["character_values", "eed_values", "gleu_rows", "self_bleu"]
