//! The string metrics of `bleuscope._core`: GLEU rows, Self-BLEU, CharacTER and EED values. Segments are
//! Python `str`s (split as `str.split()` does) or token lists of exact `str`s, copied once into one buffer
//! so that the core works without the GIL; a function returns None when an item is neither (a token of
//! another type, a string that is not UTF-8) and the Python implementation then does the job.

use bleuscope_core::character::{self, character_values as core_character};
use bleuscope_core::eed::{self, eed_values as core_eed, preprocess_en, Parameters};
use bleuscope_core::gleu::{self, gleu_rows_by, split_spans};
use bleuscope_core::selfbleu::{leave_one_out_counts, self_bleu_scores, Smoothing};
use bleuscope_core::tok::Tokenizer;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};
use pyo3::Borrowed;

use crate::errors::{detached, invalid};
use crate::input::{items, push_str_text, TextInput};

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
        if item.cast::<PyString>().is_ok() {
            let start = self.buf.len();
            if !push_str_text(item.as_borrowed(), &mut self.buf) {
                return Ok(None);
            }
            self.check_size()?;
            split_spans(&self.buf, start, self.buf.len(), &mut self.spans);
            return Ok(Some((first, self.spans.len())));
        }
        Ok(self
            .push_sequence(item)?
            .then_some((first, self.spans.len())))
    }

    /// Appends the tokens of a list or tuple of exact `str`s; false when `item` is not one (some tokens
    /// may have been appended then).
    fn push_sequence(&mut self, item: &Bound<'_, PyAny>) -> PyResult<bool> {
        let obj = item.as_ptr();
        // SAFETY: `item` is alive and the GIL held; its items are read by borrowed references while no
        // Python code runs
        unsafe {
            let Some((len, get)) = list_or_tuple(obj) else {
                return Ok(false);
            };
            for j in 0..len {
                let tok = Borrowed::from_ptr(item.py(), get(obj, j));
                let start = self.buf.len();
                if !push_exact_str(tok, &mut self.buf) {
                    return Ok(false);
                }
                self.check_size()?;
                self.spans.push((start as u32, self.buf.len() as u32));
            }
        }
        Ok(true)
    }

    fn check_size(&self) -> PyResult<()> {
        if self.buf.len() > u32::MAX as usize {
            return Err(invalid("the text of the segments is longer than 4 GiB"));
        }
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

/// A segment's item as gathered: raw text (a byte range of [`Gathered::buf`], split or tokenized when it
/// is counted) or tokens (a range of [`Gathered::spans`]).
#[derive(Clone, Copy)]
enum Piece {
    Text(u32, u32),
    Tokens(u32, u32),
}

/// Every segment's items copied out of the Python objects (hypothesis first, then the references
/// present), so that counting runs without the GIL.
#[derive(Default)]
struct Gathered {
    tokens: Tokens,
    pieces: Vec<Piece>,
    /// segment `i`'s pieces are `pieces[bounds[i]..bounds[i + 1]]`
    bounds: Vec<u32>,
}

/// Appends the text of `obj` to `buf` when it is an exact `str` of valid UTF-8 (false otherwise, nothing
/// appended): read without leaving a UTF-8 copy inside the `str`. The caller holds the GIL and keeps
/// `obj` alive.
#[inline]
fn push_exact_str(obj: Borrowed<'_, '_, PyAny>, buf: &mut String) -> bool {
    obj.is_exact_instance_of::<PyString>() && push_str_text(obj, buf)
}

impl Gathered {
    /// Appends `item`: a `str` (unless `strings` is false) as text, a list or tuple of exact `str`s as
    /// tokens; false when it is neither (or not UTF-8).
    fn push(&mut self, item: &Bound<'_, PyAny>, strings: bool) -> PyResult<bool> {
        if item.is_exact_instance_of::<PyString>() {
            let start = self.tokens.buf.len();
            if !strings || !push_str_text(item.as_borrowed(), &mut self.tokens.buf) {
                return Ok(false);
            }
            self.tokens.check_size()?;
            self.pieces
                .push(Piece::Text(start as u32, self.tokens.buf.len() as u32));
            return Ok(true);
        }
        let first = self.tokens.spans.len();
        if !self.tokens.push_sequence(item)? {
            return Ok(false);
        }
        self.pieces
            .push(Piece::Tokens(first as u32, self.tokens.spans.len() as u32));
        Ok(true)
    }

    fn end_segment(&mut self) {
        if self.bounds.is_empty() {
            self.bounds.push(0);
        }
        self.bounds.push(self.pieces.len() as u32);
    }

    fn len(&self) -> usize {
        self.bounds.len().saturating_sub(1)
    }

    /// Segment `i`'s words into `out` (over this buffer), a part per piece: tokens as they are, text
    /// split like `str.split()` or, with `tok`, as the compiled tokenizer gives them; false when the
    /// tokenizer leaves a line to Python.
    fn fill(
        &self,
        i: usize,
        tok: Option<(Tokenizer, bool)>,
        out: &mut gleu::SegmentWords<'_>,
    ) -> bool {
        for piece in &self.pieces[self.bounds[i] as usize..self.bounds[i + 1] as usize] {
            match (*piece, tok) {
                (Piece::Tokens(a, b), _) => out.push_tokens(a, b),
                (Piece::Text(a, b), None) => out.push_split(a, b),
                (Piece::Text(a, b), Some((tok, lowercase))) => {
                    let text = &self.tokens.buf[a as usize..b as usize];
                    let ok = TOK_SCRATCH.with(|cell| {
                        let (buf, spans) = &mut *cell.borrow_mut();
                        let ok = tok.tokenize(text, lowercase, buf, spans).is_ok();
                        if ok {
                            out.push_words_of(buf, spans);
                        }
                        ok
                    });
                    if !ok {
                        return false;
                    }
                }
            }
        }
        true
    }
}

thread_local! {
    /// The compiled tokenizer's output buffers of this thread.
    static TOK_SCRATCH: std::cell::RefCell<(String, Vec<(u32, u32)>)> = Default::default();
}

/// Hypotheses and reference streams (`ref_streams[k][i]`, None: absent) gathered; None when an item
/// needs the Python implementation.
fn gather_streams(
    hyps: &Bound<'_, PyAny>,
    ref_streams: &Bound<'_, PyAny>,
) -> PyResult<Option<Gathered>> {
    let input = TextInput::new(hyps, ref_streams)?;
    let mut g = Gathered::default();
    for i in 0..input.hyps.len() {
        let h = input.hyps.get_borrowed_item(i)?;
        if !g.push(&h, true)? {
            return Ok(None);
        }
        for stream in &input.refs {
            let r = stream.get_borrowed_item(i)?;
            if !r.is_none() && !g.push(&r, true)? {
                return Ok(None);
            }
        }
        g.end_segment();
    }
    Ok(Some(g))
}

/// NLTK's layout gathered: hypotheses and, per hypothesis, a list of references, all token lists (a
/// `str` is a sequence of characters to NLTK: None, for the Python implementation).
fn gather_lists(
    hypotheses: &Bound<'_, PyAny>,
    list_of_references: &Bound<'_, PyAny>,
) -> PyResult<Option<Gathered>> {
    let hyps = items(hypotheses)?;
    let refs = items(list_of_references)?;
    if refs.len() != hyps.len() {
        return Err(invalid(format!(
            "list_of_references has {} entries, hypotheses has {}",
            refs.len(),
            hyps.len()
        )));
    }
    let mut g = Gathered::default();
    for (h, rs) in hyps.iter().zip(&refs) {
        if !g.push(h, false)? {
            return Ok(None);
        }
        let ok = if let Ok(list) = rs.cast_exact::<PyList>() {
            let mut ok = true;
            for r in list.iter() {
                ok = ok && g.push(&r, false)?;
            }
            ok
        } else if let Ok(tuple) = rs.cast_exact::<PyTuple>() {
            let mut ok = true;
            for r in tuple.iter_borrowed() {
                ok = ok && g.push(&r, false)?;
            }
            ok
        } else {
            false
        };
        if !ok {
            return Ok(None);
        }
        g.end_segment();
    }
    Ok(Some(g))
}

/// `state.compact` and `state.ascii` of a `str`'s state word (the fourth pointer-sized field on).
const COMPACT_ASCII: u32 = (1 << 5) | (1 << 6);

/// The state word of the `str` at `obj`.
///
/// # Safety
/// `obj` is a live `str`.
#[inline(always)]
unsafe fn state_word(obj: *mut ffi::PyObject) -> u32 {
    // SAFETY: every `str` is at least four pointer-sized fields and the 4-byte state word long
    unsafe {
        obj.cast::<u8>()
            .add(4 * size_of::<usize>())
            .cast::<u32>()
            .read()
    }
}

/// Where a compact ASCII `str` holds its text, in bytes from its start, on this interpreter (found
/// once, from where CPython itself says the text is: its UTF-8 of such a `str` is the text in place), or
/// None: then every token is copied.
fn ascii_offset(py: Python<'_>) -> Option<usize> {
    static OFFSET: std::sync::OnceLock<Option<usize>> = std::sync::OnceLock::new();
    *OFFSET.get_or_init(|| {
        if !cfg!(target_endian = "little") {
            return None;
        }
        let probe = |text: &str| -> Option<(u32, usize)> {
            let s = PyString::new(py, text);
            let obj = s.as_ptr();
            let mut len: ffi::Py_ssize_t = 0;
            // SAFETY: `s` is a live `str`; the GIL is held
            let data = unsafe { ffi::PyUnicode_AsUTF8AndSize(obj, &mut len) };
            if data.is_null() || len as usize != text.len() {
                return None;
            }
            // SAFETY: as above
            let state = unsafe { state_word(obj) };
            Some((state, (data as usize).wrapping_sub(obj as usize)))
        };
        let (state, offset) = probe("layout probe")?;
        let (short_state, short_offset) = probe("a")?;
        let (wide_state, _) = probe("\u{e9}t\u{e9}")?;
        let right = state & COMPACT_ASCII == COMPACT_ASCII
            && short_state & COMPACT_ASCII == COMPACT_ASCII
            && wide_state & COMPACT_ASCII != COMPACT_ASCII
            && offset == short_offset
            && (offset == 5 * size_of::<usize>() || offset == 6 * size_of::<usize>());
        right.then_some(offset)
    })
}

/// The text of `obj` where it lies when it is an exact, compact ASCII `str` (None otherwise).
///
/// # Safety
/// `obj` is a live object and stays alive, and unchanged, for `'w` (a `str` never changes its text);
/// `offset` is [`ascii_offset`]'s.
#[inline(always)]
unsafe fn ascii_in_place<'w>(obj: *mut ffi::PyObject, offset: usize) -> Option<&'w [u8]> {
    // SAFETY: `obj` is live; its state word is read only once it is known to be a `str`, and a compact
    // ASCII `str` holds its `length` (the third field) bytes at `offset`, checked at first use
    unsafe {
        if ffi::Py_TYPE(obj) != std::ptr::addr_of_mut!(ffi::PyUnicode_Type)
            || state_word(obj) & COMPACT_ASCII != COMPACT_ASCII
        {
            return None;
        }
        let len = obj.cast::<ffi::Py_ssize_t>().add(2).read() as usize;
        Some(std::slice::from_raw_parts(
            obj.cast::<u8>().add(offset),
            len,
        ))
    }
}

/// What the in-place reader keeps between segments (vectors of slices recycled per segment).
#[derive(Default)]
struct InPlace {
    /// copies of the tokens that are not ASCII, and where their words are (index, byte range)
    own: String,
    copied: Vec<(usize, u32, u32)>,
    ends: Vec<usize>,
    words: Vec<&'static [u8]>,
    t: gleu::MaskScratch,
    pieces: Vec<TextPiece>,
}

/// Why the in-place reader stopped: the input needs the gathering reader (which also raises its errors
/// and leaves to Python what the core does not count).
struct Gather;

/// Appends the tokens of a list or tuple `obj` to `words`: ASCII `str`s where they lie, others copied
/// to `own` (an empty word for now, its index and range in `copied`).
///
/// # Safety
/// The GIL is held and no Python code runs while the words are used, and they do not outlive `obj`.
unsafe fn read_tokens(
    obj: *mut ffi::PyObject,
    offset: usize,
    py: Python<'_>,
    own: &mut String,
    copied: &mut Vec<(usize, u32, u32)>,
    words: &mut Vec<&[u8]>,
) -> Result<(), Gather> {
    // SAFETY: the caller's guarantees; items are read by borrowed references
    unsafe {
        let mut read = |tok: *mut ffi::PyObject| -> Result<(), Gather> {
            if let Some(w) = ascii_in_place(tok, offset) {
                words.push(w);
                return Ok(());
            }
            let start = own.len();
            if !push_exact_str(Borrowed::from_ptr(py, tok), own) || own.len() > u32::MAX as usize {
                return Err(Gather);
            }
            copied.push((words.len(), start as u32, own.len() as u32));
            words.push(&[]);
            Ok(())
        };
        if let Some(items) = list_items(py, obj) {
            items.iter().try_for_each(|&tok| read(tok))?;
        } else if ffi::Py_TYPE(obj) == std::ptr::addr_of_mut!(ffi::PyTuple_Type) {
            (0..ffi::PyTuple_Size(obj)).try_for_each(|j| read(ffi::PyTuple_GetItem(obj, j)))?;
        } else {
            return Err(Gather);
        }
        Ok(())
    }
}

/// Whether a list's items are where this reader looks for them (`ob_item`, the fourth pointer-sized
/// field, `ob_size` the third), checked once against CPython's own accessors.
fn list_layout(py: Python<'_>) -> bool {
    static RIGHT: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *RIGHT.get_or_init(|| {
        let list = PyList::new(py, ["a", "b", "c"]).expect("a list of three strings");
        let obj = list.as_ptr();
        // SAFETY: `list` is a live list of three items; its first four fields are pointer-sized
        unsafe {
            let size = obj.cast::<ffi::Py_ssize_t>().add(2).read();
            let items = obj.cast::<*mut *mut ffi::PyObject>().add(3).read();
            size == 3
                && !items.is_null()
                && (0..3).all(|k| *items.add(k) == ffi::PyList_GetItem(obj, k as ffi::Py_ssize_t))
        }
    })
}

/// The items of an exact list, read in place where [`list_layout`] holds, else None.
///
/// # Safety
/// The GIL is held, `obj` is live, and no Python code runs while the items are used.
#[inline]
unsafe fn list_items<'a>(
    py: Python<'_>,
    obj: *mut ffi::PyObject,
) -> Option<&'a [*mut ffi::PyObject]> {
    // SAFETY: the caller's guarantees; the list's fields are read where `list_layout` found them
    unsafe {
        if ffi::Py_TYPE(obj) != std::ptr::addr_of_mut!(ffi::PyList_Type) || !list_layout(py) {
            return None;
        }
        let size = obj.cast::<ffi::Py_ssize_t>().add(2).read().max(0) as usize;
        if size == 0 {
            return Some(&[]);
        }
        let items = obj.cast::<*const *mut ffi::PyObject>().add(3).read();
        Some(std::slice::from_raw_parts(items, size))
    }
}

