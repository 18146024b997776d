//! The mteval rules: `13a` (also the core of `zh` and `cjk-char`) and `intl`.
//!
//! Both apply regex substitutions whose matches are one character or a pair of neighbours, and only
//! insert spaces. A match never spans a whitespace character in a way that changes tokens on the other
//! side, so a line's tokens are the tokens of each whitespace-separated word, tokenized with a space
//! on each side where the line has a neighbour there (at the ends of an unpadded line, none). A word
//! holding no character any rule acts on is its own token and is never copied. In 13a, a word without
//! two '.'/',' side by side is split by each character's neighbours alone ([`split_13a_word`]); the
//! other words go through an exact simulation of the substitutions (left-to-right, non-overlapping, as
//! `re.sub`).

use super::out::Out;
use super::tables::{INTL_MASK, INTL_N, INTL_P, INTL_S, WS};
use super::unicode::{decode, non_ascii_ws_len, skip_py_space};
use super::unidata::{active, UnicodeTables};

/// Byte classes of the 13a scanner.
const K_WS: u8 = 1; // ASCII whitespace
const K_LEAD: u8 = 2; // non-ASCII lead byte that may start a whitespace character
const K_RULE1: u8 = 4; // the rule-1 class (minus space): split off wherever it stands
const K_DOTCOMMA: u8 = 64; // '.' and ',': split off depending on their neighbours
const K_DASH: u8 = 16;
const K_PRE: u8 = 32; // '<', '&', '\n': the line-level steps (`<skipped>`, "-\n", entities) may apply

/// Rule 1 of mteval-v13a: the class `[{-~[-` -&(-+:-@/]` (all ASCII punctuation but `' - . ,`, plus space).
const fn in_rule1_class(b: u8) -> bool {
    matches!(b, b'{'..=b'~' | b'['..=b'`' | b' '..=b'&' | b'('..=b'+' | b':'..=b'@' | b'/')
}

const fn build_k13a() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let b = i as u8;
        let mut k = 0;
        if super::unicode::is_ascii_py_space(b) {
            k |= K_WS;
        } else if in_rule1_class(b) {
            k |= K_RULE1;
        } else if b == b'.' || b == b',' {
            k |= K_DOTCOMMA;
        }
        if super::unicode::maybe_ws_lead(b) {
            k |= K_LEAD;
        }
        if b == b'-' {
            k |= K_DASH;
        }
        if b == b'<' || b == b'&' || b == b'\n' {
            k |= K_PRE;
        }
        t[i] = k;
        i += 1;
    }
    t
}

static K13A: [u8; 256] = build_k13a();

/// Whether byte `x` may need the 13a scanner's table (`K13A[x] != 0`): every ASCII byte but letters and
/// digits, and the lead bytes that may start a whitespace character (0xC2, 0xE0-0xE3): a superset, so a
/// byte outside it is certainly passed over, and the table decides the others.
#[cfg(any(test, not(target_arch = "x86_64")))]
const fn maybe_13a_special(x: u8) -> bool {
    (x < 0x80 && !x.is_ascii_alphanumeric()) || x == 0xC2 || x & 0xFC == 0xE0
}

/// Bit j set: byte j of `chunk` may need the table ([`maybe_13a_special`]), sixteen bytes at a time.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn special_mask(chunk: &[u8; 16]) -> u32 {
    use std::arch::x86_64::*;
    // SAFETY: SSE2 is part of every x86_64 target; the load is unaligned and reads the 16 bytes given
    unsafe {
        let v = _mm_loadu_si128(chunk.as_ptr() as *const __m128i);
        let [_, _, special] = classes_sse2(v);
        _mm_movemask_epi8(special) as u32
    }
}

