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
from .metrics.chrf import CHRF, CHRFScore, corpus_chrf, sentence_chrf
from .metrics.ter import TER, TERScore, corpus_ter, sentence_ter
from .pairwise import MBRResult, expected_utility, mbr_select
from .scoring import ScoringConfig, compute_scores
from .token_ids import TokenBLEU
from .tokenizers import available_tokenizers, get_tokenizer, register_tokenizer
from .tokenizers.language import CJKTokenizationWarning, MissingExtraError

__all__ = [
    "BLEU",
    "BLEUScore",
    "BLEUScores",
    "CHRF",
    "CHRFScore",
    "CJKTokenizationWarning",
    "MBRResult",
    "MissingExtraError",
    "ScoringConfig",
    "SegmentStatistics",
    "TER",
    "TERScore",
    "TokenBLEU",
    "TokenizedInputWarning",
    "__version__",
    "available_tokenizers",
    "compute_scores",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_ter",
    "expected_utility",
    "get_tokenizer",
    "mbr_select",
    "register_tokenizer",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_ter",
]
