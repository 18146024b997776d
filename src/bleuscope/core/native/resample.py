"""The significance tests' compiled resampling sums (``rust/python/src/resample.rs``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import core, core_threads

if TYPE_CHECKING:
    import numpy as np

#: largest absolute column value :func:`masked_sums` takes (the core keeps its partial sums in 32 bits)
MASKED_MAX_VALUE = (1 << 28) - 1


def resample_sums_f32(stats32: np.ndarray, idx: np.ndarray, threads: int | None = None) -> np.ndarray | None:
    """float32 ``[R, D]``: ``stats32[idx[r]].sum(axis=0)`` for every row of the resample indices ``idx``
    (int32 or int64 ``[R, S]``), accumulated in float32 in segment order as numpy does; ``stats32`` is float32,
    or uint16 (the same values in half the memory). None when the core is not built."""
    module = core()
    if module is None:
        return None
    import numpy as np

    stats = np.ascontiguousarray(stats32) if stats32.dtype in (np.float32, np.uint16) else (
        np.ascontiguousarray(stats32, dtype=np.float32))
    idx = np.ascontiguousarray(idx) if idx.dtype in (np.int32, np.int64) else np.ascontiguousarray(idx, np.int64)
    return module.resample_sums_f32(stats, idx, threads=core_threads(threads))


def masked_sums(words: np.ndarray, first_bit: int, rows: int, cols: np.ndarray, threads: int | None = None):
    """int64 ``[rows, W]``: ``M @ cols`` for the 0/1 mask ``M`` ``[rows, S]`` whose bits are read from the
    uint64 ``words`` (bit k is bit ``k % 64`` of ``words[k // 64]``) from ``first_bit`` on, row after row;
    ``cols`` int32 ``[S, W]`` with values up to :data:`MASKED_MAX_VALUE` in absolute value. None when the
    core is not built."""
    module = core()
    if module is None:
        return None
    import numpy as np

    return module.masked_sums_i64(np.ascontiguousarray(words, dtype=np.uint64), int(first_bit), int(rows),
                                  np.ascontiguousarray(cols, dtype=np.int32), threads=core_threads(threads))


__all__ = ["MASKED_MAX_VALUE", "masked_sums", "resample_sums_f32"]