/// Defines `$name(v)`: the byte classes of the 13a scanner for a vector `v` of bytes with the vector
/// instructions named (SSE2 or AVX2): `(ASCII whitespace, newline, what [`maybe_13a_special`] marks: ASCII
/// below '0', ':'-'@', '['-'`', above 'z', and the lead bytes 0xC2, 0xE0-0xE3)`, each a vector of
/// 0x00/0xFF bytes. The compares are signed: bytes >= 0x80 are negative and in none of the ASCII ranges.
#[cfg(target_arch = "x86_64")]
macro_rules! byte_classes {
    ($(#[$attr:meta])* $name:ident, $vec:ident, $set1:ident, $and:ident, $or:ident, $gt:ident, $eq:ident) => {
        $(#[$attr])*
        fn $name(v: std::arch::x86_64::$vec) -> [std::arch::x86_64::$vec; 3] {
            use std::arch::x86_64::{$and, $eq, $gt, $or, $set1};
            let set = |x: u8| $set1(x as i8);
            let in_range = |lo: u8, hi: u8| $and($gt(v, set(lo - 1)), $gt(set(hi + 1), v));
            let space = $or(in_range(0x09, 0x0d), in_range(0x1c, 0x20));
            let newline = $eq(v, set(b'\n'));
            let low = $and($gt(v, set(0xFF)), $gt(set(b'0'), v));
            let punct = $or(in_range(b':', b'@'), in_range(b'[', b'`'));
            let high = $gt(v, set(b'z'));
            let lead = $or($eq(v, set(0xC2)), $eq($and(v, set(0xFC)), set(0xE0)));
            [space, newline, $or($or(low, punct), $or(high, lead))]
        }
    };
}
#[cfg(target_arch = "x86_64")]
byte_classes!(
    #[target_feature(enable = "sse2")]
    #[inline]
    classes_sse2,
    __m128i,
    _mm_set1_epi8,
    _mm_and_si128,
    _mm_or_si128,
    _mm_cmpgt_epi8,
    _mm_cmpeq_epi8
);
// only for callers compiled with AVX2
#[cfg(target_arch = "x86_64")]
byte_classes!(
    #[target_feature(enable = "avx2")]
    #[inline]
    classes_avx2,
    __m256i,
    _mm256_set1_epi8,
    _mm256_and_si256,
    _mm256_or_si256,
    _mm256_cmpgt_epi8,
    _mm256_cmpeq_epi8
);

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn special_mask(chunk: &[u8; 16]) -> u32 {
    let mut m = 0;
    for (j, &x) in chunk.iter().enumerate() {
        m |= (maybe_13a_special(x) as u32) << j;
    }
    m
}

/// How many bytes from `i` on the 13a word scanner certainly passes over (`K13A == 0`), found sixteen
/// at a time (the line's last bytes through a copy padded with spaces).
#[inline(always)]
fn plain_run(b: &[u8], i: usize) -> usize {
    let mut j = i;
    while j + 16 <= b.len() {
        let m = special_mask(b[j..j + 16].try_into().unwrap());
        if m != 0 {
            return j - i + m.trailing_zeros() as usize;
        }
        j += 16;
    }
    if j < b.len() {
        let mut tail = [b' '; 16];
        tail[..b.len() - j].copy_from_slice(&b[j..]);
        j += special_mask(&tail).trailing_zeros() as usize;
    }
    j.min(b.len()) - i
}

/// The text needs 13a's line-level steps before the word rules (only then can `<`, `&`, `\n` matter).
#[derive(Debug)]
pub(crate) struct NeedsPre;

/// A position in a simulated substitution: a byte (13a) or character (intl) of the word, or an inserted
/// space.
const SPACE: u32 = u32::MAX;

/// Scratch vectors of the simulations, reused across lines.
#[derive(Default)]
pub(crate) struct Sim {
    a: Vec<u32>,
    b: Vec<u32>,
    ia: Vec<(u32, u32, u8)>,
    ib: Vec<(u32, u32, u8)>,
}

impl Sim {
    /// Drops vectors grown beyond `keep` bytes (after an exceptionally long word).
    pub(crate) fn release_if_large(&mut self, keep: usize) {
        if self.a.capacity() * 4 > keep || self.b.capacity() * 4 > keep {
            (self.a, self.b) = (Vec::new(), Vec::new());
        }
        if self.ia.capacity() * 12 > keep || self.ib.capacity() * 12 > keep {
            (self.ia, self.ib) = (Vec::new(), Vec::new());
        }
    }
}

/// Tokens of `text` under the four mteval-v13a substitutions (without the line-level steps), appended
/// to `out`. `edge_pad`: the text is padded with a space at both ends (13a), or not (zh). With
/// `check_pre`, returns `Err(NeedsPre)` on the first `<`, `&` or newline (nothing useful in `out`).
///
/// The text is looked at 64 bytes at a time through two bit masks, its ASCII whitespace and the bytes the
/// byte rules may act on ([`Window`]): a word with none of the latter (most words) is found and becomes
/// a token with a few bit operations; every other word goes through [`word_at`], byte by byte.
pub(crate) fn words_13a(
    text: &str,
    edge_pad: bool,
    check_pre: bool,
    sim: &mut Sim,
    out: &mut Out<'_>,
) -> Result<(), NeedsPre> {
    out.set_text(text);
    // 64 spaces after the copy of the text in `out`, so that every window the scan reads is whole bytes
    // of the buffer (no padded copy at the end of a line); dropped again unless a token follows them
    out.buf.push_str(SPACES_64);
    let scan = Scan13a {
        text,
        edge_pad,
        check_pre,
    };
    #[cfg(target_arch = "x86_64")]
    let scanned = if crate::cpu::bit_instructions() {
        // SAFETY: the processor has the instructions the function is compiled for
        unsafe { scan_13a_bmi(scan, sim, out) }
    } else {
        scan_13a::<false>(scan, sim, out)
    };
    #[cfg(not(target_arch = "x86_64"))]
    let scanned = scan_13a::<false>(scan, sim, out);
    if out.buf.len() == text.len() + SPACES_64.len() {
        out.buf.truncate(text.len());
    }
    scanned
}

/// [`scan_13a`] compiled for processors with AVX2 and the BMI bit instructions: a word's bits are found and
/// cleared with one instruction each (`tzcnt`, `blsr`, shifts by a register) instead of two or three, and
/// a window's masks are made 32 bytes at a time ([`masks64_wide`]); the same steps otherwise.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,bmi1,bmi2,lzcnt,popcnt")]
fn scan_13a_bmi(scan: Scan13a<'_>, sim: &mut Sim, out: &mut Out<'_>) -> Result<(), NeedsPre> {
    scan_13a::<true>(scan, sim, out)
}

/// The arguments of [`words_13a`] that [`scan_13a`] reads.
#[derive(Clone, Copy)]
struct Scan13a<'t> {
    text: &'t str,
    edge_pad: bool,
    check_pre: bool,
}

/// [`words_13a`] on the text, whose copy in `out` is followed by [`SPACES_64`]. The text is read in
/// windows of 64 bytes, and the words are taken from a window's bit masks one after the other: a word's
/// first byte is the lowest non-whitespace bit left, its end the next whitespace bit above (in a following
/// window for a word that runs past this one), and it is a token as it stands when no special bit lies
/// between; a word with a special byte goes to [`word_at`]. The padding after the text is whitespace, so
/// a word ends in the text, and every window read starts at a byte of the text or at its end.
/// `WIDE`: the masks with AVX2 (only in [`scan_13a_bmi`]).
#[inline(always)]
fn scan_13a<const WIDE: bool>(
    scan: Scan13a<'_>,
    sim: &mut Sim,
    out: &mut Out<'_>,
) -> Result<(), NeedsPre> {
    let n = scan.text.len();
    let window = |out: &Out<'_>, base: usize| {
        let w = Window::at::<WIDE>(out.buf.as_bytes(), base);
        if scan.check_pre && w.newline {
            Err(NeedsPre)
        } else {
            Ok(w)
        }
    };
    if n == 0 {
        return Ok(());
    }
    let mut base = 0;
    let mut w = window(out, base)?;
    let mut words = !w.ws; // the non-whitespace bits of the window not scanned yet
    loop {
        if words == 0 {
            base += 64;
            if base >= n {
                return Ok(());
            }
            w = window(out, base)?;
            words = !w.ws;
            continue;
        }
        words = plain_words(out, base, &w, words);
        if words == 0 {
            continue;
        }
        let s = words.trailing_zeros();
        let start = base + s as usize;
        let after = w.ws & (!1u64 << s); // whitespace bits above the word's first byte
                                         // the word's end, and its special bits when it lies in the window (else all bits: not known)
        let (end, special) = if after != 0 {
            let e = after.trailing_zeros();
            // the word's bits, s..e (s < e <= 63)
            let word = (!0u64 << s) & !(!0u64 << e);
            (base + e as usize, w.special & word)
        } else {
            // the word runs past the window: on through the next ones to its end
            let mut special = w.special >> s != 0;
            loop {
                base += 64;
                w = window(out, base)?;
                if w.ws != 0 {
                    break;
                }
                special |= w.special != 0;
            }
            let e = w.ws.trailing_zeros();
            // bits below the word's end (e < 64)
            special |= w.special & ((1u64 << e) - 1) != 0;
            (base + e as usize, if special { !0 } else { 0 })
        };
        let end = if special == 0 {
            out.push_span(start, end);
            end
        } else if special != !0 && split_in_window(scan, (base, special), (start, end), out) {
            end
        } else {
            word_at(scan.text, start, scan.edge_pad, scan.check_pre, sim, out)?
        };
        if !(base..base + 64).contains(&end) {
            // out of the window: `word_at` may end a word that ran on into this window at a non-ASCII
            // space before it, or skip whitespace and words beyond its end
            if end >= n {
                return Ok(());
            }
            base = end;
            w = window(out, base)?;
            words = !w.ws;
        } else {
            words = !w.ws & (!0u64 << (end - base));
        }
    }
}

