"""ROUGE: bleuscope against rouge-score 0.1.2 and rouge-score-rs, side by side in one run, per ROUGE type.

Data: 100,000 summary-like pairs, each three consecutive lines of the corpus that
``../shared/tools/make_corpus.py`` builds from real WMT system outputs and references (European-target
pairs), joined with newlines (so rougeLsum sees three sentences); the corpus is written to
``../bench-data/300k`` next to the repository if missing, never inside it.

Tasks, for rouge1, rouge2, rougeL, rougeLsum and the four together: sentence scores of every pair (precision,
recall and F per type; no stemming).

* bleuscope: ``ROUGE(types, threads=T).sentence_scores(hyps, [refs])`` with T = 1 and 2 (best of two runs);
* rouge-score: a loop of ``RougeScorer(types).score(ref, hyp)`` on one thread, timed on a prefix and
  extrapolated linearly (the note says so): it is too slow for 100k pairs in a benchmark run;
* rouge-score-rs: ``RougeScorer(types).score_batch(refs, hyps)`` in a subprocess with
  ``RAYON_NUM_THREADS`` = 1 and 2 (its thread pool reads the variable once per process), timing the call
  alone (best of two).

Every value is checked: bleuscope's against rouge-score's on the prefix, and rouge-score-rs's against
bleuscope's on all pairs (a mismatch is reported in the note, never hidden).

A second task measures memory: rougeL and rougeLsum on one pair of 35,000-token documents (one line each),
bleuscope in a subprocess, peak resident memory above the interpreter's (rouge-score would build a
35,000 x 35,000 table of Python ints, tens of GB: not run).

    python benchmarks/bench_rouge.py [--quick] [--save]

``--quick``: 20,000 pairs and a shorter prefix; ``--save`` writes the run to
``benchmarks/results/rouge/latest.json``, the file the docs' ROUGE table is rendered from. Single-thread
ratios are printed by CPU seconds too (the machine is shared; wall time under load is noisy). ``run(quick)`` returns the rows ``{"task", "tool",
"seconds", "peak_mb", "note"}`` (``benchmarks/bench.py`` prints them with the others).
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


# the subprocess that times rouge-score-rs: reads the pairs, times score_batch, writes seconds and values
_RS_CHILD = r"""
import json, sys, time
from rouge_score_rs import rouge_scorer
types, data, out = json.loads(sys.argv[1]), sys.argv[2], sys.argv[3]
with open(data, encoding="utf-8") as f:
    hyps, refs = json.load(f)
best, cpu = float("inf"), float("inf")
for _ in range(2):
    scorer = rouge_scorer.RougeScorer(types)
    t, c = time.perf_counter(), time.process_time()
    result = scorer.score_batch(refs, hyps)
    wall, used = time.perf_counter() - t, time.process_time() - c
    if wall < best:
        best, cpu = wall, used
values = [[list(map(float, r[t])) for t in types] for r in result]
with open(out, "w") as f:
    json.dump({"seconds": best, "cpu": cpu, "values": values}, f)
