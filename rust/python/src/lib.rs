//! The Python module `bleuscope._core`: thin bindings over the counting core. Inputs are read straight
//! from Python objects (str data as UTF-8, numpy buffers), the GIL is released around the counting, and a
//! Rust panic becomes a Python RuntimeError.

mod chrf;
mod meteor;
mod pairwise;
mod resample;
mod rouge;
mod score;
mod ter;
mod tok;

use std::panic::{catch_unwind, AssertUnwindSafe};

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

use bleuscope_core::count::{row_width, SegmentCounter, TokenSpans};
use bleuscope_core::par::fill_rows;
use bleuscope_core::text::{count_lines, Line};
use bleuscope_core::tok::Tokenizer;

/// Lines longer than this are refused (token offsets are 32-bit; lowercasing can grow a line).
const MAX_LINE_BYTES: usize = (u32::MAX / 4) as usize;
/// Segments whose lines are read from Python objects and counted at a time by `count_text` (by default:
/// few blocks, since the counting threads wait for each other at the end of every block)...
const SEGMENTS_PER_BLOCK: usize = 1 << 17;
/// ... unless the block's non-ASCII lines, copied as code points, pass this many code points first.
const BLOCK_CODE_POINTS: usize = 1 << 22;
/// Highest n-gram order accepted (a guard against absurd row widths; BLEU uses 4).
const MAX_ORDER: usize = 1 << 16;

fn as_list<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyList>> {
    match obj.cast::<PyList>() {
        Ok(list) => Ok(list.clone()),
        Err(_) => Ok(PyList::new(
            obj.py(),
            obj.try_iter()?.collect::<PyResult<Vec<_>>>()?,
        )?),
    }
}

