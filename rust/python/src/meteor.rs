//! METEOR's alignment of word-id pairs (`bleuscope_core::meteor`).
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;

use bleuscope_core::meteor::{align_pairs, Lexicon, Segments};

fn contiguous<T: numpy::Element>(r: Result<&[T], numpy::AsSliceError>) -> PyResult<&[T]> {
    r.map_err(|_| PyValueError::new_err("arrays must be contiguous"))
}

fn check_segments(ids: &[u32], offsets: &[i64], what: &str) -> PyResult<()> {
    let ok = !offsets.is_empty()
        && offsets[0] == 0
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && *offsets.last().unwrap() as usize == ids.len();
    if ok {
        Ok(())
    } else {
        Err(PyValueError::new_err(format!(
            "{what}: offsets do not cut the ids"
        )))
    }
}

/// `(missing stem word ids, missing synonym stem ids)`
type Missing<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<u32>>);

/// Aligns the pairs whose `out[2p]` is negative (see `bleuscope_core::meteor::align_pairs`), in place;
/// returns `(missing stem word ids, missing synonym stem ids)` as uint32 arrays.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn meteor_align_pairs<'py>(
    py: Python<'py>,
    hyp_ids: PyReadonlyArray1<'py, u32>,
    hyp_offsets: PyReadonlyArray1<'py, i64>,
    ref_ids: PyReadonlyArray1<'py, u32>,
    ref_offsets: PyReadonlyArray1<'py, i64>,
    pair_hyp: PyReadonlyArray1<'py, i64>,
    pair_ref: PyReadonlyArray1<'py, i64>,
    stem_of: PyReadonlyArray1<'py, u32>,
    syn_start: PyReadonlyArray1<'py, i64>,
    syn_len: PyReadonlyArray1<'py, i64>,
    syn_ids: PyReadonlyArray1<'py, u32>,
    out: &Bound<'py, PyArray1<i64>>,
) -> PyResult<Missing<'py>> {
    let (hi, ho) = (
        contiguous(hyp_ids.as_slice())?,
        contiguous(hyp_offsets.as_slice())?,
    );
    let (ri, ro) = (
        contiguous(ref_ids.as_slice())?,
        contiguous(ref_offsets.as_slice())?,
    );
    check_segments(hi, ho, "hypotheses")?;
    check_segments(ri, ro, "references")?;
    let (ph, pr) = (
        contiguous(pair_hyp.as_slice())?,
        contiguous(pair_ref.as_slice())?,
    );
    let n_hyp = ho.len() as i64 - 1;
    let n_ref = ro.len() as i64 - 1;
    if ph.len() != pr.len()
        || ph.iter().any(|&h| h < 0 || h >= n_hyp)
        || pr.iter().any(|&r| r < 0 || r >= n_ref)
    {
        return Err(PyValueError::new_err("pair indices out of range"));
    }
    let lex_start = contiguous(syn_start.as_slice())?;
    let lex_len = contiguous(syn_len.as_slice())?;
    let lex_ids = contiguous(syn_ids.as_slice())?;
    if lex_start.len() != lex_len.len() {
        // entries out of range read as missing (the core only reads them with bounds checks)
        return Err(PyValueError::new_err("synonym table out of range"));
    }
    let lex = Lexicon {
        stem_of: contiguous(stem_of.as_slice())?,
        syn_start: lex_start,
        syn_len: lex_len,
        syn_ids: lex_ids,
    };
    let mut out_rw = out.readwrite();
    let out_slice = out_rw
        .as_slice_mut()
        .map_err(|_| PyValueError::new_err("out must be contiguous"))?;
    if out_slice.len() != 2 * ph.len() {
        return Err(PyValueError::new_err("out must hold two values per pair"));
    }
    let hyps = Segments {
        ids: hi,
        offsets: ho,
    };
    let refs = Segments {
        ids: ri,
        offsets: ro,
    };
    let result = py.detach(|| {
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            align_pairs(&hyps, &refs, ph, pr, &lex, out_slice)
        }))
    });
    let (stems, synonyms) =
        result.map_err(|_| PyRuntimeError::new_err("internal error in the METEOR core"))?;
    Ok((
        PyArray1::from_vec(py, stems),
        PyArray1::from_vec(py, synonyms),
    ))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(meteor_align_pairs, m)?)?;
    Ok(())
}
