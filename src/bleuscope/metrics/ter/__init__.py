"""TER: the scorer (:mod:`.scorer`), Tercom's text normalization (:mod:`.normalizer`), the pure-Python edits
(:mod:`.edits`, the reference the compiled core must match); the compiled core counts edits through
:mod:`bleuscope.core.native.chrf_ter`."""

from .scorer import REF_LENGTH_SCALE, TER, TERScore, TERScores, corpus_ter, sentence_ter

__all__ = ["REF_LENGTH_SCALE", "TER", "TERScore", "TERScores", "corpus_ter", "sentence_ter"]
