//! The built-in tokenizers as a Python object, for tests and measurements: `Tokenizer(name, lowercase)`
//! with `tokenize(lines)` (each line's tokens, or None where the Rust side asks for the Python
//! tokenizer) and `count_tokens(lines)` (tokenizes without building Python objects, for timing); and the
//! Unicode tables they read: `use_tokenizer_tables(...)` hands over those of the running Python and
//! `regex`, `tokenizer_tables_in_use()` says which are in use.

use bleuscope_core::tok::tables;
use bleuscope_core::tok::unidata::{self, UnicodeTables};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::bleu::tokenizer;
use crate::errors::{detached, invalid};
use crate::input::{items, read_items, ReadLines};
use bleuscope_core::text::Line;

type LineTokens = (String, Vec<(u32, u32)>);

fn split((buf, spans): &LineTokens) -> Vec<&str> {
    spans
        .iter()
        .map(|&(s, e)| &buf[s as usize..e as usize])
        .collect()
}

/// One of the built-in tokenizers (``none``, ``13a``, ``intl``, ``char``, ``zh``, ``cjk-char``), with
/// Python-exact lowercasing first if ``lowercase``.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct Tokenizer {
    #[pyo3(get)]
    name: String,
    tok: bleuscope_core::tok::Tokenizer,
    #[pyo3(get)]
    lowercase: bool,
}

#[pymethods]
impl Tokenizer {
    #[new]
    #[pyo3(signature = (name, *, lowercase = false))]
    fn new(name: &str, lowercase: bool) -> PyResult<Self> {
        Ok(Tokenizer {
            name: name.to_owned(),
            tok: tokenizer(name)?,
            lowercase,
        })
    }

    /// Tokens of each line (list of str), or None for a line the compiled tokenizer hands back to Python
    /// (over the size limit, or with lone surrogates). With ``joined=True``, each line's tokens come as
    /// one string joined by single spaces (tokens never hold whitespace, so nothing is lost).
    #[pyo3(signature = (lines, *, joined = false))]
    fn tokenize(
        &self,
        py: Python<'_>,
        lines: &Bound<'_, PyAny>,
        joined: bool,
    ) -> PyResult<Py<PyAny>> {
        let items = items(lines)?;
        let read = read_items(&items, "lines")?;
        let texts = texts(&read);
        let (tok, lowercase) = (self.tok, self.lowercase);
        let results: Vec<Option<LineTokens>> = detached(py, || {
            let mut buf = String::new();
            let mut spans = Vec::new();
            texts
                .iter()
                .map(|line| {
                    let line = (*line)?;
                    tok.tokenize(line, lowercase, &mut buf, &mut spans)
                        .ok()
                        .map(|()| (buf.clone(), spans.clone()))
                })
                .collect()
        })?;
        if joined {
            let out: Vec<Option<String>> = results
                .iter()
                .map(|r| r.as_ref().map(|r| split(r).join(" ")))
                .collect();
            Ok(out.into_pyobject(py)?.into_any().unbind())
        } else {
            let out: Vec<Option<Vec<&str>>> =
                results.iter().map(|r| r.as_ref().map(split)).collect();
            Ok(out.into_pyobject(py)?.into_any().unbind())
        }
    }

    /// ``(tokens, fallback_lines, seconds)``: tokenizes all lines ``repeat`` times with no per-token
    /// Python work; the tokens and fallbacks of one pass and the best pass's time.
    #[pyo3(signature = (lines, *, repeat = 1))]
    fn count_tokens(
        &self,
        py: Python<'_>,
        lines: &Bound<'_, PyAny>,
        repeat: u32,
    ) -> PyResult<(u64, u64, f64)> {
        let items = items(lines)?;
        let read = read_items(&items, "lines")?;
        let texts = texts(&read);
        let (tok, lowercase) = (self.tok, self.lowercase);
        detached(py, || {
            let mut buf = String::new();
            let mut spans = Vec::new();
            let mut best = f64::INFINITY;
            let (mut tokens, mut fallbacks) = (0u64, 0u64);
            for _ in 0..repeat.max(1) {
                (tokens, fallbacks) = (0, 0);
                let start = std::time::Instant::now();
                for line in &texts {
                    match line.map(|l| tok.tokenize(l, lowercase, &mut buf, &mut spans)) {
                        Some(Ok(())) => tokens += spans.len() as u64,
                        _ => fallbacks += 1,
                    }
                }
                best = best.min(start.elapsed().as_secs_f64());
            }
            (tokens, fallbacks, best)
        })
    }
}

