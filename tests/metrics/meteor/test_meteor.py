"""bleuscope.METEOR against NLTK 3.10.4's meteor_score (the definition) on the same tokens and WordNet files:
WMT22 into-English systems with two references, NLTK's doctest values, and generated text."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuscope
from bleuscope.core import native
from bleuscope.core.native import meteor as native_meteor
from bleuscope.core.native import tok as native_tok
from bleuscope.metrics.meteor import METEOR, WordNet
from bleuscope.metrics.meteor.alignment import align, score

from ...conftest import requires_wmt
from ...meteor_support import wmt_segments

nltk_meteor = pytest.importorskip("nltk.translate.meteor_score")

# NLTK's doctest sentences (nltk/translate/meteor_score.py)
HYP1 = ["It", "is", "a", "guide", "to", "action", "which", "ensures", "that", "the", "military", "always", "obeys",
        "the", "commands", "of", "the", "party"]
HYP2 = ["It", "is", "to", "insure", "the", "troops", "forever", "hearing", "the", "activity", "guidebook", "that",
        "party", "direct"]
REF1 = ["It", "is", "a", "guide", "to", "action", "that", "ensures", "that", "the", "military", "will", "forever",
        "heed", "Party", "commands"]
REF2 = ["It", "is", "the", "guiding", "principle", "which", "guarantees", "the", "military", "forces", "always",
        "being", "under", "the", "command", "of", "the", "Party"]
REF3 = ["It", "is", "the", "practical", "guide", "for", "the", "army", "always", "to", "heed", "the", "directions",
        "of", "the", "party"]


@pytest.fixture(scope="module")
def meteor(wordnet):
    return METEOR(wordnet=wordnet)


@pytest.fixture(scope="module")
def token_meteor(wordnet):
    """Token lists as they are (NLTK's input); raw strings split on whitespace."""
    return METEOR(wordnet=wordnet, tokenize="none")


def nltk_scores(pairs, reader, **options):
    return [nltk_meteor.meteor_score(refs, hyp, wordnet=reader, **options) for hyp, refs in pairs]


def test_nltk_fixture_gives_the_documented_value(nltk_wordnet):
    """NLTK's own reader on Debian's files plus lexnames reproduces NLTK's doctest (0.6944)."""
    assert round(nltk_meteor.meteor_score([REF1, REF2, REF3], HYP1, wordnet=nltk_wordnet), 4) == 0.6944
    assert round(nltk_meteor.single_meteor_score(REF1, HYP1, wordnet=nltk_wordnet), 4) == 0.6944


def test_doctest_values(token_meteor, nltk_wordnet):
    assert round(token_meteor.sentence_score(HYP1, [REF1, REF2, REF3]).value, 4) == 0.6944
    assert round(token_meteor.sentence_score(HYP1, [REF1]).value, 4) == 0.6944
    assert token_meteor.sentence_score(["non", "matching", "hypothesis"], [["this", "is", "a", "cat"]]).value == 0.0
    for hyp in (HYP1, HYP2):
        expected = nltk_meteor.meteor_score([REF1, REF2, REF3], hyp, wordnet=nltk_wordnet)
        assert token_meteor.sentence_score(hyp, [REF1, REF2, REF3]).value == expected
        # raw text through the whitespace tokenizer is the same
        assert token_meteor.sentence_score(" ".join(hyp), [" ".join(r) for r in (REF1, REF2, REF3)]).value == expected


def test_synonym_stage_sees_stems(wordnet, nltk_wordnet):
    """NLTK hands stage 2's stemmed words on to the synonym stage: "guiding" is looked up as "guid"."""
    stem = bleuscope.metrics.meteor.lexicon.stem_function(None)
    assert stem("guiding") == "guid"
    # "fast" and "quick" share a synset; "large" (a synonym of "big") becomes "larg" and is never found
    hyp, ref = ["big", "fast"], ["large", "quick"]
    assert "large" in wordnet.synonyms("big") and stem("large") == "larg"
    matches, chunks = align(hyp, ref, stem, wordnet.synonyms)
    assert (matches, chunks) == (1, 1)
    assert score(matches, 2, 2, chunks) == nltk_meteor.single_meteor_score(ref, hyp, wordnet=nltk_wordnet)


def exact_mean(values) -> float:
    """The mean of floats computed exactly, rounded once."""
    return float(sum(Fraction(v) for v in values) / len(values))


def check_wmt(meteor, reader, stride):
    pairs = list(wmt_segments(stride))
    tokenized = [(meteor.tokens(h, "h"), [meteor.tokens(r, "r") for r in refs]) for h, refs in pairs]
    expected = nltk_scores(tokenized, reader)
    streams = [list(s) for s in zip(*(refs for _, refs in pairs))]
    batch = meteor.sentence_scores([h for h, _ in pairs], streams)
    assert batch.values.tolist() == expected
    assert batch.scores.tolist() == [100 * v for v in expected]
    assert batch.signature.startswith("nrefs:2|case:lc|tok:13a|stem:porter|wn:3.0|a:0.9|b:3|g:0.5|agg:mean|version:")
    # the statistics rows reproduce the values, one by one and as the exact mean
    rows = meteor.segment_statistics([h for h, _ in pairs], streams).stats
    assert meteor.mean_values(rows).tolist() == expected
    assert (rows[:, 1:5] == batch.alignment).all()
    assert meteor.corpus_score([h for h, _ in pairs], streams).value == exact_mean(expected)
    return pairs, expected


@requires_wmt
def test_engines_agree(wordnet):
    """The compiled core's alignment and tokenization give the Python reference's rows."""
    if not native.native_available():
        pytest.skip("the compiled core is not built")
    pairs = list(wmt_segments(97))
    hyps = [h for h, _ in pairs]
    streams = [list(s) for s in zip(*(refs for _, refs in pairs))]
    compiled = METEOR(wordnet=wordnet, engine="native").segment_statistics(hyps, streams).stats
    python = METEOR(wordnet=wordnet, engine="numpy").segment_statistics(hyps, streams).stats
    assert (compiled == python).all()
    for threads in (1, 2, 3):
        with_threads = METEOR(wordnet=wordnet, engine="native", threads=threads)
        assert (with_threads.segment_statistics(hyps, streams).stats == python).all()
    greek = ["ΟΔΟΣ ΣΟΦΟΣ. Σ'Α 'ΣΑ ΑΣ'", "ὈΔΥΣΣΕΎΣ ΚΑΙ ΣΑΣ"]
    refs = [["οδος σοφος", "οδυσσευς και σας"]]
    assert (METEOR(wordnet=wordnet, engine="native").segment_statistics(greek, refs).stats
            == METEOR(wordnet=wordnet, engine="numpy").segment_statistics(greek, refs).stats).all()


@requires_wmt
def test_wmt_sample(meteor, nltk_wordnet):
    """Every 21st segment of the 42,456 WMT22 into-English system outputs (2,022 pairs, two references)."""
    pairs, expected = check_wmt(meteor, nltk_wordnet, 21)
    assert len(pairs) == 2022


@requires_wmt
@pytest.mark.full
def test_wmt_all(meteor, nltk_wordnet):
    """All 42,456 WMT22 into-English system segments (de-en, cs-en, zh-en; two references each)."""
    pairs, _ = check_wmt(meteor, nltk_wordnet, 1)
    assert len(pairs) == 42_456


def test_options_match_nltk(wordnet, nltk_wordnet):
    hyp, refs = HYP2, [REF1, REF2, REF3]
    for alpha, beta, gamma in ((0.9, 3.0, 0.5), (0.5, 1, 0.0), (0.85, 2.35, 0.45), (1.0, 0.5, 1.0), (0, 3, 1)):
        ours = METEOR(wordnet=wordnet, tokenize="none", alpha=alpha, beta=beta, gamma=gamma)
        expected = nltk_meteor.meteor_score(refs, hyp, wordnet=nltk_wordnet, alpha=alpha, beta=beta, gamma=gamma)
        assert ours.sentence_score(hyp, refs).value == expected
    mixed = METEOR(wordnet=wordnet, tokenize="none", lowercase=False)
    expected = nltk_meteor.meteor_score(refs, hyp, wordnet=nltk_wordnet, preprocess=lambda w: w)
    scored = mixed.sentence_score(hyp, refs)
    assert scored.value == expected
    assert scored.signature.startswith("nrefs:3|case:mixed|") and scored.signature == mixed.signature(3)


def test_corpus_is_the_mean_of_the_sentences(meteor):
    hyps = ["The cat sat on the mat.", "A dog barked loudly.", "", "Nothing matches here"]
    refs = [["The cat is on the mat.", "A dog was barking.", "Empty.", "completely different words"],
            ["There is a cat on the mat.", None, "", "other text"]]
    batch = meteor.sentence_scores(hyps, refs)
    assert len(batch) == 4 and batch[2].score == 0.0 and batch[3].score == 0.0
    corpus = meteor.corpus_score(hyps, refs)
    assert corpus.value == exact_mean(batch.values.tolist())
    assert corpus.score == 100 * corpus.value
    assert corpus.signature.startswith("nrefs:var|")
    rows = meteor.segment_statistics(hyps, refs).stats
    assert meteor.score_from_statistics(rows).value == corpus.value
    # shards sum to the same rows: the mean does not depend on how the corpus is split
    halves = [meteor.segment_statistics(hyps[a:b], [r[a:b] for r in refs]).stats.sum(axis=0) for a, b in ((0, 1), (1, 4))]
    assert meteor.score_from_statistics(halves[0] + halves[1]).value == corpus.value
    for i in range(4):
        seg_refs = [r[i] for r in refs if r[i] is not None]
        assert meteor.sentence_score(hyps[i], seg_refs).value == batch.values[i]
    assert str(corpus) == f"METEOR = {corpus.score:.2f}"


def test_public_names(wordnet):
    assert bleuscope.METEOR is METEOR
    value = bleuscope.sentence_meteor("a cat", ["the cat"], wordnet=wordnet).value
    assert value == bleuscope.corpus_meteor(["a cat"], [["the cat"]], wordnet=wordnet).value > 0


def test_bad_input(meteor):
    with pytest.raises(TypeError, match="single string"):
        meteor.corpus_score("a cat", [["the cat"]])
    with pytest.raises(ValueError, match="hypotheses is empty"):
        meteor.corpus_score([], [[]])
    with pytest.raises(TypeError, match=r"hypotheses\[0\]: tokens must be strings"):
        meteor.corpus_score([["a", 1]], [["the cat"]])
    with pytest.raises(TypeError, match=r"references\[0\]\[0\] must be a string or a list"):
        meteor.corpus_score(["a"], [[3]])
    with pytest.raises(ValueError, match="segment 0 has no reference"):
        meteor.corpus_score(["a"], [[None]])
    with pytest.raises(ValueError, match=r"references\[0\] has 2 lines but hypotheses has 1"):
        meteor.corpus_score(["a"], [["b", "c"]])
    with pytest.raises(ValueError, match="references is empty"):
        meteor.sentence_score("a", [])
    with pytest.raises(TypeError, match="alpha must be a real number"):
        METEOR(wordnet=meteor.wordnet, alpha="0.9")
    with pytest.raises(ValueError, match=r"gamma must be in \[0, 1\]"):
        METEOR(wordnet=meteor.wordnet, gamma=float("nan"))
    with pytest.raises(ValueError, match="beta must be > 0"):
        METEOR(wordnet=meteor.wordnet, beta=0)
    with pytest.raises(TypeError, match="stem"):
        METEOR(wordnet=meteor.wordnet, stemmer=object())
    with pytest.raises(ValueError, match="unknown tokenizer"):
        METEOR(wordnet=meteor.wordnet, tokenize="nope")
    with pytest.raises(ValueError, match="8 columns"):
        meteor.score_rows(np.zeros((2, 3), dtype=np.int64))


def test_wordnet_argument_forms(nltk_data_dir, wordnet):
    assert METEOR(wordnet=nltk_data_dir).wordnet is wordnet
    assert METEOR(wordnet=str(nltk_data_dir / "corpora" / "wordnet")).wordnet is WordNet.load(nltk_data_dir)


# -- generated text --------------------------------------------------------------------------------------------
# a small vocabulary with synonyms, stems and inflections, so that every stage of the alignment is exercised
VOCAB = ["the", "a", "cat", "cats", "dog", "dogs", "big", "large", "bigger", "run", "running", "ran", "runs",
         "guide", "guiding", "guidance", "party", "Party", "army", "troops", "military", "heed", "obey", "obeys",
         "command", "commands", "order", "fast", "quick", "quickly", "house", "home", "go", "went", "gone", "is",
         "be", "are", "men", "man", "women", "Geese", "goose", "better", "good", "well", "car", "automobile", ".",
         ",", "don't", "U.S.", "é", "ß", "İstanbul"]
words = st.lists(st.sampled_from(VOCAB) | st.text(alphabet="abcdeìs", min_size=0, max_size=4), max_size=14)
SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(hyp=words, refs=st.lists(words, min_size=1, max_size=3))
def test_generated_token_lists(token_meteor, nltk_wordnet, hyp, refs):
    expected = nltk_meteor.meteor_score(refs, hyp, wordnet=nltk_wordnet)
    assert token_meteor.sentence_score(hyp, refs).value == expected


@SETTINGS
@given(word=st.sampled_from(VOCAB), n=st.integers(1, 6), m=st.integers(0, 6))
def test_repeated_words(token_meteor, nltk_wordnet, word, n, m):
    hyp, ref = [word] * n, [word] * m + ["x"]
    expected = nltk_meteor.meteor_score([ref], hyp, wordnet=nltk_wordnet)
    assert token_meteor.sentence_score(hyp, [ref]).value == expected


@SETTINGS
@given(hyp=st.text(max_size=40), ref=st.text(max_size=40))
def test_generated_raw_text(meteor, nltk_wordnet, hyp, ref):
    """Raw strings: the 13a tokens, lowercased, scored as NLTK scores those tokens."""
    expected = nltk_meteor.meteor_score([meteor.tokens(ref, "r")], meteor.tokens(hyp, "h"), wordnet=nltk_wordnet,
                                        preprocess=lambda w: w)
    value = meteor.sentence_score(hyp, [ref]).value
    assert value == expected
    assert 0.0 <= value <= 1.0


UNICODE_WORDS = ["meta’s", "havlíček's", "naïve", "İs", "İİİs", "ΣΑΣ", "straßes", "éééé", "ﬀing", "café", "\u212aing",
                 "ÉTÉS", "xxxüü", "Skies", "ὈΔΥΣΣΕΎΣ", "ǅungles", "ῼes", "ﬃes", "\u0130\u0307ing"]


@SETTINGS
@given(words=st.lists(st.text(min_size=1, max_size=8) | st.sampled_from(UNICODE_WORDS)
                      | st.text(alphabet="aeiouyslngdİéßΣςﬀ'’", min_size=1, max_size=9), max_size=30))
def test_compiled_stemmer_is_nltks_on_any_word(words):
    """The compiled core's Porter stemmer (Python's lowercasing, non-ASCII characters as NLTK sees them)
    gives NLTK's ``PorterStemmer().stem`` on any word, where it stems at all."""
    from nltk.stem.porter import PorterStemmer

    table = native_meteor.meteor_table(porter=True)
    if table is None:
        pytest.skip("the compiled core is not built")
    stemmer = PorterStemmer()
    for word, stem in zip(words, table.stems(words)):
        if stem is not None or native_tok.tokenizer_support("13a", True)[0]:
            assert stem == stemmer.stem(word), word


@requires_wmt
def test_compiled_stemmer_on_wmt_words():
    """Every distinct non-ASCII token (and its lowercase form) of the WMT22 into-English data sample."""
    from nltk.stem.porter import PorterStemmer

    if native_meteor.meteor_table(porter=True) is None or not native_tok.tokenizer_support("13a", True)[0]:
        pytest.skip("the compiled core is not built, or its Unicode tables are not this Python's")
    words = sorted({w for hyp, refs in wmt_segments(7) for line in (hyp, *refs) for w in line.split()
                    if not w.isascii()})
    words += [w.lower() for w in words]
    assert len(words) > 2_000
    stemmer = PorterStemmer()
    stems = native_meteor.meteor_table(porter=True).stems(words)
    assert [w for w, s in zip(words, stems) if s != stemmer.stem(w)] == []


def test_workers_streams_and_pickling(meteor, tmp_path):
    """The Metric machinery: worker processes (the scorer is pickled with its WordNet location), files read in
    chunks, and the exact mean over any split."""
    import pickle

    hyps = ["The cat sat on the mat.", "A dog barked loudly.", "Fast cars are quick.", "nothing here"] * 30
    refs = [["The cat is on the mat.", "A dog was barking.", "Quick cars are fast.", "other words"] * 30]
    expected = meteor.corpus_score(hyps, refs)
    clone = pickle.loads(pickle.dumps(meteor))
    assert clone.wordnet is meteor.wordnet
    assert clone.corpus_score(hyps, refs).value == expected.value
    rows = meteor.segment_statistics(hyps, refs).stats
    assert (meteor.segment_statistics(hyps, refs, n_jobs=2).stats == rows).all()
    from bleuscope.core import pool

    checked = meteor.check_inputs(hyps, refs)
    assert (pool.statistics_checked(meteor, *checked, 2, chunk_size=30) == rows).all()  # two worker processes
    (tmp_path / "hyp.txt").write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    (tmp_path / "ref.txt").write_text("".join(r + "\n" for r in refs[0]), encoding="utf-8")
    streamed = meteor.score_stream(tmp_path / "hyp.txt", [tmp_path / "ref.txt"], chunk_size=7)
    assert streamed.value == expected.value


@requires_wmt
def test_systems_against_the_same_references(wordnet):
    """One METEOR scoring several systems against the same reference streams (encoded once and reused)
    gives each system's numbers as a new METEOR does, also after a reference changes in place."""
    pairs = list(wmt_segments(211))
    hyps = [h for h, _ in pairs]
    streams = [list(s) for s in zip(*(refs for _, refs in pairs))]
    systems = [hyps, hyps[::-1], [h.upper() for h in hyps]]
    metric = METEOR(wordnet=wordnet)
    for _ in range(2):
        for system in systems:
            expected = METEOR(wordnet=wordnet).sentence_scores(system, streams).values
            assert metric.sentence_scores(system, streams).values.tolist() == expected.tolist()
    before = metric.sentence_scores(hyps, streams).values
    streams[0][3] = hyps[3]  # an edited reference: its new tokens count
    expected = METEOR(wordnet=wordnet).sentence_scores(hyps, streams).values
    assert metric.sentence_scores(hyps, streams).values.tolist() == expected.tolist()
    assert expected[3] > before[3]
