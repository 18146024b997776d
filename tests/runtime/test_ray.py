"""Scoring on Ray (bleuscope.runtime.ray), the shard readers (bleuscope.runtime.shards) and the command's
``--ray``.

Distributed scores must equal local ones exactly: same statistics, summed as integers, scored once. One local
Ray runtime serves every Ray test of the test run (``local_ray`` of tests/conftest.py; starting one takes
seconds); the two-node test starts its own cluster with ``ray start`` in subprocesses.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuscope
from bleuscope import BLEU, TokenBLEU

from ..conftest import DATA, RAY_OBJECT_STORE_BYTES, read_lines, requires_wmt

pa = pytest.importorskip("pyarrow", reason='pyarrow is not installed (pip install "bleuscope[parquet]")')
pq = pytest.importorskip("pyarrow.parquet", reason="pyarrow.parquet is not available")

from bleuscope.core.stats import Totals  # noqa: E402
from bleuscope.runtime import shards  # noqa: E402
from bleuscope.runtime.shards import ShardError  # noqa: E402

# (tests/conftest.py sets Ray's authentication variables before this import)
try:
    import ray
    import ray.data

    from bleuscope.runtime import ray as bray
    from bleuscope.runtime.ray import RayScoringError
except ImportError:  # the shard-reader tests still run
    ray = None

needs_ray = pytest.mark.skipif(ray is None, reason='ray is not installed (pip install "bleuscope[ray]")')



# -- data ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def ende():
    if not (DATA / "generaltest2022" / "en-de").is_dir():
        pytest.skip("../shared/data/mt not found")
    d = DATA / "generaltest2022" / "en-de"
    return (read_lines(d / "sys" / "Online-B.txt"), read_lines(d / "ref.A.txt"), read_lines(d / "ref.B.txt"))


CUTS = [0, 300, 301, 1200, 2037]  # uneven shards, one of a single row


@pytest.fixture(scope="module")
def shard_dir(tmp_path_factory, ende):
    """WMT22 en-de Online-B in 4 Parquet shards (string and large_string columns, two reference columns)
    and the same rows in 4 JSON Lines shards (references as a list per row)."""
    hyps, ra, rb = ende
    root = tmp_path_factory.mktemp("shards")
    for i, (a, b) in enumerate(zip(CUTS, CUTS[1:])):
        kind = pa.large_string() if i % 2 else pa.string()
        table = pa.table({"id": np.arange(a, b), "hyp": pa.array(hyps[a:b], kind), "ref": pa.array(ra[a:b], kind),
                          "ref_b": pa.array(rb[a:b], pa.string())})
        pq.write_table(table, root / f"part-{i}.parquet", row_group_size=250)
        with open(root / f"part-{i}.jsonl", "w", encoding="utf-8") as f:
            for h, x, y in zip(hyps[a:b], ra[a:b], rb[a:b]):
                f.write(json.dumps({"hyp": h, "refs": [x, y]}, ensure_ascii=False) + "\n")
    return root


# -- shard readers (no Ray) -----------------------------------------------------------------------------------
@requires_wmt
def test_local_shards_equal_in_memory(shard_dir, ende):
    hyps, ra, rb = ende
    expected = BLEU().corpus_score(hyps, [ra, rb])
    import sacrebleu

    assert expected.score == sacrebleu.corpus_bleu(hyps, [ra, rb]).score
    parquet = shards.corpus_score_shards(str(shard_dir / "*.parquet"), hyp_field="hyp", ref_field=["ref", "ref_b"],
                                         chunk_rows=128)
    jsonl = shards.corpus_score_shards(sorted(shard_dir.glob("*.jsonl")), BLEU(), ref_field="refs")
    for got in (parquet, jsonl):
        assert got.score == expected.score
        assert (got.counts, got.totals, got.sys_len, got.ref_len) == (
            expected.counts, expected.totals, expected.sys_len, expected.ref_len)
    totals = shards.corpus_totals_shards(shard_dir / "*.jsonl", ref_field="refs")
    assert totals.segments == len(hyps) and totals.nrefs() == "2"
    assert len(shards.expand_shards(shard_dir / "*.jsonl")) == 4  # every shard was read: the sums above


def test_totals_state_round_trip_and_nrefs_var():
    bleu = BLEU()
    a = Totals.of(bleu.segment_statistics(["a b c", "d e"], [["a b c", "d"], ["a b", None]]))
    b = Totals.of(bleu.segment_statistics(["x y"], [["x y"]]))
    both = Totals.from_state(a.state() + b.state())
    assert both.segments == 3 and both.nrefs() == "var"
    local = bleu.corpus_score(["a b c", "d e", "x y"], [["a b c", "d", "x y"], ["a b", None, None]])
    assert both.score(bleu).score == local.score
    assert (a + b).state().tolist() == both.state().tolist()
    with pytest.raises(ValueError, match="columns"):
        a + Totals.of(BLEU(max_ngram_order=2).segment_statistics(["a"], [["a"]]))


@requires_wmt
@settings(max_examples=15, deadline=None)
@given(cuts=st.lists(st.integers(0, 60), max_size=4), chunk_rows=st.integers(1, 70),
       missing=st.sets(st.integers(0, 59), max_size=20), as_jsonl=st.booleans())
def test_any_sharding_and_chunking_gives_the_in_memory_score(cuts, chunk_rows, missing, as_jsonl):
    d = DATA / "generaltest2022" / "de-en"
    hyps = read_lines(d / "sys" / "Online-A.txt")[:60]
    ra, rb = read_lines(d / "ref.A.txt")[:60], read_lines(d / "ref.B.txt")[:60]
    rb = [None if i in missing else r for i, r in enumerate(rb)]
    bounds = sorted({0, 60, *cuts})
    bleu = BLEU(smooth_method="floor")
    expected = bleu.corpus_score(hyps, [ra, rb])
    with tempfile.TemporaryDirectory() as tmp:
        for i, (a, b) in enumerate(zip(bounds, bounds[1:])):
            if as_jsonl:
                with open(f"{tmp}/s{i}.jsonl", "w", encoding="utf-8") as f:
                    for h, x, y in zip(hyps[a:b], ra[a:b], rb[a:b]):
                        f.write(json.dumps({"h": h, "r": x, "r2": y}) + "\n")
            else:
                pq.write_table(pa.table({"h": hyps[a:b], "r": ra[a:b], "r2": pa.array(rb[a:b], pa.large_string())}),
                               f"{tmp}/s{i}.parquet")
        totals = shards.corpus_totals_shards(f"{tmp}/s*", bleu, hyp_field="h", ref_field=["r", "r2"],
                                             chunk_rows=chunk_rows)
    got = totals.score(bleu)
    assert (got.score, got.counts, got.totals, got.ref_len) == (expected.score, expected.counts, expected.totals,
                                                                 expected.ref_len)
    assert got.signature == expected.signature and totals.segments == 60


def _write(path: Path, table) -> str:
    pq.write_table(table, path)
    return str(path)


def test_shard_errors_name_the_shard(tmp_path):
    good = _write(tmp_path / "a.parquet", pa.table({"hyp": ["a b"], "ref": ["a b"]}))
    no_ref = _write(tmp_path / "b.parquet", pa.table({"hyp": ["a"], "reference": ["a"]}))
    ints = _write(tmp_path / "c.parquet", pa.table({"hyp": ["a"], "ref": [3]}))
    null_hyp = _write(tmp_path / "d.parquet", pa.table({"hyp": ["a", None], "ref": ["a", "b"]}))
    no_refs = _write(tmp_path / "e.parquet", pa.table({"hyp": ["a", "b"], "ref": pa.array([["a"], [None]])}))
    assert shards.corpus_score_shards(good).score == BLEU().corpus_score(["a b"], [["a b"]]).score
    cases = [
        (no_ref, r"b\.parquet: no column 'ref' \(ref_field / --ref-field\); the shard has: 'hyp', 'reference'"),
        (ints, r"c\.parquet: reference column 'ref' has type int64, expected strings or lists of strings"),
        (null_hyp, r"d\.parquet: row 1 \(counting from 0\): the hypothesis is null"),
        (no_refs, r"e\.parquet: row 1 \(counting from 0\): the row has no reference"),
    ]
    for bad, pattern in cases:
        with pytest.raises(ShardError, match=pattern):
            shards.corpus_score_shards([good, bad])
    jsonl = tmp_path / "f.jsonl"
    jsonl.write_text('{"hyp": "a", "ref": "a"}\n{"hyp": "b", "ref": 5}\n', encoding="utf-8")
    with pytest.raises(ShardError, match=r"f\.jsonl:2: field 'ref' must be a string or a list of strings, "
                                         "found a number"):
        shards.corpus_score_shards(jsonl)
    jsonl.write_text('{"hyp": "a", "ref": "a"}\n{"hyp": "b"}\n', encoding="utf-8")
    with pytest.raises(ShardError, match=r"f\.jsonl:2: no field 'ref' \(--ref-field\); the object has: 'hyp'"):
        shards.corpus_score_shards(jsonl)
    jsonl.write_text('{"hyp": "a", "ref": "a"}\n{"hyp": "b", "ref": "b"\n', encoding="utf-8")
    with pytest.raises(ShardError, match=r"f\.jsonl:2: invalid JSON"):
        shards.corpus_score_shards(jsonl)
    with pytest.raises(ShardError, match="no file matches"):
        shards.expand_shards(str(tmp_path / "nothing-*.parquet"))
    with pytest.raises(ShardError, match="given twice"):
        shards.expand_shards([good, str(tmp_path / "*.parquet")])
    (tmp_path / "x.csv").write_text("hyp,ref\n", encoding="utf-8")
    with pytest.raises(ShardError, match="unknown shard format"):
        shards.expand_shards(tmp_path / "x.csv")


# -- two nodes on one machine ----------------------------------------------------------------------------------
def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _ray_cli() -> list[str]:
    return [sys.executable, "-m", "ray.scripts.scripts"]


TWO_NODE_SCRIPT = textwrap.dedent("""
    import json, os, sys, time, ray
    from bleuscope import BLEU
    from bleuscope.runtime.ray import corpus_score

    address, shard_glob, marks = sys.argv[1:4]

    class NodeMarkingBLEU(BLEU):
        # records which node counted each shard's chunks (a file per node id in `marks`). A task waits until
        # both nodes have marked (for at most 60 s after scoring began): it holds its node's only CPU meanwhile,
        # so the scheduler must place another task on the other node. A pause alone was not enough on a loaded
        # machine, where a warm worker on one node took every task before the other node's worker started.
        def segment_statistics(self, hypotheses, references, **kw):
            node = ray.get_runtime_context().get_node_id()
            with open(os.path.join(marks, node), "a") as f:
                f.write(f"{len(hypotheses)}\\n")
            while len(os.listdir(marks)) < 2 and time.time() < deadline:
                time.sleep(0.05)
            return super().segment_statistics(hypotheses, references, **kw)

    ray.init(address=address, logging_level="ERROR", log_to_driver=False)
    for _ in range(240):  # the worker node may still be registering and reporting its CPU
        alive = [n for n in ray.nodes() if n["Alive"]]
        if len(alive) == 2 and ray.available_resources().get("CPU", 0) >= 2:
            break
        time.sleep(0.25)
    deadline = time.time() + 60  # a module global: the tasks' copies of the class read it
    score = corpus_score(shard_glob, NodeMarkingBLEU(), ref_field=["ref", "ref_b"], chunk_rows=200)
    print(json.dumps({"nodes": len(alive), "score": score.score, "counts": score.counts,
                      "sys_len": score.sys_len, "ref_len": score.ref_len}))
    ray.shutdown()
