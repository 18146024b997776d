//! ROUGE counts with rouge-score 0.1.2's rules: per (reference, hypothesis) pair and ROUGE type, the
//! three integers `(matches, hyp_count, ref_count)` from which Python computes precision, recall and F
//! with rouge-score's arithmetic. The readable definition is `bleuscope/metrics/rouge/reference.py`;
//! tests compare the two on generated and real text.
//!
//! * Tokens: rouge-score's (lowercase; runs of `[a-z0-9]`; KELVIN SIGN lowercases to `k`, capital I with
//!   dot above to `i` plus a separator), optionally Porter-stemmed (longer than 3 bytes), or "pre-tokenized"
//!   text (tokens separated by spaces, sentences by newlines) from the Unicode tokenizers in Python. The
//!   default tokenizer classifies 64 bytes at a time (SSE2 on x86-64, a byte loop elsewhere); tokens of up to
//!   16 bytes are packed into one integer key. Ids are pair-local: the hypothesis's distinct tokens are
//!   `0..n`, and a reference token outside them is `n` (it matches nothing). With stemming, each thread
//!   keeps a stem cache (word -> stem id), so a word is stemmed once per thread.
//! * rougeN: clipped n-gram matches: unigrams tallied in an array indexed by pair-local ids while the
//!   texts are read (no second pass), bigrams in such an array after, longer n-grams by packed codes in
//!   a small hash table.
//! * rougeL: LCS length by the bit-parallel row recurrence (Allison-Dix/Hyyrö), memory linear in the length.
//! * rougeLsum: for each reference sentence, the union of its positions on the LCS that rouge-score reads
//!   back from each hypothesis sentence's table (match: diagonal; else left when the left cell is strictly
//!   larger than the upper one, else up). The rows are bit vectors; beyond a size limit only every k-th row
//!   (k = sqrt(rows)) is kept and blocks are recomputed during the read-back, so memory stays
//!   O(sqrt(rows) * columns / 64). Hits are sum over tokens of min(union occurrences, hypothesis
//!   occurrences), which is what rouge-score's decrementing counters give.

use crate::par::{for_each_unit, pick_threads, WORK_UNIT};
use crate::porter::stem_into;

/// A ROUGE type: rouge1..rouge9, rougeL, rougeLsum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RougeType {
    Ngram(usize),
    Lcs,
    SummaryLcs,
}

impl RougeType {
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "rougeL" => Some(Self::Lcs),
            "rougeLsum" => Some(Self::SummaryLcs),
            _ => {
                let n = name.strip_prefix("rouge")?;
                match n.as_bytes() {
                    [d @ b'1'..=b'9'] => Some(Self::Ngram(usize::from(d - b'0'))),
                    _ => None,
                }
            }
        }
    }
}

/// Hash of token bytes: 8 bytes at a time, with a final mix so that the low bits (the table index) depend
/// on every byte. The last (partial) word is read with overlapping loads, never through a copy: a copy to
/// the stack followed by a wider load stalls store forwarding on every short token.
fn hash_bytes(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mix = |h: u64, w: u64| (h ^ w).wrapping_mul(K).rotate_left(31);
    let n = bytes.len();
    let mut h = (n as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = mix(h, u64::from_le_bytes(c.try_into().unwrap()));
    }
    let rest = chunks.remainder().len();
    if rest > 0 {
        let last = if n >= 8 {
            u64::from_le_bytes(bytes[n - 8..].try_into().unwrap())
        } else if n >= 4 {
            let lo = u32::from_le_bytes(bytes[..4].try_into().unwrap());
            let hi = u32::from_le_bytes(bytes[n - 4..].try_into().unwrap());
            u64::from(lo) | u64::from(hi) << 32
        } else {
            u64::from(bytes[0]) | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]) << 16
        };
        h = mix(h, last);
    }
    h ^= h >> 32;
    h = h.wrapping_mul(0xd6e8_feb8_6659_fd93);
    h ^ (h >> 32)
}

/// Token bytes -> a u32 value, open addressing over one byte arena (no allocation per token). A slot
/// holds the high 32 bits of the hash beside the entry number, so a probe touches one cache line until the
/// bytes are compared.
#[derive(Default)]
struct Interner {
    slots: Vec<(u32, u32)>,
    entries: Vec<(u32, u32, u32)>,
    arena: Vec<u8>,
}

impl Interner {
    fn len(&self) -> usize {
        self.entries.len()
    }

    fn clear(&mut self) {
        self.slots.clear();
        self.entries.clear();
        self.arena.clear();
    }

    /// The slot of `word`: its entry + 1, or 0 where it would go.
    fn slot(&self, word: &[u8], hash: u64) -> usize {
        let mask = self.slots.len() - 1;
        let tag = (hash >> 32) as u32;
        let mut i = hash as usize & mask;
        loop {
            let (t, e) = self.slots[i];
            if e == 0 {
                return i;
            }
            if t == tag {
                let (start, len, _) = self.entries[(e - 1) as usize];
                if &self.arena[start as usize..(start + len) as usize] == word {
                    return i;
                }
            }
            i = (i + 1) & mask;
        }
    }

    fn get(&self, word: &[u8], hash: u64) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        match self.slots[self.slot(word, hash)] {
            (_, 0) => None,
            (_, e) => Some(self.entries[(e - 1) as usize].2),
        }
    }

    fn insert(&mut self, word: &[u8], hash: u64, value: u32) {
        if 2 * (self.len() + 1) > self.slots.len() {
            self.grow();
        }
        let i = self.slot(word, hash);
        self.entries
            .push((self.arena.len() as u32, word.len() as u32, value));
        self.arena.extend_from_slice(word);
        self.slots[i] = ((hash >> 32) as u32, self.entries.len() as u32);
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(1024);
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); size]);
        let mask = size - 1;
        for (tag, e) in old.into_iter().filter(|&(_, e)| e != 0) {
            let (start, len, _) = self.entries[(e - 1) as usize];
            let mut i =
                hash_bytes(&self.arena[start as usize..(start + len) as usize]) as usize & mask;
            while self.slots[i].1 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (tag, e);
        }
    }
}

/// Entries after which a thread's token table is dropped (between pairs).
const MAX_VOCAB: usize = 1 << 22;
/// Largest (hypothesis ids)^2 for which bigrams are counted in a plain array rather than a hash table.
const GRID_CELLS: usize = 1 << 16;
/// Bit-vector words of stored LCS rows beyond which only checkpoint rows are kept.
const FULL_TABLE_WORDS: usize = 1 << 20;

/// Token string -> id, with the stem of each new token computed once (the table is the stem cache).
pub(crate) struct Vocab {
    stem: bool,
    words: Interner,
    stems: Interner,
    next: u32,
    buf: Vec<u8>,
}

impl Vocab {
    pub(crate) fn new(stem: bool) -> Self {
        Vocab {
            stem,
            words: Interner::default(),
            stems: Interner::default(),
            next: 0,
            buf: Vec::new(),
        }
    }

    fn reset_if_large(&mut self) {
        if self.words.len() + self.stems.len() > MAX_VOCAB
            || self.words.arena.len() > (u32::MAX / 2) as usize
        {
            self.words.clear();
            self.stems.clear();
            self.next = 0;
        }
    }

    /// The id of a token (of its stem when stemming; `u32::MAX` when the stem is empty).
    fn id(&mut self, word: &[u8]) -> u32 {
        let hash = hash_bytes(word);
        if let Some(id) = self.words.get(word, hash) {
            return id;
        }
        let id = if self.stem && word.len() > 3 {
            stem_into(word, &mut self.buf);
            if self.buf.is_empty() {
                u32::MAX
            } else {
                let stem_hash = hash_bytes(&self.buf);
                match self.stems.get(&self.buf, stem_hash) {
                    Some(id) => id,
                    None => {
                        let id = self.next;
                        self.next += 1;
                        let stem = std::mem::take(&mut self.buf);
                        self.stems.insert(&stem, stem_hash, id);
                        self.buf = stem;
                        id
                    }
                }
            }
        } else if self.stem {
            // unstemmed tokens share the stems' id space ("run" and the stem of "running")
            match self.stems.get(word, hash) {
                Some(id) => id,
                None => {
                    let id = self.next;
                    self.next += 1;
                    self.stems.insert(word, hash, id);
                    id
                }
            }
        } else {
            let id = self.next;
            self.next += 1;
            id
        };
        self.words.insert(word, hash, id);
        id
    }
}

