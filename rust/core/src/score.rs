//! BLEU scores from statistics rows, bit-identical to the Python reference
//! (`bleuscope/metrics/bleu/scoring.py`): the same operations in the same order on float64 values, and
//! the C library's `log`/`exp`, which Python's `math` module calls.
//!
//! Covered: sacreBLEU's smoothing methods (`none`, `floor`, `add-k`, `exp`) with uniform weights, with or
//! without effective order. Other configurations (weights, Chen & Cherry methods, float32 resample
//! arithmetic) stay with the Python implementation.
//!
//! Also here, the batch inputs of sentence-level scoring that have their own layout: padded token-id
//! matrices read in place ([`count_padded`]), and, in the Python bindings, lists of `str` tokens (the
//! NLTK module) and several systems against shared references (significance tests).

/// sacreBLEU's `my_log(0)`.
pub const LOG_ZERO: f64 = -9999999999.0;

// The C library's functions, which Python's `math.log`/`math.exp` call (Rust's own `ln`/`exp` may be
// lowered to other implementations).
extern "C" {
    fn log(x: f64) -> f64;
    fn exp(x: f64) -> f64;
}

fn c_log(x: f64) -> f64 {
    // SAFETY: a plain C math function of one double, no preconditions
    unsafe { log(x) }
}

fn c_exp(x: f64) -> f64 {
    // SAFETY: a plain C math function of one double, no preconditions
    unsafe { exp(x) }
}

/// A sacreBLEU smoothing method with its value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Smoothing {
    None,
    /// `floor`: a zero precision becomes `100 * value / total`
    Floor(f64),
    /// `add-k`: `value` added to the matches and totals of orders >= 2
    AddK(f64),
    /// `exp`: the NIST geometric sequence `100 / (2^k * total)`
    Exp,
}

impl Smoothing {
    /// The method by its sacreBLEU name (`value`: the resolved smoothing value, where the method has one).
    pub fn from_name(name: &str, value: f64) -> Option<Self> {
        match name {
            "none" => Some(Smoothing::None),
            "floor" => Some(Smoothing::Floor(value)),
            "add-k" => Some(Smoothing::AddK(value)),
            "exp" => Some(Smoothing::Exp),
            _ => None,
        }
    }
}

/// Brevity penalty of one row: `exp(1 - ref/hyp)` for a shorter non-empty hypothesis.
pub fn brevity_penalty(sys_len: i64, ref_len: i64) -> f64 {
    if sys_len < ref_len {
        if sys_len > 0 {
            c_exp(1.0 - (ref_len as f64) / (sys_len as f64))
        } else {
            0.0
        }
    } else {
        1.0
    }
}

/// Scores one statistics row (`[hyp_len, ref_len, correct_1..width_order, total_1..width_order]`, of
/// which the first `precisions.len()` orders are used): writes the precisions (percent), returns
/// `(score, bp)`.
pub fn score_row(
    row: &[i64],
    smoothing: Smoothing,
    effective_order: bool,
    precisions: &mut [f64],
) -> (f64, f64) {
    let n_ord = precisions.len();
    let width_order = (row.len() - 2) / 2;
    assert!(n_ord >= 1 && n_ord <= width_order, "row width");
    let bp = brevity_penalty(row[0], row[1]);
    let correct = |i: usize| row[2 + i] as f64;
    let total = |i: usize| row[2 + width_order + i] as f64;
    let any_match = (0..n_ord).any(|i| row[2 + i] != 0);
    precisions.fill(0.0);
    let mut eff_order = n_ord;
    if any_match {
        let mut smooth_mteval = 1.0f64;
        for (i, p) in precisions.iter_mut().enumerate() {
            let (mut c, mut t) = (correct(i), total(i));
            if let Smoothing::AddK(k) = smoothing {
                if i >= 1 {
                    c += k;
                    t += k;
                }
            }
            if t == 0.0 {
                break;
            }
            if effective_order {
                eff_order = i + 1;
            }
            if c != 0.0 {
                *p = 100.0 * c / t;
            } else {
                match smoothing {
                    Smoothing::Exp => {
                        smooth_mteval *= 2.0;
                        *p = 100.0 / (smooth_mteval * t);
                    }
                    Smoothing::Floor(v) => *p = (100.0 * v) / t,
                    _ => {}
                }
            }
        }
    }
    if !any_match {
        return (0.0, bp);
    }
    let mut log_sum = 0.0f64;
    for (i, &p) in precisions.iter().enumerate() {
        let term = if i < eff_order {
            if p != 0.0 {
                c_log(p)
            } else {
                LOG_ZERO
            }
        } else {
            0.0
        };
        log_sum += term;
    }
    let mean_log = log_sum / eff_order as f64;
    (bp * c_exp(mean_log), bp)
}

