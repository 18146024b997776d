//! The n-gram table of one segment: open addressing, reused for every order of every segment without
//! clearing (a slot belongs to the current use only if its generation matches), with the counts that
//! clipping needs stored in the slot itself.

/// Marks "no slot": an n-gram that cannot match (absent from the hypothesis, or its prefix never matched).
pub const NONE: u32 = u32::MAX;

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

#[inline]
pub fn mix(mut h: u64) -> u64 {
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^= h >> 32;
    h
}

/// Hash of a byte string. Reads 8 bytes at a time, the last (partial) word as an overlapping load, so
/// no byte-wise loop or copy; the length is mixed in, so a word and its zero-padded form differ.
#[inline]
pub fn hash_bytes(b: &[u8]) -> u64 {
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

/// Byte-string equality without a library call for short words (the common case): lengths first, then
/// two overlapping 8- or 4-byte loads.
#[inline]
fn same_bytes(a: &[u8], b: &[u8]) -> bool {
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
    /// the n-gram (pair key) or the hash of the word
    key: u64,
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

/// Interns the hypothesis n-grams of one order and clips the references' counts against them.
#[derive(Default)]
pub struct GramTable {
    slots: Vec<Slot>,
    mask: usize,
    generation: u32,
    /// clipped matches of the current use: sum over n-grams of min(hyp count, max reference count)
    pub correct: u64,
}

impl GramTable {
    /// Starts a new use for up to `n` distinct n-grams (all earlier slots become free).
    pub fn start(&mut self, n: usize) {
        let cap = (n.max(4) * 2).next_power_of_two();
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
        self.correct = 0;
    }

    #[inline]
    fn new_slot(&mut self, i: usize, key: u64, rep: u32) -> u32 {
        self.slots[i] = Slot {
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
    pub fn add_hyp_key(&mut self, key: u64) -> u32 {
        let mut i = (mix(key ^ SEED) as usize) & self.mask;
        loop {
            let s = &mut self.slots[i];
            if s.generation != self.generation {
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
    pub fn add_ref_key(&mut self, key: u64, stamp: u32) -> u32 {
        let mut i = (mix(key ^ SEED) as usize) & self.mask;
        loop {
            let s = &self.slots[i];
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
    pub fn add_hyp_word(&mut self, buf: &[u8], tokens: &[(u32, u32)], pos: usize) -> u32 {
        let (s0, e0) = tokens[pos];
        let word = &buf[s0 as usize..e0 as usize];
        let h = hash_bytes(word);
        let mut i = (h as usize) & self.mask;
        loop {
            let s = &mut self.slots[i];
            if s.generation != self.generation {
                return self.new_slot(i, h, pos as u32);
            }
            if s.key == h {
                let (a, b) = tokens[s.rep as usize];
                if same_bytes(&buf[a as usize..b as usize], word) {
                    s.hyp += 1;
                    return i as u32;
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Slot of reference word `word` (NONE if not a hypothesis word), counting it for reference `stamp`.
    #[inline]
    pub fn add_ref_word(
        &mut self,
        buf: &[u8],
        tokens: &[(u32, u32)],
        word: &[u8],
        stamp: u32,
    ) -> u32 {
        let h = hash_bytes(word);
        let mut i = (h as usize) & self.mask;
        loop {
            let s = &self.slots[i];
            if s.generation != self.generation {
                return NONE;
            }
            if s.key == h {
                let (a, b) = tokens[s.rep as usize];
                if same_bytes(&buf[a as usize..b as usize], word) {
                    self.count_ref(i, stamp);
                    return i as u32;
                }
            }
            i = (i + 1) & self.mask;
        }
    }

    /// One more occurrence in reference `stamp`: the clipped count grows by one whenever the maximum over
    /// references grows and stays within the hypothesis count.
    #[inline]
    fn count_ref(&mut self, i: usize, stamp: u32) {
        let s = &mut self.slots[i];
        if s.ref_stamp != stamp {
            s.ref_stamp = stamp;
            s.cur_ref = 0;
        }
        s.cur_ref += 1;
        if s.cur_ref > s.max_ref {
            s.max_ref = s.cur_ref;
            if s.max_ref <= s.hyp {
                self.correct += 1;
            }
        }
    }

    /// Whether slot `i` occurred in some reference.
    #[inline]
    pub fn matched(&self, i: u32) -> bool {
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
        assert_eq!(t.add_ref_word(buf, &toks, b"dog", 0), ids[3]);
        assert_eq!(t.add_ref_word(buf, &toks, b"do", 0), NONE);
        assert_eq!(t.add_ref_word(buf, &toks, b"", 0), NONE);
        assert_eq!(t.correct, 1);
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
