//! GLEU (Wu et al. 2016) with NLTK 3.10.4's definition (`nltk.translate.gleu_score`): for a hypothesis and
//! a reference, `tp` is the number of n-grams (orders `min_len..=max_len`, counted with multiplicity)
//! they share, and `n_all = max(hypothesis n-grams, reference n-grams)`; a segment keeps the reference
//! with the highest `tp / n_all` (the first on ties; references with `n_all = 0` are skipped), and the
//! corpus score is `sum(tp) / sum(n_all)`. So a segment's statistics are two integers that add up.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::par::{for_each_unit, pick_threads};
use crate::words::{is_python_space, FastHasher, GramIds, WordIds, NO_ID};

/// Segments per unit of work handed to a thread.
const GLEU_UNIT: usize = 256;

/// One segment: the hypothesis' words and those of its references (only the references present).
pub struct Segment<'a> {
    pub hyp: Vec<&'a str>,
    pub refs: Vec<Vec<&'a str>>,
}

/// Number of n-grams of orders `min_len..=max_len` of a sequence of `len` words.
pub(crate) fn ngram_total(len: usize, min_len: usize, max_len: usize) -> i64 {
    (min_len.max(1)..=max_len.min(len))
        .map(|n| (len + 1 - n) as i64)
        .sum()
}

/// What one thread keeps between segments.
#[derive(Default)]
pub(crate) struct Scratch<'a> {
    words: WordIds<'a>,
    grams: GramIds,
    hyp_ids: Vec<u32>,
    prefix: Vec<u32>,
    next: Vec<u32>,
    hyp_count: Vec<u32>,
    ref_count: Vec<u32>,
    touched: Vec<u32>,
    counted: Vec<u32>,
    ref_words: Vec<u32>,
}

/// `(tp, n_all)` of the best reference of one segment (`(0, 0)` when no reference has an n-gram and
/// neither has the hypothesis).
pub(crate) fn segment_row<'a>(
    seg: &Segment<'a>,
    min_len: usize,
    max_len: usize,
    s: &mut Scratch<'a>,
) -> [i64; 2] {
    s.words.clear();
    s.words.push_ids(&seg.hyp, &mut s.hyp_ids);
    let tpfp = ngram_total(seg.hyp.len(), min_len, max_len);
    // ids of the hypothesis' n-grams, order by order, counted for the orders that count
    s.grams.reset(s.words.len());
    s.hyp_count.clear();
    s.prefix.clear();
    s.prefix.extend_from_slice(&s.hyp_ids);
    s.counted.clear();
    for n in 1..=max_len.min(seg.hyp.len()) {
        if n > 1 {
            s.next.clear();
            for p in 0..s.prefix.len() - 1 {
                let id = s.grams.id(s.prefix[p], s.hyp_ids[p + n - 1]);
                s.next.push(id);
            }
            std::mem::swap(&mut s.prefix, &mut s.next);
        }
        if n >= min_len {
            s.counted.extend_from_slice(&s.prefix);
        }
    }
    s.hyp_count.resize(s.grams.count(), 0);
    for &id in &s.counted {
        s.hyp_count[id as usize] += 1;
    }
    s.ref_count.clear();
    s.ref_count.resize(s.grams.count(), 0);
    let mut best: Option<(i64, i64)> = None;
    for reference in &seg.refs {
        let tpfn = ngram_total(reference.len(), min_len, max_len);
        let n_all = tpfp.max(tpfn);
        if n_all == 0 {
            continue;
        }
        // the reference's n-grams that the hypothesis has: looked up, never added
        let mut tp = 0i64;
        s.ref_words.clear();
        s.ref_words
            .extend(reference.iter().map(|w| s.words.get(w).unwrap_or(NO_ID)));
        s.prefix.clear();
        s.prefix.extend_from_slice(&s.ref_words);
        for n in 1..=max_len.min(reference.len()) {
            if n > 1 {
                s.next.clear();
                for p in 0..s.prefix.len() - 1 {
                    s.next
                        .push(s.grams.get(s.prefix[p], s.ref_words[p + n - 1]));
                }
                std::mem::swap(&mut s.prefix, &mut s.next);
            }
            if n >= min_len {
                for &id in &s.prefix {
                    if id == NO_ID {
                        continue;
                    }
                    let c = &mut s.ref_count[id as usize];
                    if *c == 0 {
                        s.touched.push(id);
                    }
                    *c += 1;
                    if *c <= s.hyp_count[id as usize] {
                        tp += 1;
                    }
                }
            }
        }
        for &id in &s.touched {
            s.ref_count[id as usize] = 0;
        }
        s.touched.clear();
        // NLTK's max(key=tp / n_all): the first reference reaching the highest float ratio
        if better(tp, n_all, best) {
            best = Some((tp, n_all));
        }
    }
    let (tp, n_all) = best.unwrap_or((0, 0));
    [tp, n_all]
}

