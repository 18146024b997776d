"""ROUGE on the command line: ``-m rouge`` with ``--rouge-types``, ``--rouge-stem`` and ``--rouge-tokenize``.

Each ROUGE type is its own column (``ROUGE-1``, ``ROUGE-2``, ``ROUGE-L``, ...): ``-m rouge`` builds one
scorer per type, so tables, JSON and the significance tests (paired bootstrap, approximate randomization
on the per-segment F) treat each like any other metric. The score printed is 100 x the mean F over segments;
the text form adds the mean precision, recall and F. In line-per-segment files every segment is one line,
so rougeLsum (sentences split at newlines) equals rougeL there; it differs for JSON Lines fields that hold
newlines.
"""

from __future__ import annotations

import argparse

from .output import UsageError

DEFAULT_TYPES = "rouge1,rouge2,rougeL,rougeLsum"


def add_rouge_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("ROUGE (-m rouge; rouge-score 0.1.2's definition)")
    g.add_argument(
        "--rouge-types",
        default=DEFAULT_TYPES,
        metavar="LIST",
        help=f"comma-separated ROUGE types: rouge1..rouge9, rougeL, rougeLsum (default: {DEFAULT_TYPES})",
    )
    g.add_argument("--rouge-stem", action="store_true", help="Porter stemming (rouge-score's use_stemmer)")
    g.add_argument(
        "--rouge-tokenize",
        default="default",
        choices=("default", "unicode", "unicode-cjk"),
        help="default: rouge-score's [a-z0-9] tokens (drops other scripts); unicode: words by Unicode "
        "category; unicode-cjk: also each CJK character a token",
    )


def build_rouge(args: argparse.Namespace, warn=None):
    """One :class:`bleuscope.metrics.rouge.ROUGE` scorer per type named by ``--rouge-types``."""
    from ..metrics.rouge import ROUGE

    types = [t.strip() for t in args.rouge_types.split(",") if t.strip()]
    repeated = next((t for k, t in enumerate(types) if t in types[:k]), None)
    if repeated is not None:  # one column per type: a type named twice would be two columns of one name
        raise UsageError(f"--rouge-types: {repeated} is named twice")
    try:
        return [ROUGE((t,), use_stemmer=args.rouge_stem, tokenizer=args.rouge_tokenize) for t in types] or [
            ROUGE(())
        ]
    except (ValueError, TypeError) as e:
        raise UsageError(f"--rouge-types: {e}") from None

