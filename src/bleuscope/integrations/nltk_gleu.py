"""NLTK-exact GLEU: ``nltk.translate.gleu_score`` (NLTK 3.10.4) on bleuscope's compiled core. A drop-in
replacement with NLTK's signatures, argument order and return values (``==``); NLTK itself is never
imported::

    from bleuscope.nltk_gleu import corpus_gleu, sentence_gleu
    sentence_gleu([["the", "cat", "sat"]], ["the", "cat", "sat", "down"])

Token lists (or tuples) of ``str`` are counted by the compiled core; anything else NLTK accepts (tokens of
other hashable types, a string taken as its characters, ``min_len=0`` or ``max_len=-1``) takes the Python
definition (:mod:`bleuscope.metrics.gleu.reference`), with the same numbers. Mismatched lengths raise
:class:`GLEUInputError`, an ``AssertionError`` as NLTK's ``assert`` is, and a ``ValueError``.
"""

from __future__ import annotations

import functools

from ..core.native import strmetrics as native_strmetrics
from ..metrics.gleu.reference import corpus_value, segment_row


class GLEUInputError(ValueError, AssertionError):
    """The hypotheses and their references differ in number (NLTK raises an ``AssertionError`` there)."""


@functools.lru_cache(maxsize=16)
def _counter(min_len: int, max_len: int):
    """The compiled counter of these orders, built once (None: the core is not built)."""
    return native_strmetrics.gleu_counter(min_len, max_len)


def _native_total(list_of_references: list, hypotheses: list, min_len, max_len) -> tuple[int, int] | None:
    """``(sum tp, sum n_all)`` from the compiled core, or None where the Python definition does the job
    (orders it does not take, items that are not token lists of ``str``)."""
    if not (type(min_len) is int and type(max_len) is int and 1 <= min_len <= max_len):
        return None
    counter = _counter(min_len, max_len)
    return None if counter is None else counter.list_total(hypotheses, list_of_references)


def corpus_gleu(list_of_references, hypotheses, min_len=1, max_len=4):
    """NLTK's ``corpus_gleu``: ``sum(tp) / sum(n_all)`` over the segments, each taking its best reference."""
    list_of_references = list(list_of_references)
    hypotheses = list(hypotheses)
    if len(list_of_references) != len(hypotheses):
        raise GLEUInputError(
            f"The number of hypotheses and their reference(s) should be the same: list_of_references has "
            f"{len(list_of_references)} entries, hypotheses has {len(hypotheses)}"
        )
    if not hypotheses:
        return 0.0
    total = _native_total(list_of_references, hypotheses, min_len, max_len)
    if total is None:
        rows = [segment_row(h, refs, min_len, max_len) for refs, h in zip(list_of_references, hypotheses)]
        return corpus_value(rows)
    tp, n_all = total
    return tp / n_all if n_all else 0.0


def sentence_gleu(references, hypothesis, min_len=1, max_len=4):
    """NLTK's ``sentence_gleu``: ``corpus_gleu([references], [hypothesis], min_len, max_len)``."""
    return corpus_gleu([references], [hypothesis], min_len=min_len, max_len=max_len)


__all__ = ["GLEUInputError", "corpus_gleu", "sentence_gleu"]
