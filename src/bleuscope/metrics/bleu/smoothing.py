"""Chen & Cherry (2014) smoothing for sentence-level BLEU, as the paper defines it, for the main ``BLEU`` API.

``BLEU(smooth_method="chen-cherry-N", smooth_value=...)`` with N = 1..7. Notation (per row of statistics):
``m_n`` clipped n-gram matches, ``l_n`` hypothesis n-grams, ``T`` hypothesis length, ``p_n`` the precision
that enters the geometric mean (``100 * p_n`` on bleuscope's 0-100 scale).

- ``chen-cherry-1`` (epsilon, default 0.1): ``m_n = 0`` is replaced by epsilon, ``p_n = epsilon / l_n``.
- ``chen-cherry-2``: orders n >= 2 use ``p_n = (m_n + 1) / (l_n + 1)`` (Lin & Och 2004).
- ``chen-cherry-3``: the k-th order with ``m_n = 0`` gets ``m_n = 1 / 2**k`` (NIST geometric smoothing).
- ``chen-cherry-4`` (K, default 5): as 3 with ``invcnt *= K / ln(T)`` instead of ``invcnt *= 2``, i.e. the
  k-th zero order gets ``m_n = (ln(T) / K)**k`` (0 when ``T = 1``).
- ``chen-cherry-5``: ``m'_0 = m_1 + 1``, ``m'_n = (m'_{n-1} + m_n + m_{n+1}) / 3``, ``p_n = m'_n / l_n``, where
  ``m_{N+1}`` is the (N+1)-gram match count.
- ``chen-cherry-6`` (alpha, default 5): ``p_1, p_2`` unsmoothed; for n >= 3
  ``p_n = (m_n + alpha * pi_n) / (l_n + alpha)`` with the prior ``pi_n = p_{n-1}**2 / p_{n-2}`` (0 if
  ``p_{n-2} = 0``) (Gao & He 2013).
- ``chen-cherry-7`` (K, default 5): the counts of 4 (zero orders 1..N replaced), then the averaging of 5.

The parameter is ``smooth_value`` (``None`` = the paper's default) and is recorded in the signature, e.g.
``smooth:chen-cherry-4[5]``. Methods 5 and 7 need the (N+1)-gram matches, so their statistics carry one
more order (``BLEU.segment_statistics`` provides it; the counts reported in scores are still 1..N).

Differences from NLTK's ``SmoothingFunction`` (whose exact behaviour is in :mod:`bleuscope.integrations.nltk`): the
methods are applied to the statistics they are given, so a corpus score smooths the corpus counts (NLTK
passes the last segment's n-grams to methods 5 and 6); method 4 follows the paper's ``(ln T / K)**k``
(NLTK: ``ln T / (2**k K)``); method 5 averages counts (NLTK averages precisions and always appends the
5-gram precision); no ``max(1, l_n)`` denominators and no skipping of zero precisions (a zero precision
makes the score 0, as in sacreBLEU); a hypothesis without any match still gets a positive score from
methods 1, 3, 4, 5 and 7 (the paper smooths every order, unigrams included).

Orders with ``l_n = 0`` (hypotheses shorter than n) follow the core rules of the main API: they end the
orders in use; with ``effective_order=True`` the mean runs over the orders in use, otherwise the score is 0
-- except method 2, whose denominator ``l_n + 1`` is never 0 (as sacreBLEU's ``add-k``).
"""

from __future__ import annotations

import math

import numpy as np

from ...core.validation import ArgumentError
from .layout import layout, order_of_width

#: method -> default parameter (None: the method takes none)
CHEN_CHERRY_DEFAULTS: dict[str, float | None] = {
    "chen-cherry-1": 0.1,
    "chen-cherry-2": None,
    "chen-cherry-3": None,
    "chen-cherry-4": 5.0,
    "chen-cherry-5": None,
    "chen-cherry-6": 5.0,
    "chen-cherry-7": 5.0,
}
PARAMETER_NAMES = {"chen-cherry-1": "epsilon", "chen-cherry-4": "K", "chen-cherry-6": "alpha", "chen-cherry-7": "K"}
NEEDS_NEXT_ORDER = frozenset({"chen-cherry-5", "chen-cherry-7"})


def is_chen_cherry(method: str) -> bool:
    return method in CHEN_CHERRY_DEFAULTS


def stats_order(method: str, max_order: int) -> int:
    """n-gram orders the statistics must hold for ``method``: one more for methods 5 and 7."""
    return max_order + 1 if method in NEEDS_NEXT_ORDER else max_order


