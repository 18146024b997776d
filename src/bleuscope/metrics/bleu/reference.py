"""The numpy counting engine: per-segment BLEU sufficient statistics from token ids.

This is the reference implementation behind :mod:`bleuscope.metrics.bleu.counting` (the compiled core, when
present, must give the same rows). Statistics layout (:mod:`bleuscope.metrics.bleu.layout`), one int64 row per
segment, as in sacreBLEU::

    [hyp_len, ref_len, correct_1 .. correct_N, total_1 .. total_N]

``ref_len`` is the length of the reference closest to the hypothesis length (ties go to the shorter one),
``correct_n`` the clipped n-gram matches (each hypothesis n-gram counts at most as often as it occurs in
the reference where it occurs most often) and ``total_n`` the number of hypothesis n-grams.

How the matches are counted, exactly and without hashing: all tokens of a chunk of segments are laid out
segment by segment (hypothesis, then each reference). An n-gram is identified by a dense *rank*: order 1
ranks ``(segment, token)`` pairs, order n ranks ``(rank of the (n-1)-gram prefix, next token)`` pairs, so
a rank stands for one n-gram inside one segment and equal n-grams of the same segment get the same rank.
Keys are sorted with a stable sort, which is nearly linear here because the layout is already grouped by
segment. Counting per rank and source is one ``bincount``. Only n-grams whose prefix matched somewhere
can match, so each order only looks at the positions that survived the previous one.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from .encoding import EncodedLines, expand_ranges
from .layout import layout, stats_width

_INT64_MAX = np.iinfo(np.int64).max


def common_id_dtype(arrays, name: str = "token ids") -> np.dtype:
    """The one dtype that holds every id of ``arrays`` exactly: int64, or uint64 when some ids are
    >= 2**63 (then no id may be negative)."""
    arrays = [a for a in arrays if len(a)]
    if not any(a.dtype == np.uint64 for a in arrays):
        return np.dtype(np.int64)
    if any(a.dtype.kind == "i" and int(a.min()) < 0 for a in arrays):
        raise ValueError(f"{name} mix negative ids with ids >= 2**63: no 64-bit integer type holds both")
    return np.dtype(np.uint64)


def closest_ref_lengths(hyp_lens: np.ndarray, ref_lens: np.ndarray, present: np.ndarray) -> np.ndarray:
    """Closest reference length per segment, ties to the shorter; ``ref_lens``/``present`` are [S, K]."""
    diff = np.abs(ref_lens - hyp_lens[:, None])
    scale = int(ref_lens.max(initial=0)) + 1
    key = np.where(present, diff * scale + ref_lens, _INT64_MAX)
    pick = np.argmin(key, axis=1)
    return ref_lens[np.arange(len(hyp_lens)), pick]


def _rank_sorted(keys: np.ndarray):
    """Sort ``keys`` and number the distinct values: (sort permutation, dense group id of each sorted
    element, number of groups, index in sorted order where each group starts)."""
    order = np.argsort(keys, kind="stable")
    sorted_keys = keys[order]
    new_group = np.empty(len(keys), dtype=bool)
    if len(keys):
        new_group[0] = True
        np.not_equal(sorted_keys[1:], sorted_keys[:-1], out=new_group[1:])
    # an int32 running sum is an order of magnitude faster than bool -> int64 (chunks hold < 2**31 keys)
    group = np.cumsum(new_group.view(np.uint8), dtype=np.int32).astype(np.int64)
    group -= 1
    n_groups = int(group[-1]) + 1 if len(keys) else 0
    return order, group, n_groups, np.flatnonzero(new_group)


def match_counts(hyp: EncodedLines, refs: Sequence[EncodedLines], max_order: int, vocab_size: int) -> np.ndarray:
    """Clipped n-gram matches, int64 [S, max_order], for hypotheses against reference streams.

    ``refs[k].lengths[i]`` must be 0 for a missing reference (it then contributes no n-gram).
    """
    n_seg = len(hyp.lengths)
    n_src = len(refs) + 1
    matches = np.zeros((n_seg, max_order), dtype=np.int64)
    if n_seg == 0 or not len(refs):
        return matches
    lens = np.stack([hyp.lengths] + [r.lengths for r in refs], axis=1)  # [S, J]

    # lay out every source's tokens segment by segment: seg 0 (hyp, ref1, ...), seg 1 (...), ...
    all_ids = np.concatenate([hyp.ids] + [r.ids for r in refs])
    starts = np.empty_like(lens)
    base = 0
    for j, enc in enumerate([hyp] + list(refs)):
        starts[0, j] = base
        np.cumsum(lens[:-1, j], out=starts[1:, j])
        starts[1:, j] += base
        base += len(enc.ids)
    block_len = lens.ravel()
    tok = all_ids[expand_ranges(starts.ravel(), block_len)]
    block = np.repeat(np.arange(n_seg * n_src, dtype=np.int64), block_len)
    seg = block // n_src
    src = block - seg * n_src
    del block
    block_end = np.cumsum(block_len)
    remaining = np.repeat(block_end, block_len) - np.arange(len(tok), dtype=np.int64)
    vocab = max(int(vocab_size), int(tok.max(initial=-1)) + 1, 1)

    # Everything below is kept in the sorted order of the current n-grams: the (n+1)-gram keys
    # (prefix rank, next token) are then already sorted up to ties of the prefix, and the stable sort of
    # the next order is close to linear.
    if n_seg >= _INT64_MAX // vocab:
        raise OverflowError("too many segments x vocabulary for one chunk")
    positions = np.arange(len(tok), dtype=np.int64)
    keys = seg * vocab + tok
    for n in range(1, max_order + 1):
        order, ranks, n_groups, first = _rank_sorted(keys)
        if n_groups == 0:
            break
        positions = positions[order]
        counts = np.bincount(ranks * n_src + src[positions], minlength=n_groups * n_src).reshape(n_groups, n_src)
        clipped = np.minimum(counts[:, 0], counts[:, 1:].max(axis=1))
        group_seg = seg[positions[first]]
        matches[:, n - 1] = np.bincount(group_seg, weights=clipped, minlength=n_seg).astype(np.int64)
        if n == max_order:
            break
        # survivors: an (n+1)-gram starts here and its n-gram prefix matched in this segment
        keep = (remaining[positions] > n) & (clipped[ranks] > 0)
        positions = positions[keep]
        if n_groups >= _INT64_MAX // vocab:
            raise OverflowError("too many n-grams x vocabulary for one chunk")
        keys = ranks[keep] * vocab + tok[positions + n]
    return matches


def segment_statistics(
    hyp: EncodedLines,
    refs: Sequence[EncodedLines],
    present: np.ndarray,
    max_order: int,
    vocab_size: int,
) -> np.ndarray:
    """Sufficient statistics, int64 [S, 2 + 2N]; ``present`` is bool [S, K] (False = missing reference)."""
    cols = layout(max_order)
    n_seg = len(hyp.lengths)
    out = cols.zeros(n_seg)
    if n_seg == 0:
        return out
    hyp_lens = hyp.lengths.astype(np.int64)
    ref_lens = np.stack([r.lengths for r in refs], axis=1).astype(np.int64)
    cols.fill_lengths_and_totals(out, hyp_lens, closest_ref_lengths(hyp_lens, ref_lens, present))
    out[:, cols.correct] = match_counts(hyp, refs, max_order, vocab_size)
    return out


__all__ = ["closest_ref_lengths", "common_id_dtype", "match_counts", "segment_statistics", "stats_width"]
