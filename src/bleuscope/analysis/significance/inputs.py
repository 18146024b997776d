"""Argument checks and input resolution: systems given as hypothesis texts (counted here, references checked
once) or as cached per-segment statistics become named int64 arrays, the metric and its signature fields."""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from ...core.signature import nrefs_field
from ...core.stats import SegmentStatistics
from ...metrics.base import Metric, check_metric
from ...metrics.bleu.scorer import BLEU

DEFAULT_SEED = 12345
BOOTSTRAP_SAMPLES = 1000
AR_TRIALS = 10000
PRECISIONS = ("sacrebleu", "exact")
#: the most resamples (or AR trials) of one test: ten times the million that the most careful studies use
#: (a minute or two on a 2,000-segment test set, 80 MB of scores per system); a count beyond it is a typo or a
#: run that would not finish (10**10 trials: days)
MAX_RESAMPLES = 10_000_000


def check_count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {value!r}")
    count = int(value)
    if count < 1:
        raise ValueError(f"{name} must be >= 1, got {count}")
    if count > MAX_RESAMPLES:
        raise ValueError(f"{name} must be at most {MAX_RESAMPLES:,} (the limit on resamples), got {count:,}")
    return count


def resolve_seed(seed) -> int:
    """The seed to use: an int >= 0 as given; ``None`` draws fresh OS entropy (returned, so it can be recorded)."""
    if seed is None:
        # drawn fresh from the OS: one int
        return int(cast(int, np.random.SeedSequence().entropy))
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be a non-negative integer or None, got {seed!r}")
    if int(seed) < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    return int(seed)


def check_precision(precision) -> str:
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    return precision


def check_alpha(alpha) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < float(alpha) < 1:
        raise ValueError(f"alpha must be a number strictly between 0 and 1, got {alpha!r}")
    return float(alpha)


def _as_stats_array(value, name: str, metric) -> np.ndarray:
    arr = value.stats if hasattr(value, "stats") and hasattr(value, "nrefs") else value
    arr = np.asarray(arr)
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise ValueError(f"{name} must be per-segment statistics of shape [segments, columns], got {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer statistics, got dtype {arr.dtype}")
    try:  # the metric's own checks: widths, counts above totals, ... (column and row)
        metric.score_from_statistics(arr)
    except ValueError as e:
        raise ValueError(f"{name}: {e}") from None
    if (arr < 0).any():
        raise ValueError(f"{name} holds negative statistics; sufficient statistics are counts")
    # int16 and int32 rows stay compact (the command line keeps a million lines so; numpy sums them into
    # int64), other integer rows become int64
    return arr if arr.dtype in (np.int16, np.int32) else arr.astype(np.int64, copy=False)


def _is_text_system(value) -> bool:
    if isinstance(value, np.ndarray) or hasattr(value, "nrefs"):
        return False
    if isinstance(value, (str, bytes)):
        return True
    return isinstance(value, Sequence) and (len(value) == 0 or isinstance(value[0], (str, type(None))))


@dataclass(frozen=True)
class Inputs:
    names: tuple[str, ...]
    stats: tuple[np.ndarray, ...]  # int64 (or compact int16 / int32) [S, D] per system
    metric: Metric  # whose rows the systems' statistics are
    sig_fields: dict | None  # metric signature fields, or None when unknown


def named_systems(systems, what: str) -> list[tuple[str, object]]:
    if isinstance(systems, Mapping):
        items = list(systems.items())
    elif isinstance(systems, (str, bytes, np.ndarray)) or not isinstance(systems, Sequence):
        raise TypeError(
            f"{what} must be a mapping {{name: hypotheses or statistics}} or a list of (name, system) pairs, "
            f"got {type(systems).__name__}"
        )
    else:
        items = []
        for k, item in enumerate(systems):
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str)):
                raise TypeError(f"{what}[{k}] must be a (name, hypotheses or statistics) pair")
            items.append(item)
    names = [n for n, _ in items]
    for n in names:
        if not isinstance(n, str):
            raise TypeError(f"{what}: system names must be strings, got {n!r}")
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise ValueError(f"{what}: system name {dup!r} is used twice")
    return items


def resolve_inputs(items: list[tuple[str, object]], references, metric) -> Inputs:
    metric = BLEU() if metric is None else check_metric(metric)
    texts = [_is_text_system(v) for _, v in items]
    stats: list[np.ndarray] = []
    nrefs = None
    if any(texts):
        if not all(texts):
            raise TypeError("systems: give either hypothesis texts for every system or statistics for every system")
        if references is None:
            raise ValueError("references are required when systems are given as hypothesis texts")
        for name, hyps in items:
            if isinstance(hyps, (str, bytes)):
                raise TypeError(f"system {name!r} must be a list of hypothesis strings, got a single string")
        hyps_of = [cast("Sequence[str]", h) for _, h in items]  # texts, as checked above
        segs = system_statistics(metric, hyps_of, references, names=[n for n, _ in items])
        stats = [seg.stats for seg in segs]
        nrefs = nrefs_field(segs[0].nrefs)
    else:
        if references is not None:
            raise ValueError("references are only used with hypothesis texts; statistics already include them")
        for name, value in items:
            stats.append(_as_stats_array(value, f"system {name!r}", metric))
            if nrefs is None and hasattr(value, "nrefs"):  # the systems share their references
                nrefs = nrefs_field(value.nrefs)  # no np.unique: it imports numpy.ma (~20 ms)
    shapes = {s.shape for s in stats}
    if len(shapes) > 1:
        detail = ", ".join(f"{n!r}: {s.shape}" for (n, _), s in zip(items, stats))
        raise ValueError(f"systems have statistics of different shapes ({detail}); same segments required")
    sig_fields = metric.signature_fields(nrefs if nrefs is not None else "?")
    if nrefs is None:
        sig_fields.pop("nrefs")
    names = tuple(n for n, _ in items)
    return Inputs(names, tuple(stats), metric, sig_fields)


def system_statistics(metric, systems: Sequence[Sequence[str]], references, names: Sequence[str] | None = None) -> list:
    """``[metric.segment_statistics(h, references) for h in systems]``, with the references checked once
    (:meth:`Metric.check_systems`: each metric's own checks and input warnings; errors name a system by
    its entry of ``names``).

    A text metric with a chunk counter (BLEU) counts every system with one encoder (vocabulary and
    tokenization cache), so every word is tokenized once; the rows are identical to separate
    ``segment_statistics`` calls.
    """
    checked, streams, present = metric.check_systems(list(systems), references, None if names is None else list(names))
    nrefs = present.sum(axis=1).astype(np.int64)
    return [SegmentStatistics(stats=rows, nrefs=nrefs) for rows in metric.counter.systems(checked, streams, present)]
