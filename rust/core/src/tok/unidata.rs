//! The Unicode tables the tokenizers read, as one object: the built-in ones (`tables.rs`, generated from
//! one Python and `regex` release) or tables derived at run time from the Python and `regex` actually
//! installed (`bleuscope.core.unicode_tables`), handed over once per process with [`install`].
//!
//! Only the facts that change between Unicode and `regex` releases come from the object in use:
//! `str.lower` (with the final-sigma properties), the `intl` classes and the `cjk-char` classes. Python's
//! whitespace and `zh`'s ranges are fixed; the scanners read them from the built-in tables, and tables
//! that disagree are refused, so a tokenizer that needs nothing else (`none`, `char`, cased `13a` and
//! `zh`) never depends on the tables in use.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::tables as builtin;
use super::tables::{BLOCK_MASK, BLOCK_SHIFT, CJK_CONT, CJK_START, LOWER, WS, ZH};

/// Number of code points.
pub(crate) const MAX_CP: usize = 0x11_0000;
const BLOCK: usize = 1 << BLOCK_SHIFT;

/// Every per-character fact of the tokenizers, for one Unicode database and `regex` release.
#[derive(Debug, PartialEq, Eq)]
pub struct UnicodeTables {
    ascii: [u8; 128],
    stage1: Box<[u16]>,
    stage2: Box<[u8]>,
    lower_single: Box<[(u32, u32)]>,
    lower_multi: Box<[(u32, Box<str>)]>,
    case_ignorable: Box<[(u32, u32)]>,
    cased: Box<[(u32, u32)]>,
    /// `unicodedata.unidata_version` of the Python the tables come from.
    pub unidata_version: String,
    /// `regex.__version__` the tables come from.
    pub regex_version: String,
}

