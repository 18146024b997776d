//! Python's view of Unicode: whitespace (`str.split`/`str.rstrip`, fixed: from the built-in tables) and
//! `str.lower` including the final-sigma rule (from the tables in use, [`super::unidata::active`]).

use super::tables::{BLOCK_MASK, BLOCK_SHIFT, LOWER, STAGE1, STAGE2, WS};
use super::unidata::{active, Lowered, UnicodeTables};

/// Built-in property bits (see `tables.rs`) of code point `c` (< 0x110000): read only for the facts
/// that are the same in every Unicode version the tokenizers accept (whitespace, `zh`'s ranges); the
/// others come from [`UnicodeTables::props`].
#[inline(always)]
pub(crate) fn props(c: u32) -> u8 {
    let block = STAGE1[(c >> BLOCK_SHIFT) as usize] as usize;
    STAGE2[(block << BLOCK_SHIFT) | (c & BLOCK_MASK) as usize]
}

/// ASCII whitespace of Python's `str.split()`: \t \n \v \f \r, \x1c-\x1f and space.
#[inline(always)]
pub(crate) const fn is_ascii_py_space(b: u8) -> bool {
    matches!(b, 0x09..=0x0d | 0x1c..=0x20)
}

/// Lead bytes of the non-ASCII whitespace characters (U+0085, U+00A0, U+1680, U+2000-U+205F,
/// U+3000); a test checks the list against the tables. Other non-ASCII characters are never
/// whitespace, so the scanners decode only characters starting with one of these bytes.
#[inline(always)]
pub(crate) const fn maybe_ws_lead(b: u8) -> bool {
    matches!(b, 0xc2 | 0xe1 | 0xe2 | 0xe3)
}

/// The code point starting at byte `i` of valid UTF-8 `b` and its length in bytes.
#[inline(always)]
pub(crate) fn decode(b: &[u8], i: usize) -> (u32, usize) {
    let b0 = b[i] as u32;
    if b0 < 0x80 {
        (b0, 1)
    } else if b0 < 0xe0 {
        (((b0 & 0x1f) << 6) | (b[i + 1] as u32 & 0x3f), 2)
    } else if b0 < 0xf0 {
        (
            ((b0 & 0x0f) << 12) | ((b[i + 1] as u32 & 0x3f) << 6) | (b[i + 2] as u32 & 0x3f),
            3,
        )
    } else {
        (
            ((b0 & 0x07) << 18)
                | ((b[i + 1] as u32 & 0x3f) << 12)
                | ((b[i + 2] as u32 & 0x3f) << 6)
                | (b[i + 3] as u32 & 0x3f),
            4,
        )
    }
}

/// Whether the whitespace-or-not character starting at byte `i` (a non-ASCII lead byte) is Python
/// whitespace; returns its length when it is.
#[inline(always)]
pub(crate) fn non_ascii_ws_len(b: &[u8], i: usize) -> Option<usize> {
    if !maybe_ws_lead(b[i]) {
        return None;
    }
    let (c, len) = decode(b, i);
    (props(c) & WS != 0).then_some(len)
}

/// Python `s.rstrip()`.
pub(crate) fn py_rstrip(s: &str) -> &str {
    let b = s.as_bytes();
    let mut end = b.len();
    while end > 0 {
        let last = b[end - 1];
        if last < 0x80 {
            if !is_ascii_py_space(last) {
                break;
            }
            end -= 1;
        } else {
            // step back to the lead byte of the last character
            let mut start = end - 1;
            while b[start] & 0xc0 == 0x80 {
                start -= 1;
            }
            if non_ascii_ws_len(b, start).is_none() {
                break;
            }
            end = start;
        }
    }
    &s[..end]
}

/// The first index at or after `i` that does not start a Python whitespace character.
#[inline(always)]
pub(crate) fn skip_py_space(b: &[u8], mut i: usize) -> usize {
    while i < b.len() {
        if b[i] < 0x80 {
            if !is_ascii_py_space(b[i]) {
                break;
            }
            i += 1;
        } else {
            match non_ascii_ws_len(b, i) {
                Some(len) => i += len,
                None => break,
            }
        }
    }
    i
}

/// Python `s.lstrip()`.
pub(crate) fn py_lstrip(s: &str) -> &str {
    &s[skip_py_space(s.as_bytes(), 0)..]
}

const CAPITAL_SIGMA: char = '\u{3a3}';

/// Python's final-sigma rule (`handle_capital_sigma` in CPython): the 'Σ' at byte `pos` of `s` lowers
/// to 'ς' when a cased character precedes it and none follows, case-ignorable characters skipped.
fn final_sigma(t: &UnicodeTables, s: &str, pos: usize) -> bool {
    let mut result = false;
    for c in s[..pos].chars().rev() {
        let c = c as u32;
        if t.is_case_ignorable(c) {
            continue;
        }
        result = t.is_cased(c);
        break;
    }
    if result {
        for c in s[pos + CAPITAL_SIGMA.len_utf8()..].chars() {
            let c = c as u32;
            if t.is_case_ignorable(c) {
                continue;
            }
            result = !t.is_cased(c);
            break;
        }
    }
    result
}

/// Appends Python's `c.lower()` for a single character `c` (not 'Σ', whose result needs context).
fn push_lower(t: &UnicodeTables, c: u32, out: &mut String) {
    match t.lower(c) {
        Some(Lowered::One(low)) => out.push(low),
        Some(Lowered::Several(low)) => out.push_str(low),
        // a LOWER bit without a mapping is refused when tables are built; keep the character
        None => out.push(char::from_u32(c).expect("decoded from a str")),
    }
}

