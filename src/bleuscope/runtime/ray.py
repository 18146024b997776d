"""Scoring on Ray: corpus scores and per-row sentence scores of Ray Datasets or Parquet / JSON Lines shards,
and scorer actors for reward scoring. Needs the extra: ``pip install "bleuscope[ray]"``.

Every bleuscope metric with additive statistics (BLEU, chrF, TER: see :mod:`bleuscope.metrics.base`) works
here unchanged: workers compute the metric's integer statistics rows of their blocks and send back only the
column sums; the driver adds them (exact int64 sums) and scores once, so a distributed corpus score is
bit-identical to the local one. The map functions live in this module, so workers import them from the
installed bleuscope and never need the caller's code; the metric object itself is pickled to them.

Inputs:

* a :class:`ray.data.Dataset` with a hypothesis column and one or more reference columns (strings, Arrow
  ``string`` / ``large_string``, a null for a missing reference, or lists of strings for several references
  per row). Read with ``include_paths=True`` so that errors name the shard a bad row came from;
* shard paths or globs (Parquet, JSON Lines): each shard is read by one Ray task with bleuscope's own reader
  (:mod:`bleuscope.runtime.shards`), which checks the shard's own schema. Ray Data's readers unify the
  schemas of all shards, turning a shard that lacks the reference column into a column of nulls; reading
  shard by shard turns it into an error naming the shard. The paths must be readable from every node
  (a shared file system or object store mount).

Failures are never hidden: a bad shard, a missing column or a crashed worker stops the run with one
:class:`RayScoringError` naming the shard (when Ray can tell which); a partial sum is never scored.
"""

from __future__ import annotations

import re
import warnings
from typing import Any

import numpy as np

from ..core.chunks import CHUNK_SEGMENTS
from ..core.stats import Totals
from ..metrics.base import SentenceScorer
from ..tokenizers.language import MissingExtraError
from .shards import (
    ShardChunk,
    ShardError,
    check_arrow_fields,
    check_chunk,
    chunk_statistics,
    default_metric,
    expand_shards,
    iter_shard,
    merge_refs,
    ref_field_list,
    row_refs,
    shard_totals,
)

#: rows per batch handed to the statistics function of a Dataset
BATCH_ROWS = 16_384

#: retries of a task whose worker process died (Ray Data's default is to retry forever)
MAX_RETRIES = 2


class RayScoringError(RuntimeError):
    """Scoring on Ray failed; the message names the shard where it can. No score was produced."""


def import_ray():
    """``ray`` with Ray Data, or :class:`MissingExtraError` with the install line."""
    try:
        import ray
        import ray.data  # noqa: F401
    except ImportError:
        raise MissingExtraError('scoring on Ray needs ray[data]: pip install "bleuscope[ray]"') from None
    return ray


# -- worker side: Arrow batches -> statistics ------------------------------------------------------------
class _BatchChunk(ShardChunk):
    """Rows of a Ray Dataset batch: locations come from its ``path`` (and ``row``) columns when present."""

    def __init__(self, hyps, paths, rows):
        super().__init__("", 0, hyps, [])
        self.paths = paths
        self.rows = rows

    def where(self, i: int) -> str:
        if self.paths is None:
            return (f"row {i} of a {len(self.hyps)}-row batch (read the Dataset with include_paths=True "
                    "to have the shard named)")
        place = str(self.paths[i])
        if self.rows is not None:
            place += f": row {self.rows[i]} (counting from 0)"
        else:
            hyp = self.hyps[i]
            place += f", hypothesis {hyp[:60]!r}" if isinstance(hyp, str) else f", row {i} of a batch"
        return place

    def span(self) -> str:
        if self.paths is None:
            return f"a {len(self.hyps)}-row batch (read the Dataset with include_paths=True to have the shard named)"
        names = sorted(set(map(str, self.paths)))
        return ", ".join(names[:3]) + (f" and {len(names) - 3} more shards" if len(names) > 3 else "")


