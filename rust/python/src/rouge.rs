//! ROUGE and the Porter stemmer of `bleuscope._core`.

use bleuscope_core::porter::stem_into;
use bleuscope_core::rouge::{Pairs, RougeType};
use numpy::{PyArray1, PyArray3, PyArray4, PyArrayMethods};
use pyo3::prelude::*;

use crate::errors::{detached, invalid};
use crate::input::TextInput;

/// Segments whose text `RougeCounter.best` holds as UTF-8 slices at a time.
const SEGMENTS_PER_BLOCK: usize = 1 << 17;

/// What `RougeCounter.best` returns: the best reference's counts and values per segment and type, and
/// the number of references of each segment.
type BestValues<'py> = (
    Bound<'py, PyArray3<i64>>,
    Bound<'py, PyArray3<f64>>,
    Bound<'py, PyArray1<i64>>,
);

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
        let input = text_input(hyps, ref_streams)?;
        let read = input.read_all()?;
        let Some((hyps, refs)) = read.utf8_texts() else {
            return Ok(None);
        };
        let shape = [hyps.len(), refs.len(), self.parsed.len(), 3];
        let mut out = vec![0i64; shape.iter().product()];
        let pairs = self.pairs(&hyps, &refs);
        detached(py, || pairs.counts(self.threads, &mut out))?;
        Ok(Some(PyArray1::from_vec(py, out).reshape(shape)?))
    }

    /// Per segment and type, the counts of the reference with the best F (the first on ties:
    /// rouge-score's ``score_multi``), int64 ``[S, T, 3]``, their (precision, recall, F) as rouge-score
    /// computes them, float64 ``[S, T, 3]``, and the number of references of each segment, int64 ``[S]``
    /// (a segment with none has zero counts); None when a string is not valid UTF-8. The items are
    /// checked as by ``rows``.
    fn best<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
    ) -> PyResult<Option<BestValues<'py>>> {
        let input = text_input(hyps, ref_streams)?;
        let n_seg = input.hyps.len();
        let width = 3 * self.parsed.len();
        let mut counts = vec![0i64; n_seg * width];
        let mut values = vec![0f64; counts.len()];
        let mut nrefs = vec![0i64; n_seg];
        // the text of one block of segments at a time: bounded memory besides the results
        for start in (0..n_seg).step_by(SEGMENTS_PER_BLOCK) {
            let end = n_seg.min(start + SEGMENTS_PER_BLOCK);
            let read = input.read(start..end)?;
            let Some((hyps, refs)) = read.utf8_texts() else {
                return Ok(None);
            };
            for stream in &refs {
                for (n, r) in nrefs[start..end].iter_mut().zip(stream) {
                    *n += i64::from(r.is_some());
                }
            }
            let pairs = self.pairs(&hyps, &refs);
            let (counts, values) = (
                &mut counts[start * width..end * width],
                &mut values[start * width..end * width],
            );
            detached(py, || pairs.best_counts(self.threads, counts, values))?;
        }
        let shape = [n_seg, self.parsed.len(), 3];
        Ok(Some((
            PyArray1::from_vec(py, counts).reshape(shape)?,
            PyArray1::from_vec(py, values).reshape(shape)?,
            PyArray1::from_vec(py, nrefs),
        )))
    }
}

impl RougeCounter {
    fn pairs<'a>(&'a self, hyps: &'a [&'a str], refs: &'a [Vec<Option<&'a str>>]) -> Pairs<'a> {
        Pairs {
            hyps,
            refs,
            types: &self.parsed,
            stem: self.stem,
            pretokenized: self.pretokenized,
        }
    }
}

/// The hypotheses and reference streams as read from Python; at least one reference stream.
fn text_input<'py>(
    hyps: &Bound<'py, PyAny>,
    ref_streams: &Bound<'py, PyAny>,
) -> PyResult<TextInput<'py>> {
    let input = TextInput::new(hyps, ref_streams)?;
    if input.refs.is_empty() {
        return Err(invalid("at least one reference stream"));
    }
    Ok(input)
}

/// NLTK's Porter stem of an ASCII lowercase word (for the tests against NLTK).
#[pyfunction]
pub(crate) fn porter_stem(word: &str) -> String {
    let mut out = Vec::new();
    stem_into(word.as_bytes(), &mut out);
    String::from_utf8(out).unwrap_or_default()
}
