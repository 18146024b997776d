"""The Unicode facts the compiled tokenizers need, read from the running interpreter and ``regex`` module.

The compiled tokenizers never use Rust's own Unicode data (another Unicode version than Python's); every
fact about a character comes from a table, and the table must say what *this* Python's ``str`` methods and
*this* ``regex`` release say, or a token could differ from the Python tokenizer's (= sacreBLEU's):

* ``str.lower`` of every code point (one character or several), and the two properties Python's
  final-sigma rule looks at (cased, case-ignorable), probed through ``str.lower`` itself;
* ``str.isspace``;
* the ``regex`` classes ``\\p{N}``, ``\\p{P}``, ``\\p{S}`` (``intl``) and the ``cjk-char`` unit classes
  (``\\p{M}`` among them);
* the ``zh`` ranges (fixed code points, the same on every version).

The compiled core carries tables for one setup (``rust/tools/gen_unicode_tables.py``, run on the Python
and ``regex`` named in ``_core.TOKENIZER_TABLES``). For any other setup :func:`load_or_derive` derives the
tables here (about half a second), keeps them in the user's cache directory per (Unicode version, ``regex``
version) and loads them from there afterwards (milliseconds). A cache file is checked against a digest of
its content and the versions it claims: a damaged or stale file is derived again, never used.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import tempfile
import time
import unicodedata
from dataclasses import dataclass
from pathlib import Path

import numpy as np

#: bump when the derivation or the file layout changes: older cache files are then derived again
FORMAT = 1

MAX_CP = 0x110000
SURROGATES = (0xD800, 0xE000)

# property bits per code point (the same values as the compiled core's tables)
WS = 0x01
INTL_N = 0x02
INTL_P = 0x04
INTL_S = 0x06
ZH = 0x08
CJK_START = 0x10
CJK_CONT = 0x20
LOWER = 0x40

#: the environment variable that chooses the cache directory (empty: no cache)
CACHE_ENV = "BLEUSCOPE_CACHE_DIR"

_CAPITAL_SIGMA = 0x3A3
_FINAL_SIGMA = 0x3C2
_CHUNK = 4096  # code points lowered per string when looking for multi-character lowercase forms


@dataclass(frozen=True, eq=False)
class UnicodeFacts:
    """Every per-character fact of the compiled tokenizers, for one Unicode database and ``regex`` release."""

    unidata_version: str
    regex_version: str
    #: uint8 ``[0x110000]``: the property bits of each code point (surrogates: 0)
    props: np.ndarray
    #: uint32 ``[n, 2]``: ``(c, c.lower())`` where the lowercase is one other character, sorted by c
    lower_single: np.ndarray
    #: ``(c, c.lower())`` where the lowercase is several characters, sorted by c
    lower_multi: tuple[tuple[int, str], ...]
    #: uint32 ``[n, 2]``: inclusive ranges of case-ignorable characters, as the final-sigma rule sees them
    case_ignorable: np.ndarray
    #: uint32 ``[n, 2]``: inclusive ranges of cased characters that are not case-ignorable
    cased: np.ndarray

    def digest(self) -> str:
        """A digest of every fact (the cache's integrity check)."""
        h = hashlib.sha256()
        h.update(f"{FORMAT}\0{self.unidata_version}\0{self.regex_version}\0".encode())
        for arr in (self.props, self.lower_single, self.case_ignorable, self.cased):
            h.update(str(arr.shape).encode())
            h.update(np.ascontiguousarray(arr).tobytes())
        h.update(json.dumps(self.lower_multi, ensure_ascii=True).encode())
        return h.hexdigest()


def _inputs_digest() -> str:
    """A digest of bleuscope's own inputs to the tables (the zh ranges, the cjk-char classes): a cache file
    made by a version with other ranges is not this version's."""
    from ..tokenizers.cjk import CJK_ATTACHED_CLASS, CJK_UNIT_START_CLASS
    from ..tokenizers.zh import ZH_RANGES

    text = json.dumps([FORMAT, ZH_RANGES, CJK_UNIT_START_CLASS, CJK_ATTACHED_CLASS])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _all_code_points() -> str:
    """Every code point 0..0x10FFFF in order, surrogates included (so an index is a code point)."""
    return np.arange(MAX_CP, dtype="<u4").tobytes().decode("utf-32-le", "surrogatepass")


def _code_points(text: str) -> np.ndarray:
    return np.frombuffer(text.encode("utf-32-le", "surrogatepass"), dtype="<u4")


def _mark(props: np.ndarray, text: str, pattern, bit: int) -> np.ndarray:
    """Sets ``bit`` at every code point ``pattern`` (one character at a time) matches in ``text``; returns
    those code points."""
    hits = np.asarray([m.start() for m in pattern.finditer(text)], dtype=np.int64)
    props[hits] |= bit
    return hits


def _lowercase(all_chars: str) -> tuple[np.ndarray, dict[int, str]]:
    """``str.lower`` of every single character: the code points it changes into one other character (an
    array, ``-1`` where unchanged or several) and those it changes into several (a dict)."""
    single = np.full(MAX_CP, -1, dtype=np.int64)
    multi: dict[int, str] = {}
    for start in range(0, MAX_CP, _CHUNK):
        chunk = all_chars[start : start + _CHUNK]
        lowered = chunk.lower()
        if len(lowered) == len(chunk):  # every character lowers to one (context aside: see below)
            src, dst = _code_points(chunk), _code_points(lowered)
            changed = np.flatnonzero(src != dst)
            single[start + changed] = dst[changed]
        else:
            for i, ch in enumerate(chunk):
                low = ch.lower()
                if len(low) > 1:
                    multi[start + i] = low
                elif low != ch:
                    single[start + i] = ord(low)
    # 'Σ' is the one character whose lowercase depends on its neighbours: alone it is 'σ'
    sigma_low = chr(_CAPITAL_SIGMA).lower()
    single[_CAPITAL_SIGMA] = ord(sigma_low) if len(sigma_low) == 1 else -1
    return single, multi


def _final_sigma_after(cps: np.ndarray, before: list[int]) -> np.ndarray:
    """For each code point c: whether 'Σ' lowers to final 'ς' in ``before + [c, 'Σ', ' ']``, probed for all
    code points in one ``str.lower`` call (a space, neither cased nor case-ignorable, closes each probe)."""
    width = len(before) + 3
    probe = np.empty((len(cps), width), dtype="<u4")
    probe[:, : len(before)] = before
    probe[:, len(before)] = cps
    probe[:, len(before) + 1] = _CAPITAL_SIGMA
    probe[:, len(before) + 2] = 0x20
    lowered = _code_points(probe.tobytes().decode("utf-32-le", "surrogatepass").lower())
    assert len(lowered) == probe.size, "a probe character lowered to several characters"
    return lowered.reshape(len(cps), width)[:, len(before) + 1] == _FINAL_SIGMA


def _sigma_classes(multi: dict[int, str]) -> tuple[np.ndarray, np.ndarray]:
    """Python's final-sigma rule (``handle_capital_sigma`` in CPython): 'Σ' lowers to 'ς' when a cased
    character precedes it and none follows, case-ignorable characters skipped. Returns boolean arrays:
    case-ignorable, and cased-but-not-case-ignorable (the only properties the rule can observe)."""
    cps = np.arange(MAX_CP, dtype="<u4")
    # characters whose lowercase is several characters would shift the probes: probed one by one
    one_by_one = np.asarray(sorted(multi), dtype=np.int64)
    bulk = cps.copy()
    bulk[one_by_one] = ord("x")
    cased = _final_sigma_after(bulk, [])  # "cΣ": 'ς' iff c is cased (an ignorable c is skipped)
    after_a = _final_sigma_after(bulk, [ord("A")])  # "AcΣ": 'ς' iff c is cased or case-ignorable
    for cp in one_by_one.tolist():
        cased[cp] = (chr(cp) + "\u03a3").lower()[-1] == "\u03c2"
        after_a[cp] = ("A" + chr(cp) + "\u03a3").lower()[-1] == "\u03c2"
    ignorable = after_a & ~cased
    lo, hi = SURROGATES
    cased[lo:hi] = ignorable[lo:hi] = False
    return ignorable, cased


def _ranges(flags: np.ndarray) -> np.ndarray:
    """Inclusive ``(first, last)`` ranges of the True runs of ``flags``, uint32 ``[n, 2]``."""
    edges = np.diff(np.concatenate(([0], flags.astype(np.int8), [0])))
    starts = np.flatnonzero(edges == 1)
    ends = np.flatnonzero(edges == -1) - 1
    return np.stack([starts, ends], axis=1).astype(np.uint32).reshape(-1, 2)


def derive() -> UnicodeFacts:
    """The tables of the running interpreter and ``regex`` module (about half a second)."""
    import regex

    from ..tokenizers.cjk import CJK_ATTACHED_CLASS, CJK_CHAR_RANGES, CJK_UNIT_START_CLASS
    from ..tokenizers.language import regex_char_class
    from ..tokenizers.zh import ZH_RANGES

    all_chars = _all_code_points()
    props = np.zeros(MAX_CP, dtype=np.uint8)
    # re's \s on str patterns is Py_UNICODE_ISSPACE, the test behind str.isspace/split/strip
    _mark(props, all_chars, re.compile(r"\s"), WS)
    classes = [
        _mark(props, all_chars, regex.compile(c), b)
        for b, c in ((INTL_N, r"\p{N}"), (INTL_P, r"\p{P}"), (INTL_S, r"\p{S}"))
    ]
    if len(np.unique(np.concatenate(classes))) != sum(map(len, classes)):  # the 2-bit class field needs this
        raise ValueError(f"regex {regex.__version__}: a character in two of \\p{{N}}, \\p{{P}}, \\p{{S}}")
    for first, last in ZH_RANGES:
        props[first : last + 1] |= ZH
    for first, last in CJK_CHAR_RANGES:  # the unit-start class is these ranges and nothing else
        props[first : last + 1] |= CJK_START
    assert CJK_UNIT_START_CLASS == f"[{regex_char_class(CJK_CHAR_RANGES)}]"
    _mark(props, all_chars, regex.compile(CJK_ATTACHED_CLASS), CJK_CONT)
    single, multi = _lowercase(all_chars)
    props[single >= 0] |= LOWER
    props[np.asarray(sorted(multi), dtype=np.int64)] |= LOWER
    lo, hi = SURROGATES
    props[lo:hi] = 0  # never in a Rust str (nor in valid UTF-8 text)
    changed = np.flatnonzero(single >= 0)
    changed = changed[(changed < lo) | (changed >= hi)]
    lower_single = np.stack([changed, single[changed]], axis=1).astype(np.uint32).reshape(-1, 2)
    ignorable, cased = _sigma_classes(multi)
    return UnicodeFacts(
        unidata_version=unicodedata.unidata_version,
        regex_version=regex.__version__,
        props=props,
        lower_single=lower_single,
        lower_multi=tuple(sorted(multi.items())),
        case_ignorable=_ranges(ignorable),
        cased=_ranges(cased),
    )


# -- the cache -----------------------------------------------------------------------------------------


def cache_dir() -> Path | None:
    """Where derived tables are kept: ``$BLEUSCOPE_CACHE_DIR`` if set (empty: nowhere), else
    ``$XDG_CACHE_HOME/bleuscope``, else ``~/.cache/bleuscope`` (``%LOCALAPPDATA%\\bleuscope`` on Windows)."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen is not None:
        return Path(chosen).expanduser() if chosen else None
    xdg = os.environ.get("XDG_CACHE_HOME")
    if xdg:
        return Path(xdg) / "bleuscope"
    if os.name == "nt" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"]) / "bleuscope"
    try:
        return Path.home() / ".cache" / "bleuscope"
    except RuntimeError:  # no home directory
        return None


def cache_path(directory: Path, unidata_version: str, regex_version: str) -> Path:
    safe = re.sub(r"[^0-9A-Za-z.]+", "_", f"{unidata_version}-regex{regex_version}")
    return directory / f"unicode-tables-v{FORMAT}-unicode{safe}-{_inputs_digest()}.npz"


def _meta(facts: UnicodeFacts) -> dict:
    return {
        "format": FORMAT,
        "unidata_version": facts.unidata_version,
        "regex_version": facts.regex_version,
        "inputs": _inputs_digest(),
        "digest": facts.digest(),
    }


def save(facts: UnicodeFacts, path: Path) -> None:
    """Writes ``facts`` to ``path`` atomically (a temporary file in the same directory, then renamed):
    a reader sees the old file or the whole new one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".npz", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            np.savez_compressed(
                f,
                meta=np.array(json.dumps(_meta(facts))),
                props=facts.props,
                lower_single=facts.lower_single,
                lower_multi_cp=np.array([cp for cp, _ in facts.lower_multi], dtype=np.uint32),
                lower_multi_text=np.array(json.dumps([s for _, s in facts.lower_multi])),
                case_ignorable=facts.case_ignorable,
                cased=facts.cased,
            )
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def load(path: Path, unidata_version: str, regex_version: str) -> UnicodeFacts:
    """The tables in ``path``; ValueError (or OSError) unless the file is whole and holds exactly the
    tables of these versions (its digest is recomputed from the content)."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"][()]))
        texts = json.loads(str(data["lower_multi_text"][()]))
        facts = UnicodeFacts(
            unidata_version=meta["unidata_version"],
            regex_version=meta["regex_version"],
            props=np.asarray(data["props"], dtype=np.uint8),
            lower_single=np.asarray(data["lower_single"], dtype=np.uint32).reshape(-1, 2),
            lower_multi=tuple(zip(map(int, data["lower_multi_cp"]), map(str, texts))),
            case_ignorable=np.asarray(data["case_ignorable"], dtype=np.uint32).reshape(-1, 2),
            cased=np.asarray(data["cased"], dtype=np.uint32).reshape(-1, 2),
        )
    expected = {"format": FORMAT, "unidata_version": unidata_version, "regex_version": regex_version}
    expected["inputs"] = _inputs_digest()
    for key, value in expected.items():
        if meta.get(key) != value:
            raise ValueError(f"{path}: {key} is {meta.get(key)!r}, not {value!r}")
    if facts.props.shape != (MAX_CP,) or meta.get("digest") != facts.digest():
        raise ValueError(f"{path}: content does not match its digest")
    return facts


@dataclass(frozen=True)
class Derivation:
    """Derived tables and how they were obtained (shown by ``bleuscope --version``)."""

    facts: UnicodeFacts
    #: "cache" (loaded) or "derived"
    source: str
    seconds: float
    path: Path | None
    #: why the cache was not used or written (None when it was)
    cache_note: str | None = None


def load_or_derive(directory: Path | None = None, *, use_cache: bool = True) -> Derivation:
    """The tables of the running interpreter and ``regex``: from the cache directory when a valid file is
    there, else derived and written there (an unwritable directory only skips the writing)."""
    import regex

    start = time.perf_counter()
    if directory is None and use_cache:
        directory = cache_dir()
    path = cache_path(directory, unicodedata.unidata_version, regex.__version__) if directory else None
    note = None if path else "no cache directory"
    if path is not None and path.exists():
        try:
            facts = load(path, unicodedata.unidata_version, regex.__version__)
            return Derivation(facts, "cache", time.perf_counter() - start, path)
        except Exception as err:  # damaged (any way a zip, zlib or JSON reader can fail) or stale: derive again
            note = f"cache file unusable, derived again ({type(err).__name__})"
    facts = derive()
    seconds = time.perf_counter() - start
    if path is not None:
        try:
            save(facts, path)
        except OSError as err:
            note = f"not cached: {err.strerror or err}"
    return Derivation(facts, "derived", seconds, path, note)


__all__ = ["CACHE_ENV", "Derivation", "UnicodeFacts", "cache_dir", "cache_path", "derive", "load", "load_or_derive"]
