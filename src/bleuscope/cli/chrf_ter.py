"""chrF and TER on the command line: their ``-m`` entries and options (sacreBLEU's flag names), and the output
of runs that are not BLEU alone (``-m chrf``, ``-m ter``, ``-m bleu chrf ter``) in sacreBLEU's shapes.

Options: ``-cc/--chrf-char-order`` (6), ``-cw/--chrf-word-order`` (0; 2 = chrF++), ``-cb/--chrf-beta`` (2;
sacreBLEU has only the long form), ``--chrf-whitespace``, ``--chrf-lowercase``, ``--chrf-eps-smoothing``;
``--ter-normalized``, ``--ter-no-punct``, ``--ter-asian-support``, ``--ter-case-sensitive``.

Output (sacreBLEU 2.6.0's shapes): one system -> one JSON object per metric (a list when there are several),
or ``name|signature = score`` lines aligned on ``=``; several systems -> a table with a column per metric and
the signatures under it (JSON: ``[{"system": ..., "BLEU": "37.6", "chrF2": "65.6", "TER": "49.1"}, ...]``);
``-sl`` -> one ``name|signature = score`` line per segment (one metric at a time, as in sacreBLEU). Metrics
are printed in sacreBLEU's order (sorted by option name: bleu, chrf, ter). Nothing heavy is imported before
the scorers are built.
"""

from __future__ import annotations

import argparse
import json

from ..core.files import UsageError


# -- options and scorers -------------------------------------------------------------------------------------
def add_chrf_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("chrF (-m chrf; sacreBLEU's options)")
    g.add_argument(
        "-cc", "--chrf-char-order", type=int, default=6, metavar="N", help="character n-gram order (default: 6)"
    )
    g.add_argument(
        "-cw", "--chrf-word-order", type=int, default=0, metavar="N", help="word n-gram order (default: 0; 2 is chrF++)"
    )
    g.add_argument(
        "-cb", "--chrf-beta", type=int, default=2, metavar="N", help="weight of recall against precision (default: 2)"
    )
    g.add_argument("--chrf-whitespace", action="store_true", help="keep whitespace in character n-grams")
    g.add_argument("--chrf-lowercase", action="store_true", help="case-insensitive chrF")
    g.add_argument(
        "--chrf-eps-smoothing",
        action="store_true",
        help="epsilon smoothing as chrF++.py, NLTK and Moses (default: effective order)",
    )


def add_ter_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("TER (-m ter; sacreBLEU's options, Tercom's defaults)")
    g.add_argument("--ter-normalized", action="store_true", help="Tercom's normalization and tokenization")
    g.add_argument("--ter-no-punct", action="store_true", help="remove punctuation")
    g.add_argument(
        "--ter-asian-support",
        action="store_true",
        help="split CJK characters (with --ter-normalized) / remove CJK punctuation (with --ter-no-punct)",
    )
    g.add_argument("--ter-case-sensitive", action="store_true", help="do not lowercase")


def _option_message(message: str) -> str:
    for api, option in (
        ("char_order", "-cc/--chrf-char-order"),
        ("word_order", "-cw/--chrf-word-order"),
        ("beta", "-cb/--chrf-beta"),
    ):
        message = message.replace(api, option)
    return message


def build_chrf(args: argparse.Namespace, warn=None):
    from ..metrics.chrf import CHRF

    try:
        return CHRF(
            char_order=args.chrf_char_order,
            word_order=args.chrf_word_order,
            beta=args.chrf_beta,
            lowercase=args.chrf_lowercase,
            whitespace=args.chrf_whitespace,
            eps_smoothing=args.chrf_eps_smoothing,
        )
    except (ValueError, TypeError) as e:
        raise UsageError(_option_message(str(e))) from None


def build_ter(args: argparse.Namespace, warn=None):
    from ..metrics.ter import TER

    return TER(
        normalized=args.ter_normalized,
        no_punct=args.ter_no_punct,
        asian_support=args.ter_asian_support,
        case_sensitive=args.ter_case_sensitive,
    )


def register() -> None:
    """Add ``chrf`` and ``ter`` to the ``-m`` registry (called by :mod:`bleuscope.cli.metrics`)."""
    from .metrics import MetricSpec, register_metric

    register_metric(MetricSpec(name="chrf", label="chrF", build=build_chrf, add_arguments=add_chrf_options))
    register_metric(MetricSpec(name="ter", label="TER", build=build_ter, add_arguments=add_ter_options))


# -- runs that are not BLEU alone ----------------------------------------------------------------------------
def handles(args: argparse.Namespace) -> bool:
    """Is this run for :func:`run` (any metric list other than BLEU alone)?"""
    return list(args.metrics) != ["bleu"]


def _as_list(built) -> list:
    return built if isinstance(built, list) else [built]


