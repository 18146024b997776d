"""Hypotheses and references for the command, streamed from files or stdin in chunks of segments.

The files of one run are read side by side, a chunk of segments at a time (:meth:`InputFiles.chunks`), so
memory holds one chunk of text whatever the corpus size (the per-segment statistics are what is kept). Every
check the command makes on its inputs is here: line counts (nothing is ever truncated: the first extra line is
named), empty input, JSON Lines fields, segments without references, and the input warnings (a reference read
as a hypothesis, tokenized-looking hypotheses).
"""

from __future__ import annotations

import argparse
import codecs
import os
import stat
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

from ..core import chunks as core_chunks
from ..core import files as bio
from ..core.checks import TOKENIZED_PERIOD_LINES, count_tokenized_periods
from ..core.chunks import CHUNK_SEGMENTS
from ..core.files import InputError
from .output import UsageError
from .progress import isatty

#: sacreBLEU warns when at least this many hypothesis lines end in " ."
TOKENIZED_WARN_LINES = TOKENIZED_PERIOD_LINES

#: once line counts are known to differ, each longer file is counted on for at most this many lines and
#: characters (a second or so), to say how many lines it has: a file of a billion lines (a decompression
#: bomb) is then "at least N lines" instead of minutes of reading
MISMATCH_COUNT_LINES = 1_000_000
MISMATCH_COUNT_CHARS = 1 << 27



@dataclass
class Inputs:
    """All of the input in memory (significance tests resample whole systems)."""

    hyp_names: list[str]  # one display name per system
    hyps: list[list[str]]  # hyps[s][i]: segment i of system s
    refs: list[list[str | None]]  # reference streams refs[k][i]
    ref_names: list[str]  # one display name per stream (for messages)


class _Source:
    """One input file read item by item: a line (text), the fields of a TSV line, or the values of a JSON line.

    ``names`` are the display names of the streams it gives (one per TSV column; one for the others)."""

    def __init__(self, path: str, kind: str, args: argparse.Namespace, warn, *, fields=None) -> None:
        self.path = path
        self.name = bio.display_name(path)
        self.kind = kind  # "text", "tsv" or "jsonl"
        lines = bio.read_lines(path, args.encoding, warn, max_line_bytes=args.max_line_bytes)
        if kind == "text":
            self.items: Iterator = lines
        elif kind == "tsv":
            n = args.num_refs
            self.items = (bio.tsv_fields(line, n, self.name, k) for k, line in enumerate(lines, 1))
        else:
            self.items = (bio.jsonl_record(line, fields, self.name, k) for k, line in enumerate(lines, 1))
        self.taken = 0  # items given out in earlier chunks

    def take(self, n: int) -> list:
        items = list(islice(self.items, n))
        return items

    def count_rest(self, limit: int) -> tuple[int, bool]:
        """The number of items left (read to the end, or ``limit`` at most, and no more than
        :data:`MISMATCH_COUNT_CHARS` characters; nothing kept) and whether they are all empty lines. Fewer
        than ``limit``: the end was reached."""
        n, empty, chars = 0, True, 0
        for item in islice(self.items, limit):
            n += 1
            if isinstance(item, str):
                empty = empty and item == ""
                chars += len(item)
            else:
                empty = False
            if chars > MISMATCH_COUNT_CHARS:
                return limit, False  # not read to its end
        return n, empty

    def is_regular_file(self) -> bool:
        """Whether the input has an end to count to: a regular file (also as stdin), not a pipe, FIFO or device
        that may never end (``yes | bleuscope ref.txt``)."""
        try:
            st = os.fstat(sys.stdin.fileno()) if self.path == bio.STDIN else os.stat(self.path)
        except (OSError, ValueError, AttributeError):
            return False
        return stat.S_ISREG(st.st_mode)


class _AtLeast(int):
    """A line count of an input that was not read to its end: printed as "at least N"."""

    def __format__(self, spec: str) -> str:
        return f"at least {int(self):{spec}}"


def _looks_jsonl(path: str) -> bool:
    stem = path
    ext = bio.compression_of(path)
    if ext:
        stem = path[: -len(ext)]
    return stem.endswith((".jsonl", ".ndjson"))


