//! chrF / chrF++ statistics (sacreBLEU 2.6.0's definitions): for every hypothesis and each of its
//! references, three integers per order -- hypothesis n-grams, reference n-grams, clipped matches --
//! character orders first, then word orders. The caller picks the best reference per segment.
//!
//! Text arrives already lowercased (Python's `str.lower` is the definition). Characters are Unicode
//! code points; "whitespace" is Python's `str.isspace` set, as `str.split()` uses it. An n-gram is
//! packed exactly into a `u128` key: a character as (code point + 1) in 21 bits (orders up to 6),
//! a word as (segment-local id + 1) in 24 bits (orders up to 5) with the top bit set. Larger orders are
//! left to the Python implementation (`supported` says which).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::par::{for_each_unit, pick_threads};

/// Highest character order with an exact `u128` key (21 bits per character).
pub(crate) const MAX_CHAR_ORDER: usize = 6;
/// Highest word order with an exact `u128` key (24 bits per word, one tag bit).
pub(crate) const MAX_WORD_ORDER: usize = 5;
const WORD_BITS: u32 = 24;
const WORD_TAG: u128 = 1 << 127;

/// Python's `str.isspace()` (what `str.split()` splits on).
pub fn is_py_space(c: char) -> bool {
    matches!(c,
        '\t'..='\r' | '\x1c'..='\x20' | '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}'
        | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}')
}

/// ASCII punctuation that chrF++ splits off one end of a word.
fn is_punct(b: u8) -> bool {
    b.is_ascii_punctuation()
}

/// Whether `(char_order, word_order)` is counted here (else the Python implementation must be used).
pub fn supported(char_order: usize, word_order: usize) -> bool {
    char_order <= MAX_CHAR_ORDER && word_order <= MAX_WORD_ORDER && char_order + word_order > 0
}

/// FNV-1a for the per-segment word map (short keys, no DoS concern: the map lives for one segment).
#[derive(Default)]
struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

type WordMap<'a> = HashMap<&'a str, u32, BuildHasherDefault<Fnv>>;

/// A slot of [`Table`]: an n-gram's key (0: empty; no key is 0, as every packed unit is at least 1) in two
/// halves (8-byte alignment keeps a slot at 24 bytes) and its hypothesis and reference counts.
#[derive(Clone, Copy)]
struct Slot {
    key_lo: u64,
    key_hi: u64,
    hyp: u32,
    refc: u32,
}

const EMPTY: Slot = Slot {
    key_lo: 0,
    key_hi: 0,
    hyp: 0,
    refc: 0,
};

impl Slot {
    fn key(&self) -> u128 {
        (u128::from(self.key_hi) << 64) | u128::from(self.key_lo)
    }

    fn used(&self) -> bool {
        (self.key_lo | self.key_hi) != 0
    }
}

/// The order index of a key (0-based; word orders after the `char_order` character orders): the position
/// of its highest packed unit.
fn key_order(key: u128, char_order: usize) -> usize {
    if key & WORD_TAG != 0 {
        let bits = 128 - (key & !WORD_TAG).leading_zeros() as usize;
        char_order + (bits - 1) / WORD_BITS as usize
    } else {
        let bits = 128 - key.leading_zeros() as usize;
        (bits - 1) / 21
    }
}

/// Slots a table starts with at most: a longer hypothesis grows its table as its distinct n-grams
/// arrive (they are far fewer than its n-gram occurrences in long text), so memory follows them.
const MAX_START_SLOTS: usize = 1 << 16;

/// Open-addressing table of one hypothesis's n-grams, cleared slot by slot between segments; the load
/// factor stays at most 1/2 (the table doubles when it would pass it).
struct Table {
    slots: Vec<Slot>,
    mask: usize,
    shift: u32,
    filled: Vec<usize>,
    touched: Vec<usize>,
}

