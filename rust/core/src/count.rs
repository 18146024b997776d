//! Per-segment BLEU statistics: clipped n-gram matches against any number of references.
//!
//! No global vocabulary: each segment interns its hypothesis tokens into local dense ids (hash + byte
//! comparison); reference tokens are only looked up, since an n-gram absent from the hypothesis cannot
//! match. Order n+1 ids are interned from (order-n id, next token id) pairs, so every order costs one
//! table pass, and an n-gram whose prefix never matched is dropped before the next order.

use crate::dense::{DenseOrders, Words, MAX_DENSE_TOKENS};
use crate::live::{drop_past, keep_mapped, live_where};
use crate::table::{same_bytes, word_key_at, GramTable, WordKey, NONE};

/// Tokens of one line: bytes in `buf`, one `(start, end)` range per token.
#[derive(Clone, Copy)]
pub struct TokenSpans<'a> {
    pub buf: &'a [u8],
    pub spans: &'a [(u32, u32)],
}

impl TokenSpans<'_> {
    #[inline(always)]
    fn word(&self, i: usize) -> &[u8] {
        let (start, end) = self.spans[i];
        &self.buf[start as usize..end as usize]
    }
}

impl Words for TokenSpans<'_> {
    #[inline(always)]
    fn count(&self) -> usize {
        self.spans.len()
    }
    #[inline(always)]
    fn key(&self, i: usize) -> WordKey {
        let (start, end) = self.spans[i];
        word_key_at(self.buf, start as usize, end as usize)
    }
    #[inline(always)]
    fn same(&self, i: usize, other: &Self, j: usize) -> bool {
        same_bytes(self.word(i), other.word(j))
    }
}

/// Width of a statistics row counting orders `1..=order`: `[hyp_len, ref_len, correct.., total..]`.
pub fn row_width(order: usize) -> usize {
    2 + 2 * order
}

/// Length of the reference closest to `hyp_len`, ties to the shorter one (sacreBLEU); 0 without any.
pub(crate) fn closest_ref_len(hyp_len: usize, ref_lens: impl IntoIterator<Item = usize>) -> usize {
    let mut best: Option<(usize, usize)> = None; // (diff, len)
    for r in ref_lens {
        let d = hyp_len.abs_diff(r);
        best = match best {
            Some((bd, bl)) if bd < d || (bd == d && bl <= r) => Some((bd, bl)),
            _ => Some((d, r)),
        };
    }
    best.map_or(0, |(_, l)| l)
}

/// Reusable state for counting one segment after another (one per thread).
pub struct SegmentCounter {
    order: usize,
    table: GramTable,
    /// the hypothesis' word slots (order-1 ids), and its live current-order n-grams (start, slot)
    hyp_tok: Vec<u32>,
    hyp_live: Vec<(u32, u32)>,
    /// the same for the present references (the first `n_refs` entries; NONE: not a hypothesis word)
    ref_tok: Vec<Vec<u32>>,
    ref_live: Vec<Vec<(u32, u32)>>,
    n_refs: usize,
    /// orders 2.. of hypotheses of up to `dense_limit` tokens (see [`crate::dense`])
    dense: DenseOrders,
    dense_limit: usize,
}

impl SegmentCounter {
    pub fn new(order: usize) -> Self {
        assert!(order >= 1, "n-gram order must be at least 1");
        SegmentCounter {
            order,
            table: GramTable::default(),
            hyp_tok: Vec::new(),
            hyp_live: Vec::new(),
            ref_tok: Vec::new(),
            ref_live: Vec::new(),
            n_refs: 0,
            dense: DenseOrders::default(),
            dense_limit: MAX_DENSE_TOKENS,
        }
    }

    /// The same counter that counts every segment in the n-gram table (the dense path's reference).
    #[cfg(test)]
    pub(crate) fn hashed_only(order: usize) -> Self {
        SegmentCounter {
            dense_limit: 0,
            ..Self::new(order)
        }
    }

    pub(crate) fn order(&self) -> usize {
        self.order
    }

