"""Scores of every system, chunk by chunk as the inputs stream in, with a progress line on a terminal."""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass

import numpy as np

from ..core.files import InputError
from ..core.signature import nrefs_field
from .inputs import CHUNK_SEGMENTS, InputStreams

#: a progress line appears on a terminal once this many hypothesis segments (all systems together) are scored
PROGRESS_MIN_SEGMENTS = 200_000


class Progress:
    """A minimal progress line on a terminal stream (no dependency); silent when disabled.

    ``total`` may be ``None`` (streamed input of unknown length): the line then shows the count and the rate.
    Nothing is shown before ``min_segments`` are done, so short runs print nothing."""

    def __init__(
        self,
        total: int | None,
        stream=None,
        enabled: bool = True,
        min_interval: float = 0.1,
        min_segments: int = 0,
        unit: str = "segments",
    ) -> None:
        self.total = total
        self.unit = unit
        self.stream = stream
        self.enabled = enabled and stream is not None
        self.done = 0
        self.start = time.monotonic()
        self._last = 0.0
        self._shown = False
        self.min_interval = min_interval
        self.min_segments = min_segments
        self.label = ""

    def update(self, n: int, label: str | None = None) -> None:
        self.done += n
        if label is not None:
            self.label = label
        if not self.enabled or self.done < self.min_segments:
            return
        now = time.monotonic()
        if now - self._last < self.min_interval and (self.total is None or self.done < self.total):
            return
        self._last = now
        self._shown = True
        elapsed = now - self.start
        if self.total:
            frac = min(1.0, self.done / self.total)
            bar = "#" * int(frac * 30)
            text = f"{bar:<30} {frac * 100:5.1f}% {self.done}/{self.total} {self.unit}"
        else:
            rate = self.done / elapsed if elapsed > 0 else 0.0
            text = f"{self.done:,} {self.unit} ({rate:,.0f}/s)"
        self.stream.write(f"\rbleuscope: {text} {elapsed:5.1f}s {self.label[:40]}\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled and self._shown:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


@dataclass
class SystemResult:
    name: str
    stats: np.ndarray  # int64 per-segment statistics [S, columns], or their sum [1, columns] (corpus only)
    nrefs: str  # signature value: a count or "var"
    score: object  # the metric's corpus score (BLEUScore for BLEU)


def chunk_statistics(scorer, hyps: list[list[str]], refs: list[list[str | None]]) -> list[np.ndarray]:
    """Per-segment statistics of every system on one chunk.

    A scorer with ``check_inputs`` / ``count_checked`` keeps its tokenization cache from chunk to chunk (each
    distinct word is tokenized once per run, not once per chunk); otherwise several systems share one encoding
    of the references (``bleuscope.analysis.significance.system_statistics``)."""
    try:
        check, count = getattr(scorer, "check_inputs", None), getattr(scorer, "count_checked", None)
        if check is not None and count is not None:
            out = []
            for system in hyps:
                checked, streams, _present = check(system, refs)
                out.append(count(checked, streams))
            return out
        if len(hyps) > 1 and getattr(scorer, "stats_order", None) == getattr(scorer, "max_ngram_order", None):
            from ..analysis.significance import system_statistics

            return [seg.stats for seg in system_statistics(scorer, hyps, refs)]
        return [scorer.segment_statistics(h, refs).stats for h in hyps]
    except (ValueError, TypeError) as e:  # the library's validation of what the readers let through
        raise InputError(str(e)) from None


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def score_systems(
    scorer,
    args: argparse.Namespace,
    warn=None,
    *,
    keep_segments: bool = False,
    chunk_segments: int = CHUNK_SEGMENTS,
    progress: Progress | None = None,
) -> list[SystemResult]:
    """Corpus scores of every system, streaming the inputs; ``keep_segments`` keeps the per-segment statistics
    (``-sl``), otherwise only their running sums are kept."""
    streams = InputStreams(args, warn)
    n_sys = len(streams.hyps)
    if progress is None:
        progress = Progress(
            None, sys.stderr, enabled=not args.quiet and _isatty(sys.stderr), min_segments=PROGRESS_MIN_SEGMENTS
        )
    parts: list[list[np.ndarray]] = [[] for _ in range(n_sys)]
    sums: list[np.ndarray | None] = [None] * n_sys
    ref_counts: set[int] = set()
    for hyps, refs in streams.chunks(chunk_segments):
        present = np.zeros(len(hyps[0]), dtype=np.int64)
        for stream in refs:
            present += np.fromiter((x is not None for x in stream), dtype=bool, count=len(stream))
        ref_counts.update(np.unique(present).tolist())
        for k, stats in enumerate(chunk_statistics(scorer, hyps, refs)):
            if keep_segments:
                parts[k].append(stats)
            else:
                row = stats.sum(axis=0, keepdims=True)
                sums[k] = row if sums[k] is None else sums[k] + row
        progress.update(len(hyps[0]) * n_sys, f"{n_sys} systems" if n_sys > 1 else streams.hyp_names[0])
    progress.close()
    nref = nrefs_field(sorted(ref_counts))
    results = []
    for k, name in enumerate(streams.hyp_names):
        stats = (np.concatenate(parts[k]) if len(parts[k]) > 1 else parts[k][0]) if keep_segments else sums[k]
        results.append(
            SystemResult(name=name, stats=stats, nrefs=nref, score=scorer.score_from_statistics(stats, nref))
        )
    return results
