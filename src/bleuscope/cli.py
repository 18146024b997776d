"""The ``bleuscope`` command: sacreBLEU's BLEU command line, with the same numbers, stricter and friendlier.

Layout (one function per step, so that extensions can hook in):

1. :func:`build_parser` / :func:`parse_args`: options, and checks of options that do not go together (exit 2);
2. :func:`make_bleu`: the :class:`~bleuscope.bleu.BLEU` scorer for the options (exit 2 for bad options);
3. :func:`load_inputs`: hypotheses and references from files or stdin, strictly (exit 1 for bad data);
4. :func:`score_systems`: per-segment statistics and corpus scores, with a progress bar on a terminal;
5. ``format_*``: json / text / latex / tsv / jsonl, corpus or sentence level;
6. :func:`emit`: stdout, or ``-o FILE`` written atomically.

Significance tests (``--confidence``, ``--paired-bs``, ...) live in :mod:`bleuscope.cli_significance`
(issue 6); see the hook in :func:`run`.
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import math
import os
import sys
import time
import warnings
from dataclasses import dataclass
from importlib import resources

import numpy as np

from . import io as bio
from ._version import __version__
from .bleu import LANGUAGE_TOKENIZERS, BLEU, BLEUScore
from .io import CLIError, InputError, UsageError
from .scoring import SMOOTH_DEFAULTS, compute_scores
from .signature import nrefs_field
from .tokenizers import available_tokenizers

# --- hook: significance tests (issue 6) ---------------------------------------------------------------------
# bleuscope.cli_significance provides
#   add_arguments(parser)      -> adds --confidence/-ci, --confidence-n, --paired-bs, --paired-ar,
#                                 --paired-bs-n, --paired-ar-n, --paired-all, --seed;
#   requested(args) -> bool    (optional; otherwise any truthy SIGNIFICANCE_FLAGS attribute counts);
#   run(args, hyp_names, hyp_lines_list, ref_lines_list, bleu, out) -> int | None
#       hyp_names: display names (file names as given, "<stdin>"), hyp_lines_list: one list of lines per system,
#       ref_lines_list: reference streams refs[k][i] (None = no reference k for segment i), bleu: the configured
#       bleuscope.BLEU, out: a text stream; what it writes is printed (or written atomically with -o).
#       Raise bleuscope.io.UsageError (exit 2) or InputError (exit 1) for user errors; return the exit code.
# Without the module (ImportError) the flags are simply absent.
try:
    cli_significance = importlib.import_module(f"{__package__}.cli_significance")
except ModuleNotFoundError as _e:  # pragma: no cover - depends on whether issue 6 is merged
    if _e.name != f"{__package__}.cli_significance":
        raise  # a missing dependency inside the module is a real bug: keep the traceback
    cli_significance = None

SIGNIFICANCE_FLAGS = ("confidence", "paired_bs", "paired_ar", "paired_all")

FORMATS = ("json", "text", "latex", "tsv", "jsonl")
#: below this many hypothesis segments (all systems together) no progress bar is shown
PROGRESS_MIN_SEGMENTS = 200_000
PROGRESS_CHUNK = 50_000
#: sacreBLEU warns when at least this many hypothesis lines end in " ."
TOKENIZED_WARN_LINES = 100

DESCRIPTION = """\
Fast, exact BLEU with the numbers of sacreBLEU 2.6.0 (same scores, same JSON).

three ways to give the input:
  bleuscope REF [REF ...] -i HYP [HYP ...]      sacreBLEU's order: references first, hypotheses after -i
  cat HYP | bleuscope REF [REF ...]             hypotheses on stdin
  bleuscope HYP [HYP ...] -r REF [REF ...]      hypotheses first, references after -r

Files are UTF-8 text, one segment per line (split on "\\n" only); .gz, .xz and .bz2 are read transparently.
Several hypothesis files are several systems (a table, or a JSON list)."""

EPILOG = """\
examples:
  bleuscope --example                                   score the bundled WMT22 en-de sample
  bleuscope ref.de -i sys.de                            one system, JSON like sacreBLEU
  bleuscope sys1.de sys2.de -r ref.A.de ref.B.de -f text   two systems, two references, a table
  bleuscope refs.tsv -nr 2 -i sys.de                    two tab-separated references per line
  bleuscope preds.jsonl --hyp-field output --ref-field target   JSON Lines
  bleuscope ref.de -i sys.de -sl -f jsonl -o seg.jsonl  sentence scores with their statistics