def _batch_chunk(batch, hyp_field: str, ref_fields: list[str], path_field: str | None) -> _BatchChunk:
    names = batch.schema.names
    paths = batch.column(path_field).to_pylist() if path_field and path_field in names else None
    rows = batch.column("row").to_pylist() if paths is not None and "row" in names else None
    where = ", ".join(sorted(set(map(str, paths)))[:3]) if paths else "a Ray Dataset batch"
    check_arrow_fields(batch.schema, hyp_field, ref_fields, where)
    chunk = _BatchChunk(batch.column(hyp_field).to_pylist(), paths, rows)
    chunk.refs = merge_refs([row_refs(batch.column(r).to_pylist(), r, chunk.where) for r in ref_fields])
    try:
        check_chunk(chunk)
    except ShardError as e:
        if paths is not None and "no reference" in str(e):
            # Ray Data's readers fill a column that a shard lacks with nulls: say so
            raise ShardError(f"{e}; if that shard has no {ref_fields} column, Ray Data read it as nulls") from None
        raise
    return chunk


def fit_threads(scorer: SentenceScorer) -> SentenceScorer:
    """The scorer (a copy received by a worker) with its compiled counter limited to the CPUs Ray assigned
    to this task or actor: Ray reserves CPUs but does not confine threads, and ``threads=None`` would start one
    thread per core of the node in every task."""
    if scorer.threads is None:  # every metric (and TokenBLEU) has the option
        try:
            import ray

            if not ray.is_initialized():  # not in a Ray worker; get_runtime_context() would start Ray here
                return scorer
            cpus = ray.get_runtime_context().get_assigned_resources().get("CPU", 1)
        except Exception:  # not inside a Ray worker
            return scorer
        scorer.threads = max(1, int(cpus))
    return scorer


def _recorded(caught) -> list[str]:
    out = []
    for w in caught:
        cat = w.category
        out.append(f"{cat.__module__}:{cat.__qualname__}\t{w.message}")
    return sorted(set(out))


def batch_state(batch, *, metric, hyp_field: str, ref_fields: list[str], path_field: str | None):
    """Map function (Arrow batch -> one row): the summed statistics state of the batch and its warnings."""
    import pyarrow as pa

    if batch.num_rows == 0:
        return pa.table({"state": pa.array([], pa.list_(pa.int64())), "warnings": pa.array([], pa.list_(pa.string()))})
    chunk = _batch_chunk(batch, hyp_field, ref_fields, path_field)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        seg = chunk_statistics(fit_threads(metric), chunk)
    state = Totals.of(seg).state()
    return pa.table({"state": pa.array([state.tolist()], pa.list_(pa.int64())),
                     "warnings": pa.array([_recorded(caught)], pa.list_(pa.string()))})


def score_rows(metric, stats: np.ndarray) -> np.ndarray:
    """float64 score of every statistics row (sentence scores), through the metric's ``score_rows``."""
    return np.asarray(metric.score_rows(np.asarray(stats, dtype=np.int64)), dtype=np.float64)


def batch_sentence_scores(batch, *, metric, hyp_field: str, ref_fields: list[str], path_field: str | None,
                          score_field: str):
    """Map function (Arrow batch -> the same batch plus a float64 ``score_field`` column)."""
    import pyarrow as pa

    if score_field in batch.column_names:
        where = _batch_chunk(batch, hyp_field, ref_fields, path_field).span() if batch.num_rows else "the Dataset"
        raise ShardError(f"{where}: the rows already have a column {score_field!r}; choose another score_field")
    if batch.num_rows == 0:
        return batch.append_column(score_field, pa.array([], pa.float64()))
    chunk = _batch_chunk(batch, hyp_field, ref_fields, path_field)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # per-batch input warnings would repeat once per batch in the logs
        seg = chunk_statistics(fit_threads(metric), chunk)
    return batch.append_column(score_field, pa.array(score_rows(metric, seg.stats), pa.float64()))


