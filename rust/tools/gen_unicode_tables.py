#!/usr/bin/env python3
"""Generate rust/core/src/tok/tables.rs: the Unicode facts the Rust tokenizers need, asked of THIS Python.

Rust's own Unicode tables (char::is_whitespace, to_lowercase, ...) follow another Unicode version than
Python's `str` methods and the `regex` module that sacreBLEU's tokenizers run on, so the Rust side never
uses them. Every fact here comes from iterating over all code points and asking the Python objects the
Python tokenizers use:

* whitespace: `str.isspace` (what `str.split()` / `str.rstrip()` / `str.strip()` use);
* `intl` classes: the `regex` module's \\p{N}, \\p{P}, \\p{S};
* `zh`: the spacing table of bleuscope's `zh` tokenizer (sacreBLEU's ranges, defect included);
* `cjk-char`: bleuscope's compiled CJK unit pattern (a start character, then attached characters);
* lowercasing: `str.lower` of every single character, plus the two properties Python's final-sigma rule
  looks at (case-ignorable, cased), found by probing `str.lower` on short strings containing 'Σ'.

Run from the repository root:  python rust/tools/gen_unicode_tables.py   (rewrites the file, then rebuild;
tests/test_native_tokenizers.py checks that the committed file is what this script gives and compares the
Rust tokenizers with the Python ones).
"""

from __future__ import annotations

import sys
import unicodedata
from pathlib import Path

import regex

from bleuscope.tokenizers import get_tokenizer

OUT = Path(__file__).resolve().parent.parent / "core" / "src" / "tok" / "tables.rs"

MAX_CP = 0x110000
BLOCK = 128  # code points per second-stage block

WS = 0x01
INTL_N = 0x02
INTL_P = 0x04
INTL_S = 0x06
ZH = 0x08
CJK_START = 0x10
CJK_CONT = 0x20
LOWER = 0x40


def code_points():
    for cp in range(MAX_CP):
        if 0xD800 <= cp < 0xE000:  # surrogates never occur in a Rust str (nor in valid UTF-8 text)
            continue
        yield cp


def props() -> list[int]:
    re_n, re_p, re_s = (regex.compile(p) for p in (r"\p{N}", r"\p{P}", r"\p{S}"))
    zh_spacing = get_tokenizer("zh")._spacing
    cjk = get_tokenizer("cjk-char")._cjk
    cjk_probe = "\u6f22"  # a Han character: a CJK start, so `probe + c` is one unit iff c attaches
    assert cjk.fullmatch(cjk_probe)
    out = [0] * MAX_CP
    for cp in code_points():
        c = chr(cp)
        v = 0
        if c.isspace():
            v |= WS
        classes = [bit for bit, r in ((INTL_N, re_n), (INTL_P, re_p), (INTL_S, re_s)) if r.fullmatch(c)]
        assert len(classes) <= 1, hex(cp)
        if classes:
            v |= classes[0]
        if cp in zh_spacing:
            v |= ZH
        if cjk.fullmatch(c):
            v |= CJK_START
        if cjk.fullmatch(cjk_probe + c):
            v |= CJK_CONT
        if c.lower() != c:
            v |= LOWER
        out[cp] = v
    # facts the Rust scanners rely on to skip decoding (checked here, where they come from)
    assert all(out[cp] & ZH == 0 for cp in range(0x2001)), "zh ranges start at U+2001 (lead byte E2+)"
    assert all(out[cp] & CJK_CONT == 0 for cp in range(0x80)), "no ASCII character attaches to a CJK unit"
    ws_leads = {chr(cp).encode()[0] for cp in code_points() if cp >= 0x80 and out[cp] & WS}
    assert ws_leads <= {0xC2, 0xE1, 0xE2, 0xE3}, ws_leads
    return out


def two_stage(values: list[int]) -> tuple[list[int], list[int]]:
    blocks: dict[tuple, int] = {}
    stage1 = []
    stage2: list[int] = []
    for start in range(0, MAX_CP, BLOCK):
        block = tuple(values[start : start + BLOCK])
        idx = blocks.get(block)
        if idx is None:
            idx = len(blocks)
            blocks[block] = idx
            stage2.extend(block)
        stage1.append(idx)
    assert len(blocks) < 2**16
    return stage1, stage2


def ranges(pred) -> list[tuple[int, int]]:
    out: list[list[int]] = []
    for cp in code_points():
        if pred(cp):
            if out and out[-1][1] == cp - 1:
                out[-1][1] = cp
            else:
                out.append([cp, cp])
    return [tuple(r) for r in out]


