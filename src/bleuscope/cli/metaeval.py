"""``bleuscope meta-eval``: how well metrics agree with human scores (WMT's statistics, mtme's arithmetic).

    bleuscope meta-eval REF [REF ...] -i SYS [SYS ...] --human FILE [-m bleu chrf ter] [--scores NAME=FILE]

Systems are named by their hypothesis files' stems (``sys/Online-B.txt`` -> ``Online-B``); the human file
and every ``--scores`` file must score those systems (other systems in them are ignored).
"""

from __future__ import annotations

import argparse
import json
import sys

from ..core import files as bio
from ..core.files import InputError
from . import output
from .metrics import add_metric_arguments, build_requested, get_metric, metric_names
from .output import USER_ERRORS, UsageError

FORMATS = ("text", "json", "latex", "tsv")

EPILOG = """\
examples (the WMT22 zh-en MQM of the shared data):
  bleuscope meta-eval ref.A.txt -i sys/*.txt --human mqm.seg.tsv -m bleu chrf ter
  bleuscope meta-eval ref.A.txt -i sys/*.txt --human da.seg.tsv --human-column z --scores comet=comet.json
  bleuscope meta-eval ref.A.txt -i sys/*.txt --human mqm.seg.tsv --task wmt23 -k 200 -f json

json: a list of records {metric, human, level, grouping, statistic, value} (with --task: rank, task)."""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bleuscope meta-eval", description="Correlations of metrics with human scores, as WMT computes them.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("refs", nargs="+", metavar="REF", help="reference file(s), one segment per line")
    p.add_argument("-i", "--input", nargs="+", action="extend", required=True, metavar="SYS",
                   help="hypothesis files, one per system (the file's stem names the system)")
    p.add_argument("--human", required=True, metavar="FILE",
                   help="human segment scores: TSV with system/line/score columns, mtme .seg.score, ...")
    p.add_argument("--human-column", metavar="COL", help="the score column of a TSV human file (default: score)")
    p.add_argument("--human-name", default=None, help="the human score's name in the output (default: file stem)")
    p.add_argument("--human-lower-is-better", action="store_true",
                   help="the human scores are penalties (e.g. positive MQM error points): negate them")
    p.add_argument("-m", "--metrics", nargs="*", default=None, choices=metric_names(), metavar="METRIC",
                   help=f"metrics to compute: {', '.join(metric_names())} (default: bleu chrf ter, none when "
                        "--scores is given); BLEU's segment scores use effective order (WMT's sentence BLEU)")
    p.add_argument("-l", "--language-pair", metavar="SRC-TRG", help="the language pair (chooses BLEU's "
                                                                    "tokenizer for zh, ja, ko targets)")
    add_metric_arguments(p)
    p.add_argument("--scores", action="append", default=[], metavar="NAME=FILE[,FILE...]",
                   help="a metric's segment scores from file(s) (COMET JSON, comet-score output, mtme .seg.score, "
                        "TSV system/line/score, or one number per line per system file); repeatable")
    p.add_argument("--lower-is-better", action="append", default=[], metavar="NAME",
                   help="a --scores metric whose lower scores are better (negated before correlating)")
    p.add_argument("--level", nargs="+", choices=("seg", "sys"), default=["seg", "sys"])
    p.add_argument("--grouping", nargs="+", choices=("none", "item", "sys"), default=["none", "item", "sys"],
                   help="segment-level groupings (item: correlate across systems per segment, then average)")
    p.add_argument("--task", choices=("wmt23", "wmt24"),
                   help="instead of every statistic: the task set's statistics with significance clusters")
    p.add_argument("-k", "--permutations", type=int, default=1000,
                   help="permutations of each significance test with --task (0: rank without tests)")
    p.add_argument("--seed", type=int, default=1234, help="seed of the permutation tests (numpy legacy stream)")
    p.add_argument("-f", "--format", choices=FORMATS, default="text")
    p.add_argument("-w", "--width", type=int, default=4, help="decimals in text and latex output")
    p.add_argument("-o", "--output", metavar="FILE", help="write here instead of standard output")
    return p


def _read_system(path: str) -> list[str]:
    return list(bio.read_lines(path))


