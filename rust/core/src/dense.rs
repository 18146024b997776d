//! Orders 2.. of a short segment by direct indexing instead of hashing.
//!
//! After the words are interned (the n-gram table gives every hypothesis word a slot, every reference
//! word its hypothesis slot or `NONE`), the hypothesis words get dense ids `1..=V` in order of first
//! occurrence and the reference words the same ids (0: not a hypothesis word). An order-n n-gram is the
//! pair (id of its (n-1)-gram prefix, id of its last word), and with at most [`MAX_DENSE_TOKENS`]
//! hypothesis tokens every such pair is an index into a small array (`prefix * (V + 1) + word`) holding
//! the n-gram's id (0: not a hypothesis n-gram). Pairs with a 0 (a prefix or word the hypothesis lacks)
//! land in row or column 0, which no hypothesis n-gram uses, so a reference n-gram needs no test: it is
//! looked up and counted (in bucket 0 when absent, whose hypothesis count is 0) without a branch on the
//! text. No probing, no hashing, no key comparison: what a short sentence spends most of its counting
//! time on in the hash table is mispredicted branches.

use crate::table::NONE;

/// Hypotheses of up to this many tokens are counted here: the pair array has at most
/// `(MAX_DENSE_TOKENS + 1)^2` entries of 2 bytes (8 KiB, in the L1 cache).
pub const MAX_DENSE_TOKENS: usize = 64;

/// Reusable buffers (one per counting thread). Invariant between calls: `pair_ids` is all zeros.
#[derive(Default)]
pub struct DenseOrders {
    /// hypothesis slot -> dense word id (0: none); cleared after each segment
    word_of_slot: Vec<u32>,
    hyp_words: Vec<u32>,
    ref_words: Vec<Vec<u32>>,
    /// ids of the current order's n-grams by start position (hypothesis, each reference)
    hyp_grams: Vec<u32>,
    ref_grams: Vec<Vec<u32>>,
    /// (prefix id, word id) -> n-gram id of the current order (0: not a hypothesis n-gram), and the
    /// entries the hypothesis set (cleared after the order)
    pair_ids: Vec<u16>,
    touched: Vec<u32>,
    /// per n-gram id (0: the bucket of absent n-grams): hypothesis count, highest count in one
    /// reference so far, count in the current reference
    counts: Vec<[u32; 3]>,
}

