"""``bleuscope.integrations.rouge_score`` against rouge-score 0.1.2: the same results, types and errors."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.rouge_score import rouge_scorer, scoring

from ..conftest import requires_wmt
from ..metrics.rouge_data import CORNER_CASES, summaries, wmt_segments

peer_scorer = pytest.importorskip("rouge_score.rouge_scorer")
peer_scoring = pytest.importorskip("rouge_score.scoring")

TYPES = ["rouge1", "rouge2", "rougeL", "rougeLsum"]


def same_result(got: dict, exp: dict) -> None:
    assert list(got) == list(exp)
    for k in exp:
        assert type(got[k]).__name__ == type(exp[k]).__name__ == "Score"
        assert tuple(got[k]) == tuple(exp[k])
        assert [type(x) for x in got[k]] == [type(x) for x in exp[k]], (k, got[k], exp[k])


@pytest.mark.parametrize("stem", [False, True])
def test_score_and_types(stem):
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    peer = peer_scorer.RougeScorer(TYPES, use_stemmer=stem)
    for hyp, ref in CORNER_CASES:
        same_result(ours.score(ref, hyp), peer.score(ref, hyp))
        same_result(ours.score(hyp, ref), peer.score(hyp, ref))


@requires_wmt
def test_score_multi_on_wmt():
    hyps, refs = wmt_segments("newstest2021", "en-de", limit=150)
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    peer = peer_scorer.RougeScorer(TYPES, use_stemmer=True)
    for i, hyp in enumerate(hyps):
        targets = [r[i] for r in refs]
        same_result(ours.score_multi(targets, hyp), peer.score_multi(targets, hyp))


@settings(max_examples=80, deadline=None)
@given(st.text(max_size=50), st.lists(st.text(max_size=50), min_size=1, max_size=3))
def test_generated_score_multi(hyp, targets):
    ours = rouge_scorer.RougeScorer(["rouge1", "rouge3", "rougeL", "rougeLsum"])
    peer = peer_scorer.RougeScorer(["rouge1", "rouge3", "rougeL", "rougeLsum"])
    same_result(ours.score_multi(targets, hyp), peer.score_multi(targets, hyp))


def test_documented_import_path_is_the_integration():
    import bleuscope
    import bleuscope.integrations.rouge_score as integration

    assert bleuscope.rouge_score is integration
    assert rouge_scorer is integration.rouge_scorer and scoring is integration.scoring


def test_errors_as_rouge_score():
    for bad in (["rouge0"], ["rougeX"], ["rouge10"]):
        with pytest.raises(ValueError) as peer_err:
            peer_scorer.RougeScorer(bad).score("a", "b")
        with pytest.raises(ValueError) as our_err:
            rouge_scorer.RougeScorer(bad).score("a", "b")
        assert str(our_err.value) == str(peer_err.value)
    with pytest.raises(ValueError):
        rouge_scorer.RougeScorer(["rouge1"]).score_multi([], "a")


@settings(max_examples=60, deadline=None)
@given(st.text(max_size=30), st.text(max_size=30), st.booleans())
def test_bytes_are_scored_as_rouge_score_scores_them(target, prediction, stem):
    """rouge-score lowercases bytes (ASCII only) and decodes them: the same scores from bytes as there."""
    ours = rouge_scorer.RougeScorer(TYPES, use_stemmer=stem)
    peer = peer_scorer.RougeScorer(TYPES, use_stemmer=stem)
    for t, p in [(target.encode(), prediction.encode()), (target.encode(), prediction), (target, prediction.encode())]:
        same_result(ours.score(t, p), peer.score(t, p))
    same_result(ours.score_multi([target.encode(), target], prediction.encode()),
                peer.score_multi([target.encode(), target], prediction.encode()))


def test_bytes_with_characters_that_lowercase_to_ascii():
    for target in ("\u0130stanbul \u212a b", "x \u212a", "A \u0130I"):
        ours = rouge_scorer.RougeScorer(TYPES).score(target.encode(), b"i stanbul k b")
        same_result(ours, peer_scorer.RougeScorer(TYPES).score(target.encode(), b"i stanbul k b"))


@pytest.mark.parametrize("bad", [None, 3, 2.5, ["a"]])
def test_a_text_that_is_not_a_string_is_refused_as_rouge_score_refuses_it(bad):
    """Never scored as a missing text (zeros): rouge-score's AttributeError, naming the argument."""
    for args in [(bad, "a"), ("a", bad)]:
        with pytest.raises(AttributeError):
            peer_scorer.RougeScorer(["rouge1"]).score(*args)
        with pytest.raises(AttributeError, match="target|prediction"):
            rouge_scorer.RougeScorer(["rouge1"]).score(*args)
    with pytest.raises(AttributeError, match=r"targets\[1\]"):
        rouge_scorer.RougeScorer(["rouge1"]).score_multi(["a", bad], "a")


