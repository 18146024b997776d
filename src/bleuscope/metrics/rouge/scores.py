"""rouge-score's arithmetic on count arrays, and the exact fixed-point rows that make means additive.

**Precision, recall, F.** From ``(matches, hyp_count, ref_count)``: ``rougeN`` divides by ``max(count, 1)``;
``rougeL`` and ``rougeLsum`` give 0 when either text has no token. ``F = 2 * P * R / (P + R)`` (0 when
``P + R == 0``), evaluated in that order. numpy's float64 division of integers below 2**53 is correctly
rounded, like Python's ``int / int``, so every value equals rouge-score's float bit for bit.

**Why fixed-point rows.** The corpus score is the *mean* of per-segment values, which is not a function of
summed counts. A float64 per-segment value is a dyadic rational; a value in [0, 1] that is 0 or at least
2**-38 (every count below 2**38) is an integer multiple of 2**-90. So each value is stored exactly as the
integer ``value * 2**90`` split into three int64 limbs of 28 + 31 + 31 bits. Limb columns add up exactly in
int64 (and in float64 BLAS products, exact below 2**53, for up to 2**22 = 4.19 million segments), so the
sum over any subset -- shards, chunks, bootstrap resamples, approximate-randomization swaps -- is exact and
independent of the order of summation. The mean is then ``sum / (n * 2**90)``, rounded once (Python's
integer true division rounds correctly): the exact mean of the per-segment floats, rounded to the nearest
float64. (``numpy.mean`` of the same values may differ from it in the last bit.)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np

#: value * 2**SCALE_BITS is an integer for every per-segment value
SCALE_BITS = 90
#: limbs per value: value * 2**90 = hi * 2**62 + mid * 2**31 + lo
LIMBS = 3
_LIMB_BITS = 31


def prf(counts: np.ndarray, ngram: np.ndarray) -> np.ndarray:
    """float64 ``[..., 3]`` (P, R, F) from int64 counts ``[..., 3]`` (matches, hyp_count, ref_count);
    ``ngram`` (bool, broadcast over the leading axes) marks rougeN columns (``max(count, 1)`` denominators)
    against LCS ones (0 when a text is empty)."""
    counts = np.asarray(counts, dtype=np.int64)
    matches = counts[..., 0].astype(np.float64)
    hyp = counts[..., 1]
    ref = counts[..., 2]
    empty = (hyp == 0) | (ref == 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        p = matches / np.maximum(hyp, 1).astype(np.float64)
        r = matches / np.maximum(ref, 1).astype(np.float64)
        lcs_zero = empty & ~np.asarray(ngram, dtype=bool)
        p = np.where(lcs_zero, 0.0, p)
        r = np.where(lcs_zero, 0.0, r)
        total = p + r
        f = np.where(total > 0, 2.0 * p * r / np.where(total > 0, total, 1.0), 0.0)
    return np.stack([p, r, f], axis=-1)


def prf_of(matches: int, hyp: int, ref: int, ngram: bool) -> tuple[float, float, float]:
    """:func:`prf` of one count triple, in Python floats: the same correctly rounded divisions and products
    in the same order, so the same values, without numpy's cost per call (the drop-in scores one pair at
    a time)."""
    if not ngram and (hyp == 0 or ref == 0):
        return 0.0, 0.0, 0.0
    p = matches / max(hyp, 1)
    r = matches / max(ref, 1)
    total = p + r
    return p, r, (2.0 * p * r / total if total > 0 else 0.0)


def to_limbs(values: np.ndarray) -> np.ndarray:
    """int64 ``[..., 3]`` limbs of float64 values in [0, 1] (exact; see the module docstring)."""
    v = np.asarray(values, dtype=np.float64)
    if v.size and (v.min() < 0 or v.max() > 1):
        raise ValueError("ROUGE values must lie in [0, 1]")
    hi_f = np.floor(np.ldexp(v, SCALE_BITS - 2 * _LIMB_BITS))
    rest = np.ldexp(v, SCALE_BITS - 2 * _LIMB_BITS) - hi_f  # exact: removes the integer part
    mid_f = np.floor(np.ldexp(rest, _LIMB_BITS))
    lo_f = np.ldexp(rest, _LIMB_BITS) - mid_f
    lo_f = np.ldexp(lo_f, _LIMB_BITS)
    if np.any(lo_f != np.floor(lo_f)):
        raise ValueError("a ROUGE value is not a multiple of 2**-90 (a count of 2**38 or more?)")
    return np.stack([hi_f, mid_f, lo_f], axis=-1).astype(np.int64)


def check_fixed_point(rows: np.ndarray, count_col: int, groups: list[int], names: list[str], what: str) -> None:
    """A ``ValueError`` naming the row and the columns when a fixed-point value (the limbs ``hi, mid, lo`` at
    columns ``g, g + 1, g + 2`` for each ``g`` in ``groups``) adds up to more than the row's number of
    segments (column ``count_col``): every per-segment value is at most 1, so a sum over n segments is at
    most n. ``rows``: int64 ``[R, W]`` of non-negative integers (already checked)."""
    count = rows[:, count_col]
    low_bits = (1 << _LIMB_BITS) - 1
    for g in groups:
        hi, mid, lo = rows[:, g], rows[:, g + 1], rows[:, g + 2]
        mid = mid + (lo >> _LIMB_BITS)  # carry summed limbs into canonical 31-bit ones
        lo = lo & low_bits
        hi = hi + (mid >> _LIMB_BITS)
        mid = mid & low_bits
        limit = count << (SCALE_BITS - 2 * _LIMB_BITS)
        over = np.flatnonzero((hi > limit) | ((hi == limit) & ((mid > 0) | (lo > 0))))
        if len(over):
            r = int(over[0])
            value = limb_total(hi[r], mid[r], lo[r]) / (1 << SCALE_BITS)
            raise ValueError(
                f"{what}: row {r}, columns {g}-{g + 2} ({names[g]}, {names[g + 1]}, {names[g + 2]}) hold the value "
                f"{value!r}, more than the row's {int(count[r])} segment(s) (column {count_col}, {names[count_col]}) "
                "allow: each segment's value is at most 1"
            )


def limb_total(hi, mid, lo) -> int:
    """The exact integer ``value * 2**90`` summed, from summed limbs."""
    return (int(hi) << (2 * _LIMB_BITS)) + (int(mid) << _LIMB_BITS) + int(lo)


def exact_mean(limbs, count) -> float:
    """The correctly rounded mean from summed limbs ``(hi, mid, lo)`` and the number of values summed."""
    count = int(count)
    if count <= 0:
        return 0.0
    hi, mid, lo = limbs
    return limb_total(hi, mid, lo) / (count << SCALE_BITS)


class Score(namedtuple("Score", ["precision", "recall", "fmeasure"])):
    """Precision, recall and F of one ROUGE type (rouge-score's ``scoring.Score``)."""


class AggregateScore(namedtuple("AggregateScore", ["low", "mid", "high"])):
    """A bootstrap interval of :class:`Score` values (rouge-score's ``scoring.AggregateScore``)."""
