"""BLEU.pairwise equals a loop of sacreBLEU sentence_score over every pair."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core import native
from bleuscope.metrics.bleu import pairwise
from bleuscope.metrics.bleu.pairwise import pairwise_statistics
from bleuscope.metrics.bleu.scoring import ScoringConfig, compute_scores

from ...conftest import DATA, read_lines, requires_core, requires_wmt

sacrebleu = pytest.importorskip("sacrebleu")


@functools.lru_cache(maxsize=32)
def _lines(*parts) -> tuple[str, ...]:
    return tuple(read_lines(DATA.joinpath(*parts)))


def _sacre_matrix(hyps, refs, **options) -> np.ndarray:
    sb = sacrebleu.BLEU(**options)
    return np.array([[sb.sentence_score(h, [r]).score for r in refs] for h in hyps], dtype=np.float64)


def _ours(hyps, refs, **options) -> np.ndarray:
    return BLEU(**options).pairwise(hyps, refs)


@pytest.fixture(autouse=True)
def _quiet_sacrebleu(caplog):
    # sacreBLEU logs a warning per sentence_score call without effective_order
    caplog.set_level("ERROR", logger="sacrebleu")


# -- WMT segments ------------------------------------------------------------------------------------------

WMT_CASES = [
    ("generaltest2022", "en-de", "Online-B", "ref.A", {}),
    ("generaltest2022", "en-de", "JDExploreAcademy", "ref.B", {"effective_order": True}),
    ("generaltest2022", "de-en", "Online-A", "ref.A", {"smooth_method": "floor", "lowercase": True}),
    ("generaltest2022", "en-zh", "Online-W", "ref.A", {"tokenize": "zh", "effective_order": True}),
    ("generaltest2022", "cs-en", "Online-B", "ref.B", {"tokenize": "intl", "smooth_method": "add-k"}),
    ("newstest2021", "en-ru", "Online-G", "ref.A", {"tokenize": "char", "smooth_method": "none"}),
    ("generaltest2022", "en-de", "Online-W", "ref.A", {"max_ngram_order": 2, "effective_order": True}),
]


@requires_wmt
@pytest.mark.parametrize("testset,pair,system,ref,options", WMT_CASES, ids=lambda x: str(x))
def test_pairwise_equals_sacrebleu_loop_on_wmt(testset, pair, system, ref, options):
    hyps = list(_lines(testset, pair, "sys", f"{system}.txt")[100:130])
    refs = list(_lines(testset, pair, f"{ref}.txt")[100:126])
    got = _ours(hyps, refs, **options)
    want = _sacre_matrix(hyps, refs, **options)
    assert got.shape == (30, 26)
    assert np.array_equal(got, want)  # bit-identical, not approximately equal
    # the diagonal-like pairs (hypothesis i vs its own reference i) are real translations: not all zero
    assert np.diag(got).max() > 5


@requires_wmt
def test_pairwise_self_mbr_setting_on_wmt():
    """Hypotheses = pseudo-references: the 8 systems' outputs for a few segments, all against all."""
    systems = ["JDExploreAcademy", "Lan-Bridge", "Online-A", "Online-B", "Online-G", "Online-W", "OpenNMT", "PROMT"]
    cands = [_lines("generaltest2022", "en-de", "sys", f"{s}.txt")[i] for i in (7, 8, 9, 10) for s in systems]
    got = _ours(cands, cands, effective_order=True)
    assert np.array_equal(got, _sacre_matrix(cands, cands, effective_order=True))
    assert np.array_equal(got, _ours(cands, list(cands), effective_order=True))
    assert got[0, 1] > 10  # two systems' translations of the same segment overlap


# -- random text and every internal path -------------------------------------------------------------------

WORDS = ["a", "b", "c", "a.", "B", "the", "cat", "Cat", "sat", ",", "on", "mat", "€", "é", "x-y", "..."]
sentence = st.lists(st.sampled_from(WORDS), min_size=0, max_size=14).map(" ".join)
options = st.fixed_dictionaries({
    "tokenize": st.sampled_from(["13a", "none", "char", "intl"]),
    "lowercase": st.booleans(),
    "smooth_method": st.sampled_from(["exp", "floor", "add-k", "none"]),
    "effective_order": st.booleans(),
    "max_ngram_order": st.integers(1, 5),
})


@settings(max_examples=60, deadline=None)
@given(hyps=st.lists(sentence, min_size=1, max_size=8), refs=st.lists(sentence, min_size=1, max_size=8),
       opts=options, mode=st.sampled_from(["default", "all_dense", "all_sparse", "tiny_blocks"]))
