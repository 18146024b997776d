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

use crate::character::smallest_per_segment;

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
    hyp: Vec<u32>,
    reference: Vec<u32>,
    row: Vec<f32>,
    visits: Vec<i64>,
}

fn padded(text: &str, out: &mut Vec<u32>) {
    out.clear();
    out.push(u32::from(' '));
    out.extend(text.chars().map(u32::from));
    out.push(u32::from(' '));
}

/// The state of each row of a block between two steps of the wavefront.
struct Wave<const K: usize> {
    /// each row's last cell, the cell above its last cell (the next diagonal), and the running minimum
    /// (truncated, as the original's integer) with where it was reached
    prev: [f32; K],
    diag: [f32; K],
    minimum: [f32; K],
    at: [usize; K],
}

/// Cell `i` (at least 1) of block row `k`, whose reference character is `rc`, from the cell `up` above.
#[inline(always)]
fn cell<const K: usize>(
    w: &mut Wave<K>,
    k: usize,
    i: usize,
    up: f32,
    rc: u32,
    hc: u32,
    p: &Parameters,
) -> f32 {
    let sub = if rc == hc { 0.0 } else { p.substitution };
    // the smallest of the three, as the original's std::min (one value whichever order)
    let v = (w.prev[k] + p.deletion).min((w.diag[k] + sub).min(up + p.insertion));
    let lower = v < w.minimum[k];
    w.minimum[k] = if lower {
        (v as i32) as f32
    } else {
        w.minimum[k]
    };
    w.at[k] = if lower { i } else { w.at[k] };
    w.diag[k] = up;
    w.prev[k] = v;
    v
}

/// Rows `refc` (K reference characters, none a space but perhaps the last) of the grid at once, as a
/// wavefront: row `k` computes cell `t - k` at step `t` from the cells row `k - 1` computed at step
/// `t - 1`, so the K rows' dependency chains run side by side. `row` holds the row above the block and
/// receives the block's last row; `at` receives each row's minimum position. The cells are the ones the
/// row-by-row order computes, operation for operation.
fn block<const K: usize>(
    refc: &[u32],
    hyp: &[u32],
    row: &mut [f32],
    at: &mut [usize],
    p: &Parameters,
) {
    let n = hyp.len();
    let refc: [u32; K] = refc.try_into().expect("block rows");
    let mut w = Wave::<K> {
        prev: [0.0; K],
        diag: [0.0; K],
        minimum: [0.0; K],
        at: [0; K],
    };
    // what each row computed at the previous step: the cell above for the next row
    let mut out = [0.0f32; K];
    let step = |t: usize, w: &mut Wave<K>, out: &mut [f32; K], row: &mut [f32]| {
        for k in (0..K).rev() {
            if t < k || t - k > n {
                continue;
            }
            let i = t - k;
            let up = if k == 0 { row[i] } else { out[k - 1] };
            let v = if i == 0 {
                let v = up + 1.0;
                w.minimum[k] = (v as i32) as f32;
                w.at[k] = 0;
                w.diag[k] = up;
                w.prev[k] = v;
                v
            } else {
                cell(w, k, i, up, refc[k], hyp[i - 1], p)
            };
            out[k] = v;
            if k == K - 1 {
                row[i] = v;
            }
        }
    };
    let full = K..n + 1;
    for t in 0..K.min(n + K) {
        step(t, &mut w, &mut out, row);
    }
    // every row inside the grid, none at its first cell: no checks
    for t in full.clone() {
        let mut up = row[t];
        // the hypothesis characters of the K cells of this step (row k: hyp[t - k - 1]), checked once
        let chars: &[u32; K] = hyp[t - K..t].try_into().expect("K characters");
        for k in 0..K {
            let v = cell(&mut w, k, t - k, up, refc[k], chars[K - 1 - k], p);
            // the next row reads this row's cell of the previous step
            up = std::mem::replace(&mut out[k], v);
            if k == K - 1 {
                row[t - k] = v;
            }
        }
    }
    for t in full.end.max(K)..n + K {
        step(t, &mut w, &mut out, row);
    }
    at.copy_from_slice(&w.at);
}

