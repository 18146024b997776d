"""Former location of :mod:`bleuscope.core.counting`; importing this path gives that same module."""

import sys

from .core import counting

sys.modules[__name__] = counting
