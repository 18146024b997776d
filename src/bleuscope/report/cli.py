"""``bleuscope report REF [REF ...] -i SYS [SYS ...] -o report.html``: the HTML report from files.

Same conventions as the main command: files are read strictly (UTF-8, split on ``"\\n"`` only, ``.gz``/``.xz``/
``.bz2`` by extension), every user error is one line naming the file and the line, exit code 1 for bad data
and 2 for bad options, and the output is written atomically (a failed run leaves an existing file untouched).
The metrics of ``-m`` and their options come from the main command's registry (:mod:`bleuscope.cli.metrics`);
BLEU, always the first metric, keeps its own option group here (``-s`` is the source file).
"""

from __future__ import annotations

import argparse
import math
import os
import re
import sys
import time
import warnings

from ..cli.metrics import (
    BLEU_OPTION_NAMES,
    add_metric_arguments,
    add_scores_arguments,
    build_requested,
    check_metric_names,
    get_metric,
    metric_names,
    scores_scorers,
)
from ..cli.output import USER_ERRORS, StdoutClosed, UsageError, check_output_not_input, write_output
from ..cli.progress import PROGRESS_MIN_SEGMENTS, Progress, clear_line, isatty
from ..cli.rouge import DEFAULT_TYPES as ROUGE_DEFAULT_TYPES
from ..cli.significance import PROGRESS_MIN_RESAMPLED_SEGMENTS
from ..core.files import InputError, display_name, read_lines, write_file

PROG = "bleuscope report"

#: segments the report takes at most: it keeps every segment's text, tokens and statistics of every system in
#: memory for its tables (about 2 GB at this size with two systems); a larger corpus is refused before it is
#: read to its end (the main command streams any size)
MAX_REPORT_SEGMENTS = 200_000

#: resamples the report takes at most (``--n-bootstrap``): it resamples every table (each system's interval,
#: the all-pairs test, each length bucket of each metric), so it takes many times the main command's time
MAX_REPORT_RESAMPLES = 100_000

#: systems the report takes at most: its all-pairs test and tables grow with the square of the systems
MAX_REPORT_SYSTEMS = 100


DESCRIPTION = """\
Write one self-contained HTML page comparing MT systems. For every metric (-m): scores with bootstrap
confidence intervals, significance clusters, rank ranges, pairwise p-values and the difference from the best
system. Analyses with paired-bootstrap intervals: the n-grams one system gets right and another does not,
word accuracy by frequency bucket (--train), scores by sentence length and length difference. A
system-vs-system scatter plot, the biggest wins and losses, and a sortable, filterable segment table with
matched n-grams highlighted. Every table exports to LaTeX and CSV (--latex, --csv, or the page's buttons).
It opens offline."""