/// Owned UTF-8 copies of a list of str (None allowed where `allow_none`), for the chrF and TER cores, which
/// keep their strings across threads; `Ok(None)` when a string is not valid UTF-8 (lone surrogates), so that
/// the caller uses the Python implementation.
pub(crate) fn owned_strings(
    list: &Bound<'_, PyList>,
    allow_none: bool,
) -> PyResult<Option<Vec<Option<String>>>> {
    let mut out = Vec::with_capacity(list.len());
    for item in list.iter() {
        if allow_none && item.is_none() {
            out.push(None);
            continue;
        }
        let s = item
            .cast::<PyString>()
            .map_err(|_| PyValueError::new_err("expected a list of str"))?;
        match s.to_str() {
            Ok(t) => out.push(Some(t.to_owned())),
            Err(_) => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// Hypotheses (list of str) and reference streams (list of lists of str or None, each as long as the
/// hypotheses) as owned UTF-8 copies; `Ok(None)` when a string is not valid UTF-8 (see [`owned_strings`]).
pub(crate) type OwnedTextInput = (Vec<Option<String>>, Vec<Vec<Option<String>>>);

pub(crate) fn owned_text_input(
    hyps: &Bound<'_, PyList>,
    ref_streams: &Bound<'_, PyList>,
) -> PyResult<Option<OwnedTextInput>> {
    let Some(h) = owned_strings(hyps, false)? else {
        return Ok(None);
    };
    let mut streams = Vec::with_capacity(ref_streams.len());
    for s in ref_streams.iter() {
        let list = s
            .cast::<PyList>()
            .map_err(|_| PyValueError::new_err("expected lists of str"))?
            .clone();
        if list.len() != h.len() {
            return Err(PyValueError::new_err(
                "every reference stream must be as long as the hypotheses",
            ));
        }
        let Some(r) = owned_strings(&list, true)? else {
            return Ok(None);
        };
        streams.push(r);
    }
    Ok(Some((h, streams)))
}

fn check_order(order: usize) -> PyResult<()> {
    if !(1..=MAX_ORDER).contains(&order) {
        return Err(PyValueError::new_err(format!(
            "order must be in 1..={MAX_ORDER}, got {order}"
        )));
    }
    Ok(())
}

/// Runs `f` without the GIL; a panic inside becomes a RuntimeError.
fn run_detached<T: Send, F: FnOnce() -> T + Send>(py: Python<'_>, f: F) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(f)))
        .map_err(|e| {
            let msg = e
                .downcast_ref::<String>()
                .map(String::as_str)
                .or_else(|| e.downcast_ref::<&str>().copied())
                .unwrap_or("unknown panic");
            PyRuntimeError::new_err(format!("internal error in bleuscope._core: {msg}"))
        })
}

/// A line as collected with the GIL: code points are stored in a shared buffer, by position.
enum Pending<'a> {
    Text(&'a str),
    Ucs4(usize, usize),
    Missing,
    Python,
}

/// Whether this interpreter's `str` objects keep their "ASCII" flag where [`is_ascii_str`] reads it:
/// CPython 3.10 to 3.14 (the flag is bit 6 of the state word after the header, length and hash).
fn ascii_flag_readable(py: Python<'_>) -> bool {
    let v = py.version_info();
    v.major == 3 && (10..=14).contains(&v.minor)
}

/// The "compact ASCII" flag of a `str` object. Only a hint for choosing how to read the text: both ways
/// give the same characters, so a wrong answer could cost time, never exactness.
///
/// # Safety
/// `obj` must point to a live `str` object of an interpreter for which [`ascii_flag_readable`] holds.
unsafe fn is_ascii_str(obj: *mut pyo3::ffi::PyObject) -> bool {
    let state = std::ptr::read_unaligned(
        (obj as *const u8).add(4 * std::mem::size_of::<usize>()) as *const u32
    );
    state & (1 << 6) != 0
}

/// How to read a Python object as a line: ASCII `str`s through their UTF-8 pointer (no copy), other `str`s
/// as UCS-4 code points appended to `ucs4` (encoded to UTF-8 later on the worker threads, and no UTF-8
/// copy is left cached in the caller's strings); `what`/`index` name the item in errors.
fn line_of<'a>(
    item: &'a Bound<'_, PyAny>,
    allow_none: bool,
    what: &str,
    index: usize,
    ascii_flag: bool,
    ucs4: &mut Vec<u32>,
) -> PyResult<Pending<'a>> {
    if let Ok(s) = item.cast::<PyString>() {
        let ptr = s.as_ptr();
        // SAFETY: `s` is a live str and `ascii_flag` says the layout is known
        if ascii_flag && !unsafe { is_ascii_str(ptr) } {
            // SAFETY: `ptr` is a str; the buffer has room for `n` code points
            let n = unsafe { pyo3::ffi::PyUnicode_GetLength(ptr) };
            if n < 0 {
                return Err(PyErr::fetch(item.py()));
            }
            let n = n as usize;
            check_line_size(n.saturating_mul(4), what, index)?;
            let start = ucs4.len();
            ucs4.resize(start + n, 0);
            let copied = unsafe {
                pyo3::ffi::PyUnicode_AsUCS4(ptr, ucs4.as_mut_ptr().add(start), n as isize, 0)
            };
            if copied.is_null() {
                return Err(PyErr::fetch(item.py()));
            }
            return Ok(Pending::Ucs4(start, n));
        }
        return Ok(match s.to_str() {
            Ok(text) => {
                check_line_size(text.len(), what, index)?;
                Pending::Text(text)
            }
            // e.g. lone surrogates: not UTF-8, so only the Python tokenizer can take it
            Err(_) => Pending::Python,
        });
    }
    if allow_none && item.is_none() {
        return Ok(Pending::Missing);
    }
    Err(PyTypeError::new_err(format!(
        "{what}[{index}] must be a str{}, got {}",
        if allow_none { " or None" } else { "" },
        item.get_type().name()?
    )))
}

fn check_line_size(bytes: usize, what: &str, index: usize) -> PyResult<()> {
    if bytes > MAX_LINE_BYTES {
        return Err(PyValueError::new_err(format!(
            "{what}[{index}] is {bytes} bytes long; lines of at most {MAX_LINE_BYTES} bytes are supported"
        )));
    }
    Ok(())
}

fn resolve<'a>(pending: &[Pending<'a>], ucs4: &'a [u32]) -> Vec<Line<'a>> {
    pending
        .iter()
        .map(|p| match *p {
            Pending::Text(t) => Line::Text(t),
            Pending::Ucs4(start, n) => Line::Ucs4(&ucs4[start..start + n]),
            Pending::Missing => Line::Missing,
            Pending::Python => Line::Python,
        })
        .collect()
}

