//! Pairwise sentence BLEU statistics: every hypothesis against every single reference (MBR matrices).
//!
//! Each line is turned once into, per order, its sorted list of (n-gram id, count), with n-gram ids
//! global over all lines (order 1: the token; order n: the pair (order n-1 id, next token)). A thread then
//! takes one hypothesis at a time, spreads its counts into dense per-order arrays indexed by n-gram id,
//! and reads every reference's lists against them: the clipped matches of a pair are
//! `sum over the reference's n-grams of min(hypothesis count, reference count)`, and an order is skipped
//! once the previous one had no match (a matching n-gram has a matching prefix).

use std::collections::HashMap;

use crate::count::row_width;
use crate::par::{for_each_unit, pick_threads};

/// N-gram lists of a set of lines for one order: line `i` owns `entries[offsets[i]..offsets[i + 1]]`.
struct OrderLists {
    entries: Vec<(u32, u32)>,
    offsets: Vec<usize>,
    n_grams: usize,
}

impl OrderLists {
    fn line(&self, i: usize) -> &[(u32, u32)] {
        &self.entries[self.offsets[i]..self.offsets[i + 1]]
    }
}

/// The n-gram lists of all lines (`lens[i]` tokens of `ids` per line), orders `1..=order`.
fn gram_lists(ids: &[u64], lens: &[usize], order: usize) -> Vec<OrderLists> {
    let mut starts = Vec::with_capacity(lens.len() + 1);
    starts.push(0usize);
    for &l in lens {
        starts.push(starts.last().unwrap() + l);
    }
    assert_eq!(
        *starts.last().unwrap(),
        ids.len(),
        "lengths add up to the ids"
    );
    // gram[p]: id of the current-order n-gram starting at p (valid where it fits in its line)
    let mut ids_of: HashMap<u64, u32> = HashMap::new();
    let tokens: Vec<u32> = ids
        .iter()
        .map(|&t| {
            let next = ids_of.len() as u32;
            *ids_of.entry(t).or_insert(next)
        })
        .collect();
    let mut gram = tokens.clone();
    let mut out = Vec::with_capacity(order);
    let mut scratch: Vec<u32> = Vec::new();
    for n in 1..=order {
        if n > 1 {
            let mut pairs: HashMap<u64, u32> = HashMap::new();
            for w in starts.windows(2) {
                let (a, b) = (w[0], w[1]);
                if b - a < n {
                    continue;
                }
                for p in a..=b - n {
                    let key = ((gram[p] as u64) << 32) | tokens[p + n - 1] as u64;
                    let next = pairs.len() as u32;
                    gram[p] = *pairs.entry(key).or_insert(next);
                }
            }
            ids_of = pairs;
        }
        let n_grams = ids_of.len();
        let mut entries = Vec::new();
        let mut offsets = Vec::with_capacity(lens.len() + 1);
        offsets.push(0usize);
        for w in starts.windows(2) {
            let (a, b) = (w[0], w[1]);
            if b - a >= n {
                scratch.clear();
                scratch.extend_from_slice(&gram[a..=b - n]);
                scratch.sort_unstable();
                let mut i = 0;
                while i < scratch.len() {
                    let mut j = i + 1;
                    while j < scratch.len() && scratch[j] == scratch[i] {
                        j += 1;
                    }
                    entries.push((scratch[i], (j - i) as u32));
                    i = j;
                }
            }
            offsets.push(entries.len());
        }
        out.push(OrderLists {
            entries,
            offsets,
            n_grams,
        });
    }
    out
}

/// Lines of token ids back to back: line i is the next `lens[i]` ids.
#[derive(Clone, Copy)]
pub struct IdLines<'a> {
    pub ids: &'a [u64],
    pub lens: &'a [usize],
}

