//! The one thread pool of the core: an output buffer split into units of work that threads take in turn.
//! Every item of the output is computed on its own, so the result does not depend on the thread count or
//! on which thread took which unit. Every parallel job (BLEU rows of text, ids and padded ids, pairwise
//! BLEU, chrF, TER) runs through [`for_each_unit`], except work whose input only the calling thread can
//! read (Python objects): [`fed`] hands it to helper threads job by job as the caller reads it.
//!
//! A long job can be stopped from outside (Ctrl-C in the Python process): [`polled`] gives the calling
//! thread a poll, which [`should_stop`] asks at unit boundaries at most every [`POLL_INTERVAL`]; once it
//! says stop, the jobs on that thread skip their remaining units (their output is then incomplete, and
//! the caller of [`polled`] discards it).

use std::any::Any;
use std::cell::Cell;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// The least time between two calls of a thread's poll (a poll may take a lock, e.g. Python's GIL).
pub(crate) const POLL_INTERVAL: Duration = Duration::from_millis(20);

/// The poll of the calling thread, set by [`polled`].
#[derive(Clone, Copy)]
struct Poll {
    poll: fn() -> bool,
    last: Option<Instant>,
    stopped: bool,
}

thread_local! {
    static POLL: Cell<Option<Poll>> = const { Cell::new(None) };
}

/// Runs `f` on the calling thread with `poll` as its stop poll (true: stop), and returns `f`'s result and
/// whether the poll said stop meanwhile (the result is then incomplete). Calls nest: the outer poll
/// comes back when `f` returns or panics.
pub fn polled<T>(poll: fn() -> bool, f: impl FnOnce() -> T) -> (T, bool) {
    struct Restore(Option<Poll>);
    impl Drop for Restore {
        fn drop(&mut self) {
            POLL.with(|p| p.set(self.0));
        }
    }
    let outer = POLL.with(|p| {
        p.replace(Some(Poll {
            poll,
            last: None,
            stopped: false,
        }))
    });
    let _restore = Restore(outer);
    let result = f();
    let stopped = POLL.with(|p| p.get().is_some_and(|p| p.stopped));
    (result, stopped)
}

/// Whether the work on the calling thread should stop: its poll (of [`polled`]) said so, now or before
/// (asked at most every [`POLL_INTERVAL`]); false on a thread without a poll.
pub(crate) fn should_stop() -> bool {
    POLL.with(|cell| {
        let Some(mut p) = cell.get() else {
            return false;
        };
        if p.stopped {
            return true;
        }
        let now = Instant::now();
        if p.last
            .is_some_and(|last| now.duration_since(last) < POLL_INTERVAL)
        {
            return false;
        }
        p.last = Some(now);
        p.stopped = (p.poll)();
        cell.set(Some(p));
        p.stopped
    })
}

/// Segments per unit of work handed to a thread by [`fill_rows`].
pub const WORK_UNIT: usize = 512;

/// Threads for a job: `requested`, or (0) one per `work_per_thread` of the job's `work` (segments,
/// tokens, pairs) up to the cores and at most 8; never more than `units`, never fewer than 1.
pub fn pick_threads(requested: usize, work: usize, work_per_thread: usize, units: usize) -> usize {
    let t = if requested == 0 {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        cores.min(8).min(work / work_per_thread.max(1))
    } else {
        requested
    };
    t.clamp(1, units.max(1))
}

/// Splits `out` into consecutive units of `unit_len` items (the last one may be shorter) and calls
/// `work(state, unit_index, unit)` for each, on `threads` threads (1: the calling thread) that take the
/// units in order from a shared queue, each with its own `state` from `new_state`. Returns the threads'
/// final states. A panic in a worker is resumed in the caller once every thread has stopped. The calling
/// thread takes units too and asks [`should_stop`] between them: once it says stop, no thread takes a
/// unit any more (the output is incomplete).
pub(crate) fn for_each_unit<T, S, N, F>(
    out: &mut [T],
    unit_len: usize,
    threads: usize,
    new_state: N,
    work: F,
) -> Vec<S>
where
    T: Send,
    S: Send,
    N: Fn() -> S + Sync,
    F: Fn(&mut S, usize, &mut [T]) + Sync,
{
    let queue = Mutex::new(out.chunks_mut(unit_len.max(1)).enumerate());
    let stop = AtomicBool::new(should_stop());
    let run = |lead: bool| {
        let mut state = new_state();
        loop {
            if lead && should_stop() {
                stop.store(true, Ordering::Relaxed);
            }
            if stop.load(Ordering::Relaxed) {
                break;
            }
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((unit, items)) = next else { break };
            work(&mut state, unit, items);
        }
        state
    };
    if threads <= 1 {
        return vec![run(true)];
    }
    std::thread::scope(|s| {
        let run = &run;
        let handles: Vec<_> = (1..threads).map(|_| s.spawn(move || run(false))).collect();
        // the calling thread counts too; a panic of its own is resumed once the others have stopped
        let mine = catch_unwind(AssertUnwindSafe(|| run(true)));
        if mine.is_err() {
            stop.store(true, Ordering::Relaxed);
        }
        let mut joined = vec![mine];
        joined.extend(handles.into_iter().map(|h| h.join()));
        let mut states = Vec::with_capacity(threads);
        let mut panic = None;
        for result in joined {
            match result {
                Ok(state) => states.push(state),
                Err(e) => panic = panic.or(Some(e)),
            }
        }
        if let Some(e) = panic {
            std::panic::resume_unwind(e);
        }
        states
    })
}

