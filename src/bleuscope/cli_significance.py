"""Command-line plug-in for confidence intervals and significance tests (sacreBLEU's flags, plus more).

The ``bleuscope`` command calls :func:`add_arguments` on its parser and, when :func:`requested` is true,
hands the already read inputs to :func:`run`, which prints the results and returns the exit code.

Flags (sacreBLEU 2.6.0's names and defaults): ``--confidence/-ci`` with ``--confidence-n/-cin`` (1000),
``--paired-bs/-pbs`` with ``--paired-bs-n/-pbsn`` (1000), ``--paired-ar/-par`` with ``--paired-ar-n/-parn``
(10000); the first hypothesis file is the baseline. Added: ``--paired-all`` (every pair, with significance
clusters; bootstrap unless ``--paired-ar``), ``--paired-alpha`` (cluster threshold, 0.05) and ``--seed``
(default 12345, ``none`` for fresh entropy, which is then printed in the signature). Beyond sacreBLEU,
``--confidence`` also works with several systems (one CI per system) and with ``--paired-ar`` (CIs from
``-cin`` bootstrap resamples, as sacreBLEU's ``n_ar_confidence``).

Output follows ``args.format``: ``json`` (sacreBLEU's shape: one object for a single system with
``confidence_mean``/``confidence_var``/``confidence``; a list of ``{"system", "BLEU": {"score", "p_value",
"mean", "ci"}}`` for several), ``text`` (a table), ``latex``, ``tsv`` and ``jsonl``; numbers are printed with
``args.width`` decimals (JSON values keep full precision, as sacreBLEU's do).
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from . import significance as sig
from .signature import nrefs_field

try:  # the command's error types: it prints the one-line message and exits with their code
    from .io import InputError, UsageError
except ImportError:  # pragma: no cover - the plug-in used without bleuscope.io
    class UsageError(Exception):
        exit_code = 2

    class InputError(Exception):
        exit_code = 1

FORMATS = ("json", "text", "latex", "tsv", "jsonl")


def _typed(convert, accept, what: str):
    """An argparse ``type=``: ``convert`` the text, then require ``accept(value)``; errors say ``what``."""
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not accept(value):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value
    return parse


_positive_int = _typed(int, lambda n: n >= 1, "a positive integer")
_alpha_arg = _typed(float, lambda a: 0 < a < 1, "a number between 0 and 1")
_seed_arg = _typed(lambda t: "none" if t.lower() == "none" else int(t), lambda v: v == "none" or v >= 0,
                   "a non-negative integer, or 'none' for a fresh random seed")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the confidence-interval and significance-test options to ``parser``."""
    ci = parser.add_argument_group("Confidence intervals (bootstrap resampling)")
    ci.add_argument("--confidence", "-ci", action="store_true",
                    help="report a 95%% bootstrap confidence interval for each system")
    ci.add_argument("--confidence-n", "-cin", type=_positive_int, default=None, metavar="N",
                    help=f"bootstrap resamples for --confidence (default {sig.BOOTSTRAP_SAMPLES})")
    pair = parser.add_argument_group(
        "Paired significance tests (the first hypothesis file is the baseline)")
    which = pair.add_mutually_exclusive_group()
    which.add_argument("--paired-bs", "-pbs", action="store_true",
                       help="paired bootstrap resampling test (Koehn 2004)")
    which.add_argument("--paired-ar", "-par", action="store_true",
                       help="paired approximate randomization test (Riezler & Maxwell 2005)")
    pair.add_argument("--paired-bs-n", "-pbsn", type=_positive_int, default=None, metavar="N",
                      help=f"resamples for --paired-bs (default {sig.BOOTSTRAP_SAMPLES})")
    pair.add_argument("--paired-ar-n", "-parn", type=_positive_int, default=None, metavar="N",
                      help=f"trials for --paired-ar (default {sig.AR_TRIALS})")
    pair.add_argument("--paired-jobs", type=int, default=None, metavar="N",
                      help="accepted for sacreBLEU compatibility; bleuscope's tests are vectorized in one process, "
                           "so N changes nothing")
    pair.add_argument("--paired-all", action="store_true",
                      help="compare every pair of systems and rank them into significance clusters "
                           "(bootstrap unless --paired-ar is given)")
    pair.add_argument("--paired-alpha", type=_alpha_arg, default=None, metavar="A",
                      help="significance threshold for --paired-all clusters (default 0.05)")
    parser.add_argument("--seed", type=_seed_arg, default=None, metavar="SEED",
                        help=f"random seed for resampling (default {sig.DEFAULT_SEED}, sacreBLEU's); "
                             "'none' draws a fresh seed and prints it in the signature")