/// Takes the words of the window at `base` (`words`: its non-whitespace bits not scanned yet) that end in
/// it before its first special byte, in one batch: each is a token as it stands, paired from the bits
/// that start a word and those that end one, with no branch per word (most words). Returns the bits left
/// to scan: a word with a special byte and those after it, or a word that runs past the window.
#[inline(always)]
fn plain_words(out: &mut Out<'_>, base: usize, w: &Window, words: u64) -> u64 {
    // the whitespace bits right after a word, up to the first special bit (64: none)
    let cut = (w.special & words).trailing_zeros().min(63);
    let ends = w.ws & (words << 1) & (u64::MAX >> (63 - cut));
    if ends == 0 {
        return words;
    }
    // the bit before the first of `words` is whitespace (or scanned), so every word of it starts there
    let (mut starts, mut rest) = (words & !(words << 1), ends);
    let n = ends.count_ones() as usize;
    // a counted range's `map`: the spans are written without a capacity check each
    out.spans.extend((0..n).map(|_| {
        let (s, e) = (starts.trailing_zeros(), rest.trailing_zeros());
        (starts, rest) = (starts & (starts - 1), rest & (rest - 1));
        debug_assert!(s < e && base + (e as usize) <= out.text_len);
        ((base as u32) + s, (base as u32) + e)
    }));
    // on from the last end (a whitespace bit)
    words & (!0u64 << (63 - ends.leading_zeros()))
}

