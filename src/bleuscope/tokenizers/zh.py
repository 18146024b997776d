"""sacreBLEU's ``zh`` tokenizer: every "Chinese" character is a token, the rest follows the 13a rules.

The character ranges reproduce sacreBLEU 2.6.0 *including its defect* (sacreBLEU issue #298): two range
bounds were written as a four-hex-digit escape followed by a digit (``'\\u20000'`` is U+2000 then ``'0'``),
and Python compares them as two-character strings. The effective ranges are therefore U+2001–U+2A6D
(general punctuation, currency, arrows, maths ... counted as Chinese) and U+2F81–U+2FA1, while CJK
Extension B (U+20000 and above) is *not* split. We keep the defect so that scores stay comparable.
"""

from __future__ import annotations

from .base import WordLocalTokenizer
from .mteval import apply_v13a_rules

# (first, last) code points, inclusive, as sacreBLEU 2.6.0 effectively uses them.
ZH_RANGES = (
    (0x3400, 0x4DB5),
    (0x4E00, 0x9FA5),
    (0x9FA6, 0x9FBB),
    (0xF900, 0xFA2D),
    (0xFA30, 0xFA6A),
    (0xFA70, 0xFAD9),
    (0x2001, 0x2A6D),  # intended: U+20000–U+2A6D6 (CJK Extension B); see module docstring
    (0x2F81, 0x2FA1),  # intended: U+2F800–U+2FA1D (CJK Compatibility Supplement)
    (0xFF00, 0xFFEF),
    (0x2E80, 0x2EFF),
    (0x3000, 0x303F),
    (0x31C0, 0x31EF),
    (0x2F00, 0x2FDF),
    (0x2FF0, 0x2FFF),
    (0x3100, 0x312F),
    (0x31A0, 0x31BF),
    (0xFE10, 0xFE1F),
    (0xFE30, 0xFE4F),
    (0x2600, 0x26FF),
    (0x2700, 0x27BF),
    (0x3200, 0x32FF),
    (0x3300, 0x33FF),
)


def _build_spacing_table() -> dict[int, str]:
    table: dict[int, str] = {}
    for first, last in ZH_RANGES:
        for cp in range(first, last + 1):
            table[cp] = f" {chr(cp)} "
    return table


class TokenizerZh(WordLocalTokenizer):
    """Chinese characters split one by one, then mteval-v13a rules without padding or unescaping."""

    name = "zh"
    #: the compiled core's tokenizer that implements exactly this class (not inherited)
    native_name = "zh"
    edge_sensitive = True
    keeps_leading_space = False  # the line is stripped on both sides

    def __init__(self) -> None:
        self._spacing = _build_spacing_table()

    def __call__(self, line: str) -> str:
        spaced = line.strip().translate(self._spacing)
        return " ".join(apply_v13a_rules(spaced).split())

    def tokenize_word(self, word: str, left: bool = True, right: bool = True) -> list[str]:
        spaced = (" " if left else "") + word.translate(self._spacing) + (" " if right else "")
        return apply_v13a_rules(spaced).split()

    def edge_matters(self, word: str, left: bool) -> bool:
        # of the 13a rules only "." and "," look at a neighbour that may be missing at a line edge
        return (word[0] if left else word[-1]) in ".,"

    def tokenize_edge_units(self, units: list[tuple]) -> list[list[str]]:
        # edge units start/end with "." or "," (see edge_matters): a digit fence blocks the two period/comma
        # rules exactly like a string edge and cannot meet the digit-dash rule, which needs a following "-"
        spaced = [(w.translate(self._spacing), left, right) for w, left, right in units]
        return self._unfence(apply_v13a_rules(self._digit_fenced(spaced)), units)

    def tokenize_words_joined(self, words: list[str]) -> str:
        return apply_v13a_rules("\n" + "\n".join(words).translate(self._spacing) + "\n")[1:-1]

    def tokenize_words(self, words: list[str]) -> list[list[str]]:
        if not words:  # "\n".join([]) would read as one empty word
            return []
        return [part.split() for part in self.tokenize_words_joined(words).split("\n")]
