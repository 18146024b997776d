//! BLEU scores from statistics rows, bit-identical to the Python reference
//! (`bleuscope/metrics/bleu/scoring.py`): the same operations in the same order on float64 values, and
//! the C library's `log`/`exp`, which Python's `math` module calls.
//!
//! Covered: sacreBLEU's smoothing methods (`none`, `floor`, `add-k`, `exp`) with uniform weights, with or
//! without effective order. Other configurations (weights, Chen & Cherry methods, float32 resample
//! arithmetic) stay with the Python implementation.
//!
//! Also here, the batch inputs of sentence-level scoring that have their own layout: padded token-id
//! matrices read in place ([`count_padded`]), and, in the Python bindings, lists of `str` tokens (the
//! NLTK module) and several systems against shared references (significance tests).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::count::{row_width, SegmentCounter};
use crate::par::{for_each_unit, pick_threads};

/// sacreBLEU's `my_log(0)`.
pub(crate) const LOG_ZERO: f64 = -9999999999.0;

// The C library's functions, which Python's `math.log`/`math.exp` call (Rust's own `ln`/`exp` may be
// lowered to other implementations).
extern "C" {
    fn log(x: f64) -> f64;
    fn exp(x: f64) -> f64;
}

/// The C library's `log` (what Python's `math.log` calls).
pub fn c_log(x: f64) -> f64 {
    // SAFETY: the declaration above is C's `double log(double)` of the C library that std links; it
    // takes any double (0, negatives and NaN give -inf or NaN) and touches no memory of ours
    unsafe { log(x) }
}

/// The C library's `exp` (what Python's `math.exp` calls).
pub fn c_exp(x: f64) -> f64 {
    // SAFETY: the declaration above is C's `double exp(double)` of the C library that std links; it
    // takes any double (overflow gives inf) and touches no memory of ours
    unsafe { exp(x) }
}

/// Whether Python's `sum()` of floats compensates its rounding (Neumaier's algorithm, CPython 3.12 and
/// later) or adds left to right (earlier versions). sacreBLEU sums the log precisions with `sum()`, so the
/// last bit of a score depends on it; the bindings set it once from the running Python.
static COMPENSATED_SUM: AtomicBool = AtomicBool::new(false);

/// Sets how [`python_sum`] adds: as CPython 3.12 and later (`true`) or as earlier versions.
pub fn set_compensated_sum(compensated: bool) {
    COMPENSATED_SUM.store(compensated, Ordering::Relaxed);
}

/// Python's `sum(terms)` of floats (start 0), as the running CPython computes it.
pub(crate) fn python_sum(terms: impl Iterator<Item = f64>) -> f64 {
    if !COMPENSATED_SUM.load(Ordering::Relaxed) {
        return terms.fold(0.0, |s, x| s + x);
    }
    // CPython's builtin_sum_impl: Neumaier's improved Kahan-Babuska summation; the compensation is added
    // at the end only when it is non-zero and finite
    let (mut sum, mut c) = (0.0f64, 0.0f64);
    for x in terms {
        let t = sum + x;
        if sum.abs() >= x.abs() {
            c += (sum - t) + x;
        } else {
            c += (x - t) + sum;
        }
        sum = t;
    }
    if c != 0.0 && c.is_finite() {
        sum += c;
    }
    sum
}

/// A sacreBLEU smoothing method with its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smoothing {
    None,
    /// `floor`: a zero precision becomes `100 * value / total`
    Floor(f64),
    /// `add-k`: `value` added to the matches and totals of orders >= 2
    AddK(f64),
    /// `exp`: the NIST geometric sequence `100 / (2^k * total)`
    Exp,
}

impl Smoothing {
    /// The method by its sacreBLEU name (`value`: the resolved smoothing value, where the method has one).
    pub fn from_name(name: &str, value: f64) -> Option<Self> {
        match name {
            "none" => Some(Smoothing::None),
            "floor" => Some(Smoothing::Floor(value)),
            "add-k" => Some(Smoothing::AddK(value)),
            "exp" => Some(Smoothing::Exp),
            _ => None,
        }
    }
}

