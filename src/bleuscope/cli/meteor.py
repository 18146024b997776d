"""METEOR on the command line: ``-m meteor`` and its options (NLTK's parameters, the WordNet location).

``--meteor-wordnet DIR`` names the WordNet 3.0 database (a directory with its files, NLTK's ``wordnet.zip``, or
an NLTK data directory); without it the first one found is used (NLTK's data directories, then Debian's
``/usr/share/wordnet``). ``--meteor-alpha``, ``--meteor-beta``, ``--meteor-gamma`` are NLTK's ``alpha``,
``beta``, ``gamma``; ``--meteor-tokenize`` the tokenizer for the lines (default 13a); ``--meteor-case-sensitive``
keeps the case (NLTK lowercases).
"""

from __future__ import annotations

import argparse

from ..core.files import InputError
from .output import UsageError


def add_meteor_options(parser: argparse.ArgumentParser) -> None:
    g = parser.add_argument_group("METEOR (-m meteor; NLTK 3.10.4's meteor_score, WordNet 3.0)")
    g.add_argument("--meteor-wordnet", metavar="DIR", default=None,
                   help="WordNet 3.0 database: a directory with its files, NLTK's wordnet.zip or an NLTK data "
                   "directory (default: NLTK's data directories, then /usr/share/wordnet)")
    g.add_argument("--meteor-alpha", type=float, default=0.9, metavar="X",
                   help="weight of precision against recall (default: 0.9)")
    g.add_argument("--meteor-beta", type=float, default=3.0, metavar="X",
                   help="shape of the fragmentation penalty (default: 3)")
    g.add_argument("--meteor-gamma", type=float, default=0.5, metavar="X",
                   help="weight of the fragmentation penalty (default: 0.5)")
    g.add_argument("--meteor-tokenize", default="13a", metavar="TOK",
                   help="tokenizer of the lines (default: 13a; none splits on whitespace)")
    g.add_argument("--meteor-case-sensitive", action="store_true", help="do not lowercase (NLTK lowercases)")


def build_meteor(args: argparse.Namespace, warn=None):
    from ..metrics.meteor import METEOR, WordNetFormatError, WordNetNotFoundError

    try:
        return METEOR(
            tokenize=args.meteor_tokenize,
            lowercase=not args.meteor_case_sensitive,
            wordnet=args.meteor_wordnet,
            alpha=args.meteor_alpha,
            beta=args.meteor_beta,
            gamma=args.meteor_gamma,
        )
    except (WordNetNotFoundError, WordNetFormatError) as e:
        raise InputError(f"--meteor-wordnet: {e}" if args.meteor_wordnet else str(e)) from None
    except (ValueError, TypeError) as e:
        from ..core.validation import named_message

        raise UsageError(named_message(e, METEOR_OPTION_NAMES)) from None


#: the library's argument names -> the command's options, for the errors that name them
METEOR_OPTION_NAMES = {"alpha": "--meteor-alpha", "beta": "--meteor-beta", "gamma": "--meteor-gamma",
                       "tokenize": "--meteor-tokenize"}

