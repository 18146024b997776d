//! BLEU objects of `bleuscope._core`, each built once with its configuration: [`TextCounter`] (text to
//! statistics rows with a built-in tokenizer), [`IdCounter`] (token ids, padded id matrices, token lists,
//! pairwise) and [`BleuScorer`] (scores of statistics rows, pairwise scores).

use std::cell::OnceCell;
use std::fs::File;
use std::path::PathBuf;

use bleuscope_core::count::{row_width, SegmentCounter, TokenSpans};
use bleuscope_core::files::{count_files, FileCount, LineReader, Samples};
use bleuscope_core::pairwise::pairwise;
use bleuscope_core::par::{fed, fill_rows, pick_threads, WORK_UNIT};
use bleuscope_core::score::{count_padded, score_row, score_rows, PaddedIds, Smoothing};
use bleuscope_core::text::{count_systems, Line, Worker};
use bleuscope_core::tok::Tokenizer;
use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadonlyArray2, PyReadonlyArray3,
};
use pyo3::prelude::*;
use pyo3::types::PyList;
use pyo3::IntoPyObjectExt;

use crate::errors::{check_order, detached, invalid, panic_error, MAX_ORDER};
use crate::input::{
    any_tokens_into, contiguous, exact_str_tokens_into, items, shape, ChunkedInput, Held, IdStream,
    ReadLines, TextInput,
};

/// Highest order of the counters that keep per-order arrays on the stack (padded ids, token lists,
/// pairwise, scores of pairs).
const MAX_SMALL_ORDER: usize = 64;
/// Segments read from Python objects at a time by [`TextCounter`] and handed to a counting thread (the
/// last chunk of each thread ends the count: small chunks end the threads close together).
const SEGMENTS_PER_CHUNK: usize = 1 << 10;
/// The same with one counting thread, which reads a chunk and counts it.
const SEGMENTS_PER_BLOCK_ONE_THREAD: usize = 1 << 13;
/// Segments of files read and counted at a time by [`TextCounter::total_files`] (divided among the systems).
const FILE_SEGMENTS_PER_BLOCK: usize = 1 << 17;
/// Bytes of complete lines a file stream of [`TextCounter::total_files`] buffers at most (besides one
/// line): bounds the memory of reading files.
const FILE_BLOCK_BYTES: usize = 1 << 25;
/// Segments of already tokenized text read per block by [`IdCounter::token_list_rows`] (bounds the copies).
const TOKEN_LIST_BLOCK: usize = 16_384;

/// `rows` (row-major, `n` rows) as a numpy array `[n, width]`.
fn matrix<T: numpy::Element>(
    py: Python<'_>,
    rows: Vec<T>,
    n: usize,
    width: usize,
) -> PyResult<Bound<'_, PyArray2<T>>> {
    PyArray1::from_vec(py, rows).reshape([n, width])
}

pub(crate) fn tokenizer(name: &str) -> PyResult<Tokenizer> {
    Tokenizer::from_name(name)
        .ok_or_else(|| invalid(format!("the compiled core has no tokenizer {name:?}")))
}

/// What the reading pass learns about the input besides the rows.
#[derive(Default)]
struct InputFacts {
    /// hypotheses ending in a tokenized period (" ."), as `str.endswith(" .")` counts them
    tokenized_periods: usize,
    /// `nref_counts[k]`: segments with exactly k present references
    nref_counts: Vec<i64>,
}

/// `(total row, segments per number of present references, hypotheses ending in " .")`
type CorpusTotal<'py> = (Bound<'py, PyArray1<i64>>, Bound<'py, PyArray1<i64>>, usize);

/// `(total rows [K, width], segments, each system's hypotheses ending in " .", each system's samples of
/// its hypotheses)` of K systems' files
type FileTotals<'py> = (
    Bound<'py, PyArray2<i64>>,
    usize,
    Vec<usize>,
    Vec<Vec<String>>,
);

/// Counts text with a built-in tokenizer (``none``, ``13a``, ``intl``, ``char``, ``zh``, ``cjk-char``),
/// after Python-exact lowercasing if ``lowercase``, into BLEU statistics rows int64 ``[S, 2 + 2 *
/// order]``. Lines the Rust tokenizer cannot do exactly go to ``fallback(lines) -> list of token lists``.
/// ``threads=0``: a count for the input size.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct TextCounter {
    #[pyo3(get, name = "tokenizer")]
    name: String,
    tok: Tokenizer,
    #[pyo3(get)]
    lowercase: bool,
    #[pyo3(get)]
    order: usize,
    #[pyo3(get)]
    threads: usize,
    fallback: Option<Py<PyAny>>,
}

