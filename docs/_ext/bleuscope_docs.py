"""Sphinx directives that generate pages from the code, so the site cannot drift from it.

Both write Markdown, parsed by MyST like the page around them (they are used from Markdown pages).

- ``cli-options``: the options of an :mod:`argparse` parser (``bleuscope`` or ``bleuscope report``), read from
  the parser the command itself builds.
- ``benchmark-table``: the newest committed benchmark run (``benchmarks/results/*.json``), with its date,
  machine, load and versions, as written by ``benchmarks/bench.py --save``.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.statemachine import StringList

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "benchmarks"))


def _parser(target: str) -> argparse.ArgumentParser:
    module_name, _, function = target.partition(":")
    return getattr(importlib.import_module(module_name), function or "build_parser")()


def _escape(text: str) -> str:
    """Help text as Markdown text (not markup): characters MyST would read as markup are escaped."""
    return "".join("\\" + c if c in "\\`*_[]<>|#" else c for c in text)


def _option_markdown(parser: argparse.ArgumentParser, action: argparse.Action) -> list[str]:
    formatter = parser._get_formatter()
    names = ", ".join(f"`{x}`" for x in action.option_strings) or f"`{action.dest}`"
    if action.nargs != 0 and action.option_strings:
        names += f" `{formatter._format_args(action, action.dest.upper())}`"
    text = " ".join((formatter._expand_help(action) if action.help else "(no description)").split())
    lines = [names, f": {_escape(text)}"]
    if action.choices and not isinstance(action, argparse._SubParsersAction):
        lines[-1] += " Choices: " + ", ".join(f"`{c}`" for c in action.choices) + "."
    lines.append("")
    return lines


def cli_markdown(target: str) -> list[str]:
    """The parser's usage and its options, group by group, as Markdown (a definition list per group)."""
    parser = _parser(target)
    lines = ["```text", *parser.format_usage().rstrip().split("\n"), "```", ""]
    for group in parser._action_groups:
        actions = [a for a in group._group_actions if a.help is not argparse.SUPPRESS]
        if not actions:
            continue
        title = group.title or "options"
        lines += [f"**{_escape(title[0].upper() + title[1:])}**", ""]
        if group.description:
            lines += [_escape(" ".join(group.description.split())), ""]
        for action in actions:
            lines += _option_markdown(parser, action)
    return lines


class CliOptions(Directive):
    """``.. cli-options:: bleuscope.cli.main:build_parser``"""

    required_arguments = 1

    def run(self):
        container = nodes.container()
        self.state.nested_parse(StringList(cli_markdown(self.arguments[0]), source="cli-options"), 0, container)
        return container.children


class BenchmarkTable(Directive):
    """``.. benchmark-table::`` (newest run) or ``.. benchmark-table:: FILE.json`` (one run)."""

    optional_arguments = 1
    option_spec = {"task": directives.unchanged}

    def run(self):
        import results_table

        run = results_table.load_run(self.arguments[0] if self.arguments else None)
        lines = results_table.markdown(run, task_filter=self.options.get("task")).split("\n")
        container = nodes.container()
        self.state.nested_parse(StringList(lines, source="benchmark-table"), 0, container)
        return container.children


def setup(app):
    app.add_directive("cli-options", CliOptions)
    app.add_directive("benchmark-table", BenchmarkTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
