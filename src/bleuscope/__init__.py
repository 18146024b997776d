"""bleuscope: fast, exact BLEU with sacreBLEU 2.6.0's numbers.

>>> from bleuscope import BLEU
>>> BLEU().corpus_score(["The dog bit the man."], [["The dog bit the man."]]).score
100.00000000000004
"""

from ._version import __version__
from .bleu import (
    BLEU,
    BLEUScore,
    BLEUScores,
    SegmentStatistics,
    TokenizedInputWarning,
    corpus_bleu,
    sentence_bleu,
)
from .pairwise import MBRResult, expected_utility, mbr_select
from .scoring import ScoringConfig, compute_scores
from .token_ids import TokenBLEU
from .tokenizers import available_tokenizers, get_tokenizer, register_tokenizer
from .tokenizers.language import CJKTokenizationWarning, MissingExtraError

__all__ = [
    "BLEU",
    "BLEUScore",
    "BLEUScores",
    "CJKTokenizationWarning",
    "MBRResult",
    "MissingExtraError",
    "ScoringConfig",
    "SegmentStatistics",
    "TokenBLEU",
    "TokenizedInputWarning",
    "__version__",
    "available_tokenizers",
    "compute_scores",
    "corpus_bleu",
    "expected_utility",
    "get_tokenizer",
    "mbr_select",
    "register_tokenizer",
    "sentence_bleu",
]
