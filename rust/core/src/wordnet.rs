//! The WordNet 3.0 lookups METEOR needs, as NLTK 3.10.4's `WordNetCorpusReader.synsets(word)` makes
//! them: the word lowercased (as Python's `str.lower()`); per part of speech (noun, verb, adjective, adverb, in that order) morphy's
//! base forms (the form itself, then either the exception list's bases or each detachment rule applied
//! once, those the part's index lists, each once); every synset offset the index gives for them; and the
//! lemma names of those synsets (their words in the part's data file, the adjective marker removed).
//! The readable reference is `bleuscope/metrics/meteor/wordnet.py`; tests compare both with NLTK.
//!
//! The index and exception files are parsed when the database is built; synset lines are read at their
//! byte offsets in the data files when a lookup needs them (a bad offset is an error then, as in NLTK).

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use crate::table::{hash_bytes, mix};
use crate::tok::unicode::py_lower_into;

/// Parts of speech in the order NLTK's `synsets()` visits them.
pub(crate) const PARTS: [&str; 4] = ["n", "v", "a", "r"];

/// morphy's detachment rules per part of speech: (suffix, replacement), each applied once to the word.
const RULES: [&[(&str, &str)]; 4] = [
    &[
        ("s", ""),
        ("ses", "s"),
        ("ves", "f"),
        ("xes", "x"),
        ("zes", "z"),
        ("ches", "ch"),
        ("shes", "sh"),
        ("men", "man"),
        ("ies", "y"),
    ],
    &[
        ("s", ""),
        ("ies", "y"),
        ("es", "e"),
        ("es", ""),
        ("ed", "e"),
        ("ed", ""),
        ("ing", "e"),
        ("ing", ""),
    ],
    &[("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
    &[],
];

/// A hasher for short string keys (the keys come from the database and the user's words: no secret).
#[derive(Default)]
pub(crate) struct StrHasher(u64);

impl Hasher for StrHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0 = mix(self.0 ^ hash_bytes(bytes));
    }
    fn write_u8(&mut self, i: u8) {
        self.0 = mix(self.0 ^ u64::from(i).wrapping_add(0x9E37_79B9));
    }
}

/// A map keyed by strings with [`StrHasher`].
pub(crate) type StrMap<V> = HashMap<Box<str>, V, BuildHasherDefault<StrHasher>>;

/// A database file that does not have the documented format: the message names the file and the line
/// (index and exception files) or the byte offset (data files).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FormatError(pub String);

/// The files of one part of speech, with the names used in error messages.
pub struct PartFiles<'a> {
    pub index: &'a [u8],
    pub index_name: &'a str,
    pub exceptions: &'a [u8],
    pub exceptions_name: &'a str,
    pub data: Vec<u8>,
    pub data_name: String,
}

struct Part {
    /// lemma -> range of its synset offsets in `offsets`, in index order
    index: StrMap<(u32, u32)>,
    offsets: Vec<u32>,
    /// inflected form -> range of its base forms in `bases` (a key listed twice keeps its last line)
    exceptions: StrMap<(u32, u32)>,
    bases: Vec<Box<str>>,
    data: Vec<u8>,
    data_name: String,
}

/// One WordNet database (see the module documentation).
pub struct WordNet {
    parts: Vec<Part>,
}

fn text<'a>(bytes: &'a [u8], name: &str) -> Result<&'a str, FormatError> {
    std::str::from_utf8(bytes).map_err(|e| {
        let line = bytes[..e.valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        FormatError(format!("{name}, line {line}: not UTF-8"))
    })
}

fn parse_index(bytes: &[u8], name: &str, pos: &str) -> Result<Part, FormatError> {
    let mut part = Part {
        index: StrMap::default(),
        offsets: Vec::new(),
        exceptions: StrMap::default(),
        bases: Vec::new(),
        data: Vec::new(),
        data_name: String::new(),
    };
    for (number, line) in text(bytes, name)?.lines().enumerate() {
        if line.is_empty() || line.starts_with(' ') {
            continue; // the license header
        }
        let error = |msg: &str| FormatError(format!("{name}, line {}: {msg}", number + 1));
        let fields: Vec<&str> = line.split_whitespace().collect();
        let field = |k: usize| {
            fields
                .get(k)
                .copied()
                .ok_or_else(|| error("too few fields"))
        };
        let int = |k: usize| -> Result<i64, FormatError> {
            let f = field(k)?;
            f.parse::<i64>()
                .map_err(|_| error(&format!("not an integer: {f:?}")))
        };
        let (lemma, file_pos) = (field(0)?, field(1)?);
        let n_synsets = int(2)?;
        let n_pointers = int(3)?;
        if n_pointers < 0 {
            return Err(error("negative pointer count"));
        }
        let start = 4 + n_pointers as usize;
        if n_synsets <= 0 || int(start)? != n_synsets {
            return Err(error("synset and sense counts differ"));
        }
        let first = part.offsets.len() as u32;
        for k in 0..n_synsets as usize {
            let Some(f) = fields.get(start + 2 + k) else {
                return Err(error("fewer synset offsets than announced"));
            };
            let offset = f
                .parse::<u32>()
                .map_err(|_| error(&format!("not a synset offset: {f:?}")))?;
            part.offsets.push(offset);
        }
        if file_pos != pos {
            return Err(error(&format!(
                "part of speech {file_pos:?}, expected {pos:?}"
            )));
        }
        part.index.insert(lemma.into(), (first, n_synsets as u32));
    }
    Ok(part)
}

