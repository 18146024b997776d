//! CharacTER (Wang et al. 2016), written from its definition and checked against the rwth-i6 program's
//! outputs (its C++ word distance, so float32 ratios):
//!
//! 1. Words are shifted greedily. A candidate shift moves a hypothesis phrase that equals the reference
//!    words at another position (a word match at hypothesis position `i` and reference position `j != i`,
//!    extended while the following words match) to position `j`. Each candidate is scored by the
//!    word-level Levenshtein distance to the reference divided by the reference length, as a float32; the
//!    candidate with the largest gain over the current ratio is taken, ties going to the candidate whose
//!    shifted word list is the largest in lexicographic order (a sort of (gain, words) pairs, last taken);
//!    shifting stops when no candidate gains.
//! 2. The shift cost compares the shifted words with the original ones, left to right: at a position
//!    where they differ, the original word is looked for further right in the shifted words; the phrase
//!    matched there costs the average character length of its words.
//! 3. The value is `(character Levenshtein distance of the joined words + shift cost) / characters of the
//!    shifted hypothesis`, capped at 1; 0 when the word distance is 0 at the start.
//!
//! Empty sides (where the original divides by zero): an empty reference gives 0 for an empty hypothesis and
//! 1 otherwise; an empty hypothesis against a non-empty reference gives 1.

use crate::par::{for_each_unit, pick_threads};
use crate::words::WordIds;

/// Segments per unit of work handed to a thread.
const CHARACTER_UNIT: usize = 16;

/// What one thread keeps between segments.
#[derive(Default)]
pub(crate) struct Scratch<'a> {
    words: WordIds<'a>,
    names: Vec<&'a str>,
    row: Vec<u32>,
    peq: Vec<u64>,
    char_peq: Vec<u64>,
    ascii: Vec<u32>,
    /// the word buffers of one pair, kept for the next
    buffers: Buffers,
    /// score shifts in float64 (PyPI cer 1.2.0) instead of float32 (the rwth-i6 program)
    pub float64: bool,
}

/// The word lists and bit states one pair needs, kept between pairs.
#[derive(Default)]
struct Buffers {
    h: Vec<u32>,
    r: Vec<u32>,
    original: Vec<u32>,
    candidate: Vec<u32>,
    best: Vec<u32>,
    states: Vec<BitState>,
    tail: Vec<u32>,
    pairs: Vec<(u32, u32)>,
}

/// Levenshtein distance of two sequences (one row of the table).
pub(crate) fn levenshtein<T: PartialEq>(a: &[T], b: &[T], row: &mut Vec<u32>) -> u32 {
    row.clear();
    row.extend(0..=b.len() as u32);
    for (i, x) in a.iter().enumerate() {
        let mut diag = row[0];
        row[0] = i as u32 + 1;
        for (j, y) in b.iter().enumerate() {
            let up = row[j + 1];
            let v = (up + 1).min(row[j] + 1).min(diag + u32::from(x != y));
            diag = up;
            row[j + 1] = v;
        }
    }
    row[b.len()]
}

/// Levenshtein distance of `text` to a pattern of at most 64 words whose match masks are `peq` (bit k of
/// `peq[w]`: pattern word k is `w`), `m` its length: Myers' bit-parallel columns (Hyyro's form).
fn levenshtein_bits(text: &[u32], peq: &[u64], m: usize) -> u32 {
    debug_assert!((1..=64).contains(&m));
    let high = 1u64 << (m - 1);
    let (mut pv, mut mv) = (u64::MAX, 0u64);
    let mut score = m as u32;
    for &c in text {
        let eq = peq[c as usize];
        let xv = eq | mv;
        let xh = ((eq & pv).wrapping_add(pv) ^ pv) | eq;
        let mut ph = mv | !(xh | pv);
        let mut mh = pv & xh;
        if ph & high != 0 {
            score += 1;
        } else if mh & high != 0 {
            score -= 1;
        }
        ph = (ph << 1) | 1;
        mh <<= 1;
        pv = mh | !(xv | ph);
        mv = ph & xv;
    }
    score
}