const SPACES_64: &str = "                                                                ";

/// The 64 bytes of a text from some position on as bit masks (bit j: byte `position + j`): its ASCII
/// whitespace, the other bytes the 13a scanner must look at (everything the byte table `K13A` marks, and
/// the lead bytes that may start a whitespace character), and whether a newline is among them.
struct Window {
    ws: u64,
    special: u64,
    newline: bool,
}

impl Window {
    #[inline(always)]
    /// The window of `b[base..base + 64]`: the scanner reads one only where a byte of the text is, which the
    /// 64 spaces after the text in `b` follow. `WIDE`: with [`masks64_wide`], which the caller must be
    /// compiled for.
    fn at<const WIDE: bool>(b: &[u8], base: usize) -> Window {
        let chunk = b[base..base + 64].try_into().unwrap();
        #[cfg(target_arch = "x86_64")]
        let (ws, special, newline) = if WIDE {
            // SAFETY: only `scan_13a_bmi` asks for it, which runs where the processor has AVX2
            unsafe { masks64_wide(chunk) }
        } else {
            masks64(chunk)
        };
        #[cfg(not(target_arch = "x86_64"))]
        let (ws, special, newline) = masks64(chunk);
        Window {
            ws,
            special: special & !ws,
            newline,
        }
    }
}

/// [`masks64`] 32 bytes at a time, with AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
#[inline]
unsafe fn masks64_wide(chunk: &[u8; 64]) -> (u64, u64, bool) {
    use std::arch::x86_64::*;
    let (mut ws, mut special, mut newline) = (0u64, 0u64, 0u32);
    for q in 0..2 {
        // SAFETY: the load is unaligned and reads 32 bytes of chunk
        let v = unsafe { _mm256_loadu_si256(chunk.as_ptr().add(32 * q) as *const __m256i) };
        let [space, nl, m] = classes_avx2(v);
        ws |= (_mm256_movemask_epi8(space) as u32 as u64) << (32 * q);
        newline |= _mm256_movemask_epi8(nl) as u32;
        special |= (_mm256_movemask_epi8(m) as u32 as u64) << (32 * q);
    }
    (ws, special, newline != 0)
}

/// (ASCII whitespace, [`maybe_13a_special`], any newline) of 64 bytes, sixteen at a time.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn masks64(chunk: &[u8; 64]) -> (u64, u64, bool) {
    use std::arch::x86_64::*;
    let mut ws = 0u64;
    let mut special = 0u64;
    let mut newline = 0u32;
    for q in 0..4 {
        // SAFETY: SSE2 is part of every x86_64 target; the load is unaligned and reads 16 bytes of chunk
        unsafe {
            let v = _mm_loadu_si128(chunk.as_ptr().add(16 * q) as *const __m128i);
            let [space, nl, m] = classes_sse2(v);
            ws |= (_mm_movemask_epi8(space) as u32 as u64) << (16 * q);
            newline |= _mm_movemask_epi8(nl) as u32;
            special |= (_mm_movemask_epi8(m) as u32 as u64) << (16 * q);
        }
    }
    (ws, special, newline != 0)
}

#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn masks64(chunk: &[u8; 64]) -> (u64, u64, bool) {
    let mut ws = 0u64;
    let mut special = 0u64;
    for (j, &x) in chunk.iter().enumerate() {
        ws |= (super::unicode::is_ascii_py_space(x) as u64) << j;
        special |= (maybe_13a_special(x) as u64) << j;
    }
    (ws, special, chunk.contains(&b'\n'))
}

