"""Minimum Bayes risk (MBR) selection with BLEU as the utility (by default), on the pairwise scores of
:mod:`bleuscope.metrics.bleu.pairwise`; any metric whose higher scores are better can be the utility, through
its ``pairwise`` scores (:meth:`bleuscope.metrics.base.Metric.pairwise`)."""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..core.validation import check_bool, check_text_list
from ..metrics.base import Metric, check_metric
from ..metrics.bleu.scorer import BLEU


@dataclass(frozen=True)
class MBRResult:
    """The MBR choice: the index and text of the best hypothesis, every expected utility, the matrix."""

    index: int
    hypothesis: str
    utilities: np.ndarray  # float64 [H]: expected BLEU (0-100) of each hypothesis
    matrix: np.ndarray  # float64 [H, R]: pairwise sentence BLEU


def _default_bleu() -> BLEU:
    return BLEU(effective_order=True)


def _check_utility(metric) -> Metric:
    metric = check_metric(metric, "bleu")
    if not metric.higher_is_better:
        raise ValueError(f"bleu: MBR selects the highest expected score, but lower {metric.name} scores are better")
    return metric


def _check_weights(weights, n_ref: int) -> np.ndarray:
    if isinstance(weights, (str, bytes)):
        raise TypeError("weights must be a sequence of numbers, one per pseudo-reference")
    try:
        w = np.asarray(weights)
    except Exception:  # pragma: no cover - exotic containers
        raise TypeError("weights must be a sequence of numbers, one per pseudo-reference") from None
    if w.ndim != 1 or w.dtype.kind not in "iuf":
        raise TypeError(f"weights must be a 1-D sequence of real numbers, got {w.dtype} with shape {w.shape}")
    if len(w) != n_ref:
        raise ValueError(f"weights has {len(w)} entries but there are {n_ref} pseudo-references")
    w = w.astype(np.float64)
    if not np.isfinite(w).all() or (w < 0).any():
        bad = int(np.flatnonzero(~np.isfinite(w) | (w < 0))[0])
        raise ValueError(f"weights[{bad}] must be finite and >= 0, got {w[bad]!r}")
    return w


def utilities_from_matrix(matrix: np.ndarray, weights=None, *, include_self: bool = True) -> np.ndarray:
    """Expected utility per row of a pairwise matrix [H, R]: the (weighted) mean over the columns.

    ``include_self=False`` drops the diagonal (the matrix must be square: hypotheses = pseudo-references)
    and renormalises the weights of the remaining columns per row.
    """
    matrix = np.asarray(matrix, dtype=np.float64)
    if matrix.ndim != 2:
        raise ValueError(f"matrix must be 2-D [hypotheses, pseudo-references], got shape {matrix.shape}")
    include_self = check_bool(include_self, "include_self")
    n_hyp, n_ref = matrix.shape
    w = np.ones(n_ref, dtype=np.float64) if weights is None else _check_weights(weights, n_ref)
    mass = np.full(n_hyp, math.fsum(w.tolist()))
    if include_self:
        total = matrix @ w
    else:
        if n_hyp != n_ref:
            raise ValueError(
                f"include_self=False needs the pseudo-references to be the hypotheses (square matrix), got {matrix.shape}"
            )
        diag = np.arange(n_hyp)
        masked = matrix.copy()
        masked[diag, diag] = 0.0
        total = masked @ w
        mass = mass - w
    if (mass <= 0).any():
        bad = int(np.flatnonzero(mass <= 0)[0])
        raise ValueError(
            f"weights: hypothesis {bad} has no pseudo-reference with positive weight to be compared with"
            + ("" if include_self else " (its own entry excluded by include_self=False)")
        )
    return total / mass


def expected_utility(
    hypotheses: Sequence[str],
    pseudo_references: Sequence[str] | None = None,
    weights=None,
    *,
    include_self: bool = True,
    bleu=None,
) -> np.ndarray:
    """Expected sentence BLEU of each hypothesis against the pseudo-references, float64 [H].

    ``pseudo_references=None`` uses the hypotheses themselves (the usual sampling-based MBR). ``weights``
    (non-negative, one per pseudo-reference, normalised here) default to uniform. ``include_self`` (default
    True, like scoring the full matrix) keeps the pairs of a hypothesis with itself; False drops them, which
    requires the pseudo-references to be the hypotheses, and renormalises the weights over the others.
    ``bleu`` is the scorer (default ``BLEU(effective_order=True)``, sacreBLEU's advice for sentence BLEU):
    any metric whose higher scores are better, its sentence scores of every pair being the utilities.
    """
    return _mbr(hypotheses, pseudo_references, weights, include_self, bleu)[0]


def mbr_select(
    hypotheses: Sequence[str],
    pseudo_references: Sequence[str] | None = None,
    weights=None,
    *,
    include_self: bool = True,
    bleu=None,
) -> MBRResult:
    """The hypothesis with the highest expected BLEU (first one on ties); options as in :func:`expected_utility`."""
    utilities, matrix, hyps = _mbr(hypotheses, pseudo_references, weights, include_self, bleu)
    best = int(np.argmax(utilities))
    return MBRResult(index=best, hypothesis=hyps[best], utilities=utilities, matrix=matrix)


def _mbr(hypotheses, pseudo_references, weights, include_self, bleu):
    include_self = check_bool(include_self, "include_self")
    hyps = check_text_list(hypotheses, "hypotheses")
    if pseudo_references is None:
        refs = hyps
    else:
        refs = check_text_list(pseudo_references, "pseudo_references")
    if not include_self and refs != hyps:
        raise ValueError(
            "include_self=False drops the pair of each hypothesis with itself, so pseudo_references must be "
            "the hypotheses (pass pseudo_references=None)"
        )
    bleu = _default_bleu() if bleu is None else _check_utility(bleu)
    if weights is not None and isinstance(weights, numbers.Number):
        raise TypeError("weights must be a sequence of numbers, one per pseudo-reference, not a single number")
    if not hyps:
        raise ValueError("hypotheses is empty: give at least one hypothesis")
    if weights is not None:
        _check_weights(weights, len(refs))  # before the matrix is computed
    matrix = bleu.pairwise_checked(hyps, refs)  # the lists are checked above
    return utilities_from_matrix(matrix, weights, include_self=include_self), matrix, hyps


__all__ = ["MBRResult", "expected_utility", "mbr_select", "utilities_from_matrix"]
