//! The Python module `bleuscope._core`: objects built once with their configuration over the pure core
//! (`bleuscope-core`). Inputs are read by one reader ([`input`]), failures become Python exceptions in
//! one place and the GIL is released in one place ([`errors`]). The typed boundary is
//! `src/bleuscope/_core.pyi`, checked against this module by the tests.

mod bleu;
mod chrf_ter;
mod errors;
mod files;
mod input;
mod meteor;
mod resample;
mod rouge;
mod strmetrics;
mod tok;
mod wer;

use bleuscope_core::score::{c_exp, c_log};
use numpy::{PyArray1, PyReadonlyArray1};
use pyo3::prelude::*;

use crate::errors::{detached, invalid};

/// ``func`` (``"log"`` or ``"exp"``) of the C library, which Python's ``math`` module calls, applied to
/// every value of a float64 array, without the GIL.
#[pyfunction]
fn libm_map<'py>(
    py: Python<'py>,
    func: &str,
    values: PyReadonlyArray1<'py, f64>,
) -> PyResult<Bound<'py, PyArray1<f64>>> {
    let f: fn(f64) -> f64 = match func {
        "log" => c_log,
        "exp" => c_exp,
        _ => return Err(invalid(format!("libm_map: unknown function {func:?}"))),
    };
    let input: Vec<f64> = match values.as_slice() {
        Ok(v) => v.to_vec(),
        Err(_) => values.as_array().iter().copied().collect(),
    };
    let out = detached(py, move || input.into_iter().map(f).collect::<Vec<f64>>())?;
    Ok(PyArray1::from_vec(py, out))
}

/// Panics inside the core, for the test that a panic reaches Python as a RuntimeError.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>) -> PyResult<()> {
    detached(py, || -> () { panic!("deliberate panic for the tests") })
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
    errors::note_main_thread(m.py())?;
    // numpy's C API is looked up (Python code) when the first array is made: now, not after a long count
    // with a Ctrl-C pending, whose KeyboardInterrupt would fail the lookup
    PyArray1::<i64>::from_vec(m.py(), Vec::new());
    m.add("BUILD", build_info(m.py())?)?;
    // sacreBLEU adds the log precisions with Python's sum(), whose rounding changed in CPython 3.12
    bleuscope_core::score::set_compensated_sum(m.py().version_info() >= (3, 12));
    m.add("TOKENIZER_TABLES", tok::tables_info(m.py())?)?;
    m.add_class::<bleu::TextCounter>()?;
    m.add_class::<bleu::IdCounter>()?;
    m.add_class::<bleu::BleuScorer>()?;
    m.add_class::<chrf_ter::ChrfCounter>()?;
    m.add_class::<chrf_ter::TerCounter>()?;
    m.add_class::<tok::Tokenizer>()?;
    m.add_class::<rouge::RougeCounter>()?;
    m.add_function(wrap_pyfunction!(rouge::porter_stem, m)?)?;
    m.add_class::<wer::EditAligner>()?;
    m.add_function(wrap_pyfunction!(wer::align_token_ids, m)?)?;
    m.add_class::<meteor::MeteorTable>()?;
    m.add_class::<meteor::WordNetTables>()?;
    m.add(
        "WordNetFormatError",
        m.py().get_type::<meteor::WordNetFormatError>(),
    )?;
    m.add_function(wrap_pyfunction!(tok::use_tokenizer_tables, m)?)?;
    m.add_function(wrap_pyfunction!(tok::tokenizer_tables_in_use, m)?)?;
    m.add_function(wrap_pyfunction!(resample::resample_sums_f32, m)?)?;
    m.add_function(wrap_pyfunction!(resample::masked_sums_i64, m)?)?;
    m.add_function(wrap_pyfunction!(libm_map, m)?)?;
    m.add_class::<strmetrics::GleuCounter>()?;
    m.add_class::<strmetrics::CharacterScorer>()?;
    m.add_class::<strmetrics::EedScorer>()?;
    m.add_class::<strmetrics::SelfBleuScorer>()?;
    m.add_function(wrap_pyfunction!(files::read_file_lines, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    Ok(())
}
