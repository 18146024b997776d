"""The Unicode tables derived from the running Python and ``regex`` (bleuscope.core.unicode_tables): the bulk
derivation against the per-character definitions, the cache (round trip, damaged files, unwritable
directories, the directory settings) and the compiled core's checks of tables handed to it."""

from __future__ import annotations

import os
import unicodedata

import numpy as np
import pytest
import regex

from bleuscope.core import native
from bleuscope.core import unicode_tables as ut
from bleuscope.core.native import tok as native_tok
from bleuscope.tokenizers.cjk import CJK_ATTACHED_CLASS, CJK_UNIT_START_CLASS
from bleuscope.tokenizers.zh import ZH_RANGES


@pytest.fixture(scope="module")
def facts() -> ut.UnicodeFacts:
    return ut.derive()


def _sample_code_points() -> list[int]:
    # every code point below U+2000 (Latin, Greek, Cyrillic, ..., where most case pairs live) and the
    # whitespace and punctuation blocks after it, then a stride through the rest that hits every block
    return list(range(0x2100)) + list(range(0x2100, 0xD800, 5)) + list(range(0xE000, 0x110000, 89))


def _in_ranges(ranges: np.ndarray, cp: int) -> bool:
    i = np.searchsorted(ranges[:, 1], cp)
    return bool(i < len(ranges) and ranges[i, 0] <= cp)


def test_bulk_derivation_equals_the_per_character_definitions(facts):
    """Each fact as the Python tokenizers ask it, one character at a time (the definitions the first
    table generator used), against the bulk derivation."""
    classes = [
        (ut.INTL_N, regex.compile(r"\p{N}")),
        (ut.INTL_P, regex.compile(r"\p{P}")),
        (ut.INTL_S, regex.compile(r"\p{S}")),
    ]
    start, attached = regex.compile(CJK_UNIT_START_CLASS), regex.compile(CJK_ATTACHED_CLASS)
    zh = {cp for first, last in ZH_RANGES for cp in range(first, last + 1)}
    single = dict(map(tuple, facts.lower_single.tolist()))
    multi = dict(facts.lower_multi)
    for cp in _sample_code_points():
        c = chr(cp)
        p = int(facts.props[cp])
        intl = [bit for bit, pattern in classes if pattern.fullmatch(c)]
        assert p & 0x06 == (intl[0] if intl else 0), hex(cp)
        assert bool(p & ut.WS) == c.isspace(), hex(cp)
        assert bool(p & ut.ZH) == (cp in zh), hex(cp)
        assert bool(p & ut.CJK_START) == bool(start.fullmatch(c)), hex(cp)
        assert bool(p & ut.CJK_CONT) == bool(attached.fullmatch(c)), hex(cp)
        low = c.lower()
        assert bool(p & ut.LOWER) == (low != c), hex(cp)
        assert (single.get(cp) if len(low) == 1 else multi.get(cp)) == (
            None if low == c else ord(low) if len(low) == 1 else low
        ), hex(cp)
        # the final-sigma rule's two observable properties, probed through str.lower
        cased = (c + "\u03a3").lower()[-1] == "\u03c2"
        ignorable = not cased and ("A" + c + "\u03a3").lower()[-1] == "\u03c2"
        assert _in_ranges(facts.cased, cp) == cased, hex(cp)
        assert _in_ranges(facts.case_ignorable, cp) == ignorable, hex(cp)
    assert not facts.props[0xD800:0xE000].any()
    assert (facts.unidata_version, facts.regex_version) == (unicodedata.unidata_version, regex.__version__)


def test_derivation_is_deterministic(facts):
    assert ut.derive().digest() == facts.digest()


# -- the cache -----------------------------------------------------------------------------------------


@pytest.fixture
def one_derivation(facts, monkeypatch):
    """The cache tests reuse one derivation (checked above) instead of deriving again each time."""
    monkeypatch.setattr(ut, "derive", lambda: facts)


def test_cache_round_trip_and_reuse(tmp_path, facts, one_derivation):
    first = ut.load_or_derive(tmp_path)
    assert first.source == "derived" and first.cache_note is None
    assert first.path.parent == tmp_path and first.path.exists()
    second = ut.load_or_derive(tmp_path)
    assert second.source == "cache" and second.path == first.path
    assert second.facts.digest() == facts.digest()
    assert second.facts.lower_multi == facts.lower_multi
    # written atomically: no temporary file is left behind
    assert [p.name for p in tmp_path.iterdir()] == [first.path.name]


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[: len(b) // 2],  # truncated
        lambda b: b"",  # empty
        lambda b: b"not a zip file at all",
        lambda b: b[:200] + bytes(len(b) - 200),  # zeroed after the first member's header
    ],
)
def test_damaged_cache_is_derived_again(tmp_path, facts, damage, one_derivation):
    path = ut.load_or_derive(tmp_path).path
    path.write_bytes(damage(path.read_bytes()))
    got = ut.load_or_derive(tmp_path)
    assert got.source == "derived" and "derived again" in got.cache_note
    assert got.facts.digest() == facts.digest()
    assert ut.load_or_derive(tmp_path).source == "cache"  # and the file was replaced by a good one


