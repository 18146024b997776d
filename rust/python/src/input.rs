//! The one input reader: Python objects (lists of `str`, token lists, numpy arrays) read as the slices
//! and lines the core takes, with the checks and error messages every binding shares. Text is read in
//! place (`str` data as UTF-8 through the stable ABI, no copy for ASCII); nothing here reads private
//! fields of CPython objects.

use bleuscope_core::text::Line;
use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use pyo3::Borrowed;

use crate::errors::{invalid, wrong_type};

/// Lines longer than this are refused (token offsets are 32-bit; lowercasing can grow a line).
pub(crate) const MAX_LINE_BYTES: usize = (u32::MAX / 4) as usize;

/// The items of a list, or of any other iterable.
pub(crate) fn items<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    match obj.cast::<PyList>() {
        Ok(list) => Ok(list.iter().collect()),
        Err(_) => obj.try_iter()?.collect(),
    }
}

/// The items of a list or tuple, or of any other iterable, as a tuple: a list's in one C call, with no
/// Python object per item. Nothing can change a tuple, so the lines read from it stay valid while it
/// lives, whatever other threads do to the caller's list while the core counts without the GIL.
fn item_tuple<'py>(obj: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyTuple>> {
    if let Ok(list) = obj.cast::<PyList>() {
        return Ok(list.to_tuple());
    }
    if let Ok(tuple) = obj.cast_exact::<PyTuple>() {
        return Ok(tuple.clone());
    }
    PyTuple::new(obj.py(), items(obj)?)
}

/// Hypotheses and reference streams (each as long as the hypotheses; `None` items are missing
/// references), as Python items.
pub(crate) struct TextInput<'py> {
    pub hyps: Bound<'py, PyTuple>,
    pub refs: Vec<Bound<'py, PyTuple>>,
}

impl<'py> TextInput<'py> {
    pub(crate) fn new(hyps: &Bound<'py, PyAny>, ref_streams: &Bound<'py, PyAny>) -> PyResult<Self> {
        let hyps = item_tuple(hyps)?;
        let refs = reference_streams(ref_streams, hyps.len(), item_tuple, |s| s.len())?;
        Ok(TextInput { hyps, refs })
    }

    /// The lines of segments `range`: hypotheses, then each reference stream's.
    pub(crate) fn lines<'a>(&'a self, range: std::ops::Range<usize>) -> PyResult<SegmentLines<'a>> {
        segment_lines(self.refs.len(), range, |stream, i| match stream {
            0 => self.hyps.get_borrowed_item(i),
            _ => self.refs[stream - 1].get_borrowed_item(i),
        })
    }
}

/// The lines of some segments: the hypotheses', then each reference stream's.
pub(crate) type SegmentLines<'a> = (Vec<Line<'a>>, Vec<Vec<Line<'a>>>);

/// The lines of segments `range` of the hypotheses (stream 0) and `n_refs` reference streams (1 on),
/// `item(stream, segment)` giving each item; errors name an item as `hypotheses[i]` or `references[k][i]`.
fn segment_lines<'a, 'py: 'a>(
    n_refs: usize,
    range: std::ops::Range<usize>,
    item: impl Fn(usize, usize) -> PyResult<Borrowed<'a, 'py, PyAny>>,
) -> PyResult<SegmentLines<'a>> {
    let hyps = (range.clone())
        .map(|i| line(item(0, i)?, false, "hypotheses", i))
        .collect::<PyResult<Vec<_>>>()?;
    let mut refs = Vec::with_capacity(n_refs);
    for k in 0..n_refs {
        let what = format!("references[{k}]");
        let lines = (range.clone())
            .map(|i| line(item(1 + k, i)?, true, &what, i))
            .collect::<PyResult<Vec<_>>>()?;
        refs.push(lines);
    }
    Ok((hyps, refs))
}