    /// Fills the lengths and totals of `row`, zeroes the matches; false if nothing can match.
    fn start(
        &mut self,
        hyp_len: usize,
        ref_lens: impl Iterator<Item = usize> + Clone,
        row: &mut [i64],
    ) -> bool {
        let order = self.order;
        assert_eq!(row.len(), row_width(order), "statistics row width");
        row.fill(0);
        row[0] = hyp_len as i64;
        row[1] = closest_ref_len(hyp_len, ref_lens.clone()) as i64;
        for n in 1..=order {
            row[1 + order + n] = (hyp_len + 1).saturating_sub(n) as i64;
        }
        self.n_refs = ref_lens.count();
        hyp_len > 0 && self.n_refs > 0
    }

    /// Whether the segment is counted by [`DenseOrders::count_short`]: every line has at most
    /// [`MAX_DENSE_TOKENS`] words (and the hypothesis at most `dense_limit`).
    fn short(&self, hyp_len: usize, mut ref_lens: impl Iterator<Item = usize>) -> bool {
        hyp_len <= self.dense_limit && ref_lens.all(|n| n <= MAX_DENSE_TOKENS)
    }

    /// Starts the n-gram table for the words of a segment that is not short.
    fn start_table(&mut self, hyp_len: usize) {
        while self.ref_tok.len() < self.n_refs {
            self.ref_tok.push(Vec::new());
            self.ref_live.push(Vec::new());
        }
        self.hyp_tok.clear();
        self.table.start(hyp_len);
    }

