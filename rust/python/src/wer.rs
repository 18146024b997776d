//! Edit-rate alignments (WER, CER, MER, WIL, WIP) of `bleuscope._core`: jiwer 4.0.0's counts and
//! opcodes, as rapidfuzz aligns.

use bleuscope_core::wer::{
    align_id_pairs, align_pairs, count_pairs, distance_pairs, Alignments, LastTokens, Opcode,
    PairWorker, Units, ROW_WIDTH,
};
use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple, PyType};

use crate::errors::{detached, invalid};
use crate::input::TextInput;

/// What `EditAligner.alignments` returns: opcodes int64 ``[M, 5]`` (kind 0 equal, 1 replace,
/// 2 delete, 3 insert; ``i1, i2, j1, j2``), the number of opcodes of each pair int64 ``[S]``, and the
/// statistics rows int64 ``[S, 6]``.
type AlignmentArrays<'py> = (
    Bound<'py, PyArray2<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray2<i64>>,
);

/// Statistics rows ``(hits, substitutions, deletions, insertions, reference length, hypothesis
/// length)`` and rapidfuzz's opcodes of reference/hypothesis texts, tokenized by ``units``
/// (``jiwer-words``, ``split-words``, ``jiwer-chars``, ``collapsed-chars``, ``raw-chars``).
/// ``threads=0``: a count for the input size.
#[pyclass(frozen, module = "bleuscope._core")]
pub(crate) struct EditAligner {
    #[pyo3(get)]
    units: String,
    parsed: Units,
    #[pyo3(get)]
    threads: usize,
}

fn read<'py>(
    references: &Bound<'py, PyAny>,
    hypotheses: &Bound<'py, PyAny>,
) -> PyResult<TextInput<'py>> {
    let streams = PyList::new(references.py(), [references])?;
    TextInput::new(hypotheses, streams.as_any())
}

fn arrays<'py>(py: Python<'py>, (ops, counts, rows): Alignments) -> PyResult<AlignmentArrays<'py>> {
    let n_ops = ops.len();
    let flat: Vec<i64> = ops
        .iter()
        .flat_map(|o| {
            [
                o.kind as i64,
                i64::from(o.i1),
                i64::from(o.i2),
                i64::from(o.j1),
                i64::from(o.j2),
            ]
        })
        .collect();
    let n = counts.len();
    Ok((
        PyArray1::from_vec(py, flat).reshape([n_ops, 5])?,
        PyArray1::from_vec(py, counts.into_iter().map(i64::from).collect()),
        PyArray1::from_vec(py, rows).reshape([n, ROW_WIDTH])?,
    ))
}

#[pymethods]
impl EditAligner {
    #[new]
    #[pyo3(signature = (units, *, threads = 0))]
    fn new(units: String, threads: usize) -> PyResult<Self> {
        let parsed = Units::parse(&units)
            .ok_or_else(|| invalid(format!("unknown edit-rate units {units:?}")))?;
        Ok(EditAligner {
            units,
            parsed,
            threads,
        })
    }