def shard_rows(items, *, metric, hyp_field: str, ref_fields: list[str], score_field: str | None,
               chunk_rows: int, keep_columns: bool):
    """Map function (a batch of shard paths -> Arrow tables of their rows): the text columns (or every
    Parquet column with ``keep_columns``), ``path``, ``row`` and, with ``score_field``, the sentence scores."""
    import pyarrow as pa

    for path in items.column("path").to_pylist():
        for chunk in iter_shard(path, hyp_field, ref_fields, chunk_rows=chunk_rows, keep_columns=keep_columns):
            n = len(chunk.hyps)
            if chunk.table is not None:
                table: Any = (pa.Table.from_batches([chunk.table]) if isinstance(chunk.table, pa.RecordBatch)
                              else chunk.table)
                taken = [c for c in ("path", "row", score_field) if c is not None and c in table.column_names]
                if taken:  # never overwrite a column of the shard
                    raise ShardError(f"{path}: the shard has a column {taken[0]!r}, which the scored rows add; "
                                     "rename it, or read the shards into a Dataset and score that")
            else:
                # JSON allows a string, a null or a list per row: reference fields come out as lists
                cols = {hyp_field: pa.array(chunk.hyps, pa.large_string())}
                for r in ref_fields:
                    if r != hyp_field:
                        cols[r] = pa.array(row_refs(chunk.ref_values[r], r, chunk.where),
                                           pa.list_(pa.large_string()))
                table = pa.table(cols)
            table = table.append_column("path", pa.array([path] * n, pa.string()))
            table = table.append_column("row", pa.array(np.arange(chunk.first_row, chunk.first_row + n), pa.int64()))
            if score_field is not None:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    seg = chunk_statistics(fit_threads(metric), chunk)
                table = table.append_column(score_field, pa.array(score_rows(metric, seg.stats), pa.float64()))
            yield table


def _shard_state(path: str, metric, hyp_field: str, ref_fields: list[str], chunk_rows: int):
    """Ray task: the summed statistics state of one shard and its warnings."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        totals = shard_totals(fit_threads(metric), path, hyp_field, ref_fields, chunk_rows=chunk_rows)
    return totals.state(), _recorded(caught)


# -- driver side ----------------------------------------------------------------------------------------
def _shard_message(exc: BaseException) -> str | None:
    """The message of the ShardError behind a Ray exception, if there is one."""
    seen = set()
    stack: list[BaseException | None] = [exc]
    while stack:
        e = stack.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        if isinstance(e, ShardError) and e.args:
            return str(e.args[0])
        stack.extend([getattr(e, "cause", None), e.__cause__, e.__context__])
    # Ray Data hands back the UDF's error only as the text of a remote traceback
    found = re.findall(r"ShardError: ([^\n]+)", str(exc))
    return found[-1] if found else None


def _failure(exc: BaseException, what: str) -> RayScoringError:
    msg = _shard_message(exc)
    if msg is None:
        first = str(exc).strip().splitlines()
        msg = f"{what}: {type(exc).__name__}: {first[-1] if first else ''}"
    return RayScoringError(f"{msg}; no score was produced")


def _reemit(messages) -> None:
    import importlib

    for item in sorted(set(messages)):
        name, _, text = item.partition("\t")
        module, _, qual = name.partition(":")
        category = UserWarning
        try:
            obj = importlib.import_module(module)
            for part in qual.split("."):
                obj = getattr(obj, part)
            if isinstance(obj, type) and issubclass(obj, Warning):
                category = obj
        except Exception:
            pass
        warnings.warn(text, category, stacklevel=3)


def _is_dataset(data) -> bool:
    try:
        from ray.data import Dataset
    except ImportError:
        return False
    return isinstance(data, Dataset)


def _check_fields(hyp_field, ref_field) -> list[str]:
    if not isinstance(hyp_field, str) or not hyp_field:
        raise ValueError(f"hyp_field must be a column name, got {hyp_field!r}")
    return ref_field_list(ref_field)


def _remote_args(num_cpus, max_retries) -> dict:
    if isinstance(max_retries, bool) or not isinstance(max_retries, int) or max_retries < 0:
        raise ValueError(f"max_retries must be a non-negative integer, got {max_retries!r}")
    if num_cpus is not None and (isinstance(num_cpus, bool) or not isinstance(num_cpus, (int, float))
                                 or num_cpus <= 0):
        raise ValueError(f"num_cpus must be a positive number, got {num_cpus!r}")
    return {"num_cpus": 1 if num_cpus is None else num_cpus, "max_retries": max_retries}


def _map_batches(ds, fn, *, max_retries: int, **options):
    """``ds.map_batches`` with a bounded number of retries of a task whose worker died. Ray Data retries such
    tasks forever by default, so a shard that kills its worker would hang the run. Ray 2.60 takes the limit
    only through the ``ray_remote_args`` it has deprecated (removed in 2.64): its warning is silenced here."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*ray_remote_args.*deprecated")
        return ds.map_batches(fn, batch_format="pyarrow", max_retries=max_retries, **options)


