"""METEOR's alignment in the compiled core: words become integer ids here, the core aligns id pairs.

The core needs, per id, the id of the word's stem and, per stem id, its synonym set as sorted ids. Both are
computed in Python (the stemmer, :meth:`.wordnet.WordNet.synonyms`) and only for what alignments use: the
core reports the ids a pair needs and has not got, they are filled in, and the pairs left are aligned again
(:func:`align_pairs`). The result is :func:`.alignment.align`'s, pair for pair (tested on WMT data).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import chain, islice, repeat

import numpy as np

from ...core import backend

#: a stem not computed yet (the core's ``UNKNOWN``)
UNKNOWN = np.uint32(2**32 - 1)

#: distinct strings (words, stems, synonym names) a table holds before it starts over (bounds memory)
TABLE_LIMIT = 2_000_000


class WordTable:
    """Word ids of one stemmer and WordNet, with the stem and synonym tables the core reads."""

    def __init__(self, stem: Callable[[str], str], synonyms: Callable[[str], frozenset[str]]) -> None:
        self.stem = stem
        self.synonyms = synonyms
        self.reset()

    def reset(self) -> None:
        self.vocab: dict[str, int] = {}
        self.words: list[str] = []
        self.stem_of = np.full(1024, UNKNOWN, dtype=np.uint32)
        self.syn_start = np.full(1024, -1, dtype=np.int64)
        self.syn_len = np.zeros(1024, dtype=np.int64)
        self.syn_ids = np.zeros(0, dtype=np.uint32)

    def bound(self) -> None:
        """Start over when the table holds :data:`TABLE_LIMIT` strings (call before encoding a batch)."""
        if len(self.vocab) > TABLE_LIMIT:
            self.reset()

    def intern(self, word: str) -> int:
        return self.vocab.setdefault(word, len(self.vocab))

    def _sync(self) -> None:
        """Bring ``words`` and the per-id arrays up to the vocabulary's size."""
        n = len(self.vocab)
        if len(self.words) < n:  # the newest keys, taken from the end (dicts keep insertion order)
            self.words.extend(reversed(list(islice(reversed(self.vocab), n - len(self.words)))))
        cap = len(self.stem_of)
        if n > cap:
            grow = max(n, 2 * cap) - cap
            self.stem_of = np.concatenate([self.stem_of, np.full(grow, UNKNOWN, dtype=np.uint32)])
            self.syn_start = np.concatenate([self.syn_start, np.full(grow, -1, dtype=np.int64)])
            self.syn_len = np.concatenate([self.syn_len, np.zeros(grow, dtype=np.int64)])

    def add_stems(self, word_ids: np.ndarray) -> None:
        self._sync()
        stems = [self.intern(self.stem(self.words[i])) for i in word_ids.tolist()]
        self._sync()
        self.stem_of[word_ids] = np.array(stems, dtype=np.uint32)

    def add_synonyms(self, stem_ids: np.ndarray) -> None:
        self._sync()
        parts = []
        start = len(self.syn_ids)
        for sid in stem_ids.tolist():
            names = sorted(self.intern(name) for name in self.synonyms(self.words[sid]))
            self.syn_start[sid] = start
            self.syn_len[sid] = len(names)
            start += len(names)
            parts.append(np.array(names, dtype=np.uint32))
        self._sync()
        self.syn_ids = np.concatenate([self.syn_ids, *parts])


def encode_tokens(table: WordTable, flat: list[str], lengths) -> tuple[np.ndarray, np.ndarray]:
    """``(uint32 ids, int64 offsets)`` of segments given as one flat token list and the segments' lengths."""
    vocab = table.vocab
    # known words in one C-level pass; -1 marks new ones
    ids = np.fromiter(map(vocab.get, flat, repeat(-1)), dtype=np.int64, count=len(flat))
    if len(ids) and ids.min() < 0:
        setdefault = vocab.setdefault
        for k in np.flatnonzero(ids < 0).tolist():
            ids[k] = setdefault(flat[k], len(vocab))
    lengths = np.asarray(lengths, dtype=np.int64)
    offsets = np.zeros(len(lengths) + 1, dtype=np.int64)
    np.cumsum(lengths, out=offsets[1:])
    return ids.astype(np.uint32), offsets


def encode_lists(table: WordTable, token_lists: list[list[str]]) -> tuple[np.ndarray, np.ndarray]:
    """:func:`encode_tokens` of a list of token lists."""
    lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
    return encode_tokens(table, list(chain.from_iterable(token_lists)), lengths)


def align_encoded(table: WordTable, hyps, refs, pair_hyp: np.ndarray, pair_ref: np.ndarray) -> np.ndarray:
    """int64 ``[P, 2]`` (matches, chunks) of encoded pairs (:func:`encode_tokens`, same ``table``)."""
    table._sync()
    out = np.full(2 * len(pair_hyp), -1, dtype=np.int64)
    for _ in range(4):  # stems, then the synonym sets of stems new in the second pass, then done
        stems, synonyms = backend.meteor_align_pairs(hyps, refs, pair_hyp, pair_ref, table, out)
        if not len(stems) and not len(synonyms):
            break
        if len(stems):
            table.add_stems(stems)
        if len(synonyms):
            table.add_synonyms(synonyms)
    else:  # pragma: no cover - every pass fills what the last one asked for
        raise RuntimeError("METEOR alignment did not complete")
    return out.reshape(-1, 2)


def align_pairs(table: WordTable, hyp_tokens: list[list[str]], ref_tokens: list[list[str]], pair_hyp: np.ndarray,
                pair_ref: np.ndarray) -> np.ndarray:
    """int64 ``[P, 2]`` (matches, chunks) of the pairs ``(hyp_tokens[pair_hyp[p]], ref_tokens[pair_ref[p]])``."""
    table.bound()
    return align_encoded(table, encode_lists(table, hyp_tokens), encode_lists(table, ref_tokens), pair_hyp,
                         pair_ref)
