//! Tokenizers: the interface the counting core uses. This file is a compiling stub; the real
//! implementations (13a, intl, char, zh, cjk-char, none, with Python-exact lowercasing) replace it.

#[cfg(feature = "python")]
pub mod py;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tokenizer {
    None,
    T13a,
    Intl,
    Char,
    Zh,
    CjkChar,
}

/// This line needs the Python tokenizer (characters the Rust tables cannot do exactly).
#[derive(Debug, PartialEq, Eq)]
pub struct Fallback;

impl Tokenizer {
    pub fn from_name(name: &str) -> Option<Tokenizer> {
        match name {
            "none" => Some(Tokenizer::None),
            "13a" => Some(Tokenizer::T13a),
            "intl" => Some(Tokenizer::Intl),
            "char" => Some(Tokenizer::Char),
            "zh" => Some(Tokenizer::Zh),
            "cjk-char" => Some(Tokenizer::CjkChar),
            _ => None,
        }
    }

    /// Tokens of `line` exactly as bleuscope's Python tokenizer gives them: Python `line.lower()` if
    /// `lowercase`, then `tok(line.rstrip()).split()`. Tokens are written into `buf`; `spans` receives
    /// (start, end) byte ranges into `buf`, one per token, in order. Both are cleared first.
    pub fn tokenize(
        &self,
        line: &str,
        lowercase: bool,
        buf: &mut String,
        spans: &mut Vec<(u32, u32)>,
    ) -> Result<(), Fallback> {
        buf.clear();
        spans.clear();
        // Stub: only `none` without lowercasing on ASCII lines; everything else asks for Python.
        if *self != Tokenizer::None || lowercase || !line.is_ascii() {
            return Err(Fallback);
        }
        buf.push_str(line);
        let bytes = buf.as_bytes();
        let mut i = 0usize;
        while i < bytes.len() {
            // Python's str.split() on ASCII splits on \t \n \v \f \r, space and \x1c-\x1f.
            while i < bytes.len() && is_ascii_py_space(bytes[i]) {
                i += 1;
            }
            let start = i;
            while i < bytes.len() && !is_ascii_py_space(bytes[i]) {
                i += 1;
            }
            if i > start {
                spans.push((start as u32, i as u32));
            }
        }
        Ok(())
    }
}

fn is_ascii_py_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' | 0x1c..=0x1f)
}
