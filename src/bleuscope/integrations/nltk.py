"""NLTK-exact BLEU: ``nltk.translate.bleu_score`` (NLTK 3.10.4) reimplemented on bleuscope's vectorized engine.

A drop-in replacement: the same functions, signatures, argument order and return types, and the very same
floats (``==``), only much faster on many segments. NLTK itself is never imported::

    from bleuscope.integrations.nltk import sentence_bleu, corpus_bleu, SmoothingFunction
    sentence_bleu([reference_tokens], hypothesis_tokens, smoothing_function=SmoothingFunction().method2)

Added beyond NLTK: :func:`sentence_bleu_batch`, the result of ``[sentence_bleu(r, h, ...) for r, h in ...]``
computed in one vectorized pass. Smoothing functions given as ``SmoothingFunction().methodN`` (this module's
or NLTK's own class) run vectorized; any other callable is called exactly as NLTK calls it.

How it stays exact: the n-gram counts come from the engine (clipped matches, n-gram totals, closest
reference lengths); the arithmetic after that follows NLTK's operation order and Python's numeric types.
NLTK keeps precisions as exact ``Fraction`` values until ``math.log``; here they are exact rationals (Python
integers) too, and the places where NLTK's values become floats (``int / int``, a float ``epsilon``, method 3
and 4's values, a float mixed into a ``Fraction`` sum) become floats at the same point, with the same
operations. The final sum uses ``math.fsum`` and ``math.log``/``math.exp`` as NLTK does.

NLTK's behaviour reproduced on purpose (quirks included)
---------------------------------------------------------
1. **No matches for an order, no smoothing** (method 0): the precision becomes ``sys.float_info.min`` and a
   ``UserWarning`` ("The hypothesis contains 0 counts of N-gram overlaps...") is emitted per such order; the
   score is a tiny positive number (e.g. 3.6718992240469637e-78), not 0. :func:`sentence_bleu_batch` emits
   one warning per order, with the number of segments concerned.
2. **Zero unigram matches** (corpus-wide for ``corpus_bleu``): the result is the *int* ``0`` (or ``[0, ...]``
   for several weight tuples), whatever the smoothing; empty hypotheses and empty corpora give ``0`` too.
3. **``max(1, count)`` denominators**: per segment, the precision denominator of order n is
   ``max(1, number of hypothesis n-grams)``, so a short segment adds 1 to the corpus denominator of every
   order it lacks.
4. **A precision that is exactly 0 after smoothing is skipped** in the geometric mean (as if it were 1):
   e.g. method 1 with ``epsilon=0``, or method 4 with a one-token hypothesis.
5. **Corpus-level smoothing sees only the last segment**: ``corpus_bleu`` passes the corpus precisions but
   the *last* segment's references and hypothesis to the smoothing function. Method 5 (and 7) use the
   last segment's 5-gram precision as the term after the last order (always the 5-gram, whatever the
   number of weights); method 6 uses the last hypothesis's n-gram count; method 4 (and 7) use the corpus
   hypothesis length. Results of methods 5-7 therefore depend on the order of the segments.
6. **Smoothing details**: method 1 replaces zero-match precisions by ``epsilon / denominator``; method 2 adds
   1 to numerator and denominator of every order but the first (matched or not); method 3 uses
   ``1 / (2**k * denominator)`` for the k-th zero-match order; method 4 uses
   ``ln(hyp_len) / (2**k * k_param) / denominator`` and only when ``hyp_len > 1``; method 5 averages
   precisions (not counts) and starts from ``p_1 + 1``; method 6 needs at least 3 orders (``IndexError``
   otherwise) and raises ``AssertionError`` ("...requires non-zero precision for bigrams.") when the
   trigram precision is 0; method 7 is method 4 followed by method 5.
7. **``auto_reweigh``** only applies when a weight tuple *equals* ``(0.25, 0.25, 0.25, 0.25)`` (a list does
   not) and the (corpus) hypothesis length c is below 4: the weights become ``(1/c,) * c``.
8. **Weights**: one tuple (a float is returned) or a list of tuples (a list of floats; a list holding a
   single tuple returns a float). Smoothing is computed once for the longest tuple.
9. **Brevity penalty**: closest reference length, ties to the shorter; ``brevity_penalty`` returns the int
   1 when the hypothesis is longer, the int 0 for an empty hypothesis, else ``exp(1 - r/c)``.
10. **Strings where token lists are expected** are scored as sequences of characters, like NLTK, but here
    with a ``UserWarning`` that says so (NLTK is silent).
11. **Mismatched numbers** of hypotheses and reference lists raise an error that is both a ``ValueError``
    and an ``AssertionError`` (NLTK raises ``AssertionError``); an empty corpus raises an error that is both a
    ``ValueError`` and a ``ZeroDivisionError`` (NLTK: ``ZeroDivisionError: Fraction(0, 0)``).

Deliberate differences: a segment without any reference raises ``ValueError`` naming it (NLTK fails with a
``KeyError``/``ValueError`` deep inside); :class:`Fraction` (returned by :func:`modified_precision`) keeps the
raw numerator and denominator like NLTK's, but compares equal by value on every Python version (NLTK's
compares the raw numbers on Python < 3.12); ``SmoothingFunction`` parameters that are neither ints nor floats
(e.g. ``Fraction``) are converted to float.
"""

