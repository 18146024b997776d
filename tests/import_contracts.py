"""Deleted module paths: one scanner of import statements, used by an import-linter contract type
(``lint-imports``, configured in pyproject.toml) and by tests/test_structure.py (benchmarks/ and tests/).

import-linter's ``forbidden`` contract refuses modules that do not exist, and its import graph records an
import of a missing submodule (``from .. import io``) as one of the nearest existing package, or not at all
(``from ..significance import x``). So this contract reads each module's source and resolves the module
every import statement names (and every dotted ``bleuscope.x.y`` name in a string, such as a warning
filter); one of ``former_modules``, or below one, breaks it.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from collections.abc import Iterator
from pathlib import Path

#: the drop-ins' documented short names (``bleuscope.nltk.corpus_bleu``): text may name them
SHORT_NAMES = ("nltk", "rouge_score")


def imported_modules(path: Path, package: str) -> Iterator[tuple[int, str]]:
    """(line, absolute module name) of every import in a Python file of ``package``, relative imports
    resolved; names of the form ``bleuscope.x.y`` inside strings count too (except the short names)."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            yield node.lineno, base
            for alias in node.names:  # ``from bleuscope import io``
                yield node.lineno, f"{base}.{alias.name}"
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):  # "ignore::bleuscope.io.X"
            for name in re.findall(r"(?<![\w.])bleuscope(?:\.\w+)+", node.value):
                if name.split(".")[1] not in SHORT_NAMES:
                    yield node.lineno, name


def former_imports(path: Path, package: str, former) -> list[tuple[int, str]]:
    """The (line, module) imports of ``path`` that name one of ``former`` or a module below one."""
    return [
        (line, name)
        for line, name in imported_modules(path, package)
        if any(name == f or name.startswith(f + ".") for f in former)
    ]


try:  # the contract type, when import-linter is installed (the test extra has it)
    from importlinter.application import output
    from importlinter.domain import fields
    from importlinter.domain.contract import Contract, ContractCheck
except ImportError:  # pragma: no cover
    Contract = object  # type: ignore[misc,assignment]

if Contract is not object:

    class FormerModulesContract(Contract):
        """No module of the package imports one of ``former_modules`` (module paths that were deleted)."""

        type_name = "former_modules"

        former_modules = fields.ListField(subfield=fields.StringField())

        def check(self, graph, verbose: bool) -> ContractCheck:
            former = tuple(str(m) for m in self.former_modules)  # type: ignore[attr-defined]
            found = []
            for module in sorted(graph.modules):
                origin = importlib.util.find_spec(module).origin
                if origin is None or not origin.endswith(".py"):
                    continue
                package = module if origin.endswith("__init__.py") else module.rpartition(".")[0]
                for line, name in former_imports(Path(origin), package, former):
                    found.append(f"{module}:{line}: {name}")
            return ContractCheck(kept=not found, metadata={"found": found})

        def render_broken_contract(self, check: ContractCheck) -> None:
            for line in check.metadata["found"]:
                output.print_error(line, bold=False)
                output.new_line()