def test_pairwise_equals_sacrebleu_on_random_text(hyps, refs, opts, mode):
    with pytest.MonkeyPatch.context() as mp:
        if mode == "all_dense":
            mp.setattr(pairwise, "DENSE_RATIO", 10**9)
        elif mode == "all_sparse":
            mp.setattr(pairwise, "DENSE_RATIO", 0)
        elif mode == "tiny_blocks":
            mp.setattr(pairwise, "DENSE_RATIO", 1)
            mp.setattr(pairwise, "DENSE_BLOCK_ELEMENTS", 1)
            mp.setattr(pairwise, "JOIN_PAIRS", 1)
            mp.setattr(pairwise, "PAIR_BLOCK", 3)
        got = _ours(hyps, refs, **opts)
        got_self = _ours(hyps, hyps, **opts)
    assert np.array_equal(got, _sacre_matrix(hyps, refs, **opts))
    assert np.array_equal(got_self, _sacre_matrix(hyps, hyps, **opts))


@settings(max_examples=30, deadline=None)
@given(n_hyp=st.integers(1, 6), words=st.lists(st.sampled_from(["a", "b", "a a", "b a b"]), min_size=1, max_size=6))
def test_repeated_ngrams_clip_like_sacrebleu(n_hyp, words):
    """Long runs of repeated tokens (high counts): the threshold decomposition of min(c_h, c_r)."""
    hyps = [" ".join(words * (i + 1)) for i in range(n_hyp)]
    refs = [" ".join(reversed(words * (i + 2))) for i in range(3)]
    for ratio in (0, 10**9):
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(pairwise, "DENSE_RATIO", ratio)
            got = _ours(hyps, refs, tokenize="none")
        assert np.array_equal(got, _sacre_matrix(hyps, refs, tokenize="none"))


@settings(max_examples=40, deadline=None)
@given(rows=st.lists(st.tuples(st.integers(0, 3000), st.integers(0, 3000), st.integers(0, 3000)), min_size=1, max_size=30),
       big=st.booleans())
