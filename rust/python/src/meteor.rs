//! METEOR's word table and alignment (`bleuscope_core::meteor`) and the WordNet database it reads
//! (`bleuscope_core::wordnet`).

use std::sync::{Arc, Mutex, MutexGuard};

use bleuscope_core::chrf::is_py_space;
use bleuscope_core::meteor::{Pairs, Segments, WordTable};
use bleuscope_core::wordnet::{FormatError, PartFiles, WordNet};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use crate::errors::{detached, invalid, wrong_type};
use crate::input::contiguous;

pyo3::create_exception!(
    _core,
    WordNetFormatError,
    pyo3::exceptions::PyValueError,
    "A WordNet file does not have the documented format (the message names the file and the line or byte)."
);

fn format_error(e: FormatError) -> PyErr {
    WordNetFormatError::new_err(e.0)
}

/// A WordNet 3.0 database read from its files: ``parts`` holds, for the noun, verb, adjective and adverb
/// parts in that order, ``(index name, index bytes, exceptions name, exceptions bytes, data name, data
/// bytes)`` (the names are used in error messages). Raises ``WordNetFormatError`` naming the file and line.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct WordNetTables {
    inner: Arc<WordNet>,
}

type PartInput = (String, Vec<u8>, String, Vec<u8>, String, Vec<u8>);

#[pymethods]
impl WordNetTables {
    #[new]
    fn new(py: Python<'_>, parts: Vec<PartInput>) -> PyResult<Self> {
        let wordnet = detached(py, move || {
            let files = parts
                .iter()
                .map(|(iname, index, ename, exc, dname, data)| PartFiles {
                    index,
                    index_name: iname,
                    exceptions: exc,
                    exceptions_name: ename,
                    data: data.clone(),
                    data_name: dname.clone(),
                })
                .collect();
            WordNet::parse(files)
        })?
        .map_err(format_error)?;
        Ok(WordNetTables {
            inner: Arc::new(wordnet),
        })
    }

    /// METEOR's synonyms of ``word``: the lemma names without ``_`` of its synsets, in synset order, with
    /// repeats (the word itself is not added).
    fn synonyms(&self, word: &str) -> PyResult<Vec<String>> {
        let mut names = Vec::new();
        self.inner
            .synonyms(word, &mut Vec::new(), |n| names.push(n.to_string()))
            .map_err(format_error)?;
        Ok(names)
    }
}

/// Word ids with METEOR's stem and synonym tables (``porter``: stems by NLTK's Porter rules here;
/// ``wordnet``: synonym sets from it here; ``unicode``: the core's lowercasing is this Python's, so
/// non-ASCII words are stemmed and looked up here too). What cannot be computed here (stems of other
/// words, every stem with ``porter=False``, every synonym set without ``wordnet``) is reported by
/// :meth:`align` and set by the caller with :meth:`set_stems` and :meth:`set_synonyms`.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct MeteorTable {
    inner: Mutex<WordTable>,
}

/// `(missing stem word ids, missing synonym stem ids)`
type Missing<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<u32>>);

type Encoded<'py> = Option<(Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<i64>>)>;

fn lines_of<'a>(items: &'a [Bound<'_, PyAny>]) -> PyResult<Option<Vec<&'a str>>> {
    let mut out = Vec::with_capacity(items.len());
    for item in items {
        if item.is_none() {
            out.push("");
            continue;
        }
        let s = item
            .cast::<PyString>()
            .map_err(|_| wrong_type("lines must be strings or None"))?;
        match s.to_str() {
            Ok(t) => out.push(t),
            Err(_) => return Ok(None),
        }
    }
    Ok(Some(out))
}

/// The items of a token list as strings (kept alive while their text is borrowed).
fn strings_of<'py>(list: &Bound<'py, PyList>, out: &mut Vec<Bound<'py, PyString>>) -> PyResult<()> {
    for item in list.iter() {
        out.push(
            item.cast_into::<PyString>()
                .map_err(|_| wrong_type("tokens must be strings"))?,
        );
    }
    Ok(())
}

