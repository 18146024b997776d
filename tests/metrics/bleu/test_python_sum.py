"""sacreBLEU's BLEU adds the log precisions with Python's ``sum()``, whose rounding changed in CPython 3.12
(compensated summation): bleuscope's row-wise sum, and the compiled core's, equal the running Python's."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.metrics.bleu.scoring import python_sum

_term = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False, width=64),
    st.sampled_from([0.0, -9999999999.0, 1e16, -1e16, 1.0, 4.605170185988092, -2.302585092994046]),
)


@settings(max_examples=300, deadline=None)
@given(rows=st.lists(st.lists(_term, min_size=4, max_size=4), min_size=1, max_size=8))
def test_row_sums_equal_builtin_sum(rows):
    columns = [np.array([r[i] for r in rows]) for i in range(4)]
    got = python_sum(columns, len(rows))
    expected = [sum(r) for r in rows]
    assert [x.hex() for x in got.tolist()] == [x.hex() for x in expected]


def test_a_case_the_two_roundings_tell_apart():
    # 1e16 + 1.0 - 1e16: 0.0 added left to right, 1.0 with compensation; both as this Python's sum()
    got = python_sum([np.array([1e16]), np.array([1.0]), np.array([-1e16])], 1)
    assert got.tolist() == [sum([1e16, 1.0, -1e16])]
