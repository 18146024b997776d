"""Core API: sacreBLEU 2.6.0's documented values and edge cases, computed live with sacreBLEU, and strict input."""

from __future__ import annotations

import numpy as np
import pytest

import bleuscope
from bleuscope import BLEU, corpus_bleu, sentence_bleu

sacrebleu = pytest.importorskip("sacrebleu")

HYPS = ["The dog bit the man.", "It wasn't surprising.", "The man had just bitten him."]
REFS = [
    ["The dog bit the man.", "It was not unexpected.", "The man bit him first."],
    ["The dog had bit the man.", "No one was surprised.", "The man had bitten the dog."],
]


def same(ours, theirs):
    assert ours.score == theirs.score
    assert ours.counts == list(theirs.counts)
    assert ours.totals == list(theirs.totals)
    assert ours.precisions == list(theirs.precisions)
    assert ours.bp == theirs.bp
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)


def test_readme_example_text_and_values():
    bleu = BLEU()
    s = bleu.corpus_score(HYPS, REFS)
    same(s, sacrebleu.BLEU().corpus_score(HYPS, REFS))
    assert str(s) == "BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ratio = 0.944 hyp_len = 17 ref_len = 18)"
    assert str(s) == str(sacrebleu.BLEU().corpus_score(HYPS, REFS))
    assert s.signature == f"nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:bleuscope-{bleuscope.__version__}"
    assert bleu.signature(2) == s.signature  # the scorer is its settings: no state from the call above
    assert bleu.signature(2, short=True).startswith("#:2|c:mixed|e:no|tok:13a|s:exp|v:bleuscope-")


@pytest.mark.parametrize(
    "options",
    [
        {"tokenize": "none"}, {"tokenize": "intl"}, {"tokenize": "char"}, {"tokenize": "zh"},
        {"smooth_method": "none"}, {"smooth_method": "floor"}, {"smooth_method": "floor", "smooth_value": 0.5},
        {"smooth_method": "add-k"}, {"smooth_method": "add-k", "smooth_value": 2}, {"lowercase": True},
        {"effective_order": True},
    ]
    + [{"max_ngram_order": k} for k in range(1, 7)],
)
def test_corpus_options_match_sacrebleu(options):
    ours = BLEU(**options).corpus_score(HYPS, REFS)
    theirs = sacrebleu.BLEU(**options).corpus_score(HYPS, REFS)
    assert ours.score == theirs.score
    assert ours.ref_len == theirs.ref_len and ours.sys_len == theirs.sys_len
    if options.get("smooth_method") != "add-k":  # sacreBLEU returns counts with k added (see README)
        assert ours.counts == theirs.counts and ours.totals == theirs.totals


def test_add_k_reports_raw_counts_and_does_not_mutate():
    ours = BLEU(smooth_method="add-k").corpus_score(HYPS, REFS)
    theirs = sacrebleu.BLEU(smooth_method="add-k").corpus_score(HYPS, REFS)
    assert ours.counts[0] == theirs.counts[0]
    assert [c + 1 for c in ours.counts[1:]] == theirs.counts[1:]
    assert ours.precisions == theirs.precisions


def test_sentence_scores_equal_sacrebleu_loop_readme():
    ours = BLEU(effective_order=True).sentence_scores(HYPS, REFS)
    sb = sacrebleu.BLEU(effective_order=True)
    expected = [sb.sentence_score(h, [r[i] for r in REFS]).score for i, h in enumerate(HYPS)]
    assert ours.tolist() == expected
    assert len(ours) == 3 and ours[0].score == expected[0]
    assert [s.score for s in ours] == expected


def test_none_vs_empty_reference():
    refs_none = [[None] + REFS[0][1:], REFS[1]]
    refs_empty = [[""] + REFS[0][1:], REFS[1]]
    a = BLEU().corpus_score(HYPS, refs_none)
    b = BLEU().corpus_score(HYPS, refs_empty)
    same(a, sacrebleu.BLEU().corpus_score(HYPS, refs_none))
    same(b, sacrebleu.BLEU().corpus_score(HYPS, refs_empty))
    assert "nrefs:var" in a.signature and "nrefs:2" in b.signature