def run(args: argparse.Namespace, warn, build) -> str:
    """The rendered result of ``-m`` with chrF/TER (alone or with BLEU). ``build(name)`` builds a scorer."""
    names = sorted(args.metrics)  # sacreBLEU prints its metrics sorted by name
    if args.sentence_level and len(names) > 1:
        raise UsageError(f"-sl scores one metric at a time (as sacreBLEU); got -m {' '.join(args.metrics)}")
    if getattr(args, "shards", None) or getattr(args, "ray", False):
        raise UsageError("sharded inputs (--shards/--ray) are scored with BLEU only in this version")
    # a metric may build several scorers (ROUGE: one per type), each its own column
    scorers = [s for name in names for s in _as_list(build(name))]
    if args.sentence_level and len(scorers) > 1:
        raise UsageError(f"-sl scores one metric at a time; -m {' '.join(args.metrics)} gives {len(scorers)}")
    from ..core import files as bio
    from . import significance as cli_significance
    from .inputs import load_inputs
    from .render import RenderOptions
    from .scoring import score_systems

    options = RenderOptions.from_args(args)
    if cli_significance.requested(args):
        inputs = load_inputs(args, warn)
        return "".join(cli_significance.run(args, inputs, scorer, options, warn) for scorer in scorers)
    table = []  # per metric: (scorer, [(system name, nrefs, corpus score, per-segment rows or None)])
    if len(scorers) == 1 or bio.STDIN not in (*args.hyp_paths, *args.ref_paths):
        # streamed, once per metric; TER keeps its per-segment rows (16 bytes each) to add the mean
        # reference lengths in sacreBLEU's order, -sl keeps them for the sentence scores
        for scorer in scorers:
            keep = args.sentence_level or scorer.name == "TER"
            results = score_systems(scorer, args, warn, keep_segments=keep)
            table.append((scorer, [(r.name, r.nrefs, r.score, r.stats if keep else None) for r in results]))
    else:  # stdin can be read only once: every system in memory, scored by each metric
        from ..core.signature import nrefs_field

        inputs = load_inputs(args, warn)
        for scorer in scorers:
            rows = []
            for name, hyps in zip(inputs.hyp_names, inputs.hyps):
                seg = scorer.segment_statistics(hyps, inputs.refs)
                nrefs = nrefs_field(seg.nrefs)
                rows.append((name, nrefs, scorer.score_from_statistics(seg.stats, nrefs), seg.stats))
            table.append((scorer, rows))
    if args.sentence_level:
        return render_sentences(table[0], options)
    return render_corpus(table, options)


def _signature(scorer, nrefs: str, short: bool) -> str:
    return scorer.signature(nrefs, short=short)


def _json_object(score, scorer, nrefs: str, width: int) -> dict:
    """sacreBLEU's keys in its order (name, score, signature, [verbose_score], signature fields), then the
    unrounded score."""
    signature = _signature(scorer, nrefs, False)
    d = {"name": score.name, "score": float(f"{score.score:.{width}f}"), "signature": signature}
    if score.verbose:
        d["verbose_score"] = score.verbose
    d.update(part.split(":", 1) for part in signature.split("|"))
    d["score_unrounded"] = score.score
    return d


def render_corpus(table: list, options) -> str:
    from .render import tsv

    width, fmt = options.width, options.format
    n_sys = len(table[0][1])
    if options.score_only:
        return "".join(
            f"{score.score:.{width}f}\n" for k in range(n_sys) for _, rows in table for score in [rows[k][2]]
        )
    if fmt == "jsonl":
        return "".join(
            json.dumps(
                {"system": rows[k][0], **_json_object(rows[k][2], scorer, rows[k][1], width)}, ensure_ascii=False
            )
            + "\n"
            for k in range(n_sys)
            for scorer, rows in table
        )
    if fmt == "tsv":
        out = [
            [
                rows[k][0],
                rows[k][2].name,
                f"{rows[k][2].score:.{width}f}",
                repr(rows[k][2].score),
                _signature(scorer, rows[k][1], options.short),
            ]
            for k in range(n_sys)
            for scorer, rows in table
        ]
        return tsv(["system", "metric", "score", "score_unrounded", "signature"], out)
    if n_sys == 1:
        if fmt == "json":
            objects = [
                json.dumps(_json_object(rows[0][2], scorer, rows[0][1], width), indent=1, ensure_ascii=False)
                for scorer, rows in table
            ]
            return (objects[0] if len(objects) == 1 else "[\n" + ",\n".join(objects) + "\n]") + "\n"
        if fmt == "text":
            lines = [
                rows[0][2].format(width, signature=_signature(scorer, rows[0][1], options.short))
                for scorer, rows in table
            ]
            cut = max(line.index(" = ") for line in lines)  # align on "=", as sacreBLEU does
            return "".join(f"{line[: line.index(' = ')]:>{cut}}{line[line.index(' = ') :]}\n" for line in lines)
    labels = [rows[0][2].name for _, rows in table]
    if fmt == "json":
        items = []
        for k in range(n_sys):
            d = {"system": table[0][1][k][0]}
            d.update({label: f"{rows[k][2].score:.{width}f}" for label, (_, rows) in zip(labels, table)})
            items.append("    " + json.dumps(d, indent=4, ensure_ascii=False).replace("\n", "\n    "))
        return "[\n" + ",\n".join(items) + "\n]\n"
    body = [[table[0][1][k][0], *(f"{rows[k][2].score:.{width}f}" for _, rows in table)] for k in range(n_sys)]
    header = ["System", *labels]
    sigs = [(label, _signature(scorer, rows[0][1], options.short)) for label, (scorer, rows) in zip(labels, table)]
    footer = "-----------------\nMetric signatures\n-----------------\n" + "".join(
        f" - {label:<10} {sig}\n" for label, sig in sigs
    )
    return tabulate(header, body, latex=fmt == "latex") + "\n\n" + footer


