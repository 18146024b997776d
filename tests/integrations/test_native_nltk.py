"""The NLTK module's statistics on the compiled core (``_core.IdCounter.token_list_rows``) against the general
token-list path on the numpy engine, and the fallback for tokens that are not plain ``str``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuscope.integrations.nltk as bn
from bleuscope.core import backend
from bleuscope.core.pipeline import count_token_lists

core = backend.compiled_core()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")

tokens = st.lists(
    st.sampled_from(["a", "b", "the", "é", "日本", "a b", "", "ß", "SS"]) | st.text(max_size=3), max_size=10
)


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.tuples(tokens, st.lists(tokens, min_size=1, max_size=3)), min_size=1, max_size=20), st.integers(1, 5)
)
def test_token_lists_count_like_the_numpy_engine(segments, order):
    hyps = [h for h, _ in segments]
    refs = [r for _, r in segments]
    native = core.IdCounter(order).token_list_rows(hyps, refs)
    expected = count_token_lists(hyps, refs, order=order, engine="numpy")
    np.testing.assert_array_equal(native, expected)


def test_blocks_and_threads_give_the_same_rows():
    rng = np.random.default_rng(2)
    words = [f"w{i}" for i in range(40)]
    hyps = [[words[j] for j in rng.integers(0, 40, rng.integers(0, 30))] for _ in range(20_000)]
    refs = [[[words[j] for j in rng.integers(0, 40, rng.integers(0, 30))]] for _ in range(20_000)]
    one = core.IdCounter(4, threads=1).token_list_rows(hyps, refs)
    np.testing.assert_array_equal(core.IdCounter(4, threads=2).token_list_rows(hyps, refs), one)
    np.testing.assert_array_equal(one[:500], count_token_lists(hyps[:500], refs[:500], order=4, engine="numpy"))


def test_other_tokens_take_the_general_path():
    counter = core.IdCounter(4)
    assert counter.token_list_rows([[1, 2, 3]], [[[1, 2]]]) is None
    assert counter.token_list_rows(["abc"], [[["a", "b"]]]) is None  # a string: characters as tokens
    assert counter.token_list_rows([["\ud800"]], [[["x"]]]) is None  # not UTF-8
    # and the public function still scores them
    assert bn.corpus_bleu([[[1, 2, 3, 4]]], [[1, 2, 3, 4]]) == 1.0
    assert bn.sentence_bleu([["\ud800", "a", "b", "c"]], ["\ud800", "a", "b", "c"]) == 1.0