impl InPlace {
    /// `(tp, n_all)` of one segment of NLTK's layout (`hyp` a token list, `refs` a list or tuple of
    /// them), read where the tokens lie.
    ///
    /// # Safety
    /// The GIL is held and the objects live through the call.
    unsafe fn list_row(
        &mut self,
        py: Python<'_>,
        offset: usize,
        hyp: *mut ffi::PyObject,
        refs: *mut ffi::PyObject,
        min_len: usize,
        max_len: usize,
    ) -> Result<[i64; 2], Gather> {
        // SAFETY: the caller's guarantees; items are read by borrowed references
        unsafe {
            let Some((n_refs, get)) = list_or_tuple(refs) else {
                return Err(Gather);
            };
            let mut own = std::mem::take(&mut self.own);
            let mut copied = std::mem::take(&mut self.copied);
            let mut words = gleu::recycle(std::mem::take(&mut self.words));
            own.clear();
            copied.clear();
            self.ends.clear();
            let mut read = || -> Result<(), Gather> {
                read_tokens(hyp, offset, py, &mut own, &mut copied, &mut words)?;
                self.ends.push(words.len());
                for k in 0..n_refs {
                    read_tokens(get(refs, k), offset, py, &mut own, &mut copied, &mut words)?;
                    self.ends.push(words.len());
                }
                Ok(())
            };
            let row = read().map(|()| {
                for &(i, a, b) in &copied {
                    words[i] = &own.as_bytes()[a as usize..b as usize];
                }
                gleu::row_of_parts(&words, &self.ends, min_len, max_len, &mut self.t)
            });
            self.words = gleu::recycle(words);
            self.own = own;
            self.copied = copied;
            row
        }
    }
}

