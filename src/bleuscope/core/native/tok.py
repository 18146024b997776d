"""The compiled tokenizers (``rust/python/src/tok.rs``): which of them run in this installation, the
Unicode tables they read, and :class:`bleuscope._core.Tokenizer` objects to hold.

A built-in tokenizer class declares the compiled core's name for it as its own class attribute
``native_name`` (a subclass, which may tokenize differently, declares its own or has none); any other
tokenizer (MeCab, SentencePiece, registered ones) tokenizes in Python and hands token ids to the compiled
counter.
"""

from __future__ import annotations

import functools
from typing import TypedDict, TypeGuard

from . import core

#: the compiled tokenizers that read the ``regex`` module's classes (intl: \\p{N}/\\p{P}/\\p{S}; cjk-char:
#: \\p{M}); with lowercasing, every tokenizer also reads ``str.lower``'s facts (Python's Unicode database).
#: Nothing else is version-dependent: ``zh``'s ranges are fixed code points, and Python's whitespace (the
#: only fact ``none``, ``char``, cased ``13a`` and cased ``zh`` read) is compiled in and checked below.
REGEX_TABLE_TOKENIZERS = frozenset({"intl", "cjk-char"})

#: the names of the compiled tokenizers
NATIVE_TOKENIZERS = frozenset({"none", "13a", "intl", "char", "zh", "cjk-char"})

#: Unicode versions whose whitespace (``str.isspace``) the compiled core's is checked against in CI (Python
#: 3.10 to 3.13); on any other version it is compared once per process (about 0.1 s)
_CHECKED_WHITESPACE_UNICODE = frozenset({"13.0.0", "14.0.0", "15.0.0", "15.1.0"})

#: (tokenizer name, lowercase) -> (native?, why): decided once per process
_support: dict[tuple[str, bool], tuple[bool, str]] = {}


class _TablesState(TypedDict, total=False):
    """What was found once per process: why the core's whitespace is not Python's (None: it is), and
    whether this installation's Unicode tables were handed to the core (and how, or why not)."""

    whitespace: str | None
    derived: tuple[bool, str]


_tables_state: _TablesState = {}


def declared_name(cls) -> str | None:
    """The compiled core's name that the tokenizer class ``cls`` declares for itself (not inherited)."""
    name = vars(cls).get("native_name")
    return name if name in NATIVE_TOKENIZERS else None


def _whitespace_problem() -> str | None:
    """Why the compiled core's whitespace is not this Python's, or None when it is."""
    if "whitespace" not in _tables_state:
        import unicodedata

        problem = None
        if unicodedata.unidata_version not in _CHECKED_WHITESPACE_UNICODE:
            import re

            from ..unicode_tables import _all_code_points

            python_ws = [m.start() for m in re.finditer(r"\s", _all_code_points())]
            if python_ws != list(core().TOKENIZER_TABLES["whitespace"]):
                problem = f"Python's whitespace (Unicode {unicodedata.unidata_version}) is not the compiled core's"
        _tables_state["whitespace"] = problem
    return _tables_state["whitespace"]


def use_unicode_tables(facts) -> None:
    """Hands ``facts`` (:class:`~bleuscope.core.unicode_tables.UnicodeFacts`) to the compiled core, whose
    tokenizers read them from then on; a ValueError says what the core refuses (nothing changes then)."""
    core().use_tokenizer_tables(
        facts.props.tobytes(),
        facts.lower_single.astype("<u4").tobytes(),
        list(facts.lower_multi),
        facts.case_ignorable.astype("<u4").tobytes(),
        facts.cased.astype("<u4").tobytes(),
        (facts.unidata_version, facts.regex_version),
    )


def _derived_tables() -> tuple[bool, str]:
    """Derives (or loads from the cache) the tables of this interpreter and ``regex`` and hands them to the
    compiled core, once per process: (done?, how or why not)."""
    if "derived" not in _tables_state:
        import regex

        from .. import unicode_tables

        try:
            got = unicode_tables.load_or_derive()
            f = got.facts
            use_unicode_tables(f)
            how = "loaded from" if got.source == "cache" else "derived in"
            where = f"{got.path}" if got.source == "cache" else f"{got.seconds:.2f} s"
            note = f"; {got.cache_note}" if got.cache_note else ""
            result = (True, f"tables of Unicode {f.unidata_version} and regex {f.regex_version}, {how} {where}{note}")
            _support.clear()  # decided with the built-in tables, which are no longer the ones in use
        except Exception as err:  # any failure leaves the Python tokenizer in charge, and says why
            result = (False, f"deriving the Unicode tables for regex {regex.__version__} failed: {err}")
        _tables_state["derived"] = result
    return _tables_state["derived"]


