"""Several systems against shared references on the compiled core (``backend.count_text_systems``, used
by the significance tests' ``system_statistics``): the rows of separate per-system counts, numpy's too."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.analysis.significance import system_statistics
from bleuscope.core import backend
from bleuscope.tokenizers import get_tokenizer

pytestmark = pytest.mark.skipif(not backend.native_available(), reason="the compiled core is not built")

WORDS = ["The", "cat", "sat", ".", "on", "é", "Straße", "日本語", "a,b", "(x)", "1.5", "-", "ǅ"]
line = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 6).flatmap(
        lambda n: st.tuples(
            st.lists(st.lists(line, min_size=n, max_size=n), min_size=1, max_size=4),
            st.lists(st.lists(line | st.none(), min_size=n, max_size=n), min_size=1, max_size=3),
        )
    ),
    st.sampled_from(["13a", "intl", "none", "char", "zh"]),
    st.booleans(),
)
def test_systems_count_like_separate_calls(data, tokenize, lowercase):
    systems, refs = data
    tok = get_tokenizer(tokenize)
    rows = backend.count_text_systems(systems, refs, tokenizer=tok, lowercase=lowercase, order=4)
    if rows is None:  # a line the compiled tokenizer leaves to Python: the caller counts per system
        return
    n_seg = len(systems[0])
    for k, hyps in enumerate(systems):
        numpy_rows = backend.count_text(hyps, refs, tokenizer=tok, lowercase=lowercase, order=4, engine="numpy")
        np.testing.assert_array_equal(rows[k * n_seg : (k + 1) * n_seg], numpy_rows)


def test_system_statistics_on_the_core_equals_the_numpy_engine():
    systems = [["The cat sat on the mat .", "a b c", ""], ["The cat is here .", "a b", "x"], ["c", "", "z y"]]
    refs = [["The cat sat on a mat .", "a b c d", "x y z"], ["A cat .", None, "z"]]
    native = system_statistics(BLEU(), systems, refs)
    reference = system_statistics(BLEU(engine="numpy"), systems, refs)
    for a, b in zip(native, reference):
        np.testing.assert_array_equal(a.stats, b.stats)
        np.testing.assert_array_equal(a.nrefs, b.nrefs)


def test_lines_for_the_python_tokenizer_fall_back():
    tok = get_tokenizer("13a")
    assert backend.count_text_systems([["a \ud800 b"]], [["a b"]], tokenizer=tok, lowercase=False, order=4) is None
    assert (
        backend.count_text_systems([["a b"]], [["a b"]], tokenizer=tok, lowercase=False, order=4, engine="numpy")
        is None
    )
    stats = system_statistics(BLEU(), [["a \ud800 b"], ["a b"]], [["a b"]])
    assert stats[1].stats[0, :4].tolist() == [2, 2, 2, 1]