/// Brevity penalty of one row: `exp(1 - ref/hyp)` for a shorter non-empty hypothesis.
pub(crate) fn brevity_penalty(sys_len: i64, ref_len: i64) -> f64 {
    if sys_len < ref_len {
        if sys_len > 0 {
            c_exp(1.0 - (ref_len as f64) / (sys_len as f64))
        } else {
            0.0
        }
    } else {
        1.0
    }
}

/// Scores one statistics row (`[hyp_len, ref_len, correct_1..width_order, total_1..width_order]`, of
/// which the first `precisions.len()` orders are used): writes the precisions (percent), returns
/// `(score, bp)`.
pub fn score_row(
    row: &[i64],
    smoothing: Smoothing,
    effective_order: bool,
    precisions: &mut [f64],
) -> (f64, f64) {
    let n_ord = precisions.len();
    let width_order = (row.len() - 2) / 2;
    assert!(n_ord >= 1 && n_ord <= width_order, "row width");
    let bp = brevity_penalty(row[0], row[1]);
    let correct = |i: usize| row[2 + i] as f64;
    let total = |i: usize| row[2 + width_order + i] as f64;
    let any_match = (0..n_ord).any(|i| row[2 + i] != 0);
    precisions.fill(0.0);
    let mut eff_order = n_ord;
    if any_match {
        let mut smooth_mteval = 1.0f64;
        for (i, p) in precisions.iter_mut().enumerate() {
            let (mut c, mut t) = (correct(i), total(i));
            if let Smoothing::AddK(k) = smoothing {
                if i >= 1 {
                    c += k;
                    t += k;
                }
            }
            if t == 0.0 {
                break;
            }
            if effective_order {
                eff_order = i + 1;
            }
            if c != 0.0 {
                *p = 100.0 * c / t;
            } else {
                match smoothing {
                    Smoothing::Exp => {
                        smooth_mteval *= 2.0;
                        *p = 100.0 / (smooth_mteval * t);
                    }
                    Smoothing::Floor(v) => *p = (100.0 * v) / t,
                    _ => {}
                }
            }
        }
    }
    if !any_match {
        return (0.0, bp);
    }
    let terms = precisions[..eff_order.min(precisions.len())]
        .iter()
        .map(|&p| if p != 0.0 { c_log(p) } else { LOG_ZERO });
    let log_sum = python_sum(terms);
    let mean_log = log_sum / eff_order as f64;
    (bp * c_exp(mean_log), bp)
}

/// Scores every row of `stats` (row-major, rows of `width`): `scores[S]`, `precisions[S * n_ord]`,
/// `bp[S]`.
pub fn score_rows(
    stats: &[i64],
    width: usize,
    n_ord: usize,
    smoothing: Smoothing,
    effective_order: bool,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    assert!(
        width >= 2 + 2 * n_ord && stats.len().is_multiple_of(width),
        "row width"
    );
    let n_rows = stats.len() / width;
    let mut scores = Vec::with_capacity(n_rows);
    let mut bps = Vec::with_capacity(n_rows);
    let mut precisions = vec![0.0f64; n_rows * n_ord];
    for (row, prec) in stats
        .chunks_exact(width)
        .zip(precisions.chunks_exact_mut(n_ord))
    {
        let (s, bp) = score_row(row, smoothing, effective_order, prec);
        scores.push(s);
        bps.push(bp);
    }
    (scores, precisions, bps)
}

/// Token-id rows of a padded batch: `ids` is `[rows, width]` row-major; row `r` holds `lens[r]` tokens at
/// its start (`left == false`) or end (`left == true`); a negative length is a missing row.
#[derive(Clone, Copy)]
pub struct PaddedIds<'a> {
    pub ids: &'a [u64],
    pub width: usize,
    pub lens: &'a [i64],
    pub left: bool,
}

impl<'a> PaddedIds<'a> {
    fn row(&self, r: usize) -> Option<&'a [u64]> {
        let len = usize::try_from(self.lens[r]).ok()?;
        let row = &self.ids[r * self.width..(r + 1) * self.width];
        Some(if self.left {
            &row[self.width - len..]
        } else {
            &row[..len]
        })
    }
}

