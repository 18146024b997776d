"""BLEU's compiled objects (``rust/python/src/bleu.rs``): the text counter, the token-id counter and the
scorer, each built once with its configuration, and the marshalling of numpy id arrays into them.

Rows are int64 ``[S, 2 + 2 * order]``: ``[hyp_len, ref_len, correct_1..order, total_1..order]``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from . import core, core_threads
from .tok import native_tokenizer_name

if TYPE_CHECKING:
    import numpy as np


def text_counter(tokenizer, *, lowercase: bool, order: int, threads: int | None):
    """A compiled :class:`bleuscope._core.TextCounter` of ``tokenizer`` (a line the compiled tokenizer
    leaves to Python is tokenized by ``tokenizer``), or None when ``tokenizer`` stays in Python or the core
    is not built."""
    if core() is None:
        return None
    name = native_tokenizer_name(tokenizer, lowercase)
    if name is None:
        return None

    def python_tokens(lines):  # the rare lines the compiled tokenizer leaves to Python
        return tokenizer.tokenize_batch([x.lower() for x in lines] if lowercase else lines)

    return core().TextCounter(
        name, lowercase=lowercase, order=order, threads=core_threads(threads), fallback=python_tokens
    )


def id_counter(order: int, threads: int | None):
    """A compiled :class:`bleuscope._core.IdCounter` (token ids, padded matrices, token lists, pairs), or
    None when the core is not built."""
    module = core()
    return None if module is None else module.IdCounter(order, threads=core_threads(threads))


def bleu_scorer(order: int, smooth_method: str, smooth_value: float, effective_order: bool, threads=None):
    """A compiled :class:`bleuscope._core.BleuScorer` (sacreBLEU's smoothing methods, uniform weights), or
    None when the core is not built. ``threads`` (the pairwise scores') as the thread policy says; None:
    the scorer picks its threads by the number of rows, also in a pool worker (scores are cheap beside
    counting)."""
    module = core()
    if module is None:
        return None
    count = 0 if threads is None else core_threads(threads)
    return module.BleuScorer(order, smooth_method, smooth_value, effective_order, threads=count)


def _as_u64(ids, dtype):
    import numpy as np

    return np.ascontiguousarray(np.asarray(ids).astype(dtype, copy=False)).view(np.uint64)


def _as_lengths(lengths):
    import numpy as np

    return np.ascontiguousarray(lengths, dtype=np.int64)


def id_rows(counter, hyp_ids, ref_ids, present, dtype) -> np.ndarray:
    """``counter``'s rows of token ids (flat ids + lengths per stream, ``EncodedLines``), the ids cast to
    ``dtype`` (int64 or uint64: one for all streams) and compared as 64-bit patterns (int64 viewed as
    uint64)."""
    import numpy as np

    return counter.rows(
        _as_u64(hyp_ids.ids, dtype),
        _as_lengths(hyp_ids.lengths),
        [_as_u64(r.ids, dtype) for r in ref_ids],
        [_as_lengths(r.lengths) for r in ref_ids],
        None if present is None else np.ascontiguousarray(present, dtype=bool),
    )


def padded_rows(counter, hyp, hyp_lens, refs, ref_lens, *, left: bool) -> np.ndarray:
    """``counter``'s rows of int64 padded id matrices read in place (``hyp [B, L]``, ``refs [B, K, M]``,
    lengths ``[B]`` and ``[B, K]``, a negative reference length = missing)."""
    import numpy as np

    return counter.padded_rows(
        np.ascontiguousarray(hyp).view(np.uint64),
        _as_lengths(hyp_lens),
        np.ascontiguousarray(refs).view(np.uint64),
        _as_lengths(ref_lens),
        left=left,
    )


def _pair_ids(enc):
    import numpy as np

    return np.ascontiguousarray(enc.ids, dtype=np.int64).view(np.uint64), _as_lengths(enc.lengths)


def pairwise_rows(counter, hyp, refs) -> np.ndarray:
    """Statistics rows ``[H * R, 2 + 2 * order]`` of every hypothesis against every single reference
    (``refs=None``: the hypotheses), by an :func:`id_counter`."""
    return counter.pairwise_rows(*_pair_ids(hyp), None if refs is None else _pair_ids(refs))


def pairwise_scores(scorer, hyp, refs) -> np.ndarray:
    """Sentence BLEU ``[H, R]`` of every hypothesis against every single reference, by a :func:`bleu_scorer`."""
    return scorer.pairwise_scores(*_pair_ids(hyp), None if refs is None else _pair_ids(refs))


__all__ = ["bleu_scorer", "id_counter", "id_rows", "padded_rows", "pairwise_rows", "pairwise_scores", "text_counter"]
