"""The examples of ``bleuscope report --help`` run as written in a copy of the bundled example folder."""

from __future__ import annotations

import shlex
import shutil

import pytest

from bleuscope.report.cli import build_parser
from bleuscope.report.cli import main as report_main

from .conftest import EXAMPLE


def help_examples() -> list[str]:
    block = build_parser().format_help().split("\nexamples (", 1)[1]
    return [line.strip() for line in block.split("\n")[1:] if line.startswith("  bleuscope report ")]


def test_help_lists_examples():
    examples = help_examples()
    assert len(examples) >= 4
    assert any("-m rouge" in e for e in examples) and any("-m chrf ter" in e for e in examples)


@pytest.mark.parametrize("example", help_examples())
def test_help_example_runs_as_written(example, tmp_path, monkeypatch, capsys):
    work = tmp_path / "example"
    shutil.copytree(EXAMPLE, work)
    monkeypatch.chdir(work)
    argv = shlex.split(example)[2:]
    assert report_main(argv) == 0, capsys.readouterr().err
    err = capsys.readouterr().err
    assert "error" not in err and "wrote report.html" in err
    page = (work / "report.html").read_text(encoding="utf-8")
    sections = {"chrf": ["chrF2"], "ter": ["TER"], "rouge": ["ROUGE-1", "ROUGE-L"]}  # of the metrics named
    for name, labels in sections.items():
        assert all((f'data-metric="{label}"' in page) == (name in argv) for label in labels)
    if "--latex" in argv:
        assert (work / "tables" / "systems.tex").exists()
