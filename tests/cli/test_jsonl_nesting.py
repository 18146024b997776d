"""A JSON Lines line nested thousands of levels deep is an error naming the file and the line, not a
RecursionError traceback: as hypotheses, as references, and in shards."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from bleuscope.cli import main
from bleuscope.core.files import InputError, jsonl_record

DEPTH = 100_000
MESSAGE = "JSON nested too deeply (arrays or objects inside each other thousands of levels deep)"


def _deep(kind: str) -> str:
    opening, closing = ("[", "]") if kind == "array" else ('{"a": ', "}")
    return '{"hyp": ' + opening * DEPTH + "1" + closing * DEPTH + ', "ref": "x"}'


@pytest.mark.parametrize("kind", ["array", "object"])
def test_record_reader_names_file_and_line(kind):
    with pytest.raises(InputError, match=re.escape(f"preds.jsonl:7: {MESSAGE}")):
        jsonl_record(_deep(kind), [("hyp", "hyp"), ("ref", "ref")], "preds.jsonl", 7)


@pytest.fixture
def jsonl(tmp_path: Path, monkeypatch) -> Path:
    good = json.dumps({"hyp": "a b c", "ref": "a b c"})
    (tmp_path / "deep.jsonl").write_text(good + "\n" + _deep("array") + "\n", encoding="utf-8")
    (tmp_path / "hyp.txt").write_text("a b c\nd e f\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path / "deep.jsonl"


@pytest.mark.parametrize(
    "argv",
    [
        ["deep.jsonl", "--hyp-field", "hyp", "--ref-field", "ref"],  # hypotheses and references in one file
        ["deep.jsonl", "-i", "hyp.txt", "--ref-field", "ref"],  # references
        ["deep*.jsonl", "--hyp-field", "hyp", "--ref-field", "ref"],  # shards
    ],
)
def test_command_gives_one_line_naming_file_and_line(jsonl, capsys, argv):
    assert main(argv) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [f"bleuscope: error: deep.jsonl:2: {MESSAGE}; a field holds a string or a list of "
                                "strings"]
