"""The compiled ROUGE counts and Porter stemmer equal the Python reference (:mod:`bleuscope.metrics.rouge`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.core import backend
from bleuscope.metrics.rouge import ROUGE, porter
from bleuscope.metrics.rouge.tokenize import TOKENIZERS

from .rouge_data import ALL_TYPES, CORNER_CASES
from .test_rouge_porter import generated_words

pytestmark = pytest.mark.skipif(backend.compiled_core() is None, reason="compiled core not built")

TYPES = ALL_TYPES + ("rouge9",)


def both(hyps, streams, **options):
    present = np.array([[s[i] is not None for s in streams] for i in range(len(hyps))])
    native = ROUGE(TYPES, engine="native", **options).pair_counts(hyps, streams, present)
    python = ROUGE(TYPES, engine="numpy", **options).python_pair_counts(hyps, streams, present)
    return native, python


@pytest.mark.parametrize("tokenizer", TOKENIZERS)
@pytest.mark.parametrize("stem", [False, True])
def test_corner_cases(tokenizer, stem):
    hyps = [h for h, _ in CORNER_CASES]
    refs = [r for _, r in CORNER_CASES]
    native, python = both(hyps, [refs, hyps[::-1], [None] * len(hyps)], use_stemmer=stem, tokenizer=tokenizer)
    assert np.array_equal(native, python)


TEXT = st.text(alphabet=st.sampled_from(list("abAB cd\n\n.,-'01") + ["\u212a", "\u0130", "日", "本", "é", "\u0301"]),
               max_size=120)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT, st.text(max_size=40)), min_size=1, max_size=5), st.booleans(),
       st.sampled_from(TOKENIZERS))
def test_generated(rows, stem, tokenizer):
    hyps = [r[0] for r in rows]
    streams = [[r[1] for r in rows], [r[2] for r in rows]]
    native, python = both(hyps, streams, use_stemmer=stem, tokenizer=tokenizer)
    assert np.array_equal(native, python)


# the compiled tokenizer reads 16 bytes at a time: runs of letters around 16 bytes long, the two characters
# whose lowercase is ASCII (U+212A, U+0130) and other lead bytes of theirs (U+010D, U+2014) at every offset
RUN_TEXT = st.lists(
    st.sampled_from(["a", "B", "7", "q", "\u212a", "\u0130", "\u010d", "\u2014", " ", "\n", "abcdefghijklmno",
                     "RUNNING", "Generalizations", "x" * 17, ".,"]),
    max_size=40,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(RUN_TEXT, RUN_TEXT), min_size=1, max_size=4), st.booleans())
def test_generated_runs_and_boundaries(rows, stem):
    hyps = [r[0] for r in rows]
    native, python = both(hyps, [[r[1] for r in rows], hyps[::-1]], use_stemmer=stem)
    assert np.array_equal(native, python)


def test_threads_do_not_change_counts():
    rng = np.random.default_rng(3)
    vocab = np.array([f"w{i}" for i in range(30)] + ["running", "generalizations", "\n"])
    hyps = [" ".join(rng.choice(vocab, size=rng.integers(0, 40))) for _ in range(3000)]
    refs = [" ".join(rng.choice(vocab, size=rng.integers(0, 40))) for _ in range(3000)]
    present = np.ones((3000, 1), dtype=bool)
    one = ROUGE(TYPES, use_stemmer=True, engine="native", threads=1).pair_counts(hyps, [refs], present)
    two = ROUGE(TYPES, use_stemmer=True, engine="native", threads=2).pair_counts(hyps, [refs], present)
    assert np.array_equal(one, two)
    assert np.array_equal(one[:200], ROUGE(TYPES, use_stemmer=True, engine="numpy").python_pair_counts(
        hyps[:200], [refs[:200]], present[:200]))


def test_long_lines_and_long_documents():
    rng = np.random.default_rng(5)
    vocab = np.array([f"t{i}" for i in range(40)])
    hyp = " ".join(rng.choice(vocab, size=3000))
    ref = " ".join(rng.choice(vocab, size=2500))
    native, python = both([hyp, hyp.replace(" t1 ", "\n")], [[ref, ref.replace(" t2 ", "\n")]])
    assert np.array_equal(native, python)


def test_compiled_porter_equals_reference():
    words = generated_words(60_000, seed=3) + list(porter.IRREGULAR)
    bad = [(w, backend.porter_stem(w), porter.stem(w)) for w in words if backend.porter_stem(w) != porter.stem(w)]
    assert not bad[:20]
