"""Confidence intervals and significance tests on the command line (sacreBLEU's flags, plus more).

Flags (sacreBLEU 2.6.0's names and defaults): ``--confidence/-ci`` with ``--confidence-n/-cin`` (1000),
``--paired-bs/-pbs`` with ``--paired-bs-n/-pbsn`` (1000), ``--paired-ar/-par`` with ``--paired-ar-n/-parn``
(10000); the first hypothesis file is the baseline. Added: ``--paired-all`` (every pair, with significance
clusters; bootstrap unless ``--paired-ar``), ``--paired-alpha`` (cluster threshold, 0.05) and ``--seed``
(default 12345, ``none`` for fresh entropy, which is then printed in the signature). Beyond sacreBLEU,
``--confidence`` also works with several systems (one CI per system) and with ``--paired-ar`` (CIs from
``-cin`` bootstrap resamples, as sacreBLEU's ``n_ar_confidence``).

:func:`add_arguments` and :func:`requested` import nothing heavy (they run for ``--help``); :func:`run` plans
the tests from the flags, runs them with :mod:`bleuscope.analysis.significance` and renders the result with
:mod:`bleuscope.cli.render` (JSON in sacreBLEU's shape, text, latex, tsv, jsonl).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from ..core.files import InputError
from .argtypes import checked, whole_number
from .output import UsageError

#: sacreBLEU's defaults (a test keeps them equal to bleuscope.analysis.significance's)
BOOTSTRAP_SAMPLES = 1000
AR_TRIALS = 10000
DEFAULT_SEED = 12345
#: the most resamples or trials (bleuscope.analysis.significance's MAX_RESAMPLES; a test keeps them equal)
MAX_RESAMPLES = 10_000_000
#: a progress line appears on a terminal once this many segments are resampled (resamples or trials times
#: segments, a few seconds of work): after 50,000 resamples of a 1,000-line test set, after 50 of a million lines
PROGRESS_MIN_RESAMPLED_SEGMENTS = 50_000_000


_positive_int = whole_number(1)
_resample_count = whole_number(1, MAX_RESAMPLES)
_alpha_arg = checked(float, lambda a: 0 < a < 1, "a number between 0 and 1")
_seed_arg = checked(
    lambda t: "none" if t.lower() == "none" else int(t),
    lambda v: v == "none" or v >= 0,
    "a non-negative integer, or 'none' for a fresh random seed",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the confidence-interval and significance-test options to ``parser``."""
    ci = parser.add_argument_group("Confidence intervals (bootstrap resampling)")
    ci.add_argument(
        "--confidence", "-ci", action="store_true", help="report a 95%% bootstrap confidence interval for each system"
    )
    ci.add_argument(
        "--confidence-n",
        "-cin",
        type=_resample_count,
        default=None,
        metavar="N",
        help=f"bootstrap resamples for --confidence (default {BOOTSTRAP_SAMPLES}, at most {MAX_RESAMPLES:,})",
    )
    pair = parser.add_argument_group("Paired significance tests (the first hypothesis file is the baseline)")
    which = pair.add_mutually_exclusive_group()
    which.add_argument("--paired-bs", "-pbs", action="store_true", help="paired bootstrap resampling test (Koehn 2004)")
    which.add_argument(
        "--paired-ar",
        "-par",
        action="store_true",
        help="paired approximate randomization test (Riezler & Maxwell 2005)",
    )
    pair.add_argument(
        "--paired-bs-n",
        "-pbsn",
        type=_resample_count,
        default=None,
        metavar="N",
        help=f"resamples for --paired-bs (default {BOOTSTRAP_SAMPLES}, at most {MAX_RESAMPLES:,})",
    )
    pair.add_argument(
        "--paired-ar-n",
        "-parn",
        type=_resample_count,
        default=None,
        metavar="N",
        help=f"trials for --paired-ar (default {AR_TRIALS}, at most {MAX_RESAMPLES:,})",
    )
    pair.add_argument(
        "--paired-jobs",
        type=int,
        default=None,
        metavar="N",
        help="accepted for sacreBLEU compatibility; bleuscope's tests are vectorized in one process, "
        "so N changes nothing",
    )
    pair.add_argument(
        "--paired-all",
        action="store_true",
        help="compare every pair of systems and rank them into significance clusters "
        "(bootstrap unless --paired-ar is given)",
    )
    pair.add_argument(
        "--paired-alpha",
        type=_alpha_arg,
        default=None,
        metavar="A",
        help="significance threshold for --paired-all clusters (default 0.05)",
    )
    pair.add_argument(
        "--conservative-p",
        action="store_true",
        help="count resamples that tie the observed difference as at least as large (>=); the default counts "
        "only larger ones, as sacreBLEU (the number of ties is reported when there are any)",
    )
    parser.add_argument(
        "--seed",
        type=_seed_arg,
        default=None,
        metavar="SEED",
        help=f"random seed for resampling (default {DEFAULT_SEED}, sacreBLEU's); "
        "'none' draws a fresh seed and prints it in the signature",
    )


