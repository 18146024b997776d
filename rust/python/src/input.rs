//! The one input reader: Python objects (lists of `str`, token lists, numpy arrays) read as the slices
//! and lines the core takes, with the checks and error messages every binding shares. ASCII text is read
//! in place (`str` data as UTF-8 through the stable ABI, no copy); other text is written as UTF-8 into the
//! reader's own buffer, freed with the lines: asking CPython for it in place would make it keep a UTF-8
//! copy inside every such `str` for as long as the caller's strings live (as much memory again as the
//! text). The reader takes that text from the `str`'s code units where it knows their layout (the state
//! bits and the fixed fields of CPython 3.10 to 3.14, checked at first use against strings of every kind,
//! [`layout_check`]), else from CPython's UTF-8 encoder into a temporary `bytes`.

use bleuscope_core::text::Line;
use numpy::{PyReadonlyArray1, PyUntypedArrayMethods};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString, PyTuple};
use pyo3::Borrowed;
use std::mem::MaybeUninit;
use std::sync::OnceLock;

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
    pub(crate) fn read(&self, range: std::ops::Range<usize>) -> PyResult<ReadLines<'_>> {
        segment_lines(
            self.refs.len(),
            range,
            |stream, i| match stream {
                0 => self.hyps.get_borrowed_item(i),
                _ => self.refs[stream - 1].get_borrowed_item(i),
            },
            0,
        )
    }

    /// The lines of every segment.
    pub(crate) fn read_all(&self) -> PyResult<ReadLines<'_>> {
        self.read(0..self.hyps.len())
    }

    /// The hypotheses of every segment (as lines with no reference streams).
    pub(crate) fn read_hyps(&self) -> PyResult<ReadLines<'_>> {
        segment_lines(
            0,
            0..self.hyps.len(),
            |_, i| self.hyps.get_borrowed_item(i),
            0,
        )
    }
}

/// The lines of some segments: the hypotheses', then each reference stream's.
pub(crate) type SegmentLines<'a> = (Vec<Line<'a>>, Vec<Vec<Line<'a>>>);

/// A line as read from Python: in place, or at a range of the reader's own UTF-8 text.
#[derive(Clone, Copy)]
enum Read<'a> {
    Line(Line<'a>),
    Copied(usize, usize),
}

impl<'a> Read<'a> {
    fn line(self, text: &'a str) -> Line<'a> {
        match self {
            Read::Line(line) => line,
            Read::Copied(start, end) => Line::Text(&text[start..end]),
        }
    }
}

/// The lines of some segments as read from Python (hypotheses, then each reference stream's) with the
/// text encoded for them; it owns that text, so it can go to another thread and free it there.
pub(crate) struct ReadLines<'a> {
    hyps: Vec<Read<'a>>,
    refs: Vec<Vec<Read<'a>>>,
    text: String,
}

impl<'a> ReadLines<'a> {
    /// The lines: hypotheses, then each reference stream's.
    pub(crate) fn lines(&self) -> SegmentLines<'_> {
        let text = self.text.as_str();
        let lines = |reads: &[Read<'a>]| reads.iter().map(|r| r.line(text)).collect();
        (
            lines(&self.hyps),
            self.refs.iter().map(|s| lines(s)).collect(),
        )
    }

    /// Segments.
    pub(crate) fn len(&self) -> usize {
        self.hyps.len()
    }

