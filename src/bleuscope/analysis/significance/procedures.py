"""The public procedures: a bootstrap confidence interval, the paired bootstrap and paired approximate
randomization against a baseline, and all pairs ranked into significance clusters."""

from __future__ import annotations

import numpy as np

from .clusters import significance_clusters
from .estimates import interval, p_value, warn_ties
from .inputs import (
    AR_TRIALS,
    BOOTSTRAP_SAMPLES,
    DEFAULT_SEED,
    check_alpha,
    check_count,
    check_precision,
    named_systems,
    resolve_inputs,
    resolve_seed,
)
from .resampling import ar_abs_differences, bootstrap_scores, bootstrap_scores_from, scores_float32
from .results import AllPairsResult, ConfidenceInterval, PairedTestResult, SystemComparison, signature_with_test


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

    ``system`` is a list of hypothesis strings (with ``references`` as streams), or per-segment statistics
    (an int array ``[S, D]`` or a :class:`~bleuscope.SegmentStatistics`) of ``metric``, any
    :class:`~bleuscope.metrics.base.Metric` (default ``BLEU()``). Same numbers as sacreBLEU's ``corpus_score(..., n_bootstrap=n_samples)`` /
    ``sacrebleu --confidence -cin n_samples`` with the same seed (mean by ``statistics.mean``, as there).
    """
    n_samples = check_count(n_samples, "n_samples")
    seed = resolve_seed(seed)
    precision = check_precision(precision)
    if not isinstance(name, str):
        raise TypeError(f"name must be a string, got {name!r}")
    inputs = resolve_inputs([(name, system)], references, metric)
    x = inputs.stats[0]
    score = float(inputs.metric.score_rows(x.sum(axis=0)[None, :])[0])
    scores = bootstrap_scores(inputs.stats, inputs.metric, n_samples, seed, precision)[0]
    mean, ci, lower, upper = interval(scores, "statistics", scores_float32(inputs.metric, precision))
    sig = signature_with_test(inputs.sig_fields, {"bs": str(n_samples), "seed": str(seed)})
    return ConfidenceInterval(name, score, mean, ci, lower, upper, n_samples, seed, inputs.metric.name, sig)


def _paired(
    test: str, systems, references, *, metric, baseline, n_samples, seed, precision, strict, confidence_n=None
) -> PairedTestResult:
    items = named_systems(systems, "systems")
    if len(items) < 2:
        raise ValueError("systems: a paired test needs a baseline and at least one other system")
    if baseline is not None:
        names = [n for n, _ in items]
        if baseline not in names:
            raise ValueError(f"baseline {baseline!r} is not one of the systems: {names}")
        items = [items[names.index(baseline)]] + [it for it in items if it[0] != baseline]
    n_samples = check_count(n_samples, "n_samples")
    seed = resolve_seed(seed)
    precision = check_precision(precision)
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    inputs = resolve_inputs(items, references, metric)
    stats, metric = inputs.stats, inputs.metric
    actual = metric.score_rows(np.stack([x.sum(axis=0) for x in stats]))
    base = float(actual[0])
    rows = []
    if test == "bs":
        scores = bootstrap_scores(stats, metric, n_samples, seed, precision)
        f32 = scores_float32(metric, precision)
        cis = [interval(s, "numpy", f32) for s in scores]
        rows.append(SystemComparison(inputs.names[0], base, 0.0, None, *cis[0], True, 0, n_samples, seed))
        for k in range(1, len(stats)):
            if f32:  # sacreBLEU's float32 score arrays: differences, their mean and the comparison in float32
                diffs = np.abs(scores[k].astype(np.float32) - scores[0].astype(np.float32))
                p, ties = p_value(diffs - diffs.mean(), np.float32(abs(base - float(actual[k]))), strict)
            else:
                diffs = np.abs(scores[k] - scores[0])
                p, ties = p_value(diffs - diffs.mean(), abs(base - float(actual[k])), strict)
            warn_ties(test, inputs.names[0], inputs.names[k], ties, n_samples, p, strict)
            rows.append(
                SystemComparison(
                    inputs.names[k], float(actual[k]), float(actual[k]) - base, p, *cis[k], False, ties, n_samples, seed
                )
            )
        inserted = {"bs": str(n_samples), "seed": str(seed)}
    else:
        base_ci: tuple[float | None, float | None, float | None, float | None] = (None,) * 4
        if confidence_n is not None:
            base_ci = interval(
                bootstrap_scores(stats[:1], metric, confidence_n, seed, precision)[0],
                "numpy",
                scores_float32(metric, precision),
            )
        rows.append(SystemComparison(inputs.names[0], base, 0.0, None, *base_ci, True, 0, n_samples, seed))
        # sacreBLEU re-seeds per system, so every system sees the same masks: draw them once
        rng = np.random.default_rng(seed)
        others = list(range(1, len(stats)))
        diffs = ar_abs_differences(stats, [(0, k) for k in others], metric, n_samples, rng)
        ci_scores = None
        if confidence_n is not None:  # indices drawn after the masks, from the same generator
            ci_scores = bootstrap_scores_from(rng, stats[1:], metric, confidence_n, precision)
        for k in others:
            p, ties = p_value(diffs[(0, k)], abs(base - float(actual[k])), strict)
            warn_ties(test, inputs.names[0], inputs.names[k], ties, n_samples, p, strict)
            ci: tuple[float | None, float | None, float | None, float | None] = (
                (None,) * 4
                if ci_scores is None
                else interval(ci_scores[k - 1], "numpy", scores_float32(metric, precision))
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
        metric.name,
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
    strict: bool = True,
) -> PairedTestResult:
    """Paired bootstrap resampling (Koehn 2004) of a baseline against every other system.

    ``systems`` maps names to hypotheses (or statistics), or is a list of ``(name, system)`` pairs; the
    baseline is ``baseline`` or the first system. Per system: the actual score, the resampled mean and 95% CI
    and ``p = (#{|Δ*| - mean|Δ*| > |Δ|} + 1) / (N + 1)`` -- sacreBLEU ``--paired-bs``'s numbers for the same seed.
    ``strict=False`` is the conservative rule: resamples that tie count as at least as large (``>=``).
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
    strict: bool = True,
) -> PairedTestResult:
    """Paired approximate randomization (Riezler & Maxwell 2005) of a baseline against every other system.

    Each trial swaps every segment's statistics between the two systems with probability 1/2;
    ``p = (#{|Δ_shuffled| > |Δ|} + 1) / (N + 1)`` -- sacreBLEU ``--paired-ar``'s numbers for the same seed;
    ``strict=False`` is the conservative rule (ties count as at least as large, ``>=``). Ties are common with
    TER, whose statistic is a ratio of small integers; a :class:`TiesWarning` says how many there were.
    ``confidence_n`` adds bootstrap CIs as sacreBLEU's ``PairedTest(n_ar_confidence=...)`` does.
    """
    if confidence_n is not None:
        confidence_n = check_count(confidence_n, "confidence_n")
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
    strict: bool = True,
) -> AllPairsResult:
    """Compare every pair of systems (``test="bs"`` or ``"ar"``) and rank them into significance clusters.

    All pairs share the seeded draws, so ``p_values[i, j]`` equals the p-value of
    ``paired_bootstrap``/``paired_ar`` with system i as the baseline and the same seed.
    """
    if test not in ("bs", "ar"):
        raise ValueError(f"test must be 'bs' (paired bootstrap) or 'ar' (approximate randomization), got {test!r}")
    items = named_systems(systems, "systems")
    if len(items) < 2:
        raise ValueError("systems: all-pairs comparison needs at least two systems")
    n_samples = check_count(
        BOOTSTRAP_SAMPLES if test == "bs" and n_samples is None else AR_TRIALS if n_samples is None else n_samples,
        "n_samples",
    )
    seed = resolve_seed(seed)
    precision = check_precision(precision)
    alpha = check_alpha(alpha)
    if not isinstance(strict, bool):
        raise TypeError(f"strict must be True or False, got {strict!r}")
    inputs = resolve_inputs(items, references, metric)
    stats, metric = inputs.stats, inputs.metric
    k = len(stats)
    actual = metric.score_rows(np.stack([x.sum(axis=0) for x in stats]))
    p = np.ones((k, k), dtype=np.float64)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    means: list = [None] * k
    cis: list = [None] * k
    if test == "bs":
        scores = bootstrap_scores(stats, metric, n_samples, seed, precision)
        for i in range(k):
            means[i], cis[i] = interval(scores[i], "numpy")[:2]
        for i, j in pairs:
            diffs = np.abs(scores[j] - scores[i])
            p_ij, ties = p_value(diffs - diffs.mean(), abs(actual[i] - actual[j]), strict)
            p[i, j] = p[j, i] = p_ij
            warn_ties(test, inputs.names[i], inputs.names[j], ties, n_samples, p_ij, strict)
    else:
        diffs = ar_abs_differences(stats, pairs, metric, n_samples, np.random.default_rng(seed))
        for i, j in pairs:
            p_ij, ties = p_value(diffs[(i, j)], abs(actual[i] - actual[j]), strict)
            p[i, j] = p[j, i] = p_ij
            warn_ties(test, inputs.names[i], inputs.names[j], ties, n_samples, p_ij, strict)
    p.setflags(write=False)
    # best first: the highest scores, or the lowest for a metric where lower is better (TER)
    goodness = actual if metric.higher_is_better else -actual
    order = sorted(range(k), key=lambda i: (-goodness[i], i))
    clusters, ranks = significance_clusters(order, goodness, p, alpha)
    cluster_of = [0] * k
    for c, members in enumerate(clusters, start=1):
        for i in members:
            cluster_of[i] = c
    names = inputs.names
    sig = signature_with_test(inputs.sig_fields, {test: str(n_samples), "seed": str(seed)})
    return AllPairsResult(
        test,
        metric.name,
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