def corpus_totals(data, metric=None, *, hyp_field: str = "hyp", ref_field="ref", path_field: str | None = "path",
                  batch_size: int = BATCH_ROWS, chunk_rows: int = CHUNK_SEGMENTS, num_cpus: float | None = None,
                  max_in_flight: int | None = None, max_retries: int = MAX_RETRIES) -> Totals:
    """Summed statistics (:class:`~bleuscope.core.stats.Totals`) of a Ray Dataset or of shards.

    ``data``: a :class:`ray.data.Dataset`, or Parquet / JSON Lines paths or globs (one Ray task per shard,
    at most ``max_in_flight`` at once, default twice the cluster's CPUs). ``num_cpus``: CPUs reserved per
    task (default 1). A worker that dies is retried ``max_retries`` times, then the run fails."""
    ray = import_ray()
    metric = default_metric(metric)
    ref_fields = _check_fields(hyp_field, ref_field)
    remote = _remote_args(num_cpus, max_retries)
    if not ray.is_initialized():
        raise RayScoringError("Ray is not initialized: call ray.init(...) first (or use bleuscope --ray)")
    if _is_dataset(data):
        return _dataset_totals(data, metric, hyp_field, ref_fields, path_field, batch_size, remote)
    return _shards_totals(ray, expand_shards(data), metric, hyp_field, ref_fields, chunk_rows, max_in_flight,
                          remote)


def _dataset_totals(ds, metric, hyp_field, ref_fields, path_field, batch_size, remote) -> Totals:
    if ds.context.max_errored_blocks != 0:
        # a partial sum must never be scored as if it were the corpus
        raise RayScoringError(
            f"the Dataset's DataContext.max_errored_blocks is {ds.context.max_errored_blocks}: failed blocks "
            "would be skipped silently; set it to 0 to score a corpus")
    states = _map_batches(
        ds, batch_state, batch_size=batch_size,
        fn_kwargs={"metric": metric, "hyp_field": hyp_field, "ref_fields": ref_fields, "path_field": path_field},
        **remote,
    )
    total = None
    messages: list[str] = []
    try:
        for part in states.iter_batches(batch_format="pyarrow", batch_size=None):
            for state, warned in zip(part.column("state").to_pylist(), part.column("warnings").to_pylist()):
                t = Totals.from_state(np.asarray(state, dtype=np.int64))
                total = t if total is None else total + t
                messages.extend(warned)
    except Exception as e:
        raise _failure(e, "scoring the Dataset failed") from e
    _reemit(messages)
    if total is None:
        raise RayScoringError("the Dataset has no rows: nothing to score")
    return total


def _shards_totals(ray, paths, metric, hyp_field, ref_fields, chunk_rows, max_in_flight, remote) -> Totals:
    if max_in_flight is None:
        max_in_flight = max(2, 2 * int(ray.cluster_resources().get("CPU", 1)))
    elif isinstance(max_in_flight, bool) or not isinstance(max_in_flight, int) or max_in_flight < 1:
        raise ValueError(f"max_in_flight must be a positive integer, got {max_in_flight!r}")
    # spread the shards over the nodes (the default packs tasks onto the driver's node first)
    task = ray.remote(_shard_state).options(scheduling_strategy="SPREAD", **remote)
    metric_ref = ray.put(metric)
    pending: dict = {}
    states: dict[str, np.ndarray] = {}
    messages: list[str] = []
    todo = list(paths)
    try:
        while todo or pending:
            while todo and len(pending) < max_in_flight:
                path = todo.pop(0)
                pending[task.remote(path, metric_ref, hyp_field, ref_fields, chunk_rows)] = path
            done, _ = ray.wait(list(pending), num_returns=1)
            for ref in done:
                path = pending.pop(ref)
                try:
                    state, warned = ray.get(ref)
                except Exception as e:
                    msg = _shard_message(e)
                    if msg is None:
                        lines = str(e).strip().splitlines()
                        msg = f"{path}: the worker failed: {type(e).__name__}: {lines[-1] if lines else ''}"
                    raise RayScoringError(f"{msg}; no score was produced") from e
                states[path] = state
                messages.extend(warned)
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)
    total = None
    for path in paths:  # fixed order (integer sums do not depend on it, the shard list does)
        t = Totals.from_state(states[path])
        total = t if total is None else total + t
    _reemit(messages)
    if total is None or total.segments == 0:
        raise RayScoringError(f"the {len(paths)} shard(s) hold no rows: nothing to score")
    return total


