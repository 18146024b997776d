"""The Rust tokenizers (``bleuscope._core``) against bleuscope's Python tokenizers (== sacreBLEU 2.6.0).

The reference for a line is what the metric does with it: ``tok(line.lower() if lowercase else line)``
on the right-stripped line, split on whitespace. Checked on every code point (alone, and in contexts of
letters, digits, punctuation, whitespace, 'Σ'), on the real WMT data, and on arbitrary Unicode
(hypothesis). The Rust side hands a line back to Python (``None``) only when it is over 1 GiB or holds lone
surrogates (not valid Unicode text, so not a Rust string), so no ``None`` may appear elsewhere.
"""

from __future__ import annotations

import runpy
import unicodedata
from pathlib import Path

import pytest
import regex
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.core import backend
from bleuscope.tokenizers import get_tokenizer

from ..conftest import DATA, read_lines, requires_wmt

_core = backend.compiled_core()
if _core is None:
    pytest.skip("the compiled core (bleuscope._core) is not built", allow_module_level=True)

NAMES = ["none", "13a", "intl", "char", "zh", "cjk-char"]

#: the built-in tables' provenance (rust/tools/gen_unicode_tables.py); on any other Python or regex the
#: compiled tokenizers read tables derived from the running ones (bleuscope.core.unicode_tables)
TABLES = _core.TOKENIZER_TABLES
BUILTIN_MATCHES = (TABLES["unidata_version"], TABLES["regex_version"]) == (
    unicodedata.unidata_version,
    regex.__version__,
)


@pytest.fixture(scope="module", autouse=True)
def tables_of_this_python():
    """Every compiled tokenizer runs natively on every supported Python and regex: the backend prepares
    the tables (built in, cached or derived) that ``_core.Tokenizer`` then reads."""
    for name in NAMES:
        for lowercase in (False, True):
            native, why = backend.tokenizer_support(name, lowercase)
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


# -- every code point --------------------------------------------------------------------------------
# Each tokenizer reads a few per-character facts from generated tables; one context per tokenizer shows
# each fact for every code point: whitespace (all), the intl classes ("a{}a": \p{P} and \p{S} split,
# "{}.5": a \p{N} keeps ".5" attached), zh's ranges ("a{}."), cjk-char's units ("a{}b", attached
# characters after "漢"), str.lower and the final-sigma properties ("A{}Σ", "Σ{}" lowercased).

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


@pytest.mark.parametrize(("name", "lowercase", "template"), FACT_CONTEXTS)
def test_every_code_point(name, lowercase, template):
    assert_same(name, lowercase, chunked_lines(template, ALL_CHARS))


#: more contexts: digits and the punctuation the rules look at on both sides, Unicode whitespace
#: neighbours, the character doubled, 13a's line-level steps around it
CONTEXTS = ["{}", "a{}b", "1{}2", ".{}.", ",{}-1", "A{}Σ", "Σ{}", "\u3000{}.\u2028", "{}{}", "&amp;{}<skipped>"]


@pytest.mark.full
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_every_code_point_in_every_context(name, lowercase):
    for template in CONTEXTS:
        assert_same(name, lowercase, chunked_lines(template, ALL_CHARS))


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


@pytest.mark.parametrize("name", NAMES)
def test_line_edges(name):
    # intl and zh do not pad the line: a character at the line's start or end has no neighbour there
    lines = [form.replace("{}", c) for c in _edge_chars() for form in ("{}a", "a{}", "{}1", "1{}", "{}", " {}.")]
    assert_same(name, False, lines)


# -- hand-picked edge cases ----------------------------------------------------------------------------

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


@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_edge_cases(name, lowercase):
    assert_same(name, lowercase, EDGE_LINES)


# -- real data --------------------------------------------------------------------------------------


def wmt_lines(step: int) -> list[str]:
    lines: list[str] = []
    for path in sorted(DATA.glob("*/*/*.txt")) + sorted(DATA.glob("*/*/sys/*.txt")):
        lines += read_lines(path)[::step]
    return lines


@requires_wmt
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_wmt_sample(name, lowercase):
    # every file of every pair, every 10th segment (the full sweep below takes every segment)
    assert_same(name, lowercase, wmt_lines(10))


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("lowercase", [False, True])
@pytest.mark.parametrize("name", NAMES)
def test_wmt_every_segment(name, lowercase):
    assert_same(name, lowercase, wmt_lines(1))


# -- arbitrary Unicode --------------------------------------------------------------------------------

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


@settings(max_examples=300, deadline=None)
@given(lines=st.lists(_text, min_size=1, max_size=8), lowercase=st.booleans())
def test_arbitrary_unicode(lines, lowercase):
    _compare_all(lines, lowercase)


@pytest.mark.full
@settings(max_examples=5000, deadline=None)
@given(lines=st.lists(_text, min_size=1, max_size=8), lowercase=st.booleans())
def test_arbitrary_unicode_long_run(lines, lowercase):
    _compare_all(lines, lowercase)


def test_committed_tables_are_what_the_generator_gives():
    if not BUILTIN_MATCHES:
        pytest.skip(f"built-in tables from {TABLES['unidata_version']}/regex {TABLES['regex_version']}")
    root = Path(__file__).resolve().parents[2]
    generator = runpy.run_path(str(root / "rust" / "tools" / "gen_unicode_tables.py"))
    committed = (root / "rust" / "core" / "src" / "tok" / "tables.rs").read_text(encoding="utf-8")
    assert generator["render"]() == committed, "regenerate: python rust/tools/gen_unicode_tables.py"


def test_tables_in_use_are_from_the_installed_python_and_regex():
    # the fixture asked for every tokenizer, lowercased too: the built-in tables stay in use only where
    # they are this setup's, else the derived ones are (which equal the built-in ones where those match, and
    # may have been installed by another test)
    in_use = _core.tokenizer_tables_in_use()
    assert in_use["source"] == "installed" or BUILTIN_MATCHES
    assert (in_use["unidata_version"], in_use["regex_version"]) == (unicodedata.unidata_version, regex.__version__)


# -- the binding itself ---------------------------------------------------------------------------------


def test_unknown_name_is_an_error():
    with pytest.raises(ValueError, match="ja-mecab"):
        _core.Tokenizer("ja-mecab")


def test_only_lines_with_lone_surrogates_go_back_to_python():
    lines = ["a\udc80b", "ok", "\ud800", "x.\udfff"]
    for name in NAMES:
        expected = get_tokenizer(name)("ok").split()
        tok = _core.Tokenizer(name)
        assert tok.tokenize(lines) == [None, expected, None, None]
        assert tok.count_tokens(lines)[:2] == (len(expected), 3)
    with pytest.raises(TypeError, match=r"lines\[1\] must be a str, got int"):
        _core.Tokenizer("13a").tokenize(["a", 1])


def test_list_and_count_bindings_agree():
    lines = EDGE_LINES * 3
    for name in NAMES:
        expected = [joined.split() for joined in python_joined(name, True, lines)]
        tok = _core.Tokenizer(name, lowercase=True)
        assert tok.tokenize(lines) == expected
        assert tok.count_tokens(lines)[:2] == (sum(map(len, expected)), 0)