/// Levenshtein distance of the character sequences `text` and `pattern` with Myers' bit-parallel columns
/// in blocks of 64 pattern characters (Hyyro's block form): O(|text| * |pattern| / 64).
pub fn levenshtein_chars(
    text: &[char],
    pattern: &[char],
    peq: &mut Vec<u64>,
    ascii: &mut Vec<u32>,
) -> u32 {
    let m = pattern.len();
    if m == 0 {
        return text.len() as u32;
    }
    let words = m.div_ceil(64);
    // dense symbol ids of the pattern's characters (0: a character the pattern does not have)
    let mut others: Vec<(char, u32)> = Vec::new();
    let mut symbols = 1u32;
    ascii.clear();
    ascii.resize(128, 0);
    let mut symbol =
        |c: char, add: bool, others: &mut Vec<(char, u32)>, symbols: &mut u32| -> u32 {
            if (c as u32) < 128 {
                let slot = &mut ascii[c as usize];
                if *slot == 0 && add {
                    *slot = *symbols;
                    *symbols += 1;
                }
                *slot
            } else if let Some(&(_, id)) = others.iter().find(|(x, _)| *x == c) {
                id
            } else if add {
                others.push((c, *symbols));
                *symbols += 1;
                *symbols - 1
            } else {
                0
            }
        };
    let ids: Vec<u32> = pattern
        .iter()
        .map(|&c| symbol(c, true, &mut others, &mut symbols))
        .collect();
    peq.clear();
    peq.resize(symbols as usize * words, 0);
    for (k, &id) in ids.iter().enumerate() {
        peq[id as usize * words + k / 64] |= 1u64 << (k % 64);
    }
    let last = 1u64 << ((m - 1) % 64);
    let mut vp = vec![u64::MAX; words];
    let mut vn = vec![0u64; words];
    let mut score = m as u32;
    for &c in text {
        let id = symbol(c, false, &mut others, &mut symbols) as usize;
        let row = &peq[id * words..(id + 1) * words];
        let (mut hp_carry, mut hn_carry) = (1u64, 0u64);
        for w in 0..words {
            let x = row[w] | hn_carry;
            let d0 = (((x & vp[w]).wrapping_add(vp[w])) ^ vp[w]) | x | vn[w];
            let mut hp = vn[w] | !(d0 | vp[w]);
            let mut hn = d0 & vp[w];
            let (hp_in, hn_in) = (hp_carry, hn_carry);
            if w + 1 < words {
                hp_carry = hp >> 63;
                hn_carry = hn >> 63;
            } else {
                hp_carry = u64::from(hp & last != 0);
                hn_carry = u64::from(hn & last != 0);
            }
            hp = (hp << 1) | hp_in;
            hn = (hn << 1) | hn_in;
            vp[w] = hn | !(d0 | hp);
            vn[w] = hp & d0;
        }
        score = score + hp_carry as u32 - hn_carry as u32;
    }
    score
}

/// Myers' column state (positive and negative vertical deltas, the distance so far).
#[derive(Clone, Copy)]
struct BitState {
    pv: u64,
    mv: u64,
    score: u32,
}

#[inline]
fn bit_step(st: &mut BitState, eq: u64, high: u64) {
    let xv = eq | st.mv;
    let xh = ((eq & st.pv).wrapping_add(st.pv) ^ st.pv) | eq;
    let mut ph = st.mv | !(xh | st.pv);
    let mut mh = st.pv & xh;
    if ph & high != 0 {
        st.score += 1;
    } else if mh & high != 0 {
        st.score -= 1;
    }
    ph = (ph << 1) | 1;
    mh <<= 1;
    st.pv = mh | !(xv | ph);
    st.mv = ph & xv;
}

/// The states before each word of `text` and after the last (`out[k]`: after `text[..k]`).
fn bit_states(text: &[u32], peq: &[u64], m: usize, out: &mut Vec<BitState>) {
    let high = 1u64 << (m - 1);
    let mut st = BitState {
        pv: u64::MAX,
        mv: 0,
        score: m as u32,
    };
    out.clear();
    out.push(st);
    for &c in text {
        bit_step(&mut st, peq[c as usize], high);
        out.push(st);
    }
}

