//! Lists of the live n-grams of one order, as (start position, id): the n-grams that can still be part
//! of a match at the next order. The hash-table counting ([`crate::count`]) and the pair-array counting
//! ([`crate::dense`]) both walk them.

/// Replaces every entry of `items` by `f(entry).0` and keeps those for which `f(entry).1` holds, in
/// order: every entry is written and the write position advances by 0 or 1, so there is no branch on
/// the text (which a processor cannot predict).
#[inline(always)]
pub(crate) fn keep_mapped<T: Copy>(items: &mut Vec<T>, mut f: impl FnMut(T) -> (T, bool)) {
    let mut kept = 0;
    for i in 0..items.len() {
        let (e, keep) = f(items[i]);
        items[kept] = e;
        kept += keep as usize;
    }
    items.truncate(kept);
}

/// `live` becomes the (position, token) of the `tokens` for which `keep(position, token)` holds, in
/// order (with [`keep_mapped`]).
pub(crate) fn live_where(
    live: &mut Vec<(u32, u32)>,
    tokens: &[u32],
    keep: impl Fn(usize, u32) -> bool,
) {
    live.clear();
    live.extend(tokens.iter().enumerate().map(|(i, &t)| (i as u32, t)));
    keep_mapped(live, |e| (e, keep(e.0 as usize, e.1)));
}

/// Drops the n-grams of a line of `len` words that would run past its end (`last`: the offset of an
/// n-gram's last word); positions ascend, so they are at the end.
pub(crate) fn drop_past(live: &mut Vec<(u32, u32)>, len: usize, last: usize) {
    while live.last().is_some_and(|&(j, _)| j as usize + last >= len) {
        live.pop();
    }
}
