"""The string metrics on the command line: ``-m gleu``, ``-m character`` and ``-m eed`` and their options.

``--gleu-tokenize`` is GLEU's tokenizer (default 13a, HF ``google_bleu``'s; none splits on whitespace),
``--gleu-lowercase`` lowercases first, ``--gleu-min-len``/``--gleu-max-len`` are NLTK's n-gram orders (1 and
4). CharacTER has no option (words split on whitespace, as the rwth-i6 program). ``--eed-preprocess`` is
EED's preprocessing (en, the original's, or none).
"""

from __future__ import annotations

import argparse


def add_gleu_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("GLEU (-m gleu; NLTK 3.10.4's gleu_score, HF google_bleu's tokens)")
    g.add_argument("--gleu-tokenize", default="13a", metavar="TOK",
                   help="tokenizer of the lines (default: 13a; none splits on whitespace)")
    g.add_argument("--gleu-lowercase", action="store_true", help="lowercase the lines first")
    g.add_argument("--gleu-min-len", type=int, default=1, metavar="N", help="smallest n-gram order (default: 1)")
    g.add_argument("--gleu-max-len", type=int, default=4, metavar="N", help="largest n-gram order (default: 4)")


def build_gleu(args: argparse.Namespace, warn=None):
    from ..metrics.gleu import GLEU

    return GLEU(tokenize=args.gleu_tokenize, lowercase=args.gleu_lowercase, min_len=args.gleu_min_len,
                max_len=args.gleu_max_len)


GLEU_OPTION_NAMES = {"min_len": "--gleu-min-len", "max_len": "--gleu-max-len", "tokenize": "--gleu-tokenize"}


def build_character(args: argparse.Namespace, warn=None):
    from ..metrics.character import CharacTER

    return CharacTER()


def add_eed_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("EED (-m eed; the rwth-i6 program's definition and defaults)")
    g.add_argument("--eed-preprocess", default="en", choices=["en", "none"],
                   help="preprocessing of the lines (default: en, the original's)")


def build_eed(args: argparse.Namespace, warn=None):
    from ..metrics.eed import EED

    return EED(preprocess=args.eed_preprocess)