/// The distance of the words `h` with the phrase `h[i..i + length]` moved to position `at` of what is
/// left, from the state `states[start]` (`start`: the first position where the two differ) on: the
/// shifted words up to `end` (after which they are `h`'s again), then `h`'s words until the state is
/// the one `h` itself reaches there (`states[k]`), from where the distance changes as `h`'s does.
#[allow(clippy::too_many_arguments)]
fn shifted_distance(
    h: &[u32],
    (i, length, at): (usize, usize, usize),
    start: usize,
    states: &[BitState],
    peq: &[u64],
    m: usize,
) -> u32 {
    let high = 1u64 << (m - 1);
    let end = i.max(at) + length;
    let mut st = states[start];
    for k in start..end {
        bit_step(
            &mut st,
            peq[shifted_word(h, i, length, at, k) as usize],
            high,
        );
    }
    let last = states[h.len()].score as i64;
    for k in end..h.len() {
        let own = states[k];
        if own.pv == st.pv && own.mv == st.mv {
            return (st.score as i64 + last - own.score as i64) as u32;
        }
        bit_step(&mut st, peq[h[k] as usize], high);
    }
    st.score
}

/// Word `k` of `h` with the phrase `h[i..i + length]` moved to position `at` of what is left.
#[inline]
fn shifted_word(h: &[u32], i: usize, length: usize, at: usize, k: usize) -> u32 {
    let rest = |x: usize| if x < i { h[x] } else { h[x + length] };
    if k < at {
        rest(k)
    } else if k < at + length {
        h[i + k - at]
    } else {
        rest(k - length)
    }
}

/// The words of `h` with the phrase `h[i..i + length]` moved to position `at` of what is left, from
/// position `start` on, appended to `out`.
fn shifted_into(h: &[u32], i: usize, length: usize, at: usize, start: usize, out: &mut Vec<u32>) {
    let phrase = &h[i..i + length];
    let rest = |k: usize| if k < i { h[k] } else { h[k + length] };
    let n = h.len();
    for k in start..n {
        let w = if k < at {
            rest(k)
        } else if k < at + length {
            phrase[k - at]
        } else {
            rest(k - length)
        };
        out.push(w);
    }
}

/// Myers' columns over a pattern of more than 64 words, in blocks of 64 (Hyyro's block form).
struct LongPattern {
    blocks: usize,
    last: u64,
    m: usize,
    /// `[symbol * blocks + block]`: bit k of block b is set when pattern word `64 b + k` is the symbol
    peq: Vec<u64>,
}

impl LongPattern {
    fn new(pattern: &[u32], symbols: usize) -> Self {
        let m = pattern.len();
        let blocks = m.div_ceil(64);
        let mut peq = vec![0u64; symbols * blocks];
        for (k, &w) in pattern.iter().enumerate() {
            peq[w as usize * blocks + k / 64] |= 1u64 << (k % 64);
        }
        LongPattern {
            blocks,
            last: 1u64 << ((m - 1) % 64),
            m,
            peq,
        }
    }

    /// One text word: the columns `vp`/`vn` advanced, the distance's change returned.
    #[inline]
    fn step(&self, vp: &mut [u64], vn: &mut [u64], symbol: u32) -> i32 {
        let row = &self.peq[symbol as usize * self.blocks..(symbol as usize + 1) * self.blocks];
        let (mut hp_carry, mut hn_carry) = (1u64, 0u64);
        for w in 0..self.blocks {
            let x = row[w] | hn_carry;
            let d0 = (((x & vp[w]).wrapping_add(vp[w])) ^ vp[w]) | x | vn[w];
            let mut hp = vn[w] | !(d0 | vp[w]);
            let mut hn = d0 & vp[w];
            let (hp_in, hn_in) = (hp_carry, hn_carry);
            if w + 1 < self.blocks {
                hp_carry = hp >> 63;
                hn_carry = hn >> 63;
            } else {
                hp_carry = u64::from(hp & self.last != 0);
                hn_carry = u64::from(hn & self.last != 0);
            }
            hp = (hp << 1) | hp_in;
            hn = (hn << 1) | hn_in;
            vp[w] = hn | !(d0 | hp);
            vn[w] = hp & d0;
        }
        hp_carry as i32 - hn_carry as i32
    }