exit status: 0 success, 1 bad input data (unreadable file, invalid UTF-8, different line counts, ...),
2 bad or incompatible options."""


# ---------------------------------------------------------------------------------------------------------
# 1. arguments
# ---------------------------------------------------------------------------------------------------------
class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line, no usage dump, exit 2
        raise UsageError(f"{message} (see bleuscope --help)")


def _non_negative_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {value}")
    return value


def _positive_int(text: str) -> int:
    value = _non_negative_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be >= 1, got {value}")
    return value


def _smooth_value(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}") from None
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"must be a finite number >= 0, got {text}")
    return value


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="bleuscope", description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="reference files (sacreBLEU order), or hypothesis files when -r is given")
    inp = p.add_argument_group("input")
    inp.add_argument("-i", "--input", nargs="+", metavar="HYP",
                     help="hypothesis file(s), one system each ('-' = stdin); default: stdin")
    inp.add_argument("-r", "--references", nargs="+", metavar="REF",
                     help="reference file(s); the positional FILEs are then the hypotheses")
    inp.add_argument("-nr", "--num-refs", type=_positive_int, default=1, metavar="N",
                     help="the (single) reference file has N tab-separated references per line (default: 1)")
    inp.add_argument("--hyp-field", metavar="NAME",
                     help="hypothesis files (and stdin) are JSON Lines; score field NAME (a string)")
    inp.add_argument("--ref-field", action="append", metavar="NAME",
                     help="reference files are JSON Lines; field NAME holds a string or a list of strings; "
                          "repeat for several fields; without reference files the references are read from the "
                          "hypothesis JSON Lines")
    inp.add_argument("-e", "--encoding", default="utf-8",
                     help="text encoding of all input files (default: utf-8; utf-8-sig drops a byte order mark)")
    inp.add_argument("--example", action="store_true",
                     help="score the bundled example (300 WMT22 en-de segments, 2 systems, 2 references)")

    b = p.add_argument_group("BLEU options (as in sacreBLEU)")
    b.add_argument("-tok", "--tokenize", metavar="NAME",
                   help=f"tokenizer: {', '.join(available_tokenizers())} "
                        "(default: 13a; zh, ja-mecab or ko-mecab for a zh/ja/ko target given by -l)")
    b.add_argument("--spm-model", metavar="PATH",
                   help="SentencePiece model file (or folder) for -tok flores101/flores200/spBLEU-1K; "
                        "bleuscope never downloads models")
    b.add_argument("-l", "--language-pair", metavar="SRC-TGT",
                   help="language pair such as en-zh; the target language chooses the default tokenizer")
    b.add_argument("-lc", "--lowercase", action="store_true", help="case-insensitive BLEU")
    b.add_argument("-s", "--smooth-method", choices=list(SMOOTH_DEFAULTS), default="exp",
                   help="smoothing (default: exp)")
    b.add_argument("-sv", "--smooth-value", type=_smooth_value, metavar="V",
                   help="value for floor (default 0.1) or add-k (default 1)")
    b.add_argument("--max-ngram-order", type=_positive_int, default=4, metavar="N",
                   help="maximum n-gram order (default: 4; other orders are signed order:N)")
    b.add_argument("--effective-order", action="store_true",
                   help="drop n-gram orders without hypothesis n-grams (always on with -sl)")
    b.add_argument("--force", action="store_true",
                   help="do not warn about hypotheses that look tokenized")
    b.add_argument("-m", "--metrics", nargs="+", choices=["bleu"], default=["bleu"],
                   help=argparse.SUPPRESS)  # accepted for sacreBLEU command lines; BLEU is the only metric

    o = p.add_argument_group("output")
    o.add_argument("-f", "--format", choices=FORMATS, default=None,
                   help="json (default, sacreBLEU's keys plus counts, totals, bp, ...), text, latex, tsv, jsonl; "
                        "with -sl: text (default), jsonl, json or tsv")
    o.add_argument("-sl", "--sentence-level", action="store_true",
                   help="one score per segment (effective order on, as in sacreBLEU)")
    o.add_argument("-b", "--score-only", action="store_true", help="print only the score(s)")
    o.add_argument("-w", "--width", type=_non_negative_int, default=1, metavar="N",
                   help="decimals of printed scores (default: 1, as sacreBLEU's command)")
    o.add_argument("-sh", "--short", action="store_true", help="short signature (#:1|c:mixed|...)")
    o.add_argument("-o", "--output", metavar="FILE",
                   help="write the result to FILE atomically (all or nothing) instead of stdout")
    o.add_argument("-q", "--quiet", action="store_true",
                   help="no warnings and no progress bar: only the result (and errors)")
    o.add_argument("-nc", "--no-color", action="store_true", help=argparse.SUPPRESS)  # sacreBLEU's; no colours
    o.add_argument("-V", "--version", action="version",
                   version=f"bleuscope {__version__} (BLEU identical to sacreBLEU 2.6.0)")

    if cli_significance is not None:
        cli_significance.add_arguments(p)  # hook: issue 6
    return p


def significance_requested(args: argparse.Namespace) -> bool:
    if cli_significance is None:
        return False
    requested = getattr(cli_significance, "requested", None)
    if requested is not None:
        return bool(requested(args))
    return any(getattr(args, flag, False) for flag in SIGNIFICANCE_FLAGS)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Parsed and cross-checked options; ``args.hyp_paths`` / ``args.ref_paths`` resolve the three forms."""
    args = build_parser().parse_args(argv)
    if args.example:
        if args.files or args.input or args.references or args.hyp_field or args.ref_field or args.num_refs != 1:
            raise UsageError("--example uses the bundled files; do not give input files or input options with it")
        paths = example_paths()
        args.hyp_paths, args.ref_paths = paths["hyps"], paths["refs"]
        args.hyp_names = ["Online-B", "OpenNMT"]
        if args.format is None and not args.sentence_level:
            args.format = "text"
    elif args.references is not None:
        if args.input is not None:
            raise UsageError("give hypotheses either as FILEs with -r, or with -i after the reference FILEs, not both")
        args.hyp_paths, args.ref_paths = args.files or [bio.STDIN], args.references
    else:
        args.hyp_paths, args.ref_paths = args.input or [bio.STDIN], args.files
    if not args.example:
        args.hyp_names = [bio.display_name(p) for p in args.hyp_paths]

    check_options(args)
    return args


