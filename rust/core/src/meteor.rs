//! METEOR's word alignment (NLTK 3.10.4's `meteor_score`) on word ids: exact, stem and synonym stages,
//! then the chunk count. The readable reference is `bleuscope/metrics/meteor/alignment.py`; this is the
//! same procedure on integers:
//!
//! 1. exact: hypothesis positions from the last to the first each take the last unmatched reference
//!    position with the same word id;
//! 2. stem: the same on the stem ids of the positions left;
//! 3. synonym: hypothesis positions left, from the last to the first, each take the last unmatched
//!    reference position whose *stem* id is in the synonym set of the hypothesis *stem* (the set lists
//!    the stem itself too).
//!
//! Stems and synonym sets are computed by the caller (Python) and passed as tables indexed by id; an entry
//! not computed yet is [`UNKNOWN`] (stems) or a negative start (synonym sets). A pair that needs one is
//! left undone and the ids it needs are reported, so the caller computes only what alignments use.

/// A stem not computed yet.
pub const UNKNOWN: u32 = u32::MAX;

/// The word-id tables of the stem and synonym stages.
pub struct Lexicon<'a> {
    /// word id -> stem id ([`UNKNOWN`]: not computed)
    pub stem_of: &'a [u32],
    /// stem id -> start of its synonym ids in `syn_ids` (negative: not computed)
    pub syn_start: &'a [i64],
    /// stem id -> number of synonym ids
    pub syn_len: &'a [i64],
    /// every synonym set, each sorted ascending
    pub syn_ids: &'a [u32],
}

impl Lexicon<'_> {
    fn stem(&self, id: u32) -> u32 {
        self.stem_of.get(id as usize).copied().unwrap_or(UNKNOWN)
    }

    fn synonyms(&self, stem: u32) -> Option<&[u32]> {
        let s = stem as usize;
        let start = *self.syn_start.get(s)?;
        if start < 0 {
            return None;
        }
        let len = usize::try_from(*self.syn_len.get(s)?).ok()?;
        self.syn_ids
            .get(start as usize..(start as usize).checked_add(len)?)
    }
}

/// Buffers reused from pair to pair.
#[derive(Default)]
pub struct Scratch {
    keyed: Vec<(u32, u32)>,
    ends: Vec<usize>,
    hyp_left: Vec<u32>,
    hyp_rest: Vec<u32>,
    ref_used: Vec<bool>,
    ref_keys: Vec<u32>,
    pairs: Vec<(u32, u32)>,
}

/// Stage 1 and 2's rule: each key of `hyp_keys` (visited in the given order, last position first) takes
/// the highest unused reference position with the same key among `ref_positions` (ascending).
fn greedy_same_key(
    hyp: &[(u32, u32)],
    refs: &[(u32, u32)],
    scratch_keyed: &mut Vec<(u32, u32)>,
    scratch_ends: &mut Vec<usize>,
    ref_used: &mut [bool],
    pairs: &mut Vec<(u32, u32)>,
    rest: &mut Vec<u32>,
) {
    // reference (key, position) sorted: positions of one key are a run, ascending
    scratch_keyed.clear();
    scratch_keyed.extend_from_slice(refs);
    scratch_keyed.sort_unstable();
    // run ends per entry's key: ends[run start] = one past the highest unused position of that key
    scratch_ends.clear();
    scratch_ends.resize(scratch_keyed.len(), 0);
    let mut start = 0;
    while start < scratch_keyed.len() {
        let key = scratch_keyed[start].0;
        let mut end = start;
        while end < scratch_keyed.len() && scratch_keyed[end].0 == key {
            end += 1;
        }
        scratch_ends[start] = end;
        start = end;
    }
    rest.clear();
    for &(key, i) in hyp {
        let run = scratch_keyed.partition_point(|&(k, _)| k < key);
        if run < scratch_keyed.len() && scratch_keyed[run].0 == key && scratch_ends[run] > run {
            let end = scratch_ends[run];
            let j = scratch_keyed[end - 1].1;
            scratch_ends[run] = end - 1;
            ref_used[j as usize] = true;
            pairs.push((i, j));
        } else {
            rest.push(i);
        }
    }
}

