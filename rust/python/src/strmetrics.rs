//! The string metrics of `bleuscope._core`: GLEU rows, Self-BLEU, CharacTER and EED values. Segments are
//! Python `str`s (split as `str.split()` does) or token lists of exact `str`s, copied once into one buffer
//! so that the core works without the GIL; a function returns None when an item is neither (a token of
//! another type, a string that is not UTF-8) and the Python implementation then does the job.

use bleuscope_core::character::{self, character_values as core_character};
use bleuscope_core::eed::{self, eed_values as core_eed, Parameters};
use bleuscope_core::gleu::{self, gleu_rows as core_gleu};
use bleuscope_core::selfbleu::{leave_one_out_counts, self_bleu_scores, Smoothing};
use bleuscope_core::words::split_python;
use numpy::PyArray1;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::errors::{detached, invalid};
use crate::input::{items, TextInput};

/// Token spans of many segments in one buffer.
#[derive(Default)]
struct Tokens {
    buf: String,
    spans: Vec<(u32, u32)>,
}

impl Tokens {
    /// Appends the tokens of `item` (a `str`, split like `str.split()`, or a list or tuple of exact
    /// `str`s) and returns their index range; None when the item is neither or not UTF-8.
    fn push(&mut self, item: &Bound<'_, PyAny>) -> PyResult<Option<(usize, usize)>> {
        let first = self.spans.len();
        if let Ok(s) = item.cast::<PyString>() {
            let Ok(text) = s.to_str() else {
                return Ok(None);
            };
            for w in split_python(text) {
                self.add(w)?;
            }
            return Ok(Some((first, self.spans.len())));
        }
        let seq = if let Ok(list) = item.cast_exact::<PyList>() {
            list.as_sequence().clone()
        } else if let Ok(tuple) = item.cast_exact::<PyTuple>() {
            tuple.as_sequence().clone()
        } else {
            return Ok(None);
        };
        for j in 0..seq.len()? {
            let tok = seq.get_item(j)?;
            let Ok(s) = tok.cast_exact::<PyString>() else {
                return Ok(None);
            };
            let Ok(text) = s.to_str() else {
                return Ok(None);
            };
            self.add(text)?;
        }
        Ok(Some((first, self.spans.len())))
    }

    fn add(&mut self, w: &str) -> PyResult<()> {
        let start = self.buf.len();
        self.buf.push_str(w);
        if self.buf.len() > u32::MAX as usize {
            return Err(invalid("the text of the segments is longer than 4 GiB"));
        }
        self.spans.push((start as u32, self.buf.len() as u32));
        Ok(())
    }

    fn words(&self, range: (usize, usize)) -> Vec<&str> {
        self.spans[range.0..range.1]
            .iter()
            .map(|&(a, b)| &self.buf[a as usize..b as usize])
            .collect()
    }
}

/// Hypotheses and, per segment, the token ranges of the references present.
struct Corpus {
    tokens: Tokens,
    hyps: Vec<(usize, usize)>,
    refs: Vec<Vec<(usize, usize)>>,
}

/// A corpus from hypotheses and reference streams (`ref_streams[k][i]`, None: absent); None when an item
/// needs the Python implementation.
fn corpus_of_streams(
    hyps: &Bound<'_, PyAny>,
    ref_streams: &Bound<'_, PyAny>,
) -> PyResult<Option<Corpus>> {
    let hyps = items(hyps)?;
    let streams: Vec<Vec<Bound<'_, PyAny>>> = items(ref_streams)?
        .iter()
        .map(items)
        .collect::<PyResult<_>>()?;
    for (k, s) in streams.iter().enumerate() {
        if s.len() != hyps.len() {
            return Err(invalid(format!(
                "reference stream {k} has {} lines, the hypotheses have {}",
                s.len(),
                hyps.len()
            )));
        }
    }
    let mut c = Corpus {
        tokens: Tokens::default(),
        hyps: Vec::with_capacity(hyps.len()),
        refs: Vec::with_capacity(hyps.len()),
    };
    for (i, h) in hyps.iter().enumerate() {
        let Some(r) = c.tokens.push(h)? else {
            return Ok(None);
        };
        c.hyps.push(r);
        let mut refs = Vec::with_capacity(streams.len());
        for s in &streams {
            if s[i].is_none() {
                continue;
            }
            let Some(r) = c.tokens.push(&s[i])? else {
                return Ok(None);
            };
            refs.push(r);
        }
        c.refs.push(refs);
    }
    Ok(Some(c))
}

