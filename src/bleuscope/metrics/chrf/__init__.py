"""chrF and chrF++: the scorer (:mod:`.scorer`), its pure-Python counting (:mod:`.counting`, the reference the
compiled core must match), sacreBLEU's mixed float32/float64 score arithmetic (:mod:`.arithmetic`) and the
compiled-core counting (:mod:`.native`)."""

from .scorer import CHRF, CHRFScore, CHRFScores, corpus_chrf, sentence_chrf

__all__ = ["CHRF", "CHRFScore", "CHRFScores", "corpus_chrf", "sentence_chrf"]