/// Python `s.lower()` written to `out` (cleared first). Returns `false` (and leaves `out` alone) when
/// lowercasing changes nothing, so the caller can go on with `s` itself.
pub(crate) fn py_lower_into(s: &str, out: &mut String) -> bool {
    let t = active();
    let b = s.as_bytes();
    // Is there a non-ASCII character that lowercasing changes? If not, only ASCII letters change,
    // and copying then lowercasing ASCII in place (vectorized) is exact.
    let first = if s.is_ascii() {
        None
    } else {
        next_changed(t, b, 0)
    };
    let Some(mut changed) = first else {
        if !b.iter().any(u8::is_ascii_uppercase) {
            return false;
        }
        out.clear();
        out.push_str(s);
        out.make_ascii_lowercase();
        return true;
    };
    out.clear();
    out.reserve(s.len() + s.len() / 2);
    let mut run = 0; // start of the not yet copied bytes, which only need ASCII lowercasing
    loop {
        let (i, c, len) = changed;
        push_ascii_lower(&s[run..i], out);
        if c == CAPITAL_SIGMA as u32 {
            out.push(if final_sigma(t, s, i) {
                '\u{3c2}'
            } else {
                '\u{3c3}'
            });
        } else {
            push_lower(t, c, out);
        }
        run = i + len;
        match next_changed(t, b, run) {
            Some(next) => changed = next,
            None => break,
        }
    }
    push_ascii_lower(&s[run..], out);
    true
}

/// The next non-ASCII character at or after byte `i` (a character start) that `str.lower` changes:
/// its position, code point and length.
fn next_changed(t: &UnicodeTables, b: &[u8], mut i: usize) -> Option<(usize, u32, usize)> {
    while i < b.len() {
        if b[i] < 0x80 {
            i += 1;
            continue;
        }
        let (c, len) = decode(b, i);
        if t.props(c) & LOWER != 0 {
            return Some((i, c, len));
        }
        i += len;
    }
    None
}

/// Appends `s` with its ASCII letters lowercased.
fn push_ascii_lower(s: &str, out: &mut String) {
    let from = out.len();
    out.push_str(s);
    // only the appended part; the earlier part may hold lowercase results that must not change
    // (they are already lowercase, so lowercasing all of `out` would be exact too, but slower)
    let (_, tail) = out.split_at_mut(from);
    tail.make_ascii_lowercase();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tok::tables;

    #[test]
    fn ascii_helpers_agree_with_tables() {
        for c in 0u32..0x80 {
            assert_eq!(
                is_ascii_py_space(c as u8),
                props(c) & WS != 0,
                "whitespace U+{c:04X}"
            );
        }
        for c in 0x80u32..0x110000 {
            if props(c) & WS != 0 {
                let ch = char::from_u32(c).unwrap();
                let mut enc = [0u8; 4];
                ch.encode_utf8(&mut enc);
                assert!(
                    maybe_ws_lead(enc[0]),
                    "whitespace U+{c:04X} has lead {:#x}",
                    enc[0]
                );
            }
        }
    }

    #[test]
    fn decode_matches_std() {
        let s = "aé€😀\u{10ffff}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}";
        let b = s.as_bytes();
        let mut i = 0;
        for (pos, ch) in s.char_indices() {
            assert_eq!(pos, i);
            let (c, len) = decode(b, i);
            assert_eq!((c, len), (ch as u32, ch.len_utf8()));
            i += len;
        }
    }

    #[test]
    fn strip_like_python() {
        assert_eq!(py_rstrip(" a b \t\u{3000}\u{85}\u{a0}\x1c"), " a b");
        assert_eq!(py_rstrip("a\u{200b}"), "a\u{200b}"); // zero-width space is not whitespace
        assert_eq!(py_rstrip("\u{2028}\u{2029}"), "");
        assert_eq!(py_lstrip("\u{205f}\u{1680} x "), "x ");
        assert_eq!(py_rstrip("é"), "é");
    }

    fn lower(s: &str) -> String {
        let mut out = String::new();
        if py_lower_into(s, &mut out) {
            out
        } else {
            s.to_string()
        }
    }

    #[test]
    fn lower_like_python() {
        assert_eq!(lower("abc"), "abc");
        assert_eq!(lower("ABC Déjà VU"), "abc déjà vu");
        assert_eq!(lower("İstanbul"), "i\u{307}stanbul");
        assert_eq!(lower("\u{212a}"), "k"); // Kelvin sign lowers to ASCII k
        assert_eq!(lower("ΣΑΣ"), "σας");
        assert_eq!(lower("Σ"), "σ");
        assert_eq!(lower("AΣ"), "aς");
        assert_eq!(lower("AΣ'"), "aς'");
        assert_eq!(lower("A'Σ'B"), "a'σ'b");
        assert_eq!(lower("A.Σ b"), "a.ς b");
        assert_eq!(lower("ὈΔΥΣΣΕΎΣ"), "ὀδυσσεύς");
    }

    #[test]
    fn tables_are_from_this_python() {
        // the generator's provenance is part of the contract; a regenerated table changes these
        assert_eq!(
            tables::PYTHON_VERSION
                .split('.')
                .take(2)
                .collect::<Vec<_>>(),
            ["3", "11"]
        );
        assert_eq!(tables::UNIDATA_VERSION, "14.0.0");
        assert!(tables::LOWER_SINGLE.windows(2).all(|w| w[0].0 < w[1].0));
        assert!(tables::CASED.windows(2).all(|w| w[0].1 < w[1].0));
        assert!(tables::CASE_IGNORABLE.windows(2).all(|w| w[0].1 < w[1].0));
    }
}
