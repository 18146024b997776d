"""The speed targets on several Pythons side by side, in one run (the table of the speed issue).

    python benchmarks/bench_speed.py [--python PY ...] [--lines N] [--quick]

For each interpreter given (default: this one; each must import bleuscope, e.g. a venv with the wheel, or
PYTHONPATH=src with the abi3 extension built in src/), it prints the Python, Unicode and ``regex`` versions
and which tokenizers the compiled core runs, then times, in fresh child processes (bench_native's jobs: CPU
seconds of the call only, inputs read before the clock starts):

* ``sentence_scores`` on 100,000 segments against a sacreBLEU ``sentence_score`` loop (on a prefix,
  extrapolated; both the best of the same number of runs, and the median of the rounds' ratios, the two
  processes of a round running back to back);
* corpus BLEU 13a on N (1,000,000) lines, 1 thread, against the CPU of ``wc -w`` on the same two files; the
  same on the long-tail corpus (``make_corpus.py --long-tail``); the same from paths (streamed) against
  lists, with the peak memory; 2 threads against 1 (wall), as pairs of calls in one process (1 thread, then
  2, or the other way round), each on newly built lists: the best call of each side and the median ratio of
  the pairs; the same from paths (not a target);

in rounds (each round runs every job of every interpreter and ``wc -w`` once; each job keeps its best
round, so a slow spell of a shared host cannot fall on one side of a ratio only), and the ratio of every row to the first interpreter's. Corpora are built outside the repository.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from bench_native import _CHILD, MAKE_CORPUS, wc_words  # noqa: E402

_VERSIONS = r"""
import json, platform, unicodedata, regex
from bleuscope.core.installation import config
info = config()
native = sorted(n for n, e in info["tokenizers"].items() if e["cased"]["native"] and e["lowercase"]["native"])
print(json.dumps({"python": platform.python_version(), "unicode": unicodedata.unidata_version,
                  "regex": regex.__version__, "native": native, "tables": info.get("unicode_tables")}))
