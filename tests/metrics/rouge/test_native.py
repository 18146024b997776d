"""The compiled ROUGE counts and Porter stemmer equal the Python reference (:mod:`bleuscope.metrics.rouge`)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.core import native
from bleuscope.core.native import rouge as native_rouge
from bleuscope.metrics.rouge import ROUGE, porter
from bleuscope.metrics.rouge.tokenize import TOKENIZERS

from ..rouge_data import ALL_TYPES, CORNER_CASES
from .test_porter import generated_words

pytestmark = pytest.mark.skipif(native.compiled_core() is None, reason="compiled core not built")

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


# the compiled tokenizer classifies 64 bytes at a time and keys tokens of up to 16 bytes: runs of letters
# around 16 and 64 bytes long, the two characters whose lowercase is ASCII (U+212A, U+0130) and other lead
# bytes of theirs (U+010D, U+2014) at every offset
RUN_TEXT = st.lists(
    st.sampled_from(["a", "B", "7", "q", "\u212a", "\u0130", "\u010d", "\u2014", " ", "\n", "abcdefghijklmno",
                     "RUNNING", "Generalizations", "x" * 17, ".,", "Q" * 63, "w" * 64]),
    max_size=60,
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
    bad = [(w, native_rouge.porter_stem(w), porter.stem(w)) for w in words if native_rouge.porter_stem(w) != porter.stem(w)]
    assert not bad[:20]


def best_both(hyps, streams, **options):
    """Each segment's best reference per type, chosen in the compiled core and by the reference."""
    present = np.array([[s[i] is not None for s in streams] for i in range(len(hyps))])
    native = ROUGE(TYPES, engine="native", **options).chunk_values(hyps, streams, present)
    python = ROUGE(TYPES, engine="numpy", **options).chunk_values(hyps, streams, present)
    return native, python


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(TEXT, TEXT, st.one_of(st.none(), TEXT), st.booleans()), min_size=1, max_size=6),
       st.booleans(), st.sampled_from(TOKENIZERS))
def test_best_reference_values_equal_the_reference(rows, stem, tokenizer):
    # three streams: a reference, a copy of it where the flag says so (ties: the first wins) or the next
    # row's, and one with missing references
    hyps = [r[0] for r in rows]
    first = [r[1] for r in rows]
    second = [r[1] if r[3] else rows[(i + 1) % len(rows)][1] for i, r in enumerate(rows)]
    (counts, values), (ref_counts, ref_values) = best_both(hyps, [first, second, [r[2] for r in rows]],
                                                          use_stemmer=stem, tokenizer=tokenizer)
    assert counts.dtype == np.int64 and values.dtype == np.float64
    assert np.array_equal(counts, ref_counts)
    assert np.array_equal(values.view(np.int64), ref_values.view(np.int64))  # bit for bit


def test_best_reference_of_corner_cases_and_references_per_segment():
    hyps = [h for h, _ in CORNER_CASES]
    refs = [r for _, r in CORNER_CASES]
    missing = [None if i % 2 else r for i, r in enumerate(refs[::-1])]
    for stem in (False, True):
        (counts, values), (ref_counts, ref_values) = best_both(hyps, [missing, refs, hyps], use_stemmer=stem)
        assert np.array_equal(counts, ref_counts)
        assert np.array_equal(values.view(np.int64), ref_values.view(np.int64))
    _, _, nrefs = native_rouge.rouge_counter(("rouge1",), stem=False, pretokenized=False, threads=None).best(
        hyps, [missing, refs])
    assert nrefs.tolist() == [1 + (r is not None) for r in missing]
    # equal F from different counts (P 1/2, R 1 and P 1, R 1/2): the first reference wins, as in score_multi
    short, long = "a b", "a b c d e f x y"
    for streams, first in (([[short], [long]], [2, 4, 2]), ([[long], [short]], [4, 4, 8])):
        (counts, values), (ref_counts, _) = best_both(["a b c d"], streams)
        assert counts[0, 0].tolist() == first == ref_counts[0, 0].tolist()
        assert values[0, 0, 2] == 2 / 3


