//! EED, the Extended Edit Distance (Stanchev, Wang and Ney 2019), written from its definition and checked
//! against the rwth-i6 program's outputs: a CDER-style alignment grid over the characters of the
//! hypothesis and the reference, each padded with a space at both ends, in float32 as the original.
//!
//! Row by row over the reference characters, each cell is the cheapest of a deletion (0.2, along the
//! hypothesis), a substitution or match (1 or 0) and an insertion (1, along the reference); the first
//! column adds 1 per row. The row's minimum is located the way the original does, with the running
//! minimum held as an integer (truncated), so the first cell below the truncated minimum so far wins; that
//! cell's visit count goes up. After a reference space, a long jump caps every cell at `alpha` (2) above
//! the minimum. The coverage penalty is `rho` (0.3) times the sum over hypothesis positions 1.. of their
//! visits beyond the first (a position never visited counts 1). The value is `(last cell + coverage) /
//! (padded reference length + coverage)`, capped at 1.

use crate::par::{for_each_unit, pick_threads};

/// Segments per unit of work handed to a thread.
const EED_UNIT: usize = 8;

/// EED's parameters (the original's defaults in [`Default`]).
#[derive(Clone, Copy, Debug)]
pub struct Parameters {
    pub alpha: f32,
    pub deletion: f32,
    pub insertion: f32,
    pub substitution: f32,
    pub rho: f32,
}

impl Default for Parameters {
    fn default() -> Self {
        Parameters {
            alpha: 2.0,
            deletion: 0.2,
            insertion: 1.0,
            substitution: 1.0,
            rho: 0.3,
        }
    }
}

/// What one thread keeps between segments.
#[derive(Default)]
pub(crate) struct Scratch {
    hyp: Vec<char>,
    reference: Vec<char>,
    row: Vec<f32>,
    next: Vec<f32>,
    visits: Vec<i64>,
}

fn padded(text: &str, out: &mut Vec<char>) {
    out.clear();
    out.push(' ');
    out.extend(text.chars());
    out.push(' ');
}

/// EED of one (already preprocessed) hypothesis against one reference, as the original's float32 widened.
pub(crate) fn eed(hyp: &str, reference: &str, p: &Parameters, s: &mut Scratch) -> f64 {
    padded(hyp, &mut s.hyp);
    padded(reference, &mut s.reference);
    let n = s.hyp.len();
    s.visits.clear();
    s.visits.resize(n + 1, -1);
    s.row.clear();
    s.row.resize(n + 1, 1.0);
    s.row[0] = 0.0;
    s.next.clear();
    s.next.resize(n + 1, f32::INFINITY);
    for &rc in &s.reference {
        // one pass: the cells of the row, and where the original's running minimum (an integer, so
        // truncated: the first cell below the truncated minimum so far wins) ends up
        let mut prev = s.row[0] + 1.0;
        s.next[0] = prev;
        let mut minimum = prev as i32;
        let mut at = 0;
        for i in 1..=n {
            let sub = if rc == s.hyp[i - 1] {
                0.0
            } else {
                p.substitution
            };
            let v = (prev + p.deletion)
                .min(s.row[i - 1] + sub)
                .min(s.row[i] + p.insertion);
            s.next[i] = v;
            if v < minimum as f32 {
                minimum = v as i32;
                at = i;
            }
            prev = v;
        }
        s.visits[at] += 1;
        if rc == ' ' {
            let jump = p.alpha + s.next[at];
            for v in s.next.iter_mut() {
                if *v > jump {
                    *v = jump;
                }
            }
        }
        std::mem::swap(&mut s.row, &mut s.next);
    }
    let errors = s.row[n];
    let uncovered: i64 = s.visits[1..]
        .iter()
        .map(|&v| if v >= 0 { v } else { 1 })
        .sum();
    let coverage = p.rho * uncovered as f32;
    let value = (errors + coverage) / (s.reference.len() as f32 + coverage);
    f64::from(value).min(1.0)
}

/// One segment: the preprocessed hypothesis and the references present.
pub struct Segment<'a> {
    pub hyp: &'a str,
    pub refs: Vec<&'a str>,
}

/// Each segment's EED, the smallest over its references, on `threads` threads (0: one per 64 segments);
/// a segment without a reference gets 1.
pub fn eed_values(segments: &[Segment<'_>], p: &Parameters, threads: usize, out: &mut [f64]) {
    assert_eq!(out.len(), segments.len(), "output size");
    if segments.is_empty() {
        return;
    }
    let threads = pick_threads(
        threads,
        segments.len(),
        64,
        segments.len().div_ceil(EED_UNIT),
    );
    for_each_unit(
        out,
        EED_UNIT,
        threads,
        Scratch::default,
        |s, unit, values| {
            for (k, v) in values.iter_mut().enumerate() {
                let seg = &segments[unit * EED_UNIT + k];
                *v = seg
                    .refs
                    .iter()
                    .map(|r| eed(seg.hyp, r, p, s))
                    .fold(f64::INFINITY, f64::min);
                if !v.is_finite() {
                    *v = 1.0;
                }
            }
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn identical_text_has_no_error_and_values_are_capped() {
        let mut s = Scratch::default();
        let p = Parameters::default();
        assert_eq!(eed("a b c", "a b c", &p, &mut s), 0.0);
        assert!(eed("", "a long reference", &p, &mut s) <= 1.0);
        let v = eed("completely different words here", "x", &p, &mut s);
        assert!(v > 0.9 && v < 1.0, "{v}");
    }
}
