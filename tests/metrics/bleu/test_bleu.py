"""Core API: sacreBLEU 2.6.0's documented values and edge cases, computed live with sacreBLEU, strict input, the
limits of the n-gram order, the functional shortcuts' defaults, where the tokenized-input warning points, and
compressed paths read as the command reads them."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import bleuscope
from bleuscope import BLEU, TokenizedInputWarning, corpus_bleu, sentence_bleu
from bleuscope.metrics.bleu.scorer import MAX_NGRAM_ORDER
from bleuscope.runtime.streaming import BLEUAccumulator

from ...conftest import pair_dir, read_lines, requires_core, requires_wmt

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


# -- the n-gram order: every order the counters take is scored (the compiled scorer's own limit is lower: the
# numpy code scores beyond it), with sacreBLEU's numbers; an order beyond the counters' is refused when the
# metric is made, naming the argument
ORDER_HYPS = ["the cat sat on the mat and looked at the dog " * 8, "a b c d e f g h i j k l m n o p q r s t u v w x y z " * 4]
ORDER_REFS = [["the cat sat on the mat and looked at a dog " * 8, "a b c d e f g h i j k l m n o p q r s t u v w x y z " * 4]]


@requires_core
@pytest.mark.parametrize("order", [64, 65, 100])
@pytest.mark.parametrize("method", ["exp", "floor", "add-k", "none"])
def test_orders_beyond_the_compiled_scorer_are_scored_as_sacrebleu(order, method):
    ours = BLEU(max_ngram_order=order, smooth_method=method).corpus_score(ORDER_HYPS, ORDER_REFS)
    peer = sacrebleu.BLEU(max_ngram_order=order, smooth_method=method).corpus_score(ORDER_HYPS, ORDER_REFS)
    assert ours.score == peer.score
    if method != "add-k":  # sacreBLEU returns add-k's counts with k added (docs/compatibility.md)
        assert (ours.counts, ours.totals) == (list(peer.counts), list(peer.totals))
    for effective in (False, True):
        ours = BLEU(max_ngram_order=order, smooth_method=method, effective_order=effective)
        peer = sacrebleu.BLEU(max_ngram_order=order, smooth_method=method, effective_order=effective)
        hyp, ref = ORDER_HYPS[0], ORDER_REFS[0][0]
        assert ours.sentence_score(hyp, [ref]).score == peer.sentence_score(hyp, [ref]).score


@pytest.mark.parametrize("order", [MAX_NGRAM_ORDER + 1, 10**9, 2**70])
def test_an_order_beyond_the_counters_is_refused_when_made(order):
    with pytest.raises(ValueError) as e:
        BLEU(max_ngram_order=order)
    assert str(e.value) == f"max_ngram_order must be at most {MAX_NGRAM_ORDER:,}, got {order}"


def test_the_order_chen_cherry_5_counts_beyond_is_refused_too():
    BLEU(max_ngram_order=MAX_NGRAM_ORDER - 1, smooth_method="chen-cherry-5")
    with pytest.raises(ValueError, match=f"max_ngram_order must be at most {MAX_NGRAM_ORDER - 1:,} with "
                                         "smooth_method='chen-cherry-5'"):
        BLEU(max_ngram_order=MAX_NGRAM_ORDER, smooth_method="chen-cherry-5")


def test_the_command_and_the_library_share_the_limit():
    from bleuscope.cli.main import MAX_NGRAM_ORDER as COMMAND_LIMIT

    assert COMMAND_LIMIT == MAX_NGRAM_ORDER


# -- functional shortcuts: sacreBLEU's arguments and defaults ------------------------------------------------
@pytest.mark.parametrize("name", ["corpus_bleu", "sentence_bleu", "raw_corpus_bleu"])
def test_shortcut_defaults_are_sacrebleus(name):
    ours = inspect.signature(getattr(bleuscope, name)).parameters
    theirs = inspect.signature(getattr(sacrebleu, name)).parameters
    for param in theirs.values():
        assert param.name in ours, f"{name} lacks sacreBLEU's argument {param.name}"
        assert ours[param.name].default == param.default, (name, param.name)
    assert list(ours)[: len(theirs)] == list(theirs)  # same positional order


def test_sentence_bleu_uses_effective_order_by_default():
    assert (
        bleuscope.sentence_bleu("the cat", ["the cat"]).score == sacrebleu.sentence_bleu("the cat", ["the cat"]).score
    )
    assert bleuscope.sentence_bleu("the cat", ["the cat"]).score == pytest.approx(100.0)
    off = bleuscope.sentence_bleu("the cat", ["the cat"], use_effective_order=False)
    assert off.score == sacrebleu.sentence_bleu("the cat", ["the cat"], use_effective_order=False).score == 0.0


@requires_wmt
def test_sentence_bleu_equals_sacrebleu_on_all_wmt22_en_de_segments():
    d = pair_dir("generaltest2022", "en-de")
    hyps = read_lines(d / "sys" / "Online-B.txt")
    refs = read_lines(d / "ref.A.txt")
    assert len(hyps) == len(refs) == 2037
    ours = [bleuscope.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
    theirs = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
    assert ours == theirs


@requires_wmt
def test_corpus_and_raw_corpus_bleu_equal_sacrebleu():
    d = pair_dir("generaltest2022", "en-de")
    hyps = read_lines(d / "sys" / "Online-B.txt")[:300]
    refs = [read_lines(d / "ref.A.txt")[:300]]
    assert bleuscope.corpus_bleu(hyps, refs).score == sacrebleu.corpus_bleu(hyps, refs).score
    assert bleuscope.raw_corpus_bleu(hyps, refs).score == sacrebleu.raw_corpus_bleu(hyps, refs).score
    assert (
        bleuscope.corpus_bleu(hyps, refs, "floor", 0.2, False, True, "intl", True).score
        == sacrebleu.corpus_bleu(hyps, refs, "floor", 0.2, False, True, "intl", True).score
    )


# -- the tokenized-input warning points at the caller ------------------------------------------------------
TOKENIZED = [f"sentence number {i} ." for i in range(120)]


def _warning_of(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    found = [w for w in caught if issubclass(w.category, TokenizedInputWarning)]
    assert len(found) == 1, [str(w.message) for w in caught]
    return found[0]


@pytest.mark.parametrize(
    "entry",
    [
        "corpus_score",
        "sentence_scores",
        "segment_statistics",
        "corpus_score_iterator",
        "corpus_bleu",
        "accumulator",
    ],
)
def test_tokenized_input_warning_points_at_the_callers_line(entry):
    refs = [list(TOKENIZED)]
    bleu = BLEU()
    calls = {
        "corpus_score": lambda: bleu.corpus_score(TOKENIZED, refs),
        "sentence_scores": lambda: bleu.sentence_scores(TOKENIZED, refs),
        "segment_statistics": lambda: bleu.segment_statistics(TOKENIZED, refs),
        "corpus_score_iterator": lambda: bleu.corpus_score(iter(TOKENIZED), [iter(refs[0])]),
        "corpus_bleu": lambda: bleuscope.corpus_bleu(TOKENIZED, refs),
        "accumulator": lambda: BLEUAccumulator().update(TOKENIZED, refs),
    }
    w = _warning_of(calls[entry])
    assert w.filename == __file__


# -- compressed paths in the API, as in the command line ---------------------------------------------------
@pytest.mark.parametrize("suffix,opener", [(".gz", "gzip"), (".xz", "lzma"), (".bz2", "bz2")])
def test_corpus_score_reads_compressed_paths(tmp_path, suffix, opener):
    import importlib
    from pathlib import Path

    module = importlib.import_module(opener)
    hyps = ["the cat sat on the mat", "a dog \r barked", "ünïcode line"]
    refs = ["the cat sat on a mat", "the dog barked", "ünïcode lines"]
    paths = []
    for name, lines in (("hyp", hyps), ("ref", refs)):
        path = tmp_path / f"{name}.txt{suffix}"
        with module.open(path, "wb") as f:
            f.write(("\n".join(lines) + "\n").encode("utf-8"))
        paths.append(Path(path))
    got = BLEU().corpus_score(paths[0], [paths[1]])
    assert got == BLEU().corpus_score(hyps, [refs])
    assert got.score == sacrebleu.corpus_bleu(hyps, [refs]).score
