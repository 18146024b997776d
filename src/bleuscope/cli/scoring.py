"""Scores of every system, chunk by chunk as the inputs stream in, with a progress line on a terminal."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice
from typing import TYPE_CHECKING

import numpy as np

from ..core import chunks as core_chunks
from ..core import files as bio
from ..core.checks import warn_if_mostly_cjk
from ..core.files import InputError
from ..core.signature import nrefs_field
from ..tokenizers.language import CJK_BLIND_TOKENIZERS
from .inputs import CHUNK_SEGMENTS, InputFiles, load_inputs
from .metrics import target_language
from .progress import PROGRESS_MIN_SEGMENTS, Progress, isatty
from .render import MetricResults

if TYPE_CHECKING:
    from ..metrics.base import Metric, ScoreText


@dataclass
class SystemResult:
    name: str
    stats: np.ndarray  # per-segment statistics [S, columns] (int32 when they fit), or their int64 sum [1, columns]
    nrefs: str  # signature value: a count or "var"
    score: ScoreText  # the metric's corpus score (BLEUScore for BLEU)


def chunk_statistics_of_systems(
    scorer: Metric, hyps: list[list[str]], refs: list[list[str | None]]
) -> tuple[list[np.ndarray], np.ndarray]:
    """Per-segment statistics of every system on one chunk, and the bool ``[S, K]`` of the references
    present: the metric's input checks (and warnings) of every system with the references checked once,
    then the systems counted together against them (BLEU: each reference tokenized once)."""
    try:
        systems, streams, present = scorer.check_systems(hyps, refs)
        return scorer.counter.systems(systems, streams, present), present
    except (ValueError, TypeError) as e:  # the library's validation of what the readers let through
        raise InputError(str(e)) from None


def give_input_notes(scorer: Metric, refs: Sequence, args: argparse.Namespace, warn) -> None:
    """What a reader of the scores should know about the input (``Metric.input_notes`` of the reference
    streams ``refs[k][i]`` and the target language of ``-l``; TER: a Chinese, Japanese or Korean target
    without ``--ter-asian-support``), as the command's input warnings on stderr."""
    if warn is None:
        return
    for note in scorer.input_notes(refs, target_language(args)):
        warn(note)


class ReadWhenAsked(Sequence):
    """A list that ``load()`` gives when an item or the length is first asked for: input that only a metric
    with :meth:`Metric.input_notes` reads (the first lines of a reference file the compiled core read by
    itself, the first rows of a shard), so a metric without notes never reads it again."""

    def __init__(self, load) -> None:
        self._load = load
        self._items: list | None = None

    def _read(self) -> list:
        if self._items is None:
            self._items = self._load()
        return self._items

    def __getitem__(self, index):
        return self._read()[index]

    def __len__(self) -> int:
        return len(self._read())


def file_head(path: str, size: int, max_line_bytes: int) -> list[str]:
    """The first ``size`` lines of a plain UTF-8 text file."""
    lines = bio.read_lines(path, max_line_bytes=max_line_bytes)
    try:
        return list(islice(lines, size))
    finally:
        lines.close()


def compact_rows(stats: np.ndarray) -> np.ndarray:
    """Per-segment rows in the smallest of int16 and int32 that holds every value (the counts of one line
    nearly always fit int16): a quarter of the memory of a million lines' int64 rows; numpy sums small
    signed integers into int64."""
    if stats.dtype != np.int64 or not stats.size:
        return stats
    low, high = int(stats.min()), int(stats.max())
    for dtype in (np.int16, np.int32):
        info = np.iinfo(dtype)
        if info.min <= low and high <= info.max:
            return stats.astype(dtype)
    return stats


#: segments per chunk while the per-segment rows are kept (significance tests on large files): smaller
#: chunks keep less text in memory next to the growing rows
KEPT_ROWS_CHUNK_SEGMENTS = 10_000


