"""Confidence intervals and paired tests of the command on a large corpus, next to sacreBLEU 2.6.0.

    python benchmarks/bench_confidence_1m.py [--lines N] [--prefix P] [--corpus DIR] [--skip-ar]

The corpus is ``../shared/tools/make_corpus.py DIR N`` (1,000,000 lines by default; reused when present,
kept out of the repository); a second system is the hypotheses shifted by one line. Each task runs the
command in a fresh process and reports its wall time, its CPU time and its peak memory (max RSS):

* ``bleuscope REF -i HYP --confidence`` (1,000 resamples), the target being at most 60 s and 300 MB;
* ``--paired-bs`` (1,000 resamples) and ``--paired-ar`` (10,000 trials) with two systems;
* sacreBLEU's ``--confidence`` on the first ``--prefix`` lines (default 20,000: its resampling holds
  1,000 x S x 10 float32 values at once, 40 GB at a million lines), extrapolated linearly in S to N lines
  for time, and its memory at the prefix with the index and resample arrays scaled to N.

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
    for name in ("hyp.txt", "ref.txt"):
        target = out / name
        if not target.exists():
            with open(directory / name, encoding="utf-8") as src, open(target, "w", encoding="utf-8") as dst:
                for _, line in zip(range(n), src):
                    dst.write(line)
    return out


def row(task: str, tool: str, r: dict, note: str = "") -> None:
    print(f"{task:<34} {tool:<22} {r['wall']:8.1f} s wall {r['cpu']:8.1f} s CPU {r['peak_mb']:8.0f} MB  {note}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--prefix", type=int, default=20_000)
    parser.add_argument("--corpus", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "bleuscope-c1m")
    parser.add_argument("--skip-ar", action="store_true", help="leave out --paired-ar (10,000 trials)")
    args = parser.parse_args()
    d = corpus(args.corpus, args.lines)
    bleuscope = [sys.executable, "-m", "bleuscope"]
    print(f"{args.lines:,} lines in {d}; 1,000 resamples (AR: 10,000 trials)")
    ci = measure([*bleuscope, "ref.txt", "-i", "hyp.txt", "--confidence", "-q"], d)
    row("--confidence", "bleuscope", ci, "target: <= 60 s CPU, <= 300 MB")
    pbs = measure([*bleuscope, "ref.txt", "-i", "hyp.txt", "hyp2.txt", "--paired-bs", "-q"], d)
    row("--paired-bs (2 systems)", "bleuscope", pbs)
    if not args.skip_ar:
        par = measure([*bleuscope, "ref.txt", "-i", "hyp.txt", "hyp2.txt", "--paired-ar", "-q"], d)
        row("--paired-ar (2 systems)", "bleuscope", par)
    p = prefix(d, args.prefix)
    sacre = measure([sys.executable, "-m", "sacrebleu", "ref.txt", "-i", "hyp.txt", "--confidence"], p)
    scale = args.lines / args.prefix
    row(f"--confidence, first {args.prefix:,} lines", "sacreBLEU", sacre)
    # its resampling arrays: int64 indices [1000, S] and float32 resamples [1000, S, 10] grow with S
    grown = sacre["peak_mb"] + (1000 * (args.lines - args.prefix) * (8 + 40)) / 2**20
    extrapolated = {"wall": sacre["wall"] * scale, "cpu": sacre["cpu"] * scale, "peak_mb": grown}
    row("--confidence, extrapolated", "sacreBLEU", extrapolated, f"x{scale:.0f} lines")
    print(f"ratio sacreBLEU/bleuscope (CPU, --confidence): {extrapolated['cpu'] / ci['cpu']:.1f}x")


if __name__ == "__main__":
    main()