    /// The distance of `text` from the state `(vp, vn, score)` (which it advances).
    fn distance_from(&self, vp: &mut [u64], vn: &mut [u64], mut score: i32, text: &[u32]) -> u32 {
        for &c in text {
            score += self.step(vp, vn, c);
        }
        score as u32
    }

    /// The states after every prefix of `text`: `vp`/`vn` `[(n + 1) * blocks]`, `scores` `[n + 1]`.
    fn states(&self, text: &[u32], vps: &mut Vec<u64>, vns: &mut Vec<u64>, scores: &mut Vec<i32>) {
        let b = self.blocks;
        vps.clear();
        vns.clear();
        scores.clear();
        vps.resize((text.len() + 1) * b, u64::MAX);
        vns.resize((text.len() + 1) * b, 0);
        scores.push(self.m as i32);
        let mut score = self.m as i32;
        for (k, &c) in text.iter().enumerate() {
            let (done, rest) = vps.split_at_mut((k + 1) * b);
            rest[..b].copy_from_slice(&done[k * b..]);
            let (done_n, rest_n) = vns.split_at_mut((k + 1) * b);
            rest_n[..b].copy_from_slice(&done_n[k * b..]);
            score += self.step(&mut rest[..b], &mut rest_n[..b], c);
            scores.push(score);
        }
    }
}

/// The ratio shifts are scored with: word distance / reference length, in float32 as the original's C++
/// distance (`float64`: in float64, as PyPI `cer` 1.2.0 and so HF `character`; the two choose different
/// shifts when float32 rounding makes two candidates tie).
#[inline]
fn ratio(distance: u32, m: usize, float64: bool) -> f64 {
    if float64 {
        f64::from(distance) / m as f64
    } else {
        f64::from(distance as f32 / m as f32)
    }
}

fn word_ratio(hyp: &[u32], reference: &[u32], s: &mut Scratch<'_>) -> f64 {
    let d = if reference.len() <= 64 {
        levenshtein_bits(hyp, &s.peq, reference.len())
    } else {
        levenshtein(hyp, reference, &mut s.row)
    };
    ratio(d, reference.len(), s.float64)
}

/// The shift cost of `shifted` against `original` (word ids; equal lengths), step 2 of the definition.
pub(crate) fn shift_cost(shifted: &[u32], original: &[u32], names: &[&str]) -> f64 {
    let n = shifted.len();
    let mut cost = 0.0f64;
    let mut start = 0;
    while start < n {
        let first = start;
        let mut average = 0.0f64;
        if original[start] != shifted[start] {
            if let Some(at) = (start + 1..n).find(|&s| shifted[s] == original[start]) {
                let mut length = 1;
                while first + length < original.len()
                    && at + length < n
                    && original[first + length] == shifted[at + length]
                {
                    length += 1;
                    if start + 1 < original.len() {
                        start += 1;
                    }
                }
                let chars: usize = original[first..first + length]
                    .iter()
                    .map(|&w| names[w as usize].chars().count())
                    .sum();
                average = chars as f64 / length as f64;
            }
        }
        cost += average;
        start += 1;
    }
    cost
}

/// Python's comparison of two word lists of equal length, by their words.
fn words_greater(a: &[u32], b: &[u32], names: &[&str]) -> bool {
    for (&x, &y) in a.iter().zip(b) {
        if x != y {
            return names[x as usize] > names[y as usize];
        }
    }
    false
}

