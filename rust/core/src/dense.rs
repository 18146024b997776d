//! Short segments counted by direct indexing and bit masks instead of hashing.
//!
//! A hypothesis of at most [`MAX_DENSE_TOKENS`] tokens with a longer reference ([`DenseOrders::count_pairs`]):
//! after the words are interned (the n-gram table gives every hypothesis word a slot, every reference
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
//! When every line has at most 64 tokens (almost every sentence), the segment is counted without the
//! n-gram table at all ([`DenseOrders::count_short`]): its words are told apart by a small index of at
//! most 64 distinct hypothesis words (a sentence needs the equality of words within one segment only, and
//! a word of up to 15 bytes is its own 128-bit key), and every order, 1 included, is counted with bit
//! masks: for hypothesis position i and order n, `same_n[i]` holds the hypothesis positions whose n-gram
//! equals the one at i, and `found_n[k][i]` the positions of reference k holding it. Order n + 1 follows
//! from order n with one shift and one `and` per position (`same_{n+1}[i] = same_n[i] & (same_1[i + n] >>
//! n)`), and the clipped matches are the positions whose occurrence number among equal hypothesis n-grams
//! (the bits of `same_n[i]` below i) is below the highest count in one reference (the bits of
//! `found_n[k][i]`): `sum_g min(hyp(g), max_k ref_k(g))` counted one occurrence at a time. A fixed number
//! of loops per order, none with a branch on the text.

use crate::live::{drop_past, keep_mapped, live_where};
use crate::table::{WordKey, NONE};

/// Hypotheses of up to this many tokens are counted here: the pair array has at most
/// `(MAX_DENSE_TOKENS + 1)^2` entries of 2 bytes (8 KiB, in the L1 cache), and a line's positions fit the
/// bits of a `u64`.
pub(crate) const MAX_DENSE_TOKENS: usize = 64;

/// Entries of the index of a short hypothesis' distinct words: at most a quarter full, so that a look-up
/// rarely goes past its first entry; its home entry is the top byte of a multiplicative hash.
const WORD_INDEX: usize = 256;

/// The line of words a segment is counted from: text tokens (bytes) or integer token ids.
pub(crate) trait Words: Copy {
    /// The number of words.
    fn count(&self) -> usize;
    /// The key of word `i`: equal words have equal keys; exact keys (not hashed long words) are equal only
    /// for equal words.
    fn key(&self, i: usize) -> WordKey;
    /// Whether word `i` equals word `j` of `other` (asked only when their keys are equal but not exact).
    fn same(&self, i: usize, other: &Self, j: usize) -> bool;
}

impl Words for &[u64] {
    #[inline(always)]
    fn count(&self) -> usize {
        self.len()
    }
    #[inline(always)]
    fn key(&self, i: usize) -> WordKey {
        WordKey::of_int(self[i])
    }
    #[inline(always)]
    fn same(&self, i: usize, other: &Self, j: usize) -> bool {
        self[i] == other[j]
    }
}

/// The distinct words of a short hypothesis (at most [`MAX_DENSE_TOKENS`]), told apart by their keys.
/// Invariant between segments: `positions` is all zeros.
struct ShortWords {
    /// home entry (probing upwards) -> 1 + the word's number (0: empty)
    index: [u8; WORD_INDEX],
    /// per word number: its key, and the hypothesis position of its first occurrence (its bytes)
    keys: [WordKey; MAX_DENSE_TOKENS],
    first: [u8; MAX_DENSE_TOKENS],
    /// per hypothesis position: its word's number
    hyp_words: [u8; MAX_DENSE_TOKENS],
    /// per word number: the positions of the word in the line at hand; the last entry takes the
    /// reference words that are not hypothesis words (and is never read)
    positions: [u64; MAX_DENSE_TOKENS + 1],
}

const ABSENT: usize = MAX_DENSE_TOKENS;

impl Default for ShortWords {
    fn default() -> Self {
        ShortWords {
            index: [0; WORD_INDEX],
            keys: [WordKey::default(); MAX_DENSE_TOKENS],
            first: [0; MAX_DENSE_TOKENS],
            hyp_words: [0; MAX_DENSE_TOKENS],
            positions: [0; MAX_DENSE_TOKENS + 1],
        }
    }
}

