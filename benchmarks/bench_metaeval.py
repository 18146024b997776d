"""Meta-evaluation and external scores: bleuscope against mt-metrics-eval (mtme), side by side in one run.

Tasks:

* **PERM-BOTH on acc23** (mtme ``PermutationSigDiff(corr1, corr2, KendallVariants, 'item', k,
  variant='acc23')``; bleuscope ``permutation_sig_diff(..., statistic='kendall_variant', variant='acc23',
  average_by='item')``), k = 1,000 permutations, no early stop, on 13 systems x 529 segments (MQM-like
  scores: half the segments tied at 0) and on the WMT22 zh-en MQM (8 systems and ref.B x 1,875 lines, BLEU
  against chrF sentence scores, from ../shared/data) when present. Same seed: the p-values must be equal.
* **pairwise permutation** (WMT23/24's segment-level test, ``perm_test='pairs'``), k = 1,000, 13 x 529.
* **paired bootstrap of an external score**: 16 systems x 3,000 segments of scores from a file (a
  ``Scores`` metric's exact fixed-point rows), 1,000 resamples, ``paired_bootstrap``.

mtme is optional: set ``MTME_PATH`` to a directory holding its ``mt_metrics_eval`` package (e.g. a checkout of
github.com/google-research/mt-metrics-eval; its ``data`` module is not needed). Being slow, it runs with
``--mtme-k`` permutations (default 20) and its time is scaled to k = 1,000 (linear in k; the note says so);
its p-value at that k is compared with bleuscope's at the same k.

    python benchmarks/bench_metaeval.py [--quick] [--mtme-k 20]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from functools import partial
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "data"


def mqm_like(n_sys: int, n_seg: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    gold = -(rng.integers(0, 3, n_sys * n_seg) * 5.0 + rng.integers(0, 2, n_sys * n_seg))
    gold[rng.random(gold.size) < 0.5] = -0.0
    m1 = gold + rng.normal(0, 4, gold.size)
    m2 = gold + rng.normal(0, 4.4, gold.size)
    return gold, m1, m2


def zh_en_mqm():
    from bleuscope import BLEU, CHRF
    from bleuscope.core.files import read_lines
    from bleuscope.metrics.scores import read_scores_files

    d = SHARED / "mt" / "generaltest2022" / "zh-en"
    human = SHARED / "human" / "derived" / "generaltest2022.zh-en.mqm.seg.tsv"
    if not human.exists():
        return None
    systems = ["AISP-SJTU", "HuaweiTSC", "JDExploreAcademy", "LanguageX", "Online-A", "Online-B", "Online-W", "ref.B"]
    texts = {s: list(read_lines(str(d / f"{s}.txt" if s.startswith("ref.") else d / "sys" / f"{s}.txt")))
             for s in systems}
    refs = [list(read_lines(str(d / "ref.A.txt")))]
    gold = read_scores_files([str(human)], systems, len(refs[0]), allow_missing=True)
    g = np.concatenate([gold[s] for s in systems])
    m1 = np.concatenate([np.asarray(BLEU().sentence_scores(texts[s], refs)) for s in systems])
    m2 = np.concatenate([np.asarray(CHRF().sentence_scores(texts[s], refs)) for s in systems])
    return g, m1, m2, len(systems)


def timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def mtme_modules():
    path = os.environ.get("MTME_PATH")
    if not path:
        return None
    sys.path.insert(0, path)
    try:
        from mt_metrics_eval import stats
    except ImportError as e:
        print(f"mtme not importable from MTME_PATH={path}: {e}")
        return None
    return stats


def measure(quick: bool, mtme_k: int = 20) -> list[tuple]:
    """``(task, data, tool, wall s, CPU s, note)`` of every task."""
    from bleuscope.analysis.metaeval import pairwise_permutation_sig_diff, permutation_sig_diff
    from bleuscope.analysis.significance import paired_bootstrap
    from bleuscope.metrics.scores import Scores

    k = 200 if quick else 1000
    stats = mtme_modules()
    sets = [("13 x 529 MQM-like", *mqm_like(13, 529), 13)]
    real = zh_en_mqm()
    if real is not None:
        sets.append(("WMT22 zh-en MQM 8+1 x 1875 (BLEU vs chrF)", *real))
    rows = []
    for label, g, m1, m2, n_sys in sets:
        res, wall, cpu = timed(partial(
            permutation_sig_diff, g, m1, m2, num_sys=n_sys, statistic="kendall_variant", variant="acc23",
            average_by="item", k=k, seed=1, block_size=k))
        rows.append((f"PERM-BOTH acc23 item k={k}", label, "bleuscope", wall, cpu, f"p={res.p}"))
        if stats is not None:
            gl = [None if np.isnan(x) else float(x) for x in g]
            c1, c2 = stats.Correlation(n_sys, gl, list(map(float, m1))), stats.Correlation(n_sys, gl, list(map(float, m2)))
            params = stats.PermutationSigDiffParams(block_size=mtme_k)
            np.random.seed(1)
            (p, _, _, _), mw, mc = timed(partial(
                stats.PermutationSigDiff, c1, c2, stats.KendallVariants, "item", mtme_k, params,
                variant="acc23"))
            ours = permutation_sig_diff(g, m1, m2, num_sys=n_sys, statistic="kendall_variant", variant="acc23",
                                        average_by="item", k=mtme_k, seed=1, block_size=mtme_k).p
            scale = k / mtme_k
            rows.append((f"PERM-BOTH acc23 item k={k}", label, "mtme", mw * scale, mc * scale,
                         f"k={mtme_k} scaled x{scale:g}; p equal to bleuscope's at k={mtme_k}: {p == ours}"))
    g, m1, m2 = mqm_like(13, 529)
    res, wall, cpu = timed(lambda: pairwise_permutation_sig_diff(g, m1, m2, num_sys=13, average_by="item", k=k,
                                                                 seed=1, block_size=k))
    rows.append((f"pairwise permutation acc_eq item k={k}", "13 x 529 MQM-like", "bleuscope", wall, cpu,
                 f"p={res.p}"))
    if stats is not None:
        gl = [None if np.isnan(x) else float(x) for x in g]
        c1, c2 = stats.Correlation(13, gl, list(map(float, m1))), stats.Correlation(13, gl, list(map(float, m2)))
        mk = max(1, mtme_k // 2)
        np.random.seed(1)
        (p, _, _, _), mw, mc = timed(lambda: stats.PairwisePermutationSigDiff(
            c1, c2, "acc23", "item", mk, stats.PermutationSigDiffParams(block_size=mk), sample_rate=1.0))
        ours = pairwise_permutation_sig_diff(g, m1, m2, num_sys=13, average_by="item", k=mk, seed=1, block_size=mk).p
        rows.append((f"pairwise permutation acc_eq item k={k}", "13 x 529 MQM-like", "mtme", mw * k / mk,
                     mc * k / mk, f"k={mk} scaled x{k / mk:g}; p equal at k={mk}: {p == ours}"))
    rng = np.random.default_rng(2)
    base = rng.normal(0.8, 0.1, 3000)
    values = {f"sys{i:02d}": base + rng.normal(i * 1e-3, 0.05, 3000) for i in range(16)}
    sc = Scores("COMET", values)
    systems = {s: sc.statistics(s) for s in sc.systems}
    res, wall, cpu = timed(lambda: paired_bootstrap(systems, metric=sc, n_samples=1000))
    rows.append(("paired bootstrap of external scores, 1000 resamples", "16 x 3000", "bleuscope", wall, cpu,
                 "target < 1 s"))
    return rows


def run(quick: bool = False) -> list[dict]:
    """The rows of ``benchmarks/bench.py``: CPU seconds, the data in the task."""
    return [{"task": f"{task}, {data}", "tool": tool, "seconds": cpu, "peak_mb": None,
             "note": f"{note}; wall {wall:.2f} s"} for task, data, tool, wall, cpu, note in measure(quick)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="k = 200 instead of 1,000")
    ap.add_argument("--mtme-k", type=int, default=20)
    args = ap.parse_args()
    rows = measure(args.quick, args.mtme_k)
    print(f"{'task':52} {'data':44} {'tool':10} {'wall s':>8} {'cpu s':>8}  note")
    for task, data, tool, wall, cpu, note in rows:
        print(f"{task:52} {data:44} {tool:10} {wall:8.2f} {cpu:8.2f}  {note}")
    by = {}
    for task, data, tool, _wall, cpu, _ in rows:
        by.setdefault((task, data), {})[tool] = cpu
    for (task, data), tools in by.items():
        if "mtme" in tools and "bleuscope" in tools:
            print(f"ratio {task} on {data}: mtme / bleuscope CPU = {tools['mtme'] / tools['bleuscope']:.0f}x")


if __name__ == "__main__":
    main()
