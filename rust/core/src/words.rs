//! What the string metrics (GLEU, Self-BLEU, CharacTER) share: Python's `str.split()` of a line, words
//! as small integer ids, the ids of n-grams built order by order, and Python's `math.fsum`.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// Whether Python's `str.split()` splits at `c`: Unicode's White_Space characters and the four
/// information separators U+001C..U+001F, which Python counts as whitespace and Rust does not.
#[inline]
pub(crate) fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The words of `line` as Python's `line.split()` gives them (runs of whitespace separate words; none
/// at the ends).
pub fn split_python(line: &str) -> Vec<&str> {
    if line.is_ascii() {
        return line
            .split(|c: char| {
                c.is_ascii_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c) || c == '\u{0b}'
            })
            .filter(|w| !w.is_empty())
            .collect();
    }
    line.split(is_python_space)
        .filter(|w| !w.is_empty())
        .collect()
}

/// A multiplicative hash for integer keys and short words (the maps live for one job; no DoS concern).
#[derive(Default, Clone, Copy)]
pub(crate) struct FastHasher(u64);

impl Hasher for FastHasher {
    #[inline]
    fn finish(&self) -> u64 {
        crate::table::mix(self.0)
    }
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        self.0 = crate::table::hash_bytes(bytes) ^ self.0.rotate_left(29);
    }
    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(29) ^ v).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.write_u64(u64::from(v));
    }
    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
    #[inline]
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<FastHasher>>;

/// Words to ids `0, 1, 2, ...` in order of first appearance; equal words get equal ids.
#[derive(Default)]
pub(crate) struct WordIds<'a> {
    map: FastMap<&'a str, u32>,
}

impl<'a> WordIds<'a> {
    pub(crate) fn clear(&mut self) {
        self.map.clear();
    }
    pub(crate) fn len(&self) -> usize {
        self.map.len()
    }
    /// The id of `w`, a new one if it was not seen.
    #[inline]
    pub(crate) fn id(&mut self, w: &'a str) -> u32 {
        let next = self.map.len() as u32;
        *self.map.entry(w).or_insert(next)
    }
    /// The id of `w` if it was seen.
    #[inline]
    pub(crate) fn get(&self, w: &str) -> Option<u32> {
        self.map.get(w).copied()
    }
    pub(crate) fn push_ids(&mut self, words: &[&'a str], out: &mut Vec<u32>) {
        out.clear();
        out.extend(words.iter().map(|w| self.id(w)));
    }
}

/// Python's `math.fsum`: the correctly rounded sum of the terms (Shewchuk's partials, then CPython's
/// half-way correction), for finite terms.
pub(crate) fn fsum(terms: &[f64]) -> f64 {
    let mut partials: Vec<f64> = Vec::with_capacity(8);
    for &v in terms {
        let mut x = v;
        let mut i = 0;
        for j in 0..partials.len() {
            let mut y = partials[j];
            if x.abs() < y.abs() {
                std::mem::swap(&mut x, &mut y);
            }
            let hi = x + y;
            let lo = y - (hi - x);
            if lo != 0.0 {
                partials[i] = lo;
                i += 1;
            }
            x = hi;
        }
        partials.truncate(i);
        if x != 0.0 {
            partials.push(x);
        }
    }
    let mut n = partials.len();
    if n == 0 {
        return 0.0;
    }
    n -= 1;
    let mut hi = partials[n];
    let mut lo = 0.0;
    while n > 0 {
        let x = hi;
        n -= 1;
        let y = partials[n];
        hi = x + y;
        let yr = hi - x;
        lo = y - yr;
        if lo != 0.0 {
            break;
        }
    }
    // a sum exactly half-way between two floats: round as the remaining partials say
    if n > 0 && ((lo < 0.0 && partials[n - 1] < 0.0) || (lo > 0.0 && partials[n - 1] > 0.0)) {
        let y = lo * 2.0;
        let x = hi + y;
        let yr = x - hi;
        if y == yr {
            hi = x;
        }
    }
    hi
}

/// No n-gram: a word or n-gram id that does not exist.
pub(crate) const NO_ID: u32 = u32::MAX;

/// Ids of n-grams of any order, built order by order: the id of an n-gram is that of the pair (id of its
/// first n-1 words, id of its last word), so equal n-grams get equal ids without storing their words, and
/// the ids of every order share one range (ids of different orders never clash).
#[derive(Default)]
pub(crate) struct GramIds {
    map: FastMap<u64, u32>,
    next: u32,
}

impl GramIds {
    /// Starts over; the first `words` ids are the words' own (order 1).
    pub(crate) fn reset(&mut self, words: usize) {
        self.map.clear();
        self.next = words as u32;
    }
    pub(crate) fn count(&self) -> usize {
        self.next as usize
    }
    /// The id of the n-gram (`prefix`, `word`), a new one if it was not seen.
    #[inline]
    pub(crate) fn id(&mut self, prefix: u32, word: u32) -> u32 {
        let next = self.next;
        let id = *self
            .map
            .entry((u64::from(prefix) << 32) | u64::from(word))
            .or_insert(next);
        if id == next {
            self.next += 1;
        }
        id
    }
    /// The id of the n-gram (`prefix`, `word`) if it was seen ([`NO_ID`] otherwise, or for a `prefix`
    /// or `word` of [`NO_ID`]).
    #[inline]
    pub(crate) fn get(&self, prefix: u32, word: u32) -> u32 {
        if prefix == NO_ID || word == NO_ID {
            return NO_ID;
        }
        self.map
            .get(&((u64::from(prefix) << 32) | u64::from(word)))
            .copied()
            .unwrap_or(NO_ID)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_like_python() {
        assert_eq!(split_python("  a\tb\u{1c}c\u{a0}d  "), ["a", "b", "c", "d"]);
        assert_eq!(split_python("x\u{3000}y"), ["x", "y"]);
        assert!(split_python(" \t ").is_empty());
    }

    #[test]
    fn fsum_is_correctly_rounded() {
        assert_eq!(fsum(&[1e100, 1.0, -1e100, 1e-100]), 1.0);
        assert_eq!(fsum(&[0.1; 10]), 1.0);
        assert_eq!(fsum(&[]), 0.0);
        // 1 + 2**-53 + 2**-105: half-way corrected upwards, as Python's fsum gives 1.0000000000000002
        assert_eq!(
            fsum(&[1.0, 2f64.powi(-53), 2f64.powi(-105)]),
            1.0 + f64::EPSILON
        );
    }

    #[test]
    fn gram_ids_are_shared_by_equal_ngrams() {
        let mut g = GramIds::default();
        g.reset(3);
        let a = g.id(0, 1);
        assert_eq!(g.id(0, 1), a);
        assert_ne!(g.id(1, 0), a);
        assert_eq!(g.get(0, 1), a);
        assert_eq!(g.get(2, 2), NO_ID);
        assert_eq!(g.count(), 5);
    }
}
