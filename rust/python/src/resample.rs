//! The significance tests' resampling kernels (`bleuscope_core::resample`).

use bleuscope_core::resample::{float32_resample_sums, masked_sums, Lane, Pick, MASKED_MAX_VALUE};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2};
use pyo3::prelude::*;

use crate::errors::{detached, invalid, wrong_type};
use crate::input::{contiguous, shape};

fn sums_of<T: Lane + numpy::Element, I: Pick + numpy::Element + Into<i64>>(
    py: Python<'_>,
    stats: &PyReadonlyArray2<'_, T>,
    idx: &PyReadonlyArray2<'_, I>,
    threads: usize,
) -> PyResult<(Vec<f32>, usize)> {
    let [n_segments, width] = <[usize; 2]>::try_from(shape(stats)).expect("2-d");
    let [rows, picks] = <[usize; 2]>::try_from(shape(idx)).expect("2-d");
    if picks != n_segments {
        return Err(invalid(format!(
            "resample indices have {picks} columns for {n_segments} segments"
        )));
    }
    let stats = contiguous(stats, "statistics")?;
    let idx = contiguous(idx, "indices")?;
    let limit = n_segments as i64;
    if idx.iter().any(|&i| !(0..limit).contains(&i.into())) {
        return Err(invalid(format!(
            "resample indices must be in 0..{n_segments}"
        )));
    }
    let mut out = vec![0.0_f32; rows * width];
    detached(py, || {
        float32_resample_sums(stats, width, idx, n_segments, &mut out, threads)
    })?;
    Ok((out, width))
}

/// :func:`sums_of` with int32 indices, else int64 ones (the two index types the Python side draws).
fn sums_any_index<'py, T: Lane + numpy::Element>(
    py: Python<'py>,
    stats: &PyReadonlyArray2<'py, T>,
    idx: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<(Vec<f32>, usize)> {
    match idx.extract::<PyReadonlyArray2<'py, i32>>() {
        Ok(i) => sums_of(py, stats, &i, threads),
        Err(_) => sums_of(
            py,
            stats,
            &idx.extract::<PyReadonlyArray2<'py, i64>>()?,
            threads,
        ),
    }
}

/// float32 ``[R, D]``: ``stats[idx[r]].sum(axis=0)`` for every row ``r`` of the resample indices ``idx``
/// ``[R, S]`` (int32 or int64), with numpy's sequential float32 accumulation over the segments (sacreBLEU's
/// sums). ``stats`` ``[S, D]`` is float32, or uint16 (exact in float32, half the memory to pick rows from).
#[pyfunction]
#[pyo3(signature = (stats, idx, *, threads = 1))]
pub(crate) fn resample_sums_f32<'py>(
    py: Python<'py>,
    stats: &Bound<'py, PyAny>,
    idx: &Bound<'py, PyAny>,
    threads: usize,
) -> PyResult<Bound<'py, PyArray2<f32>>> {
    let (out, width) = if let Ok(s) = stats.extract::<PyReadonlyArray2<'py, f32>>() {
        sums_any_index(py, &s, idx, threads)?
    } else if let Ok(s) = stats.extract::<PyReadonlyArray2<'py, u16>>() {
        sums_any_index(py, &s, idx, threads)?
    } else {
        return Err(wrong_type(
            "statistics must be a 2-d float32 or uint16 array",
        ));
    };
    let rows = out.len() / width.max(1);
    PyArray1::from_vec(py, out).reshape([rows, width])
}

/// int64 ``[R, W]``: ``M @ cols`` for the 0/1 mask ``M`` ``[R, S]`` whose bits are ``words`` (uint64,
/// bit ``k`` = bit ``k % 64`` of ``words[k // 64]``) from bit ``first_bit`` on, row after row; ``cols`` is
/// int32 ``[S, W]`` with ``|value| <= 2**28 - 1``.
#[pyfunction]
#[pyo3(signature = (words, first_bit, rows, cols, *, threads = 1))]
pub(crate) fn masked_sums_i64<'py>(
    py: Python<'py>,
    words: PyReadonlyArray1<'py, u64>,
    first_bit: usize,
    rows: usize,
    cols: PyReadonlyArray2<'py, i32>,
    threads: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    let [n_segments, width] = <[usize; 2]>::try_from(shape(&cols)).expect("2-d");
    let words = contiguous(&words, "mask words")?;
    let cols = contiguous(&cols, "columns")?;
    let needed = rows
        .checked_mul(n_segments)
        .and_then(|n| n.checked_add(first_bit))
        .ok_or_else(|| invalid("mask too large"))?;
    if needed > words.len().saturating_mul(64) {
        return Err(invalid(format!(
            "{rows} rows of {n_segments} mask bits from bit {first_bit} need {needed} bits, \
             the words hold {}",
            words.len() * 64
        )));
    }
    if cols.iter().any(|&v| i64::from(v).abs() > MASKED_MAX_VALUE) {
        return Err(invalid(format!(
            "masked columns must be at most {MASKED_MAX_VALUE} in absolute value"
        )));
    }
    let mut out = vec![0_i64; rows * width];
    detached(py, || {
        masked_sums(words, first_bit, n_segments, cols, width, &mut out, threads)
    })?;
    PyArray1::from_vec(py, out).reshape([rows, width])
}