"""


def run_child(python: str, job: str, hyp: Path, ref: Path, n: int, threads: int = 1) -> dict:
    out = subprocess.run(
        [python, "-c", _CHILD, job, str(hyp), str(ref), str(n), str(threads)],
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def corpus(directory: Path, lines: int, long_tail: bool) -> tuple[Path, Path]:
    hyp, ref = directory / "hyp.txt", directory / "ref.txt"
    if not (hyp.exists() and ref.exists()):
        cmd = [sys.executable, str(MAKE_CORPUS), str(directory), str(lines)] + (["--long-tail"] if long_tail else [])
        subprocess.run(cmd, check=True)
    return hyp, ref


def versions(python: str) -> dict:
    return json.loads(subprocess.run([python, "-c", _VERSIONS], check=True, capture_output=True, text=True).stdout)


def one_round(python: str, plain, tail, lines: int) -> dict:
    """Every job of one interpreter once, each in a fresh process; the thread scaling row as pairs of calls
    in one process, 1 thread and 2 back to back (each on new lists), so that a slow spell of the host
    falls on both sides of a pair alike."""
    hyp, ref = plain
    sent_n = min(100_000, lines)
    sent_prefix = sent_n // 10
    sacrebleu = run_child(python, "sacrebleu-sentences", hyp, ref, sent_prefix)
    sacrebleu["cpu"] *= sent_n / sent_prefix  # extrapolated from the prefix
    return {
        "sentences": run_child(python, "sentences", hyp, ref, sent_n),
        "sacrebleu_sentences": sacrebleu,
        "lists": run_child(python, "lists", hyp, ref, lines),
        "thread_pairs": run_child(python, "thread-pairs", hyp, ref, lines, PAIRS_PER_ROUND),
        "thread_pairs_paths": run_child(python, "thread-pairs-paths", hyp, ref, lines, PAIRS_PER_ROUND),
        "paths": run_child(python, "paths", hyp, ref, lines),
        "tail": run_child(python, "lists", tail[0], tail[1], lines),
    }


#: pairs of calls (1 thread, 2 threads) per round for the thread scaling row
PAIRS_PER_ROUND = 3


def pairs_of(runs: list[dict], what: str, threads: int) -> list[float]:
    """The walls or CPU times (``what``) of every call with ``threads`` threads of the pair runs."""
    return [x for run in runs for x in run[f"{what}_{threads}"]]


def best_of_rounds(rounds: list[dict]) -> dict:
    """Each job's best run over the rounds (least CPU); for the thread scaling row the least wall of every
    call with 1 thread and with 2, and the median of the pairs' ratios, which one lucky or unlucky call
    cannot move."""
    r = {job: min((x[job] for x in rounds), key=lambda run: run["cpu"]) for job in rounds[0] if "pairs" not in job}
    pairs = [x["thread_pairs"] for x in rounds]
    for key, threads in (("lists_wall", 1), ("lists2", 2)):
        # (no peak memory: the process holds the raw lines and both runs)
        wall, cpu = min(zip(pairs_of(pairs, "walls", threads), pairs_of(pairs, "cpus", threads)))
        r[key] = {"wall": wall, "cpu": cpu, "peak_mb": None}
    ratios = [a / b for a, b in zip(pairs_of(pairs, "walls", 1), pairs_of(pairs, "walls", 2))]
    r["sentences_median"] = statistics.median(x["sacrebleu_sentences"]["cpu"] / x["sentences"]["cpu"] for x in rounds)
    r["threads_median"] = statistics.median(ratios)
    r["threads_pairs"] = len(ratios)
    paths = [x["thread_pairs_paths"] for x in rounds]  # not a target: the streamed files with 2 threads
    r["paths_threads_median"] = statistics.median(
        a / b for a, b in zip(pairs_of(paths, "walls", 1), pairs_of(paths, "walls", 2))
    )
    r["paths_threads_best"] = min(pairs_of(paths, "walls", 1)) / min(pairs_of(paths, "walls", 2))
    return r


#: the rows of the speed table: (name, value of one interpreter's results and the ``wc -w`` runs, target; None:
#: shown, not a target). Every ratio of one timing against another is judged by the median of its pairs taken
#: close together (the same round; for 1 thread against 2, back-to-back calls in one process): the best of each
#: side, shown beside it, compares one side's fastest moment with the other's, and on a host whose speed drifts
#: by up to half within a minute that moves a ratio by a fifth either way.
TARGETS = [
    (
        "sentence_scores 100k: sacreBLEU loop / bleuscope (CPU, best of each)",
        lambda r, wc: r["sacrebleu_sentences"]["cpu"] / r["sentences"]["cpu"],
        None,
    ),
    (
        "sentence_scores 100k: the same, median of the rounds' ratios",
        lambda r, wc: r["sentences_median"],
        ">= 50",
    ),
    ("corpus 13a 1 thread: CPU / wc -w CPU (best of each)", lambda r, wc: r["lists"]["cpu"] / wc["plain"]["cpu"], None),
    ("corpus 13a 1 thread: the same, median of the rounds' ratios", lambda r, wc: r["wc_median_plain"], "<= 1.2"),
    ("corpus 13a long tail: CPU / wc -w CPU (best of each)", lambda r, wc: r["tail"]["cpu"] / wc["tail"]["cpu"], None),
    ("corpus 13a long tail: the same, median of the rounds' ratios", lambda r, wc: r["wc_median_tail"], "<= 1.5"),
    ("corpus from paths / from lists (CPU, best of each)", lambda r, wc: r["paths"]["cpu"] / r["lists"]["cpu"], None),
    ("corpus from paths / from lists: median of the rounds' ratios", lambda r, wc: r["paths_median"], "<= 1.2"),
    ("corpus from paths: peak MB", lambda r, wc: r["paths"]["peak_mb"], "<= 200"),
    (
        "2 threads vs 1 (wall speed-up, best call each)",
        lambda r, wc: r["lists_wall"]["wall"] / r["lists2"]["wall"],
        None,
    ),
    ("2 threads vs 1 (median of paired calls)", lambda r, wc: r["threads_median"], ">= 1.8"),
]


def met(value: float, target: str) -> bool:
    op, bound = target.split()
    return value <= float(bound) if op == "<=" else value >= float(bound)


def verdict(value: float, target: str | None) -> str:
    if target is None:
        return "shown"
    return "met" if met(value, target) else "missed"


def collect(pythons: list[str], lines: int, repeats: int, corpus_dir: Path) -> tuple[list[dict], dict]:
    """Every interpreter's measurements and the ``wc -w`` runs (``{"plain", "tail"}``) on the same corpora.

    The runs go in rounds: each round runs every job once (``wc -w`` and every interpreter's jobs), and each
    job keeps its best round. A slow spell of a shared host then slows every side of a ratio alike, instead
    of all the repeats of one job."""
    plain = corpus(corpus_dir / f"corpus-{lines}", lines, False)
    tail = corpus(corpus_dir / f"corpus-{lines}-long-tail", lines, True)
    wc_rounds, py_rounds = [], {py: [] for py in pythons}
    for _ in range(repeats):
        wc_rounds.append({"plain": wc_words(list(plain), 1), "tail": wc_words(list(tail), 1)})
        for py in pythons:
            py_rounds[py].append(one_round(py, plain, tail, lines))
    wc = {key: min((x[key] for x in wc_rounds), key=lambda run: run["cpu"]) for key in ("plain", "tail")}
    results = []
    for py in pythons:
        r = {"info": versions(py), **best_of_rounds(py_rounds[py]), "rounds": py_rounds[py]}
        # each round's CPU against the same round's ``wc -w`` (run just before it)
        for key, job, files in (("wc_median_plain", "lists", "plain"), ("wc_median_tail", "tail", "tail")):
            r[key] = statistics.median(x[job]["cpu"] / w[files]["cpu"] for x, w in zip(py_rounds[py], wc_rounds))
        r["paths_median"] = statistics.median(x["paths"]["cpu"] / x["lists"]["cpu"] for x in py_rounds[py])
        results.append(r)
    return results, wc


def run(quick: bool = False, pythons: list[str] | None = None, lines: int = 1_000_000) -> list[dict]:
    """The rows of :mod:`bench` (``benchmarks/bench.py``): per interpreter, corpus BLEU on lists (1 and 2
    threads), on paths, on the long-tail corpus and ``sentence_scores``, each beside ``wc -w`` or the
    sacreBLEU loop, then one row per target with its value and whether it was met."""
    pythons = pythons or [sys.executable]
    if quick:
        lines = 100_000
    repeats = 1 if quick else 3
    results, wc = collect(pythons, lines, repeats, Path("/tmp"))
    load = f"load average {os.getloadavg()[0]:.1f} at the end"
    rows = []
    for r in results:
        i = r["info"]
        py = f"Python {i['python']}"
        task = f"corpus BLEU 13a, {lines:,} lines, {py}"
        rows += [
            {
                "task": task,
                "tool": "bleuscope",
                "seconds": r["lists"]["cpu"],
                "peak_mb": r["lists"]["peak_mb"],
                "note": f"lists, 1 thread, CPU-s; wall {r['lists_wall']['wall']:.2f} s; native: {', '.join(i['native'])}",
            },
            {
                "task": task,
                "tool": "bleuscope (2 threads)",
                "seconds": r["lists2"]["cpu"],
                "peak_mb": r["lists2"]["peak_mb"],
                "note": f"lists, CPU-s; wall {r['lists2']['wall']:.2f} s",
            },
            {
                "task": task,
                "tool": "bleuscope (paths)",
                "seconds": r["paths"]["cpu"],
                "peak_mb": r["paths"]["peak_mb"],
                "note": f"streamed from the two files, 1 thread, CPU-s; wall {r['paths']['wall']:.2f} s",
            },
            {
                "task": task,
                "tool": "wc -w",
                "seconds": wc["plain"]["cpu"],
                "peak_mb": None,
                "note": f"both files, CPU-s; wall {wc['plain']['wall']:.2f} s",
            },
        ]
        task = f"corpus BLEU 13a, {lines:,} lines, long-tail vocabulary, {py}"
        rows += [
            {
                "task": task,
                "tool": "bleuscope",
                "seconds": r["tail"]["cpu"],
                "peak_mb": r["tail"]["peak_mb"],
                "note": "lists, 1 thread, CPU-s",
            },
            {"task": task, "tool": "wc -w", "seconds": wc["tail"]["cpu"], "peak_mb": None, "note": "both files, CPU-s"},
        ]
        task = f"sentence_scores, {min(100_000, lines):,} segments, {py}"
        rows += [
            {
                "task": task,
                "tool": "bleuscope",
                "seconds": r["sentences"]["cpu"],
                "peak_mb": r["sentences"]["peak_mb"],
                "note": "1 thread, CPU-s",
            },
            {
                "task": task,
                "tool": "sacreBLEU",
                "seconds": r["sacrebleu_sentences"]["cpu"],
                "peak_mb": None,
                "note": f"sentence_score loop on a tenth of the segments (best of {repeats}), extrapolated",
            },
        ]
        for name, value, target in TARGETS:
            v = value(r, wc)
            rows.append(
                {
                    "task": f"speed targets, {py}",
                    "tool": name,
                    "seconds": None,
                    "peak_mb": None,
                    "note": f"{v:.2f} (target {target or '-'}: {verdict(v, target)}; {load})",
                }
            )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--python", action="append", help="an interpreter to measure (repeatable)")
    parser.add_argument("--lines", type=int, default=1_000_000)
    parser.add_argument("--corpus-dir", type=Path, default=Path("/tmp"))
    parser.add_argument("--repeats", type=int, default=3, help="rounds of every job (each job's best is kept)")
    parser.add_argument("--quick", action="store_true", help="100,000 lines, one repeat")
    args = parser.parse_args()
    lines = 100_000 if args.quick else args.lines
    repeats = 1 if args.quick else args.repeats
    pythons = args.python or [sys.executable]
    results, wc = collect(pythons, lines, repeats, args.corpus_dir)

    print(f"CPU cores visible: {os.cpu_count()}; load average {os.getloadavg()[0]:.1f} at the end")
    for py, r in zip(pythons, results):
        i = r["info"]
        tables = i.get("tables") or {}
        print(
            f"Python {i['python']} ({py}): Unicode {i['unicode']}, regex {i['regex']}; native tokenizers: "
            f"{', '.join(i['native'])}; Unicode tables {tables.get('source')}"
        )
    head = " | ".join(f"Python {r['info']['python']}" for r in results)
    print(f"\n| work (lines: {lines:,}) | {head} | target |")
    print("|---|" + "---:|" * len(results) + "---|")
    for name, value, target in TARGETS:
        cells = []
        for r in results:
            v = value(r, wc)
            cells.append(f"{v:.2f} ({verdict(v, target)})")
        print(f"| {name} | {' | '.join(cells)} | {target or '-'} |")
    if len(results) > 1:
        base = results[0]
        print(
            f"\nCPU seconds relative to Python {base['info']['python']} (target: within 10%; best of each, and the "
            "median of the rounds' ratios, each round running both interpreters' jobs one after the other):"
        )
        for key, label in (
            ("sentences", "sentence_scores"),
            ("lists", "corpus 13a lists"),
            ("tail", "long tail"),
            ("paths", "paths"),
        ):
            ratios = ", ".join(
                f"{r['info']['python']}: {r[key]['cpu'] / base[key]['cpu']:.2f}x (median "
                f"{statistics.median(x[key]['cpu'] / y[key]['cpu'] for x, y in zip(r['rounds'], base['rounds'])):.2f}x)"
                for r in results[1:]
            )
            print(f"  {label}: {base[key]['cpu']:.2f} CPU-s; {ratios}")
    print(f"\nwc -w CPU: plain {wc['plain']['cpu']:.2f} s, long tail {wc['tail']['cpu']:.2f} s")
    for r in results:
        print(
            f"Python {r['info']['python']}: lists {r['lists']['cpu']:.2f} CPU-s, paths {r['paths']['cpu']:.2f} CPU-s "
            f"(peak {r['paths']['peak_mb']:.0f} MB), long tail {r['tail']['cpu']:.2f} CPU-s, sentences "
            f"{r['sentences']['cpu']:.2f} CPU-s vs sacreBLEU {r['sacrebleu_sentences']['cpu']:.1f} (extrapolated); "
            f"wall 1 thread {r['lists_wall']['wall']:.2f} s, 2 threads {r['lists2']['wall']:.2f} s (best of "
            f"{r['threads_pairs']} calls each; median ratio of the pairs {r['threads_median']:.2f}); from paths, 2 "
            f"threads vs 1: {r['paths_threads_best']:.2f} (best call each), {r['paths_threads_median']:.2f} (median "
            "of the pairs)"
        )


if __name__ == "__main__":
    main()
