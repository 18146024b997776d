use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3,
    PyUntypedArrayMethods,
};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use bleuscope_core::count::TokenSpans;

use bleuscope_core::score::{count_padded, score_rows, PaddedIds, Smoothing};

type Scores<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<f64>>,
);

/// ``(scores [S], precisions [S, order], bp [S])`` of int64 statistics rows ``[S, 2 + 2 * M]``
/// (``M >= order``; orders ``1..order`` are used) with a sacreBLEU smoothing method (``none``,
/// ``floor``, ``add-k``, ``exp``; ``smooth_value`` its resolved value) and uniform weights.
#[pyfunction]
#[pyo3(signature = (stats, order, smooth_method, smooth_value, effective_order))]
fn score_rows_native<'py>(
    py: Python<'py>,
    stats: PyReadonlyArray2<'py, i64>,
    order: usize,
    smooth_method: &str,
    smooth_value: f64,
    effective_order: bool,
) -> PyResult<Scores<'py>> {
    let smoothing = Smoothing::from_name(smooth_method, smooth_value).ok_or_else(|| {
        PyValueError::new_err(format!(
            "the compiled scorer has no smoothing method {smooth_method:?}"
        ))
    })?;
    let [n_rows, width] = [stats.shape()[0], stats.shape()[1]];
    if order == 0 || width < 2 + 2 * order || width % 2 != 0 {
        return Err(PyValueError::new_err(format!(
            "statistics have {width} columns, too few for order {order}"
        )));
    }
    let rows = stats
        .as_slice()
        .map_err(|_| PyValueError::new_err("statistics must be a C-contiguous array"))?;
    let (scores, precisions, bp) = py
        .detach(|| {
            std::panic::catch_unwind(|| score_rows(rows, width, order, smoothing, effective_order))
        })
        .map_err(|_| PyRuntimeError::new_err("internal error in bleuscope._core.score_rows"))?;
    Ok((
        PyArray1::from_vec(py, scores),
        PyArray1::from_vec(py, precisions).reshape([n_rows, order])?,
        PyArray1::from_vec(py, bp),
    ))
}

/// Statistics rows, int64 ``[B, 2 + 2 * order]``, of padded token-id matrices read in place:
/// ``hyp`` (uint64 ``[B, L]``) with ``hyp_lens`` (int64 ``[B]``), ``refs`` (uint64 ``[B, K, M]``) with
/// ``ref_lens`` (int64 ``[B, K]``, negative = missing reference); a row's tokens are its first
/// ``len`` entries, or its last with ``left=True``. ``threads=0`` picks a count for the input size.
#[pyfunction]
#[pyo3(signature = (hyp, hyp_lens, refs, ref_lens, left, order, threads=0))]
#[allow(clippy::too_many_arguments)]
fn count_padded_ids<'py>(
    py: Python<'py>,
    hyp: PyReadonlyArray2<'py, u64>,
    hyp_lens: PyReadonlyArray1<'py, i64>,
    refs: PyReadonlyArray3<'py, u64>,
    ref_lens: PyReadonlyArray2<'py, i64>,
    left: bool,
    order: usize,
    threads: usize,
) -> PyResult<Bound<'py, PyArray2<i64>>> {
    if !(1..=64).contains(&order) {
        return Err(PyValueError::new_err(format!(
            "order must be in 1..=64, got {order}"
        )));
    }
    let contiguous = || PyValueError::new_err("token-id arrays must be C-contiguous");
    let (n_seg, hyp_width) = (hyp.shape()[0], hyp.shape()[1]);
    let (n_refs, ref_width) = (refs.shape()[1], refs.shape()[2]);
    if hyp_lens.len() != n_seg || refs.shape()[0] != n_seg || ref_lens.shape() != [n_seg, n_refs] {
        return Err(PyValueError::new_err(
            "shapes differ: hyp [B, L], hyp_lens [B], refs [B, K, M], ref_lens [B, K]",
        ));
    }
    let hyp_lens = hyp_lens.as_slice().map_err(|_| contiguous())?;
    let ref_lens = ref_lens.as_slice().map_err(|_| contiguous())?;
    if let Some(&bad) = hyp_lens.iter().find(|&&l| l < 0 || l as usize > hyp_width) {
        return Err(PyValueError::new_err(format!(
            "hypothesis length {bad} is outside 0..={hyp_width}"
        )));
    }
    if let Some(&bad) = ref_lens.iter().find(|&&l| l > ref_width as i64) {
        return Err(PyValueError::new_err(format!(
            "reference length {bad} is more than the width {ref_width}"
        )));
    }
    let hyp = PaddedIds {
        ids: hyp.as_slice().map_err(|_| contiguous())?,
        width: hyp_width,
        lens: hyp_lens,
        left,
    };
    let refs = PaddedIds {
        ids: refs.as_slice().map_err(|_| contiguous())?,
        width: ref_width,
        lens: ref_lens,
        left,
    };
    let width = bleuscope_core::count::row_width(order);
    let mut out = vec![0i64; n_seg * width];
    {
        let out = &mut out;
        py.detach(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                count_padded(hyp, refs, n_refs, order, threads, out)
            }))
        })
        .map_err(|_| {
            PyRuntimeError::new_err("internal error in bleuscope._core.count_padded_ids")
        })?;
    }
    PyArray1::from_vec(py, out).reshape([n_seg, width])
}