EPILOG = """\
examples (run them in a copy of the folder that `bleuscope --example-dir` prints):
  bleuscope report ref.A.txt ref.B.txt -i hyp.Online-B.txt hyp.OpenNMT.txt -o report.html
  bleuscope report ref.A.txt -i hyp.Online-B.txt hyp.OpenNMT.txt -m chrf ter --holm --latex tables/ -o report.html
  bleuscope report ref.A.txt -i hyp.Online-B.txt hyp.OpenNMT.txt -m rouge --rouge-types rouge1,rougeL -o report.html
  bleuscope report ref.A.txt -i hyp.Online-B.txt -l en-de --names Online-B -o report.html
(-l en-ja would choose the ja-mecab tokenizer for a Japanese target, as the main command does.)
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
_resample_count = _checked(int, lambda v: 1 <= v <= MAX_REPORT_RESAMPLES, f"must be from 1 to {MAX_REPORT_RESAMPLES:,}")
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
    b.add_argument("-m", "--metrics", nargs="+", choices=metric_names(), default=["bleu"], metavar="METRIC",
                   help="metrics of the report, each with intervals, significance, clusters, rank ranges and "
                        f"sentence scores: {', '.join(metric_names())} (bleu always, first; a metric with "
                        "several scores, such as rouge with one per type, gives a section to each)")
    add_metric_arguments(p)  # the main command's option group of every metric: names, defaults, help
    add_scores_arguments(p)  # --scores NAME=FILE: a metric's segment scores from files, as another metric

    r = p.add_argument_group("report")
    r.add_argument("-o", "--output", metavar="FILE", required=True,
                   help="the HTML file to write (atomically; '-' = standard output)")
    r.add_argument("--title", help="page title (default: test set and language pair when known, from -t/-l or "
                                   "the file names)")
    r.add_argument("-t", "--test-set", metavar="NAME", help="the test set's name, for the title (e.g. wmt22)")
    r.add_argument("--train", metavar="FILE",
                   help="training data (target side): word frequencies for the word-accuracy buckets "
                        "(default: the reference, as compare-mt)")
    r.add_argument("--labels", metavar="FILE",
                   help="one label per segment (a domain, a document, anything): every metric's scores with "
                        "intervals per label, as compare-mt's bucket_type=label")
    r.add_argument("--holm", action="store_true",
                   help="adjust the pairwise p-values with Holm-Bonferroni (clusters and ranks use them)")
    r.add_argument("--latex", metavar="DIR", help="also write every table as a LaTeX tabular into DIR")
    r.add_argument("--latex-layout", choices=("wide", "long"), default="wide",
                   help="LaTeX tables of buckets and word accuracy: 'wide' (the page's shape: a row per bucket, "
                        "columns per system) or 'long' (a row per bucket and system: narrow, for one column of "
                        "a two-column paper); every table is shrunk to the line width only where it is wider")
    r.add_argument("--csv", metavar="DIR", help="also write every table as CSV into DIR (one value per column)")
    r.add_argument("--pair", nargs=2, metavar=("A", "B"),
                   help="the two systems compared by default (names; default: the two best by the first metric)")
    r.add_argument("--max-segments", type=_max_segments, default=5000, metavar="N",
                   help="texts of the first N segments go into the page (default: 5000; 'all'); "
                        "every score uses all segments")
    r.add_argument("--n-bootstrap", type=_resample_count, default=1000, metavar="N",
                   help=f"bootstrap resamples for the intervals and the pairwise tests (default: 1000, at most "
                        f"{MAX_REPORT_RESAMPLES:,})")
    r.add_argument("--seed", type=_non_negative_int, default=12345, help="random seed (default: 12345)")
    r.add_argument("--alpha", type=_alpha, default=0.05, help="significance level of the clusters (default: 0.05)")
    r.add_argument("-q", "--quiet", action="store_true",
                   help="no warnings, no progress line and no summary line")
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


#: lines read from every input at a time: the inputs are read side by side, so a file longer or shorter than
#: the others (a decompression bomb, a truncated file) is found within a block
_READ_BLOCK = 10_000


class _PhaseLine:
    """The report's progress line on standard error, by the main command's rule (a terminal, no -q; nothing for
    short runs): the phase (reading, counting, each metric's intervals and all-pairs tests with how many pairs,
    matching n-grams, the tables' intervals, writing) and its count. Reading shows once as many lines are read
    as the command's threshold, the resampling phases once they have resampled as many segments as the
    significance command's; the others when the inputs passed the reading threshold."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.line: Progress | None = None
        self.resample_min = 0
        self.long = False  # the inputs hold as many lines as the main command shows its progress line for

    def phase(self, label: str, unit: str) -> None:
        if self.line is not None:
            self.line.close()
        counted = {"resamples": self.resample_min, "lines": PROGRESS_MIN_SEGMENTS}
        enabled = self.enabled and (unit in counted or self.long)
        self.line = Progress(None, sys.stderr, enabled=enabled, min_segments=counted.get(unit, 0), unit=unit)
        self.line.label = label
        if unit not in counted:
            self.line.update(0)  # the phase's name while it runs

    def read(self, lines: list[list[str]]) -> None:
        """The inputs are read: the thresholds of the phases after."""
        self.long = sum(map(len, lines)) >= PROGRESS_MIN_SEGMENTS
        self.resample_min = max(1, PROGRESS_MIN_RESAMPLED_SEGMENTS // max(1, len(lines[0])))

    def advance(self, n: int) -> None:
        if self.line is not None:
            self.line.update(n)

    def close(self) -> None:
        if self.line is not None:
            self.line.close()


def _read_side_by_side(sources: list[tuple[str, str]], encoding: str, warn, advance=lambda n: None
                       ) -> list[list[str]]:
    """The lines of ``(kind, path)`` inputs, the first the reference the others are counted against, read a
    block at a time side by side: a line-count mismatch is found before a longer input is read further than a
    million lines past the shorter one's end, and no input is read past :data:`MAX_REPORT_SEGMENTS`."""
    from itertools import islice

    streams = [read_lines(path, encoding, warn) for _, path in sources]
    lines: list[list[str]] = [[] for _ in sources]
    while True:
        blocks = [list(islice(stream, _READ_BLOCK)) for stream in streams]
        for out, block in zip(lines, blocks):
            out.extend(block)
        advance(sum(map(len, blocks)))
        if len(lines[0]) > MAX_REPORT_SEGMENTS and all(len(x) == len(lines[0]) for x in lines):
            raise InputError(
                f"{display_name(sources[0][1])}: more than {MAX_REPORT_SEGMENTS:,} segments; the report keeps every "
                "segment in memory and takes at most that many (score the whole corpus with the main command, "
                "and make the report of a sample of it)"
            )
        if len({len(b) for b in blocks}) > 1 or len(blocks[0]) < _READ_BLOCK:
            break
    base_kind, base_path = sources[0]
    if not lines[0]:
        raise InputError(f"{display_name(base_path)}: empty input, no {base_kind} lines")
    if any(len(got) != len(lines[0]) or not got for got in lines[1:]):
        # how long each input is, within a bound: counted on, nothing kept
        bound = 1_000_000
        counts = [len(got) + sum(1 for _ in islice(stream, bound)) for got, stream in zip(lines, streams)]
        complete = [n - len(got) < bound for n, got in zip(counts, lines)]
        for (kind, path), n, done in zip(sources[1:], counts[1:], complete[1:]):
            if n != counts[0] or not n:
                _check_counts(kind, display_name(path), n, display_name(base_path), counts[0],
                              complete=done, ref_complete=complete[0])
    return lines


def _check_counts(kind: str, name: str, n: int, ref_name: str, n_ref: int, complete: bool = True,
                  ref_complete: bool = True) -> None:
    """The error of an input of ``n`` lines against the reference's ``n_ref`` (``complete``: counted to the end,
    else "at least")."""
    if not n:
        raise InputError(f"{name}: empty input, no {kind} lines")
    if n != n_ref:
        longer, longer_complete = (name, complete) if n > n_ref else (ref_name, ref_complete)
        first_extra = min(n, n_ref) + 1
        unread = "" if longer_complete else f" and {longer} was not read to its end"
        raise InputError(
            f"line counts differ: {kind} {name} has {'' if complete else 'at least '}{n} lines but reference "
            f"{ref_name} has {'' if ref_complete else 'at least '}{n_ref}; {longer}:{first_extra} has no "
            f"counterpart (nothing is truncated{unread})"
        )


def _make_bleu(args):
    from .. import BLEU
    from ..metrics.bleu.scoring import SMOOTH_DEFAULTS

    if args.smooth_value is not None and SMOOTH_DEFAULTS.get(args.smooth_method, 0) is None:
        takes = ", ".join(method for method, default in SMOOTH_DEFAULTS.items() if default is not None)
        raise UsageError(f"-sv/--smooth-value is not used by --smooth-method {args.smooth_method!r}; it goes with "
                         f"--smooth-method {takes}")
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
        from ..core.validation import named_message  # numpy's: not for --help

        raise UsageError(named_message(e, _BLEU_OPTION_NAMES)) from None
    except (ImportError, RuntimeError, OSError) as e:  # an optional tokenizer dependency is missing
        from ..core.validation import named_message

        raise InputError(f"the tokenizer is not usable: {named_message(e, _BLEU_OPTION_NAMES)}") from None


#: the main command's names for BLEU's library arguments, except smoothing: the report has no -s (its -s is the
#: source file)
_BLEU_OPTION_NAMES = {**BLEU_OPTION_NAMES, "smooth_method": "--smooth-method"}


def _further_metrics(names: list[str], args, warn) -> list:
    """The scorers of -m besides BLEU (always the first metric, with its own options above), built from the
    main command's registry: the same options, defaults and messages; ROUGE gives one scorer per type."""
    check_metric_names(names)
    specs = [get_metric(name) for name in names if name != "bleu"]
    scorers = [scorer for _, scorer in build_requested(specs, args, warn)]
    if "rouge" in names and getattr(args, "rouge_types", None) == ROUGE_DEFAULT_TYPES:
        # one segment per line: ROUGE-Lsum (sentences split at newlines) is ROUGE-L again; the report shows
        # it only when --rouge-types names it
        scorers = [s for s in scorers if s.name != "ROUGE-Lsum"]
    return scorers


#: a language pair in a file name or directory (en-de, de_en, zh-en)
_PAIR = re.compile(r"(?<![a-z])([a-z]{2,3})[-_]([a-z]{2,3})(?![a-z])")
#: a test set in a file name or directory (wmt22, newstest2021, generaltest2022, wmttest2024, flores200 ...)
_TESTSET = re.compile(r"(?i)((?:wmt|newstest|newsdev|generaltest|wmttest|flores|iwslt|tedtalks)[a-z]*[-_.]?\d{2,4}"
                      r"(?:pp)?|wmt\d{2}pp)")


def default_title(args, n_systems: int, n_segments: int) -> str:
    """The test set and language pair from -t/-l, else from the input paths; else the counts."""
    paths = [*args.references, *args.input]
    testset = args.test_set
    pair = args.language_pair
    for path in paths:
        text = os.path.abspath(path).lower()
        if testset is None and (m := _TESTSET.search(text)):
            testset = m.group(1)
        if pair is None:
            found = [m for m in _PAIR.finditer(text) if m.group(1) != m.group(2)]
            if found:
                pair = f"{found[-1].group(1)}-{found[-1].group(2)}"
    what = " ".join(x for x in (testset, pair) if x)
    counts = f"{n_systems} system{'s' if n_systems != 1 else ''}, {n_segments} segments"
    return f"{what}: {counts}" if what else f"bleuscope report: {counts}"


def _input_file(role: str, path: str):
    """Name, size and SHA-256 of an input file (read again in blocks; standard input has neither)."""
    import hashlib

    from .compute import InputFile

    name = public_path(display_name(path))
    if path == "-" or not os.path.isfile(path):
        return InputFile(role, name, 0, "")
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return InputFile(role, name, os.path.getsize(path), h.hexdigest())


def public_path(path: str) -> str:
    """A path as the page shows it: relative to the working directory when it is inside it, else ``…/`` and
    the file name (a shared page does not carry the author's directories; the SHA-256 identifies the file)."""
    if not os.path.isabs(path):
        return path
    try:
        rel = os.path.relpath(path)
    except ValueError:  # another drive
        rel = ".."
    return rel if not rel.startswith("..") else f"…/{os.path.basename(path)}"


def _command_line(argv: list[str]) -> str:
    import shlex

    return " ".join(["bleuscope", "report", *(shlex.quote(public_path(a)) for a in argv)])


def write_tables(data, latex: str | None, csv: str | None, layout: str = "wide", inputs: tuple = ()) -> list[str]:
    """Every table of the report into the --latex / --csv directories (created if missing); the paths. Two
    tables whose names give the same file name get ``-2``, ``-3``, ... (nothing is overwritten); a table file
    that would replace one of ``inputs`` is refused (:class:`UsageError`) before any is written."""
    from .tables import all_tables, file_stem

    planned = []  # (option, directory, path, table, ext): every path checked before one is written
    for directory, ext in ((latex, "tex"), (csv, "csv")):
        if directory is None:
            continue
        used: set = set()
        for table in all_tables(data):
            stem = base = file_stem(table.name)
            n = 1
            while stem.lower() in used:
                n += 1
                stem = f"{base}-{n}"
            used.add(stem.lower())
            option = f"--{'latex' if ext == 'tex' else 'csv'}"
            path = os.path.join(directory, f"{stem}.{ext}")
            check_output_not_input(path, inputs, option=option)
            planned.append((option, directory, path, table, ext))
    written = []
    for option, directory, path, table, ext in planned:
        try:
            os.makedirs(directory, exist_ok=True)
        except OSError as e:
            raise UsageError(f"{option} {directory}: cannot create the directory ({e.strerror})") from None
        write_file(path, table.latex(layout) if ext == "tex" else table.csv())
        written.append(path)
    return written


def run(argv: list[str] | None, warn) -> int:
    args = build_parser().parse_args(argv)
    started = time.perf_counter()
    scorers = _make_bleu(args), _further_metrics(args.metrics, args, warn)
    names = _system_names(args.input, args.names)
    if args.pair is not None:
        for n in args.pair:
            if n not in names:
                raise UsageError(f"--pair: {n!r} is not one of the systems ({', '.join(names)})")
        if args.pair[0] == args.pair[1]:
            raise UsageError("--pair needs two different systems")
    if args.output != "-" and os.path.isdir(args.output):
        raise UsageError(f"-o {args.output}: is a directory")
    # the main command's output rules: never an input, never a read-only file, symlinks/FIFOs/devices kept
    input_paths = tuple(p for p in (*args.references, *args.input, args.source, args.train, args.labels) if p)
    check_output_not_input(args.output, input_paths)
    if len(names) > MAX_REPORT_SYSTEMS:
        raise UsageError(f"{len(names)} systems: the report compares every pair of systems "
                         f"({len(names) * (len(names) - 1) // 2:,} pairs) and takes at most {MAX_REPORT_SYSTEMS}; "
                         "the main command scores any number")
    side_by_side = ([("reference", p) for p in args.references] + [("hypothesis", p) for p in args.input]
                    + ([("source", args.source)] if args.source is not None else [])
                    + ([("label", args.labels)] if args.labels is not None else []))
    from ..analysis.significance.resampling import reporting_progress

    line = _PhaseLine(not args.quiet and isatty(sys.stderr))
    try:
        with reporting_progress(line.advance):
            return _report(args, argv, scorers, names, side_by_side, input_paths, line, started, warn)
    finally:
        line.close()


def _report(args, argv, scorers, names, side_by_side, input_paths, line: _PhaseLine, started: float, warn) -> int:
    """:func:`run` once the arguments are checked (``scorers``: BLEU and the further metrics), with the
    progress line ``line``."""
    from .compute import compute_report as report_data
    from .render import render

    bleu, metrics = scorers
    line.phase(f"reading {len(side_by_side)} inputs", "lines")
    read = _read_side_by_side(side_by_side, args.encoding, warn, line.advance)
    line.read(read)
    n_refs, n_sys = len(args.references), len(args.input)
    refs, hyps = read[:n_refs], read[n_refs:n_refs + n_sys]
    rest = read[n_refs + n_sys:]
    metrics = [*metrics, *scores_scorers(args, args.input, hyps)]
    sources = rest.pop(0) if args.source is not None else None
    labels = rest.pop(0) if args.labels is not None else None
    train = list(read_lines(args.train, args.encoding, warn)) if args.train is not None else None
    ref_labels = _file_labels(args.references)
    inputs = ([_input_file("reference", p) for p in args.references]
              + [_input_file(f"system {n}", p) for n, p in zip(names, args.input)]
              + ([_input_file("source", args.source)] if args.source else [])
              + ([_input_file("training data", args.train)] if args.train else [])
              + ([_input_file("labels", args.labels)] if args.labels else []))
    title = args.title or default_title(args, len(names), len(refs[0]))
    created = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    try:
        data = report_data(list(zip(names, hyps)), refs, sources=sources, bleu=bleu, metrics=metrics,
                           reference_names=ref_labels, title=title, n_bootstrap=args.n_bootstrap, seed=args.seed,
                           alpha=args.alpha, max_segments=args.max_segments,
                           pair=tuple(args.pair) if args.pair else None, holm=args.holm, train=train,
                           train_name=display_name(args.train) if args.train else "training data",
                           command=_command_line(argv if argv is not None else sys.argv[1:]), inputs=inputs,
                           created=created, labels=labels, phase=line.phase)
        line.phase("writing the page", "pages")
        page = render(data)
    except (ImportError, RuntimeError, OSError) as e:  # an optional tokenizer dependency failed while scoring
        raise InputError(f"the tokenizer is not usable: {e}") from None
    line.close()
    write_tables(data, args.latex, args.csv, args.latex_layout, input_paths)
    write_output(page, None if args.output == "-" else args.output)
    if not args.quiet:
        size = len(page.encode("utf-8"))
        where = "the page to standard output" if args.output == "-" else display_name(args.output)
        print(f"{PROG}: wrote {where} ({size / 1e6:.2f} MB; {len(names)} system{'s' if len(names) > 1 else ''}, "
              f"{len(refs[0])} segments) in {time.perf_counter() - started:.1f} s", file=sys.stderr)
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors are one line on stderr (exit 1 data, 2 usage); bugs keep their traceback."""
    if argv is None:
        argv = sys.argv[1:]
    quiet = "-q" in argv or "--quiet" in argv

    def warn(message: str) -> None:
        if not quiet:
            clear_line()  # a progress line on the terminal: the warning gets a line of its own
            print(f"{PROG}: warning: {message}", file=sys.stderr)

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore" if quiet else "default")
            warnings.showwarning = lambda message, *_args, **_kw: warn(str(message))
            return run(argv, warn)
    except USER_ERRORS as e:
        print(f"{PROG}: error: {e}", file=sys.stderr)
        return e.exit_code
    except SystemExit as e:  # --help
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted", file=sys.stderr)
        return 130
    except StdoutClosed:  # `-o - | head`: the reader needs no more
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
