//! Resampling kernels of the significance tests.
//!
//! * [`float32_resample_sums`]: sums of bootstrap resamples accumulated in `f32` in segment order, what
//!   numpy computes for `stats32[idx[r]].sum(axis=0)` on a C-contiguous `[S, D]` float32 array (one running
//!   sum per column, adding the rows one after another), which is how sacreBLEU sums its resampled
//!   statistics. Above 2**24 the running sums round, so only this order of additions gives sacreBLEU's
//!   numbers. The rows are picked at random from a matrix larger than the caches: the next rows are
//!   prefetched while the current one is added, and several systems side by side (`[S, K*D]`) share one
//!   pass over the indices.
//! * [`masked_sums`]: `M @ X` for a 0/1 mask `M` given as a bit stream (approximate randomization's swaps),
//!   exact in `i64`: the mask is read four bits at a time and each nibble picks one of 16 precomputed partial
//!   sums of four rows, tile by tile of segments so that the tables stay in cache.

use crate::par::{for_each_unit, pick_threads};

/// A statistics value that converts exactly to `f32` (per-segment counts are far below 2**24).
pub trait Lane: Copy + Send + Sync {
    fn to_f32(self) -> f32;
}

impl Lane for f32 {
    #[inline(always)]
    fn to_f32(self) -> f32 {
        self
    }
}

impl Lane for u16 {
    #[inline(always)]
    fn to_f32(self) -> f32 {
        f32::from(self)
    }
}

/// A resample index (the caller checks that it is in `0..n_segments`).
pub trait Pick: Copy + Send + Sync {
    fn index(self) -> usize;
}

impl Pick for i64 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

impl Pick for i32 {
    #[inline(always)]
    fn index(self) -> usize {
        self as usize
    }
}

/// Picks ahead of the current one whose rows are prefetched (enough to cover a memory round trip).
const PREFETCH_AHEAD: usize = 16;

#[inline(always)]
fn prefetch<T>(p: *const T) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: `_mm_prefetch` needs SSE, which every x86_64 processor has; a prefetch is a hint that
    // reads nothing and never faults, whatever the address
    unsafe {
        core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(p.cast::<i8>());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = p;
}

/// `out[r * width + c] = sum over s in order of stats[idx[r * n_segments + s] * width + c]`, in `f32`.
///
/// `stats` is `[n_segments, width]` row-major; `idx` is `[rows, n_segments]` row-major with every entry in
/// `0..n_segments` (checked by the caller); `out` is `[rows, width]`. Rows are independent: `threads`
/// threads (0: up to the cores) share them, and the sums do not depend on the thread count.
pub fn float32_resample_sums<T: Lane, I: Pick>(
    stats: &[T],
    width: usize,
    idx: &[I],
    n_segments: usize,
    out: &mut [f32],
    threads: usize,
) {
    if width == 0 || n_segments == 0 {
        out.iter_mut().for_each(|x| *x = 0.0);
        return;
    }
    let rows = out.len() / width;
    let threads = pick_threads(threads, rows * n_segments, 1 << 20, rows);
    for_each_unit(
        out,
        width,
        threads,
        || (),
        |_, r, acc| {
            let picks = &idx[r * n_segments..(r + 1) * n_segments];
            acc.iter_mut().for_each(|x| *x = 0.0);
            for (p, &i) in picks.iter().enumerate() {
                if let Some(&ahead) = picks.get(p + PREFETCH_AHEAD) {
                    let start = stats.as_ptr().wrapping_add(ahead.index() * width);
                    prefetch(start);
                    prefetch(start.wrapping_add(width - 1));
                }
                let start = i.index() * width;
                for (a, v) in acc.iter_mut().zip(&stats[start..start + width]) {
                    *a += v.to_f32();
                }
            }
        },
    );
}

/// Largest `|value|` of `cols` for which [`masked_sums`] keeps its partial sums in `i32` (tiles of at
/// least 4 segments; the caller uses another path beyond it).
pub const MASKED_MAX_VALUE: i64 = (1 << 28) - 1;

/// Bytes of partial-sum tables per tile of segments (they stay in the L2 cache while the rows pass).
const TABLE_BYTES: usize = 512 * 1024;

/// The `n` (<= 4) bits of `words` from bit `pos` on (bit `k` is bit `k % 64` of `words[k / 64]`, least
/// significant first); bits beyond the words read as 0.
#[inline(always)]
fn bits4(words: &[u64], pos: usize, n: usize) -> usize {
    let (w, o) = (pos >> 6, pos & 63);
    let mut v = words.get(w).map_or(0, |x| x >> o);
    if o > 60 {
        v |= words.get(w + 1).map_or(0, |x| x << (64 - o));
    }
    (v & ((1u64 << n) - 1)) as usize
}

