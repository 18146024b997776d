"""rouge-score's ``tokenize`` module: ``tokenize(text, stemmer)``."""

from __future__ import annotations

import re

from ...metrics.rouge.tokenize import default_tokens

#: rouge-score's final filter (``$`` also matches before a final newline, as there)
_VALID_TOKEN = re.compile(r"^[a-z0-9]+$")


def tokenize(text, stemmer):
    """Lowercase, ``[a-z0-9]`` runs; with a ``stemmer`` (an object with ``stem``), tokens longer than three
    characters are stemmed; empty or non-``[a-z0-9]`` results are dropped, as rouge-score does."""
    tokens = default_tokens(text)
    if stemmer:
        tokens = [stemmer.stem(t) if len(t) > 3 else t for t in tokens]
    return [t for t in tokens if _VALID_TOKEN.match(t)]