    /// Bytes of text copied for the lines.
    pub(crate) fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The hypothesis of segment `j`.
    pub(crate) fn hyp(&self, j: usize) -> Line<'_> {
        self.hyps[j].line(&self.text)
    }

    /// Whether every line is text or missing (none needs the Python tokenizer).
    pub(crate) fn all_utf8(&self) -> bool {
        let python = |r: &Read<'_>| matches!(r, Read::Line(Line::Python));
        !self
            .hyps
            .iter()
            .chain(self.refs.iter().flatten())
            .any(python)
    }

    /// The first segment whose reference of stream `k` is missing.
    pub(crate) fn first_missing_reference(&self, k: usize) -> Option<usize> {
        self.refs[k]
            .iter()
            .position(|r| matches!(r, Read::Line(Line::Missing)))
    }

    /// How many references segment `j` has.
    pub(crate) fn present_refs(&self, j: usize) -> usize {
        let missing = |r: &Read<'_>| matches!(r, Read::Line(Line::Missing));
        self.refs.iter().filter(|s| !missing(&s[j])).count()
    }

    /// Hypotheses (missing ones as "") and reference streams as UTF-8 text, or None when a line is not
    /// valid UTF-8 (the caller then leaves the job to the Python implementation).
    pub(crate) fn utf8_texts(&self) -> Option<Texts<'_>> {
        let (hyp_lines, ref_lines) = self.lines();
        let hyps = utf8_lines(&hyp_lines)?;
        let refs = ref_lines
            .iter()
            .map(|stream| utf8_lines(stream))
            .collect::<Option<Vec<_>>>()?;
        Some((
            hyps.into_iter().map(Option::unwrap_or_default).collect(),
            refs,
        ))
    }
}

/// The lines of segments `range` of the hypotheses (stream 0) and `n_refs` reference streams (1 on),
/// `item(stream, segment)` giving each item; errors name an item as `hypotheses[i]` or `references[k][i]`.
fn segment_lines<'a, 'py: 'a>(
    n_refs: usize,
    range: std::ops::Range<usize>,
    item: impl Fn(usize, usize) -> PyResult<Borrowed<'a, 'py, PyAny>>,
    text_hint: usize,
) -> PyResult<ReadLines<'a>> {
    let mut text = String::with_capacity(text_hint);
    let hyps = (range.clone())
        .map(|i| read_line(item(0, i)?, false, "hypotheses", i, &mut text))
        .collect::<PyResult<Vec<_>>>()?;
    let mut refs = Vec::with_capacity(n_refs);
    for k in 0..n_refs {
        let what = format!("references[{k}]");
        let lines = (range.clone())
            .map(|i| read_line(item(1 + k, i)?, true, &what, i, &mut text))
            .collect::<PyResult<Vec<_>>>()?;
        refs.push(lines);
    }
    Ok(ReadLines { hyps, refs, text })
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
    /// [`TextInput::read`] does).
    /// `text_hint`: bytes to make room for at once (a guess at the text to copy, e.g. the last chunk's).
    pub(crate) fn read(&self, text_hint: usize) -> PyResult<ReadLines<'_>> {
        let range = self.start..self.start + self.len;
        segment_lines(
            self.n_refs,
            range,
            |stream, i| Ok(self.items[stream * self.len + i - self.start].as_borrowed()),
            text_hint,
        )
    }
}

/// A Python item as a line: a `str` as UTF-8 ([`Line::Python`] when it is not valid UTF-8, e.g. lone
/// surrogates: only the Python tokenizer takes those), `None` as a missing line where `allow_none`;
/// `what[index]` names the item in errors. ASCII text is read in place, other text is appended to `text`.
fn read_line<'a>(
    item: Borrowed<'a, '_, PyAny>,
    allow_none: bool,
    what: &str,
    index: usize,
    text: &mut String,
) -> PyResult<Read<'a>> {
    if let Ok(s) = item.cast::<PyString>() {
        let start = text.len();
        let (read, len) = match code_units(&s) {
            Units::Ascii => match item.extract::<&'a str>() {
                Ok(t) => (Read::Line(Line::Text(t)), t.len()),
                Err(_) => (Read::Line(Line::Python), 0),
            },
            units => {
                if push_copy(&s, units, text) {
                    (Read::Copied(start, text.len()), text.len() - start)
                } else {
                    (Read::Line(Line::Python), 0)
                }
            }
        };
        if len > MAX_LINE_BYTES {
            return Err(invalid(format!(
                "{what}[{index}] is {len} bytes long; lines of at most {MAX_LINE_BYTES} bytes are supported"
            )));
        }
        return Ok(read);
    }
    if allow_none && item.is_none() {
        return Ok(Read::Line(Line::Missing));
    }
    Err(wrong_type(format!(
        "{what}[{index}] must be a str{}, got {}",
        if allow_none { " or None" } else { "" },
        item.get_type().name()?
    )))
}