fn slot_hash(key: u128) -> u64 {
    // multiply-fold of both halves; the caller takes the high bits (the well-mixed ones)
    let lo = (key as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    let hi = ((key >> 64) as u64).wrapping_mul(0xc2b2_ae3d_27d4_eb4f);
    let x = lo ^ hi.rotate_left(31);
    (x ^ (x >> 29)).wrapping_mul(0x1656_67b1_9e37_79f9)
}

impl Table {
    fn new() -> Self {
        Table {
            slots: vec![EMPTY; 64],
            mask: 63,
            shift: 58,
            filled: Vec::new(),
            touched: Vec::new(),
        }
    }

    /// Empties the table and makes room for up to `n` keys (load factor <= 1/2), or for the first
    /// [`MAX_START_SLOTS`] / 2 of them.
    fn reset(&mut self, n: usize) {
        for &i in &self.filled {
            self.slots[i] = EMPTY;
        }
        self.filled.clear();
        self.touched.clear();
        let want = (2 * n).next_power_of_two().clamp(64, MAX_START_SLOTS);
        if want > self.slots.len() {
            self.resize(want);
        }
    }

    /// `size` empty slots (a power of two).
    fn resize(&mut self, size: usize) {
        self.slots = vec![EMPTY; size];
        self.mask = size - 1;
        self.shift = 64 - size.trailing_zeros();
    }

    /// Doubles the slots, moving the keys (hypothesis counts only: references come after the growth).
    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.resize(old.len() * 2);
        for i in self.filled.iter_mut() {
            let slot = old[*i];
            let (j, _) = Self::find_in(&self.slots, self.mask, self.shift, slot.key());
            self.slots[j] = slot;
            *i = j;
        }
    }

    fn find_in(slots: &[Slot], mask: usize, shift: u32, key: u128) -> (usize, bool) {
        let mut i = (slot_hash(key) >> shift) as usize;
        loop {
            let s = &slots[i];
            if !s.used() {
                return (i, false);
            }
            if s.key() == key {
                return (i, true);
            }
            i = (i + 1) & mask;
        }
    }

    fn find(&self, key: u128) -> (usize, bool) {
        Self::find_in(&self.slots, self.mask, self.shift, key)
    }

    fn add_hyp(&mut self, key: u128) {
        if 2 * (self.filled.len() + 1) > self.slots.len() {
            self.grow();
        }
        let (i, found) = self.find(key);
        if found {
            self.slots[i].hyp += 1;
        } else {
            self.slots[i] = Slot {
                key_lo: key as u64,
                key_hi: (key >> 64) as u64,
                hyp: 1,
                refc: 0,
            };
            self.filled.push(i);
        }
    }

    /// Counts a reference n-gram if the hypothesis has it; returns whether it has.
    fn add_ref(&mut self, key: u128) -> bool {
        let (i, found) = self.find(key);
        if found {
            let s = &mut self.slots[i];
            if s.refc == 0 {
                self.touched.push(i);
            }
            s.refc += 1;
        }
        found
    }

    /// Adds each touched n-gram's clipped count to `matches[order]` and clears the reference counts.
    fn take_matches(&mut self, matches: &mut [i64], char_order: usize) {
        for &i in &self.touched {
            let s = &mut self.slots[i];
            matches[key_order(s.key(), char_order)] += i64::from(s.hyp.min(s.refc));
            s.refc = 0;
        }
        self.touched.clear();
    }
}

