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

from ..core.native import strmetrics as native_strmetrics
from ..metrics.gleu.reference import corpus_value, segment_row


class GLEUInputError(ValueError, AssertionError):
    """The hypotheses and their references differ in number (NLTK raises an ``AssertionError`` there)."""


def _native_rows(list_of_references, hypotheses, min_len: int, max_len: int):
    if not (isinstance(min_len, int) and isinstance(max_len, int) and 1 <= min_len <= max_len):
        return None
    if any(type(h) not in (list, tuple) for h in hypotheses):
        return None
    if any(type(refs) not in (list, tuple) or any(type(r) not in (list, tuple) for r in refs)
           for refs in list_of_references):
        return None
    return native_strmetrics.gleu_rows(hypotheses, list_of_references, min_len=min_len, max_len=max_len, layout="lists")


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
    rows = _native_rows(list_of_references, hypotheses, min_len, max_len)
    if rows is None:
        rows = [segment_row(h, refs, min_len, max_len) for refs, h in zip(list_of_references, hypotheses)]
    return corpus_value(rows)


def sentence_gleu(references, hypothesis, min_len=1, max_len=4):
    """NLTK's ``sentence_gleu``: ``corpus_gleu([references], [hypothesis], min_len, max_len)``."""
    return corpus_gleu([references], [hypothesis], min_len=min_len, max_len=max_len)


__all__ = ["GLEUInputError", "corpus_gleu", "sentence_gleu"]