/// U+212A KELVIN SIGN, which lowercases to "k", and U+0130 (capital I with dot above), which lowercases to
/// "i" and U+0307 (a separator): the only characters outside ASCII whose lowercase holds `[a-z0-9]`.
const KELVIN: &[u8] = "\u{212A}".as_bytes();
const DOTTED_I: &[u8] = "\u{130}".as_bytes();

/// What the default tokenizer needs to know of 16 bytes of text (bit k of a mask: byte k).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Chunk {
    /// `[a-zA-Z0-9]`
    word: u32,
    /// '\n', and the starts of [`KELVIN`] and [`DOTTED_I`] (a lead byte too near the end of the 16 to see
    /// its continuation counts as one: the byte rules decide)
    special: u32,
}

/// `KEY_MASKS[n]`: the low `n` bytes of a key (n = 0..=16).
const KEY_MASKS: [u128; 17] = {
    let mut m = [0u128; 17];
    let mut n = 1;
    while n < 16 {
        m[n] = (1 << (8 * n)) - 1;
        n += 1;
    }
    m[16] = u128::MAX;
    m
};

/// `of` the 16 bytes of `bytes` from `i` (`i < bytes.len()`), zero past its end (zero is a separator).
/// Near the end of a text of 16 bytes or more, `of` reads the text's last 16 bytes in place and
/// `shift(value, s)` moves its result down by the `s` bytes before `i`: a copy to the stack followed by a
/// wider load would stall store forwarding on every token there. Only a text shorter than 16 bytes is
/// copied.
#[inline(always)]
fn at16<T>(
    bytes: &[u8],
    i: usize,
    of: impl Fn(&[u8; 16]) -> T,
    shift: impl Fn(T, usize) -> T,
) -> T {
    let n = bytes.len();
    if let Some(b) = bytes.get(i..i + 16) {
        of(b.try_into().unwrap())
    } else if n >= 16 {
        shift(of(bytes[n - 16..].try_into().unwrap()), i + 16 - n)
    } else {
        let mut b = [0u8; 16];
        b[..n - i].copy_from_slice(&bytes[i..]);
        of(&b)
    }
}

/// The 16 bytes of `bytes` from `i` (`i < bytes.len()`) as a little-endian integer, zero past its end.
#[inline(always)]
fn load_u128(bytes: &[u8], i: usize) -> u128 {
    at16(bytes, i, |b| u128::from_le_bytes(*b), |v, s| v >> (8 * s))
}

/// The key of the token of `len` bytes (1..=16, all of `[a-zA-Z0-9]`) at `i`: lowercased by setting bit
/// 5 of every byte (which letters gain and digits already have).
#[inline(always)]
fn token_key(bytes: &[u8], i: usize, len: usize) -> Key {
    (load_u128(bytes, i) | 0x2020_2020_2020_2020_2020_2020_2020_2020) & KEY_MASKS[len]
}

/// [`Chunk`] byte by byte (the definition; [`classify`] where SSE2 is not available).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
fn classify_bytes(b: &[u8; 16]) -> Chunk {
    let (mut word, mut special) = (0u32, 0u32);
    for k in 0..16 {
        let c = b[k];
        word |= u32::from(c.is_ascii_alphanumeric()) << k;
        let starts = match c {
            b'\n' => true,
            0xC4 => k == 15 || b[k + 1] == DOTTED_I[1],
            0xE2 => k >= 14 || b[k + 1..k + 3] == KELVIN[1..],
            _ => false,
        };
        special |= u32::from(starts) << k;
    }
    Chunk { word, special }
}

