"""``bleuscope report`` on WMT22 en-de: 8 systems, 2 references, the source, ``-m chrf ter``, every segment in
the page, without and with ``--labels`` (four labels in blocks of segments, as WMT22's domains); the time of
the whole command (a fresh process, as a user runs it), its CPU time, its peak memory and the size of the
page. The goal is a page under 5 MB built in under 5 s of CPU.

    python benchmarks/bench_report.py [--quick]

``--quick`` runs BLEU alone. The command runs twice and the faster run counts (the machine is shared); the CPU
time is reported too, since on a loaded machine the wall time mostly measures the wait for a core.
``run(quick)`` returns the rows ``{"task", "tool", "seconds", "peak_mb", "note"}`` for ``benchmarks/bench.py``.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
WMT_DIR = HERE.parent.parent / "shared" / "data" / "mt" / "generaltest2022" / "en-de"


def _once(args: list[str], out: Path) -> tuple[float, float, float]:
    """(wall seconds, CPU seconds, peak MB) of one run of the command in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "bleuscope.report", *args, "-o", str(out), "-q"], check=True,
                   cwd=WMT_DIR)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, after.ru_maxrss / 1024


def run(quick: bool = False) -> list[dict]:
    if not WMT_DIR.exists():
        return [{"task": "report", "tool": "bleuscope", "seconds": None, "peak_mb": None,
                 "note": f"{WMT_DIR} not found"}]
    systems = sorted(str(p.relative_to(WMT_DIR)) for p in (WMT_DIR / "sys").glob("*.txt"))
    metrics = [] if quick else ["-m", "chrf", "ter"]
    args = ["ref.A.txt", "ref.B.txt", "-i", *systems, "-s", "src.txt", "--max-segments", "all", *metrics]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        n = sum(1 for _ in open(WMT_DIR / "ref.A.txt", encoding="utf-8"))
        labels = Path(tmp) / "labels.txt"
        names = ("news", "e-commerce", "social", "conversation")
        labels.write_text("".join(f"{names[min(3, 4 * i // n)]}\n" for i in range(n)), encoding="utf-8")
        for extra in [[]] if quick else [[], ["--labels", str(labels)]]:
            out = Path(tmp) / "report.html"
            runs = [_once(args + extra, out) for _ in range(2)]
            size = out.stat().st_size
            wall, cpu, peak = min(runs)
            task = (f"report, WMT22 en-de, {len(systems)} systems{'' if quick else ', BLEU chrF TER'}"
                    f"{', --labels (4)' if extra else ''}")
            note = (f"page {size / 1e6:.2f} MB; CPU {cpu:.1f} s; goal: < 5 s CPU, < 5 MB; load average "
                    f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
            rows.append({"task": task, "tool": "bleuscope", "seconds": wall, "peak_mb": peak, "note": note})
    return rows


if __name__ == "__main__":
    for row in run("--quick" in sys.argv):
        seconds = "n/a" if row["seconds"] is None else f"{row['seconds']:.2f} s"
        peak = "" if row["peak_mb"] is None else f", peak {row['peak_mb']:.0f} MB"
        print(f"{row['task']}: {seconds}{peak} ({row['note']})")