    /// Statistics row of text tokens; `None` references are missing.
    pub fn count_text(
        &mut self,
        hyp: TokenSpans<'_>,
        refs: &[Option<TokenSpans<'_>>],
        row: &mut [i64],
    ) {
        let present = refs.iter().flatten();
        let ref_lens = present.clone().map(|r| r.spans.len());
        if !self.start(hyp.spans.len(), ref_lens.clone(), row) {
            return;
        }
        if self.short(hyp.spans.len(), ref_lens) {
            let (n_refs, order) = (self.n_refs, self.order);
            return self
                .dense
                .count_short(hyp, present.copied(), n_refs, order, row);
        }
        self.start_table(hyp.spans.len());
        let table = &mut self.table;
        self.hyp_tok
            .extend((0..hyp.spans.len()).map(|pos| table.add_hyp_word(hyp.buf, hyp.spans, pos)));
        for (k, r) in present.enumerate() {
            let out = &mut self.ref_tok[k];
            out.clear();
            out.extend(
                r.spans
                    .iter()
                    .map(|&span| table.add_ref_word(hyp.buf, hyp.spans, r.buf, span, k as u32)),
            );
        }
        self.higher_orders(row);
    }

    /// Statistics row of integer token ids; `None` references are missing.
    pub fn count_ids(&mut self, hyp: &[u64], refs: &[Option<&[u64]>], row: &mut [i64]) {
        let present = refs.iter().flatten();
        let ref_lens = present.clone().map(|r| r.len());
        if !self.start(hyp.len(), ref_lens.clone(), row) {
            return;
        }
        if self.short(hyp.len(), ref_lens) {
            let (n_refs, order) = (self.n_refs, self.order);
            return self
                .dense
                .count_short(hyp, present.copied(), n_refs, order, row);
        }
        self.start_table(hyp.len());
        let table = &mut self.table;
        self.hyp_tok
            .extend(hyp.iter().map(|&t| table.add_hyp_key(t)));
        for (k, r) in present.enumerate() {
            let out = &mut self.ref_tok[k];
            out.clear();
            out.extend(r.iter().map(|&t| table.add_ref_key(t, k as u32)));
        }
        self.higher_orders(row);
    }

    /// Orders 2.. from the word slots: an order-n n-gram is the pair (its (n-1)-gram prefix, last word).
    /// Only the live n-grams are kept, as (start position, slot): for the hypothesis those whose prefix
    /// matched some reference, for a reference those found in the hypothesis, so every order walks fewer.
    fn higher_orders(&mut self, row: &mut [i64]) {
        let order = self.order;
        row[2] = self.table.correct as i64;
        if self.table.correct == 0 || order == 1 {
            return;
        }
        let table = &mut self.table;
        if self.hyp_tok.len() <= self.dense_limit {
            // short, but a reference is not
            let refs = &self.ref_tok[..self.n_refs];
            let matched = |slot| table.matched(slot);
            return self
                .dense
                .count_pairs(&self.hyp_tok, refs, matched, order, row);
        }
        // a word that never matched cannot start a matching bigram
        live_where(&mut self.hyp_live, &self.hyp_tok, |_, t| table.matched(t));
        for k in 0..self.n_refs {
            live_where(&mut self.ref_live[k], &self.ref_tok[k], |_, t| t != NONE);
        }
        let hyp_tok = &self.hyp_tok;
        for n in 2..=order {
            let last = n - 1; // offset of an n-gram's last word from its start
            drop_past(&mut self.hyp_live, hyp_tok.len(), last);
            if self.hyp_live.is_empty() {
                break;
            }
            table.start(self.hyp_live.len());
            for e in self.hyp_live.iter_mut() {
                e.1 = table.add_hyp_key(pair(e.1, hyp_tok[e.0 as usize + last]));
            }
            for k in 0..self.n_refs {
                let (tok, live) = (&self.ref_tok[k], &mut self.ref_live[k]);
                drop_past(live, tok.len(), last);
                // a last word that is not a hypothesis word (NONE) makes a key no hypothesis n-gram has
                keep_mapped(live, |(j, p)| {
                    let id = table.add_ref_key(pair(p, tok[j as usize + last]), k as u32);
                    ((j, id), id != NONE)
                });
            }
            row[1 + n] = table.correct as i64;
            if table.correct == 0 || n == order {
                break;
            }
            // a hypothesis n-gram that occurred in no reference cannot start a matching one
            keep_mapped(&mut self.hyp_live, |e| (e, table.matched(e.1)));
        }
    }
}

#[inline]
fn pair(prefix: u32, last: u32) -> u64 {
    ((prefix as u64) << 32) | last as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testgen::xorshift;
    use std::collections::HashMap;

    type Spanned = (Vec<u8>, Vec<(u32, u32)>);

    fn spans(text: &str) -> Spanned {
        let mut sp = Vec::new();
        let mut pos = 0usize;
        for w in text.split(' ') {
            if !w.is_empty() {
                sp.push((pos as u32, (pos + w.len()) as u32));
            }
            pos += w.len() + 1;
        }
        (text.as_bytes().to_vec(), sp)
    }

    /// Straightforward reference: n-gram maps per reference, max, clip.
    fn naive(hyp: &[&str], refs: &[Option<Vec<&str>>], order: usize) -> Vec<i64> {
        let mut row = vec![0i64; row_width(order)];
        row[0] = hyp.len() as i64;
        row[1] = closest_ref_len(hyp.len(), refs.iter().flatten().map(Vec::len)) as i64;
        for n in 1..=order {
            let grams = |t: &[&str]| {
                let mut m: HashMap<Vec<String>, i64> = HashMap::new();
                for w in t.windows(n) {
                    *m.entry(w.iter().map(|s| s.to_string()).collect())
                        .or_default() += 1;
                }
                m
            };
            let h = grams(hyp);
            let mut mx: HashMap<Vec<String>, i64> = HashMap::new();
            for r in refs.iter().flatten() {
                for (g, c) in grams(r) {
                    let e = mx.entry(g).or_default();
                    *e = (*e).max(c);
                }
            }
            row[1 + n] = h
                .iter()
                .map(|(g, c)| (*c).min(*mx.get(g).unwrap_or(&0)))
                .sum();
            row[1 + order + n] = (hyp.len() + 1).saturating_sub(n) as i64;
        }
        row
    }

    fn check(hyp: &str, refs: &[Option<&str>], order: usize) {
        let (hb, hs) = spans(hyp);
        let owned: Vec<Option<Spanned>> = refs.iter().map(|r| r.map(spans)).collect();
        let ref_spans: Vec<Option<TokenSpans<'_>>> = owned
            .iter()
            .map(|o| o.as_ref().map(|(b, s)| TokenSpans { buf: b, spans: s }))
            .collect();
        let mut c = SegmentCounter::new(order);
        let mut row = vec![0i64; row_width(order)];
        c.count_text(
            TokenSpans {
                buf: &hb,
                spans: &hs,
            },
            &ref_spans,
            &mut row,
        );
        let hw: Vec<&str> = hyp.split(' ').filter(|w| !w.is_empty()).collect();
        let rw: Vec<Option<Vec<&str>>> = refs
            .iter()
            .map(|r| r.map(|r| r.split(' ').filter(|w| !w.is_empty()).collect()))
            .collect();
        let expected = naive(&hw, &rw, order);
        assert_eq!(row, expected, "text {hyp:?} vs {refs:?}");
        // the same through integer ids
        let mut vocab: HashMap<&str, u64> = HashMap::new();
        let mut id = |w: &'static str| -> u64 {
            let n = vocab.len() as u64;
            *vocab
                .entry(w)
                .or_insert(n.wrapping_mul(0x1234_5678_9abc_def1))
        };
        let leak = |s: &str| -> &'static str { Box::leak(s.to_string().into_boxed_str()) };
        let hid: Vec<u64> = hw.iter().map(|w| id(leak(w))).collect();
        let rid: Vec<Option<Vec<u64>>> = rw
            .iter()
            .map(|r| r.as_ref().map(|r| r.iter().map(|w| id(leak(w))).collect()))
            .collect();
        let rid_ref: Vec<Option<&[u64]>> = rid.iter().map(|r| r.as_deref()).collect();
        let mut row2 = vec![0i64; row_width(order)];
        c.count_ids(&hid, &rid_ref, &mut row2);
        assert_eq!(row2, expected, "ids {hyp:?} vs {refs:?}");
    }

