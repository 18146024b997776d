"""Meta-evaluation of whole metrics: every statistic of every metric against a human score, as records.

:func:`metric_scores` turns a metric (BLEU, chrF, TER, ... or :class:`~bleuscope.metrics.scores.Scores`
read from a file) into segment and system scores of each system; :func:`meta_evaluate` correlates them
with the human scores at segment level (no grouping, by item, by system) and system level, and
:func:`task_table` ranks the metrics into significance clusters for a WMT23/WMT24-style task set.

Scores of a lower-is-better metric (TER; an MQM penalty) are negated first, so that a higher correlation
is better everywhere (as WMT reports TER).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .tasks import TASK_SETS, compare_metrics, correlate

SEG_STATISTICS = ("pearson", "spearman", "kendall_b", "kendall_c", "kendall_23", "acc23", "acc_eq")
SYS_STATISTICS = ("pearson", "spearman", "kendall_b", "kendall_c", "pairwise_accuracy", "spa")
GROUPINGS = ("none", "item", "sys")
# acc_eq calibrates over every pair of a row, one pair after another (mtme's running total, kept bit for
# bit): by item that is 36 pairs a row for 9 systems; by system or without grouping millions, so it is
# computed by item only (WMT23's and WMT24's segment-level statistic)
ACC_EQ_GROUPINGS = ("item",)


@dataclass(frozen=True)
class LevelScores:
    """One metric's (or the human) scores: ``seg[system]`` per segment (NaN: missing), ``sys[system]``."""

    seg: dict[str, np.ndarray]
    sys: dict[str, float]


def metric_scores(metric: Any, systems: Mapping[str, Sequence[str]], references: Sequence[Sequence[str]],
                  sentence_metric: Any = None) -> LevelScores:
    """Sentence scores (of ``sentence_metric`` when given: WMT's sentence BLEU is BLEU with effective
    order) and corpus scores of each system, signed so that higher is better."""
    sign = 1.0 if metric.higher_is_better else -1.0
    per_segment = metric if sentence_metric is None else sentence_metric
    seg = {s: sign * np.asarray(per_segment.sentence_scores(list(h), references), dtype=np.float64)
           for s, h in systems.items()}
    sysd = {s: sign * float(metric.corpus_score(list(h), references).score) for s, h in systems.items()}
    return LevelScores(seg, sysd)


def scores_level_scores(scores: Any, systems: Sequence[str]) -> LevelScores:
    """A :class:`~bleuscope.metrics.scores.Scores` metric's segment values and system means, signed."""
    sign = 1.0 if scores.higher_is_better else -1.0
    return LevelScores({s: sign * scores.values[s] for s in systems},
                       {s: sign * scores.system_score(s) for s in systems})


def human_level_scores(seg: Mapping[str, np.ndarray], systems: Sequence[str], *, higher_is_better: bool = True,
                       sys_scores: Mapping[str, float] | None = None) -> LevelScores:
    """Human segment scores (NaN where unscored); the system score is the mean over the scored segments
    unless ``sys_scores`` gives the official ones."""
    sign = 1.0 if higher_is_better else -1.0
    segd = {s: sign * np.asarray(seg[s], dtype=np.float64) for s in systems}
    if sys_scores is not None:
        sysd = {s: sign * float(sys_scores[s]) for s in systems}
    else:
        sysd = {s: float(np.mean(v[~np.isnan(v)])) for s, v in segd.items()}
    return LevelScores(segd, sysd)


def _packed(levels: LevelScores, systems: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    return (np.concatenate([levels.seg[s] for s in systems]),
            np.array([levels.sys[s] for s in systems], dtype=np.float64))


def meta_evaluate(
    human: LevelScores, metrics: Mapping[str, LevelScores], systems: Sequence[str], *, human_name: str = "human",
    levels: Sequence[str] = ("seg", "sys"), groupings: Sequence[str] = GROUPINGS,
    seg_statistics: Sequence[str] = SEG_STATISTICS, sys_statistics: Sequence[str] = SYS_STATISTICS,
) -> list[dict[str, Any]]:
    """One record per number: ``{metric, human, level, grouping, statistic, value}``."""
    n = len(systems)
    gold_seg, gold_sys = _packed(human, systems)
    records = []
    for name, lv in metrics.items():
        seg, sysv = _packed(lv, systems)
        if "seg" in levels:
            for grouping in groupings:
                for stat in seg_statistics:
                    if stat == "acc_eq" and grouping not in ACC_EQ_GROUPINGS:
                        continue
                    value = correlate(gold_seg, seg, stat, num_sys=n, average_by=grouping)
                    records.append(_record(name, human_name, "seg", grouping, stat, value))
        if "sys" in levels:
            for stat in sys_statistics:
                if stat == "spa":
                    value = _spa_or_nan(gold_seg, seg, n)
                else:
                    value = correlate(gold_sys, sysv, stat)
                records.append(_record(name, human_name, "sys", "none", stat, value))
    return records


def _spa_or_nan(gold_seg: np.ndarray, seg: np.ndarray, n: int) -> float:
    try:
        return correlate(gold_seg, seg, "spa", num_sys=n)
    except ValueError:  # the systems' scored segments differ (DA): SPA is not defined
        return math.nan


def _record(metric, human, level, grouping, statistic, value) -> dict[str, Any]:
    return {"metric": metric, "human": human, "level": level, "grouping": grouping, "statistic": statistic,
            "value": None if value is None or (isinstance(value, float) and math.isnan(value)) else float(value)}


def task_table(
    human: LevelScores, metrics: Mapping[str, LevelScores], systems: Sequence[str], task_set: str = "wmt23", *,
    human_name: str = "human", k: int = 1000, seed: int | None = 1234, block_size: int = 100,
) -> list[dict[str, Any]]:
    """The tasks of ``task_set`` ('wmt23' or 'wmt24'): each metric's value and cluster rank per task, all
    tasks' significance tests drawing from one random stream (``seed``). Records carry ``rank``,
    ``task`` and ``task_set``."""
    if task_set not in TASK_SETS:
        raise ValueError(f"task_set: {task_set!r} is not one of {', '.join(TASK_SETS)}")
    n = len(systems)
    gold_seg, gold_sys = _packed(human, systems)
    packed = {name: _packed(lv, systems) for name, lv in metrics.items()}
    rng = np.random.RandomState(seed)
    records = []
    for task in TASK_SETS[task_set]:
        seg_input = task.level == "seg" or task.statistic == "spa"
        gold = gold_seg if seg_input else gold_sys
        scores = {name: (p[0] if seg_input else p[1]) for name, p in packed.items()}
        comp = compare_metrics(gold, scores, task.statistic, num_sys=n if seg_input else 1,
                               average_by=task.average_by, k=k if len(scores) > 1 else 0, rng=rng,
                               perm_test=task.perm_test, block_size=block_size)
        for name, value, rank in zip(comp.names, comp.values, comp.ranks):
            rec = _record(name, human_name, task.level, task.average_by, task.statistic, value)
            rec.update({"rank": rank, "task": task.label, "task_set": task_set})
            records.append(rec)
    return records