#[pymethods]
impl TextCounter {
    #[new]
    #[pyo3(signature = (tokenizer, *, lowercase = false, order = 4, threads = 0, fallback = None))]
    fn new(
        tokenizer: &str,
        lowercase: bool,
        order: usize,
        threads: usize,
        fallback: Option<Py<PyAny>>,
    ) -> PyResult<Self> {
        Ok(TextCounter {
            tok: self::tokenizer(tokenizer)?,
            name: tokenizer.to_owned(),
            lowercase,
            order: check_order(order, MAX_ORDER)?,
            threads,
            fallback,
        })
    }

    /// Statistics rows of hypotheses (list of str) against reference streams (lists of str or None, a
    /// missing reference). ``block_segments`` (0: the default) caps the segments counted at a time. With
    /// ``facts``: ``(rows, nref_counts, tokenized_periods)``, what :meth:`total` learns about the input
    /// besides (one reading pass: what sentence scores need, with no separate Python passes).
    #[pyo3(signature = (hyps, ref_streams, *, block_segments = 0, facts = false))]
    fn rows<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
        block_segments: usize,
        facts: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let input = ChunkedInput::new(hyps, ref_streams)?;
        let n_seg = input.len();
        let width = row_width(self.order);
        let mut out = vec![0i64; n_seg * width];
        let mut learnt = InputFacts::default();
        self.count_blocks(py, &input, block_segments, &mut learnt, Some(&mut out))?;
        let rows = matrix(py, out, n_seg, width)?;
        if !facts {
            return Ok(rows.into_any());
        }
        let nref_counts = PyArray1::from_vec(py, learnt.nref_counts);
        (rows, nref_counts, learnt.tokenized_periods).into_bound_py_any(py)
    }

    /// The corpus total of :meth:`rows` without the per-segment rows: ``(total, nref_counts,
    /// tokenized_periods)``: the summed row, ``nref_counts[k]`` the segments with exactly k present
    /// references, and the number of hypotheses ending in ``" ."``.
    #[pyo3(signature = (hyps, ref_streams, *, block_segments = 0))]
    fn total<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyAny>,
        ref_streams: &Bound<'py, PyAny>,
        block_segments: usize,
    ) -> PyResult<CorpusTotal<'py>> {
        let input = ChunkedInput::new(hyps, ref_streams)?;
        let mut facts = InputFacts::default();
        let total = self.count_blocks(py, &input, block_segments, &mut facts, None)?;
        Ok((
            PyArray1::from_vec(py, total),
            PyArray1::from_vec(py, facts.nref_counts),
            facts.tokenized_periods,
        ))
    }

    /// The corpus totals of K systems in plain UTF-8 files (one hypothesis file per system, then the
    /// reference files, every line a present reference), read and counted by the core without Python
    /// strings, the reference files read once and their lines tokenized once for all systems: ``(totals
    /// [K, width], segments, tokenized_periods [K], samples [K])``. None, when something stops the count
    /// (a file that cannot be read, a line the reader refuses: not UTF-8, a NUL, longer than
    /// ``max_line_bytes``; files of different lengths; a line for the Python tokenizer): the caller then
    /// reads the files with the Python reader, which names the problem. ``block_segments`` (0: the
    /// default) caps the segments counted at a time. ``strip_line_ends``: a hypothesis ends in ``" ."``
    /// after ``str.rstrip()`` (as sacreBLEU's command reads lines), not as read. ``samples``: for every
    /// chunk of ``sample_segments`` hypotheses, the first ``sample_chars`` characters of its lines joined
    /// by ``"\n"``, when they hold a character from U+1100 on (the others cannot be mostly CJK); none when
    /// ``sample_segments`` is 0.
    #[pyo3(signature = (
        hyp_paths, ref_paths, *, max_line_bytes, block_segments = 0, strip_line_ends = false,
        sample_segments = 0, sample_chars = 0
    ))]
    #[allow(clippy::too_many_arguments)]
    fn total_files<'py>(
        &self,
        py: Python<'py>,
        hyp_paths: Vec<PathBuf>,
        ref_paths: Vec<PathBuf>,
        max_line_bytes: usize,
        block_segments: usize,
        strip_line_ends: bool,
        sample_segments: usize,
        sample_chars: usize,
    ) -> PyResult<Option<FileTotals<'py>>> {
        if hyp_paths.is_empty() || ref_paths.is_empty() {
            return Err(invalid(
                "total_files needs at least one hypothesis file and one reference file",
            ));
        }
        let mut streams = Vec::with_capacity(hyp_paths.len() + ref_paths.len());
        for path in hyp_paths.iter().chain(&ref_paths) {
            match File::open(path) {
                Ok(f) => streams.push(LineReader::new(f, max_line_bytes)),
                Err(_) => return Ok(None),
            }
        }
        // the rows of a block are every system's: a block of as many rows as one system's
        let block = if block_segments == 0 {
            (FILE_SEGMENTS_PER_BLOCK / hyp_paths.len()).max(1 << 10)
        } else {
            block_segments
        };
        let how = FileCount {
            systems: hyp_paths.len(),
            tok: self.tok,
            lowercase: self.lowercase,
            order: self.order,
            threads: self.threads,
            block,
            budget: FILE_BLOCK_BYTES.max(max_line_bytes.saturating_mul(2)),
            strip_line_ends,
            samples: Samples {
                every: sample_segments,
                chars: sample_chars,
            },
        };
        let counted = detached(py, move || count_files(how, &mut streams))?;
        let Ok(systems) = counted else {
            return Ok(None);
        };
        let width = row_width(self.order);
        let segments = systems.first().map_or(0, |t| t.segments);
        let mut rows = Vec::with_capacity(systems.len() * width);
        let (mut periods, mut samples) = (Vec::new(), Vec::new());
        for t in systems {
            rows.extend(t.total);
            periods.push(t.tokenized_periods);
            samples.push(t.samples);
        }
        let n = periods.len();
        Ok(Some((
            matrix(py, rows, n, width)?,
            segments,
            periods,
            samples,
        )))
    }

    /// Statistics rows int64 ``[K * S, 2 + 2 * order]`` (system k's segment i at row ``k * S + i``) of K
    /// systems (lists of S str) against the same reference streams, every reference tokenized once; None,
    /// having counted nothing, if some line needs the Python tokenizer.
    fn systems<'py>(
        &self,
        py: Python<'py>,
        systems: Vec<Bound<'py, PyAny>>,
        ref_streams: &Bound<'py, PyAny>,
    ) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        let mut inputs = Vec::with_capacity(systems.len());
        for system in &systems {
            inputs.push(TextInput::new(system, ref_streams)?);
        }
        let Some(first) = inputs.first() else {
            return Ok(Some(matrix(py, Vec::new(), 0, row_width(self.order))?));
        };
        let n_seg = first.hyps.len();
        // the references once, with the first system
        let reads = std::iter::once(first.read_all())
            .chain(inputs[1..].iter().map(TextInput::read_hyps))
            .collect::<PyResult<Vec<_>>>()?;
        let lines: Vec<_> = reads.iter().map(ReadLines::lines).collect();
        let (tok, lowercase, order, threads) = (self.tok, self.lowercase, self.order, self.threads);
        let width = row_width(order);
        let n_rows = inputs.len() * n_seg;
        let mut out = vec![0i64; n_rows * width];
        let counted = detached(py, || {
            let hyps: Vec<&[Line<'_>]> = lines.iter().map(|(h, _)| h.as_slice()).collect();
            let refs: Vec<&[Line<'_>]> = lines[0].1.iter().map(Vec::as_slice).collect();
            count_systems(tok, lowercase, order, threads, &hyps, &refs, &mut out)
        })?;
        Ok(if counted {
            Some(matrix(py, out, n_rows, width)?)
        } else {
            None
        })
    }
}

