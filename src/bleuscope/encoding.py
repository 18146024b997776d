"""Text to integer token ids: one pass over a corpus, each distinct word tokenized once.

The encoder keeps a vocabulary (token -> id) and a unit cache (unit -> token ids) shared by the hypotheses
and all reference streams of one scoring call, so that equal tokens get equal ids everywhere.
The per-occurrence work is done by C-level builtins (``str.split``, ``dict`` look-ups through ``map``) and
numpy; Python code runs once per *distinct* unit, not per token occurrence.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections import defaultdict
from itertools import chain, count, islice

import numpy as np

from .tokenizers.base import BaseTokenizer, WordLocalTokenizer

_EMPTY = np.zeros(0, dtype=np.int64)
# non-whitespace control characters used to mark line boundaries in a joined text
_SENTINELS = tuple(chr(c) for c in (1, 2, 3, 4, 5, 6, 7, 8, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27))


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
        # unit -> unit id; a missing unit gets the next id at C speed (ids follow first occurrence)
        self._unit_index: defaultdict = defaultdict(count().__next__)
        self._unit_token_lists: list[list[int]] = []
        self._unit_start = _EMPTY
        self._unit_ntok = _EMPTY
        self._unit_flat = _EMPTY
        self._synced = 0  # how many units the numpy arrays cover

    @property
    def vocab_size(self) -> int:
        return len(self.vocab)

    def _units_joined(self, lines: list[str]):
        """Unit ids of all lines with one ``str.split`` over the joined text, or None if not applicable.

        Lines are joined with a sentinel word (a character absent from the text); its occurrences mark the
        line boundaries. For edge-sensitive tokenizers the first and last word of each line are then
        replaced by edge units where the missing neighbour can change their tokens.
        """
        tok = self.tokenizer
        if not isinstance(tok, WordLocalTokenizer) or not lines:
            return None
        for sentinel in _SENTINELS:
            text = f" {sentinel} ".join(lines)
            if text.count(sentinel) == len(lines) - 1:
                break
        else:  # pragma: no cover - every sentinel character occurs in the data
            return None
        if self.lowercase:
            text = text.lower()
        if tok.needs_whole_line(text):
            return None
        words = text.split()
        del text
        index = self._unit_index
        uid = np.fromiter(map(index.__getitem__, words), dtype=np.int64, count=len(words))
        boundary = uid == index[sentinel]
        cuts = np.flatnonzero(boundary)
        n_units = np.diff(np.concatenate([[-1], cuts, [len(uid)]])) - 1
        if tok.edge_sensitive:
            self._mark_edges(lines, words, uid, cuts, n_units)
        return uid[~boundary], n_units

    def _mark_edges(self, lines, words, uid, cuts, n_units) -> None:
        """Give line-initial/-final words their edge unit where the tokenizer says the edge matters."""
        tok, index = self.tokenizer, self._unit_index
        edge_matters = tok.edge_matters
        firsts = np.concatenate([[0], cuts + 1])
        lasts = firsts + n_units - 1
        for i in np.flatnonzero(n_units).tolist():
            first, last = int(firsts[i]), int(lasts[i])
            left_ctx = tok.keeps_leading_space and lines[i][:1].isspace()
            w_first, w_last = words[first], words[last]
            # flags are False only where the missing neighbour matters (see WordLocalTokenizer.split_units)
            left_missing = not left_ctx and edge_matters(w_first, True)
            right_missing = edge_matters(w_last, False)
            if first == last:
                if left_missing or right_missing:
                    uid[first] = index[(w_first, not left_missing, not right_missing)]
            else:
                if left_missing:
                    uid[first] = index[(w_first, False, True)]
                if right_missing:
                    uid[last] = index[(w_last, True, False)]

    def _units_per_line(self, lines: list[str]):
        """Unit ids with one ``split_units`` call per line (edge-sensitive or whole-line tokenizers)."""
        if self.lowercase:
            lines = [line.lower() for line in lines]
        units_per_line = list(map(self.tokenizer.split_units, lines))
        n_units = np.fromiter(map(len, units_per_line), dtype=np.int64, count=len(units_per_line))
        units = chain.from_iterable(units_per_line)
        uid = np.fromiter(map(self._unit_index.__getitem__, units), dtype=np.int64, count=int(n_units.sum()))
        return uid, n_units

    def _register_new_units(self) -> None:
        """Tokenize the units seen for the first time (each distinct unit exactly once)."""
        store = self._unit_token_lists
        if len(self._unit_index) == len(store):
            return
        new = list(islice(self._unit_index, len(store), None))
        tok, vocab = self.tokenizer, self.vocab
        token_lists: list = [None] * len(new)
        if isinstance(tok, WordLocalTokenizer):
            word_pos = [i for i, u in enumerate(new) if isinstance(u, str)]
            batch = tok.tokenize_words([new[i] for i in word_pos])
            if len(batch) != len(word_pos):  # pragma: no cover - guards the batching invariant
                raise RuntimeError(f"{tok!r} returned {len(batch)} results for {len(word_pos)} words")
            for i, tokens in zip(word_pos, batch):
                token_lists[i] = tokens
            edge_pos = [i for i, u in enumerate(new) if isinstance(u, tuple) and len(u) == 3]
            batch = tok.tokenize_edge_units([new[i] for i in edge_pos])
            for i, tokens in zip(edge_pos, batch):
                token_lists[i] = tokens
        for i, unit in enumerate(new):
            if token_lists[i] is None:
                token_lists[i] = tok.tokenize_unit(unit)
        setdefault = vocab.setdefault
        for tokens in token_lists:
            store.append([setdefault(t, len(vocab)) for t in tokens])

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
        lines = lines if isinstance(lines, list) else list(lines)
        joined = self._units_joined(lines)
        uid, n_units = joined if joined is not None else self._units_per_line(lines)
        self._register_new_units()
        self._sync_arrays()
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
