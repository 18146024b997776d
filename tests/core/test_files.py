"""The one line reader and the atomic writer of bleuscope.core.files (the library's and the command line's)."""

from __future__ import annotations

import bz2
import gzip
import lzma
import os
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core.native import files as native_files
from bleuscope.core import files as bio
from bleuscope.core.files import InputError
from bleuscope.metrics.base import Metric

from ..conftest import DATA, read_lines, requires_core, requires_wmt

# characters that str.splitlines() treats as line breaks but a segment may contain
SPLITLINES_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def write(path, data: bytes):
    path.write_bytes(data)
    return str(path)


# -- splitting --------------------------------------------------------------------------------------------
def test_split_lines_only_on_newline():
    text = "a\u2028b\nc\x1dd\re\n\x85\n"
    assert bio.split_lines(text) == ["a\u2028b", "c\x1dd\re", "\x85"]
    assert text.splitlines() != bio.split_lines(text)  # the trap this avoids


@pytest.mark.parametrize("text, lines", [
    ("", []), ("\n", [""]), ("a", ["a"]), ("a\n", ["a"]), ("a\n\n", ["a", ""]), ("\n\na", ["", "", "a"]),
    (" a \t\n", [" a \t"]),
])
def test_split_lines_edges(text, lines):
    assert bio.split_lines(text) == lines


@settings(max_examples=60, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_characters="\n\x00") | st.sampled_from(SPLITLINES_BREAKS))))
def test_split_lines_round_trip(lines):
    assert bio.split_lines("".join(x + "\n" for x in lines)) == lines


@requires_wmt
def test_control_character_inside_segment_is_kept():
    # wmt24pp/en-ko ref.orig.txt line 17 holds U+001D, which str.splitlines() would split on
    path = DATA / "wmt24pp" / "en-ko" / "ref.orig.txt"
    lines = list(bio.read_lines(str(path)))
    assert lines == read_lines(path)
    assert len(lines) == 998 and "\x1d" in lines[16]


# -- compression ------------------------------------------------------------------------------------------
@requires_wmt
@pytest.mark.parametrize("ext, module", [(".gz", gzip), (".xz", lzma), (".bz2", bz2)])
def test_compressed_files_read_by_extension(tmp_path, ext, module):
    src = DATA / "generaltest2022" / "en-de" / "ref.A.txt"
    data = src.read_bytes()
    path = write(tmp_path / f"ref{ext}", module.compress(data))
    assert list(bio.read_lines(path)) == read_lines(src)


@pytest.mark.parametrize("ext", [".gz", ".xz", ".bz2"])
def test_corrupt_compressed_file_is_an_input_error(tmp_path, ext):
    path = write(tmp_path / f"x{ext}", b"this is not compressed\n")
    with pytest.raises(InputError, match=rf"x\{ext}: not a valid {ext[1:]} file"):
        list(bio.read_lines(path))


def test_truncated_gzip_is_an_input_error(tmp_path):
    path = write(tmp_path / "x.gz", gzip.compress(b"a\nb\nc\n" * 1000)[:-20])
    with pytest.raises(InputError, match="not a valid gz file or truncated"):
        list(bio.read_lines(path))


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(InputError, match="nope.txt: no such file"):
        list(bio.read_lines(str(tmp_path / "nope.txt")))
    with pytest.raises(InputError, match="is a directory"):
        list(bio.read_lines(str(tmp_path)))


def test_unreadable_file(tmp_path, monkeypatch):
    path = write(tmp_path / "locked.txt", b"a\n")

    def deny(*args, **kwargs):
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("builtins.open", deny)
    with pytest.raises(InputError, match="locked.txt: permission denied"):
        list(bio.read_lines(path))


# -- decoding ---------------------------------------------------------------------------------------------
def test_invalid_utf8_names_line_column_and_offset(tmp_path):
    path = write(tmp_path / "h.txt", "première\nzweite Zeile \xff\n".encode("utf-8").replace(b"\xc3\xbf", b"\xff"))
    with pytest.raises(InputError) as e:
        list(bio.read_lines(path))
    msg = str(e.value)
    offset = (tmp_path / "h.txt").read_bytes().index(b"\xff")
    assert msg.startswith(f"{path}:2: invalid UTF-8")
    assert f"byte offset {offset}" in msg and "column 14" in msg and "0xff" in msg and "--encoding" in msg


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_characters="\n\x00", blacklist_categories=["Cs"])),
                min_size=1, max_size=6),
       st.data())
