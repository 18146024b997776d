//! Plain UTF-8 text files read as checked lines, and BLEU totals counted straight from them.
//!
//! The lines are those of bleuscope's Python reader (`core/files.py`, UTF-8): split on `"\n"` only, a
//! final `"\n"` ends the last line, nothing stripped (a `"\r"` or a byte order mark stays in the line).
//! A line is refused, at its place in the file, for what the Python reader refuses: more than
//! `max_line` bytes, a byte that is not UTF-8, a NUL. Memory is bounded: a stream holds at most about
//! `budget` bytes of complete lines plus one line.

use std::io::{self, Read};

use crate::count::row_width;
use crate::par::{for_each_unit, pick_threads, should_stop};
use crate::text::{count_lines, count_systems, Line};
use crate::tok::unicode::py_rstrip;
use crate::tok::Tokenizer;

/// Bytes asked of the file per read, at most; the buffer grows to it from [`FIRST_READ_BYTES`] (a small
/// file is read into a buffer of its size, whatever the number of files read side by side).
const READ_BYTES: usize = 1 << 20;
const FIRST_READ_BYTES: usize = 1 << 16;

/// Segments of a block that several systems are counted on at a time ([`count_files`]).
const SYSTEMS_PART: usize = 1 << 12;

/// Why a line is refused (line and column count from 1, columns in bytes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// a byte sequence that is not UTF-8: where it starts (byte offset in the file) and its first bytes
    InvalidUtf8 {
        line: usize,
        offset: u64,
        column: usize,
        bytes: Vec<u8>,
    },
    /// a NUL byte
    Nul { line: usize, column: usize },
    /// a line longer than the limit
    TooLong { line: usize },
}

impl LineProblem {
    pub fn line(&self) -> usize {
        match *self {
            LineProblem::InvalidUtf8 { line, .. }
            | LineProblem::Nul { line, .. }
            | LineProblem::TooLong { line } => line,
        }
    }
}

/// What stops reading a stream.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    Line(LineProblem),
}

/// Position of the first `byte` in `b`, eight bytes at a time.
fn find_byte(b: &[u8], byte: u8) -> Option<usize> {
    const LO: u64 = 0x0101_0101_0101_0101;
    const HI: u64 = 0x8080_8080_8080_8080;
    let pattern = LO.wrapping_mul(byte as u64);
    let mut i = 0;
    while i + 8 <= b.len() {
        let x = u64::from_le_bytes(b[i..i + 8].try_into().unwrap()) ^ pattern;
        let found = x.wrapping_sub(LO) & !x & HI;
        if found != 0 {
            return Some(i + found.trailing_zeros() as usize / 8);
        }
        i += 8;
    }
    b[i..].iter().position(|&c| c == byte).map(|p| p + i)
}

/// A stream of lines read in blocks. [`LineReader::fill`] reads ahead, [`LineReader::lines`] checks and
/// hands out the first complete lines, [`LineReader::consume`] drops them.
pub struct LineReader<R: Read> {
    src: R,
    /// the bytes read are `buf[..end]`; the rest of `buf` is room for the next reads
    buf: Vec<u8>,
    end: usize,
    /// start of the first line not consumed
    pos: usize,
    /// end (exclusive, without the newline) of each complete line after `pos`, as indices into `buf`
    ends: Vec<usize>,
    /// bytes of `buf` already searched for newlines
    scanned: usize,
    eof: bool,
    /// the line after the complete ones is already longer than `max_line` (reading stopped there)
    tail_too_long: bool,
    max_line: usize,
    /// lines consumed so far, and the file offset of `buf[0]`
    lines_done: usize,
    offset: u64,
}

impl<R: Read> LineReader<R> {
    pub fn new(src: R, max_line: usize) -> Self {
        LineReader {
            src,
            buf: Vec::new(),
            end: 0,
            pos: 0,
            ends: Vec::new(),
            scanned: 0,
            eof: false,
            tail_too_long: false,
            max_line,
            lines_done: 0,
            offset: 0,
        }
    }

    /// Complete lines ready (at the end of the file, an unterminated last line counts as complete).
    pub(crate) fn available(&self) -> usize {
        self.ends.len()
    }

    /// The stream has no line left: every line was consumed and the file ended.
    pub(crate) fn finished(&self) -> bool {
        self.eof && self.ends.is_empty()
    }