    /// int64 ``[S, 6]`` statistics rows of every (reference, hypothesis) pair; None when a string is not
    /// valid UTF-8.
    fn counts<'py>(
        &self,
        py: Python<'py>,
        references: &Bound<'py, PyAny>,
        hypotheses: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        let input = read(references, hypotheses)?;
        let read = input.read_all()?;
        let Some((hyps, refs)) = read.utf8_texts() else {
            return Ok(None);
        };
        let refs = present(&refs[0])?;
        let n = hyps.len();
        let mut out = vec![0i64; n * ROW_WIDTH];
        let (units, threads) = (self.parsed, self.threads);
        detached(py, || {
            count_pairs(n, |i| (refs[i], hyps[i]), units, threads, &mut out)
        })?;
        Ok(Some(PyArray1::from_vec(py, out).reshape([n, ROW_WIDTH])?))
    }

    /// The summed ``(edit distance, reference tokens, hypothesis tokens)`` of every (reference,
    /// hypothesis) pair: a corpus WER or CER without the alignments. None unless both are lists of the same
    /// length of exact ``str`` that are valid UTF-8 (the caller then takes its general path, whose errors
    /// are its own).
    fn distance_totals<'py>(
        &self,
        py: Python<'py>,
        references: &Bound<'py, PyAny>,
        hypotheses: &Bound<'py, PyAny>,
    ) -> PyResult<Option<(i64, i64, i64)>> {
        let (Some(refs), Some(hyps)) = (plain_strings(references), plain_strings(hypotheses))
        else {
            return Ok(None);
        };
        if refs.len() != hyps.len() {
            return Ok(None);
        }
        let input = read(refs.as_any(), hyps.as_any())?;
        let lines = input.read_all()?;
        let Some((hyp_texts, ref_texts)) = lines.utf8_texts() else {
            return Ok(None);
        };
        let ref_texts = present(&ref_texts[0])?;
        let (units, threads) = (self.parsed, self.threads);
        let n = hyp_texts.len();
        let [d, r, h] = detached(py, || {
            distance_pairs(n, |i| (ref_texts[i], hyp_texts[i]), units, threads)
        })?;
        Ok(Some((d, r, h)))
    }

    /// The opcodes of every pair, their number per pair and the statistics rows (see the module
    /// type); None when a string is not valid UTF-8.
    fn alignments<'py>(
        &self,
        py: Python<'py>,
        references: &Bound<'py, PyAny>,
        hypotheses: &Bound<'py, PyAny>,
    ) -> PyResult<Option<AlignmentArrays<'py>>> {
        let input = read(references, hypotheses)?;
        let read = input.read_all()?;
        let Some((hyps, refs)) = read.utf8_texts() else {
            return Ok(None);
        };
        let refs = present(&refs[0])?;
        let (units, threads) = (self.parsed, self.threads);
        let n = hyps.len();
        let result = detached(py, || {
            align_pairs(n, |i| (refs[i], hyps[i]), units, threads)
        })?;
        Ok(Some(arrays(py, result)?))
    }

    /// The tokens, alignment chunks and summed statistics row of every pair as Python objects (see the
    /// type above; a chunk's ``type`` is ``equal``, ``substitute``, ``delete`` or ``insert``, its
    /// ``__dict__`` set without calling ``chunk_type``'s ``__init__``); None when a string is not valid
    /// UTF-8. One thread: it builds Python objects as it goes.
    fn objects<'py>(
        &self,
        py: Python<'py>,
        references: &Bound<'py, PyAny>,
        hypotheses: &Bound<'py, PyAny>,
        chunk_type: &Bound<'py, PyType>,
    ) -> PyResult<Option<AlignmentObjects<'py>>> {
        let input = read(references, hypotheses)?;
        let read = input.read_all()?;
        let Some((hyps, refs)) = read.utf8_texts() else {
            return Ok(None);
        };
        let refs = present(&refs[0])?;
        let kinds = ["equal", "substitute", "delete", "insert"].map(|k| PyString::new(py, k));
        let (ref_lists, hyp_lists, chunk_lists) =
            (PyList::empty(py), PyList::empty(py), PyList::empty(py));
        let mut worker = PairWorker::default();
        let mut ops = Vec::new();
        let mut total = [0i64; ROW_WIDTH];
        for (r, h) in refs.iter().zip(&hyps) {
            ops.clear();
            let row = worker.align_text(r, h, self.parsed, &mut ops);
            for (t, x) in total.iter_mut().zip(row) {
                *t += x;
            }
            ref_lists.append(token_list(py, r, worker.last_tokens(0, self.parsed))?)?;
            hyp_lists.append(token_list(py, h, worker.last_tokens(1, self.parsed))?)?;
            let chunks = PyList::empty(py);
            for op in &ops {
                chunks.append(Self::chunk(py, chunk_type, &kinds, op)?)?;
            }
            chunk_lists.append(chunks)?;
        }
        Ok(Some((
            ref_lists,
            hyp_lists,
            chunk_lists,
            PyArray1::from_vec(py, total.to_vec()),
        )))
    }
}

/// What `EditAligner.objects` returns: the reference and hypothesis tokens of every pair (lists of str),
/// the alignment chunks of every pair (lists of ``chunk_type`` objects) and the summed statistics row.
type AlignmentObjects<'py> = (
    Bound<'py, PyList>,
    Bound<'py, PyList>,
    Bound<'py, PyList>,
    Bound<'py, PyArray1<i64>>,
);

fn token_list<'py>(
    py: Python<'py>,
    text: &str,
    tokens: LastTokens<'_>,
) -> PyResult<Bound<'py, PyList>> {
    let list = PyList::empty(py);
    match tokens {
        LastTokens::Spans(spans) => {
            for &(a, b) in spans {
                list.append(PyString::new(py, &text[a as usize..b as usize]))?;
            }
        }
        LastTokens::Codes(codes) => {
            let mut buf = [0u8; 4];
            for &c in codes {
                let ch = char::from_u32(c).unwrap_or('\u{fffd}');
                list.append(PyString::new(py, ch.encode_utf8(&mut buf)))?;
            }
        }
    }
    Ok(list)
}

