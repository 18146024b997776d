"""Pairwise sentence BLEU (MBR matrices), 512 x 512: bleuscope vs a loop of sacreBLEU ``sentence_score``.

Two tasks on the WMT22 en-de data in ../shared/data/mt, both with ``effective_order=True`` (sacreBLEU's
advice for sentence BLEU; mbrs' default):

* ``WMT segments``: the first 512 outputs of Online-B against the first 512 lines of reference A (every
  hypothesis against every reference: mostly unrelated sentences, sparse n-gram overlap);
* ``MBR samples``: 512 candidates for one source segment, all against all (hypotheses = pseudo-references),
  made from the 8 systems' and 2 references' translations of segment 5 with ~15% of the words dropped at
  random (seeded) -- a stand-in for sampled candidates: dense overlap, many repeated n-grams.

sacreBLEU's loop is timed on a subsample of hypothesis rows (every column) and extrapolated linearly to all
rows (each pair costs the same work: one ``sentence_score`` call); the note says how many rows were timed.
The subsample's scores are checked to be bit-identical to bleuscope's matrix rows.

    python benchmarks/bench_pairwise.py [--quick]

``run(quick)`` returns rows ``{"task", "tool", "seconds", "peak_mb", "note"}``; bleuscope's time is the best of
the repetitions and ``peak_mb`` tracemalloc's peak of a separate run.
"""

from __future__ import annotations

import logging
import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"
N = 512


def _read(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def mbr_samples(n: int = N, segment: int = 5, seed: int = 0) -> list[str]:
    base = DATA / "generaltest2022" / "en-de"
    sources = [_read(p)[segment] for p in sorted((base / "sys").glob("*.txt"))]
    sources += [_read(base / f"ref.{r}.txt")[segment] for r in ("A", "B")]
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        words = sources[i % len(sources)].split()
        keep = rng.random(len(words)) > 0.15
        out.append(" ".join(w for w, k in zip(words, keep) if k))
    return out


def _peak_mb(fn) -> float:
    from bench import tracemalloc_peak_mb

    return tracemalloc_peak_mb(fn)


def run(quick: bool = False) -> list[dict]:
    import sacrebleu

    from bleuscope import BLEU
    from bleuscope.analysis.mbr import expected_utility

    base = DATA / "generaltest2022" / "en-de"
    if not base.exists():
        return []
    logging.getLogger("sacrebleu").setLevel(logging.ERROR)
    tasks = [
        (f"pairwise BLEU {N}x{N}, WMT22 en-de segments vs references",
         _read(base / "sys" / "Online-B.txt")[:N], _read(base / "ref.A.txt")[:N]),
        (f"pairwise BLEU {N}x{N}, MBR samples of one segment (self)", mbr_samples(), None),
    ]
    repeats = 2 if quick else 5
    sub_rows = 4 if quick else 32
    rows = []
    for task, hyps, refs in tasks:
        refs_or_self = hyps if refs is None else refs
        bleu = BLEU(effective_order=True)
        fn = lambda: bleu.pairwise(hyps, refs_or_self)  # noqa: E731
        best = float("inf")
        for _ in range(repeats):
            t0 = time.perf_counter()
            matrix = fn()
            best = min(best, time.perf_counter() - t0)
        note = f"BLEU(effective_order=True).pairwise, best of {repeats}, each string tokenized once"
        rows.append({"task": task, "tool": "bleuscope", "seconds": best, "peak_mb": _peak_mb(fn), "note": note})
        if refs is None:
            t0 = time.perf_counter()
            expected_utility(hyps, bleu=bleu)
            rows.append({"task": task, "tool": "bleuscope-mbr", "seconds": time.perf_counter() - t0,
                         "peak_mb": None, "note": "expected_utility (matrix + weighted mean), one run"})

        sb = sacrebleu.BLEU(effective_order=True)
        pick = np.linspace(0, len(hyps) - 1, sub_rows).astype(int)
        t0 = time.perf_counter()
        sub = [[sb.sentence_score(hyps[h], [r]).score for r in refs_or_self] for h in pick]
        seconds = (time.perf_counter() - t0) * len(hyps) / sub_rows
        same = np.array_equal(np.array(sub), matrix[pick])
        rows.append({"task": task, "tool": "sacrebleu", "seconds": seconds, "peak_mb": None,
                     "note": f"sentence_score loop timed on {sub_rows} of {len(hyps)} rows x {len(refs_or_self)} "
                             f"columns, extrapolated; scores {'bit-identical' if same else 'DIFFERENT'}"})
    return rows


def main() -> None:
    from bench import standalone_main

    standalone_main(run, __doc__.splitlines()[0], "fewer repetitions, smaller sacreBLEU subsample")


if __name__ == "__main__":
    main()