def _parse_scores(specs: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for spec in specs:
        name, sep, files = spec.partition("=")
        if not sep or not name or not files:
            raise UsageError(f"--scores {spec!r}: expected NAME=FILE (or NAME=FILE1,FILE2 for one file per system)")
        out.setdefault(name, []).extend(f for f in files.split(",") if f)
    return out


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    args.sentence_level = False  # what the metric builders of the main command's registry read
    from .. import BLEU
    from ..analysis.metaeval.evaluate import (
        human_level_scores,
        meta_evaluate,
        metric_scores,
        scores_level_scores,
        task_table,
    )
    from ..metrics.bleu.scorer import LANGUAGE_TOKENIZERS
    from ..metrics.scores import Scores, read_scores_files, system_name

    paths = args.input
    names = [system_name(p) for p in paths]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise UsageError(f"-i: two hypothesis files are both named {dup!r} (systems are named by file stems)")
    for p in paths:
        if p in args.refs:
            raise UsageError(f"-i {p} is also a reference: a reference cannot be scored against itself")
    systems = {n: _read_system(p) for n, p in zip(names, paths)}
    refs = [_read_system(r) for r in args.refs]
    n_seg = len(next(iter(systems.values())))
    for hyps, p in zip(systems.values(), paths):
        if len(hyps) != n_seg:
            raise InputError(f"{bio.display_name(p)}: {len(hyps)} lines, but {bio.display_name(paths[0])} has {n_seg}")
    for r, ref in zip(args.refs, refs):
        if len(ref) != n_seg:
            raise InputError(f"{bio.display_name(r)}: {len(ref)} lines, the hypotheses have {n_seg}")

    human_seg = read_scores_files([args.human], names, n_seg, column=args.human_column, allow_missing=True)
    human_name = args.human_name or system_name(args.human).split(".seg")[0]
    human = human_level_scores(human_seg, names, higher_is_better=not args.human_lower_is_better)

    scores_specs = _parse_scores(args.scores)
    for name in args.lower_is_better:
        if name not in scores_specs:
            raise UsageError(f"--lower-is-better {name}: no --scores {name}=FILE")
    chosen = args.metrics if args.metrics is not None else ([] if scores_specs else ["bleu", "chrf", "ter"])
    if len(set(chosen)) != len(chosen):
        raise UsageError(f"-m names a metric twice: {' '.join(chosen)}")
    metrics = {}
    for m in chosen:
        if m == "bleu":
            trg = args.language_pair.split("-")[1] if args.language_pair else None
            tok = LANGUAGE_TOKENIZERS.get((trg or "").lower(), "13a")
            metrics["BLEU"] = metric_scores(BLEU(tokenize=tok), systems, refs,
                                            sentence_metric=BLEU(tokenize=tok, effective_order=True))
            continue
        for _, scorer in build_requested([get_metric(m)], args):
            if scorer.name in metrics:
                raise UsageError(f"-m {m} gives {scorer.name} twice")
            metrics[scorer.name] = metric_scores(scorer, systems, refs)
    for name, files in scores_specs.items():
        if name in metrics:
            raise UsageError(f"--scores {name}: the name is already a metric's")
        sc = Scores.from_files(name, files, systems, higher_is_better=name not in args.lower_is_better)
        metrics[name] = scores_level_scores(sc, names)
    if not metrics:
        raise UsageError("nothing to evaluate: give -m METRIC or --scores NAME=FILE")

    if args.task:
        records = task_table(human, metrics, names, args.task, human_name=human_name, k=args.permutations,
                             seed=args.seed)
    else:
        records = meta_evaluate(human, metrics, names, human_name=human_name, levels=args.level,
                                groupings=args.grouping)
    return output.write_output(render(records, args.format, args.width), args.output)


def _column(r: dict) -> str:
    if "task" in r:
        return r["task"]
    return f"{r['level']}-{r['statistic']}" + ("" if r["grouping"] == "none" else f"-{r['grouping']}")


def render(records: list[dict], fmt: str, width: int = 4) -> str:
    if fmt == "json":
        return json.dumps(records, indent=1, ensure_ascii=False) + "\n"
    if fmt == "tsv":
        keys = list(records[0]) if records else ["metric", "human", "level", "grouping", "statistic", "value"]
        lines = ["\t".join(keys)]
        lines += ["\t".join("" if r[k] is None else str(r[k]) for k in keys) for r in records]
        return "\n".join(lines) + "\n"
    columns = list(dict.fromkeys(_column(r) for r in records))
    metrics = list(dict.fromkeys(r["metric"] for r in records))
    cell = {(r["metric"], _column(r)): r for r in records}

    def fmt_cell(r: dict | None) -> str:
        if r is None or r["value"] is None:
            return "-"
        text = f"{r['value']:.{width}f}"
        return f"{text} ({r['rank']})" if "rank" in r else text

    if fmt == "latex":
        head = " & ".join(["Metric", *(c.replace("_", r"\_") for c in columns)]) + r" \\"
        body = [" & ".join([m.replace("_", r"\_"), *(fmt_cell(cell.get((m, c))) for c in columns)]) + r" \\"
                for m in metrics]
        return "\n".join([r"\begin{tabular}{l" + "r" * len(columns) + "}", r"\toprule", head, r"\midrule", *body,
                          r"\bottomrule", r"\end{tabular}"]) + "\n"
    rows = [["metric", *columns]] + [[m, *(fmt_cell(cell.get((m, c))) for c in columns)] for m in metrics]
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    human = records[0]["human"] if records else ""
    out = [f"human: {human}"] + ["  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in
                                           enumerate(zip(row, widths))) for row in rows]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else list(argv))
    except USER_ERRORS as e:
        print(f"bleuscope meta-eval: error: {e}", file=sys.stderr)
        return e.exit_code
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 0
