//! Edit-rate alignments (WER, CER, MER, WIL, WIP), the alignment jiwer 4.0.0 takes from
//! `rapidfuzz.distance.Levenshtein.opcodes`, reproduced operation for operation.
//!
//! The distance is unique but the alignment is not, and the hits, substitutions, deletions and
//! insertions (so MER, WIL and WIP) depend on which optimal path is taken. rapidfuzz's path:
//!
//! * the common prefix, then the common suffix, is stripped (it is all hits);
//! * a problem whose bit matrix would reach 1 MiB (`2 * band * len(hyp) / 8` bytes, band
//!   `min(len(ref), 2 * max + 1)` for an upper bound `max` of the distance), with a reference of 65
//!   tokens or more and a hypothesis of 10 or more, is split in two (Hirschberg): the hypothesis at its
//!   middle, the reference where the distances of the two halves add up to the least, the first such
//!   place; each half is solved the same way with its own distance as the bound;
//! * a smaller problem is traced back through its full matrix from the bottom right, preferring at each
//!   cell a deletion (the reference token above costs one less), then an insertion (the cell to the left
//!   costs one less than the cell diagonally above it), then the diagonal (a hit or a substitution).
//!
//! Tokens arrive as dense ids (`0..alphabet`); [`Units`] turns text into them as jiwer's default
//! transforms do, with Python's definition of whitespace (`str.isspace`).

use crate::par::{for_each_unit, pick_threads};

/// One edit of an alignment: what it does to reference position `src` / hypothesis position `dest`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct EditOp {
    pub(crate) kind: Edit,
    pub(crate) src: u32,
    pub(crate) dest: u32,
}

/// The kind of an edit or of an opcode (a run of one kind).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Edit {
    Equal = 0,
    Replace = 1,
    Delete = 2,
    Insert = 3,
}

/// A run of one kind: reference `i1..i2` against hypothesis `j1..j2` (rapidfuzz's `Opcode`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Opcode {
    pub kind: Edit,
    pub i1: u32,
    pub i2: u32,
    pub j1: u32,
    pub j2: u32,
}

/// Columns of a statistics row: hits, substitutions, deletions, insertions, reference and hypothesis
/// lengths.
pub const ROW_WIDTH: usize = 6;

/// A reusable aligner (one per thread): buffers of the bit matrices and rows.
#[derive(Default)]
pub(crate) struct Aligner {
    ops: Vec<EditOp>,
    /// vertical +1 / -1 deltas of the matrix, `words` u64 per hypothesis row
    vp: Vec<u64>,
    vn: Vec<u64>,
    pm: Vec<u64>,
    /// the single-word pattern of [`Aligner::distance`], kept all zero between calls
    bits: Vec<u64>,
    last_vp: Vec<u64>,
    last_vn: Vec<u64>,
    row: Vec<u32>,
    row2: Vec<u32>,
    rev1: Vec<u32>,
    rev2: Vec<u32>,
}

impl Aligner {
    /// rapidfuzz's edit operations turning `s1` (the reference) into `s2` (the hypothesis), in order;
    /// every id is below `alphabet`.
    pub(crate) fn editops(&mut self, s1: &[u32], s2: &[u32], alphabet: usize) -> &[EditOp] {
        self.ops.clear();
        let max = s1.len().max(s2.len());
        self.align_split(s1, s2, 0, 0, max, alphabet);
        &self.ops
    }

    /// Hits, substitutions, deletions, insertions, reference and hypothesis lengths of the alignment.
    pub(crate) fn counts(&mut self, s1: &[u32], s2: &[u32], alphabet: usize) -> [i64; ROW_WIDTH] {
        let (mut s, mut d, mut i) = (0i64, 0i64, 0i64);
        for op in self.editops(s1, s2, alphabet) {
            match op.kind {
                Edit::Replace => s += 1,
                Edit::Delete => d += 1,
                Edit::Insert => i += 1,
                Edit::Equal => {}
            }
        }
        let (n1, n2) = (s1.len() as i64, s2.len() as i64);
        [n1 - s - d, s, d, i, n1, n2]
    }

    /// The Levenshtein distance of `s1` and `s2` (every id below `alphabet`): S + D + I of every optimal
    /// alignment, so no traceback is needed. Common affixes are stripped, the shorter side becomes the bit
    /// pattern: one u64 for up to 64 tokens (Hyyrö's recurrence), blocks with carries beyond.
    pub(crate) fn distance(&mut self, s1: &[u32], s2: &[u32], alphabet: usize) -> usize {
        let (_, s1, s2) = strip_affixes(s1, s2);
        let (short, long) = if s1.len() <= s2.len() {
            (s1, s2)
        } else {
            (s2, s1)
        };
        if short.is_empty() {
            return long.len();
        }
        if short.len() > 64 {
            self.block_rows(short, long, alphabet, false);
            let ones = |v: &[u64]| v.iter().map(|w| w.count_ones() as usize).sum::<usize>();
            return long.len() + ones(&self.last_vp) - ones(&self.last_vn);
        }
        // `bits` is all zero between calls: only the pattern's own entries are set, then cleared
        if self.bits.len() < alphabet {
            self.bits.resize(alphabet, 0);
        }
        for (i, &c) in short.iter().enumerate() {
            self.bits[c as usize] |= 1u64 << i;
        }
        let mut state = Hyyro::new(short.len());
        for &c in long {
            state.step(self.bits[c as usize]);
        }
        let dist = state.dist;
        for &c in short {
            self.bits[c as usize] = 0;
        }
        dist
    }

    /// rapidfuzz's opcodes (runs of equal, replace, delete and insert) of `s1` against `s2`, appended to
    /// `out`; returns the counts as [`Aligner::counts`].
    pub(crate) fn opcodes(
        &mut self,
        s1: &[u32],
        s2: &[u32],
        alphabet: usize,
        out: &mut Vec<Opcode>,
    ) -> [i64; ROW_WIDTH] {
        let row = self.counts(s1, s2, alphabet);
        let (len1, len2) = (s1.len() as u32, s2.len() as u32);
        let ops = &self.ops;
        let (mut src, mut dest) = (0u32, 0u32);
        let mut k = 0;
        while k < ops.len() {
            if src < ops[k].src || dest < ops[k].dest {
                out.push(Opcode {
                    kind: Edit::Equal,
                    i1: src,
                    i2: ops[k].src,
                    j1: dest,
                    j2: ops[k].dest,
                });
                src = ops[k].src;
                dest = ops[k].dest;
            }
            let (src_begin, dest_begin, kind) = (src, dest, ops[k].kind);
            loop {
                match kind {
                    Edit::Replace => {
                        src += 1;
                        dest += 1;
                    }
                    Edit::Insert => dest += 1,
                    Edit::Delete => src += 1,
                    Edit::Equal => {}
                }
                k += 1;
                if !(k < ops.len()
                    && ops[k].kind == kind
                    && src == ops[k].src
                    && dest == ops[k].dest)
                {
                    break;
                }
            }
            out.push(Opcode {
                kind,
                i1: src_begin,
                i2: src,
                j1: dest_begin,
                j2: dest,
            });
        }
        if src < len1 || dest < len2 {
            out.push(Opcode {
                kind: Edit::Equal,
                i1: src,
                i2: len1,
                j1: dest,
                j2: len2,
            });
        }
        row
    }

