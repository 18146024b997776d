"""Every bleuscope benchmark in one run: imports each ``benchmarks/bench_*.py`` and prints one table.

    python benchmarks/bench.py [--quick] [--only core,pairwise] [--json results.json]

Each module exposes ``run(quick: bool = False) -> list[dict]`` with rows ``{"task", "tool", "seconds",
"peak_mb", "note"}``. Within a task, the row whose tool is ``"bleuscope"`` is the reference: the ``vs
bleuscope`` column is ``seconds / bleuscope's seconds`` (``12.0x`` = that tool takes 12 times as long as
bleuscope; below 1 it is faster). A module that fails (import error, exception, missing optional peer) is
reported and the run goes on with the next one. The table is Markdown, so it can be pasted into the README.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import platform
import sys
import time
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import results_table  # noqa: E402 - beside this script


def discover(only: list[str] | None = None) -> list[Path]:
    """``bench_*.py`` files next to this script, ``bench_core`` first, then by name."""
    paths = sorted(HERE.glob("bench_*.py"), key=lambda p: (p.stem != "bench_core", p.stem))
    if only:
        wanted = {name if name.startswith("bench_") else f"bench_{name}" for name in only}
        paths = [p for p in paths if p.stem in wanted]
    return paths


def load_module(path: Path):
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[path.stem] = module
    spec.loader.exec_module(module)
    return module


def format_table(rows: list[dict]) -> str:
    """A Markdown table with per-task ratios against the ``bleuscope`` row."""
    lines = ["| " + " | ".join(results_table.HEADER) + " |", "|---|---|---:|---:|---:|---|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in results_table.table_rows(rows)]
    return "\n".join(lines)


def tracemalloc_peak_mb(fn) -> float:
    """Peak of Python and numpy allocations (tracemalloc) while ``fn()`` runs, in MB."""
    import tracemalloc

    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()


def standalone_main(run, description: str, quick_help: str) -> None:
    """``main()`` of a ``bench_<area>.py`` run on its own: ``--quick``, then the same table as ``bench.py``."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--quick", action="store_true", help=quick_help)
    args = parser.parse_args()
    print(format_table(run(quick=args.quick)))


def check_rows(rows, module: str) -> list[dict]:
    if not isinstance(rows, list):
        raise TypeError(f"{module}.run() returned {type(rows).__name__}, expected a list of dicts")
    out = []
    for r in rows:
        if not isinstance(r, dict) or "task" not in r or "tool" not in r:
            raise TypeError(f"{module}.run() returned a row without task/tool: {r!r}")
        out.append(dict(r, module=module))
    return out


def machine() -> str:
    import os

    try:
        with open("/proc/cpuinfo") as f:
            cpu = next((line.split(":", 1)[1].strip() for line in f if line.startswith("model name")), "?")
    except OSError:
        cpu = platform.processor() or "?"
    try:
        load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        load = "?"
    return (f"{os.cpu_count()} CPUs ({cpu}), Python {platform.python_version()}, {platform.system()}; "
            f"load average at the end {load}")


def environment() -> dict:
    """Python, Unicode and the versions of bleuscope and every peer that is installed."""
    import unicodedata
    from importlib import metadata

    versions = {}
    for name in ("bleuscope", "numpy", "regex", "sacrebleu", "nltk", "fast-bleu", "torchmetrics", "torch",
                 "rouge-score", "rouge-score-rs"):
        try:
            versions[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pass
    return {"python": platform.python_version(), "unicode": unicodedata.unidata_version,
            "platform": platform.platform(), "versions": versions}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description="Run every benchmarks/bench_*.py module and print one table.")
    ap.add_argument("--quick", action="store_true", help="smaller inputs (each module decides what that means)")
    ap.add_argument("--only", default="", help="comma-separated module names, e.g. core,pairwise")
    ap.add_argument("--json", default=None, help="also write the run (rows, machine, versions) to this JSON file")
    ap.add_argument("--save", action="store_true",
                    help="also write the run to benchmarks/results/<UTC start>[-quick].json, the files the README's "
                    "table and the site's benchmark page are generated from (python benchmarks/publish.py)")
    args = ap.parse_args(argv)

    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows: list[dict] = []
    failures: list[str] = []
    t_all = time.perf_counter()
    for path in discover([x for x in args.only.split(",") if x] or None):
        print(f"== {path.stem} ...", file=sys.stderr, flush=True)
        t0 = time.perf_counter()
        try:
            module = load_module(path)
            run = getattr(module, "run", None)
            if run is None:
                raise AttributeError(f"{path.name} has no run(quick) function")
            got = check_rows(run(quick=args.quick), path.stem)
            rows.extend(got)
            print(f"== {path.stem}: {len(got)} rows in {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)
        except BaseException as exc:  # noqa: BLE001 - one failing module must not stop the others
            if isinstance(exc, KeyboardInterrupt):
                raise
            msg = f"{path.stem} failed after {time.perf_counter() - t0:.0f} s: {type(exc).__name__}: {exc}"
            failures.append(msg)
            print(f"== {msg}", file=sys.stderr)
            traceback.print_exc(limit=3, file=sys.stderr)

    print(f"bleuscope benchmarks, {started}{' (--quick)' if args.quick else ''}, "
          f"{time.perf_counter() - t_all:.0f} s in all")
    print(f"machine: {machine()}")
    print()
    print(format_table(rows))
    if failures:
        print()
        for msg in failures:
            print(f"FAILED: {msg}")
    record = {"started": started, "quick": args.quick, "machine": machine(), "environment": environment(),
              "command": " ".join(["python", "benchmarks/bench.py", *(argv if argv is not None else sys.argv[1:])]),
              "rows": rows, "failures": failures}
    targets = [Path(args.json)] if args.json else []
    if args.save:
        stamp = time.strftime("%Y-%m-%dT%H%M", time.strptime(started, "%Y-%m-%d %H:%M UTC"))
        targets.append(results_table.RESULTS / f"{stamp}{'-quick' if args.quick else ''}.json")
    for target in targets:
        target.parent.mkdir(parents=True, exist_ok=True)
        with open(target, "w", encoding="utf-8") as f:
            json.dump(record, f, indent=1, default=str)
            f.write("\n")
        print(f"wrote {target}", file=sys.stderr)
    return 1 if failures and not rows else 0


if __name__ == "__main__":
    sys.exit(main())
