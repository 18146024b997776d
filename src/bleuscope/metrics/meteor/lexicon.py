"""The two word lookups of METEOR's alignment, as cached functions: a stem and a synonym set per word.

``stem_function(stemmer)`` and ``synonym_function(wordnet)`` accept what NLTK's ``meteor_score`` accepts
(any object with ``stem(word)``; any object with NLTK's ``synsets(word)`` whose synsets have ``lemmas()``
with ``name()``) and bleuscope's own: the default Porter stemmer and :class:`.wordnet.WordNet`. Results are
cached per word, which assumes what holds for stemmers and WordNet readers: the same word always gives the
same answer. The caches are bounded (cleared when they reach :data:`CACHE_LIMIT` words).
"""

from __future__ import annotations

import os
import threading
import weakref
from collections.abc import Callable
from itertools import chain
from typing import Any

from ...core import native
from ...core.native import rouge as native_rouge
from .native import WordTable
from .wordnet import WordNet

#: words per cache before it is cleared (bounds memory on unbounded vocabularies)
CACHE_LIMIT = 1_000_000


def porter_stemmer():
    """The Porter stemmer METEOR uses by default: NLTK 3.10.4's ``PorterStemmer()`` rules (its NLTK_EXTENSIONS
    mode), as ported for ROUGE: the compiled stemmer for ASCII words, the Python port for the others."""
    from ..rouge.porter import stem

    if native_rouge.porter_stem("a") is None:
        return _FunctionStemmer(stem)

    native = native_rouge.porter_stem

    def porter(word: str) -> str:
        # NLTK lowercases first; for ASCII that keeps the length its two-letter rule looks at
        stemmed = native(word.lower()) if word.isascii() else None
        return stem(word) if stemmed is None else stemmed

    return _FunctionStemmer(porter)


class _FunctionStemmer:
    def __init__(self, function: Callable[[str], str]) -> None:
        self.stem = function


class _Cached:
    """A per-word cache in front of a lookup."""

    __slots__ = ("cache", "lookup", "__weakref__")

    def __init__(self, lookup: Callable) -> None:
        self.lookup = lookup
        self.cache: dict = {}

    def __call__(self, word: str):
        found = self.cache.get(word)
        if found is None:
            if len(self.cache) >= CACHE_LIMIT:
                self.cache.clear()
            found = self.cache[word] = self.lookup(word)
        return found


_lock = threading.Lock()
_stem_functions: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_synonym_functions: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_default_stem: _Cached | None = None


def default_stem_function() -> Callable[[str], str]:
    global _default_stem
    if _default_stem is None:
        with _lock:
            if _default_stem is None:
                _default_stem = _Cached(porter_stemmer().stem)
    return _default_stem


def stem_function(stemmer) -> Callable[[str], str]:
    """A cached ``word -> stemmer.stem(word)`` (``None``: the default Porter stemmer)."""
    if stemmer is None:
        return default_stem_function()
    return _per_object(_stem_functions, stemmer, lambda target: _Cached(lambda word: target.stem(word)))


def nltk_synonyms(wordnet) -> Callable[[str], frozenset[str]]:
    """``word -> synonym set`` through an NLTK-style WordNet reader's ``synsets`` (what NLTK's METEOR does)."""

    def lookup(word: str) -> frozenset[str]:
        names = chain.from_iterable(
            (lemma.name() for lemma in synset.lemmas() if lemma.name().find("_") < 0)
            for synset in wordnet.synsets(word)
        )
        return frozenset(names).union({word})

    return lookup


def synonym_function(wordnet) -> Callable[[str], frozenset[str]]:
    """A cached ``word -> synonym set``. ``wordnet`` is a :class:`WordNet`, a path to load one from, ``None``
    (the first WordNet found, loaded on first use) or an NLTK-style reader."""
    if wordnet is None:
        return _LazyDefaultSynonyms.instance()
    if isinstance(wordnet, (str, os.PathLike)):
        wordnet = WordNet.load(wordnet)
    if isinstance(wordnet, WordNet):
        return wordnet.synonyms
    return _per_object(_synonym_functions, wordnet, lambda target: _Cached(nltk_synonyms(target)))


class _LazyDefaultSynonyms:
    """The default WordNet's synonym function, located and loaded when a synonym is first needed (as NLTK's
    lazy ``wordnet`` loader does: an alignment that never reaches the synonym stage needs no WordNet)."""

    _instance: _LazyDefaultSynonyms | None = None

    def __init__(self) -> None:
        self._function: Callable[[str], frozenset[str]] | None = None

    @classmethod
    def instance(cls) -> _LazyDefaultSynonyms:
        if cls._instance is None:
            cls._instance = cls()
        return cls._instance

    def __call__(self, word: str) -> frozenset[str]:
        if self._function is None:
            self._function = WordNet.load().synonyms
        return self._function(word)


_compiled_tables: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
#: the last (WordNet, table) handed out: repeated calls with the same WordNet skip the weak lookup
_last_table: tuple = (None, None)
#: the WordNet found for ``wordnet=None`` (located once per process, as NLTK's lazy reader is)
_default_wordnet: WordNet | None = None


def compiled_table(stemmer, wordnet):
    """The compiled word table (:class:`.native.WordTable`) shared by calls with the default stemmer and
    bleuscope's WordNet (``wordnet``: None for the one found, a :class:`WordNet` or a path), or None: another
    stemmer or reader, no compiled core, or no WordNet found (the Python path then fails only if a synonym is
    needed, as NLTK's lazy reader does)."""
    global _default_wordnet, _last_table
    if stemmer is not None:
        return None
    try:
        if wordnet is None:
            if _default_wordnet is None:
                if not native.native_available():
                    return None
                _default_wordnet = WordNet.load()
            wordnet = _default_wordnet
        elif isinstance(wordnet, (str, os.PathLike)):
            wordnet = WordNet.load(wordnet)
    except FileNotFoundError:
        return None
    last_wordnet, table = _last_table
    if wordnet is not last_wordnet:
        if not isinstance(wordnet, WordNet) or wordnet.core_tables() is None:
            return None
        table = _compiled_tables.get(wordnet)
        if table is None:
            stem = default_stem_function()  # takes the lock itself when first built
            with _lock:
                table = _compiled_tables.get(wordnet)
                if table is None:
                    table = _compiled_tables[wordnet] = WordTable(stem, wordnet.synonyms, porter=True,
                                                                  wordnet=wordnet)
        _last_table = (wordnet, table)
    table.bound()
    return table


def _per_object(table: weakref.WeakKeyDictionary, obj, build: Callable[[Any], _Cached]) -> Callable:
    """The cache of ``obj``, kept while ``obj`` lives (the cache reaches ``obj`` through a weak proxy, so that
    it does not keep it alive); an object that cannot be weakly referenced gets a cache for this call only."""
    try:
        found = table.get(obj)
        target = weakref.proxy(obj)
    except TypeError:
        return build(obj)
    if found is None:
        with _lock:
            found = table.get(obj)
            if found is None:
                found = build(target)
                table[obj] = found
    return found


def clear_caches() -> None:
    """Empty every per-word cache of this module."""
    global _default_stem, _last_table, _default_wordnet
    with _lock:
        _default_stem = None
        _stem_functions.clear()
        _synonym_functions.clear()
        _compiled_tables.clear()
        _last_table = (None, None)
        _default_wordnet = None
        _LazyDefaultSynonyms._instance = None
