"""bleuscope.nltk against NLTK 3.10.4 on 100,000 real WMT segments (whitespace tokens).

Tasks: ``corpus_bleu`` (no smoothing, and method 5), and a batch of ``sentence_bleu`` calls (method 1 and
method 5; NLTK: a Python loop, bleuscope: ``sentence_bleu_batch``). Results are checked to be equal before
the timings are reported. Run ``python benchmarks/bench_nltk.py [--quick]`` (quick: 10,000 segments).
"""

from __future__ import annotations

import argparse
import gc
import math
import sys
import time
import tracemalloc
import warnings
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"
PAIRS = [  # (pair dir, reference names): European targets, as in shared/tools/make_corpus.py
    ("generaltest2022/en-de", ("A", "B")), ("generaltest2022/de-en", ("A", "B")),
    ("generaltest2022/cs-en", ("B", "C")), ("generaltest2022/zh-en", ("A", "B")),
    ("newstest2021/en-de", ("A", "C", "D")), ("newstest2021/en-ru", ("A", "B")),
]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def load_segments(n: int):
    """n (hypothesis tokens, [reference tokens]) pairs; every system file with a rotating reference."""
    hyps, refs = [], []
    k = 0
    while len(hyps) < n:
        for pair, ref_names in PAIRS:
            base = DATA / pair
            for sys_file in sorted((base / "sys").glob("*.txt")):
                ref = _lines(base / f"ref.{ref_names[k % len(ref_names)]}.txt")
                hyps.extend(line.split() for line in _lines(sys_file))
                refs.extend([line.split()] for line in ref)
        k += 1
    return refs[:n], hyps[:n]


def _timed(fn, *args, **kwargs):
    """(result, wall seconds, process CPU seconds); the cyclic GC is off while timing, for both tools."""
    gc.collect()
    gc.disable()
    try:
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn(*args, **kwargs)
        return out, time.perf_counter() - t0, time.process_time() - c0
    finally:
        gc.enable()


def _peak_mb(fn, *args, **kwargs) -> float:
    gc.collect()
    tracemalloc.start()
    try:
        fn(*args, **kwargs)
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def _same(a, b) -> bool:
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and (a == b or math.isclose(a, b, rel_tol=1e-12))


def run(quick: bool = False) -> list[dict]:
    from bleuscope.integrations import nltk as bn

    try:
        from nltk.translate import bleu_score as nb
    except ImportError:  # pragma: no cover
        nb = None
    n = 10_000 if quick else 100_000
    refs, hyps = load_segments(n)
    rows = []

    def nltk_batch(method):
        sf = getattr(nb.SmoothingFunction(), f"method{method}")
        return [nb.sentence_bleu(r, h, smoothing_function=sf) for r, h in zip(refs, hyps)]

    tasks = [
        (f"nltk corpus_bleu {n:,} segs", lambda: bn.corpus_bleu(refs, hyps),
         (lambda: nb.corpus_bleu(refs, hyps)) if nb else None),
        (f"nltk corpus_bleu method5 {n:,} segs",
         lambda: bn.corpus_bleu(refs, hyps, smoothing_function=bn.SmoothingFunction().method5),
         (lambda: nb.corpus_bleu(refs, hyps, smoothing_function=nb.SmoothingFunction().method5)) if nb else None),
        (f"nltk sentence_bleu x{n:,} method1",
         lambda: bn.sentence_bleu_batch(refs, hyps, smoothing_function=bn.SmoothingFunction().method1),
         (lambda: nltk_batch(1)) if nb else None),
        (f"nltk sentence_bleu x{n:,} method5",
         lambda: bn.sentence_bleu_batch(refs, hyps, smoothing_function=bn.SmoothingFunction().method5),
         (lambda: nltk_batch(5)) if nb else None),
    ]
    with warnings.catch_warnings():  # method 0's zero-match warnings
        warnings.simplefilter("ignore")
        for task, ours_fn, theirs_fn in tasks:
            ours, t_ours, cpu_ours = _timed(ours_fn)
            same = ""
            if theirs_fn is not None:
                theirs, t_theirs, cpu_theirs = _timed(theirs_fn)
                same = "equal results; " if _same(ours, theirs) else "RESULTS DIFFER; "
                rows.append({"task": task, "tool": "nltk-3.10.4", "seconds": t_theirs, "peak_mb": None,
                             "note": f"{same}cpu {cpu_theirs:.2f} s"})
            rows.append({"task": task, "tool": "bleuscope", "seconds": t_ours, "peak_mb": _peak_mb(ours_fn),
                         "note": f"{same}cpu {cpu_ours:.2f} s"})
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true", help="10,000 segments instead of 100,000")
    args = ap.parse_args(argv)
    rows = run(quick=args.quick)
    ref = {r["task"]: r["seconds"] for r in rows if r["tool"] == "bleuscope"}
    print(f"{'task':40} {'tool':12} {'seconds':>9} {'x bleuscope':>12} {'peak MB':>8}  note")
    for r in rows:
        ratio = r["seconds"] / ref[r["task"]] if ref.get(r["task"]) else float("nan")
        peak = f"{r['peak_mb']:.0f}" if r["peak_mb"] is not None else "-"
        print(f"{r['task']:40} {r['tool']:12} {r['seconds']:9.3f} {ratio:12.1f} {peak:>8}  {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
