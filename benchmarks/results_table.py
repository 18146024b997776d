"""Benchmark runs as data: load a committed run (``benchmarks/results/*.json``) and render it as a table.

The README's benchmark table and the site's benchmark page are generated from these files (``python
benchmarks/publish.py`` rewrites the README's table; the site renders it at build time), so a figure is never
typed by hand and always comes with its date, machine, load and versions.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

RESULTS = Path(__file__).resolve().parent / "results"


def result_files() -> list[Path]:
    """Committed runs, oldest first (file names start with the UTC start time)."""
    return sorted(RESULTS.glob("*.json"))


def load_run(path: str | Path | None = None) -> dict:
    """One run: the named file (absolute, or relative to ``benchmarks/results``), or the newest one."""
    if path is None:
        files = result_files()
        if not files:
            raise FileNotFoundError(f"no benchmark run in {RESULTS} (run benchmarks/bench.py --save)")
        path = files[-1]
    path = Path(path)
    if not path.is_absolute() and not path.exists():
        path = RESULTS / path
    with open(path, encoding="utf-8") as f:
        run = json.load(f)
    run.setdefault("file", path.name)
    return run


def _finite(x) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)


def ratio(seconds, reference) -> str:
    """``12.0x`` = the tool takes 12 times as long as bleuscope; below 1.5 two decimals."""
    if not _finite(seconds) or not _finite(reference) or reference <= 0:
        return ""
    r = seconds / reference
    return f"{r:.1f}x" if r >= 1.5 else f"{r:.2f}x"


def seconds_text(x) -> str:
    if not _finite(x):
        return "n/a"
    return f"{x:.3f}" if x < 10 else f"{x:.1f}"


def table_rows(rows: list[dict], task_filter: str | None = None) -> list[list[str]]:
    """``[task, tool, seconds, vs bleuscope, peak MB, note]`` per row; the task is named on its first row."""
    tasks: dict[str, list[dict]] = {}
    for row in rows:
        task = str(row.get("task", "?"))
        if task_filter and task_filter.lower() not in task.lower():
            continue
        tasks.setdefault(task, []).append(row)
    out = []
    for task, group in tasks.items():
        reference = next((r.get("seconds") for r in group if r.get("tool") == "bleuscope"), None)
        for i, r in enumerate(group):
            peak = r.get("peak_mb")
            out.append([
                task if i == 0 else "",
                str(r.get("tool", "?")),
                seconds_text(r.get("seconds")),
                ratio(r.get("seconds"), reference),
                f"{peak:.0f}" if _finite(peak) else "",
                str(r.get("note", "") or "").replace("|", "/").replace("\n", " "),
            ])
    return out


HEADER = ["task", "tool", "seconds", "vs bleuscope", "peak MB", "note"]


def conditions(run: dict) -> str:
    """One line: when, where, under what load, with which versions."""
    env = run.get("environment", {})
    versions = ", ".join(f"{k} {v}" for k, v in sorted(env.get("versions", {}).items()))
    parts = [
        f"run of {run.get('started', '?')}" + (" (--quick)" if run.get("quick") else ""),
        f"file benchmarks/results/{run.get('file', '?')}",
        f"machine: {run.get('machine', '?')}",
    ]
    if versions:
        parts.append(f"versions: {versions}")
    return "; ".join(parts)


def markdown(run: dict, task_filter: str | None = None) -> str:
    """The run as a Markdown table, preceded by its conditions."""
    lines = [conditions(run) + ".", "", "| " + " | ".join(HEADER) + " |", "|---|---|---:|---:|---:|---|"]
    lines += ["| " + " | ".join(cells) + " |" for cells in table_rows(run.get("rows", []), task_filter)]
    return "\n".join(lines)


def summary_markdown(run: dict, tasks: list[str] | None = None, per_module: int = 2) -> str:
    """One line per task: bleuscope's time and how many times as long each peer takes (the README's table).

    Without ``tasks``, the first ``per_module`` tasks of each benchmark module that have a bleuscope row and a
    peer (the modules list their headline tasks first).
    """
    groups: dict[str, list[dict]] = {}
    for row in run.get("rows", []):
        groups.setdefault(str(row.get("task", "?")), []).append(row)
    if tasks is None:
        tasks, shown = [], {}
        for task, group in groups.items():
            module = group[0].get("module", "")
            has_peer = any(r.get("tool") != "bleuscope" and _finite(r.get("seconds")) for r in group)
            has_ours = any(r.get("tool") == "bleuscope" and _finite(r.get("seconds")) for r in group)
            if has_peer and has_ours and shown.get(module, 0) < per_module:
                shown[module] = shown.get(module, 0) + 1
                tasks.append(task)
    lines = ["| task | bleuscope | peers (time as a multiple of bleuscope's) |", "|---|---:|---|"]
    for task, group in groups.items():
        if tasks is not None and task not in tasks:
            continue
        reference = next((r.get("seconds") for r in group if r.get("tool") == "bleuscope"), None)
        if not _finite(reference):
            continue
        peers = [f"{r.get('tool')} {ratio(r.get('seconds'), reference)}" for r in group
                 if r.get("tool") != "bleuscope" and ratio(r.get("seconds"), reference)]
        if peers:
            lines.append(f"| {task} | {seconds_text(reference)} s | {', '.join(peers)} |")
    return "\n".join(lines)
