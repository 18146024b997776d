//! chrF / chrF++ statistics (sacreBLEU 2.6.0's definitions): for every hypothesis and each of its
//! references, three integers per order -- hypothesis n-grams, reference n-grams, clipped matches --
//! character orders first, then word orders. The caller picks the best reference per segment.
//!
//! Text arrives already lowercased (Python's `str.lower` is the definition). Characters are Unicode
//! code points; "whitespace" is Python's `str.isspace` set, as `str.split()` uses it.
//!
//! The n-gram counts of a text are its length minus the order plus one; only the clipped matches need
//! the n-grams themselves. They are found one order per round, without hashing n-grams: the units
//! (characters, or words) get small ids, the hypothesis's first, and round n counts the (n + 1)-grams
//! starting at the positions whose n-gram both texts have, each keyed by that n-gram's id (numbered in
//! the round before, among the shared ones only) and its next unit. The key spaces stay small (shared
//! n-grams times units), so a round's counts are an array indexed by key; an n-gram one text lacks
//! drops its positions from the later rounds, where few are left. Orders 1 and 2 of a text with few
//! units (characters, the words of a sentence) are counted in one sweep keyed by units and unit pairs,
//! as nearly every position survives them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::par::{for_each_unit, pick_threads};

/// Python's `str.isspace()` (what `str.split()` splits on).
pub const fn is_py_space(c: char) -> bool {
    matches!(c,
        '\t'..='\r' | '\x1c'..='\x20' | '\u{85}' | '\u{a0}' | '\u{1680}' | '\u{2000}'..='\u{200a}'
        | '\u{2028}' | '\u{2029}' | '\u{202f}' | '\u{205f}' | '\u{3000}')
}

/// ASCII punctuation that chrF++ splits off one end of a word.
fn is_punct(b: u8) -> bool {
    b.is_ascii_punctuation()
}