fn parse_exceptions(part: &mut Part, bytes: &[u8], name: &str) -> Result<(), FormatError> {
    for (number, line) in text(bytes, name)?.lines().enumerate() {
        let mut terms = line.split_whitespace();
        let Some(form) = terms.next() else {
            return Err(FormatError(format!(
                "{name}, line {}: empty line",
                number + 1
            )));
        };
        let first = part.bases.len() as u32;
        part.bases.extend(terms.map(Box::from));
        let len = part.bases.len() as u32 - first;
        part.exceptions.insert(form.into(), (first, len));
    }
    Ok(())
}

/// `word` without a trailing syntactic marker (`beautiful(a)` -> `beautiful`): a last `(...)` holding no
/// parenthesis, as NLTK's pattern `(.*?)(\([^()]*\))?$` removes it.
pub(crate) fn without_marker(word: &str) -> &str {
    if let Some(inner) = word.strip_suffix(')') {
        if let Some(start) = inner.rfind('(') {
            if !inner[start + 1..].contains(')') {
                return &word[..start];
            }
        }
    }
    word
}

/// Whether `line` starts with `offset` written as NLTK checks it (`%08d`: eight digits, zero-padded).
fn starts_with_offset(line: &[u8], offset: u32) -> bool {
    if offset >= 100_000_000 || line.len() < 8 {
        return false; // nine digits never equal a line's first eight bytes
    }
    let mut rest = offset;
    for k in (0..8).rev() {
        if line[k] != b'0' + (rest % 10) as u8 {
            return false;
        }
        rest /= 10;
    }
    true
}

impl WordNet {
    /// The database of four parts (noun, verb, adjective, adverb files, in [`PARTS`] order).
    pub fn parse(files: Vec<PartFiles<'_>>) -> Result<WordNet, FormatError> {
        if files.len() != PARTS.len() {
            return Err(FormatError(
                "WordNet needs the files of four parts of speech".into(),
            ));
        }
        let mut parts = Vec::with_capacity(PARTS.len());
        for (f, pos) in files.into_iter().zip(PARTS) {
            let mut part = parse_index(f.index, f.index_name, pos)?;
            parse_exceptions(&mut part, f.exceptions, f.exceptions_name)?;
            part.data = f.data;
            part.data_name = f.data_name;
            parts.push(part);
        }
        Ok(WordNet { parts })
    }

    /// The synset offset ranges of morphy's base forms of `form` (already lowercased) in part `p` (an
    /// index into [`PARTS`]), in morphy's order, each base once (every lemma has its own range).
    fn base_ranges(&self, form: &str, p: usize, candidate: &mut String, out: &mut Vec<(u32, u32)>) {
        out.clear();
        let part = &self.parts[p];
        let keep = |word: &str, out: &mut Vec<(u32, u32)>| {
            if let Some(&range) = part.index.get(word) {
                if !out.contains(&range) {
                    out.push(range);
                }
            }
        };
        keep(form, out);
        if let Some(&(first, len)) = part.exceptions.get(form) {
            for base in &part.bases[first as usize..(first + len) as usize] {
                keep(base, out);
            }
        } else {
            for (old, new) in RULES[p] {
                if let Some(stem) = form.strip_suffix(old) {
                    candidate.clear();
                    candidate.push_str(stem);
                    candidate.push_str(new);
                    keep(candidate, out);
                }
            }
        }
    }

    /// `(part, offset)` of every synset of `word`, in the order NLTK's `synsets(word)` lists them.
    pub(crate) fn synsets(&self, word: &str, out: &mut Vec<(u8, u32)>) {
        out.clear();
        // Python's str.lower() (the tokenizers' Unicode tables)
        let mut lowered = String::new();
        let form = if py_lower_into(word, &mut lowered) {
            lowered.as_str()
        } else {
            word
        };
        let mut candidate = String::new();
        let mut ranges = Vec::new();
        for (p, part) in self.parts.iter().enumerate() {
            self.base_ranges(form, p, &mut candidate, &mut ranges);
            for &(first, len) in &ranges {
                out.extend(
                    part.offsets[first as usize..(first + len) as usize]
                        .iter()
                        .map(|&o| (p as u8, o)),
                );
            }
        }
    }

