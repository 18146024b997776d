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
//! time on in the hash table is mispredicted branches. As there, each order walks only the live n-grams:
//! the hypothesis' whose prefix occurred in some reference, the references' found in the hypothesis.
//!
//! When every reference has at most 64 tokens too (almost every sentence), the orders are counted with
//! bit masks instead ([`DenseOrders::count`] picks): for hypothesis position i and order n, `same_n[i]`
//! holds the hypothesis positions whose n-gram equals the one at i, and `found_n[k][i]` the positions of
//! reference k holding it. Order n + 1 follows from order n with one shift and one `and` per position
//! (`same_{n+1}[i] = same_n[i] & (same_1[i + n] >> n)`), and the clipped matches are the positions whose
//! occurrence number among equal hypothesis n-grams (the bits of `same_n[i]` below i) is below the
//! highest count in one reference (the bits of `found_n[k][i]`): `sum_g min(hyp(g), max_k ref_k(g))`
//! counted one occurrence at a time. A fixed number of loops per order, none with a branch on the text.

use crate::count::live_where;
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
    /// the hypothesis words found in some reference (by word id)
    word_hit: Vec<bool>,
    /// the live n-grams of the current order, (start position, id): hypothesis, each reference
    hyp_live: Vec<(u32, u32)>,
    ref_live: Vec<Vec<(u32, u32)>>,
    /// (prefix id, word id) -> n-gram id of the current order (0: not a hypothesis n-gram), and the
    /// entries the hypothesis set (cleared after the order)
    pair_ids: Vec<u16>,
    touched: Vec<u32>,
    /// per n-gram id (0: the bucket of absent n-grams): hypothesis count, highest count in one
    /// reference so far, count in the current reference
    counts: Vec<[u32; 3]>,
    /// the bit-mask path: per table slot the positions of its word in one line (all zeros between
    /// uses; the last entry takes the reference words that are not hypothesis words)
    positions_of_slot: Vec<u64>,
    /// per hypothesis position: the hypothesis positions of the same word, of the same current-order
    /// n-gram
    same_word: Vec<u64>,
    same_gram: Vec<u64>,
    /// the same per reference: the reference's positions of the word, of the current-order n-gram
    found_word: Vec<[u64; MAX_DENSE_TOKENS]>,
    found_gram: Vec<[u64; MAX_DENSE_TOKENS]>,
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
        assert!(
            hyp_slots.len() <= MAX_DENSE_TOKENS,
            "too many tokens for the dense path"
        );
        if ref_slots.iter().all(|r| r.len() <= MAX_DENSE_TOKENS) {
            #[cfg(target_arch = "x86_64")]
            if std::arch::is_x86_feature_detected!("popcnt") {
                // SAFETY: the processor has the instruction the function is compiled for
                return unsafe { self.count_masks_popcnt(hyp_slots, ref_slots, order, row) };
            }
            self.count_masks(hyp_slots, ref_slots, order, row);
        } else {
            self.count_pairs(hyp_slots, ref_slots, order, row);
        }
    }

    /// [`Self::count_masks`] compiled with the processor's bit-count instruction (the baseline x86_64
    /// target counts bits with a dozen shifts and masks), which the masks' counts are mostly made of.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    fn count_masks_popcnt(
        &mut self,
        hyp_slots: &[u32],
        ref_slots: &[Vec<u32>],
        order: usize,
        row: &mut [i64],
    ) {
        self.count_masks(hyp_slots, ref_slots, order, row)
    }

    /// [`Self::count`] with position bit masks (see the module's notes): every line has at most
    /// [`MAX_DENSE_TOKENS`] tokens.
    #[inline(always)]
    fn count_masks(
        &mut self,
        hyp_slots: &[u32],
        ref_slots: &[Vec<u32>],
        order: usize,
        row: &mut [i64],
    ) {
        let m = hyp_slots.len();
        let top = order.min(m); // orders past the hypothesis length have no n-grams
        if top < 2 {
            return;
        }
        let largest = hyp_slots.iter().copied().max().unwrap_or(0) as usize;
        if self.positions_of_slot.len() < largest + 2 {
            self.positions_of_slot.resize(largest + 2, 0);
        }
        let by_slot = &mut self.positions_of_slot[..];
        // the last entry: past every hypothesis slot, where a reference word the hypothesis lacks goes
        let absent = by_slot.len() - 1;
        if self.same_word.len() < MAX_DENSE_TOKENS {
            self.same_word.resize(MAX_DENSE_TOKENS, 0);
            self.same_gram.resize(MAX_DENSE_TOKENS, 0);
        }
        for (i, &t) in hyp_slots.iter().enumerate() {
            by_slot[t as usize] |= 1 << i;
        }
        // the current-order masks start as the words' (order 1)
        let same = self.same_word.iter_mut().zip(&mut self.same_gram);
        for ((word, gram), &t) in same.zip(hyp_slots) {
            (*word, *gram) = (by_slot[t as usize], by_slot[t as usize]);
        }
        for &t in hyp_slots {
            by_slot[t as usize] = 0;
        }
        let n_refs = ref_slots.len();
        if self.found_word.len() < n_refs {
            self.found_word.resize(n_refs, [0; MAX_DENSE_TOKENS]);
            self.found_gram.resize(n_refs, [0; MAX_DENSE_TOKENS]);
        }
        let found = self.found_word.iter_mut().zip(&mut self.found_gram);
        for ((found_word, found_gram), slots) in found.zip(ref_slots) {
            for (j, &t) in slots.iter().enumerate() {
                by_slot[(t as usize).min(absent)] |= 1 << j;
            }
            let found = found_word.iter_mut().zip(found_gram.iter_mut());
            for ((word, gram), &t) in found.zip(hyp_slots) {
                (*word, *gram) = (by_slot[t as usize], by_slot[t as usize]);
            }
            for &t in slots {
                by_slot[(t as usize).min(absent)] = 0;
            }
        }
        let (same_word, same_gram) = (&self.same_word[..m], &mut self.same_gram[..m]);
        let (found_word, found_gram) = (&self.found_word[..n_refs], &mut self.found_gram[..n_refs]);
        if let ([found_word], [found_gram]) = (found_word, &mut *found_gram) {
            // one reference (the common case): one pass per order
            let (found_word, found_gram) = (&found_word[..m], &mut found_gram[..m]);
            for n in 2..=top {
                let last = n - 1;
                let grams = m - last;
                let mut below = 0u64;
                let mut correct = 0u64;
                let hyp = same_gram[..grams].iter_mut().zip(&same_word[last..]);
                let found = found_gram[..grams].iter_mut().zip(&found_word[last..]);
                for ((same, &word), (f, &ref_word)) in hyp.zip(found) {
                    *same &= word >> last;
                    *f &= ref_word >> last;
                    correct += ((*same & below).count_ones() < f.count_ones()) as u64;
                    below = below << 1 | 1;
                }
                row[1 + n] = correct as i64;
                if correct == 0 {
                    break;
                }
            }
            return;
        }
        // per position of the current order: the occurrence number (from 0) of its n-gram among the
        // hypothesis' equal n-grams, and the n-gram's highest count in one reference
        let mut earlier = [0u32; MAX_DENSE_TOKENS];
        let mut best = [0u32; MAX_DENSE_TOKENS];
        for n in 2..=top {
            let last = n - 1; // offset of an n-gram's last word from its start
            let grams = m - last; // n-grams of the hypothesis
            let mut below = 0u64; // the positions before the current one
            let hyp = same_gram[..grams].iter_mut().zip(&same_word[last..]);
            for ((same, &word), e) in hyp.zip(&mut earlier[..grams]) {
                *same &= word >> last;
                *e = (*same & below).count_ones();
                below = below << 1 | 1;
            }
            best[..grams].fill(0);
            for (gram, word) in found_gram.iter_mut().zip(found_word) {
                let found = gram[..grams].iter_mut().zip(&word[last..m]);
                for ((f, &word), b) in found.zip(&mut best[..grams]) {
                    *f &= word >> last;
                    *b = (*b).max(f.count_ones());
                }
            }
            let matched = earlier[..grams].iter().zip(&best[..grams]);
            let correct: u64 = matched.map(|(e, b)| (e < b) as u64).sum();
            row[1 + n] = correct as i64;
            if correct == 0 {
                break; // no n-gram matched: no longer one can
            }
        }
    }

    /// [`Self::count`] through the pair array (references of any length).
    fn count_pairs(
        &mut self,
        hyp_slots: &[u32],
        ref_slots: &[Vec<u32>],
        order: usize,
        row: &mut [i64],
    ) {
        let m = hyp_slots.len();
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
            self.ref_live.resize_with(n_refs, Vec::new);
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
                                          // The live n-grams, as (start position, id): those of the hypothesis that occur in some
                                          // reference (only they can start a matching longer n-gram), those of each reference that occur
                                          // in the hypothesis. Kept by writing every entry and advancing by 0 or 1 (no branch on the text).
        self.word_hit.clear();
        self.word_hit.resize(width, false);
        for words in &self.ref_words[..n_refs] {
            for &w in words {
                self.word_hit[w as usize] = true;
            }
        }
        live_where(&mut self.hyp_live, &self.hyp_words, |w| {
            self.word_hit[w as usize]
        });
        for (live, words) in self.ref_live.iter_mut().zip(&self.ref_words).take(n_refs) {
            live_where(live, words, |w| w != 0);
        }
        let mut n_prefixes = n_words as usize; // distinct (n-1)-grams: the ids of the live prefixes
        for n in 2..=order {
            let last = n - 1; // offset of an n-gram's last word from its start
            drop_past(&mut self.hyp_live, m, last);
            if self.hyp_live.is_empty() {
                break; // no hypothesis n-gram with a matched prefix: no matches (the row holds 0)
            }
            let needed = (n_prefixes + 1) * width;
            if self.pair_ids.len() < needed {
                self.pair_ids.resize(needed, 0);
            }
            // the live hypothesis n-grams get ids 1..=K in order of first occurrence and are counted;
            // per id: [hypothesis count, highest count in one reference so far, count in this reference]
            let live = self.hyp_live.len();
            let counts = &mut self.counts;
            counts.clear();
            counts.resize(live + 1, [0; 3]);
            let mut n_grams = 0u32;
            let pairs = &mut self.pair_ids[..needed];
            self.touched.resize(live, 0);
            for (e, touched) in self.hyp_live.iter_mut().zip(&mut self.touched) {
                let slot = e.1 as usize * width + self.hyp_words[e.0 as usize + last] as usize;
                *touched = slot as u32;
                let id = &mut pairs[slot];
                if *id == 0 {
                    n_grams += 1;
                    *id = n_grams as u16;
                }
                e.1 = *id as u32;
                counts[*id as usize][0] += 1;
            }
            let k = n_grams as usize;
            let mut correct = 0u64;
            let refs = self.ref_live.iter_mut().zip(&self.ref_words).take(n_refs);
            for (r, (live, words)) in refs.enumerate() {
                if r > 0 {
                    counts[..=k].iter_mut().for_each(|c| c[2] = 0);
                }
                drop_past(live, words.len(), last);
                let mut kept = 0;
                for i in 0..live.len() {
                    let (j, prefix) = live[i];
                    let id =
                        pairs[prefix as usize * width + words[j as usize + last] as usize] as usize;
                    // clipping: the best reference's count grows only up to the hypothesis count
                    let c = &mut counts[id];
                    let cur = c[2] + 1;
                    c[2] = cur;
                    correct += ((cur > c[1]) & (cur <= c[0])) as u64;
                    c[1] = c[1].max(cur);
                    live[kept] = (j, id as u32);
                    kept += (id != 0) as usize;
                }
                live.truncate(kept);
            }
            row[1 + n] = correct as i64;
            for &slot in &self.touched {
                pairs[slot as usize] = 0; // back to all zeros
            }
            if correct == 0 || n == order {
                break; // no n-gram matched: no longer one can
            }
            // a hypothesis n-gram that occurred in no reference cannot start a matching one
            let mut kept = 0;
            for i in 0..self.hyp_live.len() {
                let e = self.hyp_live[i];
                self.hyp_live[kept] = e;
                kept += (counts[e.1 as usize][1] > 0) as usize;
            }
            self.hyp_live.truncate(kept);
            n_prefixes = k;
        }
    }
}

/// Drops the n-grams of a line of `len` words that would run past its end (`last`: the offset of an
/// n-gram's last word); positions ascend, so they are at the end.
fn drop_past(live: &mut Vec<(u32, u32)>, len: usize, last: usize) {
    while live.last().is_some_and(|&(j, _)| j as usize + last >= len) {
        live.pop();
    }
}

#[cfg(test)]
mod tests {
    use crate::count::{row_width, xorshift, SegmentCounter};

    /// Segments of up to 80 tokens over small vocabularies (many repeats, so many matches at every
    /// order), 0-6 references of which some are missing, orders 1-7: the dense path gives the rows of
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
            let refs: Vec<Option<Vec<u64>>> = (0..next(7))
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
