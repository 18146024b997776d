"""Former location of :mod:`bleuscope.metrics.bleu.smoothing`; importing this path gives that same module."""

import sys

from .metrics.bleu import smoothing

sys.modules[__name__] = smoothing
