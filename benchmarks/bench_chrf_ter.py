"""chrF, chrF++ and TER: bleuscope against sacreBLEU 2.6.0, side by side in one run, with the ratios.

Data: one WMT test set from ``../shared/data/mt`` (WMT22 en-de, system Online-B, references A and B) and the
first 100,000 lines of the corpus built by ``../shared/tools/make_corpus.py`` (real WMT system outputs and
references of the European-target pairs, one reference per line; written to ``../bench-data/100k`` next to
the repository if missing, never inside it).

Tasks: corpus chrF, chrF++ and TER on the WMT set (2 references) and on 100k lines (1 reference), and batch
sentence chrF on 100k lines (bleuscope ``sentence_scores`` against a loop of sacreBLEU ``sentence_score``).
Each tool gets a fresh scorer object (no cached references). bleuscope runs twice and the faster run counts
(the machine is shared); sacreBLEU runs once. Slow sacreBLEU runs on 100k lines are timed on a prefix and
extrapolated linearly (the note says so). The ``bleuscope (Python)`` rows are the pure-Python reference
implementation (``engine="numpy"``), shown for the WMT set only. Scores are checked equal.

    python benchmarks/bench_chrf_ter.py [--quick]

``--quick`` uses 20,000 lines instead of 100,000 and shorter prefixes. ``run(quick)`` returns the rows
``{"task", "tool", "seconds", "peak_mb", "note"}`` (``benchmarks/bench.py`` prints them with the others).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
WMT_DIR = SHARED / "data" / "mt" / "generaltest2022" / "en-de"
BENCH_DATA = ROOT.parent / "bench-data"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"


def read_lines(path: Path) -> list[str]:
    text = path.read_text(encoding="utf-8")
    return (text[:-1] if text.endswith("\n") else text).split("\n")


def corpus(n_lines: int) -> tuple[list[str], list[str]]:
    out = BENCH_DATA / "100k"
    if not (out / "hyp.txt").exists():
        subprocess.run([sys.executable, str(MAKE_CORPUS), str(out), "100000"], check=True)
    return read_lines(out / "hyp.txt")[:n_lines], read_lines(out / "ref.txt")[:n_lines]


def _timed(fn, repeat: int = 1):
    best, result = float("inf"), None
    for _ in range(repeat):
        t = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - t)
    return best, result


def _native_note() -> str:
    from bleuscope.core import native

    return "compiled core" if native.native_available() else "pure Python (no compiled core)"


def _corpus_rows(task: str, ours_cls, theirs_cls, options: dict, hyps, refs, prefix: int | None,
                 python_rows: bool) -> list[dict]:
    note = _native_note()
    seconds, ours = _timed(lambda: ours_cls(**options).corpus_score(hyps, refs), repeat=2)
    rows = [{"task": task, "tool": "bleuscope", "seconds": seconds, "peak_mb": None, "note": note}]
    if python_rows:
        py_seconds, py_score = _timed(lambda: ours_cls(**options, engine="numpy").corpus_score(hyps, refs))
        assert py_score.score == ours.score
        rows.append({"task": task, "tool": "bleuscope (Python)", "seconds": py_seconds, "peak_mb": None,
                     "note": "reference implementation"})
    n = len(hyps) if prefix is None else min(prefix, len(hyps))
    h, r = hyps[:n], [s[:n] for s in refs]
    their_seconds, theirs = _timed(lambda: theirs_cls(**options).corpus_score(h, r))
    if n == len(hyps):
        same = "same score" if theirs.score == ours.score else f"score differs: {theirs.score!r} vs {ours.score!r}"
        rows.append({"task": task, "tool": "sacrebleu", "seconds": their_seconds, "peak_mb": None, "note": same})
    else:
        ours_prefix = ours_cls(**options).corpus_score(h, r)
        same = "same score on the prefix" if theirs.score == ours_prefix.score else "score differs on the prefix"
        rows.append({"task": task, "tool": "sacrebleu", "seconds": their_seconds * len(hyps) / n, "peak_mb": None,
                     "note": f"extrapolated from {n:,} lines; {same}"})
    return rows


def _sentence_rows(task: str, hyps, refs, prefix: int) -> list[dict]:
    import sacrebleu

    from bleuscope import CHRF

    seconds, ours = _timed(lambda: CHRF().sentence_scores(hyps, [refs]), repeat=2)
    rows = [{"task": task, "tool": "bleuscope", "seconds": seconds, "peak_mb": None, "note": _native_note()}]
    n = min(prefix, len(hyps))
    metric = sacrebleu.CHRF()
    their_seconds, theirs = _timed(lambda: [metric.sentence_score(h, [r]).score for h, r in zip(hyps[:n], refs[:n])])
    same = "same scores on the prefix" if theirs == ours.scores[:n].tolist() else "scores differ on the prefix"
    rows.append({"task": task, "tool": "sacrebleu loop", "seconds": their_seconds * len(hyps) / n, "peak_mb": None,
                 "note": f"extrapolated from {n:,} lines; {same}"})
    return rows


def run(quick: bool = False) -> list[dict]:
    import sacrebleu

    from bleuscope import CHRF, TER

    rows: list[dict] = []
    wmt_hyps = read_lines(WMT_DIR / "sys" / "Online-B.txt")
    wmt_refs = [read_lines(WMT_DIR / f"ref.{x}.txt") for x in "AB"]
    wmt = "WMT22 en-de Online-B, 2,037 lines, 2 refs"
    rows += _corpus_rows(f"chrF, {wmt}", CHRF, sacrebleu.CHRF, {}, wmt_hyps, wmt_refs, None, True)
    rows += _corpus_rows(f"chrF++, {wmt}", CHRF, sacrebleu.CHRF, {"word_order": 2}, wmt_hyps, wmt_refs, None, True)
    rows += _corpus_rows(f"TER, {wmt}", TER, sacrebleu.TER, {}, wmt_hyps, wmt_refs, None, True)

    n_lines = 20_000 if quick else 100_000
    hyps, refs = corpus(n_lines)
    big = f"{n_lines:,} lines, 1 ref"
    chrf_prefix = 5_000 if quick else 20_000
    ter_prefix = 1_000 if quick else 5_000
    rows += _corpus_rows(f"chrF, {big}", CHRF, sacrebleu.CHRF, {}, hyps, [refs], chrf_prefix, False)
    rows += _corpus_rows(f"chrF++, {big}", CHRF, sacrebleu.CHRF, {"word_order": 2}, hyps, [refs], chrf_prefix,
                         False)
    rows += _corpus_rows(f"TER, {big}", TER, sacrebleu.TER, {}, hyps, [refs], ter_prefix, False)
    rows += _sentence_rows(f"sentence chrF, {big}", hyps, refs, chrf_prefix // 2)
    return rows


def main() -> None:
    sys.path.insert(0, str(HERE))
    import argparse

    from bench import format_table, machine

    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--quick", action="store_true", help="20,000 lines instead of 100,000")
    args = parser.parse_args()
    rows = run(quick=args.quick)
    print(format_table(rows))
    print()
    for task in dict.fromkeys(r["task"] for r in rows):
        group = [r for r in rows if r["task"] == task]
        ours = next(r["seconds"] for r in group if r["tool"] == "bleuscope")
        peer = next(r["seconds"] for r in group if r["tool"].startswith("sacrebleu"))
        print(f"{task}: bleuscope is {peer / ours:.1f}x faster than sacreBLEU")
    print(f"\nmachine: {machine()}")


if __name__ == "__main__":
    main()
