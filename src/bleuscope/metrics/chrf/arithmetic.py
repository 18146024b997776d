"""sacreBLEU's scalar score arithmetic, vectorized over rows, in float64 or in its float32 bootstrap precision.

sacreBLEU evaluates its score formulas on Python numbers for corpus scores and on ``numpy.float32`` values
for bootstrap resamples (its resampled statistics are a float32 array). Under numpy >= 2 (NEP 50) a Python
``int``/``float`` meeting a float32 value is converted to float32 and the operation runs in float32, while
two Python numbers stay float64. Which of the two happens can differ per row (a constant such as chrF's
epsilon is a Python float, a precision computed from statistics is float32), so :class:`Mixed` carries
a per-row flag and every operation picks the precision row by row, exactly as the scalar code would.
"""

from __future__ import annotations

import operator

import numpy as np

#: does ``Python float * numpy.float32`` stay float32 (numpy >= 2, NEP 50) or promote to float64?
SCALARS_STAY_FLOAT32 = (np.float32(1.0) * 1.0).dtype == np.float32


class Mixed:
    """Per-row values (stored exactly as float64) and whether each is a float32 value."""

    __slots__ = ("value", "is32")

    def __init__(self, value: np.ndarray, is32: np.ndarray) -> None:
        self.value = value
        self.is32 = is32

    @classmethod
    def of(cls, values: np.ndarray, float32: bool) -> Mixed:
        values = np.asarray(values, dtype=np.float64)
        if float32:
            values = values.astype(np.float32).astype(np.float64)
        return cls(values, np.full(values.shape, bool(float32) and SCALARS_STAY_FLOAT32))

    def _binary(self, other, op, reflected: bool = False) -> Mixed:
        return binary(other, self, op) if reflected else binary(self, other, op)

    def __add__(self, o):
        return self._binary(o, operator.add)

    def __radd__(self, o):
        return self._binary(o, operator.add, True)

    def __sub__(self, o):
        return self._binary(o, operator.sub)

    def __mul__(self, o):
        return self._binary(o, operator.mul)

    def __rmul__(self, o):
        return self._binary(o, operator.mul, True)

    def __truediv__(self, o):
        return self._binary(o, operator.truediv)

    def __rtruediv__(self, o):
        return self._binary(o, operator.truediv, True)


def _parts(x):
    """(float64 value, float32 flag) of a Mixed or of a weak Python/numpy-integer scalar or int array."""
    if isinstance(x, Mixed):
        return x.value, x.is32
    return np.asarray(x, dtype=np.float64), False


def binary(a, b, op) -> Mixed:
    """``op(a, b)`` per row: in float32 where either operand is a float32 value, else in float64."""
    av, a32 = _parts(a)
    bv, b32 = _parts(b)
    is32 = np.logical_or(a32, b32)
    with np.errstate(all="ignore"):
        out = op(av, bv)
        if np.any(is32):
            out32 = op(av.astype(np.float32), bv.astype(np.float32)).astype(np.float64)
            out = np.where(is32, out32, out)
    shape = np.broadcast_shapes(np.shape(out), np.shape(is32))
    return Mixed(np.broadcast_to(out, shape).copy(), np.broadcast_to(is32, shape).copy())


def select(condition: np.ndarray, a, b) -> Mixed:
    """``a if condition else b`` per row (either side a Mixed or a weak scalar)."""
    av, a32 = _parts(a)
    bv, b32 = _parts(b)
    return Mixed(np.where(condition, av, bv).astype(np.float64), np.where(condition, a32, b32).astype(bool))
