//! Edit-rate alignments (WER, CER, MER, WIL, WIP) of `bleuscope._core`: jiwer 4.0.0's counts and
//! opcodes, as rapidfuzz aligns.

use bleuscope_core::wer::{
    align_id_pairs, align_pairs, count_pairs, distance_pairs, Alignments, LastTokens, Opcode,
    PairWorker, Units, ROW_WIDTH,
};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use numpy::{PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple, PyType};

use bleuscope_core::par::{fed, pick_threads};

use crate::errors::{detached, invalid, panic_error};
use crate::input::{ReadLines, TextInput};

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
        let n = input.hyps.len();
        let mut out = vec![0i64; n * ROW_WIDTH];
        let units = self.parsed;
        let counted = fed_pairs(
            py,
            &input,
            self.threads,
            Some(&mut out),
            || (),
            |(), refs, hyps, rows| count_pairs(refs.len(), |i| (refs[i], hyps[i]), units, 1, rows),
        )?;
        if counted.is_none() {
            return Ok(None);
        }
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
        let units = self.parsed;
        let Some(totals) = fed_pairs(
            py,
            &input,
            self.threads,
            None,
            || [0i64; 3],
            |total, refs, hyps, _| {
                let part = distance_pairs(refs.len(), |i| (refs[i], hyps[i]), units, 1);
                for (t, x) in total.iter_mut().zip(part) {
                    *t += x;
                }
            },
        )?
        else {
            return Ok(None);
        };
        let mut total = [0i64; 3];
        for part in totals {
            for (t, x) in total.iter_mut().zip(part) {
                *t += x;
            }
        }
        let [d, r, h] = total;
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
    /// fields set as attributes without calling ``chunk_type``'s ``__init__``); None when a string is not valid
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
        let new = chunk_type.getattr(intern!(py, "__new__"))?;
        let mut strings = StringCache::default();
        let (mut ref_lists, mut hyp_lists, mut chunk_lists) = (
            Vec::with_capacity(refs.len()),
            Vec::with_capacity(refs.len()),
            Vec::with_capacity(refs.len()),
        );
        let mut worker = PairWorker::default();
        let mut ops = Vec::new();
        let mut total = [0i64; ROW_WIDTH];
        for (r, h) in refs.iter().zip(&hyps) {
            ops.clear();
            let row = worker.align_text(r, h, self.parsed, &mut ops);
            for (t, x) in total.iter_mut().zip(row) {
                *t += x;
            }
            ref_lists.push(strings.list(py, r, worker.last_tokens(0, self.parsed))?);
            hyp_lists.push(strings.list(py, h, worker.last_tokens(1, self.parsed))?);
            let chunks = ops
                .iter()
                .map(|op| Self::chunk(py, &new, chunk_type, &kinds, op))
                .collect::<PyResult<Vec<_>>>()?;
            chunk_lists.push(PyList::new(py, chunks)?);
        }
        let (ref_lists, hyp_lists, chunk_lists) = (
            PyList::new(py, ref_lists)?,
            PyList::new(py, hyp_lists)?,
            PyList::new(py, chunk_lists)?,
        );
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

/// One `str` object for every distinct token of a call: a word that recurs (in a pair or across pairs)
/// is the same object in every list, made and later freed once.
#[derive(Default)]
struct StringCache<'a, 'py> {
    words: HashMap<&'a str, Bound<'py, PyString>, BuildHasherDefault<TokenHasher>>,
    chars: HashMap<u32, Bound<'py, PyString>, BuildHasherDefault<TokenHasher>>,
}

impl<'a, 'py> StringCache<'a, 'py> {
    /// The tokens of `text` (byte ranges of it, or code points) as a list of `str`.
    fn list(
        &mut self,
        py: Python<'py>,
        text: &'a str,
        tokens: LastTokens<'_>,
    ) -> PyResult<Bound<'py, PyList>> {
        match tokens {
            LastTokens::Spans(spans) => PyList::new(
                py,
                spans.iter().map(|&(a, b)| {
                    let word = &text[a as usize..b as usize];
                    self.words
                        .entry(word)
                        .or_insert_with(|| PyString::new(py, word))
                        .clone()
                }),
            ),
            LastTokens::Codes(codes) => PyList::new(
                py,
                codes.iter().map(|&c| {
                    self.chars
                        .entry(c)
                        .or_insert_with(|| {
                            let ch = char::from_u32(c).unwrap_or('\u{fffd}');
                            PyString::new(py, ch.encode_utf8(&mut [0u8; 4]))
                        })
                        .clone()
                }),
            ),
        }
    }
}

/// A hash for [`StringCache`]'s keys (short words and code points, all of one call's input: no
/// adversary to fear): eight bytes at a time, multiplied and rotated.
#[derive(Default)]
struct TokenHasher(u64);

