"""Corpus BLEU over iterables and files larger than memory, in chunks, with the in-memory result.

Corpus BLEU only needs the *sum* of the per-segment sufficient statistics, so a corpus can be read in
chunks of segments, each chunk turned into statistics and added to a running total; nothing but one chunk
and the tokenizer cache is held in memory. The integers are the same as in one in-memory pass, so the
score is bit-identical.

* :func:`read_lines` reads a file lazily, one segment per line, splitting on ``"\\n"`` only (never on
  ``\\r``, U+2028, U+001D or the other characters :meth:`str.splitlines` treats as line breaks).
* :func:`iter_statistics` yields :class:`~bleuscope.bleu.SegmentStatistics` chunk by chunk for a hypothesis
  stream and reference streams (lists, generators, paths, open files); streams of different lengths are an
  error naming the stream that ended first and where.
* :func:`corpus_score_stream` / :func:`corpus_score_files` give the corpus score; ``BLEU.corpus_score``
  delegates here when it receives iterators, open files or paths.
* :class:`BLEUAccumulator` (``update`` / ``add_statistics`` / ``merge`` / ``compute`` / ``reset``) keeps the
  running statistics; its :meth:`~BLEUAccumulator.state` is one int64 vector that can simply be *summed*
  across shards, processes or ranks (e.g. with an all-reduce) and turned back into an accumulator.
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from pathlib import Path

import numpy as np

from .bleu import BLEU, CHUNK_SEGMENTS, BLEUScore, SegmentStatistics, warn_if_tokenized
from .core.encoding import CorpusEncoder
from .core.stats import stats_width
from .tokenizers.language import warn_if_mostly_cjk
from .validation import check_reference_presence

#: segments read and counted at a time when streaming
DEFAULT_CHUNK_SEGMENTS = CHUNK_SEGMENTS

#: the tokenizer cache (distinct words -> token ids) is dropped and rebuilt when its vocabulary grows past
#: this many tokens; it keeps the memory of an endless stream bounded, results do not depend on it
MAX_CACHED_VOCABULARY = 1_000_000


# -- reading -----------------------------------------------------------------------------------------------
def read_lines(path, *, encoding: str = "utf-8") -> Iterator[str]:
    """Lines of a text file, read lazily; split on ``"\\n"`` only, the ``"\\n"`` removed.

    A last line without a final newline is a line; a final newline does not start an empty line. Other
    characters (``\\r``, U+2028, U+0085, U+001D, ...) stay inside their line. Bytes that are not valid in
    ``encoding`` raise :class:`ValueError` naming the file and the line.
    """
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    with open(path, "rb") as f:  # binary iteration splits on b"\n" only
        for number, raw in enumerate(f, 1):
            if raw.endswith(b"\n"):
                raw = raw[:-1]
            try:
                yield raw.decode(encoding)
            except UnicodeDecodeError as err:
                raise ValueError(
                    f"{os.fspath(path)}: line {number} is not valid {encoding} "
                    f"({err.reason} at byte {err.start} of the line)"
                ) from None


def _file_object_lines(f, name: str) -> Iterator[str]:
    """Lines of an open file object, without their final ``"\\n"`` (text or binary mode)."""
    for number, line in enumerate(f, 1):
        if isinstance(line, bytes):
            try:
                line = line.decode("utf-8")
            except UnicodeDecodeError as err:
                raise ValueError(f"{name}: line {number} is not valid utf-8 ({err.reason})") from None
        if line.endswith("\n"):
            line = line[:-1]
        yield line


class _Stream:
    """One input stream (hypotheses or one reference stream), read in chunks with checked items."""

    def __init__(self, source, name: str, *, allow_none: bool, encoding: str = "utf-8") -> None:
        self.name = name
        self.allow_none = allow_none
        self._closer = None
        if isinstance(source, (str, bytes)):
            raise TypeError(
                f"{name} must be a list or an iterable of strings (or a path as pathlib.Path), got a single "
                f"{type(source).__name__}; wrap it in a list: [{name}]"
            )
        if source is None:
            raise TypeError(f"{name} must be a list or an iterable of strings, got None")
        if isinstance(source, os.PathLike):
            self.name = f"{name} ({os.fspath(source)})"
            it = read_lines(source, encoding=encoding)
            self._closer = it.close
        elif isinstance(source, io.IOBase):
            self.name = f"{name} ({getattr(source, 'name', 'file')})"
            it = _file_object_lines(source, self.name)
        else:
            if isinstance(source, np.ndarray):
                source = source.tolist()
            if isinstance(source, (set, frozenset, dict)):
                raise TypeError(f"{name} must be an ordered list or iterable of strings, got {type(source).__name__}")
            try:
                it = iter(source)
            except TypeError:
                raise TypeError(
                    f"{name} must be a list or an iterable of strings, got {type(source).__name__}"
                ) from None
        self._it = it

    def take(self, n: int, start: int) -> list:
        items = list(islice(self._it, n))
        if not all(type(x) is str for x in items):
            for i, x in enumerate(items):
                if isinstance(x, str) or (x is None and self.allow_none):
                    continue
                kind = "None" if x is None else type(x).__name__
                hint = (" (a list inside: is this a per-segment reference layout? references[k][i] is "
                        "reference k of segment i)") if isinstance(x, (list, tuple)) else ""
                raise TypeError(f"{self.name}: item {start + i} (line {start + i + 1}) must be a string, "
                                f"got {kind}{hint}")
        return items

    def close(self) -> None:
        if self._closer is not None:
            self._closer()


def _open_streams(hypotheses, references, encoding: str) -> tuple[_Stream, list[_Stream]]:
    if isinstance(references, (str, bytes, os.PathLike)):
        raise TypeError(
            "references must be a list of reference streams (one per reference), got a single "
            f"{type(references).__name__}; for one reference stream pass [references]"
        )
    if isinstance(references, np.ndarray):
        references = references.tolist()
    try:
        outer = list(references)
    except TypeError:
        raise TypeError(f"references must be a list of reference streams, got {type(references).__name__}") from None
    if not outer:
        raise ValueError("references is empty: give at least one reference stream")
    if all(isinstance(s, str) for s in outer):
        raise TypeError(
            "references must be a list of reference streams (lists or iterables of strings), got a flat list "
            "of strings; for one reference per segment pass [references]"
        )
    hyp = _Stream(hypotheses, "hypotheses", allow_none=False, encoding=encoding)
    refs = [_Stream(s, f"references[{k}]", allow_none=True, encoding=encoding) for k, s in enumerate(outer)]
    return hyp, refs


def _presence(chunks: list[list], start: int) -> np.ndarray:
    """bool [S, K] of the references present; the error names the segment in the whole stream."""
    try:
        return check_reference_presence(chunks)
    except ValueError:
        first = next(i for i in range(len(chunks[0])) if all(c[i] is None for c in chunks))
        raise ValueError(
            f"segment {start + first} (line {start + first + 1}) has no reference "
            "(every reference stream is None there)"
        ) from None


def _length_error(streams: list[_Stream], lengths: list[int], start: int) -> ValueError:
    shortest = min(lengths)
    ended = [s.name for s, n in zip(streams, lengths) if n == shortest]
    going = [s.name for s, n in zip(streams, lengths) if n > shortest]
    return ValueError(
        f"{' and '.join(ended)} ended after line {start + shortest}, but {' and '.join(going)} "
        f"{'has' if len(going) == 1 else 'have'} a line {start + shortest + 1}: all streams must have the "
        "same number of lines; nothing is truncated, fix the input"
    )


class _EncoderCache:
    """One :class:`CorpusEncoder` reused across chunks (each distinct word is tokenized once), renewed when
    its vocabulary passes ``MAX_CACHED_VOCABULARY`` so that memory stays bounded."""

    def __init__(self, bleu: BLEU) -> None:
        self.bleu = bleu
        self.encoder: CorpusEncoder = bleu.new_encoder()

    def get(self) -> CorpusEncoder:
        if self.encoder.vocab_size > MAX_CACHED_VOCABULARY:
            self.encoder = self.bleu.new_encoder()
        return self.encoder


def _check_chunk_size(chunk_size) -> int:
    if chunk_size is None:
        return DEFAULT_CHUNK_SEGMENTS
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)):
        raise TypeError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    return int(chunk_size)


def _iter_chunks(
    hypotheses, references, size: int, encoding: str, tokenizer_name: str, force: bool = True
) -> Iterator[tuple[list, list, np.ndarray]]:
    """Checked ``(hyps, ref_chunks, present)`` chunks of ``size`` segments (the last may be shorter).

    The input warnings of the in-memory path are given too: the CJK check on the first chunk, and
    (unless ``force``) the tokenized-period warning once 100 hypotheses end in ``" ."``."""
    hyp, refs = _open_streams(hypotheses, references, encoding)
    streams = [hyp] + refs
    start = 0
    tokenized = 0 if not force else None
    try:
        while True:
            chunks = [s.take(size, start) for s in streams]
            lengths = [len(c) for c in chunks]
            if min(lengths) != max(lengths):
                raise _length_error(streams, lengths, start)
            n = lengths[0]
            if n == 0:
                if start == 0:
                    raise ValueError("hypotheses is empty: give at least one segment")
                return
            if start == 0:  # CJKTokenizationWarning, judged on the first chunk as the in-memory path does
                warn_if_mostly_cjk(tokenizer_name, chunks[0])
            if tokenized is not None:
                tokenized += sum(1 for h in chunks[0] if h.endswith(" ."))
                if tokenized >= 100:
                    warn_if_tokenized([" ."] * tokenized)  # the in-memory path's warning, given once
                    tokenized = None
            yield chunks[0], chunks[1:], _presence(chunks[1:], start)
            del chunks
            start += n
            if n < size:  # islice came back short: every stream is exhausted (lengths were equal)
                return
    finally:
        for s in streams:
            s.close()


def iter_statistics(
    bleu: BLEU,
    hypotheses,
    references,
    *,
    chunk_size: int | None = None,
    encoding: str = "utf-8",
    n_jobs=None,
    _encoders: _EncoderCache | None = None,
) -> Iterator[SegmentStatistics]:
    """Per-segment statistics, one :class:`SegmentStatistics` per chunk of ``chunk_size`` segments.

    ``hypotheses`` and every reference stream may be a list, any iterable of strings (a generator), a path
    (:class:`os.PathLike`, read with :func:`read_lines`) or an open file object. Streams of different
    lengths raise :class:`ValueError` naming the stream that ended first and its last line.
    ``n_jobs > 1`` counts the chunks in worker processes (:mod:`bleuscope.parallel`) while this process
    reads ahead a bounded number of chunks.
    """
    from .parallel import map_statistics, resolve_n_jobs

    size = _check_chunk_size(chunk_size)
    jobs = resolve_n_jobs(n_jobs)
    chunks = _iter_chunks(hypotheses, references, size, encoding, bleu.tokenizer.name, getattr(bleu, "force", True))
    if jobs > 1:
        for stats, present in map_statistics(bleu, chunks, jobs):
            yield SegmentStatistics(stats=stats, nrefs=present.sum(axis=1).astype(np.int64))
        return
    encoders = _encoders if _encoders is not None else _EncoderCache(bleu)
    for hyps, ref_chunks, present in chunks:
        stats = bleu._statistics_checked(hyps, ref_chunks, present, encoders.get())
        yield SegmentStatistics(stats=stats, nrefs=present.sum(axis=1).astype(np.int64))


# -- accumulation ------------------------------------------------------------------------------------------
class BLEUAccumulator:
    """Running corpus BLEU statistics: ``update`` with batches, ``compute`` the corpus score at any time.

    ``BLEUAccumulator(bleu)`` or ``BLEUAccumulator(**options)`` (the :class:`~bleuscope.BLEU` options).
    The state is the summed statistics row plus three counters (segments, sum of reference counts and sum
    of their squares, from which ``nrefs`` -- a number or ``var`` -- is recovered exactly); it is one int64
    vector (:meth:`state`) that sums across shards: ``BLEUAccumulator.from_state(sum_of_states, bleu)``.
    """

    def __init__(self, bleu: BLEU | None = None, **options) -> None:
        if bleu is not None and options:
            raise TypeError("give either a BLEU object or BLEU options, not both")
        if bleu is not None and not isinstance(bleu, BLEU):
            raise TypeError(f"bleu must be a bleuscope.BLEU, got {type(bleu).__name__}")
        self.bleu = bleu if bleu is not None else BLEU(**options)
        self._width = stats_width(getattr(self.bleu, "stats_order", self.bleu.max_ngram_order))
        self._encoders = _EncoderCache(self.bleu)
        self.reset()

    def reset(self) -> None:
        """Forget everything accumulated (the tokenizer cache is kept)."""
        self._state = np.zeros(self._width + 3, dtype=np.int64)

    # -- views of the state ----------------------------------------------------------------------------
    @property
    def totals(self) -> np.ndarray:
        """Summed statistics ``[hyp_len, ref_len, correct_1..N, total_1..N]`` (a copy)."""
        return self._state[: self._width].copy()

    @property
    def n_segments(self) -> int:
        return int(self._state[self._width])

    def nrefs(self) -> str:
        """``nrefs`` signature value: the reference count per segment, or ``var`` when it varies."""
        n, s1, s2 = (int(x) for x in self._state[self._width:])
        if n == 0:
            raise ValueError("nothing accumulated yet")
        return str(s1 // n) if n * s2 == s1 * s1 else "var"  # zero variance <=> constant count

    def state(self) -> np.ndarray:
        """int64 ``[totals..., n_segments, sum(nrefs), sum(nrefs**2)]``: sum these across shards."""
        return self._state.copy()

    @classmethod
    def from_state(cls, state, bleu: BLEU | None = None, **options) -> BLEUAccumulator:
        """An accumulator holding ``state`` (e.g. the sum of several :meth:`state` vectors)."""
        acc = cls(bleu, **options)
        acc._state = acc._check_state(state)
        return acc

    def _check_state(self, state) -> np.ndarray:
        arr = np.asarray(state)
        if arr.shape != (self._width + 3,):
            raise ValueError(
                f"state must have shape ({self._width + 3},) for these BLEU settings, got {arr.shape}"
            )
        if not np.issubdtype(arr.dtype, np.integer):
            if not np.array_equal(arr, np.round(arr)):
                raise ValueError("state must hold integers (statistics are counts)")
        arr = arr.astype(np.int64)
        if (arr < 0).any():
            raise ValueError("state must not be negative")
        return arr

    # -- adding ----------------------------------------------------------------------------------------
    def update(self, hypotheses, references, *, chunk_size: int | None = None) -> SegmentStatistics | None:
        """Add a batch (lists, iterables, paths or files, as :func:`iter_statistics` takes).

        Returns the batch's per-segment statistics when it fitted in one chunk, else ``None`` (large
        streams are not kept)."""
        parts = 0
        last = None
        for seg in iter_statistics(self.bleu, hypotheses, references, chunk_size=chunk_size,
                                   _encoders=self._encoders):
            self.add_statistics(seg)
            parts += 1
            last = seg
        return last if parts == 1 else None

    def add_statistics(self, stats, nrefs=None) -> None:
        """Add per-segment statistics: a :class:`SegmentStatistics`, or an int array [S, 2 + 2N] with
        ``nrefs`` (one int for all segments, or one per segment)."""
        if isinstance(stats, SegmentStatistics):
            if nrefs is not None:
                raise TypeError("nrefs is taken from the SegmentStatistics; do not pass it")
            stats, nrefs = stats.stats, stats.nrefs
        arr = np.asarray(stats)
        if arr.ndim != 2 or arr.shape[1] != self._width:
            raise ValueError(
                f"stats must be per-segment statistics of shape [S, {self._width}] for these BLEU settings, "
                f"got shape {arr.shape}"
            )
        if not np.issubdtype(arr.dtype, np.integer):
            raise TypeError(f"stats must be an integer array, got dtype {arr.dtype}")
        if nrefs is None:
            raise TypeError("nrefs is required with a raw statistics array (an int, or one per segment)")
        k = np.asarray(nrefs)
        if k.ndim == 0:
            k = np.full(len(arr), k)
        if k.shape != (len(arr),) or not np.issubdtype(k.dtype, np.integer) or (k < 1).any():
            raise ValueError(f"nrefs must be a positive int or {len(arr)} positive ints, got {nrefs!r}")
        if (arr < 0).any():
            raise ValueError("stats must not be negative")
        k = k.astype(np.int64)
        self._state[: self._width] += arr.sum(axis=0, dtype=np.int64)
        self._state[self._width:] += (len(arr), int(k.sum()), int((k * k).sum()))

    def merge(self, *others: BLEUAccumulator) -> BLEUAccumulator:
        """Add the statistics of other accumulators (same settings) into this one; returns ``self``."""
        mine = self.bleu.signature_fields("?")
        for other in others:
            if not isinstance(other, BLEUAccumulator):
                raise TypeError(f"can only merge BLEUAccumulator objects, got {type(other).__name__}")
            theirs = other.bleu.signature_fields("?")
            if theirs != mine:
                diff = sorted(key for key in mine if mine[key] != theirs.get(key))
                raise ValueError(f"cannot merge accumulators with different settings ({', '.join(diff)})")
            self._state += other._state
        return self

    def __iadd__(self, other: BLEUAccumulator) -> BLEUAccumulator:
        return self.merge(other)

    # -- scoring ---------------------------------------------------------------------------------------
    def compute(self) -> BLEUScore:
        """Corpus BLEU of everything accumulated (identical to one in-memory ``corpus_score``)."""
        if self.n_segments == 0:
            raise ValueError("nothing accumulated yet: call update() or add_statistics() first")
        return self.bleu.score_from_statistics(self._state[: self._width], self.nrefs())

    def __repr__(self) -> str:
        return f"BLEUAccumulator(segments={self.n_segments}, tok={self.bleu.tokenize})"


# -- corpus scores -----------------------------------------------------------------------------------------
def corpus_score_stream(
    bleu: BLEU, hypotheses, references, *, chunk_size: int | None = None, encoding: str = "utf-8", n_jobs=None
) -> BLEUScore:
    """Corpus BLEU over streams (lists, iterables, paths, open files), in bounded memory."""
    acc = BLEUAccumulator(bleu)
    for seg in iter_statistics(bleu, hypotheses, references, chunk_size=chunk_size, encoding=encoding,
                               n_jobs=n_jobs, _encoders=acc._encoders):
        acc.add_statistics(seg)
    bleu._last_nrefs = acc.nrefs()
    return acc.compute()


def corpus_score_files(
    hypothesis_file,
    reference_files: Sequence,
    *,
    bleu: BLEU | None = None,
    chunk_size: int | None = None,
    encoding: str = "utf-8",
    n_jobs=None,
    **options,
) -> BLEUScore:
    """Corpus BLEU of a hypothesis file against reference files, read lazily line by line.

    Paths may be ``str`` or :class:`os.PathLike`; pass a ``BLEU`` object or the BLEU options.
    """
    if bleu is not None and options:
        raise TypeError("give either bleu= or BLEU options, not both")
    if bleu is None:
        bleu = BLEU(**options)
    if isinstance(reference_files, (str, bytes, os.PathLike)):
        raise TypeError("reference_files must be a list of paths; for one reference file pass [path]")
    if not isinstance(hypothesis_file, (str, os.PathLike)):
        raise TypeError(f"hypothesis_file must be a path, got {type(hypothesis_file).__name__}")
    ref_paths = list(reference_files)
    for k, p in enumerate(ref_paths):
        if not isinstance(p, (str, os.PathLike)):
            raise TypeError(f"reference_files[{k}] must be a path, got {type(p).__name__}")
    paths = [Path(p) for p in [hypothesis_file] + ref_paths]
    for p in paths:
        if not p.is_file():
            raise FileNotFoundError(f"no such file: {p}")
    return corpus_score_stream(bleu, paths[0], paths[1:], chunk_size=chunk_size, encoding=encoding, n_jobs=n_jobs)


def is_streaming_input(hypotheses, references) -> bool:
    """Whether ``corpus_score`` should take the streaming path: an iterator, an open file or a path among
    the inputs (lists, tuples and arrays keep the in-memory path)."""

    def streamy(x) -> bool:
        return isinstance(x, (Iterator, io.IOBase, os.PathLike)) or (
            isinstance(x, Iterable) and not isinstance(x, (Sequence, np.ndarray, str, bytes, dict, set, frozenset))
        )

    if streamy(hypotheses):
        return True
    if isinstance(references, (list, tuple)):
        return any(streamy(r) for r in references)
    return False


__all__ = [
    "BLEUAccumulator",
    "DEFAULT_CHUNK_SEGMENTS",
    "corpus_score_files",
    "corpus_score_stream",
    "is_streaming_input",
    "iter_statistics",
    "read_lines",
]
