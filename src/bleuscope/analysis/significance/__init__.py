"""Confidence intervals and paired significance tests on cached sufficient statistics.

Three procedures, each a pure function of per-segment statistics, a scorer and a seed:

* :func:`confidence_interval` -- bootstrap confidence interval of one system's corpus score
  (``sacrebleu --confidence``, ``BLEU.corpus_score(..., n_bootstrap=N)``);
* :func:`paired_bootstrap` -- paired bootstrap resampling (Koehn 2004) of a baseline against one or more
  systems (``sacrebleu --paired-bs``);
* :func:`paired_ar` -- paired approximate randomization (Riezler & Maxwell 2005; ``sacrebleu --paired-ar``);
* :func:`all_pairs` -- every pair of systems with either test, and a ranking into significance clusters.

**Same draws as sacreBLEU 2.6.0.** Every test starts from ``numpy.random.default_rng(seed)`` (default seed
12345) and draws exactly what sacreBLEU draws, in the same order: ``rng.choice(S, size=(N, S))`` resample
indices (1000 by default) for the bootstrap; ``rng.integers(2, size=(N, S), dtype=bool)`` swap masks
(10000 by default) for AR, followed by ``rng.choice`` indices when AR also reports confidence intervals.
sacreBLEU re-seeds the generator for every system, so all systems share one index matrix (or one mask);
bleuscope draws it once. Draws are made in row blocks (mask blocks are a multiple of 32 rows, which keeps
numpy's bit stream identical to one large draw) so that memory stays bounded on large corpora.

**Vectorized.** A block of resamples becomes a count matrix ``C[r, s]`` (how often segment ``s`` is in
resample ``r``, one ``bincount``), and the resampled corpus statistics of every system are one matrix product
``C @ [X_1 | ... | X_K]``. AR sums are ``M @ X`` for the 0/1 swap mask ``M``. The products run in BLAS on
non-negative integers: float32 when a bound of the sums is <= 2**24 (every partial sum is then an exactly
representable integer, whatever the summation order), float64 otherwise (exact below 2**53); results become
int64 accumulators. All resamples of all systems are then scored at once with
:func:`bleuscope.metrics.bleu.scoring.compute_scores`.

**Exactness vs parity.** sacreBLEU scores *bootstrap* resamples from ``float32`` statistics, and under
numpy >= 2 the ``Python float * numpy.float32`` products in its ``compute_bleu`` stay in float32, so every
n-gram precision of a resample is rounded to float32 (AR trials are scored from exact int64 sums). With
``precision="sacrebleu"`` (the default) bleuscope reproduces this arithmetic bit for bit: the float32
precisions (or float64 ones under numpy 1.x, where such products are promoted) and numpy's sequential
float32 accumulation of the resampled rows -- which equals the exact integer sum while a column's sum stays
at or below 2**24, and is emulated row by row above that. ``precision="exact"`` scores every resample from
its exact integer sums in float64 (the true BLEU of the resampled corpus). The two differ only in the last
bits of resampled scores; the actual scores and all AR results are the same either way.

**p-values.** ``p = (#{resamples whose statistic >= the observed one} + 1) / (N + 1)``. sacreBLEU 2.6.0 counts
only ``>``; the two agree unless a resampled statistic *ties* the observed one exactly, which for two distinct
systems is practically impossible (each result reports ``ties``). With ``>`` a system compared with an
identical copy of itself gets p = 1/(N+1), "significant"; with ``>=`` it gets p = 1. ``strict=True`` gives
sacreBLEU's rule.

Any metric with additive sufficient statistics plugs in through :class:`AdditiveStatistic`: an object with
a ``name`` and a vectorized ``score(stats_rows) -> float64 [R]``.

Differences from sacreBLEU on purpose: the seed is an argument (never ``SACREBLEU_SEED``); ``seed=0`` is a
seed like any other (sacreBLEU leaves the paired runs unseeded then); ``seed=None`` draws fresh entropy and
records the drawn seed in the results and the signature, so the run can be repeated.
"""

from __future__ import annotations

import numbers
import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from ..core.checks import warn_if_mostly_cjk
from ..core.signature import format_signature, nrefs_field
from ..core.stats import SegmentStatistics
from ..core.validation import check_reference_presence, check_references, check_text_list
from ..metrics.bleu.scorer import BLEU
from ..metrics.bleu.scoring import ScoringConfig, compute_scores

DEFAULT_SEED = 12345
BOOTSTRAP_SAMPLES = 1000
AR_TRIALS = 10000
PRECISIONS = ("sacrebleu", "exact")

#: elements per block of resample indices / count matrix (bounds memory on large corpora)
_BLOCK_ELEMENTS = 1 << 22
#: largest integer up to which float32 accumulation of non-negative integers is exact
_FLOAT32_EXACT = 1 << 24
#: the smoothing methods sacreBLEU has (others, e.g. Chen & Cherry's, have no float32 counterpart to mimic)


# ---------------------------------------------------------------------------------------------------------
# metrics: the additive-statistics protocol
# ---------------------------------------------------------------------------------------------------------
@runtime_checkable
class AdditiveStatistic(Protocol):
    """A metric whose corpus score is a function of the column sums of per-segment integer statistics.

    ``score(stats_rows)`` maps int64 rows ``[R, D]`` (each row a corpus total) to float64 scores ``[R]``.
    Optionally, ``score_float32(sums)`` scores float32 rows the way sacreBLEU scores bootstrap resamples.
    """

    name: str

    def score(self, stats: np.ndarray) -> np.ndarray: ...


