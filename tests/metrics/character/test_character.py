"""CharacTER against the rwth-i6 program's golden outputs (every segment of seven system/reference pairs),
HF evaluate's card values, and the compiled core against the Python definition."""

from __future__ import annotations

import csv
import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import CharacTER
from bleuscope.analysis.significance import paired_bootstrap
from bleuscope.metrics.character.reference import character

from ..goldens_support import GOLDENS, corpus_goldens, golden_params, inputs, segment_goldens

GOLDEN = segment_goldens("character-segments.tsv", "character")
CER_1_2_0 = segment_goldens("character-segments.tsv", "cer_1_2_0")


@pytest.mark.parametrize("key", golden_params(GOLDEN), ids="-".join)
def test_every_segment_equals_the_rwth_program(key):
    hyps, refs = inputs(*key)
    values = CharacTER().sentence_scores(hyps, [refs]).values
    want = GOLDEN[key]
    assert len(want) == len(hyps)
    got = [float(values[line - 1]) for line, _ in want]
    bad = [(line, g, w) for (line, w), g in zip(want, got) if g != w]
    assert not bad, f"{len(bad)} segments differ, first {bad[:3]}"
    assert got == [v for _, v in CER_1_2_0[key]]  # PyPI cer 1.2.0's float64 path gives the same numbers
    # the system score: the rwth program's mean (sum / len) of these floats, within the last bit of the
    # exact mean bleuscope gives
    assert CharacTER().score_from_statistics(CharacTER().rows_of(values)).value == pytest.approx(corpus_goldens("character")[key], rel=1e-15)


def test_corpus_mean_is_the_exact_mean_of_the_segments():
    key = ("generaltest2022", "de-en", "JDExploreAcademy", "A")
    hyps, refs = inputs(*key)
    from fractions import Fraction

    values = [v for _, v in GOLDEN[key]]
    exact = float(sum(map(Fraction, values)) / len(values))
    assert CharacTER().corpus_score(hyps, [refs]).value == exact


def _card_rows(kind):
    with open(GOLDENS / "character-hf-card.tsv", encoding="utf-8", newline="") as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["kind"] == kind]


def test_hf_card_pairs_and_calls():
    for row in _card_rows("pair"):
        got = CharacTER().sentence_score(row["hypothesis_or_call"], [row["reference(s)_or_kwargs"]]).value
        assert got == float(row["value"])
    # the third docstring call: two references, the smaller value (HF character's min over references)
    row = next(r for r in _card_rows("hf_call") if "docstring 3" in r["source"])
    hyp = "this week the saudis denied information published in the new york times"
    refs = ["saudi arabia denied this week information published in the american new york times",
            "the saudis have denied new information published in the ny times"]
    assert CharacTER().sentence_score(hyp, refs).value == json.loads(row["value"])["cer_score"]


HF = [json.loads(x) for x in (GOLDENS.parent / "hf-evaluate" / "goldens.jsonl").open(encoding="utf-8")]


def test_hf_character_goldens_with_float64_shifts():
    """HF evaluate's ``character`` (PyPI cer 1.2.0: float64 shift scores, the smallest over references,
    ``statistics``' mean/median or ``sum``) on its recorded outputs."""
    import statistics

    from ..goldens_support import MT, lines

    records = [r for r in HF if r["metric"] == "character"]
    assert len(records) >= 40
    metric = CharacTER(shift_precision="float64")
    for rec in records:
        base = MT / rec["set"] / rec["pair"]
        hyp = lines(base / "sys" / f"{rec['system']}.txt")
        refs = [lines(base / f"ref.{r}.txt") for r in rec["refs"].split(",")]
        if rec["first_n"] != "all":
            hyp, refs = hyp[: rec["first_n"]], [r[: rec["first_n"]] for r in refs]
        values = metric.sentence_scores(hyp, refs).values.tolist()
        aggregate = {"mean": statistics.mean, "median": statistics.median, "sum": sum}[rec["kwargs"].get("aggregate", "mean")]
        assert aggregate(values) == rec["result"]["cer_score"], rec
        if rec["kwargs"].get("return_all_scores"):
            assert values == rec["result"]["cer_scores"]


def test_native_equals_python_definition_on_wmt():
    hyps, refs = inputs("generaltest2022", "en-de", "Online-B", "A")
    hyps, refs = hyps[:60], refs[:60]
    for precision in ("float32", "float64"):
        native = CharacTER(engine="native", shift_precision=precision).sentence_scores(hyps, [refs]).values
        python = CharacTER(engine="numpy", shift_precision=precision).sentence_scores(hyps, [refs]).values
        assert native.tolist() == python.tolist()


WORDS = st.lists(st.sampled_from(["a", "b", "c", "dd", "é", "the"]), max_size=12)


@settings(max_examples=150, deadline=None)
@given(WORDS, WORDS)
def test_native_equals_python_definition_on_generated_words(hyp, ref):
    got = CharacTER(engine="native").sentence_score(" ".join(hyp), [" ".join(ref)]).value
    assert got == character(hyp, ref)
    wide = CharacTER(engine="native", shift_precision="float64").sentence_score(" ".join(hyp), [" ".join(ref)])
    assert wide.value == character(hyp, ref, float64=True)
    assert 0.0 <= got <= 1.0


def test_rows_sum_exactly_and_significance_runs():
    hyps, refs = inputs("generaltest2022", "de-en", "PROMT", "A")
    hyps, refs = hyps[:200], refs[:200]
    metric = CharacTER()
    rows = metric.segment_statistics(hyps, [refs]).stats
    assert rows.shape == (200, 4)
    halves = rows[:90].sum(axis=0) + rows[90:].sum(axis=0)
    assert metric.score_from_statistics(halves).value == metric.corpus_score(hyps, [refs]).value
    other, _ = inputs("generaltest2022", "de-en", "Online-B", "A")
    result = paired_bootstrap({"PROMT": hyps, "Online-B": other[:200]}, [refs], metric=metric, n_samples=200, seed=1)
    assert result.systems[0].score == metric.corpus_score(hyps, [refs]).score
    assert result.systems[1].score == metric.corpus_score(other[:200], [refs]).score
    assert 0.0 <= result.systems[1].p_value <= 1.0


def test_float32_and_float64_shift_scores_differ_where_floats_tie():
    # float32 rounding makes two shifts tie for the rwth-i6 program; PyPI cer 1.2.0 (float64) picks another
    hyp = "How much they paid for their ticket did not share Blue Origin."
    ref = "Blue Origin did not reveal how much they paid for their tickets."
    assert CharacTER().sentence_score(hyp, [ref]).value == 0.5
    assert CharacTER(shift_precision="float64").sentence_score(hyp, [ref]).value == 0.4838709677419355
    with pytest.raises(ValueError, match="shift_precision"):
        CharacTER(shift_precision="float16")


def test_bad_input_names_the_argument():
    with pytest.raises(TypeError, match=r"hypotheses\[1\]"):
        CharacTER().corpus_score(["a", 3], [["a", "b"]])
    with pytest.raises(ValueError, match="lines|segments"):
        CharacTER().corpus_score(["a", "b"], [["a"]])
    bad = CharacTER().segment_statistics(["a b"], [["a c"]]).stats.copy()
    bad[0, 1] += 1 << 40
    with pytest.raises(ValueError, match=r"row 0, columns 1-3"):
        CharacTER().score_from_statistics(bad)
    assert np.isfinite(CharacTER().corpus_score([""], [[""]]).value)
