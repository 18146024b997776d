"""Former location of :mod:`bleuscope.analysis.significance`; importing this path gives that same module."""

import sys

from .analysis import significance

sys.modules[__name__] = significance
