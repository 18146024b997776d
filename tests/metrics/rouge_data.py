"""Shared inputs of the ROUGE tests: WMT segments, summary-like documents built from them, and texts that
exercise rouge-score's corner cases."""

from __future__ import annotations

from ..conftest import DATA, read_lines

PAIRS = [("generaltest2022", "de-en"), ("generaltest2022", "en-de"), ("newstest2021", "en-ru"),
         ("generaltest2022", "cs-en")]

ALL_TYPES = ("rouge1", "rouge2", "rouge3", "rouge4", "rougeL", "rougeLsum")


def wmt_segments(testset: str, pair: str, system: str | None = None, limit: int | None = None):
    """(hypotheses, [reference streams]) of one WMT pair: the first system against every reference."""
    base = DATA / testset / pair
    if system is None:
        system = sorted(p.stem for p in (base / "sys").glob("*.txt"))[0]
    hyps = read_lines(base / "sys" / f"{system}.txt")
    refs = [read_lines(p) for p in sorted(base.glob("ref.*.txt"))]
    if limit is not None:
        hyps, refs = hyps[:limit], [r[:limit] for r in refs]
    return hyps, refs


def summaries(lines: list[str], sentences: int = 4) -> list[str]:
    """Summary-like documents: ``sentences`` consecutive segments joined by newlines (what rougeLsum expects)."""
    return ["\n".join(lines[i : i + sentences]) for i in range(0, len(lines) - sentences + 1, sentences)]


CORNER_CASES = [
    ("", ""),
    ("", "a b c"),
    ("a b c", ""),
    ("!!! ??? ...", "the cat"),
    ("the cat", "!!! --- ,,,"),
    ("The cat sat.\n\nOn the mat.", "the cat\non the mat"),
    ("\n\n\n", "\n"),
    ("a\n \nb", "b\n \na"),
    ("KELVIN \u212a and \u0130stanbul", "k and istanbul"),
    ("Привет мир", "Привет мир"),
    ("日本語のテキスト", "日本語のテキスト"),
    ("running runs ran runner", "run running runs"),
    ("police police police", "police police"),
    ("a a a a b b", "a b a b a b"),
    ("x y z\nz y x\nx z y", "z x y\ny x z"),
    ("organization organizational generalizations", "organize general generally"),
    ("one two three four five six seven eight nine ten", "ten nine eight seven six five four three two one"),
    ("caf\u00e9 na\u00efve co\u00f6perate", "cafe naive cooperate"),
    ("tab\tseparated\rcarriage\u2028line\u2029para\x0bvt\x0cff\x1cfs\x85nel", "tab separated carriage line"),
]