/// Bytes of a token returned by the Python tokenizer (surrogates kept as their UTF-8-like bytes).
fn token_bytes(tok: &Bound<'_, PyAny>, out: &mut Vec<u8>) -> PyResult<()> {
    let s = tok.cast::<PyString>().map_err(|_| {
        PyTypeError::new_err(format!(
            "the fallback tokenizer returned a {} token, expected str",
            tok.get_type()
        ))
    })?;
    match s.to_str() {
        Ok(t) => out.extend_from_slice(t.as_bytes()),
        Err(_) => {
            let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
            out.extend_from_slice(b.cast::<PyBytes>()?.as_bytes());
        }
    }
    Ok(())
}

/// Tokens (a Python list of str) into a byte buffer and spans.
fn tokens_into(
    tokens: &Bound<'_, PyAny>,
    buf: &mut Vec<u8>,
    spans: &mut Vec<(u32, u32)>,
) -> PyResult<()> {
    buf.clear();
    spans.clear();
    for tok in tokens.try_iter()? {
        let start = buf.len();
        token_bytes(&tok?, buf)?;
        if buf.len() > MAX_LINE_BYTES {
            return Err(PyValueError::new_err(
                "a tokenized line is longer than the supported size",
            ));
        }
        spans.push((start as u32, buf.len() as u32));
    }
    Ok(())
}

