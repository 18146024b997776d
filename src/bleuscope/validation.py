"""Former location of :mod:`bleuscope.core.validation`; importing this path gives that same module."""

import sys

from .core import validation

sys.modules[__name__] = validation