/// The UTF-8 text of strings; None when one holds a lone surrogate.
fn texts<'a>(strings: &'a [Bound<'_, PyString>]) -> Option<Vec<&'a str>> {
    strings.iter().map(|s| s.to_str().ok()).collect()
}

impl MeteorTable {
    fn table(&self) -> MutexGuard<'_, WordTable> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

#[pymethods]
impl MeteorTable {
    #[new]
    #[pyo3(signature = (*, porter, wordnet = None, unicode = false))]
    fn new(porter: bool, wordnet: Option<PyRef<'_, WordNetTables>>, unicode: bool) -> Self {
        MeteorTable {
            inner: Mutex::new(WordTable::new(
                porter,
                wordnet.map(|w| w.inner.clone()),
                unicode,
            )),
        }
    }

    /// Distinct strings held (words, stems, synonym names).
    fn __len__(&self) -> usize {
        self.table().len()
    }

    /// ``(uint32 word ids, int64 offsets)`` of lines split as ``str.split()`` splits them (``None``: an
    /// empty line); None when a line is not valid UTF-8.
    fn encode_lines<'py>(
        &self,
        py: Python<'py>,
        lines: &Bound<'py, PyList>,
    ) -> PyResult<Encoded<'py>> {
        let items: Vec<Bound<'py, PyAny>> = lines.iter().collect();
        let Some(texts) = lines_of(&items)? else {
            return Ok(None);
        };
        let (ids, offsets) = detached(py, || {
            let mut table = self.table();
            let mut ids = Vec::new();
            let mut offsets = Vec::with_capacity(texts.len() + 1);
            offsets.push(0i64);
            for text in &texts {
                for word in text.split(is_py_space).filter(|w| !w.is_empty()) {
                    ids.push(table.intern(word));
                }
                offsets.push(ids.len() as i64);
            }
            (ids, offsets)
        })?;
        Ok(Some((
            PyArray1::from_vec(py, ids),
            PyArray1::from_vec(py, offsets),
        )))
    }

    /// ``(uint32 word ids, int64 offsets)`` of segments given as token lists; None when a token is not
    /// valid UTF-8.
    fn encode_tokens<'py>(
        &self,
        py: Python<'py>,
        segments: &Bound<'py, PyList>,
    ) -> PyResult<Encoded<'py>> {
        let mut strings = Vec::new();
        let mut offsets = Vec::with_capacity(segments.len() + 1);
        offsets.push(0i64);
        for segment in segments.iter() {
            let list = segment
                .cast_into::<PyList>()
                .map_err(|_| wrong_type("segments must be lists of tokens"))?;
            strings_of(&list, &mut strings)?;
            offsets.push(strings.len() as i64);
        }
        let Some(words) = texts(&strings) else {
            return Ok(None);
        };
        let mut table = self.table();
        let ids: Vec<u32> = words.iter().map(|w| table.intern(w)).collect();
        Ok(Some((
            PyArray1::from_vec(py, ids),
            PyArray1::from_vec(py, offsets),
        )))
    }

    /// The stems of ``words`` computed here (None where the caller must compute one).
    fn stems(&self, words: Vec<String>) -> Vec<Option<String>> {
        let mut table = self.table();
        words
            .iter()
            .map(|w| table.stem(w).map(str::to_string))
            .collect()
    }

    /// The strings of word ids.
    fn words(&self, ids: Vec<u32>) -> PyResult<Vec<String>> {
        let table = self.table();
        ids.iter()
            .map(|&id| {
                table
                    .word(id)
                    .map(str::to_string)
                    .ok_or_else(|| invalid(format!("no word id {id}")))
            })
            .collect()
    }

    /// Sets the stems of word ids.
    fn set_stems(&self, ids: Vec<u32>, stems: Vec<String>) -> PyResult<()> {
        let mut table = self.table();
        if ids.len() != stems.len() || ids.iter().any(|&id| id as usize >= table.len()) {
            return Err(invalid("set_stems: ids and stems do not match"));
        }
        for (id, stem) in ids.into_iter().zip(&stems) {
            table.set_stem(id, stem);
        }
        Ok(())
    }

    /// Sets the synonym sets of stem ids (the stem itself is added).
    fn set_synonyms(&self, ids: Vec<u32>, names: Vec<Vec<String>>) -> PyResult<()> {
        let mut table = self.table();
        if ids.len() != names.len() || ids.iter().any(|&id| id as usize >= table.len()) {
            return Err(invalid("set_synonyms: ids and name lists do not match"));
        }
        for (id, set) in ids.into_iter().zip(&names) {
            table.set_synonyms(id, set.iter().map(String::as_str));
        }
        Ok(())
    }

    /// Aligns, in place, the pairs ``(pairs[0][p], pairs[1][p])`` of hypothesis and reference segments
    /// (``hyps``/``refs``: uint32 word ids and int64 offsets of this table) whose ``out[2p]`` is negative:
    /// ``out[2p]``, ``out[2p + 1]`` become their matches and chunks, on ``threads`` threads (0: by size).
    /// Returns the word ids whose stems and the stem ids whose synonym sets the caller must set first
    /// (the pairs that need them keep -1).
    #[pyo3(signature = (hyps, refs, pairs, out, threads = 1))]
    fn align<'py>(
        &self,
        py: Python<'py>,
        hyps: (PyReadonlyArray1<'py, u32>, PyReadonlyArray1<'py, i64>),
        refs: (PyReadonlyArray1<'py, u32>, PyReadonlyArray1<'py, i64>),
        pairs: (PyReadonlyArray1<'py, i64>, PyReadonlyArray1<'py, i64>),
        out: &Bound<'py, PyArray1<i64>>,
        threads: usize,
    ) -> PyResult<Missing<'py>> {
        let n_words = self.table().len();
        let hyps = segments(&hyps, "hypotheses", n_words)?;
        let refs = segments(&refs, "references", n_words)?;
        let (ph, pr) = (
            contiguous(&pairs.0, "pairs")?,
            contiguous(&pairs.1, "pairs")?,
        );
        let (n_hyp, n_ref) = (hyps.offsets.len() as i64 - 1, refs.offsets.len() as i64 - 1);
        if ph.len() != pr.len()
            || ph.iter().any(|&h| h < 0 || h >= n_hyp)
            || pr.iter().any(|&r| r < 0 || r >= n_ref)
        {
            return Err(invalid("pair indices out of range"));
        }
        let mut out = out.readwrite();
        let out = out
            .as_slice_mut()
            .map_err(|_| invalid("out must be a C-contiguous array"))?;
        if out.len() != 2 * ph.len() {
            return Err(invalid("out must hold two values per pair"));
        }
        let missing = detached(py, || {
            let pairs = Pairs {
                hyps: &hyps,
                refs: &refs,
                hyp: ph,
                reference: pr,
            };
            self.table().align_batch(&pairs, out, threads)
        })?
        .map_err(format_error)?;
        Ok((
            PyArray1::from_vec(py, missing.stems),
            PyArray1::from_vec(py, missing.synonyms),
        ))
    }

    /// ``(matches, chunks)`` of one token list against each of ``references`` (token lists), or the
    /// missing ``(stem word ids, synonym stem ids)`` as in :meth:`align` (then nothing is aligned); None
    /// when a token is not valid UTF-8.
    #[allow(clippy::type_complexity)]
    fn align_tokens(
        &self,
        hypothesis: &Bound<'_, PyList>,
        references: &Bound<'_, PyList>,
    ) -> PyResult<Option<(Vec<(i64, i64)>, Vec<u32>, Vec<u32>)>> {
        let mut strings = Vec::new();
        strings_of(hypothesis, &mut strings)?;
        let mut offsets = vec![0i64, strings.len() as i64];
        for reference in references.iter() {
            let list = reference
                .cast_into::<PyList>()
                .map_err(|_| wrong_type("references must be token lists"))?;
            strings_of(&list, &mut strings)?;
            offsets.push(strings.len() as i64);
        }
        let Some(words) = texts(&strings) else {
            return Ok(None);
        };
        let n_refs = offsets.len() - 2;
        let mut table = self.table();
        let ids: Vec<u32> = words.iter().map(|w| table.intern(w)).collect();
        let hyp_offsets = [0i64, offsets[1]];
        let hyp = Segments {
            ids: &ids,
            offsets: &hyp_offsets,
        };
        let all = Segments {
            ids: &ids,
            offsets: &offsets,
        };
        let pair_hyp = vec![0i64; n_refs];
        let pair_ref: Vec<i64> = (1..=n_refs as i64).collect();
        let mut out = vec![-1i64; 2 * n_refs];
        let pairs = Pairs {
            hyps: &hyp,
            refs: &all,
            hyp: &pair_hyp,
            reference: &pair_ref,
        };
        let missing = table
            .align_batch(&pairs, &mut out, 1)
            .map_err(format_error)?;
        let found = out.chunks(2).map(|r| (r[0], r[1])).collect();
        Ok(Some((found, missing.stems, missing.synonyms)))
    }
}

fn segments<'a>(
    lines: &'a (PyReadonlyArray1<'_, u32>, PyReadonlyArray1<'_, i64>),
    what: &str,
    n_words: usize,
) -> PyResult<Segments<'a>> {
    let ids = contiguous(&lines.0, what)?;
    let offsets = contiguous(&lines.1, what)?;
    let ok = offsets.first() == Some(&0)
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && offsets.last().is_some_and(|&end| end as usize == ids.len())
        && ids.iter().all(|&id| (id as usize) < n_words);
    if !ok {
        return Err(invalid(format!(
            "{what}: offsets do not cut the ids, or an id is not in the table"
        )));
    }
    Ok(Segments { ids, offsets })
}