def check_options(args: argparse.Namespace) -> None:
    """Options that do not go together: :class:`UsageError` (exit 2)."""
    args.encoding = bio.check_encoding(args.encoding)
    if args.smooth_value is not None and SMOOTH_DEFAULTS[args.smooth_method] is None:
        takes_value = [m for m, v in SMOOTH_DEFAULTS.items() if v is not None]
        raise UsageError(f"-sv/--smooth-value is not used by -s {args.smooth_method}; it goes with "
                         f"-s {', '.join(takes_value)}")
    if args.tokenize is not None and args.tokenize not in available_tokenizers():
        raise UsageError(
            f"unknown tokenizer {args.tokenize!r} (-tok); choose one of: {', '.join(available_tokenizers())}"
        )
    if args.language_pair is not None:
        parts = args.language_pair.split("-")
        if len(parts) != 2 or not all(parts):
            raise UsageError(f"-l/--language-pair must look like en-de (source-target), got {args.language_pair!r}")
    if args.num_refs > 1:
        if len(args.ref_paths) > 1:
            raise UsageError(
                f"-nr {args.num_refs} reads {args.num_refs} tab-separated references from ONE reference file; "
                f"got {len(args.ref_paths)} reference files"
            )
        if args.ref_field:
            raise UsageError("-nr (tab-separated references) and --ref-field (JSON Lines) do not go together")
    if args.ref_field and not args.ref_paths and not args.hyp_field:
        raise UsageError("--ref-field without reference files reads the references from the hypothesis JSON Lines, "
                         "which needs --hyp-field")
    if not args.ref_paths and not args.ref_field:
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
    if args.output is not None:
        out = os.path.realpath(args.output)
        for path in (*args.hyp_paths, *args.ref_paths):
            if path != bio.STDIN and os.path.realpath(path) == out:
                raise UsageError(f"-o {args.output} would overwrite an input file")

    n_sys = len(args.hyp_paths)
    significance = significance_requested(args)
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


def example_paths() -> dict[str, list[str]]:
    base = resources.files("bleuscope") / "data" / "example"
    return {
        "hyps": [str(base / "hyp.Online-B.txt"), str(base / "hyp.OpenNMT.txt")],
        "refs": [str(base / "ref.A.txt"), str(base / "ref.B.txt")],
    }


# ---------------------------------------------------------------------------------------------------------
# 2. the scorer
# ---------------------------------------------------------------------------------------------------------
def make_bleu(args: argparse.Namespace, warn=None) -> BLEU:
    trg_lang = args.language_pair.split("-")[1] if args.language_pair else None
    tokenize = args.tokenize
    if tokenize is None and trg_lang is not None:
        tokenize = LANGUAGE_TOKENIZERS.get(trg_lang.lower(), "13a")
        if tokenize not in available_tokenizers():
            raise UsageError(
                f"-l {args.language_pair} selects the {tokenize!r} tokenizer, which is not available in this "
                f"installation; choose one with -tok ({', '.join(available_tokenizers())})"
            )
    elif tokenize is not None and trg_lang is not None and warn is not None:
        best = LANGUAGE_TOKENIZERS.get(trg_lang.lower())
        if best is not None and tokenize != best:
            warn(f"-tok {tokenize} for target language {trg_lang!r}: consider -tok {best} (the default for it)")
    options = {"spm_model": args.spm_model} if args.spm_model is not None else {}
    try:
        return BLEU(
            tokenize=tokenize or "13a", lowercase=args.lowercase, smooth_method=args.smooth_method,
            smooth_value=args.smooth_value, max_ngram_order=args.max_ngram_order,
            effective_order=args.effective_order or args.sentence_level, trg_lang=trg_lang,
            force=True,  # the command checks for tokenized input itself, per file (check_inputs)
            **options,
        )
    except (ValueError, TypeError) as e:
        raise UsageError(_option_names(str(e))) from None
    except (ImportError, RuntimeError, OSError) as e:  # an optional tokenizer dependency is missing
        raise InputError(f"tokenizer {tokenize!r} is not usable: {_option_names(str(e))}") from None