/// Byte ranges of words in a text.
type Spans = Vec<(u32, u32)>;

/// `PyList_GetItem` or `PyTuple_GetItem`: a borrowed item by index.
type GetItem = unsafe extern "C" fn(*mut ffi::PyObject, ffi::Py_ssize_t) -> *mut ffi::PyObject;

/// The length and the item getter of `obj` when it is an exact list or tuple, else None.
///
/// # Safety
/// `obj` is a live object and the GIL is held.
unsafe fn list_or_tuple(obj: *mut ffi::PyObject) -> Option<(ffi::Py_ssize_t, GetItem)> {
    // SAFETY: the caller's guarantees
    unsafe {
        let ty = ffi::Py_TYPE(obj);
        if ty == std::ptr::addr_of_mut!(ffi::PyList_Type) {
            Some((ffi::PyList_Size(obj), ffi::PyList_GetItem as GetItem))
        } else if ty == std::ptr::addr_of_mut!(ffi::PyTuple_Type) {
            Some((ffi::PyTuple_Size(obj), ffi::PyTuple_GetItem as GetItem))
        } else {
            None
        }
    }
}

/// One `str` piece of a segment as the in-place reader keeps it: its own copy of text that is not
/// ASCII, and the words the tokenizer wrote (or `str.split()`'s spans of the text).
#[derive(Default)]
struct TextPiece {
    copy: String,
    words: String,
    spans: Vec<(u32, u32)>,
}