/// EED of one (already preprocessed) hypothesis against one reference, as the original's float32 widened.
pub(crate) fn eed(hyp: &str, reference: &str, p: &Parameters, s: &mut Scratch) -> f64 {
    padded(hyp, &mut s.hyp);
    padded(reference, &mut s.reference);
    let n = s.hyp.len();
    let m = s.reference.len();
    s.visits.clear();
    s.visits.resize(n + 1, -1);
    s.row.clear();
    s.row.resize(n + 1, 1.0);
    s.row[0] = 0.0;
    let space = u32::from(' ');
    let mut at = [0usize; 8];
    let mut w = 0;
    while w < m {
        // rows up to the next space (included) and at most 8 go in one block
        let mut len = 1;
        while len < 8 && w + len < m && s.reference[w + len - 1] != space {
            len += 1;
        }
        let rows = &s.reference[w..w + len];
        let at = &mut at[..len];
        let (hyp, row) = (&s.hyp[..], &mut s.row[..]);
        match len {
            8 => block::<8>(rows, hyp, row, at, p),
            7 => block::<7>(rows, hyp, row, at, p),
            6 => block::<6>(rows, hyp, row, at, p),
            5 => block::<5>(rows, hyp, row, at, p),
            4 => block::<4>(rows, hyp, row, at, p),
            3 => block::<3>(rows, hyp, row, at, p),
            2 => block::<2>(rows, hyp, row, at, p),
            _ => block::<1>(rows, hyp, row, at, p),
        }
        for &a in at.iter() {
            s.visits[a] += 1;
        }
        let last_at = at[len - 1];
        if rows[len - 1] == space {
            // a long jump caps every cell at alpha above the row's minimum
            let jump = p.alpha + s.row[last_at];
            for v in s.row.iter_mut() {
                if *v > jump {
                    *v = jump;
                }
            }
        }
        w += len;
    }
    let errors = s.row[n];
    let uncovered: i64 = s.visits[1..]
        .iter()
        .map(|&v| if v >= 0 { v } else { 1 })
        .sum();
    let coverage = p.rho * uncovered as f32;
    let value = (errors + coverage) / (m as f32 + coverage);
    f64::from(value).min(1.0)
}

/// Whether Python's `str.isspace()` (and so its regex's `\s`) takes `c`: Unicode's White_Space and the
/// information separators U+001C..U+001F.
#[inline]
fn is_python_space(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// The titles the original joins to the character after their space (its regex's `.` is any character).
const TITLES: [&str; 9] = ["Dr", "Jr", "Prof", "Rev", "Gen", "Mr", "Mt", "Mrs", "Ms"];

/// The original's English preprocessing (Python's `util.preprocess_en`) of `line` into `out`: trailing
/// whitespace removed, a space before `. ! ? ,`, runs of whitespace as one space, `\d [.,] \d` joined, a
/// title and the character after its space joined with a `.`, then `e . g .` and `i . e .` as `e.g.`
/// and `U . S .` as `U.S.`. False (and `out` unspecified) when the line has a numeric character other
/// than an ASCII digit: Python's `\d` takes Unicode's decimal digits, which this does not tell apart.
pub fn preprocess_en(line: &str, out: &mut String) -> bool {
    let line = line.trim_end_matches(is_python_space);
    if line.chars().any(|c| !c.is_ascii() && c.is_numeric()) {
        return false;
    }
    // the spaces before punctuation, with whitespace runs as one space
    let mut spaced = String::with_capacity(line.len() + 16);
    let mut in_space = false;
    for c in line.chars() {
        if is_python_space(c) {
            if !in_space {
                spaced.push(' ');
                in_space = true;
            }
        } else {
            if matches!(c, '.' | '!' | '?' | ',') && !in_space {
                spaced.push(' ');
            }
            spaced.push(c);
            in_space = false;
        }
    }
    // decimals: the regex's matches, left to right, none overlapping
    let b = spaced.as_bytes();
    let mut joined: Vec<u8> = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if i + 4 < b.len()
            && b[i].is_ascii_digit()
            && b[i + 1] == b' '
            && matches!(b[i + 2], b'.' | b',')
            && b[i + 3] == b' '
            && b[i + 4].is_ascii_digit()
        {
            joined.extend_from_slice(&[b[i], b[i + 2], b[i + 4]]);
            i += 5;
        } else {
            joined.push(b[i]);
            i += 1;
        }
    }
    // only ASCII bytes were taken out of valid UTF-8
    let joined = String::from_utf8(joined).expect("UTF-8");
    // titles: the first alternative that matches at a position, as the regex tries them
    out.clear();
    let t = joined.as_str();
    let mut i = 0;
    let bytes = t.as_bytes();
    'scan: while i < t.len() {
        // up to the next byte a title can begin with, no title can match: copied as a run (that byte
        // is ASCII, so the run ends on a character boundary)
        let run = bytes[i..]
            .iter()
            .position(|b| matches!(b, b'D' | b'J' | b'P' | b'R' | b'G' | b'M'))
            .map_or(t.len(), |k| i + k);
        out.push_str(&t[i..run]);
        i = run;
        if i == t.len() {
            break;
        }
        let rest = &t[i..];
        for title in TITLES {
            if let Some(after) = rest.strip_prefix(title) {
                if let Some(next) = after.strip_prefix(' ').and_then(|a| a.chars().next()) {
                    out.push_str(title);
                    out.push('.');
                    i += title.len() + 1 + next.len_utf8();
                    continue 'scan;
                }
            }
        }
        let c = rest.chars().next().expect("a character");
        out.push(c);
        i += c.len_utf8();
    }
    if out.contains(" . ") {
        for (spaced, short) in [
            ("e . g .", "e.g."),
            ("i . e .", "e.g."),
            ("U . S .", "U.S."),
        ] {
            if out.contains(spaced) {
                *out = out.replace(spaced, short);
            }
        }
    }
    true
}

