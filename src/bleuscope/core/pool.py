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

import numpy as np

from . import native

#: segments read, counted or scored at a time, everywhere (streams, shards, metrics' counting passes, the
#: command line, the chunks sent to workers): bounds the memory of one pass (:mod:`bleuscope.core.chunks`
#: gives it to the rest of the package)
CHUNK_SEGMENTS = 50_000

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


def worker_spec(metric):
    """What a worker receives to count chunks for ``metric``: its counter, checked to pickle."""
    counter = metric.counter
    try:
        pickle.dumps(counter)
    except TypeError:
        raise
    except Exception as err:
        raise TypeError(f"the counter of {metric!r} cannot be sent to worker processes: {err}") from None
    return counter


def _chunk_statistics(counter, hyps: list, ref_chunks: list) -> np.ndarray:
    return counter.rows(hyps, ref_chunks)


# -- pools -------------------------------------------------------------------------------------------------
def map_statistics(
    metric, chunks: Iterable[tuple[list, list, np.ndarray]], n_jobs: int, *, mp_context=None
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """``(stats, present)`` for every ``(hyps, ref_chunks, present)`` chunk, in input order, computed by
    ``n_jobs`` worker processes with ``metric.counter``; at most ``IN_FLIGHT_PER_WORKER * n_jobs``
    chunks are pending at once."""
    from concurrent.futures import ProcessPoolExecutor  # imported when a pool is started (about 20 ms)

    spec = worker_spec(metric)
    limit = IN_FLIGHT_PER_WORKER * n_jobs
    pending: deque = deque()
    # every worker runs the compiled core with one thread: the processes are the parallelism
    with ProcessPoolExecutor(
        max_workers=n_jobs, mp_context=mp_context, initializer=native.set_process_threads, initargs=(1,)
    ) as pool:
        try:
            for hyps, ref_chunks, present in chunks:
                pending.append((pool.submit(_chunk_statistics, spec, hyps, ref_chunks), present))
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
    metric,
    hyps: list,
    streams: list,
    present: np.ndarray,
    n_jobs,
    *,
    chunk_size: int | None = None,
    mp_context=None,
) -> np.ndarray:
    """The statistics rows of already validated input (``metric.counter.rows(hyps, streams, present)``), by
    ``n_jobs`` processes. ``BLEU.segment_statistics(..., n_jobs=N)`` validates and calls this.

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
        return metric.counter.rows(hyps, streams, present)
    chunks = (
        (hyps[a : a + size], [s[a : a + size] for s in streams], present[a : a + size]) for a in range(0, n_seg, size)
    )
    parts = [stats for stats, _ in map_statistics(metric, chunks, jobs, mp_context=mp_context)]
    return np.concatenate(parts)


__all__ = ["CHUNK_SEGMENTS", "MIN_CHUNK_SEGMENTS", "map_statistics", "resolve_n_jobs", "statistics_checked", "worker_spec"]
