"""Former location of :mod:`bleuscope.metrics.bleu.token_ids`; importing this path gives that same module."""

import sys

from .metrics.bleu import token_ids

sys.modules[__name__] = token_ids
