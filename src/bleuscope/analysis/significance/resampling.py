"""Vectorized resampling on per-segment statistics: seeded bootstrap index blocks and AR swap masks drawn as
sacreBLEU draws them, count-matrix products in exact BLAS arithmetic, and sacreBLEU's float32 sums.

The block sizes keep memory bounded on large corpora without changing numpy's random stream (AR mask blocks
are a multiple of 32 rows). See :mod:`bleuscope.analysis.significance` for the arithmetic. ``statistic`` is
the :class:`~bleuscope.metrics.base.Metric` whose score is resampled (its ``score_rows`` and float32 settings).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

import numpy as np

from ...core import backend

#: elements per block of resample indices / count matrix (bounds memory on large corpora)
BLOCK_ELEMENTS = 1 << 22
#: largest integer up to which float32 accumulation of non-negative integers is exact
FLOAT32_EXACT = 1 << 24
#: rows of bootstrap indices drawn and counted at a time when only the resample sums are needed: the index
#: block and its counts stay in cache (a few hundred KB), where one [rows, S] draw and its int64 counts are
#: tens of MB of fresh memory that a short-lived process (the command line) page-faults through
SUM_ROWS = 16


#: told the number of resamples (or AR trials) each block completes; None: nobody listens
_progress: ContextVar[Callable[[int], None] | None] = ContextVar("resampling_progress", default=None)


@contextmanager
def reporting_progress(callback: Callable[[int], None]) -> Iterator[None]:
    """Within the block, every resampling loop calls ``callback(n)`` after each block of ``n`` resamples or
    trials (the command line shows a progress line on a terminal)."""
    token = _progress.set(callback)
    try:
        yield
    finally:
        _progress.reset(token)


def _advance(n: int) -> None:
    callback = _progress.get()
    if callback is not None:
        callback(n)


def block_rows(n_segments: int, multiple: int = 1) -> int:
    rows = max(1, BLOCK_ELEMENTS // max(1, n_segments))
    return max(multiple, rows // multiple * multiple)


def bootstrap_index_blocks(rng: np.random.Generator, n_segments: int, n_samples: int):
    """``rng.choice(S, size=(N, S), replace=True)`` in row blocks (identical to one draw)."""
    block = block_rows(n_segments)
    for start in range(0, n_samples, block):
        rows = min(block, n_samples - start)
        yield rng.choice(n_segments, size=(rows, n_segments), replace=True)
        _advance(rows)


def _count_matrix(idx: np.ndarray, n_segments: int) -> np.ndarray:
    rows = idx.shape[0]
    flat = (idx + (np.arange(rows, dtype=np.int64) * n_segments)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n_segments).reshape(rows, n_segments)


def stack_systems(stats, bound: int) -> np.ndarray:
    """Systems side by side ``[S, K*D]`` as BLAS operands: float32 when every product sum stays <= 2**24.

    The operands are non-negative integers, so every partial sum of ``W @ X`` is an integer no larger than
    the final one; when ``bound`` (an upper bound of the final sums) is <= 2**24, float32 GEMM is exact in
    any summation order (and twice as fast); otherwise float64, exact below 2**53.
    """
    dtype = np.float32 if bound <= FLOAT32_EXACT else np.float64
    return np.concatenate(stats, axis=1).astype(dtype)


def exact_product(weights: np.ndarray, stacked: np.ndarray, buf: np.ndarray | None = None) -> np.ndarray:
    """``weights @ stacked`` for non-negative integer matrices, exactly, as int64 (see :func:`stack_systems`)."""
    if buf is None:
        left = weights.astype(stacked.dtype)
    else:
        left = buf[: len(weights)]
        np.copyto(left, weights, casting="unsafe")
    return np.rint(left @ stacked).astype(np.int64)


def float32_sums(idx: np.ndarray, stats32: np.ndarray) -> np.ndarray:
    """numpy's ``stats32[idx[r]].sum(0)`` for every row r: sequential float32 accumulation over segments
    (the compiled core's loop; without it, one vectorized step per segment)."""
    sums = backend.resample_sums_f32(stats32, idx)
    if sums is not None:
        return sums
    acc = np.zeros((idx.shape[0], stats32.shape[1]), dtype=np.float32)
    for s in range(idx.shape[1]):
        acc += stats32[idx[:, s]]
    return acc


def bootstrap_stack(stats) -> np.ndarray:
    # a resample sum is at most S * the column maximum
    return stack_systems(stats, stats[0].shape[0] * max(int(x.max(initial=0)) for x in stats))


def score_bootstrap_block(
    idx: np.ndarray, stats: tuple[np.ndarray, ...], stacked: np.ndarray, statistic, precision: str
) -> np.ndarray:
    """Scores [K, rows] of every system on the resamples given by ``idx`` (rows x S indices)."""
    return score_bootstrap_sums(exact_product(_count_matrix(idx, stats[0].shape[0]), stacked), idx, stats,
                                statistic, precision)


def score_bootstrap_sums(
    sums: np.ndarray, idx: np.ndarray | None, stats: tuple[np.ndarray, ...], statistic, precision: str
) -> np.ndarray:
    """Scores [K, rows] from the resample sums ``[rows, K*D]``; ``idx`` (rows x S indices) is read only for
    sacreBLEU's float32 sums when the cast sums would not be exact (None where :func:`sums_are_enough`)."""
    n_rows, width = len(sums), stats[0].shape[1]
    sums = sums.reshape(n_rows, len(stats), width)
    out = np.empty((len(stats), n_rows), dtype=np.float64)
    float32 = sacrebleu_float32(statistic, precision)
    for k, x in enumerate(stats):
        rows = sums[:, k, :]
        x32 = _float32_rows(statistic, x) if float32 else None
        if not float32:
            out[k] = statistic.score_rows(rows)
        elif x32 is None and rows.max(initial=0) <= FLOAT32_EXACT and x.max(initial=0) <= FLOAT32_EXACT:
            out[k] = statistic.score_rows(rows.astype(np.float32), float32=True)  # float32 accumulation was exact
        else:
            x32 = x.astype(np.float32) if x32 is None else x32
            out[k] = statistic.score_rows(float32_sums(idx, x32), float32=True)
    return out


def _float32_rows(statistic, stats: np.ndarray) -> np.ndarray | None:
    """The metric's own float32 per-segment rows (e.g. TER's mean reference lengths), or None when
    sacreBLEU's float32 rows are the integer rows cast."""
    return statistic.float32_statistics(stats)


def scores_float32(statistic, precision: str) -> bool:
    """Are sacreBLEU's resampled scores numpy.float32 for this metric (chrF, TER; not BLEU)?"""
    return precision == "sacrebleu" and statistic.bootstrap_scores_float32


def bootstrap_scores(stats, statistic, n_samples: int, seed: int, precision: str) -> np.ndarray:
    """[K, N] resampled scores; one seeded index matrix shared by all systems, as in sacreBLEU."""
    return bootstrap_scores_from(np.random.default_rng(seed), stats, statistic, n_samples, precision)


def bootstrap_scores_from(rng: np.random.Generator, stats, statistic, n_samples: int, precision: str) -> np.ndarray:
    """[K, N] resampled scores from the next index draws of ``rng`` (AR's intervals draw after its masks)."""
    n_seg = stats[0].shape[0]
    if sums_are_enough(stats, statistic, precision):
        stacked = bootstrap_stack(stats)
        parts = [
            score_bootstrap_sums(sums, None, stats, statistic, precision)
            for sums in bootstrap_sum_blocks(rng, stacked, n_seg, n_samples)
        ]
    else:  # sacreBLEU's float32 sums, which round above 2**24: accumulated as it does, segment by segment
        x32s = [_float32_rows(statistic, x) for x in stats]
        x32s = [x.astype(np.float32) if x32 is None else x32 for x, x32 in zip(stats, x32s)]
        parts = [
            np.stack([statistic.score_rows(float32_sums(idx, x32), float32=True) for x32 in x32s])
            for idx in bootstrap_index_blocks(rng, n_seg, n_samples)
        ]
    return np.concatenate(parts, axis=1)


def sacrebleu_float32(statistic, precision: str) -> bool:
    """Are resamples scored with sacreBLEU's float32 arithmetic? Only with ``precision="sacrebleu"``, for a
    metric sacreBLEU has, and not for one it does not have (``sacrebleu_arithmetic = False``: ROUGE, METEOR),
    whose exact fixed-point rows float32 sums would round."""
    return precision == "sacrebleu" and statistic.sacrebleu_arithmetic


def sums_are_enough(stats, statistic, precision: str) -> bool:
    """Can the scores be computed from the resample sums alone (no float32 re-accumulation over indices)?

    True unless sacreBLEU's float32 sums are asked for and either the metric has float32 rows of its own or
    a sum could pass 2**24 (the bound of :func:`bootstrap_stack`), where :func:`score_bootstrap_sums` reads
    the indices."""
    if not sacrebleu_float32(statistic, precision):
        return True
    if any(_float32_rows(statistic, x) is not None for x in stats):
        return False
    return stats[0].shape[0] * max(int(x.max(initial=0)) for x in stats) <= FLOAT32_EXACT


def bootstrap_sum_blocks(rng: np.random.Generator, stacked: np.ndarray, n_segments: int, n_samples: int):
    """``exact_product(count matrix of idx, stacked)`` for the index blocks of :func:`bootstrap_index_blocks`
    (same rows per block, so the same scoring batches); the indices are drawn and counted :data:`SUM_ROWS`
    rows at a time straight into the BLAS operand (consecutive ``rng.choice`` draws continue one stream, so
    they are the indices of one draw), then one product per block (small products are slower in BLAS)."""
    block = block_rows(n_segments)
    sub = min(SUM_ROWS, block)
    offsets = (np.arange(sub, dtype=np.int64) * n_segments)[:, None]
    for start in range(0, n_samples, block):
        rows = min(block, n_samples - start)
        weights = np.empty((rows, n_segments), dtype=stacked.dtype)
        for first in range(0, rows, sub):
            n = min(sub, rows - first)
            idx = rng.choice(n_segments, size=(n, n_segments), replace=True)
            counts = np.bincount((idx + offsets[:n]).ravel(), minlength=n * n_segments)
            np.copyto(weights[first : first + n], counts.reshape(n, n_segments), casting="unsafe")
        yield np.rint(weights @ stacked).astype(np.int64)
        _advance(rows)


def ar_abs_differences(stats, pairs, statistic, n_trials: int, rng: np.random.Generator) -> dict:
    """|score(shuffled a) - score(shuffled b)| for every (i, j) in ``pairs``, over ``n_trials`` masks.

    The mask is ``rng.integers(2, size=(N, S), dtype=bool)`` drawn in blocks of a multiple of 32 rows; for
    pair (i, j), shuffled a = M @ X_i + (1 - M) @ X_j and shuffled b the complement, as in sacreBLEU.
    """
    n_seg, width = stats[0].shape
    used = sorted({k for p in pairs for k in p})
    totals = {k: stats[k].sum(axis=0) for k in used}
    stacked = stack_systems([stats[k] for k in used], max(int(t.max(initial=0)) for t in totals.values()))
    out = {p: [] for p in pairs}
    block = block_rows(n_seg, 32)
    buf = np.empty((min(block, n_trials), n_seg), dtype=stacked.dtype)
    for start in range(0, n_trials, block):
        rows = min(block, n_trials - start)
        mask = rng.integers(2, size=(rows, n_seg), dtype=bool)
        prod = exact_product(mask, stacked, buf).reshape(rows, len(used), width)
        picked = {k: prod[:, u, :] for u, k in enumerate(used)}
        for i, j in pairs:
            a = picked[i] + (totals[j] - picked[j])
            b = (totals[i] - picked[i]) + picked[j]
            scores = statistic.score_rows(np.concatenate([a, b]))
            out[(i, j)].append(np.abs(scores[:rows] - scores[rows:]))
        _advance(rows)
    return {p: np.concatenate(v) for p, v in out.items()}
