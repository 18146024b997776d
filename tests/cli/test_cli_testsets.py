"""``-t/--test-set``, ``--echo``, ``--list`` through sacreBLEU's dataset module, offline.

Each test prepares a sacreBLEU cache directory (``$SACREBLEU``) holding a small fake ``wmt14`` en-de test set in
sacreBLEU 2.6.0's layout: ``$SACREBLEU/wmt14/wmt14.en-de.{src,ref,docid,genre,origlang}`` (the plain-text files
its ``FakeSGMLDataset.get_files`` returns without downloading when they exist). The ``sacrebleu`` command reads
the same cache, so both commands are compared on it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bleuscope import cli

pytest.importorskip("sacrebleu.dataset", reason="the testsets extra (sacrebleu) is not installed")

EXAMPLE = Path(cli.example_dir())
SACREBLEU = shutil.which("sacrebleu")
N = 40


@pytest.fixture
def cache(tmp_path):
    root = tmp_path / "sacrebleu-cache"
    (root / "wmt14").mkdir(parents=True)
    ref = (EXAMPLE / "ref.A.txt").read_text(encoding="utf-8").split("\n")[:N]
    src = [f"source sentence {i}" for i in range(N)]
    fields = {
        "src": src,
        "ref": ref,
        "docid": [f"doc{i // 10}" for i in range(N)],
        "genre": ["news"] * N,
        "origlang": ["en"] * N,
    }
    for field, lines in fields.items():
        (root / "wmt14" / f"wmt14.en-de.{field}").write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("".join(x + "\n" for x in (EXAMPLE / "hyp.Online-B.txt").read_text().split("\n")[:N]))
    return root, hyp


def run(cmd: list[str], root: Path, stdin: bytes = b""):
    env = {**os.environ, "SACREBLEU": str(root)}
    proc = subprocess.run(cmd, input=stdin, capture_output=True, env=env, timeout=120)
    return proc.returncode, proc.stdout.decode(), proc.stderr.decode()


def bleuscope(*args):
    return [sys.executable, "-m", "bleuscope", *args]


def test_test_set_scores_like_sacrebleu(cache):
    root, hyp = cache
    code, ours, err = run(bleuscope("-t", "wmt14", "-l", "en-de", "-i", str(hyp)), root)
    assert code == 0, err
    ours = json.loads(ours)
    from bleuscope import BLEU

    refs = (EXAMPLE / "ref.A.txt").read_text().split("\n")[:N]
    hyps = hyp.read_text().split("\n")[:-1]
    assert ours["score_unrounded"] == BLEU().corpus_score(hyps, [refs]).score
    if SACREBLEU is None:
        pytest.skip("the sacrebleu command is not on PATH")
    code, theirs, err = run([SACREBLEU, "-t", "wmt14", "-l", "en-de", "-i", str(hyp)], root)
    assert code == 0, err
    assert json.loads(theirs)["score"] == ours["score"]
    # hypotheses on stdin, text format: the same line as sacreBLEU's apart from the version
    code, ours, _ = run(bleuscope("-t", "wmt14", "-l", "en-de", "-f", "text"), root, hyp.read_bytes())
    code2, theirs, _ = run([SACREBLEU, "-t", "wmt14", "-l", "en-de", "-f", "text"], root, hyp.read_bytes())
    assert code == code2 == 0
    assert (
        ours.replace("version:bleuscope-", "version:").split("version:")[1].split(" ", 1)[1]
        == theirs.split("version:")[1].split(" ", 1)[1]
    )


def test_echo_and_list(cache):
    root, _ = cache
    code, out, err = run(bleuscope("-t", "wmt14", "-l", "en-de", "--echo", "src", "docid"), root)
    assert code == 0, err
    assert out.split("\n")[:2] == ["source sentence 0\tdoc0", "source sentence 1\tdoc0"]
    if SACREBLEU is not None:
        assert out == run([SACREBLEU, "-t", "wmt14", "-l", "en-de", "--echo", "src", "docid"], root)[1]
    code, out, _ = run(bleuscope("-t", "wmt14", "-l", "en-de", "--list"), root)
    assert (code, out) == (0, "en-de: src, ref, docid, genre, origlang\n")
    code, out, _ = run(bleuscope("--list", "-l", "en-de"), root)
    assert code == 0 and out.startswith("The available test sets for en-de are:\n") and "\nwmt14 " in out


def test_test_set_errors(cache):
    root, hyp = cache
    code, _, err = run(bleuscope("-t", "wmt14", "-i", str(hyp)), root)
    assert code == 2 and "needs -l" in err
    code, _, err = run(bleuscope("-t", "nosuchset", "-l", "en-de", "-i", str(hyp)), root)
    assert code == 2 and "unknown test set 'nosuchset'" in err
    code, _, err = run(bleuscope("-t", "wmt14", "-l", "xx-yy", "-i", str(hyp)), root)
    assert code == 2 and "no language pair 'xx-yy'" in err
    code, _, err = run(bleuscope("-t", "wmt14", "-l", "en-de", "--echo", "nofield"), root)
    assert code == 2 and "no field 'nofield'" in err
    short = hyp.parent / "short.txt"
    short.write_text("one line\n")
    code, _, err = run(bleuscope("-t", "wmt14", "-l", "en-de", "-i", str(short)), root)
    assert code == 1 and "line counts differ" in err and err.count("\n") == 1


def test_without_the_extra_one_line_names_the_pip_line(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "sacrebleu.dataset", None)  # import fails as if sacrebleu were absent
    code = cli.main(["-t", "wmt14", "-l", "en-de", "--echo", "src"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1
    assert 'pip install "bleuscope[testsets]"' in err