impl UnicodeTables {
    /// The tables compiled in (`tables.rs`).
    pub(crate) fn builtin() -> &'static UnicodeTables {
        static BUILTIN: OnceLock<UnicodeTables> = OnceLock::new();
        BUILTIN.get_or_init(|| UnicodeTables {
            ascii: builtin::ASCII_PROPS,
            stage1: builtin::STAGE1.into(),
            stage2: builtin::STAGE2.into(),
            lower_single: builtin::LOWER_SINGLE.into(),
            lower_multi: builtin::LOWER_MULTI
                .iter()
                .map(|&(c, s)| (c, s.into()))
                .collect(),
            case_ignorable: builtin::CASE_IGNORABLE.into(),
            cased: builtin::CASED.into(),
            unidata_version: builtin::UNIDATA_VERSION.into(),
            regex_version: builtin::REGEX_VERSION.into(),
        })
    }

    /// Tables from their parts: `props[c]` the property bits of every code point (`tables.rs` explains
    /// them), `lower_single` the `(c, c.lower())` pairs where the lowercase is one other character,
    /// `lower_multi` those where it is several, and the inclusive ranges of case-ignorable and of cased
    /// (not case-ignorable) characters. Everything the scanners rely on is checked: an error says what
    /// does not hold.
    pub fn new(
        props: &[u8],
        lower_single: Vec<(u32, u32)>,
        lower_multi: Vec<(u32, String)>,
        case_ignorable: Vec<(u32, u32)>,
        cased: Vec<(u32, u32)>,
        unidata_version: String,
        regex_version: String,
    ) -> Result<UnicodeTables, String> {
        if props.len() != MAX_CP {
            return Err(format!(
                "props has {} entries, not one per code point ({MAX_CP})",
                props.len()
            ));
        }
        let fixed = WS | ZH;
        if let Some(c) =
            (0..MAX_CP as u32).find(|&c| props[c as usize] & fixed != props_of(c) & fixed)
        {
            return Err(format!(
                "U+{c:04X}: whitespace or zh range differs from the compiled core's (they are fixed)"
            ));
        }
        if let Some(c) = (0..0x80).find(|&c| props[c] & (CJK_START | CJK_CONT) != 0) {
            return Err(format!("U+{c:04X}: an ASCII character in a cjk-char class"));
        }
        // ASCII letters are lowercased in place, without the tables: the tables must agree
        let ascii_upper = |c: u32| (0x41..=0x5a).contains(&c);
        if let Some(c) = (0..0x80u32).find(|&c| (props[c as usize] & LOWER != 0) != ascii_upper(c))
        {
            return Err(format!(
                "U+{c:04X}: ASCII lowercasing differs from A-Z -> a-z"
            ));
        }
        if !lower_single.windows(2).all(|w| w[0].0 < w[1].0)
            || !lower_multi.windows(2).all(|w| w[0].0 < w[1].0)
        {
            return Err("lowercase mappings are not sorted by code point".into());
        }
        for &(c, low) in &lower_single {
            if char::from_u32(c).is_none() || char::from_u32(low).is_none() || c == low {
                return Err(format!(
                    "lowercase mapping U+{c:04X} -> U+{low:04X} is not one"
                ));
            }
            if c < 0x80 && low != c + 0x20 {
                return Err(format!(
                    "U+{c:04X}: ASCII lowercasing differs from A-Z -> a-z"
                ));
            }
        }
        if let Some((c, _)) = lower_multi
            .iter()
            .find(|(c, s)| char::from_u32(*c).is_none() || *c < 0x80 || s.chars().count() < 2)
        {
            return Err(format!(
                "U+{c:04X}: a multi-character lowercase mapping that is not one"
            ));
        }
        // exactly the characters with a mapping have the LOWER bit
        let mut mapped = vec![false; MAX_CP];
        for c in lower_single
            .iter()
            .map(|p| p.0)
            .chain(lower_multi.iter().map(|p| p.0))
        {
            if std::mem::replace(&mut mapped[c as usize], true) {
                return Err(format!("U+{c:04X} has two lowercase mappings"));
            }
        }
        if let Some(c) = (0..MAX_CP).find(|&c| (props[c] & LOWER != 0) != mapped[c]) {
            return Err(format!(
                "U+{c:04X}: the LOWER bit and the lowercase mappings disagree"
            ));
        }
        for (name, ranges) in [("case-ignorable", &case_ignorable), ("cased", &cased)] {
            let ordered = ranges.iter().all(|&(a, b)| a <= b && (b as usize) < MAX_CP)
                && ranges.windows(2).all(|w| w[0].1 < w[1].0);
            if !ordered {
                return Err(format!(
                    "{name} ranges are not sorted, disjoint code point ranges"
                ));
            }
        }
        let (stage1, stage2) = two_stage(props);
        let mut ascii = [0u8; 128];
        ascii.copy_from_slice(&props[..128]);
        Ok(UnicodeTables {
            ascii,
            stage1,
            stage2,
            lower_single: lower_single.into(),
            lower_multi: lower_multi
                .into_iter()
                .map(|(c, s)| (c, s.into_boxed_str()))
                .collect(),
            case_ignorable: case_ignorable.into(),
            cased: cased.into(),
            unidata_version,
            regex_version,
        })
    }

    /// Property bits of code point `c` (< 0x110000).
    #[inline(always)]
    pub(crate) fn props(&self, c: u32) -> u8 {
        let block = self.stage1[(c >> BLOCK_SHIFT) as usize] as usize;
        self.stage2[(block << BLOCK_SHIFT) | (c & BLOCK_MASK) as usize]
    }

    /// Property bits of an ASCII byte.
    #[inline(always)]
    pub(crate) fn ascii_props(&self, b: u8) -> u8 {
        self.ascii[b as usize & 0x7f]
    }

    /// Python's `c.lower()` for a character with the LOWER bit: one character, or several.
    pub(crate) fn lower(&self, c: u32) -> Option<Lowered<'_>> {
        if let Ok(i) = self.lower_single.binary_search_by_key(&c, |&(k, _)| k) {
            return char::from_u32(self.lower_single[i].1).map(Lowered::One);
        }
        let i = self
            .lower_multi
            .binary_search_by_key(&c, |(k, _)| *k)
            .ok()?;
        Some(Lowered::Several(&self.lower_multi[i].1))
    }

    /// Case-ignorable, as Python's final-sigma rule sees it.
    pub(crate) fn is_case_ignorable(&self, c: u32) -> bool {
        in_ranges(&self.case_ignorable, c)
    }

    /// Cased and not case-ignorable.
    pub(crate) fn is_cased(&self, c: u32) -> bool {
        in_ranges(&self.cased, c)
    }

    /// The property bits of every code point (what [`UnicodeTables::new`] takes).
    #[cfg(test)]
    pub(crate) fn flat_props(&self) -> Vec<u8> {
        (0..MAX_CP as u32).map(|c| self.props(c)).collect()
    }
}

/// A lowercase form.
pub(crate) enum Lowered<'a> {
    One(char),
    Several(&'a str),
}

fn in_ranges(table: &[(u32, u32)], c: u32) -> bool {
    let i = table.partition_point(|&(_, last)| last < c);
    i < table.len() && table[i].0 <= c
}

/// The built-in property bits of `c` (the fixed facts: whitespace, zh ranges).
#[inline(always)]
fn props_of(c: u32) -> u8 {
    let block = builtin::STAGE1[(c >> BLOCK_SHIFT) as usize] as usize;
    builtin::STAGE2[(block << BLOCK_SHIFT) | (c & BLOCK_MASK) as usize]
}

