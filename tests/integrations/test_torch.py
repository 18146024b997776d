"""Torch integration: tensors in, tensors out on the input's device, same numbers as the numpy path.

Skipped cleanly when torch is not installed (it is an optional extra: bleuscope[torch]).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

torch = pytest.importorskip("torch")

from bleuscope import BLEU  # noqa: E402
from bleuscope.integrations.torch import TokenBLEUMetric, corpus_bleu, sentence_bleu  # noqa: E402
from bleuscope.metrics.bleu.token_ids import TokenBLEU  # noqa: E402

DEVICES = ["cpu"] + (["cuda"] if torch.cuda.is_available() else [])


def _batch(seed: int, b: int = 6, n_ref: int = 2, width: int = 12, vocab: int = 5):
    g = torch.Generator().manual_seed(seed)
    preds = torch.randint(1, vocab + 1, (b, width), generator=g)
    target = torch.randint(1, vocab + 1, (b, n_ref, width), generator=g)
    lengths = torch.randint(0, width + 1, (b,), generator=g)
    preds = torch.where(torch.arange(width)[None, :] < lengths[:, None], preds, torch.zeros_like(preds))
    return preds, target


@pytest.mark.parametrize("device", DEVICES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), smooth=st.sampled_from(["exp", "floor", "add-k", "none"]), eff=st.booleans())
def test_sentence_and_corpus_equal_numpy_path(device, seed, smooth, eff):
    preds, target = _batch(seed)
    opts = {"pad_id": 0, "smooth_method": smooth, "effective_order": eff}
    got = sentence_bleu(preds.to(device), target.to(device), **opts)
    assert got.device.type == device and got.dtype == torch.float64 and got.shape == (6,)
    want = TokenBLEU(**opts).sentence_scores(preds.numpy(), target.numpy())
    assert np.array_equal(got.cpu().numpy(), want)
    corpus = corpus_bleu(preds.to(device), target.to(device), **opts)
    assert corpus.shape == () and corpus.device.type == device
    assert corpus.item() == TokenBLEU(**opts).corpus_score(preds.numpy(), target.numpy()).score


def test_text_path_on_the_same_tokens():
    preds = torch.tensor([[3, 4, 5, 6, 7, 0], [8, 9, 3, 4, 0, 0]], dtype=torch.int32)
    target = torch.tensor([[3, 4, 5, 6, 9, 0], [8, 9, 3, 4, 5, 0]], dtype=torch.int32)
    got = sentence_bleu(preds, target, pad_id=0, effective_order=True)
    text = BLEU(tokenize="none", effective_order=True).sentence_scores(
        ["3 4 5 6 7", "8 9 3 4"], [["3 4 5 6 9", "8 9 3 4 5"]]).scores
    assert got.tolist() == text.tolist()


def test_lengths_tensors_and_lists_of_tensors():
    preds, target = _batch(3)
    lengths = torch.tensor([12, 5, 0, 7, 12, 1])
    t_len = torch.full((6, 2), 12)
    t_len[1, 1] = -1  # missing second reference of segment 1
    got = sentence_bleu(preds, target, preds_lengths=lengths, target_lengths=t_len)
    want = TokenBLEU().sentence_scores(preds.numpy(), target.numpy(), hyp_lengths=lengths.numpy(),
                                       ref_lengths=t_len.numpy())
    assert np.array_equal(got.numpy(), want)
    as_lists = sentence_bleu([p[: int(n)] for p, n in zip(preds, lengths)],
                             [[r for k, r in enumerate(t) if t_len[i, k] >= 0] for i, t in enumerate(target)])
    assert np.array_equal(as_lists.numpy(), want)


def test_metric_accumulates_like_one_corpus():
    metric = TokenBLEUMetric(pad_id=0, smooth_method="floor")
    batches = [_batch(s) for s in range(4)]
    batch_scores = [metric(p, t) for p, t in batches]  # forward: batch score + accumulation
    all_p = torch.cat([p for p, _ in batches])
    all_t = torch.cat([t for _, t in batches])
    whole = TokenBLEU(pad_id=0, smooth_method="floor").corpus_score(all_p.numpy(), all_t.numpy())
    assert metric.compute().item() == whole.score
    assert metric.compute_score().counts == whole.counts
    assert batch_scores[0].item() == TokenBLEU(pad_id=0, smooth_method="floor").corpus_score(
        batches[0][0].numpy(), batches[0][1].numpy()).score
    assert metric.stats.dtype == torch.int64
    # state round trip and reset
    other = TokenBLEUMetric(pad_id=0, smooth_method="floor")
    other.load_state_dict(metric.state_dict())
    assert other.compute().item() == whole.score
    metric.reset()
    with pytest.raises(RuntimeError, match="before any update"):
        metric.compute()
    metric.update(*batches[1])
    assert metric.compute().item() == TokenBLEU(pad_id=0, smooth_method="floor").corpus_score(
        batches[1][0].numpy(), batches[1][1].numpy()).score


def test_bad_tensors():
    with pytest.raises(TypeError, match="preds"):
        sentence_bleu(torch.rand(2, 3), torch.randint(0, 3, (2, 3)))
    with pytest.raises(TypeError, match="sync_on_compute"):
        TokenBLEUMetric(sync_on_compute=1)
    with pytest.raises(ValueError, match="unknown smooth_method"):
        TokenBLEUMetric(smooth_method="nope")


def _worker(rank: int, world: int, init_file: str, out_file: str) -> None:  # pragma: no cover - subprocess
    torch.distributed.init_process_group("gloo", init_method=f"file://{init_file}", rank=rank, world_size=world)
    try:
        metric = TokenBLEUMetric(pad_id=0)
        for s in range(rank, 4, world):
            metric.update(*_batch(s))
        score = metric.compute().item()
        local = metric.stats.clone()
        torch.save({"score": score, "local": local}, f"{out_file}.{rank}")
    finally:
        torch.distributed.destroy_process_group()


def test_compute_all_reduces_a_copy(monkeypatch):
    """With a process group, compute() sums the statistics of every rank (here a simulated second rank)."""
    other_rank = _batch(11)
    mine = _batch(12)
    other_stats = torch.from_numpy(TokenBLEU(pad_id=0).statistics(other_rank[0].numpy(), other_rank[1].numpy()).sum(0))
    calls = []

    def fake_all_reduce(tensor, op=None, group=None):
        calls.append((op, group))
        tensor += other_stats

    monkeypatch.setattr(torch.distributed, "is_available", lambda: True)
    monkeypatch.setattr(torch.distributed, "is_initialized", lambda: True)
    monkeypatch.setattr(torch.distributed, "all_reduce", fake_all_reduce)
    metric = TokenBLEUMetric(pad_id=0, process_group="g")
    metric.update(*mine)
    local = metric.stats.clone()
    whole = TokenBLEU(pad_id=0).corpus_score(torch.cat([mine[0], other_rank[0]]).numpy(),
                                             torch.cat([mine[1], other_rank[1]]).numpy())
    assert metric.compute().item() == whole.score
    assert calls == [(torch.distributed.ReduceOp.SUM, "g")]
    assert torch.equal(metric.stats, local)  # the local state is not modified
    assert TokenBLEUMetric(pad_id=0, sync_on_compute=False).to("cpu").synced_stats().sum() == 0


@pytest.mark.full
def test_distributed_sum_over_two_processes(tmp_path):
    if not torch.distributed.is_available():
        pytest.skip("torch.distributed is not available")
    torch.multiprocessing.spawn(_worker, args=(2, str(tmp_path / "init"), str(tmp_path / "out")), nprocs=2)
    results = [torch.load(tmp_path / f"out.{r}") for r in range(2)]
    batches = [_batch(s) for s in range(4)]
    whole = TokenBLEU(pad_id=0).corpus_score(torch.cat([p for p, _ in batches]).numpy(),
                                             torch.cat([t for _, t in batches]).numpy())
    assert results[0]["score"] == results[1]["score"] == whole.score
    # compute() leaves each process's own statistics unchanged
    assert not torch.equal(results[0]["local"], results[1]["local"])
