"""Token-id BLEU on torch tensors, and a torchmetrics-style accumulating metric.

Tensors may live on any device (CPU or CUDA). The counting is done on the CPU with numpy, exactly as in
:mod:`bleuscope.metrics.bleu.token_ids` (one device-to-host copy of the ids per call); results come back as float64
tensors on the device of the hypotheses, so they can be used as rewards or logged without moving them.

``TokenBLEUMetric`` keeps the int64 sufficient statistics ``[hyp_len, ref_len, correct_1..N, total_1..N]``
summed over ``update`` calls (the state ``stats``, a buffer, so ``.to(device)`` and ``state_dict`` work);
corpus BLEU is a function of their sum, so summing them across processes (``torch.distributed.all_reduce``,
done by ``compute`` when a process group is initialized) gives the exact corpus BLEU of all the data
seen by all processes -- unlike averaging per-process scores. torchmetrics itself is not required.
"""

from __future__ import annotations

try:
    import torch
except ImportError as exc:  # pragma: no cover - exercised only without torch
    raise ImportError('bleuscope.integrations.torch needs PyTorch: pip install "bleuscope[torch]"') from exc

import numpy as np

from ..metrics.bleu.layout import stats_width
from ..metrics.bleu.scorer import BLEUScore
from ..metrics.bleu.token_ids import TokenBLEU

__all__ = ["TokenBLEUMetric", "corpus_bleu", "sentence_bleu", "to_numpy"]


def to_numpy(value, name: str):
    """A tensor (any device) as a numpy array; lists/tuples are converted item by item; others as is."""
    if isinstance(value, torch.Tensor):
        if value.is_floating_point() or value.is_complex() or value.dtype == torch.bool:
            raise TypeError(f"{name} must be an integer tensor of token ids, got {value.dtype}")
        return value.detach().cpu().numpy()
    if isinstance(value, (list, tuple)):
        return [to_numpy(v, f"{name}[{i}]") for i, v in enumerate(value)]
    return value


def _device(value) -> torch.device:
    if isinstance(value, torch.Tensor):
        return value.device
    if isinstance(value, (list, tuple)) and value and isinstance(value[0], torch.Tensor):
        return value[0].device
    return torch.device("cpu")


def sentence_bleu(preds, target, *, preds_lengths=None, target_lengths=None, **options) -> torch.Tensor:
    """Sentence BLEU (0-100) per row of ``preds`` ``[B, L]`` against ``target`` ``[B, R, L]``/``[B, L]``/list.

    ``options`` are those of :class:`bleuscope.metrics.bleu.token_ids.TokenBLEU` (``pad_id``, ``padding_side``,
    ``smooth_method``, ``smooth_value``, ``max_ngram_order``, ``effective_order``, ``weights``).
    Returns a float64 tensor ``[B]`` on ``preds``' device.
    """
    scores = TokenBLEU(**options).sentence_scores(
        to_numpy(preds, "preds"),
        to_numpy(target, "target"),
        hyp_lengths=to_numpy(preds_lengths, "preds_lengths"),
        ref_lengths=to_numpy(target_lengths, "target_lengths"),
    )
    return torch.from_numpy(scores).to(_device(preds))


def corpus_bleu(preds, target, *, preds_lengths=None, target_lengths=None, **options) -> torch.Tensor:
    """Corpus BLEU (0-100) of the batch as a float64 scalar tensor on ``preds``' device."""
    score = TokenBLEU(**options).corpus_score(
        to_numpy(preds, "preds"),
        to_numpy(target, "target"),
        hyp_lengths=to_numpy(preds_lengths, "preds_lengths"),
        ref_lengths=to_numpy(target_lengths, "target_lengths"),
    )
    return torch.tensor(score.score, dtype=torch.float64, device=_device(preds))


class TokenBLEUMetric(torch.nn.Module):
    """Accumulating corpus BLEU over token ids: ``update`` per batch, ``compute`` at the end, ``reset``.

    Options as in :class:`bleuscope.metrics.bleu.token_ids.TokenBLEU`. ``sync_on_compute`` (default True) sums the
    statistics over the default (or given) process group in ``compute`` when ``torch.distributed`` is
    initialized; the local state is left unchanged. ``forward``/calling the metric updates it and returns
    the corpus BLEU of that batch alone.
    """

    def __init__(self, *, sync_on_compute: bool = True, process_group=None, **options) -> None:
        super().__init__()
        self.scorer = TokenBLEU(**options)
        if not isinstance(sync_on_compute, bool):
            raise TypeError(f"sync_on_compute must be True or False, got {sync_on_compute!r}")
        self.sync_on_compute = sync_on_compute
        self.process_group = process_group
        width = stats_width(self.scorer.stats_order)
        self.register_buffer("stats", torch.zeros(width, dtype=torch.int64))
        self.n_segments = 0

    def _batch_stats(self, preds, target, preds_lengths, target_lengths) -> np.ndarray:
        return self.scorer.statistics(
            to_numpy(preds, "preds"),
            to_numpy(target, "target"),
            hyp_lengths=to_numpy(preds_lengths, "preds_lengths"),
            ref_lengths=to_numpy(target_lengths, "target_lengths"),
        )

    def update(self, preds, target, *, preds_lengths=None, target_lengths=None) -> None:
        """Add a batch: ``preds`` ``[B, L]``, ``target`` ``[B, R, L]``, ``[B, L]`` or a list per segment."""
        stats = self._batch_stats(preds, target, preds_lengths, target_lengths)
        self.stats += torch.from_numpy(stats.sum(axis=0)).to(self.stats.device)
        self.n_segments += len(stats)

    def forward(self, preds, target, *, preds_lengths=None, target_lengths=None) -> torch.Tensor:
        stats = self._batch_stats(preds, target, preds_lengths, target_lengths)
        total = stats.sum(axis=0)
        self.stats += torch.from_numpy(total).to(self.stats.device)
        self.n_segments += len(stats)
        return torch.tensor(
            self.scorer.score_from_statistics(total).score, dtype=torch.float64, device=self.stats.device
        )

    def synced_stats(self) -> torch.Tensor:
        """The statistics summed over all processes (a copy), or the local ones without a process group."""
        stats = self.stats.clone()
        if self.sync_on_compute and torch.distributed.is_available() and torch.distributed.is_initialized():
            torch.distributed.all_reduce(stats, op=torch.distributed.ReduceOp.SUM, group=self.process_group)
        return stats

    def compute_score(self) -> BLEUScore:
        """The accumulated corpus BLEU with counts, totals, BP and lengths."""
        stats = self.synced_stats()
        if self.n_segments == 0 and not bool(stats.any()):
            raise RuntimeError("TokenBLEUMetric.compute() called before any update()")
        return self.scorer.score_from_statistics(stats.cpu().numpy())

    def compute(self) -> torch.Tensor:
        """The accumulated corpus BLEU (0-100) as a float64 scalar tensor on the state's device."""
        return torch.tensor(self.compute_score().score, dtype=torch.float64, device=self.stats.device)

    def reset(self) -> None:
        self.stats.zero_()
        self.n_segments = 0
