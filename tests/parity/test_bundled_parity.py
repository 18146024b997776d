"""Parity with sacreBLEU 2.6.0 and NLTK 3.10.4 that needs nothing outside the repository: the bundled example
(300 WMT22 en-de segments, two systems, two references) and hostile text from a seeded generator (every kind
of whitespace, combining marks, CJK, emoji, digits with separators, XML entities, empty and blank segments,
very long tokens). It runs in every checkout, so the default test run always compares with the peers even
where the WMT sweep (../shared/data/mt) is missing."""

from __future__ import annotations

import random
import warnings
from pathlib import Path

import pytest

import bleuscope
from bleuscope import BLEU, CHRF, TER
from bleuscope import nltk as bleuscope_nltk

sacrebleu = pytest.importorskip("sacrebleu")
nltk_bleu = pytest.importorskip("nltk.translate.bleu_score")

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
SEED = 20261201

# pieces of hostile text: Unicode whitespace and separators, marks, scripts, symbols and markup
PIECES = [
    "the", "The", "THE", "cat", "Katze", "naïve", "e\u0301", "ß", "İstanbul", "ǅ", "ﬁ", "Ωmega", "12,345.67", "3-4",
    "U.S.", "e.g.", "don't", "l'homme", "it's", "Jim's", "&quot;", "&amp;", "&lt;tag&gt;", "<b>", "—", "–", "…",
    "«", "»", "„", "“", "”", "'", '"', "(", ")", "[", "]", "{", "}", "!", "?", ".", ",", ";", ":", "/", "\\", "@",
    "#", "$", "%", "€", "¥", "©", "°", "±", "½", "²", "漢字", "中文", "。", "，", "、", "日本語", "ひらがな", "カタカナ",
    "ｶﾀｶﾅ", "한국어", "العربية", "עברית", "ไทย", "देवनागरी", "😀", "👍🏽", "🇩🇪", "\u200b", "\u200d", "\ufeff",
    "x" * 200, "a-b-c", "1990s", "3.14", "-5", "+7", "1e10",
]
SPACES = [" ", " ", " ", "  ", "\t", "\u00a0", "\u3000", "\u2009", "\u2028", "\x0b", "\x0c", "\x1c", "\x85"]


