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

use std::collections::HashMap;
use std::hash::BuildHasherDefault;
use std::sync::Arc;

use crate::par::{for_each_unit, pick_threads, should_stop};
use crate::porter::stem_into;
use crate::tok::unicode::py_lower_into;
use crate::wordnet::{FormatError, StrHasher, WordNet};

/// A stem not computed yet.
pub(crate) const UNKNOWN: u32 = u32::MAX;

/// The word-id tables of the stem and synonym stages.
pub(crate) struct Lexicon<'a> {
    /// word id -> stem id ([`UNKNOWN`]: not computed)
    pub(crate) stem_of: &'a [u32],
    /// stem id -> start of its synonym ids in `syn_ids` (negative: not computed)
    pub(crate) syn_start: &'a [i64],
    /// stem id -> number of synonym ids
    pub(crate) syn_len: &'a [i64],
    /// every synonym set, each sorted ascending
    pub(crate) syn_ids: &'a [u32],
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
pub(crate) struct Scratch {
    keyed: Vec<(u32, u32)>,
    hyp_keys: Vec<(u32, u32)>,
    ref_pairs: Vec<(u32, u32)>,
    ends: Vec<usize>,
    hyp_left: Vec<u32>,
    hyp_rest: Vec<u32>,
    ref_used: Vec<bool>,
    ref_keys: Vec<u32>,
    pairs: Vec<(u32, u32)>,
}

/// Stage 1 and 2's rule: each `(key, position)` of `hyp` (visited in the given order, last position
/// first) takes the highest unused reference position with the same key among `refs`; the positions
/// left are written to `rest` in the same order.
fn greedy_same_key(hyp: &[(u32, u32)], refs: &[(u32, u32)], s: &mut Scratch, rest: &mut Vec<u32>) {
    // reference (key, position) sorted: positions of one key are a run, ascending
    let keyed = &mut s.keyed;
    keyed.clear();
    keyed.extend_from_slice(refs);
    keyed.sort_unstable();
    // run ends per entry's key: ends[run start] = one past the highest unused position of that key
    let ends = &mut s.ends;
    ends.clear();
    ends.resize(keyed.len(), 0);
    let mut start = 0;
    while start < keyed.len() {
        let key = keyed[start].0;
        let mut end = start;
        while end < keyed.len() && keyed[end].0 == key {
            end += 1;
        }
        ends[start] = end;
        start = end;
    }
    rest.clear();
    for &(key, i) in hyp {
        let run = keyed.partition_point(|&(k, _)| k < key);
        if run < keyed.len() && keyed[run].0 == key && ends[run] > run {
            let end = ends[run];
            let j = keyed[end - 1].1;
            ends[run] = end - 1;
            s.ref_used[j as usize] = true;
            s.pairs.push((i, j));
        } else {
            rest.push(i);
        }
    }
}

