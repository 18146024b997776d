"""BLEU's clipped n-gram matches of every system in a block of segments, counted with array operations.

:func:`bleuscope.report.compute.matched_ngrams` is the definition, one segment at a time: an n-gram that
occurs ``c`` times in a hypothesis and at most ``m`` times in any one reference has its first ``min(c, m)``
occurrences matched. Here the same matches come from integer keys for a whole block of segments and every
system at once: tokens become ids of one :class:`Vocabulary`; an n-gram is the pair (its (n-1)-gram prefix,
its last token), numbered by one ``numpy.unique`` per order over the references and all systems together
(:class:`NgramIds`); and every count is a ``numpy.unique`` over ``segment * n_grams + n_gram`` keys. The
tests compare the two on the example systems and on generated text.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from ..core.native import tok as native_tok

if TYPE_CHECKING:
    from ..metrics.base import TokenView


def tokenize(view: TokenView, lines: Sequence[str]) -> list[list[str]]:
    """A metric's tokens of each line (its :class:`~bleuscope.metrics.base.TokenView`: lowercased first if it
    lowercases): the compiled tokenizer where it implements this tokenizer exactly, the Python one for the
    rest."""
    if view.lowercase:
        lines = [line.lower() for line in lines]
    else:
        lines = list(lines)
    joined = native_tok.tokenize_joined(view.tokenizer, lines) if lines else None
    if joined is None:
        return view.tokenizer.tokenize_batch(lines)
    missing = [i for i, j in enumerate(joined) if j is None]
    # the lines the compiled tokenizer left to Python, tokenized in one batch, in order
    fallback = iter(view.tokenizer.tokenize_batch([lines[i] for i in missing]) if missing else ())
    return [next(fallback) if j is None else j.split() for j in joined]


@dataclass(frozen=True)
class Encoded:
    """Token ids of consecutive segments: segment i is ``ids[starts[i]:starts[i + 1]]``."""

    ids: np.ndarray  # int64 [T]
    starts: np.ndarray  # int64 [S + 1]

    @property
    def lengths(self) -> np.ndarray:
        return np.diff(self.starts)

    def segments(self) -> np.ndarray:
        """The segment of every token (int64 [T])."""
        return np.repeat(np.arange(len(self.starts) - 1, dtype=np.int64), self.lengths)


class Vocabulary:
    """Words -> ids 0, 1, ... in order of first appearance, one table for all texts of a report."""

    def __init__(self) -> None:
        self.index: dict[str, int] = {}
        self._words: np.ndarray = np.empty(0, dtype=object)

    def __len__(self) -> int:
        return len(self.index)

    def encode(self, lines: Sequence[Sequence[str]]) -> Encoded:
        index = self.index
        flat = [w for line in lines for w in line]
        new = [w for w in dict.fromkeys(flat) if w not in index]  # in order of first appearance
        index.update(zip(new, range(len(index), len(index) + len(new))))
        ids = np.fromiter(map(index.__getitem__, flat), dtype=np.int64, count=len(flat))
        lengths = np.fromiter(map(len, lines), dtype=np.int64, count=len(lines))
        starts = np.zeros(len(lines) + 1, dtype=np.int64)
        np.cumsum(lengths, out=starts[1:])
        return Encoded(ids, starts)

    def words(self) -> np.ndarray:
        """Object array: ``words()[id]`` is the word."""
        if len(self._words) != len(self.index):
            self._words = np.array(list(self.index), dtype=object)
        return self._words


def _unique_counts(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    return np.unique(keys, return_counts=True)


def _group_starts(sorted_keys: np.ndarray) -> np.ndarray:
    """Indices where a new key starts in a sorted key array."""
    if not len(sorted_keys):
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.concatenate([[True], sorted_keys[1:] != sorted_keys[:-1]]))


def _lookup(keys: np.ndarray, table_keys: np.ndarray, table_values: np.ndarray) -> np.ndarray:
    """``table_values`` at the position of each key in the sorted ``table_keys``; 0 where it is absent."""
    if not len(table_keys):
        return np.zeros(len(keys), dtype=np.int64)
    loc = np.minimum(np.searchsorted(table_keys, keys), len(table_keys) - 1)
    return np.where(table_keys[loc] == keys, table_values[loc], 0)


class NgramIds:
    """Ids of the n-grams (orders 1..N) of several encoded texts of the same block of segments.

    ``positions[n - 1]`` are the flat token positions (in all texts laid end to end) where an n-gram starts,
    ascending; ``grams[n - 1]`` its id there (0..``sizes[n - 1]`` - 1, equal n-grams equal ids), and
    ``first[n - 1][g]`` a position of n-gram g.
    """

    def __init__(self, texts: Sequence[Encoded], order: int) -> None:
        self.n_segments = len(texts[0].starts) - 1
        self.offsets = np.cumsum([0] + [len(t.ids) for t in texts])
        self.tokens = np.concatenate([t.ids for t in texts]) if texts else np.zeros(0, dtype=np.int64)
        self.segment = np.concatenate([t.segments() for t in texts])
        ends = np.concatenate([np.repeat(t.starts[1:] + off, t.lengths) for t, off in zip(texts, self.offsets)])
        width = int(self.tokens.max(initial=0)) + 1
        self.positions: list[np.ndarray] = []
        self.grams: list[np.ndarray] = []
        self.first: list[np.ndarray] = []
        self.sizes: list[int] = []
        self._keyed: dict = {}
        pos = np.arange(len(self.tokens), dtype=np.int64)
        prev = self.tokens
        for n in range(1, order + 1):
            if n > 1:
                keep = pos + n <= ends[pos]
                pos, prev = pos[keep], prev[keep]
                key = prev * width + self.tokens[pos + n - 1]
            else:
                key = prev
            uniq, ids = np.unique(key, return_inverse=True)  # (return_index would force a stable sort)
            ids = ids.reshape(-1).astype(np.int64)
            where = np.empty(len(uniq), dtype=np.int64)
            where[ids] = pos  # one position of each n-gram (any: they hold the same words)
            self.positions.append(pos)
            self.grams.append(ids)
            self.first.append(where)
            self.sizes.append(len(uniq))
            prev = ids

    def text(self, t: int, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(segment, n-gram id, position within text t) of every order-n n-gram of text t."""
        pos = self.positions[n - 1]
        lo, hi = np.searchsorted(pos, self.offsets[t:t + 2])
        p = pos[lo:hi]
        return self.segment[p], self.grams[n - 1][lo:hi], p - self.offsets[t]

    def keyed_counts(self, t: int, n: int) -> tuple[np.ndarray, np.ndarray]:
        """Sorted distinct ``segment * n_grams + n_gram`` keys of text t at order n and their counts (kept:
        a reference's are asked for once per system)."""
        if (t, n) not in self._keyed:
            seg, gram, _ = self.text(t, n)
            self._keyed[(t, n)] = _unique_counts(seg * self.sizes[n - 1] + gram)
        return self._keyed[(t, n)]

    def tuples(self, n: int, grams: np.ndarray, words: np.ndarray) -> list[tuple[str, ...]]:
        """The n-grams ``grams`` of order n as tuples of words."""
        start = self.first[n - 1][grams]
        return list(zip(*(words[self.tokens[start + j]].tolist() for j in range(n))))


