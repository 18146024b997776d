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

**p-values.** ``p = (#{resamples whose statistic > the observed one} + 1) / (N + 1)``, sacreBLEU 2.6.0's rule
(``strict=True``, the default). ``strict=False`` is the conservative rule, which counts resamples that *tie*
the observed statistic as at least as large (``>=``). The two differ exactly by the ties: rare for BLEU, common
for TER (a ratio of small integers: 12 of 10,000 AR trials for the bundled example), and every trial for a system
against an identical copy of itself (p = 1/(N+1), "significant", by sacreBLEU's rule; p = 1 by the
conservative one). Each result reports its ``ties``, and a :class:`TiesWarning` says how many there were and
what the other rule gives.

Any metric plugs in through the one contract of every bleuscope metric, :class:`~bleuscope.metrics.base.Metric`:
the tests read its ``name``, ``higher_is_better``, vectorized ``score_rows(rows)`` (and ``sacrebleu``, sacreBLEU's float32 arithmetic, where it has one), signature fields
and float32 settings, and nothing else (statistics counted elsewhere need no counting code: a subclass whose
``count_checked`` raises is enough).

Differences from sacreBLEU on purpose: the seed is an argument (never ``SACREBLEU_SEED``); ``seed=0`` is a
seed like any other (sacreBLEU leaves the paired runs unseeded then); ``seed=None`` draws fresh entropy and
records the drawn seed in the results and the signature, so the run can be repeated.

**Modules.** :mod:`.inputs` (argument checks, the metric, hypothesis texts or cached statistics),
:mod:`.resampling` (index blocks, swap masks, exact products, float32 sums), :mod:`.estimates` (intervals, p-values), :mod:`.clusters`, :mod:`.results` (the result types and their
signature) and :mod:`.procedures` (the public tests). The public names are importable from this package.
"""

from __future__ import annotations

from .estimates import TiesWarning
from .inputs import AR_TRIALS, BOOTSTRAP_SAMPLES, DEFAULT_SEED, resolve_seed, system_statistics
from .inputs import PRECISIONS as PRECISIONS  # importable from here, not part of __all__
from .procedures import all_pairs, confidence_interval, paired_ar, paired_bootstrap
from .results import AllPairsResult, ConfidenceInterval, PairedTestResult, SystemComparison, signature_with_test

__all__ = [
    "AR_TRIALS",
    "BOOTSTRAP_SAMPLES",
    "DEFAULT_SEED",
    "AllPairsResult",
    "ConfidenceInterval",
    "PairedTestResult",
    "SystemComparison",
    "TiesWarning",
    "all_pairs",
    "confidence_interval",
    "system_statistics",
    "paired_ar",
    "paired_bootstrap",
    "resolve_seed",
    "signature_with_test",
]