/// Whether `(char_order, word_order)` is counted here: any orders with something to count.
pub fn supported(char_order: usize, word_order: usize) -> bool {
    char_order + word_order > 0
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

/// One n-gram of the round at hand: its positions in the hypothesis and in the reference (the latter
/// counted only while the hypothesis has more), and its id in the next round (0: none yet; else id + 1).
#[derive(Clone, Copy, Default)]
struct Entry {
    h: u32,
    r: u32,
    next: u32,
}

/// Key spaces up to this many entries (or the input's size) are arrays; larger ones a hash table.
const DENSE_ENTRIES: usize = 1 << 18;

/// Open-addressing table of [`Entry`] by key (stored + 1: 0 is an empty slot), for the rounds whose key
/// space is too large for an array; load factor at most 1/2, emptied slot by slot.
#[derive(Default)]
struct HashEntries {
    keys: Vec<u64>,
    entries: Vec<Entry>,
    filled: Vec<u32>,
    shift: u32,
}

impl HashEntries {
    /// Emptied, with room for `n` keys.
    fn reset(&mut self, n: usize) {
        for &i in &self.filled {
            self.keys[i as usize] = 0;
            self.entries[i as usize] = Entry::default();
        }
        self.filled.clear();
        let want = (2 * n).next_power_of_two().max(64);
        if want > self.keys.len() {
            self.keys = vec![0; want];
            self.entries = vec![Entry::default(); want];
            self.shift = 64 - want.trailing_zeros();
        }
    }

    fn slot(&self, key: u64) -> (usize, bool) {
        let mask = self.keys.len() - 1;
        let stored = key + 1;
        let mut i = (stored.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> self.shift) as usize;
        loop {
            match self.keys[i] {
                0 => return (i, false),
                k if k == stored => return (i, true),
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// The entry of `key`, added when it is new (room was made by [`HashEntries::reset`]).
    fn insert(&mut self, key: u64) -> &mut Entry {
        let (i, found) = self.slot(key);
        if !found {
            self.keys[i] = key + 1;
            self.filled.push(i as u32);
        }
        &mut self.entries[i]
    }

    fn get(&mut self, key: u64) -> Option<&mut Entry> {
        match self.slot(key) {
            (i, true) => Some(&mut self.entries[i]),
            _ => None,
        }
    }
}

/// The clipped matches of two unit sequences at every order, one order per round (see the module's
/// text). A position of round n (order n + 1) is kept with the id of the n-gram starting there, among
/// the n-grams both texts have; the key of its (n + 1)-gram is that id times the units plus its next
/// unit. Orders 1 and 2 of few units are keyed by the units themselves (see [`first_two_rounds`]). Its
/// buffers are reused from pair to pair and only ever grow, so no round zeroes a buffer.
#[derive(Default)]
struct Matcher {
    /// every round after the first on the hash table (the tests' switch for its path)
    hashed_only: bool,
    /// orders 1 and 2 always through [`first_round`] and the rounds (the tests' switch for that path)
    no_pairs: bool,
    dense: Vec<Entry>,
    /// the entries of order 1 and of order 2 by unit pair, for [`first_two_rounds`]
    singles: Vec<Entry>,
    pairs: Vec<Entry>,
    table: HashEntries,
    /// this round's (position, n-gram id) of each side (the first items, as many as the round before
    /// found), and the next round's
    hyp: Vec<(u32, u32)>,
    refs: Vec<(u32, u32)>,
    hyp_next: Vec<(u32, u32)>,
    refs_next: Vec<(u32, u32)>,
    /// the key of each hypothesis position of the round at hand (in the array, in the hash table)
    dense_keys: Vec<u32>,
    keys: Vec<usize>,
}

/// The first `n` items of `v`, grown to hold them (never shrunk: a buffer is zeroed only when it grows,
/// where `resize` after `truncate` would zero the items past the kept ones on every round).
fn room<T: Copy + Default>(v: &mut Vec<T>, n: usize) -> &mut [T] {
    if v.len() < n {
        v.resize(n, T::default());
    }
    &mut v[..n]
}

impl Entry {
    /// A reference position at this n-gram, without branches: its clipped match (while the hypothesis has
    /// more), and the n-gram's id in the next round (`ids`: those given so far) if both texts have it;
    /// returns whether they have.
    #[inline(always)]
    fn reference(&mut self, matches: &mut i64, ids: &mut u32) -> bool {
        let has = self.h > 0;
        *matches += i64::from(self.r < self.h);
        self.r += u32::from(has);
        let fresh = has & (self.next == 0);
        *ids += u32::from(fresh);
        self.next = if fresh { *ids } else { self.next };
        has
    }
}

/// One round's input: the two texts' units (ids below `units`), the offset of the unit it reads (the
/// order minus one), the positions of this round with their n-gram ids, and whether a round follows.
#[derive(Clone, Copy)]
struct Round<'a> {
    h: &'a [u32],
    r: &'a [u32],
    units: usize,
    off: usize,
    hyp: &'a [(u32, u32)],
    refs: &'a [(u32, u32)],
    more: bool,
}

/// Where a round puts the next round's positions (those whose longer n-gram both texts have, with its
/// id): the first items of each buffer; the round returns how many.
struct NextRound<'a> {
    hyp: &'a mut Vec<(u32, u32)>,
    refs: &'a mut Vec<(u32, u32)>,
}

/// What a round found: its clipped matches, the ids it gave (the next round's n-grams), and the number
/// of the next round's positions of each side.
struct Found {
    matches: i64,
    ids: usize,
    n_hyp: usize,
    n_refs: usize,
}

/// One round on the hash table (emptied by the caller).
fn round(
    store: &mut HashEntries,
    x: Round<'_>,
    next: NextRound<'_>,
    keys: &mut Vec<usize>,
) -> Found {
    keys.clear();
    for &(i, id) in x.hyp {
        let key = id as usize * x.units + x.h[i as usize + x.off] as usize;
        store.insert(key as u64).h += 1;
        keys.push(key);
    }
    let (mut matches, mut ids) = (0i64, 0u32);
    next.hyp.clear();
    next.refs.clear();
    for &(j, id) in x.refs {
        let key = id as usize * x.units + x.r[j as usize + x.off] as usize;
        let Some(e) = store.get(key as u64) else {
            continue;
        };
        e.reference(&mut matches, &mut ids);
        if x.more && (j as usize) + x.off + 1 < x.r.len() {
            next.refs.push((j, e.next - 1));
        }
    }
    if x.more {
        for (&(i, _), &key) in x.hyp.iter().zip(keys.iter()) {
            let e = store.insert(key as u64);
            if e.next > 0 && (i as usize) + x.off + 1 < x.h.len() {
                next.hyp.push((i, e.next - 1));
            }
        }
    }
    Found {
        matches,
        ids: ids as usize,
        n_hyp: next.hyp.len(),
        n_refs: next.refs.len(),
    }
}

/// `slice[i]`, unchecked where the caller has shown `i < slice.len()` (checked in debug builds).
///
/// # Safety
/// `i < slice.len()`.
#[inline(always)]
unsafe fn at<T>(slice: &[T], i: usize) -> &T {
    debug_assert!(i < slice.len(), "index {i} of {}", slice.len());
    // SAFETY: the caller's contract
    unsafe { slice.get_unchecked(i) }
}

/// `&mut slice[i]`, as [`at`].
///
/// # Safety
/// `i < slice.len()`.
#[inline(always)]
unsafe fn at_mut<T>(slice: &mut [T], i: usize) -> &mut T {
    debug_assert!(i < slice.len(), "index {i} of {}", slice.len());
    // SAFETY: the caller's contract
    unsafe { slice.get_unchecked_mut(i) }
}

/// The `n` positions of `positions` (`(position, key)` pairs, keys below `store.len()`) whose entry has
/// a next-round id and which have a unit after `last` into `out`, with that id, without branches;
/// returns how many.
///
/// # Safety
/// Every key is below `store.len()` and `positions` yields at most `n` items.
#[inline(always)]
unsafe fn kept_positions(
    store: &[Entry],
    n: usize,
    positions: impl Iterator<Item = (u32, usize)>,
    last: usize,
    out: &mut Vec<(u32, u32)>,
) -> usize {
    let out = room(out, n);
    let mut kept = 0;
    for (i, key) in positions {
        // SAFETY: keys are below `store.len()`
        let id = unsafe { at(store, key) }.next;
        // SAFETY: `kept` counts fewer items than were yielded (at most `n` = `out.len()`)
        *unsafe { at_mut(out, kept) } = (i, id.wrapping_sub(1));
        kept += usize::from((id > 0) & ((i as usize) < last));
    }
    kept
}

/// [`round`] on the array of entries (every entry zero before and after), without branches on the data:
/// an unpredictable branch per position costs more than the work it would skip. `store` holds the
/// round's key space (the ids of the round before times the units).
fn round_dense(
    store: &mut [Entry],
    x: Round<'_>,
    next: NextRound<'_>,
    keys: &mut Vec<u32>,
) -> Found {
    // the units at offset `off` of each position; the positions before `*_last` have one more unit
    let (h_at, r_at) = (&x.h[x.off..], &x.r[x.off..]);
    let (h_last, r_last) = (h_at.len().saturating_sub(1), r_at.len().saturating_sub(1));
    let units = x.units as u32;
    // every key is below `store.len()`: an id of the round before is below its count, a unit below
    // `units`, and the caller sized `store` for their product; a position of this round has a unit at
    // `off` (the round before kept only those), so `h_at[i]` and `r_at[j]` are in bounds too
    keys.clear();
    keys.extend(x.hyp.iter().map(|&(i, id)| {
        // SAFETY: see above
        let key = id * units + unsafe { *at(h_at, i as usize) };
        // SAFETY: see above
        unsafe { at_mut(store, key as usize) }.h += 1;
        key
    }));
    let (mut matches, mut ids) = (0i64, 0u32);
    let refs_out = room(next.refs, x.refs.len());
    let mut kept = 0;
    for &(j, id) in x.refs {
        // SAFETY: see above
        let key = id * units + unsafe { *at(r_at, j as usize) };
        // SAFETY: see above
        let e = unsafe { at_mut(store, key as usize) };
        let has = e.reference(&mut matches, &mut ids);
        // SAFETY: `kept` is below the positions read so far, at most `refs_out.len()`
        *unsafe { at_mut(refs_out, kept) } = (j, e.next.wrapping_sub(1));
        kept += usize::from(has & ((j as usize) < r_last));
    }
    let n_refs = if x.more { kept } else { 0 };
    let n_hyp = if x.more {
        let positions = x
            .hyp
            .iter()
            .zip(keys.iter())
            .map(|(&(i, _), &key)| (i, key as usize));
        // SAFETY: the keys of this round (see above), one per position of `x.hyp`
        unsafe { kept_positions(store, x.hyp.len(), positions, h_last, next.hyp) }
    } else {
        0
    };
    for &key in keys.iter() {
        // SAFETY: see above
        *unsafe { at_mut(store, key as usize) } = Entry::default();
    }
    Found {
        matches,
        ids: ids as usize,
        n_hyp,
        n_refs,
    }
}

/// The first round (order 1) on the array of entries, keyed by the units themselves: [`round_dense`]
/// with every position of both texts and id 0, without building those lists.
fn first_round(
    store: &mut [Entry],
    h: &[u32],
    r: &[u32],
    units: usize,
    next: NextRound<'_>,
) -> Found {
    let store = &mut store[..units];
    for &u in h {
        store[u as usize].h += 1;
    }
    let (mut matches, mut ids) = (0i64, 0u32);
    let refs_out = room(next.refs, r.len());
    let mut kept = 0;
    for (j, &u) in r.iter().enumerate() {
        let e = &mut store[u as usize];
        let has = e.reference(&mut matches, &mut ids);
        refs_out[kept] = (j as u32, e.next.wrapping_sub(1));
        kept += usize::from(has & (j + 1 < r.len()));
    }
    let positions = h.iter().enumerate().map(|(i, &u)| (i as u32, u as usize));
    // SAFETY: the units of `h` are below `units` (they indexed `store` above), one per position
    let n_hyp = unsafe { kept_positions(store, h.len(), positions, h.len() - 1, next.hyp) };
    store.fill(Entry::default());
    Found {
        matches,
        ids: ids as usize,
        n_hyp,
        n_refs: kept,
    }
}

/// Units up to this many have orders 1 and 2 keyed by the units and by unit pairs (`units²` entries,
/// 768 kB at most): a text's characters, or the words of a sentence.
const PAIR_UNITS: usize = 256;

/// Orders 1 and 2 in one sweep of each text, keyed by the unit (`singles`) and by the pair of units
/// (`pairs`, `units²` entries): where (nearly) every position survives the first round, this skips
/// building and reading its position lists and the ids of order 1. Returns the clipped matches of both
/// orders and what the second round found (its ids number the pairs both texts have, for order 3).
/// Both texts have at least two units, every unit below `units`; every entry is zero before and after.
fn first_two_rounds(
    singles: &mut [Entry],
    pairs: &mut [Entry],
    h: &[u32],
    r: &[u32],
    units: usize,
    more: bool,
    next: NextRound<'_>,
) -> (i64, Found) {
    let (singles, pairs) = (&mut singles[..units], &mut pairs[..units * units]);
    // every unit is below `units` (checked once here, not per access), so a pair's key is below units²
    assert!(h.iter().chain(r).all(|&u| (u as usize) < units), "unit ids");
    let pair = |w: &[u32]| w[0] as usize * units + w[1] as usize;
    for (i, &u) in h.iter().enumerate() {
        // SAFETY: units are below `units` = `singles.len()` (asserted above)
        unsafe { at_mut(singles, u as usize) }.h += 1;
        if let Some(&v) = h.get(i + 1) {
            // SAFETY: both units below `units`, so the key is below units² = `pairs.len()`
            unsafe { at_mut(pairs, u as usize * units + v as usize) }.h += 1;
        }
    }
    let mut single_matches = 0i64;
    for &u in r {
        // SAFETY: as above
        let e = unsafe { at_mut(singles, u as usize) };
        single_matches += i64::from(e.r < e.h);
        e.r += 1;
    }
    singles.fill(Entry::default());
    let (mut matches, mut ids) = (0i64, 0u32);
    let refs_out = room(next.refs, r.len() - 1);
    let mut kept = 0;
    // a pair at j has a unit after it when j + 2 < len
    let r_last = r.len() - 2;
    for (j, w) in r.windows(2).enumerate() {
        // SAFETY: as above
        let e = unsafe { at_mut(pairs, pair(w)) };
        let has = e.reference(&mut matches, &mut ids);
        // SAFETY: `kept` <= j < r.len() - 1 = `refs_out.len()`
        *unsafe { at_mut(refs_out, kept) } = (j as u32, e.next.wrapping_sub(1));
        kept += usize::from(has & (j < r_last));
    }
    let n_refs = if more { kept } else { 0 };
    let n_hyp = if more {
        let positions = h.windows(2).enumerate().map(|(i, w)| (i as u32, pair(w)));
        // SAFETY: keys below units² (as above), one per pair of `h`
        unsafe { kept_positions(pairs, h.len() - 1, positions, h.len() - 2, next.hyp) }
    } else {
        0
    };
    for w in h.windows(2) {
        // SAFETY: as above
        *unsafe { at_mut(pairs, pair(w)) } = Entry::default();
    }
    let found = Found {
        matches,
        ids: ids as usize,
        n_hyp,
        n_refs,
    };
    (single_matches, found)
}

impl Matcher {
    /// Adds the clipped matches of `h` against `r` at orders 1..=`orders` to `out[..orders]`. Units of
    /// `h` are ids in 1..=`n_ids`; a unit of `r` is 0 when `h` does not have it.
    fn count(&mut self, h: &[u32], r: &[u32], n_ids: usize, orders: usize, out: &mut [i64]) {
        if h.is_empty() || r.is_empty() || orders == 0 {
            return;
        }
        let units = n_ids + 1;
        let dense_limit = if self.hashed_only {
            0
        } else {
            DENSE_ENTRIES.max(h.len() + r.len()).max(units)
        };
        let next = NextRound {
            hyp: &mut self.hyp,
            refs: &mut self.refs,
        };
        let pairs = orders >= 2 && h.len() >= 2 && r.len() >= 2 && units <= PAIR_UNITS;
        let (first, mut found) = if pairs && !self.no_pairs {
            room(&mut self.singles, units);
            room(&mut self.pairs, units * units);
            let more = orders > 2;
            let (single_matches, found) =
                first_two_rounds(&mut self.singles, &mut self.pairs, h, r, units, more, next);
            out[1] += found.matches;
            (
                2,
                Found {
                    matches: single_matches,
                    ..found
                },
            )
        } else {
            room(&mut self.dense, units);
            (1, first_round(&mut self.dense, h, r, units, next))
        };
        out[0] += found.matches;
        for (n, total) in out.iter_mut().enumerate().take(orders).skip(first) {
            let (n_hyp, n_refs) = (found.n_hyp, found.n_refs);
            if n_hyp == 0 || n_refs == 0 {
                break;
            }
            let space = found.ids * units;
            let x = Round {
                h,
                r,
                units,
                off: n,
                hyp: &self.hyp[..n_hyp],
                refs: &self.refs[..n_refs],
                more: n + 1 < orders,
            };
            let next = NextRound {
                hyp: &mut self.hyp_next,
                refs: &mut self.refs_next,
            };
            found = if space <= dense_limit && space <= u32::MAX as usize {
                room(&mut self.dense, space);
                round_dense(&mut self.dense, x, next, &mut self.dense_keys)
            } else {
                self.table.reset(n_hyp);
                round(&mut self.table, x, next, &mut self.keys)
            };
            *total += found.matches;
            std::mem::swap(&mut self.hyp, &mut self.hyp_next);
            std::mem::swap(&mut self.refs, &mut self.refs_next);
        }
    }
}

/// Python's `str.isspace()` of each ASCII byte.
const ASCII_SPACE: [bool; 128] = {
    let mut t = [false; 128];
    let mut b = 0;
    while b < 128 {
        t[b] = is_py_space(b as u8 as char);
        b += 1;
    }
    t
};

/// The id of each code point of `text` into the first items of `out` (without whitespace unless
/// `whitespace`); returns how many. ASCII bytes, most of any text, take theirs from `ascii` and are
/// written one by one, the whitespace not kept (no branch); longer characters are decoded from their
/// bytes (`text` is valid UTF-8) and take `id(c)`. `out` only grows (no zeroing per text).
fn decode(
    text: &str,
    whitespace: bool,
    out: &mut Vec<u32>,
    ascii: &[u32; 128],
    mut id: impl FnMut(u32) -> u32,
) -> usize {
    let bytes = text.as_bytes();
    let mut keep = [1u8; 128];
    if !whitespace {
        for (k, space) in keep.iter_mut().zip(ASCII_SPACE) {
            *k = u8::from(!space);
        }
    }
    let out = room(out, bytes.len());
    let (mut n, mut i) = (0, 0);
    while let Some(&b) = bytes.get(i) {
        if b < 0x80 {
            // SAFETY: `n` <= `i` (one item at most per byte read) and `i` < `bytes.len()` = `out.len()`
            *unsafe { at_mut(out, n) } = ascii[usize::from(b)];
            n += usize::from(keep[usize::from(b)]);
            i += 1;
            continue;
        }
        let tail = |k: usize| u32::from(bytes.get(i + k).copied().unwrap_or(0) & 0x3f);
        let (c, len) = if b < 0xe0 {
            ((u32::from(b & 0x1f) << 6) | tail(1), 2)
        } else if b < 0xf0 {
            ((u32::from(b & 0x0f) << 12) | (tail(1) << 6) | tail(2), 3)
        } else {
            (
                (u32::from(b & 0x07) << 18) | (tail(1) << 12) | (tail(2) << 6) | tail(3),
                4,
            )
        };
        i += len;
        if whitespace || !char::from_u32(c).is_some_and(is_py_space) {
            out[n] = id(c);
            n += 1;
        }
    }
    n
}

/// Code points below this (the alphabets, their marks and punctuation) have their id in an array;
/// others (CJK, ...) in a map, so a counter holds 48 kB rather than a slot per code point.
const DIRECT_CODE_POINTS: usize = 0x3000;

type CharMap = HashMap<u32, u32, BuildHasherDefault<Fnv>>;

/// The id slot of a code point past [`DIRECT_CODE_POINTS`]: out of line, so that the closure giving ids
/// stays small enough to be inlined into [`decode`]'s loop.
#[cold]
#[inline(never)]
fn wide_slot(wide: &mut CharMap, c: u32) -> &mut u32 {
    wide.entry(c).or_insert(0)
}

/// The hypothesis's id of a code point past [`DIRECT_CODE_POINTS`] (0: not in it), out of line.
#[cold]
#[inline(never)]
fn wide_id(wide: &CharMap, c: u32) -> u32 {
    wide.get(&c).copied().unwrap_or(0)
}

/// A character's first occurrence in the hypothesis: the next id (out of line, as [`wide_slot`]).
#[cold]
#[inline(never)]
fn first_seen(seen: &mut Vec<u32>, id: &mut u32, c: u32) {
    seen.push(c);
    *id = seen.len() as u32;
}

/// Counts candidate rows segment by segment, reusing its buffers.
pub(crate) struct ChrfCounter {
    char_order: usize,
    word_order: usize,
    whitespace: bool,
    /// per code point: its id among the hypothesis's characters (0: not in the hypothesis)
    char_ids: Vec<u32>,
    wide_ids: CharMap,
    seen_chars: Vec<u32>,
    /// the characters' ids of the hypothesis and of the reference at hand (the first `n_*_chars`)
    hyp_chars: Vec<u32>,
    ref_chars: Vec<u32>,
    n_hyp_chars: usize,
    n_ref_chars: usize,
    hyp_words: Vec<u32>,
    ref_words: Vec<u32>,
    spans: Vec<(usize, usize)>,
    matcher: Matcher,
    matches: Vec<i64>,
}

impl ChrfCounter {
    pub(crate) fn new(char_order: usize, word_order: usize, whitespace: bool) -> Self {
        assert!(supported(char_order, word_order), "unsupported chrF orders");
        ChrfCounter {
            char_order,
            word_order,
            whitespace,
            char_ids: vec![0; DIRECT_CODE_POINTS],
            wide_ids: CharMap::default(),
            seen_chars: Vec::new(),
            hyp_chars: Vec::new(),
            ref_chars: Vec::new(),
            n_hyp_chars: 0,
            n_ref_chars: 0,
            hyp_words: Vec::new(),
            ref_words: Vec::new(),
            spans: Vec::new(),
            matcher: Matcher::default(),
            matches: vec![0; char_order + word_order],
        }
    }

    /// Row width: 3 integers per order.
    pub(crate) fn width(&self) -> usize {
        3 * (self.char_order + self.word_order)
    }

    /// The hypothesis's characters as ids 1..=n (its ASCII characters first, the others in order of
    /// first appearance); returns n.
    fn hyp_char_ids(&mut self, text: &str) -> usize {
        for &c in &self.seen_chars {
            if let Some(id) = self.char_ids.get_mut(c as usize) {
                *id = 0;
            }
        }
        self.wide_ids.clear();
        self.seen_chars.clear();
        // the ASCII characters' ids before decoding, so that its loop only reads them
        let mut present = [false; 128];
        for &b in text.as_bytes() {
            present[usize::from(b & 0x7f)] |= b < 0x80;
        }
        for (b, &here) in present.iter().enumerate() {
            if here && (self.whitespace || !ASCII_SPACE[b]) {
                first_seen(&mut self.seen_chars, &mut self.char_ids[b], b as u32);
            }
        }
        let ascii = self.ascii_ids();
        let (ids, wide, seen, out) = (
            &mut self.char_ids,
            &mut self.wide_ids,
            &mut self.seen_chars,
            &mut self.hyp_chars,
        );
        let id_of = |c: u32| {
            let id = match ids.get_mut(c as usize) {
                Some(id) => id,
                None => wide_slot(wide, c),
            };
            if *id == 0 {
                first_seen(seen, id, c);
            }
            *id
        };
        // the closure itself, not a reference to it: called through `&mut F` it is not inlined
        self.n_hyp_chars = decode(text, self.whitespace, out, &ascii, id_of);
        self.seen_chars.len()
    }

    /// The hypothesis's ids of the ASCII characters (0: not in it).
    fn ascii_ids(&self) -> [u32; 128] {
        let mut ascii = [0; 128];
        ascii.copy_from_slice(&self.char_ids[..128]);
        ascii
    }

    /// A reference's characters as the hypothesis's ids (0: not in the hypothesis).
    fn ref_char_ids(&mut self, text: &str) {
        let ascii = self.ascii_ids();
        let (ids, wide) = (&self.char_ids, &self.wide_ids);
        self.n_ref_chars = decode(
            text,
            self.whitespace,
            &mut self.ref_chars,
            &ascii,
            |c| match ids.get(c as usize) {
                Some(&id) => id,
                None => wide_id(wide, c),
            },
        );
    }

    /// Candidate rows of `hyp` against each reference (`None`: absent, row left untouched) into `out`
    /// (`refs.len()` rows of `width()`).
    pub(crate) fn count(&mut self, hyp: &str, refs: &[Option<&str>], out: &mut [i64]) {
        let (co, wo) = (self.char_order, self.word_order);
        let width = self.width();
        let n_chars = if co > 0 { self.hyp_char_ids(hyp) } else { 0 };
        let mut map: WordMap<'_> = WordMap::default();
        self.hyp_words.clear();
        if wo > 0 {
            chrf_words(hyp, &mut self.spans);
            for &(s, e) in &self.spans {
                let next = map.len() as u32 + 1;
                self.hyp_words.push(*map.entry(&hyp[s..e]).or_insert(next));
            }
        }
        for (k, r) in refs.iter().enumerate() {
            let Some(r) = *r else { continue };
            self.matches.fill(0);
            if co > 0 {
                self.ref_char_ids(r);
                let h = &self.hyp_chars[..self.n_hyp_chars];
                let rc = &self.ref_chars[..self.n_ref_chars];
                self.matcher
                    .count(h, rc, n_chars, co, &mut self.matches[..co]);
            }
            self.ref_words.clear();
            if wo > 0 {
                chrf_words(r, &mut self.spans);
                self.ref_words.extend(
                    self.spans
                        .iter()
                        .map(|&(s, e)| map.get(&r[s..e]).copied().unwrap_or(0)),
                );
                let (h, rw) = (&self.hyp_words, &self.ref_words);
                self.matcher
                    .count(h, rw, map.len(), wo, &mut self.matches[co..]);
            }
            let row = &mut out[k * width..(k + 1) * width];
            for order in 0..co + wo {
                let (hl, rl, n) = if order < co {
                    (self.n_hyp_chars, self.n_ref_chars, order + 1)
                } else {
                    (self.hyp_words.len(), self.ref_words.len(), order - co + 1)
                };
                let hyp_count = (hl + 1).saturating_sub(n) as i64;
                let ref_count = (rl + 1).saturating_sub(n) as i64;
                row[3 * order] = if ref_count > 0 { hyp_count } else { 0 };
                row[3 * order + 1] = ref_count;
                row[3 * order + 2] = self.matches[order];
            }
        }
    }
}

/// Segments per unit of work handed to a thread by [`candidate_rows`].
const CHRF_UNIT: usize = 64;

/// Candidate rows for many segments, split over `threads` threads (0: one per 1,000 segments; rows do
/// not depend on the split). `refs[k][i]` is reference k of segment i.
pub fn candidate_rows(
    hyps: &[&str],
    refs: &[Vec<Option<&str>>],
    char_order: usize,
    word_order: usize,
    whitespace: bool,
    threads: usize,
    out: &mut [i64],
) {
    let n_ref = refs.len();
    let width = 3 * (char_order + word_order);
    let seg_width = n_ref * width;
    assert_eq!(out.len(), hyps.len() * seg_width, "output size");
    if seg_width == 0 || hyps.is_empty() {
        return;
    }
    let threads = pick_threads(threads, hyps.len(), 1000, hyps.len().div_ceil(CHRF_UNIT));
    let new_state = || {
        let counter = ChrfCounter::new(char_order, word_order, whitespace);
        (counter, vec![None; n_ref])
    };
    type State<'a> = (ChrfCounter, Vec<Option<&'a str>>);
    for_each_unit(
        out,
        CHRF_UNIT * seg_width,
        threads,
        new_state,
        |(counter, seg_refs): &mut State<'_>, unit, rows| {
            for (j, row) in rows.chunks_mut(seg_width).enumerate() {
                let i = unit * CHRF_UNIT + j;
                for k in 0..n_ref {
                    seg_refs[k] = refs[k][i];
                }
                counter.count(hyps[i], seg_refs, row);
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(hyp: &str, refs: &[Option<&str>], co: usize, wo: usize, ws: bool) -> Vec<i64> {
        let mut c = ChrfCounter::new(co, wo, ws);
        let mut out = vec![0; refs.len() * c.width()];
        c.count(hyp, refs, &mut out);
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
        candidate_rows(&h, &r, 6, 2, false, 1, &mut one);
        candidate_rows(&h, &r, 6, 2, false, 3, &mut two);
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
    fn short_texts_and_both_first_round_paths_count_as_the_definition() {
        // one or two units on a side, a unit only one side has, orders past the texts' lengths; the same
        // counter throughout, so every buffer is reused from a longer pair to a shorter one
        let texts = [
            "", " ", "a", "ab", "ba", "aa", "aaa", "abab", "a b a", "xyz", "é", "éé a", "ab.",
            "(a) b",
        ];
        for no_pairs in [false, true] {
            for (co, wo) in [(6, 2), (2, 2), (1, 1), (3, 0)] {
                let mut c = ChrfCounter::new(co, wo, false);
                c.matcher.no_pairs = no_pairs;
                for hyp in texts {
                    for reference in texts {
                        let mut got = vec![0; c.width()];
                        c.count(hyp, &[Some(reference)], &mut got);
                        let want = naive_rows(hyp, reference, co, wo);
                        assert_eq!(got, want, "{hyp:?} {reference:?} orders {co} {wo}");
                    }
                }
            }
        }
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
    fn both_stores_count_as_the_definition_on_repetitive_and_varied_text() {
        let mut state = 99u64;
        let mut next = |n: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % n
        };
        // a small alphabet (long shared runs), then thousands of distinct CJK characters
        let small: String = (0..3000)
            .map(|_| ['a', 'b', ' ', 'c'][next(4) as usize])
            .collect();
        let small_ref: String = (0..2500)
            .map(|_| ['a', 'b', 'c', ' ', 'd'][next(5) as usize])
            .collect();
        let wide: String = (0..6000)
            .map(|_| char::from_u32(0x4e00 + next(3000) as u32).unwrap())
            .collect();
        let wide_ref: String = wide.chars().rev().chain(wide.chars().skip(100)).collect();
        for (hyp, reference) in [(&small, &small_ref), (&wide, &wide_ref), (&small, &small)] {
            for (hashed, no_pairs) in [(false, false), (true, false), (false, true), (true, true)] {
                for (co, wo) in [(6, 2), (9, 0), (1, 3), (2, 2)] {
                    let mut c = ChrfCounter::new(co, wo, false);
                    c.matcher.hashed_only = hashed;
                    c.matcher.no_pairs = no_pairs;
                    let mut got = vec![0; c.width()];
                    c.count(hyp, &[Some(reference)], &mut got);
                    assert_eq!(got, naive_rows(hyp, reference, co, wo), "orders {co} {wo}");
                }
            }
        }
    }
}
