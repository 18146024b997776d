"""chrF n-gram orders beyond the documented bounds are a one-line usage error naming the option (exit 2), not
a numpy memory error after gigabytes of allocation."""

from __future__ import annotations

from pathlib import Path

import pytest

import bleuscope
from bleuscope.cli import main

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("-cc", "1000000", "-cc/--chrf-char-order must be at most 32, got 1000000"),
        ("-cw", "17", "-cw/--chrf-word-order must be at most 16, got 17"),
    ],
)
def test_orders_above_the_bound_are_usage_errors(capsys, monkeypatch, option, value, message):
    monkeypatch.chdir(EXAMPLE)
    assert main(["ref.A.txt", "-i", "hyp.Online-B.txt", "-m", "chrf", option, value]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"bleuscope: error: {message}"]
