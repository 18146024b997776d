"""Hypothesis/reference pairs stored as Parquet or JSON Lines shards, read lazily, shard by shard.

Both the local path (``bleuscope`` without ``--ray``) and the Ray workers (:mod:`bleuscope.runtime.ray`) read
shards with these functions, so a shard is checked the same way everywhere: every shard must have the
hypothesis field and every reference field, with text values, or the error names the shard (and the row or
line). Readers never unify schemas across shards: a shard without the reference column is an error, not a
column of nulls (which is what Ray Data's own readers produce).

Fields:

* the hypothesis field holds a string per row;
* each reference field holds a string, a null (no reference) or a list of strings/nulls (several references)
  per row; the references of a row are those of all reference fields, in order. Every row needs at least one.

Statistics of a chunk are the metric's own ``segment_statistics``; their column sums and three counters
(segments, sum and sum of squares of the reference counts) make a :class:`~bleuscope.core.stats.Totals`, which adds up
exactly across chunks, shards, processes or machines.

Parquet needs ``pyarrow`` (``pip install "bleuscope[parquet]"``), imported when a Parquet shard is read.
"""

from __future__ import annotations

import glob
import os
from collections.abc import Iterator
from dataclasses import dataclass, field

from ..core.chunks import CHUNK_SEGMENTS
from ..core.files import (
    InputError,
    first_row_without_reference,
    join_reference_fields,
    jsonl_record,
    read_lines,
    ref_streams,
)
from ..core.stats import Totals
from ..metrics.base import Metric, check_metric
from ..tokenizers.language import MissingExtraError

PARQUET_SUFFIXES = (".parquet", ".pq")
JSONL_SUFFIXES = tuple(f"{name}{packed}" for name in (".jsonl", ".ndjson", ".json") for packed in ("", ".gz", ".xz", ".bz2"))


class ShardError(InputError):
    """A shard cannot be scored: its message names the shard (and the row or line where there is one)."""


def import_pyarrow():
    """``pyarrow`` (and ``pyarrow.parquet``), or :class:`MissingExtraError` with the install line."""
    try:
        import pyarrow
        import pyarrow.parquet  # noqa: F401
    except ImportError:
        raise MissingExtraError(
            'reading Parquet shards needs pyarrow: pip install "bleuscope[parquet]"'
        ) from None
    return pyarrow


# -- which shards -----------------------------------------------------------------------------------------
def shard_format(path: str) -> str:
    """``"parquet"`` or ``"jsonl"`` from the file name."""
    lower = str(path).lower()
    if lower.endswith(PARQUET_SUFFIXES):
        return "parquet"
    if lower.endswith(JSONL_SUFFIXES):
        return "jsonl"
    raise ShardError(
        f"{path}: unknown shard format; name Parquet shards *.parquet and JSON Lines shards *.jsonl "
        "(or *.ndjson, *.json, optionally compressed: .gz, .xz, .bz2)"
    )


def expand_shards(inputs) -> list[str]:
    """The shard paths of ``inputs`` (a path, a glob or a list of them), each pattern's matches sorted;
    a pattern that matches nothing or a path that does not exist is an error, and no shard is read twice."""
    if isinstance(inputs, (str, os.PathLike)):
        inputs = [inputs]
    try:
        items = [os.fspath(x) for x in inputs]
    except TypeError:
        raise TypeError(f"shards must be a path, a glob or a list of them, got {inputs!r}") from None
    if not items:
        raise ValueError("no shards given")
    paths: list[str] = []
    for item in items:
        if glob.has_magic(item):
            matches = sorted(p for p in glob.glob(item, recursive=True) if os.path.isfile(p))
            if not matches:
                raise ShardError(f"{item}: no file matches this pattern")
        elif os.path.isdir(item):
            matches = sorted(
                os.path.join(item, name) for name in os.listdir(item)
                if name.lower().endswith(PARQUET_SUFFIXES + JSONL_SUFFIXES)
            )
            if not matches:
                raise ShardError(f"{item}: directory holds no *.parquet or *.jsonl shard")
        elif os.path.isfile(item):
            matches = [item]
        else:
            raise ShardError(f"{item}: no such file")
        paths.extend(matches)
    seen: set[str] = set()
    unique = []
    for p in paths:
        key = os.path.realpath(p)
        if key in seen:
            raise ShardError(f"{p}: given twice (the same shard would be counted twice)")
        seen.add(key)
        unique.append(p)
    for p in unique:
        shard_format(p)
    return unique