/// chrF++ words: whitespace-split, then one trailing (else one leading) ASCII punctuation mark split off.
fn chrf_words(text: &str, out: &mut Vec<(usize, usize)>) {
    out.clear();
    let bytes = text.as_bytes();
    let mut start = None;
    let push_word = |s: usize, e: usize, out: &mut Vec<(usize, usize)>| {
        // an ASCII mark is one byte; a one-character word of several bytes never ends in one
        if e - s > 1 && is_punct(bytes[e - 1]) {
            out.push((s, e - 1));
            out.push((e - 1, e));
        } else if e - s > 1 && is_punct(bytes[s]) {
            out.push((s, s + 1));
            out.push((s + 1, e));
        } else {
            out.push((s, e));
        }
    };
    for (i, c) in text.char_indices() {
        if is_py_space(c) {
            if let Some(s) = start.take() {
                push_word(s, i, out);
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        push_word(s, text.len(), out);
    }
}

/// One text's units: characters (code points) and word ids.
#[derive(Default)]
struct Units {
    chars: Vec<u32>,
    words: Vec<u32>,
    spans: Vec<(usize, usize)>,
}

/// Counts candidate rows segment by segment, reusing its buffers.
pub(crate) struct ChrfCounter {
    char_order: usize,
    word_order: usize,
    whitespace: bool,
    table: Table,
    hyp: Units,
    refu: Units,
}

impl ChrfCounter {
    pub(crate) fn new(char_order: usize, word_order: usize, whitespace: bool) -> Self {
        assert!(supported(char_order, word_order), "unsupported chrF orders");
        ChrfCounter {
            char_order,
            word_order,
            whitespace,
            table: Table::new(),
            hyp: Units::default(),
            refu: Units::default(),
        }
    }

    /// Row width: 3 integers per order.
    pub(crate) fn width(&self) -> usize {
        3 * (self.char_order + self.word_order)
    }

    fn units<'a>(
        text: &'a str,
        whitespace: bool,
        words: bool,
        map: &mut WordMap<'a>,
        u: &mut Units,
    ) {
        u.chars.clear();
        u.chars.extend(
            text.chars()
                .filter(|&c| whitespace || !is_py_space(c))
                .map(u32::from),
        );
        u.words.clear();
        if words {
            chrf_words(text, &mut u.spans);
            for &(s, e) in &u.spans {
                let next = map.len() as u32;
                u.words.push(*map.entry(&text[s..e]).or_insert(next));
            }
        }
    }

    /// Calls `f(key, order)` for the n-grams of `u` (orders 1..=char_order, then the word orders), by start
    /// position and growing order; when `f` returns false the longer n-grams at that start are skipped (an
    /// n-gram whose prefix is not in the hypothesis cannot be in it either).
    fn for_each_ngram(
        u: &Units,
        char_order: usize,
        word_order: usize,
        mut f: impl FnMut(u128, usize) -> bool,
    ) {
        let c = &u.chars;
        for i in 0..c.len() {
            let mut key: u128 = 0;
            for n in 0..char_order.min(c.len() - i) {
                key |= u128::from(c[i + n] + 1) << (21 * n);
                if !f(key, n) {
                    break;
                }
            }
        }
        let w = &u.words;
        for i in 0..w.len() {
            let mut key: u128 = WORD_TAG;
            for n in 0..word_order.min(w.len() - i) {
                key |= u128::from(w[i + n] + 1) << (WORD_BITS as usize * n);
                if !f(key, char_order + n) {
                    break;
                }
            }
        }
    }

    /// Candidate rows of `hyp` against each reference (`None`: absent, row left untouched) into `out`
    /// (`refs.len()` rows of `width()`). Returns false when a segment has too many distinct words.
    pub(crate) fn count(&mut self, hyp: &str, refs: &[Option<&str>], out: &mut [i64]) -> bool {
        let (co, wo, ws) = (self.char_order, self.word_order, self.whitespace);
        let width = self.width();
        let mut map: WordMap<'_> = WordMap::default();
        Self::units(hyp, ws, wo > 0, &mut map, &mut self.hyp);
        let n_hyp_keys = self.hyp.chars.len() * co + self.hyp.words.len() * wo;
        self.table.reset(n_hyp_keys);
        {
            let table = &mut self.table;
            Self::for_each_ngram(&self.hyp, co, wo, |key, _| {
                table.add_hyp(key);
                true
            });
        }
        for (k, r) in refs.iter().enumerate() {
            let Some(r) = *r else { continue };
            Self::units(r, ws, wo > 0, &mut map, &mut self.refu);
            if map.len() >= (1 << WORD_BITS) - 1 {
                return false;
            }
            {
                let table = &mut self.table;
                Self::for_each_ngram(&self.refu, co, wo, |key, _| table.add_ref(key));
            }
            let row = &mut out[k * width..(k + 1) * width];
            row.fill(0);
            let mut matches = [0i64; MAX_CHAR_ORDER + MAX_WORD_ORDER];
            self.table.take_matches(&mut matches, co);
            for order in 0..co + wo {
                let (hl, rl, n) = if order < co {
                    (self.hyp.chars.len(), self.refu.chars.len(), order + 1)
                } else {
                    (self.hyp.words.len(), self.refu.words.len(), order - co + 1)
                };
                let hyp_count = (hl + 1).saturating_sub(n) as i64;
                let ref_count = (rl + 1).saturating_sub(n) as i64;
                row[3 * order] = if ref_count > 0 { hyp_count } else { 0 };
                row[3 * order + 1] = ref_count;
                row[3 * order + 2] = matches[order];
            }
        }
        map.len() < (1 << WORD_BITS) - 1
    }
}

/// Segments per unit of work handed to a thread by [`candidate_rows`].
const CHRF_UNIT: usize = 64;

/// Candidate rows for many segments, split over `threads` threads (0: one per 1,000 segments; rows do
/// not depend on the split). `refs[k][i]` is reference k of segment i. Returns the segments that could
/// not be counted, sorted.
pub fn candidate_rows(
    hyps: &[&str],
    refs: &[Vec<Option<&str>>],
    char_order: usize,
    word_order: usize,
    whitespace: bool,
    threads: usize,
    out: &mut [i64],
) -> Vec<usize> {
    let n_ref = refs.len();
    let width = 3 * (char_order + word_order);
    let seg_width = n_ref * width;
    assert_eq!(out.len(), hyps.len() * seg_width, "output size");
    if seg_width == 0 || hyps.is_empty() {
        return Vec::new();
    }
    let threads = pick_threads(threads, hyps.len(), 1000, hyps.len().div_ceil(CHRF_UNIT));
    let new_state = || {
        let counter = ChrfCounter::new(char_order, word_order, whitespace);
        (counter, vec![None; n_ref], Vec::new())
    };
    type State<'a> = (ChrfCounter, Vec<Option<&'a str>>, Vec<usize>);
    let states = for_each_unit(
        out,
        CHRF_UNIT * seg_width,
        threads,
        new_state,
        |(counter, seg_refs, failed): &mut State<'_>, unit, rows| {
            for (j, row) in rows.chunks_mut(seg_width).enumerate() {
                let i = unit * CHRF_UNIT + j;
                for k in 0..n_ref {
                    seg_refs[k] = refs[k][i];
                }
                if !counter.count(hyps[i], seg_refs, row) {
                    failed.push(i);
                }
            }
        },
    );
    let mut failed: Vec<usize> = states.into_iter().flat_map(|s| s.2).collect();
    failed.sort_unstable();
    failed
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(hyp: &str, refs: &[Option<&str>], co: usize, wo: usize, ws: bool) -> Vec<i64> {
        let mut c = ChrfCounter::new(co, wo, ws);
        let mut out = vec![0; refs.len() * c.width()];
        assert!(c.count(hyp, refs, &mut out));
        out
    }

    #[test]
    fn counts_char_orders() {
        // "abab" vs "ab": 1-grams h4 r2 m2; 2-grams h3 r1 m1; 3-grams: no reference n-grams -> hyp 0
        let r = rows("ab ab", &[Some("ab")], 3, 0, false);
        assert_eq!(r, vec![4, 2, 2, 3, 1, 1, 0, 0, 0]);
    }

    #[test]
    fn words_split_punctuation_one_side() {
        let mut spans = Vec::new();
        chrf_words("(hi) x. .y ! é,", &mut spans);
        let text = "(hi) x. .y ! é,";
        let words: Vec<&str> = spans.iter().map(|&(s, e)| &text[s..e]).collect();
        assert_eq!(words, vec!["(hi", ")", "x", ".", ".", "y", "!", "é", ","]);
    }

    #[test]
    fn python_whitespace_set() {
        assert!(is_py_space('\x1c') && is_py_space('\u{3000}') && is_py_space('\u{85}'));
        assert!(!is_py_space('\u{200b}') && !is_py_space('a'));
    }

    #[test]
    fn threads_do_not_change_rows() {
        let hyps: Vec<String> = (0..700)
            .map(|i| format!("w{} x{} the cat", i % 13, i % 7))
            .collect();
        let refs: Vec<String> = (0..700)
            .map(|i| format!("w{} the dog x{}", i % 11, i % 5))
            .collect();
        let h: Vec<&str> = hyps.iter().map(String::as_str).collect();
        let r = vec![refs.iter().map(|s| Some(s.as_str())).collect::<Vec<_>>()];
        let mut one = vec![0; 700 * 24];
        let mut two = vec![0; 700 * 24];
        assert!(candidate_rows(&h, &r, 6, 2, false, 1, &mut one).is_empty());
        assert!(candidate_rows(&h, &r, 6, 2, false, 3, &mut two).is_empty());
        assert_eq!(one, two);
    }

    /// Character and word n-gram rows counted with plain hash maps of the units, the definition.
    fn naive_rows(hyp: &str, r: &str, co: usize, wo: usize) -> Vec<i64> {
        fn grams<T: Clone + std::hash::Hash + Eq>(units: &[T], n: usize) -> HashMap<Vec<T>, i64> {
            let mut m = HashMap::new();
            for w in units.windows(n) {
                *m.entry(w.to_vec()).or_insert(0) += 1;
            }
            m
        }
        let chars = |t: &str| t.chars().filter(|&c| !is_py_space(c)).collect::<Vec<_>>();
        let words = |t: &str| {
            let mut spans = Vec::new();
            chrf_words(t, &mut spans);
            spans
                .iter()
                .map(|&(s, e)| t[s..e].to_owned())
                .collect::<Vec<_>>()
        };
        let mut row = Vec::new();
        let mut push = |h: HashMap<Vec<String>, i64>, g: HashMap<Vec<String>, i64>| {
            let hc: i64 = h.values().sum();
            let rc: i64 = g.values().sum();
            let m: i64 = h
                .iter()
                .map(|(k, v)| (*v).min(*g.get(k).unwrap_or(&0)))
                .sum();
            row.extend([if rc > 0 { hc } else { 0 }, rc, m]);
        };
        let as_strings = |m: HashMap<Vec<char>, i64>| {
            m.into_iter()
                .map(|(k, v)| (k.iter().map(char::to_string).collect(), v))
                .collect()
        };
        let (hc, rc) = (chars(hyp), chars(r));
        for n in 1..=co {
            push(as_strings(grams(&hc, n)), as_strings(grams(&rc, n)));
        }
        let (hw, rw) = (words(hyp), words(r));
        for n in 1..=wo {
            push(grams(&hw, n), grams(&rw, n));
        }
        row
    }

    #[test]
    fn a_long_hypothesis_grows_its_table_and_counts_as_the_definition() {
        // about 200k characters of n-grams, many distinct: the table grows past its start size many times
        let mut state = 12345u64;
        let mut text = |n: usize| {
            (0..n)
                .map(|_| {
                    state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    let w = (state >> 33) % 5000;
                    format!("w{w}{} ", if w.is_multiple_of(7) { "." } else { "" })
                })
                .collect::<String>()
        };
        let (hyp, reference) = (text(30_000), text(20_000));
        for (co, wo) in [(6, 2), (3, 0), (1, 5)] {
            let got = rows(&hyp, &[Some(&reference)], co, wo, false);
            assert_eq!(
                got,
                naive_rows(&hyp, &reference, co, wo),
                "orders {co} {wo}"
            );
        }
    }

    #[test]
    fn key_orders_are_read_back_from_the_keys() {
        let mut seen = [false; 11];
        let u = Units {
            chars: vec![0, 0x10FFFF, 5, 7, 1, 2, 3],
            words: vec![0, (1 << WORD_BITS) - 3, 4, 5, 6, 7],
            spans: Vec::new(),
        };
        ChrfCounter::for_each_ngram(&u, 6, 5, |key, order| {
            assert_eq!(key_order(key, 6), order);
            seen[order] = true;
            true
        });
        assert!(seen.iter().all(|&s| s));
    }
}
