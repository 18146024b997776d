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


def gleu_counter(min_len: int, max_len: int, tokenizer: str | None = None, lowercase: bool = False,
                 threads: int | None = None):
    """A compiled :class:`bleuscope._core.GleuCounter` of these n-gram orders, whose ``rows(hyps, ref_streams)``
    gives GLEU's ``(tp, n_all)`` rows int64 ``[S, 2]`` (items: token lists of ``str``, or strings split as
    ``str.split()`` or, with ``tokenizer``, tokenized by that compiled tokenizer, lowercased first with
    ``lowercase``) and ``list_rows`` / ``list_total`` the same of NLTK's layout, each None for input it leaves
    to Python; None when the core is not built."""
    module = core()
    if module is None:
        return None
    return module.GleuCounter(min_len, max_len, tokenizer, lowercase, threads=core_threads(threads))


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


__all__ = ["character_values", "eed_values", "gleu_counter", "self_bleu"]