def ref_field_list(ref_field) -> list[str]:
    """One reference field name or a list of them, as a list."""
    fields = [ref_field] if isinstance(ref_field, str) else list(ref_field)
    if not fields or not all(isinstance(f, str) and f for f in fields):
        raise ValueError(f"ref_field must be a column name or a list of column names, got {ref_field!r}")
    return fields


# -- one chunk of pairs -----------------------------------------------------------------------------------
@dataclass
class ShardChunk:
    """Consecutive rows of one shard: hypotheses and per-row reference lists, from row ``first_row``; it hands
    the metric what :func:`bleuscope.core.chunks.iter_chunks` hands it (hypotheses and reference streams), and
    knows its place in the shard (for messages) and, for Parquet, the Arrow rows it came from."""

    path: str
    first_row: int
    hyps: list[str]
    refs: list[list[str | None]]  # per row
    table: object = None  # the Parquet record batch the rows came from (all columns), when asked for
    ref_values: dict = field(default_factory=dict)  # JSON Lines: each reference field's values as read

    def where(self, i: int) -> str:
        """``path:line`` for JSON Lines, ``path: row N`` (counting from 0) for Parquet."""
        row = self.first_row + i
        if shard_format(self.path) == "jsonl":
            return f"{self.path}:{row + 1}"
        return f"{self.path}: row {row} (counting from 0)"

    def span(self) -> str:
        """The chunk's rows (Parquet) or lines (JSON Lines) in its shard."""
        last = self.first_row + len(self.hyps) - 1
        if shard_format(self.path) == "jsonl":
            return f"{self.path}: lines {self.first_row + 1}-{last + 1}"
        return f"{self.path}: rows {self.first_row}-{last} (counting from 0)"

    def streams(self) -> list[list[str | None]]:
        """Reference streams ``refs[k][i]`` (``None`` where a row has fewer references)."""
        return ref_streams(self.refs)


def row_refs(values: list, name: str, where) -> list[list[str | None]]:
    """Per-row reference lists of one reference field's values (a string, a null or a list of them per row)."""
    out = []
    for i, v in enumerate(values):
        if isinstance(v, str) or v is None:
            out.append([v])
        elif isinstance(v, list) and all(isinstance(x, str) or x is None for x in v):
            out.append(v)
        else:
            raise ShardError(f"{where(i)}: reference field {name!r} must be a string, null or a list of strings, "
                             f"found {type(v).__name__}")
    return out


def merge_refs(columns: list[list[list[str | None]]]) -> list[list[str | None]]:
    """Per-row references of several reference fields, concatenated field by field."""
    if len(columns) == 1:
        return columns[0]
    return [join_reference_fields(list(parts)) for parts in zip(*columns)]


def check_chunk(chunk: ShardChunk) -> None:
    """Every row has a hypothesis string and at least one reference."""
    for i, h in enumerate(chunk.hyps):
        if not isinstance(h, str):
            raise ShardError(f"{chunk.where(i)}: the hypothesis is {'null' if h is None else type(h).__name__}, "
                             "not a string")
    missing = first_row_without_reference(chunk.refs)
    if missing is not None:
        raise ShardError(f"{chunk.where(missing)}: the row has no reference (every reference field is null or empty)")


