//! The one place where failures become Python exceptions and where the GIL is released: bad arguments
//! become `ValueError`/`TypeError` through [`invalid`] and [`wrong_type`], and a Rust panic in the core
//! becomes a `RuntimeError` in [`detached`], the only function that runs core code without the GIL.

use std::panic::{catch_unwind, AssertUnwindSafe};

use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// An argument with a wrong value (shape, length, range, name).
pub fn invalid(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// An argument or item of a wrong type.
pub fn wrong_type(msg: impl Into<String>) -> PyErr {
    PyTypeError::new_err(msg.into())
}

/// Runs `f` without the GIL (its inputs are borrowed from Python objects the caller keeps alive and does
/// not mutate); a panic inside becomes a `RuntimeError` naming its message.
pub fn detached<T: Send, F: FnOnce() -> T + Send>(py: Python<'_>, f: F) -> PyResult<T> {
    py.detach(|| catch_unwind(AssertUnwindSafe(f)))
        .map_err(panic_error)
}

/// A panic of the core as a `RuntimeError`.
pub fn panic_error(e: Box<dyn std::any::Any + Send>) -> PyErr {
    let msg = e
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| e.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    PyRuntimeError::new_err(format!("internal error in bleuscope._core: {msg}"))
}

/// Highest n-gram order accepted by the counters (a guard against absurd row widths; BLEU uses 4).
pub const MAX_ORDER: usize = 1 << 16;

/// `order` checked to be in `1..=max`.
pub fn check_order(order: usize, max: usize) -> PyResult<usize> {
    if !(1..=max).contains(&order) {
        return Err(invalid(format!("order must be in 1..={max}, got {order}")));
    }
    Ok(order)
}