def test_any_flipped_byte_gives_the_right_tables_or_a_new_derivation(tmp_path, facts, one_derivation):
    """A flipped byte anywhere in the file: either the reader sees through it (a field nothing reads)
    and the content still passes its digest, or the file is derived again; never other tables."""
    good = ut.load_or_derive(tmp_path).path.read_bytes()
    path = ut.cache_path(tmp_path, facts.unidata_version, facts.regex_version)
    rng = np.random.default_rng(0)
    for pos in rng.choice(len(good), size=8, replace=False).tolist():
        path.write_bytes(good[:pos] + bytes([good[pos] ^ 0x5A]) + good[pos + 1 :])
        got = ut.load_or_derive(tmp_path)
        assert got.facts.digest() == facts.digest(), pos
        assert got.facts.lower_multi == facts.lower_multi and (got.facts.props == facts.props).all(), pos


def test_cache_file_with_right_format_but_wrong_content_is_refused(tmp_path, facts, one_derivation):
    # a well-formed file whose facts were changed (one lowercase mapping) fails the digest check
    path = ut.cache_path(tmp_path, facts.unidata_version, facts.regex_version)
    bad_lower = facts.lower_single.copy()
    bad_lower[0, 1] += 1
    bad = ut.UnicodeFacts(**{**facts.__dict__, "lower_single": bad_lower})
    ut.save(bad, path)
    with np.load(path) as data:
        meta = str(data["meta"][()])
    assert bad.digest() in meta  # the file is consistent with itself ...
    import json

    payload = dict(np.load(path))
    payload["meta"] = np.array(json.dumps({**json.loads(meta), "digest": facts.digest()}))
    with open(path, "wb") as f:  # ... until its digest claims the real facts
        np.savez_compressed(f, **payload)
    with pytest.raises(ValueError, match="digest"):
        ut.load(path, facts.unidata_version, facts.regex_version)
    got = ut.load_or_derive(tmp_path)
    assert got.source == "derived" and got.facts.digest() == facts.digest()


def test_cache_of_other_versions_is_not_loaded(tmp_path, facts, one_derivation):
    path = ut.cache_path(tmp_path, facts.unidata_version, facts.regex_version)
    other = ut.UnicodeFacts(**{**facts.__dict__, "regex_version": "0.0"})
    ut.save(other, path)  # under this version's name, but made for another regex
    with pytest.raises(ValueError, match="regex_version"):
        ut.load(path, facts.unidata_version, facts.regex_version)
    assert ut.load_or_derive(tmp_path).source == "derived"


def test_unwritable_cache_directory_only_skips_caching(tmp_path, facts, one_derivation):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    got = ut.load_or_derive(blocker / "cache")  # a directory under a regular file cannot be made
    assert got.source == "derived" and got.cache_note.startswith("not cached")
    assert got.facts.digest() == facts.digest()


def test_cache_directory_settings(tmp_path, monkeypatch, one_derivation):
    monkeypatch.setenv(ut.CACHE_ENV, str(tmp_path / "chosen"))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert ut.cache_dir() == tmp_path / "chosen"
    monkeypatch.setenv(ut.CACHE_ENV, "")
    assert ut.cache_dir() is None
    assert ut.load_or_derive().cache_note == "no cache directory"
    monkeypatch.delenv(ut.CACHE_ENV)
    if os.name != "nt":
        assert ut.cache_dir() == tmp_path / "xdg" / "bleuscope"
        monkeypatch.delenv("XDG_CACHE_HOME")
        monkeypatch.setenv("HOME", str(tmp_path / "home"))
        assert ut.cache_dir() == tmp_path / "home" / ".cache" / "bleuscope"


# -- the compiled core's checks ------------------------------------------------------------------------

_core = native.compiled_core()
requires_core = pytest.mark.skipif(_core is None, reason="the compiled core (bleuscope._core) is not built")


def _install(facts: ut.UnicodeFacts, **changes) -> None:
    native_tok.use_unicode_tables(ut.UnicodeFacts(**{**facts.__dict__, **changes}))


@requires_core
def test_core_refuses_tables_its_scanners_cannot_use(facts):
    props = facts.props.copy()
    props[0x200B] |= ut.WS  # zero-width space as whitespace: the core's whitespace is fixed
    with pytest.raises(ValueError, match="U\\+200B"):
        _install(facts, props=props)
    props = facts.props.copy()
    props[ord("A")] &= ~np.uint8(ut.LOWER)  # 'A' keeps its mapping but loses its bit
    with pytest.raises(ValueError, match="U\\+0041"):
        _install(facts, props=props)
    with pytest.raises(ValueError, match="not sorted"):
        _install(facts, lower_single=facts.lower_single[::-1].copy())
    with pytest.raises(ValueError, match="one per code point"):
        _install(facts, props=facts.props[:-1].copy())


@requires_core
def test_one_set_of_tables_per_process(facts):
    # the tables of this Python and regex are what the backend installs when the built-in ones do not
    # match (and equal to the built-in ones where they do): installing them again is accepted ...
    assert native_tok.tokenizer_support("intl", True)[0]
    _install(facts)
    assert _core.tokenizer_tables_in_use()["source"] == "installed"
    # ... other (valid) tables are not: a process has one Python and one regex
    single = facts.lower_single.copy()
    e_acute = int(np.flatnonzero(single[:, 0] == 0xC9)[0])
    single[e_acute, 1] = ord("e")
    with pytest.raises(ValueError, match="already in use"):
        _install(facts, lower_single=single)