/// Each stream of `ref_streams` as `make` gives it, every one `n_segments` long (`len`).
fn reference_streams<'py, T>(
    ref_streams: &Bound<'py, PyAny>,
    n_segments: usize,
    make: impl Fn(&Bound<'py, PyAny>) -> PyResult<T>,
    len: impl Fn(&T) -> usize,
) -> PyResult<Vec<T>> {
    let mut streams = Vec::new();
    for (k, stream) in items(ref_streams)?.iter().enumerate() {
        let stream = make(stream)?;
        if len(&stream) != n_segments {
            return Err(invalid(format!(
                "reference stream {k} has {} lines, the hypotheses have {n_segments}",
                len(&stream)
            )));
        }
        streams.push(stream);
    }
    Ok(streams)
}

/// The items of a list (read in place, each referenced when it is read) or of anything else (as a tuple).
enum Items<'py> {
    List(Bound<'py, PyList>),
    Tuple(Bound<'py, PyTuple>),
}

impl<'py> Items<'py> {
    fn new(obj: &Bound<'py, PyAny>) -> PyResult<Self> {
        Ok(match obj.cast::<PyList>() {
            Ok(list) => Items::List(list.clone()),
            Err(_) => Items::Tuple(item_tuple(obj)?),
        })
    }

    fn len(&self) -> usize {
        match self {
            Items::List(list) => list.len(),
            Items::Tuple(tuple) => tuple.len(),
        }
    }

    fn get(&self, i: usize) -> PyResult<Bound<'py, PyAny>> {
        match self {
            Items::List(list) => list.get_item(i),
            Items::Tuple(tuple) => tuple.get_item(i),
        }
    }
}

/// Hypotheses and reference streams as [`TextInput`], read a chunk of segments at a time
/// ([`ChunkedInput::hold`]): nothing is done per item before its chunk is read, so reading overlaps
/// counting from the first chunk on.
pub(crate) struct ChunkedInput<'py> {
    hyps: Items<'py>,
    refs: Vec<Items<'py>>,
}

impl<'py> ChunkedInput<'py> {
    pub(crate) fn new(hyps: &Bound<'py, PyAny>, ref_streams: &Bound<'py, PyAny>) -> PyResult<Self> {
        let hyps = Items::new(hyps)?;
        let refs = reference_streams(ref_streams, hyps.len(), Items::new, Items::len)?;
        Ok(ChunkedInput { hyps, refs })
    }

    /// Segments.
    pub(crate) fn len(&self) -> usize {
        self.hyps.len()
    }

    /// Reference streams.
    pub(crate) fn n_refs(&self) -> usize {
        self.refs.len()
    }

    /// The items of segments `range`, referenced: they stay alive (and their lines valid) as long as
    /// the [`Held`] chunk, whatever happens to the lists meanwhile.
    pub(crate) fn hold(&self, range: std::ops::Range<usize>) -> PyResult<Held<'py>> {
        let mut items = Vec::with_capacity(range.len() * (1 + self.refs.len()));
        for stream in std::iter::once(&self.hyps).chain(&self.refs) {
            for i in range.clone() {
                items.push(stream.get(i)?);
            }
        }
        Ok(Held {
            start: range.start,
            len: range.len(),
            n_refs: self.refs.len(),
            items,
        })
    }
}

/// The items of a chunk of segments (from segment `start`), referenced by [`ChunkedInput::hold`].
pub(crate) struct Held<'py> {
    pub start: usize,
    pub len: usize,
    n_refs: usize,
    /// the hypotheses, then each reference stream's items
    items: Vec<Bound<'py, PyAny>>,
}

impl<'py> Held<'py> {
    /// Reference streams.
    pub(crate) fn n_refs(&self) -> usize {
        self.n_refs
    }

    /// The hypothesis of the chunk's segment `j`.
    pub(crate) fn hyp(&self, j: usize) -> &Bound<'py, PyAny> {
        &self.items[j]
    }

    /// Reference `k` of the chunk's segment `j`.
    pub(crate) fn reference(&self, k: usize, j: usize) -> &Bound<'py, PyAny> {
        &self.items[(1 + k) * self.len + j]
    }

    /// The chunk's lines: hypotheses, then each reference stream's (errors name the items as
    /// [`TextInput::lines`] does).
    pub(crate) fn lines(&self) -> PyResult<SegmentLines<'_>> {
        let range = self.start..self.start + self.len;
        segment_lines(self.n_refs, range, |stream, i| {
            Ok(self.items[stream * self.len + i - self.start].as_borrowed())
        })
    }
}

