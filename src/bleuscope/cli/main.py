"""The ``bleuscope`` command: options, their checks, and the run from inputs to the printed result.

Nothing heavy is imported before the options are parsed (``bleuscope -h`` starts as fast as ``sacrebleu -h``):
the scorer, numpy and the readers come in with :func:`run`. The steps:

1. :func:`build_parser` / :func:`parse_args`: options, and checks of options that do not go together (exit 2);
2. :mod:`~bleuscope.cli.metrics`: the scorer of each ``-m`` metric (exit 2 for bad options);
3. :mod:`~bleuscope.cli.inputs`: hypotheses and references, streamed from files or stdin (exit 1 for bad data);
4. :mod:`~bleuscope.cli.significance` for ``--confidence`` / ``--paired-*``, otherwise the scores;
5. :mod:`~bleuscope.cli.render`: json / text / latex / tsv / jsonl, corpus or sentence level;
6. :func:`bleuscope.core.files.write_output`: stdout, or ``-o FILE``.

``bleuscope report ...`` is handed to ``bleuscope.report.cli:main`` when that module is installed.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings

from ..core import files as bio
from . import output, sharded
from . import scores as cli_scores
from . import significance as cli_significance
from .argtypes import non_negative_number, whole_number
from .metrics import add_metric_arguments, build_requested, check_metric_names, metric_names, requested_metrics
from .output import USER_ERRORS, UsageError
from .progress import clear_line

FORMATS = ("json", "text", "latex", "tsv", "jsonl")

#: smoothing methods; a test keeps this equal to ``bleuscope.metrics.bleu.scoring.SMOOTH_DEFAULTS`` (which imports numpy)
SMOOTH_METHODS = ("none", "floor", "add-k", "exp", *(f"chen-cherry-{k}" for k in range(1, 8)))

#: subcommands: the first argument -> the module whose ``main(argv)`` runs it (when installed)
SUBCOMMANDS = {
    "report": "bleuscope.report.cli",
    "meta-eval": "bleuscope.cli.metaeval",
    "comet-compare": "bleuscope.cli.comet_compare",
    "jiwer": "bleuscope.cli.jiwer",
}

DESCRIPTION = """\
Fast, exact BLEU with the numbers of sacreBLEU 2.6.0 (same scores, same JSON).

three ways to give the input:
  bleuscope REF [REF ...] -i HYP [HYP ...]      sacreBLEU's order: references first, hypotheses after -i
  cat HYP | bleuscope REF [REF ...]             hypotheses on stdin
  bleuscope HYP [HYP ...] -r REF [REF ...]      hypotheses first, references after -r

Files are UTF-8 text, one segment per line (split on "\\n" only); .gz, .xz and .bz2 are read transparently.
Several hypothesis files are several systems (a table, or a JSON list); -i and -r may be repeated."""

EPILOG = """\
examples (run them in a copy of the folder that `bleuscope --example-dir` prints):
  bleuscope --example                                   score the bundled WMT22 en-de sample
  bleuscope ref.A.txt -i hyp.Online-B.txt               one system, JSON like sacreBLEU
  bleuscope hyp.Online-B.txt hyp.OpenNMT.txt -r ref.A.txt ref.B.txt -f text   two systems, two references
  bleuscope refs.tsv -nr 2 -i hyp.Online-B.txt          two tab-separated references per line
  bleuscope preds.jsonl --hyp-field output --ref-field target   JSON Lines: hypotheses and references
  bleuscope ref.A.txt -i hyp.Online-B.txt -sl -f jsonl -o seg.jsonl   sentence scores with their statistics

exit status: 0 success, 1 bad input data (unreadable file, invalid UTF-8, different line counts, ...),
2 bad or incompatible options, 130 interrupted (Ctrl-C)."""


# ---------------------------------------------------------------------------------------------------------
# arguments
# ---------------------------------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage dump, exit 2
        raise UsageError(f"{message} (see bleuscope --help)")


class _VersionAction(argparse.Action):
    """``--version``: the installation report of :mod:`bleuscope.core.installation` (built only when asked)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from ..core.installation import config_text

        sys.stdout.write(config_text() + "\n")
        parser.exit()


