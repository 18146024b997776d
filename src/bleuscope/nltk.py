"""Former location of :mod:`bleuscope.compat.nltk`; importing this path gives that same module."""

import sys

from .compat import nltk

sys.modules[__name__] = nltk