def corpus_score(data, metric=None, *, hyp_field: str = "hyp", ref_field="ref", **options):
    """Corpus score of a Ray Dataset or of Parquet / JSON Lines shards: the metric's score of the exactly
    summed statistics, identical to ``metric.corpus_score`` on the same rows. ``options`` as in
    :func:`corpus_totals`."""
    metric = default_metric(metric)
    return corpus_totals(data, metric, hyp_field=hyp_field, ref_field=ref_field, **options).score(metric)


def sentence_scores(data, metric=None, *, hyp_field: str = "hyp", ref_field="ref", score_field: str | None = None,
                    path_field: str | None = "path", batch_size: int = BATCH_ROWS, chunk_rows: int = CHUNK_SEGMENTS,
                    keep_columns: bool = True, num_cpus: float | None = None, max_retries: int = MAX_RETRIES):
    """A lazy Ray Dataset: the rows of ``data`` with a float64 column of sentence scores (``score_field``,
    default the metric's name, e.g. ``"BLEU"``), for filtering (``.filter(expr=...)``) or writing out.

    For a Dataset, its columns are kept. For shards, the rows carry ``path`` and ``row`` (position in the
    shard, from 0); Parquet shards keep all their columns (``keep_columns``), JSON Lines shards give the
    hypothesis and reference fields (references as lists of strings). Errors surface when the Dataset is
    consumed, as Ray errors whose message names the shard."""
    import_ray()
    metric = default_metric(metric)
    ref_fields = _check_fields(hyp_field, ref_field)
    remote = _remote_args(num_cpus, max_retries)
    if score_field is None:
        score_field = metric.name
    if score_field in (hyp_field, *ref_fields, "path", "row"):
        raise ValueError(f"score_field {score_field!r} would overwrite a column; choose another name")
    if _is_dataset(data):
        return _map_batches(
            data, batch_sentence_scores, batch_size=batch_size, udf_modifying_row_count=False,
            fn_kwargs={"metric": metric, "hyp_field": hyp_field, "ref_fields": ref_fields,
                       "path_field": path_field, "score_field": score_field},
            **remote,
        )
    return read_shards(data, hyp_field=hyp_field, ref_field=ref_field, keep_columns=keep_columns,
                       chunk_rows=chunk_rows, _score=(metric, score_field), num_cpus=num_cpus,
                       max_retries=max_retries)


def read_shards(shards, *, hyp_field: str = "hyp", ref_field="ref", keep_columns: bool = True,
                chunk_rows: int = CHUNK_SEGMENTS, num_cpus: float | None = None, max_retries: int = MAX_RETRIES,
                _score=None):
    """A lazy Ray Dataset of the rows of Parquet / JSON Lines shards, read one shard per task with each
    shard's schema checked (see the module docstring), with ``path`` and ``row`` columns."""
    ray = import_ray()
    ref_fields = _check_fields(hyp_field, ref_field)
    remote = _remote_args(num_cpus, max_retries)
    paths = expand_shards(shards)
    metric, score_field = _score if _score is not None else (None, None)
    items = ray.data.from_items([{"path": p} for p in paths], override_num_blocks=len(paths))
    return _map_batches(
        items, shard_rows, batch_size=1,
        fn_kwargs={"metric": metric, "hyp_field": hyp_field, "ref_fields": ref_fields, "score_field": score_field,
                   "chunk_rows": chunk_rows, "keep_columns": keep_columns},
        **remote,
    )


