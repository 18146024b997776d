"""The blocked, compact resampling of large corpora equals the straightforward computation on small inputs:
index draws, AR swap masks read from the generator's raw bits, masked sums in the compiled core, float32
sums of several systems in one pass, AR's differences, and bootstrap resample sums drawn and counted a few rows
at a time."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.analysis.significance import resampling
from bleuscope.core import native
from bleuscope.core.native import resample as native_resample

seeds = st.integers(0, 2**63)


@settings(max_examples=40, deadline=None)
@given(n_seg=st.integers(1, 3000), rows=st.integers(1, 5), seed=seeds)
def test_index_draws_are_choice(n_seg, rows, seed):
    want_rng, got_rng = np.random.default_rng(seed), np.random.default_rng(seed)
    want = want_rng.choice(n_seg, size=(rows, n_seg), replace=True)
    got = resampling.draw_indices(got_rng, n_seg, rows)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want)
    assert got_rng.bit_generator.state == want_rng.bit_generator.state


def _one_mask(rng, n_trials, n_seg):
    return rng.integers(2, size=(n_trials, n_seg), dtype=bool)


@settings(max_examples=60, deadline=None)
@given(
    n_seg=st.integers(1, 300),
    n_trials=st.integers(1, 200),
    seed=seeds,
    mask_bits=st.sampled_from([64, 1000, 1 << 27]),
    generator=st.sampled_from(["pcg64", "pcg64-half-buffered", "philox"]),
)
def test_mask_blocks_are_one_boolean_draw(n_seg, n_trials, seed, mask_bits, generator):
    def make():
        if generator == "philox":
            return np.random.Generator(np.random.Philox(seed))
        rng = np.random.default_rng(seed)
        if generator == "pcg64-half-buffered":
            rng.integers(0, 7, size=1)  # leaves the high half of a 64-bit output buffered
        return rng

    want_rng, got_rng = make(), make()
    want = _one_mask(want_rng, n_trials, n_seg)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(resampling, "MASK_BITS", mask_bits)
        blocks = list(resampling.mask_word_blocks(got_rng, n_seg, n_trials))
    assert sum(rows for _, rows in blocks) == n_trials
    assert all(rows % 64 == 0 for _, rows in blocks[:-1])
    got = np.concatenate([resampling._unpack_mask(words, rows, n_seg) for words, rows in blocks]).astype(bool)
    np.testing.assert_array_equal(got, want)
    # the generator is left as one draw leaves it: the next draws (AR's intervals) are the same
    if generator != "philox":
        assert got_rng.bit_generator.state == want_rng.bit_generator.state
    np.testing.assert_array_equal(got_rng.choice(50, size=7), want_rng.choice(50, size=7))
    np.testing.assert_array_equal(got_rng.integers(2, size=9, dtype=bool), want_rng.integers(2, size=9, dtype=bool))


stats_arrays = st.integers(0, 2**32 - 1).map(lambda s: np.random.default_rng(s))


@settings(max_examples=40, deadline=None)
@given(
    n_seg=st.integers(1, 400),
    n_trials=st.integers(1, 150),
    n_systems=st.integers(2, 4),
    high=st.sampled_from([2, 60, 40_000, 2**27]),
    dtype=st.sampled_from([np.int16, np.int32, np.int64]),
    seed=seeds,
    data=stats_arrays,
    all_pairs=st.booleans(),
    compiled=st.booleans(),
)
def test_masked_differences_equal_the_mask_products(
    n_seg, n_trials, n_systems, high, dtype, seed, data, all_pairs, compiled
):
    if compiled and native.compiled_core() is None:
        pytest.skip("the compiled core is not built")
    if dtype == np.int16:
        high = min(high, 2**15)
    stats = [data.integers(0, high, size=(n_seg, 3)).astype(dtype) for _ in range(n_systems)]
    pairs = [(i, j) for i in range(n_systems) for j in range(i + 1, n_systems)] if all_pairs else [
        (0, k) for k in range(1, n_systems)]
    mask = _one_mask(np.random.default_rng(seed), n_trials, n_seg).astype(np.int64)
    want = {(i, j): mask @ (stats[i].astype(np.int64) - stats[j].astype(np.int64)) for i, j in pairs}
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(resampling, "MASK_BITS", 4096)  # several blocks
        if not compiled:
            patch.setattr(resampling.native, "native_available", lambda: False)
        blocks = list(resampling.masked_differences(stats, pairs, n_trials, np.random.default_rng(seed)))
    for p in pairs:
        np.testing.assert_array_equal(np.concatenate([b[p] for b, _ in blocks]), want[p])


@settings(max_examples=30, deadline=None)
@given(n_seg=st.integers(1, 300), rows=st.integers(1, 4), width=st.integers(1, 12), seed=seeds,
       first_bit=st.integers(0, 130))
def test_core_masked_sums_equal_the_bit_by_bit_sums(n_seg, rows, width, seed, first_bit):
    if native.compiled_core() is None:
        pytest.skip("the compiled core is not built")
    data = np.random.default_rng(seed)
    cols = data.integers(-native_resample.MASKED_MAX_VALUE, native_resample.MASKED_MAX_VALUE + 1, size=(n_seg, width))
    words = data.integers(0, 2**64, size=-(-(first_bit + rows * n_seg) // 64), dtype=np.uint64)
    bits = np.unpackbits(words.astype("<u8").view(np.uint8), bitorder="little")
    mask = bits[first_bit : first_bit + rows * n_seg].reshape(rows, n_seg).astype(np.int64)
    for threads in (1, 2):
        got = native_resample.masked_sums(words, first_bit, rows, cols.astype(np.int32), threads=threads)
        np.testing.assert_array_equal(got, mask @ cols)


@settings(max_examples=30, deadline=None)
@given(
    n_seg=st.integers(1, 300),
    rows=st.integers(1, 6),
    n_systems=st.integers(1, 3),
    big=st.booleans(),
    seed=seeds,
)
def test_float32_sums_of_stacked_systems_equal_numpys_per_system_sums(n_seg, rows, n_systems, big, seed):
    """Several systems side by side (uint16 or float32 stack) in one pass: each system's columns are numpy's
    sequential float32 sums, rounding above 2**24 included."""
    data = np.random.default_rng(seed)
    high = 2**24 if big else 60_000
    stats = [data.integers(0, high, size=(n_seg, 4)) for _ in range(n_systems)]
    idx = data.integers(0, n_seg, size=(rows, n_seg))
    stacked, bounds = resampling.float32_stack(BLEU(), stats)
    assert stacked.dtype == (np.float32 if big and max(int(x.max()) for x in stats) > 0xFFFF else np.uint16)
    got = resampling.float32_sums(idx.astype(np.int32), stacked)
    for x, (a, b) in zip(stats, bounds):
        x32 = x.astype(np.float32)
        want = np.stack([x32[idx[r]].sum(axis=0) for r in range(rows)])
        assert got[:, a:b].tobytes() == want.tobytes()


@settings(max_examples=25, deadline=None)
@given(n_seg=st.integers(2, 200), n_trials=st.integers(1, 100), seed=seeds, data=stats_arrays)
def test_ar_differences_equal_the_straightforward_shuffle(n_seg, n_trials, seed, data):
    """|BLEU(a) - BLEU(b)| per trial, a = M X_i + (1 - M) X_j and b the complement, as sacreBLEU shuffles."""
    statistic = BLEU()

    def system():
        hyp = data.integers(5, 40, size=(n_seg, 1))
        totals = np.maximum(hyp - np.arange(4), 0)
        matches = np.minimum(data.integers(0, 30, size=(n_seg, 4)), totals)
        return np.concatenate([hyp, hyp + data.integers(0, 4, size=(n_seg, 1)), matches, totals], axis=1)

    stats = [system(), system(), system()]
    pairs = [(0, 1), (0, 2)]
    mask = _one_mask(np.random.default_rng(seed), n_trials, n_seg).astype(np.int64)
    got = resampling.ar_abs_differences(stats, pairs, statistic, n_trials, np.random.default_rng(seed))
    for i, j in pairs:
        a = mask @ stats[i] + (1 - mask) @ stats[j]
        b = (1 - mask) @ stats[i] + mask @ stats[j]
        want = np.abs(statistic.score_rows(a) - statistic.score_rows(b))
        assert got[(i, j)].tobytes() == want.tobytes()


# -- bootstrap resample sums drawn and counted a few rows at a time equal those of one index draw per block
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
