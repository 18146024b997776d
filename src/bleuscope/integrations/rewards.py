"""Reward functions for reinforcement learning on text: sentence BLEU, chrF and ROUGE-L of each completion
against its reference(s), in [0, 1], in the two forms RL libraries call.

**TRL** (``GRPOTrainer(reward_funcs=[...])``): ``reward(completions, **columns) -> list[float]``, one value per
completion. A completion is a string, or a list of chat messages (``[{"role": "assistant", "content": ...}]``:
the last message's content is scored). The references come from a dataset column passed as a keyword argument,
``references`` or else ``solution`` (:func:`make_reward`'s ``column`` picks another); each row holds one
reference string or a list of them (rows may differ in their counts). The whole batch is scored in one call.

**verl** (``custom_reward_function``): ``compute_score(data_source, solution_str, ground_truth, extra_info=None)
-> float`` for one sample (``ground_truth``: a string or a list of strings), and
``compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos)`` for verl's batch reward manager.

**Token ids** (:func:`token_bleu_reward`): TokenBLEU on ``completion_ids`` (what TRL passes) against a column of
reference id lists, without detokenizing.

Every value is ``metric.sentence_score(completion, references).score / 100`` of the metric behind it:
``BLEU(effective_order=True)`` (sacreBLEU's sentence BLEU, 13a), ``CHRF()`` and ``ROUGE(["rougeL"])``
(rouge-score's F, ``score / 100`` equals it to within one unit in the last place), with the options given to
:func:`make_reward`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, cast

import numpy as np

__all__ = [
    "bleu_reward",
    "chrf_reward",
    "compute_score",
    "compute_score_batch",
    "make_compute_score",
    "make_reward",
    "rouge_l_reward",
    "token_bleu_reward",
]

#: the dataset columns searched for the references, in order, when no column is named
REFERENCE_COLUMNS = ("references", "solution")


def _metric(name: str, options: dict):
    if name == "bleu":
        from ..metrics.bleu.scorer import BLEU

        return BLEU(**{"effective_order": True, **options})
    if name == "chrf":
        from ..metrics.chrf import CHRF

        return CHRF(**options)
    if name == "rouge_l":
        from ..metrics.rouge import ROUGE

        return ROUGE(("rougeL",), **options)
    raise ValueError(f"unknown reward metric {name!r}; expected 'bleu', 'chrf' or 'rouge_l'")


def completion_text(completion, i: int = 0) -> str:
    """A TRL completion as text: the string itself, or the content of the last chat message."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        completion = [completion]
    if isinstance(completion, (list, tuple)) and completion:
        last = completion[-1]
        if isinstance(last, dict) and isinstance(last.get("content"), str):
            return last["content"]
    raise TypeError(f"completions[{i}] must be a string or a list of chat messages with string 'content', got "
                    f"{type(completion).__name__} {completion!r:.60}")


def reference_streams(rows: Sequence, n: int, name: str) -> list[list]:
    """Reference streams (``None`` where a row has fewer) from one row per completion: a string or a list."""
    rows = list(rows)
    if len(rows) != n:
        raise ValueError(f"{name} has {len(rows)} rows for {n} completions")
    if all(type(row) is str for row in rows):  # one reference string per row (the usual column): one stream
        return [rows]
    lists = []
    for i, row in enumerate(rows):
        refs = [row] if isinstance(row, str) else list(row) if isinstance(row, (list, tuple)) else None
        if refs is None or not refs or not all(isinstance(r, str) for r in refs):
            raise TypeError(f"{name}[{i}] must be a reference string or a non-empty list of them, got {row!r:.60}")
        lists.append(refs)
    k = max(len(r) for r in lists)
    return [[refs[j] if j < len(refs) else None for refs in lists] for j in range(k)]


def _reference_column(columns: dict, column: str | None):
    if column is not None:
        if column not in columns:
            raise TypeError(f"the reward needs the dataset column {column!r}; got columns: {sorted(columns)}")
        return column, columns[column]
    for name in REFERENCE_COLUMNS:
        if columns.get(name) is not None:
            return name, columns[name]
    raise TypeError(f"the reward needs the references as a dataset column named {' or '.join(REFERENCE_COLUMNS)} "
                    f"(or make_reward(column=...)); got columns: {sorted(columns)}")


def make_reward(metric: str = "bleu", *, column: str | None = None, **options) -> Callable[..., list[float]]:
    """A TRL reward function scoring each completion with ``metric`` (``"bleu"``, ``"chrf"`` or ``"rouge_l"``,
    built with ``options``, e.g. ``tokenize="intl"``) against the references in ``column`` (default: the first
    of ``references``, ``solution`` present)."""
    scorer = _metric(metric, options)

    def reward(completions, **columns) -> list[float]:
        # strings as they are; chat messages (and anything else, to be named if wrong) through completion_text
        hyps = [c if type(c) is str else completion_text(c, i) for i, c in enumerate(completions)]
        if not hyps:
            return []
        name, rows = _reference_column(columns, column)
        streams = reference_streams(rows, len(hyps), name)
        scores = np.asarray(scorer.sentence_scores(hyps, streams).scores, dtype=np.float64)
        return (scores / 100).tolist()

    reward.__name__ = reward.__qualname__ = f"{metric}_reward"
    reward.__doc__ = f"Sentence {metric} reward in [0, 1] (bleuscope), TRL's reward_funcs form."
    return reward


