//! Test and measurement entry points of the tokenizers: `_core.tokenize(name, lowercase, lines)` gives
//! each line's tokens (or `None` where the Rust side asks for the Python tokenizer), and
//! `_core.tokenize_count(name, lowercase, lines)` tokenizes without building Python objects (for timing);
//! `_core.use_tokenizer_tables(...)` hands over the Unicode tables of the running Python and `regex`.
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use bleuscope_core::tok::unidata::{self, UnicodeTables};
use bleuscope_core::tok::Tokenizer;

/// The lines as Rust strings; `None` for a `str` that is not valid Unicode text (lone surrogates, e.g.
/// from `errors="surrogateescape"`), which only the Python tokenizer can take.
fn rust_lines(lines: Vec<Bound<'_, PyAny>>) -> PyResult<Vec<Option<String>>> {
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| {
            if !line.is_instance_of::<PyString>() {
                let kind = line.get_type().name()?;
                return Err(PyTypeError::new_err(format!("line {i} is {kind}, not str")));
            }
            Ok(line.extract::<String>().ok())
        })
        .collect()
}

fn tokenizer(name: &str) -> PyResult<Tokenizer> {
    Tokenizer::from_name(name)
        .ok_or_else(|| PyValueError::new_err(format!("no native tokenizer {name:?}")))
}

/// Tokens of each line, or `None` for a line the native tokenizer hands back to Python (over
/// [`bleuscope_core::tok::MAX_LINE_BYTES`], or with lone surrogates). With
/// `joined=True`, each line's tokens come as one string joined by single spaces (tokens never hold
/// whitespace, so nothing is lost, and large comparisons need no per-token Python objects).
#[pyfunction]
#[pyo3(signature = (name, lowercase, lines, joined = false))]
fn tokenize(
    py: Python<'_>,
    name: &str,
    lowercase: bool,
    lines: Vec<Bound<'_, PyAny>>,
    joined: bool,
) -> PyResult<Py<PyAny>> {
    let tok = tokenizer(name)?;
    let lines = rust_lines(lines)?;
    let results: Vec<Option<LineTokens>> = py.detach(|| {
        let mut buf = String::new();
        let mut spans = Vec::new();
        lines
            .iter()
            .map(|line| {
                let line = line.as_deref()?;
                tok.tokenize(line, lowercase, &mut buf, &mut spans)
                    .ok()
                    .map(|()| (buf.clone(), spans.clone()))
            })
            .collect()
    });
    if joined {
        let out: Vec<Option<String>> = results
            .iter()
            .map(|r| r.as_ref().map(|r| split(r).join(" ")))
            .collect();
        Ok(out.into_pyobject(py)?.into_any().unbind())
    } else {
        let out: Vec<Option<Vec<&str>>> = results.iter().map(|r| r.as_ref().map(split)).collect();
        Ok(out.into_pyobject(py)?.into_any().unbind())
    }
}

type LineTokens = (String, Vec<(u32, u32)>);

fn split((buf, spans): &LineTokens) -> Vec<&str> {
    spans
        .iter()
        .map(|&(s, e)| &buf[s as usize..e as usize])
        .collect()
}

/// `(tokens, fallback_lines, seconds)`: tokenizes all lines `repeat` times with no per-token Python
/// work and reports the tokens and fallbacks of one pass and the best pass's time (for benchmarks: the
/// conversion of the Python list is outside the timing).
#[pyfunction]
#[pyo3(signature = (name, lowercase, lines, repeat = 1))]
fn tokenize_count(
    py: Python<'_>,
    name: &str,
    lowercase: bool,
    lines: Vec<Bound<'_, PyAny>>,
    repeat: u32,
) -> PyResult<(u64, u64, f64)> {
    let tok = tokenizer(name)?;
    let lines = rust_lines(lines)?;
    Ok(py.detach(|| {
        let mut buf = String::new();
        let mut spans = Vec::new();
        let mut best = f64::INFINITY;
        let (mut tokens, mut fallbacks) = (0u64, 0u64);
        for _ in 0..repeat.max(1) {
            (tokens, fallbacks) = (0, 0);
            let start = std::time::Instant::now();
            for line in &lines {
                match line
                    .as_deref()
                    .map(|l| tok.tokenize(l, lowercase, &mut buf, &mut spans))
                {
                    Some(Ok(())) => tokens += spans.len() as u64,
                    _ => fallbacks += 1,
                }
            }
            best = best.min(start.elapsed().as_secs_f64());
        }
        (tokens, fallbacks, best)
    }))
}

/// Little-endian u32 pairs (`(a, b)` back to back) as a vector.
fn u32_pairs(data: &Bound<'_, PyBytes>, what: &str) -> PyResult<Vec<(u32, u32)>> {
    let b = data.as_bytes();
    if b.len() % 8 != 0 {
        return Err(PyValueError::new_err(format!(
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
/// pairs. A ValueError says what does not hold (then nothing changes); once per process (equal tables
/// again are accepted).
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn use_tokenizer_tables(
    py: Python<'_>,
    props: &Bound<'_, PyBytes>,
    lower_single: &Bound<'_, PyBytes>,
    lower_multi: Vec<(u32, String)>,
    case_ignorable: &Bound<'_, PyBytes>,
    cased: &Bound<'_, PyBytes>,
    unidata_version: String,
    regex_version: String,
) -> PyResult<()> {
    let props = props.as_bytes();
    let lower_single = u32_pairs(lower_single, "lower_single")?;
    let case_ignorable = u32_pairs(case_ignorable, "case_ignorable")?;
    let cased = u32_pairs(cased, "cased")?;
    py.detach(|| {
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
    })
    .map_err(PyValueError::new_err)
}

/// Which tables the compiled tokenizers read now: `{"source": "built-in" | "installed",
/// "unidata_version", "regex_version"}`.
#[pyfunction]
fn tokenizer_tables_in_use(py: Python<'_>) -> PyResult<Bound<'_, pyo3::types::PyDict>> {
    let t = unidata::active();
    let d = pyo3::types::PyDict::new(py);
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

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // Where the Unicode tables come from: the native tokenizers are exact only for this Unicode
    // database (`unicodedata.unidata_version`) and this `regex` module version.
    let d = pyo3::types::PyDict::new(m.py());
    d.set_item("python", bleuscope_core::tok::tables::PYTHON_VERSION)?;
    d.set_item(
        "unidata_version",
        bleuscope_core::tok::tables::UNIDATA_VERSION,
    )?;
    d.set_item("regex_version", bleuscope_core::tok::tables::REGEX_VERSION)?;
    // Python's whitespace as the scanners know it (fixed: run-time tables must agree)
    d.set_item("whitespace", unidata::whitespace())?;
    m.add("TOKENIZER_TABLES", d)?;
    m.add_function(wrap_pyfunction!(use_tokenizer_tables, m)?)?;
    m.add_function(wrap_pyfunction!(tokenizer_tables_in_use, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize, m)?)?;
    m.add_function(wrap_pyfunction!(tokenize_count, m)?)?;
    Ok(())
}
