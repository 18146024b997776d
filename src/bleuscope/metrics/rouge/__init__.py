"""ROUGE with rouge-score 0.1.2's numbers: the metric (:class:`ROUGE`), its tokenizers and Porter stemmer,
the plain-Python reference counts, and rouge-score's bootstrap aggregator."""

from .scorer import (
    DEFAULT_TYPES,
    ROUGE,
    AggregateScore,
    ROUGEScore,
    ROUGEScores,
    Score,
    corpus_rouge,
    sentence_rouge,
)

__all__ = [
    "DEFAULT_TYPES",
    "ROUGE",
    "AggregateScore",
    "ROUGEScore",
    "ROUGEScores",
    "Score",
    "corpus_rouge",
    "sentence_rouge",
]
