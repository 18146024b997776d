"""bleuscope.nltk.meteor_score / single_meteor_score: the same arguments, results and errors as NLTK 3.10.4's
nltk.translate.meteor_score functions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.integrations import nltk as bnltk
from bleuscope.metrics.meteor import lexicon

from ..conftest import requires_wmt
from ..meteor_support import wmt_segments

nltk_meteor = pytest.importorskip("nltk.translate.meteor_score")
PorterStemmer = pytest.importorskip("nltk.stem.porter").PorterStemmer

HYP1 = "It is a guide to action which ensures that the military always obeys the commands of the party".split()
REF1 = "It is a guide to action that ensures that the military will forever heed Party commands".split()
REF2 = ("It is the guiding principle which guarantees the military forces always being under the command of the "
        "Party").split()


def outcome(function, *args, **kwargs):
    """The value, or the exception type and message."""
    try:
        return function(*args, **kwargs)
    except Exception as err:  # noqa: BLE001 - compared with NLTK's
        return type(err), str(err)


def test_doctest_values(wordnet, nltk_wordnet):
    assert round(bnltk.meteor_score([REF1, REF2], HYP1, wordnet=wordnet), 4) == 0.6944
    assert round(bnltk.single_meteor_score(REF1, HYP1, wordnet=wordnet), 4) == 0.6944
    assert bnltk.meteor_score([["this", "is", "a", "cat"]], ["non", "matching", "hypothesis"], wordnet=wordnet) == 0.0
    assert bnltk.meteor_score([REF1, REF2], HYP1, wordnet=wordnet) == nltk_meteor.meteor_score(
        [REF1, REF2], HYP1, wordnet=nltk_wordnet)


def test_default_wordnet_is_found(monkeypatch, nltk_data_dir, nltk_wordnet):
    """Without ``wordnet=``, the first WordNet found is used (here NLTK_DATA's), loaded on first need."""
    monkeypatch.setenv("NLTK_DATA", str(nltk_data_dir))
    monkeypatch.setattr(lexicon._LazyDefaultSynonyms, "_instance", None)
    assert bnltk.meteor_score([REF1, REF2], HYP1) == nltk_meteor.meteor_score([REF1, REF2], HYP1,
                                                                             wordnet=nltk_wordnet)


def test_raw_strings_raise_nltks_type_error(wordnet, nltk_wordnet):
    for args in (([" ".join(REF1)], " ".join(HYP1)), ([" ".join(REF1)], HYP1), (" ".join(REF1), HYP1),
                 ([REF1], " ".join(HYP1))):
        ours = outcome(bnltk.meteor_score, *args, wordnet=wordnet)
        assert ours == outcome(nltk_meteor.meteor_score, *args, wordnet=nltk_wordnet)
        assert ours[0] is TypeError
    for args in ((" ".join(REF1), HYP1), (REF1, " ".join(HYP1))):
        ours = outcome(bnltk.single_meteor_score, *args, wordnet=wordnet)
        assert ours == outcome(nltk_meteor.single_meteor_score, *args, wordnet=nltk_wordnet)
        assert ours[0] is TypeError


def test_edge_cases_match_nltk(wordnet, nltk_wordnet):
    cases = [
        ([], HYP1),  # no references: max() of nothing
        ([[]], HYP1),
        ([REF1], []),
        ([[], REF1], HYP1),
        ([REF1], iter(HYP1)),  # an iterator hypothesis is consumed by the first reference, as in NLTK
        ([REF1, REF2], iter(HYP1)),
        ((tuple(r) for r in (REF1, REF2)), tuple(HYP1)),
        ([["a", "a", "a"]], ["a", "a"]),
        ([["x"]], [1, 2]),  # str.lower of a non-string
    ]
    for refs, hyp in cases:
        if not isinstance(hyp, (list, tuple)):
            hyp_ours, hyp_nltk = iter(HYP1), iter(HYP1)
        else:
            hyp_ours = hyp_nltk = hyp
        refs = list(refs)
        ours = outcome(bnltk.meteor_score, refs, hyp_ours, wordnet=wordnet)
        assert ours == outcome(nltk_meteor.meteor_score, refs, hyp_nltk, wordnet=nltk_wordnet), (refs, hyp)


def test_options_and_nltk_objects(wordnet, nltk_wordnet):
    """NLTK's parameters, and NLTK's own stemmer and WordNet reader passed in (called as NLTK calls them)."""
    refs = [REF1, REF2]
    for kwargs in ({"alpha": 0.5, "beta": 2, "gamma": 0.1}, {"preprocess": lambda w: w}, {"preprocess": str.upper},
                   {"alpha": 1, "beta": 1.0, "gamma": 1}):
        expected = nltk_meteor.meteor_score(refs, HYP1, wordnet=nltk_wordnet, **kwargs)
        assert bnltk.meteor_score(refs, HYP1, wordnet=wordnet, **kwargs) == expected
        assert bnltk.meteor_score(refs, HYP1, wordnet=nltk_wordnet, stemmer=PorterStemmer(), **kwargs) == expected
    lancaster = pytest.importorskip("nltk.stem").LancasterStemmer()
    expected = nltk_meteor.meteor_score(refs, HYP1, wordnet=nltk_wordnet, stemmer=lancaster)
    assert bnltk.meteor_score(refs, HYP1, wordnet=wordnet, stemmer=lancaster) == expected
    assert bnltk.meteor_score(refs, HYP1, wordnet=str(wordnet.location)) == nltk_meteor.meteor_score(
        refs, HYP1, wordnet=nltk_wordnet)


def test_object_caches_do_not_keep_objects_alive(wordnet):
    import gc
    import weakref

    stemmer = PorterStemmer()
    ref = weakref.ref(stemmer)
    bnltk.meteor_score([REF1], HYP1, wordnet=wordnet, stemmer=stemmer)
    del stemmer
    gc.collect()
    assert ref() is None


@requires_wmt
def test_wmt_sample(wordnet, nltk_wordnet):
    """Every 40th WMT22 into-English segment, whitespace tokens, two references."""
    pairs = [(h.split(), [r.split() for r in refs]) for h, refs in wmt_segments(40)]
    assert len(pairs) > 1000
    ours = [bnltk.meteor_score(refs, hyp, wordnet=wordnet) for hyp, refs in pairs]
    assert ours == [nltk_meteor.meteor_score(refs, hyp, wordnet=nltk_wordnet) for hyp, refs in pairs]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hyp=st.lists(st.text(alphabet="abcdegs", max_size=5), max_size=10),
       refs=st.lists(st.lists(st.text(alphabet="abcdegs", max_size=5), max_size=10), max_size=3))
def test_generated(wordnet, nltk_wordnet, hyp, refs):
    ours = outcome(bnltk.meteor_score, refs, hyp, wordnet=wordnet)
    assert ours == outcome(nltk_meteor.meteor_score, refs, hyp, wordnet=nltk_wordnet)
    for ref in refs:
        assert bnltk.single_meteor_score(ref, hyp, wordnet=wordnet) == nltk_meteor.single_meteor_score(
            ref, hyp, wordnet=nltk_wordnet)


def test_first_call_of_a_fresh_process(nltk_data_dir, nltk_wordnet):
    """The first call in a process builds the default stemmer and the shared compiled table (under one lock,
    without waiting on itself), in a subprocess so that a deadlock fails the test instead of hanging it."""
    import subprocess
    import sys

    code = ("from bleuscope.nltk import meteor_score; "
            f"print(repr(meteor_score([{REF1!r}, {REF2!r}], {HYP1!r}, wordnet={str(nltk_data_dir)!r})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=True)
    assert float(done.stdout) == nltk_meteor.meteor_score([REF1, REF2], HYP1, wordnet=nltk_wordnet)