/// Segments of already tokenized text read per block by `count_str_token_lists` (bounds the copies).
const TOKEN_LIST_BLOCK: usize = 16_384;

/// Appends the UTF-8 tokens of `tokens` (a list or tuple of exact `str`) to `buf`/`spans`; false if
/// it is anything else (a token of another type, a `str` subclass, a string that is not UTF-8).
fn push_tokens(tokens: &Bound<'_, PyAny>, buf: &mut Vec<u8>, spans: &mut Vec<(u32, u32)>) -> bool {
    let items = if let Ok(list) = tokens.cast_exact::<PyList>() {
        list.as_sequence().clone()
    } else if let Ok(tuple) = tokens.cast_exact::<PyTuple>() {
        tuple.as_sequence().clone()
    } else {
        return false;
    };
    let Ok(n) = items.len() else { return false };
    for j in 0..n {
        let Ok(tok) = items.get_item(j) else {
            return false;
        };
        let Ok(s) = tok.cast_exact::<PyString>() else {
            return false;
        };
        let Ok(text) = s.to_str() else { return false };
        let start = buf.len();
        buf.extend_from_slice(text.as_bytes());
        if buf.len() > u32::MAX as usize {
            return false;
        }
        spans.push((start as u32, buf.len() as u32));
    }
    true
}