impl DenseOrders {
    /// Clipped matches of orders `2..=order` into `row[3..]` (row layout of [`crate::count::row_width`],
    /// lengths, totals and unigram matches already filled): `hyp_slots` are the hypothesis words' table
    /// slots (at most [`MAX_DENSE_TOKENS`]), `ref_slots[k]` reference k's (`NONE`: not a hypothesis word).
    pub fn count(
        &mut self,
        hyp_slots: &[u32],
        ref_slots: &[Vec<u32>],
        order: usize,
        row: &mut [i64],
    ) {
        let m = hyp_slots.len();
        assert!(m <= MAX_DENSE_TOKENS, "too many tokens for the dense path");
        // dense word ids 1..=V; the last entry of `word_of_slot` is past every hypothesis slot (it is
        // grown to two past the largest), stays 0, and is where NONE is looked up
        let mut n_words = 0u32;
        let word_of_slot = &mut self.word_of_slot;
        self.hyp_words.clear();
        self.hyp_words.extend(hyp_slots.iter().map(|&t| {
            let t = t as usize;
            if t + 2 > word_of_slot.len() {
                word_of_slot.resize(t + 2, 0);
            }
            let id = &mut word_of_slot[t];
            if *id == 0 {
                n_words += 1;
                *id = n_words;
            }
            *id
        }));
        let dummy = self.word_of_slot.len() - 1;
        let n_refs = ref_slots.len();
        if self.ref_words.len() < n_refs {
            self.ref_words.resize_with(n_refs, Vec::new);
            self.ref_grams.resize_with(n_refs, Vec::new);
        }
        for (words, slots) in self.ref_words.iter_mut().zip(ref_slots) {
            words.clear();
            words.extend(slots.iter().map(|&t| {
                debug_assert!(t == NONE || (t as usize) < dummy);
                self.word_of_slot[(t as usize).min(dummy)]
            }));
        }
        for &t in hyp_slots {
            self.word_of_slot[t as usize] = 0;
        }

        let width = n_words as usize + 1; // word ids 0..=V
        self.hyp_grams.clear();
        self.hyp_grams.extend_from_slice(&self.hyp_words);
        for (grams, words) in self.ref_grams.iter_mut().zip(&self.ref_words).take(n_refs) {
            grams.clear();
            grams.extend_from_slice(words);
        }
        let mut n_prefixes = n_words as usize; // distinct (n-1)-grams
        for n in 2..=order {
            if m < n {
                break; // no hypothesis n-gram: no matches (the row holds 0)
            }
            let needed = (n_prefixes + 1) * width;
            if self.pair_ids.len() < needed {
                self.pair_ids.resize(needed, 0);
            }
            // the hypothesis n-grams get ids 1..=K (K <= positions) in order of first occurrence, and
            // are counted; per id: [hypothesis count, highest count in one reference so far, count in
            // the current reference]
            let positions = m + 1 - n;
            let counts = &mut self.counts;
            counts.clear();
            counts.resize(positions + 1, [0; 3]);
            let mut n_grams = 0u32;
            let pairs = &mut self.pair_ids[..needed];
            self.touched.resize(positions, 0);
            for ((gram, &word), touched) in self.hyp_grams[..positions]
                .iter_mut()
                .zip(&self.hyp_words[n - 1..])
                .zip(&mut self.touched)
            {
                let slot = *gram as usize * width + word as usize;
                *touched = slot as u32;
                let id = &mut pairs[slot];
                if *id == 0 {
                    n_grams += 1;
                    *id = n_grams as u16;
                }
                *gram = *id as u32;
                counts[*id as usize][0] += 1;
            }
            let k = n_grams as usize;
            let mut correct = 0u64;
            let refs = self.ref_grams.iter_mut().zip(&self.ref_words).take(n_refs);
            for (r, (grams, words)) in refs.enumerate() {
                if r > 0 {
                    counts[..=k].iter_mut().for_each(|c| c[2] = 0);
                }
                let r_positions = (words.len() + 1).saturating_sub(n);
                let lasts = words.get(n - 1..).unwrap_or_default(); // the n-grams' last words
                for (gram, &word) in grams[..r_positions].iter_mut().zip(lasts) {
                    let id = pairs[*gram as usize * width + word as usize] as usize;
                    *gram = id as u32;
                    // clipping: the best reference's count grows only up to the hypothesis count
                    let c = &mut counts[id];
                    let cur = c[2] + 1;
                    c[2] = cur;
                    correct += ((cur > c[1]) & (cur <= c[0])) as u64;
                    c[1] = c[1].max(cur);
                }
                grams.truncate(r_positions);
            }
            row[1 + n] = correct as i64;
            for &slot in &self.touched {
                pairs[slot as usize] = 0; // back to all zeros
            }
            if correct == 0 {
                break; // no n-gram matched: no longer one can
            }
            self.hyp_grams.truncate(positions);
            n_prefixes = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::count::{row_width, xorshift, SegmentCounter};

    /// Segments of up to 80 tokens over small vocabularies (many repeats, so many matches at every
    /// order), 0-4 references of which some are missing, orders 1-7: the dense path gives the rows of
    /// the n-gram table.
    #[test]
    fn rows_equal_those_of_the_hash_table() {
        let mut next = xorshift(0x2545_F491_4F6C_DD1D);
        // one counter per order for all the cases: every segment starts from the buffers the last left
        let mut dense: Vec<SegmentCounter> = (1..=7).map(SegmentCounter::new).collect();
        let mut hashed: Vec<SegmentCounter> = (1..=7).map(SegmentCounter::hashed_only).collect();
        for case in 0..4000 {
            let vocab = 1 + next(if case % 3 == 0 { 4 } else { 30 });
            let line = |next: &mut dyn FnMut(usize) -> usize| -> Vec<u64> {
                let n = match next(10) {
                    0 => next(81),
                    1 => 60 + next(8),
                    _ => next(25),
                };
                (0..n).map(|_| next(vocab) as u64 * 0x9E37_79B9).collect()
            };
            let hyp = line(&mut next);
            let refs: Vec<Option<Vec<u64>>> = (0..next(5))
                .map(|_| (next(6) != 0).then(|| line(&mut next)))
                .collect();
            let refs: Vec<Option<&[u64]>> = refs.iter().map(|r| r.as_deref()).collect();
            let order = 1 + next(7);
            let (mut a, mut b) = (vec![0i64; row_width(order)], vec![0i64; row_width(order)]);
            dense[order - 1].count_ids(&hyp, &refs, &mut a);
            hashed[order - 1].count_ids(&hyp, &refs, &mut b);
            assert_eq!(a, b, "case {case}: {hyp:?} vs {refs:?}, order {order}");
        }
    }
}