fn joined_chars(ids: &[u32], names: &[&str]) -> Vec<char> {
    let mut out = Vec::new();
    for (k, &w) in ids.iter().enumerate() {
        if k > 0 {
            out.push(' ');
        }
        out.extend(names[w as usize].chars());
    }
    out
}

/// CharacTER of one hypothesis against one reference (words).
pub(crate) fn character<'a>(hyp: &[&'a str], reference: &[&'a str], s: &mut Scratch<'a>) -> f64 {
    if reference.is_empty() {
        return if hyp.is_empty() { 0.0 } else { 1.0 };
    }
    let mut b = std::mem::take(&mut s.buffers);
    let value = character_with(hyp, reference, s, &mut b);
    s.buffers = b;
    value
}

fn character_with<'a>(
    hyp: &[&'a str],
    reference: &[&'a str],
    s: &mut Scratch<'a>,
    b: &mut Buffers,
) -> f64 {
    let Buffers {
        h,
        r,
        original,
        candidate,
        best,
        states,
        tail,
        pairs,
    } = b;
    s.words.clear();
    s.words.push_ids(hyp, h);
    s.words.push_ids(reference, r);
    let (h, r) = (h, &r[..]);
    s.names.clear();
    s.names.resize(s.words.len(), "");
    for (&w, &id) in hyp.iter().zip(h.iter()).chain(reference.iter().zip(r)) {
        s.names[id as usize] = w;
    }
    s.peq.clear();
    s.peq.resize(s.words.len(), 0);
    if r.len() <= 64 {
        for (k, &w) in r.iter().enumerate() {
            s.peq[w as usize] |= 1 << k;
        }
    }
    original.clear();
    original.extend_from_slice(h);
    let mut pre = word_ratio(h, r, s);
    if pre == 0.0 {
        return 0.0;
    }
    let long = (r.len() > 64).then(|| LongPattern::new(r, s.words.len()));
    let (mut long_vp, mut long_vn, mut long_scores) = (Vec::new(), Vec::new(), Vec::new());
    let (mut vp, mut vn) = (Vec::new(), Vec::new());
    loop {
        let mut best_gain: Option<f64> = None;
        // the bit columns after every prefix of the current words: a candidate shares a prefix of them
        // and is scored from there
        match &long {
            None => bit_states(h, &s.peq, r.len(), states),
            Some(p) => p.states(h, &mut long_vp, &mut long_vn, &mut long_scores),
        }
        // the word matches (i, j), i != j, in order: from the match masks when the reference has them
        pairs.clear();
        for (i, &w) in h.iter().enumerate() {
            if long.is_none() {
                let mut bits = s.peq[w as usize] & !(1u64.checked_shl(i as u32).unwrap_or(0));
                while bits != 0 {
                    pairs.push((i as u32, bits.trailing_zeros()));
                    bits &= bits - 1;
                }
            } else {
                pairs.extend(
                    (0..r.len())
                        .filter(|&j| j != i && r[j] == w)
                        .map(|j| (i as u32, j as u32)),
                );
            }
        }
        {
            for &(i, j) in pairs.iter() {
                let (i, j) = (i as usize, j as usize);
                let mut length = 1;
                while i + length < h.len() && j + length < r.len() && h[i + length] == r[j + length]
                {
                    length += 1;
                }
                // the phrase taken out, then put back at position j of what is left
                let at = j.min(h.len() - length);
                let start = at.min(i);
                let distance = match &long {
                    None => shifted_distance(h, (i, length, at), start, states, &s.peq, r.len()),
                    Some(p) => {
                        tail.clear();
                        shifted_into(h, i, length, at, start, tail);
                        let b = p.blocks;
                        vp.clear();
                        vp.extend_from_slice(&long_vp[start * b..(start + 1) * b]);
                        vn.clear();
                        vn.extend_from_slice(&long_vn[start * b..(start + 1) * b]);
                        p.distance_from(&mut vp, &mut vn, long_scores[start], tail)
                    }
                };
                let gain = pre - ratio(distance, r.len(), s.float64);
                // only a gain decides: when the largest gain is not positive the shifting stops, so
                // candidates without one are never the chosen shift
                if gain <= 0.0 || best_gain.is_some_and(|g| gain < g) {
                    continue;
                }
                candidate.clear();
                shifted_into(h, i, length, at, 0, candidate);
                let take = match best_gain {
                    None => true,
                    Some(g) => gain > g || (gain == g && words_greater(candidate, best, &s.names)),
                };
                if take {
                    best_gain = Some(gain);
                    std::mem::swap(best, candidate);
                }
            }
        }
        match best_gain {
            Some(gain) if gain > 0.0 => {
                pre -= gain;
                std::mem::swap(h, best);
            }
            _ => break,
        }
    }
    let cost = shift_cost(h, original, &s.names);
    let hyp_chars = joined_chars(h, &s.names);
    if hyp_chars.is_empty() {
        return 1.0;
    }
    let ref_chars = joined_chars(r, &s.names);
    let distance = levenshtein_chars(&hyp_chars, &ref_chars, &mut s.char_peq, &mut s.ascii);
    ((f64::from(distance) + cost) / hyp_chars.len() as f64).min(1.0)
}

/// One segment: the hypothesis' words and those of its references (only the references present).
pub struct Segment<'a> {
    pub hyp: Vec<&'a str>,
    pub refs: Vec<Vec<&'a str>>,
}

