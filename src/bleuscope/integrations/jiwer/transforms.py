"""jiwer 4.0.0's transforms, with its behaviour: each takes a string or a list of strings (anything else is
a ``ValueError``), and a :class:`Compose` chains them; a chain for ``process_words`` ends with
:class:`ReduceToListOfListOfWords`, one for ``process_characters`` with :class:`ReduceToListOfListOfChars`."""

from __future__ import annotations

import functools
import re
import string
import sys
import unicodedata
from collections.abc import Iterable, Mapping

__all__ = [
    "AbstractTransform",
    "Compose",
    "ExpandCommonEnglishContractions",
    "RemoveEmptyStrings",
    "ReduceToListOfListOfWords",
    "ReduceToListOfListOfChars",
    "ReduceToSingleSentence",
    "RemoveKaldiNonWords",
    "RemoveMultipleSpaces",
    "RemovePunctuation",
    "RemoveSpecificWords",
    "RemoveWhiteSpace",
    "Strip",
    "SubstituteRegexes",
    "SubstituteWords",
    "ToLowerCase",
    "ToUpperCase",
]


class AbstractTransform:
    """A transform of one string (:meth:`process_string`) or of a list of strings (:meth:`process_list`,
    by default each string on its own)."""

    def __call__(self, sentences):
        if isinstance(sentences, str):
            return self.process_string(sentences)
        if isinstance(sentences, list):
            return self.process_list(sentences)
        raise ValueError(f"input {sentences} was expected to be a string or list of strings")

    def process_string(self, s: str):
        raise NotImplementedError()

    def process_list(self, inp: list):
        return [self.process_string(s) for s in inp]


class Compose:
    """Transforms applied one after the other."""

    def __init__(self, transforms: list):
        self.transforms = transforms

    def __call__(self, text):
        for transform in self.transforms:
            text = transform(text)
        return text


class BaseRemoveTransform(AbstractTransform):
    """Every one of ``tokens_to_remove`` replaced by ``replace_token``, one token after the other."""

    def __init__(self, tokens_to_remove: Iterable[str], replace_token: str = ""):
        self.tokens_to_remove = tokens_to_remove
        self.replace_token = replace_token

    def process_string(self, s: str):
        for token in self.tokens_to_remove:
            s = s.replace(token, self.replace_token)
        return s


class ReduceToListOfListOfWords(AbstractTransform):
    """A string -> ``[[words]]``; a list -> one list of words per string (``[[]]`` for an empty list).
    Words are split at ``word_delimiter``; empty words are dropped."""

    def __init__(self, word_delimiter: str = " "):
        self.word_delimiter = word_delimiter

    def process_string(self, s: str):
        return [[w for w in s.split(self.word_delimiter) if w]]

    def process_list(self, inp: list):
        out = [self.process_string(s)[0] for s in inp]
        return out if out else [[]]


class ReduceToListOfListOfChars(AbstractTransform):
    """A string -> ``[[characters]]``; a list -> one list of characters per string (``[[]]`` for an empty
    list)."""

    def process_string(self, s: str):
        return [list(s)]

    def process_list(self, inp: list):
        out = [self.process_string(s)[0] for s in inp]
        return out if out else [[]]


class ReduceToSingleSentence(AbstractTransform):
    """A list -> the non-empty strings joined by ``word_delimiter`` as a one-string list (``[]`` when there
    is none); a string stays as it is."""

    def __init__(self, word_delimiter: str = " "):
        self.word_delimiter = word_delimiter

    def process_string(self, s: str):
        return s

    def process_list(self, inp: list):
        kept = [s for s in inp if len(s) >= 1]
        return [f"{self.word_delimiter}".join(kept)] if kept else []


class SubstituteRegexes(AbstractTransform):
    """``re.sub(pattern, replacement)`` for each item of ``substitutions``, in order."""

    def __init__(self, substitutions: Mapping[str, str]):
        self.substitutions = substitutions

    def process_string(self, s: str):
        for pattern, replacement in self.substitutions.items():
            s = re.sub(pattern, replacement, s)
        return s