#: the library's argument names -> the command's option names, for messages coming from BLEU()
_OPTION_NAMES = {"spm_model=": "--spm-model ", "spm_model": "--spm-model", "smooth_value": "-sv/--smooth-value",
                 "smooth_method=": "-s ", "max_ngram_order": "--max-ngram-order", "tokenize=": "-tok "}


def _option_names(message: str) -> str:
    for api, option in _OPTION_NAMES.items():
        message = message.replace(api, option)
    return message


# ---------------------------------------------------------------------------------------------------------
# 3. input
# ---------------------------------------------------------------------------------------------------------
@dataclass
class Inputs:
    hyp_names: list[str]  # one display name per system
    hyps: list[list[str]]  # hyps[s][i]: segment i of system s
    refs: list[list[str | None]]  # reference streams refs[k][i]
    ref_names: list[str]  # one display name per stream (for messages)


def _looks_jsonl(path: str) -> bool:
    stem = path
    ext = bio.compression_of(path)
    if ext:
        stem = path[: -len(ext)]
    return stem.endswith((".jsonl", ".ndjson"))


def load_inputs(args: argparse.Namespace, warn=None) -> Inputs:
    enc = args.encoding
    ref_fields = args.ref_field or []
    if args.hyp_paths == [bio.STDIN] and sys.stdin is not None and _isatty(sys.stdin) and not args.example:
        raise UsageError("no hypotheses: give -i HYP (or HYP ... -r REF ...), or pipe the hypotheses into stdin")

    hyps: list[list[str]] = []
    refs_from_hyps: list[list[list[str | None]]] = []  # per system: per-segment reference lists
    for path in args.hyp_paths:
        name = bio.display_name(path)
        if args.hyp_field:
            fields = [(args.hyp_field, "hyp")] + ([(f, "ref") for f in ref_fields] if not args.ref_paths else [])
            data = bio.read_jsonl(path, fields, enc, warn)
            hyps.append(data[args.hyp_field])
            if not args.ref_paths:
                refs_from_hyps.append(_merge_ref_fields([data[f] for f in ref_fields]))
        else:
            if _looks_jsonl(path):
                raise UsageError(f"{name} looks like JSON Lines; name the hypothesis field with --hyp-field")
            hyps.append(bio.read_lines(path, enc, warn))

    refs: list[list[str | None]] = []
    ref_names: list[str] = []
    if args.ref_paths:
        for path in args.ref_paths:
            name = bio.display_name(path)
            if ref_fields:
                data = bio.read_jsonl(path, [(f, "ref") for f in ref_fields], enc, warn)
                rows = _merge_ref_fields([data[f] for f in ref_fields])
                _check_every_segment_has_reference(rows, name)
                streams = bio.ref_streams(rows)
                refs.extend(streams)
                ref_names.extend([name] * len(streams))
            elif args.num_refs > 1:
                refs.extend(bio.read_tsv(path, args.num_refs, enc, warn))
                ref_names.extend(f"{name} (column {k + 1})" for k in range(args.num_refs))
            else:
                if _looks_jsonl(path):
                    raise UsageError(f"{name} looks like JSON Lines; name the reference field(s) with --ref-field")
                refs.append(bio.read_lines(path, enc, warn))
                ref_names.append(name)
    else:
        first = refs_from_hyps[0]
        for s, other in enumerate(refs_from_hyps[1:], 1):
            for i, (a, b) in enumerate(zip(first, other)):
                if a != b:
                    raise InputError(
                        f"{args.hyp_names[s]}:{i + 1}: the references differ from those in {args.hyp_names[0]}; "
                        "systems must be scored against the same references"
                    )
        _check_every_segment_has_reference(first, args.hyp_names[0])
        refs = bio.ref_streams(first)
        ref_names = [f"{args.hyp_names[0]} ({', '.join(ref_fields)})"] * len(refs)

    inputs = Inputs(hyp_names=list(args.hyp_names), hyps=hyps, refs=refs, ref_names=ref_names)
    check_inputs(inputs, args, warn)
    return inputs


def _merge_ref_fields(columns: list[list[list[str | None]]]) -> list[list[str | None]]:
    """Per-segment reference lists of several JSON fields -> one list per segment."""
    if len(columns) == 1:
        return columns[0]
    return [sum(parts, []) for parts in zip(*columns)]


def _check_every_segment_has_reference(rows: list[list[str | None]], name: str) -> None:
    """Per-segment reference lists (JSON Lines): each segment needs at least one reference."""
    for i, row in enumerate(rows):
        if all(x is None for x in row):
            raise InputError(f"{name}:{i + 1}: this segment has no reference (an empty list or null)")