/// A corpus from NLTK's layout: hypotheses and, per hypothesis, a list of references.
fn corpus_of_lists(
    hyps: &Bound<'_, PyAny>,
    list_of_references: &Bound<'_, PyAny>,
) -> PyResult<Option<Corpus>> {
    let hyps = items(hyps)?;
    let refs = items(list_of_references)?;
    if refs.len() != hyps.len() {
        return Err(invalid(format!(
            "list_of_references has {} entries, hypotheses has {}",
            refs.len(),
            hyps.len()
        )));
    }
    let mut c = Corpus {
        tokens: Tokens::default(),
        hyps: Vec::with_capacity(hyps.len()),
        refs: Vec::with_capacity(hyps.len()),
    };
    for (h, rs) in hyps.iter().zip(&refs) {
        let Some(r) = c.tokens.push(h)? else {
            return Ok(None);
        };
        c.hyps.push(r);
        let mut out = Vec::new();
        for r in items(rs)? {
            let Some(r) = c.tokens.push(&r)? else {
                return Ok(None);
            };
            out.push(r);
        }
        c.refs.push(out);
    }
    Ok(Some(c))
}

fn gleu_of(
    py: Python<'_>,
    c: Corpus,
    min_len: usize,
    max_len: usize,
    threads: usize,
) -> PyResult<Bound<'_, PyArray1<i64>>> {
    let mut out = vec![0i64; 2 * c.hyps.len()];
    detached(py, || {
        let segments: Vec<gleu::Segment<'_>> = c
            .hyps
            .iter()
            .zip(&c.refs)
            .map(|(&h, rs)| gleu::Segment {
                hyp: c.tokens.words(h),
                refs: rs.iter().map(|&r| c.tokens.words(r)).collect(),
            })
            .collect();
        core_gleu(&segments, min_len, max_len, threads, &mut out);
    })?;
    Ok(PyArray1::from_vec(py, out))
}

fn check_orders(min_len: usize, max_len: usize) -> PyResult<()> {
    if min_len < 1 || max_len < min_len {
        return Err(invalid(format!(
            "GLEU orders must satisfy 1 <= min_len <= max_len, got {min_len} and {max_len}"
        )));
    }
    Ok(())
}

/// GLEU ``(tp, n_all)`` rows, int64 ``[2 * S]`` (row-major), of hypotheses against reference streams (None:
/// absent); None when an item needs the Python implementation.
#[pyfunction]
#[pyo3(signature = (hyps, ref_streams, min_len, max_len, *, threads = 0))]
pub(crate) fn gleu_rows<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    ref_streams: &Bound<'py, PyAny>,
    min_len: usize,
    max_len: usize,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray1<i64>>>> {
    check_orders(min_len, max_len)?;
    let Some(c) = corpus_of_streams(hyps, ref_streams)? else {
        return Ok(None);
    };
    gleu_of(py, c, min_len, max_len, threads).map(Some)
}

/// :func:`gleu_rows` of NLTK's layout: ``hypotheses`` and ``list_of_references`` (a list of references per
/// hypothesis), token lists or strings.
#[pyfunction]
#[pyo3(signature = (hypotheses, list_of_references, min_len, max_len, *, threads = 0))]
pub(crate) fn gleu_list_rows<'py>(
    py: Python<'py>,
    hypotheses: &Bound<'py, PyAny>,
    list_of_references: &Bound<'py, PyAny>,
    min_len: usize,
    max_len: usize,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray1<i64>>>> {
    check_orders(min_len, max_len)?;
    let Some(c) = corpus_of_lists(hypotheses, list_of_references)? else {
        return Ok(None);
    };
    gleu_of(py, c, min_len, max_len, threads).map(Some)
}