/// Each segment's CharacTER, the smallest over its references (HF evaluate's `character`; `float64`: see
/// [`ratio`]), on `threads`
/// threads (0: one per 64 segments); a segment without a reference gets 1.
pub fn character_values(segments: &[Segment<'_>], float64: bool, threads: usize, out: &mut [f64]) {
    let new_scratch = || Scratch {
        float64,
        ..Scratch::default()
    };
    smallest_per_segment(
        segments,
        CHARACTER_UNIT,
        threads,
        new_scratch,
        out,
        |s, seg| {
            seg.refs
                .iter()
                .map(|r| character(&seg.hyp, r, s))
                .fold(f64::INFINITY, f64::min)
        },
    );
}

/// `out[i]`: `smallest(scratch, segments[i])`, the smallest value over the segment's references (1 when
/// it is infinite: no reference), in units of `unit` segments on `threads` threads (0: one per 64 segments), each with its own
/// scratch from `new_scratch`. CharacTER's and EED's multi-reference rule, HF evaluate's `min`.
pub(crate) fn smallest_per_segment<T, S, N, V>(
    segments: &[T],
    unit: usize,
    threads: usize,
    new_scratch: N,
    out: &mut [f64],
    smallest: V,
) where
    T: Sync,
    S: Send,
    N: Fn() -> S + Sync,
    V: Fn(&mut S, &T) -> f64 + Sync,
{
    assert_eq!(out.len(), segments.len(), "output size");
    if segments.is_empty() {
        return;
    }
    let threads = pick_threads(threads, segments.len(), 64, segments.len().div_ceil(unit));
    for_each_unit(out, unit, threads, new_scratch, |s, index, chunk| {
        for (k, v) in chunk.iter_mut().enumerate() {
            let smallest = smallest(s, &segments[index * unit + k]);
            *v = if smallest.is_finite() { smallest } else { 1.0 };
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    #[test]
    fn bit_parallel_distance_equals_the_table() {
        let mut draw = crate::testgen::xorshift(3);
        let mut next = |k: u64| draw(k as usize) as u64;
        let mut row = Vec::new();
        for _ in 0..2000 {
            let a: Vec<u32> = (0..next(70)).map(|_| next(5) as u32).collect();
            let b: Vec<u32> = (0..1 + next(64)).map(|_| next(5) as u32).collect();
            let mut peq = vec![0u64; 5];
            for (k, &w) in b.iter().enumerate() {
                peq[w as usize] |= 1 << k;
            }
            assert_eq!(
                levenshtein_bits(&a, &peq, b.len()),
                levenshtein(&a, &b, &mut row)
            );
        }
    }

    #[test]
    fn shifted_distances_equal_the_table() {
        let mut draw = crate::testgen::xorshift(17);
        let mut next = |k: u64| draw(k as usize) as u64;
        let (mut row, mut states, mut shifted) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..3000 {
            let h: Vec<u32> = (0..1 + next(30)).map(|_| next(4) as u32).collect();
            let r: Vec<u32> = (0..1 + next(64)).map(|_| next(4) as u32).collect();
            let mut peq = vec![0u64; 4];
            for (k, &w) in r.iter().enumerate() {
                peq[w as usize] |= 1 << k;
            }
            bit_states(&h, &peq, r.len(), &mut states);
            let i = next(h.len() as u64) as usize;
            let length = 1 + next((h.len() - i) as u64) as usize;
            let at = next((h.len() - length + 1) as u64) as usize;
            shifted.clear();
            shifted_into(&h, i, length, at, 0, &mut shifted);
            let start = at.min(i);
            assert_eq!(
                shifted_distance(&h, (i, length, at), start, &states, &peq, r.len()),
                levenshtein(&shifted, &r, &mut row),
                "{h:?} {r:?} {i} {length} {at}"
            );
        }
    }

    #[test]
    fn block_distance_of_characters_equals_the_table() {
        let mut draw = crate::testgen::xorshift(9);
        let mut next = |k: u64| draw(k as usize) as u64;
        let alphabet = ['a', 'b', ' ', 'é', '字'];
        let (mut row, mut peq, mut ascii) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..600 {
            let a: Vec<char> = (0..next(300)).map(|_| alphabet[next(5) as usize]).collect();
            let b: Vec<char> = (0..next(300)).map(|_| alphabet[next(5) as usize]).collect();
            assert_eq!(
                levenshtein_chars(&a, &b, &mut peq, &mut ascii),
                levenshtein(&a, &b, &mut row)
            );
        }
    }

    #[test]
    fn long_word_patterns_equal_the_table() {
        let mut draw = crate::testgen::xorshift(21);
        let mut next = |k: u64| draw(k as usize) as u64;
        let mut row = Vec::new();
        for _ in 0..300 {
            let a: Vec<u32> = (0..next(200)).map(|_| next(6) as u32).collect();
            let b: Vec<u32> = (0..65 + next(200)).map(|_| next(6) as u32).collect();
            let p = LongPattern::new(&b, 6);
            let (mut vps, mut vns, mut scores) = (Vec::new(), Vec::new(), Vec::new());
            p.states(&a, &mut vps, &mut vns, &mut scores);
            let want = levenshtein(&a, &b, &mut row);
            assert_eq!(*scores.last().unwrap() as u32, want);
            let k = a.len() / 2;
            let bl = p.blocks;
            let (mut vp, mut vn) = (
                vps[k * bl..(k + 1) * bl].to_vec(),
                vns[k * bl..(k + 1) * bl].to_vec(),
            );
            assert_eq!(p.distance_from(&mut vp, &mut vn, scores[k], &a[k..]), want);
        }
    }

    #[test]
    fn hf_card_examples() {
        // the values rwth-i6 CharacTER and PyPI cer 1.2.0 give for HF evaluate's card examples
        let mut s = Scratch::default();
        let h = "this week the saudis denied information published in the new york times";
        let r1 =
            "saudi arabia denied this week information published in the american new york times";
        let r2 = "the saudis have denied new information published in the ny times";
        assert_eq!(
            character(&words(h), &words(r1), &mut s),
            0.36619718309859156
        );
        assert_eq!(character(&words(h), &words(r2), &mut s), 0.426056338028169);
        let (h, r) = (
            "this is in fact an estimate",
            "this is actually an estimate",
        );
        assert_eq!(character(&words(h), &words(r), &mut s), 0.25925925925925924);
        assert_eq!(character(&words(h), &words(h), &mut s), 0.0);
        assert_eq!(character(&[], &words(h), &mut s), 1.0);
        assert_eq!(character(&words(h), &[], &mut s), 1.0);
        assert_eq!(character(&[], &[], &mut s), 0.0);
    }
}
