//! TER edits (sacreBLEU 2.6.0's Tercom variant) of a hypothesis against each of its references.
//!
//! Input texts are already normalized by Python (Tercom's rules, then words joined by single spaces);
//! words are compared as segment-local ids. The algorithm and its limits are sacreBLEU's, documented in
//! the Python reference (`bleuscope/metrics/_ter_edits.py`): beam edit distance (beam 25 around the
//! length-ratio diagonal, ties: match/substitution, hypothesis-word deletion, reference-word insertion),
//! greedy block shifts (blocks of 1..=10 words, starts at most 50 apart, best by gain, length, earliest
//! start, earliest target) and a cap of 1000 evaluated shift candidates per pair.

use std::collections::HashMap;

use crate::par::{for_each_unit, pick_threads};

const MAX_SHIFT_SIZE: usize = 10;
const MAX_SHIFT_DIST: usize = 50;
const BEAM_WIDTH: i64 = 25;
const MAX_SHIFT_CANDIDATES: usize = 1000;
const INFINITY: i64 = 10_000_000_000_000_000;

const OP_MATCH: u8 = 0;
const OP_SUB: u8 = 1;
const OP_DEL_HYP: u8 = 2;
const OP_INS_REF: u8 = 3;
const OP_UNDEF: u8 = 4;

/// The DP rows of one hypothesis, each kept only over its beam (cells outside are infinite): memory
/// O(n * beam + m) instead of O(n * m).
#[derive(Default)]
pub(crate) struct Rows {
    /// per row: (first cell, offset into `costs`/`ops`, number of cells)
    bands: Vec<(usize, usize, usize)>,
    costs: Vec<i64>,
    ops: Vec<u8>,
}

impl Rows {
    fn cost(&self, i: usize, j: usize) -> i64 {
        let (lo, at, len) = self.bands[i];
        if j >= lo && j < lo + len {
            self.costs[at + j - lo]
        } else {
            INFINITY
        }
    }

    fn op(&self, i: usize, j: usize) -> u8 {
        let (lo, at, len) = self.bands[i];
        if j >= lo && j < lo + len {
            self.ops[at + j - lo]
        } else {
            OP_UNDEF
        }
    }

    /// Row i as (first cell, cells).
    fn band(&self, i: usize) -> (usize, &[i64]) {
        let (lo, at, len) = self.bands[i];
        (lo, &self.costs[at..at + len])
    }
}

/// A hypothesis given by how it differs from another: its `words` equal the other's before `start` and
/// from `end` on (a shift changes only the words in between).
#[derive(Clone, Copy)]
struct Splice<'a> {
    words: &'a [u32],
    start: usize,
    end: usize,
}

/// The costs from every cell to the end (n, m) through the same banded cells as the forward rows: a
/// shift candidate that differs from the hypothesis of these costs only in words before row `end` has the
/// distance min over j of (its cost at (end, j) + this cost from (end, j)), since every path crosses row
/// `end`. Only the candidate's rows up to `end` are computed then.
#[derive(Default)]
pub(crate) struct Suffix {
    /// per row: (first cell, offset into `costs`, number of cells)
    bands: Vec<(usize, usize, usize)>,
    costs: Vec<i64>,
}

impl Suffix {
    fn band(&self, i: usize) -> (usize, &[i64]) {
        let (lo, at, len) = self.bands[i];
        (lo, &self.costs[at..at + len])
    }
}

/// Beam edit distance of hypotheses of one fixed length `n` against one reference.
struct Beam<'r> {
    reference: &'r [u32],
    n: usize,
    m: usize,
    ratio: f64,
    beam: i64,
}

impl<'r> Beam<'r> {
    fn new(reference: &'r [u32], n: usize) -> Self {
        let m = reference.len();
        let ratio = if n > 0 { m as f64 / n as f64 } else { 1.0 };
        let beam = if (BEAM_WIDTH as f64) < ratio / 2.0 {
            (ratio / 2.0 + BEAM_WIDTH as f64).ceil() as i64
        } else {
            BEAM_WIDTH
        };
        Beam {
            reference,
            n,
            m,
            ratio,
            beam,
        }
    }

