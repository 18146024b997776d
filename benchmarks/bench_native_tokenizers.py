"""The compiled tokenizers (``bleuscope._core``) against sacreBLEU's tokenizers and ``wc -w``, same text.

    python benchmarks/bench_native_tokenizers.py [--quick]

Text: every European-language file of ../shared/data/mt (references, sources, system outputs; about 100,000
lines, 2 million words; ``--quick``: every 10th line). For each tokenizer: bleuscope's native tokenizer
(``_core.Tokenizer.count_tokens``: the list is converted and every line tokenized, no Python object per token),
sacreBLEU's tokenizer called per line as its BLEU does (``tok(line.rstrip()).split()``), and ``wc -w`` on the
same text written to a file. Seconds are CPU seconds (the best of three), which a busy shared machine
disturbs far less than wall time; the note gives nanoseconds per whitespace-separated word.
"""

from __future__ import annotations

import argparse
import importlib
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1] / "shared" / "data" / "mt"
NAMES = ["13a", "intl", "none", "char", "zh"]


def european_lines(quick: bool) -> list[str]:
    lines: list[str] = []
    for path in sorted(DATA.glob("*/*/*.txt")) + sorted(DATA.glob("*/*/sys/*.txt")):
        if any(lang in path.parent.as_posix() for lang in ("-zh", "-ja", "-ko", "zh-")):
            continue
        file_lines = path.read_text(encoding="utf-8").split("\n")[:-1]
        lines += file_lines[::10] if quick else file_lines
    return lines


def best_cpu(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def wc_seconds(path: str, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(["wc", "-w", path], check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        best = min(best, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
    return best


def run(quick: bool = False) -> list[dict]:
    from sacrebleu.metrics.bleu import _TOKENIZERS

    from bleuscope.core import native

    _core = native.compiled_core()

    lines = european_lines(quick)
    words = sum(len(line.split()) for line in lines)
    rows = []
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt") as f:
        f.write("\n".join(lines) + "\n")
        f.flush()
        wc = wc_seconds(f.name)
    for name in NAMES:
        task = f"tokenize {name}, {len(lines):,} lines"
        native = best_cpu(lambda name=name: _core.Tokenizer(name).count_tokens(lines))
        tok = _load_sacrebleu_tokenizer(_TOKENIZERS[name])
        peer = best_cpu(lambda tok=tok: [tok(line.rstrip()).split() for line in lines], repeat=1)
        for tool, seconds in (("bleuscope", native), ("sacrebleu", peer), ("wc -w", wc)):
            rows.append(
                {
                    "task": task,
                    "tool": tool,
                    "seconds": seconds,
                    "peak_mb": None,
                    "note": f"{seconds / words * 1e9:.0f} ns/word",
                }
            )
    return rows


def _load_sacrebleu_tokenizer(spec: str):
    module, cls = spec.rsplit(".", 1)
    return getattr(importlib.import_module(f"sacrebleu.tokenizers.{module}"), cls)()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="every 10th line")
    args = parser.parse_args(argv)
    rows = run(args.quick)
    print("| task | tool | CPU s | vs bleuscope | ns/word |\n|---|---|---:|---:|---:|")
    ref = {}
    for row in rows:
        if row["tool"] == "bleuscope":
            ref[row["task"]] = row["seconds"]
        ratio = row["seconds"] / ref[row["task"]] if ref.get(row["task"]) else float("nan")
        print(f"| {row['task']} | {row['tool']} | {row['seconds']:.3f} | {ratio:.1f}x | {row['note']} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