/// One step of the 13a scanner, byte by byte, from `i`: skips whitespace (also non-ASCII), then
/// tokenizes the word there into `out` (which holds `text`); returns the position after the word.
#[inline(always)]
fn word_at(
    text: &str,
    mut i: usize,
    edge_pad: bool,
    check_pre: bool,
    sim: &mut Sim,
    out: &mut Out<'_>,
) -> Result<usize, NeedsPre> {
    let b = text.as_bytes();
    let n = b.len();
    // skip whitespace
    while i < n {
        let k = K13A[b[i] as usize];
        if k & K_WS != 0 {
            if check_pre && b[i] == b'\n' {
                return Err(NeedsPre);
            }
            i += 1;
        } else if k & K_LEAD != 0 {
            match non_ascii_ws_len(b, i) {
                Some(len) => i += len,
                None => break,
            }
        } else {
            break;
        }
    }
    if i >= n {
        return Ok(n);
    }
    let start = i;
    let mut acted = false; // a byte some rule may act on
    let mut adjacent_dotcommas = false; // two '.'/',' side by side
    let mut after_dotcomma = false;
    while i < n {
        let k = K13A[b[i] as usize];
        if k == 0 {
            i += 1 + plain_run(b, i + 1);
            after_dotcomma = false;
            continue;
        }
        if k & K_WS != 0 {
            break;
        }
        if k & K_LEAD != 0 {
            if non_ascii_ws_len(b, i).is_some() {
                break;
            }
            i += 1;
            after_dotcomma = false;
            continue;
        }
        if check_pre && k & K_PRE != 0 {
            return Err(NeedsPre);
        }
        let dotcomma = k & K_DOTCOMMA != 0;
        acted |= k & ACTED != 0;
        adjacent_dotcommas |= dotcomma && after_dotcomma;
        after_dotcomma = dotcomma;
        i += 1;
    }
    let word = Word {
        text,
        start,
        end: i,
        left: edge_pad || start > 0,
        right: edge_pad || i < n,
    };
    if !acted {
        out.push_span(start, i); // `out` holds `text` (set above); a word ends at whitespace or the end
    } else if !adjacent_dotcommas {
        let positions = (start..i).filter(|&j| K13A[b[j] as usize] & ACTED != 0);
        split_13a_word(word, positions, out);
    } else {
        simulate_13a(word, sim, out);
    }
    Ok(i)
}

/// The word `text[start..end]` within one window, whose special bytes are the bits of `special` (bit j:
/// byte `base + j`), split as [`word_at`] would split it, from those bits alone (no pass over its other
/// bytes), when it can: false, having written nothing, for a word [`word_at`] must take (a byte that may
/// start a non-ASCII space, one of the line-level steps, two '.'/',' side by side). Inlined into the
/// scanner (with its bit instructions, where it has them): most words with punctuation come here.
#[inline(always)]
fn split_in_window(
    scan: Scan13a<'_>,
    (base, special): (usize, u64),
    (start, end): (usize, usize),
    out: &mut Out<'_>,
) -> bool {
    let b = scan.text.as_bytes();
    let (mut dotcommas, mut acted) = (0u64, 0u64);
    for i in bit_positions(special, base) {
        let k = K13A[b[i] as usize];
        if k & K_LEAD != 0 || (scan.check_pre && k & K_PRE != 0) {
            return false;
        }
        let bit = 1u64 << (i - base);
        dotcommas |= bit * (k & K_DOTCOMMA != 0) as u64;
        acted |= bit * (k & ACTED != 0) as u64;
    }
    if dotcommas & (dotcommas >> 1) != 0 {
        return false;
    }
    let word = Word {
        text: scan.text,
        start,
        end,
        left: scan.edge_pad || start > 0,
        right: scan.edge_pad || end < b.len(),
    };
    split_13a_word(word, bit_positions(acted, base), out);
    true
}

/// The positions `base + j` of the bits j of `bits`, in ascending order.
#[inline(always)]
fn bit_positions(mut bits: u64, base: usize) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if bits == 0 {
            return None;
        }
        let j = bits.trailing_zeros() as usize;
        bits &= bits - 1;
        Some(base + j)
    })
}

/// The bytes some rule acts on (the others only join their neighbours' runs).
const ACTED: u8 = K_RULE1 | K_DOTCOMMA | K_DASH;

/// Tokens of a 13a word (see [`word_at`]) in which no two '.'/',' are neighbours. Then no two matches
/// of one rule compete for a character, and each rule acts on one character and its neighbours in the
/// text before it (rule 1 inserts only spaces, rules 2 and 3 only around a '.'/',', which is never a
/// digit or '-'), so each character is a token of its own or joins its neighbours' run:
/// * rule 1: a character of its class is always alone;
/// * rules 2 and 3: a '.'/',' is alone when its left neighbour (rule 2) or its right one (rule 3)
///   exists and is not a digit (a rule-1 character, with a space beside it, or the line's padding: not
///   a digit either);
/// * rule 4: a '-' right after a digit is alone.
///
/// `acted`: the positions of the word's bytes some rule acts on ([`ACTED`]), ascending (every character
/// a rule looks at is ASCII, and the bytes of other characters are never ASCII).
#[inline(always)]
fn split_13a_word(word: Word<'_>, acted: impl Iterator<Item = usize>, out: &mut Out<'_>) {
    let (start, end) = (word.start, word.end);
    let b = word.text.as_bytes();
    let not_digit = |j: usize, exists: bool| {
        if (start..end).contains(&j) {
            !b[j].is_ascii_digit()
        } else {
            exists
        }
    };
    let mut run = start;
    for i in acted {
        let k = K13A[b[i] as usize];
        let alone = if k & K_RULE1 != 0 {
            true
        } else if k & K_DOTCOMMA != 0 {
            not_digit(i.wrapping_sub(1), word.left) || not_digit(i + 1, word.right)
        } else {
            i > start && b[i - 1].is_ascii_digit()
        };
        if alone {
            if run < i {
                out.push_span(run, i);
            }
            out.push_span(i, i + 1);
            run = i + 1;
        }
    }
    if run < end {
        out.push_span(run, end);
    }
}

