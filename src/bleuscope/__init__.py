"""bleuscope: fast, exact BLEU with sacreBLEU 2.6.0's numbers.

>>> from bleuscope import BLEU
>>> BLEU().corpus_score(["The dog bit the man."], [["The dog bit the man."]]).score
100.00000000000004
"""

from ._version import __version__
from .bleu import BLEU, BLEUScore, BLEUScores, SegmentStatistics, corpus_bleu, sentence_bleu
from .scoring import ScoringConfig, compute_scores
from .tokenizers import available_tokenizers, get_tokenizer, register_tokenizer

__all__ = [
    "BLEU",
    "BLEUScore",
    "BLEUScores",
    "ScoringConfig",
    "SegmentStatistics",
    "__version__",
    "available_tokenizers",
    "compute_scores",
    "corpus_bleu",
    "get_tokenizer",
    "register_tokenizer",
    "sentence_bleu",
]
