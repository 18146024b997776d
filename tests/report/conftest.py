"""Fixtures of the report's tests: the two example systems shipped with the package and their references."""

from pathlib import Path

import pytest

import bleuscope

from ..conftest import read_lines

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"


@pytest.fixture(scope="module")
def example():
    systems = {"Online-B": read_lines(EXAMPLE / "hyp.Online-B.txt"), "OpenNMT": read_lines(EXAMPLE / "hyp.OpenNMT.txt")}
    refs = [read_lines(EXAMPLE / "ref.A.txt"), read_lines(EXAMPLE / "ref.B.txt")]
    return systems, refs
