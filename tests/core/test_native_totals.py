"""The compiled core's corpus-total path (``_core.TextCounter.total``, used by ``BLEU.corpus_score``).

It sums rows block by block and checks the input while reading it (item types, hypotheses ending in " .",
references per segment), so these tests compare it with the per-row path, the numpy engine and sacreBLEU,
and check that the warnings and errors are the ones of the checked path.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core import backend
from bleuscope.core.checks import TokenizedInputWarning
from bleuscope.tokenizers import CJKTokenizationWarning

from .test_backend import NATIVE_TOKENIZERS, SACREBLEU_TOKENIZERS, _segments

_core = backend.compiled_core()
if _core is None:
    pytest.skip("the compiled core is not built in this installation", allow_module_level=True)
sacrebleu = pytest.importorskip("sacrebleu")

pytestmark = pytest.mark.filterwarnings("ignore::bleuscope.CJKTokenizationWarning")


def _python_facts(hyps, refs):
    n_refs = [sum(s[i] is not None for s in refs) for i in range(len(hyps))]
    counts = np.bincount(n_refs, minlength=len(refs) + 1)
    return counts.tolist(), sum(h.endswith(" .") for h in hyps)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_segments(), st.sampled_from(NATIVE_TOKENIZERS), st.booleans(), st.integers(1, 5))
def test_total_is_the_sum_of_the_rows(segments, tokenize, lowercase, order):
    hyps, refs = segments
    hyps = [h + " ." if i % 2 else h for i, h in enumerate(hyps)]
    counter = _counter(tokenize, lowercase, order, 1)
    rows = counter.rows(hyps, refs)
    total, nref_counts, periods = counter.total(hyps, refs)
    assert total.tolist() == rows.sum(axis=0).tolist()
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)
    same_rows, nref_counts, periods = counter.rows(hyps, refs, facts=True)
    assert same_rows.tolist() == rows.tolist()
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)


def _counter(tokenize, lowercase, order=4, threads=0, fallback=True):
    from bleuscope.tokenizers import get_tokenizer

    tok = get_tokenizer(tokenize)

    def python_tokens(lines):
        return tok.tokenize_batch([x.lower() for x in lines] if lowercase else lines)

    return _core.TextCounter(
        tokenize, lowercase=lowercase, order=order, threads=threads, fallback=python_tokens if fallback else None
    )


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_segments(max_refs=3), st.sampled_from(SACREBLEU_TOKENIZERS), st.booleans())
def test_corpus_score_native_equals_numpy_and_sacrebleu(segments, tokenize, lowercase):
    hyps, refs = segments
    refs = [[r if r is not None else "" for r in s] for s in refs]  # sacreBLEU has no missing references
    native = BLEU(tokenize=tokenize, lowercase=lowercase, engine="native").corpus_score(hyps, refs)
    numpy = BLEU(tokenize=tokenize, lowercase=lowercase, engine="numpy").corpus_score(hyps, refs)
    theirs = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase).corpus_score(hyps, refs)
    assert native.counts == numpy.counts == list(theirs.counts)
    assert native.totals == numpy.totals == list(theirs.totals)
    assert (native.sys_len, native.ref_len) == (numpy.sys_len, numpy.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert native.score == numpy.score
    assert native.score == pytest.approx(theirs.score, abs=1e-9)


def test_blocks_lone_surrogates_and_missing_references():
    # more segments than one block of the reader; Python-tokenizer lines (lone surrogates) in several blocks
    n = 40_000
    hyps = [f"w{i % 13} w{i % 7} é{i % 5} ." if i % 9999 else "x\ud800 w1 ." for i in range(n)]
    refs = [
        [f"w{i % 13} é{i % 5} w{i % 7} ." if i % 3 else None for i in range(n)],
        [f"w{i % 7} w{i % 13}" if i % 12345 else "\udfff w2" for i in range(n)],
    ]
    with pytest.warns(TokenizedInputWarning):
        native = BLEU(engine="native", threads=2).corpus_score(hyps, refs)
    with pytest.warns(TokenizedInputWarning):
        rows = BLEU(engine="native").segment_statistics(hyps, refs)
    assert native.counts + native.totals == rows.stats.sum(axis=0)[2:].tolist()
    scorer = BLEU(engine="native")
    with pytest.warns(TokenizedInputWarning):
        scored = scorer.corpus_score(hyps, refs)
    assert "nrefs:var" in scored.signature
    total, nref_counts, periods = _counter("13a", False, threads=2).total(hyps, refs)
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)


@pytest.mark.filterwarnings("ignore::bleuscope.core.checks.TokenizedInputWarning")
@pytest.mark.parametrize("block_segments", [1, 7, 1000, 0])
def test_block_size_does_not_change_rows_or_totals(block_segments):
    # blocks end after block_segments segments (0: the default); lines for the Python tokenizer and missing references land in different blocks
    n = 3000
    hyps = [f"w{i % 13} ž{i % 7} ." if i % 997 else "x\ud800 w1" for i in range(n)]
    refs = [[f"w{i % 7} ž{i % 13}" if i % 5 else None for i in range(n)], [f"w{i % 13} ." for i in range(n)]]
    counter = _counter("13a", True, threads=2)
    expected = BLEU(engine="numpy", lowercase=True).segment_statistics(hyps, refs).stats
    rows = counter.rows(hyps, refs, block_segments=block_segments)
    assert rows.tolist() == expected.tolist()
    total, nref_counts, periods = counter.total(hyps, refs, block_segments=block_segments)
    assert total.tolist() == expected.sum(axis=0).tolist()
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)
    rows, nref_counts, periods = counter.rows(hyps, refs, block_segments=block_segments, facts=True)
    assert rows.tolist() == expected.tolist()
    assert (nref_counts.tolist(), periods) == _python_facts(hyps, refs)


def test_long_non_ascii_lines():
    # lines of 3,000 non-ASCII characters, read in place as UTF-8
    line = " ".join(["žluťoučký kůň"] * 215)
    hyps = [line + f" {i}" for i in range(1500)]
    refs = [[line for _ in range(1500)]]
    rows = _counter("13a", False, threads=1, fallback=False).rows(hyps, refs)
    assert rows.tolist() == BLEU(engine="numpy").segment_statistics(hyps, refs).stats.tolist()


@pytest.mark.parametrize("method", ["corpus_score", "sentence_scores"])
@pytest.mark.parametrize("engine", ["native", "numpy"])
def test_warnings_come_from_both_paths_alike(engine, method):
    tokenized = ["a b ."] * 100 + ["c d"]
    refs = [["a b ."] * 101]
    with pytest.warns(TokenizedInputWarning) as record:
        getattr(BLEU(engine=engine), method)(tokenized, refs)
    assert record[0].filename == __file__  # attributed to the caller
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        getattr(BLEU(engine=engine), method)(tokenized[1:], [refs[0][1:]])  # 99: no warning
        getattr(BLEU(engine=engine, force=True), method)(tokenized, refs)
    with pytest.warns(CJKTokenizationWarning) as record:
        getattr(BLEU(engine=engine), method)(["東京は晴れです"], [["東京は雨です"]])
    assert record[0].filename == __file__


@pytest.mark.parametrize(
    "hyps,refs,error",
    [
        (["a", 3], [["a", "b"]], "hypotheses[1] must be a string, got int"),
        (["a", "b"], [["a", b"b"]], "references[0][1] must be a string, got bytes"),
        (["a", "b"], [["a", None], [None, None]], "segment 1 has no reference"),
        (["a", "b"], [["a"]], "references[0] has 1 lines but hypotheses has 2"),
        ([], [[]], "hypotheses is empty"),
    ],
)
def test_errors_are_those_of_the_checked_path(hyps, refs, error):
    for engine in ("native", "numpy"):
        with pytest.raises((TypeError, ValueError), match=error.replace("[", r"\[").replace("]", r"\]")):
            BLEU(engine=engine).corpus_score(hyps, refs)
        with pytest.raises((TypeError, ValueError), match=error.replace("[", r"\[").replace("]", r"\]")):
            BLEU(engine=engine).sentence_scores(hyps, refs)  # the rows' path reads the input alike


def test_non_list_inputs_are_read_like_lists():
    hyps = ("the cat sat", "on the mat")
    refs = (iter(["the cat sat", "on a mat"]),)
    a = BLEU(engine="native").corpus_score(hyps, refs)
    b = BLEU(engine="numpy").corpus_score(list(hyps), [["the cat sat", "on a mat"]])
    assert (a.counts, a.totals, a.score) == (b.counts, b.totals, b.score)