def test_custom_tokenizer_is_called():
    class Chars:
        def tokenize(self, text):
            return [c for c in text if not c.isspace()]

    ours = rouge_scorer.RougeScorer(TYPES, tokenizer=Chars())
    peer = peer_scorer.RougeScorer(TYPES, tokenizer=Chars())
    for hyp, ref in CORNER_CASES:
        same_result(ours.score(ref, hyp), peer.score(ref, hyp))


@requires_wmt
@pytest.mark.parametrize("n_samples,ci", [(1000, 0.95), (200, 0.9)])
def test_bootstrap_aggregator_equals_rouge_score(n_samples, ci):
    hyps, refs = wmt_segments("generaltest2022", "de-en", limit=400)
    docs_h, docs_r = summaries(hyps, 4), summaries(refs[0], 4)
    ours_s = rouge_scorer.RougeScorer(TYPES, use_stemmer=True)
    ours_a = scoring.BootstrapAggregator(confidence_interval=ci, n_samples=n_samples)
    peer_a = peer_scoring.BootstrapAggregator(confidence_interval=ci, n_samples=n_samples)
    for h, r in zip(docs_h, docs_r):
        s = ours_s.score(r, h)
        ours_a.add_scores(s)
        peer_a.add_scores(s)
    np.random.seed(2024)
    exp = peer_a.aggregate()
    np.random.seed(2024)
    got = ours_a.aggregate()
    assert list(got) == list(exp)
    for k in exp:
        for bound in ("low", "mid", "high"):
            assert tuple(getattr(got[k], bound)) == tuple(getattr(exp[k], bound))
            assert all(type(x) is np.float64 for x in getattr(got[k], bound))


def test_metric_bootstrap_aggregate_equals_rouge_score():
    from bleuscope.metrics.rouge import ROUGE

    hyps = [h for h, _ in CORNER_CASES] * 3
    refs = [r for _, r in CORNER_CASES] * 3
    peer = peer_scorer.RougeScorer(TYPES)
    agg = peer_scoring.BootstrapAggregator()
    for h, r in zip(hyps, refs):
        agg.add_scores(peer.score(r, h))
    np.random.seed(5)
    exp = agg.aggregate()
    np.random.seed(5)
    got = ROUGE(TYPES).bootstrap_aggregate(hyps, [refs])
    for k in TYPES:
        assert tuple(map(tuple, got[k])) == tuple(map(tuple, exp[k]))


def test_aggregator_option_errors():
    with pytest.raises(ValueError, match="confidence_interval must be in range"):
        scoring.BootstrapAggregator(confidence_interval=1.5)
    with pytest.raises(ValueError, match="n_samples must be positive"):
        scoring.BootstrapAggregator(n_samples=0)


def test_split_summaries_uses_punkt_or_says_what_is_missing():
    nltk = pytest.importorskip("nltk")
    text_h, text_r = "The cat sat. It was happy. Dogs ran!", "A cat sat down. It was very happy."
    try:
        nltk.sent_tokenize("One. Two.")
    except LookupError:
        with pytest.raises(LookupError, match="punkt_tab"):
            rouge_scorer.RougeScorer(["rougeLsum"], split_summaries=True).score(text_r, text_h)
        return
    ours = rouge_scorer.RougeScorer(TYPES, split_summaries=True).score(text_r, text_h)
    peer = peer_scorer.RougeScorer(TYPES, split_summaries=True).score(text_r, text_h)
    same_result(ours, peer)