    /// Calls `name` with each lemma name of the synset at `offset` of part `p` (markers removed).
    pub(crate) fn lemma_names(
        &self,
        p: u8,
        offset: u32,
        mut name: impl FnMut(&str),
    ) -> Result<(), FormatError> {
        let part = &self.parts[p as usize];
        let error = |msg: &str| FormatError(format!("{}, byte {offset}: {msg}", part.data_name));
        let data = &part.data;
        let start = (offset as usize).min(data.len());
        let end = data[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(data.len(), |k| start + k);
        let line = &data[start..end];
        if !starts_with_offset(line, offset) {
            return Err(error(
                "no synset starts there (the index and data files disagree)",
            ));
        }
        // offset, lexicographer file, synset type, word count (hex), then words and lex ids
        let mut fields = line
            .split(|b| b.is_ascii_whitespace())
            .filter(|f| !f.is_empty());
        let count = fields
            .nth(3)
            .and_then(|f| std::str::from_utf8(f).ok())
            .and_then(|f| usize::from_str_radix(f, 16).ok())
            .ok_or_else(|| error("no word count"))?;
        let mut seen = 0;
        for (k, word) in fields.take(2 * count).enumerate() {
            if k % 2 == 0 {
                seen += 1;
                name(without_marker(&String::from_utf8_lossy(word)));
            }
        }
        if seen != count {
            return Err(error("fewer words than announced"));
        }
        Ok(())
    }

    /// METEOR's synonyms of `word`: every lemma name without `_` of its synsets, in synset order (with
    /// repeats; the caller adds `word` itself).
    pub fn synonyms(
        &self,
        word: &str,
        scratch: &mut Vec<(u8, u32)>,
        mut name: impl FnMut(&str),
    ) -> Result<(), FormatError> {
        self.synsets(word, scratch);
        for &(p, offset) in scratch.iter() {
            self.lemma_names(p, offset, |n| {
                if !n.contains('_') {
                    name(n)
                }
            })?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOUN_INDEX: &[u8] =
        b"  1 license\ndog n 2 1 @ 2 1 00000012 00000062\nwoman n 1 0 1 0 00000095\n";
    const NOUN_DATA: &[u8] = b"  1 license\n00000012 05 n 02 dog 0 domestic_dog 0 000 | a dog\n00000062 05 n 01 frump 0 000 | x\n00000095 05 n 01 woman 0 000 | y\n";

    fn noun_only() -> WordNet {
        let empty = |name: &'static str| PartFiles {
            index: b"",
            index_name: name,
            exceptions: b"",
            exceptions_name: name,
            data: Vec::new(),
            data_name: name.into(),
        };
        let noun = PartFiles {
            index: NOUN_INDEX,
            index_name: "index.noun",
            exceptions: b"women woman\n",
            exceptions_name: "noun.exc",
            data: NOUN_DATA.to_vec(),
            data_name: "data.noun".into(),
        };
        WordNet::parse(vec![noun, empty("v"), empty("a"), empty("r")]).unwrap()
    }

    #[test]
    fn synonyms_follow_morphy_and_drop_multiword_names() {
        let wn = noun_only();
        let mut scratch = Vec::new();
        let mut names = Vec::new();
        wn.synonyms("Dogs", &mut scratch, |n| names.push(n.to_string()))
            .unwrap();
        assert_eq!(names, ["dog", "frump"]);
        names.clear();
        wn.synonyms("women", &mut scratch, |n| names.push(n.to_string()))
            .unwrap();
        assert_eq!(names, ["woman"]);
    }

    #[test]
    fn marker_removal() {
        assert_eq!(without_marker("beautiful(a)"), "beautiful");
        assert_eq!(without_marker("a(b)c"), "a(b)c");
        assert_eq!(without_marker("a(b(c)"), "a(b");
        assert_eq!(without_marker("a)"), "a)");
    }

    #[test]
    fn bad_lines_name_file_and_line() {
        let bad = PartFiles {
            index: b"dog n 2 0 1 0 00000012\n",
            index_name: "index.noun",
            exceptions: b"",
            exceptions_name: "noun.exc",
            data: Vec::new(),
            data_name: "data.noun".into(),
        };
        let err = WordNet::parse(vec![bad]).err().unwrap();
        assert!(err.0.contains("four parts"));
        let wn = noun_only();
        let err = wn.lemma_names(0, 13, |_| {}).unwrap_err();
        assert!(err
            .0
            .starts_with("data.noun, byte 13: no synset starts there"));
    }
}