/// Fills `out` (row-major, rows of `width`) by calling `fill(state, segment, row)` for every segment,
/// with one `state` per thread from `new_state`; `threads = 0`: one thread per 2,000 segments. Returns
/// the segments for which `fill` returned false, sorted. A panic in a thread is resumed in the caller.
pub fn fill_rows<S, N, F>(
    out: &mut [i64],
    width: usize,
    threads: usize,
    new_state: N,
    fill: F,
) -> Vec<usize>
where
    S: Send,
    N: Fn() -> S + Sync,
    F: Fn(&mut S, usize, &mut [i64]) -> bool + Sync,
{
    assert!(width > 0 && out.len().is_multiple_of(width), "output size");
    let n_seg = out.len() / width;
    let threads = pick_threads(threads, n_seg, 2000, n_seg.div_ceil(WORK_UNIT));
    let states = for_each_unit(
        out,
        WORK_UNIT * width,
        threads,
        || (new_state(), Vec::new()),
        |(state, failed): &mut (S, Vec<usize>), unit, rows| {
            for (j, row) in rows.chunks_mut(width).enumerate() {
                let i = unit * WORK_UNIT + j;
                if !fill(state, i, row) {
                    failed.push(i);
                }
            }
        },
    );
    let mut failed: Vec<usize> = states.into_iter().flat_map(|(_, f)| f).collect();
    failed.sort_unstable();
    failed
}

/// A panic's payload, as `std::thread::JoinHandle::join` gives it.
pub(crate) type Panic = Box<dyn Any + Send>;

/// The queue between the thread that reads the input (the lead) and the helper threads of [`fed`].
pub struct Feed<'w, J, S, D> {
    state: Mutex<FeedState<J, D>>,
    /// a job arrived, the feed closed or failed
    arrived: Condvar,
    /// a job finished
    finished: Condvar,
    work: &'w (dyn Fn(&mut S, J) -> Option<D> + Sync),
}

struct FeedState<J, D> {
    jobs: VecDeque<J>,
    /// no job will be pushed any more
    closed: bool,
    /// jobs taken and not finished
    running: usize,
    /// the reports of finished jobs, until the lead takes them
    reports: Vec<D>,
    /// the first panic of a job: every thread stops taking jobs
    panic: Option<Panic>,
    /// helpers waiting for a job, and whether the lead waits for the running jobs (a wake-up is a
    /// system call: made only for a thread that waits)
    waiting: usize,
    lead_waits: bool,
}