"""


def rouge_score_rs_run(types, data_path: Path, threads: int) -> dict | None:
    out = data_path.with_suffix(f".rs{threads}.json")
    env = dict(os.environ, RAYON_NUM_THREADS=str(threads))
    done = subprocess.run([sys.executable, "-c", _RS_CHILD, json.dumps(list(types)), str(data_path), str(out)],
                          env=env, capture_output=True, text=True)
    if done.returncode != 0:
        return None
    with open(out) as f:
        result = json.load(f)
    out.unlink()
    return result


def _type_rows(types, hyps, refs, prefix: int, data_path: Path) -> list[dict]:
    import numpy as np
    from rouge_score import rouge_scorer

    from bleuscope.metrics.rouge import ROUGE

    task = f"{'+'.join(types)}, {len(hyps):,} summary pairs"
    rows = []
    ours = {}
    for threads in (1, 2):
        seconds, cpu, scores = _best(lambda t=threads: ROUGE(types, threads=t).sentence_scores(hyps, [refs]), 2)
        ours[threads] = scores.prf
        rows.append({"task": task, "tool": "bleuscope" if threads == 1 else "bleuscope, 2 threads",
                     "seconds": seconds, "cpu": cpu, "peak_mb": None, "note": f"compiled core; CPU {cpu:.3f} s"})
    assert np.array_equal(ours[1], ours[2])

    n = min(prefix, len(hyps))
    scorer = rouge_scorer.RougeScorer(list(types))
    seconds, cpu, theirs = _best(lambda: [scorer.score(r, h) for h, r in zip(hyps[:n], refs[:n])], 1)
    theirs_arr = np.array([[tuple(s[t]) for t in types] for s in theirs], dtype=np.float64)
    same = "same values on the prefix" if np.array_equal(theirs_arr, ours[1][:n]) else "VALUES DIFFER on the prefix"
    scale = len(hyps) / n
    rows.append({"task": task, "tool": "rouge-score, 1 thread", "seconds": seconds * scale, "cpu": cpu * scale,
                 "peak_mb": None, "note": f"extrapolated from {n:,} pairs; {same}; CPU {cpu * scale:.1f} s"})

    for threads in (1, 2):
        result = rouge_score_rs_run(types, data_path, threads)
        if result is None:
            rows.append({"task": task, "tool": f"rouge-score-rs, {threads} thread(s)", "seconds": None,
                         "peak_mb": None, "note": "failed to run (is rouge-score-rs installed?)"})
            continue
        values = np.array(result["values"], dtype=np.float64)
        same = "same values" if np.array_equal(values, ours[1]) else \
            f"VALUES DIFFER in {int((values != ours[1]).any(axis=(1, 2)).sum())} pairs"
        rows.append({"task": task, "tool": f"rouge-score-rs, {threads} thread{'s' if threads > 1 else ''}",
                     "seconds": result["seconds"], "cpu": result["cpu"], "peak_mb": None,
                     "note": f"{same}; CPU {result['cpu']:.3f} s"})
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
    prefix = 500 if quick else 2_000
    hyps, refs = summary_pairs(n_pairs)
    rows: list[dict] = []
    with tempfile.TemporaryDirectory() as tmp:
        data_path = Path(tmp) / "pairs.json"
        with open(data_path, "w", encoding="utf-8") as f:
            json.dump([hyps, refs], f)
        for types in [(t,) for t in TYPES] + [TYPES]:
            rows += _type_rows(types, hyps, refs, prefix, data_path)
    rows += _memory_rows(35_000)
    return rows


def ratios(rows: list[dict]) -> list[str]:
    """One line per task: bleuscope's speed-up over each peer at the same thread count, by CPU seconds for one
    thread (robust on a loaded machine) and by wall seconds for two."""
    lines = []
    for task in dict.fromkeys(r["task"] for r in rows):
        group = {r["tool"]: r for r in rows if r["task"] == task}
        one, two = group.get("bleuscope"), group.get("bleuscope, 2 threads")
        parts = []
        for peer, label in (("rouge-score, 1 thread", "rouge-score"), ("rouge-score-rs, 1 thread", "rouge-score-rs")):
            if one and one.get("cpu") and group.get(peer, {}).get("cpu"):
                parts.append(f"{group[peer]['cpu'] / one['cpu']:.2f}x {label} (1 thread, CPU s; wall "
                             f"{group[peer]['seconds'] / one['seconds']:.2f}x)")
        if two and group.get("rouge-score-rs, 2 threads", {}).get("seconds"):
            parts.append(f"{group['rouge-score-rs, 2 threads']['seconds'] / two['seconds']:.2f}x rouge-score-rs "
                         "(2 threads, wall s)")
        if parts:
            lines.append(f"{task}: bleuscope is " + ", ".join(parts))
    return lines


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
