"""``BLEU.sentence_scores`` on lists in memory: the compiled core reads, checks and counts the input in one
pass (``_core.TextCounter.rows`` with ``facts=True``) and the rows are scored in the core. These tests compare that
path with the numpy engine (the reference), with the checked path's warnings and errors, and with a loop of
sacreBLEU's ``sentence_score``.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core.checks import TokenizedInputWarning

from ...conftest import requires_core
from ...core.test_native import NATIVE_TOKENIZERS, SACREBLEU_TOKENIZERS, _segments

pytestmark = [requires_core, pytest.mark.filterwarnings("ignore::bleuscope.CJKTokenizationWarning")]

SMOOTHING = [("exp", None), ("floor", 0.1), ("floor", 0.37), ("add-k", 1), ("add-k", 2), ("none", None)]


def _outcome(bleu: BLEU, hyps, refs):
    """The scores' arrays and signature, or the error's type and message."""
    try:
        with warnings.catch_warnings(record=True) as record:
            warnings.simplefilter("always")
            res = bleu.sentence_scores(hyps, refs)
    except (TypeError, ValueError) as e:
        return type(e), str(e)
    warned = [(w.category, str(w.message)) for w in record]
    return res.scores, res.stats, res.precisions, res.bp, res.signature, warned


def _assert_same(a, b):
    if isinstance(a[0], type):
        assert a == b
        return
    for x, y in zip(a[:4], b[:4]):
        assert x.dtype == y.dtype and x.shape == y.shape
        assert x.tobytes() == y.tobytes()  # bit for bit, nan and -0.0 included
    assert a[4:] == b[4:]


_OPTIONS = st.fixed_dictionaries(
    {
        "tokenize": st.sampled_from(NATIVE_TOKENIZERS),
        "lowercase": st.booleans(),
        "smoothing": st.sampled_from(SMOOTHING),
        "effective_order": st.booleans(),
        "max_ngram_order": st.integers(1, 5),
    }
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_segments(), _OPTIONS)
def test_native_sentence_scores_equal_numpy(segments, options):
    hyps, refs = segments
    hyps = [h + " ." if i % 3 else h for i, h in enumerate(hyps)]  # some tokenized-looking lines
    options["smooth_method"], options["smooth_value"] = options.pop("smoothing")
    native, numpy = (_outcome(BLEU(engine=e, **options), hyps, refs) for e in ("native", "numpy"))
    _assert_same(native, numpy)


def test_many_segments_several_blocks_and_python_lines():
    # more segments than one block of the core's reader, with lone surrogates (lines for the Python
    # tokenizer), missing references, and over 100 hypotheses ending in " ." (the tokenized-input warning)
    words = ["der", "Hund", "läuft", "schnell", ",", "die", "Katze", "schläft", ".", "2-3", "é"]
    n = 140_000

    def line(i: int, step: int) -> str:
        return " ".join(words[(i * step + j * j) % len(words)] for j in range(i % 9 + 1))

    hyps = [line(i, 3) + " ." for i in range(n)]
    hyps[77_777] = "lone \ud800 surrogate ."
    first = [line(i, 5) if i % 4 else None for i in range(n)]
    second = [line(i, 7) for i in range(n)]
    second[131_100] = "\udfff w2"
    for eff in (False, True):
        native, numpy = (
            _outcome(BLEU(engine=e, effective_order=eff), hyps, [first, second]) for e in ("native", "numpy")
        )
        _assert_same(native, numpy)
        assert "nrefs:var" in native[4]
        assert [c for c, _ in native[5]] == [TokenizedInputWarning]


def test_iterators_tuples_and_arrays_are_read_like_lists():
    hyps = ["the cat sat", "on the mat", "hello"]
    refs = [["the cat sat", "on a mat", "hello there"], ["a cat", None, "hello"]]
    expected = BLEU(engine="numpy").sentence_scores(hyps, refs)
    for h, r in [
        (iter(hyps), refs),
        (hyps, [iter(refs[0]), refs[1]]),
        (hyps, (s for s in refs)),
        (tuple(hyps), tuple(tuple(s) for s in refs)),
        (np.array(hyps), [np.array(refs[0]), refs[1]]),
    ]:
        got = BLEU(engine="native").sentence_scores(h, r)
        assert got.scores.tobytes() == expected.scores.tobytes()
        assert got.signature == expected.signature
        assert got.stats.tolist() == expected.stats.tolist()


def test_segment_objects_are_those_of_a_loop():
    hyps = ["the cat sat on the mat", "a dog ran", "x"]
    refs = [["the cat sat on a mat", "a big dog ran fast", "y"], ["the cat", None, "x"]]
    bleu = BLEU(effective_order=True)
    batch = bleu.sentence_scores(hyps, refs)
    for i, h in enumerate(hyps):
        one = bleu.sentence_score(h, [s[i] for s in refs if s[i] is not None])
        assert batch[i].score == one.score
        assert (batch[i].counts, batch[i].totals, batch[i].precisions) == (one.counts, one.totals, one.precisions)
        assert (batch[i].bp, batch[i].sys_len, batch[i].ref_len) == (one.bp, one.sys_len, one.ref_len)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_segments(max_refs=3), st.sampled_from(SACREBLEU_TOKENIZERS), st.booleans(), st.booleans())
def test_equal_to_a_sacrebleu_loop(segments, tokenize, lowercase, eff):
    sacrebleu = pytest.importorskip("sacrebleu")
    hyps, refs = segments
    refs = [[r if r is not None else "" for r in s] for s in refs]  # sacreBLEU has no missing references
    ours = BLEU(tokenize=tokenize, lowercase=lowercase, effective_order=eff).sentence_scores(hyps, refs).scores
    theirs = sacrebleu.BLEU(tokenize=tokenize, lowercase=lowercase, effective_order=eff)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loop = [theirs.sentence_score(h, [s[i] for s in refs]).score for i, h in enumerate(hyps)]
    assert ours.tolist() == loop  # the same floats: sacreBLEU's arithmetic and Python's sum() rule