    /// The line after the available ones is too long (the stream cannot go on past them).
    pub(crate) fn blocked_line(&self) -> Option<usize> {
        self.tail_too_long
            .then(|| self.lines_done + self.ends.len() + 1)
    }

    /// Reads until `want` complete lines are ready, or about `budget` bytes are buffered (and at least one
    /// line is complete), or the file ends, or the line being read passes `max_line` bytes.
    pub(crate) fn fill(&mut self, want: usize, budget: usize) -> Result<(), io::Error> {
        if self.pos > 0 {
            // move the lines not consumed to the front
            self.buf.copy_within(self.pos..self.end, 0);
            self.end -= self.pos;
            self.offset += self.pos as u64;
            self.scanned -= self.pos;
            for e in &mut self.ends {
                *e -= self.pos;
            }
            self.pos = 0;
        }
        while self.ends.len() < want
            && !self.eof
            && !self.tail_too_long
            && (self.ends.is_empty() || self.end < budget)
        {
            let step = READ_BYTES.min(self.buf.len().max(FIRST_READ_BYTES));
            if self.buf.len() - self.end < step / 2 {
                self.buf.resize(self.end + step, 0);
            }
            let got = loop {
                match self.src.read(&mut self.buf[self.end..]) {
                    Ok(n) => break n,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                }
            };
            self.end += got;
            if got == 0 {
                self.eof = true;
            }
            self.scan();
        }
        Ok(())
    }

    /// Records the newlines of the bytes read since the last scan; at the end of the file, the bytes
    /// after the last newline are the last line.
    fn scan(&mut self) {
        while let Some(p) = find_byte(&self.buf[self.scanned..self.end], b'\n') {
            self.ends.push(self.scanned + p);
            self.scanned += p + 1;
        }
        self.scanned = self.end;
        let tail_start = self.ends.last().map_or(self.pos, |&e| e + 1);
        if self.eof {
            if tail_start < self.end {
                self.ends.push(self.end);
            }
        } else if self.end - tail_start > self.max_line {
            self.tail_too_long = true;
        }
    }

    /// The first `k` available lines (`k <= available()`), checked: the first problem among them in the
    /// file's order (within a line: its length first, then the first bad byte).
    pub(crate) fn lines(&self, k: usize) -> Result<Vec<&str>, LineProblem> {
        assert!(
            k <= self.ends.len(),
            "lines asked beyond the available ones"
        );
        let mut out = Vec::with_capacity(k);
        if k == 0 {
            return Ok(out);
        }
        let region = &self.buf[self.pos..self.ends[k - 1]];
        // the longest line among the k, the first too-long one, and the first NUL / bad byte
        let too_long = {
            let mut start = self.pos;
            let mut found = None;
            for (j, &e) in self.ends[..k].iter().enumerate() {
                if e - start > self.max_line {
                    found = Some(j);
                    break;
                }
                start = e + 1;
            }
            found
        };
        let nul = find_byte(region, 0);
        let checked = std::str::from_utf8(region);
        let bad = checked.err().map(|e| {
            let at = e.valid_up_to();
            let len = e.error_len().unwrap_or(region.len() - at).min(4);
            (at, len)
        });
        let line_of = |at: usize| -> usize {
            // index of the line holding region byte `at`: the first line whose end is at or after it
            self.ends[..k].partition_point(|&e| e < self.pos + at)
        };
        let line_start = |j: usize| {
            if j == 0 {
                self.pos
            } else {
                self.ends[j - 1] + 1
            }
        };
        let mut first: Option<(usize, u8, LineProblem)> = None; // (line index, rank in the line, problem)
        let mut offer = |j: usize, rank: u8, p: LineProblem| {
            if first
                .as_ref()
                .is_none_or(|(fj, fr, _)| (j, rank) < (*fj, *fr))
            {
                first = Some((j, rank, p));
            }
        };
        if let Some(j) = too_long {
            offer(
                j,
                0,
                LineProblem::TooLong {
                    line: self.lines_done + j + 1,
                },
            );
        }
        match (nul, bad) {
            (Some(z), b) if b.is_none_or(|(at, _)| z < at) => {
                let j = line_of(z);
                offer(
                    j,
                    1,
                    LineProblem::Nul {
                        line: self.lines_done + j + 1,
                        column: self.pos + z - line_start(j) + 1,
                    },
                );
            }
            (_, Some((at, len))) => {
                let j = line_of(at);
                offer(
                    j,
                    1,
                    LineProblem::InvalidUtf8 {
                        line: self.lines_done + j + 1,
                        offset: self.offset + (self.pos + at) as u64,
                        column: self.pos + at - line_start(j) + 1,
                        bytes: region[at..at + len].to_vec(),
                    },
                );
            }
            _ => {}
        }
        if let Some((_, _, p)) = first {
            return Err(p);
        }
        // a bad byte was offered as a problem and returned just above
        let Ok(text) = checked else {
            unreachable!("lines with a bad byte are a problem")
        };
        let mut start = 0;
        for &e in &self.ends[..k] {
            let end = e - self.pos;
            out.push(&text[start..end]);
            start = end + 1;
        }
        Ok(out)
    }

