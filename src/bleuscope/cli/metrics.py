"""The metrics that ``-m/--metrics`` can name: ONE table from the name to everything the commands need.

Both commands use it: ``bleuscope`` and ``bleuscope report`` add every row's option group
(:func:`add_metric_arguments`) and build their scorers from the rows (:func:`build_requested`), so a metric
registered here appears in both with the same options, defaults, help texts and messages. Only BLEU's options
are each command's own (the report's ``-s`` is its source file; BLEU is always the report's first metric).

Each :class:`MetricSpec` row says how the command treats one metric:

* ``name``: what ``-m`` takes (lower case); metrics are computed and printed sorted by name, as sacreBLEU does;
* ``build(args, warn)``: the scorer for the parsed options, or a list of scorers printed as separate columns
  (ROUGE: one per type) (import heavy modules inside; raise
  :class:`~bleuscope.cli.output.UsageError` for bad options: :func:`build_scorers` turns the library's ``ValueError`` /
  ``TypeError`` into one, an :class:`~bleuscope.core.validation.ArgumentError` saying its arguments by their
  ``option_names``);
* ``add_arguments(parser)``: the metric's own option group (called while the parser is built, also for
  ``--help``: import nothing heavy there);
* ``option_names``: the library's argument names -> the command's option names, for the messages of the
  library's errors that carry the names of their arguments (:func:`bleuscope.core.validation.named_message`);
* ``keep_segment_rows``: the corpus score needs the per-segment rows (TER adds mean reference lengths
  segment by segment, as sacreBLEU does), not only their sum;
* ``details``: optional extra output of a metric printed alone (BLEU: counts, precisions, BP, ... in every
  format; see :class:`BLEUDetails`). Without it the metric gets sacreBLEU's generic shapes.

The scorer returned by ``build`` is a :class:`bleuscope.metrics.base.Metric` (``name``, ``check_inputs``,
``count_checked``, ``score_rows``, ``score_from_statistics``, ``signature``, ``signature_fields``); its
scores have ``name``, ``score``, ``verbose`` and ``format(width, signature=...)``. Everything else (input
reading, streaming, significance tests, rendering in text/LaTeX/JSON/TSV/JSON Lines, shards) is generic.

**Adding a metric** (say ROUGE) takes one option group, one builder and one row::

    def add_rouge_options(parser):
        g = parser.add_argument_group("ROUGE (-m rouge)")
        g.add_argument("--rouge-types", nargs="+", default=["rouge1", "rouge2", "rougeL"], metavar="TYPE")

    def build_rouge(args, warn=None):
        from ..metrics.rouge import ROUGE

        return ROUGE(rouge_types=args.rouge_types)

    register_metric(MetricSpec(name="rouge", build=build_rouge, add_arguments=add_rouge_options,
                               option_names={"rouge_types": "--rouge-types"}))

Option names must not clash with sacreBLEU's or the report's (``-s``, ``-t``, ``-i``, ``-o``, ...); prefix them
with the metric's name (``--rouge-...``). A row without ``add_arguments`` uses another row's options (``chrf++``:
chrF's, with word order 2).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from ..core.files import InputError
from . import meteor, rouge, strmetrics, wer
from .output import UsageError

if TYPE_CHECKING:
    import numpy as np

    from ..metrics.base import Metric, ScoreText

Warn = Callable[[str], None]


class MetricDetails(Protocol):
    """A metric's output beyond sacreBLEU's generic shapes (``details`` of its row: :class:`BLEUDetails`), what
    :mod:`bleuscope.cli.render` asks of it; ``scorer`` is the metric, ``score`` its corpus score."""

    def json_fields(self, score: ScoreText) -> dict: ...

    def tsv_header(self, scorer: Metric) -> list[str]: ...

    def tsv_values(self, score: ScoreText) -> list: ...

    def table_header(self, scorer: Metric) -> list[str]: ...

    def table_values(self, score: ScoreText) -> list[str]: ...

    def sentence_tsv_header(self, scorer: Metric) -> list[str]: ...

    def sentences(self, scorer: Metric, block: np.ndarray) -> tuple[list[float], list[str], list[list], list[dict]]:
        """Per-segment scores of ``block`` (statistics rows) and, per segment, its verbose text, its TSV
        values after the score, and its JSON fields after the score."""
        ...


@dataclass(frozen=True)
class MetricSpec:
    """One metric of the command line (see the module docstring)."""

    name: str
    build: Callable[[argparse.Namespace, Warn | None], Metric]
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None
    option_names: Mapping[str, str] = field(default_factory=dict)
    keep_segment_rows: bool = False
    details: MetricDetails | None = None

    def message(self, error: BaseException) -> str:
        """A library error as the command says it: the arguments it names (an
        :class:`~bleuscope.core.validation.ArgumentError`'s) called by their option names."""
        from ..core.validation import named_message  # numpy's: not for --help

        return named_message(error, self.option_names)


_METRICS: dict[str, MetricSpec] = {}


def register_metric(spec: MetricSpec) -> None:
    """Add (or replace) a metric; ``-m`` accepts its name from then on."""
    _METRICS[spec.name] = spec


def metric_names() -> list[str]:
    return list(_METRICS)


def get_metric(name: str) -> MetricSpec:
    try:
        return _METRICS[name]
    except KeyError:
        raise UsageError(f"unknown metric {name!r} (-m); choose from: {', '.join(_METRICS)}") from None


def requested_metrics(args: argparse.Namespace) -> list[MetricSpec]:
    """The ``-m`` metrics in the order they are computed and printed (sorted by name, as sacreBLEU)."""
    return [get_metric(name) for name in sorted(args.metrics)]


def check_metric_names(names: list[str]) -> None:
    """``-m`` naming a metric twice is a :class:`UsageError` in both commands (a mistake, not a no-op)."""
    if len(set(names)) != len(names):
        raise UsageError(f"-m names a metric twice: {' '.join(names)}")


def add_metric_arguments(parser: argparse.ArgumentParser) -> None:
    """Every registered metric's option group, in the order of registration (both commands call this)."""
    for spec in _METRICS.values():
        if spec.add_arguments is not None:
            spec.add_arguments(parser)


def build_scorers(spec: MetricSpec, args: argparse.Namespace, warn: Warn | None = None) -> list:
    """``spec.build(args, warn)`` as a list of scorers; the library's complaints about options become a
    :class:`UsageError`."""
    try:
        built = spec.build(args, warn)
    except (ValueError, TypeError) as e:
        if isinstance(e, InputError):
            raise
        raise UsageError(spec.message(e)) from None
    except ImportError as e:  # a metric whose optional dependency is not installed
        raise UsageError(f"-m {spec.name}: this metric is not available in this installation ({e})") from None
    return built if isinstance(built, list) else [built]


def build_requested(specs: list[MetricSpec], args: argparse.Namespace, warn: Warn | None = None) -> list:
    """``(spec, scorer)`` of every scorer the metrics build, in order (ROUGE: one per type). Two scorers of
    one name (``-m chrf chrf++ -cw 2``) are a :class:`UsageError`: outputs and reports key columns by name."""
    pairs: list[tuple[MetricSpec, Any]] = []
    source: dict[str, str] = {}
    for spec in specs:
        for scorer in build_scorers(spec, args, warn):
            first = source.setdefault(scorer.name, spec.name)
            if any(built.name == scorer.name for _, built in pairs):
                what = f"-m {spec.name} gives" if first == spec.name else f"-m {first} and -m {spec.name} give"
                raise UsageError(f"{what} {scorer.name} twice")
            pairs.append((spec, scorer))
    return pairs


# -- BLEU ----------------------------------------------------------------------------------------------------
def target_language(args: argparse.Namespace) -> str | None:
    return args.language_pair.split("-")[1] if args.language_pair else None


BLEU_OPTION_NAMES = {
    "spm_model": "--spm-model",
    "smooth_value": "-sv/--smooth-value",
    "smooth_method": "-s",
    "max_ngram_order": "--max-ngram-order",
    "tokenize": "-tok",
}


def build_bleu(args: argparse.Namespace, warn: Warn | None = None):
    """The :class:`bleuscope.BLEU` scorer for the parsed options (tokenizer chosen by ``-l`` as sacreBLEU does)."""
    from .. import BLEU
    from ..metrics.bleu.scorer import LANGUAGE_TOKENIZERS
    from ..tokenizers import available_tokenizers

    trg_lang = target_language(args)
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
        bleu = BLEU(
            tokenize=tokenize or "13a",
            lowercase=args.lowercase,
            smooth_method=args.smooth_method,
            smooth_value=args.smooth_value,
            max_ngram_order=args.max_ngram_order,
            effective_order=args.effective_order or args.sentence_level,
            trg_lang=trg_lang,
            force=True,  # the command checks for tokenized input itself, per file
            **options,
        )
    except (ImportError, RuntimeError, OSError) as e:  # an optional tokenizer dependency is missing
        from ..core.validation import named_message

        raise InputError(f"tokenizer {tokenize!r} is not usable: {named_message(e, BLEU_OPTION_NAMES)}") from None
    if args.max_ngram_order > 4:  # the compiled core may count fewer orders than the option allows: ask it now
        try:
            bleu.corpus_score(["a"], [["a"]])
        except ValueError as e:
            raise UsageError(f"--max-ngram-order {args.max_ngram_order}: {e}") from None
    return bleu


def _order_columns(n: int) -> list[str]:
    """TSV column names of the per-order statistics: precisions, matches, totals for orders 1..n."""
    return [f"{what}_{k}" for what in ("prec", "correct", "total") for k in range(1, n + 1)]


class BLEUDetails:
    """What BLEU alone prints beyond sacreBLEU's generic shapes: its counts, precisions, BP and lengths."""

    @staticmethod
    def json_fields(score) -> dict:
        return {
            "counts": list(score.counts),
            "totals": list(score.totals),
            "precisions": list(score.precisions),
            "bp": score.bp,
            "ratio": score.ratio,
            "sys_len": score.sys_len,
            "ref_len": score.ref_len,
        }

    @staticmethod
    def tsv_header(scorer) -> list[str]:
        return ["bp", "ratio", "sys_len", "ref_len", *_order_columns(scorer.max_ngram_order)]

    @staticmethod
    def tsv_values(score) -> list:
        return [
            repr(score.bp),
            repr(score.ratio),
            score.sys_len,
            score.ref_len,
            *map(repr, score.precisions),
            *score.counts,
            *score.totals,
        ]

    @staticmethod
    def table_header(scorer) -> list[str]:
        return [f"precisions (1-{scorer.max_ngram_order})", "BP", "ratio", "hyp_len", "ref_len"]

    @staticmethod
    def table_values(score) -> list[str]:
        return [
            "/".join(f"{p:.1f}" for p in score.precisions),
            f"{score.bp:.3f}",
            f"{score.ratio:.3f}",
            str(score.sys_len),
            str(score.ref_len),
        ]

    @staticmethod
    def sentence_tsv_header(scorer) -> list[str]:
        return ["bp", "sys_len", "ref_len", *_order_columns(scorer.max_ngram_order)]

    @staticmethod
    def sentences(scorer, block):
        """Per-segment scores of ``block`` (statistics rows) and, per segment, its verbose text, its TSV
        values after the score, and its JSON fields after the score."""
        import numpy as np

        from ..metrics.bleu.layout import layout
        from ..metrics.bleu.scoring import compute_scores

        res = compute_scores(block, scorer.config)
        n = scorer.max_ngram_order
        cols = layout(scorer.stats_order)  # some smoothing methods also count (N+1)-grams
        stats = np.concatenate(
            [block[:, [cols.hyp_len, cols.ref_len]], block[:, cols.correct_upto(n)], block[:, cols.total_upto(n)]],
            axis=1,
        ).tolist()
        precisions, bps = res.precisions.tolist(), res.bp.tolist()
        verbose, tsv_values, json_fields = [], [], []
        for row, prec, bp in zip(stats, precisions, bps):
            ratio = row[0] / row[1] if row[1] else 0
            verbose.append(
                f"{'/'.join(f'{p:.1f}' for p in prec)} (BP = {bp:.3f} "
                f"ratio = {ratio:.3f} hyp_len = {row[0]:d} ref_len = {row[1]:d})"
            )
            tsv_values.append([repr(bp), row[0], row[1], *map(repr, prec), *row[2:]])
            json_fields.append(
                {
                    "counts": row[2 : 2 + n],
                    "totals": row[2 + n :],
                    "precisions": prec,
                    "bp": bp,
                    "sys_len": row[0],
                    "ref_len": row[1],
                }
            )
        return res.score.tolist(), verbose, tsv_values, json_fields


# -- chrF and TER (sacreBLEU's option names) -----------------------------------------------------------------
def add_chrf_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("chrF (-m chrf, or chrf++ = word order 2; sacreBLEU's options, except -cb)")
    g.add_argument(
        "-cc", "--chrf-char-order", type=int, default=6, metavar="N", help="character n-gram order (default: 6)"
    )
    g.add_argument(
        "-cw", "--chrf-word-order", type=int, default=0, metavar="N", help="word n-gram order (default: 0; 2 is chrF++)"
    )
    g.add_argument(
        "-cb",
        "--chrf-beta",
        type=int,
        default=2,
        metavar="N",
        help="weight of recall against precision (default: 2; -cb is bleuscope's own short form)",
    )
    g.add_argument("--chrf-whitespace", action="store_true", help="keep whitespace in character n-grams")
    g.add_argument("--chrf-lowercase", action="store_true", help="case-insensitive chrF")
    g.add_argument(
        "--chrf-eps-smoothing",
        action="store_true",
        help="epsilon smoothing as chrF++.py, NLTK and Moses (default: effective order)",
    )


def build_chrf(args: argparse.Namespace, warn: Warn | None = None, word_order: int | None = None):
    from ..metrics.chrf import CHRF

    return CHRF(
        char_order=args.chrf_char_order,
        word_order=args.chrf_word_order if word_order is None else word_order,
        beta=args.chrf_beta,
        lowercase=args.chrf_lowercase,
        whitespace=args.chrf_whitespace,
        eps_smoothing=args.chrf_eps_smoothing,
    )


def build_chrf_plus_plus(args: argparse.Namespace, warn: Warn | None = None):
    """``-m chrf++``: chrF with word order 2 (a name of its own in bleuscope; sacreBLEU's command has
    ``-m chrf -cw 2``); the other chrF options apply."""
    if args.chrf_word_order not in (0, 2):
        raise UsageError(
            f"-m chrf++ has word order 2; -cw/--chrf-word-order {args.chrf_word_order} goes with -m chrf"
        )
    return build_chrf(args, warn, word_order=2)


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


def build_ter(args: argparse.Namespace, warn: Warn | None = None):
    from ..metrics.ter import TER

    return TER(
        normalized=args.ter_normalized,
        no_punct=args.ter_no_punct,
        asian_support=args.ter_asian_support,
        case_sensitive=args.ter_case_sensitive,
    )


register_metric(MetricSpec(name="bleu", build=build_bleu, option_names=BLEU_OPTION_NAMES, details=BLEUDetails()))
register_metric(
    MetricSpec(
        name="chrf",
        build=build_chrf,
        add_arguments=add_chrf_options,
        option_names={
            "char_order": "-cc/--chrf-char-order",
            "word_order": "-cw/--chrf-word-order",
            "beta": "-cb/--chrf-beta",
        },
    )
)
register_metric(
    MetricSpec(name="chrf++", build=build_chrf_plus_plus, option_names=_METRICS["chrf"].option_names)
)
register_metric(MetricSpec(name="ter", build=build_ter, add_arguments=add_ter_options, keep_segment_rows=True))
register_metric(MetricSpec(name="meteor", build=meteor.build_meteor, add_arguments=meteor.add_meteor_options,
                           option_names=meteor.METEOR_OPTION_NAMES))
register_metric(MetricSpec(name="rouge", build=rouge.build_rouge, add_arguments=rouge.add_rouge_options))
register_metric(MetricSpec(name="wer", build=wer.builder("WER"), add_arguments=wer.add_wer_options))
for _rate in ("CER", "MER", "WIL", "WIP"):  # the options of -m wer
    register_metric(MetricSpec(name=_rate.lower(), build=wer.builder(_rate)))
register_metric(MetricSpec(name="gleu", build=strmetrics.build_gleu, add_arguments=strmetrics.add_gleu_options,
                           option_names=strmetrics.GLEU_OPTION_NAMES))
register_metric(MetricSpec(name="character", build=strmetrics.build_character))
register_metric(MetricSpec(name="eed", build=strmetrics.build_eed, add_arguments=strmetrics.add_eed_options))


# -- scores from files (--scores NAME=FILE), in both commands ---------------------------------------------------
def add_scores_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``--scores`` option group (a metric's segment scores read from files)."""
    from .scores import add_arguments

    add_arguments(parser)


def scores_scorers(args: argparse.Namespace, paths: list[str], hyps: list[list[str]]) -> list:
    """The ``--scores`` metrics of the systems read from ``paths`` (their texts ``hyps``)."""
    from .scores import bound_scorers

    return bound_scorers(args, paths, hyps)