# -- reward scoring: a scorer held by an actor ----------------------------------------------------------
class Scorer:
    """Holds a scorer (a :class:`~bleuscope.metrics.base.SentenceScorer`: any metric such as
    :class:`~bleuscope.BLEU`, or :class:`~bleuscope.TokenBLEU`) and scores batches with it; made a Ray actor
    by :func:`scorer_actor` / :func:`scorer_pool`. Results are those of the same calls on the scorer in this
    process (the same code on the same inputs)."""

    def __init__(self, scorer: SentenceScorer) -> None:
        self.scorer = fit_threads(scorer)

    def sentence_scores(self, hypotheses, references, **kwargs) -> np.ndarray:
        """float64 per row: the scorer's ``sentence_scores`` (a batch of scores is array-like)."""
        return np.asarray(self.scorer.sentence_scores(hypotheses, references, **kwargs), dtype=np.float64)

    def corpus_score(self, hypotheses, references, **kwargs):
        return self.scorer.corpus_score(hypotheses, references, **kwargs)

    def ready(self) -> bool:
        return True


def scorer_actor(scorer, *, num_cpus: float = 1, **actor_options):
    """One Ray actor holding ``scorer``: ``ray.get(actor.sentence_scores.remote(hyps, refs))``.

    ``num_cpus`` is the CPU share the actor reserves for its whole life; other ``actor_options`` go to
    ``ray.remote`` (e.g. ``max_restarts``)."""
    ray = import_ray()
    if isinstance(num_cpus, bool) or not isinstance(num_cpus, (int, float)) or num_cpus < 0:
        raise ValueError(f"num_cpus must be a non-negative number, got {num_cpus!r}")
    return ray.remote(Scorer).options(num_cpus=num_cpus, **actor_options).remote(scorer)


def scorer_pool(scorer, *, num_actors: int = 1, num_cpus: float = 1, **actor_options):
    """A :class:`ray.util.ActorPool` of ``num_actors`` scorer actors (each reserving ``num_cpus``):
    ``list(pool.map(lambda a, b: a.sentence_scores.remote(*b), batches))`` gives the scores in order.

    Leave CPUs for the rest of the job: actors hold their CPUs while idle, so a pool taking every CPU
    leaves no slot for the tasks that read and prepare the batches."""
    ray = import_ray()
    from ray.util import ActorPool

    if isinstance(num_actors, bool) or not isinstance(num_actors, int) or num_actors < 1:
        raise ValueError(f"num_actors must be a positive integer, got {num_actors!r}")
    actors = [scorer_actor(scorer, num_cpus=num_cpus, **actor_options) for _ in range(num_actors)]
    ray.get([a.ready.remote() for a in actors])
    return ActorPool(actors)


# -- connecting (the command line) ------------------------------------------------------------------------
def _check_reachable(address: str, timeout: float = 10.0) -> None:
    """A ``HOST:PORT`` address must accept a connection: ``ray.init`` would otherwise retry for minutes."""
    import socket

    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in address:
        return  # "local", "auto", ray:// client addresses: left to ray.init
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as e:
        raise RayScoringError(f"cannot connect to Ray at {address!r}: {e}") from None


class ray_session:
    """Context manager: connect to the Ray cluster at ``address`` (``"local"`` starts one in this process,
    ``"auto"`` finds a running one), or use the one already initialized; shut down only what it started."""

    def __init__(self, address: str = "local", **init_options) -> None:
        self.address = address
        self.init_options = init_options
        self._started = False

    def __enter__(self):
        ray = import_ray()
        if not ray.is_initialized():
            _check_reachable(self.address)
            options = {"include_dashboard": False, "log_to_driver": False, "logging_level": "ERROR"}
            options.update(self.init_options)
            try:
                ray.init(address=self.address, **options)
            except Exception as e:
                raise RayScoringError(f"cannot connect to Ray at {self.address!r}: {type(e).__name__}: {e}") from e
            self._started = True
        return ray

    def __exit__(self, *exc) -> None:
        if self._started:
            import ray

            ray.shutdown()


__all__ = [
    "RayScoringError",
    "Scorer",
    "corpus_score",
    "corpus_totals",
    "import_ray",
    "ray_session",
    "read_shards",
    "scorer_actor",
    "scorer_pool",
    "sentence_scores",
]

