"""The NLTK module's statistics on the compiled core (``count_str_token_lists``) against the general
token-list path on the numpy engine, and the fallback for tokens that are not plain ``str``."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuscope.integrations.nltk as bn
from bleuscope.core.pipeline import count_token_lists
from bleuscope.integrations.nltk import _compiled_token_lists

core = _compiled_token_lists()
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
    native = core.count_str_token_lists(hyps, refs, order)
    expected = count_token_lists(hyps, refs, order=order, engine="numpy")
    np.testing.assert_array_equal(native, expected)


def test_blocks_and_threads_give_the_same_rows():
    rng = np.random.default_rng(2)
    words = [f"w{i}" for i in range(40)]
    hyps = [[words[j] for j in rng.integers(0, 40, rng.integers(0, 30))] for _ in range(20_000)]
    refs = [[[words[j] for j in rng.integers(0, 40, rng.integers(0, 30))]] for _ in range(20_000)]
    one = core.count_str_token_lists(hyps, refs, 4, 1)
    np.testing.assert_array_equal(core.count_str_token_lists(hyps, refs, 4, 2), one)
    np.testing.assert_array_equal(one[:500], count_token_lists(hyps[:500], refs[:500], order=4, engine="numpy"))


def test_other_tokens_take_the_general_path():
    assert core.count_str_token_lists([[1, 2, 3]], [[[1, 2]]], 4) is None
    assert core.count_str_token_lists(["abc"], [[["a", "b"]]], 4) is None  # a string: characters as tokens
    assert core.count_str_token_lists([["\ud800"]], [[["x"]]], 4) is None  # not UTF-8
    # and the public function still scores them
    assert bn.corpus_bleu([[[1, 2, 3, 4]]], [[1, 2, 3, 4]]) == 1.0
    assert bn.sentence_bleu([["\ud800", "a", "b", "c"]], ["\ud800", "a", "b", "c"]) == 1.0