class SubstituteWords(AbstractTransform):
    """Whole words (between ``\\b`` boundaries) replaced, each item of ``substitutions`` in order."""

    def __init__(self, substitutions: Mapping[str, str]):
        self.substitutions = substitutions

    def process_string(self, s: str):
        for word, replacement in self.substitutions.items():
            s = re.sub(rf"\b{re.escape(word)}\b", replacement, s)
        return s


class RemoveSpecificWords(SubstituteWords):
    """Each of ``words_to_remove`` (whole words) replaced by a space."""

    def __init__(self, words_to_remove: list):
        super().__init__({word: " " for word in words_to_remove})


class RemoveWhiteSpace(BaseRemoveTransform):
    """The characters of ``string.whitespace`` removed (or each replaced by a space)."""

    def __init__(self, replace_by_space: bool = False):
        super().__init__(list(string.whitespace), replace_token=" " if replace_by_space else "")


@functools.lru_cache(1)
def _get_punctuation_characters() -> set:
    """Every character whose Unicode category starts with P (computed once)."""
    return {chr(c) for c in range(sys.maxunicode + 1) if unicodedata.category(chr(c)).startswith("P")}


class RemovePunctuation(BaseRemoveTransform):
    """Every character of a Unicode punctuation category (P*) removed."""

    def __init__(self):
        super().__init__(_get_punctuation_characters())


_RUNS_OF_WHITESPACE = re.compile(r"\s\s+")


class RemoveMultipleSpaces(AbstractTransform):
    """Runs of two or more whitespace characters replaced by one space (a single tab stays)."""

    def process_string(self, s: str):
        return _RUNS_OF_WHITESPACE.sub(" ", s)


class Strip(AbstractTransform):
    """Leading and trailing whitespace removed (``str.strip()``)."""

    def process_string(self, s: str):
        return s.strip()


class RemoveEmptyStrings(AbstractTransform):
    """Strings that are empty or whitespace only dropped from a list (a string is stripped)."""

    def process_string(self, s: str):
        return s.strip()

    def process_list(self, inp: list):
        return [s for s in inp if self.process_string(s) != ""]


#: jiwer's contractions, replaced in this order
_CONTRACTIONS = (
    (r"won't", "will not"),
    (r"can\'t", "can not"),
    (r"let\'s", "let us"),
    (r"n\'t", " not"),
    (r"\'re", " are"),
    (r"\'s", " is"),
    (r"\'d", " would"),
    (r"\'ll", " will"),
    (r"\'t", " not"),
    (r"\'ve", " have"),
    (r"\'m", " am"),
)


class ExpandCommonEnglishContractions(AbstractTransform):
    """``won't`` -> ``will not``, ``can't`` -> ``can not``, ``let's`` -> ``let us``, then ``n't``, ``'re``,
    ``'s``, ``'d``, ``'ll``, ``'t``, ``'ve``, ``'m`` -> `` not``, `` are``, `` is``, `` would``, `` will``,
    `` not``, `` have``, `` am``."""

    def process_string(self, s: str):
        for pattern, replacement in _CONTRACTIONS:
            s = re.sub(pattern, replacement, s)
        return s


class ToLowerCase(AbstractTransform):
    """``str.lower()``."""

    def process_string(self, s: str):
        return s.lower()


class ToUpperCase(AbstractTransform):
    """``str.upper()``."""

    def process_string(self, s: str):
        return s.upper()


_KALDI_NON_WORD = re.compile(r"[<\[][^>\]]*[>\]]")


class RemoveKaldiNonWords(AbstractTransform):
    """Anything between ``[`` or ``<`` and ``]`` or ``>`` (Kaldi's ``[laugh]``, ``<unk>``) removed."""

    def process_string(self, s: str):
        return _KALDI_NON_WORD.sub("", s)
