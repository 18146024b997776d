"""CharacTER in plain Python: the readable definition the compiled core (``rust/core/src/character.rs``) is
tested against, written from the metric's definition (Wang et al. 2016) and checked against the rwth-i6
program's outputs. See :mod:`bleuscope.metrics.character` for the steps."""

from __future__ import annotations

import numpy as np


def levenshtein(a, b) -> int:
    """Levenshtein distance of two sequences."""
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        diag, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            up = row[j]
            row[j] = min(up + 1, row[j - 1] + 1, diag + (x != y))
            diag = up
    return row[-1]


def word_ratio(hyp: list[str], ref: list[str], float64: bool = False) -> float:
    """Word distance / reference length in float32 (the original's C++ distance), widened; ``float64``: in
    float64 (PyPI ``cer`` 1.2.0, so HF ``character``)."""
    if float64:
        return levenshtein(hyp, ref) / len(ref)
    return float(np.float32(levenshtein(hyp, ref)) / np.float32(len(ref)))


def candidate_shifts(hyp: list[str], ref: list[str]):
    """``(hypothesis start, reference start, length)`` of every phrase that matches at another position."""
    for i in range(len(hyp)):
        for j in range(len(ref)):
            if i == j or hyp[i] != ref[j]:
                continue
            length = 1
            while i + length < len(hyp) and j + length < len(ref) and hyp[i + length] == ref[j + length]:
                length += 1
            yield i, j, length


def best_shift(hyp: list[str], ref: list[str], current: float, float64: bool = False) -> tuple[float, list[str]]:
    """The largest ``(gain, shifted words)`` pair of every candidate shift (ties: the larger word list), or
    ``(0, hyp)`` when there is none."""
    best = None
    for i, j, length in candidate_shifts(hyp, ref):
        shifted = hyp[:i] + hyp[i + length:]
        shifted[j:j] = hyp[i:i + length]
        pair = (current - word_ratio(shifted, ref, float64), shifted)
        if best is None or pair > best:
            best = pair
    return best if best is not None else (0.0, hyp)


def shift_cost(shifted: list[str], original: list[str]) -> float:
    """The average character length of each shifted phrase, summed (step 2 of the definition)."""
    cost = 0.0
    start = 0
    n = len(shifted)
    while start < n:
        first = start
        average = 0.0
        if original[start] != shifted[start]:
            for at in range(start + 1, n):
                if shifted[at] == original[start]:
                    length = 1
                    while first + length < len(original) and at + length < n and \
                            original[first + length] == shifted[at + length]:
                        length += 1
                        if start + 1 < len(original):
                            start += 1
                    average = sum(len(w) for w in original[first:first + length]) / length
                    break
        cost += average
        start += 1
    return cost


def character(hyp: list[str], ref: list[str], float64: bool = False) -> float:
    """CharacTER of one pair of word lists (``float64``: shifts scored as PyPI ``cer`` 1.2.0 does)."""
    if not ref:
        return 0.0 if not hyp else 1.0
    current = word_ratio(hyp, ref, float64)
    if current == 0:
        return 0.0
    original = hyp
    while True:
        gain, shifted = best_shift(hyp, ref, current, float64)
        if gain <= 0:
            break
        current -= gain
        hyp = shifted
    hyp_text, ref_text = " ".join(hyp), " ".join(ref)
    if not hyp_text:
        return 1.0
    return min(1.0, (levenshtein(hyp_text, ref_text) + shift_cost(hyp, original)) / len(hyp_text))
