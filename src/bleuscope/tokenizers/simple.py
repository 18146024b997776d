"""Tokenizers without rules: ``none`` (whitespace only) and ``char`` (every character)."""

from __future__ import annotations

from .base import WordLocalTokenizer


class TokenizerNone(WordLocalTokenizer):
    """No tokenization: tokens are the whitespace-separated words (Python ``str.split``)."""

    name = "none"
    #: the compiled core's tokenizer that implements exactly this class (not inherited)
    native_name = "none"

    def __call__(self, line: str) -> str:
        return line

    def tokenize_word(self, word: str, left: bool = True, right: bool = True) -> list[str]:
        return [word]

    def tokenize_words(self, words: list[str]) -> list[list[str]]:
        return [[w] for w in words]

    def tokenize_words_joined(self, words: list[str]) -> str:
        return "\n".join(words)


class TokenizerChar(WordLocalTokenizer):
    """Every non-whitespace character is a token (sacreBLEU ``char``)."""

    name = "char"
    #: the compiled core's tokenizer that implements exactly this class (not inherited)
    native_name = "char"

    def __call__(self, line: str) -> str:
        return " ".join(line)

    def tokenize_word(self, word: str, left: bool = True, right: bool = True) -> list[str]:
        return list(word)

    def tokenize_words(self, words: list[str]) -> list[list[str]]:
        return list(map(list, words))

    def tokenize_words_joined(self, words: list[str]) -> str:
        return "\n".join(map(" ".join, words))