def tokenizer_support(name: str, lowercase: bool) -> tuple[bool, str]:
    """Whether the compiled tokenizer ``name`` runs (with ``lowercase``) in this installation, and why
    (or why not): the reason ``bleuscope --version`` shows."""
    key = (name, bool(lowercase))
    if key not in _support:
        _support[key] = _decide_support(name, bool(lowercase))
    return _support[key]


def _decide_support(name: str, lowercase: bool) -> tuple[bool, str]:
    module = core()
    if module is None:
        return False, "the compiled core is not built"
    if name not in NATIVE_TOKENIZERS:
        return False, "not a compiled tokenizer: tokenized in Python, token ids counted by the compiled core"
    problem = _whitespace_problem()
    if problem:
        return False, problem
    needs_regex = name in REGEX_TABLE_TOKENIZERS
    if not lowercase and not needs_regex:
        return True, "needs no Unicode table"
    import unicodedata

    import regex

    builtin = module.TOKENIZER_TABLES
    derived_in_use = _tables_state.get("derived", (False, ""))[0]
    if not derived_in_use and (
        (not lowercase or builtin["unidata_version"] == unicodedata.unidata_version)
        and (not needs_regex or builtin["regex_version"] == regex.__version__)
    ):
        return True, f"built-in tables (Unicode {builtin['unidata_version']}, regex {builtin['regex_version']})"
    return _derived_tables()


def tokenizer_core_name(registered: str) -> str:
    """The compiled core's name for the tokenizer registered as ``registered`` (the name its class declares
    when the registry maps it to a built-in class; else the registered name, which the core lacks)."""
    import importlib

    from ...tokenizers import registered_factory

    factory = registered_factory(registered)
    if not isinstance(factory, str):
        return registered
    module, _, cls = factory.partition(":")
    try:
        return declared_name(getattr(importlib.import_module(module), cls)) or registered
    except (ImportError, AttributeError):
        return registered


def tables_in_use() -> dict | None:
    """Which Unicode tables the compiled tokenizers read now (``source``: "built-in" or "installed", and
    their Unicode and regex versions), or None when the compiled core is not built."""
    module = core()
    return None if module is None else dict(module.tokenizer_tables_in_use())


def native_tokenizer_name(tokenizer, lowercase: bool = True) -> str | None:
    """The compiled core's name for ``tokenizer`` if it implements exactly this class with the Unicode
    tables of this installation (with lowercasing, if ``lowercase``), else None."""
    name = declared_name(type(tokenizer))
    return name if name is not None and tokenizer_support(name, lowercase)[0] else None


def all_tokenized(joined: list[str | None] | None) -> TypeGuard[list[str]]:
    """Whether :func:`tokenize_joined` tokenized every line (it gave a list, and no None in it)."""
    return joined is not None and None not in joined


def tokenize_joined(tokenizer, lines: list[str]) -> list[str | None] | None:
    """Each line's tokens, ``tokenizer(line.rstrip()).split()``, joined by single spaces, from the compiled
    tokenizer (tokens hold no whitespace: ``.split()`` gives them back); ``None`` in the list for a line it
    leaves to Python. None when the compiled core does not implement ``tokenizer`` here."""
    name = native_tokenizer_name(tokenizer)
    return None if name is None else _compiled_tokenizer(name).tokenize(lines, joined=True)


@functools.cache
def _compiled_tokenizer(name: str):
    """The compiled tokenizer ``name``, built once per process (it keeps no state between calls)."""
    return core().Tokenizer(name)


__all__ = [
    "NATIVE_TOKENIZERS",
    "REGEX_TABLE_TOKENIZERS",
    "all_tokenized",
    "declared_name",
    "tokenize_joined",
    "native_tokenizer_name",
    "tables_in_use",
    "tokenizer_core_name",
    "tokenizer_support",
    "use_unicode_tables",
]
