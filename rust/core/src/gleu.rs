//! GLEU (Wu et al. 2016) with NLTK 3.10.4's definition (`nltk.translate.gleu_score`): for a hypothesis and
//! a reference, `tp` is the number of n-grams (orders `min_len..=max_len`, counted with multiplicity)
//! they share, and `n_all = max(hypothesis n-grams, reference n-grams)`; a segment keeps the reference
//! with the highest `tp / n_all` (the first on ties; references with `n_all = 0` are skipped), and the
//! corpus score is `sum(tp) / sum(n_all)`. So a segment's statistics are two integers that add up.

use crate::par::{for_each_unit, pick_threads};
use crate::words::{GramIds, WordIds, NO_ID};

/// Segments per unit of work handed to a thread.
const GLEU_UNIT: usize = 256;

/// One segment: the hypothesis' words and those of its references (only the references present).
pub struct Segment<'a> {
    pub hyp: Vec<&'a str>,
    pub refs: Vec<Vec<&'a str>>,
}

/// Number of n-grams of orders `min_len..=max_len` of a sequence of `len` words.
pub(crate) fn ngram_total(len: usize, min_len: usize, max_len: usize) -> i64 {
    (min_len.max(1)..=max_len)
        .map(|n| (len + 1).saturating_sub(n) as i64)
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
        let better = match best {
            None => true,
            Some((btp, ball)) => (tp as f64) / (n_all as f64) > (btp as f64) / (ball as f64),
        };
        if better {
            best = Some((tp, n_all));
        }
    }
    let (tp, n_all) = best.unwrap_or((0, 0));
    [tp, n_all]
}

/// `(tp, n_all)` rows `[S, 2]` of every segment, row-major into `out`, on `threads` threads (0: one per
/// 2,000 segments).
pub fn gleu_rows(
    segments: &[Segment<'_>],
    min_len: usize,
    max_len: usize,
    threads: usize,
    out: &mut [i64],
) {
    assert_eq!(out.len(), 2 * segments.len(), "output size");
    if segments.is_empty() {
        return;
    }
    let threads = pick_threads(
        threads,
        segments.len(),
        2000,
        segments.len().div_ceil(GLEU_UNIT),
    );
    for_each_unit(
        out,
        2 * GLEU_UNIT,
        threads,
        Scratch::default,
        |s, unit, rows| {
            for (j, row) in rows.chunks_mut(2).enumerate() {
                let seg = &segments[unit * GLEU_UNIT + j];
                row.copy_from_slice(&segment_row(seg, min_len, max_len, s));
            }
        },
    );
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
    fn rows_equal_the_direct_definition() {
        let mut seed: u64 = 7;
        let mut next = |k: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % k
        };
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
