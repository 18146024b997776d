//! ROUGE and the Porter stemmer of `bleuscope._core`.

use bleuscope_core::porter::stem_into;
use bleuscope_core::rouge::{pair_counts, RougeType};
use numpy::{PyArray1, PyArray4, PyArrayMethods};
use pyo3::prelude::*;

use crate::errors::{detached, invalid};
use crate::input::{utf8_texts, TextInput};

/// ROUGE counts of hypotheses against reference streams for the types ``types`` (``rouge1``..``rouge9``,
/// ``rougeL``, ``rougeLsum``), as rouge-score tokenizes (with NLTK's Porter stemmer if ``stem``);
/// ``pretokenized``: tokens already separated by spaces and sentences by newlines (stemmed if wanted).
/// ``threads=0``: a count for the input size.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct RougeCounter {
    #[pyo3(get)]
    types: Vec<String>,
    parsed: Vec<RougeType>,
    #[pyo3(get)]
    stem: bool,
    #[pyo3(get)]
    pretokenized: bool,
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl RougeCounter {
    #[new]
    #[pyo3(signature = (types, *, stem = false, pretokenized = false, threads = 0))]
    fn new(types: Vec<String>, stem: bool, pretokenized: bool, threads: usize) -> PyResult<Self> {
        let parsed = types
            .iter()
            .map(|t| {
                RougeType::parse(t).ok_or_else(|| invalid(format!("unknown ROUGE type {t:?}")))
            })
            .collect::<PyResult<Vec<_>>>()?;
        if parsed.is_empty() {
            return Err(invalid("at least one ROUGE type"));
        }
        Ok(RougeCounter {
            types,
            parsed,
            stem,
            pretokenized,
            threads,
        })
    }

    /// int64 ``[S, K, T, 3]``: (matches, hypothesis count, reference count) of every hypothesis against
    /// each reference per type (zeros for a missing reference); None when a string is not valid UTF-8.
    fn rows<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray4<i64>>>> {
        let input = TextInput::new(hyps, ref_streams)?;
        if input.refs.is_empty() {
            return Err(invalid("at least one reference stream"));
        }
        let Some((hyps, refs)) = utf8_texts(&input)? else {
            return Ok(None);
        };
        let shape = [hyps.len(), refs.len(), self.parsed.len(), 3];
        let mut out = vec![0i64; shape.iter().product()];
        let (types, stem, pretokenized, threads) =
            (&self.parsed, self.stem, self.pretokenized, self.threads);
        detached(py, || {
            pair_counts(&hyps, &refs, types, stem, pretokenized, threads, &mut out)
        })?;
        Ok(Some(PyArray1::from_vec(py, out).reshape(shape)?))
    }
}

/// NLTK's Porter stem of an ASCII lowercase word (for the tests against NLTK).
#[pyfunction]
pub fn porter_stem(word: &str) -> String {
    let mut out = Vec::new();
    stem_into(word.as_bytes(), &mut out);
    String::from_utf8(out).unwrap_or_default()
}