/// Scores every row of `stats` (row-major, rows of `width`): `scores[S]`, `precisions[S * n_ord]`,
/// `bp[S]`.
pub fn score_rows(
    stats: &[i64],
    width: usize,
    n_ord: usize,
    smoothing: Smoothing,
    effective_order: bool,
) -> (Vec<f64>, Vec<f64>, Vec<f64>) {
    assert!(
        width >= 2 + 2 * n_ord && stats.len().is_multiple_of(width),
        "row width"
    );
    let n_rows = stats.len() / width;
    let mut scores = Vec::with_capacity(n_rows);
    let mut bps = Vec::with_capacity(n_rows);
    let mut precisions = vec![0.0f64; n_rows * n_ord];
    for (row, prec) in stats
        .chunks_exact(width)
        .zip(precisions.chunks_exact_mut(n_ord))
    {
        let (s, bp) = score_row(row, smoothing, effective_order, prec);
        scores.push(s);
        bps.push(bp);
    }
    (scores, precisions, bps)
}

/// Token-id rows of a padded batch: `ids` is `[rows, width]` row-major; row `r` holds `lens[r]` tokens at
/// its start (`left == false`) or end (`left == true`); a negative length is a missing row.
#[derive(Clone, Copy)]
pub struct PaddedIds<'a> {
    pub ids: &'a [u64],
    pub width: usize,
    pub lens: &'a [i64],
    pub left: bool,
}

impl<'a> PaddedIds<'a> {
    fn row(&self, r: usize) -> Option<&'a [u64]> {
        let len = usize::try_from(self.lens[r]).ok()?;
        let row = &self.ids[r * self.width..(r + 1) * self.width];
        Some(if self.left {
            &row[self.width - len..]
        } else {
            &row[..len]
        })
    }
}

/// Tokens per thread below which a batch of padded rows is not split further across threads.
const MIN_TOKENS_PER_THREAD: usize = 32_768;

/// Statistics rows (`out`: `[segments, row_width(order)]`) of padded token-id rows: hypothesis `i` is
/// row `i` of `hyp`, its references rows `i * n_refs .. (i + 1) * n_refs` of `refs` (missing ones have a
/// negative length). Split across `threads` threads (0: by the number of tokens) in contiguous ranges of
/// about equal token counts; every row is computed on its own, so the result is the same for any count.
pub fn count_padded(
    hyp: PaddedIds<'_>,
    refs: PaddedIds<'_>,
    n_refs: usize,
    order: usize,
    threads: usize,
    out: &mut [i64],
) {
    let n_seg = hyp.lens.len();
    let width = crate::count::row_width(order);
    assert_eq!(out.len(), n_seg * width, "output size");
    assert_eq!(refs.lens.len(), n_seg * n_refs, "reference rows");
    assert!(
        hyp.lens.iter().all(|&l| l >= 0 && l as usize <= hyp.width),
        "hypothesis lengths"
    );
    assert!(
        refs.lens.iter().all(|&l| l as i128 <= refs.width as i128),
        "reference lengths"
    );
    let seg_tokens = |i: usize| {
        hyp.lens[i].max(0) as usize
            + refs.lens[i * n_refs..(i + 1) * n_refs]
                .iter()
                .map(|&l| l.max(0) as usize)
                .sum::<usize>()
    };
    let total: usize = (0..n_seg).map(seg_tokens).sum();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads = if threads == 0 {
        cores.min(8).min(total / MIN_TOKENS_PER_THREAD)
    } else {
        threads
    }
    .clamp(1, n_seg.max(1));
    let count_range = |first: usize, rows: &mut [i64]| {
        let mut counter = crate::count::SegmentCounter::new(order);
        let mut seg_refs: Vec<Option<&[u64]>> = Vec::with_capacity(n_refs);
        for (j, row) in rows.chunks_exact_mut(width).enumerate() {
            let i = first + j;
            seg_refs.clear();
            seg_refs.extend((0..n_refs).map(|k| refs.row(i * n_refs + k)));
            counter.count_ids(hyp.row(i).unwrap_or(&[]), &seg_refs, row);
        }
    };
    if threads <= 1 {
        count_range(0, out);
        return;
    }
    // contiguous ranges of about total / threads tokens each
    let mut bounds = vec![0usize];
    let mut acc = 0usize;
    for i in 0..n_seg {
        acc += seg_tokens(i);
        if acc * threads >= total * bounds.len() && bounds.len() < threads && i + 1 < n_seg {
            bounds.push(i + 1);
        }
    }
    bounds.push(n_seg);
    std::thread::scope(|s| {
        let mut rest = out;
        let mut handles = Vec::new();
        for w in bounds.windows(2) {
            let (mine, tail) = rest.split_at_mut((w[1] - w[0]) * width);
            rest = tail;
            let first = w[0];
            let count_range = &count_range;
            handles.push(s.spawn(move || count_range(first, mine)));
        }
        let mut panic = None;
        for h in handles {
            if let Err(e) = h.join() {
                panic = Some(e);
            }
        }
        if let Some(e) = panic {
            std::panic::resume_unwind(e);
        }
    });
}