from __future__ import annotations

import math
import numbers
import sys
import warnings
from fractions import Fraction as _BaseFraction
from itertools import chain
from types import FrameType

import numpy as np

from ..core.chunks import CHUNK_SEGMENTS
from ..core.native import bleu as native_bleu
from ..metrics.bleu.counting import count_token_lists
from ..metrics.bleu.layout import layout, order_of_width
from .nltk_meteor import meteor_score, single_meteor_score

__all__ = [
    "Fraction",
    "SmoothingFunction",
    "brevity_penalty",
    "closest_ref_length",
    "corpus_bleu",
    "meteor_score",
    "modified_precision",
    "sentence_bleu",
    "sentence_bleu_batch",
    "single_meteor_score",
]

FLOAT_MIN = sys.float_info.min
DEFAULT_WEIGHTS = (0.25, 0.25, 0.25, 0.25)
_METHOD_NAMES = tuple(f"method{i}" for i in range(8))
_NLTK_MODULE = "nltk.translate.bleu_score"


class InputMismatchError(ValueError, AssertionError):
    """Numbers of hypotheses and reference lists differ (NLTK raises ``AssertionError``)."""


class EmptyCorpusError(ValueError, ZeroDivisionError):
    """``corpus_bleu`` of no segments (NLTK raises ``ZeroDivisionError: Fraction(0, 0)``)."""


class Fraction(_BaseFraction):
    """An exact fraction that reports the numerator and denominator it was built from (not reduced).

    ``modified_precision(...)`` returns one: ``.numerator`` is the clipped match count and ``.denominator``
    ``max(1, number of hypothesis n-grams)``, as in NLTK. Arithmetic, comparisons and ``float()`` use the
    exact value.
    """

    __slots__ = ("_raw_numerator", "_raw_denominator")
    _raw_numerator: int
    _raw_denominator: int

    def __new__(cls, numerator=0, denominator=None):
        self = super().__new__(cls, numerator, denominator)
        self._raw_numerator = numerator
        self._raw_denominator = 1 if denominator is None else denominator
        return self

    @property
    def numerator(self):
        return self._raw_numerator

    @property
    def denominator(self):
        return self._raw_denominator

    def __eq__(self, other):
        if isinstance(other, Fraction):
            other = _BaseFraction(other._raw_numerator, other._raw_denominator)
        return _BaseFraction.__eq__(self, other)

    __hash__ = _BaseFraction.__hash__

    def __repr__(self):
        return f"Fraction({self._raw_numerator}, {self._raw_denominator})"

    def __reduce__(self):
        return (type(self), (self._raw_numerator, self._raw_denominator))


# -- warnings ----------------------------------------------------------------------------------------------
def _warn(message: str) -> None:
    """``UserWarning`` attributed to the first caller outside this module."""
    level = 2
    frame: FrameType | None = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)


def _zero_match_message(order: int, n_segments: int | None = None) -> str:
    msg = (
        f"\nThe hypothesis contains 0 counts of {order}-gram overlaps.\n"
        "Therefore the BLEU score evaluates to 0, independently of\n"
        "how many N-gram overlaps of lower order it contains.\n"
        "Consider using lower n-gram order or use SmoothingFunction()"
    )
    if n_segments is not None:
        msg += f"\n({n_segments} segment(s) of this batch have no {order}-gram match)"
    return msg


def _warn_strings(hypotheses: list, list_of_references: list, hyp_name: str, refs_name: str, single: bool) -> None:
    """NLTK scores a string as a sequence of characters; do the same, but say so."""

    def where(name, bad):
        if single:
            return name
        return f"{name}[{bad[0]}]" if len(bad) == 1 else f"{len(bad)} items of {name} (first: [{bad[0]}])"

    types = set(map(type, hypotheses))
    if any(issubclass(t, str) for t in types):
        bad = [i for i, h in enumerate(hypotheses) if isinstance(h, str)]
        _warn(
            f"{where(hyp_name, bad)} is a string, not a list of tokens: like NLTK, bleuscope.nltk scores its "
            "characters as tokens; split it first (e.g. text.split()) to score words"
        )
    if any(issubclass(t, str) for t in set(map(type, chain.from_iterable(list_of_references)))):
        bad = [
            i
            for i, refs in enumerate(list_of_references)
            if isinstance(refs, str) or any(isinstance(r, str) for r in refs)
        ]
        _warn(
            f"{where(refs_name, bad)} holds a string where a list of reference token lists is expected: like NLTK, "
            "bleuscope.nltk scores characters as tokens; split references first (e.g. [ref.split()])"
        )


