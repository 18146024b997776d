"""The report's inputs: arguments named in their errors."""

from __future__ import annotations

import pytest

from bleuscope.report import build_report


@pytest.mark.parametrize("systems", [{"a": None}, {"a": 3}, [("a", None)]])
def test_a_system_that_is_not_a_list_is_named(systems):
    with pytest.raises(TypeError, match=r"^system 'a' must be a list of hypothesis strings, got (NoneType|int)$"):
        build_report(systems, [["x"]])
