"""The rwth-i6 CharacTER and EED golden outputs in ../shared/oracles/goldens (outputs only: the programs'
licences keep their code out) and the inputs they were computed from."""

from __future__ import annotations

import csv
from collections import defaultdict
from pathlib import Path

SHARED = Path(__file__).resolve().parents[3] / "shared"
GOLDENS = SHARED / "oracles" / "goldens"
MT = SHARED / "data" / "mt"


def lines(path: Path) -> list[str]:
    """The lines of a file as the rwth-i6 programs read them (``readlines()``), line ends removed."""
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f.readlines()]


def inputs(set_name: str, pair: str, system: str, ref: str) -> tuple[list[str], list[str]]:
    """The hypothesis and reference lines of one golden (system, reference) pair."""
    if set_name == "newstest2016":
        base = GOLDENS / "inputs" / "newstest2016-de-en"
        return lines(base / f"newstest2016.{system}.de-en"), lines(base / "newstest2016-deen-ref.en")
    base = MT / set_name / pair
    return lines(base / "sys" / f"{system}.txt"), lines(base / f"ref.{ref}.txt")


def segment_goldens(file_name: str, column: str) -> dict[tuple, list[tuple[int, float]]]:
    """``(set, pair, system, ref) -> [(1-based line, value)]`` of a per-segment golden file."""
    out: dict[tuple, list] = defaultdict(list)
    with open(GOLDENS / file_name, encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t"):
            out[(row["set"], row["pair"], row["system"], row["ref"])].append((int(row["line"]), float(row[column])))
    return dict(out)


def corpus_goldens(metric: str) -> dict[tuple, float]:
    """``(set, pair, system, ref) -> mean`` of rwth-corpus.tsv for ``metric``."""
    with open(GOLDENS / "rwth-corpus.tsv", encoding="utf-8", newline="") as f:
        return {
            (r["set"], r["pair"], r["system"], r["ref"]): float(r["mean"])
            for r in csv.DictReader(f, delimiter="\t")
            if r["metric"] == metric
        }


#: the pair every default run checks in full; the other six run with --full
DEFAULT_PAIR = ("generaltest2022", "de-en", "JDExploreAcademy", "A")


def golden_params(keys) -> list:
    """The golden pairs as test parameters, all but :data:`DEFAULT_PAIR` marked ``full``."""
    import pytest

    return [key if key == DEFAULT_PAIR else pytest.param(key, marks=pytest.mark.full) for key in sorted(keys)]
