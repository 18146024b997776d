//! The Porter stemmer as NLTK 3.10.4's `PorterStemmer()` runs it (`NLTK_EXTENSIONS` mode), on ASCII
//! lowercase words (rouge-score's tokens). The readable reference, with the list of NLTK's departures from
//! Porter (1980), is `bleuscope/metrics/rouge/porter.py`; tests compare the two, and both with NLTK.

/// NLTK's word lists are data: `from:to` pairs (`to` may be empty), in NLTK's order, read by [`pairs`].
/// The irregular forms, whole words looked up before any rule:
const IRREGULAR: &str = "sky:sky skies:sky dying:die lying:lie tying:tie news:news innings:inning \
    inning:inning outings:outing outing:outing cannings:canning canning:canning howe:howe proceed:proceed \
    exceed:exceed succeed:succeed";
/// Suffix replacements of step 2 (the first suffix the word ends with decides):
const STEP2: &str =
    "ational:ate tional:tion enci:ence anci:ance izer:ize bli:ble alli:al entli:ent eli:e \
    ousli:ous ization:ize ation:ate ator:ate alism:al iveness:ive fulness:ful ousness:ous aliti:al \
    iviti:ive biliti:ble fulli:ful";
/// Suffix replacements of step 3:
const STEP3: &str = "icate:ic ative: alize:al iciti:ic ical:ic ful: ness:";

/// The `(from, to)` pairs of a word list.
fn pairs(list: &'static str) -> impl Iterator<Item = (&'static [u8], &'static [u8])> {
    list.split_ascii_whitespace().map(|pair| {
        let (from, to) = pair.split_once(':').expect("a from:to pair");
        (from.as_bytes(), to.as_bytes())
    })
}

fn is_vowel(b: u8) -> bool {
    matches!(b, b'a' | b'e' | b'i' | b'o' | b'u')
}

/// Consonant flags: not a vowel, and a `y` only after a vowel (or at the start).
fn consonants(word: &[u8], out: &mut Vec<bool>) {
    out.clear();
    for (i, &b) in word.iter().enumerate() {
        let c = if is_vowel(b) {
            false
        } else if b == b'y' {
            i == 0 || !out[i - 1]
        } else {
            true
        };
        out.push(c);
    }
}

fn last_is_consonant(word: &[u8]) -> bool {
    let mut flags = Vec::with_capacity(word.len());
    consonants(word, &mut flags);
    flags.last().copied().unwrap_or(false)
}

/// Porter's m: vowel-consonant transitions.
fn measure(stem: &[u8]) -> usize {
    let mut flags = Vec::with_capacity(stem.len());
    consonants(stem, &mut flags);
    flags.windows(2).filter(|w| !w[0] && w[1]).count()
}

fn has_vowel(stem: &[u8]) -> bool {
    let mut flags = Vec::with_capacity(stem.len());
    consonants(stem, &mut flags);
    flags.iter().any(|&c| !c)
}

fn double_consonant(word: &[u8]) -> bool {
    let n = word.len();
    n >= 2 && word[n - 1] == word[n - 2] && last_is_consonant(word)
}

/// Condition `*o` (with NLTK's two-letter vowel-consonant case).
fn cvc(word: &[u8]) -> bool {
    let n = word.len();
    let mut f = Vec::with_capacity(n);
    consonants(word, &mut f);
    if n >= 3 && f[n - 3] && !f[n - 2] && f[n - 1] && !matches!(word[n - 1], b'w' | b'x' | b'y') {
        return true;
    }
    n == 2 && !f[0] && f[1]
}

fn ends(word: &[u8], suffix: &[u8]) -> bool {
    word.ends_with(suffix)
}

fn replace(word: &mut Vec<u8>, cut: usize, with: &[u8]) {
    word.truncate(word.len() - cut);
    word.extend_from_slice(with);
}

/// The first rule whose suffix the word ends with decides (kept when its condition fails).
fn apply(word: &mut Vec<u8>, rules: &'static str, min_measure: usize) {
    for (suffix, with) in pairs(rules) {
        if ends(word, suffix) {
            let stem = &word[..word.len() - suffix.len()];
            if measure(stem) >= min_measure {
                replace(word, suffix.len(), with);
            }
            return;
        }
    }
}

