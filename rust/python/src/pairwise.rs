use std::cell::UnsafeCell;

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use bleuscope_core::count::row_width;
use bleuscope_core::pairwise::for_each_pair;
use bleuscope_core::score::{score_row, Smoothing};

/// An output buffer written from several threads at disjoint positions.
struct Disjoint<T>(UnsafeCell<Vec<T>>);
// SAFETY: every position is written by exactly one thread (one (h, r) pair each), and read only
// after all threads have joined.
unsafe impl<T: Send> Sync for Disjoint<T> {}

impl<T: Copy> Disjoint<T> {
    /// # Safety
    /// No two threads may write the same range.
    unsafe fn write(&self, at: usize, values: &[T]) {
        let v = &mut *self.0.get();
        v[at..at + values.len()].copy_from_slice(values);
    }
}

fn lengths(lens: &[i64], n_ids: usize, what: &str) -> PyResult<Vec<usize>> {
    let mut total = 0usize;
    let mut out = Vec::with_capacity(lens.len());
    for (i, &l) in lens.iter().enumerate() {
        let l = usize::try_from(l).map_err(|_| {
            PyValueError::new_err(format!("{what}: length {l} of line {i} is negative"))
        })?;
        total = total.saturating_add(l);
        out.push(l);
    }
    if total != n_ids {
        return Err(PyValueError::new_err(format!(
            "{what}: the lengths add up to {total}, but there are {n_ids} ids"
        )));
    }
    Ok(out)
}

type Refs<'py> = Option<(PyReadonlyArray1<'py, u64>, PyReadonlyArray1<'py, i64>)>;

/// Pairwise BLEU of token ids: every hypothesis (``hyp_ids`` uint64 flat, ``hyp_lens`` int64) against
/// every single reference (``refs = (ids, lens)``, or None: the hypotheses themselves). With
/// ``smooth_method`` (a sacreBLEU method, uniform weights) returns the scores float64 ``[H, R]``;
/// with ``smooth_method=None`` the statistics rows int64 ``[H * R, 2 + 2 * order]``.
#[pyfunction]
#[pyo3(signature = (hyp_ids, hyp_lens, refs, order, smooth_method=None, smooth_value=0.0, effective_order=false, threads=0))]
#[allow(clippy::too_many_arguments)]
fn pairwise_native<'py>(
    py: Python<'py>,
    hyp_ids: PyReadonlyArray1<'py, u64>,
    hyp_lens: PyReadonlyArray1<'py, i64>,
    refs: Refs<'py>,
    order: usize,
    smooth_method: Option<&str>,
    smooth_value: f64,
    effective_order: bool,
    threads: usize,
) -> PyResult<Bound<'py, PyAny>> {
    if !(1..=64).contains(&order) {
        return Err(PyValueError::new_err(format!(
            "order must be in 1..=64, got {order}"
        )));
    }
    let contiguous = || PyValueError::new_err("arrays must be contiguous");
    let h_ids = hyp_ids.as_slice().map_err(|_| contiguous())?;
    let h_lens = lengths(
        hyp_lens.as_slice().map_err(|_| contiguous())?,
        h_ids.len(),
        "hypotheses",
    )?;
    let r = match &refs {
        None => None,
        Some((ids, lens)) => {
            let ids = ids.as_slice().map_err(|_| contiguous())?;
            let lens = lengths(
                lens.as_slice().map_err(|_| contiguous())?,
                ids.len(),
                "references",
            )?;
            Some((ids, lens))
        }
    };
    let n_hyp = h_lens.len();
    let n_ref = r.as_ref().map_or(n_hyp, |(_, l)| l.len());
    let n_pairs = n_hyp
        .checked_mul(n_ref)
        .ok_or_else(|| PyValueError::new_err("too many pairs"))?;
    let smoothing = match smooth_method {
        None => None,
        Some(name) => Some(Smoothing::from_name(name, smooth_value).ok_or_else(|| {
            PyValueError::new_err(format!(
                "the compiled scorer has no smoothing method {name:?}"
            ))
        })?),
    };
    let width = row_width(order);
    let refs_arg = r.as_ref().map(|(ids, lens)| (*ids, lens.as_slice()));
    let run = |emit: &(dyn Fn(usize, usize, &[i64]) + Sync)| {
        py.detach(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                for_each_pair(h_ids, &h_lens, refs_arg, order, threads, emit)
            }))
        })
        .map_err(|_| PyRuntimeError::new_err("internal error in bleuscope._core.pairwise_native"))
    };
    match smoothing {
        Some(smoothing) => {
            let out = Disjoint(UnsafeCell::new(vec![0.0f64; n_pairs]));
            run(&|h, r, row| {
                let mut precisions = [0.0f64; 64];
                let (score, _) =
                    score_row(row, smoothing, effective_order, &mut precisions[..order]);
                // SAFETY: pair (h, r) is emitted once, by one thread
                unsafe { out.write(h * n_ref + r, &[score]) };
            })?;
            let scores = out.0.into_inner();
            Ok(PyArray1::from_vec(py, scores)
                .reshape([n_hyp, n_ref])?
                .into_any())
        }
        None => {
            let out = Disjoint(UnsafeCell::new(vec![0i64; n_pairs * width]));
            run(&|h, r, row| {
                // SAFETY: pair (h, r) is emitted once, by one thread
                unsafe { out.write((h * n_ref + r) * width, row) };
            })?;
            let rows: Bound<'py, PyArray2<i64>> =
                PyArray1::from_vec(py, out.0.into_inner()).reshape([n_pairs, width])?;
            Ok(rows.into_any())
        }
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(pairwise_native, m)?)?;
    Ok(())
}
