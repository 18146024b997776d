"""What the Metric contract gives every metric (bleuscope.metrics.base): sentence_scores, pairwise,
token_view, input_notes and array-like score batches, on a plug-in metric and on the built-in ones."""

from __future__ import annotations

import numpy as np
import pytest

from bleuscope import BLEU, CHRF, TER
from bleuscope.metrics.base import Metric, SentenceScores, TokenView
from bleuscope.metrics.rouge import ROUGE

HYPS = ["the cat sat on the mat", "a dog barked", "hello world", "the the the"]
REFS = [
    ["the cat is on the mat", "a dog barked loudly", "hello there world", "the cat"],
    ["a cat sat on a mat", None, "hi world", "there"],
]


class WordOverlap(Metric):
    """A plug-in metric: hypothesis words found in the first present reference, per 100 hypothesis words."""

    name = "Overlap"
    stats_width = 2

    def count_checked(self, hyps, streams, present=None):
        rows = []
        for i, hyp in enumerate(hyps):
            ref = set(next(s[i] for s in streams if s[i] is not None).split())
            words = hyp.split()
            rows.append([sum(w in ref for w in words), len(words)])
        return np.array(rows, dtype=np.int64).reshape(-1, 2)

    def score_rows(self, rows, *, float32=False):
        found, words = np.atleast_2d(rows).T.astype(np.float64)
        return 100 * found / np.maximum(words, 1)

    def score_from_statistics(self, stats, nrefs=None):  # a plain float as the score object
        return float(self.score_rows(np.reshape(stats, (-1, 2)).sum(axis=0))[0])

    def signature_fields(self, nrefs=None):
        return {"nrefs": str(nrefs)}


def test_default_sentence_scores_are_the_sentence_score_of_each_segment():
    metric = WordOverlap()
    batch = metric.sentence_scores(HYPS, REFS)
    assert isinstance(batch, SentenceScores) and len(batch) == len(HYPS)
    loop = [metric.sentence_score(h, [r[i] for r in REFS if r[i] is not None]) for i, h in enumerate(HYPS)]
    assert batch.scores.dtype == np.float64 and batch.scores.tolist() == loop
    assert [batch[i] for i in range(len(HYPS))] == loop
    assert batch.scores.tolist() == [500 / 6, 100.0, 100.0, 100.0]


@pytest.mark.parametrize("metric", [WordOverlap(), BLEU(), BLEU(effective_order=True), CHRF(), TER(), ROUGE()],
                         ids=lambda m: type(m).__name__)
def test_a_batch_of_sentence_scores_is_array_like(metric):
    batch = metric.sentence_scores(HYPS, REFS)
    arr = np.asarray(batch)
    assert arr.dtype == np.float64 and np.array_equal(arr, batch.scores)
    assert np.asarray(batch, dtype=np.float32).dtype == np.float32
    copied = np.array(batch, copy=True)
    copied[0] = -1.0
    assert batch.scores[0] != -1.0


@pytest.mark.parametrize("metric", [WordOverlap(), CHRF(), CHRF(word_order=2), TER(), BLEU(effective_order=True)],
                         ids=lambda m: type(m).__name__)
def test_default_pairwise_is_the_sentence_score_of_every_pair(metric):
    hyps, refs = HYPS[:3], [REFS[0][0], REFS[1][2], "", "the mat"]
    got = Metric.pairwise(metric, hyps, refs)
    want = [[float(metric.sentence_score(h, [r])) for r in refs] for h in hyps]  # a score object's float: its score
    assert got.shape == (3, 4) and got.dtype == np.float64 and got.tolist() == want


def test_bleu_pairwise_equals_the_generic_definition():
    """BLEU's own pairwise (each string tokenized once, pairs counted in the core) == the contract's default."""
    bleu = BLEU(effective_order=True)
    hyps = HYPS + ["", "a"]
    refs = [r for r in REFS[0]] + ["a b c d e", ""]
    assert np.array_equal(bleu.pairwise(hyps, refs), Metric.pairwise(bleu, hyps, refs))


def test_pairwise_of_no_strings_is_empty():
    assert CHRF().pairwise([], ["a"]).shape == (0, 1)
    assert CHRF().pairwise(["a"], []).shape == (1, 0)


def test_token_view_is_bleus_tokens_and_none_elsewhere():
    view = BLEU(tokenize="intl", lowercase=True, max_ngram_order=3, trg_lang="de").token_view()
    assert isinstance(view, TokenView)
    assert (view.tokenizer.name, view.lowercase, view.max_order, view.trg_lang) == ("intl", True, 3, "de")
    for metric in (CHRF(), TER(), ROUGE(), WordOverlap()):
        assert metric.token_view() is None


def test_input_notes():
    zh = [["他们在北京见面了", "今天天气很好"]]
    assert "asian_support" in TER().input_notes(zh)[0]
    assert "asian_support" in TER().input_notes([["plain words"]], "ja")[0]
    assert TER().input_notes([["plain words"]], "de") == []
    assert TER(asian_support=True).input_notes(zh, "zh") == []
    assert CHRF().input_notes(zh, "zh") == [] and BLEU().input_notes(zh, "zh") == []
