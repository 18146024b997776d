"""``bleuscope report REF [REF ...] -i SYS [SYS ...] -o report.html``: the HTML report from files.

Same conventions as the main command: files are read strictly (UTF-8, split on ``"\\n"`` only, ``.gz``/``.xz``/
``.bz2`` by extension), every user error is one line naming the file and the line, exit code 1 for bad data
and 2 for bad options, and the output is written atomically (a failed run leaves an existing file untouched).
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
import warnings

from ..io import CLIError, InputError, UsageError, display_name, read_lines, write_atomic

PROG = "bleuscope report"

#: -m/--metrics: name -> "module:class" built with its default options (BLEU is always the first metric)
METRICS = {"bleu": None, "chrf": "bleuscope.metrics.chrf:CHRF", "ter": "bleuscope.metrics.ter:TER"}

DESCRIPTION = """\
Write one self-contained HTML page comparing MT systems: scores with bootstrap confidence intervals,
significance clusters and pairwise p-values, sentence-score histograms, a system-vs-system scatter plot,
BLEU by segment length and length ratio, n-gram precision by order, the biggest wins and losses between two
systems, and a sortable, filterable segment table with matched n-grams highlighted. It opens offline."""

EPILOG = """\
examples:
  bleuscope report ref.A.txt ref.B.txt -i sys/*.txt -s src.txt -o report.html
  bleuscope report ref.txt -i a.txt b.txt -l en-ja -o report.html      # ja-mecab tokenizer for a ja target
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage dump, exit 2
        raise UsageError(f"{message} (see {PROG} --help)")


def _checked(convert, accept, requirement: str):
    """An argparse type: ``convert`` the text, then require ``accept(value)`` (one-line messages)."""
    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected {'a whole number' if convert is int else 'a number'}, "
                                             f"got {text!r}") from None
        if not accept(value):
            raise argparse.ArgumentTypeError(f"{requirement}, got {text}")
        return value

    return parse


_positive_int = _checked(int, lambda v: v >= 1, "must be >= 1")
_non_negative_int = _checked(int, lambda v: v >= 0, "must be >= 0")
_alpha = _checked(float, lambda v: 0 < v < 1, "must be strictly between 0 and 1")
_smooth_value = _checked(float, lambda v: math.isfinite(v) and v >= 0, "must be a finite number >= 0")


def _max_segments(text: str) -> int | None:
    return None if text == "all" else _non_negative_int(text)


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description=DESCRIPTION, epilog=EPILOG,
                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("references", nargs="+", metavar="REF", help="reference file(s), one reference stream each")
    inp = p.add_argument_group("input")
    inp.add_argument("-i", "--input", nargs="+", metavar="SYS", required=True,
                     help="system output file(s), one system each (the first two are compared by default)")
    inp.add_argument("-s", "--source", metavar="SRC", help="source file, shown in the segment table")
    inp.add_argument("--names", nargs="+", metavar="NAME",
                     help="system names, one per -i file (default: the file names without .txt)")
    inp.add_argument("-e", "--encoding", default="utf-8", help="text encoding of all input files (default: utf-8)")

    b = p.add_argument_group("BLEU options (as in the main command)")
    b.add_argument("-tok", "--tokenize", metavar="NAME",
                   help="tokenizer (default: 13a; zh, ja-mecab or ko-mecab for a zh/ja/ko target given by -l)")
    b.add_argument("-l", "--language-pair", metavar="SRC-TGT",
                   help="language pair such as en-ja; the target language chooses the default tokenizer")
    b.add_argument("-lc", "--lowercase", action="store_true", help="case-insensitive BLEU")
    b.add_argument("--smooth-method", default="exp", metavar="METHOD", help="smoothing (default: exp)")
    b.add_argument("-sv", "--smooth-value", type=_smooth_value, metavar="V",
                   help="value for floor (default 0.1) or add-k (default 1)")
    b.add_argument("--max-ngram-order", type=_positive_int, default=4, metavar="N",
                   help="maximum n-gram order (default: 4)")
    b.add_argument("--effective-order", action="store_true",
                   help="effective order for the corpus scores (sentence scores always use it)")
    b.add_argument("--spm-model", metavar="PATH", help="SentencePiece model for -tok flores101/flores200/spBLEU-1K")
    b.add_argument("--force", action="store_true", help="do not warn about hypotheses that look tokenized")
    b.add_argument("-m", "--metrics", nargs="+", choices=list(METRICS), default=["bleu"], metavar="METRIC",
                   help="metrics in the systems table, with bootstrap intervals: bleu (always), chrf, ter "
                        "(sacreBLEU's default options)")

    r = p.add_argument_group("report")
    r.add_argument("-o", "--output", metavar="FILE", required=True,
                   help="the HTML file to write (atomically; '-' = standard output)")
    r.add_argument("--title", help="page title (default: numbers of systems and segments)")
    r.add_argument("--pair", nargs=2, metavar=("A", "B"),
                   help="the two systems compared by default (names; default: the first two)")
    r.add_argument("--max-segments", type=_max_segments, default=5000, metavar="N",
                   help="texts of the first N segments go into the page (default: 5000; 'all'); "
                        "every score uses all segments")
    r.add_argument("--n-bootstrap", type=_positive_int, default=1000, metavar="N",
                   help="bootstrap resamples for the intervals and the pairwise tests (default: 1000)")
    r.add_argument("--seed", type=_non_negative_int, default=12345, help="random seed (default: 12345)")
    r.add_argument("--alpha", type=_alpha, default=0.05, help="significance level of the clusters (default: 0.05)")
    r.add_argument("-q", "--quiet", action="store_true", help="no warnings and no summary line")
    return p


def _file_labels(paths: list[str]) -> list[str]:
    """Short names for files: the base name without .txt (and compression), else the path as given."""
    stems = []
    for path in paths:
        base = os.path.basename(display_name(path))
        for ext in (".gz", ".xz", ".bz2"):
            if base.endswith(ext):
                base = base[: -len(ext)]
        stems.append(base[:-4] if base.endswith(".txt") else base)
    if len(set(stems)) == len(stems):
        return stems
    if len(set(paths)) == len(paths):
        return [display_name(p) for p in paths]
    return [f"{display_name(p)} ({k + 1})" for k, p in enumerate(paths)]


def _system_names(paths: list[str], names: list[str] | None) -> list[str]:
    if names is not None:
        if len(names) != len(paths):
            raise UsageError(f"--names gives {len(names)} names for {len(paths)} -i files")
        dup = next((n for n in names if names.count(n) > 1), None)
        if dup is not None:
            raise UsageError(f"--names: {dup!r} is used twice")
        return list(names)
    return _file_labels(paths)


def _check_counts(kind: str, name: str, lines: list, ref_name: str, ref_lines: list) -> None:
    if not lines:
        raise InputError(f"{name}: empty input, no {kind} lines")
    if len(lines) != len(ref_lines):
        longer = name if len(lines) > len(ref_lines) else ref_name
        first_extra = min(len(lines), len(ref_lines)) + 1
        raise InputError(
            f"line counts differ: {kind} {name} has {len(lines)} lines but reference {ref_name} has "
            f"{len(ref_lines)}; {longer}:{first_extra} has no counterpart (nothing is truncated)"
        )


def _make_bleu(args):
    from .. import BLEU

    trg_lang = None
    if args.language_pair:
        parts = args.language_pair.split("-")
        if len(parts) != 2 or not all(parts):
            raise UsageError(f"-l/--language-pair must look like en-de, got {args.language_pair!r}")
        trg_lang = parts[1]
    options = {"spm_model": args.spm_model} if args.spm_model is not None else {}
    try:
        return BLEU(tokenize=args.tokenize, trg_lang=trg_lang, lowercase=args.lowercase,
                    smooth_method=args.smooth_method, smooth_value=args.smooth_value,
                    max_ngram_order=args.max_ngram_order, effective_order=args.effective_order,
                    force=args.force, **options)
    except (ValueError, TypeError) as e:
        raise UsageError(str(e)) from None
    except (ImportError, RuntimeError, OSError) as e:  # an optional tokenizer dependency is missing
        raise InputError(f"the tokenizer is not usable: {e}") from None


def _extra_metrics(names: list[str]) -> list:
    import importlib

    out = []
    for name in dict.fromkeys(names):
        target = METRICS[name]
        if target is None:
            continue
        module, cls = target.split(":")
        try:
            out.append(getattr(importlib.import_module(module), cls)())
        except (ImportError, AttributeError) as e:
            raise UsageError(f"-m {name}: this metric is not available in this installation ({e})") from None
    return out


def run(argv: list[str] | None, warn) -> int:
    from . import build_report

    args = build_parser().parse_args(argv)
    started = time.perf_counter()
    bleu = _make_bleu(args)
    metrics = _extra_metrics(args.metrics)
    names = _system_names(args.input, args.names)
    if args.pair is not None:
        for n in args.pair:
            if n not in names:
                raise UsageError(f"--pair: {n!r} is not one of the systems ({', '.join(names)})")
        if args.pair[0] == args.pair[1]:
            raise UsageError("--pair needs two different systems")
    if args.output != "-" and os.path.isdir(args.output):
        raise UsageError(f"-o {args.output}: is a directory")
    refs = [read_lines(p, args.encoding, warn) for p in args.references]
    ref_names = [display_name(p) for p in args.references]
    for name, lines in zip(ref_names, refs):
        if not lines:
            raise InputError(f"{name}: empty input, no reference lines")
    for name, lines in zip(ref_names[1:], refs[1:]):
        _check_counts("reference", name, lines, ref_names[0], refs[0])
    hyps = []
    for path in args.input:
        lines = read_lines(path, args.encoding, warn)
        _check_counts("hypothesis", display_name(path), lines, ref_names[0], refs[0])
        hyps.append(lines)
    sources = None
    if args.source is not None:
        sources = read_lines(args.source, args.encoding, warn)
        _check_counts("source", display_name(args.source), sources, ref_names[0], refs[0])
    ref_labels = _file_labels(args.references)
    try:
        page = build_report(list(zip(names, hyps)), refs, sources=sources, bleu=bleu, metrics=metrics,
                            reference_names=ref_labels, title=args.title, n_bootstrap=args.n_bootstrap, seed=args.seed, alpha=args.alpha,
                            max_segments=args.max_segments, pair=tuple(args.pair) if args.pair else None)
    except (ImportError, RuntimeError, OSError) as e:  # an optional tokenizer dependency failed while scoring
        raise InputError(f"the tokenizer is not usable: {e}") from None
    if args.output == "-":
        sys.stdout.write(page)
        sys.stdout.flush()
    else:
        write_atomic(args.output, page)
    if not args.quiet:
        size = len(page.encode("utf-8"))
        print(f"{PROG}: wrote {display_name(args.output)} ({size / 1e6:.2f} MB; {len(names)} system{'s' if len(names) > 1 else ''}, "
              f"{len(refs[0])} segments) in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors are one line on stderr (exit 1 data, 2 usage); bugs keep their traceback."""
    if argv is None:
        argv = sys.argv[1:]
    quiet = "-q" in argv or "--quiet" in argv

    def warn(message: str) -> None:
        if not quiet:
            print(f"{PROG}: warning: {message}", file=sys.stderr)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore" if quiet else "default")
            warnings.showwarning = lambda message, *_args, **_kw: warn(str(message))
            return run(argv, warn)
    except CLIError as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return e.exit_code
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
