"""Aggregate analyses of the report, computed from exact counts, each with a paired-bootstrap interval.

* n-gram differences between two systems: for every n-gram (orders 1..N of BLEU's tokens), how often each
  system produced it *and* it is in the references, clipped per segment as BLEU clips (``min(count in the
  hypothesis, largest count in any one reference)``); summed over an order, these are BLEU's matched counts.
  The n-grams are ranked as compare-mt ranks them: by ``(m_a + 1) / (m_a + m_b + 2)``.
* word accuracy by frequency bucket, as compare-mt defines it: a word's bucket is its frequency in the
  training data (``--train``) or, without it, in the reference; per bucket, matched output words (greedy
  one-to-one matching of equal words, i.e. ``min(count in output, count in reference)`` per word), output
  words and reference words give precision, recall and their F-measure.
* corpus scores (any additive metric) on segments grouped by reference length and by length difference.
* every system's score minus the best system's.

All intervals come from the same seeded resamples of the segments (sacreBLEU's draws: ``rng.choice(S,
(N, S))`` with ``numpy.random.default_rng(seed)``), so the intervals of two systems are paired. A resampled
total is ``counts @ rows`` where ``counts[b, i]`` is how often resample ``b`` drew segment ``i``; memory is
bounded by drawing the resamples in blocks.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from ..analysis.significance.resampling import FLOAT32_EXACT, SUM_ROWS, block_rows, draw_indices
from ..analysis.significance.resampling import _advance as advance

#: compare-mt's reference-length buckets (upper bounds, exclusive)
LENGTH_CUTOFFS = (10, 20, 30, 40, 50, 60)
#: buckets of hypothesis length minus reference length, in tokens (upper bounds, exclusive)
LENGTH_DIFF_CUTOFFS = (-10, -5, -2, 0, 1, 3, 6, 11)
#: compare-mt's word-frequency buckets (upper bounds, exclusive)
FREQUENCY_CUTOFFS = (1, 2, 3, 4, 5, 10, 100, 1000)
#: n-grams listed per direction of a pair
NGRAM_REPORT_LENGTH = 25
#: n-grams kept per direction for the page, which can hide n-grams inside higher-ranked ones or without a word
#: and still list NGRAM_REPORT_LENGTH
NGRAM_CANDIDATES = 40
#: compare-mt's smoothing of the n-gram ranking
NGRAM_ALPHA = 1.0
#: percentiles of a 95% interval
INTERVAL = (2.5, 97.5)


# ---------------------------------------------------------------------------------------------------------
# resampling
# ---------------------------------------------------------------------------------------------------------
class Resampler:
    """The seeded bootstrap resamples of ``n_segments`` segments, drawn once and kept (as counts) when they
    fit in :data:`CACHE_ELEMENTS`, else drawn again (identically) for each use."""

    #: resample-by-segment counts up to this many elements are kept between uses (16 MB), larger ones drawn again
    CACHE_ELEMENTS = 1 << 22

    def __init__(self, n_segments: int, n_samples: int, seed: int) -> None:
        self.n_segments, self.n_samples, self.seed = n_segments, n_samples, seed
        self._cache: list | None = None

    def count_blocks(self):
        """``(start, counts)`` blocks: float32 ``counts[b, i]`` = times segment i is drawn in resample
        start+b (exact: a count is at most the number of segments, below 2**24)."""
        if self._cache is not None:
            for start, counts in self._cache:
                advance(len(counts))
                yield start, counts
            return
        keep: list | None = [] if self.n_segments * self.n_samples <= self.CACHE_ELEMENTS else None
        rng = np.random.default_rng(self.seed)
        n_seg = self.n_segments
        block = block_rows(n_seg)
        for start in range(0, self.n_samples, block):
            rows = min(block, self.n_samples - start)
            counts = np.empty((rows, n_seg), dtype=np.float32)
            # a few resamples drawn and counted at a time (consecutive draws continue one stream, so these
            # are the indices of one draw): no [rows, S] index matrix is ever held
            for first in range(0, rows, SUM_ROWS):
                n = min(SUM_ROWS, rows - first)
                idx = draw_indices(rng, n_seg, n).astype(np.int64) + (np.arange(n, dtype=np.int64) * n_seg)[:, None]
                counts[first:first + n] = np.bincount(idx.ravel(), minlength=n * n_seg).reshape(n, n_seg)
            if keep is not None:
                keep.append((start, counts))
            advance(rows)
            yield start, counts
        if keep is not None:
            self._cache = keep

    def sums(self, rows: np.ndarray, groups: np.ndarray | None = None, n_groups: int = 1) -> np.ndarray:
        """Resampled column sums of integer ``rows`` [S, D] within each group: float64 [N, G, D], exact.

        ``groups[i]`` puts segment i into group 0..G-1 (without groups, G = 1). The segments are sorted by
        group once; a group's sums are then one product ``counts[:, group] @ rows[group]``, in float32
        when no sum can pass 2**24 (every partial sum of non-negative integers is exact then), else float64.
        """
        rows = np.asarray(rows)
        width = rows.shape[1]
        if groups is None:
            order, bounds = np.arange(self.n_segments), np.array([0, self.n_segments])
        else:
            order = np.argsort(groups, kind="stable")
            bounds = np.searchsorted(np.asarray(groups)[order], np.arange(n_groups + 1))
        bound = self.n_segments * int(np.abs(rows).max(initial=0))
        dtype = np.float32 if bound <= FLOAT32_EXACT else np.float64
        x = rows[order].astype(dtype)
        out = np.zeros((self.n_samples, n_groups, width), dtype=np.float64)
        for start, counts in self.count_blocks():
            c = counts if groups is None else counts[:, order]
            c = c.astype(dtype, copy=False)
            for g in range(n_groups):
                lo, hi = bounds[g], bounds[g + 1]
                if hi > lo:
                    out[start:start + len(c), g] = c[:, lo:hi] @ x[lo:hi]
        return out


def percentile_interval(samples: np.ndarray, axis: int = 0) -> tuple[np.ndarray, np.ndarray]:
    lower, upper = np.percentile(samples, INTERVAL, axis=axis)
    return lower, upper


# ---------------------------------------------------------------------------------------------------------
# scores by bucket
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BucketTable:
    """One metric's corpus score per system on groups of segments, with 95% intervals.

    ``counts[k][g]`` segments of system k are in bucket g; ``scores`` is None where a system has no segment in
    a bucket. ``lower``/``upper`` are None there too, and where the bucket has fewer than ``min_segments``
    segments (a bootstrap of one or two segments only repeats them). An interval uses only the resamples in
    which the bucket holds at least one segment: ``resamples[k][g]`` of them (an empty resample has no score;
    scoring it 0 would pull the lower bound to 0).
    """

    title: str
    metric: str
    labels: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]
    scores: tuple[tuple[float | None, ...], ...]
    lower: tuple[tuple[float | None, ...], ...]
    upper: tuple[tuple[float | None, ...], ...]
    resamples: tuple[tuple[int, ...], ...] = ()
    min_segments: int = 0


#: buckets of fewer segments than this get no interval (the score is still shown)
MIN_BUCKET_SEGMENTS = 10


def interval_rule(min_segments: int, n_samples: int) -> str:
    """The rule of the bucket intervals, as written under each bucket table."""
    return (f"95% bootstrap percentile intervals over the resamples (of {n_samples}) in which the bucket holds at "
            f"least one segment; the count of those resamples is given where it is below {n_samples}. A bucket "
            f"of fewer than {min_segments} segments gets no interval (—), an empty bucket no score (—).")


def bucket_labels(cutoffs: Sequence[int]) -> list[str]:
    """Integer buckets ``< c0``, ``[c0, c1)``, ..., ``>= c_last`` written as inclusive ranges (``3–5``)."""
    out = [f"< {cutoffs[0]}"]
    for lo, hi in zip(cutoffs[:-1], cutoffs[1:]):
        out.append(f"{lo}" if hi - 1 == lo else f"{lo}–{hi - 1}")
    out.append(f"≥ {cutoffs[-1]}")
    return out


def bucket_of(values: np.ndarray, cutoffs: Sequence[int]) -> np.ndarray:
    """Bucket index of each value: 0 for values below cutoffs[0], len(cutoffs) for values >= the last."""
    return np.searchsorted(np.asarray(cutoffs), values, side="right")


def nonempty_interval(values: np.ndarray, present: np.ndarray, size: int, min_segments: int
                      ) -> tuple[float | None, float | None, int]:
    """The percentile interval of ``values[present]`` (one value per resample; ``present``: the bucket is
    non-empty in that resample) and the number of resamples used; no interval below ``min_segments``."""
    used = int(np.count_nonzero(present))
    if size == 0 or size < min_segments or used == 0:
        return None, None, used
    lo, hi = percentile_interval(values[present])
    return float(lo), float(hi), used


def bucket_tables(title: str, metrics: Sequence[tuple[str, Callable, np.ndarray]], groups: np.ndarray,
                  labels: Sequence[str], resampler: Resampler,
                  min_segments: int = MIN_BUCKET_SEGMENTS) -> list[BucketTable]:
    """Per metric ``(name, score_rows, stats [K, S, D])``: its scores on the segments of each group
    (``groups`` [K, S], or [S] for all systems). The resampled sums of every metric and system come from the
    same products: one for all systems when they share the groups, else one per system; a column of ones
    counts each bucket's segments in every resample."""
    k_all, n_seg = metrics[0][2].shape[:2]
    n_groups = len(labels)
    widths = [stats.shape[2] for _, _, stats in metrics]
    ones = np.ones((n_seg, 1), dtype=np.int64)
    if np.ndim(groups) == 1:
        stacked = np.concatenate([ones] + [stats[k] for k in range(k_all) for _, _, stats in metrics], axis=1)
        summed = resampler.sums(stacked, groups, n_groups)
        present = [summed[:, :, 0] > 0] * k_all
        per_system = summed[:, :, 1:].reshape(-1, n_groups, k_all, sum(widths))
        sampled = [per_system[:, :, k, :] for k in range(k_all)]
    else:
        sampled, present = [], []
        for k in range(k_all):
            summed = resampler.sums(np.concatenate([ones] + [stats[k] for _, _, stats in metrics], axis=1),
                                    groups[k], n_groups)
            present.append(summed[:, :, 0] > 0)
            sampled.append(summed[:, :, 1:])
    groups = np.broadcast_to(groups, (k_all, n_seg))
    offsets = np.cumsum([0, *widths])
    return [_bucket_table(title, name, score_rows, stats, groups,
                          [x[:, :, offsets[m]:offsets[m + 1]] for x in sampled], present, labels, min_segments)
            for m, (name, score_rows, stats) in enumerate(metrics)]


