"""chrF and chrF++: the scorer (:mod:`.scorer`), its pure-Python counting (:mod:`.counting`, the reference the
compiled core must match), and sacreBLEU's mixed float32/float64 score arithmetic (:mod:`.arithmetic`); the
compiled core counts through :mod:`bleuscope.core.native.chrf_ter`."""

from .scorer import CHRF, CHRFScore, CHRFScores, corpus_chrf, sentence_chrf

__all__ = ["CHRF", "CHRFScore", "CHRFScores", "corpus_chrf", "sentence_chrf"]