/// The lines as text; None for a `str` that is not valid UTF-8 (only the Python tokenizer takes it).
fn texts<'a>(read: &'a ReadLines<'_>) -> Vec<Option<&'a str>> {
    read.lines()
        .0
        .into_iter()
        .map(|line| match line {
            Line::Text(t) => Some(t),
            _ => None,
        })
        .collect()
}

/// Where the Unicode tables come from: the compiled tokenizers are exact only for this Unicode database
/// (`unicodedata.unidata_version`) and this `regex` module version.
pub(crate) fn tables_info(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("python", tables::PYTHON_VERSION)?;
    d.set_item("unidata_version", tables::UNIDATA_VERSION)?;
    d.set_item("regex_version", tables::REGEX_VERSION)?;
    // Python's whitespace as the scanners know it (fixed: run-time tables must agree)
    d.set_item("whitespace", unidata::whitespace())?;
    Ok(d)
}

/// Little-endian u32 pairs (`(a, b)` back to back) as a vector.
fn u32_pairs(data: &Bound<'_, PyBytes>, what: &str) -> PyResult<Vec<(u32, u32)>> {
    let b = data.as_bytes();
    if b.len() % 8 != 0 {
        return Err(invalid(format!(
            "{what}: {} bytes is not a whole number of u32 pairs",
            b.len()
        )));
    }
    let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    Ok((0..b.len())
        .step_by(8)
        .map(|i| (word(i), word(i + 4)))
        .collect())
}

/// Makes the Unicode tables of the running Python and `regex` (`bleuscope.core.unicode_tables`) the ones
/// every compiled tokenizer of this process reads: `props` one property byte per code point,
/// `lower_single`/`case_ignorable`/`cased` little-endian u32 pairs, `lower_multi` `(code point, str)`
/// pairs, `versions` the `(unidata_version, regex_version)` they come from. A ValueError says what does
/// not hold (then nothing changes); once per process (equal tables again are accepted).
#[pyfunction]
pub(crate) fn use_tokenizer_tables(
    py: Python<'_>,
    props: &Bound<'_, PyBytes>,
    lower_single: &Bound<'_, PyBytes>,
    lower_multi: Vec<(u32, String)>,
    case_ignorable: &Bound<'_, PyBytes>,
    cased: &Bound<'_, PyBytes>,
    versions: (String, String),
) -> PyResult<()> {
    let props = props.as_bytes();
    let lower_single = u32_pairs(lower_single, "lower_single")?;
    let case_ignorable = u32_pairs(case_ignorable, "case_ignorable")?;
    let cased = u32_pairs(cased, "cased")?;
    let (unidata_version, regex_version) = versions;
    detached(py, || {
        let tables = UnicodeTables::new(
            props,
            lower_single,
            lower_multi,
            case_ignorable,
            cased,
            unidata_version,
            regex_version,
        )?;
        unidata::install(tables)
    })?
    .map_err(invalid)
}

/// Which tables the compiled tokenizers read now: `{"source": "built-in" | "installed",
/// "unidata_version", "regex_version"}`.
#[pyfunction]
pub(crate) fn tokenizer_tables_in_use(py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
    let t = unidata::active();
    let d = PyDict::new(py);
    let source = if unidata::installed() {
        "installed"
    } else {
        "built-in"
    };
    d.set_item("source", source)?;
    d.set_item("unidata_version", &t.unidata_version)?;
    d.set_item("regex_version", &t.regex_version)?;
    Ok(d)
}
