"""The reference engine: numpy counting of BLEU statistics from token ids (:mod:`.counting`).

It is the definition the compiled core (``bleuscope._core``, reached only through
:mod:`bleuscope.core.backend`) must match row for row: ``engine="numpy"`` scores with it, and the tests
compare the two engines on the same input. The per-metric references written in pure Python (chrF's
counting, TER's edits, ROUGE's and METEOR's alignments) live with their metrics.
"""