def check_inputs(inputs: Inputs, args: argparse.Namespace, warn=None) -> None:
    """Empty input and different line counts are :class:`InputError` (exit 1); nothing is ever truncated."""
    for name, lines in zip(inputs.hyp_names, inputs.hyps):
        if not lines:
            hint = ""
            if name == "<stdin>" and args.references is not None:
                hint = f" (note: -r took {' '.join(args.references)} as references; put hypothesis files before -r)"
            raise InputError(f"{name}: empty input, no hypothesis lines{hint}")
    if not inputs.refs:
        raise InputError("no references were read")
    n_ref = len(inputs.refs[0])
    for name, stream in zip(inputs.ref_names, inputs.refs):
        if not stream:
            raise InputError(f"{name}: empty input, no reference lines")
    for name, stream in zip(inputs.ref_names[1:], inputs.refs[1:]):
        if len(stream) != n_ref:
            raise InputError(_count_message("reference", name, stream, "reference", inputs.ref_names[0],
                                            inputs.refs[0]))
    n_sys = len(inputs.hyps)
    for k, (name, lines) in enumerate(zip(inputs.hyp_names, inputs.hyps)):
        if len(lines) != n_ref:
            msg = _count_message("hypothesis", name, lines, "reference", inputs.ref_names[0], inputs.refs[0])
            if _looks_like_reference(name) or (n_sys > 1 and _odd_one_out(inputs, lines)):
                which = f" (system {k + 1} of {n_sys})" if n_sys > 1 else ""
                msg += (f"; is {name} a reference file? It was read as a hypothesis{which}: references go "
                        "before -i (sacreBLEU order) or after -r")
            raise InputError(msg)
    if warn is not None:
        for name in inputs.hyp_names:
            if name in inputs.ref_names:
                warn(f"{name} is both a hypothesis and a reference")
        if not args.force and not args.quiet:
            for name, lines in zip(inputs.hyp_names, inputs.hyps):
                n_tok = sum(1 for line in lines if line.rstrip().endswith(" ."))
                if n_tok >= TOKENIZED_WARN_LINES:
                    warn(f"{name}: {n_tok} lines end in ' .' - is it tokenized? BLEU expects detokenized text "
                         "(--force silences this)")


def _count_message(kind_a, name_a, lines_a, kind_b, name_b, lines_b) -> str:
    na, nb = len(lines_a), len(lines_b)
    longer_name, longer = (name_a, lines_a) if na > nb else (name_b, lines_b)
    first_extra = min(na, nb) + 1
    msg = (f"line counts differ: {kind_a} {name_a} has {na} lines but {kind_b} {name_b} has {nb}; "
           f"{longer_name}:{first_extra} has no counterpart (nothing is truncated)")
    extra = longer[min(na, nb):]
    if all(not x for x in extra):
        msg += f"; the {len(extra)} extra line(s) at the end of {longer_name} are empty"
    return msg


def _looks_like_reference(name: str) -> bool:
    base = os.path.basename(name).lower()
    return base.startswith("ref") or ".ref" in base or "reference" in base


def _odd_one_out(inputs: Inputs, lines: list[str]) -> bool:
    """Every other system has the references' line count: this file is the stray one."""
    n_ref = len(inputs.refs[0])
    return all(len(h) == n_ref for h in inputs.hyps if h is not lines)


def _isatty(stream) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


