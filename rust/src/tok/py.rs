//! Test-only Python entry points of the tokenizers (e.g. `_core.tokenize`); stub until filled in.
use pyo3::prelude::*;

pub fn register(_m: &Bound<'_, PyModule>) -> PyResult<()> {
    Ok(())
}