    /// Drops the first `k` available lines.
    pub(crate) fn consume(&mut self, k: usize) {
        if k == 0 {
            return;
        }
        self.pos = (self.ends[k - 1] + 1).min(self.end);
        self.ends.drain(..k);
        self.lines_done += k;
    }
}

/// Every line of a reader, or the first problem (for tests and small files).
pub fn read_all<R: Read>(src: R, max_line: usize) -> Result<Vec<String>, ReadError> {
    let mut reader = LineReader::new(src, max_line);
    let mut out = Vec::new();
    loop {
        reader.fill(1 << 16, 1 << 24).map_err(ReadError::Io)?;
        let k = reader.available();
        if k == 0 {
            if let Some(line) = reader.blocked_line() {
                return Err(ReadError::Line(LineProblem::TooLong { line }));
            }
            return Ok(out);
        }
        let lines = reader.lines(k).map_err(ReadError::Line)?;
        out.extend(lines.into_iter().map(str::to_owned));
        reader.consume(k);
    }
}

/// Why [`count_files`] stopped.
#[derive(Debug)]
pub enum CountFilesError {
    /// stream `stream` (0: the hypotheses) could not be read
    Io { stream: usize, error: io::Error },
    /// stream `stream` has a line the reader refuses
    Line { stream: usize, problem: LineProblem },
    /// the streams do not have the same number of lines: `ended` ran out after line `after`
    Lengths { ended: Vec<usize>, after: usize },
    /// a segment needs the Python tokenizer (the caller counts the files another way)
    Fallback,
    /// the calling thread's poll said stop ([`crate::par::polled`])
    Stopped,
}

/// Corpus total of files: the summed statistics row, the segments, the hypotheses ending in `" ."`, and
/// the samples of the hypotheses that [`Samples`] asked for.
#[derive(Debug, PartialEq, Eq)]
pub struct FileTotal {
    pub total: Vec<i64>,
    pub segments: usize,
    pub tokenized_periods: usize,
    pub samples: Vec<String>,
}

/// The hypotheses' text that the caller's input check samples, taken while they are counted (so the
/// caller reads no file twice): for every chunk of `every` lines (from the first), its first `chars`
/// characters (Unicode scalar values: Python's characters) of the lines joined by `"\n"`. `every == 0`:
/// no samples. Only the samples holding a character from [`SAMPLE_FROM`] on are kept.
#[derive(Clone, Copy, Debug, Default)]
pub struct Samples {
    pub every: usize,
    pub chars: usize,
}

/// The first character a kept sample holds: the check of mostly Chinese, Japanese or Korean text
/// (bleuscope's `tokenizers/language.py`) finds no such letter in text entirely below U+1100, so a
/// sample without one cannot make it warn and is not kept (most files then keep none).
pub(crate) const SAMPLE_FROM: char = '\u{1100}';

/// The sample being taken, and the samples kept.
struct Sampler {
    how: Samples,
    kept: Vec<String>,
    current: String,
    left: usize, // characters the current sample still takes
}

impl Sampler {
    fn new(how: Samples) -> Self {
        Sampler {
            how,
            kept: Vec::new(),
            current: String::new(),
            left: 0,
        }
    }

