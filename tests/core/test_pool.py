"""Multi-process statistics (n_jobs) give exactly the serial rows and scores."""

from __future__ import annotations

import multiprocessing

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core import pool as parallel
from bleuscope.core.pool import resolve_n_jobs, statistics_checked
from bleuscope.core.validation import check_reference_presence
from bleuscope.runtime.streaming import corpus_score_stream

from ..conftest import pair_dir, read_lines, requires_wmt


@pytest.fixture
def pool_calls(monkeypatch):
    """Make small inputs go to the pool, and count pool runs (the serial fallback would pass silently)."""
    monkeypatch.setattr(parallel, "MIN_CHUNK_SEGMENTS", 100)
    calls = []
    real = parallel.map_statistics

    def spy(*args, **kwargs):
        calls.append(args[2])
        yield from real(*args, **kwargs)

    monkeypatch.setattr(parallel, "map_statistics", spy)
    return calls


@requires_wmt
@pytest.mark.parametrize(
    "testset,pair,system,options",
    [
        ("generaltest2022", "en-de", "Online-W", {}),
        ("newstest2021", "en-ru", "NVIDIA-NeMo", {"tokenize": "intl", "lowercase": True}),
        ("generaltest2022", "en-zh", "LanguageX", {"tokenize": "zh", "smooth_method": "floor"}),
        ("generaltest2022", "en-ja", "Online-W", {"tokenize": "char", "effective_order": True}),
        ("generaltest2022", "cs-en", "Online-A", {"smooth_method": "chen-cherry-7"}),  # counts N+1 orders
    ],
)
def test_wmt_sentence_scores_parallel_equal_serial(pool_calls, testset, pair, system, options):
    d = pair_dir(testset, pair)
    hyps = read_lines(d / "sys" / f"{system}.txt")
    refs = [read_lines(p) for p in sorted(d.glob("ref.*.txt"))]
    bleu = BLEU(**options)
    serial = bleu.sentence_scores(hyps, refs)
    par = bleu.sentence_scores(hyps, refs, n_jobs=2)
    assert pool_calls == [2]
    assert np.array_equal(par.stats, serial.stats)
    assert np.array_equal(par.scores, serial.scores)  # bit-identical floats
    assert par.signature == serial.signature
    assert bleu.corpus_score(hyps, refs, n_jobs=2) == bleu.corpus_score(hyps, refs)


@requires_wmt
def test_wmt_parallel_matches_sacrebleu_sentence_loop(pool_calls):
    sacrebleu = pytest.importorskip("sacrebleu")
    d = pair_dir("generaltest2022", "de-en")
    hyps = read_lines(d / "sys" / "Online-G.txt")[:400]
    refs = [read_lines(d / "ref.A.txt")[:400]]
    ours = BLEU().sentence_scores(hyps, refs, n_jobs=2).scores
    sb = sacrebleu.metrics.BLEU()
    theirs = [sb.sentence_score(h, [r]).score for h, r in zip(hyps, refs[0])]
    assert pool_calls == [2]
    assert ours.tolist() == theirs


WORDS = ["the", "cat", "sat", "on", "mat", "a", ".", "Katze", "猫", "😀", "&quot;", "it's", "1,000"]
line = st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join) | st.text(max_size=15)


@settings(max_examples=8, deadline=None)
@given(st.integers(1, 60).flatmap(lambda n: st.tuples(
    st.lists(line, min_size=n, max_size=n),
    st.lists(st.lists(line, min_size=n, max_size=n), min_size=1, max_size=3),
)), st.sampled_from([1, 2, 5, 17]), st.sampled_from(["13a", "intl", "char"]))
def test_random_parallel_rows_equal_serial(corpus, chunk, tokenize):
    hyps, refs = corpus
    bleu = BLEU(tokenize=tokenize)
    present = check_reference_presence(refs)
    serial = bleu.segment_statistics(hyps, refs).stats
    par = statistics_checked(bleu, hyps, refs, present, 2, chunk_size=chunk)
    assert np.array_equal(par, serial)


def test_workers_rebuild_tokenizer_by_name_under_spawn():
    """With ``spawn`` nothing is inherited: the worker re-creates the tokenizer (and a custom registration)."""
    from bleuscope.tokenizers import register_tokenizer

    register_tokenizer("test-char-alias", "bleuscope.tokenizers.simple:TokenizerChar")
    hyps = ["ein Hund", "猫がいる", "", "a b c d e"] * 5
    refs = [["ein Hund!", "猫がいます", "x", "a b c d"] * 5]
    bleu = BLEU(tokenize="test-char-alias", lowercase=True)
    present = check_reference_presence(refs)
    par = statistics_checked(bleu, hyps, refs, present, 2, chunk_size=3,
                             mp_context=multiprocessing.get_context("spawn"))
    assert np.array_equal(par, BLEU(tokenize="char", lowercase=True).segment_statistics(hyps, refs).stats)


def test_streaming_with_workers_equals_serial():
    hyps = [f"w{i % 7} w{i % 5} w{i % 3} x" for i in range(300)]
    refs = [[f"w{i % 7} w{i % 5} x" for i in range(300)], [None if i % 4 else f"w{i % 3} x" for i in range(300)]]
    bleu = BLEU()
    expected = bleu.corpus_score(hyps, refs)
    got = corpus_score_stream(bleu, iter(hyps), [iter(r) for r in refs], chunk_size=16, n_jobs=2)
    assert got == expected
    # a length mismatch found while workers are busy is still the streaming error, not a pool failure
    with pytest.raises(ValueError, match=r"references\[0\] ended after line 250, but hypotheses"):
        corpus_score_stream(bleu, iter(hyps), [iter(refs[0][:250]), iter(refs[1])], chunk_size=16, n_jobs=2)


def test_small_inputs_stay_in_process(monkeypatch):
    monkeypatch.setattr(parallel, "map_statistics", None)  # would fail if called
    bleu = BLEU()
    assert bleu.sentence_scores(["a b"], [["a b"]], n_jobs=2).scores.tolist() == [
        bleu.sentence_score("a b", ["a b"]).score
    ]


def test_n_jobs_validation():
    assert resolve_n_jobs(None) == 1 and resolve_n_jobs(3) == 3 and resolve_n_jobs(-1) >= 1
    for bad, exc in ((0, ValueError), (-2, ValueError), ("2", TypeError), (True, TypeError), (1.5, TypeError)):
        with pytest.raises(exc, match="n_jobs"):
            BLEU().sentence_scores(["a"], [["a"]], n_jobs=bad)