def test_distinct_row_scoring_equals_direct_scoring(rows, big):
    """Scoring each distinct statistics row once (packed int64 keys, or raw bytes when too wide)."""
    stats = []
    for hl, rl, m in rows:
        hl = hl * (10**6 if big else 1)
        m = min(m, hl)
        stats.append([hl, rl, m, m // 2, m // 3, m // 4] + [max(hl - n + 1, 0) for n in range(1, 5)])
    stats = np.array(stats + stats[:3], dtype=np.int64)
    cfg = ScoringConfig()
    assert np.array_equal(pairwise._score_distinct_rows(stats, cfg, "auto"), compute_scores(stats, cfg).score)


def test_pairwise_statistics_match_segment_statistics():
    bleu = BLEU()
    hyps = ["the cat sat on the mat .", "a b c", ""]
    refs = ["the cat is on the mat", "", "a b c d"]
    stats = pairwise.pairwise_statistics(bleu, hyps, refs)
    assert stats.shape == (3, 3, 10)
    for h, hyp in enumerate(hyps):
        for r, ref in enumerate(refs):
            sb = sacrebleu.BLEU()
            s = sb.sentence_score(hyp, [ref])
            assert stats[h, r, 2:6].tolist() == s.counts
            assert stats[h, r, 6:].tolist() == s.totals
            assert stats[h, r, :2].tolist() == [s.sys_len, s.ref_len]


def test_pairwise_leaves_the_scorer_unchanged():
    bleu = BLEU(effective_order=True)
    before = dict(vars(bleu))
    bleu.pairwise(["a b"], ["a b", "b"])
    assert vars(bleu) == before  # a scorer is its settings: scoring keeps no call history
    assert bleu.signature(1).startswith("nrefs:1|case:mixed|eff:yes|tok:13a|smooth:exp")


@pytest.mark.parametrize("hyps,refs,exc,word", [
    ("a b", ["a"], TypeError, "hypotheses"),
    (["a"], "a", TypeError, "references"),
    ([], ["a"], ValueError, "hypotheses"),
    (["a"], [], ValueError, "references"),
    (["a", None], ["a"], TypeError, "hypotheses[1]"),
    (["a"], [["a"]], TypeError, "references[0]"),
])
def test_pairwise_bad_input(hyps, refs, exc, word):
    with pytest.raises(exc, match=word.replace("[", r"\[").replace("]", r"\]")):
        BLEU().pairwise(hyps, refs)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("testset,pair", [
    ("generaltest2022", "en-de"), ("generaltest2022", "de-en"), ("generaltest2022", "cs-en"),
    ("generaltest2022", "en-zh"), ("generaltest2022", "zh-en"), ("generaltest2022", "en-ja"),
    ("newstest2021", "en-de"), ("newstest2021", "en-ru"), ("wmttest2024", "en-ja"),
])
@pytest.mark.parametrize("options", [{}, {"effective_order": True, "lowercase": True}, {"tokenize": "char"}],
                         ids=["default", "eff-lc", "char"])
def test_pairwise_full_sweep(testset, pair, options):
    """Every pair with a system: the first system's first 80 outputs against the first 80 lines of its first
    reference."""
    systems = sorted((DATA / testset / pair / "sys").glob("*.txt"))
    first_ref = sorted((DATA / testset / pair).glob("ref.*.txt"))[0]
    hyps = list(_lines(testset, pair, "sys", systems[0].name)[:80])
    refs = list(_lines(testset, pair, first_ref.name)[:80])
    if "zh" in pair[-2:] and "tokenize" not in options:
        options = {**options, "tokenize": "zh"}
    assert np.array_equal(_ours(hyps, refs, **options), _sacre_matrix(hyps, refs, **options))


def test_pairwise_accepts_iterables_and_numpy_string_arrays():
    hyps = ["the cat sat on the mat", "a dog"]
    refs = ["the cat sat on a mat", "a dog barks"]
    want = _sacre_matrix(hyps, refs)
    assert np.array_equal(BLEU().pairwise(iter(hyps), (r for r in refs)), want)
    assert np.array_equal(BLEU().pairwise(np.array(hyps), tuple(refs)), want)
    assert pairwise.pairwise_statistics(BLEU(), iter(hyps), refs).shape == (2, 2, 10)


@settings(max_examples=25, deadline=None)
@given(hyps=st.lists(sentence, min_size=1, max_size=5), refs=st.lists(sentence, min_size=1, max_size=5),
       method=st.integers(1, 7), eff=st.booleans(), order=st.integers(1, 4))
def test_pairwise_chen_cherry_equals_sentence_score_loop(hyps, refs, method, eff, order):
    """Smoothing methods beyond sacreBLEU (5 and 7 count one more order): the sentence_score loop is the reference."""
    bleu = BLEU(smooth_method=f"chen-cherry-{method}", effective_order=eff, max_ngram_order=order)
    want = np.array([[bleu.sentence_score(h, [r]).score for r in refs] for h in hyps])
    assert np.array_equal(bleu.pairwise(hyps, refs), want, equal_nan=True)


# ---------------------------------------------------------------------------------------------------------
# the compiled core (IdCounter.pairwise_rows, BleuScorer.pairwise_scores) against the numpy engine: the
# same statistics and bit-identical scores, for distinct references and for the self matrix (MBR)
# ---------------------------------------------------------------------------------------------------------
core = native.compiled_core()

CORE_WORDS = ["a", "b", "c", "the", "cat", ".", "A", "é", "x,y"]

lines = st.lists(st.sampled_from(CORE_WORDS), max_size=12).map(" ".join)

OPTIONS = [
    {"effective_order": True},
    {"smooth_method": "floor", "smooth_value": 0.2},
    {"smooth_method": "add-k", "smooth_value": 1},
    {"smooth_method": "none"},
    {"max_ngram_order": 2},
    {"smooth_method": "chen-cherry-5"},  # statistics on the core, scores in numpy
    {"weights": (0.5, 0.3, 0.2, 0.0)},
]


@requires_core
@settings(max_examples=60, deadline=None)
@given(
    st.lists(lines, min_size=1, max_size=8),
    st.lists(lines, min_size=1, max_size=8),
    st.sampled_from(OPTIONS),
    st.booleans(),
)
def test_native_pairwise_equals_numpy(hyps, refs, options, self_matrix):
    if self_matrix:
        refs = hyps
    native, reference = BLEU(**options), BLEU(engine="numpy", **options)
    ours, theirs = native.pairwise(hyps, refs), reference.pairwise(hyps, refs)
    assert ours.dtype == theirs.dtype and ours.tobytes() == theirs.tobytes()
    np.testing.assert_array_equal(pairwise_statistics(native, hyps, refs), pairwise_statistics(reference, hyps, refs))


def test_pairwise_on_wmt_like_text_matches_sentence_scores(engine):
    hyps = ["The cat sat on the mat .", "A dog barked loudly at night", "", "the the the cat"]
    refs = ["The cat is on the mat .", "a dog barked", "night falls", "cat"]
    bleu = BLEU(effective_order=True, engine=engine)
    matrix = bleu.pairwise(hyps, refs)
    for h, hyp in enumerate(hyps):
        for r, ref in enumerate(refs):
            assert matrix[h, r] == bleu.sentence_score(hyp, [ref]).score


@requires_core
def test_thread_count_does_not_change_the_scores():
    rng = np.random.default_rng(1)
    ids = rng.integers(0, 30, 3000).astype(np.uint64)
    lens = np.full(100, 30, dtype=np.int64)
    one = core.BleuScorer(4, "exp", 0.0, True, threads=1).pairwise_scores(ids, lens)
    for threads in (2, 5):
        scores = core.BleuScorer(4, "exp", 0.0, True, threads=threads).pairwise_scores(ids, lens)
        assert scores.tobytes() == one.tobytes()
        rows = core.IdCounter(4, threads=threads).pairwise_rows(ids, lens)
        assert rows.tobytes() == core.IdCounter(4, threads=1).pairwise_rows(ids, lens).tobytes()
    with pytest.raises(ValueError, match="add up"):
        core.IdCounter(4).pairwise_rows(ids, lens[:-1])
