//! Generated inputs for the unit tests.

/// Pseudo-random numbers below `m` (xorshift from `state`): the tests' generated segments.
pub(crate) fn xorshift(mut state: u64) -> impl FnMut(usize) -> usize {
    move |m: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % m as u64) as usize
    }
}
