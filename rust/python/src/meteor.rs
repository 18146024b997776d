//! METEOR's alignment of word-id pairs (`bleuscope_core::meteor`).

use bleuscope_core::meteor::{align_pairs, Lexicon, Segments};
use numpy::{PyArray1, PyArrayMethods, PyReadonlyArray1};
use pyo3::prelude::*;

use crate::errors::{detached, invalid};
use crate::input::contiguous;

type Ids<'py> = PyReadonlyArray1<'py, u32>;
type Offsets<'py> = PyReadonlyArray1<'py, i64>;

/// `(missing stem word ids, missing synonym stem ids)`
type Missing<'py> = (Bound<'py, PyArray1<u32>>, Bound<'py, PyArray1<u32>>);

fn segments<'a>(lines: &'a (Ids<'_>, Offsets<'_>), what: &str) -> PyResult<Segments<'a>> {
    let ids = contiguous(&lines.0, what)?;
    let offsets = contiguous(&lines.1, what)?;
    let ok = offsets.first() == Some(&0)
        && offsets.windows(2).all(|w| w[0] <= w[1])
        && offsets.last().is_some_and(|&end| end as usize == ids.len());
    if !ok {
        return Err(invalid(format!("{what}: offsets do not cut the ids")));
    }
    Ok(Segments { ids, offsets })
}

/// Aligns, in place, the pairs ``(pairs[0][p], pairs[1][p])`` of hypothesis and reference segments
/// (``hyps``/``refs``: uint32 word ids and int64 offsets) whose ``out[2p]`` is negative: ``out[2p]``,
/// ``out[2p + 1]`` become their matches and chunks, unless a pair needs a stem or synonym set the
/// ``lexicon`` (``stem_of``, ``syn_start``, ``syn_len``, ``syn_ids``) lacks. Returns the word ids whose
/// stems and the stem ids whose synonym sets are missing (uint32 arrays).
#[pyfunction]
pub fn meteor_align<'py>(
    py: Python<'py>,
    hyps: (Ids<'py>, Offsets<'py>),
    refs: (Ids<'py>, Offsets<'py>),
    pairs: (Offsets<'py>, Offsets<'py>),
    lexicon: (Ids<'py>, Offsets<'py>, Offsets<'py>, Ids<'py>),
    out: &Bound<'py, PyArray1<i64>>,
) -> PyResult<Missing<'py>> {
    let hyps = segments(&hyps, "hypotheses")?;
    let refs = segments(&refs, "references")?;
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
    let lex = Lexicon {
        stem_of: contiguous(&lexicon.0, "stem_of")?,
        syn_start: contiguous(&lexicon.1, "syn_start")?,
        syn_len: contiguous(&lexicon.2, "syn_len")?,
        syn_ids: contiguous(&lexicon.3, "syn_ids")?,
    };
    if lex.syn_start.len() != lex.syn_len.len() {
        // entries out of range read as missing (the core only reads them with bounds checks)
        return Err(invalid("synonym table out of range"));
    }
    let mut out = out.readwrite();
    let out = out
        .as_slice_mut()
        .map_err(|_| invalid("out must be a C-contiguous array"))?;
    if out.len() != 2 * ph.len() {
        return Err(invalid("out must hold two values per pair"));
    }
    let (stems, synonyms) = detached(py, || align_pairs(&hyps, &refs, ph, pr, &lex, out))?;
    Ok((
        PyArray1::from_vec(py, stems),
        PyArray1::from_vec(py, synonyms),
    ))
}
