"""The array matcher of the report (``bleuscope.report.matching``) equals the per-segment definition
(``compute.matched_ngrams`` on ``compute.reference_limits``) match for match, and its best reference equals
sentence BLEU against each reference alone."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.report import matching, report_data
from bleuscope.report.compute import matched_ngrams, reference_limits


def _compare(hyps: list[list[str]], refs: list[list[list[str]]], order: int = 4) -> None:
    """Every system's matched starts and clipped counts per segment and order, both ways."""
    vocabulary = matching.Vocabulary()
    ref_ids = [vocabulary.encode(r) for r in refs]
    hyp_ids = [vocabulary.encode(h) for h in hyps]
    ids = matching.NgramIds([*ref_ids, *hyp_ids], order)
    limits = matching.reference_limits(ids, range(len(refs)))
    words = vocabulary.words()
    for k, (tokens, enc) in enumerate(zip(hyps, hyp_ids)):
        got = matching.match_system(ids, len(refs) + k, limits)
        for i, toks in enumerate(tokens):
            grams: list = []
            expected = matched_ngrams(toks, reference_limits([r[i] for r in refs], order), grams)
            lo, hi = enc.starts[i], enc.starts[i + 1]
            for n in range(1, order + 1):
                starts = got.starts[n - 1]
                assert (starts[(starts >= lo) & (starts < hi)] - lo).tolist() == sorted(expected[n - 1])
                keys, clipped = got.keys[n - 1], got.clipped[n - 1]
                mine = (keys // ids.sizes[n - 1] == i) & (clipped > 0)
                recounted = Counter(g for g in grams if len(g) == n)
                tuples = ids.tuples(n, keys[mine] % ids.sizes[n - 1], words)
                assert dict(zip(tuples, clipped[mine].tolist())) == dict(recounted)


def test_matcher_equals_the_definition_on_the_example(example):
    systems, refs = example
    view = BLEU().token_view()
    _compare([matching.tokenize(view, h) for h in systems.values()], [matching.tokenize(view, r) for r in refs])


WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "„", "“"]), max_size=12)


@settings(max_examples=150, deadline=None)
@given(data=st.data(), n_seg=st.integers(1, 6), n_refs=st.integers(1, 3), n_sys=st.integers(1, 3),
       order=st.integers(1, 5))
def test_matcher_equals_the_definition_on_generated_text(data, n_seg, n_refs, n_sys, order):
    refs = [[data.draw(WORDS) for _ in range(n_seg)] for _ in range(n_refs)]
    hyps = [[data.draw(WORDS) for _ in range(n_seg)] for _ in range(n_sys)]
    _compare(hyps, refs, order)


def test_best_reference_is_the_best_sentence_bleu(example):
    systems, refs = example
    data = report_data(systems, refs, n_bootstrap=20)
    sentence = BLEU(effective_order=True)
    for k, hyps in enumerate(systems.values()):
        scores = np.stack([sentence.sentence_scores(hyps, [r]).scores for r in refs])
        np.testing.assert_array_equal(data.best_reference[k], np.argmax(scores, axis=0))


def test_missing_reference_never_wins():
    data = report_data({"a": ["the cat sat", "a dog ran"]}, [["x y z", "a dog ran"], [None, "q"]], n_bootstrap=20)
    assert data.best_reference[0].tolist() == [0, 0]
    data = report_data({"a": ["the cat sat", "a dog ran"]}, [[None, "q"], ["the cat sat", "a dog ran"]],
                       n_bootstrap=20)
    assert data.best_reference[0].tolist() == [1, 1]


@pytest.mark.parametrize("lowercase", [False, True])
def test_tokenize_equals_the_python_tokenizer(example, lowercase):
    systems, _ = example
    bleu = BLEU(lowercase=lowercase)
    lines = [*systems["OpenNMT"][:300], "x\u00a0y  ", "", "&quot;Hi&quot;"]
    expected = bleu.tokenizer.tokenize_batch([x.lower() if lowercase else x for x in lines])
    assert matching.tokenize(bleu.token_view(), lines) == expected
