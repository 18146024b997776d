"""Significance tests, bleuscope vs sacreBLEU 2.6.0 in the same run, on WMT22 en-de (../shared/data/mt).

Setting: reference A, a baseline plus 8 systems (Online-B as the baseline, the other 7 MT systems and the
human translation B as systems), 2037 segments. Tasks:

* paired bootstrap, 1000 resamples (``sacrebleu --paired-bs``): sacreBLEU's ``PairedTest`` (references
  cached in the metric, as its command does; one process, its default) against
  ``bleuscope.analysis.significance.paired_bootstrap`` -- both from text, statistics extraction included;
* paired approximate randomization, 10000 trials (``--paired-ar``), the same way;
* the same two tests from cached statistics: bleuscope from ``SegmentStatistics``; for sacreBLEU, its
  end-to-end time minus its own statistics extraction for the 9 systems (measured separately, shown as a task);
* all pairs (36 comparisons) with the paired bootstrap: bleuscope's ``all_pairs`` against 9 sacreBLEU runs,
  one per baseline (sacreBLEU has no all-pairs mode); full run only.

Every bleuscope result is checked to be identical to sacreBLEU's (scores, p-values, means, CIs).

    python benchmarks/bench_significance.py [--quick]

``--quick``: baseline + 2 systems, 2000 AR trials, one repetition. ``run(quick)`` returns rows
``{"task", "tool", "seconds", "peak_mb", "note"}``; the best of the repetitions is reported.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"
PAIR = DATA / "generaltest2022" / "en-de"


def _read(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _systems(quick: bool) -> tuple[list[tuple[str, list[str]]], list[list[str]]]:
    names = ["Online-B"] + sorted(p.stem for p in (PAIR / "sys").glob("*.txt") if p.stem != "Online-B")
    systems = [(n, _read(PAIR / "sys" / f"{n}.txt")) for n in names] + [("Human-B", _read(PAIR / "ref.B.txt"))]
    if quick:
        systems = systems[:3]
    return systems, [_read(PAIR / "ref.A.txt")]


def _sacre_paired(systems, refs, test: str, n: int):
    import sacrebleu
    from sacrebleu.significance import PairedTest

    metric = sacrebleu.BLEU(references=refs)
    ps = PairedTest(systems, {"BLEU": metric}, references=None, test_type=test, n_samples=n, n_jobs=1)
    return ps()[1]["BLEU"]


def _same(ours, theirs) -> bool:
    return all(
        a.score == b.score and a.p_value == b.p_value
        and (a.mean is None if b.mean is None else (a.mean, a.ci) == (float(b.mean), float(b.ci)))
        for a, b in zip(ours.systems, theirs)
    ) and len(ours.systems) == len(theirs)


def _best(fn, repeats: int):
    best, result = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t0)
    return best, result


def run(quick: bool = False) -> list[dict]:
    import sacrebleu

    from bleuscope import BLEU
    from bleuscope.analysis.significance import all_pairs, paired_ar, paired_bootstrap, system_statistics

    rows: list[dict] = []
    if not PAIR.exists():
        return rows
    saved_seed = os.environ.pop("SACREBLEU_SEED", None)  # sacreBLEU's default seed 12345, like bleuscope's
    try:
        systems, refs = _systems(quick)
        k = len(systems) - 1
        repeats = 1 if quick else 2
        n_bs, n_ar = 1000, 2000 if quick else 10000
        where = f"WMT22 en-de, {len(refs[0])} segments, ref A"
        bleu = BLEU()

        # statistics extraction alone (9 systems)
        def sacre_stats():
            metric = sacrebleu.BLEU(references=refs)
            return [metric._extract_corpus_statistics(h, None) for _, h in systems]

        t_sacre_stats, _ = _best(sacre_stats, repeats)
        t_ours_stats, segs = _best(lambda: system_statistics(bleu, [h for _, h in systems], refs), repeats)
        stats = [(n, seg) for (n, _), seg in zip(systems, segs)]
        task = f"per-segment statistics, {k + 1} systems ({where})"
        rows.append({"task": task, "tool": "bleuscope", "seconds": t_ours_stats, "peak_mb": None,
                     "note": "significance.system_statistics (references encoded once)"})
        rows.append({"task": task, "tool": "sacrebleu", "seconds": t_sacre_stats, "peak_mb": None,
                     "note": "BLEU(references=...)._extract_corpus_statistics"})

        for test, n, label, fn in (("bs", n_bs, "paired bootstrap", paired_bootstrap),
                                   ("ar", n_ar, "paired approximate randomization", paired_ar)):
            unit = "resamples" if test == "bs" else "trials"
            t_sacre, theirs = _best(lambda: _sacre_paired(systems, refs, test, n), repeats)
            t_text, ours_text = _best(lambda: fn(systems, refs, metric=bleu, n_samples=n), repeats)
            t_cached, ours = _best(lambda: fn(stats, metric=bleu, n_samples=n), repeats)
            same = _same(ours_text, theirs) and _same(ours, theirs)
            note = "identical results" if same else "RESULTS DIFFER"
            task = f"{label}, baseline + {k} systems, {n} {unit}, from text ({where})"
            rows.append({"task": task, "tool": "bleuscope", "seconds": t_text, "peak_mb": None, "note": note})
            rows.append({"task": task, "tool": "sacrebleu", "seconds": t_sacre, "peak_mb": None,
                         "note": "PairedTest, 1 process (sacrebleu CLI default)"})
            task = f"{label}, baseline + {k} systems, {n} {unit}, from cached statistics"
            rows.append({"task": task, "tool": "bleuscope", "seconds": t_cached, "peak_mb": None, "note": note})
            rows.append({"task": task, "tool": "sacrebleu", "seconds": max(t_sacre - t_sacre_stats, 1e-9),
                         "peak_mb": None, "note": "PairedTest time minus its statistics extraction (estimate)"})

        if not quick:
            def sacre_all():
                out = {}
                for b in range(len(systems)):
                    order = [systems[b]] + [s for i, s in enumerate(systems) if i != b]
                    res = _sacre_paired(order, refs, "bs", n_bs)
                    for (name, _), r in zip(order[1:], res[1:]):
                        out[(order[0][0], name)] = r.p_value
                return out

            t_sacre, theirs = _best(sacre_all, 1)
            t_ours, ours = _best(lambda: all_pairs(stats, metric=bleu, n_samples=n_bs), repeats)
            same = all(ours.p_value(a, b) == p for (a, b), p in theirs.items())
            n_pairs = (k + 1) * k // 2
            task = f"all pairs ({n_pairs} comparisons), paired bootstrap, {n_bs} resamples, {k + 1} systems"
            rows.append({"task": task, "tool": "bleuscope", "seconds": t_ours, "peak_mb": None,
                         "note": ("identical p-values" if same else "P-VALUES DIFFER") + ", from cached statistics, "
                                 "with clusters"})
            rows.append({"task": task, "tool": "sacrebleu", "seconds": t_sacre, "peak_mb": None,
                         "note": f"{k + 1} PairedTest runs, one per baseline, from text"})
    finally:
        if saved_seed is not None:
            os.environ["SACREBLEU_SEED"] = saved_seed
    return rows


def main() -> None:
    from bench import standalone_main

    standalone_main(run, __doc__.splitlines()[0], "baseline + 2 systems, 2000 AR trials, one repetition")


if __name__ == "__main__":
    main()