    #[test]
    fn clipping_and_lengths() {
        check(
            "the the the the",
            &[Some("the cat"), Some("the the cat")],
            4,
        );
        check(
            "the cat sat on the mat",
            &[Some("the cat sat on the mat")],
            4,
        );
        check("a b c d e", &[Some("a b x d e"), None, Some("b c d")], 5);
        check("", &[Some("a b")], 4);
        check("a b", &[Some("")], 4);
        check("a b", &[None, None], 4);
        check("x y z", &[Some("a b c d e f"), Some("a")], 3);
        check(
            "a b a b a b",
            &[Some("b a b a"), Some("a b a b a b a b")],
            5,
        );
    }

    #[test]
    fn closest_length_ties_go_to_the_shorter() {
        assert_eq!(closest_ref_len(5, [7, 3]), 3);
        assert_eq!(closest_ref_len(5, [3, 7]), 3);
        assert_eq!(closest_ref_len(5, [6, 4, 5]), 5);
        assert_eq!(closest_ref_len(5, []), 0);
    }

    #[test]
    fn pseudo_random_segments_match_the_naive_count() {
        let words = [
            "a",
            "b",
            "c",
            "dd",
            "e",
            "ff",
            "a b",
            "abcdefg",
            "abcdefgh",
            "abcdefgi",
            "abcdefghijklmnopq",
        ];
        let mut next = xorshift(12345);
        for _ in 0..300 {
            let line = |next: &mut dyn FnMut(usize) -> usize| {
                let n = if next(4) == 0 { next(120) } else { next(12) };
                (0..n)
                    .map(|_| words[next(words.len())])
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let hyp = line(&mut next);
            let n_refs = next(4);
            let refs: Vec<Option<String>> = (0..n_refs)
                .map(|_| {
                    if next(5) == 0 {
                        None
                    } else {
                        Some(line(&mut next))
                    }
                })
                .collect();
            let refs_str: Vec<Option<&str>> = refs.iter().map(|r| r.as_deref()).collect();
            let order = 1 + next(5);
            check(&hyp, &refs_str, order);
        }
    }

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

    /// The same for text: words of 15, 16 and 17 bytes that differ in one byte only (exact keys, and
    /// hashed ones compared byte by byte), repeated words, empty lines, lines of up to 70 words, with
    /// the 16 bytes of padding the tokenizer leaves after a line and without.
    #[test]
    fn text_rows_equal_those_of_the_hash_table() {
        type Line = (Vec<u8>, Vec<(u32, u32)>);
        let vocab: [&[u8]; 12] = [
            b"a",
            b"of",
            b"abcdefghijklmno",
            b"abcdefghijklmnp",
            b"abcdefghijklmnop",
            b"abcdefghijklmnoq",
            b"bbcdefghijklmnop",
            b"abcdefghijklmnopq",
            b"abcdefghijklmnopr",
            b"\xc3\xa9t\xc3\xa9",
            b"abcdefg",
            b"abcdefgh",
        ];
        let mut next = xorshift(0x9E37_79B9_7F4A_7C15);
        let mut dense: Vec<SegmentCounter> = (1..=6).map(SegmentCounter::new).collect();
        let mut hashed: Vec<SegmentCounter> = (1..=6).map(SegmentCounter::hashed_only).collect();
        for case in 0..3000 {
            let few = 1 + next(if case % 2 == 0 { 3 } else { vocab.len() });
            let padded = case % 3 != 0;
            let line = |next: &mut dyn FnMut(usize) -> usize| {
                let n = match next(8) {
                    0 => next(71),
                    1 => 60 + next(8),
                    _ => next(25),
                };
                let (mut buf, mut spans) = (Vec::new(), Vec::new());
                for _ in 0..n {
                    let w = vocab[next(few)];
                    spans.push((buf.len() as u32, (buf.len() + w.len()) as u32));
                    buf.extend_from_slice(w);
                    buf.push(b' ');
                }
                if padded {
                    buf.extend_from_slice(b"                ");
                }
                (buf, spans)
            };
            let hyp = line(&mut next);
            let refs: Vec<Option<Line>> = (0..next(5))
                .map(|_| (next(6) != 0).then(|| line(&mut next)))
                .collect();
            fn tokens((buf, spans): &Line) -> TokenSpans<'_> {
                TokenSpans { buf, spans }
            }
            let ref_tokens: Vec<Option<TokenSpans<'_>>> =
                refs.iter().map(|r| r.as_ref().map(tokens)).collect();
            let order = 1 + next(6);
            let (mut a, mut b) = (vec![0i64; row_width(order)], vec![0i64; row_width(order)]);
            dense[order - 1].count_text(tokens(&hyp), &ref_tokens, &mut a);
            hashed[order - 1].count_text(tokens(&hyp), &ref_tokens, &mut b);
            assert_eq!(a, b, "case {case}, order {order}");
        }
    }

