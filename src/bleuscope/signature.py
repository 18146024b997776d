"""Former location of :mod:`bleuscope.core.signature`; importing this path gives that same module."""

import sys

from .core import signature

sys.modules[__name__] = signature