/// One segment: the preprocessed hypothesis and the references present.
pub struct Segment<'a> {
    pub hyp: &'a str,
    pub refs: Vec<&'a str>,
}

/// Each segment's EED, the smallest over its references, on `threads` threads (0: one per 64 segments);
/// a segment without a reference gets 1.
pub fn eed_values(segments: &[Segment<'_>], p: &Parameters, threads: usize, out: &mut [f64]) {
    smallest_per_segment(
        segments,
        EED_UNIT,
        threads,
        Scratch::default,
        out,
        |s, seg| {
            seg.refs
                .iter()
                .map(|r| eed(seg.hyp, r, p, s))
                .fold(f64::INFINITY, f64::min)
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid row by row, cell by cell: the definition the wavefront must equal bit for bit.
    fn eed_rows(hyp: &str, reference: &str, p: &Parameters) -> f64 {
        let pad =
            |t: &str| -> Vec<char> { std::iter::once(' ').chain(t.chars()).chain([' ']).collect() };
        let (h, r) = (pad(hyp), pad(reference));
        let n = h.len();
        let mut visits = vec![-1i64; n + 1];
        let mut row = vec![1.0f32; n + 1];
        row[0] = 0.0;
        let mut next = vec![f32::INFINITY; n + 1];
        for &rc in &r {
            let mut prev = row[0] + 1.0;
            next[0] = prev;
            let mut minimum = prev as i32;
            let mut at = 0;
            for i in 1..=n {
                let sub = if rc == h[i - 1] { 0.0 } else { p.substitution };
                let v = (prev + p.deletion)
                    .min(row[i - 1] + sub)
                    .min(row[i] + p.insertion);
                next[i] = v;
                if v < minimum as f32 {
                    minimum = v as i32;
                    at = i;
                }
                prev = v;
            }
            visits[at] += 1;
            if rc == ' ' {
                let jump = p.alpha + next[at];
                for v in next.iter_mut() {
                    if *v > jump {
                        *v = jump;
                    }
                }
            }
            std::mem::swap(&mut row, &mut next);
        }
        let uncovered: i64 = visits[1..]
            .iter()
            .map(|&v| if v >= 0 { v } else { 1 })
            .sum();
        let coverage = p.rho * uncovered as f32;
        f64::from((row[n] + coverage) / (r.len() as f32 + coverage)).min(1.0)
    }

    #[test]
    fn the_wavefront_equals_the_rows() {
        let mut draw = crate::testgen::xorshift(5);
        let mut next = |k: u64| draw(k as usize) as u64;
        let alphabet = ['a', 'b', ' ', 'c', 'é', '字', ' '];
        let mut s = Scratch::default();
        let params = [
            Parameters::default(),
            Parameters {
                alpha: 0.7,
                deletion: 0.35,
                insertion: 0.6,
                substitution: 1.3,
                rho: 0.1,
            },
        ];
        for round in 0..3000 {
            let len = |k: u64| if round % 7 == 0 { k * 8 } else { k };
            let h: String = (0..next(len(40)))
                .map(|_| alphabet[next(7) as usize])
                .collect();
            let r: String = (0..next(len(40)))
                .map(|_| alphabet[next(7) as usize])
                .collect();
            let p = &params[round % 2];
            assert_eq!(
                eed(&h, &r, p, &mut s).to_bits(),
                eed_rows(&h, &r, p).to_bits(),
                "{h:?} {r:?}"
            );
        }
    }

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
