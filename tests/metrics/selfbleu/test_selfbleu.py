"""Self-BLEU: each sentence's value == NLTK 3.10.4's sentence_bleu against all the others (bit for bit),
the compiled core == the Python leave-one-out reference at N=10k, Texygen's and fast-bleu's settings,
distinct-n, bad input."""

from __future__ import annotations

import random

import pytest
from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

from bleuscope import SelfBLEU

from ..goldens_support import MT, lines

METHOD1 = SmoothingFunction().method1
WMT = [x.split() for x in lines(MT / "generaltest2022" / "de-en" / "ref.A.txt")]


def nltk_self_bleu(sentences, weights=(0.25, 0.25, 0.25, 0.25), smoothing=METHOD1):
    return [sentence_bleu(sentences[:i] + sentences[i + 1:], s, weights, smoothing_function=smoothing)
            for i, s in enumerate(sentences)]


def _n(request, default: int, full: int) -> int:
    return full if request.config.getoption("--full") else default


def test_equals_nltk_bit_for_bit(request):
    sents = WMT[: _n(request, 120, 300)]
    want = nltk_self_bleu(sents)
    got = SelfBLEU().score(sents)
    assert got.scores.tolist() == want
    assert got.score == sum(want) / len(want)


def test_texygen_and_fast_bleu_settings_equal_nltk():
    sents = WMT[200:260]
    third = (1.0 / 3, 1.0 / 3, 1.0 / 3)
    assert SelfBLEU.texygen().score(sents).scores.tolist() == nltk_self_bleu(sents, third)
    fast = SelfBLEU.fast_bleu().score(sents)
    assert fast.scores_by_weights["bigram"].tolist() == nltk_self_bleu(sents, (0.5, 0.5))
    assert fast.scores_by_weights["trigram"].tolist() == nltk_self_bleu(sents, third)
    method0 = SelfBLEU(smoothing="method0").score(sents[:30]).scores.tolist()
    with pytest.warns(UserWarning):
        assert method0 == nltk_self_bleu(sents[:30], smoothing=SmoothingFunction().method0)
    assert SelfBLEU.texygen(fast=True).score(WMT[:600]).scores.tolist() == \
        SelfBLEU.texygen().score(WMT[:500]).scores.tolist()


def test_native_equals_python_reference_at_10k():
    rng = random.Random(5)
    vocab = [f"w{i}" for i in range(300)]
    sents = [[rng.choice(vocab[: rng.choice([20, 300])]) for _ in range(rng.randint(0, 12))] for _ in range(10_000)]
    native = SelfBLEU(engine="native").score(sents)
    python = SelfBLEU(engine="numpy").score(sents)
    assert native.scores.tolist() == python.scores.tolist()
    assert native.score == python.score
    assert native.ngrams == python.ngrams


def test_distinct_n_and_strings():
    got = SelfBLEU(max_order=2).score(["a b a", "a b c", ["c", "d"]])
    assert got.ngrams == {1: (4, 8), 2: (4, 5)}
    assert got.distinct == {1: 0.5, 2: 0.8}
    assert SelfBLEU(tokenize="13a").score(["a, b", "a b"]).ngrams[1] == (3, 5)


def test_bad_input():
    with pytest.raises(ValueError, match="at least two sentences"):
        SelfBLEU().score(["only one"])
    with pytest.raises(TypeError, match="single string"):
        SelfBLEU().score("a b")
    with pytest.raises(TypeError, match=r"sentences\[1\]"):
        SelfBLEU().score(["a", 3])
    with pytest.raises(ValueError, match="smoothing"):
        SelfBLEU(smoothing="method4")
    with pytest.raises(ValueError, match="max_order"):
        SelfBLEU(max_order=0)
