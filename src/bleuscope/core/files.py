"""Files: the one line reader, the input errors and atomic output.

:func:`read_lines` is the one reader of text files: plain or compressed (``.gz``, ``.xz``, ``.bz2``), or
standard input (``"-"``), read in blocks with bounded memory. It returns whole lines exactly as stored: lines are split on ``"\\n"`` only (never
``str.splitlines``, which also splits on U+001C-U+001E, U+0085, U+2028, ... found inside real segments), a final
``"\\n"`` ends the last line rather than starting an empty one, and nothing is stripped or normalised.
Problems are :class:`InputError` (a ``ValueError``) with a one-line message naming the file and the line.
The command line's own concerns (usage errors, standard output) are in :mod:`bleuscope.cli.output`.
"""

from __future__ import annotations

import codecs
import importlib
import os
import stat
import sys
import threading
from collections.abc import Callable, Generator, Iterable, Iterator
from typing import AnyStr

# the compression modules, json, tempfile and signal load when a file needs them: scoring lists in memory
# (an evaluation loop, an RL reward) imports this module without reading any file

#: file name ending -> the module whose ``open`` gives a decompressing binary stream
COMPRESSION = {".gz": "gzip", ".xz": "lzma", ".bz2": "bz2"}

#: the name under which standard input is read and reported
STDIN = "-"

#: the longest input line accepted (bytes): far above any sentence or document-level segment, and the bound that
#: keeps memory finite on input without newlines (``/dev/zero``, a binary file); ``--max-line-bytes`` changes it
MAX_LINE_BYTES = 1 << 20

#: the highest ``--max-line-bytes``: the compiled core's limit for a line (its token offsets are 32-bit, and
#: lowercasing may grow a line by up to four times)
LONGEST_LINE_BYTES = (1 << 30) - 1

#: bytes read at a time
BLOCK_BYTES = 1 << 20

Warn = Callable[[str], None]


class InputError(ValueError):
    """Bad input data or an unreadable file, with a one-line message naming the file (and the line): a
    ``ValueError`` for library callers; the commands print it and exit with ``exit_code``."""

    exit_code = 1


def display_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def compression_of(path: str) -> str | None:
    for ext in COMPRESSION:
        if path.endswith(ext):
            return ext
    return None


def open_binary(path: str):
    """A binary stream of the (decompressed) content of ``path``; ``"-"`` is standard input.

    The caller closes it (standard input is returned as is and must not be closed)."""
    name = display_name(path)
    if path == STDIN:
        if sys.stdin is None or getattr(sys.stdin, "buffer", None) is None:
            raise InputError("<stdin>: standard input is closed; give the hypotheses with -i FILE")
        return sys.stdin.buffer
    ext = compression_of(path)
    try:
        if ext is None:
            return open(path, "rb")  # noqa: SIM115 - the caller closes it
        return importlib.import_module(COMPRESSION[ext]).open(path, "rb")
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, not a file") from None
    except PermissionError:
        raise InputError(f"{name}: permission denied (cannot read the file)") from None
    except OSError as e:
        raise InputError(f"{name}: cannot read the file ({os_reason(e)})") from None


def _stream_errors() -> tuple[type[BaseException], ...]:
    """What reading a (decompressing) stream raises on bad data: OSError, EOFError, and the errors of the
    decompressors in use (a stream of one was opened, so its module is loaded)."""
    errors: list[type[BaseException]] = [OSError, EOFError]
    for module, name in (("lzma", "LZMAError"), ("zlib", "error")):
        if module in sys.modules:
            errors.append(getattr(sys.modules[module], name))
    return tuple(errors)


def _read_block(stream, size: int, path: str) -> bytes:
    """At most ``size`` bytes (fewer from a pipe: what has arrived); ``b""`` at the end."""
    try:
        read1 = getattr(stream, "read1", None)
        return read1(size) if read1 is not None else stream.read(size)
    except _stream_errors() as e:
        ext = compression_of(path) if path != STDIN else None
        if ext is not None:
            raise InputError(f"{path}: not a valid {ext[1:]} file or truncated ({os_reason(e)})") from None
        raise InputError(f"{display_name(path)}: cannot read the file ({os_reason(e)})") from None


def read_bytes(path: str) -> bytes:
    """The whole (decompressed) content of a file, or of standard input for ``"-"`` (small files only)."""
    stream = open_binary(path)
    try:
        parts = []
        while block := _read_block(stream, BLOCK_BYTES, path):
            parts.append(block)
        return b"".join(parts)
    finally:
        if path != STDIN:
            stream.close()


