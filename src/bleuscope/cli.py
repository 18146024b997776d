"""The ``bleuscope`` command (minimal version: the full sacreBLEU-compatible CLI is issue 5)."""

from __future__ import annotations

import argparse
import sys
from importlib import resources

from .bleu import BLEU


def _read(path: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as f:
        text = f.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def example_paths() -> dict[str, list[str]]:
    base = resources.files("bleuscope") / "data" / "example"
    return {
        "hyps": [str(base / "hyp.Online-B.txt"), str(base / "hyp.OpenNMT.txt")],
        "refs": [str(base / "ref.A.txt"), str(base / "ref.B.txt")],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="bleuscope", description="Fast, exact BLEU (sacreBLEU-compatible).")
    parser.add_argument("hypothesis", nargs="?", help="hypothesis file")
    parser.add_argument("-r", "--references", nargs="+", help="reference files")
    parser.add_argument("-tok", "--tokenize", default="13a")
    parser.add_argument("--example", action="store_true", help="score the bundled WMT22 en-de example")
    args = parser.parse_args(argv)
    bleu = BLEU(tokenize=args.tokenize)
    if args.example:
        paths = example_paths()
        refs = [_read(p) for p in paths["refs"]]
        for hyp_path in paths["hyps"]:
            score = bleu.corpus_score(_read(hyp_path), refs)
            print(f"{hyp_path.rsplit('/', 1)[-1]}: {score.format(signature=bleu.signature())}")
        return 0
    if not args.hypothesis or not args.references:
        parser.error("give a hypothesis file and -r REF [REF ...], or --example")
    score = bleu.corpus_score(_read(args.hypothesis), [_read(p) for p in args.references])
    print(score.format(signature=bleu.signature()))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
