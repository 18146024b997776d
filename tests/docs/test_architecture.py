"""docs/architecture.md's figures, computed from the code: the Python rooms (top-level modules and packages of
src/bleuscope), their arrows (import statements) and floors, the layers (the page's drawing, pyproject's
import-linter contract and the arrows agree), no circle among rooms nor among the imports that run at import
time, the Rust crates' modules and arrows (``use crate::``) with no circle, the package listing naming every
module it lists the folders of, and the numbers the page states about the Metric contract."""

from __future__ import annotations

import ast
import importlib.util
import re
import sys
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "bleuscope"
PAGE = ROOT / "docs" / "architecture.md"
MAX_ROOMS = 14  # the most top-level modules and packages the package may grow to


@cache
def page() -> str:
    return PAGE.read_text(encoding="utf-8")


def stated(pattern: str) -> tuple[int, ...]:
    """The numbers the page states where ``pattern`` (a regex with number groups) matches."""
    match = re.search(pattern, re.sub(r"\s+", " ", page()))
    assert match, f"docs/architecture.md no longer says {pattern!r}"
    return tuple(int(g) for g in match.groups())


# -- the Python rooms ---------------------------------------------------------------------------------------
def rooms() -> list[str]:
    return sorted(
        p.name for p in PACKAGE.iterdir()
        if p.name != "__pycache__" and (p.is_dir() or p.suffix in (".py", ".pyi"))
    )


def room_of(module: str, names: list[str]) -> str | None:
    """The room of ``bleuscope.x.y``: the module or package ``x``, else the package's ``__init__`` (a name it
    defines, such as ``from bleuscope import BLEU``)."""
    parts = module.split(".")
    if parts[0] != "bleuscope":
        return None
    if len(parts) > 1:
        for name in names:
            if name == parts[1] or name in (f"{parts[1]}.py", f"{parts[1]}.pyi"):
                return name
    return "__init__.py"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if path.name == "__init__.py" else parts)


def imports(path: Path, nodes) -> list[str]:
    """The absolute module paths the import statements among ``nodes`` name (``from m import a`` names
    ``m.a``, which is the module ``m.a`` or a name of ``m``)."""
    package = module_name(path) if path.name == "__init__.py" else module_name(path).rpartition(".")[0]
    found = []
    for node in nodes:
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            found += [f"{base}.{alias.name}" for alias in node.names]
    return found


def python_files(room: str) -> list[Path]:
    path = PACKAGE / room
    return sorted(path.rglob("*.py")) if path.is_dir() else [path] if path.suffix == ".py" else []


@cache
def python_arrows() -> dict[tuple[str, str], list[str]]:
    """(room, room it imports) -> the places that import it (every import statement, inside functions too)."""
    names = rooms()
    arrows: dict[tuple[str, str], list[str]] = {}
    for room in names:
        for path in python_files(room):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                for target in imports(path, [node]):
                    other = room_of(target, names)
                    if other not in (None, room):
                        arrows.setdefault((room, other), []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return arrows


def floors(nodes, arrows) -> dict[str, int]:
    """Each node's floor: 1 for a node with no arrow out, else one above the highest node it points at."""
    out = {n: {b for a, b in arrows if a == n} for n in nodes}
    floor: dict[str, int] = {}

    def of(node, seen=()):
        assert node not in seen, f"circle: {' -> '.join((*seen, node))}"
        if node not in floor:
            floor[node] = 1 + max((of(o, (*seen, node)) for o in out[node]), default=0)
        return floor[node]

    for node in nodes:
        of(node)
    return floor


def circles(nodes, arrows) -> list[list[str]]:
    """The strongly connected groups of more than one node (Tarjan)."""
    out = {n: sorted({b for a, b in arrows if a == n and b in nodes}) for n in nodes}
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in out[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while not group or group[-1] != v:
                group.append(stack.pop())
                on.discard(group[-1])
            if len(group) > 1:
                found.append(sorted(group))

    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 10 * len(nodes) + 100))
    try:
        for v in nodes:
            if v not in index:
                visit(v)
    finally:
        sys.setrecursionlimit(limit)
    return found


def test_rooms_floors_and_arrows_are_the_pages():
    names = rooms()
    arrows = python_arrows()
    python = [n for n in names if n.endswith(".py") or (PACKAGE / n / "__init__.py").exists()]
    assert "_core.pyi" in names and "data" in names
    assert len(names) <= MAX_ROOMS, f"src/bleuscope has {len(names)} top-level modules and packages: {names}"
    assert stated(r"That is (\d+) rooms \((\d+) Python modules and packages,") == (len(names), len(python))
    assert stated(r"on (\d+) floors with (\d+) arrows") == (max(floors(names, arrows).values()), len(arrows))


