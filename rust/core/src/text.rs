//! Text lines to statistics rows: tokenize each segment's lines and count them, in parallel.

use crate::count::{row_width, SegmentCounter, TokenSpans};
use crate::par::fill_rows;
use crate::tok::Tokenizer;

/// One input line as the counting loop sees it.
#[derive(Clone, Copy, Debug)]
pub enum Line<'a> {
    Text(&'a str),
    /// Code points (a Python `str` copied as UCS-4), turned into UTF-8 by the worker thread.
    Ucs4(&'a [u32]),
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
    utf8: String,
}

/// `cps` as UTF-8 in `out`; false for a code point that is no Unicode scalar value (a lone surrogate).
fn ucs4_to_utf8(cps: &[u32], out: &mut String) -> bool {
    let mut bytes = std::mem::take(out).into_bytes();
    bytes.clear();
    // room for the longest encoding, written without a capacity check per byte
    bytes.reserve(cps.len() * 4);
    let spare = &mut bytes.spare_capacity_mut()[..cps.len() * 4];
    let mut w = 0;
    let mut ok = true;
    for &c in cps {
        if c < 0x80 {
            spare[w].write(c as u8);
            w += 1;
        } else if c < 0x800 {
            spare[w].write(0xC0 | (c >> 6) as u8);
            spare[w + 1].write(0x80 | (c & 0x3F) as u8);
            w += 2;
        } else if c < 0x10000 {
            if (0xD800..0xE000).contains(&c) {
                ok = false;
                break;
            }
            spare[w].write(0xE0 | (c >> 12) as u8);
            spare[w + 1].write(0x80 | ((c >> 6) & 0x3F) as u8);
            spare[w + 2].write(0x80 | (c & 0x3F) as u8);
            w += 3;
        } else if c < 0x110000 {
            spare[w].write(0xF0 | (c >> 18) as u8);
            spare[w + 1].write(0x80 | ((c >> 12) & 0x3F) as u8);
            spare[w + 2].write(0x80 | ((c >> 6) & 0x3F) as u8);
            spare[w + 3].write(0x80 | (c & 0x3F) as u8);
            w += 4;
        } else {
            ok = false;
            break;
        }
    }
    // SAFETY: the first `w` bytes were written just above (0 if the text was refused)
    unsafe { bytes.set_len(if ok { w } else { 0 }) };
    debug_assert!(std::str::from_utf8(&bytes).is_ok());
    // SAFETY: only whole UTF-8 encodings of scalar values were written
    *out = unsafe { String::from_utf8_unchecked(bytes) };
    ok
}

impl Worker {
    /// Tokenizes one line into `buf`/`spans`; false if it needs the Python tokenizer.
    fn tokenize_line(
        tok: Tokenizer,
        lowercase: bool,
        line: Line<'_>,
        utf8: &mut String,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) -> bool {
        let text = match line {
            Line::Text(t) => t,
            Line::Ucs4(cps) => {
                if !ucs4_to_utf8(cps, utf8) {
                    return false;
                }
                utf8.as_str()
            }
            Line::Missing | Line::Python => return false,
        };
        tok.tokenize(text, lowercase, buf, spans).is_ok()
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
            utf8: String::new(),
        }
    }

    /// Counts one segment into `row`; false if a line needs the Python tokenizer (row left as is).
    pub fn segment(
        &mut self,
        tok: Tokenizer,
        lowercase: bool,
        hyp: Line<'_>,
        refs: &[Line<'_>],
        row: &mut [i64],
    ) -> bool {
        if !Self::tokenize_line(
            tok,
            lowercase,
            hyp,
            &mut self.utf8,
            &mut self.hyp_buf,
            &mut self.hyp_spans,
        ) {
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
                    &mut self.utf8,
                    &mut self.ref_bufs[k],
                    &mut self.ref_spans[k],
                )
            {
                return false;
            }
        }
        let ref_tokens = |k: usize| match refs[k] {
            Line::Text(_) | Line::Ucs4(_) => Some(TokenSpans {
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
            let mut few: [Option<TokenSpans>; 4] = [None; 4];
            for (k, slot) in few.iter_mut().enumerate().take(refs.len()) {
                *slot = ref_tokens(k);
            }
            self.counter.count_text(hyp_tokens, &few[..refs.len()], row);
        } else {
            let many: Vec<Option<TokenSpans>> = (0..refs.len()).map(ref_tokens).collect();
            self.counter.count_text(hyp_tokens, &many, row);
        }
        true
    }
}

/// Statistics rows (`out`, row-major `[S, 2 + 2 * order]`) of `hyps` against the reference streams
/// (`refs[k][i]`: reference k of segment i). Returns the segments that need the Python tokenizer, sorted;
/// their rows are left zero. The rows do not depend on `threads`.
pub fn count_lines(
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
        |(worker, seg_refs): &mut (Worker, Vec<Line>), i, row| {
            seg_refs.clear();
            seg_refs.extend(refs.iter().map(|r| r[i]));
            worker.segment(tok, lowercase, hyps[i], seg_refs, row)
        },
    )
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
        let hyps: Vec<Line> = lines.iter().map(|l| Line::Text(l)).collect();
        let refs: Vec<Line> = refs_text
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
    fn ucs4_lines_count_like_their_utf8_text() {
        let text = "Grüße, ça va? 東京 ok";
        let cps: Vec<u32> = text.chars().map(|c| c as u32).collect();
        let order = 4;
        let mut a = vec![0i64; row_width(order)];
        let mut b = vec![0i64; row_width(order)];
        let refs = [Line::Text("ça va? Grüße ok")];
        assert!(count_lines(
            Tokenizer::T13a,
            true,
            order,
            &[Line::Text(text)],
            &[&refs],
            1,
            &mut a
        )
        .is_empty());
        assert!(count_lines(
            Tokenizer::T13a,
            true,
            order,
            &[Line::Ucs4(&cps)],
            &[&refs],
            1,
            &mut b
        )
        .is_empty());
        assert_eq!(a, b);
        assert!(a[2] > 0);
        let lone_surrogate = [0x61, 0xD800];
        let fb = count_lines(
            Tokenizer::T13a,
            false,
            order,
            &[Line::Ucs4(&lone_surrogate)],
            &[&refs],
            1,
            &mut b,
        );
        assert_eq!(fb, vec![0]);
    }

    #[test]
    fn code_points_encode_like_rust_chars() {
        let mut out = String::new();
        let all: Vec<u32> = (0..0x11_0000u32)
            .filter(|c| !(0xD800..0xE000).contains(c))
            .collect();
        for chunk in all.chunks(997) {
            assert!(ucs4_to_utf8(chunk, &mut out));
            let expected: String = chunk.iter().map(|&c| char::from_u32(c).unwrap()).collect();
            assert_eq!(out, expected);
        }
        for bad in [0xD800u32, 0xDBFF, 0xDC00, 0xDFFF, 0x11_0000, u32::MAX] {
            assert!(!ucs4_to_utf8(&[0x61, 0x3B1, bad, 0x62], &mut out));
            assert!(out.is_empty());
        }
        assert!(ucs4_to_utf8(&[], &mut out) && out.is_empty());
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