@dataclass(frozen=True)
class BLEUStatistic:
    """BLEU as an :class:`AdditiveStatistic` (rows ``[hyp_len, ref_len, correct_1..N, total_1..N]``)."""

    config: ScoringConfig = field(default_factory=ScoringConfig)
    name: str = "BLEU"

    def score(self, stats: np.ndarray) -> np.ndarray:
        return compute_scores(stats, self.config).score

    def score_float32(self, sums: np.ndarray) -> np.ndarray:
        """BLEU of float32 resample sums with sacreBLEU 2.6.0's arithmetic (see the module docstring)."""
        return compute_scores(sums, self.config, float32=True).score


@dataclass(frozen=True)
class MetricStatistic:
    """Any additive metric (:class:`bleuscope.metrics.base.AdditiveMetric`: BLEU, chrF, TER, ...) as an
    :class:`AdditiveStatistic`, through its ``score_rows``."""

    metric: object

    @property
    def name(self) -> str:
        return self.metric.name

    @property
    def higher_is_better(self) -> bool:
        return bool(getattr(self.metric, "higher_is_better", True))

    def score(self, stats: np.ndarray) -> np.ndarray:
        return np.asarray(self.metric.score_rows(stats), dtype=np.float64)

    def score_float32(self, sums: np.ndarray) -> np.ndarray:
        """The metric's scores of float32 resample sums (sacreBLEU's arithmetic where it has one)."""
        return np.asarray(self.metric.score_rows(np.atleast_2d(sums), float32=True), dtype=np.float64)

    def float32_statistics(self, stats: np.ndarray) -> np.ndarray | None:
        """sacreBLEU's float32 per-segment rows when they are not the int64 rows cast (TER's mean reference
        length), else None."""
        convert = getattr(self.metric, "float32_statistics", None)
        return None if convert is None else convert(stats)

    @property
    def bootstrap_scores_float32(self) -> bool:
        """sacreBLEU's resampled scores of this metric are numpy.float32 (chrF, TER), so its means, CI
        half-widths and paired differences run in float32."""
        return bool(getattr(self.metric, "bootstrap_scores_float32", False))


@dataclass(frozen=True)
class FunctionStatistic:
    """Wrap a vectorized function ``score(stats_rows) -> scores`` as an :class:`AdditiveStatistic`."""

    function: object
    name: str = "score"

    def score(self, stats: np.ndarray) -> np.ndarray:
        out = np.asarray(self.function(stats), dtype=np.float64)
        if out.shape != (len(stats),):
            raise ValueError(
                f"metric function returned shape {out.shape} for {len(stats)} rows; expected ({len(stats)},)"
            )
        return out


def _is_additive_metric(metric) -> bool:
    return all(hasattr(metric, a) for a in ("score_rows", "segment_statistics", "signature_fields", "name"))


def as_statistic(metric) -> AdditiveStatistic:
    """An additive metric (a :class:`BLEU` scorer, chrF, TER, ...), a :class:`ScoringConfig`, an
    :class:`AdditiveStatistic` or a plain function."""
    if metric is None:
        return BLEUStatistic()
    if _is_additive_metric(metric):  # BLEU, chrF, TER: only through the AdditiveMetric interface
        return MetricStatistic(metric)
    if isinstance(metric, ScoringConfig):
        return BLEUStatistic(metric)
    if isinstance(metric, AdditiveStatistic):
        return metric
    if callable(metric):
        return FunctionStatistic(metric, getattr(metric, "__name__", "score"))
    raise TypeError(
        "metric must be a bleuscope BLEU, a ScoringConfig, an object with a vectorized score(stats) method, "
        f"or a function; got {type(metric).__name__}"
    )


# ---------------------------------------------------------------------------------------------------------
# results
# ---------------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class ConfidenceInterval:
    """Bootstrap estimate for one system: ``mean ± ci`` with bounds ``[lower, upper]``.

    ``mean`` is the mean of the resampled scores (sacreBLEU's "μ"), not ``score``. The bounds are the sorted
    resampled scores at ``N // 40`` and ``N - N // 40 - 1`` (a 95% percentile interval for N = 1000), and
    ``ci`` is half their distance, as in sacreBLEU.
    """

    system: str
    score: float
    mean: float
    ci: float
    lower: float
    upper: float
    n_samples: int
    seed: int
    metric: str = "BLEU"
    signature: str = ""

    def format(self, width: int = 2) -> str:
        return f"{self.score:.{width}f} (μ = {self.mean:.{width}f} ± {self.ci:.{width}f})"

    def __str__(self) -> str:
        return f"{self.metric} = {self.format()}"


@dataclass(frozen=True)
class SystemComparison:
    """One system of a paired test against the baseline (the baseline itself has ``p_value=None``).

    ``delta`` is ``score - baseline score``. ``mean``/``ci``/``lower``/``upper`` come from the bootstrap
    resamples (paired bootstrap, or AR with ``confidence_n``) and are ``None`` otherwise. ``ties`` counts the
    resampled statistics exactly equal to the observed one: the only case where ``>=`` (bleuscope) and ``>``
    (sacreBLEU) give different p-values.
    """

    system: str
    score: float
    delta: float
    p_value: float | None
    mean: float | None
    ci: float | None
    lower: float | None
    upper: float | None
    is_baseline: bool
    ties: int
    n_samples: int
    seed: int

    def to_dict(self) -> dict:
        """sacreBLEU's JSON fields for one cell: ``score``, ``p_value``, ``mean``, ``ci``."""
        return {"score": self.score, "p_value": self.p_value, "mean": self.mean, "ci": self.ci}


