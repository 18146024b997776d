//! Text lines to statistics rows: tokenize each segment's lines and count them, in parallel.

use crate::count::{row_width, SegmentCounter, TokenSpans};
use crate::par::fill_rows;
use crate::tok::Tokenizer;

/// One input line as the counting loop sees it.
#[derive(Clone, Copy, Debug)]
pub enum Line<'a> {
    Text(&'a str),
    /// A missing reference: no n-grams, not a length candidate.
    Missing,
    /// A line only the Python tokenizer can handle (e.g. a `str` that is not valid UTF-8).
    Python,
}

/// A thread's reusable buffers.
pub struct Worker {
    counter: SegmentCounter,
    hyp_buf: String,
    hyp_spans: Vec<(u32, u32)>,
    ref_bufs: Vec<String>,
    ref_spans: Vec<Vec<(u32, u32)>>,
}

impl Worker {
    /// Tokenizes one line into `buf`/`spans`; false if it needs the Python tokenizer.
    fn tokenize_line(
        tok: Tokenizer,
        lowercase: bool,
        line: Line<'_>,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) -> bool {
        match line {
            Line::Text(text) => tok.tokenize(text, lowercase, buf, spans).is_ok(),
            Line::Missing | Line::Python => false,
        }
    }
}

impl Worker {
    pub fn new(order: usize) -> Self {
        Worker {
            counter: SegmentCounter::new(order),
            hyp_buf: String::new(),
            hyp_spans: Vec::new(),
            ref_bufs: Vec::new(),
            ref_spans: Vec::new(),
        }
    }