/// Where a part's words are: text and spans either shared by all segments or this segment's own.
#[derive(Clone, Copy)]
struct Part {
    own_text: bool,
    own_spans: bool,
    start: u32,
    end: u32,
}

/// The words of one segment, the hypothesis' part first, then each reference's: token spans into the text
/// that every segment shares (read in place), or into this segment's own buffer (a tokenizer's output).
pub struct SegmentWords<'a> {
    text: &'a str,
    text_spans: &'a [(u32, u32)],
    buf: String,
    spans: Vec<(u32, u32)>,
    parts: Vec<Part>,
}

impl Default for SegmentWords<'_> {
    fn default() -> Self {
        SegmentWords::new("", &[])
    }
}

impl<'a> SegmentWords<'a> {
    /// Words over the shared `text`, whose tokens are `text_spans` (byte ranges of `text`).
    pub fn new(text: &'a str, text_spans: &'a [(u32, u32)]) -> Self {
        SegmentWords {
            text,
            text_spans,
            buf: String::new(),
            spans: Vec::new(),
            parts: Vec::new(),
        }
    }

    pub fn clear(&mut self) {
        self.buf.clear();
        self.spans.clear();
        self.parts.clear();
    }

    /// A part of the shared tokens `text_spans[start..end]`.
    pub fn push_tokens(&mut self, start: u32, end: u32) {
        self.parts.push(Part {
            own_text: false,
            own_spans: false,
            start,
            end,
        });
    }

    /// A part of the words of the shared text's bytes `start..end` as Python's `str.split()` gives them.
    pub fn push_split(&mut self, start: u32, end: u32) {
        let first = self.spans.len() as u32;
        split_spans(self.text, start as usize, end as usize, &mut self.spans);
        self.parts.push(Part {
            own_text: false,
            own_spans: true,
            start: first,
            end: self.spans.len() as u32,
        });
    }

    /// A part of the words `spans` of `text` (a tokenizer's output), copied.
    pub fn push_words_of(&mut self, text: &str, spans: &[(u32, u32)]) {
        let offset = self.buf.len() as u32;
        self.buf.push_str(text);
        let first = self.spans.len() as u32;
        self.spans
            .extend(spans.iter().map(|&(a, b)| (a + offset, b + offset)));
        self.parts.push(Part {
            own_text: true,
            own_spans: true,
            start: first,
            end: self.spans.len() as u32,
        });
    }

    /// A part of the words `words`, copied.
    pub fn push_words(&mut self, words: &[&str]) {
        let first = self.spans.len() as u32;
        for w in words {
            let start = self.buf.len() as u32;
            self.buf.push_str(w);
            self.spans.push((start, self.buf.len() as u32));
        }
        self.parts.push(Part {
            own_text: true,
            own_spans: true,
            start: first,
            end: self.spans.len() as u32,
        });
    }

    pub fn parts(&self) -> usize {
        self.parts.len()
    }

    /// Part `p`'s text and word spans into it.
    #[inline]
    pub fn part(&self, p: usize) -> (&str, &[(u32, u32)]) {
        let part = self.parts[p];
        let text = if part.own_text { &self.buf } else { self.text };
        let spans = if part.own_spans {
            &self.spans[..]
        } else {
            self.text_spans
        };
        (text, &spans[part.start as usize..part.end as usize])
    }

    /// Part `p`'s words.
    pub fn words(&self, p: usize) -> Vec<&str> {
        let (text, spans) = self.part(p);
        spans
            .iter()
            .map(|&(a, b)| &text[a as usize..b as usize])
            .collect()
    }
}