/// Statistics of every (hypothesis, reference) pair, each row handed to `emit(row, slot)` with the
/// pair's `per_pair` items of `out` (`[H, R, per_pair]` row-major: pair (h, r) at `(h * R + r) *
/// per_pair`), from the worker threads. `refs = None`: the references are the hypotheses. `threads = 0`:
/// one thread per 16,384 pairs, up to the number of cores.
pub fn pairwise<T, F>(
    hyps: IdLines<'_>,
    refs: Option<IdLines<'_>>,
    order: usize,
    threads: usize,
    out: &mut [T],
    per_pair: usize,
    emit: F,
) where
    T: Send,
    F: Fn(&[i64], &mut [T]) + Sync,
{
    assert!(order >= 1 && per_pair >= 1, "order, items per pair");
    let n_hyp = hyps.lens.len();
    let (all_ids, all_lens, ref_first) = match refs {
        None => (hyps.ids.to_vec(), hyps.lens.to_vec(), 0),
        Some(refs) => {
            let mut all = hyps.ids.to_vec();
            all.extend_from_slice(refs.ids);
            let mut l = hyps.lens.to_vec();
            l.extend_from_slice(refs.lens);
            (all, l, n_hyp)
        }
    };
    let n_ref = all_lens.len() - ref_first;
    assert_eq!(out.len(), n_hyp * n_ref * per_pair, "output size");
    if n_hyp == 0 || n_ref == 0 {
        return;
    }
    let lists = gram_lists(&all_ids, &all_lens, order);
    let width = row_width(order);
    let threads = pick_threads(threads, n_hyp * n_ref, 16_384, n_hyp);
    // hypotheses handed out in small blocks, so uneven line lengths do not leave a thread idle
    let block = n_hyp.div_ceil(threads * 8).max(1);
    let new_state = || {
        let dense: Vec<Vec<u32>> = lists.iter().map(|l| vec![0u32; l.n_grams]).collect();
        (dense, vec![0i64; width])
    };
    let work = |(dense, row): &mut (Vec<Vec<u32>>, Vec<i64>), unit: usize, slots: &mut [T]| {
        for (j, hyp_slots) in slots.chunks_mut(n_ref * per_pair).enumerate() {
            let h = unit * block + j;
            let hyp_len = all_lens[h];
            for (d, l) in dense.iter_mut().zip(&lists) {
                for &(g, c) in l.line(h) {
                    d[g as usize] = c;
                }
            }
            for (r, slot) in hyp_slots.chunks_mut(per_pair).enumerate() {
                let line = ref_first + r;
                row.fill(0);
                row[0] = hyp_len as i64;
                row[1] = all_lens[line] as i64;
                for n in 0..order {
                    row[2 + order + n] = (hyp_len + 1).saturating_sub(n + 1) as i64;
                }
                for (n, (d, l)) in dense.iter().zip(&lists).enumerate() {
                    let m: u64 = l
                        .line(line)
                        .iter()
                        .map(|&(g, c)| d[g as usize].min(c) as u64)
                        .sum();
                    row[2 + n] = m as i64;
                    if m == 0 {
                        break;
                    }
                }
                emit(row, slot);
            }
            for (d, l) in dense.iter_mut().zip(&lists) {
                for &(g, _) in l.line(h) {
                    d[g as usize] = 0;
                }
            }
        }
    };
    for_each_unit(out, block * n_ref * per_pair, threads, new_state, work);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive_matches(h: &[u64], r: &[u64], n: usize) -> i64 {
        let grams = |x: &[u64]| {
            let mut m: HashMap<Vec<u64>, i64> = HashMap::new();
            if x.len() >= n {
                for w in x.windows(n) {
                    *m.entry(w.to_vec()).or_insert(0) += 1;
                }
            }
            m
        };
        let (gh, gr) = (grams(h), grams(r));
        gh.iter()
            .map(|(g, &c)| c.min(*gr.get(g).unwrap_or(&0)))
            .sum()
    }

    #[test]
    fn pairs_match_a_naive_count() {
        let mut state = 12345u64;
        let mut rand = |m: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % m
        };
        let lines: Vec<Vec<u64>> = (0..30)
            .map(|_| (0..rand(14)).map(|_| rand(4)).collect())
            .collect();
        let (hyps, refs) = lines.split_at(12);
        let flat = |ls: &[Vec<u64>]| ls.concat();
        let lens = |ls: &[Vec<u64>]| ls.iter().map(Vec::len).collect::<Vec<_>>();
        for threads in [1, 3] {
            let mut flat_rows = vec![0i64; hyps.len() * refs.len() * 10];
            let (ri, rl) = (flat(refs), lens(refs));
            let (hi, hl) = (flat(hyps), lens(hyps));
            pairwise(
                IdLines {
                    ids: &hi,
                    lens: &hl,
                },
                Some(IdLines {
                    ids: &ri,
                    lens: &rl,
                }),
                4,
                threads,
                &mut flat_rows,
                10,
                |row, slot| slot.copy_from_slice(row),
            );
            let got: Vec<&[i64]> = flat_rows.chunks(10).collect();
            for (h, hl) in hyps.iter().enumerate() {
                for (r, rl) in refs.iter().enumerate() {
                    let row = &got[h * refs.len() + r];
                    assert_eq!(row[0], hl.len() as i64);
                    assert_eq!(row[1], rl.len() as i64);
                    for n in 1..=4 {
                        assert_eq!(row[1 + n], naive_matches(hl, rl, n), "h {h} r {r} n {n}");
                        assert_eq!(row[5 + n], (hl.len() + 1).saturating_sub(n) as i64);
                    }
                }
            }
        }
    }
}