def requested(args: argparse.Namespace) -> bool:
    """Whether any option of this plug-in was given (then :func:`run` produces the output)."""
    return any(
        getattr(args, name, None) not in (None, False)
        for name in (
            "confidence",
            "confidence_n",
            "paired_bs",
            "paired_ar",
            "paired_bs_n",
            "paired_ar_n",
            "paired_all",
            "paired_alpha",
            "paired_jobs",
            "conservative_p",
            "seed",
        )
    )


def _plan(args, n_systems: int) -> dict:
    """Decide what to run from the flags; options that do not go together are usage errors."""
    get = lambda name: getattr(args, name, None)  # noqa: E731
    if get("sentence_level"):
        raise UsageError("confidence intervals and significance tests are unavailable in sentence-level mode (-sl)")
    test = "bs" if get("paired_bs") else "ar" if get("paired_ar") else None
    if get("paired_all") and test is None:
        test = "bs"
    if get("confidence_n") is not None and not get("confidence"):
        raise UsageError("--confidence-n needs --confidence")
    if get("paired_bs_n") is not None and test != "bs":
        raise UsageError("--paired-bs-n needs --paired-bs (or --paired-all)")
    if get("paired_ar_n") is not None and test != "ar":
        raise UsageError("--paired-ar-n needs --paired-ar")
    if get("paired_jobs") is not None and test is None:
        raise UsageError("--paired-jobs goes with --paired-bs or --paired-ar")
    if get("conservative_p") and test is None:
        raise UsageError("--conservative-p goes with --paired-bs, --paired-ar or --paired-all")
    if get("paired_alpha") is not None and not get("paired_all"):
        raise UsageError("--paired-alpha needs --paired-all")
    if test == "bs" and get("confidence_n") is not None:
        raise UsageError(
            "--paired-bs reports confidence intervals from its own resamples: set their number "
            "with --paired-bs-n, not --confidence-n"
        )
    if get("paired_all") and test == "ar" and get("confidence"):
        raise UsageError(
            "--paired-all --paired-ar does not report confidence intervals; use --paired-all (bootstrap) for intervals"
        )
    if test is not None and n_systems < 2:
        raise UsageError("paired tests need several hypothesis files (-i BASELINE SYSTEM [SYSTEM ...])")
    if test is None and not get("confidence"):
        raise UsageError("--seed needs --confidence, --paired-bs, --paired-ar or --paired-all")
    seed = get("seed")
    return {
        "test": test,
        "all": bool(get("paired_all")),
        "confidence": bool(get("confidence")),
        "n": (get("paired_bs_n") or BOOTSTRAP_SAMPLES) if test == "bs" else (get("paired_ar_n") or AR_TRIALS),
        "confidence_n": get("confidence_n") or BOOTSTRAP_SAMPLES,
        "alpha": get("paired_alpha") or 0.05,
        "seed": None if seed == "none" else DEFAULT_SEED if seed is None else seed,
        "strict": not get("conservative_p"),
    }


def _names(hyp_paths, n: int, paired: bool) -> list[str]:
    names = []
    for i in range(n):
        path = hyp_paths[i] if hyp_paths is not None and i < len(hyp_paths) else None
        names.append(f"System {i + 1}" if path in (None, "-", "<stdin>") else str(path))
    if paired:
        names[0] = f"Baseline: {names[0]}" if hyp_paths else "Baseline"
    return names


def _note(args, message: str) -> None:
    if not getattr(args, "quiet", False):
        print(f"bleuscope: {message}", file=sys.stderr)