def test_no_circle_among_rooms_and_no_arrow_up_the_layers():
    names, arrows = rooms(), python_arrows()
    assert circles(names, arrows) == []
    block = re.search(r"## Layers.*?```\n(.*?)```", page(), re.S).group(1)
    # a line of the drawing: the rooms of one layer ("a | b": neither imports the other), then what they are
    drawn = [[f"bleuscope.{n.strip()}" for n in re.split(r"\s{2,}", line)[0].split("|")]
             for line in block.splitlines() if line.strip()]
    if sys.version_info >= (3, 11):  # the contract lint-imports checks draws the same layers
        import tomllib

        config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
        (contract,) = [c for c in config["tool"]["importlinter"]["contracts"] if c["type"] == "layers"]
        assert [[m.strip() for m in layer.split("|")] for layer in contract["layers"]] == drawn
    layer = {module.split(".")[1]: depth for depth, line in enumerate(drawn) for module in line}
    up = [
        f"{a} -> {b} ({places[0]})"
        for (a, b), places in arrows.items()
        if a in layer and b in layer and layer[a] >= layer[b]  # depth 0 is the top
    ]
    assert up == []


def runs_at_import(tree: ast.Module) -> list[ast.stmt]:
    """The import statements that run when the module is imported (not those in functions or classes'
    methods, nor under ``if TYPE_CHECKING``)."""
    found, todo = [], list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            found.append(node)
        elif isinstance(node, ast.If) and "TYPE_CHECKING" not in ast.unparse(node.test):
            todo += node.body + node.orelse
        elif isinstance(node, ast.Try):
            todo += node.body + node.orelse + node.finalbody + [s for h in node.handlers for s in h.body]
        elif isinstance(node, ast.ClassDef):
            todo += [s for s in node.body if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))]
    return found


def test_no_circle_among_the_imports_that_run_at_import_time():
    modules = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    arrows = set()
    for name, path in modules.items():
        for target in imports(path, runs_at_import(ast.parse(path.read_text(encoding="utf-8")))):
            while target and target not in modules:
                target = target.rpartition(".")[0]
            if target and target != name:
                arrows.add((name, target))
    assert len(arrows) > 200
    assert circles(sorted(modules), arrows) == []


def test_the_circle_search_finds_a_circle():
    assert circles(["a", "b", "c", "d"], {("a", "b"), ("b", "c"), ("c", "a"), ("c", "d")}) == [["a", "b", "c"]]
    with pytest.raises(AssertionError, match="circle"):
        floors(["a", "b"], {("a", "b"), ("b", "a")})


# -- the Rust crates ------------------------------------------------------------------------------------------
def without_comments(text: str) -> str:
    return re.sub(r"//[^\n]*", "", text)


def crate_paths(text: str) -> set[tuple[str, str]]:
    """(``crate`` or ``super``, first segment) of every path through ``crate::`` or ``super::``, the items of
    ``use crate::{a::X, b}`` groups included."""
    text = without_comments(text)
    found = set()
    for match in re.finditer(r"\b(crate|super)::(\{|\w+)", text):
        kind, head = match.groups()
        if head != "{":
            found.add((kind, head))
            continue
        depth, end = 1, match.end()
        while depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        level, item = 0, ""
        for ch in text[match.end(): end - 1] + ",":  # the group's items at its own level
            level += {"{": 1, "}": -1}.get(ch, 0)
            if ch == "," and level == 0:
                if head := re.match(r"\s*(\w+)", item):
                    found.add((kind, head.group(1)))
                item = ""
            else:
                item += ch
    return found


