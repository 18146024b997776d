//! Self-BLEU: each sentence of a set scored by NLTK 3.10.4's `sentence_bleu` against all the other
//! sentences as its references, in O(total n-grams) instead of O(N^2).
//!
//! Why it is exact: against the references "all but sentence i", an n-gram's clip count is the largest
//! count of it in any other sentence. Keeping, per n-gram, its largest count, the sentence holding it
//! and the second largest count (a tie for the largest makes both equal) gives that leave-one-out
//! maximum for every sentence at once. The closest reference length is likewise the closest length in the
//! multiset of lengths with sentence i's own taken out once. The precisions are NLTK's fractions, so the
//! floats that follow (NLTK's smoothing, `math.fsum` of the weighted logarithms, `math.exp`, the brevity
//! penalty) are computed from the same numbers in the same order.

use crate::score::{c_exp, c_log};
use crate::words::{fsum, GramIds, WordIds};

/// NLTK's smoothing of a zero precision.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smoothing {
    /// `method0`: `sys.float_info.min` in place of a zero precision
    None,
    /// `method1`: `(0 + epsilon) / denominator` (NLTK's epsilon is 0.1)
    Epsilon(f64),
}

/// Per-sentence clipped counts and totals of every order, and the n-gram counts of the whole set.
pub struct Counts {
    /// `[N * max_order]`: clipped matches of sentence i at order n+1 at `i * max_order + n`
    pub matches: Vec<i64>,
    /// `[N * max_order]`: `max(1, len - n + 1)`, NLTK's denominators
    pub totals: Vec<i64>,
    /// `[N]`: the closest length among the other sentences (the shorter one on ties)
    pub closest: Vec<i64>,
    /// `[N]`: the sentences' lengths
    pub lengths: Vec<i64>,
    /// `[max_order]`: distinct n-grams of each order in the whole set
    pub distinct: Vec<i64>,
    /// `[max_order]`: n-grams of each order in the whole set
    pub ngrams: Vec<i64>,
}

/// Leave-one-out clipped counts of `sentences` (at least two) for orders `1..=max_order`.
pub fn leave_one_out_counts(sentences: &[Vec<&str>], max_order: usize) -> Counts {
    let n_sent = sentences.len();
    let mut words = WordIds::default();
    let mut offsets = Vec::with_capacity(n_sent + 1);
    offsets.push(0usize);
    let mut tokens: Vec<u32> = Vec::new();
    for s in sentences {
        tokens.extend(s.iter().map(|w| words.id(w)));
        offsets.push(tokens.len());
    }
    let lengths: Vec<i64> = sentences.iter().map(|s| s.len() as i64).collect();
    let mut matches = vec![0i64; n_sent * max_order];
    let mut totals = vec![0i64; n_sent * max_order];
    let mut distinct = vec![0i64; max_order];
    let mut ngrams = vec![0i64; max_order];

    // ids of the current order, sentence by sentence (sentence j's at level_off[j]..level_off[j + 1])
    let mut level: Vec<u32> = tokens.clone();
    let mut level_off = offsets.clone();
    let mut grams = GramIds::default();
    let mut sorted: Vec<u32> = Vec::new();
    for n in 1..=max_order {
        let count;
        if n == 1 {
            count = words.len();
        } else {
            // order n from order n - 1: the id of (the (n-1)-gram at p, the word at p + n - 1)
            grams.reset(0);
            let mut next = Vec::with_capacity(level.len());
            let mut next_off = Vec::with_capacity(n_sent + 1);
            next_off.push(0usize);
            for j in 0..n_sent {
                let prev = &level[level_off[j]..level_off[j + 1]];
                let toks = &tokens[offsets[j]..offsets[j + 1]];
                for p in 0..prev.len().saturating_sub(1) {
                    next.push(grams.id(prev[p], toks[p + n - 1]));
                }
                next_off.push(next.len());
            }
            count = grams.count();
            level = next;
            level_off = next_off;
        }
        distinct[n - 1] = count as i64;
        ngrams[n - 1] = level.len() as i64;
        // the largest count of each n-gram, the sentence that has it first, the second largest count
        let mut max1 = vec![0u32; count];
        let mut holder = vec![u32::MAX; count];
        let mut max2 = vec![0u32; count];
        for j in 0..n_sent {
            let ids = &level[level_off[j]..level_off[j + 1]];
            for_each_run(ids, &mut sorted, |id, c| {
                let i = id as usize;
                if c > max1[i] {
                    max2[i] = max1[i];
                    max1[i] = c;
                    holder[i] = j as u32;
                } else if c > max2[i] {
                    max2[i] = c;
                }
            });
        }
        for j in 0..n_sent {
            let ids = &level[level_off[j]..level_off[j + 1]];
            let mut clipped = 0i64;
            for_each_run(ids, &mut sorted, |id, c| {
                let i = id as usize;
                let others = if holder[i] == j as u32 {
                    max2[i]
                } else {
                    max1[i]
                };
                clipped += i64::from(c.min(others));
            });
            matches[j * max_order + n - 1] = clipped;
            totals[j * max_order + n - 1] = (ids.len() as i64).max(1);
        }
    }
    Counts {
        closest: closest_other_lengths(&lengths),
        matches,
        totals,
        lengths,
        distinct,
        ngrams,
    }
}

