"""ROUGE tokenizers: rouge-score's (the default) and two Unicode-aware ones (options, never the default).

``default`` is rouge-score 0.1.2's: the text is lowercased with ``str.lower``, every character outside
``[a-z0-9]`` separates tokens, and tokens are the runs of ``[a-z0-9]`` left. Only two non-ASCII characters
survive: KELVIN SIGN (U+212A), which lowercases to ``k``, and LATIN CAPITAL LETTER I WITH DOT ABOVE (U+0130),
which lowercases to ``i`` plus a combining dot (a separator). Any other script is dropped entirely, which is
why rouge-score gives 0 on Chinese, Russian or Arabic text.

``unicode``: lowercased with ``str.lower``; a token is a maximal run of letters, numbers and combining marks
(Unicode categories L*, N*, M*, from Python's ``unicodedata``); everything else separates.

``unicode-cjk``: as ``unicode``, and each CJK character (Han, kana, Hangul, Bopomofo: the ranges of the
``cjk-char`` BLEU tokenizer) is a token of its own, with the combining marks that follow it.

With ``use_stemmer=True`` the Porter stemmer applies to tokens longer than three characters; the Unicode
tokenizers stem only tokens made of ``[a-z0-9]`` (Porter's rules are for English).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

from ...tokenizers.cjk import CJK_CHAR_RANGES

#: the tokenizer names ``ROUGE(tokenizer=...)`` accepts
TOKENIZERS = ("default", "unicode", "unicode-cjk")

_ASCII_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def default_tokens(text: str) -> list[str]:
    """rouge-score's tokens of ``text`` (without stemming)."""
    out: list[str] = []
    word: list[str] = []
    for ch in text.lower():
        if ch in _ASCII_ALNUM:
            word.append(ch)
        elif word:
            out.append("".join(word))
            word = []
    if word:
        out.append("".join(word))
    return out


@lru_cache(maxsize=1 << 14)
def _kind(ch: str) -> int:
    """0: separator, 1: word character, 2: CJK character (a token by itself), 3: combining mark."""
    cat = unicodedata.category(ch)
    if cat[0] == "M":
        return 3
    if cat[0] not in "LN":
        return 0
    cp = ord(ch)
    for lo, hi in CJK_CHAR_RANGES:
        if lo <= cp <= hi:
            return 2
    return 1


def unicode_tokens(text: str, cjk: bool = False) -> list[str]:
    """Tokens of the ``unicode`` (``cjk=False``) or ``unicode-cjk`` tokenizer."""
    out: list[str] = []
    word: list[str] = []
    in_cjk = False  # the current token is one CJK character (and its marks)
    for ch in text.lower():
        kind = _kind(ch)
        if kind == 2 and not cjk:
            kind = 1
        if kind == 0:
            if word:
                out.append("".join(word))
                word = []
            in_cjk = False
        elif kind == 3:
            word.append(ch)
        elif kind == 2:
            if word:
                out.append("".join(word))
            word = [ch]
            in_cjk = True
        else:
            if in_cjk:
                out.append("".join(word))
                word = []
                in_cjk = False
            word.append(ch)
    if word:
        out.append("".join(word))
    return out


def tokenize(text: str, tokenizer: str = "default", stem: bool = False) -> list[str]:
    """The tokens ROUGE compares, stemmed when ``stem`` (tokens longer than three characters)."""
    if tokenizer == "default":
        tokens = default_tokens(text)
    elif tokenizer == "unicode":
        tokens = unicode_tokens(text)
    elif tokenizer == "unicode-cjk":
        tokens = unicode_tokens(text, cjk=True)
    else:
        raise ValueError(f"unknown ROUGE tokenizer {tokenizer!r}; expected one of {', '.join(TOKENIZERS)}")
    if stem:
        from .porter import cached_stem  # the stemmer loads when stemming is asked for

        tokens = [cached_stem(t) if len(t) > 3 and _is_ascii_word(t) else t for t in tokens]
        tokens = [t for t in tokens if t]
    return tokens


def _is_ascii_word(token: str) -> bool:
    return token.isascii() and token.isalnum()