/// Counts the segments whose lines need the Python tokenizer: `fallback(lines)` returns their token
/// lists (lines in order: each segment's hypothesis, then its present references).
#[allow(clippy::too_many_arguments)]
/// `segments` and `out` are relative to a block starting at segment `offset` (`hyp_items` is the block's,
/// `ref_items` the whole streams).
fn count_python_segments(
    py: Python<'_>,
    segments: &[usize],
    hyp_items: &[Bound<'_, PyAny>],
    ref_items: &[Vec<Bound<'_, PyAny>>],
    offset: usize,
    order: usize,
    fallback: Option<&Bound<'_, PyAny>>,
    out: &mut [i64],
) -> PyResult<()> {
    let Some(fallback) = fallback else {
        return Err(PyValueError::new_err(format!(
            "{} segment(s) need the Python tokenizer (first: segment {}), but no fallback was given",
            segments.len(),
            segments[0] + offset
        )));
    };
    let batch = PyList::empty(py);
    for &i in segments {
        batch.append(&hyp_items[i])?;
        for stream in ref_items {
            if !stream[offset + i].is_none() {
                batch.append(&stream[offset + i])?;
            }
        }
    }
    let n_lines = batch.len();
    let result = as_list(&fallback.call1((batch,))?)?;
    if result.len() != n_lines {
        return Err(PyValueError::new_err(format!(
            "the fallback tokenizer returned {} token lists for {n_lines} lines",
            result.len()
        )));
    }
    let width = row_width(order);
    let mut counter = SegmentCounter::new(order);
    let (mut hyp_buf, mut hyp_spans) = (Vec::new(), Vec::new());
    type Tokens = (Vec<u8>, Vec<(u32, u32)>);
    let mut ref_bufs: Vec<Tokens> = vec![(Vec::new(), Vec::new()); ref_items.len()];
    let mut next = 0usize;
    for &i in segments {
        tokens_into(&result.get_item(next)?, &mut hyp_buf, &mut hyp_spans)?;
        next += 1;
        let mut present = vec![false; ref_items.len()];
        for (k, stream) in ref_items.iter().enumerate() {
            if !stream[offset + i].is_none() {
                let (b, s) = &mut ref_bufs[k];
                tokens_into(&result.get_item(next)?, b, s)?;
                present[k] = true;
                next += 1;
            }
        }
        let refs: Vec<Option<TokenSpans>> = ref_bufs
            .iter()
            .zip(&present)
            .map(|((b, s), &p)| p.then_some(TokenSpans { buf: b, spans: s }))
            .collect();
        let hyp = TokenSpans {
            buf: &hyp_buf,
            spans: &hyp_spans,
        };
        counter.count_text(hyp, &refs, &mut out[i * width..(i + 1) * width]);
    }
    Ok(())
}

/// Text input read from Python: the hypothesis and reference items, checked for their count.
struct TextInput<'py> {
    hyp_items: Vec<Bound<'py, PyAny>>,
    ref_items: Vec<Vec<Bound<'py, PyAny>>>,
}

impl<'py> TextInput<'py> {
    fn new(hyps: &Bound<'py, PyAny>, ref_streams: &Bound<'py, PyAny>) -> PyResult<Self> {
        let hyp_items: Vec<Bound<PyAny>> = as_list(hyps)?.iter().collect();
        let n_seg = hyp_items.len();
        let mut ref_items: Vec<Vec<Bound<PyAny>>> = Vec::new();
        for (k, stream) in as_list(ref_streams)?.iter().enumerate() {
            let items: Vec<Bound<PyAny>> = as_list(&stream)?.iter().collect();
            if items.len() != n_seg {
                return Err(PyValueError::new_err(format!(
                    "reference stream {k} has {} lines, the hypotheses have {n_seg}",
                    items.len()
                )));
            }
            ref_items.push(items);
        }
        Ok(TextInput {
            hyp_items,
            ref_items,
        })
    }
}

/// What the reading pass learns about the input besides the rows.
#[derive(Default)]
struct InputFacts {
    /// hypotheses ending in a tokenized period (" ."), as `str.endswith(" .")` counts them
    tokenized_periods: usize,
    /// `nref_counts[k]`: segments with exactly k present references
    nref_counts: Vec<i64>,
}

/// Whether a line as read ends in " ." (sacreBLEU's tokenized-input check).
fn ends_in_tokenized_period(
    item: &Bound<'_, PyAny>,
    line: &Pending<'_>,
    ucs4: &[u32],
) -> PyResult<bool> {
    Ok(match *line {
        Pending::Text(t) => t.ends_with(" ."),
        Pending::Ucs4(start, n) => n >= 2 && ucs4[start + n - 2..start + n] == [0x20, 0x2E],
        Pending::Missing => false,
        Pending::Python => item.call_method1("endswith", (" .",))?.is_truthy()?,
    })
}

/// Counts text input a block of segments at a time (the code-point copies stay bounded), handing each
/// block's rows, with the index of its first segment, to `sink`. Lines the Rust tokenizer cannot do
/// exactly go to `fallback` with the rest of their block.
#[allow(clippy::too_many_arguments)]
fn count_text_blocks<'py>(
    py: Python<'py>,
    input: &TextInput<'py>,
    tok: Tokenizer,
    lowercase: bool,
    order: usize,
    threads: usize,
    fallback: Option<&Bound<'py, PyAny>>,
    facts: &mut InputFacts,
    block_segments: usize,
    mut sink: impl FnMut(usize, &[i64]),
) -> PyResult<()> {
    let block_segments = if block_segments == 0 {
        SEGMENTS_PER_BLOCK
    } else {
        block_segments
    };
    let (hyp_items, ref_items) = (&input.hyp_items, &input.ref_items);
    let n_seg = hyp_items.len();
    let ascii_flag = ascii_flag_readable(py);
    let width = row_width(order);
    facts.nref_counts = vec![0; ref_items.len() + 1];
    let mut block = Vec::new();
    let mut ucs4: Vec<u32> = Vec::new();
    let whats: Vec<String> = (0..ref_items.len())
        .map(|k| format!("references[{k}]"))
        .collect();
    let mut start = 0;
    while start < n_seg {
        // a block ends after `block_segments` segments or once its code-point copies pass
        // BLOCK_CODE_POINTS, whichever comes first
        ucs4.clear();
        let mut hyp_pending = Vec::new();
        let mut ref_pending: Vec<Vec<Pending>> = ref_items.iter().map(|_| Vec::new()).collect();
        let mut end = start;
        while end < n_seg && end - start < block_segments && ucs4.len() < BLOCK_CODE_POINTS {
            let item = &hyp_items[end];
            let line = line_of(item, false, "hypotheses", end, ascii_flag, &mut ucs4)?;
            facts.tokenized_periods += ends_in_tokenized_period(item, &line, &ucs4)? as usize;
            hyp_pending.push(line);
            let mut present = 0;
            for ((items, pending), what) in ref_items.iter().zip(&mut ref_pending).zip(&whats) {
                let line = line_of(&items[end], true, what, end, ascii_flag, &mut ucs4)?;
                present += !matches!(line, Pending::Missing) as usize;
                pending.push(line);
            }
            facts.nref_counts[present] += 1;
            end += 1;
        }
        let hyp_lines = resolve(&hyp_pending, &ucs4);
        let ref_lines: Vec<Vec<Line>> = ref_pending.iter().map(|p| resolve(p, &ucs4)).collect();
        let refs: Vec<&[Line]> = ref_lines.iter().map(Vec::as_slice).collect();
        block.clear();
        block.resize((end - start) * width, 0i64);
        let failed = run_detached(py, || {
            count_lines(
                tok, lowercase, order, &hyp_lines, &refs, threads, &mut block,
            )
        })?;
        if !failed.is_empty() {
            count_python_segments(
                py,
                &failed,
                &hyp_items[start..end],
                ref_items,
                start,
                order,
                fallback,
                &mut block,
            )?;
        }
        sink(start, &block);
        start = end;
    }
    Ok(())
}

