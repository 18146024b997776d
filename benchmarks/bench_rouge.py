"""ROUGE: bleuscope against rouge-score 0.1.2 and rouge-score-rs, side by side in one run, per ROUGE type.

Data: 100,000 summary-like pairs, each three consecutive lines of the corpus that
``../shared/tools/make_corpus.py`` builds from real WMT system outputs and references (European-target
pairs), joined with newlines (so rougeLsum sees three sentences); the corpus is written to
``../bench-data/300k`` next to the repository if missing, never inside it.

Tasks, for rouge1, rouge2, rougeL, rougeLsum and the four together: sentence scores of every pair (precision,
recall and F per type; no stemming).

* bleuscope: ``ROUGE(types, threads=T).sentence_scores(hyps, [refs])``, and rouge-score-rs:
  ``RougeScorer(types).score_batch(refs, hyps)``, with T = 1 and 2, side by side: one subprocess per T
  (rouge-score-rs's thread pool reads ``RAYON_NUM_THREADS`` once per process) in which the two take turns
  for three rounds (two with ``--quick``), the best wall time of each kept with its CPU seconds;
* rouge-score: a loop of ``RougeScorer(types).score(ref, hyp)`` on one thread, timed on 2,000 pairs
  spread over the set (every 50th; 500 with ``--quick``), best of as many rounds, and extrapolated
  linearly (the note says so): it is too slow for 100k pairs in a benchmark run.

Every value is checked: bleuscope's against rouge-score's on the pairs it scores, rouge-score-rs's against
bleuscope's on all pairs, and bleuscope's with one thread against two (a mismatch is reported in the note,
never hidden). The ratio lines give bleuscope's speed-up over each peer on one thread (CPU seconds) and
two (wall seconds), and whether the targets are met: at least 50x rouge-score on one thread, and faster
than rouge-score-rs on one thread and on two.

A second task measures memory: rougeL and rougeLsum on one pair of 35,000-token documents (one line each),
bleuscope in a subprocess, peak resident memory above the interpreter's (rouge-score would build a
35,000 x 35,000 table of Python ints, tens of GB: not run).

    python benchmarks/bench_rouge.py [--quick] [--save]

``--quick``: 20,000 pairs; ``--save`` writes the run to
``benchmarks/results/rouge/latest.json``, the file the docs' ROUGE table is rendered from. ``run(quick)``
returns the rows ``{"task", "tool", "seconds", "cpu", "peak_mb", "note"}`` (``benchmarks/bench.py`` prints
them with the others).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
BENCH_DATA = ROOT.parent / "bench-data"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"

TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")
SENTENCES_PER_PAIR = 3


def read_lines(path: Path, limit: int) -> list[str]:
    out = []
    with open(path, encoding="utf-8", newline="\n") as f:
        for line in f:
            out.append(line[:-1] if line.endswith("\n") else line)
            if len(out) == limit:
                break
    return out


def summary_pairs(n_pairs: int) -> tuple[list[str], list[str]]:
    """``n_pairs`` (hypothesis, reference) documents of three lines each."""
    n_lines = n_pairs * SENTENCES_PER_PAIR
    out = BENCH_DATA / "300k"
    if not (out / "hyp.txt").exists():
        subprocess.run([sys.executable, str(MAKE_CORPUS), str(out), "300000"], check=True)
    hyp_lines = read_lines(out / "hyp.txt", n_lines)
    ref_lines = read_lines(out / "ref.txt", n_lines)
    k = SENTENCES_PER_PAIR
    join = "\n".join
    return ([join(hyp_lines[i : i + k]) for i in range(0, n_lines, k)],
            [join(ref_lines[i : i + k]) for i in range(0, n_lines, k)])


def _best(fn, repeat: int):
    """(wall seconds, CPU seconds of this process, result) of the fastest of ``repeat`` runs."""
    best, cpu, result = float("inf"), float("inf"), None
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        result = fn()
        wall, used = time.perf_counter() - t, time.process_time() - c
        if wall < best:
            best, cpu = wall, used
    return best, cpu, result


# The subprocess that times bleuscope and rouge-score-rs side by side on all pairs with T threads (both
# read the thread count once per process: rouge-score-rs's pool from RAYON_NUM_THREADS), taking turns,
# ``repeat`` rounds, the best wall time of each (and its CPU seconds); it checks that rouge-score-rs's
# values equal bleuscope's and writes a digest of bleuscope's values (equal for every thread count).
_SIDE_BY_SIDE_CHILD = r"""
import hashlib, json, sys, time
import numpy as np
from bleuscope.metrics.rouge import ROUGE
try:
    from rouge_score_rs import rouge_scorer as rs
except ImportError:
    rs = None
types, data, out, threads, repeat = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
with open(data, encoding="utf-8") as f:
    hyps, refs = json.load(f)
best = {"bleuscope": None, "rouge-score-rs": None}
def timed(name, fn):
    t, c = time.perf_counter(), time.process_time()
    result = fn()
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    if best[name] is None or wall < best[name]["seconds"]:
        best[name] = {"seconds": wall, "cpu": cpu}
    return result