    fn align_split(
        &mut self,
        s1: &[u32],
        s2: &[u32],
        src_pos: usize,
        dest_pos: usize,
        max: usize,
        alphabet: usize,
    ) {
        let (prefix, s1, s2) = strip_affixes(s1, s2);
        let (src_pos, dest_pos) = (src_pos + prefix, dest_pos + prefix);
        let max = max.min(s1.len().max(s2.len()));
        let full_band = s1.len().min(2 * max + 1);
        let matrix_size = 2 * full_band * s2.len() / 8;
        if matrix_size < 1024 * 1024 || s1.len() < 65 || s2.len() < 10 {
            self.align_leaf(s1, s2, src_pos, dest_pos, alphabet);
        } else {
            let (s1_mid, s2_mid, left, right) = self.split_point(s1, s2, alphabet);
            self.align_split(
                &s1[..s1_mid],
                &s2[..s2_mid],
                src_pos,
                dest_pos,
                left,
                alphabet,
            );
            self.align_split(
                &s1[s1_mid..],
                &s2[s2_mid..],
                src_pos + s1_mid,
                dest_pos + s2_mid,
                right,
                alphabet,
            );
        }
    }

    /// Hirschberg's split: the hypothesis at `len(s2) / 2`, the reference at the first place where the
    /// distances of the two halves add up to the least; `(s1_mid, s2_mid, left distance, right distance)`.
    fn split_point(
        &mut self,
        s1: &[u32],
        s2: &[u32],
        alphabet: usize,
    ) -> (usize, usize, usize, usize) {
        let left_size = s2.len() / 2;
        let mut rev1 = std::mem::take(&mut self.rev1);
        let mut rev2 = std::mem::take(&mut self.rev2);
        rev1.clear();
        rev1.extend(s1.iter().rev());
        rev2.clear();
        rev2.extend(s2[left_size..].iter().rev());
        let mut right = std::mem::take(&mut self.row2);
        self.last_row(&rev1, &rev2, alphabet, &mut right);
        let mut left = std::mem::take(&mut self.row);
        self.last_row(s1, &s2[..left_size], alphabet, &mut left);
        let n = s1.len();
        let (mut best, mut mid) = (usize::MAX, 0);
        for i in 0..=n {
            let sum = (left[i] + right[n - i]) as usize;
            if sum < best {
                best = sum;
                mid = i;
            }
        }
        let result = (mid, left_size, left[mid] as usize, right[n - mid] as usize);
        self.rev1 = rev1;
        self.rev2 = rev2;
        self.row2 = right;
        self.row = left;
        result
    }

    /// The traceback of a problem small enough for its full matrix (rapidfuzz's `levenshtein_align` and
    /// `recover_alignment`).
    fn align_leaf(
        &mut self,
        s1: &[u32],
        s2: &[u32],
        src_pos: usize,
        dest_pos: usize,
        alphabet: usize,
    ) {
        let start = self.ops.len();
        let (m, n) = (s1.len(), s2.len());
        if m > 0 && n > 0 {
            let words = m.div_ceil(64);
            self.fill_matrix(s1, s2, words, alphabet);
            let (mut col, mut row) = (m, n);
            let bit = |v: &[u64], r: usize, c: usize| v[r * words + c / 64] >> (c % 64) & 1 != 0;
            while row > 0 && col > 0 {
                if bit(&self.vp, row - 1, col - 1) {
                    col -= 1;
                    self.ops
                        .push(op(Edit::Delete, col + src_pos, row + dest_pos));
                } else {
                    row -= 1;
                    if row > 0 && bit(&self.vn, row - 1, col - 1) {
                        self.ops
                            .push(op(Edit::Insert, col + src_pos, row + dest_pos));
                    } else {
                        col -= 1;
                        if s1[col] != s2[row] {
                            self.ops
                                .push(op(Edit::Replace, col + src_pos, row + dest_pos));
                        }
                    }
                }
            }
            while col > 0 {
                col -= 1;
                self.ops
                    .push(op(Edit::Delete, col + src_pos, row + dest_pos));
            }
            while row > 0 {
                row -= 1;
                self.ops
                    .push(op(Edit::Insert, col + src_pos, row + dest_pos));
            }
        } else {
            // one side empty: the other's tokens, deleted or inserted, last first as the traceback
            for col in (0..m).rev() {
                self.ops.push(op(Edit::Delete, col + src_pos, dest_pos));
            }
            for row in (0..n).rev() {
                self.ops.push(op(Edit::Insert, src_pos, row + dest_pos));
            }
        }
        self.ops[start..].reverse();
    }

    /// The vertical deltas of the matrix of `s1` (bits, `words` u64 a row) against `s2` (rows), +1 in
    /// `vp`, -1 in `vn`: Hyyrö's bit-parallel recurrence for a reference of up to 64 tokens, the
    /// integer recurrence for longer ones (the same deltas).
    fn fill_matrix(&mut self, s1: &[u32], s2: &[u32], words: usize, alphabet: usize) {
        let (m, n) = (s1.len(), s2.len());
        self.vp.clear();
        self.vp.resize(n * words, 0);
        self.vn.clear();
        self.vn.resize(n * words, 0);
        if m <= 64 {
            self.pm.clear();
            self.pm.resize(alphabet, 0);
            for (i, &c) in s1.iter().enumerate() {
                self.pm[c as usize] |= 1u64 << i;
            }
            let mask = if m == 64 { u64::MAX } else { (1u64 << m) - 1 };
            let (mut vp, mut vn) = (mask, 0u64);
            for (r, &c) in s2.iter().enumerate() {
                let x = self.pm[c as usize];
                let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
                let hp = vn | !(d0 | vp);
                let hn = d0 & vp;
                let hp = (hp << 1) | 1;
                let hn = hn << 1;
                vp = (hn | !(d0 | hp)) & mask;
                vn = hp & d0 & mask;
                self.vp[r] = vp;
                self.vn[r] = vn;
            }
            return;
        }
        self.block_rows(s1, s2, alphabet, true);
    }

    /// Hyyrö's block recurrence (Myers' carries between 64-bit words) of `s1` against `s2`: the vertical
    /// deltas of every row into `vp`/`vn` when `record`, and those of the last row in `last_vp`/`last_vn`.
    fn block_rows(&mut self, s1: &[u32], s2: &[u32], alphabet: usize, record: bool) {
        let (m, words) = (s1.len(), s1.len().div_ceil(64));
        self.pm.clear();
        self.pm.resize(alphabet * words, 0);
        for (i, &c) in s1.iter().enumerate() {
            self.pm[c as usize * words + i / 64] |= 1u64 << (i % 64);
        }
        let last = 1u64 << ((m - 1) % 64);
        let tail = if m % 64 == 0 {
            u64::MAX
        } else {
            (1u64 << (m % 64)) - 1
        };
        self.last_vp.clear();
        self.last_vp.resize(words, u64::MAX);
        self.last_vn.clear();
        self.last_vn.resize(words, 0);
        for (r, &c) in s2.iter().enumerate() {
            let (mut hp_carry, mut hn_carry) = (1u64, 0u64);
            let pm = &self.pm[c as usize * words..(c as usize + 1) * words];
            for (w, &pm_w) in pm.iter().enumerate() {
                let (vp, vn) = (self.last_vp[w], self.last_vn[w]);
                let x = pm_w | hn_carry;
                let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
                let hp = vn | !(d0 | vp);
                let hn = d0 & vp;
                let (hp_in, hn_in) = (hp_carry, hn_carry);
                if w + 1 < words {
                    hp_carry = hp >> 63;
                    hn_carry = hn >> 63;
                } else {
                    hp_carry = u64::from(hp & last != 0);
                    hn_carry = u64::from(hn & last != 0);
                }
                let hp = (hp << 1) | hp_in;
                let hn = (hn << 1) | hn_in;
                let mut nvp = hn | !(d0 | hp);
                let mut nvn = hp & d0;
                if w + 1 == words {
                    nvp &= tail;
                    nvn &= tail;
                }
                self.last_vp[w] = nvp;
                self.last_vn[w] = nvn;
            }
            if record {
                self.vp[r * words..(r + 1) * words].copy_from_slice(&self.last_vp);
                self.vn[r * words..(r + 1) * words].copy_from_slice(&self.last_vn);
            }
        }
    }

