//! Plain UTF-8 files read by the compiled core ([`bleuscope_core::files`]): the lines and problems of
//! the reader, for the tests that compare it with bleuscope's Python reader (`core/files.py`).

use std::fs::File;
use std::path::PathBuf;

use bleuscope_core::files::{read_all, LineProblem, ReadError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};

use crate::errors::detached;

/// A refused line as a dict: ``kind`` (``"utf-8"``, ``"nul"``, ``"too-long"``), ``line``, and where
/// they apply ``offset`` (bytes into the file), ``column`` (bytes into the line) and ``bytes``.
pub(crate) fn problem_dict<'py>(py: Python<'py>, p: &LineProblem) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("line", p.line())?;
    match p {
        LineProblem::InvalidUtf8 {
            offset,
            column,
            bytes,
            ..
        } => {
            d.set_item("kind", "utf-8")?;
            d.set_item("offset", offset)?;
            d.set_item("column", column)?;
            d.set_item("bytes", PyBytes::new(py, bytes))?;
        }
        LineProblem::Nul { column, .. } => {
            d.set_item("kind", "nul")?;
            d.set_item("column", column)?;
        }
        LineProblem::TooLong { .. } => d.set_item("kind", "too-long")?,
    }
    Ok(d)
}

/// `(lines, None)` or `(None, problem)`
type LinesOrProblem<'py> = (Option<Vec<String>>, Option<Bound<'py, PyDict>>);

/// Every line of the plain UTF-8 file ``path`` as the compiled reader gives it: ``(lines, None)``, or
/// ``(None, problem)`` for the first line it refuses (see :func:`problem_dict`); an unreadable file is
/// an ``OSError``.
#[pyfunction]
#[pyo3(signature = (path, *, max_line_bytes))]
pub(crate) fn read_file_lines<'py>(
    py: Python<'py>,
    path: PathBuf,
    max_line_bytes: usize,
) -> PyResult<LinesOrProblem<'py>> {
    let file = File::open(&path)?;
    match detached(py, move || read_all(file, max_line_bytes))? {
        Ok(lines) => Ok((Some(lines), None)),
        Err(ReadError::Io(e)) => Err(e.into()),
        Err(ReadError::Line(p)) => Ok((None, Some(problem_dict(py, &p)?))),
    }
}