def declared_modules(rs: Path) -> tuple[list[str], set[str]]:
    """The modules a ``lib.rs`` or ``mod.rs`` declares, and those of them compiled for tests only."""
    text = without_comments(rs.read_text(encoding="utf-8"))
    declared = re.findall(r"^\s*(?:#\[[^\]]*\]\s*)*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text, re.M)
    tests = set(re.findall(r"#\[cfg\(test\)\]\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;", text))
    return declared, tests


def rust_graph(src: Path) -> tuple[list[str], set[tuple[str, str]]]:
    """A crate's modules (declared in lib.rs, not for tests only) and the arrows between them."""
    declared, tests = declared_modules(src / "lib.rs")
    modules = [m for m in declared if m not in tests]
    arrows = set()
    for module in modules:
        files = [src / f"{module}.rs"] if (src / f"{module}.rs").exists() else sorted((src / module).rglob("*.rs"))
        for path in files:
            for kind, head in crate_paths(path.read_text(encoding="utf-8")):
                if kind == "super" and path.parent != src:
                    continue  # inside a module's folder, super:: is that module
                if head in modules and head != module:
                    arrows.add((module, head))
    return modules, arrows


CRATES = {"core": ROOT / "rust" / "core" / "src", "python": ROOT / "rust" / "python" / "src"}


def test_rust_modules_and_arrows_are_the_pages():
    core, python = rust_graph(CRATES["core"]), rust_graph(CRATES["python"])
    assert stated(r"`rust/core/src` has (\d+) modules with (\d+) arrows and `rust/python/src` (\d+) with (\d+)") == (
        len(core[0]), len(core[1]), len(python[0]), len(python[1]))


@pytest.mark.parametrize("crate", CRATES)
def test_no_circle_among_rust_modules(crate):
    modules, arrows = rust_graph(CRATES[crate])
    assert len(modules) > 5 and len(arrows) > 5
    assert circles(modules, arrows) == []
    for folder in [CRATES[crate] / m for m in modules if (CRATES[crate] / m / "mod.rs").exists()]:
        declared, tests = declared_modules(folder / "mod.rs")
        inner = [m for m in declared if m not in tests]
        inner_arrows = {
            (path.stem, head)
            for path in folder.glob("*.rs") if path.stem in inner
            for kind, head in crate_paths(path.read_text(encoding="utf-8")) if kind == "super" and head in inner
        } | {
            (path.stem, head.split("::")[0])
            for path in folder.glob("*.rs") if path.stem in inner
            for head in re.findall(rf"crate::{folder.name}::(\w+)", without_comments(path.read_text(encoding="utf-8")))
            if head in inner and head != path.stem
        }
        assert circles(inner, inner_arrows) == [], folder


def test_the_rust_path_reader_sees_groups_and_skips_comments():
    text = "use crate::{count::{A, B}, dense::C};\n// use crate::hidden;\nlet x = crate::par::run(super::tok::f);"
    assert crate_paths(text) == {("crate", "count"), ("crate", "dense"), ("crate", "par"), ("super", "tok")}


# -- the listing and the contract ---------------------------------------------------------------------------
def listing() -> str:
    return re.search(r"## The package, room by room\s*```\n(.*?)```", page(), re.S).group(1)


def listed_entries(folder: Path) -> list[str]:
    return sorted(
        p.stem for p in folder.iterdir()
        if p.name != "__pycache__" and p.name != "__init__.py" and (p.suffix == ".py" or (p / "__init__.py").exists())
    )


@pytest.mark.parametrize("folder", ["", "core", "core/native", "metrics", "analysis", "runtime", "integrations"])
def test_the_listing_names_every_module_of_the_folders_it_details(folder):
    words = set(re.findall(r"[\w.]+", listing()))
    words |= {w.removesuffix(".py") for w in words} | {w.removesuffix("/") for w in listing().split()}
    entries = listed_entries(PACKAGE / folder) if folder else rooms()
    named = {e.removesuffix(".py").removesuffix(".pyi") for e in entries} - {"__init__", "__main__"}
    assert sorted(n for n in named if n not in words and f"{n}.py" not in words) == []


def test_the_contract_figures_are_the_pages():
    from bleuscope.metrics.base import Metric
    from bleuscope.metrics.ter import REF_LENGTH_SCALE

    declared = set(vars(Metric).get("__annotations__", {})) | set(vars(Metric))
    members = {n for n in declared if not n.startswith("_")}
    without_value = {n for n in vars(Metric).get("__annotations__", {}) if n not in vars(Metric)}
    required = set(Metric.__abstractmethods__) | without_value
    assert stated(r"`bleuscope\.metrics\.base\.Metric` \((\d+) members in all\)") == (len(members),)
    words = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
    must = re.search(r"It must write (\w+): the (\w+) abstract members", page().replace("\n", " "))
    assert must and (words.index(must.group(1)), words.index(must.group(2))) == (
        len(required), len(Metric.__abstractmethods__))
    table = re.search(r"\| member \| what it is \|\n\|[-| ]+\|\n((?:\|.*\|\n)+)", page()).group(1)
    in_table = {n for row in table.splitlines() for n in re.findall(r"`(\w+)", row.split("|")[1])}
    assert in_table == required | {"higher_is_better"}
    assert stated(r"TER's mean reference length as an integer times (\d+)") == (REF_LENGTH_SCALE,)
