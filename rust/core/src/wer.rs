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
        let prefix = s1.iter().zip(s2).take_while(|(a, b)| a == b).count();
        let (s1, s2) = (&s1[prefix..], &s2[prefix..]);
        let suffix = s1
            .iter()
            .rev()
            .zip(s2.iter().rev())
            .take_while(|(a, b)| a == b)
            .count();
        let (s1, s2) = (&s1[..s1.len() - suffix], &s2[..s2.len() - suffix]);
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

/// One thread's buffers for pairs of texts: token ids, the interner, the aligner.
#[derive(Default)]
pub struct PairWorker {
    pub(crate) aligner: Aligner,
    interner: Interner,
    spans: [Vec<(u32, u32)>; 2],
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
            for (spans, &text) in self.spans.iter_mut().zip(&texts) {
                spans.clear();
                word_spans(text, units, spans);
            }
            self.interner
                .reset(self.spans[0].len() + self.spans[1].len());
            let text_of = |k: &(u64, u8, u32, u32)| {
                &texts[k.1 as usize].as_bytes()[k.2 as usize..k.3 as usize]
            };
            for (side, text) in texts.iter().enumerate() {
                for &(start, end) in &self.spans[side] {
                    let bytes = &text.as_bytes()[start as usize..end as usize];
                    let key = (hash_bytes(bytes), side as u8, start, end);
                    let id = self.interner.id(key, |a, b| text_of(a) == text_of(b));
                    if side == 0 {
                        self.ids1.push(id)
                    } else {
                        self.ids2.push(id)
                    }
                }
            }
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
        }
        self.interner.keys.len()
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
                let (r, h) = pair(unit * PAIR_UNIT + j);
                row.copy_from_slice(&w.count_text(r, h, units));
            }
        },
    );
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
                let (r, h) = pair(i);
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
                            seed = seed
                                .wrapping_mul(6364136223846793005)
                                .wrapping_add(1442695040888963407);
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
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                text.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            }
            for units in [Units::JiwerWords, Units::SplitWords] {
                let mut words = Vec::new();
                words_into(&text, units, &mut words);
                let mut spans = Vec::new();
                word_spans(&text, units, &mut spans);
                let scanned: Vec<&str> = spans
                    .iter()
                    .map(|&(a, b)| &text[a as usize..b as usize])
                    .collect();
                assert_eq!(scanned, words, "{text:?}");
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