@dataclass(frozen=True)
class SystemMatches:
    """One system's clipped matches in a block, per order n (index n - 1)."""

    keys: list[np.ndarray]  # sorted distinct segment * n_grams + n_gram keys of its n-grams
    counts: list[np.ndarray]  # occurrences of each key in the hypothesis
    clipped: list[np.ndarray]  # min(occurrences, largest count in one reference)
    starts: list[np.ndarray]  # positions (within the system's tokens) of the matched occurrences


def reference_limits(ids: NgramIds, references: Sequence[int]) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per order: the sorted keys of the references' n-grams and, per key, the largest count in any one
    reference (BLEU's clipping limits)."""
    out = []
    for n in range(1, len(ids.sizes) + 1):
        parts = [ids.keyed_counts(r, n) for r in references]
        keys = np.concatenate([k for k, _ in parts])
        counts = np.concatenate([c for _, c in parts])
        if len(parts) > 1 and len(keys):
            order = np.argsort(keys, kind="stable")
            keys, counts = keys[order], counts[order]
            new = _group_starts(keys)
            keys, counts = keys[new], np.maximum.reduceat(counts, new)
        out.append((keys, counts))
    return out


def match_system(ids: NgramIds, t: int, limits: list[tuple[np.ndarray, np.ndarray]]) -> SystemMatches:
    """Clipped matches of text t: the first ``min(count, limit)`` occurrences of each n-gram of a segment."""
    keys_all, counts_all, clipped_all, starts_all = [], [], [], []
    for n, (ref_keys, ref_limit) in enumerate(limits, start=1):
        seg, gram, pos = ids.text(t, n)
        key = seg * ids.sizes[n - 1] + gram
        order = np.argsort(key, kind="stable")  # occurrences of a key stay in text order
        sorted_keys = key[order]
        new = _group_starts(sorted_keys)
        counts = np.diff(np.append(new, len(key)))
        keys = sorted_keys[new]
        limit = _lookup(keys, ref_keys, ref_limit)
        rank = np.arange(len(key)) - np.repeat(new, counts)  # 0 for the first occurrence of a key, ...
        starts_all.append(np.sort(pos[order[rank < np.repeat(limit, counts)]]))
        keys_all.append(keys)
        counts_all.append(counts)
        clipped_all.append(np.minimum(counts, limit))
    return SystemMatches(keys_all, counts_all, clipped_all, starts_all)


def counts_at(keys: np.ndarray, table_keys: np.ndarray, table_values: np.ndarray) -> np.ndarray:
    """``table_values`` at each of ``keys`` in the sorted ``table_keys`` (0 where a key is absent)."""
    return _lookup(keys, table_keys, table_values)


def token_levels(n_tokens: int, starts: Sequence[np.ndarray]) -> np.ndarray:
    """Per token: the longest order of a matched n-gram covering it (0 = none); ``starts[n - 1]`` are the
    matched order-n positions."""
    level = np.zeros(n_tokens, dtype=np.int64)
    for n, s in enumerate(starts, start=1):
        for j in range(n):
            level[s + j] = n
    return level


def single_reference_matches(ids: NgramIds, matches: SystemMatches, reference: int) -> np.ndarray:
    """int64 [S, N]: per segment and order, the clipped matches against reference text ``reference`` alone."""
    out = np.zeros((ids.n_segments, len(ids.sizes)), dtype=np.int64)
    for n in range(1, len(ids.sizes) + 1):
        ref_keys, ref_counts = ids.keyed_counts(reference, n)
        keys = matches.keys[n - 1]
        clipped = np.minimum(matches.counts[n - 1], _lookup(keys, ref_keys, ref_counts))
        out[:, n - 1] = np.bincount(keys // ids.sizes[n - 1], weights=clipped, minlength=ids.n_segments)
    return out