/// Appends the text of `item` to `text` as UTF-8 when it is a `str` of valid UTF-8, read as
/// [`read_line`] reads it (no UTF-8 copy left inside the `str`); false otherwise (nothing appended).
pub(crate) fn push_str_text(item: Borrowed<'_, '_, PyAny>, text: &mut String) -> bool {
    let Ok(s) = item.cast::<PyString>() else {
        return false;
    };
    match code_units(&s) {
        Units::Ascii => match item.extract::<&str>() {
            Ok(t) => {
                text.push_str(t);
                true
            }
            Err(_) => false,
        },
        units => push_copy(&s, units, text),
    }
}

/// Appends the text of a `str` that is not read in place (its code units, or CPython's encoding of it)
/// to `text` as UTF-8; false, having appended nothing, when it is not valid UTF-8 (a surrogate).
fn push_copy(s: &Borrowed<'_, '_, PyString>, units: Units<'_>, text: &mut String) -> bool {
    match units {
        Units::Wide(units) => units.push_utf8(text),
        Units::Ascii | Units::Unknown => match s.encode_utf8() {
            Ok(bytes) => {
                // SAFETY: CPython's strict UTF-8 encoder only returns valid UTF-8
                text.push_str(unsafe { std::str::from_utf8_unchecked(bytes.as_bytes()) });
                true
            }
            Err(_) => false,
        },
    }
}

