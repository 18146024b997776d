"""The compiled core against its targets, with the peers in the same run.

    python benchmarks/bench_native.py [--corpus DIR] [--lines N] [--quick]

* corpus BLEU 13a on N (default 1,000,000) lines from ``../shared/tools/make_corpus.py`` (built into DIR,
  default /tmp/corpus1m, outside the repository): bleuscope with 1 and 2 threads on Python lists, and on
  paths; ``wc -w`` on the same two files; sacreBLEU on a prefix, extrapolated linearly (said in the note);
* batch sentence BLEU on 100,000 segments against a sacreBLEU ``sentence_score`` loop (on a prefix,
  extrapolated);
* peak memory: the peak resident set size of a fresh process that does only that job (so Rust allocations
  count too), minus nothing: the interpreter and numpy are included.

Each bleuscope job runs in its own process (``python -c``), timed around the call only; inputs are read
before the clock starts. "seconds" are CPU seconds of the process (user + system, all threads), which a
busy shared machine disturbs far less than wall time; wall times are in the notes, and the thread speed-up
is the ratio of wall times. Ratios are printed next to the targets.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAKE_CORPUS = HERE.parents[1] / "shared" / "tools" / "make_corpus.py"

# the job a child process runs: prints one JSON line {"wall", "cpu", "peak_mb", "check"}
_CHILD = r"""
import json, resource, sys, time
from itertools import islice
from pathlib import Path
job, hyp_path, ref_path, n, threads = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
def read(p):  # line by line: no whole-file string, so the peak before the call is the lists themselves
    with open(p, encoding="utf-8", newline="\n") as f:
        return [line[:-1] if line.endswith("\n") else line for line in islice(f, n)]
if job in ("lists", "sentences", "sacrebleu-corpus", "sacrebleu-sentences"):
    hyps, refs = read(hyp_path), read(ref_path)
if job == "thread-pairs":  # the raw lines: every call gets new str objects (no UTF-8 kept from the last call)
    with open(hyp_path, "rb") as f:
        hyp_bytes = [line.rstrip(b"\n") for line in islice(f, n)]
    with open(ref_path, "rb") as f:
        ref_bytes = [line.rstrip(b"\n") for line in islice(f, n)]
if job.startswith("sacrebleu"):
    import sacrebleu
    if job == "sacrebleu-sentences":  # built before the clock starts, as bleuscope's scorer below
        scorer = sacrebleu.BLEU(tokenize="13a", effective_order=True)
else:
    from bleuscope import BLEU
    if job.startswith("thread-pairs"):  # (where `threads` is the number of pairs)
        by_threads = {1: BLEU(tokenize="13a", threads=1), 2: BLEU(tokenize="13a", threads=2)}
    else:
        bleu = BLEU(tokenize="13a", threads=threads, effective_order=job == "sentences")  # as the sacreBLEU loop
def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20
before = rss_mb()
# numpy's import starts OpenBLAS's threads, which spin for a while (tens of ms of CPU, on the other core) before
# they sleep: let them stop first, or their spin counts as the call's CPU time
time.sleep(0.3)
t0, c0 = time.perf_counter(), time.process_time()
if job == "lists":
    check = bleu.corpus_score(hyps, [refs]).score
elif job == "paths":
    check = bleu.corpus_score(Path(hyp_path), [Path(ref_path)]).score
elif job == "sentences":
    check = float(bleu.sentence_scores(hyps, [refs]).scores.sum())
elif job.startswith("thread-pairs"):  # here `threads` is the number of pairs of calls: 1 thread then 2,
    walls, cpus = {1: [], 2: []}, {1: [], 2: []}  # or the other way round in turns; on new lists each time
    for k in range(threads):  # (their decoding is not timed), or on the paths ("thread-pairs-paths")
        for t in (1, 2) if k % 2 == 0 else (2, 1):
            if job == "thread-pairs":
                hyps, refs = [b.decode() for b in hyp_bytes], [b.decode() for b in ref_bytes]
            else:
                hyps, refs = Path(hyp_path), Path(ref_path)
            t1, c1 = time.perf_counter(), time.process_time()
            check = by_threads[t].corpus_score(hyps, [refs]).score
            walls[t].append(time.perf_counter() - t1)
            cpus[t].append(time.process_time() - c1)
            del hyps, refs
elif job == "sacrebleu-corpus":
    check = sacrebleu.BLEU(tokenize="13a").corpus_score(hyps, [refs]).score
elif job == "sacrebleu-sentences":
    check = sum(scorer.sentence_score(h, [r]).score for h, r in zip(hyps, refs))
wall, cpu = time.perf_counter() - t0, time.process_time() - c0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
result = {"wall": wall, "cpu": cpu, "peak_mb": peak, "before_mb": before, "check": check}
if job.startswith("thread-pairs"):
    result.update(walls_1=walls[1], walls_2=walls[2], cpus_1=cpus[1], cpus_2=cpus[2])