def check_value(method: str, value: float) -> None:
    """Parameter ranges beyond ``>= 0``: K must be positive (it divides)."""
    if PARAMETER_NAMES.get(method) == "K" and value <= 0:
        raise ArgumentError(f"{{}} (K of {method}) must be > 0, got {value!r}", "smooth_value")


def signature_value(value: float) -> str:
    return f"{value:g}"


def _map(func, values: np.ndarray) -> np.ndarray:
    flat = np.ascontiguousarray(values, dtype=np.float64).ravel()
    return np.fromiter(map(func, flat.tolist()), dtype=np.float64, count=flat.size).reshape(values.shape)


def _zero_rank(matches: np.ndarray) -> np.ndarray:
    """k for every order with no match: 1 for the first such order of the row, 2 for the second, ..."""
    zero = matches == 0
    return np.where(zero, np.cumsum(zero, axis=1), 0)


def _method4_counts(matches: np.ndarray, hyp_len: np.ndarray, k_param: float) -> np.ndarray:
    rank = _zero_rank(matches)
    ratio = np.zeros(len(hyp_len))
    pos = hyp_len > 0
    ratio[pos] = _map(math.log, hyp_len[pos].astype(np.float64)) / k_param  # ln(T) / K; T = 1 gives 0
    smoothed = np.power(ratio[:, None], rank.astype(np.float64))
    return np.where(rank > 0, smoothed, matches)


def _method5_counts(matches: np.ndarray, next_matches: np.ndarray) -> np.ndarray:
    n_ord = matches.shape[1]
    following = np.concatenate([matches[:, 1:], next_matches[:, None]], axis=1)
    out = np.empty_like(matches)
    prev = matches[:, 0] + 1.0
    for n in range(n_ord):
        prev = (prev + matches[:, n] + following[:, n]) / 3.0
        out[:, n] = prev
    return out


def chen_cherry_precisions(stats: np.ndarray, method: str, value: float | None, max_order: int, effective_order: bool):
    """Smoothed precisions (percent, [S, N]), the number of orders in the mean per row, and the rows to score.

    ``stats`` has ``stats_order(method, max_order)`` orders; only the first ``max_order`` enter BLEU.
    """
    if value is None:
        value = CHEN_CHERRY_DEFAULTS[method]
    # the methods that read the parameter have a default; the others (None) ignore it
    param: float = 0.0 if value is None else value
    cols = layout(order_of_width(stats.shape[1]))
    hyp_len = stats[:, cols.hyp_len]
    matches = stats[:, cols.correct].astype(np.float64)
    ngrams = stats[:, cols.total].astype(np.float64)
    m, l = matches[:, :max_order], ngrams[:, :max_order]
    n_rows = len(stats)

    denominators = l.copy()
    if method == "chen-cherry-2":
        denominators[:, 1:] += 1.0
    in_use = np.cumprod(denominators > 0, axis=1).astype(bool)  # orders before the first empty one
    safe = np.where(denominators > 0, denominators, 1.0)

    if method == "chen-cherry-1":
        p = np.where(m == 0, param, m) / safe
    elif method == "chen-cherry-2":
        p = (m + np.where(np.arange(max_order) >= 1, 1.0, 0.0)) / safe
    elif method == "chen-cherry-3":
        rank = _zero_rank(m)
        p = np.where(rank > 0, np.exp2(-rank.astype(np.float64)), m) / safe
    elif method == "chen-cherry-4":
        p = _method4_counts(m, hyp_len, param) / safe
    elif method == "chen-cherry-5":
        p = _method5_counts(m, matches[:, max_order]) / safe
    elif method == "chen-cherry-7":
        p = _method5_counts(_method4_counts(m, hyp_len, param), matches[:, max_order]) / safe
    elif method == "chen-cherry-6":
        p = m / safe
        for n in range(2, max_order):
            prior = np.zeros(n_rows)
            nz = p[:, n - 2] > 0
            prior[nz] = p[nz, n - 1] ** 2 / p[nz, n - 2]
            with np.errstate(divide="ignore", invalid="ignore"):  # alpha = 0 and l_n = 0: order not in use
                p[:, n] = (m[:, n] + param * prior) / (l[:, n] + param)
    else:
        raise ValueError(f"unknown Chen & Cherry method {method!r}")

    precisions = np.where(in_use, 100.0 * p, 0.0)
    eff_order = in_use.sum(axis=1) if effective_order else np.full(n_rows, max_order)
    return precisions, eff_order.astype(np.int64), in_use[:, 0]
