use numpy::PyArray1;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::owned_text_input;
use bleuscope_core::rouge::RougeType;

/// ROUGE counts, int64 ``[S * K * T * 3]`` (reshape to [S, K, T, 3]): (matches, hyp_count, ref_count)
/// of every hypothesis against each reference per type; None when a string is not UTF-8.
#[pyfunction]
#[pyo3(signature = (hyps, ref_streams, types, stem, pretokenized, threads=1))]
pub fn rouge_pair_counts<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyList>,
    ref_streams: &Bound<'py, PyList>,
    types: Vec<String>,
    stem: bool,
    pretokenized: bool,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray1<i64>>>> {
    let parsed = types
        .iter()
        .map(|t| {
            RougeType::parse(t)
                .ok_or_else(|| PyValueError::new_err(format!("unknown ROUGE type {t:?}")))
        })
        .collect::<PyResult<Vec<_>>>()?;
    if parsed.is_empty() || ref_streams.is_empty() {
        return Err(PyValueError::new_err(
            "at least one ROUGE type and one reference stream",
        ));
    }
    let Some((h, streams)) = owned_text_input(hyps, ref_streams)? else {
        return Ok(None);
    };
    let mut out = vec![0i64; h.len() * streams.len() * 3 * parsed.len()];
    py.detach(|| {
        let hyp_refs: Vec<&str> = h.iter().map(|x| x.as_deref().unwrap_or("")).collect();
        let ref_refs: Vec<Vec<Option<&str>>> = streams
            .iter()
            .map(|s| s.iter().map(|x| x.as_deref()).collect())
            .collect();
        bleuscope_core::rouge::pair_counts(
            &hyp_refs,
            &ref_refs,
            &parsed,
            stem,
            pretokenized,
            threads,
            &mut out,
        );
    });
    Ok(Some(PyArray1::from_vec(py, out)))
}

/// NLTK's Porter stem of an ASCII lowercase word (for the tests against NLTK).
#[pyfunction]
pub fn porter_stem(word: &str) -> String {
    let mut out = Vec::new();
    bleuscope_core::porter::stem_into(word.as_bytes(), &mut out);
    String::from_utf8(out).unwrap_or_default()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(rouge_pair_counts, m)?)?;
    m.add_function(wrap_pyfunction!(porter_stem, m)?)?;
    Ok(())
}
