"""The edit rates on the command line: ``-m wer``, ``cer``, ``mer``, ``wil``, ``wip`` and their one option,
``--wer-profile`` (whose numbers: ``jiwer``, the default, ``hf-evaluate``, ``hf-evaluate-jiwer3``,
``torchmetrics``, ``nemo``; see :mod:`bleuscope.metrics.wer.scorer`). Each takes one reference file."""

from __future__ import annotations

import argparse

from .output import UsageError

PROFILE_NAMES = ("jiwer", "hf-evaluate", "hf-evaluate-jiwer3", "torchmetrics", "nemo")


def add_wer_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("edit rates (-m wer, cer, mer, wil, wip; jiwer 4.0.0's numbers, one reference)")
    g.add_argument("--wer-profile", default="jiwer", choices=PROFILE_NAMES, metavar="NAME",
                   help="whose tokenization and empty-reference rule: " + ", ".join(PROFILE_NAMES)
                   + " (default: jiwer; MER, WIL and WIP need jiwer or hf-evaluate*)")


def builder(metric: str):
    """The ``build`` of one edit rate's registry row."""

    def build(args: argparse.Namespace, warn=None):
        from ..metrics import wer

        try:
            return getattr(wer, metric)(profile=args.wer_profile)
        except ValueError as e:
            raise UsageError(f"-m {metric.lower()} --wer-profile {args.wer_profile}: {e}") from None

    return build