""")


@needs_ray
@requires_wmt
def test_two_nodes_equal_local(shard_dir, ende, tmp_path):
    """A head node and a worker node (1 CPU each), started with `ray start`, score the shards across both."""
    env = dict(os.environ)
    port = _free_port()
    temp = Path("/tmp") / f"bs-ray-{secrets.token_hex(4)}"  # short: Ray's socket paths must stay < 108 bytes
    common = ["--num-cpus=1", f"--object-store-memory={RAY_OBJECT_STORE_BYTES}", "--block", "--disable-usage-stats"]
    procs = []
    try:
        head = subprocess.Popen(_ray_cli() + ["start", "--head", f"--port={port}", "--include-dashboard=false",
                                              f"--temp-dir={temp}", *common], env=env, start_new_session=True,
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(head)
        address = f"127.0.0.1:{port}"
        _wait_for_gcs(address, head)
        worker = subprocess.Popen(_ray_cli() + ["start", f"--address={address}", *common], env=env,
                                  start_new_session=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        procs.append(worker)
        marks = tmp_path / "marks"
        marks.mkdir()
        script = tmp_path / "two_nodes.py"
        script.write_text(TWO_NODE_SCRIPT, encoding="utf-8")
        out = subprocess.run([sys.executable, str(script), address, str(shard_dir / "*.parquet"), str(marks)],
                             env=env, capture_output=True, text=True, timeout=240)
        assert out.returncode == 0, out.stderr[-3000:]
        result = json.loads(out.stdout.strip().splitlines()[-1])
        assert result["nodes"] == 2
        hyps, ra, rb = ende
        local = BLEU().corpus_score(hyps, [ra, rb])
        assert (result["score"], result["counts"], result["sys_len"], result["ref_len"]) == (
            local.score, local.counts, local.sys_len, local.ref_len)
        counted = {f.name: sum(map(int, f.read_text().split())) for f in marks.iterdir()}
        assert sum(counted.values()) == len(hyps)
        assert len(counted) == 2, f"all shards were counted on one node: {counted}"
    finally:
        # `ray start --block` stops its node's processes when terminated; the worker node goes first, as its
        # raylet waits a long time for a head node that is already gone
        for p in reversed(procs):
            _stop_group(p)
        shutil.rmtree(temp, ignore_errors=True)


def _stop_group(proc: subprocess.Popen) -> None:
    """Stop a process group this test started (its leader and the node processes it spawned). A head node's
    `ray start --block` takes about 15 s to finish after SIGTERM; its processes are test scratch, so they get
    SIGKILL after a short grace period."""
    for sig, wait in ((signal.SIGTERM, 3), (signal.SIGKILL, 10)):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=wait)
            return
        except subprocess.TimeoutExpired:
            continue


def _wait_for_gcs(address: str, head: subprocess.Popen, timeout: float = 60) -> None:
    host, port = address.split(":")
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if head.poll() is not None:
            raise AssertionError(f"ray start --head exited: {head.stderr.read().decode()[-2000:]}")
        try:
            with socket.create_connection((host, int(port)), timeout=1):
                return
        except OSError:
            time.sleep(0.5)
    raise AssertionError("the head node's GCS did not come up")


# -- on the local Ray runtime of tests/conftest.py (local_ray) -------------------------------------------------
@needs_ray
@requires_wmt
def test_corpus_score_equals_local(local_ray, shard_dir, ende):
    hyps, ra, rb = ende
    local = BLEU().corpus_score(hyps, [ra, rb])
    ds = ray.data.read_parquet(str(shard_dir), include_paths=True)
    results = [
        bray.corpus_score(ds, ref_field=["ref", "ref_b"], batch_size=500),
        bray.corpus_score(str(shard_dir / "*.parquet"), BLEU(), ref_field=["ref", "ref_b"], chunk_rows=300),
        bray.corpus_score(sorted(shard_dir.glob("*.jsonl")), ref_field="refs", max_in_flight=2),
    ]
    for got in results:
        assert got.score == local.score
        assert (got.counts, got.totals, got.bp, got.sys_len, got.ref_len) == (
            local.counts, local.totals, local.bp, local.sys_len, local.ref_len)
        assert got.signature == local.signature


@needs_ray
@requires_wmt
def test_other_settings_and_variable_references(local_ray, tmp_path):
    """en-zh with the zh tokenizer, floor smoothing and order 3; every 7th row lacks its second reference."""
    d = DATA / "generaltest2022" / "en-zh"
    hyps = read_lines(d / "sys" / "Online-B.txt")
    ra, rb = read_lines(d / "ref.A.txt"), read_lines(d / "ref.B.txt")
    rb = [None if i % 7 == 0 else r for i, r in enumerate(rb)]
    pq.write_table(pa.table({"hyp": hyps, "refs": [[a] if b is None else [a, b] for a, b in zip(ra, rb)]}),
                   tmp_path / "zh.parquet", row_group_size=400)
    bleu = BLEU(tokenize="zh", smooth_method="floor", max_ngram_order=3)
    local = bleu.corpus_score(hyps, [ra, rb])
    ds = ray.data.read_parquet(str(tmp_path / "zh.parquet"))
    got = bray.corpus_score(ds, BLEU(tokenize="zh", smooth_method="floor", max_ngram_order=3), ref_field="refs",
                            batch_size=700)
    assert got.score == local.score and got.counts == local.counts
    assert "nrefs:var" in got.signature and got.signature == local.signature
    sent = bray.sentence_scores(ds, bleu, ref_field="refs", score_field="bleu", batch_size=600).to_pandas()
    assert np.array_equal(sent["bleu"].to_numpy(), bleu.sentence_scores(hyps, [ra, rb]).scores)


@needs_ray
@requires_wmt
def test_chrf_and_ter_equal_local(local_ray, shard_dir, ende):
    """The same machinery for the other additive metrics: chrF++ (24 statistics) and TER (2)."""
    n = CUTS[2]  # the first two shards (the reference implementations of chrF and TER are slow)
    hyps, ra, rb = (x[:n] for x in ende)
    first = [str(shard_dir / "part-0.parquet"), str(shard_dir / "part-1.parquet")]
    for metric in (bleuscope.CHRF(word_order=2), bleuscope.TER()):
        local = metric.corpus_score(hyps, [ra, rb])
        got = bray.corpus_score(first, metric, ref_field=["ref", "ref_b"])
        assert got.score == local.score and got.signature == local.signature
    ter = bleuscope.TER()
    ds = ray.data.read_parquet(first, include_paths=True)
    rows = bray.sentence_scores(ds, ter, ref_field=["ref", "ref_b"]).to_pandas().sort_values("id")
    assert np.array_equal(rows["TER"].to_numpy(), np.asarray(ter.sentence_scores(hyps, [ra, rb]).scores))


@needs_ray
@requires_wmt
def test_sentence_scores_written_back(local_ray, shard_dir, ende):
    hyps, ra, rb = ende
    bleu = BLEU(effective_order=True)
    local = bleu.sentence_scores(hyps, [ra, rb]).scores
    ds = ray.data.read_parquet(str(shard_dir), include_paths=True)
    scored = bray.sentence_scores(ds, bleu, ref_field=["ref", "ref_b"], score_field="sbleu")
    table = scored.to_pandas().sort_values("id")
    assert list(table.columns) == ["id", "hyp", "ref", "ref_b", "path", "sbleu"]
    assert np.array_equal(table["sbleu"].to_numpy(), local)
    kept = scored.filter(lambda row: row["sbleu"] >= 40).count()
    assert kept == int((local >= 40).sum())

    rows = bray.sentence_scores(str(shard_dir / "*.jsonl"), bleu, ref_field="refs", score_field="sbleu").to_pandas()
    rows = rows.sort_values(["path", "row"], key=lambda c: c.map(_shard_key) if c.name == "path" else c)
    assert np.array_equal(rows["sbleu"].to_numpy(), local)
    assert list(rows["refs"].iloc[0]) == [ra[0], rb[0]]
    parquet = bray.sentence_scores(str(shard_dir / "*.parquet"), bleu, ref_field=["ref", "ref_b"],
                                   score_field="sbleu").to_pandas().sort_values("id")
    assert list(parquet.columns) == ["id", "hyp", "ref", "ref_b", "path", "row", "sbleu"]
    assert np.array_equal(parquet["sbleu"].to_numpy(), local)


def _shard_key(path: str) -> int:
    return int(Path(path).stem.split("-")[1])


@needs_ray
@requires_wmt
def test_scorer_actors_equal_local_calls(local_ray, ende):
    hyps, ra, rb = ende
    batches = [(hyps[a:b], [ra[a:b], rb[a:b]]) for a, b in zip(CUTS, CUTS[1:])]
    bleu = BLEU(effective_order=True)
    pool = bray.scorer_pool(bleu, num_actors=1, num_cpus=1)  # leaves one CPU of two to other tasks
    # the compiled counter runs on the one CPU the actor holds, not on a thread per core
    probe = bray.scorer_actor(BLEU(), num_cpus=1)
    assert ray.get(probe.__ray_call__.remote(lambda self: self.scorer.threads)) == 1
    ray.kill(probe)
    got = list(pool.map(lambda actor, batch: actor.sentence_scores.remote(*batch), batches))
    for (h, r), scores in zip(batches, got):
        assert np.array_equal(scores, bleu.sentence_scores(h, r).scores)

    rng = np.random.default_rng(5)
    ids = rng.integers(1, 50, size=(64, 40))
    refs = rng.integers(1, 50, size=(64, 2, 40))
    refs[:, :, 30:] = 0
    tb = TokenBLEU(pad_id=0, effective_order=True)
    actor = bray.scorer_actor(tb, num_cpus=0.5)
    remote = ray.get(actor.sentence_scores.remote(ids, refs))
    assert remote.dtype == np.float64 and np.array_equal(remote, tb.sentence_scores(ids, refs))
    corpus = ray.get(actor.corpus_score.remote(ids, refs))
    assert corpus.score == tb.corpus_score(ids, refs).score
    ray.kill(actor)


@needs_ray
def test_errors_name_the_shard(local_ray, tmp_path):
    good = _write(tmp_path / "good.parquet", pa.table({"hyp": ["a b c"] * 3, "ref": ["a b c"] * 3}))
    _write(tmp_path / "other.parquet", pa.table({"hyp": ["a b"], "reference": ["a b"]}))
    with pytest.raises(RayScoringError, match=r"other\.parquet: no column 'ref' .*; no score was produced"):
        bray.corpus_score(str(tmp_path / "*.parquet"))
    # Ray Data's reader turns the missing column into nulls: the error still names the shard
    ds = ray.data.read_parquet(str(tmp_path), include_paths=True)
    with pytest.raises(RayScoringError, match=r"other\.parquet.*no reference.*Ray Data read it as nulls"):
        bray.corpus_score(ds)
    with pytest.raises(RayScoringError, match="no column 'refs'"):
        bray.corpus_score(ray.data.read_parquet(good), ref_field="refs")
    # a shard whose column has another type
    (tmp_path / "other.parquet").unlink()
    _write(tmp_path / "typed.parquet", pa.table({"hyp": [1, 2], "ref": ["a", "b"]}))
    with pytest.raises(RayScoringError, match=r"typed\.parquet: hypothesis column 'hyp' has type int64"):
        bray.corpus_score([good, str(tmp_path / "typed.parquet")])
    # scored rows never overwrite a column of the shard
    _write(tmp_path / "has_row.parquet", pa.table({"hyp": ["a"], "ref": ["a"], "row": [7]}))
    with pytest.raises(Exception, match=r"has_row\.parquet: the shard has a column 'row'"):
        bray.sentence_scores(str(tmp_path / "has_row.parquet")).take_all()
    with pytest.raises(ValueError, match="would overwrite a column"):
        bray.sentence_scores(good, score_field="hyp")
    # lazily scored rows fail when consumed, with the shard in Ray's error
    with pytest.raises(Exception, match=r"typed\.parquet: hypothesis column 'hyp' has type int64"):
        bray.sentence_scores([good, str(tmp_path / "typed.parquet")]).take_all()


CRASH_MARK = "crash this worker"


def _crashing_bleu():
    class CrashingBLEU(BLEU):  # defined in a function: pickled by value to the workers
        def segment_statistics(self, hypotheses, references, **kw):
            if CRASH_MARK in hypotheses:
                os._exit(3)
            return super().segment_statistics(hypotheses, references, **kw)

    return CrashingBLEU()


@needs_ray
def test_worker_crash_is_an_error_naming_the_shard(local_ray, tmp_path):
    good = _write(tmp_path / "good.parquet", pa.table({"hyp": ["a b c"] * 3, "ref": ["a b c"] * 3}))
    bad = _write(tmp_path / "dies.parquet", pa.table({"hyp": ["a", CRASH_MARK], "ref": ["a", "b"]}))
    with pytest.raises(RayScoringError, match=r"dies\.parquet: the worker failed: .*; no score was produced"):
        bray.corpus_score([good, bad], _crashing_bleu(), max_retries=0)
    with pytest.raises(RayScoringError, match="no score was produced"):
        bray.corpus_score(ray.data.read_parquet(str(tmp_path)), _crashing_bleu(), max_retries=0)


@needs_ray
def test_partial_results_are_refused(local_ray, tmp_path):
    good = _write(tmp_path / "good.parquet", pa.table({"hyp": ["a b c"], "ref": ["a b c"]}))
    ds = ray.data.read_parquet(good)
    ds.context.max_errored_blocks = 1
    with pytest.raises(RayScoringError, match="max_errored_blocks"):
        bray.corpus_score(ds)


def test_missing_ray_is_a_clear_error(monkeypatch):
    import builtins

    from bleuscope.runtime import ray as ray_module

    real_import = builtins.__import__

    def no_ray(name, *args, **kwargs):
        if name == "ray" or name.startswith("ray."):
            raise ImportError("No module named 'ray'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_ray)
    with pytest.raises(bleuscope.MissingExtraError, match=r'pip install "bleuscope\[ray\]"'):
        ray_module.import_ray()


# -- command line ---------------------------------------------------------------------------------------------
def _cli(capsys, *argv) -> tuple[int, str, str]:
    from bleuscope.cli import main

    code = main(list(map(str, argv)))
    out, err = capsys.readouterr()
    return code, out, err


@requires_wmt
def test_cli_shards_equal_text_files(capsys, shard_dir):
    d = DATA / "generaltest2022" / "en-de"
    code, expected, _ = _cli(capsys, d / "ref.A.txt", d / "ref.B.txt", "-i", d / "sys" / "Online-B.txt", "-w", "6")
    assert code == 0
    fields = ["--hyp-field", "hyp", "--ref-field", "ref", "--ref-field", "ref_b", "-w", "6"]
    code, out, err = _cli(capsys, shard_dir / "part-*.parquet", *fields)
    assert (code, out) == (0, expected), err
    code, out, _ = _cli(capsys, shard_dir / "part-*.jsonl", "--hyp-field", "hyp", "--ref-field", "refs", "-w", "6")
    assert (code, out) == (0, expected)


def test_cli_shard_errors(capsys, tmp_path):
    _write(tmp_path / "a.parquet", pa.table({"hyp": ["a b"], "ref": ["a b"]}))
    _write(tmp_path / "b.parquet", pa.table({"hyp": ["a b"], "target": ["a b"]}))
    code, out, err = _cli(capsys, tmp_path / "*.parquet", "--hyp-field", "hyp", "--ref-field", "ref")
    assert code == 1 and out == ""
    assert err == (f"bleuscope: error: {tmp_path / 'b.parquet'}: no column 'ref' (ref_field / --ref-field); "
                   "the shard has: 'hyp', 'target'\n")
    code, _, err = _cli(capsys, tmp_path / "*.parquet", "--hyp-field", "hyp")
    assert code == 2 and "need --hyp-field and --ref-field" in err
    code, _, err = _cli(capsys, tmp_path / "none-*.parquet", "--hyp-field", "hyp", "--ref-field", "ref")
    assert code == 1 and "no file matches this pattern" in err


@needs_ray
@requires_wmt
def test_cli_ray_equals_local(local_ray, capsys, shard_dir):
    fields = ["--hyp-field", "hyp", "--ref-field", "refs", "-w", "6"]
    code, expected, _ = _cli(capsys, shard_dir / "part-*.jsonl", *fields)
    code, out, err = _cli(capsys, shard_dir / "part-*.jsonl", *fields, "--ray")  # uses the running runtime
    assert (code, out) == (0, expected), err
    assert ray.is_initialized()  # not shut down: the command did not start it
    code, out, err = _cli(capsys, shard_dir / "part-*.parquet", "--hyp-field", "hyp", "--ref-field", "nope", "--ray")
    assert code == 1 and "no column 'nope'" in err and "no score was produced" in err


# -- adding --ray does not change what a command means: -i preds.jsonl --hyp-field H --ref-field R (the
# hypotheses and their references in one JSON Lines file) scores the same with and without it, and what Ray
# cannot do the same way is a usage error rather than another reading of the input
EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
FIELDS = ["--hyp-field", "output", "--ref-field", "target"]


def _run(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    # Ray 2.60 authenticates with a token; one of our own in the environment keeps ~/.ray out of it
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32),
           "RAY_USAGE_STATS_ENABLED": "0"}
    return subprocess.run([sys.executable, "-m", "bleuscope", *args], capture_output=True, text=True, cwd=tmp_path,
                          env=env, input=stdin, timeout=600)


@pytest.fixture
def preds(tmp_path: Path) -> Path:
    shutil.copy(EXAMPLE / "preds.jsonl", tmp_path / "preds.jsonl")
    return tmp_path / "preds.jsonl"


@needs_ray
def test_input_jsonl_with_ray_scores_as_without(local_ray, capsys, preds):
    plain = _cli(capsys, "-i", preds, *FIELDS, "-w", "6")
    assert plain[0] == 0, plain[2]
    on_ray = _cli(capsys, "-i", preds, *FIELDS, "-w", "6", "--ray")  # uses the running runtime
    assert on_ray[0] == 0, on_ray[2]
    assert json.loads(on_ray[1]) == json.loads(plain[1])
    # the bundled example's JSON Lines hold Online-B against reference A
    expected = _cli(capsys, EXAMPLE / "ref.A.txt", "-i", EXAMPLE / "hyp.Online-B.txt", "-w", "6")
    assert json.loads(plain[1])["score"] == json.loads(expected[1])["score"]


def test_what_ray_cannot_read_the_same_way_is_a_usage_error(tmp_path, preds):
    shutil.copy(preds, tmp_path / "other.jsonl")
    several = _run(tmp_path, "-i", "preds.jsonl", "other.jsonl", *FIELDS, "--ray", "local")
    assert several.returncode == 2 and several.stdout == ""
    assert several.stderr.splitlines() == [
        "bleuscope: error: --ray scores one system, and 2 -i files are 2 systems; give one -i file, or the shards "
        "of one system as FILEs or a quoted glob"
    ]
    stdin = _run(tmp_path, "-i", "-", *FIELDS, "--ray", "local", stdin=preds.read_text(encoding="utf-8"))
    assert stdin.returncode == 2 and stdin.stdout == ""
    assert stdin.stderr.splitlines() == [
        "bleuscope: error: --ray reads its shards from files, not from standard input; write the JSON Lines to a "
        "file, or drop --ray (the score is the same)"
    ]