def test_invalid_byte_location_is_exact(tmp_path_factory, lines, data):
    raw = bytearray("".join(x + "\n" for x in lines).encode("utf-8"))
    # put an invalid byte at a character boundary
    starts = [i for i in range(len(raw) + 1) if i == len(raw) or raw[i] & 0xC0 != 0x80]
    pos = data.draw(st.sampled_from(starts))
    raw[pos:pos] = b"\xff"
    path = write(tmp_path_factory.mktemp("u") / "f.txt", bytes(raw))
    with pytest.raises(InputError) as e:
        list(bio.read_lines(path))
    line = raw.count(b"\n", 0, pos) + 1
    column = pos - (raw.rfind(b"\n", 0, pos) + 1) + 1
    assert f"{path}:{line}: invalid UTF-8 (byte 0xff at byte offset {pos} of the file, column {column} " in str(e.value)


def test_encoding_override(tmp_path):
    path = write(tmp_path / "l1.txt", "Grüße\nçà\n".encode("latin-1"))
    with pytest.raises(InputError, match="invalid UTF-8"):
        list(bio.read_lines(path))
    assert list(bio.read_lines(path, encoding="latin-1")) == ["Grüße", "çà"]


def test_byte_order_mark_is_kept_with_a_warning(tmp_path):
    path = write(tmp_path / "bom.txt", b"\xef\xbb\xbfa\nb\n")
    seen = []
    assert list(bio.read_lines(path, warn=seen.append)) == ["\ufeffa", "b"]
    assert len(seen) == 1 and "byte order mark" in seen[0] and "utf-8-sig" in seen[0]
    seen.clear()
    assert list(bio.read_lines(path, encoding="utf-8-sig", warn=seen.append)) == ["a", "b"]
    assert not seen


# -- TSV and JSON Lines -----------------------------------------------------------------------------------
def test_tsv_columns_and_field_count(tmp_path):
    path = write(tmp_path / "r.tsv", "a\tb\n\tc\nd\t\n".encode())
    assert bio.read_tsv(path, 2) == [["a", "", "d"], ["b", "c", ""]]
    bad = write(tmp_path / "bad.tsv", b"a\tb\nc\nd\te\n")
    with pytest.raises(InputError, match=r"bad.tsv:2: expected 2 tab-separated references \(-nr 2\), found 1 field$"):
        bio.read_tsv(bad, 2)
    with pytest.raises(InputError, match=r"bad.tsv:1: expected 3 .* found 2 fields"):
        bio.read_tsv(bad, 3)


def test_jsonl_fields(tmp_path):
    path = write(tmp_path / "d.jsonl", (
        '{"hyp": "a b", "ref": "a b c", "alt": ["x", null]}\n'
        '{"hyp": "", "ref": null, "alt": []}\n').encode())
    data = bio.read_jsonl(path, [("hyp", "hyp"), ("ref", "ref"), ("alt", "ref")])
    assert data == {"hyp": ["a b", ""], "ref": [["a b c"], [None]], "alt": [["x", None], []]}
    assert bio.ref_streams([["a", "b"], ["c"]]) == [["a", "c"], ["b", None]]


@pytest.mark.parametrize("content, message", [
    ('{"hyp": "a", "ref": "b"}\n\n', r"d.jsonl:2: empty line"),
    ('{"hyp": "a"\n', r"d.jsonl:1: invalid JSON at column \d+"),
    ('["a"]\n', r"d.jsonl:1: expected a JSON object, found a list"),
    ('{"out": "a"}\n', r"d.jsonl:1: no field 'hyp' \(--hyp-field\); the object has: 'out'"),
    ('{"hyp": 3}\n', r"d.jsonl:1: field 'hyp' must be a string, found a number"),
    ('{"hyp": "a", "ref": [1]}\n', r"d.jsonl:1: field 'ref' must be a string or a list of strings, found a list "
                                   r"containing a number"),
    ('{"hyp": "a", "ref": {"x": 1}}\n', r"field 'ref' must be a string or a list of strings, found an object"),
])
def test_jsonl_errors(tmp_path, content, message):
    path = write(tmp_path / "d.jsonl", content.encode())
    with pytest.raises(InputError, match=message):
        bio.read_jsonl(path, [("hyp", "hyp"), ("ref", "ref")])