/// [`classify_bytes`] with SSE2 (part of every x86-64 processor).
#[cfg(target_arch = "x86_64")]
#[inline]
fn classify(b: &[u8; 16]) -> Chunk {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is in the x86-64 baseline; the load reads exactly the 16 bytes of `b`
    unsafe {
        let x = _mm_loadu_si128(b.as_ptr().cast());
        // bytes in lo..=hi: shift lo to -128, then one signed comparison
        let in_range = |v: __m128i, lo: u8, hi: u8| {
            let shifted = _mm_add_epi8(v, _mm_set1_epi8(0x80u8.wrapping_sub(lo) as i8));
            _mm_cmplt_epi8(shifted, _mm_set1_epi8((0x80 + (hi - lo) + 1) as i8))
        };
        let mask = |v: __m128i| _mm_movemask_epi8(v) as u32;
        let eq = |c: u8| mask(_mm_cmpeq_epi8(x, _mm_set1_epi8(c as i8)));
        // setting bit 5 maps `A-Z` onto `a-z` and nothing else onto them
        let folded = _mm_or_si128(x, _mm_set1_epi8(0x20));
        let word = mask(_mm_or_si128(
            in_range(folded, b'a', b'z'),
            in_range(x, b'0', b'9'),
        ));
        let dotted_i = eq(DOTTED_I[0]) & ((eq(DOTTED_I[1]) >> 1) | 0x8000);
        let kelvin = eq(KELVIN[0]) & (((eq(KELVIN[1]) >> 1) & (eq(KELVIN[2]) >> 2)) | 0xC000);
        Chunk {
            word,
            special: eq(b'\n') | dotted_i | kelvin,
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
use classify_bytes as classify;

/// [`Chunk`] of the 16 bytes of `bytes` from `i`, zero past its end (see [`at16`]).
#[inline(always)]
fn chunk_at(bytes: &[u8], i: usize) -> Chunk {
    if i >= bytes.len() {
        return Chunk {
            word: 0,
            special: 0,
        };
    }
    at16(bytes, i, classify, |c, s| Chunk {
        word: c.word >> s,
        special: c.special >> s,
    })
}

/// The masks of the 64 bytes of `bytes` from `i`: `(word, special)` as in [`Chunk`], zero past its end.
#[inline(always)]
fn block_at(bytes: &[u8], i: usize) -> (u64, u64) {
    let (mut word, mut special) = (0u64, 0u64);
    for k in 0..4 {
        let c = chunk_at(bytes, i + 16 * k);
        word |= u64::from(c.word) << (16 * k);
        special |= u64::from(c.special) << (16 * k);
    }
    (word, special)
}

/// A pair's token table: bytes -> pair-local id, emptied per hypothesis, the reference's entries dropped
/// after each reference (the newest entries go first, which linear probing allows: older entries never
/// probed past newer ones, also after a rehash, which reinserts in entry order).
#[derive(Default)]
struct LocalTable {
    slots: Vec<u32>,
    entries: Vec<(u64, u32, u32, u32, u32)>, // hash, arena start, length, value, slot
    arena: Vec<u8>,
}

impl LocalTable {
    fn find(&self, word: &[u8], hash: u64) -> Result<u32, usize> {
        let mask = self.slots.len() - 1;
        let mut i = hash as usize & mask;
        loop {
            let e = self.slots[i];
            if e == 0 {
                return Err(i);
            }
            let (h, start, len, value, _) = self.entries[(e - 1) as usize];
            if h == hash && &self.arena[start as usize..(start + len) as usize] == word {
                return Ok(value);
            }
            i = (i + 1) & mask;
        }
    }

    fn get(&self, word: &[u8]) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        self.find(word, hash_bytes(word)).ok()
    }

    /// The value of `word`, or `make()` stored as its value.
    fn get_or_insert(&mut self, word: &[u8], make: impl FnOnce() -> u32) -> u32 {
        if 2 * (self.entries.len() + 1) > self.slots.len() {
            self.grow();
        }
        let hash = hash_bytes(word);
        match self.find(word, hash) {
            Ok(value) => value,
            Err(slot) => {
                let value = make();
                self.entries.push((
                    hash,
                    self.arena.len() as u32,
                    word.len() as u32,
                    value,
                    slot as u32,
                ));
                self.arena.extend_from_slice(word);
                self.slots[slot] = self.entries.len() as u32;
                value
            }
        }
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(256);
        self.slots.clear();
        self.slots.resize(size, 0);
        let mask = size - 1;
        for (k, entry) in self.entries.iter_mut().enumerate() {
            let mut i = entry.0 as usize & mask;
            while self.slots[i] != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = k as u32 + 1;
            entry.4 = i as u32;
        }
    }

    fn truncate(&mut self, n: usize) {
        if n < self.entries.len() {
            self.arena.truncate(self.entries[n].1 as usize);
            for e in &self.entries[n..] {
                self.slots[e.4 as usize] = 0;
            }
            self.entries.truncate(n);
        }
    }
}

/// A token of at most 16 bytes, none of them zero, packed little-endian into a `u128` (zero-padded): equal
/// tokens and equal keys are the same thing, so a table of keys needs no byte comparison. Every token of
/// the default tokenizer (bytes of `[a-z0-9]`) up to 16 bytes long is one; others go through bytes.
type Key = u128;

/// The key of `word`, or None when it is longer than 16 bytes or holds a zero byte.
fn key_of(word: &[u8]) -> Option<Key> {
    if word.len() > 16 || word.contains(&0) {
        return None;
    }
    let mut b = [0u8; 16];
    b[..word.len()].copy_from_slice(word);
    Some(Key::from_le_bytes(b))
}

/// The token bytes of a key: its first bytes up to the padding.
fn key_bytes(key: Key) -> ([u8; 16], usize) {
    (key.to_le_bytes(), 16 - key.leading_zeros() as usize / 8)
}

/// A pair's table of short tokens: key -> pair-local id, open addressing, emptied like [`LocalTable`]
/// (the newest entries first; `used[..n_used]` lists the occupied slots in insertion order).
#[derive(Default)]
struct KeyTable {
    keys: Vec<Key>, // 0: an empty slot (no token has the zero key)
    values: Vec<u32>,
    used: Vec<u32>, // as long as `keys`
    n_used: usize,
}

impl KeyTable {
    fn slot_of(key: Key, mask: usize) -> usize {
        let h = (key as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
            ^ ((key >> 64) as u64).wrapping_mul(0xd6e8_feb8_6659_fd93);
        (h ^ (h >> 29)) as usize & mask
    }

    /// The slot holding `key`, or the empty slot where it would go.
    #[inline(always)]
    fn probe(&self, key: Key) -> usize {
        let mask = self.keys.len() - 1;
        let mut i = Self::slot_of(key, mask);
        loop {
            let k = self.keys[i];
            if k == key || k == 0 {
                return i;
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of `key`, or `absent`.
    #[inline(always)]
    fn get_or(&self, key: Key, absent: u32) -> u32 {
        if self.keys.is_empty() {
            return absent;
        }
        let i = self.probe(key);
        if self.keys[i] == key {
            self.values[i]
        } else {
            absent
        }
    }

    /// The value of `key`, or else `*next`, stored as its value, and `*next` counts on. Whether the key
    /// is new decides no branch (about every other token of a pair is, unpredictably): the slot is
    /// written either way.
    #[inline(always)]
    fn get_or_number(&mut self, key: Key, next: &mut u32) -> u32 {
        self.reserve_one();
        let i = self.probe(key);
        let new = self.keys[i] == 0;
        let value = if new { *next } else { self.values[i] };
        self.keys[i] = key;
        self.values[i] = value;
        self.used[self.n_used] = i as u32;
        self.n_used += usize::from(new);
        *next += u32::from(new);
        value
    }

    /// The value of `key`, or `make()` stored as its value.
    #[inline(always)]
    fn get_or_insert(&mut self, key: Key, make: impl FnOnce() -> u32) -> u32 {
        self.reserve_one();
        let i = self.probe(key);
        if self.keys[i] == key {
            return self.values[i];
        }
        let value = make();
        self.keys[i] = key;
        self.values[i] = value;
        self.used[self.n_used] = i as u32;
        self.n_used += 1;
        value
    }

    /// Room for one more entry at a load of at most one half.
    #[inline(always)]
    fn reserve_one(&mut self) {
        if 2 * (self.n_used + 1) > self.keys.len() {
            self.grow();
        }
    }

    fn grow(&mut self) {
        let size = (2 * self.keys.len()).max(256);
        let old_keys = std::mem::replace(&mut self.keys, vec![0; size]);
        let old_values = std::mem::replace(&mut self.values, vec![0; size]);
        self.used.resize(size, 0);
        let mask = size - 1;
        for s in self.used[..self.n_used].iter_mut() {
            let (key, value) = (old_keys[*s as usize], old_values[*s as usize]);
            let mut i = Self::slot_of(key, mask);
            while self.keys[i] != 0 {
                i = (i + 1) & mask;
            }
            self.keys[i] = key;
            self.values[i] = value;
            *s = i as u32;
        }
    }

    fn truncate(&mut self, n: usize) {
        if n < self.n_used {
            for &s in &self.used[n..self.n_used] {
                self.keys[s as usize] = 0;
            }
            self.n_used = n;
        }
    }
}

/// The pair-local id of a token not seen yet in the pair. Hypothesis tokens get the ids `0..n_hyp` in
/// order; a reference token that is not among them gets `n_hyp` ("outside"): it matches nothing, and
/// only matches between the hypothesis and the reference count. With stemming, tokens are equal when
/// their stems are (the thread's stem cache gives each stem a global id, stamped with its pair-local id
/// when the hypothesis has it).
struct LocalIds {
    vocab: Vocab,
    stamp: Vec<u32>,
    local_of: Vec<u32>,
    generation: u32,
    /// ids given (during the references: `n_hyp`, the outside id)
    n_local: u32,
    in_reference: bool,
}

impl LocalIds {
    #[inline(always)]
    fn fresh(&mut self, word: &[u8]) -> u32 {
        if self.in_reference {
            if self.vocab.stem {
                self.fresh_stem(word)
            } else {
                self.n_local
            }
        } else if self.vocab.stem {
            self.fresh_stem(word)
        } else {
            self.n_local += 1;
            self.n_local - 1
        }
    }

    #[inline(never)]
    fn fresh_stem(&mut self, word: &[u8]) -> u32 {
        let g = self.vocab.id(word);
        if g == u32::MAX {
            return u32::MAX;
        }
        let i = g as usize;
        if i >= self.stamp.len() {
            self.stamp.resize(i + 1, 0);
            self.local_of.resize(i + 1, 0);
        }
        if self.stamp[i] == self.generation {
            self.local_of[i]
        } else if self.in_reference {
            self.n_local
        } else {
            self.stamp[i] = self.generation;
            self.local_of[i] = self.n_local;
            self.n_local += 1;
            self.n_local - 1
        }
    }
}

/// Token bytes -> pair-local ids ([`LocalIds`]): the pair's tables first (keys for short tokens, bytes for
/// the others: one token always takes the same one). Without stemming, a reference token missing from
/// them is outside the hypothesis and is not stored.
struct PairIds {
    table: LocalTable,
    keys: KeyTable,
    local: LocalIds,
    /// table sizes when the hypothesis was done
    hyp_mark: (usize, usize),
}

impl PairIds {
    fn new(stem: bool) -> Self {
        PairIds {
            table: LocalTable::default(),
            keys: KeyTable::default(),
            local: LocalIds {
                vocab: Vocab::new(stem),
                stamp: Vec::new(),
                local_of: Vec::new(),
                generation: 0,
                n_local: 0,
                in_reference: false,
            },
            hyp_mark: (0, 0),
        }
    }

    /// The hypothesis's distinct tokens (the outside id, while references are read).
    fn n_hyp(&self) -> u32 {
        self.local.n_local
    }

    /// The id of a token given by its key.
    #[inline(always)]
    fn key_id(&mut self, key: Key) -> u32 {
        let local = &mut self.local;
        if !local.vocab.stem {
            return if local.in_reference {
                self.keys.get_or(key, local.n_local)
            } else {
                self.keys.get_or_number(key, &mut local.n_local)
            };
        }
        self.keys.get_or_insert(key, || {
            let (bytes, len) = key_bytes(key);
            local.fresh(&bytes[..len])
        })
    }

    fn id(&mut self, word: &[u8]) -> u32 {
        if let Some(key) = key_of(word) {
            return self.key_id(key);
        }
        let local = &mut self.local;
        if local.in_reference && !local.vocab.stem {
            return self.table.get(word).unwrap_or(local.n_local);
        }
        self.table.get_or_insert(word, || local.fresh(word))
    }

    /// Start a new hypothesis: every id of the previous pairs is forgotten.
    fn begin(&mut self) {
        let local = &mut self.local;
        local.vocab.reset_if_large();
        self.table.truncate(0);
        self.keys.truncate(0);
        local.generation = local.generation.wrapping_add(1);
        if local.generation == 0 {
            local.stamp.iter_mut().for_each(|s| *s = 0);
            local.generation = 1;
        }
        local.n_local = 0;
        local.in_reference = false;
    }

    /// The hypothesis is read: references follow.
    fn end_hypothesis(&mut self) {
        self.hyp_mark = (self.table.entries.len(), self.keys.n_used);
        self.local.in_reference = true;
    }

    /// Forget a reference's own tokens (stored only when stemming).
    fn end_reference(&mut self) {
        self.table.truncate(self.hyp_mark.0);
        self.keys.truncate(self.hyp_mark.1);
    }
}

/// What [`Tokens`] does with each id besides keeping it: rouge1's counts, taken while the text is read
/// (no second pass over the ids).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Tally {
    #[default]
    Off,
    /// `tally[id] += 1` (the hypothesis's occurrences)
    Count,
    /// a match when `tally[id] > 0`, which it uses up (the hypothesis's occurrences not matched yet; the
    /// outside id's entry is 0): clipped unigram matches
    Match,
}

/// Token ids of one text and the end offset of each of its lines.
#[derive(Default)]
pub(crate) struct Tokens {
    pub(crate) ids: Vec<u32>,
    pub(crate) line_ends: Vec<usize>,
    /// tokens read (the length of `ids` unless `skip_ids`)
    n: usize,
    /// count the tokens without keeping their ids (only the tally is asked for)
    skip_ids: bool,
    tally_mode: Tally,
    tally: Vec<i32>,
    matched: usize,
}

impl Tokens {
    /// Keep `id` (and tally it).
    #[inline(always)]
    fn push(&mut self, id: u32) {
        if !self.skip_ids {
            self.ids.push(id);
        }
        self.n += 1;
        match self.tally_mode {
            Tally::Off => {}
            Tally::Count => self.tally[id as usize] += 1,
            Tally::Match => {
                let c = &mut self.tally[id as usize];
                let hit = i32::from(*c > 0);
                *c -= hit;
                self.matched += hit as usize;
            }
        }
    }

    /// Count the tokens of the next text (of `n_bytes` bytes, so at most `n_bytes / 2 + 1` distinct
    /// tokens: each is followed by a separator or the end) into a zeroed tally.
    fn tally_counts(&mut self, n_bytes: usize) {
        self.tally_mode = Tally::Count;
        self.tally.clear();
        self.tally.resize(n_bytes / 2 + 2, 0);
    }

    /// Match the tokens of the next text against the first `n_hyp` counts of `counts` (ids from `n_hyp`
    /// on are outside the hypothesis).
    fn tally_matches(&mut self, counts: &[i32], n_hyp: usize) {
        self.tally_mode = Tally::Match;
        self.tally.clear();
        self.tally.extend_from_slice(&counts[..n_hyp]);
        self.tally.push(0);
        self.matched = 0;
    }

    /// rouge-score's tokens of `text` (lines split at '\n'), 64 bytes at a time: separators are skipped
    /// by mask, and each run of `[a-zA-Z0-9]` of at most 16 bytes that ends inside the 64 is looked up as
    /// one key, lowercased in the integer; a run that reaches the end of the 64 starts the next block;
    /// longer runs and runs that [`KELVIN`] or [`DOTTED_I`] join take [`Tokens::slow_word`].
    fn default_tokens(&mut self, text: &str, ids: &mut PairIds, word: &mut Vec<u8>) {
        self.ids.clear();
        self.line_ends.clear();
        self.n = 0;
        let bytes = text.as_bytes();
        let n = bytes.len();
        let mut i = 0;
        while i < n {
            let (words, special) = block_at(bytes, i);
            let stop = words | special;
            let mut p = 0; // position in the 64 bytes
            i = loop {
                let ahead = stop.checked_shr(p as u32).unwrap_or(0);
                if ahead == 0 {
                    break i + 64;
                }
                p += ahead.trailing_zeros() as usize;
                if (special >> p) & 1 != 0 {
                    if bytes[i + p] == b'\n' {
                        self.line_ends.push(self.n);
                        p += 1;
                        continue;
                    }
                    break self.slow_word(bytes, i + p, ids, word);
                }
                let len = (words >> p).trailing_ones() as usize;
                let end = p + len;
                if end == 64 {
                    // the run may go on past these 64 bytes
                    break if p == 0 {
                        self.slow_word(bytes, i, ids, word)
                    } else {
                        i + p
                    };
                }
                if len > 16 || ((special >> end) & 1 != 0 && bytes[i + end] != b'\n') {
                    break self.slow_word(bytes, i + p, ids, word);
                }
                let id = ids.key_id(token_key(bytes, i + p, len));
                if id != u32::MAX {
                    self.push(id);
                }
                p = end;
            };
        }
        self.line_ends.push(self.n);
    }

    /// The token at `i` by the byte rules (a run of 16 bytes or more, or one that [`KELVIN`] or
    /// [`DOTTED_I`] joins); returns where scanning goes on. A special byte that starts neither character
    /// is a separator.
    fn slow_word(
        &mut self,
        bytes: &[u8],
        mut i: usize,
        ids: &mut PairIds,
        word: &mut Vec<u8>,
    ) -> usize {
        word.clear();
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii_alphanumeric() {
                word.push(b.to_ascii_lowercase());
                i += 1;
            } else if bytes[i..].starts_with(KELVIN) {
                word.push(b'k');
                i += KELVIN.len();
            } else if bytes[i..].starts_with(DOTTED_I) {
                // "i" and U+0307, which ends the token
                word.push(b'i');
                i += DOTTED_I.len();
                break;
            } else {
                break;
            }
        }
        if word.is_empty() {
            return i + 1;
        }
        let id = ids.id(word);
        if id != u32::MAX {
            self.push(id);
        }
        i
    }

    /// Tokens separated by ' ', lines by '\n' (already tokenized and stemmed in Python).
    fn pretokenized(&mut self, text: &str, ids: &mut PairIds) {
        self.ids.clear();
        self.line_ends.clear();
        self.n = 0;
        for line in text.split('\n') {
            for tok in line.split(' ').filter(|t| !t.is_empty()) {
                let id = ids.id(tok.as_bytes());
                self.push(id);
            }
            self.line_ends.push(self.n);
        }
    }

    /// Non-empty lines as token ranges.
    fn sentences(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        let mut start = 0;
        self.line_ends.iter().filter_map(move |&end| {
            let r = (start, end);
            start = end;
            (end > r.0).then_some(r)
        })
    }
}

/// Positions of each token of a column sequence, as bit masks: dense for the (at most 64) tokens that
/// occur more often than the sequence has 64-bit words, else built on the fly from a position list.
struct Columns {
    words: usize,
    len: usize,
    /// one-word sequences (at most 64 columns, nearly every sentence): the mask of each token
    single: Vec<u64>,
    start: Vec<u32>,
    pos: Vec<u32>,
    dense: Vec<Option<Box<[u64]>>>,
    scratch: Vec<u64>,
}

impl Columns {
    fn new() -> Self {
        Columns {
            words: 0,
            len: 0,
            single: Vec::new(),
            start: Vec::new(),
            pos: Vec::new(),
            dense: Vec::new(),
            scratch: Vec::new(),
        }
    }

    fn build(&mut self, seq: &[u32], n_local: usize) {
        self.len = seq.len();
        self.words = seq.len().div_ceil(64);
        if self.words <= 1 {
            self.single.clear();
            self.single.resize(n_local, 0);
            for (j, &t) in seq.iter().enumerate() {
                self.single[t as usize] |= 1 << j;
            }
            return;
        }
        self.start.clear();
        self.start.resize(n_local + 1, 0);
        for &t in seq {
            self.start[t as usize + 1] += 1;
        }
        for k in 0..n_local {
            self.start[k + 1] += self.start[k];
        }
        self.pos.clear();
        self.pos.resize(seq.len(), 0);
        let mut fill: Vec<u32> = self.start[..n_local].to_vec();
        for (j, &t) in seq.iter().enumerate() {
            self.pos[fill[t as usize] as usize] = j as u32;
            fill[t as usize] += 1;
        }
        self.dense.clear();
        self.dense.resize(n_local, None);
        for t in 0..n_local {
            let (a, b) = (self.start[t] as usize, self.start[t + 1] as usize);
            if b - a > self.words {
                let mut m = vec![0u64; self.words].into_boxed_slice();
                for &j in &self.pos[a..b] {
                    m[j as usize / 64] |= 1 << (j % 64);
                }
                self.dense[t] = Some(m);
            }
        }
        self.scratch.clear();
        self.scratch.resize(self.words, 0);
    }

    /// One row of the recurrence for row token `t`: `U = V & M[t]; V = (V + U) | (V - U)`.
    fn step(&mut self, v: &mut [u64], t: u32) {
        let t = t as usize;
        if self.words <= 1 {
            if let (Some(&m), Some(x)) = (self.single.get(t), v.first_mut()) {
                let u = *x & m;
                *x = x.wrapping_add(u) | (*x - u);
            }
            return;
        }
        if t >= self.dense.len() {
            return;
        }
        let (a, b) = (self.start[t] as usize, self.start[t + 1] as usize);
        if a == b {
            return; // no column has this token: the row equals the one above
        }
        let sparse = self.dense[t].is_none();
        if sparse {
            for &j in &self.pos[a..b] {
                self.scratch[j as usize / 64] |= 1 << (j % 64);
            }
        }
        let mask: &[u64] = match &self.dense[t] {
            Some(m) => m,
            None => &self.scratch,
        };
        let (mut carry, mut borrow) = (false, false);
        for (w, &m) in v.iter_mut().zip(mask) {
            let x = *w;
            let u = x & m;
            let (s1, c1) = x.overflowing_add(u);
            let (s2, c2) = s1.overflowing_add(u64::from(carry));
            let (d1, b1) = x.overflowing_sub(u);
            let (d2, b2) = d1.overflowing_sub(u64::from(borrow));
            carry = c1 | c2;
            borrow = b1 | b2;
            *w = s2 | d2;
        }
        if sparse {
            for &j in &self.pos[a..b] {
                self.scratch[j as usize / 64] = 0;
            }
        }
    }
}

/// LCS length of the first `j` columns in row `v`: the zero bits below `j`.
fn prefix_lcs(v: &[u64], j: usize) -> usize {
    let full = j / 64;
    let mut ones: usize = v[..full].iter().map(|w| w.count_ones() as usize).sum();
    let rest = j % 64;
    if rest > 0 {
        ones += (v[full] & ((1u64 << rest) - 1)).count_ones() as usize;
    }
    j - ones
}

/// Per-thread buffers for counting pairs.
pub(crate) struct PairCounter {
    types: Vec<RougeType>,
    pretokenized: bool,
    /// rouge1 is asked for: unigrams are counted while the texts are read
    tally_unigrams: bool,
    ids: PairIds,
    word: Vec<u8>,
    hyp: Tokens,
    reference: Tokens,
    h: Vec<u32>,
    r: Vec<u32>,
    counts: Vec<i32>,
    grid: Vec<i32>,
    code_table: Vec<(u64, i32)>,
    cols: Columns,
    v: Vec<u64>,
    rows: Vec<u64>,
    checkpoints: Vec<u64>,
    union: Vec<bool>,
    /// stored-row budget of the rougeLsum read-back (a field so that tests can force checkpoints)
    full_table_words: usize,
}

impl PairCounter {
    pub(crate) fn new(types: &[RougeType], stem: bool, pretokenized: bool) -> Self {
        // rouge1 alone needs the tally and the token counts, not the ids
        let tokens = || Tokens {
            skip_ids: types.iter().all(|&t| t == RougeType::Ngram(1)),
            ..Tokens::default()
        };
        PairCounter {
            types: types.to_vec(),
            pretokenized,
            tally_unigrams: types.contains(&RougeType::Ngram(1)),
            ids: PairIds::new(stem),
            word: Vec::new(),
            hyp: tokens(),
            reference: tokens(),
            h: Vec::new(),
            r: Vec::new(),
            counts: Vec::new(),
            grid: Vec::new(),
            code_table: Vec::new(),
            cols: Columns::new(),
            v: Vec::new(),
            rows: Vec::new(),
            checkpoints: Vec::new(),
            union: Vec::new(),
            full_table_words: FULL_TABLE_WORDS,
        }
    }

    /// Width of one pair's output: three integers per type.
    #[cfg(test)]
    pub(crate) fn width(&self) -> usize {
        3 * self.types.len()
    }

    fn tokenize_into(&mut self, text: &str, hyp: bool) {
        let mut tokens = std::mem::take(if hyp {
            &mut self.hyp
        } else {
            &mut self.reference
        });
        if self.pretokenized {
            tokens.pretokenized(text, &mut self.ids);
        } else {
            tokens.default_tokens(text, &mut self.ids, &mut self.word);
        }
        if hyp {
            self.hyp = tokens;
        } else {
            self.reference = tokens;
        }
    }

    /// Set the hypothesis of the next pairs (the thread's stem cache may be dropped here, before any id of
    /// it is kept).
    pub(crate) fn set_hypothesis(&mut self, text: &str) {
        self.ids.begin();
        if self.tally_unigrams {
            self.hyp.tally_counts(text.len());
        }
        self.tokenize_into(text, true);
        self.ids.end_hypothesis();
        self.h.clear();
        self.h.extend_from_slice(&self.hyp.ids);
    }

    /// Counts of the current hypothesis against `reference`, three integers per type into `out`.
    pub(crate) fn count(&mut self, reference: &str, out: &mut [i64]) {
        if self.tally_unigrams {
            let n_hyp = self.ids.n_hyp() as usize;
            self.reference.tally_matches(&self.hyp.tally, n_hyp);
        }
        self.tokenize_into(reference, false);
        self.r.clear();
        self.r.extend_from_slice(&self.reference.ids);
        // ids: the hypothesis's 0..n_hyp, and n_hyp for reference tokens outside it
        let n_hyp = self.ids.n_hyp() as usize;
        let n_local = n_hyp + 1;
        for k in 0..self.types.len() {
            let t = self.types[k];
            let (hc, rc) = (self.hyp.n, self.reference.n);
            let cell = &mut out[3 * k..3 * k + 3];
            match t {
                RougeType::Ngram(1) => {
                    cell[0] = self.reference.matched as i64;
                    cell[1] = hc as i64;
                    cell[2] = rc as i64;
                }
                RougeType::Ngram(n) => {
                    cell[0] = self.ngram_matches(n, n_hyp) as i64;
                    cell[1] = (hc + 1).saturating_sub(n) as i64;
                    cell[2] = (rc + 1).saturating_sub(n) as i64;
                }
                RougeType::Lcs => {
                    cell[0] = self.lcs_length(n_local) as i64;
                    cell[1] = hc as i64;
                    cell[2] = rc as i64;
                }
                RougeType::SummaryLcs => {
                    cell[0] = self.summary_hits(n_local) as i64;
                    cell[1] = hc as i64;
                    cell[2] = rc as i64;
                }
            }
        }
        self.ids.end_reference();
    }

    /// Clipped n-gram matches (n >= 2; unigrams are tallied while the texts are read): over the
    /// hypothesis's n-grams, min(count in the hypothesis, count in the reference). The hypothesis's ids
    /// are `0..n_hyp` (given first), so a reference n-gram holding a larger id cannot match and is skipped.
    fn ngram_matches(&mut self, n: usize, n_hyp: usize) -> usize {
        if self.h.len() < n || self.r.len() < n {
            return 0;
        }
        if n == 2 && n_hyp * n_hyp <= GRID_CELLS {
            // a count per (first, second) id, every cell back to zero when done
            let cells = n_hyp * n_hyp;
            if self.grid.len() < cells {
                self.grid.resize(cells, 0);
            }
            let grid = &mut self.grid[..cells];
            let cell = |w: &[u32]| w[0] as usize * n_hyp + w[1] as usize;
            for w in self.h.windows(2) {
                grid[cell(w)] += 1;
            }
            let mut matches = 0;
            for w in self.r.windows(2) {
                if (w[0] as usize) < n_hyp && (w[1] as usize) < n_hyp {
                    let c = &mut grid[cell(w)];
                    let hit = i32::from(*c > 0);
                    *c -= hit;
                    matches += hit as usize;
                }
            }
            for w in self.h.windows(2) {
                grid[cell(w)] = 0;
            }
            return matches;
        }
        let base = n_hyp.max(2) as u64;
        if base.checked_pow(n as u32).is_none() {
            return ngram_matches_slices(&self.h, &self.r, n);
        }
        // hypothesis n-gram codes counted in a small open-addressing table, then clipped by the reference's
        let size = (2 * self.h.len()).next_power_of_two().max(16);
        let table = &mut self.code_table;
        table.clear();
        table.resize(size, (u64::MAX, 0));
        let mask = size - 1;
        let slot = |table: &[(u64, i32)], code: u64| {
            let mut i = (code.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 32) as usize & mask;
            while table[i].0 != code && table[i].0 != u64::MAX {
                i = (i + 1) & mask;
            }
            i
        };
        let code_of = |w: &[u32]| w.iter().fold(0u64, |acc, &t| acc * base + u64::from(t));
        for w in self.h.windows(n) {
            let code = code_of(w);
            let i = slot(table, code);
            table[i] = (code, table[i].1 + 1);
        }
        let mut matches = 0;
        for w in self.r.windows(n) {
            if w.iter().any(|&t| t as usize >= n_hyp) {
                continue;
            }
            let i = slot(table, code_of(w));
            if table[i].1 > 0 {
                table[i].1 -= 1;
                matches += 1;
            }
        }
        matches
    }

    fn lcs_length(&mut self, n_local: usize) -> usize {
        if self.h.is_empty() || self.r.is_empty() {
            return 0;
        }
        // bits over the shorter sequence
        let (rows, cols) = if self.h.len() >= self.r.len() {
            (&self.h, &self.r)
        } else {
            (&self.r, &self.h)
        };
        self.cols.build(cols, n_local);
        self.v.clear();
        self.v.resize(self.cols.words, u64::MAX);
        for &t in rows.iter() {
            self.cols.step(&mut self.v, t);
        }
        prefix_lcs(&self.v, cols.len())
    }

    fn summary_hits(&mut self, n_local: usize) -> usize {
        if self.h.is_empty() || self.r.is_empty() {
            return 0;
        }
        self.union.clear();
        self.union.resize(self.r.len(), false);
        let hyp_sents: Vec<(usize, usize)> = self.hyp.sentences().collect();
        let ref_sents: Vec<(usize, usize)> = self.reference.sentences().collect();
        let h = std::mem::take(&mut self.h);
        let r = std::mem::take(&mut self.r);
        for &(ha, hb) in &hyp_sents {
            self.cols.build(&h[ha..hb], n_local);
            for &(ra, rb) in &ref_sents {
                self.mark_lcs(&r[ra..rb], &h[ha..hb], ra);
            }
        }
        // hits: per token, min(union occurrences, hypothesis occurrences)
        self.counts.clear();
        self.counts.resize(n_local, 0);
        for &t in &h {
            self.counts[t as usize] += 1;
        }
        let mut hits = 0;
        for (p, &t) in r.iter().enumerate() {
            if self.union[p] && self.counts[t as usize] > 0 {
                self.counts[t as usize] -= 1;
                hits += 1;
            }
        }
        self.h = h;
        self.r = r;
        hits
    }

    /// Marks in `union` (offset `offset`) the positions of `row_seq` on rouge-score's LCS with the
    /// column sequence in `self.cols` (`col_seq`).
    fn mark_lcs(&mut self, row_seq: &[u32], col_seq: &[u32], offset: usize) {
        let (m, n, words) = (row_seq.len(), col_seq.len(), self.cols.words);
        if m == 0 || n == 0 {
            return;
        }
        let block = if (m + 1) * words <= self.full_table_words {
            m
        } else {
            (m as f64).sqrt().ceil() as usize
        };
        let n_blocks = m.div_ceil(block);
        // checkpoint rows 0, block, 2 * block, ... (only row 0 when there is one block)
        self.checkpoints.clear();
        self.checkpoints.resize(words, u64::MAX);
        if n_blocks > 1 {
            self.v.clear();
            self.v.resize(words, u64::MAX);
            for (i, &t) in row_seq.iter().enumerate() {
                self.cols.step(&mut self.v, t);
                if (i + 1) % block == 0 && i + 1 < m {
                    self.checkpoints.extend_from_slice(&self.v);
                }
            }
        }
        let (mut i, mut j) = (m, n);
        let mut first_row = usize::MAX; // row number of rows[0]
        while i > 0 && j > 0 {
            if first_row == usize::MAX || i - 1 < first_row {
                first_row = ((i - 1) / block) * block;
                self.fill_block(row_seq, first_row, block.min(m - first_row), block, words);
            }
            if row_seq[i - 1] == col_seq[j - 1] {
                self.union[offset + i - 1] = true;
                i -= 1;
                j -= 1;
            } else {
                let here = &self.rows[(i - first_row) * words..(i - first_row + 1) * words];
                let above = &self.rows[(i - 1 - first_row) * words..(i - first_row) * words];
                if prefix_lcs(here, j - 1) > prefix_lcs(above, j) {
                    j -= 1;
                } else {
                    i -= 1;
                }
            }
        }
    }

    /// Rows `first ..= first + len` of the table into `self.rows`, from the checkpoint row `first`
    /// (checkpoints are every `block` rows).
    fn fill_block(
        &mut self,
        row_seq: &[u32],
        first: usize,
        len: usize,
        block: usize,
        words: usize,
    ) {
        let at = (first / block) * words;
        self.rows.clear();
        self.rows
            .extend_from_slice(&self.checkpoints[at..at + words]);
        self.v.clear();
        self.v.extend_from_slice(&self.checkpoints[at..at + words]);
        for &t in &row_seq[first..first + len] {
            self.cols.step(&mut self.v, t);
            self.rows.extend_from_slice(&self.v);
        }
    }
}

/// Clipped matches of two sorted lists: sum over values of min(count in a, count in b).
fn sorted_matches<T: Ord>(a: &[T], b: &[T]) -> usize {
    let (mut i, mut j, mut matches) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                matches += 1;
                i += 1;
                j += 1;
            }
        }
    }
    matches
}

/// [`sorted_matches`] on n-gram slices (when packed codes would overflow 64 bits).
fn ngram_matches_slices(h: &[u32], r: &[u32], n: usize) -> usize {
    let mut a: Vec<&[u32]> = h.windows(n).collect();
    let mut b: Vec<&[u32]> = r.windows(n).collect();
    a.sort_unstable();
    b.sort_unstable();
    sorted_matches(&a, &b)
}

/// rouge-score's precision, recall and F of `(matches, hyp_count, ref_count)`: rougeN (`ngram`) divides
/// by `max(count, 1)`, rougeL and rougeLsum give zeros when either text has no token; F = 2 * P * R /
/// (P + R), 0 when P + R is 0, evaluated in that order (correctly rounded float64 operations, as
/// Python's and numpy's, so the same values bit for bit).
pub(crate) fn prf(counts: &[i64], ngram: bool) -> [f64; 3] {
    let (matches, hyp, reference) = (counts[0], counts[1], counts[2]);
    if !ngram && (hyp == 0 || reference == 0) {
        return [0.0; 3];
    }
    let m = matches as f64;
    let p = m / hyp.max(1) as f64;
    let r = m / reference.max(1) as f64;
    let total = p + r;
    [
        p,
        r,
        if total > 0.0 {
            2.0 * p * r / total
        } else {
            0.0
        },
    ]
}

/// Whether each type divides by `max(count, 1)` (rougeN) for [`prf`].
fn ngram_flags(types: &[RougeType]) -> Vec<bool> {
    types
        .iter()
        .map(|t| matches!(t, RougeType::Ngram(_)))
        .collect()
}

/// Hypotheses and their reference streams (None: a missing reference), and what to count of them.
pub struct Pairs<'a> {
    pub hyps: &'a [&'a str],
    pub refs: &'a [Vec<Option<&'a str>>],
    pub types: &'a [RougeType],
    pub stem: bool,
    pub pretokenized: bool,
}

