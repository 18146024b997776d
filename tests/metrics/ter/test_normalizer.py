"""TER's normalizer produces sacreBLEU 2.6.0's ``TercomTokenizer`` output, word for word, for every option."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.metrics.ter.normalizer import TercomNormalizer

sacrebleu = pytest.importorskip("sacrebleu")
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


@settings(max_examples=300, deadline=None)
@given(options=OPTIONS, text=TEXT)
def test_segments_are_prepared_as_sacrebleus_ter_metric_prepares_them(options, text):
    # the metric (not its tokenizer) strips trailing whitespace first: "'s$" then matches "Jim's\t"
    ter = sacrebleu.metrics.TER(**options)
    assert TercomNormalizer(**options).segment(text) == ter._preprocess_segment(text)
    assert TercomNormalizer(**options).words(text) == ter._preprocess_segment(text).split()


@settings(max_examples=300, deadline=None)
@given(options=OPTIONS, text=TEXT)
def test_references_are_prepared_twice_as_sacrebleus_ter_metric_does(options, text):
    # sacreBLEU prepares a reference when caching it and again when splitting it into words
    ter = sacrebleu.metrics.TER(**options)
    twice = ter._preprocess_segment(ter._preprocess_segment(text))
    assert TercomNormalizer(**options).reference_segment(text) == twice
    assert TercomNormalizer(**options).reference_words(text) == twice.split()


def test_a_reference_whose_second_preparation_differs_scores_as_in_sacrebleu():
    from bleuscope import TER

    hyp, ref = "Jim's\u00a0„", "Jim's\u00a0„ tomorrow"
    ours = TER(normalized=True).corpus_score([hyp], [[ref]])
    theirs = sacrebleu.metrics.TER(normalized=True).corpus_score([hyp], [[ref]])
    # the reference becomes "jim 's „ tomorrow" (4 words), the hypothesis "jim's „" (2): 3 edits
    assert (ours.num_edits, ours.ref_length) == (theirs.num_edits, theirs.ref_length) == (3, 4)
