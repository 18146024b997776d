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

from ...core import native
from ...core.native import resample as native_resample

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


def draw_indices(rng: np.random.Generator, n_segments: int, rows: int) -> np.ndarray:
    """``rng.choice(S, size=(rows, S), replace=True)``: ``choice`` draws ``rng.integers(0, S)``, whose
    stream does not depend on the integer type, so the indices are drawn as int32 (half the memory) when
    they fit."""
    dtype = np.int32 if n_segments <= np.iinfo(np.int32).max else np.int64
    return rng.integers(0, n_segments, size=(rows, n_segments), dtype=dtype)


def bootstrap_index_blocks(rng: np.random.Generator, n_segments: int, n_samples: int):
    """``rng.choice(S, size=(N, S), replace=True)`` in row blocks (identical to one draw)."""
    block = block_rows(n_segments)
    for start in range(0, n_samples, block):
        rows = min(block, n_samples - start)
        yield draw_indices(rng, n_segments, rows)
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
    sums = native_resample.resample_sums_f32(stats32, idx)
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
            out[k] = statistic.sacrebleu.score_rows(rows.astype(np.float32))  # float32 accumulation was exact
        else:
            x32 = x.astype(np.float32) if x32 is None else x32
            assert idx is not None, "the indices are given where the cast sums are not exact"
            out[k] = statistic.sacrebleu.score_rows(float32_sums(idx, x32))
    return out


def _float32_rows(statistic, stats: np.ndarray) -> np.ndarray | None:
    """The metric's own float32 per-segment rows (e.g. TER's mean reference lengths), or None when
    sacreBLEU's float32 rows are the integer rows cast."""
    return statistic.sacrebleu.statistics(stats)


def scores_float32(statistic, precision: str) -> bool:
    """Are sacreBLEU's resampled scores numpy.float32 for this metric (chrF, TER; not BLEU)?"""
    return precision == "sacrebleu" and statistic.sacrebleu is not None and statistic.sacrebleu.scores_float32


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
        stacked32, bounds = float32_stack(statistic, stats)
        parts = []
        for idx in bootstrap_index_blocks(rng, n_seg, n_samples):
            sums = float32_sums(idx, stacked32)  # every system in one pass over the indices
            del idx
            parts.append(np.stack([statistic.sacrebleu.score_rows(sums[:, a:b]) for a, b in bounds]))
    return np.concatenate(parts, axis=1)


def float32_stack(statistic, stats) -> tuple[np.ndarray, list[tuple[int, int]]]:
    """sacreBLEU's float32 rows of every system side by side ``[S, sum of widths]`` and each system's column
    range. uint16 when every row is the integer rows cast and every value is at most 65535 (the same float32
    values, half the memory to pick rows from), float32 otherwise."""
    own = [_float32_rows(statistic, x) for x in stats]
    small = all(o is None and x.min(initial=0) >= 0 and x.max(initial=0) <= 0xFFFF for x, o in zip(stats, own))
    rows = [x if o is None else o for x, o in zip(stats, own)]
    bounds, col = [], 0
    for r in rows:
        bounds.append((col, col + r.shape[1]))
        col += r.shape[1]
    out = np.empty((stats[0].shape[0], col), dtype=np.uint16 if small else np.float32)
    for r, (a, b) in zip(rows, bounds):
        np.copyto(out[:, a:b], r, casting="unsafe")  # int -> float32 rounds as np.array(stats, "float32")
    return out, bounds


def sacrebleu_float32(statistic, precision: str) -> bool:
    """Are resamples scored with sacreBLEU's float32 arithmetic? Only with ``precision="sacrebleu"``, for a
    metric sacreBLEU has (its ``sacrebleu``), and not for one it does not have (``sacrebleu`` None: ROUGE,
    METEOR, ...), whose exact fixed-point rows float32 sums would round."""
    return precision == "sacrebleu" and statistic.sacrebleu is not None


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
            idx = draw_indices(rng, n_segments, n)
            counts = np.bincount((idx + offsets[:n]).ravel(), minlength=n * n_segments)
            np.copyto(weights[first : first + n], counts.reshape(n, n_segments), casting="unsafe")
        yield np.rint(weights @ stacked).astype(np.int64)
        _advance(rows)


#: mask bits per block of approximate-randomization trials (16 MB of mask words)
MASK_BITS = 1 << 27


def _raw_bits_usable(rng: np.random.Generator) -> bool:
    """Can the masks be read from ``random_raw``? True for numpy's default PCG64 with no 32-bit half
    buffered (see :func:`mask_word_blocks`)."""
    bits = rng.bit_generator
    return isinstance(bits, np.random.PCG64) and not bits.state["has_uint32"]