impl Pairs<'_> {
    fn counter(&self) -> PairCounter {
        PairCounter::new(self.types, self.stem, self.pretokenized)
    }

    /// Counts of every hypothesis against each of its references into `out` (`[S, K, 3 * types]`,
    /// row-major; zero where a reference is None), on `threads` threads (0: the default policy of
    /// [`crate::par`]).
    pub fn counts(&self, threads: usize, out: &mut [i64]) {
        let width = 3 * self.types.len();
        crate::par::fill_rows(
            out,
            self.refs.len() * width,
            threads,
            || self.counter(),
            |counter, i, cells| {
                counter.set_hypothesis(self.hyps[i]);
                for (k, stream) in self.refs.iter().enumerate() {
                    if let Some(reference) = stream[i] {
                        counter.count(reference, &mut cells[k * width..(k + 1) * width]);
                    }
                }
                true
            },
        );
    }

    /// Per hypothesis and type, the counts of its reference with the best F (the first on ties:
    /// rouge-score's `score_multi`) into `counts` and their [`prf`] into `values` (both `[S, 3 *
    /// types]`, row-major, zero-filled by the caller), on `threads` threads as [`Pairs::counts`]: each F
    /// is computed once, while the references are compared. A segment without any reference keeps zeros
    /// (the [`prf`] of zero counts).
    pub fn best_counts(&self, threads: usize, counts: &mut [i64], values: &mut [f64]) {
        let width = 3 * self.types.len();
        assert!(
            counts.len() == values.len() && counts.len() == self.hyps.len() * width,
            "output size"
        );
        let ngram = ngram_flags(self.types);
        let unit = WORK_UNIT * width;
        // the units of both outputs side by side, taken by the threads in turn
        let mut units: Vec<_> = counts
            .chunks_mut(unit)
            .zip(values.chunks_mut(unit))
            .collect();
        let n_units = units.len();
        let threads = pick_threads(threads, self.hyps.len(), 2000, n_units);
        for_each_unit(
            &mut units,
            1,
            threads,
            || {
                (
                    self.counter(),
                    vec![0i64; width],
                    vec![0f64; self.types.len()],
                )
            },
            |(counter, cells, best_f), u, unit| {
                let (counts, values) = &mut unit[0];
                let rows = counts
                    .chunks_exact_mut(width)
                    .zip(values.chunks_exact_mut(width));
                for (j, (row, value_row)) in rows.enumerate() {
                    let i = u * WORK_UNIT + j;
                    counter.set_hypothesis(self.hyps[i]);
                    best_f.fill(f64::NEG_INFINITY);
                    for reference in self.refs.iter().filter_map(|stream| stream[i]) {
                        counter.count(reference, cells);
                        for (k, &is_ngram) in ngram.iter().enumerate() {
                            let v = prf(&cells[3 * k..3 * k + 3], is_ngram);
                            if v[2] > best_f[k] {
                                best_f[k] = v[2];
                                row[3 * k..3 * k + 3].copy_from_slice(&cells[3 * k..3 * k + 3]);
                                value_row[3 * k..3 * k + 3].copy_from_slice(&v);
                            }
                        }
                    }
                }
            },
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counts(hyp: &str, reference: &str, types: &[RougeType], stem: bool) -> Vec<i64> {
        counts_with_budget(hyp, reference, types, stem, FULL_TABLE_WORDS)
    }

    fn counts_with_budget(
        hyp: &str,
        reference: &str,
        types: &[RougeType],
        stem: bool,
        budget: usize,
    ) -> Vec<i64> {
        let mut c = PairCounter::new(types, stem, false);
        c.full_table_words = budget;
        let mut out = vec![0; c.width()];
        c.set_hypothesis(hyp);
        c.count(reference, &mut out);
        out
    }

    #[test]
    fn ngram_and_lcs_counts() {
        let t = [
            RougeType::Ngram(1),
            RougeType::Ngram(2),
            RougeType::Lcs,
            RougeType::SummaryLcs,
        ];
        let out = counts("the cat sat on the mat", "The cat, the mat!", &t, false);
        // unigrams: the x2, cat, mat -> 4 of 6 / 4; bigrams: "the cat", "the mat" -> 2 of 5 / 3
        assert_eq!(&out[..6], &[4, 6, 4, 2, 5, 3]);
        assert_eq!(&out[6..9], &[4, 6, 4]);
        assert_eq!(&out[9..12], &[4, 6, 4]);
    }

    #[test]
    fn kelvin_and_dotted_i() {
        let mut v = PairIds::new(false);
        let mut t = Tokens::default();
        let mut w = Vec::new();
        t.default_tokens("\u{212A}ey \u{130}stanbul x\ny", &mut v, &mut w);
        assert_eq!(t.ids.len(), 5); // key, i, stanbul, x, y
        assert_eq!(t.line_ends, vec![4, 5]);
    }

    /// A small deterministic generator for the tests (xorshift64*).
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    #[test]
    fn classify_equals_its_byte_definition() {
        // the bytes that matter (range edges, the newline, the UTF-8 bytes of U+212A and U+0130) and any
        let edges = [
            b'@', b'A', b'Z', b'[', b'`', b'a', b'z', b'{', b'/', b'0', b'9', b':', b'\n', 0, 0x10,
            0x19, 0x7F, 0x80, 0x84, 0xAA, 0xB0, 0xC4, 0xE2, 0xFF, 0xC1, 0xDA, 0xE1, 0xFA,
        ];
        let mut rng = Rng(7);
        for round in 0..200_000 {
            let mut b = [0u8; 16];
            for x in b.iter_mut() {
                *x = if round % 2 == 0 {
                    edges[rng.below(edges.len())]
                } else {
                    rng.next() as u8
                };
            }
            assert_eq!(classify(&b), classify_bytes(&b), "{b:?}");
        }
        for v in 0..=255u8 {
            let b = [v; 16];
            assert_eq!(classify(&b), classify_bytes(&b), "{v}");
        }
    }

    /// rouge-score's rule, written plainly: lowercase (Unicode), then runs of `[a-z0-9]`, per line.
    fn plain_tokens(text: &str) -> (Vec<String>, Vec<usize>) {
        let (mut tokens, mut ends) = (Vec::new(), Vec::new());
        for line in text.split('\n') {
            let lower = line.to_lowercase();
            tokens.extend(
                lower
                    .split(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit()))
                    .filter(|t| !t.is_empty())
                    .map(str::to_string),
            );
            ends.push(tokens.len());
        }
        (tokens, ends)
    }

    #[test]
    fn default_tokens_equal_the_plain_rule() {
        let pieces = [
            "a",
            "b",
            "Q",
            "z",
            "Z",
            "0",
            "9",
            " ",
            " ",
            "\n",
            ".",
            "-",
            "\u{212A}",
            "\u{130}",
            "\u{10D}",
            "\u{11B}",
            "\u{2014}",
            "\u{201C}",
            "\u{2028}",
            "\u{0}",
            "\u{7F}",
            "\u{E9}",
            "\u{416}",
            "\u{65E5}",
            "abcdefghijklmn",
            "ABCDEFGHIJKLMNOP",
            "0123456789abcdefgh",
        ];
        let mut rng = Rng(11);
        let mut ids = PairIds::new(false);
        let mut tokens = Tokens::default();
        let mut word = Vec::new();
        for round in 0..20_000 {
            let mut text = String::new();
            for _ in 0..rng.below(200) {
                // long runs of one kind at every offset, and mixed text
                let piece = if round % 3 == 0 {
                    rng.below(4)
                } else {
                    rng.below(pieces.len())
                };
                text.push_str(pieces[piece]);
            }
            ids.begin();
            tokens.default_tokens(&text, &mut ids, &mut word);
            let (expected, ends) = plain_tokens(&text);
            // ids are given in order of first occurrence
            let mut first: Vec<&str> = Vec::new();
            let want: Vec<u32> = expected
                .iter()
                .map(|t| match first.iter().position(|f| f == t) {
                    Some(k) => k as u32,
                    None => {
                        first.push(t);
                        first.len() as u32 - 1
                    }
                })
                .collect();
            assert_eq!(tokens.ids, want, "{text:?}");
            assert_eq!(tokens.line_ends, ends, "{text:?}");
        }
    }

    #[test]
    fn tallied_unigrams_equal_sorted_matches() {
        // rouge1 is tallied while the texts are read; the definition: clipped matches of the two id
        // sequences (equal tokens, or equal stems, have equal ids within a pair)
        let words = [
            "a",
            "cat",
            "Cats",
            "running",
            "runs",
            "the",
            "The",
            "x9",
            "\u{212A}ey",
            "\u{130}",
            "abcdefghijklmnopqrstu",
            "caresses",
            "ponies",
        ];
        let seps = [" ", "  ", ", ", "\n", "-", "\u{2014}"];
        let mut rng = Rng(5);
        let text = |rng: &mut Rng| {
            let mut t = String::new();
            for _ in 0..rng.below(40) {
                t.push_str(words[rng.below(words.len())]);
                t.push_str(seps[rng.below(seps.len())]);
            }
            t
        };
        for round in 0..3000 {
            let (stem, pretokenized) = (round % 3 == 1, round % 3 == 2);
            let types = [RougeType::Ngram(1), RougeType::Ngram(2)];
            let mut c = PairCounter::new(&types, stem, pretokenized);
            // rouge1 alone keeps no ids: the same counts
            let mut alone = PairCounter::new(&types[..1], stem, pretokenized);
            let hyp = text(&mut rng);
            let hyp = if pretokenized {
                hyp.replace(|ch: char| !ch.is_ascii_alphanumeric() && ch != '\n', " ")
            } else {
                hyp
            };
            c.set_hypothesis(&hyp);
            alone.set_hypothesis(&hyp);
            for _ in 0..3 {
                let reference = text(&mut rng);
                let reference = if pretokenized {
                    reference.replace(|ch: char| !ch.is_ascii_alphanumeric() && ch != '\n', " ")
                } else {
                    reference
                };
                let mut out = vec![0; c.width()];
                c.count(&reference, &mut out);
                let want = ngram_matches_slices(&c.h, &c.r, 1);
                assert_eq!(out[0] as usize, want, "{hyp:?} / {reference:?}");
                assert_eq!(out[1..3], [c.h.len() as i64, c.r.len() as i64]);
                assert_eq!(out[3] as usize, ngram_matches_slices(&c.h, &c.r, 2));
                let mut rouge1 = vec![0; alone.width()];
                alone.count(&reference, &mut rouge1);
                assert_eq!(rouge1, out[..3]);
                assert!(alone.h.is_empty() && alone.r.is_empty());
            }
        }
    }

    #[test]
    fn reference_tokens_outside_the_hypothesis_share_one_id() {
        let mut ids = PairIds::new(false);
        let (mut hyp, mut reference) = (Tokens::default(), Tokens::default());
        let mut word = Vec::new();
        ids.begin();
        hyp.default_tokens("the cat sat", &mut ids, &mut word);
        ids.end_hypothesis();
        reference.default_tokens(
            "a dog sat on the thisisaverylongtokenindeed",
            &mut ids,
            &mut word,
        );
        assert_eq!(hyp.ids, [0, 1, 2]);
        assert_eq!(reference.ids, [3, 3, 2, 3, 0, 3]);
        ids.end_reference();
        reference.default_tokens("cat", &mut ids, &mut word);
        assert_eq!(reference.ids, [1]);
    }

    #[test]
    fn long_pair_uses_checkpoints() {
        // one sentence each, long enough for the checkpointed read-back; compare with the full table
        let words: Vec<String> = (0..3000).map(|i| format!("w{}", (i * 7919) % 97)).collect();
        let hyp = words[..2900].join(" ");
        let reference = words[50..].join(" ");
        let t = [RougeType::Lcs, RougeType::SummaryLcs];
        let full = counts(&hyp, &reference, &t, false);
        assert!(full[0] > 0 && full[3] > 0 && full[3] <= full[0]);
        for budget in [1, 64, 1000] {
            assert_eq!(
                counts_with_budget(&hyp, &reference, &t, false, budget),
                full
            );
        }
    }

    #[test]
    fn windows_at_every_position_of_every_length() {
        // at16 reads in place or shifts the text's last 16 bytes: the same as a zero-padded copy
        let text: Vec<u8> = b"Ab9 \nxy\xc4\xb0z\xe2\x84\xaaQ-7ab cd\nEF gh0123456789".to_vec();
        for n in 0..text.len() {
            let bytes = &text[..n];
            for i in 0..n + 20 {
                let mut padded = [0u8; 16];
                for (k, b) in padded.iter_mut().enumerate() {
                    *b = bytes.get(i + k).copied().unwrap_or(0);
                }
                if i < n {
                    assert_eq!(
                        load_u128(bytes, i),
                        u128::from_le_bytes(padded),
                        "n {n} i {i}"
                    );
                }
                let (got, want) = (chunk_at(bytes, i), classify_bytes(&padded));
                assert_eq!(
                    (got.word, got.special),
                    (want.word, want.special),
                    "n {n} i {i}"
                );
            }
        }
    }

    #[test]
    fn best_counts_keep_the_first_best_reference_and_its_values() {
        let types = [RougeType::Ngram(1), RougeType::Lcs];
        let hyps = ["the cat sat", "a b c", "x y", ""];
        let refs = [
            vec![Some("the cat"), Some("a b c d"), Some("y x"), Some("q")],
            vec![Some("cat sat the"), None, Some("x y"), None],
            vec![Some("the cat"), Some("a b c d"), None, None],
        ];
        let pairs = Pairs {
            hyps: &hyps,
            refs: &refs,
            types: &types,
            stem: false,
            pretokenized: false,
        };
        let width = 6;
        let mut all = vec![0i64; hyps.len() * refs.len() * width];
        pairs.counts(1, &mut all);
        for threads in [1, 2, 3] {
            let mut counts = vec![0i64; hyps.len() * width];
            let mut values = vec![0f64; counts.len()];
            pairs.best_counts(threads, &mut counts, &mut values);
            for i in 0..hyps.len() {
                for (k, &ngram) in [true, false].iter().enumerate() {
                    // the first reference of the highest F, by the same prf
                    let mut best: Option<(f64, usize)> = None;
                    for (r, stream) in refs.iter().enumerate() {
                        if stream[i].is_some() {
                            let at = (i * refs.len() + r) * width + 3 * k;
                            let f = prf(&all[at..at + 3], ngram)[2];
                            if best.is_none_or(|(b, _)| f > b) {
                                best = Some((f, at));
                            }
                        }
                    }
                    let (_, at) = best.unwrap();
                    let got = &counts[i * width + 3 * k..i * width + 3 * k + 3];
                    assert_eq!(got, &all[at..at + 3], "segment {i} type {k}");
                    let v = &values[i * width + 3 * k..i * width + 3 * k + 3];
                    assert_eq!(v, prf(got, ngram), "segment {i} type {k}");
                }
            }
        }
    }
}