impl<J, S, D> Feed<'_, J, S, D> {
    fn lock(&self) -> MutexGuard<'_, FeedState<J, D>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Queues a job for the first thread free (dropped once a job has panicked).
    pub fn push(&self, job: J) {
        let mut st = self.lock();
        if st.panic.is_none() {
            st.jobs.push_back(job);
            let wake = st.waiting > 0;
            drop(st);
            if wake {
                self.arrived.notify_one();
            }
        }
    }

    /// Jobs queued and not yet taken.
    pub fn queued(&self) -> usize {
        self.lock().jobs.len()
    }

    /// Whether a job has panicked (the lead may stop reading: nothing more is counted).
    pub fn failed(&self) -> bool {
        self.lock().panic.is_some()
    }

    /// Runs the newest queued job on the calling thread with its `state` (the helpers take the oldest:
    /// the lead counts what it has just read, still in its cache); false if none was queued.
    pub fn help(&self, state: &mut S) -> bool {
        let job = {
            let mut st = self.lock();
            let Some(job) = st.jobs.pop_back() else {
                return false;
            };
            st.running += 1;
            job
        };
        self.run(state, job);
        true
    }

    /// Closes the feed, runs the jobs still queued on the calling thread (with the helpers), and waits
    /// until every job has finished.
    pub fn finish(&self, state: &mut S) {
        self.close();
        while self.help(state) {}
        let mut st = self.lock();
        while st.running > 0 {
            st.lead_waits = true;
            st = self.finished.wait(st).unwrap_or_else(|e| e.into_inner());
        }
        st.lead_waits = false;
    }

    /// The reports of the jobs finished since the last call, in the order they finished.
    pub fn take_reports(&self) -> Vec<D> {
        std::mem::take(&mut self.lock().reports)
    }

    /// No more jobs: the helpers stop once the queue is empty.
    fn close(&self) {
        self.lock().closed = true;
        self.arrived.notify_all();
    }

    fn run(&self, state: &mut S, job: J) {
        let result = catch_unwind(AssertUnwindSafe(|| (self.work)(state, job)));
        let mut st = self.lock();
        st.running -= 1;
        match result {
            Ok(Some(report)) => st.reports.push(report),
            Ok(None) => {}
            Err(panic) => {
                st.jobs.clear();
                st.panic.get_or_insert(panic);
                self.arrived.notify_all();
            }
        }
        let wake = st.lead_waits;
        drop(st);
        if wake {
            self.finished.notify_all();
        }
    }

    /// A helper thread: takes jobs until the feed is closed and empty, or a job panicked.
    fn serve(&self, state: &mut S) {
        loop {
            let job = {
                let mut st = self.lock();
                loop {
                    if st.panic.is_some() {
                        return;
                    }
                    if let Some(job) = st.jobs.pop_front() {
                        st.running += 1;
                        break job;
                    }
                    if st.closed {
                        return;
                    }
                    st.waiting += 1;
                    st = self.arrived.wait(st).unwrap_or_else(|e| e.into_inner());
                    st.waiting -= 1;
                }
            };
            self.run(state, job);
        }
    }
}

