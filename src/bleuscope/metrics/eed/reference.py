"""EED in plain Python with numpy float32 scalars: the readable definition the compiled core
(``rust/core/src/eed.rs``) is tested against, and the English preprocessing of the original (used by both
engines). Written from the metric's definition (Stanchev, Wang and Ney 2019) and checked against the rwth-i6
program's outputs; see :mod:`bleuscope.metrics.eed` for the steps."""

from __future__ import annotations

import re

import numpy as np

_PUNCTUATION = ((".", " ."), ("!", " !"), ("?", " ?"), (",", " ,"))
_DECIMAL = re.compile(r"(\d) ([.,]) (\d)")
_TITLES = re.compile(r"(Dr|Jr|Prof|Rev|Gen|Mr|Mt|Mrs|Ms) .")
#: what a line must hold for the title rule to change it (a cheap test before the regex)
_TITLE_WORDS = ("Dr ", "Jr ", "Prof ", "Rev ", "Gen ", "Mr ", "Mt ", "Mrs ", "Ms ")
# the original maps "i . e ." to "e.g." too (util.py's replace), so its scores have that
_ABBREVIATIONS = (("e . g .", "e.g."), ("i . e .", "e.g."), ("U . S .", "U.S."))


def preprocess_en(line: str) -> str:
    """The original's English preprocessing: trailing whitespace removed, a space before ``. ! ? ,``, runs of
    whitespace as one space, decimal numbers and a few titles and abbreviations joined again (``i . e .``
    becomes ``e.g.``, as in the original). (The title rule's ``.`` matches any character, as in the
    original.)"""
    line = line.rstrip()
    for mark, spaced in _PUNCTUATION:
        line = line.replace(mark, spaced)
    # the original's re.sub(r"\s+", " "): \s and str.split() take the same characters as whitespace, and
    # no whitespace is left at the end
    if line and line[0].isspace():
        line = " " + " ".join(line.split())
    else:
        line = " ".join(line.split())
    if " . " in line or " , " in line:
        line = _DECIMAL.sub(r"\1\2\3", line)
    if any(word in line for word in _TITLE_WORDS):
        line = _TITLES.sub(r"\1.", line)
    if " . " in line:
        for spaced, joined in _ABBREVIATIONS:
            line = line.replace(spaced, joined)
    return line


#: the original's parameters: alpha (long jump), deletion, insertion, substitution, rho (coverage)
DEFAULTS = (2.0, 0.2, 1.0, 1.0, 0.3)


def eed(hyp: str, ref: str, parameters: tuple = DEFAULTS) -> float:
    """EED of one preprocessed pair, float32 arithmetic, widened and capped at 1."""
    alpha, deletion, insertion, substitution, rho = (np.float32(p) for p in parameters)
    one, inf = np.float32(1.0), np.float32(np.inf)
    hyp = " " + hyp + " "
    ref = " " + ref + " "
    n = len(hyp)
    visits = [-1] * (n + 1)
    row = [one] * (n + 1)
    row[0] = np.float32(0.0)
    for rc in ref:
        nxt = [inf] * (n + 1)
        nxt[0] = row[0] + one
        for i in range(1, n + 1):
            sub = np.float32(0.0) if rc == hyp[i - 1] else substitution
            nxt[i] = min(nxt[i - 1] + deletion, row[i - 1] + sub, row[i] + insertion)
        # the running minimum is an integer (truncated): the first cell below it so far wins
        minimum, at = 2**31 - 1, 0
        for i, v in enumerate(nxt):
            if v < minimum:
                minimum, at = int(v), i
        visits[at] += 1
        if rc == " ":
            jump = alpha + nxt[at]
            nxt = [jump if v > jump else v for v in nxt]
        row = nxt
    uncovered = sum(v if v >= 0 else 1 for v in visits[1:])
    coverage = rho * np.float32(uncovered)
    return min(1.0, float((row[n] + coverage) / (np.float32(len(ref)) + coverage)))