bleu_reward = make_reward("bleu")
chrf_reward = make_reward("chrf")
rouge_l_reward = make_reward("rouge_l")


class ComputeScore(Protocol):
    """verl's ``compute_score`` of one sample, carrying its batch form as ``.batch``."""

    __name__: str
    batch: Callable[..., list[float]]

    def __call__(self, data_source, solution_str, ground_truth, extra_info=None) -> float: ...


def make_compute_score(metric: str = "bleu", **options) -> ComputeScore:
    """A verl ``compute_score(data_source, solution_str, ground_truth, extra_info=None) -> float``, with
    ``.batch(data_sources, solution_strs, ground_truths, extra_infos=None) -> list[float]``."""
    scorer = _metric(metric, options)

    def score(data_source, solution_str, ground_truth, extra_info=None) -> float:
        if not isinstance(solution_str, str):
            raise TypeError(f"solution_str must be a string, got {type(solution_str).__name__}")
        refs = reference_streams([ground_truth], 1, "ground_truth")
        return float(scorer.sentence_scores([solution_str], refs).scores[0]) / 100

    def batch(data_sources, solution_strs, ground_truths, extra_infos=None) -> list[float]:
        hyps = list(solution_strs)
        for i, h in enumerate(hyps):
            if not isinstance(h, str):
                raise TypeError(f"solution_strs[{i}] must be a string, got {type(h).__name__}")
        if not hyps:
            return []
        streams = reference_streams(ground_truths, len(hyps), "ground_truths")
        return (np.asarray(scorer.sentence_scores(hyps, streams).scores, dtype=np.float64) / 100).tolist()

    compute = cast(ComputeScore, score)  # a function with one more attribute
    compute.__name__ = "compute_score"
    compute.batch = batch
    return compute


compute_score = make_compute_score("bleu")
compute_score_batch = compute_score.batch


def token_bleu_reward(completion_ids=None, *, reference_ids=None, column: str = "reference_ids", pad_id=None,
                      **columns) -> list[float]:
    """TRL reward on token ids: TokenBLEU (effective order, as sentence BLEU) of each ``completion_ids`` row
    against its row of ``reference_ids`` (one id list, or a list of id lists), in [0, 1]."""
    from ..metrics.bleu.token_ids import TokenBLEU

    if completion_ids is None:
        raise TypeError("token_bleu_reward needs completion_ids (TRL passes them) and a reference_ids column")
    refs = reference_ids if reference_ids is not None else columns.get(column)
    if refs is None:
        raise TypeError(f"token_bleu_reward needs the reference ids as a dataset column {column!r}; got columns: "
                        f"{sorted(columns)}")
    if len(refs) != len(completion_ids):
        raise ValueError(f"{column} has {len(refs)} rows for {len(completion_ids)} completions")
    scorer = TokenBLEU(effective_order=True, pad_id=pad_id)
    if pad_id is not None or isinstance(completion_ids, np.ndarray) or isinstance(refs, np.ndarray):
        return (np.asarray(scorer.sentence_scores(completion_ids, refs), dtype=np.float64) / 100).tolist()
    hyps, hyp_lengths = _padded(completion_ids)
    first = refs[0] if len(refs) else []
    if len(first) == 0 or np.isscalar(first[0]):  # one reference id list per completion
        ids, lengths = _padded(refs)
        ref_ids, ref_lengths = ids[:, None, :], lengths[:, None]
    else:
        ref_ids, ref_lengths = _padded_references(refs)
    scores = scorer.sentence_scores(hyps, ref_ids, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths)
    return (np.asarray(scores, dtype=np.float64) / 100).tolist()


def _padded(rows: list[list[int]]) -> tuple[np.ndarray, np.ndarray]:
    """Ragged id lists as one ``[B, L]`` int64 array (zeros after each row's end) and the row lengths: TokenBLEU
    reads arrays in one pass, where lists of Python ints cost a conversion per id."""
    import itertools

    lengths = np.fromiter((len(r) for r in rows), dtype=np.int64, count=len(rows))
    width = int(lengths.max()) if len(rows) else 0
    flat = np.fromiter(itertools.chain.from_iterable(rows), dtype=np.int64, count=int(lengths.sum()))
    out = np.zeros((len(rows), width), dtype=np.int64)
    out[np.arange(width)[None, :] < lengths[:, None]] = flat
    return out, lengths


def _padded_references(per_segment: list[list[list[int]]]) -> tuple[np.ndarray, np.ndarray]:
    """``[B, R, L]`` ids and ``[B, R]`` lengths (``-1``: a segment with fewer references)."""
    k = max(len(refs) for refs in per_segment)
    flat_rows = [r for refs in per_segment for r in refs]
    ids, lengths = _padded(flat_rows)
    out = np.zeros((len(per_segment), k, ids.shape[1]), dtype=np.int64)
    ref_lengths = np.full((len(per_segment), k), -1, dtype=np.int64)
    pos = 0
    for i, refs in enumerate(per_segment):
        out[i, :len(refs)] = ids[pos:pos + len(refs)]
        ref_lengths[i, :len(refs)] = lengths[pos:pos + len(refs)]
        pos += len(refs)
    return out, ref_lengths