def _bucket_table(title: str, metric_name: str, score_rows: Callable, stats: np.ndarray, groups: np.ndarray,
                  sampled: Sequence[np.ndarray], present: Sequence[np.ndarray], labels: Sequence[str],
                  min_segments: int) -> BucketTable:
    k_all, _, width = stats.shape
    n_groups = len(labels)
    counts, scores, lower, upper, used = [], [], [], [], []
    for k in range(k_all):
        n = np.bincount(groups[k], minlength=n_groups)
        totals = np.zeros((n_groups, width), dtype=np.int64)
        np.add.at(totals, groups[k], stats[k])
        point = np.asarray(score_rows(totals), dtype=np.float64)
        flat = np.asarray(score_rows(sampled[k].reshape(-1, width)), dtype=np.float64).reshape(-1, n_groups)
        bounds = [nonempty_interval(flat[:, g], present[k][:, g], int(n[g]), min_segments) for g in range(n_groups)]
        counts.append(tuple(int(c) for c in n))
        scores.append(tuple(float(point[g]) if n[g] > 0 else None for g in range(n_groups)))
        lower.append(tuple(b[0] for b in bounds))
        upper.append(tuple(b[1] for b in bounds))
        used.append(tuple(b[2] for b in bounds))
    return BucketTable(title, metric_name, tuple(labels), tuple(counts), tuple(scores), tuple(lower), tuple(upper),
                       tuple(used), min_segments)