impl TextCounter {
    /// Counts the input a chunk of segments at a time, into `rows` (every segment's row) when given,
    /// else into the returned total row (empty with `rows`). Lines the Rust tokenizer cannot do exactly
    /// go to the fallback.
    ///
    /// The calling thread reads the chunks from Python (which needs the GIL) and hands them to the
    /// other counting threads as it goes; while enough chunks wait, it counts one itself without the
    /// GIL. So every thread counts from the first chunk to the last, none waits for another at a block's
    /// end, and reading adds no serial step: `threads` threads are busy all the time. Each thread sums
    /// its own rows of a total; the sums are added at the end.
    fn count_blocks(
        &self,
        py: Python<'_>,
        input: &ChunkedInput<'_>,
        block_segments: usize,
        facts: &mut InputFacts,
        rows: Option<&mut [i64]>,
    ) -> PyResult<Vec<i64>> {
        let n_seg = input.len();
        let width = row_width(self.order);
        facts.nref_counts = vec![0; input.n_refs() + 1];
        let threads = pick_threads(self.threads, n_seg, 2000, n_seg.div_ceil(WORK_UNIT));
        let chunk = match (block_segments, threads) {
            // one thread: the lines read from Python (and a total's rows) stay small and in the cache
            (0, 1) => SEGMENTS_PER_BLOCK_ONE_THREAD,
            (0, _) => SEGMENTS_PER_CHUNK,
            (given, _) => given,
        };
        // chunks queued before the reading thread counts one itself (the one it has just read): the
        // others do not run dry while it counts, nor while the system runs something else on its core
        let read_ahead = 4 * threads - 3;
        let (tok, lowercase, order) = (self.tok, self.lowercase, self.order);
        let sums = rows.is_none();
        let new_counter = || ChunkCounter::new(order, sums);
        let mut outputs = rows.map(|all| all.chunks_mut(chunk * width));
        // each chunk's items, referenced from when it is read until every thread has stopped
        let held: Vec<OnceCell<Held<'_>>> = (0..n_seg.div_ceil(chunk))
            .map(|_| OnceCell::new())
            .collect();
        let counted = fed(
            threads - 1,
            new_counter,
            |counter: &mut ChunkCounter, job: Chunk<'_, '_>| counter.count(tok, lowercase, job),
            |feed| -> PyResult<ChunkCounter> {
                let mut mine = new_counter();
                let mut stopped = Ok(());
                let mut text_hint = 0;
                for (c, cell) in held.iter().enumerate() {
                    if feed.failed() {
                        break;
                    }
                    // Ctrl-C between chunks (the reading thread holds the GIL: the handler runs here)
                    if let Err(e) = py.check_signals() {
                        stopped = Err(e);
                        break;
                    }
                    let start = c * chunk;
                    let read = input
                        .hold(start..n_seg.min(start + chunk))
                        .and_then(|items| {
                            let items = cell.get_or_init(|| items);
                            let lines = items.read(text_hint)?;
                            text_hint = lines.text_len() + lines.text_len() / 8;
                            note_facts(items, &lines, facts)?;
                            Ok(lines)
                        });
                    let lines = match read {
                        Ok(lines) => lines,
                        Err(e) => {
                            // raised after the fallback errors of the chunks before, as they come first
                            stopped = Err(e);
                            break;
                        }
                    };
                    feed.push(Chunk {
                        chunk: c,
                        lines,
                        rows: outputs.as_mut().map(|o| o.next().expect("a chunk of rows")),
                    });
                    while feed.queued() >= read_ahead {
                        detached(py, || feed.help(&mut mine))?;
                    }
                    for failed in feed.take_reports() {
                        self.count_failed(py, &held, failed, &mut mine.total)?;
                    }
                }
                detached(py, || feed.finish(&mut mine))?;
                for failed in feed.take_reports() {
                    self.count_failed(py, &held, failed, &mut mine.total)?;
                }
                stopped.map(|()| mine)
            },
        );
        let (mine, helpers) = counted.map_err(panic_error)?;
        let mut total = mine?.total;
        for helper in helpers {
            add_row(&mut total, &helper.total);
        }
        Ok(total)
    }