#: the largest n-gram order the compiled core counts (a test keeps it equal to the core's limit)
MAX_NGRAM_ORDER = 1 << 16

#: the most decimals ``-w`` prints (a float64 has at most 17 significant digits; Python's format refuses
#: precisions past a machine word)
MAX_WIDTH = 100

#: smoothing methods that take -sv: sacreBLEU's floor and add-k, and the Chen & Cherry methods with a parameter
#: (a test keeps this equal to the library's CHEN_CHERRY_DEFAULTS)
SMOOTH_VALUE_METHODS = ("floor", "add-k", "chen-cherry-1", "chen-cherry-4", "chen-cherry-6", "chen-cherry-7")


def _tokenizer_names() -> list[str]:
    from ..tokenizers import available_tokenizers

    return available_tokenizers()


def build_parser() -> argparse.ArgumentParser:
    # allow_abbrev=False: `-t intl` must not be taken for `-tok intl` (no prefix matching of long options)
    p = _Parser(
        prog="bleuscope",
        description=DESCRIPTION,
        epilog=EPILOG,
        allow_abbrev=False,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument(
        "files",
        nargs="*",
        metavar="FILE",
        help="reference files (sacreBLEU order), or hypothesis files when -r is given",
    )
    inp = p.add_argument_group("input")
    inp.add_argument(
        "-i",
        "--input",
        nargs="+",
        action="extend",
        metavar="HYP",
        help="hypothesis file(s), one system each ('-' = stdin); default: stdin; repeating -i adds systems",
    )
    inp.add_argument(
        "-r",
        "--references",
        nargs="+",
        action="extend",
        metavar="REF",
        help="reference file(s); the positional FILEs are then the hypotheses; repeating -r adds references",
    )
    inp.add_argument(
        "-nr",
        "--num-refs",
        type=whole_number(1),
        default=1,
        metavar="N",
        help="the (single) reference file has N tab-separated references per line (default: 1)",
    )
    inp.add_argument(
        "--hyp-field", metavar="NAME", help="hypothesis files (and stdin) are JSON Lines; score field NAME (a string)"
    )
    inp.add_argument(
        "--ref-field",
        action="append",
        metavar="NAME",
        help="reference files are JSON Lines; field NAME holds a string or a list of strings; "
        "repeat for several fields; with --hyp-field and no reference files, the references "
        "are read from the hypothesis JSON Lines (then the FILEs are the JSON Lines files)",
    )
    inp.add_argument(
        "-e",
        "--encoding",
        default="utf-8",
        help="text encoding of all input files (default: utf-8; utf-8-sig drops a byte order mark)",
    )
    inp.add_argument(
        "--max-line-bytes",
        type=whole_number(1, bio.LONGEST_LINE_BYTES),
        default=bio.MAX_LINE_BYTES,
        metavar="N",
        help=f"refuse an input line longer than N bytes (default: {bio.MAX_LINE_BYTES:,} = 1 MiB)",
    )
    inp.add_argument(
        "--example",
        action="store_true",
        help="score the bundled example (300 WMT22 en-de segments, 2 systems, 2 references)",
    )
    inp.add_argument(
        "--example-dir", action="store_true", help="print the folder of the bundled example files and exit"
    )

    ts = p.add_argument_group(
        'sacreBLEU test sets (needs: pip install "bleuscope[testsets]", sacreBLEU\'s own dataset module and '
        "cache, $SACREBLEU or ~/.sacrebleu)",
        "A test set missing from the cache is downloaded by sacreBLEU: only when you give -t, --echo or --list "
        "with -t. Without them bleuscope never uses the network.",
    )
    ts.add_argument(
        "-t",
        "--test-set",
        metavar="NAME",
        help="score against the references of a sacreBLEU test set (with -l; one test set at a time)",
    )
    ts.add_argument(
        "--echo",
        nargs="+",
        metavar="FIELD",
        help="print fields of the test set (src, ref, docid, ref:A, ..., or all) and exit",
    )
    ts.add_argument(
        "--list", action="store_true", help="list the test sets (with -t: its language pairs and fields) and exit"
    )

    b = p.add_argument_group("BLEU options (names and defaults as in sacreBLEU, unless marked bleuscope's own)")
    b.add_argument(
        "-tok",
        "--tokenize",
        metavar="NAME",
        help=f"tokenizer: {', '.join(_tokenizer_names())} "
        "(default: 13a; zh, ja-mecab or ko-mecab for a zh/ja/ko target given by -l)",
    )
    b.add_argument(
        "--spm-model",
        metavar="PATH",
        help="SentencePiece model file (or folder) for -tok flores101/flores200/spBLEU-1K; "
        "bleuscope never downloads models (bleuscope's own)",
    )
    b.add_argument(
        "-l",
        "--language-pair",
        metavar="SRC-TGT",
        help="language pair such as en-zh; the target language chooses the default tokenizer",
    )
    b.add_argument("-lc", "--lowercase", action="store_true", help="case-insensitive BLEU")
    b.add_argument(
        "-s",
        "--smooth-method",
        choices=SMOOTH_METHODS,
        default="exp",
        metavar="METHOD",
        help=f"smoothing: {', '.join(SMOOTH_METHODS)} (default: exp; chen-cherry-* are bleuscope's own)",
    )
    b.add_argument(
        "-sv",
        "--smooth-value",
        type=non_negative_number,
        metavar="V",
        help="value for floor (default 0.1), add-k (default 1), chen-cherry-1 (epsilon, 0.1), chen-cherry-4 "
        "and -7 (K, 5), chen-cherry-6 (alpha, 5)",
    )
    b.add_argument(
        "--max-ngram-order",
        type=whole_number(1, MAX_NGRAM_ORDER),
        default=4,
        metavar="N",
        help="maximum n-gram order (default: 4; other orders are signed order:N; bleuscope's own)",
    )
    b.add_argument(
        "--effective-order",
        action="store_true",
        help="drop n-gram orders without hypothesis n-grams (always on with -sl; bleuscope's own)",
    )
    b.add_argument("--force", action="store_true", help="do not warn about hypotheses that look tokenized")
    b.add_argument(
        "-m",
        "--metrics",
        nargs="+",
        choices=metric_names(),
        default=["bleu"],
        metavar="METRIC",
        help=f"metrics to compute: {', '.join(metric_names())} (default: bleu)",
    )

    cli_scores.add_arguments(p)

    o = p.add_argument_group("output")
    o.add_argument(
        "-f",
        "--format",
        choices=FORMATS,
        default=None,
        help="json (default, sacreBLEU's keys plus counts, totals, bp, ...), text, latex, tsv, jsonl; "
        "with -sl: text (default), jsonl, json or tsv",
    )
    o.add_argument(
        "-sl",
        "--sentence-level",
        action="store_true",
        help="one score per segment (effective order on, as in sacreBLEU)",
    )
    o.add_argument("-b", "--score-only", action="store_true", help="print only the score(s)")
    o.add_argument(
        "-w",
        "--width",
        type=whole_number(0, MAX_WIDTH),
        default=1,
        metavar="N",
        help="decimals of printed scores (default: 1, as sacreBLEU's command)",
    )
    o.add_argument("-sh", "--short", action="store_true", help="short signature (#:1|c:mixed|...)")
    o.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="write the result to FILE instead of stdout: a regular file is replaced atomically (all "
        "or nothing), a symlink's target is written, a FIFO or device is written directly, a "
        "read-only file is refused",
    )
    o.add_argument(
        "-q", "--quiet", action="store_true", help="no warnings and no progress bar: only the result (and errors)"
    )
    o.add_argument("-nc", "--no-color", action="store_true", help=argparse.SUPPRESS)  # sacreBLEU's; no colours
    o.add_argument(
        "-V",
        "--version",
        action=_VersionAction,
        help="show the version, the compiled core's build, the Python, Unicode and regex versions and which "
        "tokenizers the compiled core runs (and why not), then exit",
    )

    cli_significance.add_arguments(p)
    sharded.add_arguments(p)
    add_metric_arguments(p)
    return p


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parsed and cross-checked options; ``args.hyp_paths`` / ``args.ref_paths`` resolve the input forms."""
    args = build_parser().parse_args(argv)
    # an empty name would read as "not given" below (and the library refuses it as a field name)
    if args.hyp_field == "":
        raise UsageError("--hyp-field needs a field name, got ''")
    if args.ref_field is not None and "" in args.ref_field:
        raise UsageError("--ref-field needs a field name, got ''")
    args.hyp_field_refs = False  # references read from the hypothesis JSON Lines
    args.test_set_refs = None  # the test set's reference files (-t), resolved in run()
    if args.example:
        if (
            args.files
            or args.input
            or args.references
            or args.hyp_field
            or args.ref_field
            or args.num_refs != 1
            or args.test_set
        ):
            raise UsageError("--example uses the bundled files; do not give input files or input options with it")
        paths = example_paths()
        args.hyp_paths, args.ref_paths = paths["hyps"], paths["refs"]
        args.hyp_names = ["Online-B", "OpenNMT"]
        if args.format is None and not args.sentence_level:
            args.format = "text"
    elif args.test_set is not None:
        if args.references is not None or args.files:
            raise UsageError(
                "-t/--test-set gives the references; give hypotheses with -i (or on stdin), not reference files"
            )
        args.hyp_paths, args.ref_paths = args.input or [bio.STDIN], []
    elif args.references is not None:
        if args.input is not None:
            raise UsageError("give hypotheses either as FILEs with -r, or with -i after the reference FILEs, not both")
        args.hyp_paths, args.ref_paths = args.files or [bio.STDIN], args.references
    elif args.hyp_field and args.ref_field and not args.input and args.files:
        # `bleuscope preds.jsonl --hyp-field output --ref-field target`: hypotheses and references in one file
        args.hyp_paths, args.ref_paths = args.files, []
        args.hyp_field_refs = True
    else:
        args.hyp_paths, args.ref_paths = args.input or [bio.STDIN], args.files
        args.hyp_field_refs = bool(args.hyp_field and args.ref_field and not args.ref_paths)
    if not args.example:
        args.hyp_names = [bio.display_name(p) for p in args.hyp_paths]
    check_options(args)
    return args


def check_options(args: argparse.Namespace) -> None:
    """Options that do not go together: :class:`UsageError` (exit 2)."""
    args.encoding = output.check_encoding(args.encoding)
    if args.smooth_value is not None and args.smooth_method not in SMOOTH_VALUE_METHODS:
        raise UsageError(
            f"-sv/--smooth-value is not used by -s {args.smooth_method}; it goes with -s "
            f"{', '.join(SMOOTH_VALUE_METHODS)}"
        )
    if args.tokenize is not None and args.tokenize not in _tokenizer_names():
        raise UsageError(f"unknown tokenizer {args.tokenize!r} (-tok); choose one of: {', '.join(_tokenizer_names())}")
    if args.language_pair is not None:
        parts = args.language_pair.split("-")
        if len(parts) != 2 or not all(parts):
            raise UsageError(f"-l/--language-pair must look like en-de (source-target), got {args.language_pair!r}")
    if args.list and args.echo is not None:
        raise UsageError("--list and --echo do not go together")
    if args.test_set is not None:
        if args.language_pair is None and not args.list:
            raise UsageError(
                "-t/--test-set needs -l/--language-pair (e.g. -t wmt22 -l en-de); "
                "-t NAME --list shows its language pairs"
            )
        if args.num_refs > 1 or args.ref_field:
            raise UsageError("-t/--test-set gives the references: -nr and --ref-field do not apply")
    if args.echo is not None and args.test_set is None:
        raise UsageError("--echo prints fields of a test set: give -t NAME -l SRC-TGT")
    if args.num_refs > 1:
        if len(args.ref_paths) > 1:
            raise UsageError(
                f"-nr {args.num_refs} reads {args.num_refs} tab-separated references from ONE reference file; "
                f"got {len(args.ref_paths)} reference files"
            )
        if args.ref_field:
            raise UsageError("-nr (tab-separated references) and --ref-field (JSON Lines) do not go together")
    if args.ref_field and not args.ref_paths and not args.hyp_field:
        raise UsageError(
            "--ref-field without reference files reads the references from the hypothesis JSON Lines, "
            "which needs --hyp-field"
        )
    exits_early = args.list or args.echo is not None or args.example_dir
    if not args.ref_paths and not args.hyp_field_refs and args.test_set is None and not exits_early:
        if args.input is not None and len(args.input) > 1:
            raise UsageError(
                "no reference files: every file after -i is read as a hypothesis; put the references before -i "
                "(sacreBLEU order: bleuscope REF ... -i HYP ...) or after -r"
            )
        raise UsageError("no reference files: bleuscope REF ... -i HYP ..., or bleuscope HYP ... -r REF ...")
    if args.hyp_paths.count(bio.STDIN) > 1:
        raise UsageError("stdin ('-') can be read only once")
    seen = set()
    for path in args.hyp_paths:
        if path in seen:
            raise UsageError(f"{path} is given twice as a hypothesis file")
        seen.add(path)
    if bio.STDIN in args.ref_paths and (bio.STDIN in args.hyp_paths):
        raise UsageError("stdin ('-') cannot be both the hypotheses and a reference")
    output.check_output_not_input(args.output, [*args.hyp_paths, *args.ref_paths])
    check_metric_names(args.metrics)

    n_sys = len(args.hyp_paths)
    significance = cli_significance.requested(args)
    if args.sentence_level:
        if n_sys > 1:
            raise UsageError(f"-sl scores one system at a time; got {n_sys} hypothesis files")
        if args.format == "latex":
            raise UsageError("-sl prints text, jsonl, json or tsv; latex is for corpus scores")
        if significance:
            raise UsageError("significance tests (--confidence, --paired-*) do not go with -sl")
        if args.format is None:
            args.format = "text"  # sacreBLEU's -sl prints text whatever -f says
    if args.format is None:
        args.format = "json"
    if args.score_only and args.format in ("tsv", "jsonl", "latex"):
        raise UsageError(f"-b/--score-only prints bare scores; it does not go with -f {args.format}")


def example_dir() -> str:
    from importlib import resources

    return str(resources.files("bleuscope") / "data" / "example")


def example_paths() -> dict[str, list[str]]:
    base = example_dir()
    return {
        "hyps": [os.path.join(base, "hyp.Online-B.txt"), os.path.join(base, "hyp.OpenNMT.txt")],
        "refs": [os.path.join(base, "ref.A.txt"), os.path.join(base, "ref.B.txt")],
    }


# ---------------------------------------------------------------------------------------------------------
# the run
# ---------------------------------------------------------------------------------------------------------
def _stderr_writer(quiet: bool):
    given: set[str] = set()

    def warn(message: str) -> None:
        # once each: metrics that share a reader (ROUGE's types, -m bleu ... over the same files) note the same
        if not quiet and message not in given:
            given.add(message)
            clear_line()  # a progress line on the terminal: the warning gets a line of its own
            print(f"bleuscope: warning: {message}", file=sys.stderr)

    return warn


def run(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    warn = _stderr_writer(args.quiet)
    with warnings.catch_warnings():
        # library warnings (tokenizer hints, CJK text with 13a, ...) become one-line messages; -q drops them
        warnings.simplefilter("ignore" if args.quiet else "default")
        # ROUGE's note on its default tokenizer (Metric.input_notes) names the command's option instead
        warnings.filterwarnings("ignore", message="ROUGE's default tokenizer")
        warnings.showwarning = lambda message, *_args, **_kw: warn(str(message))
        return _run(args, warn)


def _run(args: argparse.Namespace, warn) -> int:
    if args.example_dir:
        return output.write_output(example_dir() + "\n", None)
    if args.list or args.echo is not None or args.test_set is not None:
        from . import testsets

        if args.list or args.echo is not None:
            return output.write_output(testsets.listing(args) if args.list else testsets.echo(args), args.output)
        args.ref_paths = testsets.reference_files(args)
    from .render import MetricResults, RenderOptions, render_corpus, render_sentences
    from .scoring import score_metrics

    specs = requested_metrics(args)
    if args.sentence_level and len(specs) > 1:
        raise UsageError(f"-sl scores one metric at a time (as sacreBLEU); got -m {' '.join(args.metrics)}")
    # a metric may build several scorers (ROUGE: one per type), each printed as its own column
    pairs = build_requested(specs, args, warn)
    specs, scorers = [p[0] for p in pairs], [p[1] for p in pairs]
    if args.sentence_level and len(scorers) > 1:
        raise UsageError(f"-sl scores one metric at a time; -m {' '.join(args.metrics)} gives {len(scorers)}")
    if args.example and not args.quiet:
        print(
            "bleuscope: bundled example: WMT22 en-de, first 300 segments, systems Online-B and OpenNMT, "
            "references A and B",
            file=sys.stderr,
        )
    options = RenderOptions.from_args(args)
    if sharded.requested(args):  # Parquet / JSON Lines shards, here or on Ray (--ray)
        if cli_significance.requested(args):
            raise UsageError("significance tests need every segment in memory; they do not go with shards")
        if args.scores:
            raise UsageError("--scores reads whole systems' scores; it does not go with shards")
        table = [MetricResults(spec, scorer, sharded.score(args, scorer, warn)) for spec, scorer in zip(specs, scorers)]
        return output.write_output(render_corpus(table, options), args.output)
    cli_scores.check(args)
    if cli_significance.requested(args):  # resampling needs every segment's statistics (not the text)
        table = score_metrics(specs, scorers, args, warn, keep_segments=True)
        table += cli_scores.table_rows(args, table, keep_segments=True)
        return output.write_output(cli_significance.run(args, table, options), args.output)
    table = score_metrics(specs, scorers, args, warn)
    table += cli_scores.table_rows(args, table, keep_segments=False)
    text = render_sentences(table[0], options) if args.sentence_level else render_corpus(table, options)
    return output.write_output(text, args.output)


def _run_subcommand(module_name: str, argv: list[str]) -> int | None:
    """``main(argv)`` of a subcommand's module; ``None`` when that module is not installed."""
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as e:
        if e.name is not None and module_name.startswith(e.name):
            return None  # the subcommand's module (or its package) is absent: not a subcommand here
        raise  # a missing dependency inside the module is a real bug: keep the traceback
    return module.main(argv)


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors are one line on stderr (exit 1 data, 2 usage); bugs keep their traceback."""
    argv = sys.argv[1:] if argv is None else list(argv)
    if "numpy" not in sys.modules:
        # numpy's OpenBLAS starts a spinning worker thread per core when it loads (about 40 ms of CPU on
        # 2 cores, more on a busy machine); the command's BLAS products are small and exact in any
        # order, so one thread gives the same numbers. A value the user set is kept.
        os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        if argv and argv[0] in SUBCOMMANDS:
            code = _run_subcommand(SUBCOMMANDS[argv[0]], argv[1:])
            if code is not None:
                return code
            # no such module: `report` is then an ordinary file name
        return run(argv)
    except USER_ERRORS as e:
        print(f"bleuscope: error: {e}", file=sys.stderr)
        return e.exit_code
    except SystemExit as e:  # --help, --version
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        print("bleuscope: interrupted", file=sys.stderr)
        return 130
    except output.StdoutClosed:  # `bleuscope ... | head -1` and `| true` alike: the reader needs no more
        return 0
    except BrokenPipeError:  # --help or --version into a closed pipe
        output.silence_stdout()
        return 0
