"""``comet-compare``'s significance table on segment scores of any metric (COMET's ``comet/cli/compare.py``).

The procedure, as COMET runs it after ``seed_everything(1)`` (which seeds numpy's global legacy stream
with 1): segment scores as float32 ``[systems, segments]``; one draw of
``np.random.choice(N, size=(max(int(N * sample_ratio), 1), num_splits))`` shared by every system; each
split's system score the float32 mean of its sampled segments; for each pair of systems (in the order
given) the share of splits where x beats y by at least ``EPS`` = 0.001, where y beats x by as much, and
ties (|difference| < EPS); and a paired t-test (``scipy.stats.ttest_rel``, scipy needed) on the segment
scores. The summary grid marks x -> y when the t-test's p < 0.05 and x's bootstrap mean is higher.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

EPS = 0.001


@dataclass(frozen=True)
class PairResult:
    x_name: str
    y_name: str
    x_mean: float
    y_mean: float
    ties: float
    x_wins: float
    y_wins: float
    statistic: float
    p_value: float


def comet_compare(
    scores: Mapping[str, Sequence[float] | np.ndarray], *, num_splits: int = 300, sample_ratio: float = 0.4, seed: int = 1,
    alternative: str = "two-sided",
) -> list[PairResult]:
    """Every pair of systems (``itertools.combinations`` order), as comet-compare computes them."""
    try:
        from scipy import stats
    except ImportError as e:  # the paired t-test
        raise ImportError("comet_compare needs scipy for its paired t-test: pip install scipy") from e
    names = list(scores)
    if len(names) < 2:
        raise ValueError("scores: comet-compare needs at least 2 systems")
    seg = np.array([np.asarray(scores[n], dtype=np.float64) for n in names], dtype="float32")
    if seg.ndim != 2:
        raise ValueError("scores: every system needs the same number of segment scores")
    population = seg.shape[1]
    ids = np.random.RandomState(seed).choice(population, size=(max(int(population * sample_ratio), 1), num_splits),
                                             replace=True)
    sys_scores = np.mean(np.take(seg, ids, axis=1), axis=1)  # [systems, splits], float32
    out = []
    for (xi, x), (yi, y) in itertools.combinations(enumerate(names), 2):
        delta = sys_scores[xi] - sys_scores[yi]
        ties = float(len(np.absolute(delta)[np.absolute(delta) < EPS]))
        x_wins = float(len(delta[delta >= EPS]))
        y_wins = float(len(delta[delta <= -EPS]))
        t = stats.ttest_rel(seg[xi], seg[yi], alternative=alternative)
        out.append(PairResult(x, y, float(np.mean(sys_scores[xi])), float(np.mean(sys_scores[yi])),
                              ties / num_splits, x_wins / num_splits, y_wins / num_splits, float(t.statistic),
                              float(t.pvalue)))
    return out


def format_pair(r: PairResult) -> str:
    """One pair's block as comet-compare prints it."""
    lines = ["==========================", f"x_name: {r.x_name}", f"y_name: {r.y_name}", "",
             "Bootstrap Resampling Results:"]
    for k, v in (("x-mean", r.x_mean), ("y-mean", r.y_mean), ("ties (%)", r.ties), ("x_wins (%)", r.x_wins),
                 ("y_wins (%)", r.y_wins)):
        lines.append(f"{k}:\t{v:.4f}")
    lines += ["", "Paired T-Test Results:", f"statistic:\t{r.statistic:.4f}", f"p_value:\t{r.p_value:.4f}"]
    best = r.x_name if r.x_mean > r.y_mean else r.y_name
    worse = r.x_name if r.x_mean < r.y_mean else r.y_name
    if r.p_value <= 0.05:
        lines += ["Null hypothesis rejected according to t-test.", "Scores differ significantly across samples.",
                  f"{best} outperforms {worse}."]
    else:
        lines += ["Null hypothesis can't be rejected.", "Both systems have equal averages."]
    return "\n".join(lines)


def summary_grid(results: Sequence[PairResult], names: Sequence[str], threshold: float = 0.05) -> list[list]:
    """The summary's grid: ``grid[x][y]`` True when x significantly beats y, False when tested, None on the
    diagonal."""
    index = {n: i for i, n in enumerate(names)}
    grid: list[list] = [[None] * len(names) for _ in names]
    for r in results:
        x, y = index[r.x_name], index[r.y_name]
        grid[x][y] = grid[y][x] = False
        if r.p_value < threshold:
            if r.x_mean > r.y_mean:
                grid[x][y] = True
            else:
                grid[y][x] = True
    return grid


def format_report(results: Sequence[PairResult], names: Sequence[str], threshold: float = 0.05) -> str:
    """Every pair's block, then the summary (the grid in tabulate's plain 'simple' layout)."""
    grid = summary_grid(results, names, threshold)
    headers = ["system_x \\ system_y", *names]
    rows = [[n, *("" if v is None else str(v) for v in row)] for n, row in zip(names, grid)]
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows)]

    def line(cells):
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    table = [line(headers), "  ".join("-" * w for w in widths), *(line(r) for r in rows)]
    head = ["Summary", "If system_x is better than system_y then:",
            f"Null hypothesis rejected according to t-test with p_value={threshold}.",
            "Scores differ significantly across samples."]
    return "\n".join([*(format_pair(r) for r in results), "", *head, *table]) + "\n"
