"""``cjk-char`` (not a sacreBLEU tokenizer): CJK characters one by one, everything else as ``13a``.

This is the tokenizer asked for in sacreBLEU issue #171. ``char`` splits *every* character (Latin words
too) and ``zh`` only knows Chinese ranges (with sacreBLEU's range defect #298), while Japanese mixes kanji,
kana and Latin, and Korean mixes Hangul with Latin and numbers. ``cjk-char``:

* makes every Han ideograph (all CJK blocks, Extension B and beyond included), hiragana, katakana (full and
  half width), Hangul syllable and jamo, Bopomofo, CJK punctuation and symbols (U+3000–U+303F, enclosed
  and compatibility forms, full-width punctuation) its own token;
* keeps combining marks attached to the character before them (variation selectors after kanji, the
  combining (semi-)voiced sound marks, half-width ﾞ/ﾟ, Hangul vowel and final jamo), so no token is a bare
  mark;
* keeps Latin words, numbers and full-width Latin letters and digits whole, and tokenizes them with the
  ``13a`` rules (punctuation split off, ``&amp;``-style entities unescaped, ``<skipped>`` removed).

Its scores are **not comparable with sacreBLEU's** (the signature says ``tok:cjk-char``). Like 13a it is
word-local, so the engine tokenizes each distinct word once.
"""

from __future__ import annotations

from .language import regex_char_class
from .mteval import Tokenizer13a

#: code point ranges whose characters become single tokens
CJK_CHAR_RANGES = (
    (0x1100, 0x115F),  # Hangul Jamo, leading consonants
    (0x2E80, 0x2FDF),  # CJK radicals supplement, Kangxi radicals
    (0x2FF0, 0x2FFF),  # ideographic description characters
    (0x3000, 0x303F),  # CJK symbols and punctuation
    (0x3040, 0x30FF),  # hiragana, katakana
    (0x3100, 0x31FF),  # Bopomofo, Hangul compatibility jamo, Kanbun, strokes, katakana extension
    (0x3200, 0x33FF),  # enclosed CJK letters, CJK compatibility
    (0x3400, 0x4DBF),  # CJK Extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xA960, 0xA97F),  # Hangul Jamo Extended-A (leading consonants)
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFE10, 0xFE1F),  # vertical forms
    (0xFE30, 0xFE6F),  # CJK compatibility forms, small form variants
    (0xFF01, 0xFF0F),
    (0xFF1A, 0xFF20),
    (0xFF3B, 0xFF40),
    (0xFF5B, 0xFFDC),  # full-width punctuation,
    (0xFFE0, 0xFFEE),  # half-width katakana and Hangul, full-width symbols (not the Latin letters/digits)
    (0x16FE0, 0x16FFF),  # ideographic symbols and punctuation
    (0x1AFF0, 0x1B16F),  # kana extensions and supplements
    (0x1F200, 0x1F2FF),  # enclosed ideographic supplement
    (0x20000, 0x3FFFF),  # CJK Extensions B-I, compatibility supplement
)

#: characters that stay with the CJK character before them (besides combining marks \p{M})
CJK_ATTACHED_RANGES = (
    (0x1160, 0x11FF),  # Hangul Jamo vowels and final consonants
    (0xD7B0, 0xD7FF),  # Hangul Jamo Extended-B
    (0xFF9E, 0xFF9F),  # half-width (semi-)voiced sound marks
)


#: the `regex` class of the characters that start a unit, and of the characters attached to it
CJK_UNIT_START_CLASS = f"[{regex_char_class(CJK_CHAR_RANGES)}]"
CJK_ATTACHED_CLASS = f"[\\p{{M}}{regex_char_class(CJK_ATTACHED_RANGES)}]"


class TokenizerCJKChar(Tokenizer13a):
    """CJK characters (with their combining marks) as single tokens; the rest tokenized like ``13a``."""

    name = "cjk-char"
    #: the compiled core's tokenizer that implements exactly this class (not inherited)
    native_name = "cjk-char"

    def __init__(self) -> None:
        import regex

        self._cjk = regex.compile(f"{CJK_UNIT_START_CLASS}{CJK_ATTACHED_CLASS}*")
        self._after_ideographic_space = regex.compile(f"\u3000{CJK_ATTACHED_CLASS}")

    def needs_whole_line(self, line: str) -> bool:
        # U+3000 is both a CJK symbol and whitespace: a mark after it attaches to it in the whole line,
        # but would start the next word on the word path
        return super().needs_whole_line(line) or (
            "\u3000" in line and self._after_ideographic_space.search(line) is not None
        )

    def space_cjk(self, text: str) -> str:
        """``text`` with a space on both sides of every CJK character (and its attached marks)."""
        return self._cjk.sub(r" \g<0> ", text)

    def __call__(self, line: str) -> str:
        # spacing first is safe: the 13a steps (entities, <skipped>, "-\n") only involve ASCII characters
        return super().__call__(self.space_cjk(line))

    def tokenize_words_joined(self, words: list[str]) -> str:
        # 13a's tokenize_words goes through this method too, so both batch paths space CJK first
        return super().tokenize_words_joined(self.space_cjk("\n".join(words)).split("\n"))