/// The two replacement templates of the pair rules: `"\1 \2 "` and `" \1 \2"`.
#[derive(Clone, Copy)]
enum Spaced {
    After,
    Before,
}

/// One `sub` of a pattern matching two neighbouring units, as Python's `re` and the `regex` module run
/// it: left to right, a matching pair is replaced and the scan goes on after it (no overlaps).
fn sub_pairs<T: Copy>(
    x: &[T],
    y: &mut Vec<T>,
    space: T,
    spaced: Spaced,
    is_match: impl Fn(T, T) -> bool,
) {
    y.clear();
    let mut i = 0;
    while i < x.len() {
        if i + 1 < x.len() && is_match(x[i], x[i + 1]) {
            match spaced {
                Spaced::After => y.extend_from_slice(&[x[i], space, x[i + 1], space]),
                Spaced::Before => y.extend_from_slice(&[space, x[i], space, x[i + 1]]),
            }
            i += 2;
        } else {
            y.push(x[i]);
            i += 1;
        }
    }
}

#[inline(always)]
fn byte_at(b: &[u8], u: u32) -> u8 {
    if u == SPACE {
        b' '
    } else {
        b[u as usize]
    }
}

/// The four 13a substitutions on a word (with a space on each padded side), exactly as Python's `re.sub`
/// runs them, then the space-separated tokens.
fn simulate_13a(word: Word<'_>, sim: &mut Sim, out: &mut Out<'_>) {
    let (text, start, end) = (word.text, word.start, word.end);
    let b = text.as_bytes();
    let (x, y) = (&mut sim.a, &mut sim.b);
    // rule 1: every byte of the class becomes " c " (context-free); built straight from the word
    x.clear();
    if word.left {
        x.extend_from_slice(&[SPACE, SPACE, SPACE]);
    }
    for (idx, &byte) in b.iter().enumerate().take(end).skip(start) {
        if in_rule1_class(byte) {
            x.extend_from_slice(&[SPACE, idx as u32, SPACE]);
        } else {
            x.push(idx as u32);
        }
    }
    if word.right {
        x.extend_from_slice(&[SPACE, SPACE, SPACE]);
    }
    let digit = |u: u32| byte_at(b, u).is_ascii_digit();
    let dot_comma = |u: u32| matches!(byte_at(b, u), b'.' | b',');
    // rule 2: ([^0-9])([\.,]) -> "\1 \2 "
    sub_pairs(x, y, SPACE, Spaced::After, |u, v| !digit(u) && dot_comma(v));
    // rule 3: ([\.,])([^0-9]) -> " \1 \2"
    sub_pairs(y, x, SPACE, Spaced::Before, |u, v| {
        dot_comma(u) && !digit(v)
    });
    // rule 4: ([0-9])(-) -> "\1 \2 "
    sub_pairs(x, y, SPACE, Spaced::After, |u, v| {
        digit(u) && byte_at(b, v) == b'-'
    });
    emit_runs(text, y.iter().map(|&u| (u, u.wrapping_add(1))), out);
}

/// Emits each maximal run of non-space units (consecutive in `text`) as one token.
fn emit_runs(text: &str, units: impl Iterator<Item = (u32, u32)>, out: &mut Out<'_>) {
    let mut run: Option<(u32, u32)> = None;
    for (s, e) in units {
        if s == SPACE {
            if let Some((rs, re)) = run.take() {
                out.push(&text[rs as usize..re as usize]);
            }
        } else {
            run = Some(match run {
                Some((rs, _)) => (rs, e),
                None => (s, e),
            });
        }
    }
    if let Some((rs, re)) = run {
        out.push(&text[rs as usize..re as usize]);
    }
}

/// 13a's line-level steps, in sacreBLEU's order: `<skipped>` removed, "-\n" joined, "\n" to space, then
/// the four entities (each `str.replace` is left-to-right and non-overlapping, as Python's).
pub(crate) fn preprocess_13a(text: &str) -> String {
    let mut s = text
        .replace("<skipped>", "")
        .replace("-\n", "")
        .replace('\n', " ");
    if s.contains('&') {
        s = s
            .replace("&quot;", "\"")
            .replace("&amp;", "&")
            .replace("&lt;", "<")
            .replace("&gt;", ">");
    }
    s
}

