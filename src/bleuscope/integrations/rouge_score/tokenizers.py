"""rouge-score's ``tokenizers`` module: ``Tokenizer`` and ``DefaultTokenizer`` (with bleuscope's own Porter
stemmer, equal to NLTK's, instead of NLTK's)."""

from __future__ import annotations

import abc

from ...metrics.rouge.tokenize import tokenize as _tokenize


class Tokenizer(abc.ABC):
    """A tokenizer: ``tokenize(text) -> list of str``."""

    @abc.abstractmethod
    def tokenize(self, text):
        raise NotImplementedError("Tokenizer must override tokenize() method")


class DefaultTokenizer(Tokenizer):
    """rouge-score's default tokenizer, optionally with the Porter stemmer."""

    def __init__(self, use_stemmer=False):
        self.use_stemmer = bool(use_stemmer)

    def tokenize(self, text):
        return _tokenize(text, "default", self.use_stemmer)
