"""The compiled core's file reader (``_core.read_file_lines``, ``_core.TextCounter.total_files``, used by
``BLEU.corpus_score`` on paths) against the Python reader (:func:`bleuscope.core.files.read_lines`).

The reader must give the same lines, and refuse the same first line for the same reason (with the same
byte offset and column); ``BLEU`` on paths must give the score, the warnings and the errors of the
Python stream reader, which it hands the files to when the core stops.
"""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core import backend
from bleuscope.core import files as bio
from bleuscope.metrics.base import Metric

if backend.compiled_core() is None or not hasattr(backend.compiled_core(), "read_file_lines"):
    pytest.skip("the compiled core is not built in this installation", allow_module_level=True)

#: pieces files are made of: words, whitespace of every kind, CR/LF, byte order marks, NUL, bytes that are
#: not UTF-8 (stray continuation bytes, truncated and overlong sequences, surrogates, 0xFF)
PIECES = [
    b"a",
    b"the",
    b" ",
    b"\t",
    b"\n",
    b"\r\n",
    b"\r",
    b" .",
    "Grüße".encode(),
    "東京".encode(),
    "\u2028\u0085\u00a0".encode(),
    b"\xef\xbb\xbf",
    b"\xff\xfe",
    b"\x00",
    b"\x80",
    b"\xc3",
    b"\xe2\x82",
    b"\xc0\xaf",
    b"\xed\xa0\x80",
    b"\xf4\x90\x80\x80",
]

_files = st.lists(st.sampled_from(PIECES), max_size=40).map(b"".join)


def _python_read(path: Path, max_line_bytes: int):
    """The Python reader's lines, or its error message."""
    try:
        return list(bio.read_lines(path, max_line_bytes=max_line_bytes)), None
    except bio.InputError as e:
        return None, str(e)


def _expected_problem(message: str) -> dict:
    """The problem the Python reader names, in the compiled reader's terms."""
    line = int(re.match(r"[^:]*:(\d+): ", message).group(1))
    if "invalid UTF-8" in message:
        m = re.search(r"byte (0x[0-9a-f ]+) at byte offset (\d+) of the file, column (\d+)", message)
        bad = bytes.fromhex(m.group(1).replace("0x", ""))
        return {"kind": "utf-8", "line": line, "offset": int(m.group(2)), "column": int(m.group(3)), "bytes": bad}
    if "NUL character" in message:
        return {"kind": "nul", "line": line, "column": int(re.search(r"at column (\d+)", message).group(1))}
    assert "line longer than" in message, message
    return {"kind": "too-long", "line": line}


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_files, st.sampled_from([3, 8, 40, bio.MAX_LINE_BYTES]))
def test_same_lines_and_first_problem_as_the_python_reader(tmp_path, data, max_line_bytes):
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    lines, message = _python_read(path, max_line_bytes)
    got_lines, problem = backend.read_file_lines(path, max_line_bytes=max_line_bytes)
    assert got_lines == lines
    assert problem == (None if message is None else _expected_problem(message))


@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"x", b"a\r\nb\r\n", b"\xef\xbb\xbfbom\n", b"\n\n\n", "a\u2028b\x1cc\n".encode()],
)
def test_edge_files(tmp_path, data):
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    assert backend.read_file_lines(path, max_line_bytes=bio.MAX_LINE_BYTES) == (
        list(bio.read_lines(path)),
        None,
    )


def test_long_files_cross_every_buffer(tmp_path):
    # lines around the reader's 1 MiB reads, one line a little over the limit at the end
    lines = [("w" * (k % 3000)) + " ü" for k in range(2000)]
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert backend.read_file_lines(path, max_line_bytes=4000) == (lines, None)
    with path.open("ab") as f:
        f.write(b"y" * 4001)
    _, problem = backend.read_file_lines(path, max_line_bytes=4000)
    assert problem == _expected_problem(_python_read(path, 4000)[1]) == {"kind": "too-long", "line": 2001}


def _score_both(hyp, refs, **options):
    """(result, warnings) of BLEU on paths and of the Python stream reader on the same paths; a result is a
    score's text or an error ``(type, message)``."""
    out = []
    for score in (BLEU.corpus_score, lambda b, h, r: Metric.score_stream(b, h, r)):
        bleu = BLEU(**options)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            try:
                result = (str(score(bleu, hyp, refs)), None)
            except (ValueError, TypeError) as e:
                result = (None, (type(e), str(e)))
        out.append((result, [(w.category, str(w.message)) for w in caught]))
    return out


_segment_files = st.lists(
    st.lists(st.sampled_from(PIECES[:11] + [b"x", b"." * 3, b"foo .", b"\n"]), max_size=12).map(b"".join),
    min_size=1,
    max_size=3,
)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_segment_files, st.sampled_from(["13a", "intl", "char", "none", "zh"]), st.booleans())
def test_bleu_on_paths_equals_the_stream_reader(tmp_path, contents, tokenize, lowercase):
    paths = []
    for k, data in enumerate(contents):
        paths.append(tmp_path / f"s{k}.txt")
        paths[-1].write_bytes(data)
    fast, reference = _score_both(paths[0], paths[1:] or [paths[0]], tokenize=tokenize, lowercase=lowercase)
    assert fast == reference


def test_bleu_on_paths_with_problems_raises_the_python_readers_errors(tmp_path):
    good = "the cat sat on the mat .\n" * 150
    cases = {
        "utf8": (good + "bad \xff line\n").encode("latin-1"),
        "nul": (good + "a\0b\n").encode(),
        "short": ("the cat .\n" * 149).encode(),
        "empty": b"",
        "long": (good + "x" * (bio.MAX_LINE_BYTES + 1) + "\n").encode(),
    }
    ref = tmp_path / "ref.txt"
    ref.write_text(good + "one more\n", encoding="utf-8")
    for name, data in cases.items():
        hyp = tmp_path / f"{name}.txt"
        hyp.write_bytes(data)
        fast, reference = _score_both(hyp, [ref])
        assert fast == reference, name
        assert fast[0][1] is not None, name  # every case is an error
    fast, reference = _score_both(ref, [ref], force=False)
    assert fast == reference and fast[0][1] is None
    assert any("tokenized period" in str(m) for _, m in fast[1])
    missing = tmp_path / "missing.txt"
    assert _score_both(missing, [ref])[0] == _score_both(missing, [ref])[1]


def test_bleu_on_paths_equals_lists_on_a_large_file(tmp_path):
    words = ["the", "cat", "sat", "on", "a", "mat", "Grüße,", "3-4", "x.", "(y)"]
    hyps = [" ".join(words[(i * 7 + j) % len(words)] for j in range(i % 23)) for i in range(150_000)]
    refs = [" ".join(words[(i * 3 + j * j) % len(words)] for j in range(i % 19)) for i in range(150_000)]
    (tmp_path / "h.txt").write_text("\n".join(hyps) + "\n", encoding="utf-8")
    (tmp_path / "r.txt").write_text("\n".join(refs), encoding="utf-8")  # no final newline
    for threads in (1, 3):
        bleu = BLEU(threads=threads, force=True)
        on_paths = bleu.corpus_score(tmp_path / "h.txt", [tmp_path / "r.txt", tmp_path / "r.txt"])
        in_memory = bleu.corpus_score(hyps, [refs, refs])
        assert str(on_paths) == str(in_memory)
        assert on_paths.counts == in_memory.counts and on_paths.signature == in_memory.signature
