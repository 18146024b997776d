"""ROUGE's ``sentence_scores`` checks its input once: the lists, then their items in the compiled core or,
when the core does not count the input or stops at an item, in Python (the messages of ``check_inputs``)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from bleuscope import ROUGE

from ...conftest import spy_on_validation

HYPS = ["the cat sat on the mat", "a dog barks", "hello world"]
REFS = [["the cat is on the mat", "dogs bark", None], ["a cat sat", None, "hello there world"]]


@pytest.mark.parametrize("options", [{}, {"engine": "numpy"}, {"tokenizer": "unicode"}])
def test_the_references_checked_once(monkeypatch, options):
    rouge = ROUGE(["rouge1", "rougeL"], **options)
    expected = ROUGE(["rouge1", "rougeL"], engine="numpy").sentence_scores(HYPS, REFS)
    streams = spy_on_validation(monkeypatch, "check_references")
    got = rouge.sentence_scores(HYPS, REFS)
    assert streams.call_count == 1  # 2 before on the Python path (numpy engine, Unicode tokenizer)
    if "tokenizer" not in options:
        np.testing.assert_array_equal(got.prf, expected.prf)
        np.testing.assert_array_equal(got.counts, expected.counts)
    assert got.signature == rouge.signature("var")


BAD = [
    (["a", 3, "b"], [["x", "y", "z"]]),
    (["a", "b", "c"], [["x", b"y", "z"]]),
    (["a", "b", "c"], [["x", None, "z"], ["x", None, None]]),
    ([], [["x"]]),
    (["a", "b"], [["x"]]),
    (["a", "b"], "x"),
    ("a b", [["x"]]),
    (["a", None], [["x", "y"]]),
]


@pytest.mark.parametrize("options", [{}, {"engine": "numpy"}, {"tokenizer": "unicode"}])
@pytest.mark.parametrize("as_iterators", [False, True])
@pytest.mark.parametrize(("hyps", "refs"), BAD)
def test_errors_are_those_of_check_inputs(options, as_iterators, hyps, refs):
    rouge = ROUGE(["rouge1"], **options)
    with pytest.raises((TypeError, ValueError)) as expected:
        rouge.check_inputs(hyps, refs)
    if as_iterators and isinstance(hyps, list) and isinstance(refs, list):
        hyps, refs = iter(hyps), [iter(r) for r in refs]
    with pytest.raises(expected.type, match=f"^{re.escape(str(expected.value))}$"):
        rouge.sentence_scores(hyps, refs)