    /// `out[i]` = the distance of `s1[..i]` to all of `s2`, for `i` in `0..=len(s1)` (from the vertical
    /// deltas of the last row).
    fn last_row(&mut self, s1: &[u32], s2: &[u32], alphabet: usize, out: &mut Vec<u32>) {
        out.clear();
        out.push(s2.len() as u32);
        if s1.is_empty() {
            return;
        }
        self.block_rows(s1, s2, alphabet, false);
        let mut d = s2.len() as u32;
        for i in 0..s1.len() {
            let bit = 1u64 << (i % 64);
            if self.last_vp[i / 64] & bit != 0 {
                d += 1;
            } else if self.last_vn[i / 64] & bit != 0 {
                d -= 1;
            }
            out.push(d);
        }
    }
}

/// The common prefix's length and what is left of `s1` and `s2` without their common prefix and suffix.
fn strip_affixes<'a>(s1: &'a [u32], s2: &'a [u32]) -> (usize, &'a [u32], &'a [u32]) {
    let prefix = s1.iter().zip(s2).take_while(|(a, b)| a == b).count();
    let (s1, s2) = (&s1[prefix..], &s2[prefix..]);
    let suffix = s1
        .iter()
        .rev()
        .zip(s2.iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    (prefix, &s1[..s1.len() - suffix], &s2[..s2.len() - suffix])
}

/// Hyyrö's bit-parallel recurrence of a pattern of 1 to 64 tokens (a bit per position) against a text fed
/// a token at a time, keeping only the distance of the whole pattern.
struct Hyyro {
    vp: u64,
    vn: u64,
    last: u64,
    dist: usize,
}

impl Hyyro {
    fn new(pattern_len: usize) -> Self {
        Hyyro {
            vp: u64::MAX,
            vn: 0,
            last: 1u64 << (pattern_len - 1),
            dist: pattern_len,
        }
    }

    /// One text token, given by the pattern positions it equals.
    #[inline(always)]
    fn step(&mut self, x: u64) {
        let (vp, vn) = (self.vp, self.vn);
        let d0 = (((x & vp).wrapping_add(vp)) ^ vp) | x | vn;
        let hp = vn | !(d0 | vp);
        let hn = d0 & vp;
        self.dist = self.dist + usize::from(hp & self.last != 0) - usize::from(hn & self.last != 0);
        let hp = (hp << 1) | 1;
        self.vp = (hn << 1) | !(d0 | hp);
        self.vn = hp & d0;
    }
}

fn op(kind: Edit, src: usize, dest: usize) -> EditOp {
    EditOp {
        kind,
        src: src as u32,
        dest: dest as u32,
    }
}

/// `out[i]` = the distance of `s1[..i]` to all of `s2` (the textbook recurrence, for the tests).
#[cfg(test)]
fn last_row(s1: &[u32], s2: &[u32], out: &mut Vec<u32>) {
    out.clear();
    out.extend(0..=s1.len() as u32);
    for (r, &c) in s2.iter().enumerate() {
        let mut diag = out[0];
        out[0] = r as u32 + 1;
        for i in 1..=s1.len() {
            let up = out[i];
            out[i] = (diag + u32::from(s1[i - 1] != c))
                .min(up + 1)
                .min(out[i - 1] + 1);
            diag = up;
        }
    }
}

/// Python's `str.isspace`: Unicode White_Space plus the four separators U+001C..U+001F.
pub(crate) fn py_isspace(c: char) -> bool {
    c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c)
}

/// How text becomes tokens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Units {
    /// jiwer's `wer_default`: runs of two or more whitespace characters become one space, the ends are
    /// stripped, words are split at single spaces only (a lone tab or NBSP stays inside its word).
    JiwerWords,
    /// Python's `str.split()`: words between runs of any whitespace (torchmetrics, NeMo).
    SplitWords,
    /// jiwer's `cer_default`: the characters of the stripped text.
    JiwerChars,
    /// HF evaluate's `cer` under jiwer 3: runs of whitespace collapsed as `JiwerWords`, stripped, then
    /// characters.
    CollapsedChars,
    /// Every character as it is (torchmetrics, NeMo).
    RawChars,
}

impl Units {
    pub fn parse(name: &str) -> Option<Units> {
        Some(match name {
            "jiwer-words" => Units::JiwerWords,
            "split-words" => Units::SplitWords,
            "jiwer-chars" => Units::JiwerChars,
            "collapsed-chars" => Units::CollapsedChars,
            "raw-chars" => Units::RawChars,
            _ => return None,
        })
    }

    pub(crate) fn is_words(self) -> bool {
        matches!(self, Units::JiwerWords | Units::SplitWords)
    }
}

/// The words of `text` under `units` (a word unit), appended to `out`.
pub(crate) fn words_into<'a>(text: &'a str, units: Units, out: &mut Vec<&'a str>) {
    match units {
        Units::SplitWords => out.extend(text.split(py_isspace).filter(|w| !w.is_empty())),
        _ => {
            let text = text.trim_matches(py_isspace);
            let mut start = 0;
            let mut chars = text.char_indices().peekable();
            while let Some((i, c)) = chars.next() {
                if !py_isspace(c) {
                    continue;
                }
                // a run of whitespace from i
                let mut end = i + c.len_utf8();
                let mut run = 1;
                while let Some(&(j, d)) = chars.peek() {
                    if !py_isspace(d) {
                        break;
                    }
                    end = j + d.len_utf8();
                    run += 1;
                    chars.next();
                }
                if run >= 2 || c == ' ' {
                    if i > start {
                        out.push(&text[start..i]);
                    }
                    start = end;
                }
            }
            if text.len() > start {
                out.push(&text[start..]);
            }
        }
    }
}

/// The characters of `text` under `units` (a character unit) as code points, appended to `out`.
pub(crate) fn chars_into(text: &str, units: Units, out: &mut Vec<u32>) {
    match units {
        Units::RawChars => out.extend(text.chars().map(u32::from)),
        Units::JiwerChars => out.extend(text.trim_matches(py_isspace).chars().map(u32::from)),
        _ => {
            let text = text.trim_matches(py_isspace);
            let mut chars = text.chars().peekable();
            while let Some(c) = chars.next() {
                if py_isspace(c) && chars.peek().is_some_and(|&d| py_isspace(d)) {
                    while chars.peek().is_some_and(|&d| py_isspace(d)) {
                        chars.next();
                    }
                    out.push(u32::from(' '));
                } else {
                    out.push(u32::from(c));
                }
            }
        }
    }
}

/// A word's hash: its bytes eight at a time, multiplied and rotated (the interner compares the bytes of
/// equal hashes, so this only has to spread words well).
fn hash_bytes(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        let w = u64::from_le_bytes(c.try_into().expect("8 bytes"));
        h = (h ^ w).wrapping_mul(K).rotate_left(31);
    }
    let rest = chunks.remainder();
    if !rest.is_empty() {
        let mut buf = [0u8; 8];
        buf[..rest.len()].copy_from_slice(rest);
        h = (h ^ u64::from_le_bytes(buf))
            .wrapping_mul(K)
            .rotate_left(31);
    }
    (h ^ (h >> 29)).wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

