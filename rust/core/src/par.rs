//! Splitting statistics rows across threads. Each segment's row is computed on its own, so the result
//! does not depend on the thread count or on which thread took which segments.

use std::sync::Mutex;

/// Segments per unit of work handed to a thread.
pub const WORK_UNIT: usize = 512;

/// Number of threads for `n_seg` segments: `requested`, or (0) all cores up to 8, one per 2,000 segments.
pub fn pick_threads(requested: usize, n_seg: usize) -> usize {
    let t = if requested == 0 {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        cores.min(8).min(n_seg / 2000)
    } else {
        requested
    };
    t.clamp(1, n_seg.div_ceil(WORK_UNIT).max(1))
}

/// Fills `out` (row-major, rows of `width`) by calling `fill(state, segment, row)` for every segment,
/// with one `state` per thread from `new_state`. Returns the segments for which `fill` returned false,
/// sorted. A panic in a thread is resumed in the caller.
pub fn fill_rows<S, N, F>(
    out: &mut [i64],
    width: usize,
    threads: usize,
    new_state: N,
    fill: F,
) -> Vec<usize>
where
    N: Fn() -> S + Sync,
    F: Fn(&mut S, usize, &mut [i64]) -> bool + Sync,
{
    assert!(width > 0 && out.len().is_multiple_of(width), "output size");
    let n_seg = out.len() / width;
    let threads = pick_threads(threads, n_seg);
    let work = Mutex::new(out.chunks_mut(WORK_UNIT * width).enumerate());
    let run = || {
        let mut state = new_state();
        let mut failed = Vec::new();
        loop {
            let next = work.lock().unwrap_or_else(|e| e.into_inner()).next();
            let Some((unit, rows)) = next else { break };
            for (j, row) in rows.chunks_mut(width).enumerate() {
                let i = unit * WORK_UNIT + j;
                if !fill(&mut state, i, row) {
                    failed.push(i);
                }
            }
        }
        failed
    };
    let mut failed: Vec<usize> = if threads <= 1 {
        run()
    } else {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads).map(|_| s.spawn(run)).collect();
            let mut all = Vec::new();
            let mut panic = None;
            for h in handles {
                match h.join() {
                    Ok(v) => all.extend(v),
                    Err(e) => panic = Some(e),
                }
            }
            if let Some(e) = panic {
                std::panic::resume_unwind(e);
            }
            all
        })
    };
    failed.sort_unstable();
    failed
}