@dataclass(frozen=True)
class PairedTestResult:
    """A baseline against one or more systems; ``systems[0]`` is the baseline."""

    test: str  # "bs" (paired bootstrap) or "ar" (approximate randomization)
    metric: str
    baseline: str
    systems: tuple[SystemComparison, ...]
    n_samples: int
    seed: int
    confidence_n: int | None
    signature: str

    def __getitem__(self, name: str) -> SystemComparison:
        for s in self.systems:
            if s.system == name:
                return s
        raise KeyError(name)

    def __iter__(self):
        return iter(self.systems)

    def __len__(self) -> int:
        return len(self.systems)

    def format(self, width: int = 2) -> str:
        """One line per system: score, ``(μ = mean ± ci)`` when resampled, delta and p-value."""
        lines = [
            f"{'bootstrap' if self.test == 'bs' else 'approximate randomization'} "
            f"({self.n_samples} {'resamples' if self.test == 'bs' else 'trials'}), {self.signature}"
        ]
        for s in self.systems:
            line = f"{s.system}: {self.metric} = {s.score:.{width}f}"
            if s.mean is not None:
                line += f" (μ = {s.mean:.{width}f} ± {s.ci:.{width}f})"
            line += " [baseline]" if s.is_baseline else f" Δ = {s.delta:+.{width}f} p = {s.p_value:.4f}"
            lines.append(line)
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> list[dict]:
        """sacreBLEU's ``--format json`` shape: ``[{"system": ..., "BLEU": {score, p_value, mean, ci}}, ...]``."""
        return [{"system": s.system, self.metric: s.to_dict()} for s in self.systems]


@dataclass(frozen=True, eq=False)
class AllPairsResult:
    """Every pair of systems compared with one test, and a ranking into significance clusters.

    ``p_values[i, j]`` is the p-value of the paired test between ``systems[i]`` and ``systems[j]``; it equals
    the p-value of the baseline-vs-system test with ``systems[i]`` as the baseline (same seed, same draws) and
    is symmetric. ``order`` lists system indices by descending score (ascending for a metric where lower is better). Clusters (best first) are separated
    between ranks k and k+1 exactly when every system above the line beats every system below it with
    p < alpha, so a system's cluster never contains a system it significantly beats with all others in
    between. ``rank_ranges[i] = (1 + #systems significantly better, K - #systems significantly worse)``.
    """

    test: str
    metric: str
    systems: tuple[str, ...]
    scores: tuple[float, ...]
    means: tuple[float | None, ...]
    cis: tuple[float | None, ...]
    p_values: np.ndarray  # float64 [K, K], read-only; diagonal 1.0
    alpha: float
    order: tuple[int, ...]
    clusters: tuple[tuple[str, ...], ...]
    cluster_of: tuple[int, ...]  # 1-based cluster per system (same order as `systems`)
    rank_ranges: tuple[tuple[int, int], ...]
    n_samples: int
    seed: int
    signature: str

    def __eq__(self, other) -> bool:
        if not isinstance(other, AllPairsResult):
            return NotImplemented
        return all(
            np.array_equal(getattr(self, f), getattr(other, f))
            if f == "p_values"
            else getattr(self, f) == getattr(other, f)
            for f in self.__dataclass_fields__
        )

    __hash__ = None  # type: ignore[assignment]  # holds an array

    def _index(self, name: str) -> int:
        try:
            return self.systems.index(name)
        except ValueError:
            raise KeyError(name) from None

    def p_value(self, a: str, b: str) -> float:
        return float(self.p_values[self._index(a), self._index(b)])

    def significant(self, a: str, b: str) -> bool:
        return self.p_value(a, b) < self.alpha

    def format(self, width: int = 2) -> str:
        """One line per system, best first: cluster, rank range, score."""
        lines = [
            f"all pairs, {'bootstrap' if self.test == 'bs' else 'approximate randomization'} "
            f"({self.n_samples}), alpha {self.alpha:g}, {self.signature}"
        ]
        for i in self.order:
            lo, hi = self.rank_ranges[i]
            rank = f"{lo}" if lo == hi else f"{lo}-{hi}"
            lines.append(
                f"cluster {self.cluster_of[i]}  rank {rank:<5} {self.systems[i]}: "
                f"{self.metric} = {self.scores[i]:.{width}f}"
            )
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.format()

    def to_json(self) -> list[dict]:
        """A list of systems (best first) in sacreBLEU's shape, plus ``cluster``, ``rank`` and ``p_values``."""
        rows = []
        for i in self.order:
            cell = {
                "score": self.scores[i],
                "mean": self.means[i],
                "ci": self.cis[i],
                "cluster": self.cluster_of[i],
                "rank": list(self.rank_ranges[i]),
                "p_values": {self.systems[j]: float(self.p_values[i, j]) for j in self.order if j != i},
            }
            rows.append({"system": self.systems[i], self.metric: cell})
        return rows