# -- atomic output ----------------------------------------------------------------------------------------
def test_write_atomic_replaces_whole_file(tmp_path):
    path = tmp_path / "out.json"
    path.write_text("old\n")
    bio.write_atomic(str(path), "new ü\n")
    assert path.read_text(encoding="utf-8") == "new ü\n"
    assert os.listdir(tmp_path) == ["out.json"]


def test_write_atomic_failure_keeps_old_content(tmp_path, monkeypatch):
    path = tmp_path / "out.json"
    path.write_text("old\n")

    def fail(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", fail)
    with pytest.raises(InputError, match="out.json: cannot write the output"):
        bio.write_atomic(str(path), "new\n" * 1000)
    assert path.read_text() == "old\n"
    assert os.listdir(tmp_path) == ["out.json"]  # no temporary file left behind


def test_write_atomic_bad_target(tmp_path):
    with pytest.raises(InputError, match="does not exist"):
        bio.write_atomic(str(tmp_path / "no" / "x.txt"), "a")
    with pytest.raises(InputError, match="is a directory"):
        bio.write_atomic(str(tmp_path), "a")


# ---------------------------------------------------------------------------------------------------------
# the compiled core's file reader (_core.read_file_lines, _core.TextCounter.total_files, used by
# BLEU.corpus_score on paths) against the Python reader: the same lines, the same first refused line for
# the same reason (byte offset, column); BLEU on paths gives the score, the warnings and the errors of the
# Python stream reader
# ---------------------------------------------------------------------------------------------------------
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


@requires_core
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_files, st.sampled_from([3, 8, 40, bio.MAX_LINE_BYTES]))
def test_same_lines_and_first_problem_as_the_python_reader(tmp_path, data, max_line_bytes):
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    lines, message = _python_read(path, max_line_bytes)
    got_lines, problem = native_files.read_file_lines(path, max_line_bytes=max_line_bytes)
    assert got_lines == lines
    assert problem == (None if message is None else _expected_problem(message))


@requires_core
@pytest.mark.parametrize(
    "data",
    [b"", b"\n", b"x", b"a\r\nb\r\n", b"\xef\xbb\xbfbom\n", b"\n\n\n", "a\u2028b\x1cc\n".encode()],
)
def test_edge_files(tmp_path, data):
    path = tmp_path / "f.txt"
    path.write_bytes(data)
    assert native_files.read_file_lines(path, max_line_bytes=bio.MAX_LINE_BYTES) == (
        list(bio.read_lines(path)),
        None,
    )


@requires_core
def test_long_files_cross_every_buffer(tmp_path):
    # lines around the reader's 1 MiB reads, one line a little over the limit at the end
    lines = [("w" * (k % 3000)) + " ü" for k in range(2000)]
    path = tmp_path / "big.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert native_files.read_file_lines(path, max_line_bytes=4000) == (lines, None)
    with path.open("ab") as f:
        f.write(b"y" * 4001)
    _, problem = native_files.read_file_lines(path, max_line_bytes=4000)
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


@requires_core
@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_segment_files, st.sampled_from(["13a", "intl", "char", "none", "zh"]), st.booleans())
def test_bleu_on_paths_equals_the_stream_reader(tmp_path, contents, tokenize, lowercase):
    paths = []
    for k, data in enumerate(contents):
        paths.append(tmp_path / f"s{k}.txt")
        paths[-1].write_bytes(data)
    fast, reference = _score_both(paths[0], paths[1:] or [paths[0]], tokenize=tokenize, lowercase=lowercase)
    assert fast == reference


@requires_core
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


@requires_core
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


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_bleu_on_a_named_pipe_is_read_once_by_the_python_reader(tmp_path):
    # a pipe cannot be read twice: the core leaves it to the stream reader (which names the bad line here)
    import threading

    from bleuscope.core.chunks import plain_text_paths

    ref = tmp_path / "ref.txt"
    ref.write_bytes(b"the cat\nbad \xff\n")
    fifo = tmp_path / "hyp.fifo"
    os.mkfifo(fifo)
    assert plain_text_paths([fifo], [ref]) is None and plain_text_paths([ref], [ref]) is not None

    def feed():
        with open(fifo, "wb") as f:
            f.write(b"the cat\na dog\n")

    writer = threading.Thread(target=feed)
    writer.start()
    try:
        with pytest.raises(ValueError, match=r"ref.txt:2: invalid UTF-8"):
            BLEU().corpus_score(fifo, [ref])
    finally:
        writer.join(timeout=10)