def _hostile_segment(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.04:
        return ""
    if kind < 0.07:
        return rng.choice(SPACES) * rng.randint(1, 3)
    words = [rng.choice(PIECES) for _ in range(rng.randint(1, 25))]
    text = "".join(w + rng.choice(SPACES) for w in words)
    return text if rng.random() < 0.5 else text.strip(" ")


def _hostile_corpus(n: int = 400) -> tuple[list[str], list[list[str]]]:
    """Hypotheses and two reference streams; each hypothesis shares some words with its references."""
    rng = random.Random(SEED)
    refs_a, refs_b, hyps = [], [], []
    for _ in range(n):
        ref = _hostile_segment(rng)
        words = ref.split(" ")
        rng.shuffle(words)
        hyp = " ".join(words[: max(1, len(words) - rng.randint(0, 3))]) if rng.random() < 0.8 else _hostile_segment(rng)
        refs_a.append(ref)
        refs_b.append(_hostile_segment(rng))
        hyps.append(hyp)
    return hyps, [refs_a, refs_b]


def _example() -> tuple[dict[str, list[str]], list[list[str]]]:
    read = lambda name: (EXAMPLE / name).read_text(encoding="utf-8").split("\n")[:-1]  # noqa: E731
    systems = {name: read(f"hyp.{name}.txt") for name in ("Online-B", "OpenNMT")}
    return systems, [read("ref.A.txt"), read("ref.B.txt")]


def _corpora():
    systems, refs = _example()
    hostile_hyps, hostile_refs = _hostile_corpus()
    return [("example/" + name, hyps, refs) for name, hyps in systems.items()] + [
        ("hostile", hostile_hyps, hostile_refs)
    ]


CORPORA = _corpora()
IDS = [name for name, _, _ in CORPORA]


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # tokenizer hints (CJK with 13a, tokenized-looking text)
        yield


@pytest.mark.parametrize(("name", "hyps", "refs"), CORPORA, ids=IDS)
@pytest.mark.parametrize("tokenize", ["13a", "intl", "char", "none", "zh"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_corpus_bleu_equals_sacrebleu(name, hyps, refs, tokenize, lowercase):
    ours = BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs)
    theirs = sacrebleu.metrics.BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs)
    assert (ours.counts, ours.totals, ours.sys_len, ours.ref_len) == (
        theirs.counts, theirs.totals, theirs.sys_len, theirs.ref_len)
    assert ours.score == theirs.score


@pytest.mark.parametrize(("name", "hyps", "refs"), CORPORA, ids=IDS)
@pytest.mark.parametrize("smooth", [("exp", None), ("floor", 0.1), ("add-k", 1), ("none", None)])
def test_sentence_bleu_equals_sacrebleu(name, hyps, refs, smooth):
    method, value = smooth
    ours = BLEU(smooth_method=method, smooth_value=value, effective_order=True)
    theirs = sacrebleu.metrics.BLEU(smooth_method=method, smooth_value=value, effective_order=True)
    for i in range(0, len(hyps), 7):
        mine = ours.sentence_score(hyps[i], [r[i] for r in refs])
        peer = theirs.sentence_score(hyps[i], [r[i] for r in refs])
        assert mine.score == peer.score, i
        if method != "add-k":  # sacreBLEU's add-k returns its counts with k added (docs/compatibility.md)
            assert (mine.counts, mine.totals) == (peer.counts, peer.totals), i


@pytest.mark.parametrize(("name", "hyps", "refs"), CORPORA, ids=IDS)
@pytest.mark.parametrize(
    "options",
    [{}, {"word_order": 2}, {"whitespace": True}, {"lowercase": True, "word_order": 1}, {"eps_smoothing": True},
     {"char_order": 3, "beta": 1}],
)
def test_chrf_equals_sacrebleu(name, hyps, refs, options):
    assert CHRF(**options).corpus_score(hyps, refs).score == sacrebleu.metrics.CHRF(**options).corpus_score(
        hyps, refs).score


@pytest.mark.parametrize(("name", "hyps", "refs"), CORPORA, ids=IDS)
@pytest.mark.parametrize(
    "options",
    [{}, {"normalized": True}, {"no_punct": True}, {"case_sensitive": True},
     {"normalized": True, "asian_support": True, "no_punct": True}],
)
def test_ter_equals_sacrebleu(name, hyps, refs, options):
    # sacreBLEU's TER is slow: every fourth segment keeps the run short and the hostile cases in
    hyps, refs = hyps[::4], [r[::4] for r in refs]
    ours = TER(**options).corpus_score(hyps, refs)
    theirs = sacrebleu.metrics.TER(**options).corpus_score(hyps, refs)
    assert (ours.num_edits, ours.ref_length, ours.score) == (theirs.num_edits, theirs.ref_length, theirs.score)


@pytest.mark.parametrize(("name", "hyps", "refs"), CORPORA, ids=IDS)
@pytest.mark.parametrize("smoothing", [None, 1, 2, 3, 4, 5, 7])
def test_nltk_corpus_and_sentence_bleu_equal_nltk(name, hyps, refs, smoothing):
    hyp_tokens = [h.split() for h in hyps]
    ref_tokens = [[r[i].split() for r in refs] for i in range(len(hyps))]
    keep = [i for i, h in enumerate(hyp_tokens) if h and all(ref_tokens[i])]  # NLTK divides by empty lengths
    hyp_tokens, ref_tokens = [hyp_tokens[i] for i in keep], [ref_tokens[i] for i in keep]
    ours_f = None if smoothing is None else getattr(bleuscope_nltk.SmoothingFunction(), f"method{smoothing}")
    theirs_f = None if smoothing is None else getattr(nltk_bleu.SmoothingFunction(), f"method{smoothing}")
    assert bleuscope_nltk.corpus_bleu(ref_tokens, hyp_tokens, smoothing_function=ours_f) == nltk_bleu.corpus_bleu(
        ref_tokens, hyp_tokens, smoothing_function=theirs_f)
    for i in range(0, len(hyp_tokens), 11):
        assert bleuscope_nltk.sentence_bleu(ref_tokens[i], hyp_tokens[i], smoothing_function=ours_f) == (
            nltk_bleu.sentence_bleu(ref_tokens[i], hyp_tokens[i], smoothing_function=theirs_f)), i
