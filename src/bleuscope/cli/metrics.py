"""The metrics that ``-m/--metrics`` can name: a registry from the name to how the metric is built.

Building happens after parsing (heavy modules are imported then, never for ``--help``). Each entry says how to
add the metric's own options to the parser and how to build the scorer from the parsed options. BLEU is the
only metric so far; chrF and TER register here when they exist::

    register_metric(MetricSpec(name="chrf", label="chrF", build=build_chrf, add_arguments=add_chrf_options))
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from ..core.files import InputError, UsageError

Warn = Callable[[str], None]


@dataclass(frozen=True)
class MetricSpec:
    """One metric of the command line.

    ``name`` is what ``-m`` takes, ``label`` what tables and signatures print. ``build(args, warn)`` returns the
    scorer for the parsed options (raise :class:`~bleuscope.core.files.UsageError` for bad options).
    ``add_arguments(parser)`` adds the metric's own options (called once, while the parser is built; import
    nothing heavy there).
    """

    name: str
    label: str
    build: Callable[[argparse.Namespace, Warn | None], object]
    add_arguments: Callable[[argparse.ArgumentParser], None] | None = None


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


# -- BLEU ----------------------------------------------------------------------------------------------------
#: the library's argument names -> the command's option names, for messages coming from BLEU()
_OPTION_NAMES = {
    "spm_model=": "--spm-model ",
    "spm_model": "--spm-model",
    "smooth_value": "-sv/--smooth-value",
    "smooth_method=": "-s ",
    "max_ngram_order": "--max-ngram-order",
    "tokenize=": "-tok ",
}


def option_names(message: str) -> str:
    """A library message with the library's argument names replaced by the command's option names."""
    for api, option in _OPTION_NAMES.items():
        message = message.replace(api, option)
    return message


def target_language(args: argparse.Namespace) -> str | None:
    return args.language_pair.split("-")[1] if args.language_pair else None


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
        return BLEU(
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
    except (ValueError, TypeError) as e:
        raise UsageError(option_names(str(e))) from None
    except (ImportError, RuntimeError, OSError) as e:  # an optional tokenizer dependency is missing
        raise InputError(f"tokenizer {tokenize!r} is not usable: {option_names(str(e))}") from None


register_metric(MetricSpec(name="bleu", label="BLEU", build=build_bleu))