    /// Adds hypothesis `index` (counted from 0 in the file).
    fn line(&mut self, index: usize, text: &str) {
        if self.how.every == 0 {
            return;
        }
        if index.is_multiple_of(self.how.every) {
            self.finish();
            self.left = self.how.chars;
        } else if self.left > 0 {
            self.current.push('\n');
            self.left -= 1;
        }
        if self.left == 0 {
            return;
        }
        let end = text
            .char_indices()
            .nth(self.left)
            .map_or(text.len(), |(i, _)| i);
        self.left -= text[..end].chars().count();
        self.current.push_str(&text[..end]);
    }

    /// The samples kept, the current one included.
    fn finish(&mut self) {
        let sample = std::mem::take(&mut self.current);
        if sample.chars().any(|c| c >= SAMPLE_FROM) {
            self.kept.push(sample);
        }
    }
}

/// How [`count_files`] counts: BLEU's tokenizer, lowercasing and order, the counting threads, how it
/// reads (`block` segments at a time, each stream buffering about `budget` bytes at most), whether a
/// hypothesis ends in a tokenized period after Python's `str.rstrip()` (`strip_line_ends`, as sacreBLEU's
/// command sees its lines) or as read, the hypotheses' `samples` it keeps, and how many of the streams
/// are hypothesis files (`systems`, at least one: the first streams; the others are reference files).
#[derive(Clone, Copy, Debug)]
pub struct FileCount {
    pub systems: usize,
    pub tok: Tokenizer,
    pub lowercase: bool,
    pub order: usize,
    pub threads: usize,
    pub block: usize,
    pub budget: usize,
    pub strip_line_ends: bool,
    pub samples: Samples,
}

/// `work(stream)` for every stream, the streams spread over up to `threads` threads (each file is read
/// and checked by one thread at a time, in its own order), the results in the streams' order; None when
/// the work was stopped ([`crate::par::should_stop`]) before every stream's was done.
fn on_streams<S: Send, T: Send>(
    streams: &mut [S],
    threads: usize,
    work: impl Fn(&mut S) -> T + Sync,
) -> Option<Vec<T>> {
    let mut results: Vec<Option<T>> = streams.iter().map(|_| None).collect();
    let mut pairs: Vec<(&mut S, &mut Option<T>)> = streams.iter_mut().zip(&mut results).collect();
    for_each_unit(
        &mut pairs,
        1,
        threads,
        || (),
        |_, _, unit| {
            for (stream, result) in unit {
                **result = Some(work(stream));
            }
        },
    );
    results.into_iter().collect()
}

