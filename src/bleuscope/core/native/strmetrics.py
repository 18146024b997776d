"""The string metrics' compiled objects (``rust/python/src/strmetrics.rs``): GLEU's counter and the
CharacTER, EED and Self-BLEU scorers, each built once with its settings. A builder returns None when the
compiled core is not built; the metric then keeps its Python implementation (and it chooses the numpy
engine itself, by not building one)."""

from __future__ import annotations

from . import core, core_threads


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


def character_scorer(float64: bool = False, threads: int | None = None):
    """A compiled :class:`bleuscope._core.CharacterScorer`, whose ``values(hyps, ref_streams)`` gives CharacTER
    float64 ``[S]`` (the smallest over the references present; ``float64``: shifts scored in float64 as PyPI
    ``cer`` 1.2.0), or None for input it leaves to Python; None when the core is not built."""
    module = core()
    return None if module is None else module.CharacterScorer(float64, threads=core_threads(threads))


def eed_scorer(parameters: tuple, threads: int | None = None):
    """A compiled :class:`bleuscope._core.EedScorer` of ``parameters`` (alpha, deletion, insertion,
    substitution, rho), whose ``values(hyps, ref_streams)`` gives EED float64 ``[S]`` of preprocessed text, or
    None for a string that is not valid UTF-8; None when the core is not built."""
    module = core()
    return None if module is None else module.EedScorer(*parameters, threads=core_threads(threads))


def self_bleu_scorer(weights: list, epsilon: float | None):
    """A compiled :class:`bleuscope._core.SelfBleuScorer` of these weight vectors (``epsilon`` None: NLTK's
    method0, a number: method1), whose ``score(sentences)`` gives ``(scores [W * N], matches, totals, closest,
    lengths, distinct, ngrams)``, or None for a sentence it leaves to Python; None when the core is not
    built."""
    module = core()
    return None if module is None else module.SelfBleuScorer([list(map(float, w)) for w in weights], epsilon)


__all__ = ["character_scorer", "eed_scorer", "gleu_counter", "self_bleu_scorer"]