class InputFiles:
    """The command's input files, read in lock step: the hypothesis files (one per system, side by side) and the
    reference files, in its formats (text, TSV, JSON Lines; stdin). It hands the metrics what
    :func:`bleuscope.core.chunks.iter_chunks` hands them (hypotheses and reference streams), but is a reader of
    its own: several systems at once, and its diagnostics read files to their end (line counts, encodings)."""

    def __init__(self, args: argparse.Namespace, warn=None) -> None:
        self.args = args
        self.warn = warn
        if args.hyp_paths == [bio.STDIN] and sys.stdin is not None and isatty(sys.stdin) and not args.example:
            raise UsageError("no hypotheses: give -i HYP (or HYP ... -r REF ...), or pipe the hypotheses into stdin")
        ref_fields = args.ref_field or []
        self.ref_fields = ref_fields
        self.hyp_names: list[str] = list(args.hyp_names)
        self.hyps: list[_Source] = []
        for path in args.hyp_paths:
            if args.hyp_field:
                fields = [(args.hyp_field, "hyp")] + ([(f, "ref") for f in ref_fields] if args.hyp_field_refs else [])
                self.hyps.append(_Source(path, "jsonl", args, warn, fields=fields))
            else:
                if _looks_jsonl(path):
                    raise UsageError(
                        f"{bio.display_name(path)} looks like JSON Lines; name the hypothesis field with --hyp-field"
                    )
                self.hyps.append(_Source(path, "text", args, warn))
        self.refs: list[_Source] = []
        self.ref_names: list[str] = []  # one per file (the first stream's name for a TSV file)
        for path in args.ref_paths:
            name = bio.display_name(path)
            if ref_fields:
                self.refs.append(_Source(path, "jsonl", args, warn, fields=[(f, "ref") for f in ref_fields]))
                self.ref_names.append(name)
            elif args.num_refs > 1:
                self.refs.append(_Source(path, "tsv", args, warn))
                self.ref_names.append(f"{name} (column 1)")
            else:
                if _looks_jsonl(path):
                    hint = (
                        f" (to score {name} against references in the same file: {name} --hyp-field "
                        f"{args.hyp_field} --ref-field NAME)"
                        if args.hyp_field and args.input is None
                        else ""
                    )
                    raise UsageError(
                        f"{name} looks like JSON Lines; name the reference field(s) with --ref-field{hint}"
                    )
                self.refs.append(_Source(path, "text", args, warn))
                self.ref_names.append(name)
        if args.hyp_field_refs:
            self.ref_names = [f"{self.hyp_names[0]} ({', '.join(ref_fields)})"]
        self.tokenized_lines = [0] * len(self.hyps)
        self.segments = 0

    # -- chunks --------------------------------------------------------------------------------------------
    def chunks(self, size: int = CHUNK_SEGMENTS) -> Iterator[tuple[list[list[str]], list[list[str | None]]]]:
        """``(hyps, refs)`` per chunk of ``size`` segments: one list per system, reference streams ``refs[k][i]``.

        Different line counts, empty files and bad data are :class:`InputError`; the input warnings are given
        at the end."""
        start = 0
        while True:
            try:
                hyp_items = [src.take(size) for src in self.hyps]
            except InputError as e:
                raise self._with_reference_encoding(e) from None
            ref_items = [src.take(size) for src in self.refs]
            if start == 0:
                self._check_not_empty(hyp_items, ref_items)
            lengths = {len(x) for x in (*hyp_items, *ref_items)}
            if len(lengths) > 1:
                raise self._count_error(hyp_items, ref_items, start)
            n = lengths.pop()
            if n == 0:
                self._final_warnings()
                return
            hyps, refs = self._assemble(hyp_items, ref_items, start)
            for k, lines in enumerate(hyps):
                self.tokenized_lines[k] += count_tokenized_periods(lines, strip_line_ends=True)  # as sacreBLEU's command
            self.segments += n
            yield hyps, refs
            start += n
            for src in (*self.hyps, *self.refs):
                src.taken += n
            if n < size:
                self._final_warnings()
                return

    # -- a count made without this reader --------------------------------------------------------------
    def plain_text_paths(self) -> tuple[list[str], list[str]] | None:
        """``(hypothesis files, reference files)`` when every input is a plain text file read as UTF-8 (one
        segment a line: no TSV or JSON Lines, no standard input, uncompressed, a regular file, no byte order
        mark): what a metric's own file reader may count (:func:`bleuscope.core.chunks.count_files`); None
        otherwise."""
        sources = (*self.hyps, *self.refs)
        if not self.refs or any(src.kind != "text" for src in sources):
            return None
        from pathlib import Path

        paths = core_chunks.plain_text_paths(
            [Path(src.path) for src in self.hyps], [Path(src.path) for src in self.refs], self.args.encoding
        )
        if paths is None:
            return None
        for src in sources:  # the reader warns about a byte order mark: leave such files to it
            head = _head_bytes(src.path, len(codecs.BOM_UTF8))
            if head is None or head.startswith(codecs.BOM_UTF8):
                return None
        return paths

    def counted_elsewhere(self, segments: int, tokenized_lines: list[int]) -> None:
        """Records what a count of :meth:`plain_text_paths` made without this reader learnt (the segments and
        each system's lines ending in " ." after ``str.rstrip()``) and gives the final warnings."""
        self.segments = segments
        self.tokenized_lines = list(tokenized_lines)
        self._final_warnings()

    def _assemble(self, hyp_items, ref_items, start: int):
        args = self.args
        if not args.hyp_field:
            hyps = hyp_items
        else:
            hyps = [[record[0] for record in items] for items in hyp_items]
        refs: list[list[str | None]] = []
        if args.hyp_field_refs:
            rows = [bio.join_reference_fields(record[1:]) for record in hyp_items[0]]
            for s, items in enumerate(hyp_items[1:], 1):
                for i, (row, record) in enumerate(zip(rows, items)):
                    if bio.join_reference_fields(record[1:]) != row:
                        raise InputError(
                            f"{self.hyp_names[s]}:{start + i + 1}: the references differ from those in "
                            f"{self.hyp_names[0]}; systems must be scored against the same references"
                        )
            _check_every_segment_has_reference(rows, self.hyp_names[0], start)
            refs = bio.ref_streams(rows)
        else:
            for src, items in zip(self.refs, ref_items):
                if src.kind == "text":
                    refs.append(items)
                elif src.kind == "tsv":
                    refs.extend(list(column) for column in zip(*items))
                else:
                    rows = [bio.join_reference_fields(record) for record in items]
                    _check_every_segment_has_reference(rows, src.name, start)
                    refs.extend(bio.ref_streams(rows))
        return hyps, refs

    def _with_reference_encoding(self, error: InputError) -> InputError:
        """A hypothesis that is invalid in the ``--encoding`` given: name the references that are not in that
        encoding either (it applies to every input file, and they are read after the hypotheses)."""
        encoding = self.args.encoding
        if encoding in ("utf-8", "utf-8-sig") or "invalid" not in str(error):
            return error
        wrong, utf8 = [], []
        for src in self.refs:
            if src.path == bio.STDIN:
                continue
            head = _head_bytes(src.path)
            if head is None or _decodes(head, encoding):
                continue
            wrong.append(src.name)
            if _decodes(head, "utf-8"):
                utf8.append(src.name)
        if not wrong:
            return error
        one = len(wrong) == 1
        note = f"; the reference{'' if one else 's'} {', '.join(wrong)} {'is' if one else 'are'} not {encoding} either"
        if utf8:
            note += f" ({', '.join(utf8)} {'looks' if len(utf8) == 1 else 'look'} like UTF-8)"
        return InputError(f"{error}{note}: --encoding applies to every input file")

    def _check_not_empty(self, hyp_items, ref_items) -> None:
        args = self.args
        for name, items in zip(self.hyp_names, hyp_items):
            if not items:
                hint = ""
                if name == "<stdin>" and args.references is not None:
                    hint = f" (note: -r took {' '.join(args.references)} as references; put hypothesis files before -r)"
                raise InputError(f"{name}: empty input, no hypothesis lines{hint}")
        for src, items in zip(self.refs, ref_items):
            if not items:
                raise InputError(f"{src.name}: empty input, no reference lines")

    def _count_error(self, hyp_items, ref_items, start: int) -> InputError:
        """Different line counts: count on in each longer input (reading only, at most
        :data:`MISMATCH_COUNT_LINES` lines past the chunk where the counts parted) to say how many lines each has."""
        sources, chunks = (*self.hyps, *self.refs), (*hyp_items, *ref_items)
        counts: list[int] = [0] * len(sources)
        empties = [False] * len(sources)
        shortest = min(len(x) for x in chunks)
        # files first, to their end or the bound; then streams that may never end (a pipe from `yes`) only as
        # far as needed to show they are longer than the longest file
        regular = [src.is_regular_file() for src in sources]
        for final_pass in (False, True):
            longest = max((counts[k] for k in range(len(sources)) if regular[k]), default=0)
            for k, (src, items) in enumerate(zip(sources, chunks)):
                if regular[k] == final_pass:
                    continue
                read = start + len(items)
                limit = MISMATCH_COUNT_LINES if regular[k] else max(longest - read, 0) + 1
                rest, rest_empty = src.count_rest(limit)
                counts[k] = read + rest
                empties[k] = rest_empty and all(item == "" for item in items[shortest:])
                if rest == limit:  # stopped before the end
                    counts[k], empties[k] = _AtLeast(counts[k]), False
        n_sys = len(self.hyps)
        hyp_counts, ref_counts = counts[:n_sys], counts[n_sys:]
        hyp_empty, ref_empty = empties[:n_sys], empties[n_sys:]
        if not ref_counts:  # references from the hypothesis JSON Lines: systems against the first one
            ref_counts, ref_empty, ref_names = hyp_counts[:1], hyp_empty[:1], self.hyp_names[:1]
        else:
            ref_names = self.ref_names
        for k in range(1, len(ref_counts)):
            if ref_counts[k] != ref_counts[0]:
                return InputError(
                    _count_message(
                        "reference",
                        ref_names[k],
                        ref_counts[k],
                        ref_empty[k],
                        "reference",
                        ref_names[0],
                        ref_counts[0],
                        ref_empty[0],
                    )
                )
        for k, (name, n) in enumerate(zip(self.hyp_names, hyp_counts)):
            if n != ref_counts[0]:
                msg = _count_message(
                    "hypothesis", name, n, hyp_empty[k], "reference", ref_names[0], ref_counts[0], ref_empty[0]
                )
                odd_one_out = n_sys > 1 and all(c == ref_counts[0] for j, c in enumerate(hyp_counts) if j != k)
                if _looks_like_reference(name) or odd_one_out:
                    which = f" (system {k + 1} of {n_sys})" if n_sys > 1 else ""
                    msg += (
                        f"; is {name} a reference file? It was read as a hypothesis{which}: references go "
                        "before -i (sacreBLEU order) or after -r"
                    )
                return InputError(msg)
        return InputError("line counts differ between the input files")  # pragma: no cover - found above

    def _final_warnings(self) -> None:
        warn = self.warn
        if warn is None:
            return
        for name in self.hyp_names:
            if name in self.ref_names:
                warn(f"{name} is both a hypothesis and a reference")
        if not self.args.force and not self.args.quiet:
            for name, n_tok in zip(self.hyp_names, self.tokenized_lines):
                if n_tok >= TOKENIZED_WARN_LINES:
                    warn(
                        f"{name}: {n_tok} lines end in ' .' - is it tokenized? BLEU expects detokenized text "
                        "(--force silences this)"
                    )


