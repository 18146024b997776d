use numpy::{PyArray2, PyArrayMethods, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use bleuscope_core::resample::float32_resample_sums;

/// float32 ``[R, D]``: ``stats32[idx[r]].sum(axis=0)`` for every row ``r`` of the int64 resample indices
/// ``idx`` ``[R, S]``, with numpy's sequential float32 accumulation over the segments (sacreBLEU's sums).
#[pyfunction]
fn resample_sums_f32<'py>(
    py: Python<'py>,
    stats32: PyReadonlyArray2<'py, f32>,
    idx: PyReadonlyArray2<'py, i64>,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let [n_segments, width] = [stats32.shape()[0], stats32.shape()[1]];
    let [rows, picks] = [idx.shape()[0], idx.shape()[1]];
    if picks != n_segments {
        return Err(PyValueError::new_err(format!(
            "resample indices have {picks} columns for {n_segments} segments"
        )));
    }
    let stats = stats32
        .as_slice()
        .map_err(|_| PyValueError::new_err("statistics must be a C-contiguous array"))?;
    let idx = idx
        .as_slice()
        .map_err(|_| PyValueError::new_err("indices must be a C-contiguous array"))?;
    if idx.iter().any(|&i| i < 0 || i as usize >= n_segments) {
        return Err(PyValueError::new_err(format!(
            "resample indices must be in 0..{n_segments}"
        )));
    }
    let mut out = vec![0.0_f32; rows * width];
    py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            float32_resample_sums(stats, width, idx, n_segments, &mut out)
        }))
    })
    .map_err(|_| PyRuntimeError::new_err("internal error in bleuscope._core.resample_sums_f32"))?;
    numpy::PyArray1::from_vec(py, out).reshape([rows, width])
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(resample_sums_f32, m)?)?;
    Ok(())
}
