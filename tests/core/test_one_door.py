"""The compiled core has one door: no module other than ``bleuscope.core.native`` (its ``__init__``) imports
``bleuscope._core`` (the package, the tests and the benchmarks reach it through the door), and the door
refuses a compiled core of another version. Its typed boundary, ``_core.pyi``,
is checked against the built module by mypy's stubtest in CI (.ci/run)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DOOR = ROOT / "src" / "bleuscope" / "core" / "native" / "__init__.py"
#: callables that import a module named by a string
IMPORTERS = {"import_module", "importorskip", "__import__", "find_spec"}


def _core_imports(path: Path) -> list[int]:
    """Lines of ``path`` that import ``bleuscope._core``, statically or by name."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            hit = any(a.name == "bleuscope._core" or a.name.startswith("bleuscope._core.") for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            hit = module.endswith("_core") and (node.level or module.startswith("bleuscope")) or (
                (module == "bleuscope" or (node.level and module in ("", "bleuscope")))
                and any(a.name == "_core" for a in node.names)
            )
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "attr", None) or getattr(node.func, "id", None)
            hit = name in IMPORTERS and any(
                isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value.endswith("bleuscope._core")
                for a in node.args
            )
        else:
            continue
        if hit:
            lines.append(node.lineno)
    return lines


def _python_files() -> list[Path]:
    return [p for d in ("src", "tests", "benchmarks") for p in sorted((ROOT / d).rglob("*.py"))]


def test_the_scan_finds_every_form_of_import(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import bleuscope._core\n"
        "from bleuscope import _core\n"
        "from .. import _core\n"
        "from ... import _core as c\n"
        "import importlib; importlib.import_module('bleuscope._core')\n"
        "pytest.importorskip('bleuscope._core')\n"
        "from bleuscope.core import native\n"  # not an import of the core
        "from . import core\n",
        encoding="utf-8",
    )
    assert _core_imports(sample) == [1, 2, 3, 4, 5, 6]


def test_only_the_backend_imports_the_compiled_core():
    files = _python_files()
    assert DOOR in files and _core_imports(DOOR), "the door itself imports the compiled core"
    others = {str(p.relative_to(ROOT)): lines for p in files if p != DOOR and (lines := _core_imports(p))}
    assert others == {}, f"import bleuscope._core through bleuscope.core.native only: {others}"


def test_the_door_mirrors_the_bindings():
    """One module of the door per bindings file of rust/python/src (lib.rs is the door itself; errors.rs
    and input.rs hold no Python objects)."""
    bindings = {p.stem for p in (ROOT / "rust" / "python" / "src").glob("*.rs")} - {"lib", "errors", "input"}
    door = {p.stem for p in DOOR.parent.glob("*.py")} - {"__init__"}
    assert door == bindings


def test_a_compiled_core_of_another_version_is_refused():
    import pytest

    from bleuscope import __version__
    from bleuscope.core import native

    native.check_version(__version__)  # the built core's version is checked the same way on import
    with pytest.raises(native.NativeVersionError, match=r"compiled core \(bleuscope._core\) is version 0.0.9, but the Python package is"):
        native.check_version("0.0.9")
    with pytest.raises(ImportError, match="rebuild it"):
        native.check_version(None)
    core = native.compiled_core()
    if core is not None:
        assert core.__version__ == __version__