/// Python's whitespace among ASCII bytes: `\t \n \v \f \r`, U+001C..U+001F and the space.
fn ascii_space(b: u8) -> bool {
    matches!(b, b'\t'..=b'\r' | 0x1c..=0x20)
}

/// Whether UTF-8 `bytes` hold a whitespace character beyond ASCII (U+0085, U+00A0, U+1680, U+2000..U+200A,
/// U+2028, U+2029, U+202F, U+205F, U+3000: Python's and Unicode's, the same set). Without one, words end
/// at ASCII bytes only, which no multi-byte character contains, so the byte scans below apply.
fn has_unicode_space(bytes: &[u8]) -> bool {
    let at = |i: usize| bytes.get(i).copied().unwrap_or(0);
    bytes.iter().enumerate().any(|(i, &b)| match b {
        0xc2 => matches!(at(i + 1), 0x85 | 0xa0),
        0xe1 => at(i + 1) == 0x9a && at(i + 2) == 0x80,
        0xe2 => match at(i + 1) {
            0x80 => matches!(at(i + 2), 0x80..=0x8a | 0xa8 | 0xa9 | 0xaf),
            0x81 => at(i + 2) == 0x9f,
            _ => false,
        },
        0xe3 => at(i + 1) == 0x80 && at(i + 2) == 0x80,
        _ => false,
    })
}

/// The byte ranges of the pieces of `bytes` between spaces, empty ones left out, appended to `out`: eight
/// bytes at a time, the spaces of each found as the zero bytes of `x ^ 0x20..20`.
fn space_spans(bytes: &[u8], out: &mut Vec<(u32, u32)>) {
    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    let n = bytes.len();
    let (mut start, mut i) = (0usize, 0usize);
    let mut push = |pos: usize, start: &mut usize| {
        if pos > *start {
            out.push((*start as u32, pos as u32));
        }
        *start = pos + 1;
    };
    while i + 8 <= n {
        let x = u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
        let y = x ^ 0x2020_2020_2020_2020;
        // the high bit of each byte of `spaces` is set exactly where that byte of y is zero
        let mut spaces = !(((y & LOW7) + LOW7) | y | LOW7);
        while spaces != 0 {
            push(i + (spaces.trailing_zeros() / 8) as usize, &mut start);
            spaces &= spaces - 1;
        }
        i += 8;
    }
    for (j, &b) in bytes.iter().enumerate().skip(i) {
        if b == b' ' {
            push(j, &mut start);
        }
    }
    if n > start {
        out.push((start as u32, n as u32));
    }
}