/// `(matches, chunks)` of one pair, or `None` when a stem or synonym set it needs is not computed yet
/// (the missing word ids are appended to `missing_stems`, the missing stem ids to `missing_synonyms`).
pub(crate) fn align(
    hyp: &[u32],
    refr: &[u32],
    lex: &Lexicon<'_>,
    s: &mut Scratch,
    missing_stems: &mut Vec<u32>,
    missing_synonyms: &mut Vec<u32>,
) -> Option<(u32, u32)> {
    s.pairs.clear();
    s.ref_used.clear();
    s.ref_used.resize(refr.len(), false);
    // stage 1: exact
    let mut hyp_keys = std::mem::take(&mut s.hyp_keys);
    let mut ref_keys = std::mem::take(&mut s.ref_pairs);
    let mut left = std::mem::take(&mut s.hyp_left);
    hyp_keys.clear();
    hyp_keys.extend((0..hyp.len() as u32).rev().map(|i| (hyp[i as usize], i)));
    ref_keys.clear();
    ref_keys.extend(refr.iter().enumerate().map(|(j, &w)| (w, j as u32)));
    greedy_same_key(&hyp_keys, &ref_keys, s, &mut left);
    s.hyp_keys = hyp_keys;
    s.ref_pairs = ref_keys;
    let mut done = true;
    if !left.is_empty() && s.pairs.len() < refr.len() {
        done = stem_and_synonym_stages(hyp, refr, lex, s, &left, missing_stems, missing_synonyms);
    }
    s.hyp_left = left;
    if !done {
        return None;
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

/// Stages 2 and 3 on the hypothesis positions `left` (last first) after the exact stage; false when a
/// stem or synonym set is missing (reported as in [`align`]).
fn stem_and_synonym_stages(
    hyp: &[u32],
    refr: &[u32],
    lex: &Lexicon<'_>,
    s: &mut Scratch,
    left: &[u32],
    missing_stems: &mut Vec<u32>,
    missing_synonyms: &mut Vec<u32>,
) -> bool {
    // stage 2: stems of every position left (all of them are needed, as in NLTK)
    let before = missing_stems.len();
    let open = (0..refr.len()).filter(|&j| !s.ref_used[j]);
    for w in left
        .iter()
        .map(|&i| hyp[i as usize])
        .chain(open.clone().map(|j| refr[j]))
    {
        if lex.stem(w) == UNKNOWN {
            missing_stems.push(w);
        }
    }
    if missing_stems.len() > before {
        return false;
    }
    let mut hyp_stems = std::mem::take(&mut s.hyp_keys);
    let mut ref_stems = std::mem::take(&mut s.ref_pairs);
    hyp_stems.clear();
    hyp_stems.extend(left.iter().map(|&i| (lex.stem(hyp[i as usize]), i)));
    ref_stems.clear();
    ref_stems.extend(open.map(|j| (lex.stem(refr[j]), j as u32)));
    let mut rest = std::mem::take(&mut s.hyp_rest);
    greedy_same_key(&hyp_stems, &ref_stems, s, &mut rest);
    s.hyp_keys = hyp_stems;
    s.ref_pairs = ref_stems;
    let done = rest.is_empty()
        || s.pairs.len() >= refr.len()
        || synonym_stage(hyp, refr, lex, s, &rest, missing_synonyms);
    s.hyp_rest = rest;
    done
}

/// Stage 3: each hypothesis stem left (last first) takes the last unmatched reference position whose stem
/// is in its synonym set; false when a synonym set is missing.
fn synonym_stage(
    hyp: &[u32],
    refr: &[u32],
    lex: &Lexicon<'_>,
    s: &mut Scratch,
    rest: &[u32],
    missing_synonyms: &mut Vec<u32>,
) -> bool {
    let before = missing_synonyms.len();
    for &i in rest {
        let st = lex.stem(hyp[i as usize]);
        if lex.synonyms(st).is_none() {
            missing_synonyms.push(st);
        }
    }
    if missing_synonyms.len() > before {
        return false;
    }
    s.ref_keys.clear();
    s.ref_keys.extend(refr.iter().map(|&w| lex.stem(w)));
    for &i in rest {
        let names = lex.synonyms(lex.stem(hyp[i as usize])).unwrap_or(&[]);
        let found = (0..refr.len())
            .rev()
            .find(|&j| !s.ref_used[j] && names.binary_search(&s.ref_keys[j]).is_ok());
        if let Some(j) = found {
            s.ref_used[j] = true;
            s.pairs.push((i, j as u32));
        }
    }
    true
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

/// The (hypothesis, reference) pairs to align: pair `p` is `hyps.get(hyp[p])` against
/// `refs.get(reference[p])` (indices checked by the caller).
pub struct Pairs<'a> {
    pub hyps: &'a Segments<'a>,
    pub refs: &'a Segments<'a>,
    pub hyp: &'a [i64],
    pub reference: &'a [i64],
}

impl Pairs<'_> {
    fn len(&self) -> usize {
        self.hyp.len()
    }

    fn get(&self, p: usize) -> (&[u32], &[u32]) {
        (
            self.hyps.get(self.hyp[p] as usize),
            self.refs.get(self.reference[p] as usize),
        )
    }
}

/// Pairs per unit of work handed to a thread.
const PAIR_UNIT: usize = 256;

/// Aligns every pair `p` of `pairs` whose `out[2p]` is negative, writing `(matches, chunks)` into
/// `out[2p..2p + 2]`, on `threads` threads (one thread uses `scratch`, whose buffers are kept for the next
/// call); a pair that needs a missing stem or synonym set keeps -1. Returns the missing word ids (stems)
/// and stem ids (synonym sets), each sorted without duplicates.
pub(crate) fn align_pairs(
    pairs: &Pairs<'_>,
    lex: &Lexicon<'_>,
    out: &mut [i64],
    threads: usize,
    scratch: &mut Scratch,
) -> (Vec<u32>, Vec<u32>) {
    let n_pairs = pairs.len();
    let threads = pick_threads(threads, n_pairs, 2000, n_pairs.div_ceil(PAIR_UNIT));
    let align_unit = |scratch: &mut Scratch,
                      stems: &mut Vec<u32>,
                      synonyms: &mut Vec<u32>,
                      unit: usize,
                      rows: &mut [i64]| {
        for (k, row) in rows.chunks_mut(2).enumerate() {
            if row[0] >= 0 {
                continue;
            }
            let (hyp, refr) = pairs.get(unit * PAIR_UNIT + k);
            if let Some((m, c)) = align(hyp, refr, lex, scratch, stems, synonyms) {
                row[0] = m as i64;
                row[1] = c as i64;
            }
        }
    };
    let (mut stems, mut synonyms) = (Vec::new(), Vec::new());
    if threads <= 1 {
        for (unit, rows) in out.chunks_mut(2 * PAIR_UNIT).enumerate() {
            if should_stop() {
                break;
            }
            align_unit(scratch, &mut stems, &mut synonyms, unit, rows);
        }
    } else {
        let states = for_each_unit(
            out,
            2 * PAIR_UNIT,
            threads,
            || (Scratch::default(), Vec::new(), Vec::new()),
            |(scratch, stems, synonyms): &mut (Scratch, Vec<u32>, Vec<u32>), unit, rows| {
                align_unit(scratch, stems, synonyms, unit, rows)
            },
        );
        for (_, st, sy) in states {
            stems.extend(st);
            synonyms.extend(sy);
        }
    }
    stems.sort_unstable();
    stems.dedup();
    synonyms.sort_unstable();
    synonyms.dedup();
    (stems, synonyms)
}

/// NLTK's `PorterStemmer().stem(word)` for any word, with reused buffers. The word is lowercased as
/// Python's `str.lower()` does; each distinct non-ASCII character then stands in as one byte of its own
/// above ASCII, so the byte stemmer's rules (which look at ASCII suffixes, vowels and equal neighbours)
/// see the characters as NLTK does: as consonants, equal only when equal.
#[derive(Default)]
struct PorterBuffers {
    lower: String,
    mapped: Vec<u8>,
    chars: Vec<char>,
    out: Vec<u8>,
    stem: String,
}

impl PorterBuffers {
    /// The stem, or None for a word with more than 128 distinct non-ASCII characters.
    fn stem(&mut self, word: &str) -> Option<&str> {
        self.mapped.clear();
        if word.is_ascii() {
            self.mapped
                .extend(word.bytes().map(|b| b.to_ascii_lowercase()));
            stem_into(&self.mapped, &mut self.out);
            self.stem.clear();
            self.stem.extend(self.out.iter().map(|&b| b as char));
            return Some(&self.stem);
        }
        let lowered = if py_lower_into(word, &mut self.lower) {
            self.lower.as_str()
        } else {
            word
        };
        // NLTK tests the length before lowercasing ("İ".lower() is two characters)
        if word.chars().count() <= 2 {
            self.stem.clear();
            self.stem.push_str(lowered);
            return Some(&self.stem);
        }
        self.chars.clear();
        for c in lowered.chars() {
            if c.is_ascii() {
                self.mapped.push(c as u8);
                continue;
            }
            let k = match self.chars.iter().position(|&d| d == c) {
                Some(k) => k,
                None => {
                    self.chars.push(c);
                    self.chars.len() - 1
                }
            };
            if k >= 128 {
                return None;
            }
            self.mapped.push(0x80 + k as u8);
        }
        stem_into(&self.mapped, &mut self.out);
        self.stem.clear();
        for &b in &self.out {
            self.stem.push(if b < 0x80 {
                b as char
            } else {
                self.chars[(b - 0x80) as usize]
            });
        }
        Some(&self.stem)
    }
}

/// Word ids with the stem and synonym tables of one stemmer and WordNet: what [`Lexicon`] reads. Stems
/// are computed here by NLTK's Porter rules when `porter` is set, synonym sets from `wordnet` when there
/// is one (for non-ASCII words only when `unicode` says the lowercasing tables in use are Python's); the caller fills the others ([`WordTable::set_stem`],
/// [`WordTable::set_synonyms`]), which [`WordTable::align_batch`] reports as missing.
pub struct WordTable {
    ids: HashMap<Arc<str>, u32, BuildHasherDefault<StrHasher>>,
    words: Vec<Arc<str>>,
    stem_of: Vec<u32>,
    syn_start: Vec<i64>,
    syn_len: Vec<i64>,
    syn_ids: Vec<u32>,
    porter: bool,
    wordnet: Option<Arc<WordNet>>,
    /// whether non-ASCII words may be lowercased here (the Unicode tables in use are the caller's)
    unicode: bool,
    /// the single-thread alignment's buffers, kept from call to call
    scratch: Scratch,
    porter_buffers: PorterBuffers,
}

/// What the caller must compute before a batch can be aligned: word ids without a stem, stem ids
/// without a synonym set.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Missing {
    pub stems: Vec<u32>,
    pub synonyms: Vec<u32>,
}

