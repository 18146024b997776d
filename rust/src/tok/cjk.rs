//! `zh` (sacreBLEU's Chinese ranges, its range defect included) and `cjk-char` (CJK units, then 13a):
//! both space out their characters first, then run the 13a rules.

use super::mteval::{tokenize_13a, words_13a, Sim};
use super::tables::{CJK_CONT, CJK_START, ZH};
use super::unicode::{decode, props, py_lstrip};
use super::Out;

/// `text` with " c " for every character of `zh`'s ranges (Python's `str.translate` with the spacing
/// table), written to `spaced`; `false` when there is none (then `spaced` is not written).
fn space_zh(text: &str, spaced: &mut String) -> bool {
    let b = text.as_bytes();
    let mut run = 0;
    let mut i = 0;
    let mut any = false;
    while i < b.len() {
        // every range starts at U+2001 or later: lead byte 0xE2 or above
        if b[i] < 0xe2 {
            i += 1;
            continue;
        }
        let (c, len) = decode(b, i);
        if props(c) & ZH != 0 {
            if !any {
                spaced.clear();
                any = true;
            }
            spaced.push_str(&text[run..i]);
            spaced.push(' ');
            spaced.push_str(&text[i..i + len]);
            spaced.push(' ');
            run = i + len;
        }
        i += len;
    }
    if any {
        spaced.push_str(&text[run..]);
    }
    any
}

/// Tokens of a (lowercased, right-stripped) line under sacreBLEU's `zh`: stripped, Chinese characters
/// spaced out, then the 13a rules without padding or line-level steps.
pub fn tokenize_zh(text: &str, spaced: &mut String, sim: &mut Sim, out: &mut Out) {
    let text = py_lstrip(text);
    let text: &str = if space_zh(text, spaced) { spaced } else { text };
    let _ = words_13a(text, false, false, sim, out);
}

/// `text` with " unit " for every CJK unit (a CJK character and the attached characters after it), as
/// the Python pattern's `sub` does, written to `spaced`; `false` when there is none.
fn space_cjk(text: &str, spaced: &mut String) -> bool {
    let b = text.as_bytes();
    let mut run = 0;
    let mut i = 0;
    let mut any = false;
    while i < b.len() {
        if b[i] < 0x80 {
            i += 1;
            continue;
        }
        let (c, len) = decode(b, i);
        if props(c) & CJK_START == 0 {
            i += len;
            continue;
        }
        if !any {
            spaced.clear();
            any = true;
        }
        spaced.push_str(&text[run..i]);
        let unit_start = i;
        i += len;
        while i < b.len() && b[i] >= 0x80 {
            let (c, len) = decode(b, i);
            if props(c) & CJK_CONT == 0 {
                break;
            }
            i += len;
        }
        spaced.push(' ');
        spaced.push_str(&text[unit_start..i]);
        spaced.push(' ');
        run = i;
    }
    if any {
        spaced.push_str(&text[run..]);
    }
    any
}

/// Tokens of a (lowercased, right-stripped) line under bleuscope's `cjk-char`.
pub fn tokenize_cjk_char(
    text: &str,
    spaced: &mut String,
    pre: &mut String,
    sim: &mut Sim,
    out: &mut Out,
) {
    let text: &str = if !text.is_ascii() && space_cjk(text, spaced) {
        spaced
    } else {
        text
    };
    tokenize_13a(text, pre, sim, out);
}