    /// Counts one segment into `row`; false if a line needs the Python tokenizer (row left as is).
    pub(crate) fn segment(
        &mut self,
        tok: Tokenizer,
        lowercase: bool,
        hyp: Line<'_>,
        refs: &[Line<'_>],
        row: &mut [i64],
    ) -> bool {
        if !Self::tokenize_line(tok, lowercase, hyp, &mut self.hyp_buf, &mut self.hyp_spans) {
            return false;
        }
        if self.ref_bufs.len() < refs.len() {
            self.ref_bufs.resize_with(refs.len(), String::new);
            self.ref_spans.resize_with(refs.len(), Vec::new);
        }
        for (k, r) in refs.iter().enumerate() {
            if !matches!(r, Line::Missing)
                && !Self::tokenize_line(
                    tok,
                    lowercase,
                    *r,
                    &mut self.ref_bufs[k],
                    &mut self.ref_spans[k],
                )
            {
                return false;
            }
        }
        let ref_tokens = |k: usize| match refs[k] {
            Line::Text(_) => Some(TokenSpans {
                buf: self.ref_bufs[k].as_bytes(),
                spans: &self.ref_spans[k],
            }),
            _ => None,
        };
        let hyp_tokens = TokenSpans {
            buf: self.hyp_buf.as_bytes(),
            spans: &self.hyp_spans,
        };
        // up to four references without a heap allocation per segment
        if refs.len() <= 4 {
            let mut few: [Option<TokenSpans<'_>>; 4] = [None; 4];
            for (k, slot) in few.iter_mut().enumerate().take(refs.len()) {
                *slot = ref_tokens(k);
            }
            self.counter.count_text(hyp_tokens, &few[..refs.len()], row);
        } else {
            let many: Vec<Option<TokenSpans<'_>>> = (0..refs.len()).map(ref_tokens).collect();
            self.counter.count_text(hyp_tokens, &many, row);
        }
        true
    }
}

/// Segments between the one counted and the one whose text is prefetched.
const PREFETCH_AHEAD: usize = 4;

/// Asks the processor for the first bytes of a line counted soon: the text of a line (a Python string's,
/// for one) lies wherever its allocator put it, which the hardware prefetcher cannot guess.
#[inline(always)]
fn prefetch(line: Option<&Line<'_>>) {
    #[cfg(target_arch = "x86_64")]
    if let Some(Line::Text(t)) = line {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = t.as_ptr() as *const i8;
        // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has; a prefetch is a hint that
        // reads nothing and never faults, whatever the address (the second may be past the text's end)
        unsafe {
            _mm_prefetch(p, _MM_HINT_T0);
            _mm_prefetch(p.wrapping_add(64), _MM_HINT_T0);
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = line;
}

/// Statistics rows (`out`, row-major `[S, 2 + 2 * order]`) of `hyps` against the reference streams
/// (`refs[k][i]`: reference k of segment i). Returns the segments that need the Python tokenizer, sorted;
/// their rows are left zero. The rows do not depend on `threads`.
pub(crate) fn count_lines(
    tok: Tokenizer,
    lowercase: bool,
    order: usize,
    hyps: &[Line<'_>],
    refs: &[&[Line<'_>]],
    threads: usize,
    out: &mut [i64],
) -> Vec<usize> {
    let width = row_width(order);
    let n_seg = hyps.len();
    assert_eq!(out.len(), n_seg * width, "output size");
    assert!(
        refs.iter().all(|r| r.len() == n_seg),
        "reference streams must have one line per hypothesis"
    );
    fill_rows(
        out,
        width,
        threads,
        || (Worker::new(order), Vec::with_capacity(refs.len())),
        |(worker, seg_refs): &mut (Worker, Vec<Line<'_>>), i, row| {
            worker.segment_of(tok, lowercase, hyps, refs, i, seg_refs, row)
        },
    )
}

impl Worker {
    /// Counts segment `i` of `hyps` against `refs` (see [`count_lines`]) into `row`, with `seg_refs` as
    /// room for its references; asks for the text of a segment counted soon.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn segment_of<'a>(
        &mut self,
        tok: Tokenizer,
        lowercase: bool,
        hyps: &[Line<'a>],
        refs: &[&[Line<'a>]],
        i: usize,
        seg_refs: &mut Vec<Line<'a>>,
        row: &mut [i64],
    ) -> bool {
        prefetch(hyps.get(i + PREFETCH_AHEAD));
        for r in refs {
            prefetch(r.get(i + PREFETCH_AHEAD));
        }
        seg_refs.clear();
        seg_refs.extend(refs.iter().map(|r| r[i]));
        self.segment(tok, lowercase, hyps[i], seg_refs, row)
    }

    /// [`count_lines`] on this thread, with this worker: every row of `out` is written (zero for the
    /// segments that need the Python tokenizer, which are appended to `failed`).
    pub fn rows(
        &mut self,
        tok: Tokenizer,
        lowercase: bool,
        hyps: &[Line<'_>],
        refs: &[&[Line<'_>]],
        out: &mut [i64],
        failed: &mut Vec<usize>,
    ) {
        let width = row_width(self.counter.order());
        assert_eq!(out.len(), hyps.len() * width, "output size");
        assert!(
            refs.iter().all(|r| r.len() == hyps.len()),
            "reference streams must have one line per hypothesis"
        );
        let mut seg_refs = Vec::with_capacity(refs.len());
        for (i, row) in out.chunks_exact_mut(width).enumerate() {
            if !self.segment_of(tok, lowercase, hyps, refs, i, &mut seg_refs, row) {
                row.fill(0);
                failed.push(i);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rows_do_not_depend_on_the_thread_count() {
        let words = ["a", "b", "c", "d", "e"];
        let lines: Vec<String> = (0..5000)
            .map(|i| {
                (0..(i % 17))
                    .map(|j| words[(i * 7 + j * j) % 5])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let refs_text: Vec<String> = (0..5000)
            .map(|i| {
                (0..(i % 13))
                    .map(|j| words[(i + j * 3) % 5])
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect();
        let hyps: Vec<Line<'_>> = lines.iter().map(|l| Line::Text(l)).collect();
        let refs: Vec<Line<'_>> = refs_text
            .iter()
            .enumerate()
            .map(|(i, l)| {
                if i % 11 == 0 {
                    Line::Missing
                } else {
                    Line::Text(l)
                }
            })
            .collect();
        let order = 4;
        let mut one = vec![0i64; hyps.len() * row_width(order)];
        let fb1 = count_lines(Tokenizer::None, false, order, &hyps, &[&refs], 1, &mut one);
        for t in [2, 3, 8] {
            let mut many = vec![0i64; hyps.len() * row_width(order)];
            let fb = count_lines(Tokenizer::None, false, order, &hyps, &[&refs], t, &mut many);
            assert_eq!(one, many);
            assert_eq!(fb1, fb);
        }
        assert!(fb1.is_empty());
        assert!(one.iter().any(|&v| v > 0));
    }

    #[test]
    fn python_lines_are_reported_not_counted() {
        let hyps = [Line::Text("a b"), Line::Python, Line::Text("c")];
        let refs = [Line::Text("a b"), Line::Text("x"), Line::Python];
        let mut out = vec![0i64; 3 * row_width(1)];
        let fb = count_lines(Tokenizer::None, false, 1, &hyps, &[&refs], 1, &mut out);
        assert_eq!(fb, vec![1, 2]);
        assert_eq!(&out[..4], &[2, 2, 2, 2]);
        assert_eq!(&out[4..], &[0; 8]);
    }
}