    /// Cells [lo, hi) of row i (1..=n).
    fn range(&self, i: usize) -> (usize, usize) {
        let diag = (i as f64 * self.ratio).floor() as i64;
        let lo = (diag - self.beam).max(0) as usize;
        let hi = if i == self.n {
            self.m + 1
        } else {
            (diag + self.beam).min(self.m as i64 + 1).max(0) as usize
        };
        (lo, hi.max(lo))
    }

    /// Cells [lo, hi) of row i (0..=n; row 0 has every cell).
    fn cells(&self, i: usize) -> (usize, usize) {
        if i == 0 {
            (0, self.m + 1)
        } else {
            self.range(i)
        }
    }

    /// The costs from every banded cell of every row to (n, m) for the hypothesis `hyp`, into `out`
    /// (rows stored from n down to 0). Moves as in [`Beam::row`], read backwards: to (i + 1, j + 1) for
    /// 0 or 1, to (i + 1, j) and to (i, j + 1) for 1.
    fn suffix(&self, hyp: &[u32], out: &mut Suffix) {
        out.bands.clear();
        out.bands.resize(self.n + 1, (0, 0, 0));
        out.costs.clear();
        let (lo, hi) = self.cells(self.n);
        out.bands[self.n] = (lo, 0, hi - lo);
        out.costs.extend((lo..hi).map(|j| (self.m - j) as i64));
        for i in (0..self.n).rev() {
            let (next_lo, next_at, next_len) = out.bands[i + 1];
            let (lo, hi) = self.cells(i);
            let at = out.costs.len();
            out.costs.resize(at + (hi - lo), INFINITY);
            let (done, cur) = out.costs.split_at_mut(at);
            let next = |c: usize| {
                if c >= next_lo && c < next_lo + next_len {
                    done[next_at + c - next_lo]
                } else {
                    INFINITY
                }
            };
            let word = hyp[i];
            for j in (lo..hi).rev() {
                let mut best = next(j) + 1;
                if j < self.m {
                    best = best.min(next(j + 1) + i64::from(word != self.reference[j]));
                    if j + 1 < hi {
                        best = best.min(cur[j + 1 - lo] + 1);
                    }
                }
                cur[j - lo] = best;
            }
            out.bands[i] = (lo, at, hi - lo);
        }
    }

    /// Distance of `edit.words`, a hypothesis equal to that of `base` before word `edit.start` and to
    /// that of `suffix` from word `edit.end` on: its rows start+1..=end, then the cheapest way through
    /// row `end` (`a`, `b`: row buffers).
    fn distance_through(
        &self,
        edit: &Splice<'_>,
        base: &Rows,
        suffix: &Suffix,
        a: &mut Vec<i64>,
        b: &mut Vec<i64>,
    ) -> i64 {
        let Splice {
            words: hyp,
            start,
            end,
        } = *edit;
        let (mut lo, band) = base.band(start);
        a.clear();
        a.extend_from_slice(band);
        for i in start + 1..=end {
            lo = self.row(i, hyp[i - 1], lo, a, b, None);
            std::mem::swap(a, b);
        }
        let (s_lo, rest) = suffix.band(end);
        let first = lo.max(s_lo);
        let last = (lo + a.len()).min(s_lo + rest.len());
        (first..last)
            .map(|j| a[j - lo] + rest[j - s_lo])
            .min()
            .unwrap_or(INFINITY)
    }

    /// Row i from row i-1 (cells `prev` from `prev_lo`) into `cur` (cells from the returned first cell);
    /// `ops` (if given) gets the operations. Ties: match/substitution, deletion, insertion.
    fn row(
        &self,
        i: usize,
        word: u32,
        prev_lo: usize,
        prev: &[i64],
        cur: &mut Vec<i64>,
        mut ops: Option<&mut Vec<u8>>,
    ) -> usize {
        let (lo, hi) = self.range(i);
        let get = |j: usize| {
            if j >= prev_lo && j < prev_lo + prev.len() {
                prev[j - prev_lo]
            } else {
                INFINITY
            }
        };
        cur.clear();
        for j in lo..hi {
            let (best, op) = if j == 0 {
                (get(0) + 1, OP_DEL_HYP)
            } else {
                let same = word == self.reference[j - 1];
                let mut best = INFINITY;
                let mut op = OP_UNDEF;
                let c = get(j - 1) + i64::from(!same);
                if c < best {
                    best = c;
                    op = if same { OP_MATCH } else { OP_SUB };
                }
                let c = get(j) + 1;
                if c < best {
                    best = c;
                    op = OP_DEL_HYP;
                }
                let left = if j > lo { cur[j - 1 - lo] } else { INFINITY };
                let c = left + 1;
                if c < best {
                    best = c;
                    op = OP_INS_REF;
                }
                (best, op)
            };
            cur.push(best);
            if let Some(o) = ops.as_deref_mut() {
                o.push(op);
            }
        }
        lo
    }

