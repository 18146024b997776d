//! Small open-addressing hash tables, reused from segment to segment (cleared in time proportional to
//! their use, never reallocated once large enough). Keys are interned into dense `u32` ids `0..len`.

/// Marks "no id": an n-gram that cannot match (absent from the hypothesis, or its prefix never matched).
pub const NONE: u32 = u32::MAX;

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// Hash of a byte string: 8 bytes at a time (FxHash-like), finished with a multiply-xorshift so the high
/// bits, which pick the slot, depend on every byte.
#[inline]
pub fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut h: u64 = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        h = (h.rotate_left(5) ^ w).wrapping_mul(SEED);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut w = [0u8; 8];
        w[..rest.len()].copy_from_slice(rest);
        h = (h.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(SEED);
    }
    mix(h)
}

#[inline]
pub fn mix(mut h: u64) -> u64 {
    h ^= h >> 32;
    h = h.wrapping_mul(0xD6E8_FEB8_6659_FD93);
    h ^= h >> 32;
    h
}

/// Capacity (a power of two) for `n` keys at a load factor of at most 1/2.
fn capacity_for(n: usize) -> usize {
    (n.max(4) * 2).next_power_of_two()
}

/// Interns `u64` keys into dense ids in first-seen order.
#[derive(Default)]
pub struct U64Table {
    keys: Vec<u64>,
    vals: Vec<u32>, // NONE = empty slot
    mask: usize,
    len: u32,
}

impl U64Table {
    /// Empties the table and makes room for `n` keys.
    pub fn reset(&mut self, n: usize) {
        let cap = capacity_for(n);
        if self.vals.len() < cap || self.vals.len() > 4 * cap.max(1024) {
            self.keys = vec![0; cap];
            self.vals = vec![NONE; cap];
        } else {
            // only the part we are going to use is cleared: cost proportional to `n`
            self.vals[..cap].fill(NONE);
        }
        self.mask = cap - 1;
        self.len = 0;
    }

    pub fn len(&self) -> usize {
        self.len as usize
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline]
    fn slot(&self, key: u64) -> usize {
        (mix(key ^ SEED) as usize) & self.mask
    }

    /// The id of `key`, inserting it with the next id if it is new. At most the `n` given to
    /// [`reset`](Self::reset) keys may be inserted.
    #[inline]
    pub fn intern(&mut self, key: u64) -> u32 {
        let mut i = self.slot(key);
        loop {
            let v = self.vals[i];
            if v == NONE {
                let id = self.len;
                self.keys[i] = key;
                self.vals[i] = id;
                self.len += 1;
                return id;
            }
            if self.keys[i] == key {
                return v;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// The id of `key`, or [`NONE`].
    #[inline]
    pub fn get(&self, key: u64) -> u32 {
        let mut i = self.slot(key);
        loop {
            let v = self.vals[i];
            if v == NONE || self.keys[i] == key {
                return v;
            }
            i = (i + 1) & self.mask;
        }
    }
}

/// Interns byte strings (tokens) into dense ids. Slots hold the hash and the id; the bytes are compared
/// against the first occurrence of the id, which the caller keeps (`reps`).
#[derive(Default)]
pub struct BytesTable {
    hashes: Vec<u64>,
    vals: Vec<u32>,
    mask: usize,
    /// (buffer index, start, end) of the first occurrence of each id
    reps: Vec<(u32, u32, u32)>,
}

impl BytesTable {
    pub fn reset(&mut self, n: usize) {
        let cap = capacity_for(n);
        if self.vals.len() < cap || self.vals.len() > 4 * cap.max(1024) {
            self.hashes = vec![0; cap];
            self.vals = vec![NONE; cap];
        } else {
            self.vals[..cap].fill(NONE);
        }
        self.mask = cap - 1;
        self.reps.clear();
    }

    pub fn len(&self) -> usize {
        self.reps.len()
    }

    pub fn is_empty(&self) -> bool {
        self.reps.is_empty()
    }

    /// Id of token `buf[start..end]` (from buffer number `which` of `bufs`), inserted if new.
    #[inline]
    pub fn intern(&mut self, bufs: &[&[u8]], which: u32, start: u32, end: u32) -> u32 {
        let tok = &bufs[which as usize][start as usize..end as usize];
        let h = hash_bytes(tok);
        let mut i = (h as usize) & self.mask;
        loop {
            let v = self.vals[i];
            if v == NONE {
                let id = self.reps.len() as u32;
                self.hashes[i] = h;
                self.vals[i] = id;
                self.reps.push((which, start, end));
                return id;
            }
            if self.hashes[i] == h && self.rep(bufs, v) == tok {
                return v;
            }
            i = (i + 1) & self.mask;
        }
    }

    /// Id of `tok`, or [`NONE`].
    #[inline]
    pub fn get(&self, bufs: &[&[u8]], tok: &[u8]) -> u32 {
        let h = hash_bytes(tok);
        let mut i = (h as usize) & self.mask;
        loop {
            let v = self.vals[i];
            if v == NONE {
                return NONE;
            }
            if self.hashes[i] == h && self.rep(bufs, v) == tok {
                return v;
            }
            i = (i + 1) & self.mask;
        }
    }

    #[inline]
    fn rep<'b>(&self, bufs: &[&'b [u8]], id: u32) -> &'b [u8] {
        let (w, s, e) = self.reps[id as usize];
        &bufs[w as usize][s as usize..e as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn u64_table_interns_densely_and_survives_reuse() {
        let mut t = U64Table::default();
        for round in 0..3u64 {
            t.reset(100);
            for k in 0..100u64 {
                assert_eq!(t.intern(k * 7919 + round), k as u32);
            }
            for k in 0..100u64 {
                assert_eq!(t.intern(k * 7919 + round), k as u32);
                assert_eq!(t.get(k * 7919 + round), k as u32);
            }
            assert_eq!(t.get(u64::MAX), NONE);
            assert_eq!(t.len(), 100);
        }
        t.reset(1);
        assert_eq!(t.get(7919), NONE);
        assert_eq!(t.intern(u64::MAX), 0);
        assert_eq!(t.get(u64::MAX), 0);
    }

    #[test]
    fn bytes_table_compares_bytes_not_just_hashes() {
        let a = b"the cat the dog".to_vec();
        let bufs: [&[u8]; 1] = [&a];
        let mut t = BytesTable::default();
        t.reset(4);
        assert_eq!(t.intern(&bufs, 0, 0, 3), 0);
        assert_eq!(t.intern(&bufs, 0, 4, 7), 1);
        assert_eq!(t.intern(&bufs, 0, 8, 11), 0);
        assert_eq!(t.intern(&bufs, 0, 12, 15), 2);
        assert_eq!(t.get(&bufs, b"dog"), 2);
        assert_eq!(t.get(&bufs, b"do"), NONE);
        assert_eq!(t.get(&bufs, b""), NONE);
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn hash_depends_on_length_and_tail() {
        assert_ne!(hash_bytes(b""), hash_bytes(b"\0"));
        assert_ne!(hash_bytes(b"abcdefgh"), hash_bytes(b"abcdefgh\0"));
        assert_ne!(hash_bytes(b"abcdefghi"), hash_bytes(b"abcdefghj"));
    }
}