def sigma_classes() -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    # Python's final-sigma rule (unicodeobject.c, handle_capital_sigma): 'Σ' lowers to 'ς' when a cased
    # character precedes it (skipping case-ignorable ones) and no cased one follows (likewise). A case-
    # ignorable character is always skipped, so its own casedness never matters and is not asked for.
    def cased(cp: int) -> bool:  # cased and not case-ignorable: it ends the backward scan as cased
        return (chr(cp) + "\u03a3").lower()[-1] == "\u03c2"

    def ignorable(cp: int) -> bool:  # skipped back to the cased 'A'
        return not cased(cp) and ("A" + chr(cp) + "\u03a3").lower()[-1] == "\u03c2"

    return ranges(ignorable), ranges(cased)


def rust_u8_rows(values, per_row=32) -> str:
    return "\n".join(
        "    " + ", ".join(str(v) for v in values[i : i + per_row]) + "," for i in range(0, len(values), per_row)
    )


def render() -> str:
    """The text of tables.rs for the running Python and regex module."""
    values = props()
    stage1, stage2 = two_stage(values)
    lower_single = []
    lower_multi = []
    for cp in code_points():
        low = chr(cp).lower()
        if low == chr(cp):
            continue
        if len(low) == 1:
            lower_single.append((cp, ord(low)))
        else:
            lower_multi.append((cp, low))
    ignorable, cased = sigma_classes()

    def pairs(rows):
        return "\n".join(f"    (0x{a:04X}, 0x{b:04X})," for a, b in rows)

    def multi(rows):
        def lit(s):
            return "".join(f"\\u{{{ord(ch):04X}}}" for ch in s)

        return "\n".join(f'    (0x{a:04X}, "{lit(s)}"),' for a, s in rows)

    py = ".".join(map(str, sys.version_info[:2]))  # the Unicode database is fixed per minor version
    text = f"""// @generated by rust/tools/gen_unicode_tables.py -- do not edit by hand.
// Source: Python {py} (unicodedata {unicodedata.unidata_version}), regex {regex.__version__}.
// Property bits per code point, from str.isspace, the regex module's \\p{{N}}/\\p{{P}}/\\p{{S}}, bleuscope's
// zh spacing table and cjk-char unit pattern, and str.lower.
#![allow(clippy::unreadable_literal)]

pub const PYTHON_VERSION: &str = "{py}";
pub const UNIDATA_VERSION: &str = "{unicodedata.unidata_version}";
pub const REGEX_VERSION: &str = "{regex.__version__}";

/// Python whitespace (`str.isspace`).
pub const WS: u8 = {WS:#04x};
/// Mask of the `intl` class: 0 other, [`INTL_N`], [`INTL_P`] or [`INTL_S`].
pub const INTL_MASK: u8 = 0x06;
pub const INTL_N: u8 = {INTL_N:#04x};
pub const INTL_P: u8 = {INTL_P:#04x};
pub const INTL_S: u8 = {INTL_S:#04x};
/// Spaced out by `zh` (sacreBLEU's ranges as Python compares them).
pub const ZH: u8 = {ZH:#04x};
/// Starts a `cjk-char` unit.
pub const CJK_START: u8 = {CJK_START:#04x};
/// Stays attached to a preceding `cjk-char` unit.
pub const CJK_CONT: u8 = {CJK_CONT:#04x};
/// `str.lower` changes the character.
pub const LOWER: u8 = {LOWER:#04x};

pub const BLOCK_SHIFT: u32 = {BLOCK.bit_length() - 1};
pub const BLOCK_MASK: u32 = {BLOCK - 1};

/// Property bytes of the ASCII characters (the scanners' fast path).
pub const ASCII_PROPS: [u8; 128] = [
{rust_u8_rows(values[:128])}
];

/// Block index of each {BLOCK}-code-point block.
pub static STAGE1: [u16; {len(stage1)}] = [
{rust_u8_rows(stage1)}
];

/// Property bytes of the distinct blocks.
pub static STAGE2: [u8; {len(stage2)}] = [
{rust_u8_rows(stage2)}
];

/// `(c, c.lower())` where the lowercase is one other character, sorted.
pub static LOWER_SINGLE: [(u32, u32); {len(lower_single)}] = [
{pairs(lower_single)}
];

/// `(c, c.lower())` where the lowercase is several characters.
pub static LOWER_MULTI: [(u32, &str); {len(lower_multi)}] = [
{multi(lower_multi)}
];

/// Case-ignorable characters (inclusive ranges) as Python's final-sigma rule sees them.
pub static CASE_IGNORABLE: [(u32, u32); {len(ignorable)}] = [
{pairs(ignorable)}
];

/// Cased characters that are not case-ignorable (inclusive ranges).
pub static CASED: [(u32, u32); {len(cased)}] = [
{pairs(cased)}
];
"""
    return text


def main() -> None:
    text = render()
    OUT.write_text(text)
    print(f"wrote {OUT} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
