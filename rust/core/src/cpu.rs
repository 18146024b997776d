//! What the processor offers beyond the baseline x86_64 target, checked once per process.

/// Whether the processor has AVX2 and the bit instructions BMI1, BMI2, LZCNT and POPCNT, which the
/// hottest loops have a second compilation for (`#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]`:
/// the 13a scanner, the bit-mask counting of short segments). Checked once, then one load.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn bit_instructions() -> bool {
    use std::sync::OnceLock;
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        is_x86_feature_detected!("avx2")
            && is_x86_feature_detected!("bmi1")
            && is_x86_feature_detected!("bmi2")
            && is_x86_feature_detected!("lzcnt")
            && is_x86_feature_detected!("popcnt")
    })
}
