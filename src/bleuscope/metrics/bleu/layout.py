"""BLEU's column layout: one int64 row per segment, as in sacreBLEU::

    [hyp_len, ref_len, correct_1 .. correct_K, total_1 .. total_K]

``K`` is the number of n-gram orders *counted* (``order``): ``max_ngram_order``, or one more for the
Chen & Cherry smoothing methods 5 and 7, which look at the (N+1)-gram matches. Code that needs a column
asks a :class:`StatsLayout` for it instead of doing index arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

#: column of the hypothesis length
HYP_LEN = 0
#: column of the effective (closest) reference length
REF_LEN = 1


@dataclass(frozen=True)
class StatsLayout:
    """Column layout of statistics rows counting n-gram orders ``1..order``."""

    order: int

    hyp_len = HYP_LEN
    ref_len = REF_LEN

    @property
    def width(self) -> int:
        """Number of columns."""
        return 2 + 2 * self.order

    @property
    def correct(self) -> slice:
        """Columns of the clipped matches, orders ``1..order``."""
        return slice(2, 2 + self.order)

    @property
    def total(self) -> slice:
        """Columns of the hypothesis n-gram counts, orders ``1..order``."""
        return slice(2 + self.order, 2 + 2 * self.order)

    def correct_upto(self, n: int) -> slice:
        """Columns of the clipped matches of orders ``1..n`` (``n <= order``)."""
        return slice(2, 2 + self._check_n(n))

    def total_upto(self, n: int) -> slice:
        """Columns of the hypothesis n-gram counts of orders ``1..n`` (``n <= order``)."""
        return slice(2 + self.order, 2 + self.order + self._check_n(n))

    def lengths(self) -> slice:
        """The two length columns (``hyp_len``, ``ref_len``)."""
        return slice(0, 2)

    def _check_n(self, n: int) -> int:
        if not 0 <= n <= self.order:
            raise ValueError(f"order {n} is outside the counted orders 1..{self.order}")
        return n

    def zeros(self, rows: int) -> np.ndarray:
        """An all-zero statistics block, int64 [rows, width]."""
        return np.zeros((rows, self.width), dtype=np.int64)

    def check(self, stats: np.ndarray, what: str = "statistics") -> np.ndarray:
        """``stats`` as a 2-D int64 array, or ValueError naming the expected width."""
        arr = np.asarray(stats)
        if arr.ndim == 1:
            arr = arr[None, :]
        if arr.ndim != 2 or arr.shape[1] != self.width:
            raise ValueError(
                f"{what} have {arr.shape[-1] if arr.ndim else 0} columns, expected {self.width} "
                f"(hyp_len, ref_len, correct_1..{self.order}, total_1..{self.order})"
            )
        return arr

    def fill_lengths_and_totals(self, out: np.ndarray, hyp_lens: np.ndarray, ref_lens: np.ndarray) -> None:
        """Write the length columns and the hypothesis n-gram counts (``max(hyp_len - n + 1, 0)``)."""
        out[:, self.hyp_len] = hyp_lens
        out[:, self.ref_len] = ref_lens
        out[:, self.total] = hypothesis_ngram_counts(hyp_lens, self.order)


@lru_cache(maxsize=64)
def layout(order: int) -> StatsLayout:
    """The (shared) layout for ``order`` counted n-gram orders."""
    return StatsLayout(int(order))


def stats_width(order: int) -> int:
    """Columns of a statistics row that counts orders ``1..order``."""
    return layout(order).width


def order_of_width(width: int) -> int:
    """Counted orders of statistics rows with ``width`` columns."""
    if width < 4 or width % 2:
        raise ValueError(f"{width} columns is not a statistics layout (2 + 2 * order, order >= 1)")
    return (width - 2) // 2


def hypothesis_ngram_counts(hyp_lens: np.ndarray, order: int) -> np.ndarray:
    """int64 [S, order]: the number of n-grams of each order in hypotheses of the given lengths."""
    hyp_lens = np.asarray(hyp_lens, dtype=np.int64)
    orders = np.arange(1, order + 1, dtype=np.int64)
    return np.maximum(hyp_lens[:, None] - orders[None, :] + 1, 0)


__all__ = ["HYP_LEN", "REF_LEN", "StatsLayout", "hypothesis_ngram_counts", "layout", "order_of_width", "stats_width"]
