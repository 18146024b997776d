"""The report's inputs: arguments named in their errors; the command's files read side by side (a line-count
mismatch, a decompression bomb or a corpus beyond the report's size found within a block, under a memory
limit), and its stated limits on resamples and systems."""

from __future__ import annotations

import gzip
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import bleuscope
from bleuscope.report import build_report
from bleuscope.report.cli import MAX_REPORT_RESAMPLES, MAX_REPORT_SEGMENTS, MAX_REPORT_SYSTEMS
from bleuscope.report.cli import main as report_main


@pytest.mark.parametrize("systems", [{"a": None}, {"a": 3}, [("a", None)]])
def test_a_system_that_is_not_a_list_is_named(systems):
    with pytest.raises(TypeError, match=r"^system 'a' must be a list of hypothesis strings, got (NoneType|int)$"):
        build_report(systems, [["x"]])


# -- the command's inputs: read side by side, bounded ------------------------------------------------------


EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
REF, HYP = str(EXAMPLE / "ref.A.txt"), str(EXAMPLE / "hyp.OpenNMT.txt")


def one_line(capsys, code: int, expected_code: int, *fragments: str) -> str:
    err = capsys.readouterr().err
    assert code == expected_code and err.count("\n") == 1 and err.startswith("bleuscope report: error: "), err
    assert all(f in err for f in fragments), err
    return err


@pytest.fixture(scope="module")
def bomb(tmp_path_factory) -> Path:
    """10**9 empty lines in 1 MB of gzip (members of 10 MB of newlines, one after the other)."""
    path = tmp_path_factory.mktemp("bomb") / "bomb-lines.gz"
    member = gzip.compress(b"\n" * 10_000_000, compresslevel=9)
    with open(path, "wb") as f:
        for _ in range(100):
            f.write(member)
    return path


@pytest.mark.parametrize("side", ["hypothesis", "reference"])
def test_a_bomb_is_found_under_a_memory_limit(tmp_path, bomb, side):
    """Before: every input read whole (``list(read_lines(...))``): 3.7 GB and a MemoryError after 73 s."""
    args = [REF, "-i", str(bomb)] if side == "hypothesis" else [str(bomb), "-i", HYP]
    script = textwrap.dedent(f"""
        import resource, sys
        limit = 1200 << 20
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        from bleuscope.report.cli import main
        sys.exit(main({[*args, "-o", str(tmp_path / "r.html")]!r}))
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and done.stderr.count("\n") == 1, done.stderr[-2000:]
    assert "line counts differ" in done.stderr and f"{bomb} has at least 1010000" in done.stderr
    assert "was not read to its end" in done.stderr
    assert not (tmp_path / "r.html").exists()


def test_exact_counts_of_a_short_mismatch(capsys, tmp_path):
    short = tmp_path / "short.txt"
    short.write_text("".join(Path(HYP).read_text(encoding="utf-8").splitlines(keepends=True)[:299]), encoding="utf-8")
    code = report_main([REF, "-i", HYP, "--source", str(short), "-o", str(tmp_path / "r.html")])
    one_line(capsys, code, 1, f"source {short} has 299 lines but reference {REF} has 300; {REF}:300 has no "
                              "counterpart (nothing is truncated)")


def test_a_corpus_beyond_the_report_size_is_refused_before_it_is_read_whole(capsys, tmp_path):
    lines = tmp_path / "many.txt"
    lines.write_text("a b c\n" * (MAX_REPORT_SEGMENTS + 20_001), encoding="utf-8")
    code = report_main([str(lines), "-i", str(lines), "-o", str(tmp_path / "r.html")])
    one_line(capsys, code, 1, f"more than {MAX_REPORT_SEGMENTS:,} segments", "main command")


def test_resamples_and_systems_beyond_the_report_limits_are_usage_errors(capsys, tmp_path):
    code = report_main([REF, "-i", HYP, "--n-bootstrap", str(MAX_REPORT_RESAMPLES + 1), "-o", str(tmp_path / "r")])
    one_line(capsys, code, 2, f"--n-bootstrap: must be from 1 to {MAX_REPORT_RESAMPLES:,}")
    systems = []
    for k in range(MAX_REPORT_SYSTEMS + 1):
        systems.append(tmp_path / f"sys{k}.txt")
        systems[-1].write_text("a\n", encoding="utf-8")
    code = report_main(["x.txt", "-i", *map(str, systems), "-o", str(tmp_path / "r.html")])
    one_line(capsys, code, 2, f"{MAX_REPORT_SYSTEMS + 1} systems", f"at most {MAX_REPORT_SYSTEMS}")


def test_the_library_has_the_same_limits():
    with pytest.raises(ValueError, match=f"at most {MAX_REPORT_SYSTEMS}"):
        build_report({f"s{k}": ["a"] for k in range(MAX_REPORT_SYSTEMS + 1)}, [["a"]])
    with pytest.raises(ValueError, match="n_bootstrap must be at most"):
        build_report({"a": ["a"]}, [["a"]], n_bootstrap=MAX_REPORT_RESAMPLES + 1)