def os_reason(e: BaseException) -> str:
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


#: byte order marks, longest first (the UTF-32LE mark begins with the UTF-16LE one)
_BOMS = (
    (codecs.BOM_UTF32_LE, "UTF-32", "utf-32"),
    (codecs.BOM_UTF32_BE, "UTF-32", "utf-32"),
    (codecs.BOM_UTF16_LE, "UTF-16", "utf-16"),
    (codecs.BOM_UTF16_BE, "UTF-16", "utf-16"),
)

#: bytes of the file's beginning read for an encoding hint
HINT_BYTES = 4096

#: which byte positions (modulo the unit) are NUL in mostly-ASCII text of a wide encoding without a mark
_NUL_PATTERNS = (
    (4, (False, True, True, True), "UTF-32LE", "utf-32-le"),
    (4, (True, True, True, False), "UTF-32BE", "utf-32-be"),
    (2, (False, True), "UTF-16LE", "utf-16-le"),
    (2, (True, False), "UTF-16BE", "utf-16-be"),
)


def encoding_hint(head: bytes) -> str:
    """What the first bytes of a file say about its encoding: a byte order mark of UTF-32 or UTF-16, or NUL
    bytes interleaved with text as in UTF-32/UTF-16 without one; ``""`` when they say nothing."""
    for bom, label, encoding in _BOMS:
        if head.startswith(bom):
            mark = bom.hex(" ").upper()
            return f"; the file starts with a {label} byte order mark ({mark}): it looks like {label}, pass --encoding {encoding}"
    for unit, zero, label, encoding in _NUL_PATTERNS:
        n = len(head) // unit * unit
        if n < 2 * unit:
            continue
        share = [head[k:n:unit].count(0) / (n // unit) for k in range(unit)]
        if all(s >= 0.75 if z else s <= 0.25 for s, z in zip(share, zero)):
            return (
                f"; NUL bytes alternate with the text: it looks like {label} without a byte order mark, "
                f"pass --encoding {encoding}"
            )
    return ""


def _nul_position(text: AnyStr, nul: AnyStr, newline: AnyStr) -> tuple[int, int, int]:
    """Where the first ``nul`` is: ``(offset, newlines before it, offset of its line)``."""
    at = text.index(nul)
    return at, text.count(newline, 0, at), text.rfind(newline, 0, at) + 1


def _nul_error(text: str | bytes, name: str, encoding: str, line_base: int, head: bytes) -> InputError:
    """A NUL character in the text (``str``, or ``bytes`` of an encoding where the byte 0 is NUL): a wide
    encoding read as a narrow one (or the reverse), or binary data. Columns of bytes count bytes."""
    if isinstance(text, str):
        at, lines_before, line_start = _nul_position(text, "\x00", "\n")
    else:
        at, lines_before, line_start = _nul_position(text, b"\x00", b"\n")
    line = line_base + lines_before + 1
    column = at - line_start + 1
    hint = encoding_hint(head) or "; a binary file, or the wrong --encoding?"
    return InputError(
        f"{name}:{line}: NUL character (U+0000) at column {column} after decoding as {encoding}: not text, "
        f"nothing is scored{hint}"
    )


def _decode_error(
    e: UnicodeDecodeError, data: bytes, name: str, encoding: str, line_base: int, offset_base: int, head: bytes
) -> InputError:
    line = line_base + data.count(b"\n", 0, e.start) + 1
    line_start = data.rfind(b"\n", 0, e.start) + 1
    bad = data[e.start : min(e.end, e.start + 4)].hex(" ")
    label = "UTF-8" if codecs.lookup(encoding).name in ("utf-8", "utf-8-sig") else encoding
    column = e.start - line_start + 1  # ``data`` always begins at the start of a line
    return InputError(
        f"{name}:{line}: invalid {label} (byte 0x{bad} at byte offset {offset_base + e.start} of the file, "
        f"column {column} of the line); pass --encoding ENCODING if the file is not {label}{encoding_hint(head)}"
    )


def decode(data: bytes, name: str, encoding: str = "utf-8", warn: Warn | None = None) -> str:
    """Strictly decode ``data``; an undecodable byte is an :class:`InputError` with line, column and offset."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        raise _decode_error(e, data, name, encoding, 0, 0, data[:HINT_BYTES]) from None
    if "\x00" in text:
        raise _nul_error(text, name, encoding, 0, data[:HINT_BYTES])
    if text.startswith("\ufeff") and warn is not None:
        _warn_bom(name, warn)
    return text


def _warn_bom(name: str, warn: Warn) -> None:
    warn(
        f"{name} starts with a byte order mark (U+FEFF); it is kept as part of line 1, as sacreBLEU does "
        f"(use --encoding utf-8-sig to drop it)"
    )


def split_lines(text: str) -> list[str]:
    """Lines split on ``"\\n"`` only; a final ``"\\n"`` ends the last line. ``""`` has no lines."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def _line_too_long(name: str, line: int, limit: int, unit: str = "bytes") -> InputError:
    return InputError(
        f"{name}:{line}: line longer than {limit:,} {unit} (the limit that keeps memory bounded; a file without "
        f"newlines, or binary data such as /dev/zero?); raise it with --max-line-bytes if the line is real"
    )


def _newline_is_one_byte(encoding: str) -> bool:
    """Whether ``"\\n"`` is the byte 0x0A and no multi-byte character contains that byte (ASCII supersets)."""
    try:
        return "\n a".encode(encoding) == b"\n a" and codecs.lookup(encoding).name not in ("utf-7",)
    except (UnicodeError, LookupError):
        return False


def iter_line_blocks(
    path: str,
    encoding: str = "utf-8",
    warn: Warn | None = None,
    *,
    max_line_bytes: int = MAX_LINE_BYTES,
    block_bytes: int = BLOCK_BYTES,
) -> Iterator[list[str]]:
    """The lines of a file (``"-"`` = standard input) in lists, reading ``block_bytes`` at a time.

    Memory stays bounded whatever the input: a line longer than ``max_line_bytes`` bytes (characters for
    encodings such as UTF-16 where a newline is not one byte) is an :class:`InputError` naming the file and the
    line, and so is an undecodable byte. Lines are split on ``"\\n"`` only and returned as stored."""
    name = display_name(path)
    encoding = codecs.lookup(encoding).name
    stream = open_binary(path)
    try:
        if _newline_is_one_byte(encoding) or encoding == "utf-8-sig":
            yield from _byte_line_blocks(
                stream, path, name, encoding, warn, max_line_bytes, min(block_bytes, max_line_bytes)
            )
        else:
            yield from _text_line_blocks(stream, path, name, encoding, warn, max_line_bytes, block_bytes)
    finally:
        if path != STDIN:
            stream.close()


def _byte_line_blocks(stream, path, name, encoding, warn, max_line_bytes, block_bytes) -> Iterator[list[str]]:
    codec = "utf-8" if encoding == "utf-8-sig" else encoding
    carry = b""
    lines_done = 0
    offset = 0  # file offset of carry[0]
    head = None
    while True:
        block = _read_block(stream, block_bytes, path)
        if head is None:  # the first bytes: byte order marks
            if not block:
                return
            head = block[:HINT_BYTES]
            if encoding == "utf-8-sig" and block.startswith(codecs.BOM_UTF8):
                block = block[3:]
                offset = 3
            elif block.startswith(codecs.BOM_UTF8) and warn is not None and codec == "utf-8":
                _warn_bom(name, warn)
        if not block:
            if carry:
                yield [_decode_lines(carry, codec, name, encoding, lines_done, offset, head)]
            return
        data = carry + block if carry else block
        end = data.rfind(b"\n")
        if end < 0:
            if len(data) > max_line_bytes:
                raise _line_too_long(name, lines_done + 1, max_line_bytes)
            carry = data
            continue
        first_end = data.find(b"\n") if carry else -1
        if first_end > max_line_bytes:  # blocks are no larger than the limit: only the first line can exceed it
            raise _line_too_long(name, lines_done + 1, max_line_bytes)
        complete, carry = data[: end + 1], data[end + 1 :]
        if len(carry) > max_line_bytes:
            raise _line_too_long(name, lines_done + complete.count(b"\n") + 1, max_line_bytes)
        text = _decode_lines(complete, codec, name, encoding, lines_done, offset, head)
        lines = text.split("\n")
        lines.pop()  # complete ends with "\n"
        lines_done += len(lines)
        offset += len(complete)
        yield lines


def _decode_lines(data: bytes, codec: str, name: str, encoding: str, lines_done: int, offset: int, head: bytes) -> str:
    """``data`` (whole lines) decoded; the first problem is an :class:`InputError` naming its line: an
    undecodable byte, or a NUL (the byte 0 is NUL in every encoding read this way), whichever comes first."""
    nul = data.find(b"\x00")
    try:
        text = data.decode(codec)
    except UnicodeDecodeError as e:
        if 0 <= nul < e.start:
            raise _nul_error(data, name, encoding, lines_done, head) from None
        raise _decode_error(e, data, name, encoding, lines_done, offset, head) from None
    if nul >= 0:
        raise _nul_error(data, name, encoding, lines_done, head)
    return text


def _text_line_blocks(stream, path, name, encoding, warn, max_chars, block_bytes) -> Iterator[list[str]]:
    """Encodings whose newline is not the single byte 0x0A (UTF-16, UTF-32): decode first, then split."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    carry = ""
    lines_done = 0
    offset = 0
    head = None
    while True:
        block = _read_block(stream, block_bytes, path)
        if head is None:
            head = block[:HINT_BYTES]
        state = decoder.getstate()  # (bytes of a character begun in the previous block, byte order)
        try:
            text = decoder.decode(block, final=not block)
        except UnicodeError as e:  # UnicodeDecodeError, or utf-16's "stream does not start with BOM"
            line = lines_done + 1
            if isinstance(e, UnicodeDecodeError):  # e.start counts from the pending bytes
                start = offset - len(state[0]) + e.start
                prefix = codecs.getincrementaldecoder(encoding)(errors="ignore")
                prefix.setstate(state)
                line += (carry + prefix.decode(block[: max(0, e.start - len(state[0]))])).count("\n")
                where = f"near byte offset {start}"
            else:
                where = str(e)
            raise InputError(
                f"{name}:{line}: invalid {encoding} ({where}); pass --encoding ENCODING if the file is "
                f"not {encoding}"
            ) from None
        offset += len(block)
        if lines_done == 0 and not carry and text.startswith("\ufeff") and warn is not None:
            _warn_bom(name, warn)
        data = carry + text
        if "\x00" in data:
            raise _nul_error(data, name, encoding, lines_done, head)
        lines = data.split("\n")
        carry = lines.pop()
        for k, line in enumerate(lines):
            if len(line) > max_chars:
                raise _line_too_long(name, lines_done + k + 1, max_chars, "characters")
        if len(carry) > max_chars:
            raise _line_too_long(name, lines_done + len(lines) + 1, max_chars, "characters")
        lines_done += len(lines)
        if lines:
            yield lines
        if not block:
            if carry:
                yield [carry]
            return


def read_lines(
    path, encoding: str = "utf-8", warn: Warn | None = None, *, max_line_bytes: int = MAX_LINE_BYTES
) -> Generator[str, None, None]:
    """The lines of a file, lazily (see :func:`iter_line_blocks`); ``path`` is a str or os.PathLike (``"-"``:
    standard input)."""
    if not isinstance(path, (str, os.PathLike)):
        raise TypeError(f"path must be a str or os.PathLike, got {type(path).__name__}")
    for block in iter_line_blocks(os.fspath(path), encoding, warn, max_line_bytes=max_line_bytes):
        yield from block  # a generator: close() closes the file


def tsv_fields(line: str, n_fields: int, name: str, lineno: int) -> list[str]:
    """The ``n_fields`` tab-separated fields of one line; another number of fields is an :class:`InputError`."""
    fields = line.split("\t")
    if len(fields) != n_fields:
        raise InputError(
            f"{name}:{lineno}: expected {n_fields} tab-separated references (-nr {n_fields}), "
            f"found {len(fields)} field{'s' if len(fields) != 1 else ''}"
        )
    return fields


def read_tsv(path: str, n_fields: int, encoding: str = "utf-8", warn: Warn | None = None) -> list[list[str]]:
    """``n_fields`` tab-separated columns per line, returned as columns (one list per field).

    Every line must have exactly ``n_fields`` fields: a line with more tabs is an error, not a reference with a
    tab inside (sacreBLEU keeps extra tabs in the last field).
    """
    name = display_name(path)
    columns: list[list[str]] = [[] for _ in range(n_fields)]
    for lineno, line in enumerate(read_lines(path, encoding, warn), 1):
        for column, value in zip(columns, tsv_fields(line, n_fields, name, lineno)):
            column.append(value)
    return columns


def jsonl_record(line: str, fields: list[tuple[str, str]], name: str, lineno: int) -> list:
    """The values of ``fields`` (``(name, kind)`` pairs, kind ``"hyp"`` or ``"ref"``) in one JSON Lines line.

    A ``hyp`` field must hold a string. A ``ref`` field holds a string, ``null`` (no reference) or a list of
    strings/nulls (several references); it is returned as a list. The line must be one JSON object.
    """
    import json

    if not line.strip():
        raise InputError(f"{name}:{lineno}: empty line in a JSON Lines file (one JSON object per line)")
    try:
        # a field holds text, never a number: numbers are not made ints, whose digit limit (4,300) would
        # raise on a longer one before the field's kind is checked
        obj = json.loads(line, parse_int=float)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}:{lineno}: invalid JSON at column {e.colno}: {e.msg}") from None
    except RecursionError:  # the decoder recurses once per level of [ or {
        raise InputError(
            f"{name}:{lineno}: JSON nested too deeply (arrays or objects inside each other thousands of levels "
            "deep); a field holds a string or a list of strings"
        ) from None
    if not isinstance(obj, dict):
        raise InputError(f"{name}:{lineno}: expected a JSON object, found {_json_kind(obj)}")
    values = []
    for field, kind in fields:
        if field not in obj:
            keys = ", ".join(map(repr, list(obj)[:8])) or "none"
            option = "--hyp-field" if kind == "hyp" else "--ref-field"
            raise InputError(f"{name}:{lineno}: no field {field!r} ({option}); the object has: {keys}")
        value = obj[field]
        if kind == "hyp":
            if not isinstance(value, str):
                raise InputError(f"{name}:{lineno}: field {field!r} must be a string, found {_json_kind(value)}")
        elif isinstance(value, str) or value is None:
            value = [value]
        elif not isinstance(value, list) or not all(isinstance(v, str) or v is None for v in value):
            raise InputError(
                f"{name}:{lineno}: field {field!r} must be a string or a list of strings, found {_json_kind(value)}"
            )
        values.append(value)
    return values


def read_jsonl(
    path: str, fields: list[tuple[str, str]], encoding: str = "utf-8", warn: Warn | None = None
) -> dict[str, list]:
    """Named fields of a JSON Lines file (see :func:`jsonl_record`), one list per field."""
    name = display_name(path)
    out: dict[str, list] = {field: [] for field, _ in fields}
    for lineno, line in enumerate(read_lines(path, encoding, warn), 1):
        for (field, _), value in zip(fields, jsonl_record(line, fields, name, lineno)):
            out[field].append(value)
    return out


def _json_kind(value) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        inner = {_json_kind(v) for v in value if not isinstance(v, str) and v is not None}
        return "a list" + (f" containing {', '.join(sorted(inner))}" if inner else "")
    return "an object"


# -- reference records: the rules of every reader of per-segment reference lists (JSON Lines, shards) --------
def ref_streams(rows: list[list[str | None]]) -> list[list[str | None]]:
    """Per-segment reference lists (from JSON) -> streams ``refs[k][i]``, ``None`` where a segment has fewer."""
    width = max((len(r) for r in rows), default=0)
    return [[r[k] if k < len(r) else None for r in rows] for k in range(width)]


def join_reference_fields(parts: list[list[str | None]]) -> list[str | None]:
    """The reference lists of several fields of one record -> one list, field by field."""
    return parts[0] if len(parts) == 1 else [x for part in parts for x in part]


def first_row_without_reference(rows: list[list[str | None]]) -> int | None:
    """The index of the first per-segment reference list that holds no reference (empty, or only nulls)."""
    return next((i for i, row in enumerate(rows) if all(x is None for x in row)), None)


def write_file(path: str, text: str | Iterable[str], encoding: str = "utf-8") -> None:
    """Write ``text`` (a string, or pieces of it) to ``path`` the way its kind of file needs.

    * a regular file (or a new name): replaced atomically (:func:`write_atomic`): all of the new content or the
      old file untouched;
    * a symbolic link: its target is written (by the same rules); the link stays;
    * a FIFO, a character device, a socket: written directly (replacing the node would break it);
    * a read-only file: refused (:class:`InputError`), never replaced behind the owner's back.
    """
    if _is_descriptor_path(path):  # /dev/stdout, /dev/fd/N, /proc/self/fd/N: an already open file of ours
        _write_direct(path, path, text, encoding)
        return
    target = os.path.realpath(path) if os.path.islink(path) else path
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as e:
        raise InputError(f"{path}: cannot write the output ({os_reason(e)})") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise InputError(f"{path}: is a directory; -o needs a file name")
    if st is not None and not stat.S_ISREG(st.st_mode):
        _write_direct(path, target, text, encoding)
        return
    if st is not None and (not st.st_mode & 0o222 or not os.access(target, os.W_OK)):  # root passes os.access
        raise InputError(
            f"{path}: the file is read-only; it is not replaced (make it writable, or choose another name)"
        )
    write_atomic(target, text, encoding, shown_name=path)


def _is_descriptor_path(path: str) -> bool:
    """A name of an open file descriptor (Linux's magic links), never a file to replace."""
    absolute = os.path.abspath(path)
    if absolute.startswith(("/dev/fd/", "/proc/")) or absolute in ("/dev/stdout", "/dev/stderr"):
        return True
    return os.path.islink(path) and os.path.realpath(path).startswith("/proc/")


def _write_direct(path: str, target: str, text: str | Iterable[str], encoding: str) -> None:
    try:
        with open(target, "w", encoding=encoding, errors="surrogateescape", newline="") as f:
            f.writelines([text] if isinstance(text, str) else text)
    except OSError as e:
        raise InputError(f"{path}: cannot write the output ({os_reason(e)})") from None


def write_atomic(
    path: str, text: str | Iterable[str], encoding: str = "utf-8", *, shown_name: str | None = None
) -> None:
    """Write ``text`` (a string, or pieces of it) to the regular file ``path`` through a temporary file in the same directory and an atomic
    rename.

    Either the whole new content is in place afterwards or the old file (if any) is untouched.
    """
    name = shown_name or path
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"{name}: is a directory; -o needs a file name")
    if not os.path.isdir(directory):
        raise InputError(f"{name}: cannot write the output: directory {directory} does not exist")
    fd = None
    tmp = None
    terminated = _RemoveOnTerminate()
    try:
        terminated.__enter__()
        import tempfile

        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory)
        terminated.arm()  # only now is the file's name known to the clean-up below
        # surrogateescape: file names from the command line may hold undecodable bytes
        with os.fdopen(fd, "w", encoding=encoding, errors="surrogateescape", newline="") as f:
            fd = None
            f.writelines([text] if isinstance(text, str) else text)
            f.flush()
            os.fsync(f.fileno())
        if os.path.exists(path):
            os.chmod(tmp, os.stat(path).st_mode & 0o7777)
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
        tmp = None
    except OSError as e:
        raise InputError(f"{name}: cannot write the output ({os_reason(e)})") from None
    finally:
        terminated.armed = False  # an attribute store: no signal handler runs between here and the clean-up
        if fd is not None:
            os.close(fd)
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
        terminated.__exit__()


class _Terminated(BaseException):
    """SIGTERM arrived while a temporary output file existed (raised to run the clean-up)."""


class _RemoveOnTerminate:
    """While a temporary output file exists, SIGTERM unwinds like Ctrl-C (so ``finally`` removes the file),
    then terminates the process by the signal's default action as if nothing had been caught.

    The handler unwinds only while *armed*: between the creation of the file and the moment its name is
    stored, and inside the clean-up itself, unwinding would leave the file behind, so a signal there is
    only recorded and acted on when the handler is armed (:meth:`arm`) or restored (:meth:`__exit__`)."""

    def __enter__(self) -> None:
        self.previous = None
        self.received = False
        self.armed = False
        if threading.current_thread() is not threading.main_thread():
            return  # signal handlers belong to the main thread; a worker keeps the default
        import signal

        try:
            self.previous = signal.signal(signal.SIGTERM, self._handle)
        except (ValueError, OSError):  # no signals here (an embedded interpreter)
            self.previous = None

    def _handle(self, signum, frame) -> None:
        self.received = True
        if self.armed:
            self.armed = False
            raise _Terminated()

    def arm(self) -> None:
        """From now on SIGTERM unwinds; one that came while disarmed unwinds now."""
        self.armed = True
        if self.received:
            self.armed = False
            raise _Terminated()

    def __exit__(self) -> None:
        if self.previous is None:
            return
        import signal

        signal.signal(signal.SIGTERM, self.previous)
        if self.received:
            os.kill(os.getpid(), signal.SIGTERM)  # the handler the program had (by default: terminate)