/// Calls `f(id, count)` for each distinct id of `ids` (sorted in `sorted`, a scratch vector).
fn for_each_run(ids: &[u32], sorted: &mut Vec<u32>, mut f: impl FnMut(u32, u32)) {
    sorted.clear();
    sorted.extend_from_slice(ids);
    sorted.sort_unstable();
    let mut k = 0;
    while k < sorted.len() {
        let id = sorted[k];
        let mut e = k + 1;
        while e < sorted.len() && sorted[e] == id {
            e += 1;
        }
        f(id, (e - k) as u32);
        k = e;
    }
}

/// For each length, the closest of the other lengths (the multiset without that one occurrence), the
/// shorter on ties: NLTK's `closest_ref_length` against every other sentence.
pub(crate) fn closest_other_lengths(lengths: &[i64]) -> Vec<i64> {
    let mut sorted = lengths.to_vec();
    sorted.sort_unstable();
    lengths
        .iter()
        .map(|&h| {
            let lo = sorted.partition_point(|&x| x < h);
            let hi = sorted.partition_point(|&x| x <= h);
            if hi - lo >= 2 {
                return h;
            }
            let below = if lo > 0 { Some(sorted[lo - 1]) } else { None };
            let above = sorted.get(hi).copied();
            match (below, above) {
                (Some(b), Some(a)) => {
                    if (h - b) <= (a - h) {
                        b
                    } else {
                        a
                    }
                }
                (Some(b), None) => b,
                (None, Some(a)) => a,
                (None, None) => h,
            }
        })
        .collect()
}

/// NLTK's `sentence_bleu` of one sentence from its clipped counts: `matches`/`totals` of orders
/// `1..=weights.len()` (or more), `closest` reference length, `length` the sentence's.
pub(crate) fn nltk_sentence_bleu(
    matches: &[i64],
    totals: &[i64],
    closest: i64,
    length: i64,
    weights: &[f64],
    smoothing: Smoothing,
) -> f64 {
    if matches[0] == 0 {
        return 0.0;
    }
    let bp = if length > closest {
        1.0
    } else if length == 0 {
        0.0
    } else {
        c_exp(1.0 - (closest as f64) / (length as f64))
    };
    let terms: Vec<f64> = weights
        .iter()
        .enumerate()
        .map(|(k, &w)| {
            let p = if matches[k] == 0 {
                match smoothing {
                    Smoothing::None => f64::MIN_POSITIVE,
                    Smoothing::Epsilon(eps) => eps / (totals[k] as f64),
                }
            } else {
                (matches[k] as f64) / (totals[k] as f64)
            };
            w * c_log(p)
        })
        .collect();
    bp * c_exp(fsum(&terms))
}

/// Every sentence's Self-BLEU for each weight vector: `[weights.len() * N]`, weight set by weight set.
pub fn self_bleu_scores(
    counts: &Counts,
    max_order: usize,
    weights: &[Vec<f64>],
    smoothing: Smoothing,
) -> Vec<f64> {
    let n_sent = counts.lengths.len();
    let mut out = Vec::with_capacity(weights.len() * n_sent);
    for w in weights {
        for j in 0..n_sent {
            let row = j * max_order..(j + 1) * max_order;
            out.push(nltk_sentence_bleu(
                &counts.matches[row.clone()],
                &counts.totals[row],
                counts.closest[j],
                counts.lengths[j],
                w,
                smoothing,
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    #[test]
    fn leave_one_out_equals_every_other_sentence() {
        let mut draw = crate::testgen::xorshift(11);
        let mut next = |k: u64| draw(k as usize) as u64;
        let vocab = ["a", "b", "c", "d"];
        for _ in 0..30 {
            let sents: Vec<Vec<&str>> = (0..2 + next(8))
                .map(|_| (0..next(9)).map(|_| vocab[next(4) as usize]).collect())
                .collect();
            let c = leave_one_out_counts(&sents, 3);
            for (i, s) in sents.iter().enumerate() {
                for n in 1..=3 {
                    let count = |x: &Vec<&str>| {
                        let mut m: HashMap<Vec<String>, i64> = HashMap::new();
                        for g in x.windows(n) {
                            *m.entry(g.iter().map(|w| w.to_string()).collect())
                                .or_default() += 1;
                        }
                        m
                    };
                    let mine = count(s);
                    let mut want = 0;
                    for (g, &k) in &mine {
                        let best = sents
                            .iter()
                            .enumerate()
                            .filter(|(j, _)| *j != i)
                            .map(|(_, o)| *count(o).get(g).unwrap_or(&0))
                            .max()
                            .unwrap_or(0);
                        want += k.min(best);
                    }
                    assert_eq!(c.matches[i * 3 + n - 1], want);
                }
                let others: Vec<i64> = sents
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| *j != i)
                    .map(|(_, o)| o.len() as i64)
                    .collect();
                let h = s.len() as i64;
                let want = *others.iter().min_by_key(|&&r| ((r - h).abs(), r)).unwrap();
                assert_eq!(c.closest[i], want);
            }
        }
    }
}