impl EditAligner {
    fn chunk<'py>(
        py: Python<'py>,
        chunk_type: &Bound<'py, PyType>,
        kinds: &[Bound<'py, PyString>; 4],
        op: &Opcode,
    ) -> PyResult<Bound<'py, PyAny>> {
        let obj = chunk_type.call_method1(intern!(py, "__new__"), (chunk_type,))?;
        let d = PyDict::new(py);
        d.set_item(intern!(py, "type"), &kinds[op.kind as usize])?;
        d.set_item(intern!(py, "ref_start_idx"), op.i1)?;
        d.set_item(intern!(py, "ref_end_idx"), op.i2)?;
        d.set_item(intern!(py, "hyp_start_idx"), op.j1)?;
        d.set_item(intern!(py, "hyp_end_idx"), op.j2)?;
        obj.setattr(intern!(py, "__dict__"), d)?;
        Ok(obj)
    }
}

/// The items of a list as a tuple (nothing can change it while the core reads its strings without the
/// GIL), or None when `obj` is not a list or an item is not an exact `str`.
fn plain_strings<'py>(obj: &Bound<'py, PyAny>) -> Option<Bound<'py, PyTuple>> {
    let items = obj.cast_exact::<PyList>().ok()?.to_tuple();
    let plain = items
        .iter_borrowed()
        .all(|item| item.cast_exact::<PyString>().is_ok());
    plain.then_some(items)
}

fn present<'a>(refs: &[Option<&'a str>]) -> PyResult<Vec<&'a str>> {
    refs.iter()
        .enumerate()
        .map(|(i, r)| r.ok_or_else(|| invalid(format!("references[{i}] is missing (None)"))))
        .collect()
}

/// Opcodes, opcodes per pair and statistics rows (as ``EditAligner.alignments``) of token-id sequences:
/// reference ``i`` is ``ref_ids[ref_offsets[i]:ref_offsets[i + 1]]``, hypothesis ``i`` likewise, every
/// id below ``alphabet``.
#[pyfunction]
#[pyo3(signature = (ref_ids, ref_offsets, hyp_ids, hyp_offsets, alphabet, *, threads = 0))]
pub(crate) fn align_token_ids<'py>(
    py: Python<'py>,
    ref_ids: PyReadonlyArray1<'py, u32>,
    ref_offsets: PyReadonlyArray1<'py, i64>,
    hyp_ids: PyReadonlyArray1<'py, u32>,
    hyp_offsets: PyReadonlyArray1<'py, i64>,
    alphabet: usize,
    threads: usize,
) -> PyResult<AlignmentArrays<'py>> {
    let ref_ids = ref_ids.as_array().to_vec();
    let hyp_ids = hyp_ids.as_array().to_vec();
    let offsets = |o: PyReadonlyArray1<'py, i64>, len: usize, what: &str| -> PyResult<Vec<usize>> {
        let o: Vec<i64> = o.as_array().to_vec();
        let ok = o.first() == Some(&0)
            && o.windows(2).all(|w| w[0] <= w[1])
            && o.last().is_some_and(|&l| l as usize == len);
        if !ok {
            return Err(invalid(format!(
                "{what} must start at 0, never decrease and end at the number of ids ({len})"
            )));
        }
        Ok(o.into_iter().map(|x| x as usize).collect())
    };
    let ro = offsets(ref_offsets, ref_ids.len(), "ref_offsets")?;
    let ho = offsets(hyp_offsets, hyp_ids.len(), "hyp_offsets")?;
    if ro.len() != ho.len() {
        return Err(invalid(format!(
            "ref_offsets has {} pairs, hyp_offsets {}",
            ro.len() - 1,
            ho.len() - 1
        )));
    }
    if ref_ids
        .iter()
        .chain(&hyp_ids)
        .any(|&id| id as usize >= alphabet)
    {
        return Err(invalid(format!(
            "every id must be below alphabet ({alphabet})"
        )));
    }
    let result = detached(py, || {
        align_id_pairs(&ref_ids, &ro, &hyp_ids, &ho, alphabet, threads)
    })?;
    arrays(py, result)
}
