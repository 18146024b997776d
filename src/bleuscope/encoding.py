"""Text to integer token ids: one pass over a corpus, each distinct word tokenized once.

The encoder keeps a vocabulary (token -> id) and a unit cache (unit -> token ids) shared by the hypotheses
and all reference streams of one scoring call, so that equal tokens get equal ids everywhere.
The per-occurrence work is done by C-level builtins (``str.split``, ``dict`` look-ups through ``map``) and
numpy; Python code runs once per *distinct* unit, not per token occurrence.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import chain

import numpy as np

from .tokenizers.base import BaseTokenizer, WordLocalTokenizer

_EMPTY = np.zeros(0, dtype=np.int64)


@dataclass(frozen=True)
class EncodedLines:
    """Token ids of a batch of lines: ``ids`` is flat, ``lengths[i]`` tokens belong to line ``i``."""

    ids: np.ndarray  # int64, concatenated token ids
    lengths: np.ndarray  # int64, tokens per line

    @property
    def offsets(self) -> np.ndarray:
        off = np.zeros(len(self.lengths) + 1, dtype=np.int64)
        np.cumsum(self.lengths, out=off[1:])
        return off

    def tokens_of(self, i: int) -> np.ndarray:
        off = self.offsets
        return self.ids[off[i]: off[i + 1]]


def expand_ranges(starts: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Concatenate ``arange(s, s + c)`` for every (s, c) pair, without a Python loop."""
    total = int(counts.sum())
    if total == 0:
        return _EMPTY
    dst = np.zeros(len(counts), dtype=np.int64)
    np.cumsum(counts[:-1], out=dst[1:])
    return np.repeat(starts - dst, counts) + np.arange(total, dtype=np.int64)


class CorpusEncoder:
    """Encodes lines into token ids with a tokenizer, an optional lowercasing and a shared vocabulary."""

    def __init__(self, tokenizer: BaseTokenizer, lowercase: bool = False) -> None:
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.vocab: dict[str, int] = {}
        self._unit_index: dict = {}
        self._unit_token_lists: list[list[int]] = []
        self._unit_start = _EMPTY
        self._unit_ntok = _EMPTY
        self._unit_flat = _EMPTY
        self._synced = 0  # how many units the numpy arrays cover

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def _split(self, lines: list[str]) -> list[list]:
        tok = self.tokenizer
        if isinstance(tok, WordLocalTokenizer) and not tok.edge_sensitive:
            # context-free words: plain str.split, unless some line needs the whole-line path
            if not any(map(tok.needs_whole_line, lines)):
                return list(map(str.split, lines))
        return list(map(tok.split_units, lines))

    def _register(self, units) -> None:
        index, vocab, tok = self._unit_index, self.vocab, self.tokenizer
        new = [u for u in dict.fromkeys(units) if u not in index]
        if not new:
            return
        words = [u for u in new if isinstance(u, str)]
        others = [u for u in new if not isinstance(u, str)]
        token_lists = tok.tokenize_words(words) if isinstance(tok, WordLocalTokenizer) else []
        if len(token_lists) != len(words):  # pragma: no cover - guards the batching invariant
            raise RuntimeError(f"{tok!r} returned {len(token_lists)} results for {len(words)} words")
        token_lists = token_lists + [tok.tokenize_unit(u) for u in others]
        store = self._unit_token_lists
        for unit, tokens in zip(words + others, token_lists):
            index[unit] = len(store)
            store.append([vocab.setdefault(t, len(vocab)) for t in tokens])

    def _sync_arrays(self) -> None:
        if self._synced == len(self._unit_token_lists):
            return
        added = self._unit_token_lists[self._synced:]
        ntok = np.fromiter(map(len, added), dtype=np.int64, count=len(added))
        flat = np.fromiter(chain.from_iterable(added), dtype=np.int64, count=int(ntok.sum()))
        start = np.zeros(len(added), dtype=np.int64)
        np.cumsum(ntok[:-1], out=start[1:])
        start += len(self._unit_flat)
        self._unit_ntok = np.concatenate([self._unit_ntok, ntok])
        self._unit_start = np.concatenate([self._unit_start, start])
        self._unit_flat = np.concatenate([self._unit_flat, flat])
        self._synced = len(self._unit_token_lists)

    def encode(self, lines) -> EncodedLines:
        """Token ids of ``lines`` (a list of str), equal to ``tokenizer(line.rstrip()).split()`` per line."""
        lines = list(lines)
        if self.lowercase:
            lines = [line.lower() for line in lines]
        units_per_line = self._split(lines)
        n_units = np.fromiter(map(len, units_per_line), dtype=np.int64, count=len(units_per_line))
        units = list(chain.from_iterable(units_per_line))
        del units_per_line
        self._register(units)
        self._sync_arrays()
        uid = np.fromiter(map(self._unit_index.__getitem__, units), dtype=np.int64, count=len(units))
        del units
        ntok = self._unit_ntok[uid]
        ids = self._unit_flat[expand_ranges(self._unit_start[uid], ntok)]
        # tokens per line = sum of ntok over the line's units
        csum = np.zeros(len(ntok) + 1, dtype=np.int64)
        np.cumsum(ntok, out=csum[1:])
        ends = np.cumsum(n_units)
        lengths = csum[ends] - csum[ends - n_units]
        return EncodedLines(ids=ids, lengths=lengths)

    def encode_tokens(self, token_lists) -> EncodedLines:
        """Ids of already tokenized segments (lists of token strings), in the same vocabulary."""
        vocab = self.vocab
        lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
        flat = chain.from_iterable(token_lists)
        ids = np.fromiter(
            (vocab.setdefault(t, len(vocab)) for t in flat), dtype=np.int64, count=int(lengths.sum())
        )
        return EncodedLines(ids=ids, lengths=lengths)
