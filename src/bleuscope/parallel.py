"""Former location of :mod:`bleuscope.core.pool`; importing this path gives that same module."""

import sys

from .core import pool

sys.modules[__name__] = pool
