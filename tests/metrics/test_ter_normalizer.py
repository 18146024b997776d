"""TER's normalizer produces sacreBLEU 2.6.0's ``TercomTokenizer`` output, word for word, for every option."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.metrics.ter.normalizer import TercomNormalizer

tokenizer_ter = pytest.importorskip("sacrebleu.tokenizers.tokenizer_ter")

OPTIONS = st.fixed_dictionaries(
    {
        "normalized": st.booleans(),
        "no_punct": st.booleans(),
        "asian_support": st.booleans(),
        "case_sensitive": st.booleans(),
    }
)

# whitespace of every kind (where sacreBLEU's regular expressions and str.split differ from a plain strip),
# possessives, XML entities, digits next to periods/commas/dashes, CJK and kana, full-width punctuation
PIECES = st.sampled_from(
    [" ", "\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x85", "\xa0", "\u2028", "\u3000", "'s", "'S", "Jim", "&quot;",
     "&amp;", "&lt;", "&gt;", "-", "\n-", "3", ".", ",", "?", "!", ";", ":", "(", ")", "\"", "{", "~", "/", "@",
     "Ünïcödé", "ß", "İ", "漢字", "ひらがな", "カタカナ", "ㇰ", "、", "。", "，", "？", "（", "\uff61", "\u3300"]
)
TEXT = st.one_of(st.lists(PIECES, max_size=12).map("".join), st.text(max_size=30))


def _sacrebleu(options: dict):
    return tokenizer_ter.TercomTokenizer(**options)


@pytest.mark.parametrize(
    ("text", "expected"),
    # sacreBLEU's outputs: "'s " and "'s$" look at the text after lowercasing, whitespace included
    [("Jim's\t", "jim's"), ("it's\x0b", "it's"), ("a's\u3000b's ", "a's b 's"), ("Jim's", "jim 's")],
)
def test_trailing_whitespace_is_not_stripped_before_the_rules(text, expected):
    # "'s$" must not match "Jim's" when whitespace followed it in the input (sacreBLEU keeps "jim's")
    options = {"normalized": True, "no_punct": False, "asian_support": False, "case_sensitive": False}
    assert _sacrebleu(options)(text) == expected
    assert TercomNormalizer(**options)(text) == expected


@settings(max_examples=600, deadline=None)
@given(options=OPTIONS, text=TEXT)
def test_normalizer_equals_sacrebleu_tercom_tokenizer(options, text):
    assert TercomNormalizer(**options)(text) == _sacrebleu(options)(text)
    assert TercomNormalizer(**options).words(text) == _sacrebleu(options)(text).split()
