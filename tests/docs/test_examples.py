"""Every example in the README and in the site's pages (docs/**/*.md) runs as written, on the bundled example
(src/bleuscope/data/example).

* ``python`` blocks are executed, each in a fresh namespace, in a temporary copy of the example folder. A block
  whose optional extra is not installed (``MissingExtraError`` or a missing optional module) is skipped with
  that reason.
* Shell transcripts (lines starting with ``$ `` in any block) are run with bash in a copy of the example
  folder, one after the other; stdout and stderr together must equal the lines printed under the command.
  Other lines (``pip install ...`` set-up commands without ``$``) are not run.
* The examples of ``bleuscope -h`` are run by tests/cli/test_cli_defects.py.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from bleuscope import cli

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
#: the pages whose examples run: the README and the site's Markdown pages (not the build output)
PAGES = [README, *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)]
EXAMPLE = Path(cli.example_dir())
#: optional modules whose absence skips a block (each is behind an extra, or is the framework its page is
#: about: lm-evaluation-harness is no test extra, CI installs it without its dependencies)
OPTIONAL_MODULES = {"torch", "ray", "pyarrow", "playwright", "MeCab", "mecab_ko", "sentencepiece", "sacrebleu", "dask",
                    "lm_eval", "jinja2"}


@dataclass
class Block:
    language: str
    code: str
    line: int  # line of the opening fence in its page
    section: str
    page: str = "README.md"  # relative to the repository's root

    @property
    def id(self) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", self.section.lower()).strip("-")[:40]
        return f"{self.page}:{slug}-L{self.line}"


def readme_blocks(page: Path = README) -> list[Block]:
    blocks, section = [], ""
    lines = page.read_text(encoding="utf-8").split("\n")
    name = page.relative_to(ROOT).as_posix()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("#"):
            section = line.lstrip("#").strip()
        if line.startswith("```"):
            language = line[3:].strip()
            start = i + 1
            i += 1
            while i < len(lines) and not lines[i].startswith("```"):
                i += 1
            blocks.append(Block(language, "\n".join(lines[start:i]), start, section, name))
        i += 1
    return blocks


def all_blocks() -> list[Block]:
    return [b for page in PAGES for b in readme_blocks(page)]


def transcripts() -> list[tuple[Block, list[tuple[str, str]]]]:
    """Blocks with ``$ `` commands: (block, [(command, expected output), ...])."""
    found = []
    for block in all_blocks():
        if block.language == "python" or not any(x.startswith("$ ") for x in block.code.split("\n")):
            continue
        steps: list[tuple[str, list[str]]] = []
        for x in block.code.split("\n"):
            if x.startswith("$ "):
                steps.append((x[2:], []))
            elif steps:
                steps[-1][1].append(x)
        found.append((block, [(cmd, "".join(o + "\n" for o in out)) for cmd, out in steps]))
    return found


@pytest.fixture
def example_copy(tmp_path) -> Path:
    work = tmp_path / "example"
    shutil.copytree(EXAMPLE, work)
    return work


def test_readme_has_examples():
    blocks = readme_blocks()
    assert sum(b.language == "python" for b in blocks) >= 3
    assert sum(len(steps) for b, steps in transcripts() if b.page == "README.md") >= 4


@pytest.mark.parametrize("block", [b for b in all_blocks() if b.language == "python"], ids=lambda b: b.id)
def test_python_block_runs(block, example_copy, monkeypatch, request):
    monkeypatch.chdir(example_copy)
    from bleuscope import MissingExtraError

    if re.search(r"^import ray$", block.code, re.M):
        # the test run's one local Ray runtime (tests/conftest.py) stands in for the one the page starts and
        # stops; the page's relative paths are read by its workers, so the page runs in their directory
        ray = request.getfixturevalue("local_ray")
        workdir = request.getfixturevalue("ray_workdir")
        shutil.copytree(example_copy, workdir, dirs_exist_ok=True)
        monkeypatch.chdir(workdir)
        monkeypatch.setattr(ray, "init", lambda *args, **kwargs: None)
        monkeypatch.setattr(ray, "shutdown", lambda *args, **kwargs: None)
    namespace = {"__name__": "__readme__"}
    try:
        exec(compile(block.code, f"{block.page}:{block.line}", "exec"), namespace)  # noqa: S102 - the page's code
    except MissingExtraError as e:
        pytest.skip(f"optional extra not installed: {e}")
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in OPTIONAL_MODULES:
            pytest.skip(f"optional module {e.name} not installed")
        raise
    finally:
        namespace.clear()  # actors the page made end with their last handle, freeing their CPUs


@pytest.mark.parametrize("block, steps", transcripts(), ids=lambda x: x.id if isinstance(x, Block) else "")
def test_shell_transcript_prints_what_the_readme_shows(block, steps, example_copy):
    if shutil.which("bleuscope") is None:
        pytest.skip("the bleuscope command is not on PATH")
    env = {**os.environ, "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"}
    for command, expected in steps:
        proc = subprocess.run(
            ["bash", "-c", command + " 2>&1"], cwd=example_copy, capture_output=True, env=env, timeout=120
        )
        got = proc.stdout.decode("utf-8")
        assert got == expected, f"{block.page}:{block.line}: $ {command}"
