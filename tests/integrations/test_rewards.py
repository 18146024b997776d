"""``bleuscope.integrations.rewards``: every reward equals the metric's ``sentence_score(...).score / 100``, in
TRL's and verl's calling forms, on WMT segments and generated text."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU, CHRF, ROUGE
from bleuscope.integrations import rewards

from ..conftest import DATA, read_lines, requires_wmt

METRICS = {
    "bleu": (rewards.bleu_reward, lambda: BLEU(effective_order=True)),
    "chrf": (rewards.chrf_reward, CHRF),
    "rouge_l": (rewards.rouge_l_reward, lambda: ROUGE(["rougeL"])),
}


def expected(metric, hyps, refs_per_segment):
    scorer = METRICS[metric][1]()
    return [scorer.sentence_score(h, refs).score / 100 for h, refs in zip(hyps, refs_per_segment)]


@requires_wmt
@pytest.mark.parametrize("metric", sorted(METRICS))
def test_rewards_equal_sentence_scores_on_wmt(metric):
    base = DATA / "generaltest2022" / "en-de"
    hyps = read_lines(base / "sys" / "Online-B.txt")[:80]
    ref_a, ref_b = read_lines(base / "ref.A.txt")[:80], read_lines(base / "ref.B.txt")[:80]
    reward = METRICS[metric][0]
    assert reward(hyps, references=ref_a) == expected(metric, hyps, [[r] for r in ref_a])
    both = [[a, b] for a, b in zip(ref_a, ref_b)]
    assert reward(hyps, solution=both) == expected(metric, hyps, both)
    ragged = [[a, b] if i % 2 else [a] for i, (a, b) in enumerate(zip(ref_a, ref_b))]
    chat = [[{"role": "assistant", "content": h}] for h in hyps]
    assert reward(chat, references=ragged, prompts=["p"] * len(hyps)) == expected(metric, hyps, ragged)


text = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(text, st.lists(text, min_size=1, max_size=3)), min_size=1, max_size=6),
       st.sampled_from(sorted(METRICS)))
def test_generated_rewards_equal_sentence_scores(pairs, metric):
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    assert METRICS[metric][0](hyps, references=refs) == expected(metric, hyps, refs)


def test_verl_compute_score_forms():
    hyp, refs = "the cat sat on the mat", ["the cat is on the mat", "a cat sat on a mat"]
    exp = BLEU(effective_order=True).sentence_score(hyp, refs).score / 100
    assert rewards.compute_score("wmt", hyp, refs) == exp
    assert rewards.compute_score("wmt", hyp, refs[0], extra_info={"split": "train"}) == \
        BLEU(effective_order=True).sentence_score(hyp, refs[:1]).score / 100
    assert rewards.compute_score_batch(["wmt"] * 2, [hyp, "a dog"], [refs, "a dog barked"], [None, None]) == [
        exp, BLEU(effective_order=True).sentence_score("a dog", ["a dog barked"]).score / 100]
    chrf = rewards.make_compute_score("chrf", word_order=2)
    assert chrf("x", hyp, refs) == CHRF(word_order=2).sentence_score(hyp, refs).score / 100


def test_token_bleu_reward_equals_text_bleu_on_the_ids():
    rng = np.random.default_rng(5)
    hyps = [rng.integers(0, 30, size=rng.integers(0, 25)).tolist() for _ in range(40)]
    refs = [[rng.integers(0, 30, size=rng.integers(1, 25)).tolist() for _ in range(1 + i % 3)] for i in range(40)]
    text_bleu = BLEU(tokenize="none", effective_order=True)
    exp = [text_bleu.sentence_score(" ".join(map(str, h)), [" ".join(map(str, r)) for r in rs]).score / 100
           for h, rs in zip(hyps, refs)]
    assert rewards.token_bleu_reward(hyps, reference_ids=refs) == exp
    single = [rs[0] for rs in refs]
    assert rewards.token_bleu_reward(completion_ids=hyps, reference_ids=single) == [
        text_bleu.sentence_score(" ".join(map(str, h)), [" ".join(map(str, r))]).score / 100
        for h, r in zip(hyps, single)]


def test_reward_input_errors():
    with pytest.raises(TypeError, match="dataset column named references or solution"):
        rewards.bleu_reward(["a"], prompts=["p"])
    with pytest.raises(ValueError, match="references has 1 rows for 2 completions"):
        rewards.bleu_reward(["a", "b"], references=["a"])
    with pytest.raises(TypeError, match=r"references\[0\] must be a reference string or a non-empty list"):
        rewards.chrf_reward(["a"], references=[[]])
    with pytest.raises(TypeError, match=r"completions\[0\] must be a string or a list of chat messages"):
        rewards.rouge_l_reward([3], references=["a"])
    with pytest.raises(ValueError, match="unknown reward metric 'meteor'"):
        rewards.make_reward("meteor")
    custom = rewards.make_reward("bleu", column="target", tokenize="char")
    assert custom.__name__ == "bleu_reward"
    assert custom(["abc"], target=["abd"]) == [BLEU(tokenize="char", effective_order=True).sentence_score(
        "abc", ["abd"]).score / 100]
