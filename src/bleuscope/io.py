"""Strict file input and atomic output for the ``bleuscope`` command.

Every reader returns whole lines exactly as stored: lines are split on ``"\\n"`` only (never
``str.splitlines``, which also splits on U+001C-U+001E, U+0085, U+2028, ... found inside real segments), a final
``"\\n"`` ends the last line rather than starting an empty one, and nothing is stripped or normalised.
Problems are :class:`InputError` (bad data, exit code 1) or :class:`UsageError` (bad options, exit code 2)
with a one-line message naming the file and the line.
"""

from __future__ import annotations

import bz2
import codecs
import gzip
import json
import lzma
import os
import sys
import tempfile
import zlib
from collections.abc import Callable

#: file name ending -> opener of a decompressing binary stream
COMPRESSION = {".gz": gzip.open, ".xz": lzma.open, ".bz2": bz2.open}

#: the name under which standard input is read and reported
STDIN = "-"

Warn = Callable[[str], None]


class CLIError(Exception):
    """A user error: the command prints the message on one line and exits with ``exit_code``."""

    exit_code = 1


class InputError(CLIError):
    """Bad input data or an unreadable file (exit code 1)."""

    exit_code = 1


class UsageError(CLIError):
    """Bad or incompatible command-line options (exit code 2)."""

    exit_code = 2


def display_name(path: str) -> str:
    return "<stdin>" if path == STDIN else path


def check_encoding(encoding: str) -> str:
    """The codec's canonical name; an unknown or non-text encoding is a :class:`UsageError`."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise UsageError(f"unknown encoding {encoding!r} (--encoding); try utf-8, utf-8-sig, latin-1, cp1252") from None
    if not getattr(info, "_is_text_encoding", True):
        raise UsageError(f"--encoding {encoding!r} is not a text encoding")
    return info.name


def compression_of(path: str) -> str | None:
    for ext in COMPRESSION:
        if path.endswith(ext):
            return ext
    return None


def read_bytes(path: str) -> bytes:
    """The (decompressed) bytes of a file, or of standard input for ``"-"``."""
    name = display_name(path)
    if path == STDIN:
        if sys.stdin is None:
            raise InputError("<stdin>: standard input is closed; give the hypotheses with -i FILE")
        try:
            return sys.stdin.buffer.read()
        except OSError as e:
            raise InputError(f"<stdin>: cannot read standard input ({_reason(e)})") from None
    ext = compression_of(path)
    try:
        if ext is None:
            with open(path, "rb") as f:
                return f.read()
        with COMPRESSION[ext](path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        raise InputError(f"{name}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{name}: is a directory, not a file") from None
    except PermissionError:
        raise InputError(f"{name}: permission denied (cannot read the file)") from None
    except (OSError, EOFError, lzma.LZMAError, zlib.error) as e:
        if ext is not None:
            raise InputError(f"{name}: not a valid {ext[1:]} file or truncated ({_reason(e)})") from None
        raise InputError(f"{name}: cannot read the file ({_reason(e)})") from None


def _reason(e: BaseException) -> str:
    return getattr(e, "strerror", None) or str(e) or type(e).__name__


def decode(data: bytes, name: str, encoding: str = "utf-8", warn: Warn | None = None) -> str:
    """Strictly decode ``data``; an undecodable byte is an :class:`InputError` with line, column and offset."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        line_start = data.rfind(b"\n", 0, e.start) + 1
        bad = data[e.start: min(e.end, e.start + 4)].hex(" ")
        label = "UTF-8" if codecs.lookup(encoding).name == "utf-8" else encoding
        raise InputError(
            f"{name}:{line}: invalid {label} (byte 0x{bad} at byte offset {e.start} of the file, "
            f"column {e.start - line_start + 1} of the line); pass --encoding ENCODING if the file is not {label}"
        ) from None
    if text.startswith("\ufeff") and warn is not None:
        warn(f"{name} starts with a byte order mark (U+FEFF); it is kept as part of line 1, as sacreBLEU does "
             f"(use --encoding utf-8-sig to drop it)")
    return text


def split_lines(text: str) -> list[str]:
    """Lines split on ``"\\n"`` only; a final ``"\\n"`` ends the last line. ``""`` has no lines."""
    if not text:
        return []
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines


def read_lines(path: str, encoding: str = "utf-8", warn: Warn | None = None) -> list[str]:
    """One segment per line of a plain text file (``"-"`` = standard input)."""
    return split_lines(decode(read_bytes(path), display_name(path), encoding, warn))


def read_tsv(path: str, n_fields: int, encoding: str = "utf-8", warn: Warn | None = None) -> list[list[str]]:
    """``n_fields`` tab-separated columns per line, returned as columns (one list per field).

    Every line must have exactly ``n_fields`` fields: a line with more tabs is an error, not a reference with a
    tab inside (sacreBLEU keeps extra tabs in the last field).
    """
    name = display_name(path)
    columns: list[list[str]] = [[] for _ in range(n_fields)]
    for lineno, line in enumerate(read_lines(path, encoding, warn), 1):
        fields = line.split("\t")
        if len(fields) != n_fields:
            raise InputError(
                f"{name}:{lineno}: expected {n_fields} tab-separated references (-nr {n_fields}), "
                f"found {len(fields)} field{'s' if len(fields) != 1 else ''}"
            )
        for column, value in zip(columns, fields):
            column.append(value)
    return columns


def read_jsonl(
    path: str, fields: list[tuple[str, str]], encoding: str = "utf-8", warn: Warn | None = None
) -> dict[str, list]:
    """Named fields of a JSON Lines file: ``fields`` are ``(name, kind)`` pairs, kind ``"hyp"`` or ``"ref"``.

    A ``hyp`` field must hold a string. A ``ref`` field holds a string, ``null`` (no reference) or a list of
    strings/nulls (several references); it is returned as a list of lists. Every line must be one JSON object.
    """
    name = display_name(path)
    out: dict[str, list] = {field: [] for field, _ in fields}
    for lineno, line in enumerate(read_lines(path, encoding, warn), 1):
        if not line.strip():
            raise InputError(f"{name}:{lineno}: empty line in a JSON Lines file (one JSON object per line)")
        try:
            obj = json.loads(line)
        except json.JSONDecodeError as e:
            raise InputError(f"{name}:{lineno}: invalid JSON at column {e.colno}: {e.msg}") from None
        if not isinstance(obj, dict):
            raise InputError(f"{name}:{lineno}: expected a JSON object, found {_json_kind(obj)}")
        for field, kind in fields:
            if field not in obj:
                keys = ", ".join(map(repr, list(obj)[:8])) or "none"
                option = "--hyp-field" if kind == "hyp" else "--ref-field"
                raise InputError(f"{name}:{lineno}: no field {field!r} ({option}); the object has: {keys}")
            value = obj[field]
            if kind == "hyp":
                if not isinstance(value, str):
                    raise InputError(f"{name}:{lineno}: field {field!r} must be a string, found {_json_kind(value)}")
                out[field].append(value)
                continue
            if isinstance(value, str) or value is None:
                value = [value]
            elif not isinstance(value, list) or not all(isinstance(v, str) or v is None for v in value):
                raise InputError(
                    f"{name}:{lineno}: field {field!r} must be a string or a list of strings, found {_json_kind(value)}"
                )
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


def ref_streams(rows: list[list[str | None]]) -> list[list[str | None]]:
    """Per-segment reference lists (from JSON) -> streams ``refs[k][i]``, ``None`` where a segment has fewer."""
    width = max((len(r) for r in rows), default=0)
    return [[r[k] if k < len(r) else None for r in rows] for k in range(width)]


def write_atomic(path: str, text: str, encoding: str = "utf-8") -> None:
    """Write ``text`` to ``path`` through a temporary file in the same directory and an atomic rename.

    Either the whole new content is in place afterwards or the old file (if any) is untouched.
    """
    directory = os.path.dirname(os.path.abspath(path))
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory; -o needs a file name")
    if not os.path.isdir(directory):
        raise InputError(f"{path}: cannot write the output: directory {directory} does not exist")
    fd = None
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(path)}.", suffix=".tmp", dir=directory)
        # surrogateescape: file names from the command line may hold undecodable bytes
        with os.fdopen(fd, "w", encoding=encoding, errors="surrogateescape", newline="") as f:
            fd = None
            f.write(text)
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
        raise InputError(f"{path}: cannot write the output ({_reason(e)})") from None
    finally:
        if fd is not None:
            os.close(fd)
        if tmp is not None and os.path.exists(tmp):
            os.unlink(tmp)