impl InPlace {
    /// `(tp, n_all)` of one segment whose pieces (hypothesis first, then the references present) are
    /// `str`s, read where they lie when ASCII, split like `str.split()` or by `tok`.
    ///
    /// # Safety
    /// The GIL is held and the objects live through the call.
    unsafe fn text_row(
        &mut self,
        py: Python<'_>,
        offset: usize,
        pieces: &[*mut ffi::PyObject],
        tok: Option<(Tokenizer, bool)>,
        min_len: usize,
        max_len: usize,
    ) -> Result<[i64; 2], Gather> {
        if self.pieces.len() < pieces.len() {
            self.pieces.resize_with(pieces.len(), TextPiece::default);
        }
        // each piece's text and words: its own buffers, each written once, then only read
        let mut read: Vec<(&[u8], &Spans)> = Vec::with_capacity(pieces.len());
        for (&obj, piece) in pieces.iter().zip(self.pieces.iter_mut()) {
            let TextPiece { copy, words, spans } = piece;
            // SAFETY: the caller's guarantees
            let text: &str = match unsafe { ascii_in_place(obj, offset) } {
                // SAFETY: ASCII is UTF-8
                Some(bytes) => unsafe { std::str::from_utf8_unchecked(bytes) },
                None => {
                    copy.clear();
                    // SAFETY: `obj` is live and the GIL held
                    let obj = unsafe { Borrowed::from_ptr(py, obj) };
                    if !push_exact_str(obj, copy) || copy.len() > u32::MAX as usize {
                        return Err(Gather);
                    }
                    let copy: &String = copy;
                    copy
                }
            };
            spans.clear();
            let base = match tok {
                Some((tok, lowercase)) => {
                    tok.tokenize(text, lowercase, words, spans)
                        .map_err(|_| Gather)?;
                    let words: &String = words;
                    words.as_bytes()
                }
                None => {
                    split_spans(text, 0, text.len(), spans);
                    text.as_bytes()
                }
            };
            let spans: &Spans = spans;
            read.push((base, spans));
        }
        let mut words = gleu::recycle(std::mem::take(&mut self.words));
        self.ends.clear();
        for &(base, spans) in &read {
            words.extend(spans.iter().map(|&(a, b)| &base[a as usize..b as usize]));
            self.ends.push(words.len());
        }
        let row = gleu::row_of_parts(&words, &self.ends, min_len, max_len, &mut self.t);
        self.words = gleu::recycle(words);
        Ok(row)
    }
}