#[cfg(feature = "python")]
pub mod py {
    use numpy::{
        PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3,
        PyUntypedArrayMethods,
    };
    use pyo3::exceptions::{PyRuntimeError, PyValueError};
    use pyo3::prelude::*;
    use pyo3::types::{PyList, PyString, PyTuple};

    use crate::count::TokenSpans;

    use super::{count_padded, score_rows, PaddedIds, Smoothing};

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
                std::panic::catch_unwind(|| {
                    score_rows(rows, width, order, smoothing, effective_order)
                })
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
        if hyp_lens.len() != n_seg
            || refs.shape()[0] != n_seg
            || ref_lens.shape() != [n_seg, n_refs]
        {
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
        let width = crate::count::row_width(order);
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
    fn push_tokens(
        tokens: &Bound<'_, PyAny>,
        buf: &mut Vec<u8>,
        spans: &mut Vec<(u32, u32)>,
    ) -> bool {
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
        let width = crate::count::row_width(order);
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
                    crate::par::fill_rows(
                        block,
                        width,
                        threads,
                        || (crate::count::SegmentCounter::new(order), Vec::new()),
                        |(counter, seg_refs): &mut (
                            crate::count::SegmentCounter,
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
        crate::count::SegmentCounter,
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
        let tok = crate::tok::Tokenizer::from_name(tokenize).ok_or_else(|| {
            PyValueError::new_err(format!("the compiled core has no tokenizer {tokenize:?}"))
        })?;
        let n_seg = systems.first().map_or(0, |s| s.len());
        if systems.iter().any(|s| s.len() != n_seg) || ref_streams.iter().any(|s| s.len() != n_seg)
        {
            return Err(PyValueError::new_err(
                "every system and reference stream must have the same number of lines",
            ));
        }
        let ref_items: Vec<Vec<Bound<PyAny>>> =
            ref_streams.iter().map(|s| s.iter().collect()).collect();
        let hyp_items: Vec<Vec<Bound<PyAny>>> =
            systems.iter().map(|s| s.iter().collect()).collect();
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
        let width = crate::count::row_width(order);
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
                    let failed = crate::par::fill_rows(
                        out,
                        width,
                        threads,
                        || {
                            (
                                crate::count::SegmentCounter::new(order),
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
                            seg_refs.extend(line_spans[i * n_refs..(i + 1) * n_refs].iter().map(
                                |r| {
                                    r.map(|(a, b)| TokenSpans {
                                        buf: ref_buf.as_bytes(),
                                        spans: &ref_spans[a..b],
                                    })
                                },
                            ));
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn perfect_match_scores_100() {
        let row = [4, 4, 4, 3, 2, 1, 4, 3, 2, 1];
        let mut p = [0.0; 4];
        let (s, bp) = score_row(&row, Smoothing::Exp, false, &mut p);
        assert_eq!(bp, 1.0);
        assert_eq!(p, [100.0; 4]);
        assert!((s - 100.0).abs() < 1e-9);
    }

    #[test]
    fn no_match_scores_zero_and_short_hypothesis_has_penalty() {
        let row = [2, 5, 0, 0, 0, 0, 2, 1, 0, 0];
        let mut p = [0.0; 4];
        let (s, bp) = score_row(&row, Smoothing::Exp, true, &mut p);
        assert_eq!(s, 0.0);
        assert_eq!(p, [0.0; 4]);
        assert!((bp - (1.0f64 - 2.5).exp()).abs() < 1e-12);
    }

    #[test]
    fn effective_order_averages_over_orders_with_ngrams() {
        // 2 hypothesis words, both matching; the bigram matches too; no trigrams or 4-grams
        let row = [2, 2, 2, 1, 0, 0, 2, 1, 0, 0];
        let mut p = [0.0; 4];
        let (s, _) = score_row(&row, Smoothing::Exp, true, &mut p);
        assert!((s - 100.0).abs() < 1e-9);
        let (s, _) = score_row(&row, Smoothing::Exp, false, &mut p);
        assert!(s < 1e-3);
    }
}