# -- inputs ------------------------------------------------------------------------------------------------
def _sized_iterable(t: type) -> bool:
    return hasattr(t, "__len__") and hasattr(t, "__iter__")


def _as_segments(list_of_references, hypotheses, refs_name: str, hyp_name: str, single: bool = False):
    for value, name in ((list_of_references, refs_name), (hypotheses, hyp_name)):
        if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
            raise TypeError(f"{name} must be a list, got {type(value).__name__}")
    hyps = list(hypotheses)
    refs = list(list_of_references)
    if len(refs) != len(hyps):
        raise InputMismatchError(
            f"The number of hypotheses and their reference(s) should be the same: {hyp_name} has {len(hyps)} "
            f"items, {refs_name} has {len(refs)}"
        )
    if not all(map(_sized_iterable, set(map(type, hyps)))):
        i = next(i for i, h in enumerate(hyps) if not _sized_iterable(type(h)))
        raise TypeError(f"{hyp_name}[{i}] must be a list of tokens, got {type(hyps[i]).__name__}")
    if not all(hasattr(t, "__iter__") for t in set(map(type, refs))):
        i = next(i for i, r in enumerate(refs) if not hasattr(r, "__iter__"))
        raise TypeError(f"{refs_name}[{i}] must be a list of references (token lists), got {type(refs[i]).__name__}")
    refs = [r if type(r) is list else list(r) for r in refs]
    if refs:
        nrefs = np.fromiter(map(len, refs), dtype=np.int64, count=len(refs))
        if nrefs.min() == 0:
            raise ValueError(
                f"{refs_name}[{int(np.argmin(nrefs))}] has no reference: give at least one reference per segment"
            )
    if not all(map(_sized_iterable, set(map(type, chain.from_iterable(refs))))):
        i, k = next((i, k) for i, seg in enumerate(refs) for k, r in enumerate(seg) if not _sized_iterable(type(r)))
        raise TypeError(f"{refs_name}[{i}][{k}] must be a list of tokens, got {type(refs[i][k]).__name__}")
    _warn_strings(hyps, refs, hyp_name, refs_name, single)
    return refs, hyps


def _weight_sets(weights):
    """NLTK's rule: ``weights[0][0]`` works -> several tuples, else one; (raw object, float tuple) pairs."""
    try:
        weights[0][0]
    except (TypeError, IndexError):
        weights = [weights]
    out = []
    for j, weight in enumerate(weights):
        try:
            values = list(weight)
        except TypeError:
            raise TypeError(f"weights[{j}] must be a sequence of numbers, got {type(weight).__name__}") from None
        for i, w in enumerate(values):
            if not isinstance(w, numbers.Real):
                raise TypeError(f"weights[{j}][{i}] must be a real number, got {w!r}")
        out.append((weight, tuple(float(w) for w in values)))
    return out


def _int_or_float(value, name: str):
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    raise TypeError(f"SmoothingFunction {name} must be a real number, got {value!r}")


# -- counting ----------------------------------------------------------------------------------------------
def _statistics(list_of_references: list, hypotheses: list, max_order: int) -> np.ndarray:
    """Statistics [S, 2 + 2N]: hyp_len, closest ref len (ties to shorter), matches_n, ngrams_n."""
    if not hypotheses:
        return layout(max_order).zeros(0)
    # lists of str tokens, read and counted by the compiled core (None: other tokens, or no compiled core)
    counter = native_bleu.id_counter(max_order, None)
    stats = None if counter is None else counter.token_list_rows(hypotheses, list_of_references)
    if stats is not None:
        return stats
    return count_token_lists(hypotheses, list_of_references, order=max_order, chunk_segments=CHUNK_SEGMENTS)


# -- exact rationals and floats, column by column ----------------------------------------------------------
def _obj(a: np.ndarray) -> np.ndarray:
    return a if a.dtype == object else a.astype(object)