def mask_word_blocks(rng: np.random.Generator, n_segments: int, n_trials: int):
    """``rng.integers(2, size=(N, S), dtype=bool)`` in row blocks (a multiple of 64 rows), as packed bits:
    yields ``(words, rows)``, bit ``k`` of the block being bit ``k % 64`` of the uint64 ``words[k // 64]``.

    numpy draws 32 booleans from each 32-bit output of the generator, least significant bit first, and
    PCG64 hands out a 64-bit output as two 32-bit halves, low half first: the mask bits are the generator's
    raw 64-bit outputs, drawn here with ``random_raw`` (a hundred times faster than the booleans). When the
    last block needs an odd number of halves, the unused high half stays buffered in the generator, as numpy
    leaves it; the next draws (AR's confidence intervals) then start from it. Other generators: the booleans
    drawn and packed."""
    block = max(64, MASK_BITS // max(1, n_segments) // 64 * 64)
    raw = _raw_bits_usable(rng)
    for start in range(0, n_trials, block):
        rows = min(block, n_trials - start)
        n_bits = rows * n_segments
        n_words = -(-n_bits // 64)
        if raw:
            words = rng.bit_generator.random_raw(n_words)
            # numpy's halves: the high half of the last output is kept (and still unused when the number of
            # halves is odd, which only the last block's can be: the others are a multiple of 64 rows)
            state = dict(rng.bit_generator.state)
            state["has_uint32"], state["uinteger"] = (-(-n_bits // 32)) % 2, int(words[-1] >> np.uint64(32))
            rng.bit_generator.state = state
        else:
            packed = np.packbits(rng.integers(2, size=n_bits, dtype=bool), bitorder="little")
            padded = np.zeros(n_words * 8, dtype=np.uint8)
            padded[: len(packed)] = packed
            words = np.frombuffer(padded, dtype="<u8").astype(np.uint64)
        yield words, rows
        _advance(rows)


def _unpack_mask(words: np.ndarray, rows: int, n_segments: int) -> np.ndarray:
    bits = np.unpackbits(words.astype("<u8").view(np.uint8), bitorder="little", count=rows * n_segments)
    return bits.reshape(rows, n_segments)


def masked_differences(stats, pairs, n_trials: int, rng: np.random.Generator):
    """For each block of AR trials: ``{(i, j): M @ (X_i - X_j)}`` (int64 ``[rows, D]``) for the swap masks
    ``M`` of :func:`mask_word_blocks`. The compiled core sums the columns a mask picks from the packed bits
    (the pairs' differences, or the systems when there are more pairs than systems); without it, or with
    values beyond its range, the unpacked mask multiplies the systems' columns in exact BLAS arithmetic."""
    n_seg, width = stats[0].shape
    used = sorted({k for p in pairs for k in p})
    by_pair = len(pairs) <= len(used)
    compiled = native.native_available() and all(
        int(stats[k].max(initial=0)) <= native_resample.MASKED_MAX_VALUE // 2 and int(stats[k].min(initial=0)) >= 0
        for k in used
    )
    if compiled:
        cols = np.empty((n_seg, width * (len(pairs) if by_pair else len(used))), dtype=np.int32)
        for c, p in enumerate(pairs if by_pair else used):
            part = cols[:, c * width : (c + 1) * width]
            if by_pair:
                np.subtract(stats[p[0]], stats[p[1]], out=part, casting="unsafe")
            else:
                np.copyto(part, stats[p], casting="unsafe")
    else:
        totals = max(int(stats[k].sum(axis=0).max(initial=0)) for k in used)
        stacked = stack_systems([stats[k] for k in used], totals)
    for words, rows in mask_word_blocks(rng, n_seg, n_trials):
        if compiled:
            sums = native_resample.masked_sums(words, 0, rows, cols).reshape(rows, -1, width)
        else:
            sums = exact_product(_unpack_mask(words, rows, n_seg), stacked).reshape(rows, len(used), width)
        if by_pair and compiled:
            yield {p: sums[:, c, :] for c, p in enumerate(pairs)}, rows
        else:
            at = {k: u for u, k in enumerate(used)}
            yield {(i, j): sums[:, at[i], :] - sums[:, at[j], :] for i, j in pairs}, rows


def ar_abs_differences(stats, pairs, statistic, n_trials: int, rng: np.random.Generator) -> dict:
    """|score(shuffled a) - score(shuffled b)| for every (i, j) in ``pairs``, over ``n_trials`` masks.

    The mask is ``rng.integers(2, size=(N, S), dtype=bool)``; for pair (i, j), shuffled a = M @ X_i +
    (1 - M) @ X_j and shuffled b the complement, as in sacreBLEU: with totals T and d = M @ (X_i - X_j),
    a = T_j + d and b = T_i - d.
    """
    used = sorted({k for p in pairs for k in p})
    totals = {k: stats[k].sum(axis=0).astype(np.int64) for k in used}
    out: dict[tuple[int, int], list[np.ndarray]] = {p: [] for p in pairs}
    for diffs, rows in masked_differences(stats, pairs, n_trials, rng):
        for (i, j), d in diffs.items():
            scores = statistic.score_rows(np.concatenate([totals[j] + d, totals[i] - d]))
            out[(i, j)].append(np.abs(scores[:rows] - scores[rows:]))
    return {p: np.concatenate(v) for p, v in out.items()}