# -- Arrow columns ----------------------------------------------------------------------------------------
def arrow_text_kind(type_) -> str | None:
    """``"text"`` for string columns, ``"list"`` for lists of strings, ``"null"`` for an all-null column,
    else ``None``."""
    pa = import_pyarrow()
    t = pa.types
    if t.is_string(type_) or t.is_large_string(type_) or getattr(t, "is_string_view", lambda _: False)(type_):
        return "text"
    if t.is_null(type_):
        return "null"
    if (t.is_list(type_) or t.is_large_list(type_) or getattr(t, "is_list_view", lambda _: False)(type_)
            or getattr(t, "is_large_list_view", lambda _: False)(type_)):
        if arrow_text_kind(type_.value_type) in ("text", "null"):
            return "list"
    return None


def check_arrow_fields(schema, hyp_field: str, ref_fields: list[str], where: str) -> None:
    """The hypothesis and reference columns exist in ``schema`` with text types, or ShardError."""
    names = list(schema.names)
    for name, kind in [(hyp_field, "hypothesis")] + [(r, "reference") for r in ref_fields]:
        if name not in names:
            shown = ", ".join(map(repr, names[:12])) + (", ..." if len(names) > 12 else "")
            option = "hyp_field / --hyp-field" if kind == "hypothesis" else "ref_field / --ref-field"
            raise ShardError(f"{where}: no column {name!r} ({option}); the shard has: {shown or 'no columns'}")
        found = arrow_text_kind(schema.field(name).type)
        allowed = ("text",) if kind == "hypothesis" else ("text", "list", "null")
        if found not in allowed:
            want = "strings" if kind == "hypothesis" else "strings or lists of strings"
            raise ShardError(f"{where}: {kind} column {name!r} has type {schema.field(name).type}, expected {want}")


def arrow_chunk(table, path: str, first_row: int, hyp_field: str, ref_fields: list[str], *, keep_table=False
                ) -> ShardChunk:
    """A :class:`ShardChunk` from an Arrow table or record batch (string, large_string and list columns)."""
    check_arrow_fields(table.schema, hyp_field, ref_fields, path)
    hyps = table.column(hyp_field).to_pylist()
    chunk = ShardChunk(path, first_row, hyps, [], table if keep_table else None)
    chunk.refs = merge_refs([row_refs(table.column(r).to_pylist(), r, chunk.where) for r in ref_fields])
    check_chunk(chunk)
    return chunk


# -- readers ----------------------------------------------------------------------------------------------
def _parquet_chunks(path, hyp_field, ref_fields, chunk_rows, keep_columns) -> Iterator[ShardChunk]:
    import_pyarrow()
    import pyarrow.parquet as pq

    try:
        pf = pq.ParquetFile(path)
    except Exception as e:  # pyarrow raises ArrowInvalid / OSError for a file that is not Parquet
        raise ShardError(f"{path}: cannot read as Parquet: {e}") from None
    check_arrow_fields(pf.schema_arrow, hyp_field, ref_fields, path)
    columns = None if keep_columns else list(dict.fromkeys([hyp_field, *ref_fields]))
    row = 0
    try:
        batches = pf.iter_batches(batch_size=chunk_rows, columns=columns)
        for batch in batches:
            yield arrow_chunk(batch, path, row, hyp_field, ref_fields, keep_table=keep_columns)
            row += batch.num_rows
    except ShardError:
        raise
    except Exception as e:
        raise ShardError(f"{path}: reading failed after {row} rows: {e}") from None


def _jsonl_chunks(path, hyp_field, ref_fields, chunk_rows) -> Iterator[ShardChunk]:
    fields = [(hyp_field, "hyp")] + [(r, "ref") for r in ref_fields]
    hyps: list = []
    raw: dict = {r: [] for r in ref_fields}
    first = 0
    try:
        for lineno, line in enumerate(read_lines(path), 1):
            hyp, *refs = jsonl_record(line, fields, path, lineno)
            hyps.append(hyp)
            for r, value in zip(ref_fields, refs):
                raw[r].append(value)
            if len(hyps) == chunk_rows:
                yield _jsonl_chunk(path, first, hyps, raw, ref_fields)
                first += len(hyps)
                hyps, raw = [], {r: [] for r in ref_fields}
    except InputError as e:
        if isinstance(e, ShardError):
            raise
        raise ShardError(str(e)) from None
    if hyps:
        yield _jsonl_chunk(path, first, hyps, raw, ref_fields)


