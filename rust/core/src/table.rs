//! The n-gram table of one segment: open addressing, reused for every order of every segment without
//! clearing (a slot belongs to the current use only if its generation matches), with the counts that
//! clipping needs stored in the slot itself.

/// Marks "no slot": an n-gram that cannot match (absent from the hypothesis, or its prefix never matched).
pub(crate) const NONE: u32 = u32::MAX;

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline]
pub(crate) fn mix(mut h: u64) -> u64 {
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^= h >> 32;
    h
}

/// Hash of a byte string. Reads 8 bytes at a time, the last (partial) word as an overlapping load, so
/// no byte-wise loop or copy; the length is mixed in, so a word and its zero-padded form differ.
#[inline]
pub(crate) fn hash_bytes(b: &[u8]) -> u64 {
    let n = b.len();
    let word = |i: usize| u64::from_le_bytes(b[i..i + 8].try_into().unwrap());
    let mut h = (n as u64).wrapping_mul(SEED);
    if n >= 8 {
        let mut i = 0;
        while i + 8 < n {
            h = (h.rotate_left(5) ^ word(i)).wrapping_mul(SEED);
            i += 8;
        }
        h = (h.rotate_left(5) ^ word(n - 8)).wrapping_mul(SEED);
    } else if n >= 4 {
        let lo = u32::from_le_bytes(b[..4].try_into().unwrap()) as u64;
        let hi = u32::from_le_bytes(b[n - 4..].try_into().unwrap()) as u64;
        h = (h.rotate_left(5) ^ (lo | (hi << 32))).wrapping_mul(SEED);
    } else if n > 0 {
        let v = b[0] as u64 | (b[n / 2] as u64) << 8 | (b[n - 1] as u64) << 16;
        h = (h.rotate_left(5) ^ v).wrapping_mul(SEED);
    }
    mix(h)
}

/// Words of up to this many bytes are their own key ([`WordKey`]).
pub(crate) const MAX_EXACT_WORD: usize = 15;

/// Top byte of a [`WordKey`]'s second half for a word longer than [`MAX_EXACT_WORD`] bytes (an exact key
/// holds the length there, at most 15).
const HASHED_WORD: u64 = 0xFF << 56;

/// Key of a word (or of an n-gram) in the table, two 64-bit halves. A word of up to 15 bytes is its own
/// key: its bytes, zero-padded, in the 15 low bytes and its length in the top byte, so equal keys are equal
/// words and no byte comparison is needed (most words, also of a long-tail vocabulary; only a word of 16
/// bytes or more is hashed, keyed by its hash with the top byte 0xFF, never an exact key, and compared
/// byte by byte). An integer key (a token id, an n-gram pair) has a second half of 0.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub(crate) struct WordKey {
    lo: u64,
    hi: u64,
}

impl WordKey {
    #[inline(always)]
    pub(crate) fn of_int(key: u64) -> WordKey {
        WordKey { lo: key, hi: 0 }
    }

    /// Whether equal keys mean equal words: not a hashed long word.
    #[inline(always)]
    pub(crate) fn exact(self) -> bool {
        self.hi & HASHED_WORD != HASHED_WORD
    }

    /// One 64-bit value depending on both halves, for the first probe position (an integer key is itself;
    /// so is a word of up to 7 bytes: its bytes and its length in the top byte).
    #[inline(always)]
    pub(crate) fn folded(self) -> u64 {
        self.lo ^ self.hi
    }
}

/// [`WordKey`] of a word.
#[inline]
pub(crate) fn word_key(b: &[u8]) -> WordKey {
    let n = b.len();
    if n > MAX_EXACT_WORD {
        return WordKey {
            lo: hash_bytes(b),
            hi: HASHED_WORD,
        };
    }
    let mut padded = [0u8; 16];
    padded[..n].copy_from_slice(b);
    exact_key(u128::from_le_bytes(padded), n)
}

