"""Input checks with messages that name the argument, the stream and the line.

bleuscope never truncates or reinterprets input: a wrong layout is an error, not a guess. A bad setting of
a metric is an :class:`ArgumentError`, which carries the names of the arguments it is about.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set

import numpy as np

from ..tokenizers.language import naming


class ArgumentError(ValueError):
    """A bad argument of a library call, whose message names it: ``arguments`` are the names the message is
    about (``argument``, the first) and ``template`` the message with a ``{}`` for each, so that a caller
    knowing them by other names (the command's options) says the same with its names
    (:func:`named_message`) instead of rewriting the message. Errors of other classes may carry the same
    two fields (:func:`bleuscope.tokenizers.language.naming`: a tokenizer's missing model file)."""

    template: str
    arguments: tuple[str, ...]

    def __init__(self, template: str, *arguments: str) -> None:
        super().__init__(template.format(*arguments))
        naming(self, template, *arguments)

    @property
    def argument(self) -> str:
        return self.arguments[0]


def named_message(error: BaseException, names: Mapping[str, str]) -> str:
    """The message of ``error`` with each argument it carries (:class:`ArgumentError`) called by its name in
    ``names`` (as the library calls it where ``names`` has none); the message as it is for an error that
    carries none."""
    template, arguments = getattr(error, "template", None), getattr(error, "arguments", None)
    if not isinstance(template, str) or not isinstance(arguments, tuple):
        return str(error)
    return template.format(*(names.get(a, a) for a in arguments))


class ArgumentTypeError(ArgumentError, TypeError):
    """An :class:`ArgumentError` of an argument of the wrong type (a ``TypeError`` too)."""


def check_text_list(
    value, name: str, *, allow_none: bool = False, check_items: bool = True, copy: bool = True
) -> list:
    """A list of strings (``None`` items allowed when ``allow_none``), returned as a new list.

    ``check_items=False`` checks only the container: the caller checks every item itself (the compiled
    core does while it reads them). ``copy=False``: a ``list`` is returned as it is, for a caller that only
    reads it (a copy of a million items is a pass over a million objects, and so is freeing it)."""
    if isinstance(value, (str, bytes)):
        raise TypeError(
            f"{name} must be a list of strings, got a single {type(value).__name__}; wrap it in a list: [{name}]"
        )
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if isinstance(value, (Mapping, Set)):
        raise TypeError(f"{name} must be an ordered list of strings, got {type(value).__name__}")
    if not isinstance(value, Sequence):
        try:
            value = list(value)
        except TypeError:
            raise TypeError(f"{name} must be a list of strings, got {type(value).__name__}") from None
    items = value if not copy and type(value) is list else list(value)
    if not check_items:
        return items
    allowed = {str, type(None)} if allow_none else {str}
    if set(map(type, items)) <= allowed:  # the common case, checked at C speed
        return items
    for i, item in enumerate(items):
        if isinstance(item, str):
            continue
        if item is None and allow_none:
            continue
        kind = "None" if item is None else type(item).__name__
        if isinstance(item, (list, tuple)):
            hint = " (a list inside: is this a per-segment reference layout? see `references`)"
        else:
            hint = ""
        raise TypeError(f"{name}[{i}] must be a string, got {kind}{hint}")
    return items


def check_references(
    references, n_hyps: int, name: str = "references", *, check_items: bool = True, copy: bool = True
) -> list[list]:
    """Reference streams ``references[k][i]``; every stream as long as the hypotheses (``check_items`` and
    ``copy``: as for :func:`check_text_list`)."""
    if isinstance(references, (str, bytes)):
        raise TypeError(
            f"{name} must be a list of reference streams (one list of strings per reference), got a single "
            "string; for one reference per segment pass [refs]"
        )
    if isinstance(references, np.ndarray):
        references = references.tolist()
    if isinstance(references, (Mapping, Set)):
        raise TypeError(f"{name} must be an ordered list of reference streams, got {type(references).__name__}")
    try:
        streams = list(references)
    except TypeError:
        raise TypeError(f"{name} must be a list of reference streams, got {type(references).__name__}") from None
    if not streams:
        raise ValueError(f"{name} is empty: give at least one reference stream")
    if all(isinstance(s, str) for s in streams):
        raise TypeError(
            f"{name} must be a list of reference streams (lists of strings), got a flat list of strings; "
            f"for one reference per segment pass [{name}]"
        )
    lengths = []
    checked = []
    for k, stream in enumerate(streams):
        if isinstance(stream, (str, bytes, Mapping, Set)) or stream is None:
            kind = "None" if stream is None else type(stream).__name__
            raise TypeError(f"{name}[{k}] must be a list of strings (one reference stream), got {kind}")
        try:
            stream = stream if not copy and type(stream) is list else list(stream)
        except TypeError:
            raise TypeError(f"{name}[{k}] must be a list of strings, got {type(stream).__name__}") from None
        lengths.append(len(stream))
        checked.append(stream)
    if any(n != n_hyps for n in lengths):
        per_segment = (
            len(streams) == n_hyps
            and len(set(lengths)) >= 1
            and all(isinstance(x, (str, type(None))) for s in checked for x in s)
        )
        if per_segment and n_hyps > 1:
            raise ValueError(
                f"{name} looks like a per-segment layout ({n_hyps} lists of {sorted(set(lengths))} references); "
                f"bleuscope expects streams, {name}[k][i] = reference k of segment i. "
                f"Transpose it with list(zip(*{name}))"
            )
        bad = next(k for k, n in enumerate(lengths) if n != n_hyps)
        diff = lengths[bad] - n_hyps
        raise ValueError(
            f"{name}[{bad}] has {lengths[bad]} lines but hypotheses has {n_hyps} "
            f"({abs(diff)} {'more' if diff > 0 else 'fewer'}); nothing is truncated, fix the input"
        )
    return check_reference_items(checked, name) if check_items else checked


def check_reference_items(streams: list[list], name: str = "references") -> list[list]:
    """The items of reference streams whose container :func:`check_references` checked (``check_items=False``):
    strings or None."""
    return [check_text_list(s, f"{name}[{k}]", allow_none=True) for k, s in enumerate(streams)]


def reference_presence(streams: list[list], n_seg: int | None = None) -> np.ndarray:
    """bool [S, K]: which references exist (``streams[k][i]`` is None where segment i has no reference k);
    ``n_seg``: S when there may be no stream."""
    n_seg = (len(streams[0]) if streams else 0) if n_seg is None else n_seg
    present = np.ones((n_seg, len(streams)), dtype=bool)
    for k, stream in enumerate(streams):
        if None in stream:
            present[:, k] = np.fromiter((x is not None for x in stream), dtype=bool, count=n_seg)
    return present


def check_reference_presence(streams: list[list]) -> np.ndarray:
    """bool [S, K]: which references exist (:func:`reference_presence`); every segment needs at least one."""
    present = reference_presence(streams)
    missing = np.flatnonzero(~present.any(axis=1))
    if len(missing):
        raise ValueError(
            f"segment {int(missing[0])} has no reference (every stream is None there); "
            f"{len(missing)} segment(s) affected"
        )
    return present


def check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise ArgumentTypeError(f"{{}} must be True or False, got {value!r}", name)
    return bool(value)