print(json.dumps(result))
"""


def child(job: str, hyp: Path, ref: Path, n: int, threads: int = 1) -> dict:
    out = subprocess.run(
        [sys.executable, "-c", _CHILD, job, str(hyp), str(ref), str(n), str(threads)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def best_of(repeats: int, fn, key: str = "cpu"):
    runs = [fn() for _ in range(repeats)]
    return min(runs, key=lambda r: r[key])


def wc_words(paths: list[Path], repeats: int) -> dict:
    runs = []
    for _ in range(repeats):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.perf_counter()
        subprocess.run(["wc", "-w", *map(str, paths)], check=True, capture_output=True)
        wall = time.perf_counter() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        runs.append({"wall": wall, "cpu": cpu})
    return min(runs, key=lambda r: r["cpu"])


def build_corpus(directory: Path, lines: int) -> tuple[Path, Path]:
    hyp, ref = directory / "hyp.txt", directory / "ref.txt"
    if not (hyp.exists() and ref.exists()):
        subprocess.run([sys.executable, str(MAKE_CORPUS), str(directory), str(lines)], check=True)
    return hyp, ref


def run(quick: bool = False, corpus: Path = Path("/tmp/corpus1m"), lines: int = 1_000_000) -> list[dict]:
    if quick:
        corpus, lines = Path(f"{corpus}-quick"), 100_000
    hyp, ref = build_corpus(corpus, lines)
    repeats = 1 if quick else 3
    prefix = max(lines // 20, 1000)  # sacreBLEU corpus: 5% of the lines, extrapolated
    sent_n = min(100_000, lines)
    sent_prefix = sent_n // 10  # sacreBLEU sentence loop: 10% of the segments, extrapolated

    rows = []
    task = f"corpus BLEU 13a, {lines:,} lines"
    lists1 = best_of(repeats, lambda: child("lists", hyp, ref, lines, 1))
    lists2 = best_of(repeats, lambda: child("lists", hyp, ref, lines, 2), key="wall")
    lists1_wall = best_of(repeats, lambda: child("lists", hyp, ref, lines, 1), key="wall")
    paths1 = best_of(repeats, lambda: child("paths", hyp, ref, lines, 1))
    wc = wc_words([hyp, ref], repeats)
    sb = child("sacrebleu-corpus", hyp, ref, prefix)
    sb_full = sb["cpu"] * lines / prefix
    assert abs(lists1["check"] - lists2["check"]) < 1e-9 and abs(lists1["check"] - paths1["check"]) < 1e-9
    rows += [
        {
            "task": task,
            "tool": "bleuscope",
            "seconds": lists1["cpu"],
            "peak_mb": lists1["peak_mb"],
            "note": f"lists, 1 thread; wall {lists1_wall['wall']:.2f} s; {lists1['before_mb']:.0f} MB resident "
            f"before the call (interpreter + lists); BLEU {lists1['check']:.4f}",
        },
        {
            "task": task,
            "tool": "bleuscope (2 threads)",
            "seconds": lists2["cpu"],
            "peak_mb": lists2["peak_mb"],
            "note": f"lists; wall {lists2['wall']:.2f} s",
        },
        {
            "task": task,
            "tool": "bleuscope (paths)",
            "seconds": paths1["cpu"],
            "peak_mb": paths1["peak_mb"],
            "note": f"paths, 1 thread; wall {paths1['wall']:.2f} s",
        },
        {
            "task": task,
            "tool": "wc -w",
            "seconds": wc["cpu"],
            "peak_mb": None,
            "note": f"both files; wall {wc['wall']:.2f} s",
        },
        {
            "task": task,
            "tool": "sacreBLEU",
            "seconds": sb_full,
            "peak_mb": None,
            "note": f"{prefix:,}-line prefix took {sb['cpu']:.2f} CPU-s, extrapolated x{lines / prefix:g}",
        },
    ]

    task = f"sentence BLEU, {sent_n:,} segments"
    sent = best_of(repeats, lambda: child("sentences", hyp, ref, sent_n, 1))
    sbs = best_of(repeats, lambda: child("sacrebleu-sentences", hyp, ref, sent_prefix))  # as bleuscope's
    sbs_full = sbs["cpu"] * sent_n / sent_prefix
    rows += [
        {
            "task": task,
            "tool": "bleuscope",
            "seconds": sent["cpu"],
            "peak_mb": sent["peak_mb"],
            "note": f"sentence_scores, 1 thread; wall {sent['wall']:.2f} s",
        },
        {
            "task": task,
            "tool": "sacreBLEU",
            "seconds": sbs_full,
            "peak_mb": None,
            "note": f"sentence_score loop on {sent_prefix:,} segments took {sbs['cpu']:.2f} CPU-s (best of "
            f"{repeats}), extrapolated x{sent_n / sent_prefix:g}",
        },
    ]

    targets = [
        ("corpus, 1 thread: CPU time / wc -w", lists1["cpu"] / wc["cpu"], "<= 1.5"),
        ("corpus, 1 thread: sacreBLEU / bleuscope", sb_full / lists1["cpu"], ">= 50"),
        ("corpus: wall 1 thread / wall 2 threads", lists1_wall["wall"] / lists2["wall"], ">= 1.6"),
        ("corpus, lists: peak MB", lists1["peak_mb"], "<= 700"),
        ("corpus, paths: peak MB", paths1["peak_mb"], "<= 200"),
        ("sentences: sacreBLEU loop / bleuscope", sbs_full / sent["cpu"], ">= 50"),
    ]
    for name, value, target in targets:
        op, bound = target.split()
        met = value <= float(bound) if op == "<=" else value >= float(bound)
        rows.append(
            {
                "task": "targets",
                "tool": name,
                "seconds": None,
                "peak_mb": None,
                "note": f"{value:.2f} (target {target}: {'met' if met else 'missed'})",
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=Path("/tmp/corpus1m"))
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--quick", action="store_true", help="100,000 lines, one repeat")
    args = parser.parse_args()
    sys.path.insert(0, str(HERE))
    from bench import format_table, machine

    rows = run(args.quick, args.corpus, args.lines)
    print(machine())
    print(f"CPU cores visible: {os.cpu_count()}")
    print(format_table(rows))


if __name__ == "__main__":
    main()
