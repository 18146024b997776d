"""EED against the rwth-i6 program's golden outputs (every segment of seven system/reference pairs, its
bundled example's system score), and the compiled core against the Python definition."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import EED
from bleuscope.metrics.eed.reference import eed, preprocess_en

from ..goldens_support import corpus_goldens, golden_params, inputs, segment_goldens

GOLDEN = segment_goldens("eed-segments.tsv", "eed")


@pytest.mark.parametrize("key", golden_params(GOLDEN), ids="-".join)
def test_every_segment_equals_the_rwth_program(key):
    hyps, refs = inputs(*key)
    values = EED().sentence_scores(hyps, [refs]).values
    want = GOLDEN[key]
    assert len(want) == len(hyps)
    bad = [(line, float(values[line - 1]), w) for line, w in want if float(values[line - 1]) != w]
    assert not bad, f"{len(bad)} segments differ, first {bad[:3]}"
    score = EED().score_from_statistics(EED().rows_of(values))
    assert score.value == float(sum(Fraction(v) for _, v in want) / len(want))  # the exact mean
    assert score.value == pytest.approx(corpus_goldens("eed")[key], rel=1e-15)  # the program's sum / len


@pytest.mark.full
def test_bundled_example_system_score():
    hyps, refs = inputs("newstest2016", "de-en", "uedin-syntax.4271", "ref")
    assert f"System Score={EED().corpus_score(hyps, [refs]).value:.4f}" == "System Score=0.3334"


def test_native_equals_python_definition_on_wmt():
    hyps, refs = inputs("generaltest2022", "en-de", "PROMT", "A")
    hyps, refs = hyps[:40], refs[:40]
    assert EED(engine="native").sentence_scores(hyps, [refs]).values.tolist() == \
        EED(engine="numpy").sentence_scores(hyps, [refs]).values.tolist()


TEXT = st.text(alphabet="ab c.,!1é ", max_size=25)


@settings(max_examples=100, deadline=None)
@given(TEXT, TEXT, st.sampled_from([(2.0, 0.2, 1.0, 1.0, 0.3), (1.5, 0.5, 0.7, 1.3, 0.1)]))
def test_native_equals_python_definition_on_generated_text(hyp, ref, parameters):
    a, d, i, s, r = parameters
    metric = EED(engine="native", alpha=a, deletion=d, insertion=i, substitution=s, rho=r)
    got = metric.sentence_score(hyp, [ref]).value
    assert got == eed(preprocess_en(hyp), preprocess_en(ref), parameters)
    assert 0.0 <= got <= 1.0


def test_preprocessing_rules():
    # a space before . ! ? , (so "3.5" becomes "3 .5": only a spaced "3 . 5" is joined again), titles joined
    assert preprocess_en("Mr. Smith paid 3.5 dollars, today!  \n") == "Mr. Smith paid 3 .5 dollars , today !"
    assert preprocess_en("1 . 5 and 2 , 5") == "1.5 and 2,5"
    # the original's util.py maps "i . e ." to "e.g." as well
    assert preprocess_en("the U . S .\tarmy, i . e . e . g .") == "the U.S. army , e.g. e.g."


def test_several_references_take_the_smallest_and_options_are_checked():
    one = EED().sentence_score("the cat sat", ["a dog ran"]).value
    two = EED().sentence_score("the cat sat", ["a dog ran", "the cat sat"]).value
    assert two == 0.0 < one
    with pytest.raises(ValueError, match="preprocess"):
        EED(preprocess="de")
    with pytest.raises(ValueError, match="alpha"):
        EED(alpha=-1)
    assert "prep:none" in EED(preprocess="none").signature(1)


def test_preprocessing_equals_the_regex_steps_on_generated_text():
    # the rules as plain regex substitutions, step by step (the fast path skips steps that cannot apply)
    import random
    import re

    def steps(line):
        line = line.rstrip()
        for mark in ".!?,":
            line = line.replace(mark, " " + mark)
        line = re.sub(r"\s+", " ", line)
        line = re.sub(r"(\d) ([.,]) (\d)", r"\1\2\3", line)
        line = re.sub(r"(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) .", r"\1.", line)
        for spaced, joined in (("e . g .", "e.g."), ("i . e .", "e.g."), ("U . S .", "U.S.")):
            line = line.replace(spaced, joined)
        return line

    rng = random.Random(3)
    pieces = ["Mr", "Mrs", "Dr", "Ms", "Prof", "e", "g", "i", "U", "S", "3", "5", "x", "é", ".", ",", "!", "?",
              " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x1c", "\x85", "\u2028"]
    for _ in range(5000):
        line = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 14)))
        assert preprocess_en(line) == steps(line), repr(line)


def test_compiled_preprocessing_equals_python_on_generated_and_wmt_text():
    import random

    from bleuscope.core import native

    module = native.compiled_core()
    if module is None:
        pytest.skip("the compiled core is not built")
    rng = random.Random(4)
    pieces = ["Mr", "Mrs", "Dr", "Ms", "Prof", "Gen", "Jr", "Rev", "Mt", "M", "R", "D", "Pr", "e", "g", "i", "U", "S", "3", "5", "x", "é", ".", ",", "!",
              "?", " ", "  ", "\t", "\n", "\u00a0", "\u3000", "\x1c", "\x85", "\u2028", "字", "٣", "²"]
    lines = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 16))) for _ in range(5000)]
    lines += _wmt_lines()
    for line, got in zip(lines, module.EedScorer.preprocess(lines)):
        if got is None:
            # left to Python only for a numeric character other than an ASCII digit
            assert any(c.isnumeric() and not c.isascii() for c in line), repr(line)
        else:
            assert got == preprocess_en(line), repr(line)


def _wmt_lines() -> list[str]:
    from pathlib import Path

    base = Path(__file__).resolve().parents[3].parent / "shared" / "data" / "mt" / "generaltest2022"
    lines = []
    for pair in ("de-en", "en-de"):
        path = base / pair / "ref.A.txt"
        if path.exists():
            lines += path.read_text(encoding="utf-8").split("\n")[:-1]
    return lines
