"""The edit rates on the command line: ``-m wer``, ``cer``, ``mer``, ``wil``, ``wip`` and their options,
``--wer-profile`` (whose numbers: ``jiwer``, the default, ``hf-evaluate``, ``hf-evaluate-jiwer3``,
``torchmetrics``, ``nemo``; see :mod:`bleuscope.metrics.wer.scorer`) and ``--wer-average`` (``corpus``, the
ratio of the corpus sums, or ``segments``, the mean of the segment rates). Each takes one reference file."""

from __future__ import annotations

import argparse

from .output import UsageError

PROFILE_NAMES = ("jiwer", "hf-evaluate", "hf-evaluate-jiwer3", "torchmetrics", "nemo")


def add_wer_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("edit rates (-m wer, cer, mer, wil, wip; jiwer 4.0.0's numbers, one reference)")
    g.add_argument("--wer-profile", default="jiwer", choices=PROFILE_NAMES, metavar="NAME",
                   help="whose tokenization and empty-reference rule: " + ", ".join(PROFILE_NAMES)
                   + " (default: jiwer; MER, WIL and WIP need jiwer or hf-evaluate*)")
    g.add_argument("--wer-average", default="corpus", choices=("corpus", "segments"), metavar="HOW",
                   help="corpus: the ratio of the corpus sums, as jiwer (default); segments: the mean of the "
                   "segment rates (the signature says which)")


def builder(metric: str):
    """The ``build`` of one edit rate's registry row."""

    def build(args: argparse.Namespace, warn=None):
        from ..metrics import wer

        try:
            return getattr(wer, metric)(profile=args.wer_profile, average=args.wer_average)
        except ValueError as e:
            raise UsageError(f"-m {metric.lower()} --wer-profile {args.wer_profile}: {e}") from None

    return build
