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

/// Statistics of every (hypothesis, reference) pair, handed row by row to `emit(h, r, row)` from the
/// worker threads (rows of one hypothesis come from one thread, in reference order). `refs = None`:
/// the references are the hypotheses. `threads = 0`: up to the number of cores, for large inputs.
pub fn for_each_pair<F>(
    hyp_ids: &[u64],
    hyp_lens: &[usize],
    refs: Option<(&[u64], &[usize])>,
    order: usize,
    threads: usize,
    emit: F,
) where
    F: Fn(usize, usize, &[i64]) + Sync,
{
    assert!(order >= 1, "order");
    let n_hyp = hyp_lens.len();
    let (all_ids, all_lens, ref_first) = match refs {
        None => (hyp_ids.to_vec(), hyp_lens.to_vec(), 0),
        Some((ids, lens)) => {
            let mut all = hyp_ids.to_vec();
            all.extend_from_slice(ids);
            let mut l = hyp_lens.to_vec();
            l.extend_from_slice(lens);
            (all, l, n_hyp)
        }
    };
    let n_ref = all_lens.len() - ref_first;
    if n_hyp == 0 || n_ref == 0 {
        return;
    }
    let lists = gram_lists(&all_ids, &all_lens, order);
    let width = row_width(order);
    let work = |h0: usize, h1: usize| {
        let mut dense: Vec<Vec<u32>> = lists.iter().map(|l| vec![0u32; l.n_grams]).collect();
        let mut row = vec![0i64; width];
        for h in h0..h1 {
            let hyp_len = all_lens[h];
            for (d, l) in dense.iter_mut().zip(&lists) {
                for &(g, c) in l.line(h) {
                    d[g as usize] = c;
                }
            }
            for r in 0..n_ref {
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
                emit(h, r, &row);
            }
            for (d, l) in dense.iter_mut().zip(&lists) {
                for &(g, _) in l.line(h) {
                    d[g as usize] = 0;
                }
            }
        }
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if threads == 0 {
        cores.min(8).min((n_hyp * n_ref) / 16_384)
    } else {
        threads
    }
    .clamp(1, n_hyp);
    if threads == 1 {
        work(0, n_hyp);
        return;
    }
    // hypotheses handed out in small blocks, so uneven line lengths do not leave a thread idle
    let next = std::sync::atomic::AtomicUsize::new(0);
    let block = n_hyp.div_ceil(threads * 8).max(1);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| loop {
                    let h0 = next.fetch_add(block, std::sync::atomic::Ordering::Relaxed);
                    if h0 >= n_hyp {
                        break;
                    }
                    work(h0, (h0 + block).min(n_hyp));
                })
            })
            .collect();
        let mut panic = None;
        for h in handles {
            if let Err(e) = h.join() {
                panic = Some(e);
            }
        }
        if let Some(e) = panic {
            std::panic::resume_unwind(e);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Mutex;

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
            let got = Mutex::new(vec![vec![0i64; 10]; hyps.len() * refs.len()]);
            let (ri, rl) = (flat(refs), lens(refs));
            for_each_pair(
                &flat(hyps),
                &lens(hyps),
                Some((&ri, &rl)),
                4,
                threads,
                |h, r, row| {
                    got.lock().unwrap()[h * refs.len() + r] = row.to_vec();
                },
            );
            let got = got.into_inner().unwrap();
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
