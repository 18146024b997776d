"""Self-BLEU (Zhu et al. 2018, Texygen): each sentence's BLEU against all the others, averaged, with
distinct-n; NLTK 3.10.4's sentence BLEU numbers in O(total n-grams).

* :mod:`.reference` -- the leave-one-out counts with dictionaries and NLTK's arithmetic in Python;
* :mod:`.scorer` -- :class:`SelfBLEU` and its score, :class:`SelfBLEUScore`.
"""

from .scorer import SelfBLEU, SelfBLEUScore

__all__ = ["SelfBLEU", "SelfBLEUScore"]
