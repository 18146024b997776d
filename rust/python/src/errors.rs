//! The one place where failures become Python exceptions and where the GIL is released: bad arguments
//! become `ValueError`/`TypeError` through [`invalid`] and [`wrong_type`], and a Rust panic in the core
//! becomes a `RuntimeError` in [`detached`], the only function that runs core code without the GIL.
//! [`detached`] also lets a signal stop the core: on the main thread the core polls Python's signal
//! handlers (Ctrl-C's `KeyboardInterrupt`) while it counts, and the handler's exception ends the call.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::OnceLock;
use std::thread::ThreadId;

use bleuscope_core::par::polled;
use pyo3::exceptions::{PyRuntimeError, PyTypeError, PyValueError};
use pyo3::prelude::*;

/// The thread that imported the module, when it is Python's main thread: the only one whose
/// `PyErr_CheckSignals` runs the signal handlers.
static MAIN_THREAD: OnceLock<ThreadId> = OnceLock::new();

thread_local! {
    /// The exception of a signal handler, raised while the core counted, until [`detached`] returns it.
    static SIGNALLED: RefCell<Option<PyErr>> = const { RefCell::new(None) };
}

/// Notes the calling thread as the main thread if Python says it is (at the module's import).
pub(crate) fn note_main_thread(py: Python<'_>) -> PyResult<()> {
    let threading = py.import("threading")?;
    let current = threading.call_method0("current_thread")?;
    if current.is(&threading.call_method0("main_thread")?) {
        let _ = MAIN_THREAD.set(std::thread::current().id());
    }
    Ok(())
}

/// The core's stop poll: runs Python's pending signal handlers (with the GIL, taken back for the
/// moment); true, keeping the exception, when one raised.
fn poll_signals() -> bool {
    Python::attach(|py| match py.check_signals() {
        Ok(()) => false,
        Err(e) => {
            SIGNALLED.with(|s| *s.borrow_mut() = Some(e));
            true
        }
    })
}

/// An argument with a wrong value (shape, length, range, name).
pub(crate) fn invalid(msg: impl Into<String>) -> PyErr {
    PyValueError::new_err(msg.into())
}

/// An argument or item of a wrong type.
pub(crate) fn wrong_type(msg: impl Into<String>) -> PyErr {
    PyTypeError::new_err(msg.into())
}

/// Runs `f` without the GIL (its inputs are borrowed from Python objects the caller keeps alive and does
/// not mutate); a panic inside becomes a `RuntimeError` naming its message. On the main thread the core
/// polls the signal handlers meanwhile: an exception of one (`KeyboardInterrupt`) stops the core and is
/// raised instead of `f`'s incomplete result.
pub(crate) fn detached<T: Send, F: FnOnce() -> T + Send>(py: Python<'_>, f: F) -> PyResult<T> {
    let polls = MAIN_THREAD.get() == Some(&std::thread::current().id());
    let (result, stopped) = py.detach(|| {
        let run = || catch_unwind(AssertUnwindSafe(f));
        if polls {
            polled(poll_signals, run)
        } else {
            (run(), false)
        }
    });
    if stopped {
        if let Some(e) = SIGNALLED.with(|s| s.borrow_mut().take()) {
            return Err(e);
        }
    }
    result.map_err(panic_error)
}

/// A panic of the core as a `RuntimeError`.
pub(crate) fn panic_error(e: Box<dyn std::any::Any + Send>) -> PyErr {
    let msg = e
        .downcast_ref::<String>()
        .map(String::as_str)
        .or_else(|| e.downcast_ref::<&str>().copied())
        .unwrap_or("unknown panic");
    PyRuntimeError::new_err(format!("internal error in bleuscope._core: {msg}"))
}

/// Highest n-gram order accepted by the counters (a guard against absurd row widths; BLEU uses 4).
pub(crate) const MAX_ORDER: usize = 1 << 16;

/// `order` checked to be in `1..=max`.
pub(crate) fn check_order(order: usize, max: usize) -> PyResult<usize> {
    if !(1..=max).contains(&order) {
        return Err(invalid(format!(
            "order must be from 1 to {max}, got {order}"
        )));
    }
    Ok(order)
}