/// Statistics rows, int64 ``[S, 2 + 2 * order]``, of tokenized segments: ``hyps[i]`` a list of str
/// tokens, ``refs[i]`` the list of token lists of segment i (at least one). Tokens are equal when
/// their strings are. Returns None, having counted nothing, if any segment holds something else
/// than lists/tuples of exact ``str`` tokens (the caller's general path handles those).
#[pyfunction]
#[pyo3(signature = (hyps, refs, order, threads=0))]
fn count_str_token_lists<'py>(
    py: Python<'py>,
    hyps: &Bound<'py, PyList>,
    refs: &Bound<'py, PyList>,
    order: usize,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
    if !(1..=64).contains(&order) {
        return Err(PyValueError::new_err(format!(
            "order must be in 1..=64, got {order}"
        )));
    }
    let n_seg = hyps.len();
    if refs.len() != n_seg {
        return Err(PyValueError::new_err(format!(
            "{} hypotheses but {} reference sets",
            n_seg,
            refs.len()
        )));
    }
    let width = bleuscope_core::count::row_width(order);
    let mut out = vec![0i64; n_seg * width];
    let mut buf: Vec<u8> = Vec::new();
    let mut spans: Vec<(u32, u32)> = Vec::new();
    // per segment: range of its lines in `lines`; per line: range of its tokens in `spans`
    let mut segs: Vec<(usize, usize)> = Vec::new();
    let mut lines: Vec<(usize, usize)> = Vec::new();
    for start in (0..n_seg).step_by(TOKEN_LIST_BLOCK) {
        let end = n_seg.min(start + TOKEN_LIST_BLOCK);
        buf.clear();
        spans.clear();
        segs.clear();
        lines.clear();
        for i in start..end {
            let first = lines.len();
            let a = spans.len();
            if !push_tokens(&hyps.get_item(i)?, &mut buf, &mut spans) {
                return Ok(None);
            }
            lines.push((a, spans.len()));
            let seg_refs = refs.get_item(i)?;
            let Ok(seg_refs) = seg_refs.cast_exact::<PyList>() else {
                return Ok(None);
            };
            for r in seg_refs.iter() {
                let a = spans.len();
                if !push_tokens(&r, &mut buf, &mut spans) {
                    return Ok(None);
                }
                lines.push((a, spans.len()));
            }
            segs.push((first, lines.len()));
        }
        let block = &mut out[start * width..end * width];
        let (buf, spans, segs, lines) = (&buf, &spans, &segs, &lines);
        py.detach(|| {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                bleuscope_core::par::fill_rows(
                    block,
                    width,
                    threads,
                    || {
                        (
                            bleuscope_core::count::SegmentCounter::new(order),
                            Vec::new(),
                        )
                    },
                    |(counter, seg_refs): &mut (
                        bleuscope_core::count::SegmentCounter,
                        Vec<Option<TokenSpans>>,
                    ),
                     i,
                     row| {
                        let (first, last) = segs[i];
                        let line = |k: usize| TokenSpans {
                            buf,
                            spans: &spans[lines[k].0..lines[k].1],
                        };
                        seg_refs.clear();
                        seg_refs.extend((first + 1..last).map(|k| Some(line(k))));
                        counter.count_text(line(first), seg_refs, row);
                        true
                    },
                )
            }))
        })
        .map_err(|_| {
            PyRuntimeError::new_err("internal error in bleuscope._core.count_str_token_lists")
        })?;
    }
    Ok(Some(PyArray1::from_vec(py, out).reshape([n_seg, width])?))
}

/// A thread's state in `count_text_systems`: counter, hypothesis tokens, the segment's references.
type SystemWorker<'a> = (
    bleuscope_core::count::SegmentCounter,
    String,
    Vec<(u32, u32)>,
    Vec<Option<TokenSpans<'a>>>,
);

/// A line read as UTF-8 with the GIL: None for a missing reference; Err(()) for anything the
/// compiled path does not take (not a str, not UTF-8).
fn utf8_line<'a>(item: &'a Bound<'_, PyAny>, allow_none: bool) -> Result<Option<&'a str>, ()> {
    if allow_none && item.is_none() {
        return Ok(None);
    }
    let s = item.cast_exact::<PyString>().map_err(|_| ())?;
    s.to_str().map(Some).map_err(|_| ())
}