/// Tokens of a (lowercased, right-stripped) line under sacreBLEU's `13a`.
pub(crate) fn tokenize_13a(text: &str, pre: &mut String, sim: &mut Sim, out: &mut Out<'_>) {
    if words_13a(text, true, true, sim, out).is_err() {
        if text.contains("<skipped>") || text.contains('\n') || text.contains('&') {
            *pre = preprocess_13a(text);
            let _ = words_13a(pre, true, false, sim, out);
        } else {
            let _ = words_13a(text, true, false, sim, out);
        }
    }
}

#[inline(always)]
fn intl_class(p: u8) -> u8 {
    p & INTL_MASK
}

/// Tokens of a (lowercased, right-stripped) line under mteval-v14's international tokenization.
pub(crate) fn tokenize_intl(text: &str, sim: &mut Sim, out: &mut Out<'_>) {
    let t = active();
    out.set_text(text);
    let b = text.as_bytes();
    let n = b.len();
    let mut i = 0;
    loop {
        i = skip_py_space(b, i);
        if i >= n {
            return;
        }
        let start = i;
        let mut special = false; // a \p{P} or \p{S}
        let mut adjacent_p = false; // two \p{P} side by side
        let mut prev = O;
        while i < n {
            let (p, len) = if b[i] < 0x80 {
                (t.ascii_props(b[i]), 1)
            } else {
                let (c, len) = decode(b, i);
                (t.props(c), len)
            };
            if p & WS != 0 {
                break;
            }
            let class = intl_class(p);
            special |= class >= INTL_P;
            adjacent_p |= class == INTL_P && prev == INTL_P;
            prev = class;
            i += len;
        }
        let word = Word {
            text,
            start,
            end: i,
            left: start > 0,
            right: i < n,
        };
        if !special {
            out.push(&text[start..i]);
        } else if !adjacent_p {
            split_separate_puncts(t, word, out);
        } else {
            simulate_intl(t, word, sim, out);
        }
    }
}

/// One whitespace-free word of a line, `text[start..end]`, as the 13a and `intl` rules see it: `left` /
/// `right` say that the line goes on before / after it (or is padded: there a rule sees a space).
#[derive(Clone, Copy)]
struct Word<'a> {
    text: &'a str,
    start: usize,
    end: usize,
    left: bool,
    right: bool,
}

/// Tokens of the word `text[start..end]` when no two \p{P} are neighbours. Then every match of the
/// three rules involves one \p{P} or \p{S} and its own neighbours, and no match takes a character
/// another one needs: a \p{S} is always split off (rule 3); a \p{P} is split off when the character
/// before it exists and is not \p{N} (rule 1) or the one after it does (rule 2), else it stays
/// attached. A missing neighbour is the line's edge; a padded side has a space there.
fn split_separate_puncts(t: &UnicodeTables, word: Word<'_>, out: &mut Out<'_>) {
    let Word {
        text,
        start,
        end,
        left,
        right,
    } = word;
    let b = text.as_bytes();
    let mut run = start;
    let mut before = if left { Some(O) } else { None };
    let (c, mut len) = decode(b, start);
    let mut class = intl_class_of(t, c);
    let mut i = start;
    while i < end {
        let next = i + len;
        let (after, next_len) = if next < end {
            let (c, len) = decode(b, next);
            (Some(intl_class_of(t, c)), len)
        } else {
            (right.then_some(O), 0)
        };
        let not_number = |neighbour: Option<u8>| neighbour.is_some_and(|k| k != INTL_N);
        if class == INTL_S || (class == INTL_P && (not_number(before) || not_number(after))) {
            if run < i {
                out.push(&text[run..i]);
            }
            out.push(&text[i..next]);
            run = next;
        }
        before = Some(class);
        if let Some(k) = after {
            class = k;
        }
        len = next_len;
        i = next;
    }
    if run < end {
        out.push(&text[run..end]);
    }
}

#[inline(always)]
fn intl_class_of(t: &UnicodeTables, c: u32) -> u8 {
    intl_class(if c < 0x80 {
        t.ascii_props(c as u8)
    } else {
        t.props(c)
    })
}

const O: u8 = 0; // a class that is neither N, P nor S (whitespace, letters, inserted spaces)

