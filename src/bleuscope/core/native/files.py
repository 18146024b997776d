"""The compiled line reader (``rust/python/src/files.rs``)."""

from __future__ import annotations

from . import core


def read_file_lines(path, *, max_line_bytes: int) -> tuple[list[str] | None, dict | None]:
    """The compiled reader's lines of a plain UTF-8 file, or the first line it refuses (see
    :func:`bleuscope._core.read_file_lines`): the rules of the Python reader, without a Python string per
    byte."""
    return core().read_file_lines(path, max_line_bytes=max_line_bytes)


__all__ = ["read_file_lines"]