    /// Every row of `hyp`, banded.
    fn full(&self, hyp: &[u32], rows: &mut Rows, cur: &mut Vec<i64>, ops: &mut Vec<u8>) {
        rows.bands.clear();
        rows.costs.clear();
        rows.ops.clear();
        rows.costs.extend(0..=self.m as i64);
        rows.ops.resize(self.m + 1, OP_INS_REF);
        rows.bands.push((0, 0, self.m + 1));
        for i in 1..=self.n {
            let (prev_lo, prev_at, prev_len) = rows.bands[i - 1];
            ops.clear();
            let lo = self.row(
                i,
                hyp[i - 1],
                prev_lo,
                &rows.costs[prev_at..prev_at + prev_len],
                cur,
                Some(ops),
            );
            rows.bands.push((lo, rows.costs.len(), cur.len()));
            rows.costs.extend_from_slice(cur);
            rows.ops.extend_from_slice(ops);
        }
    }
}

/// (align, ref_err, hyp_err) of the back-pointer path through `rows`.
fn alignment(
    rows: &Rows,
    n: usize,
    m: usize,
    align: &mut Vec<i64>,
    ref_err: &mut Vec<bool>,
    hyp_err: &mut Vec<bool>,
) {
    let mut path = Vec::with_capacity(n + m);
    let (mut i, mut j) = (n, m);
    while i > 0 || j > 0 {
        let op = rows.op(i, j);
        path.push(op);
        match op {
            OP_MATCH | OP_SUB => {
                i -= 1;
                j -= 1;
            }
            OP_INS_REF => j -= 1,
            OP_DEL_HYP => i -= 1,
            _ => panic!("TER beam edit distance left its beam (undefined cell on the trace)"),
        }
    }
    align.clear();
    ref_err.clear();
    hyp_err.clear();
    let mut h: i64 = -1;
    for &op in path.iter().rev() {
        match op {
            OP_MATCH | OP_SUB => {
                h += 1;
                align.push(h);
                hyp_err.push(op == OP_SUB);
                ref_err.push(op == OP_SUB);
            }
            OP_DEL_HYP => {
                h += 1;
                hyp_err.push(true);
            }
            _ => {
                align.push(h);
                ref_err.push(true);
            }
        }
    }
}

/// `words` with the block [start, start + len) moved to `target` (sacreBLEU's three cases), into `out`.
fn shift_into(words: &[u32], start: usize, len: usize, target: usize, out: &mut Vec<u32>) {
    let n = words.len();
    out.clear();
    if target < start {
        out.extend_from_slice(&words[..target]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[target..start]);
        out.extend_from_slice(&words[start + len..]);
    } else if target > start + len {
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[start + len..target]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[target..]);
    } else {
        // Python slices clip at the end: words[start + len : len + target] and words[len + target:]
        let mid_end = (len + target).min(n);
        out.extend_from_slice(&words[..start]);
        out.extend_from_slice(&words[(start + len).min(mid_end)..mid_end]);
        out.extend_from_slice(&words[start..start + len]);
        out.extend_from_slice(&words[mid_end..]);
    }
}

/// Reusable buffers for one thread.
#[derive(Default)]
pub(crate) struct TerScratch {
    rows: Rows,
    suffix: Suffix,
    row_ops: Vec<u8>,
    row_a: Vec<i64>,
    row_b: Vec<i64>,
    align: Vec<i64>,
    ref_err: Vec<bool>,
    hyp_err: Vec<bool>,
    candidate: Vec<u32>,
    best: Vec<u32>,
    words: Vec<u32>,
}

