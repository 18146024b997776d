"""The command counts BLEU on plain UTF-8 text files with the compiled core's file reader; everything it
prints (scores, warnings, errors naming file, line and byte, exit codes) is what the chunk loop of the
Python reader prints, which the core hands the files back to at any problem."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuscope.cli.scoring as scoring
from bleuscope.cli.inputs import chunk_heads

from ..conftest import requires_core

GOOD_HYPS = ["The cat sat on the mat .", "Hello , world !", "", "a b c d", "Grüße\u00a0aus Köln .\r", "x .  "]
GOOD_REFS = ["The cat sat on a mat .", "Hello world!", "nothing", "a b c d e", "Grüße aus Köln.", "x"]


def write(path, lines, end="\n"):
    path.write_bytes((end.join(lines) + end).encode("utf-8") if lines else b"")
    return path


@pytest.fixture
def both_paths(run_main, monkeypatch):
    """Runs the command twice, with and without the core's file reader: returns both results and whether
    the core counted."""

    def call(argv):
        counted = []
        real = scoring.count_files_in_core

        def spy(*args, **kwargs):
            result = real(*args, **kwargs)
            counted.append(result is not None)
            return result

        monkeypatch.setattr(scoring, "count_files_in_core", spy)
        core = run_main([str(a) for a in argv])
        monkeypatch.setattr(scoring, "count_files_in_core", lambda *args, **kwargs: None)
        python = run_main([str(a) for a in argv])
        monkeypatch.setattr(scoring, "count_files_in_core", real)
        return core, python, any(counted)

    return call


@requires_core
@pytest.mark.parametrize(
    "options",
    [[], ["-lc"], ["-tok", "intl"], ["-tok", "char"], ["-tok", "none"], ["-f", "text"], ["-m", "bleu", "chrf"]],
)
def test_same_output_as_the_python_reader(tmp_path, both_paths, options):
    hyp = write(tmp_path / "hyp.txt", GOOD_HYPS * 30)
    other = write(tmp_path / "other.txt", GOOD_REFS * 30)
    ref = write(tmp_path / "ref.txt", GOOD_REFS * 30)
    ref2 = write(tmp_path / "ref2.txt", GOOD_HYPS[::-1] * 30)
    for argv in ([hyp, "-r", ref], [hyp, other, "-r", ref, ref2]):
        core, python, counted = both_paths([*argv, *options])
        assert core == python
        assert core[0] == 0
        assert counted


@requires_core
def test_the_warnings_of_every_chunk(tmp_path, both_paths, monkeypatch):
    # tokenized lines (" ." also before trailing whitespace, as sacreBLEU's command strips lines) and a
    # hypothesis file that turns Chinese after its first chunk: the chunk loop checks every chunk
    monkeypatch.setattr(scoring, "CHUNK_SEGMENTS", 40)
    hyps = ["a b c .", "d e .\r", "f g . \u3000"] * 40 + ["这是一个中文句子，没有空格。"] * 60
    hyp = write(tmp_path / "hyp.txt", hyps)
    ref = write(tmp_path / "ref.txt", ["a b c", "d e", "f g"] * 40 + ["这是中文。"] * 60)
    core, python, counted = both_paths([hyp, "-r", ref, "-tok", "13a"])
    assert core == python and counted
    assert "lines end in ' .'" in core[2] and "Chinese, Japanese or Korean" in core[2]
    core, python, counted = both_paths([hyp, "-r", hyp])
    assert core == python and counted
    assert "both a hypothesis and a reference" in core[2]


BAD_FILES = {
    "invalid UTF-8": b"ok\nab\xffc\nend\n",
    "NUL": b"ok\nab\x00c\nend\n",
    "too long": b"ok\n" + b"x" * 300 + b"\nend\n",
    "shorter": b"ok\nend\n",
    "longer": b"ok\nmid\nend\nmore\n",
    "empty": b"",
    "truncated UTF-8": b"ok\nmid\nend \xe2\x82",
    "byte order mark": b"\xef\xbb\xbfok\nmid\nend\n",
}


@requires_core
@pytest.mark.parametrize("which", ["hypothesis", "reference"])
@pytest.mark.parametrize("bad", list(BAD_FILES))
def test_bad_files_give_the_same_errors(tmp_path, both_paths, which, bad):
    good = write(tmp_path / "good.txt", ["ok", "mid", "end"])
    broken = tmp_path / "bad.txt"
    broken.write_bytes(BAD_FILES[bad])
    hyp, ref = (broken, good) if which == "hypothesis" else (good, broken)
    core, python, counted = both_paths([hyp, "-r", ref, "--max-line-bytes", "100"])
    assert core == python
    assert not counted  # the core stopped (or, for the mark, left the file to the Python reader)
    if bad != "byte order mark":
        assert core[0] != 0 and "bad.txt" in core[2]


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n"), max_size=6), max_size=40),
    size=st.integers(1, 7),
    max_chars=st.integers(1, 12),
    final_newline=st.booleans(),
    block=st.integers(1, 9),
)
def test_chunk_heads_are_the_samples_of_the_chunk_loop(tmp_path, lines, size, max_chars, final_newline, block):
    path = tmp_path / "h.txt"
    data = "\n".join(lines) + ("\n" if final_newline and lines else "")
    path.write_bytes(data.encode("utf-8"))
    read = data.split("\n")
    if read and read[-1] == "":
        read.pop()
    expected = ["\n".join(read[i : i + size])[:max_chars] for i in range(0, len(read), size)]
    assert list(chunk_heads(str(path), size, max_chars, block_bytes=block)) == expected