/// `out[r * width + c] += sum over s of bit(first_bit + r * n_segments + s) * cols[s * width + c]`, exactly.
///
/// `words` holds the mask bits of `rows` rows of `n_segments` bits back to back from bit `first_bit`;
/// `cols` is `[n_segments, width]` row-major with every `|value| <= MASKED_MAX_VALUE`; `out` is
/// `[rows, width]`. Threads (0: up to the cores) take rows; the sums do not depend on their number.
pub fn masked_sums(
    words: &[u64],
    first_bit: usize,
    n_segments: usize,
    cols: &[i32],
    width: usize,
    out: &mut [i64],
    threads: usize,
) {
    if width == 0 || n_segments == 0 {
        return;
    }
    let (rows, n_out) = (out.len() / width, out.len());
    let max_abs = cols
        .iter()
        .map(|&v| i64::from(v).abs())
        .max()
        .unwrap_or(0)
        .max(1);
    // segments per tile: a multiple of 4 whose tables fit TABLE_BYTES and whose sums fit i32
    let by_cache = (TABLE_BYTES / (16 * width * 4)).max(1) * 4;
    let by_range = ((i64::from(i32::MAX) / max_abs) as usize / 4 * 4).max(4);
    let tile = by_cache.min(by_range).min(n_segments.next_multiple_of(4));
    let n_tiles = n_segments.div_ceil(tile);
    let threads = pick_threads(threads, rows * n_segments, 1 << 22, n_tiles);
    // threads take tiles of segments; each keeps its own table and sums, added up at the end (exact)
    let mut tiles = vec![(); n_tiles];
    let new_state = || {
        (
            vec![0i32; tile / 4 * 16 * width],
            vec![0i32; width],
            vec![0i64; n_out],
        )
    };
    let states = for_each_unit(
        &mut tiles,
        1,
        threads,
        new_state,
        |(table, acc, part), t, _| {
            let s0 = t * tile;
            let in_tile = tile.min(n_segments - s0);
            let groups = in_tile.div_ceil(4);
            // table[g][e] = sum of the rows s0 + 4g + j for the set bits j of e
            for g in 0..groups {
                let base = s0 + 4 * g;
                let t = &mut table[g * 16 * width..(g + 1) * 16 * width];
                t[..width].iter_mut().for_each(|x| *x = 0);
                for e in 1..16usize {
                    let low = e.trailing_zeros() as usize;
                    let (done, rest) = t.split_at_mut(e * width);
                    let prev = &done[(e & (e - 1)) * width..][..width];
                    let entry = &mut rest[..width];
                    if base + low < n_segments {
                        let row = &cols[(base + low) * width..][..width];
                        for ((x, p), v) in entry.iter_mut().zip(prev).zip(row) {
                            *x = p + v;
                        }
                    } else {
                        entry.copy_from_slice(prev);
                    }
                }
            }
            for (r, sums) in part.chunks_exact_mut(width).enumerate() {
                acc.iter_mut().for_each(|x| *x = 0);
                let row_bit = first_bit + r * n_segments + s0;
                for g in 0..groups {
                    let e = bits4(words, row_bit + 4 * g, 4.min(in_tile - 4 * g));
                    let entry = &table[(g * 16 + e) * width..][..width];
                    for (a, v) in acc.iter_mut().zip(entry) {
                        *a += v;
                    }
                }
                for (s, a) in sums.iter_mut().zip(acc.iter()) {
                    *s += i64::from(*a);
                }
            }
        },
    );
    for (_, _, part) in states {
        for (o, p) in out.iter_mut().zip(&part) {
            *o += p;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{float32_resample_sums, masked_sums};

    #[test]
    fn sums_round_as_sequential_f32_additions() {
        // 2**24 + 1 is not an f32: adding 1 to 2**24 leaves 2**24 (ties to even), twice
        let stats = [16_777_216.0_f32, 1.0, 1.0];
        for threads in [1, 2] {
            let mut out = [0.0_f32; 2];
            float32_resample_sums(&stats, 1, &[0_i64, 1, 2, 1, 2, 0], 3, &mut out, threads);
            assert_eq!(out, [16_777_216.0, 16_777_218.0]);
        }
    }

    #[test]
    fn masked_sums_equal_the_bit_by_bit_sums() {
        let (n_seg, width, rows) = (37, 3, 5);
        let cols: Vec<i32> = (0..n_seg * width)
            .map(|k| (k as i32 * 7919) % 101 - 50)
            .collect();
        let words: Vec<u64> = (0..8u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0xA5A5)
            .collect();
        for first_bit in [0, 3, 61] {
            let mut want = vec![0i64; rows * width];
            for r in 0..rows {
                for s in 0..n_seg {
                    let p = first_bit + r * n_seg + s;
                    if words[p / 64] >> (p % 64) & 1 == 1 {
                        for c in 0..width {
                            want[r * width + c] += i64::from(cols[s * width + c]);
                        }
                    }
                }
            }
            let mut got = vec![0i64; rows * width];
            masked_sums(&words, first_bit, n_seg, &cols, width, &mut got, 2);
            assert_eq!(got, want);
        }
    }
}
