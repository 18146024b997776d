"""Optional multi-process statistics for very large inputs: a local process pool over chunks of segments.

Per-segment statistics of one segment do not depend on any other segment, so chunks can be counted in
separate processes and the rows concatenated in order: the result is identical to one serial pass. Scoring
(a cheap vectorized pass over the statistics) stays in the calling process.

Workers are started by :class:`concurrent.futures.ProcessPoolExecutor` (no service, nothing to install) and
never receive tokenizer objects: a worker re-creates its tokenizer by name (and SentencePiece model path, or
the registry entry of a custom tokenizer) and keeps it, with its word cache, for the next chunks. This also
works with the ``spawn`` and ``forkserver`` start methods, as long as the calling script guards its entry
point with ``if __name__ == "__main__":`` as multiprocessing requires there.

On a machine with few cores, or for small inputs, one process is usually as fast: the pool costs a start-up
and the chunks have to be pickled to the workers. ``n_jobs=None``/``1`` never starts a pool.
"""

from __future__ import annotations

import math
import os
import pickle
from collections import deque
from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor

import numpy as np

from .bleu import BLEU, CHUNK_SEGMENTS

#: below this many segments per worker a pool is not worth starting (unless chunk_size is given)
MIN_CHUNK_SEGMENTS = 1_000

#: chunks in flight per worker when streaming (bounds the memory of pending chunks)
IN_FLIGHT_PER_WORKER = 2


def resolve_n_jobs(n_jobs) -> int:
    """Number of processes: ``None``/``1`` -> 1, a positive int as is, ``-1`` -> every CPU."""
    if n_jobs is None:
        return 1
    if isinstance(n_jobs, bool) or not isinstance(n_jobs, (int, np.integer)):
        raise TypeError(f"n_jobs must be a positive integer, -1 (all CPUs) or None, got {n_jobs!r}")
    if n_jobs == -1:
        return max(1, os.cpu_count() or 1)
    if n_jobs < 1:
        raise ValueError(f"n_jobs must be a positive integer, -1 (all CPUs) or None, got {n_jobs}")
    return int(n_jobs)


# -- what a worker needs to rebuild the counting side of a BLEU object -------------------------------------
def worker_spec(bleu: BLEU) -> tuple:
    """A small picklable description of the statistics settings of ``bleu`` (not its scoring options)."""
    from .tokenizers import _REGISTRY

    tok = bleu.tokenizer
    model = getattr(tok, "model_path", None)
    factory = _REGISTRY.get(bleu.tokenize)
    if factory is not None and not isinstance(factory, str):
        try:
            pickle.dumps(factory)
        except Exception:
            raise TypeError(
                f"tokenizer {bleu.tokenize!r} was registered with a factory that cannot be sent to worker "
                "processes; register it as a 'module:Class' string to use n_jobs > 1"
            ) from None
    # the worker counts ``stats_order`` orders (one more than max_ngram_order for some smoothing methods)
    order = getattr(bleu, "stats_order", bleu.max_ngram_order)
    engine = getattr(bleu, "engine", "auto")
    threads = getattr(bleu, "threads", None)
    return (bleu.tokenize, None if model is None else str(model), factory, bleu.lowercase, order, engine, threads)


_WORKER_STATE: dict[tuple, tuple] = {}


def _worker_scorer(spec: tuple):
    state = _WORKER_STATE.get(spec)
    if state is None:
        from .streaming import _EncoderCache
        from .tokenizers import _REGISTRY, register_tokenizer

        tokenize, model, factory, lowercase, order, engine, threads = spec
        if factory is not None and _REGISTRY.get(tokenize) != factory:
            register_tokenizer(tokenize, factory)
        extra = {} if model is None else {"spm_model": model}
        bleu = BLEU(tokenize=tokenize, lowercase=lowercase, max_ngram_order=order, engine=engine,
                    threads=threads, **extra)
        state = (bleu, _EncoderCache(bleu))
        _WORKER_STATE[spec] = state
    return state


def _chunk_statistics(spec: tuple, hyps: list, ref_chunks: list, present: np.ndarray) -> np.ndarray:
    bleu, encoders = _worker_scorer(spec)
    return bleu._statistics_checked(hyps, ref_chunks, present, encoders.get())


# -- pools -------------------------------------------------------------------------------------------------
def map_statistics(
    bleu: BLEU, chunks: Iterable[tuple[list, list, np.ndarray]], n_jobs: int, *, mp_context=None
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(stats, present)`` for every ``(hyps, ref_chunks, present)`` chunk, in input order, computed by
    ``n_jobs`` worker processes; at most ``IN_FLIGHT_PER_WORKER * n_jobs`` chunks are pending at once."""
    spec = worker_spec(bleu)
    limit = IN_FLIGHT_PER_WORKER * n_jobs
    pending: deque = deque()
    with ProcessPoolExecutor(max_workers=n_jobs, mp_context=mp_context) as pool:
        try:
            for hyps, ref_chunks, present in chunks:
                pending.append((pool.submit(_chunk_statistics, spec, hyps, ref_chunks, present), present))
                while len(pending) >= limit:
                    fut, pres = pending.popleft()
                    yield fut.result(), pres
            while pending:
                fut, pres = pending.popleft()
                yield fut.result(), pres
        finally:
            for fut, _ in pending:
                fut.cancel()


def statistics_checked(
    bleu: BLEU,
    hyps: list,
    streams: list,
    present: np.ndarray,
    n_jobs,
    *,
    chunk_size: int | None = None,
    mp_context=None,
) -> np.ndarray:
    """The statistics rows of already validated input (as ``BLEU._statistics_checked``), by ``n_jobs``
    processes. ``BLEU.segment_statistics(..., n_jobs=N)`` validates and calls this.

    Without ``chunk_size`` the segments are cut into about four chunks per worker (at most
    ``CHUNK_SEGMENTS`` each), and inputs too small to give each worker ``MIN_CHUNK_SEGMENTS`` segments are
    counted in this process.
    """
    jobs = resolve_n_jobs(n_jobs)
    n_seg = len(hyps)
    if chunk_size is None:
        jobs = min(jobs, n_seg // MIN_CHUNK_SEGMENTS)
        size = min(CHUNK_SEGMENTS, max(MIN_CHUNK_SEGMENTS, math.ceil(n_seg / (4 * max(jobs, 1)))))
    else:
        if isinstance(chunk_size, bool) or not isinstance(chunk_size, (int, np.integer)) or chunk_size < 1:
            raise ValueError(f"chunk_size must be a positive integer, got {chunk_size!r}")
        size = int(chunk_size)
    if jobs <= 1:
        return bleu._statistics_checked(hyps, streams, present, bleu.new_encoder())
    chunks = (
        (hyps[a: a + size], [s[a: a + size] for s in streams], present[a: a + size])
        for a in range(0, n_seg, size)
    )
    parts = [stats for stats, _ in map_statistics(bleu, chunks, jobs, mp_context=mp_context)]
    return np.concatenate(parts)


__all__ = ["MIN_CHUNK_SEGMENTS", "map_statistics", "resolve_n_jobs", "statistics_checked", "worker_spec"]
