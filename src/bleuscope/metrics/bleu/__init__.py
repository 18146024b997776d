"""BLEU: the scorer (:mod:`.scorer`), its scoring from statistics (:mod:`.scoring`, :mod:`.smoothing`),
all-pairs statistics (:mod:`.pairwise`) and token-id input (:mod:`.token_ids`)."""

from .scorer import BLEU, BLEUScore, BLEUScores, corpus_bleu, raw_corpus_bleu, sentence_bleu

__all__ = ["BLEU", "BLEUScore", "BLEUScores", "corpus_bleu", "raw_corpus_bleu", "sentence_bleu"]