@pytest.mark.parametrize(
    "hyps,refs,options",
    [
        (["a b"], [[""], ["a b c d e"]], {"tokenize": "none", "effective_order": True}),
        (["a b"], [[None], ["a b c d e"]], {"tokenize": "none", "effective_order": True}),
        (["", "", ""], REFS, {}),
        ([""], [[""]], {"effective_order": True}),
        (["a b c"], [[""]], {"effective_order": True}),
        (["this is a cat"], [["okay thanks"]], {"smooth_method": "floor"}),
        (["this is a cat"], [["okay thanks"]], {"smooth_method": "add-k"}),
        (["a b c"], [["a b c"]], {"effective_order": False}),
        (["a b"], [["a b"]], {"tokenize": "none", "smooth_method": "add-k"}),
        (["a"], [["a"]], {}),
        (["a b c"], [["a b c d"]], {"tokenize": "none", "effective_order": True}),
        (["x " * 12], [["y " * 13], ["z " * 11]], {}),
        (["the cat sat on"], [["the cat sat down on"]], {"tokenize": "none", "smooth_method": "floor"}),
    ],
)
def test_edge_cases_match_sacrebleu(hyps, refs, options):
    ours, theirs = BLEU(**options).corpus_score(hyps, refs), sacrebleu.BLEU(**options).corpus_score(hyps, refs)
    if options.get("smooth_method") == "add-k":  # sacreBLEU reports counts with k added; we keep raw counts
        assert (ours.score, ours.precisions, ours.bp) == (theirs.score, theirs.precisions, theirs.bp)
    else:
        same(ours, theirs)


def test_exact_match_scores_like_sacrebleu():
    s = sentence_bleu("a b c d", ["a b c d"])
    assert s.score == 100.00000000000004


def test_functional_shortcuts():
    assert corpus_bleu(HYPS, REFS, tokenize="intl").score == sacrebleu.corpus_bleu(HYPS, REFS, tokenize="intl").score
    assert sentence_bleu(HYPS[2], [REFS[0][2]], effective_order=True).score == sacrebleu.sentence_bleu(
        HYPS[2], [REFS[0][2]]
    ).score


def test_weights_and_order_in_signature():
    uniform = BLEU(weights=[0.25] * 4)
    assert uniform.corpus_score(HYPS, REFS).score == BLEU().corpus_score(HYPS, REFS).score
    skewed = BLEU(weights=[0.4, 0.3, 0.2, 0.1])
    s = skewed.corpus_score(HYPS, REFS)
    p = np.array(s.precisions)
    expected = s.bp * np.exp(np.sum(np.array([0.4, 0.3, 0.2, 0.1]) * np.log(p)))
    assert s.score == pytest.approx(expected, rel=1e-12)
    assert "|w:0.4,0.3,0.2,0.1|" in s.signature
    assert "|order:2|" in BLEU(max_ngram_order=2).corpus_score(HYPS, REFS).signature
    assert "order:" not in BLEU().corpus_score(HYPS, REFS).signature


def test_statistics_are_the_central_object():
    bleu = BLEU()
    seg = bleu.segment_statistics(HYPS, REFS)
    assert seg.stats.dtype == np.int64 and seg.stats.shape == (3, 10)
    assert bleu.score_from_statistics(seg.stats, nrefs=2).score == bleu.corpus_score(HYPS, REFS).score
    sub = bleu.score_from_statistics(seg.stats[[0, 2]], nrefs=2)
    assert sub.score == sacrebleu.BLEU().corpus_score([HYPS[0], HYPS[2]], [[r[0], r[2]] for r in REFS]).score


def test_inputs_are_not_mutated():
    hyps, refs = list(HYPS), [list(r) for r in REFS]
    BLEU(lowercase=True, smooth_method="add-k").corpus_score(hyps, refs)
    assert hyps == HYPS and refs == REFS


# ---- strict input --------------------------------------------------------------------------------------