for _ in range(repeat):
    ours = timed("bleuscope", lambda: ROUGE(types, threads=threads).sentence_scores(hyps, [refs]).prf)
    if rs is not None:
        theirs = timed("rouge-score-rs", lambda: rs.RougeScorer(types).score_batch(refs, hyps))
differ = None
if rs is not None:
    values = np.array([[list(map(float, r[t])) for t in types] for r in theirs], dtype=np.float64)
    differ = int((values != ours).any(axis=(1, 2)).sum()) if values.shape == ours.shape else len(hyps)
with open(out, "w") as f:
    json.dump({**best, "differ": differ, "digest": hashlib.sha256(ours.tobytes()).hexdigest()}, f)
"""


def side_by_side(types, data_path: Path, threads: int, repeat: int) -> dict:
    """bleuscope and rouge-score-rs timed in one subprocess with ``threads`` threads (see the child)."""
    out = data_path.with_suffix(f".t{threads}.json")
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    done = subprocess.run([sys.executable, "-c", _SIDE_BY_SIDE_CHILD, json.dumps(list(types)), str(data_path),
                           str(out), str(threads), str(repeat)], env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"the side-by-side run failed: {done.stderr.strip()[-2000:]}")
    with open(out) as f:
        result = json.load(f)
    out.unlink()
    return result


def _type_rows(types, hyps, refs, sample: int, data_path: Path, repeat: int) -> list[dict]:
    import numpy as np
    from rouge_score import rouge_scorer

    from bleuscope.metrics.rouge import ROUGE

    task = f"{'+'.join(types)}, {len(hyps):,} summary pairs"
    rows = []
    runs = {threads: side_by_side(types, data_path, threads, repeat) for threads in (1, 2)}
    same_threads = runs[1]["digest"] == runs[2]["digest"]
    for threads, run in runs.items():
        ours = run["bleuscope"]
        note = f"compiled core, best of {repeat}; CPU {ours['cpu']:.3f} s"
        if not same_threads:
            note += "; VALUES DIFFER between 1 and 2 threads"
        rows.append({"task": task, "tool": "bleuscope" if threads == 1 else "bleuscope, 2 threads",
                     "seconds": ours["seconds"], "cpu": ours["cpu"], "peak_mb": None, "note": note})

    # every k-th pair: the pairs' lengths vary along the corpus (its first pairs are shorter than average)
    step = max(1, len(hyps) // sample)
    picked = range(0, len(hyps), step)[:sample]
    sample_hyps, sample_refs = [hyps[i] for i in picked], [refs[i] for i in picked]
    n = len(picked)
    scorer = rouge_scorer.RougeScorer(list(types))
    # best of the same number of runs as the others (one run of rouge-score varies most with the load)
    seconds, cpu, theirs = _best(lambda: [scorer.score(r, h) for h, r in zip(sample_hyps, sample_refs)], repeat)
    theirs_arr = np.array([[tuple(s[t]) for t in types] for s in theirs], dtype=np.float64)
    ours_sample = ROUGE(types, threads=1).sentence_scores(sample_hyps, [sample_refs]).prf
    same = "same values on them" if np.array_equal(theirs_arr, ours_sample) else "VALUES DIFFER on them"
    scale = len(hyps) / n
    rows.append({"task": task, "tool": "rouge-score, 1 thread", "seconds": seconds * scale, "cpu": cpu * scale,
                 "peak_mb": None,
                 "note": f"extrapolated from {n:,} pairs (every {step}th), best of {repeat}; {same}; "
                         f"CPU {cpu * scale:.1f} s"})

    for threads, run in runs.items():
        theirs_run = run["rouge-score-rs"]
        tool = f"rouge-score-rs, {threads} thread{'s' if threads > 1 else ''}"
        if theirs_run is None:
            rows.append({"task": task, "tool": tool, "seconds": None, "peak_mb": None,
                         "note": "not installed (pip install rouge-score-rs)"})
            continue
        same = "same values" if run["differ"] == 0 else f"VALUES DIFFER in {run['differ']} pairs"
        rows.append({"task": task, "tool": tool, "seconds": theirs_run["seconds"], "cpu": theirs_run["cpu"],
                     "peak_mb": None, "note": f"{same}; best of {repeat}, side by side; CPU {theirs_run['cpu']:.3f} s"})
    return rows


# the subprocess that measures memory on one long pair
_MEMORY_CHILD = r"""
import sys, time
import numpy as np
from bleuscope.metrics.rouge import ROUGE
rouge_type, n = sys.argv[1], int(sys.argv[2])
rng = np.random.default_rng(1)
vocab = np.array([f"w{i}" for i in range(5000)])
hyp = " ".join(rng.choice(vocab, size=n))
ref = " ".join(rng.choice(vocab, size=n))
ROUGE(("rouge1",)).sentence_scores(["warm up"], [["warm up"]])
def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key))
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")  # resets the peak resident size (VmHWM) to the current one
before = status("VmRSS:")
t = time.perf_counter()
f = ROUGE((rouge_type,), threads=1).sentence_scores([hyp], [[ref]]).prf[0, 0, 2]
seconds = time.perf_counter() - t
print(seconds, (status("VmHWM:") - before) / 1024, f)
"""


def _memory_rows(n_tokens: int) -> list[dict]:
    rows = []
    for rouge_type in ("rougeL", "rougeLsum"):
        done = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, rouge_type, str(n_tokens)],
                              capture_output=True, text=True)
        if done.returncode != 0:
            rows.append({"task": f"{rouge_type}, one {n_tokens:,}-token pair", "tool": "bleuscope",
                         "seconds": None, "peak_mb": None, "note": done.stderr.strip().splitlines()[-1]})
            continue
        seconds, peak, f = done.stdout.split()
        rows.append({"task": f"{rouge_type}, one {n_tokens:,}-token pair", "tool": "bleuscope",
                     "seconds": float(seconds), "peak_mb": float(peak),
                     "note": f"peak resident memory above the process's before the call; F = {float(f):.6f}"})
    return rows


def run(quick: bool = False) -> list[dict]:
    import tempfile

    n_pairs = 20_000 if quick else 100_000
    sample = 500 if quick else 2_000
    repeat = 2 if quick else 3
    hyps, refs = summary_pairs(n_pairs)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        data_path = Path(tmp) / "pairs.json"
        with open(data_path, "w", encoding="utf-8") as f:
            json.dump([hyps, refs], f)
        for types in [(t,) for t in TYPES] + [TYPES]:
            rows += _type_rows(types, hyps, refs, sample, data_path, repeat)
    rows += _memory_rows(35_000)
    return rows


#: the speed target: at least this many times rouge-score's speed on one thread
TARGET_VS_ROUGE_SCORE = 50


def _ratio(peer: dict | None, ours: dict | None, key: str) -> float | None:
    if not peer or not ours or not peer.get(key) or not ours.get(key):
        return None
    return peer[key] / ours[key]


def ratios(rows: list[dict]) -> list[str]:
    """Per task, bleuscope's speed-up over each peer at one thread (by CPU seconds, robust on a loaded
    machine; wall in brackets) and at two (by wall seconds; rouge-score has one thread, so its one-thread
    time), then whether the targets are met."""
    lines, targets = [], []
    for task in dict.fromkeys(r["task"] for r in rows):
        group = {r["tool"]: r for r in rows if r["task"] == task}
        one, two = group.get("bleuscope"), group.get("bleuscope, 2 threads")
        score, rs1, rs2 = (group.get(k) for k in ("rouge-score, 1 thread", "rouge-score-rs, 1 thread",
                                                  "rouge-score-rs, 2 threads"))
        if score is None and rs1 is None:
            continue
        fmt = lambda x: "n/a" if x is None else f"{x:.2f}x"  # noqa: E731
        r_score, r_rs1 = _ratio(score, one, "cpu"), _ratio(rs1, one, "cpu")
        r_score2, r_rs2 = _ratio(score, two, "seconds"), _ratio(rs2, two, "seconds")
        lines.append(f"{task}: one thread {fmt(r_score)} rouge-score, {fmt(r_rs1)} rouge-score-rs (CPU s; wall "
                     f"{fmt(_ratio(score, one, 'seconds'))}, {fmt(_ratio(rs1, one, 'seconds'))}); two threads "
                     f"{fmt(r_score2)} rouge-score, {fmt(r_rs2)} rouge-score-rs (wall s)")
        verdict = lambda ok: "met" if ok else "MISSED"  # noqa: E731
        if r_score is not None:
            targets.append(f"{task}: >= {TARGET_VS_ROUGE_SCORE}x rouge-score on one thread: "
                           f"{verdict(r_score >= TARGET_VS_ROUGE_SCORE)} ({r_score:.1f}x)")
        if r_rs1 is not None and r_rs2 is not None:
            targets.append(f"{task}: faster than rouge-score-rs on one and two threads: "
                           f"{verdict(r_rs1 > 1 and r_rs2 > 1)} ({r_rs1:.2f}x, {r_rs2:.2f}x)")
    return lines + (["", "targets:"] + targets if targets else [])


def main(argv: list[str] | None = None) -> int:
    sys.path.insert(0, str(HERE))
    import argparse

    import bench  # beside this script: the table format, the machine and versions recorded with every run

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="20,000 pairs instead of 100,000")
    parser.add_argument("--save", action="store_true",
                        help="also write the run to benchmarks/results/rouge/latest.json (the docs' ROUGE table)")
    args = parser.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = run(quick=args.quick)
    if args.save:
        out = HERE / "results" / "rouge" / "latest.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        data = {"started": started, "quick": args.quick, "machine": bench.machine(),
                "environment": bench.environment(), "rows": rows}
        out.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    print(bench.format_table(rows))
    print()
    print("\n".join(ratios(rows)))
    print(f"\nmachine: {bench.machine()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