#: LaTeX escapes of tabulate's latex_booktabs format
_LATEX = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
}


def _pad(text: str, width: int, how: str) -> str:
    gap = width - len(text)
    if how == "right":
        return " " * gap + text
    left = gap // 2
    return " " * left + text + " " * (gap - left)


def tabulate(header: list[str], body: list[list[str]], latex: bool = False) -> str:
    """sacreBLEU's multi-system table: ``tabulate(..., tablefmt="fancy_grid" or "latex_booktabs",
    colalign=("right",), stralign="center")`` -- the first column right-aligned, the others centered, every
    column at least two wider than its header."""
    if latex:
        header = ["".join(_LATEX.get(c, c) for c in cell) for cell in header]
        body = [["".join(_LATEX.get(c, c) for c in cell) for cell in row] for row in body]
    widths = [max([len(header[j]) + 2] + [len(row[j]) for row in body]) for j in range(len(header))]
    aligns = ["right"] + ["center"] * (len(header) - 1)

    def cells(row):
        return [" " + _pad(cell, w, a) + " " for cell, w, a in zip(row, widths, aligns)]

    if latex:
        lines = [
            "\\begin{tabular}{" + "".join("r" if a == "right" else "c" for a in aligns) + "}",
            "\\toprule",
            "&".join(cells(header)) + "\\\\",
            "\\midrule",
        ]
        lines += ["&".join(cells(row)) + "\\\\" for row in body]
        return "\n".join(lines + ["\\bottomrule", "\\end{tabular}"])

    def rule(left, mid, right, fill):
        return left + mid.join(fill * (w + 2) for w in widths) + right

    lines = [rule("╒", "╤", "╕", "═"), "│" + "│".join(cells(header)) + "│", rule("╞", "╪", "╡", "═")]
    for i, row in enumerate(body):
        if i:
            lines.append(rule("├", "┼", "┤", "─"))
        lines.append("│" + "│".join(cells(row)) + "│")
    return "\n".join(lines + [rule("╘", "╧", "╛", "═")])


#: segments rendered at a time by :func:`render_sentences`
SENTENCE_CHUNK = 20_000


def render_sentences(metric_rows, options, chunk: int = SENTENCE_CHUNK):
    """``-sl``: one ``name|signature = score`` line per segment (text), or JSON Lines / JSON / TSV records;
    produced piece by piece (``chunk`` segments at a time), so that a million lines are never one string."""
    scorer, rows = metric_rows
    _name, nrefs, _score, stats = rows[0]
    width, fmt = options.width, options.format
    signature = _signature(scorer, nrefs, False)
    if fmt == "tsv" and not options.score_only:
        from .render import tsv

        yield tsv(["line", scorer.name, "score", "signature"], [])
    elif fmt == "json" and not options.score_only:
        yield "[\n"
    for start in range(0, len(stats), chunk):
        block = stats[start:start + chunk]
        scores = scorer.score_rows(block).tolist()
        if options.score_only:
            yield "".join(f"{s:.{width}f}\n" for s in scores)
        elif fmt == "text":
            head = f"{scorer.name}|{_signature(scorer, nrefs, options.short)} = "
            yield "".join(f"{head}{s:.{width}f}\n" for s in scores)
        elif fmt == "tsv":
            yield "".join(f"{i}\t{s:.{width}f}\t{s!r}\t{signature}\n" for i, s in enumerate(scores, start + 1))
        else:
            lines = [json.dumps({"line": i, "name": scorer.name, "score": s, "stats": row, "signature": signature},
                                ensure_ascii=False) for i, (s, row) in enumerate(zip(scores, block.tolist()), start + 1)]
            yield ("\n".join(lines) + "\n") if fmt == "jsonl" else (",\n" if start else "") + ",\n".join(lines)
    if fmt == "json" and not options.score_only:
        yield "\n]\n"