/// The byte ranges of the words of `text[start..end]` as Python's `str.split()` gives them, appended.
pub fn split_spans(text: &str, start: usize, end: usize, out: &mut Vec<(u32, u32)>) {
    let line = &text[start..end];
    let mut word: Option<usize> = None;
    if line.is_ascii() {
        for (i, &b) in line.as_bytes().iter().enumerate() {
            let space = b == b' ' || (b'\t'..=b'\r').contains(&b) || (0x1c..=0x1f).contains(&b);
            match (space, word) {
                (true, Some(w)) => {
                    out.push(((start + w) as u32, (start + i) as u32));
                    word = None;
                }
                (false, None) => word = Some(i),
                _ => {}
            }
        }
    } else {
        for (i, c) in line.char_indices() {
            match (is_python_space(c), word) {
                (true, Some(w)) => {
                    out.push(((start + w) as u32, (start + i) as u32));
                    word = None;
                }
                (false, None) => word = Some(i),
                _ => {}
            }
        }
    }
    if let Some(w) = word {
        out.push(((start + w) as u32, end as u32));
    }
}

/// A word's hash for the table of a hypothesis' words.
#[inline]
fn word_hash(w: &str) -> u64 {
    use std::hash::Hasher;
    let mut h = FastHasher::default();
    h.write(w.as_bytes());
    h.finish()
}

#[inline]
fn word_at(text: &str, span: (u32, u32)) -> &str {
    &text[span.0 as usize..span.1 as usize]
}

/// Slots of the table of a hypothesis' distinct words (at most 64 words: at most half full).
const SLOTS: usize = 128;

/// What one thread keeps between segments for [`row_of_words`]: a small table of the hypothesis' words
/// (emptied by a new generation, not by clearing) and bit masks of their positions.
pub(crate) struct MaskScratch {
    slot_gen: [u32; SLOTS],
    slot_tag: [u32; SLOTS],
    slot_id: [u8; SLOTS],
    generation: u32,
    /// the first position of each distinct hypothesis word, and the positions of each as a bit mask
    first_at: [u32; 64],
    masks: [u64; 64],
    /// per reference position: the hypothesis positions where the n-gram starting there also starts
    starts: Vec<u64>,
    grams: Vec<u64>,
    used: [u32; 64],
}

impl Default for MaskScratch {
    fn default() -> Self {
        MaskScratch {
            slot_gen: [0; SLOTS],
            slot_tag: [0; SLOTS],
            slot_id: [0; SLOTS],
            generation: 0,
            first_at: [0; 64],
            masks: [0; 64],
            starts: Vec::new(),
            grams: Vec::new(),
            used: [0; 64],
        }
    }
}