    /// Counts the segments of a chunk that need the Python tokenizer: into the chunk's rows, or added
    /// to `total` (a total's rows are not kept).
    fn count_failed(
        &self,
        py: Python<'_>,
        held: &[OnceCell<Held<'_>>],
        failed: Failed<'_>,
        total: &mut [i64],
    ) -> PyResult<()> {
        let width = row_width(self.order);
        let Failed {
            chunk,
            segments,
            mut rows,
        } = failed;
        let items = held[chunk].get().expect("a counted chunk was read");
        self.count_with_fallback(py, &segments, items, |i, row| match rows.as_deref_mut() {
            Some(rows) => rows[i * width..(i + 1) * width].copy_from_slice(row),
            None => add_row(total, row),
        })
    }

    /// Counts the segments `failed` of a chunk (`items`) whose lines need the Python tokenizer: the
    /// fallback gets their lines in order (each segment's hypothesis, then its present references) and
    /// returns their token lists; `emit(i, row)` takes segment i's row.
    fn count_with_fallback(
        &self,
        py: Python<'_>,
        failed: &[usize],
        items: &Held<'_>,
        mut emit: impl FnMut(usize, &[i64]),
    ) -> PyResult<()> {
        let Some(fallback) = &self.fallback else {
            return Err(invalid(format!(
                "{} segment(s) need the Python tokenizer (first: segment {}), but no fallback was given",
                failed.len(),
                failed[0] + items.start
            )));
        };
        let n_refs = items.n_refs();
        let batch = PyList::empty(py);
        for &i in failed {
            batch.append(items.hyp(i))?;
            for k in 0..n_refs {
                let item = items.reference(k, i);
                if !item.is_none() {
                    batch.append(item)?;
                }
            }
        }
        let n_lines = batch.len();
        let result = self::items(&fallback.bind(py).call1((batch,))?)?;
        if result.len() != n_lines {
            return Err(invalid(format!(
                "the fallback tokenizer returned {} token lists for {n_lines} lines",
                result.len()
            )));
        }
        let mut row = vec![0i64; row_width(self.order)];
        let mut counter = SegmentCounter::new(self.order);
        let (mut hyp_buf, mut hyp_spans) = (Vec::new(), Vec::new());
        type Tokens = (Vec<u8>, Vec<(u32, u32)>);
        let mut ref_bufs: Vec<Tokens> = vec![(Vec::new(), Vec::new()); n_refs];
        let mut lists = result.iter();
        for &i in failed {
            // `result` has one list per line of the batch, in the batch's order
            let mut next = || lists.next().expect("one token list per line");
            any_tokens_into(next(), &mut hyp_buf, &mut hyp_spans)?;
            let mut present = vec![false; n_refs];
            for (k, (b, s)) in ref_bufs.iter_mut().enumerate() {
                if !items.reference(k, i).is_none() {
                    any_tokens_into(next(), b, s)?;
                    present[k] = true;
                }
            }
            let refs: Vec<Option<TokenSpans<'_>>> = ref_bufs
                .iter()
                .zip(&present)
                .map(|((b, s), &p)| p.then_some(TokenSpans { buf: b, spans: s }))
                .collect();
            let hyp = TokenSpans {
                buf: &hyp_buf,
                spans: &hyp_spans,
            };
            counter.count_text(hyp, &refs, &mut row);
            emit(i, &row);
        }
        Ok(())
    }
}

/// `total += row`, column by column.
fn add_row(total: &mut [i64], row: &[i64]) {
    for (t, v) in total.iter_mut().zip(row) {
        *t += v;
    }
}

/// Notes what the input facts need of a chunk's lines (of `items`): the hypotheses ending in `" ."`,
/// the present references of each segment.
fn note_facts(items: &Held<'_>, lines: &ReadLines<'_>, facts: &mut InputFacts) -> PyResult<()> {
    for j in 0..lines.len() {
        facts.tokenized_periods += match lines.hyp(j) {
            Line::Text(t) => t.ends_with(" ."),
            _ => items
                .hyp(j)
                .call_method1("endswith", (" .",))?
                .is_truthy()?,
        } as usize;
        facts.nref_counts[lines.present_refs(j)] += 1;
    }
    Ok(())
}

/// Segments read from Python, handed to a counting thread by [`TextCounter::count_blocks`].
struct Chunk<'a, 'o> {
    /// the chunk's index
    chunk: usize,
    /// its lines (freed by the thread that counts them)
    lines: ReadLines<'a>,
    /// the chunk's rows in the output, or None for a total
    rows: Option<&'o mut [i64]>,
}

/// The segments of a chunk that need the Python tokenizer (relative to its start), with its rows.
struct Failed<'o> {
    chunk: usize,
    segments: Vec<usize>,
    rows: Option<&'o mut [i64]>,
}