/// The exact key of a word of `n <= 15` bytes, which are the low bytes of `v` (whatever its other bytes):
/// a mask from a table (no variable 128-bit shift) and the length.
#[inline(always)]
fn exact_key(v: u128, n: usize) -> WordKey {
    let v = (v & KEEP_BYTES[n & 15]) | (n as u128) << 120;
    WordKey {
        lo: v as u64,
        hi: (v >> 64) as u64,
    }
}

/// `KEEP_BYTES[n]`: the mask of the low `n` bytes of a `u128`.
static KEEP_BYTES: [u128; 16] = {
    let mut t = [0u128; 16];
    let mut n = 1;
    while n < 16 {
        t[n] = (1u128 << (8 * n)) - 1;
        n += 1;
    }
    t
};

/// [`word_key`] of the word `buf[start..end]`. A word of up to 15 bytes with sixteen bytes of `buf` from
/// its start (every word the 13a tokenizer writes: it pads its text) is keyed by one load and a mask, with
/// no branch on its length.
#[inline(always)]
pub(crate) fn word_key_at(buf: &[u8], start: usize, end: usize) -> WordKey {
    let n = end - start;
    if n <= MAX_EXACT_WORD {
        if let Some(bytes) = buf.get(start..start + 16) {
            return exact_key(u128::from_le_bytes(bytes.try_into().unwrap()), n);
        }
    }
    word_key(&buf[start..end])
}

/// Byte-string equality without a library call for short words (the common case): lengths first, then
/// two overlapping 8- or 4-byte loads.
#[inline]
pub(crate) fn same_bytes(a: &[u8], b: &[u8]) -> bool {
    let n = a.len();
    if n != b.len() {
        return false;
    }
    let w8 = |x: &[u8], i: usize| u64::from_le_bytes(x[i..i + 8].try_into().unwrap());
    let w4 = |x: &[u8], i: usize| u32::from_le_bytes(x[i..i + 4].try_into().unwrap());
    match n {
        0 => true,
        1..=3 => a[0] == b[0] && a[n / 2] == b[n / 2] && a[n - 1] == b[n - 1],
        4..=8 => w4(a, 0) == w4(b, 0) && w4(a, n - 4) == w4(b, n - 4),
        9..=16 => w8(a, 0) == w8(b, 0) && w8(a, n - 8) == w8(b, n - 8),
        _ => a == b,
    }
}

/// One distinct n-gram of the hypothesis.
#[derive(Clone, Copy, Default)]
struct Slot {
    /// the word's or n-gram's key
    key: WordKey,
    /// the slot is in use only if this equals the table's generation
    generation: u32,
    /// for words: index of the hypothesis token holding its bytes
    rep: u32,
    /// occurrences in the hypothesis
    hyp: u32,
    /// highest count in one reference so far
    max_ref: u32,
    /// count in the current reference, valid if `ref_stamp` names it
    cur_ref: u32,
    ref_stamp: u32,
}

/// Interns the hypothesis n-grams of one order and clips the references' counts against them. Invariant:
/// `mask < slots.len()` (the probe loops rely on it); call `start` before each use.
pub(crate) struct GramTable {
    slots: Vec<Slot>,
    mask: usize,
    /// 64 - log2(mask + 1): the product bits that pick a key's first slot
    shift: u32,
    generation: u32,
    /// clipped matches of the current use: sum over n-grams of min(hyp count, max reference count)
    pub(crate) correct: u64,
}

impl Default for GramTable {
    fn default() -> Self {
        GramTable {
            slots: vec![Slot::default()],
            mask: 0,
            shift: 63,
            generation: 0,
            correct: 0,
        }
    }
}

impl GramTable {
    /// Starts a new use for up to `n` distinct n-grams (all earlier slots become free).
    pub(crate) fn start(&mut self, n: usize) {
        let cap = (n.max(4) * 4).next_power_of_two();
        if self.slots.len() < cap {
            self.slots = vec![Slot::default(); cap];
            self.generation = 0;
        }
        if self.generation == u32::MAX {
            self.slots.iter_mut().for_each(|s| s.generation = 0);
            self.generation = 0;
        }
        self.generation += 1;
        self.mask = cap - 1;
        self.shift = 64 - cap.trailing_zeros();
        self.correct = 0;
    }