/// A Python item as a line: a `str` as UTF-8 ([`Line::Python`] when it is not valid UTF-8, e.g. lone
/// surrogates: only the Python tokenizer takes those), `None` as a missing line where `allow_none`;
/// `what[index]` names the item in errors.
pub(crate) fn line<'a>(
    item: Borrowed<'a, '_, PyAny>,
    allow_none: bool,
    what: &str,
    index: usize,
) -> PyResult<Line<'a>> {
    if item.cast::<PyString>().is_ok() {
        return Ok(match item.extract::<&'a str>() {
            Ok(text) => {
                if text.len() > MAX_LINE_BYTES {
                    return Err(invalid(format!(
                        "{what}[{index}] is {} bytes long; lines of at most {MAX_LINE_BYTES} bytes are supported",
                        text.len()
                    )));
                }
                Line::Text(text)
            }
            Err(_) => Line::Python,
        });
    }
    if allow_none && item.is_none() {
        return Ok(Line::Missing);
    }
    Err(wrong_type(format!(
        "{what}[{index}] must be a str{}, got {}",
        if allow_none { " or None" } else { "" },
        item.get_type().name()?
    )))
}

/// The text of lines that are all `str` and valid UTF-8 (missing ones as `None`), or None when one is not
/// (the caller then leaves the job to the Python implementation).
pub(crate) fn utf8_lines<'a>(lines: &[Line<'a>]) -> Option<Vec<Option<&'a str>>> {
    lines
        .iter()
        .map(|l| match *l {
            Line::Text(t) => Some(Some(t)),
            Line::Missing => Some(None),
            Line::Python => None,
        })
        .collect()
}

/// Hypotheses (missing ones as "") and reference streams as UTF-8 text, or None when a line is not
/// valid UTF-8 (the caller then leaves the job to the Python implementation).
pub(crate) type Texts<'a> = (Vec<&'a str>, Vec<Vec<Option<&'a str>>>);

pub(crate) fn utf8_texts<'a>(input: &'a TextInput<'_>) -> PyResult<Option<Texts<'a>>> {
    utf8_texts_of(input, 0..input.hyps.len())
}

/// [`utf8_texts`] of the segments `range`.
pub(crate) fn utf8_texts_of<'a>(
    input: &'a TextInput<'_>,
    range: std::ops::Range<usize>,
) -> PyResult<Option<Texts<'a>>> {
    let (hyp_lines, ref_lines) = input.lines(range)?;
    let Some(hyps) = utf8_lines(&hyp_lines) else {
        return Ok(None);
    };
    let mut refs = Vec::with_capacity(ref_lines.len());
    for stream in &ref_lines {
        let Some(lines) = utf8_lines(stream) else {
            return Ok(None);
        };
        refs.push(lines);
    }
    Ok(Some((
        hyps.into_iter().map(Option::unwrap_or_default).collect(),
        refs,
    )))
}

/// Appends a token list (a Python iterable of `str`) to `buf`/`spans`, `str`s that are not UTF-8 as
/// their "surrogatepass" bytes (the Python tokenizer's output for lines the core hands back).
pub(crate) fn any_tokens_into(
    tokens: &Bound<'_, PyAny>,
    buf: &mut Vec<u8>,
    spans: &mut Vec<(u32, u32)>,
) -> PyResult<()> {
    buf.clear();
    spans.clear();
    for tok in tokens.try_iter()? {
        let tok = tok?;
        let s = tok.cast::<PyString>().map_err(|_| {
            wrong_type(format!(
                "the fallback tokenizer returned a {} token, expected str",
                tok.get_type()
            ))
        })?;
        let start = buf.len();
        match s.to_str() {
            Ok(t) => buf.extend_from_slice(t.as_bytes()),
            Err(_) => {
                let b = s.call_method1("encode", ("utf-8", "surrogatepass"))?;
                buf.extend_from_slice(b.cast::<PyBytes>()?.as_bytes());
            }
        }
        if buf.len() > MAX_LINE_BYTES {
            return Err(invalid(
                "a tokenized line is longer than the supported size",
            ));
        }
        spans.push((start as u32, buf.len() as u32));
    }
    Ok(())
}