/// A counting thread of [`TextCounter::count_blocks`]: its worker and, for a total, a chunk's rows and
/// the sum of every row it counted.
struct ChunkCounter {
    worker: Worker,
    rows: Vec<i64>,
    total: Vec<i64>,
}

impl ChunkCounter {
    fn new(order: usize, sums: bool) -> Self {
        ChunkCounter {
            worker: Worker::new(order),
            rows: Vec::new(),
            total: if sums {
                vec![0; row_width(order)]
            } else {
                Vec::new()
            },
        }
    }

    fn count<'o>(
        &mut self,
        tok: Tokenizer,
        lowercase: bool,
        chunk: Chunk<'_, 'o>,
    ) -> Option<Failed<'o>> {
        let Chunk {
            chunk,
            lines,
            mut rows,
        } = chunk;
        let (hyps, refs) = lines.lines();
        let refs: Vec<&[Line<'_>]> = refs.iter().map(Vec::as_slice).collect();
        let mut failed = Vec::new();
        match rows.as_deref_mut() {
            Some(out) => self
                .worker
                .rows(tok, lowercase, &hyps, &refs, out, &mut failed),
            None => {
                let width = self.total.len();
                self.rows.resize(hyps.len() * width, 0);
                let out = &mut self.rows[..hyps.len() * width];
                self.worker
                    .rows(tok, lowercase, &hyps, &refs, out, &mut failed);
                for row in out.chunks_exact(width) {
                    add_row(&mut self.total, row);
                }
            }
        }
        (!failed.is_empty()).then_some(Failed {
            chunk,
            segments: failed,
            rows,
        })
    }
}