def run(args: argparse.Namespace, table: list, options) -> str:
    """The requested intervals/tests of every metric on its per-segment statistics (``table``: one
    :class:`bleuscope.cli.render.MetricResults` per metric, every system's rows), rendered as one document
    (sacreBLEU's shapes: a JSON list, one table with a column per metric).

    Options that do not go together raise :class:`~bleuscope.core.files.UsageError` (exit 2), bad data
    :class:`~bleuscope.core.files.InputError` (exit 1)."""
    from ..analysis.significance.resampling import reporting_progress
    from .progress import Progress, isatty

    # long runs (a million resamples, or a million lines) show their count on a terminal; Ctrl-C stops them
    # (exit 130)
    n_segments = max(1, len(table[0].systems[0].stats))
    progress = Progress(None, sys.stderr, enabled=not getattr(args, "quiet", False) and isatty(sys.stderr),
                        min_segments=max(1, PROGRESS_MIN_RESAMPLED_SEGMENTS // n_segments), unit="resamples")
    try:
        with reporting_progress(progress.update):
            return _run(args, table, options)
    except (TypeError, ValueError) as e:
        if isinstance(e, (InputError, UsageError)):
            raise
        raise InputError(str(e)) from None
    finally:
        progress.close()


def _run(args, table, options) -> str:
    from ..analysis import significance as sig
    from . import render

    hyp_paths = [r.name for r in table[0].systems]
    keep = list(range(len(hyp_paths)))
    plan = _plan(args, len(keep))
    plan["seed"] = sig.resolve_seed(plan["seed"])
    paired = plan["test"] is not None
    paths = list(hyp_paths)
    if paired:
        keep = [0] + [i for i in range(1, len(paths)) if paths[i] != paths[0]]
        if len(keep) < len(paths):  # sacreBLEU skips the baseline given again as a system
            _note(args, f"ignoring {paths[0]!r} as a system: it is the baseline")
            paths = [paths[i] for i in keep]
        if len(keep) < 2:
            raise UsageError("paired tests need at least one system besides the baseline")
    names = _names(paths, len(keep), paired and not plan["all"])
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise UsageError(f"{dup!r} is given twice; give each system once")
    short = options.short and options.format != "json"
    seed = plan["seed"]
    results, signatures, scores = [], [], []
    for metric_results in table:
        metric = metric_results.scorer
        systems = [metric_results.systems[i] for i in keep]
        nrefs = systems[0].nrefs  # the systems share the references
        named = [(name, system.stats) for name, system in zip(names, systems)]
        sig_fields = metric.signature_fields(nrefs)
        res: Any  # one kind per plan (all pairs, paired test, intervals), each read by its own renderer
        if plan["all"]:
            res = sig.all_pairs(
                named, metric=metric, test=plan["test"], n_samples=plan["n"], seed=seed, alpha=plan["alpha"],
                strict=plan["strict"],
            )
            inserted = {plan["test"]: str(plan["n"]), "seed": str(seed)}
        elif paired and plan["test"] == "bs":
            res = sig.paired_bootstrap(named, metric=metric, n_samples=plan["n"], seed=seed, strict=plan["strict"])
            inserted = {"bs": str(plan["n"]), "seed": str(seed)}
        elif paired:
            cin = plan["confidence_n"] if plan["confidence"] else None
            res = sig.paired_ar(
                named, metric=metric, n_samples=plan["n"], seed=seed, confidence_n=cin, strict=plan["strict"]
            )
            inserted = {"ar": str(plan["n"]), "seed": str(seed)}
            if cin is not None:
                inserted = {"bs": str(cin), **inserted}
        else:  # --confidence without a paired test: one bootstrap CI per system
            n = plan["confidence_n"]
            res = [sig.confidence_interval(s, metric=metric, n_samples=n, seed=seed, name=name) for name, s in named]
            inserted = {"bs": str(n), "seed": str(seed)}
            scores.append(systems[0].score)
        results.append(res)
        signatures.append(sig.signature_with_test(sig_fields, inserted, short))
    if plan["all"]:
        return render.render_all_pairs(results, signatures, options)
    if paired:
        return render.render_paired(results, signatures, options)
    if len(keep) == 1:
        return render.render_single_ci([r[0] for r in results], scores, signatures, options)
    return render.render_ci_table(results, signatures, options)
