"""METEOR's alignment in the compiled core: words become integer ids in a compiled table, which holds each
word's stem and each stem's synonym set as ids and aligns whole batches of id pairs.

With the default stemmer and bleuscope's :class:`.wordnet.WordNet`, the table computes stems (NLTK's Porter
rules, for ASCII words) and synonym sets (its own copy of the WordNet index, read once) itself, so no
Python runs per word. What it cannot compute -- stems of non-ASCII words, every stem of another stemmer,
every synonym set of another WordNet reader -- it reports; those are computed here in Python (the
stemmer, the reader's synsets) and set, and the pairs left are aligned again (:meth:`WordTable.align`).
The result is :func:`.alignment.align`'s, pair for pair (tested on WMT data).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ...core.native import meteor as native_meteor
from .wordnet import WordNet, WordNetFormatError

#: distinct strings (words, stems, synonym names) a table holds before it starts over (bounds memory)
TABLE_LIMIT = 2_000_000

#: encoded streams kept for reuse (the same references scored against several systems are encoded once)
STREAMS_KEPT = 8


class WordTable:
    """Word ids of one stemmer and WordNet, in the compiled core (requires it: :func:`bleuscope.core.native.native_available`).

    ``porter``: the stemmer is bleuscope's default Porter (the core stems ASCII words); ``wordnet``: a
    :class:`WordNet` whose compiled tables the core reads, or None (``synonyms`` computes every set)."""

    def __init__(self, stem: Callable[[str], str], synonyms: Callable[[str], frozenset[str]], *, porter: bool,
                 wordnet: WordNet | None) -> None:
        self.stem = stem
        self.synonyms = synonyms
        self._porter = porter
        self._tables = wordnet.core_tables() if isinstance(wordnet, WordNet) else None
        self.reset()

    def reset(self) -> None:
        self.core = native_meteor.meteor_table(porter=self._porter, wordnet=self._tables)
        self._streams: list[tuple[tuple, tuple[np.ndarray, np.ndarray]]] = []

    def cached_stream(self, key: tuple) -> tuple[np.ndarray, np.ndarray] | None:
        """The encoding :meth:`keep_stream` kept for a stream equal to ``key`` (a tuple of strings and None:
        immutable items, so equal content means equal tokens), or None."""
        for k, (kept, encoded) in enumerate(self._streams):
            if len(kept) == len(key) and kept == key:
                self._streams.append(self._streams.pop(k))  # most recently used last
                return encoded
        return None

    def keep_stream(self, key: tuple, encoded: tuple[np.ndarray, np.ndarray]) -> None:
        self._streams.append((key, encoded))
        del self._streams[:-STREAMS_KEPT]

    def bound(self) -> None:
        """Start over when the table holds :data:`TABLE_LIMIT` strings (call before encoding a batch)."""
        if len(self.core) > TABLE_LIMIT:
            self.reset()

    def encode_lines(self, lines: list) -> tuple[np.ndarray, np.ndarray] | None:
        """``(uint32 ids, int64 offsets)`` of lines split as ``str.split()`` does (``None``: empty); None when a
        line holds a lone surrogate."""
        return self.core.encode_lines(lines)

    def encode_lists(self, token_lists: list[list[str]]) -> tuple[np.ndarray, np.ndarray] | None:
        """``(uint32 ids, int64 offsets)`` of token lists; None when a token holds a lone surrogate."""
        return self.core.encode_tokens(token_lists)

    def fill(self, stems: np.ndarray, synonyms: np.ndarray) -> None:
        """Computes in Python what the core reported missing."""
        if len(stems):
            ids = stems.tolist()
            self.core.set_stems(ids, [self.stem(w) for w in self.core.words(ids)])
        if len(synonyms):
            ids = synonyms.tolist()
            self.core.set_synonyms(ids, [list(self.synonyms(w)) for w in self.core.words(ids)])

    def align(self, hyps, refs, pair_hyp: np.ndarray, pair_ref: np.ndarray, threads: int = 1) -> np.ndarray:
        """int64 ``[P, 2]`` (matches, chunks) of encoded pairs (same table)."""
        out = np.full(2 * len(pair_hyp), -1, dtype=np.int64)
        pairs = (np.ascontiguousarray(pair_hyp, dtype=np.int64), np.ascontiguousarray(pair_ref, dtype=np.int64))
        for _ in range(4):  # stems, then synonym sets, then done
            stems, synonyms = self._call(self.core.align, hyps, refs, pairs, out, threads)
            if not len(stems) and not len(synonyms):
                break
            self.fill(stems, synonyms)
        else:  # pragma: no cover - every pass fills what the last one asked for
            raise RuntimeError("METEOR alignment did not complete")
        return out.reshape(-1, 2)

    def align_tokens(self, hyp: list[str], refs: list[list[str]]) -> list[tuple[int, int]] | None:
        """``(matches, chunks)`` of one token list against each reference token list; None when a token is
        not a string or holds a lone surrogate (the caller takes the Python path)."""
        for _ in range(4):
            try:
                found = self._call(self.core.align_tokens, hyp, refs)
            except TypeError:
                return None
            if found is None:
                return None
            pairs, stems, synonyms = found
            if not stems and not synonyms:
                return pairs
            self.fill(np.array(stems, dtype=np.uint32), np.array(synonyms, dtype=np.uint32))
        raise RuntimeError("METEOR alignment did not complete")  # pragma: no cover

    @staticmethod
    def _call(function, *args):
        try:
            return function(*args)
        except native_meteor.wordnet_format_error() as err:
            raise WordNetFormatError(str(err)) from None