/// Counts token ids into BLEU statistics rows int64 ``[S, 2 + 2 * order]``; equal ids are equal tokens.
/// ``threads=0``: a count for the input size.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct IdCounter {
    #[pyo3(get)]
    order: usize,
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl IdCounter {
    #[new]
    #[pyo3(signature = (order = 4, *, threads = 0))]
    fn new(order: usize, threads: usize) -> PyResult<Self> {
        Ok(IdCounter {
            order: check_order(order, MAX_ORDER)?,
            threads,
        })
    }

    /// Rows of ``hyp_ids`` (uint64, flat) split by ``hyp_lens`` (int64 [S]) against reference streams
    /// in the same form; ``present`` (bool [S, K]) marks missing references, whose length must be 0.
    #[pyo3(signature = (hyp_ids, hyp_lens, ref_ids, ref_lens, present = None))]
    fn rows<'py>(
        &self,
        py: Python<'py>,
        hyp_ids: PyReadonlyArray1<'py, u64>,
        hyp_lens: PyReadonlyArray1<'py, i64>,
        ref_ids: Vec<PyReadonlyArray1<'py, u64>>,
        ref_lens: Vec<PyReadonlyArray1<'py, i64>>,
        present: Option<PyReadonlyArray2<'py, bool>>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        if ref_ids.len() != ref_lens.len() {
            return Err(invalid(
                "ref_ids and ref_lens must have one entry per reference stream",
            ));
        }
        let hyp = IdStream::new(&hyp_ids, &hyp_lens, "hypotheses")?;
        let n_seg = hyp.len();
        let mut refs = Vec::with_capacity(ref_ids.len());
        for (k, (ids, lens)) in ref_ids.iter().zip(&ref_lens).enumerate() {
            let what = format!("reference stream {k}");
            let stream = IdStream::new(ids, lens, &what)?;
            if stream.len() != n_seg {
                return Err(invalid(format!(
                    "{what} has {} lengths, expected {n_seg}",
                    stream.len()
                )));
            }
            refs.push(stream);
        }
        let n_refs = refs.len();
        let mask: Vec<bool> = match &present {
            None => vec![true; n_seg * n_refs],
            Some(p) => {
                if shape(p) != [n_seg, n_refs] {
                    return Err(invalid(format!(
                        "present has shape {:?}, expected [{n_seg}, {n_refs}]",
                        shape(p)
                    )));
                }
                p.as_array().iter().copied().collect()
            }
        };
        for (k, r) in refs.iter().enumerate() {
            for i in 0..n_seg {
                if !mask[i * n_refs + k] && r.lens[i] != 0 {
                    return Err(invalid(format!(
                        "reference {k} of segment {i} is marked missing but has {} ids",
                        r.lens[i]
                    )));
                }
            }
        }
        let (order, threads) = (self.order, self.threads);
        let width = row_width(order);
        let mut out = vec![0i64; n_seg * width];
        let (hyp, refs, mask) = (&hyp, &refs, &mask);
        detached(py, || {
            fill_rows(
                &mut out,
                width,
                threads,
                || (SegmentCounter::new(order), Vec::with_capacity(n_refs)),
                |(counter, seg_refs): &mut (SegmentCounter, Vec<Option<&[u64]>>), i, row| {
                    seg_refs.clear();
                    seg_refs.extend(
                        refs.iter()
                            .enumerate()
                            .map(|(k, r)| mask[i * n_refs + k].then(|| r.segment(i))),
                    );
                    counter.count_ids(hyp.segment(i), seg_refs, row);
                    true
                },
            )
        })?;
        matrix(py, out, n_seg, width)
    }

    /// Rows of padded token-id matrices read in place: ``hyp`` (uint64 ``[B, L]``) with ``hyp_lens``
    /// (int64 ``[B]``), ``refs`` (uint64 ``[B, K, M]``) with ``ref_lens`` (int64 ``[B, K]``, negative = a
    /// missing reference); a row's tokens are its first ``len`` entries, or its last with ``left=True``.
    #[pyo3(signature = (hyp, hyp_lens, refs, ref_lens, *, left = false))]
    fn padded_rows<'py>(
        &self,
        py: Python<'py>,
        hyp: PyReadonlyArray2<'py, u64>,
        hyp_lens: PyReadonlyArray1<'py, i64>,
        refs: PyReadonlyArray3<'py, u64>,
        ref_lens: PyReadonlyArray2<'py, i64>,
        left: bool,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let order = check_order(self.order, MAX_SMALL_ORDER)?;
        let ([n_seg, hyp_width], [_, n_refs, ref_width]) = (
            <[usize; 2]>::try_from(shape(&hyp)).expect("2-d"),
            <[usize; 3]>::try_from(shape(&refs)).expect("3-d"),
        );
        if shape(&hyp_lens) != [n_seg]
            || shape(&refs)[0] != n_seg
            || shape(&ref_lens) != [n_seg, n_refs]
        {
            return Err(invalid(
                "shapes differ: hyp [B, L], hyp_lens [B], refs [B, K, M], ref_lens [B, K]",
            ));
        }
        let hyp_lens = contiguous(&hyp_lens, "hyp_lens")?;
        let ref_lens = contiguous(&ref_lens, "ref_lens")?;
        if let Some(&bad) = hyp_lens.iter().find(|&&l| l < 0 || l as usize > hyp_width) {
            return Err(invalid(format!(
                "hypothesis length {bad} is outside 0..={hyp_width}"
            )));
        }
        if let Some(&bad) = ref_lens.iter().find(|&&l| l > ref_width as i64) {
            return Err(invalid(format!(
                "reference length {bad} is more than the width {ref_width}"
            )));
        }
        let hyp = PaddedIds {
            ids: contiguous(&hyp, "hyp")?,
            width: hyp_width,
            lens: hyp_lens,
            left,
        };
        let refs = PaddedIds {
            ids: contiguous(&refs, "refs")?,
            width: ref_width,
            lens: ref_lens,
            left,
        };
        let width = row_width(order);
        let mut out = vec![0i64; n_seg * width];
        let threads = self.threads;
        detached(py, || {
            count_padded(hyp, refs, n_refs, order, threads, &mut out)
        })?;
        matrix(py, out, n_seg, width)
    }

    /// Rows of tokenized segments: ``hyps[i]`` a list of str tokens, ``refs[i]`` the list of token lists
    /// of segment i (at least one); tokens are equal when their strings are. None, having counted
    /// nothing, if a segment holds something else than lists/tuples of exact ``str`` tokens.
    fn token_list_rows<'py>(
        &self,
        py: Python<'py>,
        hyps: &Bound<'py, PyList>,
        refs: &Bound<'py, PyList>,
    ) -> PyResult<Option<Bound<'py, PyArray2<i64>>>> {
        let order = check_order(self.order, MAX_SMALL_ORDER)?;
        let n_seg = hyps.len();
        if refs.len() != n_seg {
            return Err(invalid(format!(
                "{} hypotheses but {} reference sets",
                n_seg,
                refs.len()
            )));
        }
        let width = row_width(order);
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
                if !exact_str_tokens_into(&hyps.get_item(i)?, &mut buf, &mut spans) {
                    return Ok(None);
                }
                lines.push((a, spans.len()));
                let seg_refs = refs.get_item(i)?;
                let Ok(seg_refs) = seg_refs.cast_exact::<PyList>() else {
                    return Ok(None);
                };
                for r in seg_refs.iter() {
                    let a = spans.len();
                    if !exact_str_tokens_into(&r, &mut buf, &mut spans) {
                        return Ok(None);
                    }
                    lines.push((a, spans.len()));
                }
                segs.push((first, lines.len()));
            }
            let block = &mut out[start * width..end * width];
            let (buf, spans, segs, lines, threads) = (&buf, &spans, &segs, &lines, self.threads);
            detached(py, || {
                fill_rows(
                    block,
                    width,
                    threads,
                    || (SegmentCounter::new(order), Vec::new()),
                    |(counter, seg_refs): &mut (SegmentCounter, Vec<Option<TokenSpans<'_>>>),
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
            })?;
        }
        Ok(Some(matrix(py, out, n_seg, width)?))
    }

    /// Rows int64 ``[H * R, 2 + 2 * order]`` of every hypothesis (``hyp_ids`` uint64 flat, ``hyp_lens``
    /// int64) against every single reference (``refs = (ids, lens)``, or None: the hypotheses themselves).
    #[pyo3(signature = (hyp_ids, hyp_lens, refs = None))]
    fn pairwise_rows<'py>(
        &self,
        py: Python<'py>,
        hyp_ids: PyReadonlyArray1<'py, u64>,
        hyp_lens: PyReadonlyArray1<'py, i64>,
        refs: Option<(PyReadonlyArray1<'py, u64>, PyReadonlyArray1<'py, i64>)>,
    ) -> PyResult<Bound<'py, PyArray2<i64>>> {
        let order = check_order(self.order, MAX_SMALL_ORDER)?;
        let width = row_width(order);
        let pairs = Pairs::new(&hyp_ids, &hyp_lens, refs.as_ref())?;
        let mut out = vec![0i64; pairs.count()? * width];
        pairs.run(py, order, self.threads, &mut out, width, |row, slot| {
            slot.copy_from_slice(row)
        })?;
        let n = out.len() / width;
        matrix(py, out, n, width)
    }
}

