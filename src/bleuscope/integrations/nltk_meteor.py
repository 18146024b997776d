"""NLTK-exact METEOR: ``nltk.translate.meteor_score`` (NLTK 3.10.4) as a drop-in, without importing NLTK.

``meteor_score(references, hypothesis, ...)`` and ``single_meteor_score(reference, hypothesis, ...)`` take
the arguments NLTK's take, in the same order, and return the same float (``==``): pre-tokenized input, a
``TypeError`` for a raw string hypothesis or reference (with NLTK's message), ``0.0`` when nothing matches
or a side is empty, the best score over the references (``ValueError`` from ``max()`` when there is none).

Defaults differ only in where they come from: the stemmer is bleuscope's port of NLTK's ``PorterStemmer()``
and WordNet is read by :class:`bleuscope.metrics.meteor.WordNet` from the first WordNet 3.0 database found
(NLTK's data directories first, as NLTK searches them; then Debian's ``/usr/share/wordnet``), loaded when a
synonym is first needed. NLTK's own objects work too (``stemmer=PorterStemmer()``,
``wordnet=nltk.corpus.wordnet``): they are called as NLTK calls them, with the answers cached per word; a
:class:`~bleuscope.metrics.meteor.WordNet` or a path to a WordNet directory may also be given as ``wordnet``.

One difference in what is *called*, not in what is returned: stems and synonym sets are looked up once per
distinct word and only for words an earlier stage left unmatched while an unmatched reference word remains
(NLTK looks them up for every such word on every call). Each call aligns in Python (the per-call cost of
the compiled core's arrays is larger than the alignment of one pair); for many segments,
:class:`bleuscope.METEOR` aligns whole batches in the compiled core.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from ..metrics.meteor.alignment import align, score
from ..metrics.meteor.lexicon import compiled_table, stem_function, synonym_function

__all__ = ["meteor_score", "single_meteor_score"]


def _single(reference, hypothesis, preprocess, stem, synonyms, alpha, beta, gamma) -> float:
    if isinstance(hypothesis, str):
        raise TypeError(f'"hypothesis" expects pre-tokenized hypothesis (Iterable[str]): {hypothesis}')
    if isinstance(reference, str):
        raise TypeError(f'"reference" expects pre-tokenized reference (Iterable[str]): {reference}')
    hyp = list(map(preprocess, hypothesis))
    ref = list(map(preprocess, reference))
    matches, chunks = align(hyp, ref, stem, synonyms)
    return score(matches, len(hyp), len(ref), chunks, alpha, beta, gamma)


def single_meteor_score(
    reference: Iterable[str],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer=None,
    wordnet=None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """METEOR of one tokenized hypothesis against one tokenized reference, as NLTK's
    ``single_meteor_score`` (``stemmer=None``: bleuscope's Porter; ``wordnet=None``: the WordNet found).

    >>> round(single_meteor_score(['this', 'is', 'a', 'cat'], ['non', 'matching', 'hypothesis']), 4)
    0.0
    """
    return _single(reference, hypothesis, preprocess, stem_function(stemmer), synonym_function(wordnet),
                   alpha, beta, gamma)


def meteor_score(
    references: Iterable[Iterable[str]],
    hypothesis: Iterable[str],
    preprocess: Callable[[str], str] = str.lower,
    stemmer=None,
    wordnet=None,
    alpha: float = 0.9,
    beta: float = 3.0,
    gamma: float = 0.5,
) -> float:
    """The best METEOR of one tokenized hypothesis over its tokenized references, as NLTK's ``meteor_score``.

    >>> round(meteor_score([['this', 'is', 'a', 'cat']], ['non', 'matching', 'hypothesis']), 4)
    0.0
    """
    stem = stem_function(stemmer)
    synonyms = synonym_function(wordnet)
    if type(hypothesis) in (list, tuple) and type(references) in (list, tuple) and references:
        table = compiled_table(stemmer, wordnet)
        if table is not None and all(type(r) in (list, tuple) for r in references):
            # NLTK preprocesses the hypothesis once per reference: the same tokens, as preprocess is a function
            hyp = list(map(preprocess, hypothesis))
            refs = [list(map(preprocess, r)) for r in references]
            found = table.align_tokens(hyp, refs)
            if found is not None:
                return max(score(m, len(hyp), len(ref), c, alpha, beta, gamma) for (m, c), ref in zip(found, refs))
    return max(
        _single(reference, hypothesis, preprocess, stem, synonyms, alpha, beta, gamma) for reference in references
    )
