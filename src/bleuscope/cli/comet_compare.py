"""``bleuscope comet-compare SCORES [--systems NAME ...]``: COMET's ``comet-compare`` table (bootstrap wins
and ties, paired t-test, summary grid) on segment scores read from a file of any metric (COMET JSON,
comet-score output, mtme .seg.score, TSV system/line/score), without running a model."""

from __future__ import annotations

import argparse
import sys

from ..core import files as bio
from . import output
from .output import USER_ERRORS, UsageError


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="bleuscope comet-compare", description=__doc__.split(":", 1)[1].strip())
    p.add_argument("scores", nargs="+", metavar="SCORES", help="scores file(s): one for all systems or one per system")
    p.add_argument("--systems", nargs="+", metavar="NAME", help="systems to compare, in this order (default: all, "
                                                                "in file order)")
    p.add_argument("--column", help="the score column or JSON field (default: score / COMET)")
    p.add_argument("--num-splits", type=int, default=300)
    p.add_argument("--sample-ratio", type=float, default=0.4)
    p.add_argument("--t-test-alternative", choices=("two-sided", "less", "greater"), default="two-sided")
    p.add_argument("-o", "--output", metavar="FILE")
    return p


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    from ..analysis.comet_compare import comet_compare, format_report
    from ..metrics.scores import check_segment_scores, read_segment_scores

    merged: dict = {}
    for path in args.scores:
        for name, v in read_segment_scores(path, column=args.column).items():
            if name in merged:
                raise UsageError(f"{bio.display_name(path)}: system {name!r} is scored twice")
            merged[name] = v
    names = args.systems or list(merged)
    if len(names) < 2:
        raise UsageError("comet-compare needs at least 2 systems")
    n = max(v.size for v in merged.values())
    scores = check_segment_scores(merged, names, n, ", ".join(bio.display_name(p) for p in args.scores))
    results = comet_compare(scores, num_splits=args.num_splits, sample_ratio=args.sample_ratio,
                            alternative=args.t_test_alternative)
    return output.write_output(format_report(results, names), args.output)


def main(argv: list[str] | None = None) -> int:
    try:
        return run(sys.argv[1:] if argv is None else list(argv))
    except USER_ERRORS as e:
        print(f"bleuscope comet-compare: error: {e}", file=sys.stderr)
        return e.exit_code
    except ImportError as e:
        print(f"bleuscope comet-compare: error: {e}", file=sys.stderr)
        return 1
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 0