/// `(matches, chunks)` of one pair, or `None` when a stem or synonym set it needs is not computed yet
/// (the missing word ids are appended to `missing_stems`, the missing stem ids to `missing_synonyms`).
pub fn align(
    hyp: &[u32],
    refr: &[u32],
    lex: &Lexicon,
    s: &mut Scratch,
    missing_stems: &mut Vec<u32>,
    missing_synonyms: &mut Vec<u32>,
) -> Option<(u32, u32)> {
    s.pairs.clear();
    s.ref_used.clear();
    s.ref_used.resize(refr.len(), false);
    // stage 1: exact
    let hyp_keys: Vec<(u32, u32)> = (0..hyp.len() as u32)
        .rev()
        .map(|i| (hyp[i as usize], i))
        .collect();
    let ref_keys: Vec<(u32, u32)> = refr
        .iter()
        .enumerate()
        .map(|(j, &w)| (w, j as u32))
        .collect();
    greedy_same_key(
        &hyp_keys,
        &ref_keys,
        &mut s.keyed,
        &mut s.ends,
        &mut s.ref_used,
        &mut s.pairs,
        &mut s.hyp_left,
    );
    if !s.hyp_left.is_empty() && s.pairs.len() < refr.len() {
        // stage 2: stems of every position left (all of them are needed, as in NLTK)
        let before = missing_stems.len();
        for &i in &s.hyp_left {
            if lex.stem(hyp[i as usize]) == UNKNOWN {
                missing_stems.push(hyp[i as usize]);
            }
        }
        for (j, &w) in refr.iter().enumerate() {
            if !s.ref_used[j] && lex.stem(w) == UNKNOWN {
                missing_stems.push(w);
            }
        }
        if missing_stems.len() > before {
            return None;
        }
        let hyp_stems: Vec<(u32, u32)> = s
            .hyp_left
            .iter()
            .map(|&i| (lex.stem(hyp[i as usize]), i))
            .collect();
        let ref_stems: Vec<(u32, u32)> = (0..refr.len())
            .filter(|&j| !s.ref_used[j])
            .map(|j| (lex.stem(refr[j]), j as u32))
            .collect();
        greedy_same_key(
            &hyp_stems,
            &ref_stems,
            &mut s.keyed,
            &mut s.ends,
            &mut s.ref_used,
            &mut s.pairs,
            &mut s.hyp_rest,
        );
        if !s.hyp_rest.is_empty() && s.pairs.len() < refr.len() {
            // stage 3: synonyms of the hypothesis stems, matched against the reference stems
            let before = missing_synonyms.len();
            for &i in &s.hyp_rest {
                let st = lex.stem(hyp[i as usize]);
                if lex.synonyms(st).is_none() {
                    missing_synonyms.push(st);
                }
            }
            if missing_synonyms.len() > before {
                return None;
            }
            s.ref_keys.clear();
            s.ref_keys.extend(refr.iter().map(|&w| lex.stem(w)));
            for &i in &s.hyp_rest {
                let st = lex.stem(hyp[i as usize]);
                let names = lex.synonyms(st).unwrap_or(&[]);
                let found = (0..refr.len())
                    .rev()
                    .find(|&j| !s.ref_used[j] && names.binary_search(&s.ref_keys[j]).is_ok());
                if let Some(j) = found {
                    s.ref_used[j] = true;
                    s.pairs.push((i, j as u32));
                }
            }
        }
    }
    if s.pairs.is_empty() {
        return Some((0, 0));
    }
    s.pairs.sort_unstable();
    let mut chunks = 1u32;
    for w in s.pairs.windows(2) {
        let ((i0, j0), (i1, j1)) = (w[0], w[1]);
        if i1 != i0 + 1 || j1 != j0 + 1 {
            chunks += 1;
        }
    }
    Some((s.pairs.len() as u32, chunks))
}

