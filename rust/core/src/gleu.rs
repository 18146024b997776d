//! GLEU (Wu et al. 2016) with NLTK 3.10.4's definition (`nltk.translate.gleu_score`): for a hypothesis and
//! a reference, `tp` is the number of n-grams (orders `min_len..=max_len`, counted with multiplicity)
//! they share, and `n_all = max(hypothesis n-grams, reference n-grams)`; a segment keeps the reference
//! with the highest `tp / n_all` (the first on ties; references with `n_all = 0` are skipped), and the
//! corpus score is `sum(tp) / sum(n_all)`. So a segment's statistics are two integers that add up.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::par::{for_each_unit, pick_threads};
use crate::words::{is_python_space, GramIds, WordIds, NO_ID};

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

/// The byte ranges of the words of `text[start..end]` as Python's `str.split()` gives them, appended:
/// whitespace bit masks of 64 bytes at a time, words beginning and ending where the mask changes.
pub fn split_spans(text: &str, start: usize, end: usize, out: &mut Vec<(u32, u32)>) {
    let line = &text.as_bytes()[start..end];
    let blocks = line.len().div_ceil(64);
    let mut small = [0u64; 8];
    let mut large = Vec::new();
    let spaces: &mut [u64] = if blocks <= small.len() {
        &mut small[..blocks]
    } else {
        large.resize(blocks, 0);
        &mut large
    };
    let mut any_lead = 0u64;
    for (k, block) in line.chunks(64).enumerate() {
        let (space, lead) = block_masks(block);
        spaces[k] = space;
        any_lead |= lead;
    }
    if any_lead != 0 {
        mark_wide_spaces(line, spaces);
    }
    // the byte before the line counts as whitespace
    let mut before_space = 1u64;
    let mut word_start = 0usize;
    let mut in_word = false;
    for (k, &space) in spaces.iter().enumerate() {
        let mut changes = space ^ (space << 1 | before_space);
        let len = line.len() - 64 * k;
        if len < 64 {
            changes &= (1u64 << len) - 1;
        }
        before_space = space >> 63;
        while changes != 0 {
            let i = 64 * k + changes.trailing_zeros() as usize;
            changes &= changes - 1;
            if in_word {
                out.push(((start + word_start) as u32, (start + i) as u32));
            } else {
                word_start = i;
            }
            in_word = !in_word;
        }
    }
    if in_word {
        out.push(((start + word_start) as u32, (start + line.len()) as u32));
    }
}

/// Sets the bits of every byte of the whitespace characters beyond ASCII in `spaces` (the masks of
/// `line`). Each begins with one of 0xC2 (U+0085, U+00A0), 0xE1 (U+1680), 0xE2 (U+2000..U+205F) or 0xE3
/// (U+3000); a valid UTF-8 line is decoded from there.
#[cold]
fn mark_wide_spaces(line: &[u8], spaces: &mut [u64]) {
    for (i, &b) in line.iter().enumerate() {
        if !matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3) {
            continue;
        }
        let n = if b == 0xC2 { 2 } else { 3 };
        let Some(bytes) = line.get(i..i + n) else {
            continue;
        };
        let space = std::str::from_utf8(bytes)
            .ok()
            .and_then(|c| c.chars().next())
            .is_some_and(is_python_space);
        if space {
            for j in i..i + n {
                spaces[j / 64] |= 1u64 << (j % 64);
            }
        }
    }
}

/// Whether `b` is a byte Python's `str.split()` splits at in ASCII text.
#[cfg(any(test, not(target_arch = "x86_64")))]
#[inline(always)]
fn ascii_space(b: u8) -> bool {
    b == b' ' || (b'\t'..=b'\r').contains(&b) || (0x1c..=0x1f).contains(&b)
}