/// Appends the UTF-8 tokens of `tokens` (a list or tuple of exact `str`) to `buf`/`spans`; false if it
/// is anything else (a token of another type, a `str` subclass, a string that is not UTF-8).
pub(crate) fn exact_str_tokens_into(
    tokens: &Bound<'_, PyAny>,
    buf: &mut Vec<u8>,
    spans: &mut Vec<(u32, u32)>,
) -> bool {
    let items = if let Ok(list) = tokens.cast_exact::<PyList>() {
        list.as_sequence().clone()
    } else if let Ok(tuple) = tokens.cast_exact::<PyTuple>() {
        tuple.as_sequence().clone()
    } else {
        return false;
    };
    let Ok(n) = items.len() else { return false };
    for j in 0..n {
        let Ok(tok) = items.get_item(j) else {
            return false;
        };
        let Ok(s) = tok.cast_exact::<PyString>() else {
            return false;
        };
        let Ok(text) = s.to_str() else { return false };
        let start = buf.len();
        buf.extend_from_slice(text.as_bytes());
        if buf.len() > u32::MAX as usize {
            return false;
        }
        spans.push((start as u32, buf.len() as u32));
    }
    true
}

/// The data of a numpy array, which must be C-contiguous.
pub(crate) fn contiguous<'a, T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &'a numpy::PyReadonlyArray<'_, T, D>,
    what: &str,
) -> PyResult<&'a [T]> {
    array
        .as_slice()
        .map_err(|_| invalid(format!("{what} must be a C-contiguous array")))
}

/// Lines of token ids back to back (`ids`) with their lengths: line i is `ids[offsets[i]..offsets[i + 1]]`.
pub(crate) struct IdStream<'a> {
    pub ids: &'a [u64],
    pub lens: Vec<usize>,
    pub offsets: Vec<usize>,
}

impl<'a> IdStream<'a> {
    /// Checks that the lengths are not negative and add up to the number of ids.
    pub(crate) fn new(
        ids: &'a PyReadonlyArray1<'_, u64>,
        lengths: &PyReadonlyArray1<'_, i64>,
        what: &str,
    ) -> PyResult<Self> {
        let ids = contiguous(ids, &format!("{what}: the ids"))?;
        let lengths = contiguous(lengths, &format!("{what}: the lengths"))?;
        let mut lens = Vec::with_capacity(lengths.len());
        let mut offsets = Vec::with_capacity(lengths.len() + 1);
        offsets.push(0usize);
        let mut total = 0usize;
        for (i, &len) in lengths.iter().enumerate() {
            let len = usize::try_from(len)
                .map_err(|_| invalid(format!("{what}: length {len} of segment {i} is negative")))?;
            total = total.saturating_add(len);
            lens.push(len);
            offsets.push(total);
        }
        if total != ids.len() {
            return Err(invalid(format!(
                "{what}: the lengths add up to {total}, but there are {} ids",
                ids.len()
            )));
        }
        Ok(IdStream { ids, lens, offsets })
    }

    pub(crate) fn len(&self) -> usize {
        self.lens.len()
    }

    pub(crate) fn segment(&self, i: usize) -> &'a [u64] {
        &self.ids[self.offsets[i]..self.offsets[i + 1]]
    }

    pub(crate) fn lines(&self) -> bleuscope_core::pairwise::IdLines<'_> {
        bleuscope_core::pairwise::IdLines {
            ids: self.ids,
            lens: &self.lens,
        }
    }
}

/// The shape of a numpy array, for the shape checks of the bindings.
pub(crate) fn shape<T: numpy::Element, D: numpy::ndarray::Dimension>(
    array: &numpy::PyReadonlyArray<'_, T, D>,
) -> Vec<usize> {
    array.shape().to_vec()
}
