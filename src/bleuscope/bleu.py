"""Former location of :mod:`bleuscope.metrics.bleu.scorer`; importing this path gives that same module."""

import sys

from .metrics.bleu import scorer

sys.modules[__name__] = scorer
