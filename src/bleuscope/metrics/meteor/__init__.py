"""METEOR (Lavie and Agarwal 2007) with NLTK 3.10.4's definition: exact, Porter-stem and WordNet-synonym
matching, greedy alignment, fragmentation penalty, best over references.

* :mod:`.alignment` -- the alignment and the score of one statistics row;
* :mod:`.wordnet` -- a reader of the WordNet 3.0 files (no NLTK, no download);
* :mod:`.lexicon` -- cached stems and synonym sets;
* :mod:`.scorer` -- :class:`METEOR`, the scorer for text or token lists.
"""

from .scorer import METEOR, METEORScore, METEORScores, corpus_meteor, sentence_meteor
from .wordnet import WordNet, WordNetFormatError, WordNetNotFoundError

__all__ = [
    "METEOR",
    "METEORScore",
    "METEORScores",
    "WordNet",
    "WordNetFormatError",
    "WordNetNotFoundError",
    "corpus_meteor",
    "sentence_meteor",
]
