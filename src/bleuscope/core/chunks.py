"""Inputs read in chunks with bounded memory: lists, iterables, open files and paths.

:func:`iter_chunks` cuts a hypothesis stream and reference streams into checked chunks of segments (streams
of different lengths are an error naming the stream that ended first and where); :func:`iter_statistics`
counts each chunk with a metric's counter (in this process or in a pool of worker processes) and
:func:`sum_statistics` adds the chunks' totals up. Any :class:`~bleuscope.metrics.base.Metric` works (its ``counter``).
Plain text files take one path for the library and the command: :func:`plain_text_paths` says whether the
inputs are such files, :func:`count_files` has the metric's counter read them itself (for several systems
at once, the references read once).

This is the library's one stream type. Two other readers hand the metrics the same chunks (hypotheses and
reference streams ``refs[k][i]``) from sources of their own, which is why they are separate:
:class:`bleuscope.cli.inputs.InputFiles` reads the command's files (several systems side by side, text / TSV /
JSON Lines, stdin, diagnostics that read files to their end), and :class:`bleuscope.runtime.shards.ShardChunk`
is a chunk of a Parquet or JSON Lines shard (it knows its shard and rows, and keeps the Arrow rows). The rules
of reference records they share (fields joined, a reference in every row, rows to streams) are written once, in
:mod:`bleuscope.core.files`.
"""

from __future__ import annotations

import codecs
import io
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice

import numpy as np

from . import pool
from .checks import TOKENIZED_PERIOD_LINES, count_tokenized_periods, warn_if_mostly_cjk, warn_tokenized
from .pool import CHUNK_SEGMENTS
from .stats import SegmentStatistics, Totals
from .validation import check_reference_presence


# -- reading -----------------------------------------------------------------------------------------------
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
        self._yields_str = False  # read from a path: every item is a str, no check needed
        if isinstance(source, (str, bytes)):
            raise TypeError(
                f"{name} must be a list or an iterable of strings (or a path as pathlib.Path), got a single "
                f"{type(source).__name__}; wrap it in a list: [{name}]"
            )
        if source is None:
            raise TypeError(f"{name} must be a list or an iterable of strings, got None")
        if isinstance(source, os.PathLike):
            from .files import read_lines  # the file reader loads when a file is read

            self.name = f"{name} ({os.fspath(source)})"
            lines = read_lines(source, encoding)
            self._closer = lines.close
            it: Iterator[str] = lines
            self._yields_str = True
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
        if not self._yields_str and not all(type(x) is str for x in items):
            for i, x in enumerate(items):
                if isinstance(x, str) or (x is None and self.allow_none):
                    continue
                kind = "None" if x is None else type(x).__name__
                hint = (
                    (
                        " (a list inside: is this a per-segment reference layout? references[k][i] is "
                        "reference k of segment i)"
                    )
                    if isinstance(x, (list, tuple))
                    else ""
                )
                raise TypeError(
                    f"{self.name}: item {start + i} (line {start + i + 1}) must be a string, got {kind}{hint}"
                )
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


def check_chunk_size(chunk_size) -> int:
    if chunk_size is None:
        return CHUNK_SEGMENTS
    if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)):
        raise TypeError(f"chunk_size must be a positive integer, got {chunk_size!r}")
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be >= 1, got {chunk_size}")
    return int(chunk_size)


def iter_chunks(
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
                tokenized += count_tokenized_periods(chunks[0])
                if tokenized >= TOKENIZED_PERIOD_LINES:
                    warn_tokenized()  # the in-memory path's warning, given once
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
    metric, hypotheses, references, *, chunk_size: int | None = None, encoding: str = "utf-8", n_jobs=None
) -> Iterator[SegmentStatistics]:
    """Per-segment statistics of ``metric``, one :class:`SegmentStatistics` per chunk of ``chunk_size``
    segments.

    ``hypotheses`` and every reference stream may be a list, any iterable of strings (a generator), a path
    (:class:`os.PathLike`, read with :func:`bleuscope.core.files.read_lines`) or an open file object. Streams of different
    lengths raise :class:`ValueError` naming the stream that ended first and its last line.
    ``n_jobs > 1`` counts the chunks in worker processes (:mod:`bleuscope.core.pool`) while this process
    reads ahead a bounded number of chunks.
    """
    size = check_chunk_size(chunk_size)
    jobs = pool.resolve_n_jobs(n_jobs)
    chunks = iter_chunks(
        hypotheses, references, size, encoding, metric.input_warning_tokenizer, not metric.warns_if_tokenized
    )
    if jobs > 1:
        for stats, present in pool.map_statistics(metric, chunks, jobs):
            yield SegmentStatistics(stats=stats, nrefs=present.sum(axis=1).astype(np.int64))
        return
    counter = metric.counter
    for hyps, ref_chunks, present in chunks:
        yield SegmentStatistics(stats=counter.rows(hyps, ref_chunks, present), nrefs=present.sum(axis=1).astype(np.int64))


