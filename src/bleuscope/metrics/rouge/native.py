"""The compiled core's ROUGE counts (through :mod:`bleuscope.core.native.rouge`), or None when it cannot do the job.

rouge-score's tokenizer and the Porter stemmer run in the core. For the Unicode tokenizers, Python
tokenizes and stems (their definition is ``unicodedata``'s categories) and the core receives each text as
its tokens joined by spaces, line by line, which it splits back exactly (those tokens hold no whitespace).
"""

from __future__ import annotations

import numpy as np

from .tokenize import tokenize


def _pretokenized(text: str, tokenizer: str, stem: bool) -> str:
    return "\n".join(" ".join(tokenize(line, tokenizer, stem)) for line in text.split("\n"))


def native_pair_counts(metric, hyps: list[str], streams: list[list], present: np.ndarray | None, *, required: bool,
                       best: bool = False):
    """int64 ``[S, K, T, 3]`` pair counts from the compiled core, or None (``required``: an error instead).

    ``best``: ``(counts int64 [S, T, 3], values float64 [S, T, 3], references per segment int64 [S])`` of
    each segment's best reference per type (rouge-score's ``score_multi``) instead. With the default
    tokenizer the core checks the items (a TypeError for one that is not a str, or None in a reference
    stream)."""
    from ...core import native

    counter = metric.compiled_counter()
    if counter is None:
        if required:
            raise native.NativeEngineUnavailableError(
                "engine='native' was asked for, but the compiled core (bleuscope._core) is not built or has no "
                "ROUGE counter in this installation; use engine='auto' or 'numpy'"
            )
        return None
    if metric.tokenizer != "default":
        hyps = [_pretokenized(h, metric.tokenizer, metric.use_stemmer) for h in hyps]
        streams = [[None if r is None else _pretokenized(r, metric.tokenizer, metric.use_stemmer) for r in s]
                   for s in streams]
    return counter.best(hyps, streams) if best else counter.rows(hyps, streams)


__all__ = ["native_pair_counts"]