/// Hypotheses and reference streams of `str`s (None: absent) counted where their text lies, with the
/// GIL held (one thread): `[S, 2]` rows row-major, or `Err(Gather)` for anything else.
fn rows_in_place(
    py: Python<'_>,
    hyps: &Bound<'_, PyAny>,
    ref_streams: &Bound<'_, PyAny>,
    tok: Option<(Tokenizer, bool)>,
    min_len: usize,
    max_len: usize,
) -> Result<Vec<i64>, Gather> {
    let Some(offset) = ascii_offset(py) else {
        return Err(Gather);
    };
    let sequence = |obj: &Bound<'_, PyAny>| -> Result<Vec<*mut ffi::PyObject>, Gather> {
        if let Ok(list) = obj.cast_exact::<PyList>() {
            // SAFETY: a live list, the GIL held
            return unsafe { list_items(py, list.as_ptr()) }
                .map(<[_]>::to_vec)
                .ok_or(Gather);
        }
        if let Ok(tuple) = obj.cast_exact::<PyTuple>() {
            return Ok(tuple.iter_borrowed().map(|x| x.as_ptr()).collect());
        }
        Err(Gather)
    };
    let hyp_items = sequence(hyps)?;
    let streams_obj = sequence(ref_streams)?;
    let mut streams = Vec::with_capacity(streams_obj.len());
    for &obj in &streams_obj {
        // SAFETY: an item of a live list or tuple, the GIL held
        let stream = sequence(&unsafe { Borrowed::from_ptr(py, obj) }.to_owned())?;
        if stream.len() != hyp_items.len() {
            return Err(Gather);
        }
        streams.push(stream);
    }
    // SAFETY: the GIL is held; None is immortal while the interpreter runs
    let none = unsafe { ffi::Py_None() };
    let mut reader = InPlace::default();
    let mut out = Vec::with_capacity(2 * hyp_items.len());
    let mut pieces = Vec::with_capacity(1 + streams.len());
    for (i, &h) in hyp_items.iter().enumerate() {
        pieces.clear();
        pieces.push(h);
        pieces.extend(streams.iter().map(|s| s[i]).filter(|&r| r != none));
        // SAFETY: no Python code runs until the end of the loop, so the sequences and their items
        // stay alive and unchanged
        let row = unsafe { reader.text_row(py, offset, &pieces, tok, min_len, max_len)? };
        out.extend_from_slice(&row);
    }
    Ok(out)
}