# ---------------------------------------------------------------------------------------------------------
# 4. scoring
# ---------------------------------------------------------------------------------------------------------
class Progress:
    """A minimal progress bar on a terminal stream (no dependency); silent when disabled."""

    def __init__(self, total: int, stream=None, enabled: bool = True, min_interval: float = 0.1) -> None:
        self.total = total
        self.stream = stream
        self.enabled = enabled and stream is not None
        self.done = 0
        self.start = time.monotonic()
        self._last = 0.0
        self.min_interval = min_interval
        self.label = ""

    def update(self, n: int, label: str | None = None) -> None:
        self.done += n
        if label is not None:
            self.label = label
        if not self.enabled:
            return
        now = time.monotonic()
        if now - self._last < self.min_interval and self.done < self.total:
            return
        self._last = now
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * 30)
        self.stream.write(f"\rbleuscope: {bar:<30} {frac * 100:5.1f}% {self.done}/{self.total} segments "
                          f"{now - self.start:5.1f}s {self.label[:40]}\x1b[K")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\r\x1b[K")
            self.stream.flush()


@dataclass
class SystemResult:
    name: str
    stats: np.ndarray  # int64 [S, 2 + 2N] per-segment statistics
    nrefs: str  # signature value: a count or "var"
    score: BLEUScore  # corpus score


def system_statistics(bleu: BLEU, hyps: list[str], refs: list[list], progress: Progress | None = None,
                      label: str = "") -> tuple[np.ndarray, np.ndarray]:
    """Per-segment statistics and reference counts, in chunks when a progress bar is shown."""
    if progress is None or not progress.enabled:
        seg = bleu.segment_statistics(hyps, refs)
        if progress is not None:
            progress.update(len(hyps), label)
        return seg.stats, seg.nrefs
    stats, nrefs = [], []
    for a in range(0, len(hyps), PROGRESS_CHUNK):
        b = min(len(hyps), a + PROGRESS_CHUNK)
        seg = bleu.segment_statistics(hyps[a:b], [s[a:b] for s in refs])
        stats.append(seg.stats)
        nrefs.append(seg.nrefs)
        progress.update(b - a, label)
    return np.concatenate(stats), np.concatenate(nrefs)


def _shared_encoder_statistics(bleu: BLEU):
    """``significance.system_statistics`` (several systems, references encoded once), when it applies."""
    try:
        from .significance import system_statistics as shared
    except ImportError:  # pragma: no cover - issue 6 absent
        return None
    if getattr(bleu, "stats_order", bleu.max_ngram_order) != bleu.max_ngram_order:
        return None  # it counts max_ngram_order orders only
    return shared


def many_system_statistics(bleu: BLEU, inputs: Inputs, progress: Progress | None = None) -> list[np.ndarray] | None:
    """Per-segment statistics of every system with one shared encoder (about 2x faster for 8 systems);
    ``None`` when that path is unavailable."""
    shared = _shared_encoder_statistics(bleu)
    if shared is None or len(inputs.hyps) < 2:
        return None
    n_seg, n_sys = len(inputs.hyps[0]), len(inputs.hyps)
    step = PROGRESS_CHUNK if progress is not None and progress.enabled else n_seg
    parts: list[list[np.ndarray]] = [[] for _ in inputs.hyps]
    for a in range(0, n_seg, step):
        b = min(n_seg, a + step)
        for k, seg in enumerate(shared(bleu, [h[a:b] for h in inputs.hyps], [s[a:b] for s in inputs.refs])):
            parts[k].append(seg.stats)
        if progress is not None:
            progress.update((b - a) * n_sys, f"{n_sys} systems")
    return [np.concatenate(p) if len(p) > 1 else p[0] for p in parts]


def score_systems(bleu: BLEU, inputs: Inputs, progress: Progress | None = None) -> list[SystemResult]:
    nref = nrefs_field(np.sum([[x is not None for x in s] for s in inputs.refs], axis=0))
    try:
        all_stats = many_system_statistics(bleu, inputs, progress)
        if all_stats is None:
            all_stats = [system_statistics(bleu, hyps, inputs.refs, progress, name)[0]
                         for name, hyps in zip(inputs.hyp_names, inputs.hyps)]
    except (ValueError, TypeError) as e:  # API validation (load_inputs should have caught it already)
        raise InputError(str(e)) from None
    if progress is not None:
        progress.close()
    return [SystemResult(name=name, stats=stats, nrefs=nref, score=bleu.score_from_statistics(stats, nref))
            for name, stats in zip(inputs.hyp_names, all_stats)]


# ---------------------------------------------------------------------------------------------------------
# 5. formatting
# ---------------------------------------------------------------------------------------------------------
def _rounded(score: float, width: int) -> str:
    return f"{score:.{width}f}"


def _json_object(pairs: dict, indent: str = " ", close: str = "") -> str:
    """A JSON object with one key per line (sacreBLEU's layout) and lists kept on one line."""
    inner = ",\n".join(f"{indent}{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in pairs.items())
    return "{\n" + inner + "\n" + close + "}"


def _score_fields(score: BLEUScore) -> dict:
    """Statistics added to sacreBLEU's keys."""
    return {
        "score_unrounded": score.score, "counts": list(score.counts), "totals": list(score.totals),
        "precisions": list(score.precisions), "bp": score.bp, "ratio": score.ratio,
        "sys_len": score.sys_len, "ref_len": score.ref_len,
    }


def corpus_json_dict(result: SystemResult, bleu: BLEU, width: int) -> dict:
    """sacreBLEU 2.6.0's keys in its order (name, score, signature, verbose_score, signature fields), then ours."""
    score = result.score
    signature = bleu.signature(result.nrefs)
    d = {"name": "BLEU", "score": float(_rounded(score.score, width)), "signature": signature,
         "verbose_score": score.verbose}
    for part in signature.split("|"):
        key, _, value = part.partition(":")
        d[key] = value
    d.update(_score_fields(score))
    return d


def format_corpus(results: list[SystemResult], bleu: BLEU, args: argparse.Namespace) -> str:
    fmt, width = args.format, args.width
    if args.score_only:
        return "".join(_rounded(r.score.score, width) + "\n" for r in results)
    if fmt == "json":
        if len(results) == 1:
            return _json_object(corpus_json_dict(results[0], bleu, width)) + "\n"
        items = []
        for r in results:
            d = {"system": r.name, "BLEU": _rounded(r.score.score, width),
                 "signature": bleu.signature(r.nrefs), "verbose_score": r.score.verbose}
            d.update(_score_fields(r.score))
            items.append("    " + _json_object(d, " " * 8, " " * 4))
        return "[\n" + ",\n".join(items) + "\n]\n"
    if fmt == "jsonl":
        lines = []
        for r in results:
            d = {"system": r.name, **corpus_json_dict(r, bleu, width)}
            lines.append(json.dumps(d, ensure_ascii=False))
        return "\n".join(lines) + "\n"
    signatures = sorted({bleu.signature(r.nrefs, short=args.short) for r in results})
    if fmt == "tsv":
        n = bleu.max_ngram_order
        head = (["system", "BLEU", "score", "bp", "ratio", "sys_len", "ref_len"]
                + [f"prec_{k}" for k in range(1, n + 1)] + [f"correct_{k}" for k in range(1, n + 1)]
                + [f"total_{k}" for k in range(1, n + 1)] + ["signature"])
        rows = ["\t".join(head)]
        for r in results:
            s = r.score
            rows.append("\t".join(map(str, [
                _tsv_cell(r.name), _rounded(s.score, width), repr(s.score), repr(s.bp), repr(s.ratio), s.sys_len,
                s.ref_len, *map(repr, s.precisions), *s.counts, *s.totals, bleu.signature(r.nrefs, short=args.short),
            ])))
        return "\n".join(rows) + "\n"
    if fmt == "text" and len(results) == 1:
        r = results[0]
        return r.score.format(width, signature=bleu.signature(r.nrefs, short=args.short)) + "\n"
    header = ["System", "BLEU", "precisions (1-%d)" % bleu.max_ngram_order, "BP", "ratio", "hyp_len", "ref_len"]
    rows = []
    for r in results:
        s = r.score
        rows.append([r.name, _rounded(s.score, width), "/".join(f"{p:.1f}" for p in s.precisions),
                     f"{s.bp:.3f}", f"{s.ratio:.3f}", str(s.sys_len), str(s.ref_len)])
    if fmt == "latex":
        return latex_table(header, rows) + "".join(f"% BLEU signature: {sig}\n" for sig in signatures)
    footer = "\n-----------------\nMetric signatures\n-----------------\n"
    footer += "".join(f" - {'BLEU':<10} {sig}\n" for sig in signatures)
    return text_table(header, rows) + footer


def _tsv_cell(text: str) -> str:
    return text.replace("\t", " ").replace("\n", " ")


def text_table(header: list[str], rows: list[list[str]]) -> str:
    """A box-drawn table (the look of sacreBLEU's fancy_grid): first column right-aligned, others centred."""
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)]

    def line(cells):
        out = []
        for j, (c, w) in enumerate(zip(cells, widths)):
            out.append(f" {c:>{w}} " if j == 0 else f" {c:^{w}} ")
        return "│" + "│".join(out) + "│"

    def rule(left, mid, right, fill):
        return left + mid.join(fill * (w + 2) for w in widths) + right

    parts = [rule("╒", "╤", "╕", "═"), line(header), rule("╞", "╪", "╡", "═")]
    for i, row in enumerate(rows):
        if i:
            parts.append(rule("├", "┼", "┤", "─"))
        parts.append(line(row))
    parts.append(rule("╘", "╧", "╛", "═"))
    return "\n".join(parts) + "\n"