/// The bit masks of the ASCII whitespace bytes of `block` (at most 64 bytes, bit `i` for byte `i`) and of
/// its bytes that may begin a whitespace character beyond ASCII (0xC2, 0xE1, 0xE2, 0xE3).
#[inline]
fn block_masks(block: &[u8]) -> (u64, u64) {
    #[cfg(target_arch = "x86_64")]
    {
        let mut padded = [0u8; 64];
        let bytes: &[u8] = if block.len() == 64 {
            block
        } else {
            padded[..block.len()].copy_from_slice(block);
            &padded
        };
        // SAFETY: SSE2 is part of x86_64; the four loads read the 64 bytes of `bytes`
        unsafe {
            use std::arch::x86_64::*;
            let in_range = |x: __m128i, lo: u8, width: u8| {
                let d = _mm_sub_epi8(x, _mm_set1_epi8(lo as i8));
                _mm_cmpeq_epi8(_mm_min_epu8(d, _mm_set1_epi8(width as i8)), d)
            };
            let (mut space, mut lead) = (0u64, 0u64);
            for k in 0..4 {
                let x = _mm_loadu_si128(bytes.as_ptr().add(16 * k).cast());
                let sp = _mm_or_si128(
                    _mm_cmpeq_epi8(x, _mm_set1_epi8(b' ' as i8)),
                    _mm_or_si128(in_range(x, 9, 4), in_range(x, 0x1c, 3)),
                );
                let ld = _mm_or_si128(
                    _mm_cmpeq_epi8(x, _mm_set1_epi8(0xC2u8 as i8)),
                    in_range(x, 0xE1, 2),
                );
                space |= u64::from(_mm_movemask_epi8(sp) as u16) << (16 * k);
                lead |= u64::from(_mm_movemask_epi8(ld) as u16) << (16 * k);
            }
            (space, lead)
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    block
        .iter()
        .enumerate()
        .fold((0u64, 0u64), |(s, l), (i, &b)| {
            (
                s | u64::from(ascii_space(b)) << i,
                l | u64::from(matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3)) << i,
            )
        })
}

/// A word's key in the table of a hypothesis' words: a word of up to 15 bytes is its own key (its bytes,
/// zero-padded, and its length in the top byte), so equal keys are equal words; a longer word is keyed by
/// its hash and [`LONG_WORD`] and compared byte by byte.
#[derive(Clone, Copy, PartialEq, Eq, Default, Debug)]
pub(crate) struct WordKey {
    lo: u64,
    hi: u64,
}

/// The top byte of a long word's key (an exact key holds its length there, at most 15).
const LONG_WORD: u64 = 0xFF << 56;

#[inline(always)]
fn load8(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes(b[i..i + 8].try_into().unwrap())
}

#[inline(always)]
fn load4(b: &[u8], i: usize) -> u64 {
    u64::from(u32::from_le_bytes(b[i..i + 4].try_into().unwrap()))
}

impl WordKey {
    /// The key of the word `b`: overlapping loads of its own bytes (nothing past its end is read, so a
    /// word may be read where it lies, in a Python `str`).
    #[inline(always)]
    pub(crate) fn of(b: &[u8]) -> WordKey {
        let n = b.len();
        if n > 15 {
            return WordKey {
                lo: crate::table::hash_bytes(b),
                hi: LONG_WORD,
            };
        }
        let (lo, hi) = if n >= 8 {
            // bytes 8..n are the top n - 8 bytes of the word loaded at n - 8
            let hi = if n == 8 {
                0
            } else {
                load8(b, n - 8) >> (8 * (16 - n))
            };
            (load8(b, 0), hi)
        } else if n >= 4 {
            // the two loads overlap on equal bytes, so or-ing them places every byte once
            (load4(b, 0) | load4(b, n - 4) << (8 * (n - 4)), 0)
        } else if n > 0 {
            let at = |i: usize| u64::from(b[i]) << (8 * i);
            (at(0) | at(n / 2) | at(n - 1), 0)
        } else {
            (0, 0)
        };
        WordKey {
            lo,
            hi: hi | (n as u64) << 56,
        }
    }

    #[inline(always)]
    fn long(self) -> bool {
        self.hi == LONG_WORD
    }

    /// The first slot of the key in a table of [`SLOTS`] slots.
    #[inline(always)]
    fn slot(self) -> usize {
        ((self.lo ^ self.hi.rotate_left(29)).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 57) as usize
    }
}

/// Slots of the table of a hypothesis' distinct words (at most 64 words: at most half full).
const SLOTS: usize = 128;

/// What one thread keeps between segments for [`ShortRows`]: a small table of the hypothesis' words
/// (emptied by a new generation, not by clearing) and bit masks of their positions.
pub struct MaskScratch {
    slot_gen: [u32; SLOTS],
    slot_key: [WordKey; SLOTS],
    slot_id: [u8; SLOTS],
    generation: u32,
    /// the positions of each distinct hypothesis word as a bit mask
    masks: [u64; 64],
    /// per reference position: the hypothesis positions where the n-gram starting there also starts
    starts: Vec<u64>,
    live: Vec<(u32, u64)>,
    taken: [u64; 65],
    /// the word slices of the segment counted (emptied in between)
    words: Vec<&'static [u8]>,
    ends: Vec<usize>,
}

impl Default for MaskScratch {
    fn default() -> Self {
        MaskScratch {
            slot_gen: [0; SLOTS],
            slot_key: [WordKey::default(); SLOTS],
            slot_id: [0; SLOTS],
            generation: 0,
            masks: [0; 64],
            starts: Vec::new(),
            live: Vec::new(),
            taken: [0; 65],
            words: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl MaskScratch {
    /// The position mask of the hypothesis word `w` (key `key`), looked for from `slot` on; 0 where the
    /// hypothesis does not have it.
    #[cold]
    fn probe(&self, hyp: &[&[u8]], w: &[u8], key: WordKey, mut slot: usize) -> u64 {
        loop {
            if self.slot_gen[slot] != self.generation {
                return 0;
            }
            if self.slot_key[slot] == key {
                let id = self.slot_id[slot] as usize;
                let first = self.masks[id].trailing_zeros() as usize;
                if !key.long() || hyp[first] == w {
                    return self.masks[id];
                }
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
    }
}

/// The number of reference n-grams (orders `min_len..=max_len`) that the hypothesis has too, clipped by
/// its counts: `starts[j]` holds the hypothesis positions whose word is the reference's word `j` (and
/// `starts` ends with `max_len` zero masks); the n-gram at `j` then starts at the positions
/// `starts[j] & starts[j + 1] >> 1 & ...`, the lowest of them names it (within an order) and their number
/// is its count in the hypothesis. Only the positions still matching are carried to the next order.
fn shared_ngrams(
    starts: &[u64],
    live: &mut Vec<(u32, u64)>,
    taken: &mut [u64; 65],
    ref_len: usize,
    hyp_len: usize,
    min_len: usize,
    max_len: usize,
) -> i64 {
    let top = max_len.min(ref_len).min(hyp_len);
    live.clear();
    live.resize(ref_len, (0, 0));
    let mut len = 0;
    for (j, &b) in starts[..ref_len].iter().enumerate() {
        live[len] = (j as u32, b);
        len += usize::from(b != 0);
    }
    let mut tp = 0i64;
    for n in 1..=top {
        if n > 1 {
            let mut kept = 0;
            for idx in 0..len {
                let (j, b) = live[idx];
                let v = b & (starts[j as usize + n - 1] >> (n - 1));
                live[kept] = (j, v);
                kept += usize::from(v != 0);
            }
            len = kept;
        }
        if len == 0 {
            break;
        }
        if n >= min_len {
            // each occurrence in the reference takes one of the hypothesis' occurrences (the lowest
            // not taken) while any is left
            for &(_, b) in &live[..len] {
                let g = b.trailing_zeros() as usize;
                let left = b & !taken[g];
                tp += i64::from(left != 0);
                taken[g] |= left & left.wrapping_neg();
            }
            for &(_, b) in &live[..len] {
                taken[b.trailing_zeros() as usize] = 0;
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

/// `(tp, n_all)` of the best reference of one segment whose words are byte strings (`hyp`, then each of
/// `refs`): [`segment_row`]'s numbers, by bit masks of word positions for a hypothesis of at most 64
/// words, else by [`segment_row`]. Words must be UTF-8 (they are compared as bytes either way).
fn row_of_bytes<'w, R>(
    hyp: &[&'w [u8]],
    refs: R,
    min_len: usize,
    max_len: usize,
    t: &mut MaskScratch,
) -> [i64; 2]
where
    R: Iterator<Item = &'w [&'w [u8]]> + Clone,
{
    let hyp_len = hyp.len();
    if hyp_len > 64 {
        let text = |ws: &[&'w [u8]]| -> Vec<&'w str> {
            ws.iter()
                .map(|w| std::str::from_utf8(w).expect("words are UTF-8"))
                .collect()
        };
        let seg = Segment {
            hyp: text(hyp),
            refs: refs.map(text).collect(),
        };
        return segment_row(&seg, min_len, max_len, &mut Scratch::default());
    }
    t.generation = t.generation.wrapping_add(1);
    if t.generation == 0 {
        t.slot_gen.fill(0);
        t.generation = 1;
    }
    let mut distinct = 0usize;
    for (i, &w) in hyp.iter().enumerate() {
        let key = WordKey::of(w);
        let mut slot = key.slot();
        loop {
            if t.slot_gen[slot] != t.generation {
                t.slot_gen[slot] = t.generation;
                t.slot_key[slot] = key;
                t.slot_id[slot] = distinct as u8;
                t.masks[distinct] = 1u64 << i;
                distinct += 1;
                break;
            }
            if t.slot_key[slot] == key {
                let id = t.slot_id[slot] as usize;
                let first = t.masks[id].trailing_zeros() as usize;
                if !key.long() || hyp[first] == w {
                    t.masks[id] |= 1u64 << i;
                    break;
                }
            }
            slot = (slot + 1) & (SLOTS - 1);
        }
    }
    let tpfp = ngram_total(hyp_len, min_len, max_len);
    let mut best: Option<(i64, i64)> = None;
    for words in refs {
        let n_all = tpfp.max(ngram_total(words.len(), min_len, max_len));
        if n_all == 0 {
            continue;
        }
        // the starts written into a vector of their own and the table read through locals: no store
        // can change the table, so nothing is loaded again per word
        let mut starts = std::mem::take(&mut t.starts);
        starts.clear();
        starts.reserve(words.len() + max_len);
        let (table, generation) = (&*t, t.generation);
        for &w in words {
            let key = WordKey::of(w);
            let slot = key.slot();
            let occupied = table.slot_gen[slot] == generation;
            let same = table.slot_key[slot] == key;
            // the first slot decides most lookups, hit or miss, without a branch on which
            let mask = if occupied && !same || same && key.long() {
                table.probe(hyp, w, key, slot)
            } else {
                table.masks[table.slot_id[slot] as usize & 63] & u64::from(occupied).wrapping_neg()
            };
            starts.push(mask);
        }
        t.starts = starts;
        t.starts.extend(std::iter::repeat_n(0, max_len));
        let tp = shared_ngrams(
            &t.starts,
            &mut t.live,
            &mut t.taken,
            words.len(),
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

/// An empty vector of slices of another lifetime in the allocation of `v` (emptied): the in-place
/// collection of an empty iterator keeps the buffer.
pub fn recycle<'b>(mut v: Vec<&[u8]>) -> Vec<&'b [u8]> {
    v.clear();
    v.into_iter().map(|_| -> &'b [u8] { &[] }).collect()
}

/// `(tp, n_all)` of the best reference ([`segment_row`]'s numbers) of one segment whose words are
/// `words` (UTF-8), in parts that end at `ends` (the hypothesis' first, then each reference's).
pub fn row_of_parts(
    words: &[&[u8]],
    ends: &[usize],
    min_len: usize,
    max_len: usize,
    t: &mut MaskScratch,
) -> [i64; 2] {
    let hyp = &words[..ends.first().copied().unwrap_or(0)];
    let refs = ends.windows(2).map(|e| &words[e[0]..e[1]]);
    row_of_bytes(hyp, refs, min_len, max_len, t)
}

/// `(tp, n_all)` of the best reference of one segment's words ([`segment_row`]'s numbers).
pub(crate) fn row_of_words(
    sw: &SegmentWords<'_>,
    min_len: usize,
    max_len: usize,
    t: &mut MaskScratch,
) -> [i64; 2] {
    let mut words = recycle(std::mem::take(&mut t.words));
    let mut ends = std::mem::take(&mut t.ends);
    ends.clear();
    for p in 0..sw.parts() {
        let (text, spans) = sw.part(p);
        let bytes = text.as_bytes();
        words.extend(spans.iter().map(|&(a, b)| &bytes[a as usize..b as usize]));
        ends.push(words.len());
    }
    let row = row_of_parts(&words, &ends, min_len, max_len, t);
    t.words = recycle(words);
    t.ends = ends;
    row
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

    fn word_at(text: &str, span: (u32, u32)) -> &str {
        &text[span.0 as usize..span.1 as usize]
    }

    #[test]
    fn keys_are_equal_exactly_for_equal_short_words() {
        // every length 0..=17 and words differing in one byte at each position
        let mut words: Vec<Vec<u8>> = Vec::new();
        for n in 0..=17usize {
            let base: Vec<u8> = (0..n).map(|i| b'a' + (i % 26) as u8).collect();
            words.push(base.clone());
            for i in 0..n {
                let mut w = base.clone();
                w[i] = b'Z';
                words.push(w);
                let mut z = base.clone();
                z[i] = 0;
                words.push(z);
            }
        }
        for a in &words {
            for b in &words {
                let (ka, kb) = (WordKey::of(a), WordKey::of(b));
                if a.len() <= 15 || b.len() <= 15 {
                    assert_eq!(ka == kb, a == b, "{a:?} {b:?}");
                } else if a == b {
                    assert_eq!(ka, kb);
                }
            }
        }
    }

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
    fn block_masks_mark_every_byte_value_right() {
        let bytes: Vec<u8> = (0..=255u8).collect();
        for (k, block) in bytes.chunks(64).chain(bytes[3..40].chunks(64)).enumerate() {
            let (space, lead) = block_masks(block);
            for (i, &b) in block.iter().enumerate() {
                assert_eq!(space >> i & 1 == 1, ascii_space(b), "block {k} byte {b:#x}");
                assert_eq!(
                    lead >> i & 1 == 1,
                    matches!(b, 0xC2 | 0xE1 | 0xE2 | 0xE3),
                    "{b:#x}"
                );
            }
            assert_eq!(
                space >> block.len().min(63),
                u64::from(block.len() == 64 && ascii_space(block[63]))
            );
        }
    }

    #[test]
    fn split_spans_is_python_split_on_generated_lines() {
        // lines past one and two 64-byte blocks, ASCII and not, with every kind of whitespace
        let pieces = [
            "a", "bc", "word", " ", "  ", "\t", "\n", "\u{0b}", "\u{0c}", "\r", "\u{1c}", "\u{1f}",
            "\u{1b}", "é", "ä", "字", "\u{a0}", "\u{85}", "\u{3000}", "\u{2009}", "\u{1680}",
            "\u{200b}", "„",
        ];
        let mut draw = crate::testgen::xorshift(5);
        for round in 0..4000 {
            let ascii_only = round % 2 == 0;
            let kinds = if ascii_only { 13 } else { pieces.len() };
            let line: String = (0..draw(90)).map(|_| pieces[draw(kinds)]).collect();
            let padded = format!("x {line} y");
            let mut spans = Vec::new();
            split_spans(&padded, 2, padded.len() - 2, &mut spans);
            let got: Vec<&str> = spans.iter().map(|&s| word_at(&padded, s)).collect();
            assert_eq!(got, crate::words::split_python(&line), "{line:?}");
        }
    }

    #[test]
    fn bit_mask_rows_equal_the_hashed_rows() {
        let mut draw = crate::testgen::xorshift(11);
        let mut next = |k: u64| draw(k as usize) as u64;
        let vocab = [
            "a",
            "b",
            "c",
            "dd",
            "a longer word",
            "é",
            "字",
            "fifteen bytes..",
            "sixteen bytes...",
            "sixteen bytes..!",
            "seventeen bytes..",
        ];
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
