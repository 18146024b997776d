"""The mteval-derived tokenizers: ``13a`` (mteval-v13a) and ``intl`` (mteval-v14 international)."""

from __future__ import annotations

import re

from .base import WordLocalTokenizer

# mteval-v13a's language-dependent rules, applied in this order to a space-padded line.
# Rule 1 splits off every ASCII punctuation character except ' - . , : the class
# [{-~[-` -&(-+:-@/] of the original regex. It is context-free, so str.translate does it in C.
_PUNCT_CHARS = (
    [chr(c) for c in range(ord("{"), ord("~") + 1)]
    + [chr(c) for c in range(ord("["), ord("`") + 1)]
    + [chr(c) for c in range(ord(" "), ord("&") + 1)]
    + [chr(c) for c in range(ord("("), ord("+") + 1)]
    + [chr(c) for c in range(ord(":"), ord("@") + 1)]
    + ["/"]
)
_PUNCT_TABLE = {ord(c): f" {c} " for c in _PUNCT_CHARS}
_PERIOD_COMMA_AFTER_NONDIGIT = re.compile(r"([^0-9])([\.,])")
_PERIOD_COMMA_BEFORE_NONDIGIT = re.compile(r"([\.,])([^0-9])")
_DASH_AFTER_DIGIT = re.compile(r"([0-9])(-)")


def apply_v13a_rules(text: str) -> str:
    """The four substitution rules of mteval-v13a (shared with ``zh``); no padding, no whitespace clean-up."""
    text = text.translate(_PUNCT_TABLE)
    # callables instead of "\1 \2 " templates: Python 3.11 expands templates in Python code per match
    text = _PERIOD_COMMA_AFTER_NONDIGIT.sub(_pair_spaced_after, text)
    text = _PERIOD_COMMA_BEFORE_NONDIGIT.sub(_pair_spaced_before, text)
    return _DASH_AFTER_DIGIT.sub(_pair_spaced_after, text)


def _pair_spaced_after(m: re.Match) -> str:  # r"\1 \2 "
    return f"{m[1]} {m[2]} "


def _pair_spaced_before(m: re.Match) -> str:  # r" \1 \2"
    return f" {m[1]} {m[2]}"


class Tokenizer13a(WordLocalTokenizer):
    """mteval-v13a as in sacreBLEU: ``<skipped>`` removal, four entities, ASCII punctuation splitting."""

    name = "13a"
    #: the compiled core's tokenizer that implements exactly this class (not inherited)
    native_name = "13a"

    def __call__(self, line: str) -> str:
        line = line.replace("<skipped>", "").replace("-\n", "").replace("\n", " ")
        if "&" in line:
            line = line.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        return " ".join(apply_v13a_rules(f" {line} ").split())

    def needs_whole_line(self, line: str) -> bool:
        # "-\n" joins two words and "\n" becomes a space: only the whole-line path sees that
        return "\n" in line

    def tokenize_word(self, word: str, left: bool = True, right: bool = True) -> list[str]:
        # the line is padded with spaces, so a word always has a whitespace neighbour on both sides
        return self(word).split()

    def tokenize_words_joined(self, words: list[str]) -> str:
        # One regex pass over all words joined by "\n": every rule sees a whitespace neighbour at a word
        # edge exactly as in a padded line, and no rule inserts or removes "\n". The "-\n" joining of
        # the line-level step must not run here (words hold no newline), only the in-word steps.
        joined = "\n".join(words).replace("<skipped>", "")
        if "&" in joined:
            joined = joined.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")
        return apply_v13a_rules(f"\n{joined}\n")[1:-1]

    def tokenize_words(self, words: list[str]) -> list[list[str]]:
        if not words:  # "\n".join([]) would read as one empty word
            return []
        return [part.split() for part in self.tokenize_words_joined(words).split("\n")]


class TokenizerIntl(WordLocalTokenizer):
    """mteval-v14 ``--international-tokenization``: Unicode punctuation and symbols, no padding."""

    name = "intl"
    #: the compiled core's tokenizer that implements exactly this class (not inherited)
    native_name = "intl"
    edge_sensitive = True
    keeps_leading_space = True

    def __init__(self) -> None:
        import regex  # same Unicode tables as sacreBLEU, which uses this package too

        self._rules = [
            (regex.compile(r"(\P{N})(\p{P})"), r"\1 \2 "),
            (regex.compile(r"(\p{P})(\P{N})"), r" \1 \2"),
            (regex.compile(r"(\p{S})"), r" \1 "),
        ]
        self._punct = regex.compile(r"\p{P}")

    def _apply(self, text: str) -> str:
        for pattern, repl in self._rules:
            text = pattern.sub(repl, text)
        return text

    def __call__(self, line: str) -> str:
        return " ".join(self._apply(line).split())

    def tokenize_word(self, word: str, left: bool = True, right: bool = True) -> list[str]:
        padded = (" " if left else "") + word + (" " if right else "")
        return self._apply(padded).split()

    def edge_matters(self, word: str, left: bool) -> bool:
        # only punctuation looks at its neighbours (a non-digit one); symbols split regardless
        return self._punct.match(word[0] if left else word[-1]) is not None

    def tokenize_words_joined(self, words: list[str]) -> str:
        return self._apply("\n" + "\n".join(words) + "\n")[1:-1]

    def tokenize_words(self, words: list[str]) -> list[list[str]]:
        if not words:  # "\n".join([]) would read as one empty word
            return []
        return [part.split() for part in self.tokenize_words_joined(words).split("\n")]

    def tokenize_edge_units(self, units: list[tuple]) -> list[list[str]]:
        # digits are never part of a match of the three rules, so a digit fence acts like a string edge
        return self._unfence(self._apply(self._digit_fenced(units)), units)
