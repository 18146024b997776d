"""Bootstrap resample sums drawn and counted a few rows at a time equal those of one index draw per block."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.analysis.significance import resampling


def one_draw_sums(rng, stats, n_samples):
    """The reference: one ``rng.choice`` index matrix per block, counted by bincount, times the stack."""
    n_seg = stats[0].shape[0]
    stacked = resampling.bootstrap_stack(stats)
    blocks = []
    for idx in resampling.bootstrap_index_blocks(rng, n_seg, n_samples):
        weights = np.zeros((len(idx), n_seg), dtype=np.int64)
        for r, row in enumerate(idx):
            np.add.at(weights[r], row, 1)
        blocks.append(weights @ np.concatenate(stats, axis=1))  # int64 products: exact
    return blocks, stacked


@settings(max_examples=40, deadline=None)
@given(
    n_seg=st.integers(1, 300),
    n_samples=st.integers(1, 90),
    n_systems=st.integers(1, 3),
    sub_rows=st.sampled_from([1, 3, 16, 64]),
    seed=st.integers(0, 2**32 - 1),
    high=st.sampled_from([1, 50, 3_000_000]),
)
def test_sum_blocks_equal_one_draw(n_seg, n_samples, n_systems, sub_rows, seed, high):
    data = np.random.default_rng(seed ^ 0x5EED)
    stats = [data.integers(0, high, size=(n_seg, 6)) for _ in range(n_systems)]
    want_rng, got_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    want, stacked = one_draw_sums(want_rng, stats, n_samples)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(resampling, "SUM_ROWS", sub_rows)
        got = list(resampling.bootstrap_sum_blocks(got_rng, stacked, n_seg, n_samples))
    assert [g.shape for g in got] == [w.shape for w in want]  # same scoring batches
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)
    # the generator is left where one draw leaves it (AR's intervals draw after the bootstrap)
    assert got_rng.bit_generator.state == want_rng.bit_generator.state


def test_small_blocks_on_large_corpora(monkeypatch):
    """Several scoring blocks (a corpus larger than one block allows): same batches and sums."""
    monkeypatch.setattr(resampling, "BLOCK_ELEMENTS", 4_000)
    stats = [np.random.default_rng(k).integers(0, 9, size=(700, 4)) for k in range(2)]
    want, stacked = one_draw_sums(np.random.default_rng(3), stats, 25)
    got = list(resampling.bootstrap_sum_blocks(np.random.default_rng(3), stacked, 700, 25))
    assert len(got) == len(want) > 1
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("precision", ["sacrebleu", "exact"])
def test_bleu_bootstrap_scores_match_the_index_path(precision):
    """BLEU's resampled scores from the sums path equal those of the per-block index path, bit for bit."""
    from bleuscope import BLEU

    statistic = BLEU()
    data = np.random.default_rng(11)
    hyp = data.integers(5, 40, size=(400, 1))
    totals = hyp - np.arange(4)  # [hyp_len, ref_len, correct_1..4, total_1..4]
    matches = np.minimum(data.integers(0, 30, size=(400, 4)), totals)
    rows = np.concatenate([hyp, hyp + data.integers(-3, 4, size=(400, 1)), matches, totals], axis=1)
    stats = (rows, np.concatenate([rows[:, :2], np.maximum(matches - 1, 0), totals], axis=1))
    assert resampling.sums_are_enough(stats, statistic, precision)
    got = resampling.bootstrap_scores_from(np.random.default_rng(12345), stats, statistic, 300, precision)
    stacked = resampling.bootstrap_stack(stats)
    want = np.concatenate([
        resampling.score_bootstrap_block(idx, stats, stacked, statistic, precision)
        for idx in resampling.bootstrap_index_blocks(np.random.default_rng(12345), 400, 300)
    ], axis=1)
    assert got.tobytes() == want.tobytes()
