"""``bleuscope -m meteor``: the library's METEOR through the metric registry, its options and errors, and
significance tests on per-segment METEOR (the same resamples as computed here from the segment values)."""

from __future__ import annotations

import json
from fractions import Fraction

import numpy as np
import pytest

from bleuscope import cli
from bleuscope.analysis.significance import confidence_interval
from bleuscope.metrics.meteor import METEOR

from ..conftest import pair_dir, read_lines, requires_wmt

pytestmark = requires_wmt


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    base = pair_dir("generaltest2022", "de-en")
    out = tmp_path_factory.mktemp("meteor_cli")
    paths = {}
    for name, source in (("ref.A", base / "ref.A.txt"), ("ref.B", base / "ref.B.txt"),
                         ("sysA", base / "sys" / "Online-A.txt"), ("sysB", base / "sys" / "Online-B.txt")):
        lines = read_lines(source)[:120]
        paths[name] = out / f"{name}.txt"
        paths[name].write_text("".join(x + "\n" for x in lines), encoding="utf-8")
    return paths


def run(capsys, *argv) -> tuple[int, str, str]:
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def lines(path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def test_corpus_score_and_signature(capsys, files, nltk_data_dir, wordnet):
    code, out, _ = run(capsys, files["ref.A"], files["ref.B"], "-i", files["sysA"], "-m", "meteor",
                       "--meteor-wordnet", nltk_data_dir, "-f", "json")
    assert code == 0
    result = json.loads(out)
    expected = METEOR(wordnet=wordnet).corpus_score(lines(files["sysA"]), [lines(files["ref.A"]), lines(files["ref.B"])])
    assert result["name"] == "METEOR" and result["score_unrounded"] == expected.score
    assert result["signature"] == expected.signature
    assert result["nrefs"] == "2" and result["a"] == "0.9" and result["wn"] == "3.0"


def test_options_and_several_metrics(capsys, files, nltk_data_dir, wordnet):
    code, out, _ = run(capsys, files["ref.A"], "-i", files["sysA"], files["sysB"], "-m", "meteor", "chrf",
                       "--meteor-wordnet", nltk_data_dir, "--meteor-alpha", "0.85", "--meteor-beta", "0.2",
                       "--meteor-gamma", "0.6", "--meteor-tokenize", "none", "-f", "json", "-w", "6")
    assert code == 0
    table = json.loads(out)
    metric = METEOR(wordnet=wordnet, alpha=0.85, beta=0.2, gamma=0.6, tokenize="none")
    for row, name in zip(table, ("sysA", "sysB")):
        assert row["METEOR"] == f"{metric.corpus_score(lines(files[name]), [lines(files['ref.A'])]).score:.6f}"
        assert "chrF2" in row


def test_sentence_level(capsys, files, nltk_data_dir, wordnet):
    code, out, _ = run(capsys, files["ref.A"], "-i", files["sysA"], "-m", "meteor", "-sl", "-w", "8",
                       "--meteor-wordnet", nltk_data_dir)
    assert code == 0
    values = [float(x.rsplit(" = ", 1)[1]) for x in out.strip().split("\n")]
    expected = METEOR(wordnet=wordnet).sentence_scores(lines(files["sysA"]), [lines(files["ref.A"])]).scores
    assert values == [float(f"{v:.8f}") for v in expected]


def test_errors(capsys, files, tmp_path):
    code, _, err = run(capsys, files["ref.A"], "-i", files["sysA"], "-m", "meteor", "--meteor-wordnet", tmp_path)
    assert code == 1 and f"no WordNet database at {tmp_path}" in err and err.count("\n") == 1
    code, _, err = run(capsys, files["ref.A"], "-i", files["sysA"], "-m", "meteor", "--meteor-gamma", "2")
    assert code == 2 and "--meteor-gamma must be in [0, 1], got 2.0" in err


def test_confidence_interval_is_the_resampled_mean_of_segment_values(files, wordnet):
    """Bootstrap resamples of METEOR's exact rows: each resample's score is the exact mean of the resampled
    segment values (the same draws as sacreBLEU's: default_rng(seed).choice(S, size=(N, S)))."""
    metric = METEOR(wordnet=wordnet)
    hyps, refs = lines(files["sysA"]), [lines(files["ref.A"])]
    result = confidence_interval(hyps, refs, metric=metric, n_samples=200, seed=7)  # default precision
    values = metric.sentence_scores(hyps, refs).values.tolist()
    draws = np.random.default_rng(7).choice(len(hyps), size=(200, len(hyps)))
    resampled = sorted(100 * float(sum(Fraction(values[i]) for i in row) / len(row)) for row in draws)
    assert result.score == metric.corpus_score(hyps, refs).score
    assert (result.lower, result.upper) == (resampled[200 // 40], resampled[200 - 200 // 40 - 1])