/// Tokens per thread below which a batch of padded rows is not split further across threads.
const MIN_TOKENS_PER_THREAD: usize = 32_768;

/// Statistics rows (`out`: `[segments, row_width(order)]`) of padded token-id rows: hypothesis `i` is
/// row `i` of `hyp`, its references rows `i * n_refs .. (i + 1) * n_refs` of `refs` (missing ones have a
/// negative length). Split across `threads` threads (0: one per 32,768 tokens); every row is computed on its
/// own, so the result is the same for any count.
pub fn count_padded(
    hyp: PaddedIds<'_>,
    refs: PaddedIds<'_>,
    n_refs: usize,
    order: usize,
    threads: usize,
    out: &mut [i64],
) {
    let n_seg = hyp.lens.len();
    let width = row_width(order);
    assert_eq!(out.len(), n_seg * width, "output size");
    assert_eq!(refs.lens.len(), n_seg * n_refs, "reference rows");
    assert!(
        hyp.lens.iter().all(|&l| l >= 0 && l as usize <= hyp.width),
        "hypothesis lengths"
    );
    assert!(
        refs.lens.iter().all(|&l| l as i128 <= refs.width as i128),
        "reference lengths"
    );
    let seg_tokens = |i: usize| {
        hyp.lens[i].max(0) as usize
            + refs.lens[i * n_refs..(i + 1) * n_refs]
                .iter()
                .map(|&l| l.max(0) as usize)
                .sum::<usize>()
    };
    let total: usize = (0..n_seg).map(seg_tokens).sum();
    let threads = pick_threads(threads, total, MIN_TOKENS_PER_THREAD, n_seg);
    // segments handed out in small blocks, so uneven lengths do not leave a thread idle
    let block = n_seg.div_ceil(threads * 8).max(1);
    let new_state = || (SegmentCounter::new(order), Vec::with_capacity(n_refs));
    type State<'a> = (SegmentCounter, Vec<Option<&'a [u64]>>);
    for_each_unit(
        out,
        block * width,
        threads,
        new_state,
        |(counter, seg_refs): &mut State<'_>, unit, rows| {
            for (j, row) in rows.chunks_exact_mut(width).enumerate() {
                let i = unit * block + j;
                seg_refs.clear();
                seg_refs.extend((0..n_refs).map(|k| refs.row(i * n_refs + k)));
                counter.count_ids(hyp.row(i).unwrap_or(&[]), seg_refs, row);
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_match_scores_100() {
        let row = [4, 4, 4, 3, 2, 1, 4, 3, 2, 1];
        let mut p = [0.0; 4];
        let (s, bp) = score_row(&row, Smoothing::Exp, false, &mut p);
        assert_eq!(bp, 1.0);
        assert_eq!(p, [100.0; 4]);
        assert!((s - 100.0).abs() < 1e-9);
    }

    #[test]
    fn no_match_scores_zero_and_short_hypothesis_has_penalty() {
        let row = [2, 5, 0, 0, 0, 0, 2, 1, 0, 0];
        let mut p = [0.0; 4];
        let (s, bp) = score_row(&row, Smoothing::Exp, true, &mut p);
        assert_eq!(s, 0.0);
        assert_eq!(p, [0.0; 4]);
        assert!((bp - (1.0f64 - 2.5).exp()).abs() < 1e-12);
    }

    #[test]
    fn effective_order_averages_over_orders_with_ngrams() {
        // 2 hypothesis words, both matching; the bigram matches too; no trigrams or 4-grams
        let row = [2, 2, 2, 1, 0, 0, 2, 1, 0, 0];
        let mut p = [0.0; 4];
        let (s, _) = score_row(&row, Smoothing::Exp, true, &mut p);
        assert!((s - 100.0).abs() < 1e-9);
        let (s, _) = score_row(&row, Smoothing::Exp, false, &mut p);
        assert!(s < 1e-3);
    }
}