impl ShortWords {
    #[inline(always)]
    fn home(key: WordKey) -> u8 {
        (key.folded().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as u8
    }

    /// The number of the hypothesis word equal to word `i` of `line` (whose key is `key`), or the empty
    /// index entry where it would go.
    #[inline(always)]
    fn find<W: Words>(&self, hyp: W, line: W, i: usize, key: WordKey) -> Result<usize, u8> {
        let mut h = Self::home(key);
        loop {
            let entry = self.index[h as usize] as usize;
            if entry == 0 {
                return Err(h);
            }
            let w = (entry - 1) % MAX_DENSE_TOKENS;
            if self.keys[w] == key && (key.exact() || hyp.same(self.first[w] as usize, &line, i)) {
                return Ok(w);
            }
            h = h.wrapping_add(1);
        }
    }

    /// Numbers the hypothesis' words `0..V` in order of first occurrence and marks their positions; returns
    /// V.
    #[inline(always)]
    fn number_hypothesis<W: Words>(&mut self, hyp: W) -> usize {
        self.index = [0; WORD_INDEX];
        let mut n_words = 0usize;
        for i in 0..hyp.count() {
            let key = hyp.key(i);
            let word = self.find(hyp, hyp, i, key).unwrap_or_else(|h| {
                self.index[h as usize] = (n_words + 1) as u8;
                self.keys[n_words % MAX_DENSE_TOKENS] = key;
                self.first[n_words % MAX_DENSE_TOKENS] = i as u8;
                n_words += 1;
                n_words - 1
            });
            self.hyp_words[i % MAX_DENSE_TOKENS] = word as u8;
            self.positions[word] |= 1 << i;
        }
        n_words
    }

    /// Marks the positions of the reference's words by hypothesis word number ([`ABSENT`]: not a
    /// hypothesis word).
    #[inline(always)]
    fn mark_reference<W: Words>(&mut self, hyp: W, reference: W) {
        for j in 0..reference.count() {
            let word = self
                .find(hyp, reference, j, reference.key(j))
                .unwrap_or(ABSENT);
            self.positions[word] |= 1 << j;
        }
    }

    /// Per hypothesis position `i < m`: the marked positions of its word, into `same` and `copy`; then
    /// the marks of the hypothesis words are cleared.
    #[inline(always)]
    fn take_marks(&mut self, m: usize, n_words: usize, same: &mut [u64], copy: &mut [u64]) {
        let hyp_words = &self.hyp_words[..m];
        for ((s, c), &w) in same.iter_mut().zip(copy.iter_mut()).zip(hyp_words) {
            (*s, *c) = (self.positions[w as usize], self.positions[w as usize]);
        }
        self.positions[..n_words].fill(0);
    }
}

/// Reusable buffers (one per counting thread). Invariant between calls: `pair_ids` is all zeros.
#[derive(Default)]
pub(crate) struct DenseOrders {
    /// hypothesis slot -> dense word id (0: none); cleared after each segment
    word_of_slot: Vec<u32>,
    hyp_words: Vec<u32>,
    ref_words: Vec<Vec<u32>>,
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
    /// the bit-mask path: the distinct words of the hypothesis
    words: Box<ShortWords>,
    /// per hypothesis position: the hypothesis positions of the same word, of the same current-order
    /// n-gram
    same_word: Vec<u64>,
    same_gram: Vec<u64>,
    /// the same per reference: the reference's positions of the word, of the current-order n-gram
    found_word: Vec<[u64; MAX_DENSE_TOKENS]>,
    found_gram: Vec<[u64; MAX_DENSE_TOKENS]>,
}

impl DenseOrders {
    /// Clipped matches of orders `1..=order` into `row[2..]` (row layout of [`crate::count::row_width`],
    /// lengths and totals already filled, matches 0) of a hypothesis of `1..=`[`MAX_DENSE_TOKENS`] words
    /// against the present references (`n_refs >= 1` of them, each of at most [`MAX_DENSE_TOKENS`]), with
    /// position bit masks (see the module's notes).
    pub(crate) fn count_short<W: Words>(
        &mut self,
        hyp: W,
        refs: impl Iterator<Item = W>,
        n_refs: usize,
        order: usize,
        row: &mut [i64],
    ) {
        #[cfg(target_arch = "x86_64")]
        if crate::cpu::bit_instructions() {
            // SAFETY: the processor has the instructions the function is compiled for
            return unsafe { self.count_short_bmi(hyp, refs, n_refs, order, row) };
        }
        self.count_masks(hyp, refs, n_refs, order, row);
    }