def _jsonl_chunk(path, first, hyps, raw, ref_fields) -> ShardChunk:
    chunk = ShardChunk(path, first, hyps, merge_refs([raw[r] for r in ref_fields]), ref_values=raw)
    check_chunk(chunk)
    return chunk


def iter_shard(path, hyp_field: str, ref_field, *, chunk_rows: int = CHUNK_SEGMENTS, keep_columns: bool = False
               ) -> Iterator[ShardChunk]:
    """The rows of one shard in chunks of at most ``chunk_rows``; ``keep_columns`` (Parquet) keeps every
    column of the shard in ``chunk.table``."""
    path = os.fspath(path)
    ref_fields = ref_field_list(ref_field)
    if not isinstance(hyp_field, str) or not hyp_field:
        raise ValueError(f"hyp_field must be a column name, got {hyp_field!r}")
    if isinstance(chunk_rows, bool) or not isinstance(chunk_rows, int) or chunk_rows < 1:
        raise ValueError(f"chunk_rows must be a positive integer, got {chunk_rows!r}")
    if not os.path.isfile(path):
        raise ShardError(f"{path}: no such file")
    if shard_format(path) == "parquet":
        yield from _parquet_chunks(path, hyp_field, ref_fields, chunk_rows, keep_columns)
    else:
        yield from _jsonl_chunks(path, hyp_field, ref_fields, chunk_rows)


def chunk_statistics(metric, chunk: ShardChunk):
    """``metric.segment_statistics`` of a chunk; an error names the shard and, where it can, the row."""
    try:
        return metric.segment_statistics(chunk.hyps, chunk.streams())
    except Exception as e:
        raise ShardError(f"{chunk.span()}: {type(e).__name__}: {e}") from e


def shard_totals(metric, path, hyp_field: str, ref_field, *, chunk_rows: int = CHUNK_SEGMENTS) -> Totals:
    """Summed statistics of one shard."""
    total = None
    for chunk in iter_shard(path, hyp_field, ref_field, chunk_rows=chunk_rows):
        part = Totals.of(chunk_statistics(metric, chunk))
        total = part if total is None else total + part
    if total is None:
        total = Totals.zeros(metric.stats_width)
    return total


def default_metric(metric) -> Metric:
    """``metric`` checked to be a :class:`~bleuscope.metrics.base.Metric`, or ``BLEU()`` for None."""
    if metric is None:
        from ..metrics.bleu.scorer import BLEU

        return BLEU()
    return check_metric(metric)


def corpus_totals_shards(shards, metric=None, *, hyp_field: str = "hyp", ref_field="ref",
                         chunk_rows: int = CHUNK_SEGMENTS) -> Totals:
    """Summed statistics of every shard of ``shards`` (paths, globs), read here, one shard after another."""
    metric = default_metric(metric)
    total = None
    for path in expand_shards(shards):
        part = shard_totals(metric, path, hyp_field, ref_field, chunk_rows=chunk_rows)
        total = part if total is None else total + part
    assert total is not None, "expand_shards gives at least one shard"
    return total


def corpus_score_shards(shards, metric=None, *, hyp_field: str = "hyp", ref_field="ref",
                        chunk_rows: int = CHUNK_SEGMENTS):
    """Corpus score of Parquet / JSON Lines shards read locally in bounded memory (no Ray)."""
    metric = default_metric(metric)
    return corpus_totals_shards(shards, metric, hyp_field=hyp_field, ref_field=ref_field,
                                chunk_rows=chunk_rows).score(metric)


__all__ = [
    "ShardChunk",
    "ShardError",
    "corpus_score_shards",
    "corpus_totals_shards",
    "expand_shards",
    "iter_shard",
    "shard_format",
    "shard_totals",
]
