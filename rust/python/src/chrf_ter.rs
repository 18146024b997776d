//! chrF and TER counters of `bleuscope._core`, built once with their configuration.

use bleuscope_core::chrf::{candidate_rows, supported};
use bleuscope_core::ter::edits_rows;
use numpy::{PyArray1, PyArray3, PyArrayMethods};
use pyo3::prelude::*;

use crate::errors::detached;
use crate::input::TextInput;

/// chrF candidate rows: for every segment and reference, int64 ``3 * (char_order + word_order)``
/// statistics of the (already lowercased if needed) hypothesis against that reference. ``threads=0``: a
/// count for the input size.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct ChrfCounter {
    #[pyo3(get)]
    char_order: usize,
    #[pyo3(get)]
    word_order: usize,
    #[pyo3(get)]
    whitespace: bool,
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl ChrfCounter {
    #[new]
    #[pyo3(signature = (char_order = 6, word_order = 0, whitespace = false, *, threads = 0))]
    fn new(char_order: usize, word_order: usize, whitespace: bool, threads: usize) -> Self {
        ChrfCounter {
            char_order,
            word_order,
            whitespace,
            threads,
        }
    }

    /// int64 ``[S, K, 3 * (char_order + word_order)]`` of hypotheses against reference streams (None:
    /// absent); None when a string is not valid UTF-8 (the Python implementation then does the job).
    fn rows<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray3<i64>>>> {
        if !supported(self.char_order, self.word_order) {
            return Ok(None);
        }
        let input = TextInput::new(hyps, ref_streams)?;
        let read = input.read_all()?;
        let Some((hyps, refs)) = read.utf8_texts() else {
            return Ok(None);
        };
        let width = 3 * (self.char_order + self.word_order);
        let shape = [hyps.len(), refs.len(), width];
        let mut out = vec![0i64; shape.iter().product()];
        let (co, wo, ws, threads) = (
            self.char_order,
            self.word_order,
            self.whitespace,
            self.threads,
        );
        detached(py, || {
            candidate_rows(&hyps, &refs, co, wo, ws, threads, &mut out)
        })?;
        Ok(Some(PyArray1::from_vec(py, out).reshape(shape)?))
    }
}

/// TER edits: for every segment and reference, int64 ``(edits, reference length)`` of the normalized
/// hypothesis (words joined by single spaces) against that normalized reference. ``threads=0``: a count
/// for the input size.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct TerCounter {
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl TerCounter {
    #[new]
    #[pyo3(signature = (*, threads = 0))]
    fn new(threads: usize) -> Self {
        TerCounter { threads }
    }

    /// int64 ``[S, K, 2]`` of hypotheses against reference streams (None: absent, zeros); None when a
    /// string is not valid UTF-8 (the Python implementation then does the job).
    fn rows<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray3<i64>>>> {
        let input = TextInput::new(hyps, ref_streams)?;
        let read = input.read_all()?;
        let Some((hyps, refs)) = read.utf8_texts() else {
            return Ok(None);
        };
        let shape = [hyps.len(), refs.len(), 2];
        let mut out = vec![0i64; shape.iter().product()];
        let threads = self.threads;
        detached(py, || edits_rows(&hyps, &refs, threads, &mut out))?;
        Ok(Some(PyArray1::from_vec(py, out).reshape(shape)?))
    }
}
