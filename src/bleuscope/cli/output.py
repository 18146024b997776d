"""The command line's output and errors, shared by ``bleuscope`` and ``bleuscope report``: the errors a
command prints on one line (:class:`CLIError`, :class:`UsageError`; the library's
:class:`~bleuscope.core.files.InputError` is printed alike), the checks of options about files
(``--encoding``, an output that would replace an input) and standard output (written in pieces, closed
early by its reader).

The library below raises its own errors (``ValueError``, ``TypeError``;
:class:`~bleuscope.core.validation.ArgumentError` names the argument): this module is where the commands
turn them into what they print.
"""

from __future__ import annotations

import codecs
import os
import stat
import sys
from collections.abc import Iterable

from ..core.files import STDIN, InputError, display_name, os_reason, write_file


class CLIError(Exception):
    """A user error: the command prints the message on one line and exits with ``exit_code``."""

    exit_code = 1


class UsageError(CLIError):
    """Bad or incompatible command-line options (exit code 2)."""

    exit_code = 2


#: what a command prints on one line and exits with (``exit_code``): its own errors and bad input data
USER_ERRORS = (CLIError, InputError)


def check_encoding(encoding: str) -> str:
    """The codec's canonical name; an unknown or non-text encoding is a :class:`UsageError`."""
    try:
        info = codecs.lookup(encoding)
    except LookupError:
        raise UsageError(f"unknown encoding {encoding!r} (--encoding); try utf-8, utf-8-sig, latin-1, cp1252") from None
    if not getattr(info, "_is_text_encoding", True):
        raise UsageError(f"--encoding {encoding!r} is not a text encoding")
    return info.name


def check_output_not_input(output: str | None, inputs: Iterable[str], option: str = "-o") -> None:
    """Refuse (:class:`UsageError`) an output that is one of the inputs: the same file by device and inode, so
    also when named through a symbolic or hard link (or given on stdin). Replacing it would destroy the input.
    Outputs that are not regular files (``/dev/null``, a FIFO, a terminal) and new names cannot be an input."""
    if output is None or output == STDIN:
        return
    try:
        out = os.stat(output)
    except OSError:
        return
    if not stat.S_ISREG(out.st_mode):
        return
    for path in inputs:
        try:
            st = os.fstat(sys.stdin.fileno()) if path == STDIN else os.stat(path)
        except (OSError, ValueError, AttributeError):
            continue
        if (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
            same = "" if path == output else f" ({display_name(path)} is the same file)"
            raise UsageError(f"{option} {output} would overwrite an input file{same}")


class StdoutClosed(Exception):
    """Standard output was closed by its reader (``| head -1``, ``| true``): nothing more to print."""


def write_output(text: str | Iterable[str], path: str | None, encoding: str = "utf-8") -> int:
    """Print ``text`` (a string, or pieces of it) to standard output (``path=None``) or write it to ``path``
    (:func:`write_file`); returns 0.

    A reader that closed standard output early raises :class:`StdoutClosed` (the command exits 0 quietly, as
    after ``| head``); other write failures are :class:`InputError`."""
    pieces = [text] if isinstance(text, str) else text
    if path is not None:
        write_file(path, pieces, encoding)
        return 0
    if sys.stdout is None:  # started with standard output closed (``>&-``): Python then has no sys.stdout
        raise InputError("<stdout>: cannot write the output (standard output is closed)")
    try:
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        for piece in pieces:
            if buffer is not None:
                buffer.write(piece.encode(encoding, "surrogateescape"))  # file names may hold undecodable bytes
            else:
                sys.stdout.write(piece)
        if buffer is not None:
            buffer.flush()
        sys.stdout.flush()
    except BrokenPipeError:
        silence_stdout()
        raise StdoutClosed() from None
    except OSError as e:
        silence_stdout()
        raise InputError(f"<stdout>: cannot write the output ({os_reason(e)})") from None
    return 0


def silence_stdout() -> None:
    """Point file descriptor 1 at /dev/null so that the interpreter's final flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):
        pass
    try:
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces the broken stream until exit
    except OSError:
        pass


__all__ = [
    "USER_ERRORS",
    "CLIError",
    "StdoutClosed",
    "UsageError",
    "check_encoding",
    "check_output_not_input",
    "silence_stdout",
    "write_output",
]
