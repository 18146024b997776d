"""Former location of :mod:`bleuscope.core.encoding`; importing this path gives that same module."""

import sys

from .core import encoding

sys.modules[__name__] = encoding