    /// Both compilations of the bit-mask counting (the baseline one, which this machine's dispatch may
    /// not take, called directly) give the rows of the table.
    #[test]
    fn the_baseline_compilation_counts_as_the_table() {
        let mut next = xorshift(0x51_7CC1_B727_220A);
        let mut dense = DenseOrders::default();
        let mut hashed: Vec<SegmentCounter> = (1..=6).map(SegmentCounter::hashed_only).collect();
        for case in 0..3000 {
            let vocab = 1 + next(if case % 3 == 0 { 4 } else { 30 });
            let line = |next: &mut dyn FnMut(usize) -> usize, least: usize| -> Vec<u64> {
                (0..least + next(65 - least))
                    .map(|_| next(vocab) as u64)
                    .collect()
            };
            let hyp = line(&mut next, 1);
            let refs: Vec<Vec<u64>> = (0..1 + next(4)).map(|_| line(&mut next, 0)).collect();
            let order = 1 + next(6);
            let present: Vec<Option<&[u64]>> = refs.iter().map(|r| Some(&r[..])).collect();
            let mut expected = vec![0i64; row_width(order)];
            hashed[order - 1].count_ids(&hyp, &present, &mut expected);
            let mut row = expected.clone();
            row[2..2 + order].fill(0);
            let refs_iter = refs.iter().map(|r| &r[..]);
            dense.count_masks(&hyp[..], refs_iter, refs.len(), order, &mut row);
            assert_eq!(row, expected, "case {case}");
        }
    }
}
