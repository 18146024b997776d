"""Former location of :mod:`bleuscope.runtime.streaming`; importing this path gives that same module."""

import sys

from .runtime import streaming

sys.modules[__name__] = streaming
