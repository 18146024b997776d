//! BLEU scores from statistics rows, bit-identical to the Python reference
//! (`bleuscope/metrics/bleu/scoring.py`): the same operations in the same order on float64 values, and
//! the C library's `log`/`exp`, which Python's `math` module calls.
//!
//! Covered: sacreBLEU's smoothing methods (`none`, `floor`, `add-k`, `exp`) with uniform weights, with or
//! without effective order. Other configurations (weights, Chen & Cherry methods, float32 resample
//! arithmetic) stay with the Python implementation.

/// sacreBLEU's `my_log(0)`.
pub const LOG_ZERO: f64 = -9999999999.0;

// The C library's functions, which Python's `math.log`/`math.exp` call (Rust's own `ln`/`exp` may be
// lowered to other implementations).
extern "C" {
    fn log(x: f64) -> f64;
    fn exp(x: f64) -> f64;
}

fn c_log(x: f64) -> f64 {
    // SAFETY: a plain C math function of one double, no preconditions
    unsafe { log(x) }
}

fn c_exp(x: f64) -> f64 {
    // SAFETY: a plain C math function of one double, no preconditions
    unsafe { exp(x) }
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
pub fn brevity_penalty(sys_len: i64, ref_len: i64) -> f64 {
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
    let mut log_sum = 0.0f64;
    for (i, &p) in precisions.iter().enumerate() {
        let term = if i < eff_order {
            if p != 0.0 {
                c_log(p)
            } else {
                LOG_ZERO
            }
        } else {
            0.0
        };
        log_sum += term;
    }
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

#[cfg(feature = "python")]
pub mod py {
    use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
    use pyo3::exceptions::{PyRuntimeError, PyValueError};
    use pyo3::prelude::*;

    use super::{score_rows, Smoothing};

    type Scores<'py> = (
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray2<f64>>,
        Bound<'py, PyArray1<f64>>,
    );

    /// ``(scores [S], precisions [S, order], bp [S])`` of int64 statistics rows ``[S, 2 + 2 * M]``
    /// (``M >= order``; orders ``1..order`` are used) with a sacreBLEU smoothing method (``none``,
    /// ``floor``, ``add-k``, ``exp``; ``smooth_value`` its resolved value) and uniform weights.
    #[pyfunction]
    #[pyo3(signature = (stats, order, smooth_method, smooth_value, effective_order))]
    fn score_rows_native<'py>(
        py: Python<'py>,
        stats: PyReadonlyArray2<'py, i64>,
        order: usize,
        smooth_method: &str,
        smooth_value: f64,
        effective_order: bool,
    ) -> PyResult<Scores<'py>> {
        let smoothing = Smoothing::from_name(smooth_method, smooth_value).ok_or_else(|| {
            PyValueError::new_err(format!(
                "the compiled scorer has no smoothing method {smooth_method:?}"
            ))
        })?;
        let [n_rows, width] = [stats.shape()[0], stats.shape()[1]];
        if order == 0 || width < 2 + 2 * order || width % 2 != 0 {
            return Err(PyValueError::new_err(format!(
                "statistics have {width} columns, too few for order {order}"
            )));
        }
        let rows = stats
            .as_slice()
            .map_err(|_| PyValueError::new_err("statistics must be a C-contiguous array"))?;
        let (scores, precisions, bp) = py
            .detach(|| {
                std::panic::catch_unwind(|| {
                    score_rows(rows, width, order, smoothing, effective_order)
                })
            })
            .map_err(|_| PyRuntimeError::new_err("internal error in bleuscope._core.score_rows"))?;
        Ok((
            PyArray1::from_vec(py, scores),
            PyArray1::from_vec(py, precisions).reshape([n_rows, order])?,
            PyArray1::from_vec(py, bp),
        ))
    }

    pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add_function(wrap_pyfunction!(score_rows_native, m)?)?;
        Ok(())
    }
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