# ---------------------------------------------------------------------------------------------------------
# argument checks and input resolution
# ---------------------------------------------------------------------------------------------------------
def _check_count(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a positive integer, got {value!r}")
    if value < 1:
        raise ValueError(f"{name} must be >= 1, got {value}")
    return int(value)


def resolve_seed(seed) -> int:
    """The seed to use: an int >= 0 as given; ``None`` draws fresh OS entropy (returned, so it can be recorded)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy)
    if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
        raise TypeError(f"seed must be a non-negative integer or None, got {seed!r}")
    if seed < 0:
        raise ValueError(f"seed must be >= 0, got {seed}")
    return int(seed)


def _check_precision(precision) -> str:
    if precision not in PRECISIONS:
        raise ValueError(f"precision must be one of {PRECISIONS}, got {precision!r}")
    return precision


def _check_alpha(alpha) -> float:
    if isinstance(alpha, bool) or not isinstance(alpha, numbers.Real) or not 0 < alpha < 1:
        raise ValueError(f"alpha must be a number strictly between 0 and 1, got {alpha!r}")
    return float(alpha)


def _as_stats_array(value, name: str) -> np.ndarray:
    arr = value.stats if hasattr(value, "stats") and hasattr(value, "nrefs") else value
    arr = np.asarray(arr)
    if arr.ndim != 2 or arr.shape[0] == 0:
        raise ValueError(f"{name} must be per-segment statistics of shape [segments, columns], got {arr.shape}")
    if arr.dtype.kind not in "iu":
        raise TypeError(f"{name} must hold integer statistics, got dtype {arr.dtype}")
    if (arr < 0).any():
        raise ValueError(f"{name} holds negative statistics; sufficient statistics are counts")
    return arr.astype(np.int64, copy=False)


def _is_text_system(value) -> bool:
    if isinstance(value, np.ndarray) or hasattr(value, "nrefs"):
        return False
    if isinstance(value, (str, bytes)):
        return True
    return isinstance(value, Sequence) and (len(value) == 0 or isinstance(value[0], (str, type(None))))


@dataclass(frozen=True)
class _Inputs:
    names: tuple[str, ...]
    stats: tuple[np.ndarray, ...]  # int64 [S, D] per system
    statistic: AdditiveStatistic
    sig_fields: dict | None  # metric signature fields, or None when unknown


def _named(systems, what: str) -> list[tuple[str, object]]:
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


def _resolve(items: list[tuple[str, object]], references, metric) -> _Inputs:
    statistic = as_statistic(metric)
    texts = [_is_text_system(v) for _, v in items]
    stats: list[np.ndarray] = []
    nrefs = None
    if any(texts):
        if not all(texts):
            raise TypeError("systems: give either hypothesis texts for every system or statistics for every system")
        if references is None:
            raise ValueError("references are required when systems are given as hypothesis texts")
        scorer = BLEU() if metric is None else metric
        if not _is_additive_metric(scorer):
            raise TypeError("hypothesis texts need a bleuscope metric (BLEU, chrF, TER) as metric (or pass statistics)")
        for name, hyps in items:
            if isinstance(hyps, (str, bytes)):
                raise TypeError(f"system {name!r} must be a list of hypothesis strings, got a single string")
        segs = system_statistics(scorer, [h for _, h in items], references, names=[n for n, _ in items])
        stats = [seg.stats for seg in segs]
        nrefs = nrefs_field(np.unique(segs[0].nrefs))
    else:
        if references is not None:
            raise ValueError("references are only used with hypothesis texts; statistics already include them")
        for name, value in items:
            stats.append(_as_stats_array(value, f"system {name!r}"))
            if nrefs is None and hasattr(value, "nrefs"):  # the systems share their references
                nrefs = nrefs_field(np.unique(value.nrefs))
    shapes = {s.shape for s in stats}
    if len(shapes) > 1:
        detail = ", ".join(f"{n!r}: {s.shape}" for (n, _), s in zip(items, stats))
        raise ValueError(f"systems have statistics of different shapes ({detail}); same segments required")
    sig_fields = None
    if metric is None or _is_additive_metric(metric):
        scorer = BLEU() if metric is None else metric
        sig_fields = scorer.signature_fields(nrefs if nrefs is not None else "?")
        if nrefs is None:
            sig_fields.pop("nrefs")
    names = tuple(n for n, _ in items)
    return _Inputs(names, tuple(stats), statistic, sig_fields)


def system_statistics(metric, systems: Sequence[Sequence[str]], references, names: Sequence[str] | None = None) -> list:
    """``[metric.segment_statistics(h, references) for h in systems]``, with the references checked once.

    A text metric with a chunk counter (BLEU) counts every system with one encoder (vocabulary and
    tokenization cache), so every word is tokenized once; the rows are identical to separate
    ``segment_statistics`` calls.
    """
    label = [f"system {n!r}" for n in names] if names is not None else [f"systems[{k}]" for k in range(len(systems))]
    hyps_list = [check_text_list(h, label[k]) for k, h in enumerate(systems)]
    if not hyps_list or not hyps_list[0]:
        raise ValueError(f"{label[0] if hyps_list else 'systems'} is empty: give at least one segment")
    n_seg = len(hyps_list[0])
    for k, hyps in enumerate(hyps_list):
        if len(hyps) != n_seg:
            raise ValueError(
                f"{label[k]} has {len(hyps)} lines but {label[0]} has {n_seg}; "
                "every system must translate the same segments"
            )
    if not hasattr(metric, "chunk_counter"):
        return [metric.segment_statistics(hyps, references) for hyps in hyps_list]
    tokenizer = getattr(metric, "tokenizer", None)
    warn_if_mostly_cjk(getattr(tokenizer, "name", ""), hyps_list[0])
    streams = check_references(references, n_seg)
    present = check_reference_presence(streams)
    nrefs = present.sum(axis=1).astype(np.int64)
    counter = metric.chunk_counter()
    encoder = counter.new_encoder()
    return [SegmentStatistics(stats=counter.count(hyps, streams, encoder=encoder), nrefs=nrefs) for hyps in hyps_list]


def signature_with_test(sig_fields: dict | None, inserted: dict, short: bool = False) -> str:
    """A metric's signature fields with a test's fields (``bs``/``ar``, ``seed``) inserted after ``nrefs``.

    This is sacreBLEU's order, e.g. ``nrefs:1|bs:1000|seed:12345|case:mixed|...``.
    """
    if sig_fields is None:
        return format_signature(inserted, short=short)
    out = {}
    placed = False
    for key, value in sig_fields.items():
        if not placed and key != "nrefs":
            out.update(inserted)
            placed = True
        out[key] = value
    if not placed:
        out.update(inserted)
    return format_signature(out, short=short)


# ---------------------------------------------------------------------------------------------------------
# vectorized resampling
# ---------------------------------------------------------------------------------------------------------
def _block_rows(n_segments: int, multiple: int = 1) -> int:
    rows = max(1, _BLOCK_ELEMENTS // max(1, n_segments))
    return max(multiple, rows // multiple * multiple)


def _bootstrap_index_blocks(rng: np.random.Generator, n_segments: int, n_samples: int):
    """``rng.choice(S, size=(N, S), replace=True)`` in row blocks (identical to one draw)."""
    block = _block_rows(n_segments)
    for start in range(0, n_samples, block):
        rows = min(block, n_samples - start)
        yield rng.choice(n_segments, size=(rows, n_segments), replace=True)


def _count_matrix(idx: np.ndarray, n_segments: int) -> np.ndarray:
    rows = idx.shape[0]
    flat = (idx + (np.arange(rows, dtype=np.int64) * n_segments)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n_segments).reshape(rows, n_segments)


def _stack(stats, bound: int) -> np.ndarray:
    """Systems side by side ``[S, K*D]`` as BLAS operands: float32 when every product sum stays <= 2**24.

    The operands are non-negative integers, so every partial sum of ``W @ X`` is an integer no larger than
    the final one; when ``bound`` (an upper bound of the final sums) is <= 2**24, float32 GEMM is exact in
    any summation order (and twice as fast); otherwise float64, exact below 2**53.
    """
    dtype = np.float32 if bound <= _FLOAT32_EXACT else np.float64
    return np.concatenate(stats, axis=1).astype(dtype)


def _exact_product(weights: np.ndarray, stacked: np.ndarray, buf: np.ndarray | None = None) -> np.ndarray:
    """``weights @ stacked`` for non-negative integer matrices, exactly, as int64 (see :func:`_stack`)."""
    if buf is None:
        left = weights.astype(stacked.dtype)
    else:
        left = buf[: len(weights)]
        np.copyto(left, weights, casting="unsafe")
    return np.rint(left @ stacked).astype(np.int64)


def _float32_sums(idx: np.ndarray, stats32: np.ndarray) -> np.ndarray:
    """numpy's ``stats32[idx[r]].sum(0)`` for every row r: sequential float32 accumulation over segments."""
    acc = np.zeros((idx.shape[0], stats32.shape[1]), dtype=np.float32)
    for s in range(idx.shape[1]):
        acc += stats32[idx[:, s]]
    return acc


def _bootstrap_stack(stats) -> np.ndarray:
    # a resample sum is at most S * the column maximum
    return _stack(stats, stats[0].shape[0] * max(int(x.max(initial=0)) for x in stats))


def _score_bootstrap_block(
    idx: np.ndarray, stats: tuple[np.ndarray, ...], stacked: np.ndarray, statistic, precision: str
) -> np.ndarray:
    """Scores [K, rows] of every system on the resamples given by ``idx`` (rows x S indices)."""
    n_seg, width = stats[0].shape
    sums = _exact_product(_count_matrix(idx, n_seg), stacked).reshape(len(idx), len(stats), width)
    out = np.empty((len(stats), len(idx)), dtype=np.float64)
    float32 = precision == "sacrebleu" and hasattr(statistic, "score_float32")
    for k, x in enumerate(stats):
        rows = sums[:, k, :]
        x32 = _float32_rows(statistic, x) if float32 else None
        if not float32:
            out[k] = statistic.score(rows)
        elif x32 is None and rows.max(initial=0) <= _FLOAT32_EXACT and x.max(initial=0) <= _FLOAT32_EXACT:
            out[k] = statistic.score_float32(rows.astype(np.float32))  # float32 accumulation was exact
        else:
            out[k] = statistic.score_float32(_float32_sums(idx, x.astype(np.float32) if x32 is None else x32))
    return out


def _float32_rows(statistic, stats: np.ndarray) -> np.ndarray | None:
    """The metric's own float32 per-segment rows (e.g. TER's mean reference lengths), or None when
    sacreBLEU's float32 rows are the integer rows cast."""
    convert = getattr(statistic, "float32_statistics", None)
    return None if convert is None else convert(stats)


def _scores_float32(statistic, precision: str) -> bool:
    """Are sacreBLEU's resampled scores numpy.float32 for this metric (chrF, TER; not BLEU)?"""
    return precision == "sacrebleu" and bool(getattr(statistic, "bootstrap_scores_float32", False))


def _bootstrap_scores(stats, statistic, n_samples: int, seed: int, precision: str) -> np.ndarray:
    """[K, N] resampled scores; one seeded index matrix shared by all systems, as in sacreBLEU."""
    rng = np.random.default_rng(seed)
    stacked = _bootstrap_stack(stats)
    parts = [
        _score_bootstrap_block(idx, stats, stacked, statistic, precision)
        for idx in _bootstrap_index_blocks(rng, stats[0].shape[0], n_samples)
    ]
    return np.concatenate(parts, axis=1)


def _interval(scores: np.ndarray, mean_rule: str, float32: bool = False) -> tuple[float, float, float, float]:
    """(mean, half-width, lower, upper) by sacreBLEU's rule; ``mean_rule`` picks its two mean functions.
    ``float32``: the scores are numpy.float32 values in sacreBLEU (chrF, TER), and so are its mean and
    half-width (``statistics.mean`` of float32 values returns a float32)."""
    s = np.sort(scores.astype(np.float32) if float32 else scores)
    n = len(s)
    lo = n // 40
    lower, upper = s[lo], s[n - lo - 1]
    mean = statistics.mean(s.tolist()) if mean_rule == "statistics" else s.mean()
    if float32 and mean_rule == "statistics":
        mean = np.float32(mean)
    return float(mean), float(0.5 * (upper - lower)), float(lower), float(upper)


def _p_value(sampled: np.ndarray, observed: float, strict: bool) -> tuple[float, int]:
    greater = int(np.count_nonzero(sampled > observed))
    ties = int(np.count_nonzero(sampled == observed))
    count = greater if strict else greater + ties
    return (count + 1) / (len(sampled) + 1), ties


def _ar_abs_differences(stats, pairs, statistic, n_trials: int, rng: np.random.Generator) -> dict:
    """|score(shuffled a) - score(shuffled b)| for every (i, j) in ``pairs``, over ``n_trials`` masks.

    The mask is ``rng.integers(2, size=(N, S), dtype=bool)`` drawn in blocks of a multiple of 32 rows; for
    pair (i, j), shuffled a = M @ X_i + (1 - M) @ X_j and shuffled b the complement, as in sacreBLEU.
    """
    n_seg, width = stats[0].shape
    used = sorted({k for p in pairs for k in p})
    totals = {k: stats[k].sum(axis=0) for k in used}
    stacked = _stack([stats[k] for k in used], max(int(t.max(initial=0)) for t in totals.values()))
    out = {p: [] for p in pairs}
    block = _block_rows(n_seg, 32)
    buf = np.empty((min(block, n_trials), n_seg), dtype=stacked.dtype)
    for start in range(0, n_trials, block):
        rows = min(block, n_trials - start)
        mask = rng.integers(2, size=(rows, n_seg), dtype=bool)
        prod = _exact_product(mask, stacked, buf).reshape(rows, len(used), width)
        picked = {k: prod[:, u, :] for u, k in enumerate(used)}
        for i, j in pairs:
            a = picked[i] + (totals[j] - picked[j])
            b = (totals[i] - picked[i]) + picked[j]
            scores = statistic.score(np.concatenate([a, b]))
            out[(i, j)].append(np.abs(scores[:rows] - scores[rows:]))
    return {p: np.concatenate(v) for p, v in out.items()}


# ---------------------------------------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------------------------------------
def confidence_interval(
    system,
    references=None,
    *,
    metric=None,
    n_samples: int = BOOTSTRAP_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    precision: str = "sacrebleu",
    name: str = "system",
) -> ConfidenceInterval:
    """Bootstrap confidence interval of one system's corpus score.

    ``system`` is a list of hypothesis strings (with ``references`` as streams, and ``metric`` a
    :class:`~bleuscope.BLEU`, default ``BLEU()``), or per-segment statistics (an int array ``[S, D]`` or a
    :class:`~bleuscope.SegmentStatistics`, with ``metric`` a BLEU, a :class:`ScoringConfig` or an
    :class:`AdditiveStatistic`). Same numbers as sacreBLEU's ``corpus_score(..., n_bootstrap=n_samples)`` /
    ``sacrebleu --confidence -cin n_samples`` with the same seed (mean by ``statistics.mean``, as there).
    """
    n_samples = _check_count(n_samples, "n_samples")
    seed = resolve_seed(seed)
    precision = _check_precision(precision)
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {name!r}")
    inputs = _resolve([(name, system)], references, metric)
    x = inputs.stats[0]
    score = float(inputs.statistic.score(x.sum(axis=0)[None, :])[0])
    scores = _bootstrap_scores(inputs.stats, inputs.statistic, n_samples, seed, precision)[0]
    mean, ci, lower, upper = _interval(scores, "statistics", _scores_float32(inputs.statistic, precision))
    sig = signature_with_test(inputs.sig_fields, {"bs": str(n_samples), "seed": str(seed)})
    return ConfidenceInterval(name, score, mean, ci, lower, upper, n_samples, seed, inputs.statistic.name, sig)


def _paired(
    test: str, systems, references, *, metric, baseline, n_samples, seed, precision, strict, confidence_n=None
) -> PairedTestResult:
    items = _named(systems, "systems")
    if len(items) < 2:
        raise ValueError("systems: a paired test needs a baseline and at least one other system")
    if baseline is not None:
        names = [n for n, _ in items]
        if baseline not in names:
            raise ValueError(f"baseline {baseline!r} is not one of the systems: {names}")
        items = [items[names.index(baseline)]] + [it for it in items if it[0] != baseline]
    n_samples = _check_count(n_samples, "n_samples")
    seed = resolve_seed(seed)
    precision = _check_precision(precision)
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    inputs = _resolve(items, references, metric)
    stats, statistic = inputs.stats, inputs.statistic
    actual = statistic.score(np.stack([x.sum(axis=0) for x in stats]))
    base = float(actual[0])
    rows = []
    if test == "bs":
        scores = _bootstrap_scores(stats, statistic, n_samples, seed, precision)
        f32 = _scores_float32(statistic, precision)
        cis = [_interval(s, "numpy", f32) for s in scores]
        rows.append(SystemComparison(inputs.names[0], base, 0.0, None, *cis[0], True, 0, n_samples, seed))
        for k in range(1, len(stats)):
            if f32:  # sacreBLEU's float32 score arrays: differences, their mean and the comparison in float32
                diffs = np.abs(scores[k].astype(np.float32) - scores[0].astype(np.float32))
                p, ties = _p_value(diffs - diffs.mean(), np.float32(abs(base - float(actual[k]))), strict)
            else:
                diffs = np.abs(scores[k] - scores[0])
                p, ties = _p_value(diffs - diffs.mean(), abs(base - float(actual[k])), strict)
            rows.append(
                SystemComparison(
                    inputs.names[k], float(actual[k]), float(actual[k]) - base, p, *cis[k], False, ties, n_samples, seed
                )
            )
        inserted = {"bs": str(n_samples), "seed": str(seed)}
    else:
        base_ci = (None,) * 4
        if confidence_n is not None:
            base_ci = _interval(
                _bootstrap_scores(stats[:1], statistic, confidence_n, seed, precision)[0],
                "numpy",
                _scores_float32(statistic, precision),
            )
        rows.append(SystemComparison(inputs.names[0], base, 0.0, None, *base_ci, True, 0, n_samples, seed))
        # sacreBLEU re-seeds per system, so every system sees the same masks: draw them once
        rng = np.random.default_rng(seed)
        others = list(range(1, len(stats)))
        diffs = _ar_abs_differences(stats, [(0, k) for k in others], statistic, n_samples, rng)
        ci_scores = None
        if confidence_n is not None:  # indices drawn after the masks, from the same generator
            stacked = _bootstrap_stack(stats[1:])
            parts = [
                _score_bootstrap_block(idx, stats[1:], stacked, statistic, precision)
                for idx in _bootstrap_index_blocks(rng, stats[0].shape[0], confidence_n)
            ]
            ci_scores = np.concatenate(parts, axis=1)
        for k in others:
            p, ties = _p_value(diffs[(0, k)], abs(base - float(actual[k])), strict)
            ci = (
                (None,) * 4
                if ci_scores is None
                else _interval(ci_scores[k - 1], "numpy", _scores_float32(statistic, precision))
            )
            rows.append(
                SystemComparison(
                    inputs.names[k], float(actual[k]), float(actual[k]) - base, p, *ci, False, ties, n_samples, seed
                )
            )
        inserted = {"ar": str(n_samples), "seed": str(seed)}
        if confidence_n is not None:
            inserted = {"bs": str(confidence_n), **inserted}
    return PairedTestResult(
        test,
        statistic.name,
        inputs.names[0],
        tuple(rows),
        n_samples,
        seed,
        n_samples if test == "bs" else confidence_n,
        signature_with_test(inputs.sig_fields, inserted),
    )


def paired_bootstrap(
    systems,
    references=None,
    *,
    metric=None,
    baseline: str | None = None,
    n_samples: int = BOOTSTRAP_SAMPLES,
    seed: int | None = DEFAULT_SEED,
    precision: str = "sacrebleu",
    strict: bool = False,
) -> PairedTestResult:
    """Paired bootstrap resampling (Koehn 2004) of a baseline against every other system.

    ``systems`` maps names to hypotheses (or statistics), or is a list of ``(name, system)`` pairs; the
    baseline is ``baseline`` or the first system. Per system: the actual score, the resampled mean and 95% CI
    and p = (#{|Δ*| - mean|Δ*| >= |Δ|} + 1) / (N + 1) -- sacreBLEU ``--paired-bs``'s numbers for the same seed.
    """
    return _paired(
        "bs",
        systems,
        references,
        metric=metric,
        baseline=baseline,
        n_samples=n_samples,
        seed=seed,
        precision=precision,
        strict=strict,
    )


def paired_ar(
    systems,
    references=None,
    *,
    metric=None,
    baseline: str | None = None,
    n_samples: int = AR_TRIALS,
    seed: int | None = DEFAULT_SEED,
    confidence_n: int | None = None,
    precision: str = "sacrebleu",
    strict: bool = False,
) -> PairedTestResult:
    """Paired approximate randomization (Riezler & Maxwell 2005) of a baseline against every other system.

    Each trial swaps every segment's statistics between the two systems with probability 1/2;
    p = (#{|Δ_shuffled| >= |Δ|} + 1) / (N + 1) -- sacreBLEU ``--paired-ar``'s numbers for the same seed.
    ``confidence_n`` adds bootstrap CIs as sacreBLEU's ``PairedTest(n_ar_confidence=...)`` does.
    """
    if confidence_n is not None:
        confidence_n = _check_count(confidence_n, "confidence_n")
    return _paired(
        "ar",
        systems,
        references,
        metric=metric,
        baseline=baseline,
        n_samples=n_samples,
        seed=seed,
        precision=precision,
        strict=strict,
        confidence_n=confidence_n,
    )


def _clusters(order: list[int], scores: np.ndarray, p: np.ndarray, alpha: float):
    k = len(order)
    sig = p < alpha
    boundaries = []
    for cut in range(1, k):
        above, below = order[:cut], order[cut:]
        if all(sig[i, j] and scores[i] > scores[j] for i in above for j in below):
            boundaries.append(cut)
    clusters, start = [], 0
    for cut in boundaries + [k]:
        clusters.append(order[start:cut])
        start = cut
    better = [sum(1 for j in range(k) if sig[i, j] and scores[j] > scores[i]) for i in range(k)]
    worse = [sum(1 for j in range(k) if sig[i, j] and scores[j] < scores[i]) for i in range(k)]
    ranks = tuple((1 + better[i], k - worse[i]) for i in range(k))
    return clusters, ranks


def all_pairs(
    systems,
    references=None,
    *,
    metric=None,
    test: str = "bs",
    n_samples: int | None = None,
    seed: int | None = DEFAULT_SEED,
    alpha: float = 0.05,
    precision: str = "sacrebleu",
    strict: bool = False,
) -> AllPairsResult:
    """Compare every pair of systems (``test="bs"`` or ``"ar"``) and rank them into significance clusters.

    All pairs share the seeded draws, so ``p_values[i, j]`` equals the p-value of
    ``paired_bootstrap``/``paired_ar`` with system i as the baseline and the same seed.
    """
    if test not in ("bs", "ar"):
        raise ValueError(f"test must be 'bs' (paired bootstrap) or 'ar' (approximate randomization), got {test!r}")
    items = _named(systems, "systems")
    if len(items) < 2:
        raise ValueError("systems: all-pairs comparison needs at least two systems")
    n_samples = _check_count(
        BOOTSTRAP_SAMPLES if test == "bs" and n_samples is None else AR_TRIALS if n_samples is None else n_samples,
        "n_samples",
    )
    seed = resolve_seed(seed)
    precision = _check_precision(precision)
    alpha = _check_alpha(alpha)
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    inputs = _resolve(items, references, metric)
    stats, statistic = inputs.stats, inputs.statistic
    k = len(stats)
    actual = statistic.score(np.stack([x.sum(axis=0) for x in stats]))
    p = np.ones((k, k), dtype=np.float64)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    means: list = [None] * k
    cis: list = [None] * k
    if test == "bs":
        scores = _bootstrap_scores(stats, statistic, n_samples, seed, precision)
        for i in range(k):
            means[i], cis[i] = _interval(scores[i], "numpy")[:2]
        for i, j in pairs:
            diffs = np.abs(scores[j] - scores[i])
            p[i, j] = p[j, i] = _p_value(diffs - diffs.mean(), abs(actual[i] - actual[j]), strict)[0]
    else:
        diffs = _ar_abs_differences(stats, pairs, statistic, n_samples, np.random.default_rng(seed))
        for i, j in pairs:
            p[i, j] = p[j, i] = _p_value(diffs[(i, j)], abs(actual[i] - actual[j]), strict)[0]
    p.setflags(write=False)
    # best first: the highest scores, or the lowest for a metric where lower is better (TER)
    goodness = actual if getattr(statistic, "higher_is_better", True) else -actual
    order = sorted(range(k), key=lambda i: (-goodness[i], i))
    clusters, ranks = _clusters(order, goodness, p, alpha)
    cluster_of = [0] * k
    for c, members in enumerate(clusters, start=1):
        for i in members:
            cluster_of[i] = c
    names = inputs.names
    sig = signature_with_test(inputs.sig_fields, {test: str(n_samples), "seed": str(seed)})
    return AllPairsResult(
        test,
        statistic.name,
        names,
        tuple(float(a) for a in actual),
        tuple(means),
        tuple(cis),
        p,
        alpha,
        tuple(order),
        tuple(tuple(names[i] for i in c) for c in clusters),
        tuple(cluster_of),
        ranks,
        n_samples,
        seed,
        sig,
    )


__all__ = [
    "AR_TRIALS",
    "BOOTSTRAP_SAMPLES",
    "DEFAULT_SEED",
    "AdditiveStatistic",
    "AllPairsResult",
    "BLEUStatistic",
    "ConfidenceInterval",
    "FunctionStatistic",
    "MetricStatistic",
    "PairedTestResult",
    "SystemComparison",
    "all_pairs",
    "as_statistic",
    "confidence_interval",
    "system_statistics",
    "paired_ar",
    "paired_bootstrap",
    "resolve_seed",
    "signature_with_test",
]