# ---------------------------------------------------------------------------------------------------------
# difference from the best system
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class BestDifference:
    """``delta[k]`` = system k's score minus the best system's, with a 95% paired-bootstrap interval."""

    metric: str
    best: int
    order: tuple[int, ...]
    delta: tuple[float, ...]
    lower: tuple[float, ...]
    upper: tuple[float, ...]


def best_difference(metric_name: str, score_rows: Callable, stats: np.ndarray, order: Sequence[int],
                    resampler: Resampler) -> BestDifference:
    k_all, _, width = stats.shape
    best = int(order[0])
    totals = stats.sum(axis=1)
    point = np.asarray(score_rows(totals), dtype=np.float64)
    stacked = np.concatenate(list(stats), axis=1)  # [S, K*D]
    sampled = resampler.sums(stacked)[:, 0, :].reshape(-1, width)  # [N*K, D]
    scores = np.asarray(score_rows(sampled), dtype=np.float64).reshape(-1, k_all)
    diffs = scores - scores[:, best:best + 1]
    lo, hi = percentile_interval(diffs)
    return BestDifference(metric_name, best, tuple(int(k) for k in order),
                          tuple(float(point[k] - point[best]) for k in range(k_all)),
                          tuple(float(x) for x in lo), tuple(float(x) for x in hi))