/// NLTK's layout counted where its tokens lie, with the GIL held (no copy, one thread): `(sum tp, sum
/// n_all)` of exact lists of token lists, or `Err(Gather)` for anything else.
fn list_total_in_place(
    py: Python<'_>,
    hypotheses: &Bound<'_, PyAny>,
    list_of_references: &Bound<'_, PyAny>,
    min_len: usize,
    max_len: usize,
) -> Result<(i64, i64), Gather> {
    let (Ok(hyps), Ok(refs)) = (
        hypotheses.cast_exact::<PyList>(),
        list_of_references.cast_exact::<PyList>(),
    ) else {
        return Err(Gather);
    };
    let Some(offset) = ascii_offset(py) else {
        return Err(Gather);
    };
    if hyps.len() != refs.len() {
        return Err(Gather);
    }
    let mut reader = InPlace::default();
    let (mut tp, mut n_all) = (0i64, 0i64);
    for i in 0..hyps.len() {
        // SAFETY: the GIL is held and no Python code runs until the end of the loop, so the lists and
        // their items stay alive and unchanged; the indices are within both lists (equal lengths)
        let row = unsafe {
            let h = ffi::PyList_GetItem(hyps.as_ptr(), i as ffi::Py_ssize_t);
            let r = ffi::PyList_GetItem(refs.as_ptr(), i as ffi::Py_ssize_t);
            reader.list_row(py, offset, h, r, min_len, max_len)?
        };
        tp += row[0];
        n_all += row[1];
    }
    Ok((tp, n_all))
}

/// GLEU's counter: ``(tp, n_all)`` rows of the best reference of every segment, built once with the
/// n-gram orders and how raw strings become words (``tokenizer`` None: split like ``str.split()``; a
/// compiled tokenizer's name: as ``tokenizer(line.rstrip()).split()``, lowercased first with
/// ``lowercase``). Token lists are counted as they are. ``threads=0``: a count for the input size.
/// With ``threads`` 1, or 0 and at most [`IN_PLACE_SEGMENTS`] segments, exact lists and tuples of ``str``
/// are counted on the calling thread where their text lies (ASCII read in place, the rest copied once):
/// reading is most of the work and runs on one thread either way, so a copy for more threads only adds to
/// it. Larger inputs with ``threads`` 0, and 2 or more, copy the input and count it on that many threads
/// without the GIL, where Ctrl-C is polled.
/// The most segments an automatic thread count counts in place, holding the GIL (about 0.2 s): above it
/// the input is copied and counted without the GIL, on every core the size allows, and Ctrl-C stops it.
const IN_PLACE_SEGMENTS: usize = 100_000;

#[pyclass(frozen, module = "bleuscope._core")]
pub struct GleuCounter {
    #[pyo3(get)]
    min_len: usize,
    #[pyo3(get)]
    max_len: usize,
    #[pyo3(get)]
    tokenizer: Option<String>,
    #[pyo3(get)]
    lowercase: bool,
    #[pyo3(get)]
    threads: usize,
    tok: Option<Tokenizer>,
}

impl GleuCounter {
    /// Whether `hyps` is counted in place on the calling thread (see the class's documentation).
    fn in_place(&self, hyps: &Bound<'_, PyAny>) -> bool {
        self.threads == 1 || (self.threads == 0 && hyps.len().is_ok_and(|n| n <= IN_PLACE_SEGMENTS))
    }

    fn count(&self, py: Python<'_>, g: Gathered) -> PyResult<Option<Vec<i64>>> {
        let mut out = vec![0i64; 2 * g.len()];
        let tok = self.tok.map(|t| (t, self.lowercase));
        let (min_len, max_len, threads) = (self.min_len, self.max_len, self.threads);
        let done = detached(py, || {
            let shared = (&g.tokens.buf[..], &g.tokens.spans[..]);
            gleu_rows_by(
                shared,
                g.len(),
                min_len,
                max_len,
                threads,
                &mut out,
                |i, words| g.fill(i, tok, words),
            )
        })?;
        Ok(done.then_some(out))
    }

    /// The rows ``[S, 2]`` of gathered input, or None (input the Python implementation must count).
    fn rows_of<'py>(
        &self,
        py: Python<'py>,
        g: Option<Gathered>,
    ) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        let Some(g) = g else {
            return Ok(None);
        };
        let n = g.len();
        self.count(py, g)?
            .map(|out| PyArray1::from_vec(py, out).reshape([n, 2]))
            .transpose()
    }
}

