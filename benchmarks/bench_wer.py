"""Edit rates: bleuscope against jiwer 4.0.0 and werx, side by side in one run, ratios printed.

Data: WMT system/reference pairs from ``../shared/data/mt`` (every system against its pair's first
reference) whose two sides both have 5 to 35 words, repeated in order up to the size asked (50,000 pairs by
default, ``--quick``: 10,000).

Tasks (one thread unless said; CPU seconds of the best of three rounds, two with ``--quick``):

* ``wer`` of the corpus: ``bleuscope.jiwer.wer(refs, hyps)`` (the drop-in; the process capped at one core
  thread), ``WER(threads=1).corpus_score`` (the metric: rows with H, S, D, I), ``werx.wer`` (its Rayon pool
  at one thread), and against ``jiwer.wer`` on every 10th pair (both on the same pairs). Target: at most 1.5
  us a pair, at least 60x jiwer and 4x werx;
* ``process_words`` with the alignment chunks: bleuscope's drop-in on all pairs, and against jiwer's on
  every 10th pair (both on the same pairs). Target: at most 8 us a pair;
* two core threads against one, wall seconds: ``WER(threads=2)`` against ``WER(threads=1)`` and the drop-in's
  ``wer`` capped at 2 against 1, on four times the pairs. Target: 1.8x;
* paired bootstrap of corpus WER, 16 systems x 3,000 segments x 1,000 resamples, counting included (the
  systems: the 8 of WMT22 en-de, and each again with every 7th word dropped). Target: under 1 s.

Every value is checked against jiwer's on the pairs it scores (a mismatch is printed, never hidden).
``run(quick)`` gives the rows of ``benchmarks/bench.py``'s table (the ``bleuscope`` row of each task is the
reference of its ratios).

    python benchmarks/bench_wer.py [--quick]
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parent.parent / "shared" / "data" / "mt"
# werx counts in a Rayon pool: one thread, as every other tool here (read when werx is first imported)
os.environ.setdefault("RAYON_NUM_THREADS", "1")


def read_lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def wmt_pairs(n: int) -> tuple[list[str], list[str]]:
    refs, hyps = [], []
    for base in sorted(p for p in DATA.glob("*/*") if (p / "sys").is_dir()):
        ref = read_lines(sorted(base.glob("ref.*.txt"))[0])
        for system in sorted((base / "sys").glob("*.txt")):
            for r, h in zip(ref, read_lines(system)):
                if 5 <= len(r.split()) <= 35 and 5 <= len(h.split()) <= 35:
                    refs.append(r)
                    hyps.append(h)
    k = len(refs)
    return [refs[i % k] for i in range(n)], [hyps[i % k] for i in range(n)]


def best(fn, rounds: int) -> tuple[float, float, object]:
    """(best CPU seconds, its wall seconds, the result)."""
    out = None
    times = []
    for _ in range(rounds):
        c0, w0 = time.process_time(), time.perf_counter()
        out = fn()
        times.append((time.process_time() - c0, time.perf_counter() - w0))
    cpu, wall = min(times)
    return cpu, wall, out


def load() -> str:
    return f"load {os.getloadavg()[0]:.1f}"


def run(quick: bool = False) -> list[dict]:
    """The rows of every task (module docstring); prints each figure and the targets as it goes."""
    n = 10_000 if quick else 50_000
    rounds = 2 if quick else 3

    import jiwer

    from bleuscope import jiwer as bj
    from bleuscope.analysis.significance import paired_bootstrap
    from bleuscope.core import native
    from bleuscope.metrics.wer import WER

    refs, hyps = wmt_pairs(n)
    sub_refs, sub_hyps = refs[::10], hyps[::10]
    n_sub = len(sub_refs)
    print(f"{n} pairs of 5-35 words, {load()}")
    rows: list[dict] = []

    def row(task, tool, seconds, pairs, note=""):
        per_pair = seconds / pairs * 1e6
        rows.append({"task": task, "tool": tool, "seconds": seconds, "peak_mb": None,
                     "note": f"{per_pair:.2f} us/pair, {load()}" + (f"; {note}" if note else "")})
        print(f"  {task:<34} {tool:<36} {per_pair:9.2f} us/pair  {note}", flush=True)

    # -- wer ------------------------------------------------------------------------------------------
    task, task_sub = f"wer, {n} pairs", f"wer, {n_sub} pairs"
    native.set_process_threads(1)
    ours, _, value = best(lambda: bj.wer(refs, hyps), rounds)
    row(task, "bleuscope", ours, n, "bleuscope.jiwer.wer")
    cpu, _, metric_value = best(lambda: WER(threads=1).corpus_score(hyps, [refs]), rounds)
    row(task, "bleuscope WER().corpus_score", cpu, n, "rows of H, S, D, I; the input checked")
    ours_sub, _, value_sub = best(lambda: bj.wer(sub_refs, sub_hyps), rounds)
    row(task_sub, "bleuscope", ours_sub, n_sub, "bleuscope.jiwer.wer")
    native.set_process_threads(None)
    cpu_j, _, value_j = best(lambda: jiwer.wer(sub_refs, sub_hyps), rounds)
    row(task_sub, "jiwer 4.0.0", cpu_j, n_sub)
    ratios = {"jiwer": cpu_j / ours_sub}
    check = value_sub == value_j and value == jiwer.wer(refs, hyps) and metric_value.rate == value
    try:
        import werx

        cpu_x, _, value_x = best(lambda: werx.wer(refs, hyps), rounds)
        row(task, "werx", cpu_x, n, f"werx {value_x!r}, jiwer {value!r}")
        ratios["werx"] = cpu_x / ours
    except ImportError:
        print("  werx is not installed: pip install werx")
    print(f"  -> wer: {ours / n * 1e6:.2f} us/pair (target <= 1.5), "
          + ", ".join(f"{k} {v:.1f}x" for k, v in ratios.items()) + " (targets jiwer >= 60x, werx >= 4x); "
          f"values == jiwer: {check}", flush=True)

    # -- process_words ---------------------------------------------------------------------------------
    task, task_sub = f"process_words, {n} pairs", f"process_words, {n_sub} pairs"
    native.set_process_threads(1)
    ours_pw, _, _ = best(lambda: bj.process_words(refs, hyps), rounds)
    row(task, "bleuscope", ours_pw, n, "bleuscope.jiwer.process_words")
    # the same calls on the same pairs for the ratio: the Python objects of 50,000 pairs make the
    # collector's passes dearer than those of 5,000 (jiwer's and the drop-in's results alike)
    cpu_sub, _, mine_sub = best(lambda: bj.process_words(sub_refs, sub_hyps), rounds)
    row(task_sub, "bleuscope", cpu_sub, n_sub, "bleuscope.jiwer.process_words")
    native.set_process_threads(None)
    cpu_j, _, out_j = best(lambda: jiwer.process_words(sub_refs, sub_hyps), rounds)
    row(task_sub, "jiwer 4.0.0", cpu_j, n_sub)

    def view(out):
        return [[(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in s]
                for s in out.alignments]

    same = view(mine_sub) == view(out_j) and mine_sub.wer == out_j.wer and mine_sub.wip == out_j.wip
    print(f"  -> process_words: {ours_pw / n * 1e6:.2f} us/pair (target <= 8), "
          f"jiwer {cpu_j / cpu_sub:.1f}x on the same pairs; chunks == jiwer: {same}", flush=True)

    # -- threads ---------------------------------------------------------------------------------------
    big_refs, big_hyps = refs * 4, hyps * 4
    for what, call in (("WER().corpus_score", lambda t: WER(threads=t).corpus_score(big_hyps, [big_refs])),
                       ("bleuscope.jiwer.wer", lambda t: bj.wer(big_refs, big_hyps))):
        task = f"{what}, {len(big_refs)} pairs, wall"
        walls = {}
        for t in (1, 2):
            native.set_process_threads(t)
            _, walls[t], _ = best(lambda t=t, call=call: call(t), rounds)
            native.set_process_threads(None)
            row(task, "bleuscope" if t == 1 else "bleuscope, 2 threads", walls[t], len(big_refs), "wall seconds")
        print(f"  -> {what} 2 threads vs 1: {walls[1] / walls[2]:.2f}x (target >= 1.8)", flush=True)

    # -- paired bootstrap ------------------------------------------------------------------------------
    base = DATA / "generaltest2022" / "en-de"
    ref = read_lines(base / "ref.A.txt")
    segs = 3000
    ref3k = [ref[i % len(ref)] for i in range(segs)]
    systems = {}
    for path in sorted((base / "sys").glob("*.txt")):
        lines = read_lines(path)
        out3k = [lines[i % len(lines)] for i in range(segs)]
        systems[path.stem] = out3k
        systems[path.stem + "-drop7"] = [" ".join(w for k, w in enumerate(s.split()) if k % 7 != 6) for s in out3k]
    native.set_process_threads(1)
    cpu, wall, _ = best(lambda: paired_bootstrap(systems, [ref3k], metric=WER(threads=1), n_samples=1000), rounds)
    native.set_process_threads(None)
    rows.append({"task": f"paired bootstrap of WER, {len(systems)} x {segs} x 1000", "tool": "bleuscope",
                 "seconds": cpu, "peak_mb": None, "note": f"CPU seconds ({wall:.3f} s wall), {load()}"})
    print(f"  paired bootstrap {len(systems)} systems x {segs} segments x 1000 resamples: {cpu:.3f} CPU-s, "
          f"{wall:.3f} s wall (target < 1 s)", flush=True)
    return rows


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    from bench import standalone_main

    standalone_main(run, __doc__.splitlines()[0], "10,000 pairs instead of 50,000, two rounds instead of three")
