"""Input warnings given once, by every path that reads hypotheses (in memory, streamed, significance)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from itertools import repeat

from ..tokenizers.language import CJKTokenizationWarning, caller_stacklevel, warn_if_mostly_cjk


class TokenizedInputWarning(UserWarning):
    """Hypotheses look already tokenized (sacreBLEU's check; silence it with ``force=True``)."""


#: hypotheses ending in a tokenized period from which sacreBLEU warns
TOKENIZED_PERIOD_LINES = 100


def count_tokenized_periods(hyps: Sequence[str], *, strip_line_ends: bool = False) -> int:
    """How many hypotheses end in a tokenized period (``" ."``): sacreBLEU's rule, the one rule of bleuscope.

    sacreBLEU's library tests the strings as given; its command strips each line's trailing whitespace
    (``line.rstrip()``) when it reads a file, so a line ``"word . "`` or ``"word .\r"`` counts there:
    ``strip_line_ends=True`` applies the rule to lines as that command sees them."""
    if strip_line_ends:
        hyps = [line.rstrip() for line in hyps]
    return sum(map(str.endswith, hyps, repeat(" .")))  # C-level loop over the lines


def warn_tokenized() -> None:
    """The tokenized-input warning, attributed to the first caller outside bleuscope (whatever public
    function it came through)."""
    warnings.warn(
        "100 or more hypotheses end in a tokenized period (' .'): BLEU expects detokenized text, and "
        "scoring tokenized text may hurt the score; pass force=True if this is intended",
        TokenizedInputWarning,
        stacklevel=caller_stacklevel(),
    )


def warn_if_tokenized(hyps: Sequence[str]) -> None:
    """Warn, as sacreBLEU does, when 100 or more hypotheses end in a tokenized period (``" ."``)."""
    if count_tokenized_periods(hyps) >= TOKENIZED_PERIOD_LINES:
        warn_tokenized()


__all__ = [
    "CJKTokenizationWarning",
    "TOKENIZED_PERIOD_LINES",
    "TokenizedInputWarning",
    "caller_stacklevel",
    "count_tokenized_periods",
    "warn_if_mostly_cjk",
    "warn_if_tokenized",
    "warn_tokenized",
]
