use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::owned_text_input;

/// Candidate chrF rows, int64 ``[S * K * 3 * (char_order + word_order)]`` (reshape to [S, K, W]) of
/// lowercased-if-needed hypotheses against reference streams; None when the input needs the Python
/// implementation (orders beyond the packed keys, strings that are not UTF-8, huge vocabularies).
#[pyfunction]
#[pyo3(signature = (hyps, ref_streams, char_order, word_order, whitespace, threads=1))]
pub fn chrf_candidates<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyList>,
    ref_streams: &Bound<'py, PyList>,
    char_order: usize,
    word_order: usize,
    whitespace: bool,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray1<i64>>>> {
    if !bleuscope_core::chrf::supported(char_order, word_order) {
        return Ok(None);
    }
    let Some((h, streams)) = owned_text_input(hyps, ref_streams)? else {
        return Ok(None);
    };
    let width = 3 * (char_order + word_order);
    let mut out = vec![0i64; h.len() * streams.len() * width];
    let failed = py.detach(|| {
        let hyp_refs: Vec<&str> = h.iter().map(|x| x.as_deref().unwrap_or("")).collect();
        let ref_refs: Vec<Vec<Option<&str>>> = streams
            .iter()
            .map(|s| s.iter().map(|x| x.as_deref()).collect())
            .collect();
        bleuscope_core::chrf::candidate_rows(
            &hyp_refs, &ref_refs, char_order, word_order, whitespace, threads, &mut out,
        )
    });
    if !failed.is_empty() {
        return Ok(None);
    }
    Ok(Some(PyArray1::from_vec(py, out)))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(chrf_candidates, m)?)?;
    Ok(())
}