def test_mismatched_lengths_name_stream_and_counts():
    with pytest.raises(ValueError, match=r"references\[1\] has 2 lines but hypotheses has 3 \(1 fewer\)"):
        BLEU().corpus_score(HYPS, [REFS[0], REFS[1][:2]])


def test_string_instead_of_list():
    with pytest.raises(TypeError, match="hypotheses must be a list of strings"):
        BLEU().corpus_score("a b c", [["a b c"]])
    with pytest.raises(TypeError, match="flat list of strings"):
        BLEU().corpus_score(["a b c"], ["a b c"])
    with pytest.raises(TypeError, match="single string"):
        BLEU().corpus_score(["a"], "a")
    with pytest.raises(TypeError, match="references must be a list"):
        BLEU().sentence_score("a b", "a b")


def test_per_segment_layout_is_detected():
    per_segment = [list(x) for x in zip(*REFS)] + [["x", "y"]]  # 4 segments x 2 refs
    with pytest.raises(ValueError, match="per-segment layout"):
        BLEU().corpus_score(HYPS + ["x"], per_segment)


def test_non_string_items_and_none_hypothesis():
    with pytest.raises(TypeError, match=r"hypotheses\[1\] must be a string, got int"):
        BLEU().corpus_score(["a", 3], [["a", "b"]])
    with pytest.raises(TypeError, match=r"hypotheses\[0\] must be a string, got None"):
        BLEU().corpus_score([None], [["a"]])
    with pytest.raises(TypeError, match=r"references\[0\]\[1\] must be a string"):
        BLEU().corpus_score(["a", "b"], [["a", 1.5]])


def test_empty_inputs_and_missing_references():
    with pytest.raises(ValueError, match="hypotheses is empty"):
        BLEU().corpus_score([], [[]])
    with pytest.raises(ValueError, match="references is empty"):
        BLEU().corpus_score(["a"], [])
    with pytest.raises(ValueError, match="segment 1 has no reference"):
        BLEU().corpus_score(["a", "b"], [["a", None]])


@pytest.mark.parametrize(
    "options,exc,msg",
    [
        ({"tokenize": "13b"}, ValueError, "unknown tokenizer '13b'"),
        ({"smooth_method": "laplace"}, ValueError, "unknown smooth_method"),
        ({"smooth_method": "exp", "smooth_value": 0.1}, ValueError, "not used by smooth_method='exp'"),
        ({"smooth_method": "floor", "smooth_value": -1}, ValueError, "smooth_value must be >= 0"),
        ({"max_ngram_order": 0}, ValueError, "max_ngram_order must be >= 1"),
        ({"max_ngram_order": 2.5}, TypeError, "max_ngram_order must be an integer"),
        ({"lowercase": "yes"}, TypeError, "lowercase must be True or False"),
        ({"weights": [0.5, 0.6]}, ValueError, "weights must sum to 1"),
        ({"weights": [0.5, 0.5], "max_ngram_order": 4}, ValueError, "does not match 2 weights"),
        ({"weights": "0.5"}, TypeError, "weights must be a sequence"),
    ],
)
def test_bad_options(options, exc, msg):
    with pytest.raises(exc, match=msg):
        BLEU(**options)


def test_options_are_keyword_only():
    with pytest.raises(TypeError):
        BLEU("13a")  # type: ignore[misc]


def test_signature_before_scoring():
    bleu = BLEU()
    with pytest.raises(ValueError, match="number of references is unknown"):
        bleu.signature()
    assert bleu.signature(nrefs=1).startswith("nrefs:1|case:mixed")


def test_tokenized_input_warning_like_sacrebleu():
    hyps = ["a tokenized line ."] * 100
    refs = [["a tokenized line ."] * 100]
    with pytest.warns(bleuscope.TokenizedInputWarning, match="tokenized period"):
        BLEU().corpus_score(hyps, refs)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        BLEU(force=True).corpus_score(hyps, refs)  # no warning
        BLEU().corpus_score(hyps[:99], [refs[0][:99]])  # 99 lines: below sacreBLEU's threshold
