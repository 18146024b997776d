"""Option value types for argparse (``type=``): one message shape for every number option of the command.

A bad value is reported by argparse as ``argument -nr/--num-refs: expected a whole number >= 1, got '-1'``
(exit 2), naming the option and the whole valid range at once. Imports nothing heavy (runs for ``--help``).
"""

from __future__ import annotations

import argparse
import math


def checked(convert, accept, what: str):
    """A ``type=``: ``convert`` the text, then require ``accept(value)``; errors say ``expected {what}``."""

    def parse(text: str):
        try:
            value = convert(text)
        except ValueError:
            value = None
        if value is None or not accept(value):
            raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}")
        return value

    return parse


def whole_number(minimum: int, maximum: int | None = None):
    """An integer in ``minimum..maximum`` (no upper bound when ``maximum`` is None)."""
    what = f"a whole number >= {minimum:,}" if maximum is None else f"a whole number from {minimum:,} to {maximum:,}"
    return checked(int, lambda n: n >= minimum and (maximum is None or n <= maximum), what)


def non_negative_number(text: str) -> float:
    """A finite number >= 0."""
    return checked(float, lambda v: math.isfinite(v) and v >= 0, "a finite number >= 0")(text)