/// The input of a pairwise job: hypotheses, and references (None: the hypotheses themselves).
struct Pairs<'a> {
    hyps: IdStream<'a>,
    refs: Option<IdStream<'a>>,
}

impl<'a> Pairs<'a> {
    fn new(
        hyp_ids: &'a PyReadonlyArray1<'_, u64>,
        hyp_lens: &PyReadonlyArray1<'_, i64>,
        refs: Option<&'a (PyReadonlyArray1<'_, u64>, PyReadonlyArray1<'_, i64>)>,
    ) -> PyResult<Self> {
        Ok(Pairs {
            hyps: IdStream::new(hyp_ids, hyp_lens, "hypotheses")?,
            refs: refs
                .map(|(ids, lens)| IdStream::new(ids, lens, "references"))
                .transpose()?,
        })
    }

    fn shape(&self) -> (usize, usize) {
        let n_hyp = self.hyps.len();
        (n_hyp, self.refs.as_ref().map_or(n_hyp, IdStream::len))
    }

    fn count(&self) -> PyResult<usize> {
        let (h, r) = self.shape();
        h.checked_mul(r).ok_or_else(|| invalid("too many pairs"))
    }

    fn run<T: Send, F: Fn(&[i64], &mut [T]) + Sync + Send>(
        &self,
        py: Python<'_>,
        order: usize,
        threads: usize,
        out: &mut [T],
        per_pair: usize,
        emit: F,
    ) -> PyResult<()> {
        let (hyps, refs) = (self.hyps.lines(), self.refs.as_ref().map(IdStream::lines));
        detached(py, || {
            pairwise(hyps, refs, order, threads, out, per_pair, emit)
        })
    }
}

