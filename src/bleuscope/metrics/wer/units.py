"""Text -> tokens for the edit rates, as each tool tokenizes (the compiled core's ``Units``, in Python).

* ``jiwer-words``: jiwer's ``wer_default`` (``RemoveMultipleSpaces``, ``Strip``,
  ``ReduceToListOfListOfWords``): runs of two or more whitespace characters become one space, the ends are
  stripped, words are split at single spaces only, so a lone tab, NBSP or U+3000 stays inside its word
  (``"a\\tb"`` is one word);
* ``split-words``: Python's ``str.split()`` (torchmetrics, NeMo);
* ``jiwer-chars``: jiwer's ``cer_default`` (``Strip``, ``ReduceToListOfListOfChars``): the characters of the
  stripped text, inner runs of spaces kept;
* ``collapsed-chars``: HF evaluate's ``cer`` under jiwer 3 (``RemoveMultipleSpaces``, ``Strip``, then
  characters);
* ``raw-chars``: every character (torchmetrics, NeMo).

"Whitespace" is Python's (``str.isspace``, what ``re``'s ``\\s`` and ``str.strip`` use).
"""

from __future__ import annotations

import re

UNITS = ("jiwer-words", "split-words", "jiwer-chars", "collapsed-chars", "raw-chars")

_RUNS = re.compile(r"\s\s+")


def tokens(text: str, units: str) -> list[str]:
    """The tokens of ``text`` under ``units`` (one of :data:`UNITS`)."""
    if units == "jiwer-words":
        text = _RUNS.sub(" ", text).strip()
        return text.split(" ") if text else []
    if units == "split-words":
        return text.split()
    if units == "jiwer-chars":
        return list(text.strip())
    if units == "collapsed-chars":
        return list(_RUNS.sub(" ", text).strip())
    if units == "raw-chars":
        return list(text)
    raise ValueError(f"unknown units {units!r}: choose from {', '.join(UNITS)}")
