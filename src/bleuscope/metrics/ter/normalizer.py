"""TER's text normalization: Tercom's rules as sacreBLEU 2.6.0 applies them (signature ``tok:tercom``).

Every option is off by default except lowercasing: the text is lowercased unless case-sensitive, then
optionally normalized (XML entities, punctuation split off, possessives, periods/commas next to non-digits;
with ``asian_support`` also CJK characters and CJK punctuation split), optionally stripped of punctuation,
and finally whitespace-collapsed. The regular expressions are Tercom's (``Normalizer.java``) as sacreBLEU
transcribes them, including their quirks (the kana rules anchor with ``^`` inside groups and rarely fire).
"""

from __future__ import annotations

import re

_CJK_PUNCT = "[\u3001\u3002\u3008-\u3011\u3014-\u301f\uff61-\uff65\u30fb]"
_FULL_WIDTH_PUNCT = "[\uff0e\uff0c\uff1f\uff1a\uff1b\uff01\uff02\uff08\uff09]"

#: (pattern, replacement) in the order they are applied
_GENERAL = [
    (re.compile(r"\n-"), ""),  # end-of-line hyphenation
    (re.compile(r"\n"), " "),
    (re.compile(r"&quot;"), '"'),
    (re.compile(r"&amp;"), "&"),
    (re.compile(r"&lt;"), "<"),
    (re.compile(r"&gt;"), ">"),
]
_WESTERN = [
    (re.compile(r"([{-~[-` -&(-+:-@/])"), r" \1 "),  # ASCII punctuation and symbols
    (re.compile(r"'s "), r" 's "),
    (re.compile(r"'s$"), r" 's"),
    (re.compile(r"([^0-9])([\.,])"), r"\1 \2 "),  # period/comma not after a digit
    (re.compile(r"([\.,])([^0-9])"), r" \1 \2"),  # period/comma not before a digit
    (re.compile(r"([0-9])(-)"), r"\1 \2 "),  # dash after a digit
]
_ASIAN = [
    (re.compile("([\u4e00-\u9fff\u3400-\u4dbf])"), r" \1 "),  # CJK ideographs (+ extension A)
    (re.compile("([\u31c0-\u31ef\u2e80-\u2eff])"), r" \1 "),  # strokes, radicals
    (re.compile("([\u3300-\u33ff\uf900-\ufaff\ufe30-\ufe4f])"), r" \1 "),  # compatibility blocks
    (re.compile("([\u3200-\u3f22])"), r" \1 "),
    (re.compile("(^|^[\u3040-\u309f])([\u3040-\u309f]+)(?=$|^[\u3040-\u309f])"), r"\1 \2 "),  # hiragana
    (re.compile("(^|^[\u30a0-\u30ff])([\u30a0-\u30ff]+)(?=$|^[\u30a0-\u30ff])"), r"\1 \2 "),  # katakana
    (re.compile("(^|^[\u31f0-\u31ff])([\u31f0-\u31ff]+)(?=$|^[\u31f0-\u31ff])"), r"\1 \2 "),
    (re.compile(f"({_CJK_PUNCT})"), r" \1 "),
    (re.compile(f"({_FULL_WIDTH_PUNCT})"), r" \1 "),
]
_PUNCT = re.compile(r"[\.,\?:;!\"\(\)]")
_ASIAN_PUNCT = [re.compile(_CJK_PUNCT), re.compile(_FULL_WIDTH_PUNCT)]


def _apply(rules, text: str) -> str:
    for pattern, replacement in rules:
        text = pattern.sub(replacement, text)
    return text


class TercomNormalizer:
    """Callable ``text -> normalized text`` (words separated by single spaces)."""

    def __init__(self, *, normalized: bool, no_punct: bool, asian_support: bool, case_sensitive: bool) -> None:
        self.normalized = normalized
        self.no_punct = no_punct
        self.asian_support = asian_support
        self.case_sensitive = case_sensitive

    @property
    def is_plain(self) -> bool:
        """Only lowercasing (or nothing) and whitespace collapsing: the default TER."""
        return not (self.normalized or self.no_punct)

    def __call__(self, text: str) -> str:
        # no strip before the rules: trailing whitespace decides what "'s$" and the period rules see
        if not text:
            return ""
        if not self.case_sensitive:
            text = text.lower()
        if self.normalized:
            text = f" {_apply(_GENERAL, text)} "
            text = _apply(_WESTERN, text)
            if self.asian_support:
                text = _apply(_ASIAN, text)
        if self.no_punct:
            text = _PUNCT.sub("", text)
            if self.asian_support:
                for pattern in _ASIAN_PUNCT:
                    text = pattern.sub("", text)
        return " ".join(text.split())

    def segment(self, text: str) -> str:
        """What TER scores: sacreBLEU's TER strips trailing whitespace from a segment, then tokenizes it (its
        ``TercomTokenizer``, this object's ``__call__``, does not strip)."""
        return self(text.rstrip())

    def reference_segment(self, text: str) -> str:
        """What TER scores of a reference: sacreBLEU 2.6.0 prepares references twice (once when it caches them,
        again when it splits them into words), and the second pass is not always a no-op with Tercom's
        normalization (``"Jim's\u00a0„"`` -> ``"jim's „"`` -> ``"jim 's „"``)."""
        return self.segment(self.segment(text))

    def words(self, text: str) -> list[str]:
        """The words TER aligns of a hypothesis (:meth:`segment`, split)."""
        return self.segment(text).split()

    def reference_words(self, text: str) -> list[str]:
        """The words TER aligns of a reference (:meth:`reference_segment`, split)."""
        return self.reference_segment(text).split()
