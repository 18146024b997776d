"""Shards (quoted globs of JSON Lines files, Parquet files) are scored for every metric, with the numbers of
the same data read as one file; a missing Parquet reader is a usage error that says what to install."""

from __future__ import annotations

import importlib.util
import json
import shutil

import pytest

from bleuscope import cli

PREDS = f"{cli.example_dir()}/preds.jsonl"


@pytest.fixture
def shards(tmp_path, monkeypatch):
    lines = open(PREDS, encoding="utf-8").read().split("\n")[:-1]
    for k, start in enumerate(range(0, len(lines), 100)):
        (tmp_path / f"preds{k}.jsonl").write_text("".join(x + "\n" for x in lines[start:start + 100]), "utf-8")
    shutil.copy(PREDS, tmp_path / "all.jsonl")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.mark.parametrize("metrics", [["bleu"], ["chrf"], ["ter"], ["chrf", "-cw", "2"], ["rouge"], ["bleu", "chrf", "ter"],
                                     ["wer", "cer", "mer", "wil", "wip"]])
def test_jsonl_shards_equal_one_file_for_every_metric(run_main, shards, metrics):
    fields = ["--hyp-field", "output", "--ref-field", "target", "-f", "json", "-m", *metrics]
    code, sharded, err = run_main(["preds*.jsonl", *fields])
    assert code == 0, err
    code, whole, err = run_main(["all.jsonl", *fields])
    assert code == 0, err
    ours, theirs = json.loads(sharded), json.loads(whole)
    ours, theirs = (x if isinstance(x, list) else [x] for x in (ours, theirs))
    assert [(d["name"], d["score_unrounded"]) for d in ours] == [(d["name"], d["score_unrounded"]) for d in theirs]


@pytest.mark.skipif(importlib.util.find_spec("pyarrow") is not None, reason="pyarrow is installed")
def test_parquet_without_pyarrow_says_what_to_install(run_main, shards):
    (shards / "one.parquet").write_bytes(b"PAR1")
    code, out, err = run_main(["one.parquet", "--hyp-field", "output", "--ref-field", "target", "-m", "chrf"])
    assert code == 2 and out == ""
    assert err.strip() == 'bleuscope: error: reading Parquet shards needs pyarrow: pip install "bleuscope[parquet]"'


@pytest.mark.skipif(importlib.util.find_spec("pyarrow") is None, reason="pyarrow is not installed")
def test_one_parquet_file_is_scored_for_every_metric(run_main, shards):
    import pyarrow as pa
    import pyarrow.parquet as pq

    rows = [json.loads(x) for x in open(PREDS, encoding="utf-8")]
    pq.write_table(pa.table({"output": [r["output"] for r in rows], "target": [r["target"] for r in rows]}),
                   shards / "one.parquet")
    for metric in ("chrf", "ter", "bleu"):
        fields = ["--hyp-field", "output", "--ref-field", "target", "-f", "json", "-m", metric]
        code, parquet, err = run_main(["one.parquet", *fields])
        assert code == 0, err
        code, whole, err = run_main(["all.jsonl", *fields])
        assert json.loads(parquet)["score_unrounded"] == json.loads(whole)["score_unrounded"]
