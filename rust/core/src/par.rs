//! The one thread pool of the core: an output buffer split into units of work that threads take in turn.
//! Every item of the output is computed on its own, so the result does not depend on the thread count or
//! on which thread took which unit. Every parallel job (BLEU rows of text, ids and padded ids, pairwise
//! BLEU, chrF, TER) runs through [`for_each_unit`].

use std::sync::Mutex;

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
/// final states. A panic in a worker is resumed in the caller once every thread has stopped.
pub fn for_each_unit<T, S, N, F>(
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
    let run = || {
        let mut state = new_state();
        loop {
            let next = queue.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((unit, items)) = next else { break };
            work(&mut state, unit, items);
        }
        state
    };
    if threads <= 1 {
        return vec![run()];
    }
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|_| s.spawn(run)).collect();
        let mut states = Vec::with_capacity(threads);
        let mut panic = None;
        for h in handles {
            match h.join() {
                Ok(state) => states.push(state),
                Err(e) => panic = Some(e),
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