/// Runs `lead` on the calling thread, which reads the input and pushes jobs (`work(state, job)`) into the
/// [`Feed`] it gets, while `helpers` threads, each with its own `state` from `new_state`, take them in
/// order as they arrive. The lead keeps reading while it is ahead and counts jobs itself
/// ([`Feed::help`]) when enough are queued, so no thread waits at a block's end and memory stays bounded;
/// it receives the reports that jobs return ([`Feed::take_reports`]). The feed is closed when `lead`
/// returns; the helpers then finish the queue. Returns `lead`'s result and the helpers' final states, or
/// the first panic of a job (the lead's own panics are its own).
pub fn fed<J, S, D, T, N, W, L>(
    helpers: usize,
    new_state: N,
    work: W,
    lead: L,
) -> Result<(T, Vec<S>), Panic>
where
    J: Send,
    S: Send,
    D: Send,
    N: Fn() -> S + Sync,
    W: Fn(&mut S, J) -> Option<D> + Sync,
    L: FnOnce(&Feed<'_, J, S, D>) -> T,
{
    let feed = Feed {
        state: Mutex::new(FeedState {
            jobs: VecDeque::new(),
            closed: false,
            running: 0,
            reports: Vec::new(),
            panic: None,
            waiting: 0,
            lead_waits: false,
        }),
        arrived: Condvar::new(),
        finished: Condvar::new(),
        work: &work,
    };
    /// Closes the feed when the lead is done, even by a panic, so that the helpers stop.
    struct CloseOnDrop<'f, 'w, J, S, D>(&'f Feed<'w, J, S, D>);
    impl<J, S, D> Drop for CloseOnDrop<'_, '_, J, S, D> {
        fn drop(&mut self) {
            self.0.close();
        }
    }
    let (result, states) = std::thread::scope(|s| {
        let feed = &feed;
        let new_state = &new_state;
        let handles: Vec<_> = (0..helpers)
            .map(|_| {
                s.spawn(move || {
                    let mut state = new_state();
                    feed.serve(&mut state);
                    state
                })
            })
            .collect();
        let result = {
            let _close = CloseOnDrop(feed);
            lead(feed)
        };
        let states: Vec<S> = handles
            .into_iter()
            .map(|h| h.join().expect("a helper catches its jobs' panics"))
            .collect();
        (result, states)
    });
    match feed
        .state
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .panic
    {
        Some(panic) => Err(panic),
        None => Ok((result, states)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_unit_once_whatever_the_thread_count() {
        for threads in [1, 2, 3, 8] {
            let mut out = vec![0usize; 1000];
            let states = for_each_unit(
                &mut out,
                7,
                threads,
                || 0usize,
                |seen, unit, items| {
                    *seen += items.len();
                    for (j, x) in items.iter_mut().enumerate() {
                        *x += unit * 7 + j + 1;
                    }
                },
            );
            assert_eq!(states.iter().sum::<usize>(), 1000);
            assert!(out.iter().enumerate().all(|(i, &x)| x == i + 1));
        }
    }

    #[test]
    fn failed_segments_come_back_sorted() {
        let mut out = vec![0i64; 3 * 5000];
        let failed = fill_rows(
            &mut out,
            3,
            4,
            || (),
            |_, i, row| {
                row[0] = i as i64;
                i % 1000 != 0
            },
        );
        assert_eq!(failed, vec![0, 1000, 2000, 3000, 4000]);
        assert!(out.chunks(3).enumerate().all(|(i, r)| r[0] == i as i64));
    }

    /// Jobs 0..n pushed by the lead, which counts a job itself whenever `ahead` are queued; each job
    /// reports its number when it is a multiple of 7.
    fn feed_jobs(helpers: usize, n: usize, ahead: usize) -> (Vec<usize>, Vec<usize>, usize) {
        let (lead_seen, helper_states) = fed(
            helpers,
            Vec::new,
            |seen: &mut Vec<usize>, job: usize| {
                seen.push(job);
                job.is_multiple_of(7).then_some(job)
            },
            |feed| {
                let mut seen = Vec::new();
                let mut reports = Vec::new();
                for job in 0..n {
                    feed.push(job);
                    while feed.queued() >= ahead {
                        feed.help(&mut seen);
                    }
                    reports.extend(feed.take_reports());
                }
                feed.finish(&mut seen);
                reports.extend(feed.take_reports());
                (seen, reports)
            },
        )
        .unwrap_or_else(|_| panic!("no job panics"));
        let (lead, mut reports) = lead_seen;
        let mut all: Vec<usize> = helper_states.into_iter().flatten().chain(lead).collect();
        all.sort_unstable();
        reports.sort_unstable();
        (all, reports, helpers)
    }

    #[test]
    fn fed_jobs_run_once_and_report_whatever_the_helpers() {
        for helpers in [0, 1, 2, 5] {
            for n in [0, 1, 2, 50, 1000] {
                for ahead in [1, 3] {
                    let (all, reports, _) = feed_jobs(helpers, n, ahead);
                    assert_eq!(all, (0..n).collect::<Vec<_>>(), "{helpers} {n} {ahead}");
                    assert_eq!(reports, (0..n).filter(|j| j % 7 == 0).collect::<Vec<_>>());
                }
            }
        }
    }

    #[test]
    fn a_panicking_job_stops_the_feed_and_reaches_the_caller() {
        for helpers in [0, 1, 3] {
            let result = fed(
                helpers,
                || (),
                |_: &mut (), job: usize| -> Option<()> {
                    assert!(job != 30, "job panic");
                    None
                },
                |feed| {
                    for job in 0..100 {
                        if feed.failed() {
                            return job;
                        }
                        feed.push(job);
                        while feed.queued() >= 2 {
                            feed.help(&mut ());
                        }
                    }
                    feed.finish(&mut ());
                    100
                },
            );
            let panic = result.expect_err("the job's panic");
            assert_eq!(panic.downcast_ref::<&str>(), Some(&"job panic"));
        }
    }

    fn stop_now() -> bool {
        true
    }

    fn never_stop() -> bool {
        false
    }

    #[test]
    fn a_stop_poll_ends_the_units_early_and_is_reported() {
        for threads in [1, 2, 4] {
            let mut out = vec![0u8; 10_000];
            let (states, stopped) = polled(stop_now, || {
                for_each_unit(
                    &mut out,
                    1,
                    threads,
                    || 0usize,
                    |n, _, items| {
                        *n += 1;
                        items[0] = 1;
                    },
                )
            });
            assert!(stopped);
            // the poll says stop before the first unit: no thread takes one
            assert_eq!(states.iter().sum::<usize>(), 0, "{threads} threads");
            assert!(out.iter().all(|&x| x == 0));
            let (states, stopped) = polled(never_stop, || {
                for_each_unit(
                    &mut out,
                    1,
                    threads,
                    || 0usize,
                    |n, _, items| {
                        *n += 1;
                        items[0] = 1;
                    },
                )
            });
            assert!(!stopped);
            assert_eq!(states.iter().sum::<usize>(), 10_000);
        }
    }

    #[test]
    fn polls_nest_and_end_with_their_call() {
        assert!(!should_stop(), "no poll outside polled");
        let ((inner, after_inner), outer) = polled(never_stop, || {
            let inner = polled(stop_now, should_stop);
            (inner, should_stop())
        });
        assert_eq!((inner, after_inner, outer), ((true, true), false, false));
        assert!(!should_stop());
    }

    #[test]
    #[should_panic(expected = "worker panic")]
    fn a_worker_panic_reaches_the_caller() {
        let mut out = vec![0u8; 100];
        for_each_unit(
            &mut out,
            1,
            2,
            || (),
            |_, unit, _| {
                assert!(unit != 50, "worker panic");
            },
        );
    }
}