def test_sentence_scores_name_a_bad_item_as_the_checks_do():
    rouge = ROUGE(("rouge1", "rougeL"))
    with pytest.raises(TypeError, match=r"^hypotheses\[1\] must be a string, got int$"):
        rouge.sentence_scores(["a", 3], [["a", "b"]])
    with pytest.raises(TypeError, match=r"^hypotheses\[0\] must be a string, got None$"):
        rouge.sentence_scores([None, "b"], [["a", "b"]])
    with pytest.raises(TypeError, match=r"^references\[1\]\[0\] must be a string, got bytes$"):
        rouge.sentence_scores(["a", "b"], [["a", "b"], [b"a", "b"]])
    with pytest.raises(ValueError, match="^segment 1 has no reference"):
        rouge.sentence_scores(["a", "b"], [["a", None], ["a", None]])
    with pytest.raises(ValueError, match="hypotheses is empty"):
        rouge.sentence_scores([], [[]])
    with pytest.raises(ValueError, match=r"references\[0\] has 1 lines but hypotheses has 2"):
        rouge.sentence_scores(["a", "b"], [["a"]])
    # iterators are read once, and score as the lists do (also when an item is then found bad)
    lists = rouge.sentence_scores(["a b", "c"], [["a", "c d"], [None, "c"]])
    iterated = rouge.sentence_scores(iter(["a b", "c"]), iter([iter(["a", "c d"]), (x for x in [None, "c"])]))
    assert np.array_equal(lists.prf, iterated.prf) and lists.signature == iterated.signature
    with pytest.raises(TypeError, match=r"^hypotheses\[1\] must be a string, got float$"):
        rouge.sentence_scores(iter(["a", 1.5]), iter([iter(["a", "b"])]))


def test_best_reference_across_the_cores_blocks_of_segments():
    # more segments than the core holds as text at a time (2**17): every block, and the references per
    # segment, as the counts of every pair give them
    rng = np.random.default_rng(9)
    vocab = np.array(["a", "b", "c", "d", "e", "\n"])
    n = (1 << 17) + 3000
    texts = [" ".join(rng.choice(vocab, size=k)) for k in rng.integers(0, 6, size=2 * n)]
    hyps, refs = texts[:n], texts[n:]
    missing = [None if i % 3 else r for i, r in enumerate(refs[::-1])]
    rouge = ROUGE(("rouge1", "rougeL"), engine="native", threads=2)
    present = np.array([[True, m is not None] for m in missing])
    counts, values = rouge.chunk_values(hyps, [refs, missing], present)
    every = rouge.pair_counts(hyps, [refs, missing], present)
    want_counts, want_values = rouge.best_counts(every, present)
    assert np.array_equal(counts, want_counts)
    assert np.array_equal(values.view(np.int64), want_values.view(np.int64))
    _, _, nrefs = native_rouge.rouge_counter(("rouge1",), stem=False, pretokenized=False, threads=None).best(
        hyps, [refs, missing])
    assert np.array_equal(nrefs, present.sum(axis=1))


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(RUN_TEXT, TEXT), min_size=1, max_size=5), st.booleans(),
       st.sampled_from([("rouge1",), ("rouge1", "rougeLsum"), ("rougeL", "rouge1")]))
def test_rouge1_alone_and_with_others(rows, stem, types):
    # rouge1 alone keeps no token ids in the core (it tallies while reading)
    hyps = [r[0] for r in rows]
    streams = [[r[1] for r in rows], hyps[::-1]]
    present = np.ones((len(hyps), 2), dtype=bool)
    native = ROUGE(types, engine="native", use_stemmer=stem).pair_counts(hyps, streams, present)
    python = ROUGE(types, engine="numpy", use_stemmer=stem).python_pair_counts(hyps, streams, present)
    assert np.array_equal(native, python)