/// The byte ranges of the words of `text` under `units` (a word unit), appended to `out`; an ASCII text
/// (or one whose only whitespace is ASCII) is scanned byte by byte, any other as [`words_into`].
pub(crate) fn word_spans(text: &str, units: Units, out: &mut Vec<(u32, u32)>) {
    let bytes = text.as_bytes();
    if !text.is_ascii() && has_unicode_space(bytes) {
        let base = text.as_ptr() as usize;
        let mut words = Vec::new();
        words_into(text, units, &mut words);
        out.extend(words.iter().map(|w| {
            let start = (w.as_ptr() as usize - base) as u32;
            (start, start + w.len() as u32)
        }));
        return;
    }
    if !bytes.iter().any(|&b| b < 0x20) {
        // spaces are the only whitespace: both units split at every space, dropping empty pieces
        space_spans(bytes, out);
        return;
    }
    let (mut i, n) = (0usize, bytes.len());
    let mut start = None;
    while i < n {
        let b = bytes[i];
        if !ascii_space(b) {
            if start.is_none() {
                start = Some(i);
            }
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < n && ascii_space(bytes[j]) {
            j += 1;
        }
        // a lone whitespace byte other than the space stays inside its word (jiwer's default), unless it
        // is at an end of the text (stripped)
        let splits =
            units == Units::SplitWords || j - i >= 2 || b == b' ' || start.is_none() || j == n;
        if splits {
            if let Some(s) = start.take() {
                out.push((s as u32, i as u32));
            }
        }
        i = j;
    }
    if let Some(s) = start {
        out.push((s as u32, n as u32));
    }
}

/// Dense ids of one pair's tokens: an open-addressing table of the distinct tokens (words as byte
/// ranges of the pair's two texts, characters as code points), reused from pair to pair.
#[derive(Default)]
struct Interner {
    /// slot -> id + 1 (0: empty)
    slots: Vec<u32>,
    /// id -> (hash, text 0 or 1, start, end); a character's code point is its `start`
    keys: Vec<(u64, u8, u32, u32)>,
}

impl Interner {
    fn reset(&mut self, tokens: usize) {
        let cap = (2 * tokens + 2).next_power_of_two();
        self.slots.clear();
        self.slots.resize(cap, 0);
        self.keys.clear();
    }

    /// The id of the token `(side, start, end)` with hash `h`; `same(a, b)` says whether two keys are the
    /// same token.
    fn id(
        &mut self,
        key: (u64, u8, u32, u32),
        same: impl Fn(&(u64, u8, u32, u32), &(u64, u8, u32, u32)) -> bool,
    ) -> u32 {
        let mask = self.slots.len() - 1;
        let mut slot = (key.0 as usize) & mask;
        loop {
            let s = self.slots[slot];
            if s == 0 {
                self.keys.push(key);
                let id = self.keys.len() as u32;
                self.slots[slot] = id;
                return id - 1;
            }
            let k = &self.keys[s as usize - 1];
            if k.0 == key.0 && same(k, &key) {
                return s - 1;
            }
            slot = (slot + 1) & mask;
        }
    }
}

/// Dense ids of one pair's words, keyed by their bytes: a word of up to 16 bytes is its own key (no
/// hash collision to resolve), a longer one is keyed by a hash and its first bytes and compared in full on
/// a match. Slots carry the number of the pair that filled them, so nothing is cleared between pairs.
#[derive(Default)]
struct WordTable {
    slots: Vec<WordSlot>,
    pair: u32,
    mask: usize,
    ids: u32,
}

#[derive(Clone, Copy, Default)]
struct WordSlot {
    key: u128,
    len: u32,
    pair: u32,
    id: u32,
    /// the text (top bit) and start of the word's first occurrence
    at: u32,
    /// the positions of the word in the reference, for [`PairWorker::plain_word_distance`]
    bits: u64,
}

const SIDE_BIT: u32 = 1 << 31;

/// A word's key: a word of up to 16 bytes is its bytes (sixteen read from its start, or up to its end, the
/// others masked off: no copy of a variable length unless the whole text is shorter), a longer one a hash
/// and its first eight bytes.
#[inline(always)]
fn word_key(bytes: &[u8], start: usize, end: usize) -> u128 {
    let len = end - start;
    if len > 16 {
        let word = &bytes[start..end];
        let head = u64::from_le_bytes(word[..8].try_into().expect("8 bytes"));
        return u128::from(hash_bytes(word)) | u128::from(head) << 64;
    }
    if start + 16 <= bytes.len() {
        let v = u128::from_le_bytes(bytes[start..start + 16].try_into().expect("16 bytes"));
        if len == 16 {
            v
        } else {
            v & ((1u128 << (8 * len)) - 1)
        }
    } else if end >= 16 {
        let v = u128::from_le_bytes(bytes[end - 16..end].try_into().expect("16 bytes"));
        if len == 0 {
            0
        } else {
            v >> (8 * (16 - len))
        }
    } else {
        let mut buf = [0u8; 16];
        buf[..len].copy_from_slice(&bytes[start..end]);
        u128::from_le_bytes(buf)
    }
}

impl WordTable {
    /// An empty table for a pair of `words` words in all: at least four slots a word.
    fn reset(&mut self, words: usize) {
        let cap = (4 * words).next_power_of_two().max(32);
        if self.slots.len() < cap {
            self.slots.resize(cap, WordSlot::default());
        }
        self.pair = self.pair.wrapping_add(1);
        if self.pair == 0 {
            self.slots.fill(WordSlot::default());
            self.pair = 1;
        }
        self.mask = cap - 1;
        self.ids = 0;
    }

    #[inline(always)]
    fn first_slot(&self, key: u128, len: usize) -> usize {
        let mixed = (key as u64 ^ ((key >> 64) as u64).rotate_left(29) ^ len as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        (mixed >> 32) as usize & self.mask
    }

    /// Whether slot `s` holds the word `bytes[start..end]` of key `key`.
    #[inline(always)]
    fn holds(
        &self,
        s: &WordSlot,
        texts: [&[u8]; 2],
        key: u128,
        start: usize,
        end: usize,
        side: usize,
    ) -> bool {
        let len = end - start;
        s.key == key
            && s.len == len as u32
            && (len <= 16 || {
                let first = (s.at & !SIDE_BIT) as usize;
                let other = texts[usize::from(s.at & SIDE_BIT != 0)];
                other[first..first + len] == texts[side][start..end]
            })
    }

    /// The slot of the word `texts[side][start..end]`, filled (with the next id) if it was new.
    #[inline(always)]
    fn slot(&mut self, texts: [&[u8]; 2], side: usize, start: usize, end: usize) -> &mut WordSlot {
        let key = word_key(texts[side], start, end);
        let mut slot = self.first_slot(key, end - start);
        loop {
            let s = &self.slots[slot];
            if s.pair != self.pair {
                self.slots[slot] = WordSlot {
                    key,
                    len: (end - start) as u32,
                    pair: self.pair,
                    id: self.ids,
                    at: start as u32 | if side == 1 { SIDE_BIT } else { 0 },
                    bits: 0,
                };
                self.ids += 1;
                return &mut self.slots[slot];
            }
            if self.holds(s, texts, key, start, end, side) {
                return &mut self.slots[slot];
            }
            slot = (slot + 1) & self.mask;
        }
    }

    /// The id of the word `texts[side][start..end]`.
    #[inline(always)]
    fn id(&mut self, texts: [&[u8]; 2], side: usize, start: usize, end: usize) -> u32 {
        self.slot(texts, side, start, end).id
    }

    /// The bits of the word `texts[1][start..end]` (set by the reference's words, `texts[0]`), 0 for a word
    /// the table does not hold; nothing is added.
    #[inline(always)]
    fn bits_of(&self, texts: [&[u8]; 2], start: usize, end: usize) -> u64 {
        let key = word_key(texts[1], start, end);
        let mut slot = self.first_slot(key, end - start);
        loop {
            let s = &self.slots[slot];
            let filled = s.pair == self.pair;
            if !filled || self.holds(s, texts, key, start, end, 1) {
                return if filled { s.bits } else { 0 };
            }
            slot = (slot + 1) & self.mask;
        }
    }
}

/// What [`classify16`] finds in sixteen bytes: a bit per byte.
struct Chunk16 {
    spaces: u32,
    /// bytes below 0x20 (ASCII whitespace and other control characters)
    controls: u32,
    /// 0xC2 and 0xE0..=0xE3: the lead bytes of every whitespace character beyond ASCII (and of others)
    leads: u32,
}

/// [`Chunk16`] of sixteen bytes, with SSE2 (in every x86-64 processor).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn classify16(b: &[u8; 16]) -> Chunk16 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is in the x86-64 baseline; the load reads exactly the 16 bytes of `b`
    unsafe {
        let x = _mm_loadu_si128(b.as_ptr().cast());
        let mask = |v: __m128i| _mm_movemask_epi8(v) as u32;
        let splat = |c: u8| _mm_set1_epi8(c as i8);
        let spaces = mask(_mm_cmpeq_epi8(x, splat(b' ')));
        // x <= 0x1f exactly where max(x, 0x1f) == 0x1f (unsigned)
        let controls = mask(_mm_cmpeq_epi8(_mm_max_epu8(x, splat(0x1f)), splat(0x1f)));
        let leads = if mask(x) == 0 {
            0
        } else {
            mask(_mm_or_si128(
                _mm_cmpeq_epi8(x, splat(0xc2)),
                _mm_cmpeq_epi8(_mm_and_si128(x, splat(0xfc)), splat(0xe0)),
            ))
        };
        Chunk16 {
            spaces,
            controls,
            leads,
        }
    }
}

/// [`Chunk16`] of sixteen bytes, byte by byte (where SSE2 is not at hand; the tests compare the two).
#[cfg_attr(target_arch = "x86_64", allow(dead_code))]
#[inline(always)]
fn classify16_bytes(b: &[u8; 16]) -> Chunk16 {
    let bits = |f: &dyn Fn(u8) -> bool| {
        b.iter()
            .enumerate()
            .fold(0u32, |m, (k, &c)| m | u32::from(f(c)) << k)
    };
    Chunk16 {
        spaces: bits(&|c| c == b' '),
        controls: bits(&|c| c < 0x20),
        leads: bits(&|c| c == 0xc2 || (0xe0..=0xe3).contains(&c)),
    }
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn classify16(b: &[u8; 16]) -> Chunk16 {
    classify16_bytes(b)
}

/// A bit per byte of `bytes`, set at its spaces, into `bits` (and every bit past its end set, at least
/// one), when the text's only whitespace is the space: then every word unit splits it at them, dropping
/// empty pieces. False when it holds another whitespace character, an ASCII one (a byte below 0x20) or
/// one beyond ASCII (looked for at the lead bytes that [`classify16`] marks only).
fn space_bits(bytes: &[u8], bits: &mut Vec<u64>) -> bool {
    let n = bytes.len();
    bits.clear();
    bits.resize(n / 64 + 1, u64::MAX);
    let mut i = 0;
    while i < n {
        let chunk: [u8; 16] = if i + 16 <= n {
            bytes[i..i + 16].try_into().expect("16 bytes")
        } else {
            let mut buf = [b' '; 16];
            buf[..n - i].copy_from_slice(&bytes[i..]);
            buf
        };
        let c = classify16(&chunk);
        if c.controls != 0 {
            return false;
        }
        let mut leads = c.leads;
        while leads != 0 {
            let at = i + leads.trailing_zeros() as usize;
            if has_unicode_space(&bytes[at..(at + 3).min(n)]) {
                return false;
            }
            leads &= leads - 1;
        }
        let shift = i % 64;
        let word = &mut bits[i / 64];
        *word = *word & !(0xffff << shift) | u64::from(c.spaces) << shift;
        i += 16;
    }
    true
}

/// Calls `f(start, end)` for each word (run of clear bits) of a text of `n` bytes whose spaces are the set
/// bits of `bits` (from [`space_bits`]), in order.
#[inline(always)]
fn for_each_word(bits: &[u64], n: usize, mut f: impl FnMut(usize, usize)) {
    let mut pos = 0;
    loop {
        // the next clear bit from pos: a word's start
        let mut w = pos / 64;
        let mut rest = !bits[w] >> (pos % 64);
        while rest == 0 {
            w += 1;
            if w >= bits.len() {
                return;
            }
            pos = w * 64;
            rest = !bits[w];
        }
        let start = pos + rest.trailing_zeros() as usize;
        if start >= n {
            return;
        }
        // the next set bit from start: its end (bits past the text are set)
        let mut w = start / 64;
        let mut rest = bits[w] >> (start % 64);
        pos = start;
        while rest == 0 {
            w += 1;
            pos = w * 64;
            rest = bits[w];
        }
        let end = pos + rest.trailing_zeros() as usize;
        f(start, end);
        pos = end;
    }
}

/// The number of words (runs of clear bits) of space bits from [`space_bits`].
fn count_words(bits: &[u64]) -> usize {
    // a word starts at a clear bit after a set one (or at the text's start)
    let mut before = 1u64;
    let mut count = 0;
    for &b in bits {
        count += (!b & (b << 1 | before)).count_ones() as usize;
        before = b >> 63;
    }
    count
}

/// The byte ranges of the words of `bytes` appended to `out` when it splits at spaces alone (see
/// [`space_bits`]), else false (`out` as it was).
fn plain_space_spans(bytes: &[u8], bits: &mut Vec<u64>, out: &mut Vec<(u32, u32)>) -> bool {
    if !space_bits(bytes, bits) {
        return false;
    }
    for_each_word(bits, bytes.len(), |a, b| out.push((a as u32, b as u32)));
    true
}

/// One thread's buffers for pairs of texts: token ids, the interner, the aligner.
#[derive(Default)]
pub struct PairWorker {
    pub(crate) aligner: Aligner,
    interner: Interner,
    words: WordTable,
    spans: [Vec<(u32, u32)>; 2],
    /// space bits of the reference and the hypothesis
    bits: [Vec<u64>; 2],
    codes: [Vec<u32>; 2],
    ids1: Vec<u32>,
    ids2: Vec<u32>,
}

impl PairWorker {
    /// Tokens of `reference` and `hypothesis` as dense ids in `ids1`/`ids2`; returns the alphabet size.
    fn tokenize(&mut self, reference: &str, hypothesis: &str, units: Units) -> usize {
        self.ids1.clear();
        self.ids2.clear();
        let texts = [reference, hypothesis];
        if units.is_words() {
            for (side, spans) in self.spans.iter_mut().enumerate() {
                let text = texts[side];
                spans.clear();
                if !plain_space_spans(text.as_bytes(), &mut self.bits[side], spans) {
                    word_spans(text, units, spans);
                }
            }
            self.words.reset(self.spans[0].len() + self.spans[1].len());
            let bytes = [reference.as_bytes(), hypothesis.as_bytes()];
            for &(start, end) in &self.spans[0] {
                let id = self.words.id(bytes, 0, start as usize, end as usize);
                self.ids1.push(id);
            }
            for &(start, end) in &self.spans[1] {
                let id = self.words.id(bytes, 1, start as usize, end as usize);
                self.ids2.push(id);
            }
            self.words.ids as usize
        } else {
            for (codes, text) in self.codes.iter_mut().zip(texts) {
                codes.clear();
                chars_into(text, units, codes);
            }
            self.interner
                .reset(self.codes[0].len() + self.codes[1].len());
            for side in 0..2 {
                for &c in &self.codes[side] {
                    let h =
                        (u64::from(c) ^ 0x9e37_79b9_7f4a_7c15).wrapping_mul(0xbf58_476d_1ce4_e5b9);
                    let id = self.interner.id((h >> 7, 0, c, 0), |a, b| a.2 == b.2);
                    if side == 0 {
                        self.ids1.push(id)
                    } else {
                        self.ids2.push(id)
                    }
                }
            }
            self.interner.keys.len()
        }
    }

    /// The tokens of the last pair's reference (`side` 0) or hypothesis (1) from [`PairWorker::align_text`]:
    /// byte ranges of its text for word units, code points for character units.
    pub fn last_tokens(&self, side: usize, units: Units) -> LastTokens<'_> {
        if units.is_words() {
            LastTokens::Spans(&self.spans[side])
        } else {
            LastTokens::Codes(&self.codes[side])
        }
    }

    /// The statistics row of one pair of texts.
    pub(crate) fn count_text(
        &mut self,
        reference: &str,
        hypothesis: &str,
        units: Units,
    ) -> [i64; ROW_WIDTH] {
        let alphabet = self.tokenize(reference, hypothesis, units);
        self.aligner.counts(&self.ids1, &self.ids2, alphabet)
    }

    /// The edit distance of one pair of texts and its token counts, `[distance, reference length,
    /// hypothesis length]`.
    pub(crate) fn distance_text(
        &mut self,
        reference: &str,
        hypothesis: &str,
        units: Units,
    ) -> [i64; 3] {
        if units.is_words() {
            if let Some(row) = self.plain_word_distance(reference, hypothesis) {
                return row;
            }
        }
        let alphabet = self.tokenize(reference, hypothesis, units);
        let d = self.aligner.distance(&self.ids1, &self.ids2, alphabet);
        [d as i64, self.ids1.len() as i64, self.ids2.len() as i64]
    }

    /// [`PairWorker::distance_text`] of words, when both texts split at spaces alone and the reference
    /// has at most 64 words (else None): the reference's words are the table's keys with their positions
    /// as bits, and each hypothesis word looked up (without adding it) feeds one step of Hyyrö's
    /// recurrence, without ids.
    fn plain_word_distance(&mut self, reference: &str, hypothesis: &str) -> Option<[i64; 3]> {
        let texts = [reference.as_bytes(), hypothesis.as_bytes()];
        if !space_bits(texts[0], &mut self.bits[0]) || !space_bits(texts[1], &mut self.bits[1]) {
            return None;
        }
        let m = count_words(&self.bits[0]);
        if m > 64 {
            return None;
        }
        let mut n = 0usize;
        if m == 0 {
            n = count_words(&self.bits[1]);
            return Some([n as i64, 0, n as i64]);
        }
        self.words.reset(m);
        let words = &mut self.words;
        let mut i = 0;
        for_each_word(&self.bits[0], texts[0].len(), |start, end| {
            words.slot(texts, 0, start, end).bits |= 1u64 << i;
            i += 1;
        });
        let mut state = Hyyro::new(m);
        for_each_word(&self.bits[1], texts[1].len(), |start, end| {
            state.step(words.bits_of(texts, start, end));
            n += 1;
        });
        Some([state.dist as i64, m as i64, n as i64])
    }

    /// The opcodes (appended to `out`) and statistics row of one pair of texts.
    pub fn align_text(
        &mut self,
        reference: &str,
        hypothesis: &str,
        units: Units,
        out: &mut Vec<Opcode>,
    ) -> [i64; ROW_WIDTH] {
        let alphabet = self.tokenize(reference, hypothesis, units);
        self.aligner.opcodes(&self.ids1, &self.ids2, alphabet, out)
    }
}

/// What [`PairWorker::last_tokens`] gives.
pub enum LastTokens<'a> {
    Spans(&'a [(u32, u32)]),
    Codes(&'a [u32]),
}

/// Segments per unit of work of [`count_pairs`] and [`align_pairs`].
const PAIR_UNIT: usize = 256;

/// Pairs between the one aligned and the one whose texts are prefetched.
const PAIR_AHEAD: usize = 4;

/// Asks the processor for the bytes of a pair of texts aligned soon (up to 256 of each): a Python
/// string's text lies wherever its allocator put it, which the hardware prefetcher cannot guess, and
/// short pairs spend as long waiting for their text as aligning it.
#[inline(always)]
fn prefetch_pair((reference, hypothesis): (&str, &str)) {
    #[cfg(target_arch = "x86_64")]
    for text in [reference, hypothesis] {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        for offset in (0..text.len().min(256)).step_by(64) {
            // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has; a prefetch is a hint
            // that reads nothing and never faults (the address is inside the text anyway)
            unsafe { _mm_prefetch(text.as_ptr().wrapping_add(offset).cast::<i8>(), _MM_HINT_T0) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (reference, hypothesis);
}

/// `pair(i)` after prefetching pair `i + PAIR_AHEAD` (when there is one, below `n`).
#[inline(always)]
fn next_pair<'a, P: Fn(usize) -> (&'a str, &'a str)>(
    pair: &P,
    i: usize,
    n: usize,
) -> (&'a str, &'a str) {
    if i + PAIR_AHEAD < n {
        prefetch_pair(pair(i + PAIR_AHEAD));
    }
    pair(i)
}

/// Statistics rows (`ROW_WIDTH` each, into `out`) of `n` pairs of texts `(reference, hypothesis)` given
/// by `pair(i)`, on `threads` threads (0: by the input size).
pub fn count_pairs<'a, P>(n: usize, pair: P, units: Units, threads: usize, out: &mut [i64])
where
    P: Fn(usize) -> (&'a str, &'a str) + Sync,
{
    assert_eq!(out.len(), n * ROW_WIDTH, "output size");
    let threads = pick_threads(threads, n, 4000, n.div_ceil(PAIR_UNIT));
    for_each_unit(
        out,
        PAIR_UNIT * ROW_WIDTH,
        threads,
        PairWorker::default,
        |w, unit, rows| {
            for (j, row) in rows.chunks_mut(ROW_WIDTH).enumerate() {
                let (r, h) = next_pair(&pair, unit * PAIR_UNIT + j, n);
                row.copy_from_slice(&w.count_text(r, h, units));
            }
        },
    );
}

/// The summed `[edit distance, reference length, hypothesis length]` of `n` pairs of texts given by
/// `pair(i)`, on `threads` threads as [`count_pairs`]: what a corpus WER or CER needs (S + D + I is the
/// distance whichever optimal alignment is taken, H + S + D the reference length).
pub fn distance_pairs<'a, P>(n: usize, pair: P, units: Units, threads: usize) -> [i64; 3]
where
    P: Fn(usize) -> (&'a str, &'a str) + Sync,
{
    let threads = pick_threads(threads, n, 4000, n.div_ceil(PAIR_UNIT));
    let mut units_of_work = vec![(); n.div_ceil(PAIR_UNIT)];
    let states = for_each_unit(
        &mut units_of_work,
        1,
        threads,
        || (PairWorker::default(), [0i64; 3]),
        |(w, total), unit, _| {
            for i in unit * PAIR_UNIT..n.min((unit + 1) * PAIR_UNIT) {
                let (r, h) = next_pair(&pair, i, n);
                for (t, x) in total.iter_mut().zip(w.distance_text(r, h, units)) {
                    *t += x;
                }
            }
        },
    );
    let mut total = [0i64; 3];
    for (_, part) in states {
        for (t, x) in total.iter_mut().zip(part) {
            *t += x;
        }
    }
    total
}

/// What [`align_pairs`] gives: every pair's opcodes in order, the number of opcodes of each pair, and
/// the statistics rows (`ROW_WIDTH` a pair).
pub type Alignments = (Vec<Opcode>, Vec<u32>, Vec<i64>);

/// The opcodes and statistics rows of `n` pairs, as [`count_pairs`].
pub fn align_pairs<'a, P>(n: usize, pair: P, units: Units, threads: usize) -> Alignments
where
    P: Fn(usize) -> (&'a str, &'a str) + Sync,
{
    let threads = pick_threads(threads, n, 4000, n.div_ceil(PAIR_UNIT));
    let mut slots: Vec<Alignments> = vec![Default::default(); n.div_ceil(PAIR_UNIT)];
    for_each_unit(
        &mut slots,
        1,
        threads,
        PairWorker::default,
        |w, unit, slot| {
            let (ops, counts, rows) = &mut slot[0];
            for i in unit * PAIR_UNIT..n.min((unit + 1) * PAIR_UNIT) {
                let (r, h) = next_pair(&pair, i, n);
                let before = ops.len();
                rows.extend(w.align_text(r, h, units, ops));
                counts.push((ops.len() - before) as u32);
            }
        },
    );
    let mut out: Alignments = Default::default();
    for (o, c, r) in slots {
        out.0.extend(o);
        out.1.extend(c);
        out.2.extend(r);
    }
    out
}

/// The opcodes and statistics rows of pairs of token-id sequences: reference `i` is
/// `ref_ids[ref_offsets[i]..ref_offsets[i + 1]]`, hypothesis `i` likewise; ids below `alphabet`.
pub fn align_id_pairs(
    ref_ids: &[u32],
    ref_offsets: &[usize],
    hyp_ids: &[u32],
    hyp_offsets: &[usize],
    alphabet: usize,
    threads: usize,
) -> Alignments {
    let n = ref_offsets.len().saturating_sub(1);
    let threads = pick_threads(threads, n, 4000, n.div_ceil(PAIR_UNIT));
    let mut slots: Vec<Alignments> = vec![Default::default(); n.div_ceil(PAIR_UNIT)];
    for_each_unit(&mut slots, 1, threads, Aligner::default, |a, unit, slot| {
        let (ops, counts, rows) = &mut slot[0];
        for i in unit * PAIR_UNIT..n.min((unit + 1) * PAIR_UNIT) {
            let r = &ref_ids[ref_offsets[i]..ref_offsets[i + 1]];
            let h = &hyp_ids[hyp_offsets[i]..hyp_offsets[i + 1]];
            let before = ops.len();
            rows.extend(a.opcodes(r, h, alphabet, ops));
            counts.push((ops.len() - before) as u32);
        }
    });
    let mut out: Alignments = Default::default();
    for (o, c, r) in slots {
        out.0.extend(o);
        out.1.extend(c);
        out.2.extend(r);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A step of a linear congruential generator (the tests' reproducible input).
    fn next_random(seed: &mut u64) {
        *seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
    }

    /// The textbook Levenshtein distance.
    fn distance(a: &[u32], b: &[u32]) -> usize {
        let mut row = Vec::new();
        last_row(a, b, &mut row);
        row[a.len()] as usize
    }

    fn ids(s: &str) -> Vec<u32> {
        s.bytes().map(u32::from).collect()
    }

    #[test]
    fn swapped_words_are_a_hit_a_deletion_and_an_insertion() {
        let mut a = Aligner::default();
        // "x y" -> "y x": jiwer reports H=1, D=1, I=1
        assert_eq!(a.counts(&[0, 1], &[1, 0], 2), [1, 0, 1, 1, 2, 2]);
        // "a b" -> "b c": two substitutions (rapidfuzz's path), not a deletion and an insertion
        let mut out = Vec::new();
        a.opcodes(&[0, 1], &[1, 2], 3, &mut out);
        let replace = Opcode {
            kind: Edit::Replace,
            i1: 0,
            i2: 2,
            j1: 0,
            j2: 2,
        };
        assert_eq!(out, [replace]);
    }

    #[test]
    fn edits_add_up_to_the_distance() {
        let mut a = Aligner::default();
        let mut seed = 7u64;
        for len in [0usize, 1, 5, 63, 64, 65, 130, 300] {
            for _ in 0..20 {
                let mut gen = |n: usize| -> Vec<u32> {
                    (0..n)
                        .map(|_| {
                            next_random(&mut seed);
                            ((seed >> 33) % 4) as u32
                        })
                        .collect()
                };
                let (x, y) = (gen(len), gen(len / 2 + 3));
                let row = a.counts(&x, &y, 4);
                assert_eq!((row[1] + row[2] + row[3]) as usize, distance(&x, &y));
                assert_eq!(row[0] + row[1] + row[2], x.len() as i64);
                assert_eq!(row[0] + row[1] + row[3], y.len() as i64);
            }
        }
        let (x, y) = (ids("kitten"), ids("sitting"));
        assert_eq!(a.counts(&x, &y, 256)[1..4].iter().sum::<i64>(), 3);
    }

    #[test]
    fn distance_is_the_textbook_distance() {
        let mut a = Aligner::default();
        let mut seed = 5u64;
        for len in [0usize, 1, 2, 7, 63, 64, 65, 100, 128, 129, 200] {
            for extra in [0usize, 1, 3, 40, 70] {
                for alphabet in [2u32, 5, 300] {
                    let mut gen = |n: usize| -> Vec<u32> {
                        (0..n)
                            .map(|_| {
                                next_random(&mut seed);
                                ((seed >> 33) % u64::from(alphabet)) as u32
                            })
                            .collect()
                    };
                    let (x, y) = (gen(len), gen(len + extra));
                    let want = distance(&x, &y);
                    assert_eq!(a.distance(&x, &y, alphabet as usize), want);
                    assert_eq!(a.distance(&y, &x, alphabet as usize), want);
                    let row = a.counts(&x, &y, alphabet as usize);
                    assert_eq!((row[1] + row[2] + row[3]) as usize, want);
                }
            }
        }
    }

    #[test]
    fn chunk_classes_with_sse2_equal_the_byte_by_byte_ones() {
        let mut seed = 9u64;
        for _ in 0..20_000 {
            let mut b = [0u8; 16];
            for x in &mut b {
                next_random(&mut seed);
                // spaces, controls and lead bytes often
                *x = [
                    b' ', 0x09, 0x1f, 0x20, 0x21, 0xc2, 0xe0, 0xe3, 0xe4, 0xc3, 0x7f, 0x80,
                ][(seed >> 40) as usize % 12]
                    .wrapping_add(if (seed >> 20).is_multiple_of(3) {
                        (seed >> 50) as u8
                    } else {
                        0
                    });
            }
            let (a, e) = (classify16(&b), classify16_bytes(&b));
            assert_eq!(
                (a.spaces, a.controls, a.leads),
                (e.spaces, e.controls, e.leads),
                "{b:?}"
            );
        }
    }

    #[test]
    fn plain_word_distance_equals_the_distance_of_ids() {
        let pieces = [
            "a",
            "bb",
            "a",
            "ccc",
            "abcdefghijklmnopqrs",
            "abcdefghijklmnopqrt",
            " ",
            " ",
            "  ",
            "é",
            "\t",
            "\u{a0}",
        ];
        let mut w = PairWorker::default();
        let mut seed = 1u64;
        let mut plain = 0;
        for round in 0..3000u32 {
            let mut sides = [String::new(), String::new()];
            for side in &mut sides {
                for _ in 0..(seed % if round.is_multiple_of(10) { 160 } else { 40 }) {
                    next_random(&mut seed);
                    side.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
                }
            }
            let alphabet = w.tokenize(&sides[0], &sides[1], Units::JiwerWords);
            let d = distance(&w.ids1, &w.ids2);
            let want = [d as i64, w.ids1.len() as i64, w.ids2.len() as i64];
            if let Some(got) = w.plain_word_distance(&sides[0], &sides[1]) {
                assert_eq!(got, want, "{sides:?}");
                plain += 1;
            }
            assert!(alphabet <= w.ids1.len() + w.ids2.len());
            assert_eq!(
                w.distance_text(&sides[0], &sides[1], Units::JiwerWords),
                want
            );
        }
        assert!(plain > 300, "{plain}");
    }

    #[test]
    fn word_ids_are_equal_exactly_for_equal_words() {
        let mut w = PairWorker::default();
        let long = "abcdefghijklmnopqrstuvwxyz";
        let pieces = [
            "a",
            "ab",
            "abcdefgh",
            "abcdefghi",
            "abcdefghijklmnop",
            "abcdefghijklmnopq",
            long,
            "zbcdefghijklmnopqrstuvwxyz",
            "abcdefghijklmnopqrstuvwxyZ",
            "é",
            "\u{e9}x",
            "x",
        ];
        let mut seed = 3u64;
        for _ in 0..500 {
            let mut sides = [String::new(), String::new()];
            for side in &mut sides {
                for _ in 0..(seed % 9) {
                    next_random(&mut seed);
                    side.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
                    side.push(' ');
                }
            }
            let alphabet = w.tokenize(&sides[0], &sides[1], Units::JiwerWords);
            let words: Vec<&str> = sides[0]
                .split_whitespace()
                .chain(sides[1].split_whitespace())
                .collect();
            let ids: Vec<u32> = w.ids1.iter().chain(&w.ids2).copied().collect();
            assert_eq!(ids.len(), words.len());
            for (i, a) in words.iter().enumerate() {
                assert!((ids[i] as usize) < alphabet);
                for (j, b) in words.iter().enumerate() {
                    assert_eq!(a == b, ids[i] == ids[j], "{a:?} {b:?}");
                }
            }
        }
    }

    #[test]
    fn unicode_space_check_knows_every_whitespace_character() {
        let mut buf = [0u8; 4];
        for c in (0x80..0x11_0000).filter_map(char::from_u32) {
            assert_eq!(
                has_unicode_space(c.encode_utf8(&mut buf).as_bytes()),
                py_isspace(c),
                "{c:?}"
            );
        }
    }

    #[test]
    fn byte_scans_equal_the_general_one() {
        let pieces = [
            "a", "bb", " ", "  ", "\t", "\x1c", "\n", "\r\n", "x", "é", "中", "ア", "\u{a0}",
            "\u{3000}", "\u{2009}", "\u{85}", "\u{2028}", "\u{205f}", "\u{1680}", "\u{2030}",
            "\u{3001}",
        ];
        let mut seed = 11u64;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..(seed % 23) {
                next_random(&mut seed);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            let mut plain = vec![(0, 0)];
            let mut bits = Vec::new();
            let is_plain = plain_space_spans(text.as_bytes(), &mut bits, &mut plain);
            let only_spaces = !text.chars().any(|c| py_isspace(c) && c != ' ');
            assert_eq!(is_plain, only_spaces, "{text:?}");
            assert_eq!(plain[0], (0, 0), "{text:?}");
            for units in [Units::JiwerWords, Units::SplitWords] {
                let mut words = Vec::new();
                words_into(&text, units, &mut words);
                let mut spans = Vec::new();
                word_spans(&text, units, &mut spans);
                let of = |spans: &[(u32, u32)]| -> Vec<String> {
                    spans
                        .iter()
                        .map(|&(a, b)| text[a as usize..b as usize].to_string())
                        .collect()
                };
                assert_eq!(of(&spans), words, "{text:?}");
                if is_plain {
                    assert_eq!(of(&plain[1..]), words, "{text:?}");
                }
            }
        }
    }

    #[test]
    fn words_split_as_jiwer_default() {
        let mut out = Vec::new();
        words_into("  a\tb  c \u{a0}d e\u{3000}", Units::JiwerWords, &mut out);
        assert_eq!(out, ["a\tb", "c", "d", "e"]);
        out.clear();
        words_into("a\tb\u{a0}c", Units::SplitWords, &mut out);
        assert_eq!(out, ["a", "b", "c"]);
        let mut codes = Vec::new();
        chars_into(" a \t b ", Units::CollapsedChars, &mut codes);
        assert_eq!(codes, ids("a b"));
    }
}