/// The three `intl` substitutions on the word `text[start..end]`, exactly as the `regex` module's `sub`.
fn simulate_intl(t: &UnicodeTables, word: Word<'_>, sim: &mut Sim, out: &mut Out<'_>) {
    let Word {
        text,
        start,
        end,
        left,
        right,
    } = word;
    let b = text.as_bytes();
    let (x, y) = (&mut sim.ia, &mut sim.ib);
    const SP: (u32, u32, u8) = (SPACE, SPACE, O);
    x.clear();
    if left {
        x.push(SP);
    }
    let mut i = start;
    while i < end {
        let (c, len) = decode(b, i);
        x.push((i as u32, (i + len) as u32, intl_class_of(t, c)));
        i += len;
    }
    if right {
        x.push(SP);
    }
    // (\P{N})(\p{P}) -> "\1 \2 "
    sub_pairs(x, y, SP, Spaced::After, |u, v| {
        u.2 != INTL_N && v.2 == INTL_P
    });
    // (\p{P})(\P{N}) -> " \1 \2"
    sub_pairs(y, x, SP, Spaced::Before, |u, v| {
        u.2 == INTL_P && v.2 != INTL_N
    });
    // (\p{S}) -> " \1 "
    y.clear();
    for &u in x.iter() {
        if u.2 == INTL_S {
            y.extend_from_slice(&[SP, u, SP]);
        } else {
            y.push(u);
        }
    }
    emit_runs(text, y.iter().map(|&(s, e, _)| (s, e)), out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_prefilter_flags_every_byte_the_table_acts_on() {
        for x in 0..=255u8 {
            assert!(K13A[x as usize] == 0 || maybe_13a_special(x), "byte {x:#x}");
            // the sixteen-byte mask says the same as the byte rule, at every position
            for j in 0..16 {
                let mut chunk = [b'a'; 16];
                chunk[j] = x;
                assert_eq!(
                    special_mask(&chunk),
                    (maybe_13a_special(x) as u32) << j,
                    "{x:#x} at {j}"
                );
            }
        }
    }

    #[test]
    fn plain_runs_end_at_the_first_flagged_byte() {
        let text =
            "abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ,klmnopqrstuvwxyzüéabc-defghijk lmnop";
        let b = text.as_bytes();
        for i in 0..=b.len() {
            let expected = b[i..]
                .iter()
                .position(|&x| maybe_13a_special(x))
                .unwrap_or(b.len() - i);
            assert_eq!(plain_run(b, i), expected, "from {i}");
        }
    }

    /// The AVX2 masks are those of the SSE2 code: every byte value at every position, and pseudo-random
    /// windows.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn wide_masks_equal_the_narrow_ones() {
        if !crate::cpu::bit_instructions() {
            return;
        }
        let mut chunks = Vec::new();
        for x in 0..=255u8 {
            for j in 0..64 {
                let mut chunk = [b'a'; 64];
                chunk[j] = x;
                chunks.push(chunk);
            }
        }
        let mut next = crate::testgen::xorshift(7);
        for _ in 0..2000 {
            chunks.push(std::array::from_fn(|_| next(256) as u8));
        }
        for chunk in &chunks {
            // SAFETY: the processor has AVX2 (checked above)
            assert_eq!(unsafe { masks64_wide(chunk) }, masks64(chunk), "{chunk:?}");
        }
    }

    /// Both compilations of the scanner give the same tokens (and the same refusal of the line-level
    /// steps) on generated lines of words, punctuation, digits, non-ASCII letters and spaces, lines
    /// longer than a window and words across windows included.
    #[cfg(target_arch = "x86_64")]
    #[test]
    fn both_scanners_give_the_same_tokens() {
        if !crate::cpu::bit_instructions() {
            return;
        }
        let pieces = [
            "a",
            "word",
            "longerwordthanmost",
            "3",
            "1,000",
            "3.5",
            "-",
            ".",
            ",",
            "...",
            "\"",
            "(",
            ")",
            "'s",
            "é",
            "中文",
            "\u{a0}",
            "\u{2009}",
            " ",
            "  ",
            "\t",
            "<",
            "&amp;",
            "\n",
            "e-mail",
            "U.S.",
            "x",
        ];
        let mut next = crate::testgen::xorshift(11);
        let (mut buf_a, mut spans_a, mut buf_b, mut spans_b) =
            (String::new(), Vec::new(), String::new(), Vec::new());
        let mut sim = Sim::default();
        for case in 0..20_000 {
            let n = if case % 5 == 0 { next(120) } else { next(30) };
            let text: String = (0..n).map(|_| pieces[next(pieces.len())]).collect();
            for (edge_pad, check_pre) in [(true, true), (true, false), (false, false)] {
                let scan = Scan13a {
                    text: &text,
                    edge_pad,
                    check_pre,
                };
                let mut run = |buf: &mut String, spans: &mut Vec<(u32, u32)>, wide: bool| {
                    let mut out = Out {
                        buf,
                        spans,
                        text_start: 0,
                        text_len: 0,
                    };
                    out.set_text(&text);
                    out.buf.push_str(SPACES_64);
                    let done = if wide {
                        // SAFETY: the processor has the instructions (checked above)
                        unsafe { scan_13a_bmi(scan, &mut sim, &mut out) }
                    } else {
                        scan_13a::<false>(scan, &mut sim, &mut out)
                    };
                    done.is_ok()
                };
                let a = run(&mut buf_a, &mut spans_a, false);
                let b = run(&mut buf_b, &mut spans_b, true);
                assert_eq!(a, b, "{text:?}");
                if a {
                    assert_eq!((&buf_a, &spans_a), (&buf_b, &spans_b), "{text:?}");
                }
            }
        }
    }
}