impl MaskScratch {
    /// The table's slot for `w` (of hash `h`): its distinct-word id, or None where the word is absent
    /// (`Err(slot)`: the free slot it would take).
    #[inline]
    fn find(&self, hyp: (&str, &[(u32, u32)]), w: &str, h: u64) -> Result<usize, usize> {
        let tag = (h >> 32) as u32;
        let mut slot = h as usize & (SLOTS - 1);
        loop {
            if self.slot_gen[slot] != self.generation {
                return Err(slot);
            }
            let id = self.slot_id[slot] as usize;
            if self.slot_tag[slot] == tag && word_at(hyp.0, hyp.1[self.first_at[id] as usize]) == w
            {
                return Ok(id);
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
    }
}

/// The number of reference n-grams (orders `min_len..=max_len`) that the hypothesis has too, clipped by
/// its counts: `starts[j]` holds the hypothesis positions whose word is the reference's word `j`; the
/// n-gram at `j` then starts at the positions `starts[j] & starts[j + 1] >> 1 & ...`, the lowest of them
/// names it (within an order) and their number is its count in the hypothesis.
fn shared_ngrams(
    starts: &[u64],
    grams: &mut Vec<u64>,
    used: &mut [u32; 64],
    hyp_len: usize,
    min_len: usize,
    max_len: usize,
) -> i64 {
    grams.clear();
    grams.extend_from_slice(starts);
    let top = max_len.min(starts.len()).min(hyp_len);
    let mut tp = 0i64;
    for n in 1..=top {
        if n > 1 {
            let len = starts.len() + 1 - n;
            let mut any = 0u64;
            for j in 0..len {
                let v = grams[j] & (starts[j + n - 1] >> (n - 1));
                grams[j] = v;
                any |= v;
            }
            grams.truncate(len);
            if any == 0 {
                break;
            }
        }
        if n >= min_len {
            used.fill(0);
            for &b in grams.iter() {
                if b != 0 {
                    let g = b.trailing_zeros() as usize;
                    used[g] += 1;
                    tp += i64::from(used[g] <= b.count_ones());
                }
            }
        }
    }
    tp
}

/// NLTK's choice among the references: the first reaching the highest float ratio `tp / n_all`.
#[inline]
fn better(tp: i64, n_all: i64, best: Option<(i64, i64)>) -> bool {
    match best {
        None => true,
        Some((btp, ball)) => (tp as f64) / (n_all as f64) > (btp as f64) / (ball as f64),
    }
}

/// `(tp, n_all)` of the best reference of one segment's words ([`segment_row`]'s numbers): bit masks of
/// word positions for a hypothesis of at most 64 words, else [`segment_row`].
pub(crate) fn row_of_words(
    sw: &SegmentWords<'_>,
    min_len: usize,
    max_len: usize,
    t: &mut MaskScratch,
) -> [i64; 2] {
    let hyp = sw.part(0);
    let hyp_len = hyp.1.len();
    if hyp_len > 64 {
        let seg = Segment {
            hyp: sw.words(0),
            refs: (1..sw.parts()).map(|p| sw.words(p)).collect(),
        };
        return segment_row(&seg, min_len, max_len, &mut Scratch::default());
    }
    t.generation = t.generation.wrapping_add(1);
    if t.generation == 0 {
        t.slot_gen.fill(0);
        t.generation = 1;
    }
    let mut distinct = 0usize;
    for (i, &span) in hyp.1.iter().enumerate() {
        let w = word_at(hyp.0, span);
        let h = word_hash(w);
        match t.find(hyp, w, h) {
            Ok(id) => t.masks[id] |= 1u64 << i,
            Err(slot) => {
                t.slot_gen[slot] = t.generation;
                t.slot_tag[slot] = (h >> 32) as u32;
                t.slot_id[slot] = distinct as u8;
                t.first_at[distinct] = i as u32;
                t.masks[distinct] = 1u64 << i;
                distinct += 1;
            }
        }
    }
    let tpfp = ngram_total(hyp_len, min_len, max_len);
    let mut best: Option<(i64, i64)> = None;
    for p in 1..sw.parts() {
        let (text, spans) = sw.part(p);
        let n_all = tpfp.max(ngram_total(spans.len(), min_len, max_len));
        if n_all == 0 {
            continue;
        }
        t.starts.clear();
        for &span in spans {
            let w = word_at(text, span);
            let mask = match t.find(hyp, w, word_hash(w)) {
                Ok(id) => t.masks[id],
                Err(_) => 0,
            };
            t.starts.push(mask);
        }
        let tp = shared_ngrams(
            &t.starts,
            &mut t.grams,
            &mut t.used,
            hyp_len,
            min_len,
            max_len,
        );
        if better(tp, n_all, best) {
            best = Some((tp, n_all));
        }
    }
    let (tp, n_all) = best.unwrap_or((0, 0));
    [tp, n_all]
}

/// `(tp, n_all)` rows `[S, 2]` of `n_seg` segments, row-major into `out`, on `threads` threads (0: one
/// per 2,000 segments): `fill(i, words)` writes segment `i`'s words (over `text` and its `text_spans`) (the hypothesis' part, then each
/// reference's) or returns false, and then the job stops and returns false.
pub fn gleu_rows_by<'a, F>(
    (text, text_spans): (&'a str, &'a [(u32, u32)]),
    n_seg: usize,
    min_len: usize,
    max_len: usize,
    threads: usize,
    out: &mut [i64],
    fill: F,
) -> bool
where
    F: Fn(usize, &mut SegmentWords<'a>) -> bool + Sync,
{
    assert_eq!(out.len(), 2 * n_seg, "output size");
    if n_seg == 0 {
        return true;
    }
    let threads = pick_threads(threads, n_seg, 2000, n_seg.div_ceil(GLEU_UNIT));
    let failed = AtomicBool::new(false);
    for_each_unit(
        out,
        2 * GLEU_UNIT,
        threads,
        || (SegmentWords::new(text, text_spans), MaskScratch::default()),
        |(sw, t), unit, rows| {
            for (j, row) in rows.chunks_mut(2).enumerate() {
                sw.clear();
                if failed.load(Ordering::Relaxed) || !fill(unit * GLEU_UNIT + j, sw) {
                    failed.store(true, Ordering::Relaxed);
                    return;
                }
                row.copy_from_slice(&row_of_words(sw, min_len, max_len, t));
            }
        },
    );
    !failed.into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    /// NLTK's definition written directly: every n-gram as a word vector in a map.
    fn reference_row(hyp: &[&str], refs: &[Vec<&str>], min_len: usize, max_len: usize) -> [i64; 2] {
        let grams = |s: &[&str]| {
            let mut m: HashMap<Vec<String>, i64> = HashMap::new();
            for n in min_len..=max_len {
                for w in s.windows(n) {
                    *m.entry(w.iter().map(|x| x.to_string()).collect())
                        .or_default() += 1;
                }
            }
            m
        };
        let h = grams(hyp);
        let tpfp: i64 = h.values().sum();
        let mut best: Option<(i64, i64)> = None;
        for r in refs {
            let rg = grams(r);
            let tpfn: i64 = rg.values().sum();
            let tp: i64 = rg
                .iter()
                .map(|(k, v)| (*v).min(*h.get(k).unwrap_or(&0)))
                .sum();
            let n_all = tpfp.max(tpfn);
            if n_all == 0 {
                continue;
            }
            if best.is_none_or(|(a, b)| tp as f64 / n_all as f64 > a as f64 / b as f64) {
                best = Some((tp, n_all));
            }
        }
        let (a, b) = best.unwrap_or((0, 0));
        [a, b]
    }

    #[test]
    fn split_spans_is_python_split() {
        let texts = [
            "",
            "  a  b\tc\u{0b}d\u{1c}e  ",
            "x",
            "é  字\u{3000}z\u{85}",
            " \u{a0} q",
        ];
        for t in texts {
            let mut spans = Vec::new();
            let padded = format!("#{t}#");
            split_spans(&padded, 1, padded.len() - 1, &mut spans);
            let got: Vec<&str> = spans.iter().map(|&s| word_at(&padded, s)).collect();
            assert_eq!(got, crate::words::split_python(t), "{t:?}");
        }
    }

    #[test]
    fn bit_mask_rows_equal_the_hashed_rows() {
        let mut draw = crate::testgen::xorshift(11);
        let mut next = |k: u64| draw(k as usize) as u64;
        let vocab = ["a", "b", "c", "dd", "a longer word", "é", "字"];
        let (mut sw, mut t) = (SegmentWords::default(), MaskScratch::default());
        for round in 0..3000 {
            // hypotheses up to 80 words: past 64 the hashed rows are taken
            let max_words = if round % 10 == 0 { 81 } else { 20 };
            let kinds = 1 + next(vocab.len() as u64) as usize;
            let hyp: Vec<&str> = (0..next(max_words))
                .map(|_| vocab[next(kinds as u64) as usize])
                .collect();
            let refs: Vec<Vec<&str>> = (0..next(4))
                .map(|_| {
                    (0..next(max_words))
                        .map(|_| vocab[next(kinds as u64) as usize])
                        .collect()
                })
                .collect();
            let (lo, hi) = (1 + next(3) as usize, 1 + next(6) as usize);
            sw.clear();
            for part in std::iter::once(&hyp).chain(&refs) {
                sw.push_words(part);
            }
            let seg = Segment {
                hyp: hyp.clone(),
                refs: refs.clone(),
            };
            assert_eq!(
                row_of_words(&sw, lo, hi, &mut t),
                segment_row(&seg, lo, hi, &mut Scratch::default()),
                "{hyp:?} {refs:?} {lo} {hi}"
            );
        }
    }

    #[test]
    fn rows_equal_the_direct_definition() {
        let mut draw = crate::testgen::xorshift(7);
        let mut next = |k: u64| draw(k as usize) as u64;
        let vocab = ["a", "b", "c", "d", "e"];
        let mut s = Scratch::default();
        for _ in 0..400 {
            let hyp: Vec<&str> = (0..next(12)).map(|_| vocab[next(5) as usize]).collect();
            let refs: Vec<Vec<&str>> = (0..1 + next(3))
                .map(|_| (0..next(12)).map(|_| vocab[next(5) as usize]).collect())
                .collect();
            let (lo, hi) = (1 + next(3) as usize, 1 + next(5) as usize);
            let seg = Segment {
                hyp: hyp.clone(),
                refs: refs.clone(),
            };
            assert_eq!(
                segment_row(&seg, lo, hi, &mut s),
                reference_row(&hyp, &refs, lo, hi),
                "{hyp:?} {refs:?}"
            );
        }
    }
}
