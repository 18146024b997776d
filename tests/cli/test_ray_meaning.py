"""Adding ``--ray`` does not change what a command means: ``-i preds.jsonl --hyp-field H --ref-field R`` (the
hypotheses and their references in one JSON Lines file) scores the same with and without it, and what Ray
cannot do the same way is a usage error rather than another reading of the input."""

from __future__ import annotations

import json
import os
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import bleuscope

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


def test_input_jsonl_with_ray_scores_as_without(tmp_path, preds):
    pytest.importorskip("ray", reason='ray is not installed (pip install "bleuscope[ray]")')
    pytest.importorskip("ray.data")
    plain = _run(tmp_path, "-i", "preds.jsonl", *FIELDS, "-w", "6")
    assert plain.returncode == 0, plain.stderr
    on_ray = _run(tmp_path, "-i", "preds.jsonl", *FIELDS, "-w", "6", "--ray", "local")
    assert on_ray.returncode == 0, on_ray.stderr
    assert json.loads(on_ray.stdout) == json.loads(plain.stdout)
    # the bundled example's JSON Lines hold Online-B against reference A
    expected = subprocess.run([sys.executable, "-m", "bleuscope", "ref.A.txt", "-i", "hyp.Online-B.txt", "-w", "6"],
                              capture_output=True, text=True, cwd=EXAMPLE, timeout=300)
    assert json.loads(plain.stdout)["score"] == json.loads(expected.stdout)["score"]


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
