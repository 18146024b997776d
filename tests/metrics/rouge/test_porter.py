"""The Porter stemmer against NLTK 3.10.4's ``PorterStemmer()`` (rouge-score's stemmer): every word of the
WMT data and a large generated word list; the compiled stemmer against it."""

from __future__ import annotations

import random

import pytest

from bleuscope.core.native import rouge as native_rouge
from bleuscope.metrics.rouge import porter
from bleuscope.metrics.rouge.tokenize import default_tokens

from ...conftest import DATA, requires_core, requires_wmt

nltk_porter = pytest.importorskip("nltk.stem.porter")

SUFFIXES = ["", "s", "es", "ies", "sses", "ss", "ed", "eed", "ied", "ing", "y", "ly", "ally", "ational", "tional",
            "enci", "anci", "izer", "bli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism",
            "iveness", "fulness", "ousness", "aliti", "iviti", "biliti", "fulli", "logi", "icate", "ative", "alize",
            "iciti", "ical", "ful", "ness", "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement",
            "ment", "ent", "sion", "tion", "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize", "e", "ll", "at",
            "bl", "iz"]


def generated_words(n: int, seed: int = 11) -> list[str]:
    """Random stems (letters weighted towards the ones Porter's conditions look at, digits, y runs) with
    one or two of Porter's suffixes."""
    rng = random.Random(seed)
    letters = "aeiouyybcdlnrstgmpzxwhkfv01"
    out = []
    for _ in range(n):
        stem = "".join(rng.choice(letters) for _ in range(rng.randint(0, 8)))
        out.append(stem + rng.choice(SUFFIXES) + rng.choice(SUFFIXES[:12]))
    return out


def test_generated_words_equal_nltk():
    stemmer = nltk_porter.PorterStemmer()
    words = generated_words(150_000) + list(porter.IRREGULAR) + ["y", "yy", "yyy", "ay", "by", "ies", "eed", "ed"]
    bad = [(w, porter.stem(w), stemmer.stem(w)) for w in words if porter.stem(w) != stemmer.stem(w)]
    assert not bad[:20]


@requires_wmt
def test_every_wmt_word_equals_nltk():
    stemmer = nltk_porter.PorterStemmer()
    words = set()
    for path in DATA.glob("*/*/*.txt"):
        words.update(default_tokens(path.read_text(encoding="utf-8")))
    for path in DATA.glob("*/*/sys/*.txt"):
        words.update(default_tokens(path.read_text(encoding="utf-8")))
    assert len(words) > 40_000  # 48,544 distinct [a-z0-9] words
    bad = [(w, porter.stem(w), stemmer.stem(w)) for w in sorted(words) if porter.stem(w) != stemmer.stem(w)]
    assert not bad[:20]


def test_mixed_case_and_short_words_as_nltk():
    stemmer = nltk_porter.PorterStemmer()
    for w in ["Running", "SKIES", "İİ", "İs", "Ab", "a", "", "Generalizations"]:
        assert porter.stem(w) == stemmer.stem(w)


@requires_core
def test_compiled_porter_equals_reference():
    words = generated_words(60_000, seed=3) + list(porter.IRREGULAR)
    bad = [(w, native_rouge.porter_stem(w), porter.stem(w)) for w in words if native_rouge.porter_stem(w) != porter.stem(w)]
    assert not bad[:20]