fn two_stage(props: &[u8]) -> (Box<[u16]>, Box<[u8]>) {
    let mut seen: HashMap<&[u8], u16> = HashMap::new();
    let mut stage1 = Vec::with_capacity(MAX_CP / BLOCK);
    let mut stage2 = Vec::new();
    for block in props.chunks(BLOCK) {
        let next = seen.len() as u16; // at most 8704 blocks
        let idx = *seen.entry(block).or_insert_with(|| {
            stage2.extend_from_slice(block);
            next
        });
        stage1.push(idx);
    }
    (stage1.into(), stage2.into())
}

static INSTALLED: OnceLock<UnicodeTables> = OnceLock::new();

/// Makes `tables` the ones every tokenizer of this process reads from now on. Once per process: a
/// process has one Python and one `regex`; installing equal tables again is accepted, other ones not.
pub fn install(tables: UnicodeTables) -> Result<(), String> {
    let mut offered = Some(tables);
    let current = INSTALLED.get_or_init(|| offered.take().expect("taken once"));
    match offered {
        Some(other) if *current != other => Err(format!(
            "tables of Unicode {} / regex {} are already in use; a process uses one set",
            current.unidata_version, current.regex_version
        )),
        _ => Ok(()),
    }
}

/// The tables in use: the installed ones, else the built-in ones.
#[inline(always)]
pub fn active() -> &'static UnicodeTables {
    match INSTALLED.get() {
        Some(t) => t,
        None => UnicodeTables::builtin(),
    }
}

/// Whether run-time tables were installed (else the built-in ones are in use).
pub fn installed() -> bool {
    INSTALLED.get().is_some()
}

/// The code points Python treats as whitespace (fixed; the scanners rely on them). Only the blocks of the
/// two-stage table that hold any are scanned (the module computes this when it loads: a scan of every
/// code point took milliseconds of every process's first call).
pub fn whitespace() -> Vec<u32> {
    let has_ws: Vec<bool> = builtin::STAGE2
        .chunks(BLOCK)
        .map(|block| block.iter().any(|&p| p & WS != 0))
        .collect();
    let mut out = Vec::new();
    for (i, &block) in builtin::STAGE1.iter().enumerate() {
        if has_ws[block as usize] {
            let first = (i * BLOCK) as u32;
            out.extend((first..first + BLOCK as u32).filter(|&c| props_of(c) & WS != 0));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The arguments of [`UnicodeTables::new`] (without the versions).
    type Parts = (
        Vec<u8>,
        Vec<(u32, u32)>,
        Vec<(u32, String)>,
        Vec<(u32, u32)>,
        Vec<(u32, u32)>,
    );

    fn parts(t: &UnicodeTables) -> Parts {
        (
            t.flat_props(),
            t.lower_single.to_vec(),
            t.lower_multi
                .iter()
                .map(|(c, s)| (*c, s.to_string()))
                .collect(),
            t.case_ignorable.to_vec(),
            t.cased.to_vec(),
        )
    }

    fn build(p: Parts) -> Result<UnicodeTables, String> {
        UnicodeTables::new(&p.0, p.1, p.2, p.3, p.4, "14.0.0".into(), "2026.5.9".into())
    }

    #[test]
    fn built_from_parts_equals_builtin() {
        let b = UnicodeTables::builtin();
        let t = build(parts(b)).unwrap();
        assert_eq!(&t, b);
        assert_eq!(whitespace().len(), 29);
        let every: Vec<u32> = (0..MAX_CP as u32)
            .filter(|&c| props_of(c) & WS != 0)
            .collect();
        assert_eq!(whitespace(), every);
    }

    #[test]
    fn tables_the_scanners_cannot_use_are_refused() {
        let b = UnicodeTables::builtin();
        let mut p = parts(b);
        p.0[0x200b] |= WS; // zero-width space made whitespace
        assert!(build(p).unwrap_err().contains("U+200B"));
        let mut p = parts(b);
        p.0[0xc9] &= !LOWER; // 'É' without its LOWER bit, but with a mapping
        assert!(build(p).unwrap_err().contains("U+00C9"));
        let mut p = parts(b);
        p.1.retain(|&(c, _)| c != 0x41); // 'A' without a mapping
        assert!(build(p).unwrap_err().contains("U+0041"));
        let mut p = parts(b);
        p.0[0x21] |= CJK_CONT;
        assert!(build(p).unwrap_err().contains("cjk-char"));
        let mut p = parts(b);
        p.3.reverse();
        assert!(build(p).unwrap_err().contains("case-ignorable"));
        let mut p = parts(b);
        p.0.pop();
        assert!(build(p).is_err());
    }
}
