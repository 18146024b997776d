"""The ``bleuscope`` command against the ``sacrebleu`` command: whole runs in fresh processes.

    python benchmarks/bench_cli.py [--quick]

Times include interpreter start-up, imports, reading the files and printing, i.e. what a user waits for.
Tasks: ``-h`` (start-up: imports before parsing), one system and eight systems of WMT22 en-de (2,037 lines, two references), sentence-level output,
``--paired-bs`` over the eight systems (the first is the baseline; 1,000 resamples, both tools' default),
``-tok ja-mecab`` (WMT22 en-ja) and ``-tok ko-mecab`` (WMT24++ en-ko, the post-edit against the original
reference) when MeCab is installed, and (without ``--quick``) a 300,000-line corpus built by
``../shared/tools/make_corpus.py`` in a temporary folder. Peak memory is the child's maximum resident set
size (``os.wait4``). The summary at the end is sacreBLEU's median time / bleuscope's, per task.

Both commands start from compiled bytecode, as after ``pip install`` (which compiles the package): the run
first writes bleuscope's ``__pycache__`` (with ``PYTHONDONTWRITEBYTECODE`` set, or an editable install that
was never imported, every start would otherwise compile ~50 modules, about 0.07 s that no user pays).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
EN_DE = SHARED / "data" / "mt" / "generaltest2022" / "en-de"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"


def timed_run(cmd: list[str], timeout: float = 1800) -> tuple[float, float | None, int]:
    """(wall seconds, peak MB, exit code) of one command; output discarded."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            return float("nan"), None, -9
        time.sleep(0.005)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss / 1024, proc.returncode


def bench(task: str, args: list[str], reps: int, note: str) -> list[dict]:
    rows = []
    for tool in ("bleuscope", "sacrebleu"):
        exe = shutil.which(tool)
        if exe is None:
            rows.append({"task": task, "tool": tool, "seconds": float("nan"), "peak_mb": None,
                         "note": f"{tool} command not found"})
            continue
        runs = [timed_run([exe, *args, "-q"]) for _ in range(reps)]
        failed = [r for r in runs if r[2] != 0]
        rows.append({
            "task": task, "tool": tool, "seconds": statistics.median(r[0] for r in runs),
            "peak_mb": max((r[1] for r in runs if r[1] is not None), default=None),
            "note": f"exit code {failed[0][2]}" if failed else f"{note}; median of {reps}",
        })
    return rows


def compile_bytecode() -> None:
    """Write bleuscope's ``.pyc`` files (sacreBLEU's come with its installation)."""
    import compileall
    import importlib.util

    spec = importlib.util.find_spec("bleuscope")
    if spec is not None and spec.origin is not None:
        compileall.compile_dir(os.path.dirname(spec.origin), quiet=2)


def run(quick: bool = False) -> list[dict]:
    compile_bytecode()
    if not EN_DE.exists():
        return [{"task": "cli", "tool": "bleuscope", "seconds": float("nan"), "peak_mb": None,
                 "note": f"{EN_DE} not found"}]
    refs = [str(EN_DE / "ref.A.txt"), str(EN_DE / "ref.B.txt")]
    systems = sorted(str(p) for p in (EN_DE / "sys").glob("*.txt"))
    reps = 1 if quick else 3
    rows = []
    rows += bench("cli: -h (start-up and imports)", ["-h"], 5 if quick else 15, "fresh process")
    rows += bench("cli: 1 system, 2 refs, 2,037 lines", [*refs, "-i", systems[0]], reps, "fresh process")
    rows += bench("cli: 8 systems, 2 refs, 2,037 lines", [*refs, "-i", *systems], reps, "fresh process")
    rows += bench("cli: -sl, 2,037 sentence scores", [*refs, "-i", systems[0], "-sl"], reps, "fresh process")
    rows += bench("cli: --paired-bs, 8 systems, 2 refs, 2,037 lines", [*refs, "-i", *systems[:8], "--paired-bs"],
                  reps, "fresh process")
    en_ja, en_ko = SHARED / "data" / "mt" / "generaltest2022" / "en-ja", SHARED / "data" / "mt" / "wmt24pp" / "en-ko"
    if _has_mecab() and en_ja.exists():
        ja_sys = sorted(str(p) for p in (en_ja / "sys").glob("*.txt"))[:1]
        rows += bench("cli: -tok ja-mecab, 1 system, WMT22 en-ja", [str(en_ja / "ref.A.txt"), "-i", *ja_sys,
                      "-tok", "ja-mecab"], reps, "fresh process")
    if _has_mecab() and en_ko.exists():
        rows += bench("cli: -tok ko-mecab, WMT24++ en-ko post-edit vs original", [str(en_ko / "ref.orig.txt"), "-i",
                      str(en_ko / "ref.postedit.txt"), "-tok", "ko-mecab"], reps, "fresh process")
    if not quick and MAKE_CORPUS.exists():
        with tempfile.TemporaryDirectory() as tmp:
            subprocess.run([sys.executable, str(MAKE_CORPUS), tmp, "300000"], check=True,
                           stdout=subprocess.DEVNULL)
            rows += bench("cli: 1 system, 1 ref, 300,000 lines", [f"{tmp}/ref.txt", "-i", f"{tmp}/hyp.txt"], 1,
                          "make_corpus.py")
    return rows


def _has_mecab() -> bool:
    import importlib.util

    return all(importlib.util.find_spec(m) is not None for m in ("MeCab", "mecab_ko"))


def ratios(rows: list[dict]) -> list[tuple[str, float]]:
    """(task, sacreBLEU seconds / bleuscope seconds) for every task both tools ran."""
    by_task: dict[str, dict[str, float]] = {}
    for row in rows:
        by_task.setdefault(row["task"], {})[row["tool"]] = row["seconds"]
    return [(task, t["sacrebleu"] / t["bleuscope"]) for task, t in by_task.items()
            if t.get("bleuscope", 0) > 0 and t.get("sacrebleu", 0) > 0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one repetition, no large corpus")
    args = parser.parse_args()
    rows = run(args.quick)
    for row in rows:
        peak = "n/a" if row["peak_mb"] is None else f"{row['peak_mb']:.0f} MB"
        print(f"{row['task']:<40} {row['tool']:<10} {row['seconds']:8.3f} s  {peak:>8}  {row['note']}")
    print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for task, ratio in ratios(rows):
        print(f"{task:<56} sacrebleu / bleuscope = {ratio:.1f}x")


if __name__ == "__main__":
    main()
