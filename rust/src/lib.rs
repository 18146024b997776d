//! bleuscope's compiled core: text or token ids in, BLEU statistics rows out.

pub mod tok;

#[cfg(feature = "python")]
mod python {
    use pyo3::prelude::*;

    #[pymodule]
    fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
        m.add("__version__", env!("CARGO_PKG_VERSION"))?;
        crate::tok::py::register(m)?;
        Ok(())
    }
}