#[pymethods]
impl GleuCounter {
    #[new]
    #[pyo3(signature = (min_len = 1, max_len = 4, tokenizer = None, lowercase = false, *, threads = 0))]
    fn new(
        min_len: usize,
        max_len: usize,
        tokenizer: Option<String>,
        lowercase: bool,
        threads: usize,
    ) -> PyResult<Self> {
        if min_len < 1 || max_len < min_len {
            return Err(invalid(format!(
                "GLEU orders must satisfy 1 <= min_len <= max_len, got {min_len} and {max_len}"
            )));
        }
        let tok = match &tokenizer {
            None => None,
            Some(name) => Some(
                Tokenizer::from_name(name)
                    .ok_or_else(|| invalid(format!("no compiled tokenizer named {name:?}")))?,
            ),
        };
        Ok(GleuCounter {
            min_len,
            max_len,
            tokenizer,
            lowercase,
            threads,
            tok,
        })
    }

    /// int64 ``[S, 2]`` of hypotheses against reference streams (None: absent); None when an item
    /// needs the Python implementation (not a string or token list of ``str``, not UTF-8, a line the
    /// tokenizer leaves to Python).
    fn rows<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        if self.in_place(hyps) {
            let tok = self.tok.map(|t| (t, self.lowercase));
            if let Ok(out) = rows_in_place(py, hyps, ref_streams, tok, self.min_len, self.max_len) {
                let n = out.len() / 2;
                return PyArray1::from_vec(py, out).reshape([n, 2]).map(Some);
            }
        }
        self.rows_of(py, gather_streams(hyps, ref_streams)?)
    }

    /// :meth:`rows` of NLTK's layout: ``hypotheses`` (token lists) and ``list_of_references`` (a list of
    /// token lists per hypothesis); None also for a ``str`` item (NLTK takes it as its characters).
    fn list_rows<'py>(
        &self,
        py: Python<'py>,
        hypotheses: &Bound<'py, PyAny>,
        list_of_references: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        self.rows_of(py, gather_lists(hypotheses, list_of_references)?)
    }

    /// ``(sum of tp, sum of n_all)`` of NLTK's layout (:meth:`list_rows` summed), or None likewise.
    fn list_total(
        &self,
        py: Python<'_>,
        hypotheses: &Bound<'_, PyAny>,
        list_of_references: &Bound<'_, PyAny>,
    ) -> PyResult<Option<(i64, i64)>> {
        if self.in_place(hypotheses) {
            if let Ok(total) = list_total_in_place(
                py,
                hypotheses,
                list_of_references,
                self.min_len,
                self.max_len,
            ) {
                return Ok(Some(total));
            }
        }
        let Some(g) = gather_lists(hypotheses, list_of_references)? else {
            return Ok(None);
        };
        Ok(self
            .count(py, g)?
            .map(|out| out.chunks(2).fold((0, 0), |(a, b), r| (a + r[0], b + r[1]))))
    }
}

/// CharacTER's scorer: each segment's value, the smallest over the references present (words split like
/// ``str.split()``, or token lists; ``float64``: shifts scored in float64, as PyPI ``cer`` 1.2.0, else
/// float32 as the rwth-i6 program). ``threads=0``: a count for the input size.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct CharacterScorer {
    #[pyo3(get)]
    float64: bool,
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl CharacterScorer {
    #[new]
    #[pyo3(signature = (float64 = false, *, threads = 0))]
    fn new(float64: bool, threads: usize) -> Self {
        CharacterScorer { float64, threads }
    }

    /// float64 ``[S]`` of hypotheses against reference streams (None: absent); None when an item needs
    /// the Python implementation.
    fn values<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        let Some(c) = corpus_of_streams(hyps, ref_streams)? else {
            return Ok(None);
        };
        let mut out = vec![0f64; c.hyps.len()];
        let (float64, threads) = (self.float64, self.threads);
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
}

