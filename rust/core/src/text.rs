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

/// Reference lines tokenized once, for counting several systems against them: every token's bytes in one
/// buffer, spans per line (segment-major: segment i's reference k at `i * n_refs + k`).
struct TokenizedRefs {
    buf: String,
    spans: Vec<(u32, u32)>,
    lines: Vec<Option<(usize, usize)>>,
    n_refs: usize,
}

impl TokenizedRefs {
    /// The reference streams `refs[k][i]` tokenized; None when a line needs the Python tokenizer or the
    /// tokens do not fit the 32-bit spans.
    fn new(tok: Tokenizer, lowercase: bool, refs: &[&[Line<'_>]], n_seg: usize) -> Option<Self> {
        let n_refs = refs.len();
        let mut out = TokenizedRefs {
            buf: String::new(),
            spans: Vec::new(),
            lines: Vec::with_capacity(n_seg * n_refs),
            n_refs,
        };
        let (mut buf, mut spans) = (String::new(), Vec::new());
        for i in 0..n_seg {
            for stream in refs {
                let text = match stream[i] {
                    Line::Text(text) => text,
                    Line::Missing => {
                        out.lines.push(None);
                        continue;
                    }
                    Line::Python => return None,
                };
                tok.tokenize(text, lowercase, &mut buf, &mut spans).ok()?;
                let base = u32::try_from(out.buf.len()).ok()?;
                u32::try_from(out.buf.len() + buf.len()).ok()?;
                out.buf.push_str(&buf);
                let a = out.spans.len();
                out.spans
                    .extend(spans.iter().map(|&(s, e)| (s + base, e + base)));
                out.lines.push(Some((a, out.spans.len())));
            }
        }
        Some(out)
    }

    /// Segment `i`'s references (None: missing).
    fn segment(&self, i: usize) -> impl Iterator<Item = Option<TokenSpans<'_>>> {
        self.lines[i * self.n_refs..(i + 1) * self.n_refs]
            .iter()
            .map(|r| {
                r.map(|(a, b)| TokenSpans {
                    buf: self.buf.as_bytes(),
                    spans: &self.spans[a..b],
                })
            })
    }
}

/// A thread's state in [`count_systems`]: counter, hypothesis tokens, the segment's references.
type SystemWorker<'a> = (
    SegmentCounter,
    String,
    Vec<(u32, u32)>,
    Vec<Option<TokenSpans<'a>>>,
);

/// Statistics rows (`out`, row-major `[K * S, 2 + 2 * order]`, system k's segment i at row `k * S + i`)
/// of K systems (`hyps[k][i]`, a missing hypothesis counted as empty) against the same reference streams
/// (`refs[k][i]`), every reference line tokenized once for all systems. False, with `out` partly written,
/// when a line needs the Python tokenizer (or the references' tokens pass 4 GiB): the caller counts
/// another way. The rows equal [`count_lines`]'s of each system and do not depend on `threads`.
pub fn count_systems(
    tok: Tokenizer,
    lowercase: bool,
    order: usize,
    threads: usize,
    hyps: &[&[Line<'_>]],
    refs: &[&[Line<'_>]],
    out: &mut [i64],
) -> bool {
    let n_seg = hyps.first().map_or(0, |h| h.len());
    let width = row_width(order);
    assert_eq!(out.len(), hyps.len() * n_seg * width, "output size");
    assert!(
        hyps.iter().all(|h| h.len() == n_seg) && refs.iter().all(|r| r.len() == n_seg),
        "every stream must have one line per segment"
    );
    let Some(tokenized) = TokenizedRefs::new(tok, lowercase, refs, n_seg) else {
        return false;
    };
    let tokenized = &tokenized;
    let failed = fill_rows(
        out,
        width,
        threads,
        || {
            (
                SegmentCounter::new(order),
                String::new(),
                Vec::new(),
                Vec::with_capacity(refs.len()),
            )
        },
        |(counter, buf, spans, seg_refs): &mut SystemWorker<'_>, j, row| {
            let (k, i) = (j / n_seg, j % n_seg);
            let text = match hyps[k][i] {
                Line::Text(text) => text,
                Line::Missing => "",
                Line::Python => return false,
            };
            if tok.tokenize(text, lowercase, buf, spans).is_err() {
                return false;
            }
            seg_refs.clear();
            seg_refs.extend(tokenized.segment(i));
            let hyp = TokenSpans {
                buf: buf.as_bytes(),
                spans,
            };
            counter.count_text(hyp, seg_refs, row);
            true
        },
    );
    failed.is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The lines of `text`, every `n`-th one (from the first) missing.
    fn missing_every(text: &[String], n: usize) -> Vec<Line<'_>> {
        let mut lines: Vec<Line<'_>> = text.iter().map(|l| Line::Text(l)).collect();
        lines.iter_mut().step_by(n).for_each(|l| *l = Line::Missing);
        lines
    }

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
        let refs = missing_every(&refs_text, 11);
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
    fn systems_count_as_each_system_alone() {
        let words = ["a", "b", "c", "d", "e", "f"];
        let text = |seed: usize, n: usize| -> Vec<String> {
            (0..n)
                .map(|i| {
                    (0..((i * seed) % 23))
                        .map(|j| words[(i * seed + j * j) % 6])
                        .collect::<Vec<_>>()
                        .join(" ")
                })
                .collect()
        };
        let n = 3000;
        let (s1, s2, s3, r1, r2) = (text(3, n), text(5, n), text(7, n), text(11, n), text(13, n));
        fn lines(v: &[String]) -> Vec<Line<'_>> {
            v.iter().map(|l| Line::Text(l)).collect()
        }
        let (h1, h2, h3, a) = (lines(&s1), lines(&s2), lines(&s3), lines(&r1));
        let b = missing_every(&r2, 7);
        let width = row_width(4);
        let mut alone = Vec::new();
        for h in [&h1, &h2, &h3] {
            let mut rows = vec![0i64; n * width];
            assert!(count_lines(Tokenizer::T13a, false, 4, h, &[&a, &b], 1, &mut rows).is_empty());
            alone.extend(rows);
        }
        for threads in [1, 2, 5] {
            let mut together = vec![0i64; 3 * n * width];
            let hyps: [&[Line<'_>]; 3] = [&h1, &h2, &h3];
            assert!(count_systems(
                Tokenizer::T13a,
                false,
                4,
                threads,
                &hyps,
                &[&a, &b],
                &mut together
            ));
            assert_eq!(together, alone, "{threads} threads");
        }
        let python = [Line::Text("a"), Line::Python];
        let mut out = vec![0i64; 2 * width];
        assert!(!count_systems(
            Tokenizer::T13a,
            false,
            4,
            1,
            &[&h1[..2]],
            &[&python],
            &mut out
        ));
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