def score_systems(
    scorer,
    args: argparse.Namespace,
    warn=None,
    *,
    keep_segments: bool = False,
    chunk_segments: int | None = None,
    progress: Progress | None = None,
    score_needs_rows: bool = True,
) -> list[SystemResult]:
    """Corpus scores of every system, streaming the inputs; ``keep_segments`` keeps the per-segment statistics
    (``-sl``), otherwise only their running sums are kept. ``score_needs_rows=False``: the corpus score is a
    function of the column sums, computed from them even when the rows are kept."""
    if chunk_segments is None:
        chunk_segments = KEPT_ROWS_CHUNK_SEGMENTS if keep_segments else CHUNK_SEGMENTS
    streams = InputFiles(args, warn)
    n_sys = len(streams.hyps)
    if progress is None:
        progress = Progress(
            None, sys.stderr, enabled=not args.quiet and isatty(sys.stderr), min_segments=PROGRESS_MIN_SEGMENTS
        )
    if not keep_segments and not score_needs_rows:
        counted = count_files_in_core(scorer, streams, args, chunk_segments)
        if counted is not None:
            progress.update(streams.segments * n_sys, f"{n_sys} systems" if n_sys > 1 else streams.hyp_names[0])
            progress.close()
            nref = nrefs_field([len(streams.refs)])
            return [
                SystemResult(name=name, stats=row, nrefs=nref, score=scorer.score_from_statistics(row, nref))
                for name, row in zip(streams.hyp_names, counted)
            ]
    parts: list[list[np.ndarray]] = [[] for _ in range(n_sys)]
    sums: list[np.ndarray | None] = [None] * n_sys
    ref_counts: set[int] = set()
    for hyps, refs in streams.chunks(chunk_segments):
        rows, present = chunk_statistics_of_systems(scorer, hyps, refs)
        if not ref_counts:  # the first chunk
            give_input_notes(scorer, refs, args, warn)
        ref_counts.update(np.unique(present.sum(axis=1)).tolist())
        for k, stats in enumerate(rows):
            if keep_segments:
                parts[k].append(stats if args.sentence_level else compact_rows(stats))  # -sl scores the int64 rows
            row = stats.sum(axis=0, keepdims=True)
            sums[k] = row if sums[k] is None else sums[k] + row
        progress.update(len(hyps[0]) * n_sys, f"{n_sys} systems" if n_sys > 1 else streams.hyp_names[0])
    progress.close()
    nref = nrefs_field(sorted(ref_counts))
    results = []
    for k, name in enumerate(streams.hyp_names):
        total = sums[k]
        assert total is not None  # every system had a chunk: the readers refuse input without segments
        stats = (np.concatenate(parts[k]) if len(parts[k]) > 1 else parts[k][0]) if keep_segments else total
        parts[k] = []  # the chunks are in ``stats`` now
        results.append(
            SystemResult(name=name, stats=stats, nrefs=nref,
                         score=scorer.score_from_statistics(stats if score_needs_rows else total, nref))
        )
    return results


def count_files_in_core(
    scorer: Metric, streams: InputFiles, args: argparse.Namespace, chunk_segments: int
) -> list[np.ndarray] | None:
    """Each system's summed statistics row ``[1, columns]``, counted by the metric's own file reader
    (:func:`bleuscope.core.chunks.count_files`, the library's: BLEU's compiled core reads the reference
    files once for all systems, without a Python string per line) when every input is a plain UTF-8 text
    file, with the warnings the chunk loop gives; None when the metric has no such reader, or it stopped
    at a problem: the chunk loop then reads the files, and names the problem as it always does."""
    if not scorer.counter.reads_files:
        return None
    paths = streams.plain_text_paths()
    if paths is None:
        return None
    name = scorer.input_warning_tokenizer
    # the CJK check the chunk loop makes on every chunk of every system, on the samples the reader kept
    sample_segments = chunk_segments if name in CJK_BLIND_TOKENIZERS else 0
    counted = core_chunks.count_files(
        scorer, *paths, max_line_bytes=args.max_line_bytes, strip_line_ends=True, sample_segments=sample_segments
    )
    if counted is None:
        return None
    for system_samples in counted.samples:
        for sample in system_samples:
            warn_if_mostly_cjk(name, [sample])
    heads = [  # the first chunk of each reference file
        ReadWhenAsked(lambda path=path: file_head(path, chunk_segments, args.max_line_bytes)) for path in paths[1]
    ]
    give_input_notes(scorer, heads, args, streams.warn)
    streams.counted_elsewhere(counted.segments, counted.tokenized_periods)
    return [row.reshape(1, -1) for row in counted.totals]


def score_metrics(
    specs: list, scorers: list, args: argparse.Namespace, warn=None, *, keep_segments: bool = False
) -> list[MetricResults]:
    """Scores of every system for every metric (``specs``: registry rows, ``scorers`` their scorers).

    The files are streamed once per metric, keeping only the running sums unless the sentence scores
    (``-sl``), the significance tests (``keep_segments``) or the metric's corpus score (``keep_segment_rows``)
    need the per-segment rows. Standard input
    can be read only once: with several metrics it is read into memory and every metric counts it there."""
    table = []
    if len(scorers) == 1 or bio.STDIN not in (*args.hyp_paths, *args.ref_paths):
        for spec, scorer in zip(specs, scorers):
            keep = keep_segments or args.sentence_level or spec.keep_segment_rows
            results = score_systems(scorer, args, warn, keep_segments=keep, score_needs_rows=spec.keep_segment_rows)
            table.append(MetricResults(spec, scorer, results))
        return table
    inputs = load_inputs(args, warn)
    for spec, scorer in zip(specs, scorers):
        give_input_notes(scorer, inputs.refs, args, warn)
        results = []
        for name, hyps in zip(inputs.hyp_names, inputs.hyps):
            try:
                seg = scorer.segment_statistics(hyps, inputs.refs)
            except (ValueError, TypeError) as e:  # the library's validation of what the readers let through
                raise InputError(str(e)) from None
            nrefs = nrefs_field(seg.nrefs)
            results.append(SystemResult(name, seg.stats, nrefs, scorer.score_from_statistics(seg.stats, nrefs)))
        table.append(MetricResults(spec, scorer, results))
    return table
