"""Bugs that evaluation frameworks shipped in their BLEU / chrF / TER wrappers, as tests of bleuscope's adapters:
each adapter gives sacreBLEU's answer (computed here with sacreBLEU itself), not the framework's."""

from __future__ import annotations

import pytest

from bleuscope.integrations import hf_evaluate, lm_eval, rewards

sacrebleu = pytest.importorskip("sacrebleu")


def test_lighteval_1112_every_hypothesis_is_scored():
    """lighteval passed per-sample reference lists where sacreBLEU wants reference streams: two samples became
    two streams of one segment, so only the first hypothesis was scored ("100.0 for a half-correct corpus")."""
    preds, golds = ["GOOD", "PRED2"], [["GOOD"], ["REF2"]]
    wrong_layout = sacrebleu.corpus_chrf(preds, golds).score  # what lighteval computed
    assert wrong_layout == 100.0
    for name, peer in (("chrf", sacrebleu.corpus_chrf), ("ter", sacrebleu.corpus_ter)):
        right = peer(preds, [[g[0] for g in golds]]).score
        assert hf_evaluate.load(name).compute(predictions=preds, references=golds)["score"] == right
        assert lm_eval.AGGREGATIONS[name]([[g, p] for g, p in zip(golds, preds)]) == right
    right = sacrebleu.corpus_chrf(preds, [["GOOD", "REF2"]], word_order=2).score
    assert lm_eval.chrfpp([[g, p] for g, p in zip(golds, preds)]) == right < 100.0


@pytest.mark.parametrize(("hyp", "ref", "right"), [("hello hello the a dog", "jumps dog lazy the", 125.0),
                                                    ("", "hello world foo", 100.0)])
def test_torchmetrics_3478_ter_direction_of_hypothesis_and_reference(hyp, ref, right):
    """torchmetrics passed the reference as the hypothesis: the shift search is not symmetric, and an empty
    hypothesis scored 0.0, the best TER."""
    ter = sacrebleu.TER(case_sensitive=True)
    assert ter.corpus_score([hyp], [[ref]]).score == right
    if hyp:  # the swapped computation (torchmetrics' guard made the empty hypothesis 0.0 on top of it)
        assert ter.corpus_score([ref], [[hyp]]).score != right
    got = hf_evaluate.load("ter").compute(predictions=[hyp], references=[[ref]], case_sensitive=True)
    assert got["score"] == right
    assert lm_eval.ter([[ref, hyp]]) == sacrebleu.corpus_ter([hyp], [[ref]]).score


def test_torchmetrics_3480_zero_overlap_sentences_keep_their_reference_ngrams():
    """torchmetrics dropped the reference n-grams of a sentence sharing none with its hypothesis, so garbage could
    outscore a partly correct translation; sacreBLEU keeps the first reference always."""
    refs = ["the cat sat on the mat", "a quiet morning in the village"]
    partly = ["the cat sat on the mat", "a morning"]
    garbage = ["the cat sat on the mat", "zzz"]
    for preds in (partly, garbage):
        right = sacrebleu.corpus_chrf(preds, [refs]).score
        assert hf_evaluate.load("chrf").compute(predictions=preds, references=refs)["score"] == right
        assert lm_eval.chrf([[r, p] for r, p in zip(refs, preds)]) == right
    assert hf_evaluate.load("chrf").compute(predictions=garbage, references=refs)["score"] < \
        hf_evaluate.load("chrf").compute(predictions=partly, references=refs)["score"]


def test_ragas_2908_bleu_scores_the_whole_text():
    """ragas split texts on '. ' into reference streams of one segment: only the first sentence was scored."""
    ref = "The cat sat on the mat. It was a sunny day."
    resp = "The cat sat on the mat. Dogs barked."
    ragas_way = sacrebleu.corpus_bleu(resp.split(". "), [[r] for r in ref.split(". ")]).score
    assert ragas_way == pytest.approx(100.0)  # the whole response judged by its first sentence
    right = sacrebleu.sentence_bleu(resp, [ref]).score / 100
    assert rewards.bleu_reward([resp], references=[ref]) == [right]
    assert rewards.compute_score("ragas", resp, ref) == right < 0.9
    corpus = sacrebleu.corpus_bleu([resp], [[ref]]).score
    assert hf_evaluate.load("sacrebleu").compute(predictions=[resp], references=[[ref]])["score"] == corpus < 90


def test_lm_eval_ter_is_lower_is_better():
    """lm-eval registered TER as higher-is-better (8 WMT tasks inherited it); sacreBLEU's TER is an error rate."""
    ref = "the cat sat on the mat"
    good, bad = [[ref, ref]], [[ref, "completely different words entirely"]]
    assert lm_eval.ter(good) == sacrebleu.corpus_ter([ref], [[ref]]).score == 0.0
    assert lm_eval.ter(bad) == 100.0
    assert lm_eval.HIGHER_IS_BETTER["ter"] is False
    assert all(lm_eval.HIGHER_IS_BETTER[m] for m in ("bleu", "chrf", "chrf++"))