fn step1a(w: &mut Vec<u8>) {
    if ends(w, b"ies") && w.len() == 4 {
        w.pop();
    } else if ends(w, b"sses") || ends(w, b"ies") {
        w.truncate(w.len() - 2);
    } else if ends(w, b"ss") {
    } else if ends(w, b"s") {
        w.pop();
    }
}

fn step1b(w: &mut Vec<u8>) {
    if ends(w, b"ied") {
        let with: &[u8] = if w.len() == 4 { b"ie" } else { b"i" };
        replace(w, 3, with);
        return;
    }
    if ends(w, b"eed") {
        if measure(&w[..w.len() - 3]) > 0 {
            w.pop();
        }
        return;
    }
    let cut = if ends(w, b"ed") && has_vowel(&w[..w.len() - 2]) {
        2
    } else if ends(w, b"ing") && has_vowel(&w[..w.len() - 3]) {
        3
    } else {
        return;
    };
    w.truncate(w.len() - cut);
    for (suffix, with) in [(&b"at"[..], &b"ate"[..]), (b"bl", b"ble"), (b"iz", b"ize")] {
        if ends(w, suffix) {
            replace(w, suffix.len(), with);
            return;
        }
    }
    if double_consonant(w) {
        if !matches!(w[w.len() - 1], b'l' | b's' | b'z') {
            w.pop();
        }
        return;
    }
    if measure(w) == 1 && cvc(w) {
        w.push(b'e');
    }
}

fn step1c(w: &mut [u8]) {
    if ends(w, b"y") {
        let stem = &w[..w.len() - 1];
        if stem.len() > 1 && last_is_consonant(stem) {
            let n = w.len();
            w[n - 1] = b'i';
        }
    }
}

fn step2(w: &mut Vec<u8>) {
    while ends(w, b"alli") && measure(&w[..w.len() - 4]) > 0 {
        replace(w, 4, b"al"); // NLTK runs step 2 again on the result
    }
    if pairs(STEP2).any(|(s, _)| ends(w, s)) {
        apply(w, STEP2, 1);
    } else if ends(w, b"logi") && measure(&w[..w.len() - 3]) > 0 {
        w.pop(); // NLTK measures the word less "ogi" for this rule
    }
}

const STEP4: [&[u8]; 19] = [
    b"al", b"ance", b"ence", b"er", b"ic", b"able", b"ible", b"ant", b"ement", b"ment", b"ent",
    b"ion", b"ou", b"ism", b"ate", b"iti", b"ous", b"ive", b"ize",
];

fn step4(w: &mut Vec<u8>) {
    for suffix in STEP4 {
        if ends(w, suffix) {
            let stem = &w[..w.len() - suffix.len()];
            let ok = measure(stem) > 1
                && (suffix != b"ion" || matches!(stem.last(), Some(b's') | Some(b't')));
            if ok {
                w.truncate(stem.len());
            }
            return;
        }
    }
}

fn step5(w: &mut Vec<u8>) {
    if ends(w, b"e") {
        let stem = &w[..w.len() - 1];
        let m = measure(stem);
        if m > 1 || (m == 1 && !cvc(stem)) {
            w.pop();
        }
    }
    if ends(w, b"ll") && measure(&w[..w.len() - 1]) > 1 {
        w.pop();
    }
}

/// NLTK's `PorterStemmer().stem(word)` of an ASCII lowercase word, written into `out`.
pub fn stem_into(word: &[u8], out: &mut Vec<u8>) {
    out.clear();
    if let Some((_, s)) = pairs(IRREGULAR).find(|&(w, _)| w == word) {
        out.extend_from_slice(s);
        return;
    }
    out.extend_from_slice(word);
    if word.len() <= 2 {
        return;
    }
    step1a(out);
    step1b(out);
    step1c(out);
    step2(out);
    apply(out, STEP3, 1);
    step4(out);
    step5(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stem(w: &str) -> String {
        let mut out = Vec::new();
        stem_into(w.as_bytes(), &mut out);
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn porter_examples() {
        for (w, s) in [
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("relational", "relat"),
            ("generalizations", "gener"),
            ("hopping", "hop"),
            ("happy", "happi"),
            ("skies", "sky"),
            ("controlling", "control"),
            ("archaeology", "archaeolog"),
        ] {
            assert_eq!(stem(w), s, "{w}");
        }
    }
}