    /// First probe position of `key`: the top bits of its product with an odd constant (multiplicative
    /// hashing; they depend on every bit of the key).
    #[inline(always)]
    fn home(&self, key: WordKey) -> usize {
        (key.folded().wrapping_mul(SEED) >> self.shift) as usize & self.mask
    }

    /// Slot `i` of the current use (a probe position, `i <= mask`), without a bounds check in the probe
    /// loops: `start` keeps `slots.len() > mask`.
    #[inline(always)]
    fn slot(&self, i: usize) -> &Slot {
        assert!(i <= self.mask);
        debug_assert!(self.mask < self.slots.len());
        // SAFETY: i <= mask (asserted), and mask < slots.len(): `default` has 1 slot and mask 0, `start`
        // sets mask to cap - 1 after growing the slots to at least cap, and nothing shrinks them
        unsafe { self.slots.get_unchecked(i) }
    }

    #[inline(always)]
    fn slot_mut(&mut self, i: usize) -> &mut Slot {
        assert!(i <= self.mask);
        debug_assert!(self.mask < self.slots.len());
        // SAFETY: i <= mask < slots.len(), as in `slot`
        unsafe { self.slots.get_unchecked_mut(i) }
    }

    #[inline]
    fn new_slot(&mut self, i: usize, key: WordKey, rep: u32) -> u32 {
        *self.slot_mut(i) = Slot {
            key,
            generation: self.generation,
            rep,
            hyp: 1,
            max_ref: 0,
            cur_ref: 0,
            ref_stamp: NONE,
        };
        i as u32
    }

