"""BLEU's n-gram order: every order the counters take is scored (the compiled scorer's own limit is lower: the
numpy code scores beyond it), with sacreBLEU's numbers; an order beyond the counters' is refused when the
metric is made, naming the argument."""

from __future__ import annotations

import pytest

from bleuscope import BLEU
from bleuscope.metrics.bleu.scorer import MAX_NGRAM_ORDER

from ...conftest import requires_core

sacrebleu = pytest.importorskip("sacrebleu")

HYPS = ["the cat sat on the mat and looked at the dog " * 8, "a b c d e f g h i j k l m n o p q r s t u v w x y z " * 4]
REFS = [["the cat sat on the mat and looked at a dog " * 8, "a b c d e f g h i j k l m n o p q r s t u v w x y z " * 4]]


@requires_core
@pytest.mark.parametrize("order", [64, 65, 100])
@pytest.mark.parametrize("method", ["exp", "floor", "add-k", "none"])
def test_orders_beyond_the_compiled_scorer_are_scored_as_sacrebleu(order, method):
    ours = BLEU(max_ngram_order=order, smooth_method=method).corpus_score(HYPS, REFS)
    peer = sacrebleu.BLEU(max_ngram_order=order, smooth_method=method).corpus_score(HYPS, REFS)
    assert ours.score == peer.score
    if method != "add-k":  # sacreBLEU returns add-k's counts with k added (docs/compatibility.md)
        assert (ours.counts, ours.totals) == (list(peer.counts), list(peer.totals))
    for effective in (False, True):
        ours = BLEU(max_ngram_order=order, smooth_method=method, effective_order=effective)
        peer = sacrebleu.BLEU(max_ngram_order=order, smooth_method=method, effective_order=effective)
        assert ours.sentence_score(HYPS[0], [REFS[0][0]]).score == peer.sentence_score(HYPS[0], [REFS[0][0]]).score


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