def _head_bytes(path: str, size: int = 1 << 16) -> bytes | None:
    """The first ``size`` (decompressed) bytes of a file; None when it cannot be read."""
    try:
        stream = bio.open_binary(path)
    except InputError:
        return None
    try:
        return stream.read(size)
    except (OSError, EOFError, ValueError):
        return None
    finally:
        stream.close()


def _decodes(data: bytes, encoding: str) -> bool:
    """Whether ``data`` (possibly cut inside a character at the end) is valid in ``encoding``."""
    try:
        codecs.getincrementaldecoder(encoding)(errors="strict").decode(data, final=False)
    except UnicodeError:
        return False
    return True


def _check_every_segment_has_reference(rows: list[list[str | None]], name: str, start: int) -> None:
    """Per-segment reference lists (JSON Lines): each segment needs at least one reference."""
    i = bio.first_row_without_reference(rows)
    if i is not None:
        raise InputError(f"{name}:{start + i + 1}: this segment has no reference (an empty list or null)")


def _count_message(kind_a, name_a, na, empty_a, kind_b, name_b, nb, empty_b) -> str:
    longer_name, longer_empty = (name_a, empty_a) if na > nb else (name_b, empty_b)
    first_extra = min(na, nb) + 1
    unread = " and was not read to its end" if isinstance(na if na > nb else nb, _AtLeast) else ""
    msg = (
        f"line counts differ: {kind_a} {name_a} has {na} lines but {kind_b} {name_b} has {nb}; "
        f"{longer_name}:{first_extra} has no counterpart (nothing is truncated{unread})"
    )
    if longer_empty:
        msg += f"; the {abs(na - nb)} extra line(s) at the end of {longer_name} are empty"
    return msg


def _looks_like_reference(name: str) -> bool:
    base = os.path.basename(name).lower()
    return base.startswith("ref") or ".ref" in base or "reference" in base


def load_inputs(args: argparse.Namespace, warn=None) -> Inputs:
    """All of the input in memory, checked as :meth:`InputFiles.chunks` checks it."""
    streams = InputFiles(args, warn)
    hyps: list[list[str]] = [[] for _ in streams.hyps]
    refs: list[list[str | None]] = []
    seen = 0
    for chunk_hyps, chunk_refs in streams.chunks():
        for all_lines, lines in zip(hyps, chunk_hyps):
            all_lines.extend(lines)
        n = len(chunk_hyps[0])
        while len(refs) < len(chunk_refs):  # a JSON Lines chunk with more references per segment than before
            refs.append([None] * seen)
        for k, stream in enumerate(refs):
            stream.extend(chunk_refs[k] if k < len(chunk_refs) else [None] * n)
        seen += n
    ref_names = list(streams.ref_names)
    ref_names += [ref_names[-1]] * (len(refs) - len(ref_names))
    return Inputs(hyp_names=list(streams.hyp_names), hyps=hyps, refs=refs, ref_names=ref_names)