    /// [`Self::count_masks`] compiled for processors with AVX2 and the bit instructions
    /// ([`crate::cpu::bit_instructions`]): bits counted by one instruction (the baseline x86_64 target
    /// counts them with a dozen shifts and masks), shifts by a register without moving it to `cl`, a word's
    /// key read and masked with vector instructions.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
    fn count_short_bmi<W: Words>(
        &mut self,
        hyp: W,
        refs: impl Iterator<Item = W>,
        n_refs: usize,
        order: usize,
        row: &mut [i64],
    ) {
        self.count_masks(hyp, refs, n_refs, order, row)
    }

    /// [`Self::count_short`].
    #[inline(always)]
    pub(crate) fn count_masks<W: Words>(
        &mut self,
        hyp: W,
        refs: impl Iterator<Item = W>,
        n_refs: usize,
        order: usize,
        row: &mut [i64],
    ) {
        let m = hyp.count();
        assert!(
            (1..=MAX_DENSE_TOKENS).contains(&m) && n_refs >= 1,
            "a short segment with references"
        );
        let words = &mut *self.words;
        let n_words = words.number_hypothesis(hyp);
        if self.same_word.len() < MAX_DENSE_TOKENS {
            self.same_word.resize(MAX_DENSE_TOKENS, 0);
            self.same_gram.resize(MAX_DENSE_TOKENS, 0);
        }
        // the current-order masks start as the words' (order 1)
        words.take_marks(m, n_words, &mut self.same_word, &mut self.same_gram);
        if self.found_word.len() < n_refs {
            self.found_word.resize(n_refs, [0; MAX_DENSE_TOKENS]);
            self.found_gram.resize(n_refs, [0; MAX_DENSE_TOKENS]);
        }
        let found = self.found_word.iter_mut().zip(&mut self.found_gram);
        let mut marked = 0;
        for ((found_word, found_gram), reference) in found.zip(refs) {
            assert!(reference.count() <= MAX_DENSE_TOKENS, "a short reference");
            words.mark_reference(hyp, reference);
            words.take_marks(m, n_words, found_word, found_gram);
            marked += 1;
        }
        assert_eq!(marked, n_refs, "the number of references");
        let top = order.min(m); // orders past the hypothesis length have no n-grams
        let (same_word, same_gram) = (&self.same_word[..m], &mut self.same_gram[..m]);
        let (found_word, found_gram) = (&self.found_word[..n_refs], &mut self.found_gram[..n_refs]);
        if let ([found_word], [found_gram]) = (found_word, &mut *found_gram) {
            // one reference (the common case): one pass per order
            let (found_word, found_gram) = (&found_word[..m], &mut found_gram[..m]);
            for n in 1..=top {
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
        for n in 1..=top {
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

    /// Clipped matches of orders `2..=order` into `row[3..]` (lengths, totals and unigram matches already
    /// filled) through the pair array: `hyp_slots` are the hypothesis words' table slots (at most
    /// [`MAX_DENSE_TOKENS`]), `ref_slots[k]` reference k's (`NONE`: not a hypothesis word, references of
    /// any length), `matched(slot)` whether a hypothesis word occurred in some reference.
    pub(crate) fn count_pairs(
        &mut self,
        hyp_slots: &[u32],
        ref_slots: &[Vec<u32>],
        matched: impl Fn(u32) -> bool,
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
                                          // in the hypothesis.
        live_where(&mut self.hyp_live, &self.hyp_words, |i, _| {
            matched(hyp_slots[i])
        });
        for (live, words) in self.ref_live.iter_mut().zip(&self.ref_words).take(n_refs) {
            live_where(live, words, |_, w| w != 0);
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
                keep_mapped(live, |(j, prefix)| {
                    let id =
                        pairs[prefix as usize * width + words[j as usize + last] as usize] as usize;
                    // clipping: the best reference's count grows only up to the hypothesis count
                    let c = &mut counts[id];
                    let cur = c[2] + 1;
                    c[2] = cur;
                    correct += ((cur > c[1]) & (cur <= c[0])) as u64;
                    c[1] = c[1].max(cur);
                    ((j, id as u32), id != 0)
                });
            }
            row[1 + n] = correct as i64;
            for &slot in &self.touched {
                pairs[slot as usize] = 0; // back to all zeros
            }
            if correct == 0 || n == order {
                break; // no n-gram matched: no longer one can
            }
            // a hypothesis n-gram that occurred in no reference cannot start a matching one
            keep_mapped(&mut self.hyp_live, |e| (e, counts[e.1 as usize][1] > 0));
            n_prefixes = k;
        }
    }
}
