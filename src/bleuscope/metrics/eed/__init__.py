"""EED, the Extended Edit Distance (Stanchev, Wang and Ney 2019), with the rwth-i6 program's numbers.
Written from the definition (the original's licence is non-commercial):

1. **Input.** The original's English preprocessing (:func:`.reference.preprocess_en`); each side padded
   with a space at both ends.
2. **Grid.** Row by row over the reference characters, each cell is the cheapest of a deletion (0.2, along
   the hypothesis), a substitution or match (1 or 0) and an insertion (1, along the reference); the first
   column adds 1 per row; float32 throughout.
3. **Jumps and coverage.** The row's minimum is located as the original does (its running minimum is an
   integer, truncated: the first cell below the truncated minimum so far wins) and that cell's visit count
   goes up; after a reference space every cell is capped at ``alpha`` (2) above the minimum. The coverage
   penalty is ``rho`` (0.3) times the sum over hypothesis positions 1.. of their visits beyond the first (a
   position never visited counts 1).
4. **Value.** ``(last cell + coverage) / (padded reference length + coverage)``, capped at 1.

* :mod:`.reference` -- the definition in Python with numpy float32 scalars;
* :mod:`.scorer` -- :class:`EED`, a metric on bleuscope's contract.
"""

from .scorer import EED, corpus_eed, sentence_eed

__all__ = ["EED", "corpus_eed", "sentence_eed"]