_LATEX_ESCAPES = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                  "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}"}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(c, c) for c in text)


def latex_table(header: list[str], rows: list[list[str]]) -> str:
    """A booktabs tabular, as sacreBLEU's latex format."""
    spec = "r" + "c" * (len(header) - 1)
    body = [" & ".join(latex_escape(c) for c in row) + r" \\" for row in rows]
    return "\n".join([rf"\begin{{tabular}}{{{spec}}}", r"\toprule",
                      " & ".join(latex_escape(h) for h in header) + r" \\", r"\midrule", *body,
                      r"\bottomrule", r"\end{tabular}"]) + "\n"


def format_sentences(result: SystemResult, bleu: BLEU, args: argparse.Namespace) -> str:
    """Per-segment scores: text (sacreBLEU's -sl lines), jsonl/json (score and statistics), or tsv."""
    stats = result.stats
    res = compute_scores(stats, bleu.config)
    n = bleu.max_ngram_order
    n_stat = getattr(bleu, "stats_order", n)  # some smoothing methods also count (N+1)-grams
    stats = np.concatenate([stats[:, : 2 + n], stats[:, 2 + n_stat: 2 + n_stat + n]], axis=1)
    width = args.width
    scores = res.score.tolist()
    if args.score_only:
        return "".join(f"{s:.{width}f}\n" for s in scores)
    rows = stats.tolist()
    precisions = res.precisions.tolist()
    bps = res.bp.tolist()
    signature = bleu.signature(result.nrefs, short=args.short)
    fmt = args.format
    out = []
    if fmt == "text":
        head = f"BLEU|{signature} = "
        for s, row, prec, bp in zip(scores, rows, precisions, bps):
            ratio = row[0] / row[1] if row[1] else 0
            out.append(f"{head}{s:.{width}f} {'/'.join(f'{p:.1f}' for p in prec)} (BP = {bp:.3f} "
                       f"ratio = {ratio:.3f} hyp_len = {row[0]:d} ref_len = {row[1]:d})\n")
        return "".join(out)
    if fmt == "tsv":
        head = (["line", "BLEU", "score", "bp", "sys_len", "ref_len"] + [f"prec_{k}" for k in range(1, n + 1)]
                + [f"correct_{k}" for k in range(1, n + 1)] + [f"total_{k}" for k in range(1, n + 1)])
        out.append("\t".join(head) + "\n")
        for i, (s, row, prec, bp) in enumerate(zip(scores, rows, precisions, bps), 1):
            out.append("\t".join(map(str, [i, f"{s:.{width}f}", repr(s), repr(bp), row[0], row[1],
                                           *map(repr, prec), *row[2:]])) + "\n")
        return "".join(out)
    sig_long = bleu.signature(result.nrefs)
    objects = []
    for i, (s, row, prec, bp) in enumerate(zip(scores, rows, precisions, bps), 1):
        objects.append(json.dumps({
            "line": i, "score": s, "counts": row[2: 2 + n], "totals": row[2 + n:], "precisions": prec,
            "bp": bp, "sys_len": row[0], "ref_len": row[1], "signature": sig_long,
        }, ensure_ascii=False))
    if fmt == "jsonl":
        return "\n".join(objects) + "\n"
    return "[\n" + ",\n".join(objects) + "\n]\n"  # json