def requested(args: argparse.Namespace) -> bool:
    """Whether any option of this plug-in was given (then :func:`run` produces the output)."""
    return any(getattr(args, name, None) not in (None, False) for name in (
        "confidence", "confidence_n", "paired_bs", "paired_ar", "paired_bs_n", "paired_ar_n", "paired_all",
        "paired_alpha", "paired_jobs", "seed"))


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
    if get("paired_alpha") is not None and not get("paired_all"):
        raise UsageError("--paired-alpha needs --paired-all")
    if test == "bs" and get("confidence_n") is not None:
        raise UsageError("--paired-bs reports confidence intervals from its own resamples: set their number "
                          "with --paired-bs-n, not --confidence-n")
    if get("paired_all") and test == "ar" and get("confidence"):
        raise UsageError("--paired-all --paired-ar does not report confidence intervals; use --paired-all "
                          "(bootstrap) for intervals")
    if test is not None and n_systems < 2:
        raise UsageError("paired tests need several hypothesis files (-i BASELINE SYSTEM [SYSTEM ...])")
    if test is None and not get("confidence"):
        raise UsageError("--seed needs --confidence, --paired-bs, --paired-ar or --paired-all")
    seed = get("seed")
    return {
        "test": test,
        "all": bool(get("paired_all")),
        "confidence": bool(get("confidence")),
        "n": (get("paired_bs_n") or sig.BOOTSTRAP_SAMPLES) if test == "bs" else (get("paired_ar_n") or sig.AR_TRIALS),
        "confidence_n": get("confidence_n") or sig.BOOTSTRAP_SAMPLES,
        "alpha": get("paired_alpha") or 0.05,
        "seed": sig.resolve_seed(None if seed == "none" else sig.DEFAULT_SEED if seed is None else seed),
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


def run(args: argparse.Namespace, hyp_paths, hyp_lines_list, ref_lines_list, bleu, out) -> int:
    """Run the requested intervals/tests on the read inputs and print them to ``out``; return the exit code.

    ``hyp_paths``: the hypothesis file names (``None``/``"-"`` for stdin); ``hyp_lines_list``: one list of
    lines per system; ``ref_lines_list``: one list of lines per reference (reference streams); ``bleu``: the
    configured :class:`~bleuscope.BLEU`; ``out``: a text stream. Options that do not go together raise
    ``bleuscope.io.UsageError`` (exit 2), bad data ``bleuscope.io.InputError`` (exit 1).
    """
    try:
        return _run(args, hyp_paths, list(hyp_lines_list), ref_lines_list, bleu, out)
    except (TypeError, ValueError) as e:
        raise InputError(str(e)) from None


def _run(args, hyp_paths, systems, refs, bleu, out) -> int:
    plan = _plan(args, len(systems))
    paired = plan["test"] is not None
    paths = list(hyp_paths) if hyp_paths is not None else None
    if paired and paths and len(paths) == len(systems):
        keep = [0] + [i for i in range(1, len(paths)) if paths[i] != paths[0]]
        if len(keep) < len(paths):  # sacreBLEU skips the baseline given again as a system
            _note(args, f"ignoring {paths[0]!r} as a system: it is the baseline")
            paths = [paths[i] for i in keep]
            systems = [systems[i] for i in keep]
        if len(systems) < 2:
            raise UsageError("paired tests need at least one system besides the baseline")
    names = _names(paths, len(systems), paired and not plan["all"])
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise UsageError(f"{dup!r} is given twice; give each system once")
    segs = sig.system_statistics(bleu, systems, refs)  # references encoded once for all systems
    nrefs = nrefs_field(np.unique(segs[0].nrefs))  # all systems share the references
    named = list(zip(names, segs))
    fmt = getattr(args, "format", None) or "json"
    if fmt not in FORMATS:
        raise UsageError(f"--format {fmt} is not available with confidence intervals or significance tests; "
                          f"choose one of {', '.join(FORMATS)}")
    width = getattr(args, "width", None)
    width = 1 if width is None else int(width)
    short = bool(getattr(args, "short", False)) and fmt != "json"
    sig_fields = bleu.signature_fields(nrefs)
    seed = plan["seed"]

    if plan["all"]:
        res = sig.all_pairs(named, metric=bleu, test=plan["test"], n_samples=plan["n"], seed=seed,
                            alpha=plan["alpha"])
        signature = sig.signature_with_test(sig_fields, {plan["test"]: str(plan["n"]), "seed": str(seed)}, short)
        _print_all_pairs(res, signature, fmt, width, out)
        return 0
    if paired:
        if plan["test"] == "bs":
            res = sig.paired_bootstrap(named, metric=bleu, n_samples=plan["n"], seed=seed)
            inserted = {"bs": str(plan["n"]), "seed": str(seed)}
        else:
            cin = plan["confidence_n"] if plan["confidence"] else None
            res = sig.paired_ar(named, metric=bleu, n_samples=plan["n"], seed=seed, confidence_n=cin)
            inserted = {"ar": str(plan["n"]), "seed": str(seed)}
            if cin is not None:
                inserted = {"bs": str(cin), **inserted}
        signature = sig.signature_with_test(sig_fields, inserted, short)
        _print_paired(res, signature, fmt, width, out, args)
        return 0
    # --confidence without a paired test: one bootstrap CI per system
    n = plan["confidence_n"]
    cis = [sig.confidence_interval(s, metric=bleu, n_samples=n, seed=seed, name=name) for name, s in named]
    signature = sig.signature_with_test(sig_fields, {"bs": str(n), "seed": str(seed)}, short)
    if len(cis) == 1:
        score = bleu.score_from_statistics(segs[0].stats, nrefs)
        _print_single_ci(cis[0], score, signature, fmt, width, out, args)
    else:
        _print_ci_table(cis, signature, fmt, width, out)
    return 0


# -------------------------------------------------------------------------------------------------------
# formatting
# -------------------------------------------------------------------------------------------------------
def _fmt(x, width: int) -> str:
    return "-" if x is None else f"{x:.{width}f}"


def _signature_dict(signature: str) -> dict:
    return dict(part.split(":", 1) for part in signature.split("|") if part)


def _print_single_ci(ci: sig.ConfidenceInterval, score, signature, fmt, width, out, args) -> None:
    conf = f"μ = {ci.mean:.{width}f} ± {ci.ci:.{width}f}"
    if fmt in ("json", "jsonl"):
        d = {"name": ci.metric, "score": float(f"{ci.score:.{width}f}"), "signature": signature,
             "confidence_mean": float(f"{ci.mean:.{width}f}"), "confidence_var": float(f"{ci.ci:.{width}f}"),
             "confidence": conf, "verbose_score": score.verbose}
        d.update(_signature_dict(signature))
        d.update({"confidence_lower": ci.lower, "confidence_upper": ci.upper, "score_unrounded": ci.score,
                  "confidence_mean_unrounded": ci.mean, "confidence_var_unrounded": ci.ci})
        if fmt == "json":
            out.write(json.dumps(d, indent=1, ensure_ascii=False) + "\n")
        else:
            out.write(json.dumps(d, ensure_ascii=False) + "\n")
    elif fmt == "tsv":
        out.write("system\tscore\tmean\tci\tlower\tupper\tsignature\n")
        out.write(f"{ci.system}\t{ci.score:.{width}f}\t{ci.mean:.{width}f}\t{ci.ci:.{width}f}\t"
                  f"{ci.lower:.{width}f}\t{ci.upper:.{width}f}\t{signature}\n")
    else:
        sc = f"{ci.score:.{width}f} ({conf})"
        if getattr(args, "score_only", False):
            out.write(sc + "\n")
        else:
            out.write(f"{ci.metric}|{signature} = {sc} {score.verbose}\n")


def _grid(headers: list[str], rows: list[list[str]], aligns: list[str]) -> str:
    """A box-drawing table (like tabulate's ``fancy_grid``); cells may hold several lines."""
    cells = [[c.split("\n") for c in row] for row in [headers] + rows]
    widths = [max(len(line) for row in cells for line in row[j]) for j in range(len(headers))]

    def line(chars):
        left, mid, right, fill = chars
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def align(text, w, how):
        if how == "right":
            return text.rjust(w)
        if how == "left":
            return text.ljust(w)
        pad = w - len(text)
        return " " * (pad // 2) + text + " " * (pad - pad // 2)

    def render(row, header):
        height = max(len(c) for c in row)
        out = []
        for k in range(height):
            parts = []
            for j, c in enumerate(row):
                text = c[k] if k < len(c) else ""
                parts.append(" " + align(text, widths[j], "center" if header and j else aligns[j]) + " ")
            out.append("│" + "│".join(parts) + "│")
        return out

    lines = [line("╒╤╕═")] + render(cells[0], True) + [line("╞╪╡═")]
    for i, row in enumerate(cells[1:]):
        if i:
            lines.append(line("├┼┤─"))
        lines += render(row, False)
    lines.append(line("╘╧╛═"))
    return "\n".join(lines)


def _latex(headers: list[str], rows: list[list[str]]) -> str:
    esc = lambda s: s.replace("\\", r"\textbackslash{}").replace("_", r"\_").replace("%", r"\%").replace(  # noqa
        "&", r"\&").replace("#", r"\#").replace("±", r"$\pm$").replace("μ", r"$\mu$").replace("\n", " ")
    lines = [r"\begin{tabular}{r" + "c" * (len(headers) - 1) + "}", r"\toprule",
             " & ".join(esc(h) for h in headers) + r" \\", r"\midrule"]
    lines += [" & ".join(esc(c) for c in row) + r" \\" for row in rows]
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)


def _p_text(p: float, sep: str) -> str:
    return f"{sep}(p = {p:.4f})" + ("*" if p <= 0.05 else "")


def _print_table(headers, rows, aligns, signature, fmt, out, footer: str = "") -> None:
    if fmt == "latex":
        out.write(_latex(headers, rows) + "\n\n")
    else:
        out.write(_grid(headers, rows, aligns) + "\n\n")
    if footer:
        out.write(footer + "\n")
    out.write("-----------------\nMetric signatures\n-----------------\n")
    out.write(f" - {'BLEU':<10} {signature}\n")


def _print_paired(res: sig.PairedTestResult, signature, fmt, width, out, args) -> None:
    if fmt == "json":
        rows = res.to_json()
        for row, s in zip(rows, res.systems):
            row[res.metric].update({"lower": s.lower, "upper": s.upper, "delta": s.delta, "signature": signature})
        out.write(json.dumps(rows, indent=4) + "\n")
        return
    if fmt == "jsonl":
        for s in res.systems:
            out.write(json.dumps({"system": s.system, "metric": res.metric, **s.to_dict(), "lower": s.lower,
                                  "upper": s.upper, "delta": s.delta, "signature": signature}) + "\n")
        return
    if fmt == "tsv":
        out.write("system\tscore\tdelta\tmean\tci\tlower\tupper\tp_value\tsignature\n")
        for s in res.systems:
            p = "" if s.p_value is None else f"{s.p_value:.4f}"
            vals = [_fmt(v, width) if v is not None else "" for v in (s.score, s.delta, s.mean, s.ci, s.lower, s.upper)]
            out.write("\t".join([s.system, *vals, p, signature]) + "\n")
        return
    has_ci = any(s.mean is not None for s in res.systems)
    header = f"{res.metric} (μ ± 95% CI)" if has_ci else res.metric
    sep = "\n" if fmt == "text" else " "
    rows = []
    for s in res.systems:
        cell = f"{s.score:.{width}f}"
        if s.mean is not None:
            cell += f" ({s.mean:.{width}f} ± {s.ci:.{width}f})"
        if s.p_value is not None:
            cell += _p_text(s.p_value, sep)
        rows.append([s.system, cell])
    if res.test == "bs":
        msg = f"Paired bootstrap resampling test with {res.n_samples} resampling trials"
    else:
        msg = f"Paired approximate randomization test with {res.n_samples} trials"
    footer = "\n".join([
        "-" * len(msg), msg, "-" * len(msg),
        f" - Each system is pairwise compared to {res.baseline}.",
        "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
        if has_ci else "   Actual system score is provided for each metric.",
        "",
        " - Null hypothesis: the system and the baseline translations are essentially generated by the same",
        "   underlying process. The p-value is roughly the probability of the absolute score difference",
        "   (delta) or higher occurring by chance, if the null hypothesis is correct.",
        " - p-values <= 0.05 are marked with \"*\": the delta is unlikely to be due to chance. Significance",
        "   does not tell which system is better, only that the difference is replicable.",
        "",
    ])
    _print_table(["System", header], rows, ["right", "center"], signature, fmt, out, footer)


def _print_ci_table(cis: list[sig.ConfidenceInterval], signature, fmt, width, out) -> None:
    if fmt in ("json", "jsonl"):
        rows = [{"system": c.system, c.metric: {"score": c.score, "p_value": None, "mean": c.mean, "ci": c.ci,
                                                "lower": c.lower, "upper": c.upper, "signature": signature}}
                for c in cis]
        if fmt == "json":
            out.write(json.dumps(rows, indent=4) + "\n")
        else:
            out.writelines(json.dumps(r) + "\n" for r in rows)
        return
    if fmt == "tsv":
        out.write("system\tscore\tmean\tci\tlower\tupper\tsignature\n")
        for c in cis:
            vals = [f"{v:.{width}f}" for v in (c.score, c.mean, c.ci, c.lower, c.upper)]
            out.write("\t".join([c.system, *vals, signature]) + "\n")
        return
    rows = [[c.system, f"{c.score:.{width}f} ({c.mean:.{width}f} ± {c.ci:.{width}f})"] for c in cis]
    footer = (f"Bootstrap confidence intervals with {cis[0].n_samples} resamples per system "
              "(each system resampled on its own; use --paired-bs to compare systems)\n")
    _print_table(["System", f"{cis[0].metric} (μ ± 95% CI)"], rows, ["right", "center"], signature, fmt, out,
                 footer)


def _print_all_pairs(res: sig.AllPairsResult, signature, fmt, width, out) -> None:
    if fmt == "json":
        rows = res.to_json()
        for row in rows:
            row[res.metric]["signature"] = signature
        out.write(json.dumps(rows, indent=4) + "\n")
        return
    if fmt == "jsonl":
        for row in res.to_json():
            out.write(json.dumps({**row, "signature": signature}) + "\n")
        return
    order = list(res.order)
    if fmt == "tsv":
        out.write("rank\tsystem\tscore\tmean\tci\tcluster\trank_range\t" +
                  "\t".join(f"p[{res.systems[j]}]" for j in order) + "\tsignature\n")
        for pos, i in enumerate(order, start=1):
            lo, hi = res.rank_ranges[i]
            ps = [f"{res.p_values[i, j]:.4f}" if i != j else "" for j in order]
            out.write("\t".join([str(pos), res.systems[i], f"{res.scores[i]:.{width}f}", _fmt(res.means[i], width),
                                 _fmt(res.cis[i], width), str(res.cluster_of[i]), f"{lo}-{hi}", *ps, signature])
                      + "\n")
        return
    has_ci = res.means[0] is not None
    header = f"{res.metric} (μ ± 95% CI)" if has_ci else res.metric
    rows = []
    for pos, i in enumerate(order, start=1):
        cell = f"{res.scores[i]:.{width}f}"
        if has_ci:
            cell += f" ({res.means[i]:.{width}f} ± {res.cis[i]:.{width}f})"
        lo, hi = res.rank_ranges[i]
        rows.append([f"{pos}", res.systems[i], cell, str(res.cluster_of[i]), f"{lo}" if lo == hi else f"{lo}-{hi}"])
    table = _grid(["#", "System", header, "Cluster", "Rank"], rows, ["right", "right", "center", "center", "center"]) \
        if fmt == "text" else _latex(["#", "System", header, "Cluster", "Rank"], rows)
    prow = [[f"{pos}"] + [("" if i == j else f"{res.p_values[i, j]:.4f}" + ("*" if res.p_values[i, j] < res.alpha else ""))
                          for j in order] for pos, i in enumerate(order, start=1)]
    pheaders = ["p"] + [str(k) for k in range(1, len(order) + 1)]
    ptable = _grid(pheaders, prow, ["right"] + ["center"] * len(order)) if fmt == "text" else _latex(pheaders, prow)
    test = "paired bootstrap resampling" if res.test == "bs" else "paired approximate randomization"
    out.write(table + "\n\n")
    out.write(f"All-pairs {test} with {res.n_samples} {'resamples' if res.test == 'bs' else 'trials'}; "
              f"p-values (row vs column, * = p < {res.alpha:g}):\n")
    out.write(ptable + "\n\n")
    out.write(f" - Clusters: a line is drawn between ranks k and k+1 when every system above it is significantly\n"
              f"   better (p < {res.alpha:g}) than every system below it. Rank: best-worst rank consistent with\n"
              "   the significant differences.\n\n")
    out.write("-----------------\nMetric signatures\n-----------------\n")
    out.write(f" - {'BLEU':<10} {signature}\n")