impl Hasher for TokenHasher {
    fn finish(&self) -> u64 {
        (self.0 ^ (self.0 >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
    }

    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(buf))
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(31);
        }
    }

    fn write_u32(&mut self, x: u32) {
        self.write_u64(u64::from(x));
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0 ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(31);
    }
}

impl EditAligner {
    /// A `chunk_type` object of `op`, made by `new` (`chunk_type.__new__`, without `__init__`) with its
    /// five fields set as attributes (slots or its `__dict__`).
    fn chunk<'py>(
        py: Python<'py>,
        new: &Bound<'py, PyAny>,
        chunk_type: &Bound<'py, PyType>,
        kinds: &[Bound<'py, PyString>; 4],
        op: &Opcode,
    ) -> PyResult<Bound<'py, PyAny>> {
        let obj = new.call1((chunk_type,))?;
        obj.setattr(intern!(py, "type"), &kinds[op.kind as usize])?;
        obj.setattr(intern!(py, "ref_start_idx"), op.i1)?;
        obj.setattr(intern!(py, "ref_end_idx"), op.i2)?;
        obj.setattr(intern!(py, "hyp_start_idx"), op.j1)?;
        obj.setattr(intern!(py, "hyp_end_idx"), op.j2)?;
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

/// Pairs read from Python at a time by [`fed_pairs`].
const PAIRS_PER_CHUNK: usize = 1024;

/// A chunk of pairs for [`fed_pairs`]' threads: its lines, and its statistics rows if they are kept.
struct PairChunk<'i, 'o> {
    lines: ReadLines<'i>,
    rows: Option<&'o mut [i64]>,
}

/// Has `work(state, references, hypotheses, rows)` count the pairs of `input` a chunk at a time on
/// `threads` threads (0: a count for the input size), each thread with its own `state`; `rows` is the
/// chunk's part of `out` (`ROW_WIDTH` a pair) where given. This thread reads the chunks from Python
/// (holding the GIL) while the others count the ones before, and counts too when enough are queued
/// ([`fed`]): reading the strings is no serial step before the counting. Returns the threads' states; None
/// when a line is not valid UTF-8 (the caller leaves the job to Python). A missing reference is an error
/// naming the first (as [`present`] names it), unless a line is not valid UTF-8.
fn fed_pairs<S, N, W>(
    py: Python<'_>,
    input: &TextInput<'_>,
    threads: usize,
    out: Option<&mut [i64]>,
    new_state: N,
    work: W,
) -> PyResult<Option<Vec<S>>>
where
    S: Send,
    N: Fn() -> S + Sync,
    W: Fn(&mut S, &[&str], &[&str], &mut [i64]) + Sync,
{
    let n = input.hyps.len();
    let threads = pick_threads(threads, n, 4000, n.div_ceil(PAIRS_PER_CHUNK));
    // chunks queued before this thread counts one itself: the others do not run dry meanwhile
    let read_ahead = 4 * threads - 3;
    let mut outputs = out.map(|o| o.chunks_mut(PAIRS_PER_CHUNK * ROW_WIDTH));
    let count = |state: &mut S, job: PairChunk<'_, '_>| -> Option<()> {
        let (hyps, refs) = job.lines.utf8_texts().expect("lines checked when read");
        let refs: Vec<&str> = refs[0].iter().map(|r| r.unwrap_or_default()).collect();
        let hyps: Vec<&str> = hyps;
        work(state, &refs, &hyps, job.rows.unwrap_or_default());
        None
    };
    let counted = fed(threads - 1, &new_state, count, |feed| -> PyResult<_> {
        let mut mine = new_state();
        let mut missing = None;
        for start in (0..n).step_by(PAIRS_PER_CHUNK) {
            if feed.failed() {
                break;
            }
            // Ctrl-C between chunks (this thread holds the GIL: the handler runs here)
            py.check_signals()?;
            let lines = input.read(start..n.min(start + PAIRS_PER_CHUNK))?;
            if !lines.all_utf8() {
                return Ok(None);
            }
            let rows = outputs.as_mut().map(|o| o.next().expect("a chunk of rows"));
            if missing.is_none() {
                missing = lines.first_missing_reference(0).map(|j| start + j);
            }
            // after a missing reference, the rest is only read: a line that is not UTF-8 still says None
            if missing.is_some() {
                continue;
            }
            feed.push(PairChunk { lines, rows });
            while feed.queued() >= read_ahead {
                detached(py, || feed.help(&mut mine))?;
            }
        }
        detached(py, || feed.finish(&mut mine))?;
        if let Some(i) = missing {
            return Err(invalid(format!("references[{i}] is missing (None)")));
        }
        Ok(Some(mine))
    });
    let (mine, mut helpers) = counted.map_err(panic_error)?;
    let Some(mine) = mine? else {
        return Ok(None);
    };
    helpers.push(mine);
    Ok(Some(helpers))
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