/// EED's scorer with its parameters (float32, as the original): each (preprocessed) segment's value, the
/// smallest over the references present. ``threads=0``: a count for the input size.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct EedScorer {
    #[pyo3(get)]
    alpha: f32,
    #[pyo3(get)]
    deletion: f32,
    #[pyo3(get)]
    insertion: f32,
    #[pyo3(get)]
    substitution: f32,
    #[pyo3(get)]
    rho: f32,
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl EedScorer {
    #[new]
    #[pyo3(signature = (alpha = 2.0, deletion = 0.2, insertion = 1.0, substitution = 1.0, rho = 0.3, *, threads = 0))]
    fn new(
        alpha: f32,
        deletion: f32,
        insertion: f32,
        substitution: f32,
        rho: f32,
        threads: usize,
    ) -> Self {
        EedScorer {
            alpha,
            deletion,
            insertion,
            substitution,
            rho,
            threads,
        }
    }

    /// float64 ``[S]`` of hypotheses against reference streams (None: absent), the text as it is or, with
    /// ``preprocess``, after the original's English preprocessing; None when a string is not valid UTF-8
    /// or (``preprocess``) has a numeric character other than an ASCII digit (Python preprocesses it).
    #[pyo3(signature = (hyps, ref_streams, *, preprocess = false))]
    fn values<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
        preprocess: bool,
    ) -> PyResult<Option<Bound<'py, PyArray1<f64>>>> {
        let input = TextInput::new(hyps, ref_streams)?;
        let read = input.read_all()?;
        let Some((hyps, refs)) = read.utf8_texts() else {
            return Ok(None);
        };
        let p = Parameters {
            alpha: self.alpha,
            deletion: self.deletion,
            insertion: self.insertion,
            substitution: self.substitution,
            rho: self.rho,
        };
        let mut out = vec![0f64; hyps.len()];
        let threads = self.threads;
        let done = detached(py, || {
            let prepared = |texts: &[Option<&str>]| -> Option<Vec<Option<String>>> {
                texts
                    .iter()
                    .map(|t| match t {
                        None => Some(None),
                        Some(t) => {
                            let mut s = String::new();
                            preprocess_en(t, &mut s).then_some(Some(s))
                        }
                    })
                    .collect()
            };
            let hyps: Vec<Option<&str>> = hyps.iter().map(|&h| Some(h)).collect();
            let (own_hyps, own_refs) = if preprocess {
                let Some(h) = prepared(&hyps) else {
                    return false;
                };
                let Some(r) = refs.iter().map(|s| prepared(s)).collect::<Option<Vec<_>>>() else {
                    return false;
                };
                (Some(h), Some(r))
            } else {
                (None, None)
            };
            let text = |i: usize| match &own_hyps {
                Some(h) => h[i].as_deref().unwrap_or(""),
                None => hyps[i].unwrap_or(""),
            };
            let segments: Vec<eed::Segment<'_>> = (0..hyps.len())
                .map(|i| eed::Segment {
                    hyp: text(i),
                    refs: match &own_refs {
                        Some(r) => r.iter().filter_map(|s| s[i].as_deref()).collect(),
                        None => refs.iter().filter_map(|s| s[i]).collect(),
                    },
                })
                .collect();
            core_eed(&segments, &p, threads, &mut out);
            true
        })?;
        Ok(done.then(|| PyArray1::from_vec(py, out)))
    }

    /// The original's English preprocessing of each line as :meth:`values` does it, None for a line it
    /// leaves to Python.
    #[staticmethod]
    fn preprocess(lines: Vec<String>) -> Vec<Option<String>> {
        lines
            .iter()
            .map(|l| {
                let mut s = String::new();
                preprocess_en(l, &mut s).then_some(s)
            })
            .collect()
    }
}

/// The arrays of one Self-BLEU job: ``(scores [W * N], matches [N * max_order], totals [N * max_order],
/// closest [N], lengths [N], distinct [max_order], ngrams [max_order])``.
type SelfBleuArrays<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
    Bound<'py, PyArray1<i64>>,
);

/// Self-BLEU's scorer, built once with its weight vectors (``max_order`` the longest) and smoothing
/// (``epsilon`` None: NLTK's method0, a number: its method1).
#[pyclass(frozen, module = "bleuscope._core")]
pub struct SelfBleuScorer {
    #[pyo3(get)]
    weights: Vec<Vec<f64>>,
    #[pyo3(get)]
    epsilon: Option<f64>,
}

#[pymethods]
impl SelfBleuScorer {
    #[new]
    #[pyo3(signature = (weights, epsilon))]
    fn new(weights: Vec<Vec<f64>>, epsilon: Option<f64>) -> PyResult<Self> {
        if weights.iter().map(Vec::len).max().unwrap_or(0) == 0 {
            return Err(invalid("Self-BLEU needs at least one weight"));
        }
        Ok(SelfBleuScorer { weights, epsilon })
    }

    /// Self-BLEU of ``sentences`` (strings split like ``str.split()``, or token lists; at least two) for
    /// each weight vector, as :data:`SelfBleuArrays`; None when a sentence needs the Python
    /// implementation.
    fn score<'py>(
        &self,
        py: Python<'py>,
        sentences: &Bound<'py, PyAny>,
    ) -> PyResult<Option<SelfBleuArrays<'py>>> {
        let max_order = self.weights.iter().map(Vec::len).max().unwrap_or(0);
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
        let smoothing = match self.epsilon {
            None => Smoothing::None,
            Some(e) => Smoothing::Epsilon(e),
        };
        let weights = &self.weights;
        let (scores, counts) = detached(py, || {
            let sents: Vec<Vec<&str>> = ranges.iter().map(|&r| tokens.words(r)).collect();
            let counts = leave_one_out_counts(&sents, max_order);
            (
                self_bleu_scores(&counts, max_order, weights, smoothing),
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
}
