"""Former location of :mod:`bleuscope.metrics.bleu.scoring`; importing this path gives that same module."""

import sys

from .metrics.bleu import scoring

sys.modules[__name__] = scoring