/// The BLEU corpus totals of K systems' hypotheses (`streams[..K]`, K = `how.systems`) against the
/// same reference streams (`streams[K..]`, every line present), counted as `how` says, one
/// [`FileTotal`] per system: the reference files are read once, and with more than one system each block
/// of reference lines is tokenized once for all of them. With more than one thread the streams are also
/// read and checked side by side, so reading is not a serial step before each block's count.
pub fn count_files<R: Read + Send + Sync>(
    how: FileCount,
    streams: &mut [LineReader<R>],
) -> Result<Vec<FileTotal>, CountFilesError> {
    let FileCount {
        systems,
        tok,
        lowercase,
        order,
        threads,
        block,
        budget,
        strip_line_ends,
        samples,
    } = how;
    assert!(
        systems >= 1 && streams.len() > systems,
        "hypotheses and at least one reference stream"
    );
    let width = row_width(order);
    let mut totals: Vec<FileTotal> = (0..systems)
        .map(|_| FileTotal {
            total: vec![0; width],
            segments: 0,
            tokenized_periods: 0,
            samples: Vec::new(),
        })
        .collect();
    let mut samplers: Vec<Sampler> = (0..systems).map(|_| Sampler::new(samples)).collect();
    let mut rows = Vec::new();
    let mut segments = 0;
    let n_streams = streams.len();
    loop {
        if should_stop() {
            return Err(CountFilesError::Stopped);
        }
        let readers = pick_threads(threads, block, 2000, n_streams);
        let filled = on_streams(streams, readers, |r| r.fill(block, budget))
            .ok_or(CountFilesError::Stopped)?;
        for (s, result) in filled.into_iter().enumerate() {
            result.map_err(|error| CountFilesError::Io { stream: s, error })?;
        }
        let k = streams.iter().map(LineReader::available).min().unwrap_or(0);
        if k == 0 {
            // a stream cannot give a line: too long, or its end (with the others going on: lengths)
            for (s, r) in streams.iter().enumerate() {
                if r.available() == 0 {
                    if let Some(line) = r.blocked_line() {
                        return Err(CountFilesError::Line {
                            stream: s,
                            problem: LineProblem::TooLong { line },
                        });
                    }
                }
            }
            if streams.iter().all(LineReader::finished) {
                for (total, mut sampler) in totals.iter_mut().zip(samplers) {
                    sampler.finish();
                    total.samples = sampler.kept;
                    total.segments = segments;
                }
                return Ok(totals);
            }
            let ended = (0..streams.len())
                .filter(|&s| streams[s].finished())
                .collect();
            return Err(CountFilesError::Lengths {
                ended,
                after: segments,
            });
        }
        let readers = pick_threads(threads, k, 2000, n_streams);
        let mut shared: Vec<&LineReader<R>> = streams.iter().collect();
        let checked = on_streams(&mut shared, readers, |r| {
            r.lines(k)
                .map(|l| l.into_iter().map(Line::Text).collect::<Vec<_>>())
        })
        .ok_or(CountFilesError::Stopped)?;
        let mut lines = Vec::with_capacity(n_streams);
        for (s, result) in checked.into_iter().enumerate() {
            lines.push(result.map_err(|problem| CountFilesError::Line { stream: s, problem })?);
        }
        let (hyps, refs) = lines.split_at(systems);
        // the systems are counted a part of the block at a time: their rows and the references' tokens
        // stay small beside the lines read
        let part = if systems == 1 { k } else { SYSTEMS_PART };
        for a in (0..k).step_by(part) {
            let b = (a + part).min(k);
            let refs: Vec<&[Line<'_>]> = refs.iter().map(|r| &r[a..b]).collect();
            rows.clear();
            rows.resize(systems * (b - a) * width, 0i64);
            let counted = if systems == 1 {
                count_lines(
                    tok,
                    lowercase,
                    order,
                    &hyps[0][a..b],
                    &refs,
                    threads,
                    &mut rows,
                )
                .is_empty()
            } else {
                let hyps: Vec<&[Line<'_>]> = hyps.iter().map(|h| &h[a..b]).collect();
                count_systems(tok, lowercase, order, threads, &hyps, &refs, &mut rows)
            };
            if !counted {
                return Err(CountFilesError::Fallback);
            }
            for (total, system_rows) in totals.iter_mut().zip(rows.chunks_exact((b - a) * width)) {
                for row in system_rows.chunks_exact(width) {
                    for (t, v) in total.total.iter_mut().zip(row) {
                        *t += v;
                    }
                }
            }
        }
        for ((total, system_lines), sampler) in totals.iter_mut().zip(hyps).zip(&mut samplers) {
            total.tokenized_periods += system_lines
                .iter()
                .filter(|l| match l {
                    Line::Text(t) if strip_line_ends => py_rstrip(t).ends_with(" ."),
                    Line::Text(t) => t.ends_with(" ."),
                    _ => false,
                })
                .count();
            for (j, line) in system_lines.iter().enumerate() {
                if let Line::Text(t) = line {
                    sampler.line(segments + j, t);
                }
            }
        }
        segments += k;
        drop(lines);
        for r in streams.iter_mut() {
            r.consume(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A reader handing out at most `step` bytes per read (block boundaries everywhere).
    struct Trickle<'a> {
        data: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
            let n = self.step.min(out.len()).min(self.data.len());
            out[..n].copy_from_slice(&self.data[..n]);
            self.data = &self.data[n..];
            Ok(n)
        }
    }

    fn python_lines(data: &[u8]) -> Vec<String> {
        let text = std::str::from_utf8(data).unwrap();
        if text.is_empty() {
            return Vec::new();
        }
        let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
        if lines.last().is_some_and(String::is_empty) {
            lines.pop();
        }
        lines
    }

    fn read_in(data: &[u8], step: usize, max_line: usize) -> Result<Vec<String>, ReadError> {
        read_all(Trickle { data, step }, max_line)
    }

    #[test]
    fn lines_split_on_newline_only() {
        for data in [
            &b""[..],
            b"\n",
            b"a",
            b"a\n",
            b"a\r\nb\r\n",
            b"\n\n x \n",
            b"\xef\xbb\xbfbom\nline\x1c\xc2\x85two\nend",
            "Grüße\u{2028}x\ny".as_bytes(),
        ] {
            for step in [1, 2, 3, 7, 1 << 20] {
                let got = read_in(data, step, 100).unwrap();
                assert_eq!(got, python_lines(data), "{data:?} step {step}");
            }
        }
    }

    #[test]
    fn problems_name_the_line_column_and_offset() {
        let problem = |data: &[u8], max_line: usize| match read_in(data, 3, max_line) {
            Err(ReadError::Line(p)) => p,
            other => panic!("{data:?}: {other:?}"),
        };
        assert_eq!(
            problem(b"ok\nab\xffc\n", 100),
            LineProblem::InvalidUtf8 {
                line: 2,
                offset: 5,
                column: 3,
                bytes: vec![0xff]
            }
        );
        assert_eq!(
            problem(b"ok\nab\xe2\x82", 100),
            LineProblem::InvalidUtf8 {
                line: 2,
                offset: 5,
                column: 3,
                bytes: vec![0xe2, 0x82]
            }
        );
        assert_eq!(
            problem(b"a\nb\nxy\0\xff\n", 100),
            LineProblem::Nul { line: 3, column: 3 }
        );
        assert_eq!(
            problem(b"a\nb\xff\0\n", 100),
            LineProblem::InvalidUtf8 {
                line: 2,
                offset: 3,
                column: 2,
                bytes: vec![0xff]
            }
        );
        assert_eq!(
            problem(b"abc\n12345\nx\xff\n", 4),
            LineProblem::TooLong { line: 2 }
        );
        assert_eq!(
            problem(b"abc\n1234\xff6\n", 4),
            LineProblem::TooLong { line: 2 }
        );
        assert_eq!(problem(b"ab\xff\n12345\n", 4).line(), 1);
        assert_eq!(problem(b"abcd\nabcde", 4), LineProblem::TooLong { line: 2 });
        // a line without end is refused once it passes the limit, without reading further
        assert_eq!(
            problem(&[b'x'; 10_000][..], 100),
            LineProblem::TooLong { line: 1 }
        );
    }

    #[test]
    fn finding_a_byte_at_every_position() {
        for n in 0..40 {
            let mut v = vec![b'a'; n];
            assert_eq!(find_byte(&v, b'\n'), None);
            for i in 0..n {
                v[i] = b'\n';
                assert_eq!(find_byte(&v, b'\n'), Some(i));
                v[i] = 0x8a; // differs from '\n' in the high bit only
                assert_eq!(find_byte(&v, b'\n'), None);
                v[i] = b'a';
            }
        }
    }

    fn count(
        hyp: &[u8],
        refs: &[&[u8]],
        step: usize,
        block: usize,
    ) -> Result<FileTotal, CountFilesError> {
        count_stripped(hyp, refs, step, block, false)
    }

    fn count_stripped(
        hyp: &[u8],
        refs: &[&[u8]],
        step: usize,
        block: usize,
        strip_line_ends: bool,
    ) -> Result<FileTotal, CountFilesError> {
        count_sampled(hyp, refs, step, block, strip_line_ends, Samples::default())
    }

    fn count_sampled(
        hyp: &[u8],
        refs: &[&[u8]],
        step: usize,
        block: usize,
        strip_line_ends: bool,
        samples: Samples,
    ) -> Result<FileTotal, CountFilesError> {
        let run = |threads: usize| {
            let how = (step, block, threads, strip_line_ends, samples);
            files_of(&[hyp], refs, how).map(|mut t| t.remove(0))
        };
        // every stream read by a thread of its own, side by side: the same total, or the same first problem
        // (the samples are taken after the reading, in order, whatever the threads: their test, with its
        // hundreds of cases, runs on one)
        let one = run(1);
        if samples.every == 0 {
            let side_by_side = 1 + refs.len();
            assert_eq!(
                format!("{:?}", run(side_by_side)),
                format!("{one:?}"),
                "{side_by_side} threads"
            );
        }
        one
    }

    #[test]
    fn the_first_problem_is_the_first_streams_whatever_the_threads() {
        // stream 1's bad byte is on a later line than stream 2's NUL: stream order decides, as read alone
        let got = count(b"a\nb\nc\n", &[b"a\nb\xff\nc\n", b"\0\nb\nc\n"], 2, 100);
        match got {
            Err(CountFilesError::Line { stream: 1, problem }) => assert_eq!(problem.line(), 2),
            other => panic!("{other:?}"),
        }
        // a later stream ends first
        match count(b"a\nb\nc\n", &[b"a\nb\nc\n", b"a\n"], 1, 2) {
            Err(CountFilesError::Lengths { ended, after }) => {
                assert_eq!((ended, after), (vec![2], 1));
            }
            other => panic!("{other:?}"),
        }
    }

    /// [`count_files`] of K systems' files (`hyps`) against `refs`, read `step` bytes at a time, with `how`
    /// = (step, block, threads, strip_line_ends, samples).
    fn files_of(
        hyps: &[&[u8]],
        refs: &[&[u8]],
        how: (usize, usize, usize, bool, Samples),
    ) -> Result<Vec<FileTotal>, CountFilesError> {
        let (step, block, threads, strip_line_ends, samples) = how;
        let mut streams: Vec<LineReader<Trickle<'_>>> = hyps
            .iter()
            .chain(refs)
            .map(|d| LineReader::new(Trickle { data: d, step }, 1000))
            .collect();
        let how = FileCount {
            systems: hyps.len(),
            tok: Tokenizer::T13a,
            lowercase: false,
            order: 4,
            threads,
            block,
            budget: 64,
            strip_line_ends,
            samples,
        };
        count_files(how, &mut streams)
    }

    fn count_systems_of(
        hyps: &[&[u8]],
        refs: &[&[u8]],
        step: usize,
        block: usize,
        threads: usize,
    ) -> Result<Vec<FileTotal>, CountFilesError> {
        let samples = Samples { every: 2, chars: 5 };
        files_of(hyps, refs, (step, block, threads, false, samples))
    }

    #[test]
    fn systems_counted_together_equal_each_counted_alone() {
        let hyps: [&[u8]; 3] = [
            "the cat sat .\nHello, world!\n\nA b c d e\nlast line".as_bytes(),
            "a cat .\nhello world\nx y\n\u{4e2d}\u{6587}\nthe last line\n".as_bytes(),
            b"\n\n\n\n\n",
        ];
        let r1 = b"the cat sat on the mat .\nhello world\nx\na b c d e\nlast line\n";
        let r2 = b"a cat\nHello , world !\n\n\nthe last line\n";
        for step in [1, 5, 1 << 20] {
            for block in [1, 2, 3, 100] {
                for threads in [1, 3] {
                    let together =
                        count_systems_of(&hyps, &[r1, r2], step, block, threads).unwrap();
                    let alone: Vec<FileTotal> = hyps
                        .iter()
                        .map(|h| {
                            count_systems_of(&[h], &[r1, r2], step, block, threads)
                                .unwrap()
                                .remove(0)
                        })
                        .collect();
                    assert_eq!(
                        together, alone,
                        "step {step} block {block} threads {threads}"
                    );
                }
            }
        }
        // a block of several parts
        let text = |seed: usize| -> Vec<u8> {
            let lines: Vec<String> = (0..2 * SYSTEMS_PART + 808)
                .map(|i| format!("w{} x{} the {}", (i * seed) % 13, i % 7, (i + seed) % 5))
                .collect();
            (lines.join("\n") + "\n").into_bytes()
        };
        let (s1, s2, r1) = (text(3), text(5), text(11));
        let together = count_systems_of(&[&s1, &s2], &[&r1], 1 << 20, 1 << 20, 2).unwrap();
        let alone: Vec<FileTotal> = [&s1, &s2]
            .iter()
            .map(|h| {
                count_systems_of(&[h], &[&r1], 1 << 20, 1 << 20, 2)
                    .unwrap()
                    .remove(0)
            })
            .collect();
        assert_eq!(together, alone);
        // a problem names its stream among all of them: system 3's extra line, a reference's bad byte
        let longer: &[u8] = b"a\nb\nc\n";
        match count_systems_of(&[b"a\nb\n", b"a\nb\n", longer], &[b"a\nb\n"], 1, 2, 1) {
            Err(CountFilesError::Lengths { ended, after }) => {
                assert_eq!((ended, after), (vec![0, 1, 3], 2));
            }
            other => panic!("{other:?}"),
        }
        match count_systems_of(&[b"a\nb\n", b"a\nb\n"], &[b"a\nb\xff\n"], 1, 2, 1) {
            Err(CountFilesError::Line { stream: 2, problem }) => assert_eq!(problem.line(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn file_totals_equal_the_totals_of_their_lines() {
        let hyp = b"the cat sat .\nHello, world!\n\nA b c d e\nlast line";
        let r1 = b"the cat sat on the mat .\nhello world\nx\na b c d e\nlast line\n";
        let r2 = b"a cat\nHello , world !\n\n\nthe last line\n";
        let lines = |d: &'static [u8]| python_lines(d);
        let (h, a, b) = (lines(hyp), lines(r1), lines(r2));
        let hl: Vec<Line<'_>> = h.iter().map(|s| Line::Text(s)).collect();
        let al: Vec<Line<'_>> = a.iter().map(|s| Line::Text(s)).collect();
        let bl: Vec<Line<'_>> = b.iter().map(|s| Line::Text(s)).collect();
        let mut rows = vec![0i64; h.len() * row_width(4)];
        assert!(count_lines(Tokenizer::T13a, false, 4, &hl, &[&al, &bl], 1, &mut rows).is_empty());
        let mut expected = vec![0i64; row_width(4)];
        for row in rows.chunks(row_width(4)) {
            for (t, v) in expected.iter_mut().zip(row) {
                *t += v;
            }
        }
        for step in [1, 5, 1 << 20] {
            for block in [1, 2, 3, 100] {
                let got = count(hyp, &[r1, r2], step, block).unwrap();
                assert_eq!(got.total, expected);
                assert_eq!(got.segments, 5);
                assert_eq!(got.tokenized_periods, 1);
            }
        }
        // trailing whitespace (Python's: also U+3000) before the period counts only when stripped
        let spaced = "a .\nb . \nc .\r\nd .\u{3000}\ne.\n".as_bytes();
        let refs: &[&[u8]] = &[b"a\nb\nc\nd\ne\n"];
        assert_eq!(count(spaced, refs, 3, 2).unwrap().tokenized_periods, 1);
        assert_eq!(
            count_stripped(spaced, refs, 3, 2, true)
                .unwrap()
                .tokenized_periods,
            4
        );
        match count(b"a\nb\nc\n", &[b"a\nb\n"], 1, 2) {
            Err(CountFilesError::Lengths { ended, after }) => {
                assert_eq!((ended, after), (vec![1], 2));
            }
            other => panic!("{other:?}"),
        }
        match count(b"a\nb\xff\n", &[b"a\nb\n"], 1, 2) {
            Err(CountFilesError::Line { stream: 0, problem }) => assert_eq!(problem.line(), 2),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn samples_are_the_heads_of_every_chunk() {
        // Latin, CJK (3-byte) and 4-byte characters, empty lines, a CR: cut at every character count
        let lines = [
            "a b c",
            "",
            "東京 は",
            "x\r",
            "𠀋𠀋 y",
            "Grüße",
            "",
            "中文句子",
            "z",
        ];
        let text = lines.join("\n") + "\n";
        let refs = vec!["r\n"; lines.len()].concat();
        for every in 1..=lines.len() + 1 {
            for chars in 0..14 {
                let expected: Vec<String> = lines
                    .chunks(every)
                    .map(|chunk| chunk.join("\n").chars().take(chars).collect::<String>())
                    .filter(|s| s.chars().any(|c| c >= SAMPLE_FROM))
                    .collect();
                for (step, block) in [(1, 1), (3, 2), (1 << 20, 4), (7, 100)] {
                    let how = Samples { every, chars };
                    let got =
                        count_sampled(text.as_bytes(), &[refs.as_bytes()], step, block, false, how);
                    assert_eq!(
                        got.unwrap().samples,
                        expected,
                        "every {every} chars {chars}"
                    );
                }
            }
        }
        let none = count(text.as_bytes(), &[refs.as_bytes()], 1, 3).unwrap();
        assert!(none.samples.is_empty());
    }
}
