"""The report's progress line: on standard error, only on a terminal and without -q (the main command's rule),
naming each long phase (reading, counting, each metric's intervals and all-pairs tests with the number of
pairs tested, matching n-grams, the tables' intervals) with its count; nothing for a short run."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import bleuscope
from bleuscope.report import cli as report_cli

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"
REF = str(EXAMPLE / "ref.A.txt")
SYSTEMS = [str(EXAMPLE / "hyp.Online-B.txt"), str(EXAMPLE / "hyp.OpenNMT.txt"), str(EXAMPLE / "ref.B.txt")]


class _Terminal:
    """Standard error as a terminal, its text kept."""

    def __init__(self) -> None:
        self.text = ""

    def write(self, s: str) -> int:
        self.text += s
        return len(s)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        return True


def _report(monkeypatch, tmp_path, *extra: str, terminal: bool = True, thresholds=(1, 1)) -> str:
    err = _Terminal()
    if not terminal:
        err.isatty = lambda: False  # type: ignore[method-assign]
    monkeypatch.setattr("sys.stderr", err)
    lines, resampled = thresholds
    monkeypatch.setattr(report_cli, "PROGRESS_MIN_SEGMENTS", lines)
    monkeypatch.setattr(report_cli, "PROGRESS_MIN_RESAMPLED_SEGMENTS", resampled)
    code = report_cli.main([REF, "-i", *SYSTEMS, "-o", str(tmp_path / "r.html"), "--n-bootstrap", "200",
                            "-m", "bleu", "chrf", *extra])
    assert code == 0, err.text
    return err.text


def _drawn(text: str) -> list[str]:
    """The progress lines drawn, in order (each ``\\r`` + line + erase to the end)."""
    return [m.group(1) for m in re.finditer(r"\rbleuscope: (.*?)\x1b\[K", text) if m.group(1)]


def test_every_long_phase_is_named_with_its_count(monkeypatch, tmp_path):
    text = _report(monkeypatch, tmp_path)
    drawn = _drawn(text)
    labels = " | ".join(drawn)
    for phase in ("reading 4 inputs", "counting BLEU", "BLEU: intervals, 3 pair tests",
                  "counting chrF2", "chrF2: intervals, 3 pair tests", "matching n-grams",
                  "the tables' intervals", "writing the page"):
        assert phase in labels, (phase, drawn)
    # counts: 4 inputs x 300 lines read; 200 resamples each of the intervals and the tests
    reading = [d for d in drawn if d.endswith("reading 4 inputs")]
    assert reading[-1].startswith("1,200 lines (")
    resampled = [int(d.split()[0].replace(",", "")) for d in drawn if d.startswith(tuple("0123456789"))
                 and "BLEU: intervals" in d]
    assert resampled and max(resampled) >= 200
    # the phases come in this order
    firsts = [next(i for i, d in enumerate(drawn) if p in d)
              for p in ("reading", "counting BLEU", "BLEU: intervals", "counting chrF2", "matching n-grams",
                        "the tables' intervals", "writing the page")]
    assert firsts == sorted(firsts)
    # the line is erased before the summary line
    assert text.endswith("\r\x1b[K" + text.split("\r\x1b[K")[-1])
    assert text.split("\r\x1b[K")[-1].startswith("bleuscope report: wrote ")


@pytest.mark.parametrize("how", ["not a terminal", "-q"])
def test_no_line_off_a_terminal_or_with_q(monkeypatch, tmp_path, how):
    text = _report(monkeypatch, tmp_path, *(["-q"] if how == "-q" else []), terminal=how == "-q")
    assert "\r" not in text


def test_no_line_for_a_short_report(monkeypatch, tmp_path):
    """With the real thresholds, 300 segments and 200 resamples take well under a second: no line."""
    text = _report(monkeypatch, tmp_path, thresholds=(report_cli.PROGRESS_MIN_SEGMENTS,
                                                      report_cli.PROGRESS_MIN_RESAMPLED_SEGMENTS))
    assert "\r" not in text, text
    assert text.startswith("bleuscope report: wrote ")


def test_a_warning_gets_a_line_of_its_own(monkeypatch, tmp_path):
    """A warning printed while the line is drawn erases it first."""
    (tmp_path / "dots.txt").write_text("".join(f"line {i} .\n" for i in range(300)), encoding="utf-8")
    monkeypatch.setattr("sys.argv", ["bleuscope-report"])
    err = _Terminal()
    monkeypatch.setattr("sys.stderr", err)
    monkeypatch.setattr(report_cli, "PROGRESS_MIN_SEGMENTS", 1)
    monkeypatch.setattr(report_cli, "PROGRESS_MIN_RESAMPLED_SEGMENTS", 1)
    assert report_cli.main([REF, "-i", str(tmp_path / "dots.txt"), SYSTEMS[0], "-o", str(tmp_path / "r.html"),
                            "--n-bootstrap", "50"]) == 0
    warnings = [i for i in range(len(err.text)) if err.text.startswith("bleuscope report: warning:", i)]
    assert warnings, err.text
    for i in warnings:
        assert i == 0 or err.text[:i].endswith("\n") or err.text[:i].endswith("\r\x1b[K"), err.text[max(0, i - 80):i]