/// Token ids of many segments: `ids[offsets[k]..offsets[k + 1]]` is segment k.
pub struct Segments<'a> {
    pub ids: &'a [u32],
    pub offsets: &'a [i64],
}

impl Segments<'_> {
    fn get(&self, k: usize) -> &[u32] {
        &self.ids[self.offsets[k] as usize..self.offsets[k + 1] as usize]
    }
}

/// Aligns every pair `(hyps[pair_hyp[p]], refs[pair_ref[p]])` whose `out[2p]` is negative, writing
/// `(matches, chunks)` into `out[2p..2p + 2]`; a pair that needs a missing stem or synonym set keeps -1.
/// Returns the missing word ids (stems) and stem ids (synonym sets), each sorted without duplicates.
pub fn align_pairs(
    hyps: &Segments,
    refs: &Segments,
    pair_hyp: &[i64],
    pair_ref: &[i64],
    lex: &Lexicon,
    out: &mut [i64],
) -> (Vec<u32>, Vec<u32>) {
    let mut scratch = Scratch::default();
    let (mut stems, mut synonyms) = (Vec::new(), Vec::new());
    for p in 0..pair_hyp.len() {
        if out[2 * p] >= 0 {
            continue;
        }
        let hyp = hyps.get(pair_hyp[p] as usize);
        let refr = refs.get(pair_ref[p] as usize);
        if let Some((m, c)) = align(hyp, refr, lex, &mut scratch, &mut stems, &mut synonyms) {
            out[2 * p] = m as i64;
            out[2 * p + 1] = c as i64;
        }
    }
    stems.sort_unstable();
    stems.dedup();
    synonyms.sort_unstable();
    synonyms.dedup();
    (stems, synonyms)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn exact_stage_takes_the_last_reference_position() {
        // hyp: a b a ; ref: a a b -> hyp 2 takes ref 1, hyp 1 ref 2, hyp 0 ref 0: three chunks
        let lex = Lexicon {
            stem_of: &[],
            syn_start: &[],
            syn_len: &[],
            syn_ids: &[],
        };
        let mut s = Scratch::default();
        let (mut a, mut b) = (Vec::new(), Vec::new());
        assert_eq!(
            align(&[0, 1, 0], &[0, 0, 1], &lex, &mut s, &mut a, &mut b),
            Some((3, 3))
        );
        assert_eq!(
            align(&[0, 1], &[0, 1], &lex, &mut s, &mut a, &mut b),
            Some((2, 1))
        );
        assert_eq!(align(&[], &[0], &lex, &mut s, &mut a, &mut b), Some((0, 0)));
    }

    #[test]
    fn missing_tables_are_reported() {
        let lex = Lexicon {
            stem_of: &[UNKNOWN, UNKNOWN],
            syn_start: &[-1, -1],
            syn_len: &[0, 0],
            syn_ids: &[],
        };
        let mut s = Scratch::default();
        let (mut stems, mut syns) = (Vec::new(), Vec::new());
        assert_eq!(align(&[0], &[1], &lex, &mut s, &mut stems, &mut syns), None);
        assert_eq!(stems, vec![0, 1]);
        // word 0 stems to 2, word 1 to 3: different stems, so stage 3 needs 2's synonyms
        let lex = Lexicon {
            stem_of: &[2, 3, 2, 3],
            syn_start: &[-1, -1, -1, -1],
            syn_len: &[0, 0, 0, 0],
            syn_ids: &[],
        };
        assert_eq!(align(&[0], &[1], &lex, &mut s, &mut stems, &mut syns), None);
        assert_eq!(syns, vec![2]);
        let lex = Lexicon {
            stem_of: &[2, 3, 2, 3],
            syn_start: &[-1, -1, 0, -1],
            syn_len: &[0, 0, 2, 0],
            syn_ids: &[2, 3],
        };
        assert_eq!(
            align(&[0], &[1], &lex, &mut s, &mut stems, &mut syns),
            Some((1, 1))
        );
    }
}
