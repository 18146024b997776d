"""Confidence intervals and paired tests of the command on a large corpus, next to sacreBLEU 2.6.0.

    python benchmarks/bench_confidence_1m.py [--lines N] [--prefix P] [--corpus DIR] [--skip-ar]

The corpus is ``../shared/tools/make_corpus.py DIR N`` (1,000,000 lines by default; reused when present,
kept out of the repository); a second system is the hypotheses shifted by one line. Each task runs the
command in a fresh process and reports its wall time, its CPU time and its peak memory (max RSS):

* ``bleuscope REF -i HYP --confidence`` (1,000 resamples), the target being at most 60 s and 300 MB;
* ``--paired-bs`` (1,000 resamples) and ``--paired-ar`` (10,000 trials) with two systems;
* sacreBLEU's same three commands on the first ``--prefix`` lines (default 20,000: its bootstrap holds
  1,000 x S x 10 float32 values at once, 40 GB at a million lines, and its AR a 10,000 x S boolean mask),
  extrapolated linearly in S to N lines for time, and its memory at the prefix with those arrays scaled to N.

``run(quick)`` gives the same rows to ``benchmarks/bench.py`` (``--quick``: 20,000 lines, sacreBLEU on 2,000).

On a shared machine the CPU time is the figure to compare (the wall time includes waiting for a core).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
MAKE_CORPUS = HERE.parents[1] / "shared" / "tools" / "make_corpus.py"

#: runs a command and prints its wall time, CPU time and peak RSS of the child (a fresh process per task)
_MEASURE = r"""
import json, resource, subprocess, sys, time
start = time.monotonic()
proc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
wall = time.monotonic() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps({"code": proc.returncode, "wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
                  "peak_mb": usage.ru_maxrss / 1024, "stderr": proc.stderr.decode()[-300:]}))
"""


def measure(command: list[str], cwd: Path) -> dict:
    out = subprocess.run([sys.executable, "-c", _MEASURE, *command], cwd=cwd, capture_output=True, text=True)
    result = json.loads(out.stdout)
    if result["code"] != 0:
        raise SystemExit(f"{' '.join(command)} failed: {result['stderr']}")
    return result


def corpus(directory: Path, lines: int) -> Path:
    subprocess.run([sys.executable, str(MAKE_CORPUS), str(directory), str(lines)], check=True,
                   stdout=subprocess.DEVNULL)
    second = directory / "hyp2.txt"
    if not second.exists():
        with open(directory / "hyp.txt", encoding="utf-8") as f:
            first = f.readline()
            rest = f.read()
        second.write_text(rest + first, encoding="utf-8")
    return directory


def prefix(directory: Path, n: int) -> Path:
    out = directory / f"prefix{n}"
    out.mkdir(exist_ok=True)
    for name in ("hyp.txt", "hyp2.txt", "ref.txt"):
        target = out / name
        if not target.exists():
            with open(directory / name, encoding="utf-8") as src, open(target, "w", encoding="utf-8") as dst:
                for _, line in zip(range(n), src):
                    dst.write(line)
    return out


#: (task, the command's options after ``REF -i``, sacreBLEU's growth in bytes per line beyond its prefix)
TASKS = (
    # its resampling arrays: int64 indices [1000, S] and float32 resamples [1000, S, 10]
    ("--confidence, 1,000 resamples", ["hyp.txt", "--confidence"], 1000 * (8 + 40)),
    # the same arrays for each system in turn
    ("--paired-bs, 2 systems, 1,000 resamples", ["hyp.txt", "hyp2.txt", "--paired-bs"], 1000 * (8 + 40)),
    # its boolean swap masks [10000, S]
    ("--paired-ar, 2 systems, 10,000 trials", ["hyp.txt", "hyp2.txt", "--paired-ar"], 10000),
)

TARGET_SECONDS, TARGET_MB = 60, 300


def run(quick: bool = False, lines: int | None = None, prefix_lines: int | None = None,
        directory: Path | None = None, skip_ar: bool = False) -> list[dict]:
    """Rows for ``benchmarks/bench.py``: each task by bleuscope (its CPU time as ``seconds``, the figure to
    compare on a shared machine) and by sacreBLEU on a prefix, extrapolated. ``quick``: 20,000 lines."""
    lines = lines or (20_000 if quick else 1_000_000)
    prefix_lines = min(lines, prefix_lines or (2_000 if quick else 20_000))
    if directory is None:
        directory = Path(os.environ.get("TMPDIR", "/tmp")) / f"bleuscope-confidence-{lines}"
    d = corpus(directory, lines)
    p = prefix(d, prefix_lines)
    scale = lines / prefix_lines
    rows = []
    for task, options, growth in TASKS:
        if skip_ar and "--paired-ar" in options:
            continue
        label = f"{task}, {lines:,} lines"
        ours = measure([sys.executable, "-m", "bleuscope", "ref.txt", "-i", *options, "-q"], d)
        met = ours["cpu"] <= TARGET_SECONDS and ours["peak_mb"] <= TARGET_MB
        target = (f"target <= {TARGET_SECONDS} s, <= {TARGET_MB} MB: " + ("met" if met else "MISSED")
                  if lines >= 1_000_000 else "the target is for 1,000,000 lines")
        rows.append({"task": label, "tool": "bleuscope", "seconds": ours["cpu"], "peak_mb": ours["peak_mb"],
                     "note": f"CPU time; wall {ours['wall']:.1f} s; {target}"})
        theirs = measure([sys.executable, "-m", "sacrebleu", "ref.txt", "-i", *options], p)
        grown = theirs["peak_mb"] + growth * (lines - prefix_lines) / 2**20
        rows.append({"task": label, "tool": "sacrebleu", "seconds": theirs["cpu"] * scale, "peak_mb": grown,
                     "note": f"first {prefix_lines:,} lines ({theirs['cpu']:.1f} s CPU, {theirs['peak_mb']:.0f} MB) "
                             f"extrapolated x{scale:.0f}; memory: its resampling arrays grown to {lines:,} lines"})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--prefix", type=int, default=20_000)
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "bleuscope-c1m")
    parser.add_argument("--skip-ar", action="store_true", help="leave out --paired-ar (10,000 trials)")
    args = parser.parse_args()
    print(f"{args.lines:,} lines in {args.corpus}; load average {os.getloadavg()[0]:.1f}")
    rows = run(lines=args.lines, prefix_lines=args.prefix, directory=args.corpus, skip_ar=args.skip_ar)
    for r in rows:
        print(f"{r['task']:<56} {r['tool']:<10} {r['seconds']:8.1f} s CPU {r['peak_mb']:8.0f} MB  {r['note']}")
    for ours, theirs in zip(rows[::2], rows[1::2]):
        print(f"ratio sacreBLEU/bleuscope (CPU), {ours['task']}: {theirs['seconds'] / ours['seconds']:.1f}x")
    print(f"load average at the end {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
