"""GLEU (Wu et al. 2016) with NLTK 3.10.4's definition and HF evaluate ``google_bleu``'s numbers.

* :mod:`.reference` -- the definition in plain Python (the compiled core is tested against it);
* :mod:`.scorer` -- :class:`GLEU`, a metric on bleuscope's contract (two integers per segment: additive).

NLTK's own signatures are in :mod:`bleuscope.nltk_gleu`.
"""

from .scorer import GLEU, GLEUScore, GLEUScores, corpus_gleu, sentence_gleu

__all__ = ["GLEU", "GLEUScore", "GLEUScores", "corpus_gleu", "sentence_gleu"]
