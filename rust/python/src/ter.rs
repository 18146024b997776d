use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::owned_text_input;

/// TER (edits, reference length) rows, int64 ``[S * K * 2]`` (reshape to [S, K, 2]), of normalized
/// hypotheses (words joined by single spaces) against normalized reference streams (None: absent);
/// None when a string is not UTF-8 (the Python implementation then does the job).
#[pyfunction]
#[pyo3(signature = (hyps, ref_streams, threads=1))]
pub fn ter_edits_rows<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyList>,
    ref_streams: &Bound<'py, PyList>,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray1<i64>>>> {
    let Some((h, streams)) = owned_text_input(hyps, ref_streams)? else {
        return Ok(None);
    };
    let mut out = vec![0i64; h.len() * streams.len() * 2];
    let result = py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let hyp_refs: Vec<&str> = h.iter().map(|x| x.as_deref().unwrap_or("")).collect();
            let ref_refs: Vec<Vec<Option<&str>>> = streams
                .iter()
                .map(|s| s.iter().map(|x| x.as_deref()).collect())
                .collect();
            bleuscope_core::ter::edits_rows(&hyp_refs, &ref_refs, threads, &mut out);
        }))
    });
    if result.is_err() {
        return Err(pyo3::exceptions::PyRuntimeError::new_err(
            "internal error in the TER core",
        ));
    }
    Ok(Some(PyArray1::from_vec(py, out)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(ter_edits_rows, m)?)?;
    Ok(())
}
