"""Tokenizer interface.

A tokenizer has two faces:

* ``tok(line) -> str`` is the reference behaviour: exactly what sacreBLEU's tokenizer of the same name
  returns for one (lowercased, right-stripped) line. It is simple and slow and serves tests and odd input.
* ``split_units(line)`` / ``tokenize_unit(unit)`` is the fast path used by the engine. A line is cut into
  *units* (usually whitespace-separated words); every distinct unit is tokenized once per corpus and the
  result reused for every occurrence. For the regex tokenizers each rule only looks at a character and its
  immediate neighbour, and the neighbour of a word's edge is always whitespace (or the string boundary),
  so tokenizing words one by one gives the same tokens as tokenizing the line; the units carry the edge
  context where a rule can see it (``intl`` and ``zh`` have no padding at the line ends). The property
  tests in ``tests/test_tokenizers.py`` check the equivalence against sacreBLEU on arbitrary Unicode.

Unit conventions (kept as plain Python objects because they are dictionary keys in the hot loop):

* ``str``: a word that is tokenized without regard to context;
* ``(word, left, right)``: a word at a line edge; ``left``/``right`` say whether whitespace precedes/follows;
* ``(token,)``: an already final token (whole-line tokenizers, or lines that the word path cannot take).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

#: A unit of a line (the conventions above).
Unit = str | tuple[str] | tuple[str, bool, bool]


class BaseTokenizer:
    """Base class: subclasses implement ``__call__`` and may override the fast path."""

    #: registry name, e.g. ``"13a"``
    name: str = ""
    #: the compiled core's name for a tokenizer that implements this very class exactly, declared by the
    #: class itself and read only from its own namespace (a subclass may tokenize otherwise): None here
    native_name: str | None = None

    def signature(self) -> str:
        """The value shown after ``tok:`` in a BLEU signature."""
        return self.name

    def __call__(self, line: str) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    # -- fast path -------------------------------------------------------------------------------------
    def split_units(self, line: str) -> Sequence[Unit]:
        """Cut an already lowercased line into units. Default: whole-line tokenization (slow but exact)."""
        return [(t,) for t in self(line.rstrip()).split()]

    def tokenize_unit(self, unit: Unit) -> list[str]:
        """Tokens of one unit, as returned by ``split_units``."""
        if isinstance(unit, tuple) and len(unit) == 1:
            return [unit[0]]
        raise TypeError(f"{type(self).__name__} cannot tokenize unit {unit!r}")

    def tokenize_batch(self, lines) -> list[list[str]]:
        """Tokens of many lines; the reference for ``split_units`` + ``tokenize_unit``."""
        return [self(line.rstrip()).split() for line in lines]

    def __repr__(self) -> str:
        return f"<{type(self).__name__} tok:{self.signature()}>"


class WordLocalTokenizer(BaseTokenizer):
    """A tokenizer whose output for a line is the concatenation of its output for each word."""

    #: True when the rules can see across a line edge differently from across a space (no padding)
    edge_sensitive: bool = False
    #: True when leading whitespace of the line is kept (``intl``) rather than stripped (``zh``)
    keeps_leading_space: bool = True

    def tokenize_word(self, word: str, left: bool = True, right: bool = True) -> list[str]:
        raise NotImplementedError

    def needs_whole_line(self, line: str) -> bool:
        """Lines the word path cannot take (e.g. embedded newlines for 13a)."""
        return False

    def edge_matters(self, word: str, left: bool) -> bool:
        """Whether a missing neighbour at the word's left (or right) edge can change its tokens."""
        return True

    def tokenize_words(self, words: list[str]) -> list[list[str]]:
        """Tokens of many context-free words; subclasses batch the regex work over all of them."""
        return [self.tokenize_word(w) for w in words]

    def tokenize_words_joined(self, words: list[str]) -> str:
        """``tokenize_words`` as one string: each word's tokens space-separated, words separated by "\n"
        (the engine turns it into ids without a Python loop per token)."""
        return "\n".join(map(" ".join, self.tokenize_words(words)))

    def tokenize_edge_units(self, units: list[tuple]) -> list[list[str]]:
        """Tokens of many ``(word, left, right)`` edge units; subclasses may batch."""
        return [self.tokenize_word(*u) for u in units]

    @staticmethod
    def _digit_fenced(units: list[tuple]) -> str:
        """Edge units joined by newlines, a missing neighbour replaced by a "0".

        For rules that only fire next to a *non-digit* neighbour (intl's punctuation rules, 13a's period
        and comma rules), a digit neighbour acts exactly like no neighbour; the fence is removed again by
        :meth:`_unfence` (rules only insert spaces, so it stays the first/last character).
        """
        return "\n" + "\n".join(("" if left else "0") + w + ("" if right else "0") for w, left, right in units) + "\n"

    @staticmethod
    def _unfence(processed: str, units: list[tuple]) -> list[list[str]]:
        out = []
        for part, (_, left, right) in zip(processed.split("\n")[1:-1], units):
            if not left:
                part = part[1:]
            if not right:
                part = part[:-1]
            out.append(part.split())
        return out

    def split_units(self, line: str) -> Sequence[Unit]:
        line = line.rstrip()
        if self.needs_whole_line(line):
            return [(t,) for t in self(line).split()]
        tokens = line.split()
        # the same list: its edge words may become (word, left, right) units below
        words = cast("list[Unit]", tokens)
        if self.edge_sensitive and tokens:
            left_first = self.keeps_leading_space and line[:1].isspace()
            first, last = tokens[0], tokens[-1]
            # a flag is False only where the missing neighbour can change the tokens (edge_matters), so
            # that equal edge units share one cache entry and batch fences never touch irrelevant edges
            left_missing = not left_first and self.edge_matters(first, True)
            right_missing = self.edge_matters(last, False)
            if len(words) == 1:
                if left_missing or right_missing:
                    words[0] = (first, not left_missing, not right_missing)
            else:
                if left_missing:
                    words[0] = (first, False, True)
                if right_missing:
                    words[-1] = (last, True, False)
        return words

    def tokenize_unit(self, unit: Unit) -> list[str]:
        if isinstance(unit, str):
            return self.tokenize_word(unit)
        if len(unit) == 3:
            return self.tokenize_word(*unit)
        return [unit[0]]