# ---------------------------------------------------------------------------------------------------------
# n-gram differences
# ---------------------------------------------------------------------------------------------------------
def ngrams(tokens: Sequence[str], n: int):
    return zip(*(tokens[i:] for i in range(n))) if n > 1 else ((t,) for t in tokens)


class MatchedNgrams:
    """One system's clipped n-gram matches over all segments: (n-gram id, segment, clipped count) entries.

    Per n-gram and segment the counts add up to its clipped count (``min(count in the hypothesis, largest
    count in any one reference)``), and per order they sum to BLEU's matched counts. N-grams are ids of a
    ``vocabulary`` (n-gram tuple -> id) shared by all systems.
    """

    def __init__(self, vocabulary: dict) -> None:
        self.vocabulary = vocabulary
        self._ids: list[np.ndarray] = []
        self._segments: list[np.ndarray] = []
        self._counts: list[np.ndarray] = []

    def add(self, segment: int, grams: Sequence[tuple[str, ...]]) -> None:
        """Record the matched n-grams of one segment, one entry per matched occurrence."""
        vocab = self.vocabulary
        ids = np.array([vocab.setdefault(g, len(vocab)) for g in grams], dtype=np.int64)
        self.add_counts(np.full(len(ids), segment, dtype=np.int64), ids, np.ones(len(ids), dtype=np.int64))

    def add_counts(self, segments: np.ndarray, ids: np.ndarray, counts: np.ndarray) -> None:
        """Record ``counts[e]`` matched occurrences of n-gram ``ids[e]`` in segment ``segments[e]``."""
        self._ids.append(np.asarray(ids, dtype=np.int64))
        self._segments.append(np.asarray(segments, dtype=np.int64))
        self._counts.append(np.asarray(counts, dtype=np.int64))

    def _entries(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        if len(self._ids) != 1:
            parts = [np.concatenate(x) if x else np.zeros(0, dtype=np.int64)
                     for x in (self._ids, self._segments, self._counts)]
            self._ids, self._segments, self._counts = [parts[0]], [parts[1]], [parts[2]]
        return self._ids[0], self._segments[0], self._counts[0]

    def totals(self) -> np.ndarray:
        """Matched occurrences per n-gram id (int64 [len(vocabulary)])."""
        ids, _, counts = self._entries()
        return np.bincount(ids, weights=counts, minlength=len(self.vocabulary)).astype(np.int64)

    def segment_counts(self, wanted: np.ndarray) -> SegmentCounts:
        """The counts per (n-gram id, segment) of the ids in ``wanted``, summed, sorted by id then segment."""
        ids, segments, counts = self._entries()
        keep = np.isin(ids, wanted)
        width = max(self.n_segments_hint, int(segments.max(initial=0)) + 1)
        keys, inverse = np.unique(ids[keep] * width + segments[keep], return_inverse=True)
        sums = np.bincount(inverse.reshape(-1), weights=counts[keep], minlength=len(keys)).astype(np.int64)
        return SegmentCounts(keys // width, keys % width, sums)

    #: a lower bound of the segment count (keys are id * width + segment)
    n_segments_hint = 1

    def per_segment(self, wanted: np.ndarray) -> dict:
        """n-gram id -> {segment: clipped count}, for the ids in ``wanted``."""
        ids, segments, counts = self._entries()
        keep = np.isin(ids, wanted)
        pairs, inverse = np.unique(np.stack([ids[keep], segments[keep]], axis=1), axis=0, return_inverse=True)
        sums = np.bincount(inverse.reshape(-1), weights=counts[keep], minlength=len(pairs)).astype(np.int64)
        out: dict = {}
        for (j, i), c in zip(pairs.tolist(), sums.tolist()):
            out.setdefault(j, {})[i] = c
        return out


@dataclass(frozen=True)
class SegmentCounts:
    """Counts per (n-gram id, segment), sorted by id then segment: ``of(j)`` gives n-gram j's segments and
    counts."""

    ids: np.ndarray
    segments: np.ndarray
    counts: np.ndarray

    def of(self, j: int) -> tuple[np.ndarray, np.ndarray]:
        lo, hi = np.searchsorted(self.ids, [j, j + 1])
        return self.segments[lo:hi], self.counts[lo:hi]


@dataclass(frozen=True)
class NgramRow:
    ngram: str
    order: int
    a: int  # matched (clipped) occurrences in system A
    b: int
    ref: int  # occurrences in the references (per segment the largest count in one reference)
    score: float  # (a + alpha) / (a + b + 2 alpha)
    lower: float  # 95% interval of a - b
    upper: float
    segments: tuple[int, ...]  # segments where a and b differ for this n-gram (most different first), capped


@dataclass(frozen=True)
class NgramDifferences:
    a: int
    b: int
    a_better: tuple[NgramRow, ...]
    b_better: tuple[NgramRow, ...]


#: segments listed per n-gram (the page filters the segment table to them)
NGRAM_SEGMENTS = 60


def _top(ids: np.ndarray, score: np.ndarray, diff: np.ndarray, grams: Sequence, length: int) -> list[int]:
    """The ``length`` of ``ids`` with the highest ``score``, then the largest ``diff``, then the n-gram's
    text (``score[i]`` and ``diff[i]`` belong to ``ids[i]``, already negated for the other direction)."""
    if len(ids) > length:  # only the candidates that can be among the first `length` by score
        cut = np.partition(-score, length - 1)[length - 1]
        keep = -score <= cut
        ids, score, diff = ids[keep], score[keep], diff[keep]
    order = sorted(range(len(ids)), key=lambda x: (-score[x], -diff[x], grams[int(ids[x])]))[:length]
    return [int(ids[x]) for x in order]


def gram_list(vocabulary: dict) -> list:
    """The n-gram of each id of a ``vocabulary`` (n-gram -> id)."""
    grams: list = [None] * len(vocabulary)
    for g, j in vocabulary.items():
        grams[j] = g
    return grams


#: elements of the dense [segments, n-grams] matrix of one resampling product (16 MB in float32)
DENSE_ELEMENTS = 1 << 22
#: n-grams in at most this many segments are resampled from their own segments' counts
SPARSE_COLUMN = 256


def ngram_differences(matches: Sequence[MatchedNgrams], ref_totals: np.ndarray, resampler: Resampler,
                      length: int = NGRAM_REPORT_LENGTH, alpha: float = NGRAM_ALPHA,
                      grams: Sequence | None = None) -> tuple[NgramDifferences, ...]:
    """For every pair of systems (a < b), the n-grams ``a`` gets right more often than ``b`` and vice versa,
    ranked as compare-mt ranks them, from each system's :class:`MatchedNgrams` (or its over- or
    under-generated occurrences: any per-segment counts); ``ref_totals[j]`` is n-gram j's count in the
    references (per segment the largest count in one reference, summed). ``grams``: :func:`gram_list` of the
    vocabulary, when the caller has it."""
    k_all = len(matches)
    if grams is None:
        grams = gram_list(matches[0].vocabulary)
    table = np.stack([m.totals() for m in matches])  # [K, V]
    active = np.flatnonzero(table.any(axis=0))  # the n-grams some system has: only these can be listed
    sub = table[:, active]
    chosen: dict = {}
    for a in range(k_all):
        for b in range(a + 1, k_all):
            ma, mb = sub[a], sub[b]
            d = ma - mb
            parts = []
            for sign in (1, -1):
                ahead = np.flatnonzero(sign * d > 0)
                score = (ma[ahead] + alpha) / (ma[ahead] + mb[ahead] + 2 * alpha)
                parts.append(_top(active[ahead], sign * score, sign * d[ahead], grams, length))
            chosen[(a, b)] = tuple(parts)
    gram_counts = {j: table[:, j] for j in {j for pair in chosen.values() for part in pair for j in part}}
    wanted = np.array(sorted({j for pair in chosen.values() for part in pair for j in part}), dtype=np.int64)
    where = [m.segment_counts(wanted) for m in matches]  # per system: sorted (id, segment) keys and counts
    columns = {}
    for (a, b), parts in chosen.items():
        for j in (*parts[0], *parts[1]):
            (sa, ca), (sb, cb) = where[a].of(j), where[b].of(j)
            segs = np.union1d(sa, sb)
            vals = np.zeros(len(segs), dtype=np.float64)
            vals[np.searchsorted(segs, sa)] += ca
            vals[np.searchsorted(segs, sb)] -= cb
            nz = vals != 0
            columns[(a, b, j)] = (segs[nz], vals[nz])
    # every column's resampled sum: a column with few nonzero segments as a product with the rows of the
    # transposed counts it needs; the others as one dense matrix product per run of columns (their values
    # written into a [S, columns] matrix bounded to DENSE_ELEMENTS), float32 when no sum can pass 2**24
    # (integer sums are exact then), else float64
    keys = list(columns)
    n_seg = resampler.n_segments
    sampled = np.zeros((len(keys), resampler.n_samples))
    peak = max((float(np.abs(columns[k][1]).max(initial=0)) for k in keys), default=0.0)
    dtype = np.float32 if n_seg * peak <= FLOAT32_EXACT else np.float64
    sparse = [x for x, k in enumerate(keys) if 0 < len(columns[k][0]) <= SPARSE_COLUMN]
    dense_cols = [x for x, k in enumerate(keys) if len(columns[k][0]) > SPARSE_COLUMN]
    run = max(1, DENSE_ELEMENTS // max(n_seg, 1))
    for start, counts in resampler.count_blocks():
        block = slice(start, start + len(counts))
        if sparse:
            transposed = np.ascontiguousarray(counts.T, dtype=dtype)  # [S, block]
            for x in sparse:
                idx, vals = columns[keys[x]]
                sampled[x, block] = vals.astype(dtype) @ transposed[idx]
        for c0 in range(0, len(dense_cols), run):
            part = dense_cols[c0:c0 + run]
            dense = np.zeros((n_seg, len(part)), dtype=dtype)
            for y, x in enumerate(part):
                idx, vals = columns[keys[x]]
                dense[idx, y] = vals
            sampled[part, block] = (counts.astype(dtype, copy=False) @ dense).T
    bounds = dict(zip(keys, zip(*percentile_interval(sampled, axis=1)))) if keys else {}

    def row(a: int, b: int, j: int) -> NgramRow:
        g = grams[j]
        ma, mb = int(gram_counts[j][a]), int(gram_counts[j][b])
        lo, hi = bounds[(a, b, j)]
        idx, vals = columns[(a, b, j)]
        keep = sorted(range(len(idx)), key=lambda x: (-abs(vals[x]), idx[x]))[:NGRAM_SEGMENTS]
        return NgramRow(" ".join(g), len(g), ma, mb, int(ref_totals[j]) if j < len(ref_totals) else 0, (ma + alpha) / (ma + mb + 2 * alpha),
                        float(lo), float(hi), tuple(sorted(int(idx[x]) for x in keep)))

    return tuple(NgramDifferences(a, b, tuple(row(a, b, j) for j in parts[0]), tuple(row(a, b, j) for j in parts[1]))
                 for (a, b), parts in chosen.items())


# ---------------------------------------------------------------------------------------------------------
# word accuracy by frequency bucket (compare-mt)
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class WordAccuracy:
    """Per system and frequency bucket: F-measure of word matches with its 95% interval, and the counts.

    The F-measure (and recall) is None where the bucket has no reference words (recall is undefined there;
    with frequencies from the reference, the ``<1`` bucket only ever holds output words), precision None where
    it has no output words. Intervals follow the bucket rule (:class:`BucketTable`): only resamples in which
    the bucket has reference words, none for buckets whose reference words lie in fewer than ``min_segments``
    segments.
    """

    labels: tuple[str, ...]
    source: str  # where the frequencies come from ("the reference" or a file name)
    ref_words: tuple[int, ...]  # reference words per bucket
    fmeasure: tuple[tuple[float | None, ...], ...]  # [K][G]
    lower: tuple[tuple[float | None, ...], ...]
    upper: tuple[tuple[float | None, ...], ...]
    counts: tuple[tuple[tuple[int, int, int], ...], ...]  # [K][G] (matched, output, reference) words
    precision: tuple[tuple[float | None, ...], ...] = ()
    recall: tuple[tuple[float | None, ...], ...] = ()
    segments: tuple[tuple[int, ...], ...] = ()  # [K][G] segments with reference words in the bucket
    resamples: tuple[tuple[int, ...], ...] = ()  # [K][G] resamples the interval uses
    min_segments: int = 0


def frequency_labels(cutoffs: Sequence[int] = FREQUENCY_CUTOFFS) -> list[str]:
    """compare-mt's bucket names: ``<1``, ``1``, ..., ``[5,10)``, ..., ``>=1000``."""
    out = []
    for i, x in enumerate(cutoffs):
        if i == 0:
            out.append(f"<{x}")
        elif x - 1 == cutoffs[i - 1]:
            out.append(f"{x - 1}")
        else:
            out.append(f"[{cutoffs[i - 1]},{x})")
    out.append(f">={cutoffs[-1]}")
    return out


def word_match_rows(hyp_tokens: Sequence[Sequence[str]], ref_tokens: Sequence[Sequence[str]], frequency: Counter,
                    cutoffs: Sequence[int] = FREQUENCY_CUTOFFS, vocabulary: dict | None = None) -> np.ndarray:
    """int64 [S, G, 3]: per segment and bucket, (matched output words, output words, reference words).

    Per segment and word, ``min(count in output, count in reference)`` words match (compare-mt's greedy
    one-to-one matching of equal words gives the same number). ``vocabulary`` (word -> id) can be shared
    between calls.
    """
    vocab = {} if vocabulary is None else vocabulary

    def keys(lines) -> tuple[np.ndarray, np.ndarray]:
        ids = [vocab.setdefault(w, len(vocab)) for line in lines for w in line]
        seg = np.repeat(np.arange(len(lines), dtype=np.int64), [len(line) for line in lines])
        return seg, np.asarray(ids, dtype=np.int64)

    hyp, ref = keys(hyp_tokens), keys(ref_tokens)
    word_frequency = np.array([frequency.get(w, 0) for w in vocab], dtype=np.int64)
    return word_match_counts(hyp, ref, bucket_of(word_frequency, cutoffs), len(hyp_tokens), len(cutoffs) + 1)


def word_match_counts(hyp: tuple[np.ndarray, np.ndarray], ref: tuple[np.ndarray, np.ndarray],
                      word_bucket: np.ndarray, n_segments: int, n_groups: int) -> np.ndarray:
    """:func:`word_match_rows` from (segment, word id) arrays of the output and reference words, with
    ``word_bucket[id]`` each word's frequency bucket; counted with array operations over (segment, word) keys."""
    width = max(len(word_bucket), 1)
    hk, hc = np.unique(hyp[0] * width + hyp[1], return_counts=True)
    rk, rc = np.unique(ref[0] * width + ref[1], return_counts=True)
    common, hi, ri = np.intersect1d(hk, rk, assume_unique=True, return_indices=True)
    out = np.zeros((n_segments, n_groups, 3), dtype=np.int64)
    for column, k, c in ((0, common, np.minimum(hc[hi], rc[ri])), (1, hk, hc), (2, rk, rc)):
        # numpy's stubs do not admit the tuple of index arrays that ufunc.at takes
        np.add.at(out, (k // width, word_bucket[k % width], column), c)  # type: ignore[arg-type]
    return out


def word_totals(hyp: tuple[np.ndarray, np.ndarray], ref: tuple[np.ndarray, np.ndarray], n_words: int) -> np.ndarray:
    """int64 [n_words, 3]: per word id, (matched, output, reference) occurrences over the segments of ``hyp``
    and ``ref`` ((segment, word id) arrays), matched per segment as in :func:`word_match_counts`."""
    width = max(n_words, 1)
    hk, hc = np.unique(hyp[0] * width + hyp[1], return_counts=True)
    rk, rc = np.unique(ref[0] * width + ref[1], return_counts=True)
    common, hi, ri = np.intersect1d(hk, rk, assume_unique=True, return_indices=True)
    out = np.zeros((width, 3), dtype=np.int64)
    for column, k, c in ((0, common, np.minimum(hc[hi], rc[ri])), (1, hk, hc), (2, rk, rc)):
        np.add.at(out[:, column], k % width, c)
    return out


#: words listed per frequency bucket in the word-accuracy drill-down
BUCKET_WORDS = 12


@dataclass(frozen=True)
class BucketWords:
    """The most frequent words of one frequency bucket: ``words[i]`` with ``reference[i]`` occurrences in the
    reference and, per system k, ``matched[k][i]`` of ``output[k][i]`` output occurrences matched."""

    bucket: str
    words: tuple[str, ...]
    reference: tuple[int, ...]
    matched: tuple[tuple[int, ...], ...]
    output: tuple[tuple[int, ...], ...]


def bucket_words(totals: Sequence[np.ndarray], word_bucket: np.ndarray, words: Sequence[str] | np.ndarray,
                 labels: Sequence[str], length: int = BUCKET_WORDS) -> tuple[BucketWords, ...]:
    """Per bucket, its ``length`` words with the most reference occurrences (then the most output, then
    alphabetically) from each system's :func:`word_totals`."""
    stacked = np.stack([t[:len(word_bucket)] for t in totals])  # [K, W, 3]
    reference = stacked[0, :, 2]
    output = stacked[:, :, 1].sum(axis=0)
    out = []
    for g, label in enumerate(labels):
        ids = np.flatnonzero((word_bucket == g) & ((reference > 0) | (output > 0)))
        top = sorted(ids.tolist(), key=lambda j: (-reference[j], -output[j], words[j]))[:length]
        out.append(BucketWords(label, tuple(str(words[j]) for j in top), tuple(int(reference[j]) for j in top),
                               tuple(tuple(int(stacked[k, j, 0]) for j in top) for k in range(len(totals))),
                               tuple(tuple(int(stacked[k, j, 1]) for j in top) for k in range(len(totals)))))
    return tuple(out)


def fmeasure(rows: np.ndarray) -> np.ndarray:
    """compare-mt's F-measure of (matched, output, reference) rows [..., 3]; 0 where nothing matched."""
    both, out, ref = rows[..., 0], rows[..., 1], rows[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        prec = np.where(out > 0, both / np.maximum(out, 1), 0.0)
        rec = np.where(ref > 0, both / np.maximum(ref, 1), 0.0)
        f = np.where(both > 0, 2 * prec * rec / np.where(prec + rec > 0, prec + rec, 1), 0.0)
    return f


def word_accuracy(rows: Sequence[np.ndarray], source: str, resampler: Resampler,
                  cutoffs: Sequence[int] = FREQUENCY_CUTOFFS, min_segments: int = MIN_BUCKET_SEGMENTS) -> WordAccuracy:
    """:class:`WordAccuracy` from each system's :func:`word_match_rows`."""
    n_groups = len(cutoffs) + 1
    f_all, lo_all, hi_all, counts_all, p_all, r_all, seg_all, used_all = [], [], [], [], [], [], [], []
    # every system's resampled sums from one product
    every = resampler.sums(np.concatenate([r.reshape(len(r), -1) for r in rows], axis=1)) if rows else None
    for k, r in enumerate(rows):
        assert every is not None  # there are systems
        total = r.sum(axis=0)  # [G, 3]
        f = fmeasure(total)
        has_ref, has_out = total[:, 2] > 0, total[:, 1] > 0
        f_all.append(tuple(float(f[g]) if has_ref[g] else None for g in range(n_groups)))
        p_all.append(tuple(float(total[g, 0] / total[g, 1]) if has_out[g] else None for g in range(n_groups)))
        r_all.append(tuple(float(total[g, 0] / total[g, 2]) if has_ref[g] else None for g in range(n_groups)))
        sampled = every[:, 0, k * n_groups * 3:(k + 1) * n_groups * 3].reshape(-1, n_groups, 3)
        sampled_f = fmeasure(sampled)
        segments = (r[:, :, 2] > 0).sum(axis=0)
        bounds = [nonempty_interval(sampled_f[:, g], sampled[:, g, 2] > 0, int(segments[g]), min_segments)
                  for g in range(n_groups)]
        lo_all.append(tuple(b[0] for b in bounds))
        hi_all.append(tuple(b[1] for b in bounds))
        used_all.append(tuple(b[2] for b in bounds))
        seg_all.append(tuple(int(x) for x in segments))
        counts_all.append(tuple((int(total[g, 0]), int(total[g, 1]), int(total[g, 2])) for g in range(n_groups)))
    ref_words = tuple(int(x) for x in rows[0].sum(axis=0)[:, 2]) if rows else ()
    return WordAccuracy(tuple(frequency_labels(cutoffs)), source, ref_words, tuple(f_all), tuple(lo_all),
                        tuple(hi_all), tuple(counts_all), tuple(p_all), tuple(r_all), tuple(seg_all),
                        tuple(used_all), min_segments)
