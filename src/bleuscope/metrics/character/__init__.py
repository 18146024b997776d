"""CharacTER (Wang et al. 2016): shift edits on words, then the character edit distance over the
hypothesis length, with the rwth-i6 program's numbers. Written from the definition (the original is GPL):

1. **Shifts.** A candidate shift moves a hypothesis phrase that equals the reference at another position
   (a word match at hypothesis position ``i`` and reference position ``j != i``, extended while the next
   words match) to position ``j``. Each candidate is scored by the word Levenshtein distance to the
   reference over the reference length, in float32; the largest gain over the current ratio wins (ties:
   the larger shifted word list in Python's order), until no candidate gains.
2. **Shift cost.** Left to right over the shifted words, where one differs from the original word at that
   position, the original word is found further right in the shifted words; the phrase matched there
   costs the average character length of its words.
3. **Value.** ``(character Levenshtein distance of the joined words + shift cost) / characters of the
   shifted hypothesis``, capped at 1; 0 when the words are equal. An empty reference gives 0 for an empty
   hypothesis and 1 otherwise (the original divides by zero); an empty hypothesis gives 1.

* :mod:`.reference` -- the definition in plain Python (the compiled core is tested against it);
* :mod:`.scorer` -- :class:`CharacTER`, a metric on bleuscope's contract.
"""

from .scorer import CharacTER, corpus_character, sentence_character

__all__ = ["CharacTER", "corpus_character", "sentence_character"]
