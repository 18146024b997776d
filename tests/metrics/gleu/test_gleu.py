"""GLEU: HF evaluate google_bleu's recorded outputs (13a tokens + NLTK's corpus_gleu), NLTK on WMT data,
the compiled core against the Python definition, additive rows and significance, bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from nltk.translate.gleu_score import corpus_gleu

from bleuscope import GLEU
from bleuscope.analysis.significance import paired_bootstrap

from ..goldens_support import MT, SHARED, lines

HF = [json.loads(x) for x in (SHARED / "oracles/hf-evaluate/goldens.jsonl").open(encoding="utf-8")]
GOOGLE_BLEU = [r for r in HF if r["metric"] == "google_bleu"]


def hf_inputs(rec):
    base = MT / rec["set"] / rec["pair"]
    hyp = lines(base / "sys" / f"{rec['system']}.txt")
    refs = [lines(base / f"ref.{r}.txt") for r in rec["refs"].split(",")]
    if rec["first_n"] != "all":
        hyp, refs = hyp[: rec["first_n"]], [r[: rec["first_n"]] for r in refs]
    return hyp, refs


def test_hf_google_bleu_goldens():
    assert len(GOOGLE_BLEU) >= 40
    for rec in GOOGLE_BLEU:
        hyp, refs = hf_inputs(rec)
        kwargs = {k: v for k, v in rec["kwargs"].items() if k in ("min_len", "max_len")}
        assert set(rec["kwargs"]) <= {"min_len", "max_len"}, rec["kwargs"]
        assert GLEU(**kwargs).corpus_score(hyp, refs).value == rec["result"]["google_bleu"], rec


def test_equals_nltk_on_whitespace_tokens_and_native_equals_python():
    base = MT / "generaltest2022" / "cs-en"
    hyp = lines(sorted((base / "sys").iterdir())[-1])[:800]
    ref = lines(base / "ref.B.txt")[:800]
    want = corpus_gleu([[r.split()] for r in ref], [h.split() for h in hyp])
    native = GLEU(tokenize="none", engine="native").segment_statistics(hyp, [ref]).stats
    python = GLEU(tokenize="none", engine="numpy").segment_statistics(hyp, [ref]).stats
    assert native.tolist() == python.tolist()
    assert GLEU(tokenize="none").score_from_statistics(native).value == want


def test_rows_add_up_and_significance():
    base = MT / "generaltest2022" / "de-en"
    ref = lines(base / "ref.A.txt")[:300]
    a = lines(base / "sys" / "JDExploreAcademy.txt")[:300]
    b = lines(base / "sys" / "PROMT.txt")[:300]
    metric = GLEU()
    rows = metric.segment_statistics(a, [ref]).stats
    assert rows.shape == (300, 2)
    assert metric.score_from_statistics(rows[:100].sum(0) + rows[100:].sum(0)).value == \
        metric.corpus_score(a, [ref]).value
    sentence = metric.sentence_scores(a, [ref])
    assert sentence.values[:20].tolist() == [metric.sentence_score(h, [r]).value for h, r in zip(a[:20], ref[:20])]
    result = paired_bootstrap({"JD": a, "PROMT": b}, [ref], metric=metric, n_samples=300, seed=3)
    assert result.systems[1].score == metric.corpus_score(b, [ref]).score


def test_token_lists_and_missing_references():
    metric = GLEU()
    got = metric.corpus_score([["the", "cat"], "the dog"], [[["the", "cat"], None], ["a cat", "the dog"]])
    assert got.value == corpus_gleu([[["the", "cat"], ["a", "cat"]], [["the", "dog"]]], [["the", "cat"], ["the", "dog"]])
    assert "nrefs:var" in got.signature


def test_bad_input():
    with pytest.raises(TypeError, match=r"hypotheses\[1\]"):
        GLEU().corpus_score(["a", 3], [["a", "b"]])
    with pytest.raises(ValueError, match="max_len"):
        GLEU(min_len=3, max_len=2)
    with pytest.raises(ValueError, match="min_len"):
        GLEU(min_len=0)
    bad = np.array([[3, 2]])
    with pytest.raises(ValueError, match=r"column 0 \(tp\) = 3 exceeds its total"):
        GLEU().score_from_statistics(bad)


def test_string_metrics_leave_no_utf8_copy_in_the_strings():
    # sys.getsizeof counts the UTF-8 copy CPython attaches to a str read as UTF-8: reading the text must
    # leave each str (lines and tokens, every width) as large as it was
    import sys

    from bleuscope import EED, GLEU, CharacTER, SelfBLEU

    lines = [f"Straße {i} naïve 字 {chr(0x1F600 + i % 5)} ende." for i in range(40)]
    refs = [f"Straße {i} naive 字 ende ." for i in range(40)]
    tokens = [line.split() for line in lines]
    before = [sys.getsizeof(x) for x in lines + refs] + [sys.getsizeof(t) for ts in tokens for t in ts]
    GLEU().corpus_score(lines, [refs])
    GLEU().corpus_score(tokens, [refs])
    CharacTER().corpus_score(lines, [refs])
    EED().corpus_score(lines, [refs])
    SelfBLEU().score(lines)
    SelfBLEU().score(tokens)
    import bleuscope.nltk_gleu as nltk_gleu

    nltk_gleu.corpus_gleu([[t] for t in tokens], tokens)
    after = [sys.getsizeof(x) for x in lines + refs] + [sys.getsizeof(t) for ts in tokens for t in ts]
    assert after == before