impl WordTable {
    pub fn new(porter: bool, wordnet: Option<Arc<WordNet>>, unicode: bool) -> Self {
        WordTable {
            ids: HashMap::default(),
            words: Vec::new(),
            stem_of: Vec::new(),
            syn_start: Vec::new(),
            syn_len: Vec::new(),
            syn_ids: Vec::new(),
            porter,
            wordnet,
            unicode,
            scratch: Scratch::default(),
            porter_buffers: PorterBuffers::default(),
        }
    }

    /// Distinct strings held (words, stems, synonym names).
    pub fn len(&self) -> usize {
        self.words.len()
    }

    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// The id of `word` (a new one the first time).
    pub fn intern(&mut self, word: &str) -> u32 {
        if let Some(&id) = self.ids.get(word) {
            return id;
        }
        let id = self.words.len() as u32;
        let word: Arc<str> = Arc::from(word);
        self.ids.insert(Arc::clone(&word), id);
        self.words.push(word);
        self.stem_of.push(UNKNOWN);
        self.syn_start.push(-1);
        self.syn_len.push(0);
        id
    }

    pub fn word(&self, id: u32) -> Option<&str> {
        self.words.get(id as usize).map(|w| &**w)
    }

    pub fn set_stem(&mut self, id: u32, stem: &str) {
        let stem = self.intern(stem);
        self.stem_of[id as usize] = stem;
    }

