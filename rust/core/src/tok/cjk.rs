//! `zh` (sacreBLEU's Chinese ranges, its range defect included) and `cjk-char` (CJK units, then 13a):
//! both space out their characters first, then run the 13a rules.

use super::mteval::{tokenize_13a, words_13a, Sim};
use super::out::Out;
use super::tables::{CJK_CONT, CJK_START, ZH};
use super::unicode::{decode, props, py_lstrip};
use super::unidata::active;

/// `text` with " unit " for every unit, written to `spaced`; `false` when there is none (then `spaced`
/// is not written). `unit_end(bytes, i, c, len)` gives the end of the unit starting with character `c`
/// at `i`, if one starts there; bytes below `lead_min` never start a unit.
fn space_units(
    text: &str,
    spaced: &mut String,
    lead_min: u8,
    unit_end: impl Fn(&[u8], usize, u32, usize) -> Option<usize>,
) -> bool {
    let b = text.as_bytes();
    let (mut run, mut i, mut any) = (0, 0, false);
    while i < b.len() {
        if b[i] < lead_min {
            i += 1;
            continue;
        }
        let (c, len) = decode(b, i);
        let Some(end) = unit_end(b, i, c, len) else {
            i += len;
            continue;
        };
        if !any {
            spaced.clear();
            any = true;
        }
        spaced.push_str(&text[run..i]);
        spaced.push(' ');
        spaced.push_str(&text[i..end]);
        spaced.push(' ');
        run = end;
        i = end;
    }
    if any {
        spaced.push_str(&text[run..]);
    }
    any
}

/// `text` with " c " for every character of `zh`'s ranges (Python's `str.translate` with the spacing
/// table); every range starts at U+2001 or later, so at a lead byte of 0xE2 or above.
fn space_zh(text: &str, spaced: &mut String) -> bool {
    space_units(text, spaced, 0xe2, |_, i, c, len| {
        (props(c) & ZH != 0).then_some(i + len)
    })
}

/// Tokens of a (lowercased, right-stripped) line under sacreBLEU's `zh`: stripped, Chinese characters
/// spaced out, then the 13a rules without padding or line-level steps.
pub(crate) fn tokenize_zh(text: &str, spaced: &mut String, sim: &mut Sim, out: &mut Out<'_>) {
    let text = py_lstrip(text);
    let text: &str = if space_zh(text, spaced) { spaced } else { text };
    let _ = words_13a(text, false, false, sim, out);
}

/// `text` with " unit " for every CJK unit (a CJK character and the attached characters after it), as
/// the Python pattern's `sub` does (no attached character is ASCII).
fn space_cjk(text: &str, spaced: &mut String) -> bool {
    let t = active();
    space_units(text, spaced, 0x80, |b, i, c, len| {
        if t.props(c) & CJK_START == 0 {
            return None;
        }
        let mut end = i + len;
        while end < b.len() && b[end] >= 0x80 {
            let (c, len) = decode(b, end);
            if t.props(c) & CJK_CONT == 0 {
                break;
            }
            end += len;
        }
        Some(end)
    })
}

/// Tokens of a (lowercased, right-stripped) line under bleuscope's `cjk-char`.
pub(crate) fn tokenize_cjk_char(
    text: &str,
    spaced: &mut String,
    pre: &mut String,
    sim: &mut Sim,
    out: &mut Out<'_>,
) {
    let text: &str = if !text.is_ascii() && space_cjk(text, spaced) {
        spaced
    } else {
        text
    };
    tokenize_13a(text, pre, sim, out);
}