/// TER edits of `hyp` against `reference` (word ids).
pub(crate) fn ter_edits(hyp: &[u32], reference: &[u32], s: &mut TerScratch) -> i64 {
    if reference.is_empty() {
        return hyp.len() as i64;
    }
    let n = hyp.len();
    let m = reference.len();
    let beam = Beam::new(reference, n);
    s.words.clear();
    s.words.extend_from_slice(hyp);
    let mut shifts = 0i64;
    let mut checked = 0usize;
    loop {
        beam.full(&s.words, &mut s.rows, &mut s.row_a, &mut s.row_ops);
        beam.suffix(&s.words, &mut s.suffix);
        let before = s.rows.cost(n, m);
        alignment(&s.rows, n, m, &mut s.align, &mut s.ref_err, &mut s.hyp_err);
        // best key: (gain, length, -start, -target)
        let mut best: Option<(i64, usize, i64, i64)> = None;
        'blocks: for sh in 0..n {
            let r_lo = sh.saturating_sub(MAX_SHIFT_DIST);
            let r_hi = m.min(sh + MAX_SHIFT_DIST + 1);
            for sr in r_lo..r_hi {
                let mut len = 0;
                while len < MAX_SHIFT_SIZE && s.words[sh + len] == reference[sr + len] {
                    len += 1;
                    let end_reached = sh + len == n || sr + len == m;
                    let wanted = s.hyp_err[sh..sh + len].iter().any(|&e| e)
                        && s.ref_err[sr..sr + len].iter().any(|&e| e)
                        && !(sh as i64 <= s.align[sr] && s.align[sr] < (sh + len) as i64);
                    if wanted {
                        let mut prev_target: i64 = -1;
                        for offset in -1..len as i64 {
                            let pos = sr as i64 + offset;
                            let target = if pos == -1 {
                                0
                            } else if (pos as usize) < s.align.len() {
                                s.align[pos as usize] + 1
                            } else {
                                break;
                            };
                            if target == prev_target {
                                continue;
                            }
                            prev_target = target;
                            let target = target as usize;
                            shift_into(&s.words, sh, len, target, &mut s.candidate);
                            // the candidate equals the hypothesis before min(sh, target) and after `end`
                            let first = sh.min(target);
                            let mut end = n;
                            while end > first && s.candidate[end - 1] == s.words[end - 1] {
                                end -= 1;
                            }
                            let edit = Splice {
                                words: &s.candidate,
                                start: first,
                                end,
                            };
                            let after = beam.distance_through(
                                &edit,
                                &s.rows,
                                &s.suffix,
                                &mut s.row_a,
                                &mut s.row_b,
                            );
                            let key = (before - after, len, -(sh as i64), -(target as i64));
                            checked += 1;
                            if best.is_none_or(|b| key > b) {
                                best = Some(key);
                                std::mem::swap(&mut s.best, &mut s.candidate);
                            }
                        }
                        if checked >= MAX_SHIFT_CANDIDATES {
                            break 'blocks;
                        }
                    }
                    if end_reached {
                        break;
                    }
                }
            }
        }
        let gain = best.map_or(0, |b| b.0);
        if checked >= MAX_SHIFT_CANDIDATES || gain <= 0 {
            break;
        }
        shifts += 1;
        std::mem::swap(&mut s.words, &mut s.best);
    }
    beam.full(&s.words, &mut s.rows, &mut s.row_a, &mut s.row_ops);
    shifts + s.rows.cost(n, m)
}

/// Word ids of space-separated words (shared by a segment's hypothesis and references).
fn word_ids<'a>(text: &'a str, map: &mut HashMap<&'a str, u32>, out: &mut Vec<u32>) {
    out.clear();
    for w in text.split(' ').filter(|w| !w.is_empty()) {
        let next = map.len() as u32;
        out.push(*map.entry(w).or_insert(next));
    }
}

/// Segments per unit of work handed to a thread by [`edits_rows`]: small, since TER's cost per segment
/// varies a lot.
const TER_UNIT: usize = 16;