type Scores<'py> = (
    Bound<'py, PyArray1<f64>>,
    Bound<'py, PyArray2<f64>>,
    Bound<'py, PyArray1<f64>>,
);

/// BLEU scores with a sacreBLEU smoothing method (``none``, ``floor``, ``add-k``, ``exp``;
/// ``smooth_value`` its resolved value), uniform weights, orders ``1..order``, with or without effective
/// order; bit-identical to the Python scorer.
#[pyclass(frozen, module = "bleuscope._core")]
pub struct BleuScorer {
    #[pyo3(get)]
    order: usize,
    #[pyo3(get)]
    smooth_method: String,
    smoothing: Smoothing,
    #[pyo3(get)]
    effective_order: bool,
    #[pyo3(get)]
    threads: usize,
}

#[pymethods]
impl BleuScorer {
    #[new]
    #[pyo3(signature = (order = 4, smooth_method = "exp", smooth_value = 0.0, effective_order = false, *, threads = 0))]
    fn new(
        order: usize,
        smooth_method: &str,
        smooth_value: f64,
        effective_order: bool,
        threads: usize,
    ) -> PyResult<Self> {
        let smoothing = Smoothing::from_name(smooth_method, smooth_value).ok_or_else(|| {
            invalid(format!(
                "the compiled scorer has no smoothing method {smooth_method:?}"
            ))
        })?;
        Ok(BleuScorer {
            order: check_order(order, MAX_SMALL_ORDER)?,
            smooth_method: smooth_method.to_owned(),
            smoothing,
            effective_order,
            threads,
        })
    }

    /// ``(scores [S], precisions [S, order], bp [S])`` of int64 statistics rows ``[S, 2 + 2 * M]``
    /// (``M >= order``; orders ``1..order`` are used).
    fn score_rows<'py>(
        &self,
        py: Python<'py>,
        stats: PyReadonlyArray2<'py, i64>,
    ) -> PyResult<Scores<'py>> {
        let [n_rows, width] = <[usize; 2]>::try_from(shape(&stats)).expect("2-d");
        let order = self.order;
        if width < 2 + 2 * order || width % 2 != 0 {
            return Err(invalid(format!(
                "statistics have {width} columns, too few for order {order}"
            )));
        }
        let rows = contiguous(&stats, "statistics")?;
        let (smoothing, effective_order) = (self.smoothing, self.effective_order);
        let (scores, precisions, bp) = detached(py, || {
            score_rows(rows, width, order, smoothing, effective_order)
        })?;
        Ok((
            PyArray1::from_vec(py, scores),
            matrix(py, precisions, n_rows, order)?,
            PyArray1::from_vec(py, bp),
        ))
    }

    /// float64 ``[H, R]``: the score of every hypothesis against every single reference (arguments as
    /// for :meth:`IdCounter.pairwise_rows`), counted with this scorer's order.
    #[pyo3(signature = (hyp_ids, hyp_lens, refs = None))]
    fn pairwise_scores<'py>(
        &self,
        py: Python<'py>,
        hyp_ids: PyReadonlyArray1<'py, u64>,
        hyp_lens: PyReadonlyArray1<'py, i64>,
        refs: Option<(PyReadonlyArray1<'py, u64>, PyReadonlyArray1<'py, i64>)>,
    ) -> PyResult<Bound<'py, PyArray2<f64>>> {
        let pairs = Pairs::new(&hyp_ids, &hyp_lens, refs.as_ref())?;
        let (n_hyp, n_ref) = pairs.shape();
        let mut out = vec![0.0f64; pairs.count()?];
        let (order, smoothing, effective_order) =
            (self.order, self.smoothing, self.effective_order);
        pairs.run(py, order, self.threads, &mut out, 1, |row, slot| {
            let mut precisions = [0.0f64; MAX_SMALL_ORDER];
            slot[0] = score_row(row, smoothing, effective_order, &mut precisions[..order]).0;
        })?;
        matrix(py, out, n_hyp, n_ref)
    }
}
