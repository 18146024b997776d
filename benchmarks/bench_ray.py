"""Corpus BLEU of a sharded corpus on Ray against bleuscope in one local process, on the same Parquet shards.

The corpus is ``../shared/tools/make_corpus.py`` (1,000,000 aligned lines, 100,000 with ``--quick``), written
once as 16 Parquet shards under /tmp/bleuscope-bench-ray. Tools (all read the same shards):

* ``bleuscope``: ``bleuscope.runtime.shards.corpus_score_shards`` in this process (pyarrow, one shard after
  another): the reference row;
* ``ray, 1 worker`` / ``ray, 2 workers``: ``bleuscope.runtime.ray.corpus_score`` on a local Ray started with
  ``num_cpus=1`` / ``2`` (one task per shard); the start-up of Ray is not in the time, it is in the note;
* ``ray Dataset, 2 workers``: the same shards read by Ray Data (``ray.data.read_parquet``), scored with
  ``map_batches`` over its blocks;
* ``ray, 2 nodes x 1 CPU``: a head node and a worker node started with ``ray start`` on this machine (the
  simulated two-node cluster), the driver connected to the head.

Every Ray score is checked against the local one (the same float, bit for bit) before it is reported. On a
2-core machine Ray cannot beat one process: the tasks share the same two cores with Ray's own processes.

    python benchmarks/bench_ray.py [--quick]

``run(quick)`` returns rows ``{"task", "tool", "seconds", "peak_mb", "note"}`` (no memory figure: the work
happens in other processes).
"""

from __future__ import annotations

import os
import secrets
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAKE_CORPUS = HERE.parents[1] / "shared" / "tools" / "make_corpus.py"
WORK = Path("/tmp/bleuscope-bench-ray")
SHARDS = 16

# token authentication with a token of this run's own (nothing written to ~/.ray), set before ray is imported
os.environ.setdefault("RAY_AUTH_MODE", "token")
if os.environ["RAY_AUTH_MODE"] == "token":
    os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")


def _read(path: Path) -> list[str]:
    data = path.read_text(encoding="utf-8")
    return (data[:-1] if data.endswith("\n") else data).split("\n")


def make_shards(lines: int) -> list[str]:
    """The corpus as ``SHARDS`` Parquet shards (hyp, ref columns); reused when already written."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    out = WORK / f"shards_{lines}"
    paths = [str(out / f"part-{i:02d}.parquet") for i in range(SHARDS)]
    if all(os.path.exists(p) for p in paths):
        return paths
    corpus = WORK / f"corpus_{lines}"
    subprocess.run([sys.executable, str(MAKE_CORPUS), str(corpus), str(lines)], check=True,
                   stdout=subprocess.DEVNULL)
    hyps, refs = _read(corpus / "hyp.txt"), _read(corpus / "ref.txt")
    assert len(hyps) == len(refs) == lines
    out.mkdir(parents=True, exist_ok=True)
    step = -(-lines // SHARDS)
    for i, path in enumerate(paths):
        a, b = i * step, min(lines, (i + 1) * step)
        pq.write_table(pa.table({"hyp": hyps[a:b], "ref": refs[a:b]}), path + ".tmp")
        os.replace(path + ".tmp", path)
    return paths


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen) -> None:
    for sig, wait in ((signal.SIGTERM, 3), (signal.SIGKILL, 10)):  # a head node lingers ~15 s after SIGTERM
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _timed_ray(ray, paths, expected, *, dataset: bool = False, **init) -> tuple[float, float]:
    """(start-up seconds, scoring seconds) of corpus_score on a Ray runtime from ``ray.init(**init)``; with
    ``dataset`` the shards are read by Ray Data (``read_parquet``) instead of one bleuscope task per shard."""
    from bleuscope import BLEU
    from bleuscope.runtime.ray import corpus_score

    t0 = time.perf_counter()
    ray.init(include_dashboard=False, logging_level="ERROR", log_to_driver=False, **init)
    ray.data.DataContext.get_current().enable_progress_bars = False
    try:
        if "address" in init and init["address"] != "local":
            for _ in range(240):  # the worker node registers and reports its CPU
                if ray.available_resources().get("CPU", 0) >= 2:
                    break
                time.sleep(0.25)
        started = time.perf_counter() - t0
        t1 = time.perf_counter()
        data = ray.data.read_parquet(paths) if dataset else paths
        score = corpus_score(data, BLEU())
        seconds = time.perf_counter() - t1
    finally:
        ray.shutdown()
    if score.score != expected.score or score.counts != expected.counts or score.totals != expected.totals:
        raise AssertionError(f"Ray score {score} differs from the local one {expected}")
    return started, seconds


def run(quick: bool = False) -> list[dict]:
    import ray
    import ray.data

    from bleuscope import BLEU
    from bleuscope.runtime.shards import corpus_score_shards

    lines = 100_000 if quick else 1_000_000
    paths = make_shards(lines)
    task = f"corpus BLEU, {lines:,} rows in {SHARDS} Parquet shards"
    rows = []

    t0 = time.perf_counter()
    local = corpus_score_shards(paths, BLEU())
    rows.append({"task": task, "tool": "bleuscope", "seconds": time.perf_counter() - t0,
                 "note": f"one process, pyarrow reader; BLEU = {local.score:.4f}"})

    for cpus in (1, 2):
        started, seconds = _timed_ray(ray, paths, local, address="local", num_cpus=cpus,
                                      object_store_memory=200 * 2**20)
        rows.append({"task": task, "tool": f"ray, {cpus} worker{'s' if cpus > 1 else ''}", "seconds": seconds,
                     "note": f"local Ray, num_cpus={cpus}; start-up {started:.1f} s not included; score identical"})

    started, seconds = _timed_ray(ray, paths, local, dataset=True, address="local", num_cpus=2,
                                  object_store_memory=200 * 2**20)
    rows.append({"task": task, "tool": "ray Dataset, 2 workers", "seconds": seconds,
                 "note": f"ray.data.read_parquet + map_batches; start-up {started:.1f} s not included; "
                         "score identical"})

    port = _free_port()
    temp = Path("/tmp") / f"bs-bench-ray-{secrets.token_hex(3)}"
    common = ["--num-cpus=1", "--object-store-memory=200000000", "--block", "--disable-usage-stats"]
    cli = [sys.executable, "-m", "ray.scripts.scripts", "start"]
    procs = []
    try:
        procs.append(subprocess.Popen(cli + ["--head", f"--port={port}", "--include-dashboard=false",
                                             f"--temp-dir={temp}", *common], start_new_session=True,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError("the head node did not start") from None
                time.sleep(0.3)
        procs.append(subprocess.Popen(cli + [f"--address=127.0.0.1:{port}", *common], start_new_session=True,
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
        started, seconds = _timed_ray(ray, paths, local, address=f"127.0.0.1:{port}")
        rows.append({"task": task, "tool": "ray, 2 nodes x 1 CPU", "seconds": seconds,
                     "note": f"`ray start` head + worker node on this machine; connect {started:.1f} s not "
                             "included; score identical"})
    finally:
        for p in reversed(procs):
            _stop(p)
        subprocess.run(["rm", "-rf", str(temp)], check=False)
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    from bench import machine, standalone_main

    standalone_main(run, __doc__.splitlines()[0], "100,000 rows instead of 1,000,000")
    print(machine())
