"""The main command gives TER's note about a Chinese, Japanese or Korean target without
``--ter-asian-support`` (``Metric.input_notes``, which the report shows too) as an input warning on stderr,
on every path that reads the references: files streamed in chunks, standard input read into memory for
several metrics, and shards (JSON Lines here; Parquet and Ray take the same step)."""

from __future__ import annotations

import json

import pytest

from bleuscope import TER

NOTE = TER().input_notes([["这是一个中文句子"]])[0]
LATIN = ["the cat sat on the mat", "a dog barks", "hello world"]
CHINESE = ["这是一个中文句子", "狗在叫", "你好世界"]


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize(
    ("refs", "options", "noted"),
    [
        (CHINESE, [], True),  # the references are Chinese
        (LATIN, ["-l", "en-zh"], True),  # the target language says so
        (LATIN, ["-l", "zh-en"], False),
        (LATIN, [], False),
        (CHINESE, ["--ter-asian-support"], False),
        (CHINESE, ["-q"], False),
    ],
)
def test_the_note_on_stderr(tmp_path, run_main, refs, options, noted):
    hyp, ref = _write(tmp_path / "hyp.txt", CHINESE), _write(tmp_path / "ref.txt", refs)
    code, out, err = run_main([hyp, "-r", ref, "-m", "ter", "-b", *options])
    assert code == 0 and out.strip()
    assert err.count(f"bleuscope: warning: {NOTE}\n") == (1 if noted else 0), err
    assert (NOTE in err) == noted


def test_only_for_ter(tmp_path, run_main):
    hyp, ref = _write(tmp_path / "hyp.txt", CHINESE), _write(tmp_path / "ref.txt", CHINESE)
    for metric in ("bleu", "chrf"):
        code, _, err = run_main([hyp, "-r", ref, "-m", metric, "-tok", "zh"] if metric == "bleu" else
                                [hyp, "-r", ref, "-m", metric])
        assert code == 0 and NOTE not in err


def test_several_metrics_on_standard_input(tmp_path, run_main):
    ref = _write(tmp_path / "ref.txt", CHINESE)
    code, _, err = run_main(["-r", ref, "-m", "ter", "chrf", "-b"], stdin="\n".join(CHINESE).encode() + b"\n")
    assert code == 0 and err.count(NOTE) == 1, err


@pytest.mark.parametrize(("refs", "options", "noted"), [(CHINESE, [], True), (LATIN, [], False), (LATIN, ["-l", "en-ja"], True)])
def test_shards(tmp_path, run_main, monkeypatch, refs, options, noted):
    for k in range(2):
        rows = [{"hyp": h, "ref": r} for h, r in zip(CHINESE, refs)]
        (tmp_path / f"part{k}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["part*.jsonl", "--hyp-field", "hyp", "--ref-field", "ref", "-m", "ter", "-b", *options])
    assert code == 0 and out.strip()
    assert err.count(f"bleuscope: warning: {NOTE}\n") == (1 if noted else 0), err


def test_references_read_only_for_a_metric_with_notes():
    from argparse import Namespace

    from bleuscope import BLEU
    from bleuscope.cli.scoring import ReadWhenAsked, give_input_notes

    loads, notes = [], []

    def load():
        loads.append(1)
        return [CHINESE]

    args = Namespace(language_pair=None)
    give_input_notes(BLEU(), ReadWhenAsked(load), args, notes.append)
    assert loads == [] and notes == []
    give_input_notes(TER(), ReadWhenAsked(load), args, notes.append)
    assert loads == [1] and notes == [NOTE]