/// Lines of Python items (each a `str`, named `what[i]` in errors), as [`read_line`] reads them.
pub(crate) fn read_items<'a>(items: &'a [Bound<'_, PyAny>], what: &str) -> PyResult<ReadLines<'a>> {
    let mut text = String::new();
    let hyps = items
        .iter()
        .enumerate()
        .map(|(i, item)| read_line(item.as_borrowed(), false, what, i, &mut text))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(ReadLines {
        hyps,
        refs: Vec::new(),
        text,
    })
}

/// How a `str` holds its text, as far as this reader knows.
enum Units<'a> {
    /// ASCII: its text is UTF-8 in place, and reading it so leaves nothing behind
    Ascii,
    /// the code units of a compact `str` that is not ASCII
    Wide(Wide<'a>),
    /// a `str` of a layout not checked here (a subclass's, or any on an interpreter not checked)
    Unknown,
}

/// The code units of a `str` (PEP 393: one byte, two or four per character).
enum Wide<'a> {
    Latin1(&'a [u8]),
    Ucs2(&'a [u16]),
    Ucs4(&'a [u32]),
}

impl Wide<'_> {
    /// Appends the text as UTF-8 to `text`; false (having appended nothing) at a surrogate, which UTF-8
    /// cannot hold.
    fn push_utf8(&self, text: &mut String) -> bool {
        match *self {
            Wide::Latin1(units) => push_ascii_runs(text, units, 2),
            Wide::Ucs2(units) => push_ascii_runs(text, units, 3),
            Wide::Ucs4(units) => push_units(text, units, 4),
        }
    }
}

/// Code units that [`push_ascii_runs`] tests and stores 16 at a time.
trait Units16: Copy + Into<u32> {
    /// Writes `units[i..i + 16]` (in bounds) to `out[..16]` as bytes (meaningful where a unit is
    /// ASCII); returns the mask of those that are not ASCII (bit k: unit `i + k`).
    fn store16(units: &[Self], i: usize, out: &mut [MaybeUninit<u8>]) -> u32;
}

#[cfg(target_arch = "x86_64")]
impl Units16 for u8 {
    #[inline(always)]
    fn store16(units: &[u8], i: usize, out: &mut [MaybeUninit<u8>]) -> u32 {
        use std::arch::x86_64::*;
        let (src, dst) = (&units[i..i + 16], &mut out[..16]);
        // SAFETY: SSE2 is in the x86-64 baseline; both slices are 16 bytes long
        unsafe {
            let x = _mm_loadu_si128(src.as_ptr().cast());
            _mm_storeu_si128(dst.as_mut_ptr().cast(), x);
            _mm_movemask_epi8(x) as u32
        }
    }
}

#[cfg(target_arch = "x86_64")]
impl Units16 for u16 {
    #[inline(always)]
    fn store16(units: &[u16], i: usize, out: &mut [MaybeUninit<u8>]) -> u32 {
        use std::arch::x86_64::*;
        let (src, dst) = (&units[i..i + 16], &mut out[..16]);
        // SAFETY: SSE2 is in the x86-64 baseline; `src` is 32 bytes long, `dst` 16
        unsafe {
            let a = _mm_loadu_si128(src.as_ptr().cast());
            let b = _mm_loadu_si128(src.as_ptr().add(8).cast());
            // the low byte of each unit (saturated where it is above 255: not ASCII, not kept)
            _mm_storeu_si128(dst.as_mut_ptr().cast(), _mm_packus_epi16(a, b));
            let high = _mm_set1_epi16(0xff80u16 as i16);
            let zero = _mm_setzero_si128();
            let ascii_a = _mm_cmpeq_epi16(_mm_and_si128(a, high), zero);
            let ascii_b = _mm_cmpeq_epi16(_mm_and_si128(b, high), zero);
            !(_mm_movemask_epi8(_mm_packs_epi16(ascii_a, ascii_b)) as u32) & 0xffff
        }
    }
}

#[cfg(not(target_arch = "x86_64"))]
impl<T: Copy + Into<u32>> Units16 for T {
    #[inline(always)]
    fn store16(units: &[T], i: usize, out: &mut [MaybeUninit<u8>]) -> u32 {
        let mut not_ascii = 0;
        for (k, &u) in units[i..i + 16].iter().enumerate() {
            let c: u32 = u.into();
            out[k].write(c as u8);
            not_ascii |= u32::from(c >= 0x80) << k;
        }
        not_ascii
    }
}

/// [`push_units`] for text that is mostly ASCII between other characters (as most languages written in
/// Latin letters): 16 code units are stored at a time as bytes, and where some are not ASCII the ASCII
/// ones before the first are kept, that character is encoded and the next 16 start after it.
fn push_ascii_runs<T: Units16>(text: &mut String, units: &[T], max_bytes: usize) -> bool {
    // SAFETY: only complete UTF-8 sequences of characters are committed to the string (set_len at the
    // end, after every code point is checked)
    let bytes = unsafe { text.as_mut_vec() };
    bytes.reserve(max_bytes * units.len());
    // `n <= max_bytes * i` and `max_bytes >= 2`, so the 16 bytes stored for units `i..i + 16` fit
    let spare = &mut bytes.spare_capacity_mut()[..max_bytes * units.len()];
    let (mut n, mut i) = (0, 0);
    while i + 16 <= units.len() {
        let not_ascii = T::store16(units, i, &mut spare[n..]);
        if not_ascii == 0 {
            n += 16;
            i += 16;
            continue;
        }
        let k = not_ascii.trailing_zeros() as usize;
        n += k;
        i += k;
        if !push_slow(spare, &mut n, &units[i..i + 1]) {
            return false;
        }
        i += 1;
    }
    if !push_slow(spare, &mut n, &units[i..]) {
        return false;
    }
    let len = bytes.len() + n;
    // SAFETY: the first `n` spare bytes were written above
    unsafe { bytes.set_len(len) };
    true
}

/// Appends code points (`units`, each at most `max_bytes` long in UTF-8) to `text` as UTF-8; false,
/// having appended nothing, at one that is not a character (a surrogate).
fn push_units<T: Copy + Into<u32>>(text: &mut String, units: &[T], max_bytes: usize) -> bool {
    // SAFETY: only complete UTF-8 sequences of characters are committed to the string (set_len at the
    // end, after every code point is checked)
    let bytes = unsafe { text.as_mut_vec() };
    bytes.reserve(max_bytes * units.len());
    let spare = &mut bytes.spare_capacity_mut()[..max_bytes * units.len()];
    let mut n = 0;
    // runs of ASCII eight code units at a time (most text of most languages is ASCII between letters)
    let mut chunks = units.chunks_exact(8);
    for chunk in chunks.by_ref() {
        if chunk.iter().fold(0u32, |m, &u| m | u.into()) < 0x80 {
            for (k, &u) in chunk.iter().enumerate() {
                spare[n + k].write(u.into() as u8);
            }
            n += 8;
        } else if !push_slow(spare, &mut n, chunk) {
            return false;
        }
    }
    if !push_slow(spare, &mut n, chunks.remainder()) {
        return false;
    }
    let len = bytes.len() + n;
    // SAFETY: the first `n` spare bytes were written above
    unsafe { bytes.set_len(len) };
    true
}

/// [`push_units`] one code point at a time, from `spare[*n]` on.
fn push_slow<T: Copy + Into<u32>>(
    spare: &mut [MaybeUninit<u8>],
    n: &mut usize,
    units: &[T],
) -> bool {
    for &unit in units {
        let c: u32 = unit.into();
        if c < 0x80 {
            spare[*n].write(c as u8);
            *n += 1;
        } else if c < 0x800 {
            spare[*n].write(0xc0 | (c >> 6) as u8);
            spare[*n + 1].write(0x80 | (c & 0x3f) as u8);
            *n += 2;
        } else if c < 0x10000 {
            if (0xd800..0xe000).contains(&c) {
                return false;
            }
            spare[*n].write(0xe0 | (c >> 12) as u8);
            spare[*n + 1].write(0x80 | ((c >> 6) & 0x3f) as u8);
            spare[*n + 2].write(0x80 | (c & 0x3f) as u8);
            *n += 3;
        } else if c < 0x110000 {
            spare[*n].write(0xf0 | (c >> 18) as u8);
            spare[*n + 1].write(0x80 | ((c >> 12) & 0x3f) as u8);
            spare[*n + 2].write(0x80 | ((c >> 6) & 0x3f) as u8);
            spare[*n + 3].write(0x80 | (c & 0x3f) as u8);
            *n += 4;
        } else {
            return false;
        }
    }
    true
}

/// `state.kind` (3 bits from bit 2), `state.compact` and `state.ascii` of a `str`'s state word.
const KIND_SHIFT: u32 = 2;
const COMPACT_BIT: u32 = 1 << 5;
const ASCII_BIT: u32 = 1 << 6;

/// Where a compact `str` that is not ASCII (PyCompactUnicodeObject) has its code units, in pointer-sized
/// words from its start, as the CPython headers of the versions checked here lay it out: the object
/// header (2), length, hash, the state bits (padded to a word), then 3.10 and 3.11 a `wstr` pointer,
/// then `utf8_length`, `utf8` and (3.10, 3.11) `wstr_length`.
fn compact_data_words(version: (u8, u8)) -> Option<usize> {
    match version {
        (3, 10 | 11) => Some(9),
        (3, 12..=14) => Some(7),
        _ => None,
    }
}

/// How `s` holds its text ([`Units`]), from its state bits and, for a compact `str` that is not ASCII, its
/// code units after the fixed fields; where [`layout_check`] found this layout at first use.
fn code_units<'a>(s: &Borrowed<'a, '_, PyString>) -> Units<'a> {
    static DATA_WORDS: OnceLock<Option<usize>> = OnceLock::new();
    let Some(words) = *DATA_WORDS.get_or_init(|| layout_check(s.py())) else {
        return Units::Unknown;
    };
    units_at(s, words)
}

/// [`code_units`] with the code units `words` words into a compact `str` that is not ASCII.
fn units_at<'a>(s: &Borrowed<'a, '_, PyString>, words: usize) -> Units<'a> {
    let word = state_word(s);
    if word & ASCII_BIT != 0 {
        return Units::Ascii;
    }
    if word & COMPACT_BIT == 0 {
        return Units::Unknown;
    }
    // SAFETY: a `str` (PyObject_Size cannot fail on one)
    let len = unsafe { pyo3::ffi::PyUnicode_GetLength(s.as_ptr()) };
    let len = usize::try_from(len).unwrap_or(0);
    // SAFETY: a compact `str` holds its `len` code units of `kind` bytes each right after its fixed
    // fields (checked at first use, [`layout_check`]), aligned for them; `s` is referenced for 'a and a
    // `str` never changes its text, so they stay valid and unchanged for 'a
    unsafe {
        let data = s.as_ptr().cast::<usize>().add(words).cast::<u8>();
        Units::Wide(match (word >> KIND_SHIFT) & 7 {
            1 => Wide::Latin1(std::slice::from_raw_parts(data, len)),
            2 => Wide::Ucs2(std::slice::from_raw_parts(data.cast::<u16>(), len)),
            4 => Wide::Ucs4(std::slice::from_raw_parts(data.cast::<u32>(), len)),
            _ => return Units::Unknown,
        })
    }
}

/// The word of a `str`'s `state` bit fields: after the object header (reference count and type) and the
/// length and hash fields, each pointer-sized.
fn state_word(s: &Borrowed<'_, '_, PyString>) -> u32 {
    // SAFETY: every `str` object (PyASCIIObject and the larger layouts that begin with it) is at least
    // four pointer-sized fields and the 4-byte aligned state word long; `s` is referenced, so alive
    unsafe {
        s.as_ptr()
            .cast::<u8>()
            .add(4 * size_of::<usize>())
            .cast::<u32>()
            .read()
    }
}

/// Where this interpreter's compact `str`s that are not ASCII have their code units, if it is a version
/// whose layout is known here and strings of every kind read right with it (kind, compact and ASCII bits,
/// every code unit); else None, and every `str` that is not ASCII is encoded by CPython.
fn layout_check(py: Python<'_>) -> Option<usize> {
    let version = py.version_info();
    if !cfg!(target_endian = "little") {
        return None;
    }
    let words = compact_data_words((version.major, version.minor))?;
    let samples = [
        "plain ascii text",
        "",
        "Gr\u{fc}\u{df}e \u{ff}",
        "\u{20ac} 5 \u{3042}",
        "\u{1f600}! \u{10ffff}",
    ];
    let right = samples.iter().all(|&sample| {
        let s = PyString::new(py, sample);
        let s = s.as_borrowed();
        let widest = sample.chars().map(u32::from).max().unwrap_or(0);
        let kind = match widest {
            0..=0xff => 1,
            0x100..=0xffff => 2,
            _ => 4,
        };
        let word = state_word(&s);
        if (word >> KIND_SHIFT) & 7 != kind || word & COMPACT_BIT == 0 {
            return false;
        }
        match units_at(&s, words) {
            Units::Ascii => sample.is_ascii(),
            Units::Wide(units) => {
                let mut text = String::new();
                !sample.is_ascii() && units.push_utf8(&mut text) && text == sample
            }
            Units::Unknown => false,
        }
    });
    right.then_some(words)
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

/// Hypotheses (missing ones as "") and reference streams as UTF-8 text.
pub(crate) type Texts<'a> = (Vec<&'a str>, Vec<Vec<Option<&'a str>>>);

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
