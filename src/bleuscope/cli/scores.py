"""``--scores NAME=FILE``: a metric's segment scores read from a file (COMET, MetricX, human MQM/DA, ...) as
one more column of ``bleuscope``'s tables and significance tests; see :mod:`bleuscope.metrics.scores`."""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core import files as bio
from .output import UsageError

if TYPE_CHECKING:
    from .metrics import MetricDetails


@dataclass(frozen=True)
class ScoresSpec:
    """The registry row of a ``--scores`` column (what :class:`~bleuscope.cli.render.MetricResults` keeps)."""

    name: str
    keep_segment_rows: bool = True
    details: MetricDetails | None = None
    option_names: tuple = ()


def add_arguments(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("scores from files")
    g.add_argument("--scores", action="append", default=[], metavar="NAME=FILE[,FILE...]",
                   help="a metric's segment scores of every system, read from a file (COMET JSON, comet-score "
                        "output, mtme .seg.score, TSV system/line/score) or one file per system; a system is its "
                        "hypothesis file's stem; repeatable")
    g.add_argument("--scores-lower-is-better", action="append", default=[], metavar="NAME",
                   help="the --scores metric NAME is better when lower (TER-like, MQM penalties)")


def parse(specs: list[str]) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for spec in specs:
        name, sep, files = spec.partition("=")
        if not sep or not name or not files:
            raise UsageError(f"--scores {spec!r}: expected NAME=FILE (or NAME=FILE1,FILE2 for one file per system)")
        if name in out:
            raise UsageError(f"--scores {name}: given twice (list several files as NAME=FILE1,FILE2)")
        out[name] = [f for f in files.split(",") if f]
    return out


def check(args: argparse.Namespace) -> None:
    specs = parse(args.scores)
    for name in args.scores_lower_is_better:
        if name not in specs:
            raise UsageError(f"--scores-lower-is-better {name}: no --scores {name}=FILE")
    if specs and args.sentence_level:
        raise UsageError("-sl prints one metric's sentence scores; --scores does not go with it")


def table_rows(args: argparse.Namespace, table: list, keep_segments: bool) -> list:
    """A :class:`MetricResults` per ``--scores`` metric, for the systems of ``table`` (same order)."""
    specs = parse(args.scores)
    if not specs:
        return []
    from ..metrics.scores import Scores, system_name
    from .render import MetricResults
    from .scoring import SystemResult

    paths = [r.name for r in table[0].systems]
    names = [system_name(p) for p in paths]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise UsageError(f"--scores: two hypothesis files are both named {dup!r} (a system is its file's stem)")
    first = table[0].systems[0].stats
    n_segments = first.shape[0] if keep_segments else sum(1 for _ in bio.read_lines(paths[0]))
    rows = []
    for name, files in specs.items():
        if any(name == m.scorer.name for m in table):
            raise UsageError(f"--scores {name}: the name is already a metric's")
        scorer = Scores.from_files(name, files, names, n_segments,
                                   higher_is_better=name not in args.scores_lower_is_better)
        nrefs = table[0].systems[0].nrefs  # the references the scores were computed against
        results = []
        for path, sysname in zip(paths, names):
            stats = scorer.statistics(sysname).stats
            if not keep_segments:
                stats = stats.sum(axis=0, keepdims=True)
            results.append(SystemResult(path, stats, nrefs, scorer.score_from_statistics(stats, nrefs)))
        rows.append(MetricResults(ScoresSpec(name), scorer, results))
    return rows


def bound_scorers(args: argparse.Namespace, paths: list[str], hyps: list[list[str]]) -> list:
    """The ``--scores`` metrics bound to the systems' hypothesis texts (the report counts metrics from the
    texts: a Scores metric finds each system's rows by its hypotheses)."""
    specs = parse(args.scores)
    for name in args.scores_lower_is_better:
        if name not in specs:
            raise UsageError(f"--scores-lower-is-better {name}: no --scores {name}=FILE")
    if not specs:
        return []
    from ..metrics.scores import Scores, system_name

    names = [system_name(p) for p in paths]
    dup = next((n for n in names if names.count(n) > 1), None)
    if dup is not None:
        raise UsageError(f"--scores: two hypothesis files are both named {dup!r} (a system is its file's stem)")
    n = len(hyps[0]) if hyps else 0
    return [Scores.from_files(name, files, dict(zip(names, hyps)), n,
                              higher_is_better=name not in args.scores_lower_is_better)
            for name, files in specs.items()]
