//! Sums of bootstrap resamples accumulated in `f32` in segment order: what numpy computes for
//! `stats32[idx[r]].sum(axis=0)` on a C-contiguous `[S, D]` float32 array (one running sum per column,
//! adding the rows one after another), which is how sacreBLEU sums its resampled statistics. Above 2**24
//! the running sums round, so only this order of additions gives sacreBLEU's numbers.

/// `out[r * width + c] = sum over s in order of stats[idx[r * n_segments + s] * width + c]`, in `f32`.
///
/// `stats` is `[n_segments, width]` row-major; `idx` is `[rows, n_segments]` row-major with every entry in
/// `0..n_segments` (checked by the caller); `out` is `[rows, width]`.
pub fn float32_resample_sums(
    stats: &[f32],
    width: usize,
    idx: &[i64],
    n_segments: usize,
    out: &mut [f32],
) {
    if width == 0 || n_segments == 0 {
        out.iter_mut().for_each(|x| *x = 0.0);
        return;
    }
    for (picks, acc) in idx
        .chunks_exact(n_segments)
        .zip(out.chunks_exact_mut(width))
    {
        acc.iter_mut().for_each(|x| *x = 0.0);
        for &i in picks {
            let start = i as usize * width;
            for (a, v) in acc.iter_mut().zip(&stats[start..start + width]) {
                *a += *v;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::float32_resample_sums;

    #[test]
    fn sums_round_as_sequential_f32_additions() {
        // 2**24 + 1 is not an f32: adding 1 to 2**24 leaves 2**24 (ties to even), twice
        let stats = [16_777_216.0_f32, 1.0, 1.0];
        let mut out = [0.0_f32; 2];
        float32_resample_sums(&stats, 1, &[0, 1, 2, 1, 2, 0], 3, &mut out);
        assert_eq!(out, [16_777_216.0, 16_777_218.0]);
    }
}