fn text_tokenizer(tokenize: &str) -> PyResult<Tokenizer> {
    Tokenizer::from_name(tokenize).ok_or_else(|| {
        PyValueError::new_err(format!("the compiled core has no tokenizer {tokenize:?}"))
    })
}

/// Statistics rows, int64 ``[S, 2 + 2 * order]``, of hypotheses (list of str) against reference streams
/// (list of lists; ``None`` is a missing reference), tokenized by ``tokenize`` (a built-in tokenizer name)
/// after Python-exact lowercasing if ``lowercase``. ``threads=0`` picks a count for the input size.
/// Lines the Rust tokenizer cannot do exactly go to ``fallback(lines) -> list of token lists``.
/// ``block_segments`` (0: the default) caps the segments read and counted at a time (for tests).
#[pyfunction]
#[pyo3(signature = (hyps, ref_streams, tokenize, lowercase, order, threads=0, fallback=None, block_segments=0))]
#[allow(clippy::too_many_arguments)]
fn count_text<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    ref_streams: &Bound<'py, PyAny>,
    tokenize: &str,
    lowercase: bool,
    order: usize,
    threads: usize,
    fallback: Option<Bound<'py, PyAny>>,
    block_segments: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    check_order(order)?;
    let tok = text_tokenizer(tokenize)?;
    let input = TextInput::new(hyps, ref_streams)?;
    let n_seg = input.hyp_items.len();
    let width = row_width(order);
    let mut out = vec![0i64; n_seg * width];
    count_text_blocks(
        py,
        &input,
        tok,
        lowercase,
        order,
        threads,
        fallback.as_ref(),
        &mut InputFacts::default(),
        block_segments,
        |start, rows| out[start * width..start * width + rows.len()].copy_from_slice(rows),
    )?;
    PyArray1::from_vec(py, out).reshape([n_seg, width])
}

/// `(total row, segments per number of present references, hypotheses ending in " .")`
type CorpusTotal<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>, usize);

/// The corpus total of :func:`count_text` without the per-segment rows: ``(total, nref_counts,
/// tokenized_periods)`` with ``total`` the summed row (int64 ``[2 + 2 * order]``), ``nref_counts[k]``
/// the number of segments with exactly k present references, and ``tokenized_periods`` the number of
/// hypotheses ending in ``" ."``. Arguments as for :func:`count_text`.
#[pyfunction]
#[pyo3(signature = (hyps, ref_streams, tokenize, lowercase, order, threads=0, fallback=None, block_segments=0))]
#[allow(clippy::too_many_arguments)]
fn count_text_total<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyAny>,
    ref_streams: &Bound<'py, PyAny>,
    tokenize: &str,
    lowercase: bool,
    order: usize,
    threads: usize,
    fallback: Option<Bound<'py, PyAny>>,
    block_segments: usize,
) -> PyResult<CorpusTotal<'py>> {
    check_order(order)?;
    let tok = text_tokenizer(tokenize)?;
    let input = TextInput::new(hyps, ref_streams)?;
    let width = row_width(order);
    let mut total = vec![0i64; width];
    let mut facts = InputFacts::default();
    count_text_blocks(
        py,
        &input,
        tok,
        lowercase,
        order,
        threads,
        fallback.as_ref(),
        &mut facts,
        block_segments,
        |_, rows| {
            for row in rows.chunks_exact(width) {
                for (t, v) in total.iter_mut().zip(row) {
                    *t += v;
                }
            }
        },
    )?;
    Ok((
        PyArray1::from_vec(py, total),
        PyArray1::from_vec(py, facts.nref_counts),
        facts.tokenized_periods,
    ))
}