    /// Slot of a hypothesis n-gram given as a key, counting one occurrence.
    #[inline]
    pub(crate) fn add_hyp_key(&mut self, key: u64) -> u32 {
        let key = WordKey::of_int(key);
        let mut i = self.home(key);
        let generation = self.generation;
        loop {
            let s = self.slot_mut(i);
            if s.generation != generation {
                return self.new_slot(i, key, 0);
            }
            if s.key == key {
                s.hyp += 1;
                return i as u32;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Slot of a reference n-gram given as a key (NONE if the hypothesis lacks it), counting it for
    /// reference number `stamp`.
    #[inline]
    pub(crate) fn add_ref_key(&mut self, key: u64, stamp: u32) -> u32 {
        let key = WordKey::of_int(key);
        let mut i = self.home(key);
        loop {
            let s = self.slot(i);
            if s.generation != self.generation {
                return NONE;
            }
            if s.key == key {
                self.count_ref(i, stamp);
                return i as u32;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Slot of hypothesis word `tokens[pos]` (bytes of `buf`), counting one occurrence.
    #[inline]
    pub(crate) fn add_hyp_word(&mut self, buf: &[u8], tokens: &[(u32, u32)], pos: usize) -> u32 {
        let (s0, e0) = tokens[pos];
        let word = &buf[s0 as usize..e0 as usize];
        let key = word_key_at(buf, s0 as usize, e0 as usize);
        let mut i = self.home(key);
        let generation = self.generation;
        loop {
            let s = self.slot_mut(i);
            if s.generation != generation {
                return self.new_slot(i, key, pos as u32);
            }
            if s.key == key
                && (key.exact() || {
                    let (a, b) = tokens[s.rep as usize];
                    same_bytes(&buf[a as usize..b as usize], word)
                })
            {
                s.hyp += 1;
                return i as u32;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Slot of reference word `ref_buf[start..end]` (NONE if not a hypothesis word), counting it for
    /// reference `stamp`; `buf` and `tokens` are the hypothesis'.
    #[inline]
    pub(crate) fn add_ref_word(
        &mut self,
        buf: &[u8],
        tokens: &[(u32, u32)],
        ref_buf: &[u8],
        (start, end): (u32, u32),
        stamp: u32,
    ) -> u32 {
        let word = &ref_buf[start as usize..end as usize];
        let key = word_key_at(ref_buf, start as usize, end as usize);
        let mut i = self.home(key);
        loop {
            let s = self.slot(i);
            if s.generation != self.generation {
                return NONE;
            }
            if s.key == key
                && (key.exact() || {
                    let (a, b) = tokens[s.rep as usize];
                    same_bytes(&buf[a as usize..b as usize], word)
                })
            {
                self.count_ref(i, stamp);
                return i as u32;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// One more occurrence in reference `stamp`: the clipped count grows by one whenever the maximum over
    /// references grows and stays within the hypothesis count.
    /// Written as arithmetic on the counts, without branches (which of them hold depends on the text).
    #[inline]
    fn count_ref(&mut self, i: usize, stamp: u32) {
        let s = self.slot_mut(i);
        let same_ref = (s.ref_stamp == stamp) as u32;
        s.ref_stamp = stamp;
        let cur = s.cur_ref * same_ref + 1;
        s.cur_ref = cur;
        let grows = cur > s.max_ref;
        s.max_ref = s.max_ref.max(cur);
        self.correct += (grows & (cur <= s.hyp)) as u64;
    }

    /// Whether slot `i` occurred in some reference.
    #[inline]
    pub(crate) fn matched(&self, i: u32) -> bool {
        self.slots[i as usize].max_ref > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_clip_against_the_best_reference() {
        let mut t = GramTable::default();
        for _ in 0..3 {
            t.start(3);
            let a = t.add_hyp_key(7);
            assert_eq!(t.add_hyp_key(7), a);
            let b = t.add_hyp_key(u64::MAX);
            assert_ne!(a, b);
            assert_eq!(t.add_ref_key(7, 0), a);
            assert_eq!(t.add_ref_key(8, 0), NONE);
            assert_eq!(t.correct, 1);
            for _ in 0..3 {
                t.add_ref_key(7, 1); // clipped at the hypothesis count 2
            }
            assert_eq!(t.correct, 2);
            assert!(t.matched(a) && !t.matched(b));
        }
    }

    #[test]
    fn words_compare_bytes_not_just_hashes() {
        let buf = b"the cat the dog";
        let toks = [(0, 3), (4, 7), (8, 11), (12, 15)];
        let mut t = GramTable::default();
        t.start(4);
        let ids: Vec<u32> = (0..4).map(|p| t.add_hyp_word(buf, &toks, p)).collect();
        assert_eq!(ids[0], ids[2]);
        assert_ne!(ids[0], ids[1]);
        assert_eq!(t.add_ref_word(buf, &toks, b"dog", (0, 3), 0), ids[3]);
        assert_eq!(t.add_ref_word(buf, &toks, b"do", (0, 2), 0), NONE);
        assert_eq!(t.add_ref_word(buf, &toks, b"", (0, 0), 0), NONE);
        assert_eq!(t.correct, 1);
    }

    #[test]
    fn short_word_keys_are_the_words() {
        // every word of up to 6 bytes over a small alphabet (with zero bytes), and the words of 7 to 15
        // bytes that extend them by a run of one byte or by a pseudo-random tail: distinct words have
        // distinct keys, never hashed
        let alphabet = [0u8, 1, b'a', 0x80, 0xFF];
        let mut seen = std::collections::HashMap::new();
        let mut check = |w: &[u8]| {
            let key = word_key(w);
            assert!(key.exact(), "{w:?}");
            if let Some(other) = seen.insert(key, w.to_vec()) {
                assert_eq!(other, w, "two words share key {key:?}");
            }
        };
        let mut words: Vec<Vec<u8>> = vec![Vec::new()];
        let mut next = crate::testgen::xorshift(99);
        let mut count = 0;
        while let Some(w) = words.pop() {
            check(&w);
            count += 1;
            if w.len() < 6 {
                for &c in &alphabet {
                    let mut longer = w.clone();
                    longer.push(c);
                    words.push(longer);
                }
            } else {
                for n in 7..=MAX_EXACT_WORD {
                    for &c in &alphabet {
                        let mut longer = w.clone();
                        longer.resize(n, c);
                        check(&longer);
                    }
                    let mut longer = w.clone();
                    longer.extend((6..n).map(|_| alphabet[next(alphabet.len())]));
                    check(&longer);
                }
            }
        }
        assert_eq!(count, (0..=6).map(|n| 5usize.pow(n)).sum::<usize>());
        for n in 16..40 {
            assert!(!word_key(&vec![0u8; n]).exact());
        }
    }

    #[test]
    fn words_of_every_length_around_the_exact_limit() {
        let buf = b"abcdefg abcdefgh abcdefgx abcdefghi abcdefg\0 abcdef abcdefghijklmno abcdefghijklmnop abcdefghijklmnopq abcdefghijklmnoq abcdefghijklmnox abcdefghijklmno\0 abcdefghijklmnopx";
        let mut toks = Vec::new();
        let mut start = 0u32;
        for (i, &c) in buf.iter().enumerate() {
            if c == b' ' {
                toks.push((start, i as u32));
                start = i as u32 + 1;
            }
        }
        toks.push((start, buf.len() as u32));
        let mut t = GramTable::default();
        t.start(toks.len());
        let ids: Vec<u32> = (0..toks.len())
            .map(|p| t.add_hyp_word(buf, &toks, p))
            .collect();
        let distinct: std::collections::HashSet<u32> = ids.iter().copied().collect();
        assert_eq!(distinct.len(), toks.len());
        for (p, &(a, b)) in toks.iter().enumerate() {
            assert_eq!(t.add_ref_word(buf, &toks, buf, (a, b), 0), ids[p]);
        }
        assert_eq!(t.add_ref_word(buf, &toks, b"abcdefgy", (0, 8), 0), NONE);
        assert_eq!(t.add_ref_word(buf, &toks, b"abcdeg", (0, 6), 0), NONE);
        assert_eq!(
            t.add_ref_word(buf, &toks, b"abcdefghijklmnx", (0, 15), 0),
            NONE
        );
        assert_eq!(
            t.add_ref_word(buf, &toks, b"abcdefghijklmnoy", (0, 16), 0),
            NONE
        );
        assert_eq!(
            t.add_ref_word(buf, &toks, b"abcdefghijklmnopy", (0, 17), 0),
            NONE
        );
        assert_eq!(t.correct, toks.len() as u64);
    }

    #[test]
    fn keys_at_a_position_equal_the_keys_of_the_word() {
        let buf: Vec<u8> = (0..40u8).map(|i| i.wrapping_mul(37) ^ 0x80).collect();
        for start in 0..=buf.len() {
            for end in start..=buf.len() {
                assert_eq!(
                    word_key_at(&buf, start, end),
                    word_key(&buf[start..end]),
                    "{start}..{end}"
                );
            }
        }
    }

    #[test]
    fn byte_equality_of_every_length() {
        for n in 0..40usize {
            let a: Vec<u8> = (0..n as u8).collect();
            assert!(same_bytes(&a, &a.clone()));
            for i in 0..n {
                let mut b = a.clone();
                b[i] ^= 0x80;
                assert!(!same_bytes(&a, &b), "length {n}, byte {i}");
            }
            assert!(!same_bytes(&a, &a[..n.saturating_sub(1)]) || n == 0);
        }
    }

    #[test]
    fn hash_depends_on_every_byte_and_the_length() {
        let words: [&[u8]; 10] = [
            b"",
            b"\0",
            b"a",
            b"ab",
            b"abc",
            b"abcd",
            b"abcdefgh",
            b"abcdefgh\0",
            b"abcdefghi",
            b"abcdefghj",
        ];
        for (i, a) in words.iter().enumerate() {
            for b in &words[i + 1..] {
                assert_ne!(hash_bytes(a), hash_bytes(b), "{a:?} {b:?}");
            }
        }
    }
}