    /// Sets the synonym set of stem `id` (the stem itself is added).
    pub fn set_synonyms<'a>(&mut self, id: u32, names: impl IntoIterator<Item = &'a str>) {
        let ids: Vec<u32> = names.into_iter().map(|n| self.intern(n)).collect();
        self.set_synonym_ids(id, &ids);
    }

    fn set_synonym_ids(&mut self, id: u32, names: &[u32]) {
        let start = self.syn_ids.len();
        self.syn_ids.extend_from_slice(names);
        self.syn_ids.push(id);
        self.syn_ids[start..].sort_unstable();
        let mut kept = start;
        for k in start..self.syn_ids.len() {
            if k == start || self.syn_ids[k] != self.syn_ids[kept - 1] {
                self.syn_ids[kept] = self.syn_ids[k];
                kept += 1;
            }
        }
        self.syn_ids.truncate(kept);
        self.syn_start[id as usize] = start as i64;
        self.syn_len[id as usize] = (kept - start) as i64;
    }

    /// Computes the stems of the words of `ids` that have none and can be stemmed here; the others are
    /// appended to `missing`.
    fn fill_stems(&mut self, ids: impl Iterator<Item = u32>, missing: &mut Vec<u32>) {
        let mut porter = std::mem::take(&mut self.porter_buffers);
        for id in ids {
            if self.stem_of[id as usize] != UNKNOWN {
                continue;
            }
            let word = &self.words[id as usize];
            let stem = if self.porter && (self.unicode || word.is_ascii()) {
                porter.stem(word)
            } else {
                None
            };
            match stem {
                Some(stem) => {
                    let stem = stem.to_string();
                    self.set_stem(id, &stem);
                }
                None => missing.push(id),
            }
        }
        self.porter_buffers = porter;
    }

    /// The stem of `word` computed here, or None when the caller must compute it.
    pub fn stem(&mut self, word: &str) -> Option<&str> {
        let id = self.intern(word);
        let mut missing = Vec::new();
        self.fill_stems(std::iter::once(id), &mut missing);
        match self.stem_of[id as usize] {
            UNKNOWN => None,
            stem => Some(&self.words[stem as usize]),
        }
    }

    /// Computes the synonym sets of the stems `ids` from the WordNet; without one they are appended to
    /// `missing`.
    fn fill_synonyms(&mut self, ids: &[u32], missing: &mut Vec<u32>) -> Result<(), FormatError> {
        let Some(wordnet) = self.wordnet.clone() else {
            missing.extend_from_slice(ids);
            return Ok(());
        };
        let mut scratch = Vec::new();
        let mut names = Vec::new();
        for &id in ids {
            if self.syn_start[id as usize] >= 0 {
                continue;
            }
            let word = Arc::clone(&self.words[id as usize]);
            if !(self.unicode || word.is_ascii()) {
                missing.push(id);
                continue;
            }
            names.clear();
            wordnet.synonyms(&word, &mut scratch, |n| names.push(self.intern(n)))?;
            self.set_synonym_ids(id, &names);
        }
        Ok(())
    }

    /// [`align_pairs`] with the stems and synonym sets it needs computed here first; a pair whose
    /// words need one the caller must compute keeps -1 in `out`, and those ids are returned.
    pub fn align_batch(
        &mut self,
        pairs: &Pairs<'_>,
        out: &mut [i64],
        threads: usize,
    ) -> Result<Missing, FormatError> {
        let mut missing = Missing::default();
        // every stem first (cheap): the alignment then only waits for synonym sets
        let words: Vec<u32> = (0..pairs.len())
            .filter(|&p| out[2 * p] < 0)
            .flat_map(|p| {
                let (h, r) = pairs.get(p);
                h.iter().chain(r).copied()
            })
            .collect();
        self.fill_stems(words.into_iter(), &mut missing.stems);
        if !missing.stems.is_empty() {
            missing.stems.sort_unstable();
            missing.stems.dedup();
            return Ok(missing);
        }
        loop {
            let lex = Lexicon {
                stem_of: &self.stem_of,
                syn_start: &self.syn_start,
                syn_len: &self.syn_len,
                syn_ids: &self.syn_ids,
            };
            let (stems, synonyms) = align_pairs(pairs, &lex, out, threads, &mut self.scratch);
            debug_assert!(stems.is_empty());
            if synonyms.is_empty() {
                return Ok(missing);
            }
            self.fill_synonyms(&synonyms, &mut missing.synonyms)?;
            if !missing.synonyms.is_empty() {
                return Ok(missing);
            }
        }
    }
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