def _rat_to_float(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Correctly rounded num/den (Python's int true division)."""
    if num.dtype != object and den.dtype != object:
        if max(int(np.abs(num).max(initial=0)), int(np.abs(den).max(initial=0))) < 2**53:
            return num.astype(np.float64) / den.astype(np.float64)
    return np.array([n / d for n, d in zip(num.tolist(), den.tolist())], dtype=np.float64)


class _Col:
    """One order's precision for S rows: exact rational ``num/den`` where ``isf`` is False, else float ``flt``.

    Operations follow Python's numeric tower as NLTK's ``Fraction``/``float`` values do: rational op rational
    stays exact; as soon as a float takes part, the rational is rounded to float and float arithmetic follows.
    """

    __slots__ = ("num", "den", "flt", "isf")

    def __init__(self, num, den, flt, isf):
        self.num, self.den, self.flt, self.isf = num, den, flt, isf

    @classmethod
    def rat(cls, num, den) -> _Col:
        n = len(num)
        return cls(np.asarray(num), np.asarray(den), np.zeros(n), np.zeros(n, dtype=bool))

    @classmethod
    def const(cls, value, n: int) -> _Col:
        """A Python int (exact) or float constant, or an int/float array, broadcast to n rows."""
        arr = np.asarray(value)
        if arr.dtype.kind in "iuO" and not isinstance(value, float):
            return cls.rat(np.broadcast_to(arr, (n,)).astype(object), np.ones(n, dtype=object))
        return cls(
            np.zeros(n, dtype=object),
            np.ones(n, dtype=object),
            np.broadcast_to(arr.astype(np.float64), (n,)).copy(),
            np.ones(n, dtype=bool),
        )

    def __len__(self):
        return len(self.isf)

    def floats(self, rows=None) -> np.ndarray:
        """Float value of every row (or of ``rows``, a boolean mask)."""
        if rows is None:
            rows = np.ones(len(self), dtype=bool)
        out = self.flt[rows].copy()
        rat = ~self.isf[rows]
        if rat.any():
            out[rat] = _rat_to_float(self.num[rows][rat], self.den[rows][rat])
        return out

    def positive(self) -> np.ndarray:
        rat_pos = (self.num > 0) == (self.den > 0)
        rat_pos &= self.num != 0
        return np.where(self.isf, self.flt > 0, rat_pos).astype(bool)

    def is_zero(self) -> np.ndarray:
        return np.where(self.isf, self.flt == 0, self.num == 0).astype(bool)

    def with_floats(self, rows: np.ndarray, values) -> _Col:
        if not rows.any():
            return self
        flt, isf = self.flt.copy(), self.isf.copy()
        flt[rows] = values
        isf[rows] = True
        return _Col(self.num, self.den, flt, isf)

    def with_rats(self, rows: np.ndarray, num, den) -> _Col:
        if not rows.any():
            return self
        new_num, new_den = _obj(self.num).copy(), _obj(self.den).copy()
        new_num[rows], new_den[rows] = num, den
        isf = self.isf.copy()
        isf[rows] = False
        return _Col(new_num, new_den, self.flt, isf)

    def merge(self, rows: np.ndarray, other: _Col) -> _Col:
        """Rows of ``other`` where ``rows`` is True, of self elsewhere."""
        return _Col(
            np.where(rows, _obj(other.num), _obj(self.num)),
            np.where(rows, _obj(other.den), _obj(self.den)),
            np.where(rows, other.flt, self.flt),
            np.where(rows, other.isf, self.isf),
        )


def _combine(a: _Col, b: _Col, rat_op, float_op) -> _Col:
    n = len(a)
    both = ~(a.isf | b.isf)
    num, den = np.zeros(n, dtype=object), np.ones(n, dtype=object)
    if both.any():
        num[both], den[both] = rat_op(_obj(a.num[both]), _obj(a.den[both]), _obj(b.num[both]), _obj(b.den[both]))
    flt = np.zeros(n)
    mixed = ~both
    if mixed.any():
        flt[mixed] = float_op(a.floats(mixed), b.floats(mixed))
    return _Col(num, den, flt, mixed)


def _add(a: _Col, b: _Col) -> _Col:
    return _combine(a, b, lambda an, ad, bn, bd: (an * bd + bn * ad, ad * bd), np.add)


def _mul(a: _Col, b: _Col) -> _Col:
    return _combine(a, b, lambda an, ad, bn, bd: (an * bn, ad * bd), np.multiply)


def _div_rat(an, ad, bn, bd):
    if (bn == 0).any():
        raise ZeroDivisionError("division by zero in NLTK's smoothing arithmetic (Fraction(..., 0))")
    return an * bd, ad * bn


def _div_float(x, y):
    if (y == 0).any():
        raise ZeroDivisionError("float division by zero")
    return x / y


def _div(a: _Col, b: _Col) -> _Col:
    return _combine(a, b, _div_rat, _div_float)


def _square(a: _Col) -> _Col:
    num, den = _obj(a.num), _obj(a.den)
    flt = a.flt.copy()
    if a.isf.any():
        flt[a.isf] = [x**2 for x in a.flt[a.isf].tolist()]  # Python's float power, as NLTK
    return _Col(num * num, den * den, flt, a.isf.copy())


# -- smoothing (NLTK's methods 0-7) ------------------------------------------------------------------------
class _Context:
    """What NLTK's smoothing functions see besides p_n, per row.

    ``hyp_len``: the ``hyp_len`` argument (corpus hypothesis length, or the segment's length);
    ``last_ngrams``: n-gram counts of the (last) hypothesis, orders 1..N; ``p5``: its 5-gram modified
    precision (methods 5 and 7).
    """

    def __init__(self, hyp_len, last_ngrams=None, p5=None, batch=False):
        self.hyp_len, self.last_ngrams, self.p5, self.batch = hyp_len, last_ngrams, p5, batch


def _method0(cols, ctx, params):
    out = []
    for i, c in enumerate(cols):
        zero = ~c.isf & (c.num == 0)
        if zero.any():
            _warn(_zero_match_message(i + 1, int(zero.sum()) if ctx.batch else None))
        out.append(c.with_floats(zero, FLOAT_MIN))
    return out


def _method1(cols, ctx, params):
    eps = 0 + params["epsilon"]
    out = []
    for c in cols:
        zero = ~c.isf & (c.num == 0)
        if zero.any():
            den = c.den[zero].astype(np.float64)
            c = c.with_floats(zero, float(eps) / den)
        out.append(c)
    return out


def _method2(cols, ctx, params):
    out = [cols[0]]
    for c in cols[1:]:
        rat = ~c.isf
        out.append(c.with_rats(rat, _obj(c.num[rat]) + 1, _obj(c.den[rat]) + 1))
    return out


def _method3(cols, ctx, params):
    k = np.zeros(len(cols[0]), dtype=np.int64)
    out = []
    for c in cols:
        zero = ~c.isf & (c.num == 0)
        if zero.any():
            k[zero] += 1
            c = c.with_floats(zero, 1.0 / (np.exp2(k[zero].astype(np.float64)) * c.den[zero].astype(np.float64)))
        out.append(c)
    return out


def _method4(cols, ctx, params):
    kparam = params["k"]
    hyp_len = np.asarray(ctx.hyp_len, dtype=np.int64)
    usable = hyp_len > 1
    log_len = np.zeros(len(hyp_len))
    if usable.any():
        log_len[usable] = [math.log(x) for x in hyp_len[usable].tolist()]
    count = np.zeros(len(hyp_len), dtype=np.int64)
    out = []
    for c in cols:
        zero = ~c.isf & (c.num == 0) & usable
        if zero.any():
            count[zero] += 1
            values = np.empty(int(zero.sum()))
            ks = count[zero]
            for kk in np.unique(ks).tolist():
                sel = ks == kk
                scale = float(2**kk * kparam)  # exact: a power of two times k
                values[sel] = (1.0 / (scale / log_len[zero][sel])) / c.den[zero][sel].astype(np.float64)
            c = c.with_floats(zero, values)
        out.append(c)
    return out


def _method5(cols, ctx, params):
    n = len(cols[0])
    following = list(cols) + [ctx.p5]
    prev = _add(cols[0], _Col.const(1, n))
    three = _Col.const(3, n)
    out = []
    for i, c in enumerate(cols):
        prev = _div(_add(_add(prev, c), following[i + 1]), three)
        out.append(prev)
    return out


def _method6(cols, ctx, params):
    if len(cols) < 3:
        raise IndexError(
            f"list index out of range: smoothing method 6 needs at least 3 n-gram orders, got {len(cols)} (as in NLTK)"
        )
    if cols[2].is_zero().any():
        raise AssertionError("This smoothing method requires non-zero precision for bigrams.")
    alpha = params["alpha"]
    n = len(cols[0])
    out = list(cols)
    for i in range(2, len(cols)):
        prev2, prev1 = out[i - 2], out[i - 1]
        matches = _obj(cols[i].num)
        ngrams = ctx.last_ngrams[:, i]
        denom = ngrams.astype(object) + alpha if isinstance(alpha, int) else ngrams + alpha
        zero_prior = prev2.is_zero()
        live = ~zero_prior
        result = _Col.const(0, n)
        if live.any():
            prior = _div(_square(prev1), prev2.merge(zero_prior, _Col.const(1, n)))
            value = _div(_add(_Col.const(matches, n), _mul(_Col.const(alpha, n), prior)), _Col.const(denom, n))
            result = result.merge(live, value)
        if zero_prior.any():
            # NLTK: pi0 = 0 (an int) -> (m + alpha * 0) / (l + alpha), a true division -> float
            num = matches[zero_prior].astype(np.float64) + 0.0 * float(alpha)
            den = np.asarray(denom)[zero_prior].astype(np.float64)
            result = result.with_floats(zero_prior, _div_float(num, den))
        out[i] = result
    return out


def _method7(cols, ctx, params):
    return _method5(_method4(cols, ctx, params), ctx, params)


_SMOOTHERS = [_method0, _method1, _method2, _method3, _method4, _method5, _method6, _method7]


def _smooth(method: int, cols, ctx, params):
    return _SMOOTHERS[method](cols, ctx, params)


def _cols_from_values(values) -> list[_Col]:
    cols = []
    for v in values:
        if isinstance(v, numbers.Rational):
            cols.append(_Col.rat(np.array([v.numerator], dtype=object), np.array([v.denominator], dtype=object)))
        elif isinstance(v, numbers.Real):
            cols.append(
                _Col(np.zeros(1, dtype=object), np.ones(1, dtype=object), np.array([float(v)]), np.ones(1, dtype=bool))
            )
        else:
            raise TypeError(f"a smoothing function returned {v!r}, not a number")
    return cols


def _values_from_cols(cols: list[_Col], originals: list) -> list[float | numbers.Rational]:
    out: list[float | numbers.Rational] = []
    for c, orig in zip(cols, originals):
        if c.isf[0]:
            out.append(float(c.flt[0]))
        elif isinstance(orig, numbers.Rational) and orig.numerator == c.num[0] and orig.denominator == c.den[0]:
            out.append(orig)
        else:
            out.append(Fraction(int(c.num[0]), int(c.den[0])))
    return out


# -- SmoothingFunction -------------------------------------------------------------------------------------
class SmoothingFunction:
    """Chen & Cherry (2014) smoothing methods 0-7 with NLTK's definitions and defaults.

    Pass a bound method as ``smoothing_function``: ``SmoothingFunction(epsilon=0.1, alpha=5, k=5).method3``.
    ``epsilon`` is used by method 1, ``k`` by methods 4 and 7, ``alpha`` by method 6. The methods can also be
    called directly, as in NLTK: ``method(p_n, references, hypothesis, hyp_len)`` with ``p_n`` a list of
    fractions; methods 3-7 update ``p_n`` in place and return it.
    """

    def __init__(self, epsilon=0.1, alpha=5, k=5):
        self.epsilon = epsilon
        self.alpha = alpha
        self.k = k

    def _params(self) -> dict:
        return {
            "epsilon": _int_or_float(self.epsilon, "epsilon"),
            "alpha": _int_or_float(self.alpha, "alpha"),
            "k": _int_or_float(self.k, "k"),
        }

    def _call(self, method: int, p_n, references=None, hypothesis=None, hyp_len=None):
        cols = _cols_from_values(p_n)
        n = len(cols)
        hyp_len_v = hyp_len if hyp_len else (len(hypothesis) if method in (4, 7) else 0)
        ngrams = None
        if method == 6:
            size = len(hypothesis)
            ngrams = np.array([[max(0, size - i) for i in range(n)]], dtype=np.int64)
        p5 = None
        if method in (5, 7):
            p5 = _cols_from_values([modified_precision(references, hypothesis, 5)])[0]
        ctx = _Context(np.array([hyp_len_v], dtype=np.int64), ngrams, p5)
        result = _values_from_cols(_smooth(method, cols, ctx, self._params()), list(p_n))
        if method >= 3:
            p_n[:] = result
            return p_n
        return result

    def method0(self, p_n, *args, **kwargs):
        """No smoothing: a zero-match precision becomes ``sys.float_info.min`` (with a warning)."""
        return self._call(0, p_n)

    def method1(self, p_n, *args, **kwargs):
        """Zero-match precisions become ``epsilon / denominator``."""
        return self._call(1, p_n)

    def method2(self, p_n, *args, **kwargs):
        """Add 1 to numerator and denominator of every order above the first (Lin & Och 2004)."""
        return self._call(2, p_n)

    def method3(self, p_n, *args, **kwargs):
        """NIST geometric smoothing: the k-th zero-match order becomes ``1 / (2**k * denominator)``."""
        return self._call(3, p_n)

    def method4(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """The k-th zero-match order becomes ``ln(hyp_len) / (2**k * self.k) / denominator`` (hyp_len > 1)."""
        return self._call(4, p_n, references, hypothesis, hyp_len)

    def method5(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Average each precision with its smoothed predecessor and raw successor (5-gram after the last)."""
        return self._call(5, p_n, references, hypothesis, hyp_len)

    def method6(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Gao & He (2013) interpolation with the prior ``p_{n-1}**2 / p_{n-2}`` for orders >= 3."""
        return self._call(6, p_n, references, hypothesis, hyp_len)

    def method7(self, p_n, references, hypothesis, hyp_len=None, *args, **kwargs):
        """Method 4, then method 5."""
        return self._call(7, p_n, references, hypothesis, hyp_len)


def _resolve_smoothing(smoothing_function):
    """(method number, params) for a known ``methodN`` (ours or NLTK's), (None, None) for another callable."""
    if not smoothing_function:
        return 0, SmoothingFunction()._params()
    owner = getattr(smoothing_function, "__self__", None)
    func = getattr(smoothing_function, "__func__", None)
    name = getattr(func, "__name__", "")
    if owner is not None and name in _METHOD_NAMES:
        ours = isinstance(owner, SmoothingFunction) and func is getattr(SmoothingFunction, name)
        nltks = (
            getattr(func, "__module__", None) == _NLTK_MODULE
            and getattr(func, "__qualname__", None) == f"SmoothingFunction.{name}"
        )
        if ours or nltks:
            return int(name[-1]), {
                "epsilon": _int_or_float(owner.epsilon, "epsilon"),
                "alpha": _int_or_float(owner.alpha, "alpha"),
                "k": _int_or_float(owner.k, "k"),
            }
    if not callable(smoothing_function):
        raise TypeError(f"smoothing_function must be callable, got {type(smoothing_function).__name__}")
    return None, None


# -- scoring -----------------------------------------------------------------------------------------------
def _brevity_penalties(ref_len: np.ndarray, hyp_len: np.ndarray) -> np.ndarray:
    bp = np.ones(len(hyp_len))
    short = hyp_len <= ref_len
    bp[short & (hyp_len == 0)] = 0.0
    calc = short & (hyp_len > 0)
    if calc.any():
        ratio = _rat_to_float(ref_len[calc], hyp_len[calc])
        bp[calc] = list(map(math.exp, (1.0 - ratio).tolist()))
    return bp


def _final_scores(cols, weight_sets, bp, hyp_len, auto_reweigh) -> list[np.ndarray]:
    """BP * exp(fsum(w_i * log(p_i) for p_i > 0)) per row and weight set."""
    n_rows, n_ord = len(bp), len(cols)
    logs = np.zeros((n_rows, n_ord))
    pos = np.zeros((n_rows, n_ord), dtype=bool)
    for i, c in enumerate(cols):
        p = c.positive()
        pos[:, i] = p
        if p.any():
            logs[p, i] = list(map(math.log, c.floats(p).tolist()))
    results = []
    for raw, w in weight_sets:
        wmat = np.zeros((n_rows, n_ord))
        w = w[:n_ord]  # zip(weight, p_n): a custom smoothing function may return fewer orders
        wmat[:, : len(w)] = w
        if auto_reweigh:
            short = hyp_len < 4
            if short.any() and raw == DEFAULT_WEIGHTS:
                for c_len in np.unique(hyp_len[short]).tolist():
                    rows = hyp_len == c_len
                    wmat[rows] = 0.0
                    wmat[np.ix_(rows, np.arange(min(c_len, n_ord)))] = 1 / c_len
        terms = np.where(pos[:, :n_ord], wmat * logs, 0.0)
        sums = list(map(math.fsum, terms.tolist()))
        results.append(bp * np.fromiter(map(math.exp, sums), dtype=np.float64, count=n_rows))
    return results


def _score_rows(stats, n_ord, weight_sets, method, params, auto_reweigh, *, corpus, custom=None, last_segment=None):
    """Scores (one array per weight set) and the rows returning int 0, from engine statistics."""
    columns = layout(order_of_width(stats.shape[1]))
    hyp_len, ref_len = stats[:, columns.hyp_len], stats[:, columns.ref_len]
    matches = stats[:, columns.correct]
    ngrams = stats[:, columns.total]
    denoms = np.maximum(ngrams, 1)
    if corpus:
        last = stats[-1:]
        hyp_len = np.array([int(hyp_len.sum())], dtype=np.int64)
        ref_len = np.array([int(ref_len.sum())], dtype=np.int64)
        matches = np.array([[int(x) for x in matches.sum(axis=0).tolist()]], dtype=object)
        denoms = np.array([[int(x) for x in denoms.sum(axis=0).tolist()]], dtype=object)
        last_ngrams = last[:, columns.total]
        last_matches = last[:, columns.correct]
    else:
        last_ngrams, last_matches = ngrams, matches
    zero = np.asarray(matches[:, 0] == 0, dtype=bool)
    live = ~zero
    scores = [np.zeros(len(hyp_len)) for _ in weight_sets]
    if not live.any():
        return scores, zero
    bp = _brevity_penalties(ref_len[live], hyp_len[live])
    if custom is not None:
        refs_last, hyp_last = last_segment
        p_n = [Fraction(int(matches[0, i]), int(denoms[0, i])) for i in range(n_ord)]
        cols = _cols_from_values(custom(p_n, references=refs_last, hypothesis=hyp_last, hyp_len=int(hyp_len[0])))
    else:
        cols = [_Col.rat(matches[live, i], denoms[live, i]) for i in range(n_ord)]
        p5 = None
        if method in (5, 7):
            p5 = _Col.rat(last_matches[live, 4], np.maximum(last_ngrams[live, 4], 1))
        ctx = _Context(hyp_len[live], last_ngrams[live, :n_ord], p5, batch=not corpus)
        cols = _smooth(method, cols, ctx, params)
    for j, arr in enumerate(_final_scores(cols, weight_sets, bp, hyp_len[live], auto_reweigh)):
        scores[j][live] = arr
    return scores, zero


def _run(list_of_references, hypotheses, weights, smoothing_function, auto_reweigh, *, corpus, refs_name, hyp_name):
    refs, hyps = _as_segments(list_of_references, hypotheses, refs_name, hyp_name, single=hyp_name == "hypothesis")
    weight_sets = _weight_sets(weights)
    n_ord = max(len(w) for _, w in weight_sets)
    method, params = _resolve_smoothing(smoothing_function)
    n_sets = len(weight_sets)
    if corpus and not hyps and n_ord > 0:
        raise EmptyCorpusError(f"{hyp_name} is empty: BLEU of an empty corpus is undefined (0/0 precisions)")
    if n_ord == 0 or not hyps:
        empty = 0 if n_sets == 1 else [0] * n_sets
        return empty if corpus else [empty for _ in hyps]
    order = max(n_ord, 5) if method in (5, 7) else n_ord
    stats = _statistics(refs, hyps, order)
    if corpus or method is not None:
        scores, zero = _score_rows(
            stats,
            n_ord,
            weight_sets,
            method,
            params,
            auto_reweigh,
            corpus=corpus,
            custom=None if method is not None else smoothing_function,
            last_segment=(refs[-1], hyps[-1]),
        )
    else:  # a custom smoothing callable, segment by segment as NLTK calls it
        rows = [
            _score_rows(
                stats[i : i + 1],
                n_ord,
                weight_sets,
                None,
                None,
                auto_reweigh,
                corpus=True,
                custom=smoothing_function,
                last_segment=(refs[i], hyps[i]),
            )
            for i in range(len(hyps))
        ]
        scores = [np.concatenate([r[0][j] for r in rows]) for j in range(n_sets)]
        zero = np.concatenate([r[1] for r in rows])
    per_set = [s.tolist() for s in scores]
    zero_l = zero.tolist()
    if corpus:
        if zero_l[0]:
            return 0 if n_sets == 1 else [0] * n_sets
        return per_set[0][0] if n_sets == 1 else [s[0] for s in per_set]
    if n_sets == 1:
        return [0 if z else s for z, s in zip(zero_l, per_set[0])]
    return [[0] * n_sets if z else [s[i] for s in per_set] for i, z in enumerate(zero_l)]


# -- public API (NLTK's) -----------------------------------------------------------------------------------
def sentence_bleu(references, hypothesis, weights=DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    """BLEU of one tokenized hypothesis against its tokenized references (NLTK's ``sentence_bleu``).

    Returns a float, a list of floats when several weight tuples are given, or the int 0 when no unigram
    matches. Same as ``corpus_bleu([references], [hypothesis], ...)``.
    """
    return _run(
        [references],
        [hypothesis],
        weights,
        smoothing_function,
        auto_reweigh,
        corpus=True,
        refs_name="references",
        hyp_name="hypothesis",
    )


def corpus_bleu(list_of_references, hypotheses, weights=DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False):
    """Corpus BLEU with NLTK's definitions (NLTK's ``corpus_bleu``); ``list_of_references[i]`` is the list
    of token lists for hypothesis ``i``."""
    return _run(
        list_of_references,
        hypotheses,
        weights,
        smoothing_function,
        auto_reweigh,
        corpus=True,
        refs_name="list_of_references",
        hyp_name="hypotheses",
    )


def sentence_bleu_batch(
    list_of_references, hypotheses, weights=DEFAULT_WEIGHTS, smoothing_function=None, auto_reweigh=False
) -> list:
    """``[sentence_bleu(refs, hyp, ...) for refs, hyp in zip(list_of_references, hypotheses)]``, vectorized.

    One list entry per segment, each exactly what :func:`sentence_bleu` returns (float, list of floats, or
    the int 0). Warnings of method 0 are emitted once per n-gram order, with the number of segments. An
    error NLTK raises for one segment (e.g. method 6 without a trigram match) is raised for the batch.
    """
    return _run(
        list_of_references,
        hypotheses,
        weights,
        smoothing_function,
        auto_reweigh,
        corpus=False,
        refs_name="list_of_references",
        hyp_name="hypotheses",
    )


def modified_precision(references, hypothesis, n):
    """Clipped n-gram precision of one hypothesis as an un-reduced :class:`Fraction`:
    ``Fraction(matches, max(1, number of hypothesis n-grams))``."""
    if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
        raise ValueError(f"n must be a positive integer, got {n!r}")
    n = int(n)
    refs, hyps = _as_segments([references], [hypothesis], "references", "hypothesis", single=True)
    stats = _statistics(refs, hyps, n)
    return Fraction(int(stats[0, 1 + n]), max(1, int(stats[0, 1 + 2 * n])))


def closest_ref_length(references, hyp_len):
    """Length of the reference closest in length to ``hyp_len``; ties go to the shorter one."""
    return min((len(ref) for ref in references), key=lambda length: (abs(length - hyp_len), length))


def brevity_penalty(closest_ref_len, hyp_len):
    """NLTK's brevity penalty: int 1 if ``hyp_len > closest_ref_len``, int 0 if ``hyp_len == 0``, else
    ``exp(1 - closest_ref_len / hyp_len)``."""
    if hyp_len > closest_ref_len:
        return 1
    if hyp_len == 0:
        return 0
    return math.exp(1 - closest_ref_len / hyp_len)
