"""Text to integer token ids: one pass over a corpus, each distinct word tokenized once.

The encoder keeps a vocabulary (token -> id) and a unit cache (unit -> token ids) shared by the hypotheses
and all reference streams of one scoring call, so that equal tokens get equal ids everywhere.
The per-occurrence work is done by C-level builtins (``str.split``, ``dict`` look-ups through ``map``) and
numpy; Python code runs once per *distinct* unit, not per token occurrence.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from itertools import chain, count, islice

import numpy as np

from ...tokenizers.base import BaseTokenizer, WordLocalTokenizer

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
        # token -> id and unit -> unit id; a missing key gets the next id at C speed (first-occurrence order)
        self.vocab: defaultdict = defaultdict(count().__next__)
        self._unit_index: defaultdict = defaultdict(count().__next__)
        # unit id -> its token ids: self._unit_flat[start : start + ntok]
        self._unit_start = _EMPTY
        self._unit_ntok = _EMPTY
        self._unit_flat = _EMPTY

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
            self._mark_edges(tok, lines, words, uid, cuts, n_units)
        return uid[~boundary], n_units

    def _mark_edges(self, tok: WordLocalTokenizer, lines, words, uid, cuts, n_units) -> None:
        """Give line-initial/-final words their edge unit where the tokenizer says the edge matters."""
        index = self._unit_index
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

    def _ids_of_joined(self, text: str, n_units: int):
        """Token ids and tokens per unit of ``text``: units separated by "\n", tokens by whitespace."""
        sentinel = next(c for c in _SENTINELS if c not in text)
        tokens = text.replace("\n", f" {sentinel} ").split()
        vocab = self.vocab
        ids = np.fromiter(map(vocab.__getitem__, tokens), dtype=np.int64, count=len(tokens))
        boundary = ids == vocab[sentinel]
        cuts = np.flatnonzero(boundary)
        ntok = np.diff(np.concatenate([[-1], cuts, [len(ids)]])) - 1
        if len(ntok) != n_units:  # pragma: no cover - guards the batching invariant
            raise RuntimeError(f"{self.tokenizer!r} returned {len(ntok)} results for {n_units} units")
        return ids[~boundary], ntok

    def _register_new_units(self) -> None:
        """Tokenize the units seen for the first time (each distinct unit exactly once, in batches)."""
        n_known = len(self._unit_ntok)
        if len(self._unit_index) == n_known:
            return
        new = list(islice(self._unit_index, n_known, None))
        tok = self.tokenizer
        # group the new units by kind; each group is tokenized in one batch into "\n"-separated text
        words: list[int] = []
        edges: list[int] = []
        others: list[int] = []
        for i, unit in enumerate(new):
            (words if isinstance(unit, str) else edges if len(unit) == 3 else others).append(i)
        groups = []
        if words or edges:
            # only a word-local tokenizer's split_units gives words and edge units
            assert isinstance(tok, WordLocalTokenizer)
            if words:
                groups.append((words, tok.tokenize_words_joined([new[i] for i in words])))
            if edges:
                batch = tok.tokenize_edge_units([new[i] for i in edges])
                groups.append((edges, "\n".join(map(" ".join, batch))))
        if others:
            groups.append((others, "\n".join(" ".join(tok.tokenize_unit(new[i])) for i in others)))
        starts = np.empty(len(new), dtype=np.int64)
        ntoks = np.empty(len(new), dtype=np.int64)
        flats = [self._unit_flat]
        base = len(self._unit_flat)
        for positions, text in groups:
            flat, ntok = self._ids_of_joined(text, len(positions))
            first = np.zeros(len(ntok), dtype=np.int64)
            np.cumsum(ntok[:-1], out=first[1:])
            starts[positions] = base + first
            ntoks[positions] = ntok
            flats.append(flat)
            base += len(flat)
        self._unit_flat = np.concatenate(flats)
        self._unit_start = np.concatenate([self._unit_start, starts])
        self._unit_ntok = np.concatenate([self._unit_ntok, ntoks])

    def encode(self, lines) -> EncodedLines:
        """Token ids of ``lines`` (a list of str), equal to ``tokenizer(line.rstrip()).split()`` per line."""
        lines = lines if isinstance(lines, list) else list(lines)
        joined = self._units_joined(lines)
        uid, n_units = joined if joined is not None else self._units_per_line(lines)
        self._register_new_units()
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
        lengths = np.fromiter(map(len, token_lists), dtype=np.int64, count=len(token_lists))
        flat = chain.from_iterable(token_lists)
        ids = np.fromiter(map(self.vocab.__getitem__, flat), dtype=np.int64, count=int(lengths.sum()))
        return EncodedLines(ids=ids, lengths=lengths)


def slice_lines(enc: EncodedLines, a: int, b: int) -> EncodedLines:
    """Lines ``a..b`` of an encoded batch."""
    off = enc.offsets
    return EncodedLines(ids=enc.ids[off[a] : off[b]], lengths=enc.lengths[a:b])
