//! sacreBLEU's float32 resample sums (`bleuscope_core::resample`).

use bleuscope_core::resample::float32_resample_sums;
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::errors::{detached, invalid};
use crate::input::{contiguous, shape};

/// float32 ``[R, D]``: ``stats32[idx[r]].sum(axis=0)`` for every row ``r`` of the int64 resample indices
/// ``idx`` ``[R, S]``, with numpy's sequential float32 accumulation over the segments (sacreBLEU's sums).
#[pyfunction]
pub fn resample_sums_f32<'py>(
    py: Python<'py>,
    stats32: PyReadonlyArray2<'py, f32>,
    idx: PyReadonlyArray2<'py, i64>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let [n_segments, width] = <[usize; 2]>::try_from(shape(&stats32)).expect("2-d");
    let [rows, picks] = <[usize; 2]>::try_from(shape(&idx)).expect("2-d");
    if picks != n_segments {
        return Err(invalid(format!(
            "resample indices have {picks} columns for {n_segments} segments"
        )));
    }
    let stats = contiguous(&stats32, "statistics")?;
    let idx = contiguous(&idx, "indices")?;
    if idx.iter().any(|&i| i < 0 || i as usize >= n_segments) {
        return Err(invalid(format!(
            "resample indices must be in 0..{n_segments}"
        )));
    }
    let mut out = vec![0.0_f32; rows * width];
    detached(py, || {
        float32_resample_sums(stats, width, idx, n_segments, &mut out)
    })?;
    PyArray1::from_vec(py, out).reshape([rows, width])
}
