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
distinct word (NLTK looks them up for every unmatched word on every call). With the default stemmer and
bleuscope's WordNet, a call with token lists goes to the compiled core's word table, shared by all such calls
(stems, WordNet's synonym sets and the alignment computed there, no Python per word); other stemmers and
readers, and other iterables, are aligned in Python as NLTK aligns them. For many segments,
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


def _compiled(references, hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma) -> float | None:
    """The score through the compiled word table, or None when this call takes the Python path: token lists
    or tuples only (an iterator would be consumed by the first reference, as in NLTK), the default stemmer
    and bleuscope's WordNet, tokens that are strings with a UTF-8 form."""
    if type(hypothesis) not in (list, tuple) or type(references) not in (list, tuple) or not references:
        return None
    if not all(type(r) in (list, tuple) for r in references):
        return None
    table = compiled_table(stemmer, wordnet)
    if table is None:
        return None
    # NLTK preprocesses the hypothesis once per reference: the same tokens, as preprocess is a function
    hyp = list(map(preprocess, hypothesis))
    refs = [list(map(preprocess, r)) for r in references]
    found = table.align_tokens(hyp, refs)
    if found is None:
        return None
    hyp_len = len(hyp)
    return max(score(m, hyp_len, len(ref), c, alpha, beta, gamma) for (m, c), ref in zip(found, refs))


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
    value = _compiled((reference,), hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)
    if value is not None:
        return value
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
    value = _compiled(references, hypothesis, preprocess, stemmer, wordnet, alpha, beta, gamma)
    if value is not None:
        return value
    stem = stem_function(stemmer)
    synonyms = synonym_function(wordnet)
    return max(
        _single(reference, hypothesis, preprocess, stem, synonyms, alpha, beta, gamma) for reference in references
    )