/// (edits, reference length) of every hypothesis against each reference (`None`: absent, zeros),
/// `out` rows `[S, K, 2]` row-major, split over `threads` threads (0: one per 32 segments).
pub fn edits_rows(hyps: &[&str], refs: &[Vec<Option<&str>>], threads: usize, out: &mut [i64]) {
    let n_ref = refs.len();
    let seg_width = 2 * n_ref;
    assert_eq!(out.len(), hyps.len() * seg_width, "output size");
    if hyps.is_empty() || n_ref == 0 {
        return;
    }
    let threads = pick_threads(threads, hyps.len(), 32, hyps.len().div_ceil(TER_UNIT));
    let new_state = || (TerScratch::default(), Vec::new(), Vec::new());
    type State = (TerScratch, Vec<u32>, Vec<u32>);
    for_each_unit(
        out,
        TER_UNIT * seg_width,
        threads,
        new_state,
        |(scratch, hyp_ids, ref_ids): &mut State, unit, rows| {
            for (j, row) in rows.chunks_mut(seg_width).enumerate() {
                let i = unit * TER_UNIT + j;
                let mut map = HashMap::new();
                word_ids(hyps[i], &mut map, hyp_ids);
                for k in 0..n_ref {
                    if let Some(r) = refs[k][i] {
                        word_ids(r, &mut map, ref_ids);
                        row[2 * k] = ter_edits(hyp_ids, ref_ids, scratch);
                        row[2 * k + 1] = ref_ids.len() as i64;
                    }
                }
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ids(text: &str, map: &mut HashMap<String, u32>) -> Vec<u32> {
        text.split_whitespace()
            .map(|w| {
                let next = map.len() as u32;
                *map.entry(w.to_string()).or_insert(next)
            })
            .collect()
    }

    fn edits(h: &str, r: &str) -> i64 {
        let mut map = HashMap::new();
        let (h, r) = (ids(h, &mut map), ids(r, &mut map));
        ter_edits(&h, &r, &mut TerScratch::default())
    }

    #[test]
    fn block_shift_is_one_edit() {
        assert_eq!(edits("d e f a b c", "a b c d e f"), 1);
    }

    #[test]
    fn plain_edit_distance_and_empty_sides() {
        assert_eq!(edits("a b c", "a x c"), 1);
        assert_eq!(edits("", "a b"), 2);
        assert_eq!(edits("a b", ""), 2);
        assert_eq!(edits("a b c", "a b c"), 0);
    }

    #[test]
    fn distance_through_any_row_is_the_full_distance() {
        // a small deterministic generator: words from a 4-word vocabulary, lengths 0..40
        let mut seed: u64 = 12345;
        let mut next = |k: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % k
        };
        let mut rows = Rows::default();
        let mut suffix = Suffix::default();
        let (mut a, mut b, mut cur, mut ops) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for _ in 0..300 {
            let hyp: Vec<u32> = (0..next(40)).map(|_| next(4) as u32).collect();
            let reference: Vec<u32> = (0..next(40) + 1).map(|_| next(4) as u32).collect();
            let beam = Beam::new(&reference, hyp.len());
            beam.full(&hyp, &mut rows, &mut cur, &mut ops);
            beam.suffix(&hyp, &mut suffix);
            let full = rows.cost(hyp.len(), reference.len());
            for start in 0..=hyp.len() {
                for end in start..=hyp.len() {
                    let edit = Splice {
                        words: &hyp,
                        start,
                        end,
                    };
                    let through = beam.distance_through(&edit, &rows, &suffix, &mut a, &mut b);
                    assert_eq!(
                        through, full,
                        "hyp {hyp:?} ref {reference:?} start {start} end {end}"
                    );
                }
            }
        }
    }

    #[test]
    fn shift_cases_match_python_slicing() {
        let w = [0, 1, 2, 3, 4];
        let mut out = Vec::new();
        shift_into(&w, 3, 2, 1, &mut out);
        assert_eq!(out, vec![0, 3, 4, 1, 2]);
        shift_into(&w, 0, 2, 4, &mut out);
        assert_eq!(out, vec![2, 3, 0, 1, 4]);
        shift_into(&w, 1, 2, 3, &mut out); // within: words[:1] + words[3:5] + words[1:3] + words[5:]
        assert_eq!(out, vec![0, 3, 4, 1, 2]);
        shift_into(&w, 2, 2, 4, &mut out); // clipped: words[:2] + words[4:5] + words[2:4] + []
        assert_eq!(out, vec![0, 1, 4, 2, 3]);
    }
}