/// Statistics rows, int64 ``[K * S, 2 + 2 * order]`` (system k's segment i at row ``k * S + i``), of K
/// systems (lists of S str) against the same reference streams (lists of S str or None), with the
/// built-in tokenizer ``tokenize``: every reference is tokenized once for all systems, and the rows
/// are split across threads (``threads=0``: by input size). Returns None, having counted nothing, if
/// some line is not a plain UTF-8 ``str`` or needs the Python tokenizer (the caller's per-system path
/// handles those). Inputs are validated by the caller (equal lengths).
#[pyfunction]
#[pyo3(signature = (systems, ref_streams, tokenize, lowercase, order, threads=0))]
fn count_text_systems<'py>(
    py: Python<'py>,
    systems: Vec<Bound<'py, PyList>>,
    ref_streams: Vec<Bound<'py, PyList>>,
    tokenize: &str,
    lowercase: bool,
    order: usize,
    threads: usize,
) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
    if !(1..=64).contains(&order) {
        return Err(PyValueError::new_err(format!(
            "order must be in 1..=64, got {order}"
        )));
    }
    let tok = bleuscope_core::tok::Tokenizer::from_name(tokenize).ok_or_else(|| {
        PyValueError::new_err(format!("the compiled core has no tokenizer {tokenize:?}"))
    })?;
    let n_seg = systems.first().map_or(0, |s| s.len());
    if systems.iter().any(|s| s.len() != n_seg) || ref_streams.iter().any(|s| s.len() != n_seg) {
        return Err(PyValueError::new_err(
            "every system and reference stream must have the same number of lines",
        ));
    }
    let ref_items: Vec<Vec<Bound<PyAny>>> =
        ref_streams.iter().map(|s| s.iter().collect()).collect();
    let hyp_items: Vec<Vec<Bound<PyAny>>> = systems.iter().map(|s| s.iter().collect()).collect();
    let mut refs: Vec<Vec<Option<&str>>> = Vec::with_capacity(ref_items.len());
    for items in &ref_items {
        let lines: Result<Vec<_>, ()> = items.iter().map(|x| utf8_line(x, true)).collect();
        let Ok(lines) = lines else { return Ok(None) };
        refs.push(lines);
    }
    let mut hyps: Vec<Vec<&str>> = Vec::with_capacity(hyp_items.len());
    for items in &hyp_items {
        let lines: Result<Vec<_>, ()> = items
            .iter()
            .map(|x| utf8_line(x, false).map(|l| l.unwrap_or("")))
            .collect();
        let Ok(lines) = lines else { return Ok(None) };
        hyps.push(lines);
    }
    let n_refs = refs.len();
    let width = bleuscope_core::count::row_width(order);
    let mut out = vec![0i64; systems.len() * n_seg * width];
    let counted = {
        let (refs, hyps, out) = (&refs, &hyps, &mut out);
        py.detach(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(move || {
                // every reference line tokenized once: one buffer, spans per line (segment-major)
                let mut ref_buf = String::new();
                let mut ref_spans: Vec<(u32, u32)> = Vec::new();
                let mut line_spans: Vec<Option<(usize, usize)>> =
                    Vec::with_capacity(n_seg * n_refs);
                let (mut buf, mut spans) = (String::new(), Vec::new());
                for i in 0..n_seg {
                    for stream in refs.iter() {
                        let Some(text) = stream[i] else {
                            line_spans.push(None);
                            continue;
                        };
                        if tok.tokenize(text, lowercase, &mut buf, &mut spans).is_err() {
                            return false;
                        }
                        let base = ref_buf.len();
                        if base + buf.len() > u32::MAX as usize {
                            return false;
                        }
                        ref_buf.push_str(&buf);
                        let a = ref_spans.len();
                        ref_spans.extend(
                            spans
                                .iter()
                                .map(|&(s, e)| (s + base as u32, e + base as u32)),
                        );
                        line_spans.push(Some((a, ref_spans.len())));
                    }
                }
                let (ref_buf, ref_spans, line_spans) = (&ref_buf, &ref_spans, &line_spans);
                let failed = bleuscope_core::par::fill_rows(
                    out,
                    width,
                    threads,
                    || {
                        (
                            bleuscope_core::count::SegmentCounter::new(order),
                            String::new(),
                            Vec::new(),
                            Vec::with_capacity(n_refs),
                        )
                    },
                    |(counter, buf, spans, seg_refs): &mut SystemWorker, j, row| {
                        let (k, i) = (j / n_seg, j % n_seg);
                        if tok.tokenize(hyps[k][i], lowercase, buf, spans).is_err() {
                            return false;
                        }
                        seg_refs.clear();
                        seg_refs.extend(line_spans[i * n_refs..(i + 1) * n_refs].iter().map(|r| {
                            r.map(|(a, b)| TokenSpans {
                                buf: ref_buf.as_bytes(),
                                spans: &ref_spans[a..b],
                            })
                        }));
                        let hyp = TokenSpans {
                            buf: buf.as_bytes(),
                            spans,
                        };
                        counter.count_text(hyp, seg_refs, row);
                        true
                    },
                );
                failed.is_empty()
            }))
        })
        .map_err(|_| {
            PyRuntimeError::new_err("internal error in bleuscope._core.count_text_systems")
        })?
    };
    if !counted {
        return Ok(None);
    }
    let rows = systems.len() * n_seg;
    Ok(Some(PyArray1::from_vec(py, out).reshape([rows, width])?))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(count_text_systems, m)?)?;
    m.add_function(wrap_pyfunction!(count_str_token_lists, m)?)?;
    m.add_function(wrap_pyfunction!(count_padded_ids, m)?)?;
    m.add_function(wrap_pyfunction!(score_rows_native, m)?)?;
    Ok(())
}
