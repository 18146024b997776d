"""``Metric.check_systems``: every system's hypotheses checked as ``check_inputs`` checks them (with the
input warnings), the references once; ``counter.systems`` on its result gives each system's own rows."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from bleuscope import BLEU, CHRF, METEOR, ROUGE, TER
from bleuscope.tokenizers.language import CJKTokenizationWarning

SYSTEMS = [["the cat sat", "a dog ."], ["cat the sat", "dog a ."], ["这是一个中文句子", "没有空格"]]
REFS = [["the cat sat on the mat", "a dog"], ["a cat", None]]


@pytest.mark.parametrize("metric", [BLEU(), CHRF(), TER(), ROUGE(), METEOR()], ids=lambda m: type(m).__name__)
@pytest.mark.filterwarnings("ignore::bleuscope.tokenizers.language.CJKTokenizationWarning")
def test_same_as_each_system_alone(metric):
    systems, streams, present = metric.check_systems(SYSTEMS, REFS)
    for system, rows in zip(SYSTEMS, metric.counter.systems(systems, streams, present)):
        hyps, alone_streams, alone_present = metric.check_inputs(system, REFS)
        assert hyps == system and alone_streams == streams
        np.testing.assert_array_equal(alone_present, present)
        np.testing.assert_array_equal(rows, metric.count_checked(hyps, alone_streams, alone_present))


def test_every_system_warned_about():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        BLEU().check_systems(SYSTEMS, REFS)  # the third system is Chinese
    assert [w.category for w in caught] == [CJKTokenizationWarning]


def test_errors():
    with pytest.raises(ValueError, match=r"systems\[1\] has 1 segments but systems\[0\] has 2"):
        BLEU().check_systems([["a", "b"], ["a"]], [["x", "y"]])
    with pytest.raises(TypeError, match=r"systems\[1\]\[1\] must be a string"):
        BLEU().check_systems([["a", "b"], ["a", 3]], [["x", "y"]])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        BLEU().check_systems([["a", "b"], ["a", "b"]], [["x", None]])
    with pytest.raises(ValueError, match="TER's exact statistics support up to 16"):  # TER's own reference check
        TER().check_systems([["a"], ["b"]], [["x"]] * 17)