/// Per-stream token ids split into segments by their lengths.
struct IdStream<'a> {
    ids: &'a [u64],
    offsets: Vec<usize>,
}

impl<'a> IdStream<'a> {
    fn new(ids: &'a [u64], lengths: &[i64], n_seg: usize, what: &str) -> PyResult<Self> {
        if lengths.len() != n_seg {
            return Err(PyValueError::new_err(format!(
                "{what} has {} lengths, expected {n_seg}",
                lengths.len()
            )));
        }
        let mut offsets = Vec::with_capacity(n_seg + 1);
        offsets.push(0usize);
        let mut total = 0usize;
        for (i, &len) in lengths.iter().enumerate() {
            if len < 0 {
                return Err(PyValueError::new_err(format!(
                    "{what}: length {len} of segment {i} is negative"
                )));
            }
            total = total.saturating_add(len as usize);
            offsets.push(total);
        }
        if total != ids.len() {
            return Err(PyValueError::new_err(format!(
                "{what}: the lengths add up to {total}, but there are {} ids",
                ids.len()
            )));
        }
        Ok(IdStream { ids, offsets })
    }

    fn segment(&self, i: usize) -> &'a [u64] {
        &self.ids[self.offsets[i]..self.offsets[i + 1]]
    }
}

/// Statistics rows, int64 ``[S, 2 + 2 * order]``, from token ids: ``hyp_ids`` (uint64, flat) split by
/// ``hyp_lens`` (int64 [S]), reference streams likewise; ``present`` (bool [S, K]) marks missing
/// references, whose length must be 0. Equal ids are equal tokens.
#[pyfunction]
#[pyo3(signature = (hyp_ids, hyp_lens, ref_ids, ref_lens, order, present=None, threads=0))]
#[allow(clippy::too_many_arguments)]
fn count_ids<'py>(
    py: Python<'py>,
    hyp_ids: PyReadonlyArray1<'py, u64>,
    hyp_lens: PyReadonlyArray1<'py, i64>,
    ref_ids: Vec<PyReadonlyArray1<'py, u64>>,
    ref_lens: Vec<PyReadonlyArray1<'py, i64>>,
    order: usize,
    present: Option<PyReadonlyArray2<'py, bool>>,
    threads: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    check_order(order)?;
    if ref_ids.len() != ref_lens.len() {
        return Err(PyValueError::new_err(
            "ref_ids and ref_lens must have one entry per reference stream",
        ));
    }
    fn contiguous(r: Result<&[u64], numpy::AsSliceError>) -> PyResult<&[u64]> {
        r.map_err(|_| PyValueError::new_err("id arrays must be contiguous"))
    }
    let n_seg = hyp_lens.len();
    let hyp = IdStream::new(
        contiguous(hyp_ids.as_slice())?,
        hyp_lens.as_slice()?,
        n_seg,
        "hypotheses",
    )?;
    let mut refs = Vec::with_capacity(ref_ids.len());
    for (k, (ids, lens)) in ref_ids.iter().zip(&ref_lens).enumerate() {
        refs.push(IdStream::new(
            contiguous(ids.as_slice())?,
            lens.as_slice()?,
            n_seg,
            &format!("reference stream {k}"),
        )?);
    }
    let n_refs = refs.len();
    let mask: Vec<bool> = match &present {
        None => vec![true; n_seg * n_refs],
        Some(p) => {
            if p.shape() != [n_seg, n_refs] {
                return Err(PyValueError::new_err(format!(
                    "present has shape {:?}, expected [{n_seg}, {n_refs}]",
                    p.shape()
                )));
            }
            p.as_array().iter().copied().collect()
        }
    };
    for (k, r) in refs.iter().enumerate() {
        for i in 0..n_seg {
            if !mask[i * n_refs + k] && r.offsets[i + 1] != r.offsets[i] {
                return Err(PyValueError::new_err(format!(
                    "reference {k} of segment {i} is marked missing but has {} ids",
                    r.offsets[i + 1] - r.offsets[i]
                )));
            }
        }
    }
    let width = row_width(order);
    let mut out = vec![0i64; n_seg * width];
    {
        let (hyp, refs, mask, out) = (&hyp, &refs, &mask, &mut out);
        run_detached(py, || {
            fill_rows(
                out,
                width,
                threads,
                || (SegmentCounter::new(order), Vec::with_capacity(n_refs)),
                |(counter, seg_refs): &mut (SegmentCounter, Vec<Option<&[u64]>>), i, row| {
                    seg_refs.clear();
                    seg_refs.extend(
                        refs.iter()
                            .enumerate()
                            .map(|(k, r)| mask[i * n_refs + k].then(|| r.segment(i))),
                    );
                    counter.count_ids(hyp.segment(i), seg_refs, row);
                    true
                },
            )
        })?;
    }
    PyArray1::from_vec(py, out).reshape([n_seg, width])
}