# ---------------------------------------------------------------------------------------------------------
# 6. output and the entry point
# ---------------------------------------------------------------------------------------------------------
def emit(text: str, args: argparse.Namespace) -> None:
    if args.output is not None:
        bio.write_atomic(args.output, text)
        return
    buffer = getattr(sys.stdout, "buffer", None)
    if buffer is not None:
        sys.stdout.flush()
        buffer.write(text.encode("utf-8", "surrogateescape"))  # file names may hold undecodable bytes
        buffer.flush()
    else:
        sys.stdout.write(text)
        sys.stdout.flush()


def _stderr_writer(quiet: bool):
    def warn(message: str) -> None:
        if not quiet:
            print(f"bleuscope: warning: {message}", file=sys.stderr)

    return warn


def run(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    warn = _stderr_writer(args.quiet)
    with warnings.catch_warnings():
        # library warnings (tokenizer hints, CJK text with 13a, ...) become one-line messages; -q drops them
        warnings.simplefilter("ignore" if args.quiet else "default")
        warnings.showwarning = lambda message, *_args, **_kw: warn(str(message))
        return _run(args, warn)


def _run(args: argparse.Namespace, warn) -> int:
    bleu = make_bleu(args, warn)
    if args.example and not args.quiet:
        print("bleuscope: bundled example: WMT22 en-de, first 300 segments, systems Online-B and OpenNMT, "
              "references A and B", file=sys.stderr)
    inputs = load_inputs(args, warn)
    out = io.StringIO()
    code = 0
    if significance_requested(args):
        # --- hook: issue 6 (bleuscope.cli_significance) writes its table/JSON to `out` ---
        code = cli_significance.run(args, inputs.hyp_names, inputs.hyps, inputs.refs, bleu, out) or 0
    else:
        total = sum(len(h) for h in inputs.hyps)
        progress = Progress(total, sys.stderr,
                            enabled=not args.quiet and total >= PROGRESS_MIN_SEGMENTS and _isatty(sys.stderr))
        results = score_systems(bleu, inputs, progress)
        if args.sentence_level:
            out.write(format_sentences(results[0], bleu, args))
        else:
            out.write(format_corpus(results, bleu, args))
    emit(out.getvalue(), args)
    return code


def main(argv: list[str] | None = None) -> int:
    """Entry point: user errors are one line on stderr (exit 1 data, 2 usage); bugs keep their traceback."""
    try:
        return run(argv)
    except CLIError as e:
        print(f"bleuscope: error: {e}", file=sys.stderr)
        return e.exit_code
    except SystemExit as e:  # --help, --version
        return e.code if isinstance(e.code, int) else 0
    except KeyboardInterrupt:
        print("bleuscope: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `bleuscope -sl ... | head`
        try:
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - keep the interpreter from failing at exit
        except OSError:
            pass
        return 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
