//! Where the tokenizers write their tokens: a module of its own, so that the tokenizers ([`super::mteval`],
//! [`super::cjk`]) and the dispatch in `tok/mod.rs` that calls them depend on it, not on each other.

/// Where tokens go. Every token is a substring of the text being tokenized (the lowercased, maybe
/// 13a-unescaped or CJK-spaced line), so that text is copied into `buf` once ([`Out::set_text`]) and a
/// token costs only its span; a token from elsewhere (none today) would be appended to `buf`.
pub(crate) struct Out<'a> {
    pub(super) buf: &'a mut String,
    pub(super) spans: &'a mut Vec<(u32, u32)>,
    pub(super) text_start: usize, // address of the text copied to the start of `buf`
    pub(super) text_len: usize,
}

impl Out<'_> {
    /// Starts over with the tokens of `text` (a line can be tokenized again after its 13a steps).
    pub(super) fn set_text(&mut self, text: &str) {
        self.buf.clear();
        self.spans.clear();
        self.buf.push_str(text);
        self.text_start = text.as_ptr() as usize;
        self.text_len = text.len();
    }

    /// The token `text[start..end]` of the text given to [`Out::set_text`], by its byte positions (which
    /// the caller found on character boundaries): no slicing, no address arithmetic.
    #[inline(always)]
    pub(super) fn push_span(&mut self, start: usize, end: usize) {
        debug_assert!(start < end && end <= self.text_len);
        self.spans.push((start as u32, end as u32));
    }

    #[inline(always)]
    pub(super) fn push(&mut self, tok: &str) {
        let offset = (tok.as_ptr() as usize).wrapping_sub(self.text_start);
        if offset <= self.text_len && tok.len() <= self.text_len - offset {
            self.spans
                .push((offset as u32, (offset + tok.len()) as u32));
        } else {
            let start = self.buf.len() as u32;
            self.buf.push_str(tok);
            self.spans.push((start, self.buf.len() as u32));
        }
    }
}