// The C library's functions, which Python's `math.log`/`math.exp` call: scores computed with them are
// bit-identical to the Python ones (Rust's own `ln`/`exp` may be lowered differently).
extern "C" {
    fn log(x: f64) -> f64;
    fn exp(x: f64) -> f64;
}

/// ``func`` ("log" or "exp") of the C library applied to every value of a float64 array, without the GIL.
#[pyfunction]
fn libm_map<'py>(
    py: Python<'py>,
    func: &str,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let f: fn(f64) -> f64 = match func {
        // SAFETY: plain C math functions of one double, no preconditions
        "log" => |x| unsafe { log(x) },
        "exp" => |x| unsafe { exp(x) },
        _ => {
            return Err(PyValueError::new_err(format!(
                "libm_map: unknown function {func:?}"
            )))
        }
    };
    let input: Vec<f64> = match values.as_slice() {
        Ok(v) => v.to_vec(),
        Err(_) => values.as_array().iter().copied().collect(),
    };
    let out = run_detached(py, move || input.into_iter().map(f).collect::<Vec<f64>>())?;
    Ok(PyArray1::from_vec(py, out))
}

/// Panics inside the core, for the test that a panic reaches Python as a RuntimeError.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    run_detached(py, || -> () { panic!("deliberate panic for the tests") })
}

/// How this module was built: `{"version", "profile", "target", "abi3"}` (`abi3`: the lowest Python of
/// the stable ABI the module is built for, pyo3's `abi3-py310` feature in Cargo.toml; the extension's
/// file name says `.abi3.` then).
fn build_info(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
    let d = pyo3::types::PyDict::new(py);
    d.set_item("version", env!("CARGO_PKG_VERSION"))?;
    let profile = if cfg!(debug_assertions) {
        "debug"
    } else {
        "release"
    };
    d.set_item("profile", profile)?;
    let env = if cfg!(target_env = "gnu") {
        "-gnu"
    } else if cfg!(target_env = "musl") {
        "-musl"
    } else if cfg!(target_env = "msvc") {
        "-msvc"
    } else {
        ""
    };
    let target = format!("{}-{}{env}", std::env::consts::ARCH, std::env::consts::OS);
    d.set_item("target", target)?;
    d.set_item("abi3", "3.10")?;
    Ok(d)
}

#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("BUILD", build_info(m.py())?)?;
    // sacreBLEU adds the log precisions with Python's sum(), whose rounding changed in CPython 3.12
    bleuscope_core::score::set_compensated_sum(m.py().version_info() >= (3, 12));
    m.add_function(wrap_pyfunction!(count_text, m)?)?;
    m.add_function(wrap_pyfunction!(count_text_total, m)?)?;
    m.add_function(wrap_pyfunction!(count_ids, m)?)?;
    m.add_function(wrap_pyfunction!(libm_map, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    crate::tok::register(m)?;
    crate::score::register(m)?;
    crate::pairwise::register(m)?;
    crate::resample::register(m)?;
    crate::chrf::register(m)?;
    crate::rouge::register(m)?;
    crate::ter::register(m)?;
    crate::meteor::register(m)?;
    Ok(())
}
