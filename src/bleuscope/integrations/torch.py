"""Former location of :mod:`bleuscope.compat.torch`; importing this path gives that same module."""

import sys

from ..compat import torch

sys.modules[__name__] = torch