/// CharacTER of every segment, float64 ``[S]``, the smallest over the references present (words split
/// like ``str.split()``, or token lists; ``float64``: shifts scored in float64, as PyPI ``cer`` 1.2.0);
/// None when an item needs the Python implementation.
#[pyfunction]
#[pyo3(signature = (hyps, ref_streams, *, float64 = false, threads = 0))]
pub(crate) fn character_values<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    ref_streams: &Bound<'py, PyAny>,
    float64: bool,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
    let Some(c) = corpus_of_streams(hyps, ref_streams)? else {
        return Ok(None);
    };
    let mut out = vec![0f64; c.hyps.len()];
    detached(py, || {
        let segments: Vec<character::Segment<'_>> = c
            .hyps
            .iter()
            .zip(&c.refs)
            .map(|(&h, rs)| character::Segment {
                hyp: c.tokens.words(h),
                refs: rs.iter().map(|&r| c.tokens.words(r)).collect(),
            })
            .collect();
        core_character(&segments, float64, threads, &mut out);
    })?;
    Ok(Some(PyArray1::from_vec(py, out)))
}

/// EED of every (preprocessed) segment, float64 ``[S]``, the smallest over the references present; None
/// when a string is not valid UTF-8.
#[pyfunction]
#[pyo3(signature = (hyps, ref_streams, alpha, deletion, insertion, substitution, rho, *, threads = 0))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn eed_values<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    ref_streams: &Bound<'py, PyAny>,
    alpha: f32,
    deletion: f32,
    insertion: f32,
    substitution: f32,
    rho: f32,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
    let input = TextInput::new(hyps, ref_streams)?;
    let read = input.read_all()?;
    let Some((hyps, refs)) = read.utf8_texts() else {
        return Ok(None);
    };
    let p = Parameters {
        alpha,
        deletion,
        insertion,
        substitution,
        rho,
    };
    let mut out = vec![0f64; hyps.len()];
    detached(py, || {
        let segments: Vec<eed::Segment<'_>> = hyps
            .iter()
            .enumerate()
            .map(|(i, &h)| eed::Segment {
                hyp: h,
                refs: refs.iter().filter_map(|s| s[i]).collect(),
            })
            .collect();
        core_eed(&segments, &p, threads, &mut out);
    })?;
    Ok(Some(PyArray1::from_vec(py, out)))
}

/// Self-BLEU of ``sentences`` (strings split like ``str.split()``, or token lists; at least two) for each
/// weight vector: ``(scores [W * N], matches [N * max_order], totals [N * max_order], closest [N],
/// lengths [N], distinct [max_order], ngrams [max_order])``, ``max_order`` the longest weight vector;
/// ``epsilon`` None is NLTK's method0, a number its method1. None when a sentence needs the Python
/// implementation.
#[pyfunction]
#[pyo3(signature = (sentences, weights, epsilon))]
#[allow(clippy::type_complexity)]
pub(crate) fn self_bleu<'py>(
    py: Python<'py>,
    sentences: &Bound<'py, PyAny>,
    weights: Vec<Vec<f64>>,
    epsilon: Option<f64>,
) -> PyResult<
    Option<(
        Bound<'py, PyArray1<f64>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
        Bound<'py, PyArray1<i64>>,
    )>,
> {
    let max_order = weights.iter().map(Vec::len).max().unwrap_or(0);
    if max_order == 0 {
        return Err(invalid("Self-BLEU needs at least one weight"));
    }
    let mut tokens = Tokens::default();
    let mut ranges = Vec::new();
    for s in items(sentences)? {
        let Some(r) = tokens.push(&s)? else {
            return Ok(None);
        };
        ranges.push(r);
    }
    if ranges.len() < 2 {
        return Err(invalid("Self-BLEU needs at least two sentences"));
    }
    let smoothing = match epsilon {
        None => Smoothing::None,
        Some(e) => Smoothing::Epsilon(e),
    };
    let (scores, counts) = detached(py, || {
        let sents: Vec<Vec<&str>> = ranges.iter().map(|&r| tokens.words(r)).collect();
        let counts = leave_one_out_counts(&sents, max_order);
        (
            self_bleu_scores(&counts, max_order, &weights, smoothing),
            counts,
        )
    })?;
    Ok(Some((
        PyArray1::from_vec(py, scores),
        PyArray1::from_vec(py, counts.matches),
        PyArray1::from_vec(py, counts.totals),
        PyArray1::from_vec(py, counts.closest),
        PyArray1::from_vec(py, counts.lengths),
        PyArray1::from_vec(py, counts.distinct),
        PyArray1::from_vec(py, counts.ngrams),
    )))
}
