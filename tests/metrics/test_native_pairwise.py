"""Pairwise BLEU on the compiled core (``_core.IdCounter.pairwise_rows``, ``_core.BleuScorer.pairwise_scores``) against the numpy engine's all-pairs path:
the same statistics and bit-identical scores, for distinct references and for the self matrix (MBR)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core import backend
from bleuscope.metrics.bleu.pairwise import pairwise_statistics

core = backend.compiled_core()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")

WORDS = ["a", "b", "c", "the", "cat", ".", "A", "é", "x,y"]
lines = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join)
OPTIONS = [
    {"effective_order": True},
    {"smooth_method": "floor", "smooth_value": 0.2},
    {"smooth_method": "add-k", "smooth_value": 1},
    {"smooth_method": "none"},
    {"max_ngram_order": 2},
    {"smooth_method": "chen-cherry-5"},  # statistics on the core, scores in numpy
    {"weights": (0.5, 0.3, 0.2, 0.0)},
]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(lines, min_size=1, max_size=8),
    st.lists(lines, min_size=1, max_size=8),
    st.sampled_from(OPTIONS),
    st.booleans(),
)
def test_native_pairwise_equals_numpy(hyps, refs, options, self_matrix):
    if self_matrix:
        refs = hyps
    native, reference = BLEU(**options), BLEU(engine="numpy", **options)
    ours, theirs = native.pairwise(hyps, refs), reference.pairwise(hyps, refs)
    assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()
    np.testing.assert_array_equal(pairwise_statistics(native, hyps, refs), pairwise_statistics(reference, hyps, refs))


def test_native_pairwise_on_wmt_like_text_matches_sentence_scores():
    hyps = ["The cat sat on the mat .", "A dog barked loudly at night", "", "the the the cat"]
    refs = ["The cat is on the mat .", "a dog barked", "night falls", "cat"]
    bleu = BLEU(effective_order=True)
    matrix = bleu.pairwise(hyps, refs)
    for h, hyp in enumerate(hyps):
        for r, ref in enumerate(refs):
            assert matrix[h, r] == bleu.sentence_score(hyp, [ref]).score


def test_thread_count_does_not_change_the_scores():
    rng = np.random.default_rng(1)
    ids = rng.integers(0, 30, 3000).astype(np.uint64)
    lens = np.full(100, 30, dtype=np.int64)
    one = core.BleuScorer(4, "exp", 0.0, True, threads=1).pairwise_scores(ids, lens)
    for threads in (2, 5):
        scores = core.BleuScorer(4, "exp", 0.0, True, threads=threads).pairwise_scores(ids, lens)
        assert scores.tobytes() == one.tobytes()
        rows = core.IdCounter(4, threads=threads).pairwise_rows(ids, lens)
        assert rows.tobytes() == core.IdCounter(4, threads=1).pairwise_rows(ids, lens).tobytes()
    with pytest.raises(ValueError, match="add up"):
        core.IdCounter(4).pairwise_rows(ids, lens[:-1])