def sum_statistics(
    metric, hypotheses, references, *, chunk_size: int | None = None, encoding: str = "utf-8", n_jobs=None
) -> Totals:
    """The summed statistics (:class:`~bleuscope.core.stats.Totals`) of streamed input (see
    :func:`iter_statistics`), in bounded memory. Counted in this process, plain text files are read by the
    metric's counter when it reads files (:func:`count_files`: BLEU's compiled counter, without a Python
    string per line), and each chunk of other input is summed by its ``counter.total`` (BLEU's builds no
    per-segment rows); the score, the warnings and the errors are those of the chunks, read and checked
    as :func:`iter_statistics` reads them (which they are when the counter stops at a problem)."""
    size = check_chunk_size(chunk_size)
    jobs = pool.resolve_n_jobs(n_jobs)
    if jobs == 1:
        counted = _file_totals(metric, hypotheses, references, size, encoding)
        if counted is not None:
            return counted
    if jobs > 1:
        parts = (
            Totals.of(seg)
            for seg in iter_statistics(metric, hypotheses, references, chunk_size=size, encoding=encoding, n_jobs=jobs)
        )
    else:
        counter = metric.counter
        parts = (
            Totals.of_sum(counter.total(hyps, ref_chunks, present), present.sum(axis=1))
            for hyps, ref_chunks, present in iter_chunks(
                hypotheses, references, size, encoding, metric.input_warning_tokenizer, not metric.warns_if_tokenized
            )
        )
    total: Totals | None = None
    for part in parts:
        total = part if total is None else total + part
    if total is None:  # pragma: no cover - the chunk readers refuse input without segments
        raise ValueError("hypotheses is empty: give at least one segment")
    return total


def plain_text_paths(hypotheses: Sequence, references, encoding: str = "utf-8") -> tuple[list[str], list[str]] | None:
    """``(hypothesis files, reference files)`` when every hypothesis stream (one per system) and every
    reference stream is a path (:class:`os.PathLike`) to a plain, uncompressed regular file read as UTF-8:
    the input a counter that reads files (:attr:`~bleuscope.metrics.base.Counter.reads_files`) counts by
    itself; None otherwise (compressed files, standard input, other encodings and other streams stay on
    this reader)."""
    try:
        if codecs.lookup(encoding).name != "utf-8":
            return None
    except (LookupError, TypeError):
        return None
    if not isinstance(references, (list, tuple)) or not references or not hypotheses:
        return None
    paths = [*hypotheses, *references]
    if not all(isinstance(p, os.PathLike) for p in paths):
        return None
    from .files import STDIN, compression_of

    names = [os.fspath(p) for p in paths]
    if not all(isinstance(n, str) and n != STDIN and compression_of(n) is None for n in names):
        return None
    # regular files only: a pipe (a FIFO, /dev/stdin, a shell's <(...)) cannot be read a second time by
    # the Python reader when the counter stops at a problem
    if not all(os.path.isfile(n) for n in names):
        return None
    return names[: len(hypotheses)], names[len(hypotheses) :]


@dataclass(frozen=True)
class FileCounts:
    """What a counter that reads files learnt of K systems' plain UTF-8 files (:func:`count_files`)."""

    totals: np.ndarray  # int64 [K, stats_width]: each system's summed row
    segments: int  # lines per file
    tokenized_periods: list[int]  # each system's hypotheses ending in " ."
    samples: list[list[str]]  # each system's samples of its hypotheses for the CJK check (see Counter.files)


def count_files(
    metric, hyp_paths: list[str], ref_paths: list[str], *, max_line_bytes: int | None = None,
    strip_line_ends: bool = False, sample_segments: int = 0,
) -> FileCounts | None:
    """The summed rows of K systems' plain text files (:func:`plain_text_paths`) against the same reference
    files, read and counted by the metric's counter itself (``counter.files``: BLEU's compiled counter
    reads the reference files once and tokenizes their lines once for all systems, without a Python
    string per line). None when the counter does not read files, or stopped at a problem or found the files
    empty: the caller's reader then reads them, and names the problem as it always does. No warning is
    given here: the library's stream (:func:`sum_statistics`) and the command each give their own.
    ``max_line_bytes``: None is :data:`bleuscope.core.files.MAX_LINE_BYTES`."""
    counter = metric.counter
    if not counter.reads_files:
        return None
    if max_line_bytes is None:
        from .files import MAX_LINE_BYTES

        max_line_bytes = MAX_LINE_BYTES
    counted = counter.files(
        hyp_paths, ref_paths, max_line_bytes=max_line_bytes, strip_line_ends=strip_line_ends,
        sample_segments=sample_segments,
    )
    if counted is None or counted.segments == 0:
        return None
    return counted


def _file_totals(metric, hypotheses, references, size: int, encoding: str) -> Totals | None:
    """:func:`sum_statistics` of plain text files counted by the metric's counter (:func:`count_files`),
    with the input warnings :func:`iter_chunks` gives; None when the counter does not count this input."""
    if not metric.counter.reads_files:
        return None
    paths = plain_text_paths([hypotheses], references, encoding)
    if paths is None:
        return None
    counted = count_files(metric, *paths)
    if counted is None:
        return None
    give_input_warnings(
        paths[0][0], size, metric.input_warning_tokenizer, not metric.warns_if_tokenized,
        counted.tokenized_periods[0],
    )
    return Totals.of_sum(counted.totals[0], len(paths[1]), counted.segments)


def give_input_warnings(
    hyp_path: str, size: int, tokenizer_name: str, force: bool, tokenized_periods: int
) -> None:
    """The input warnings :func:`iter_chunks` gives, for a hypothesis file counted without it (all of
    whose lines are valid): the CJK check on its first chunk of ``size`` lines, then (unless ``force``)
    the tokenized-period warning when ``tokenized_periods`` reached the threshold."""
    from .files import read_lines

    first = read_lines(hyp_path)
    try:  # the check reads only the lines it samples
        warn_if_mostly_cjk(tokenizer_name, islice(first, size))
    finally:
        first.close()
    if not force and tokenized_periods >= TOKENIZED_PERIOD_LINES:
        warn_tokenized()


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
    "CHUNK_SEGMENTS",
    "FileCounts",
    "check_chunk_size",
    "count_files",
    "give_input_warnings",
    "is_streaming_input",
    "iter_chunks",
    "iter_statistics",
    "plain_text_paths",
    "sum_statistics",
]
