"""The readable reference of the compiled edit-rate aligner: rapidfuzz's Levenshtein opcodes (what jiwer
4.0.0 counts hits, substitutions, deletions and insertions from), step by step in plain Python.

The distance is unique, the alignment is not; rapidfuzz's choice, reproduced here:

1. the common prefix, then the common suffix, are stripped (hits);
2. a problem whose bit matrix would reach 1 MiB (``2 * band * len(hyp) / 8`` bytes with the band
   ``min(len(ref), 2 * bound + 1)``), with a reference of at least 65 tokens and a hypothesis of at least 10,
   is split (Hirschberg): the hypothesis at ``len(hyp) // 2``, the reference at the first place where the
   two halves' distances add up to the least; each half is solved alike, its distance as its bound;
3. a smaller problem is traced back from the bottom right corner of its matrix, preferring a deletion
   (the cell above, one reference token shorter, costs one less), then an insertion (the cell to the left
   costs one less than the one diagonally above it), then the diagonal (hit or substitution).

The opcodes are runs of ``equal``, ``replace``, ``delete`` and ``insert`` over reference ``i1:i2`` and
hypothesis ``j1:j2`` (rapidfuzz's ``Opcodes``: consecutive edits of one kind merged, the gaps ``equal``).
"""

from __future__ import annotations

from collections.abc import Sequence

#: opcode kinds by the compiled core's numbers
KINDS = ("equal", "replace", "delete", "insert")

_MATRIX_BYTES = 1024 * 1024


def _last_row(s1: Sequence, s2: Sequence) -> list[int]:
    """``row[i]`` = the distance of ``s1[:i]`` to all of ``s2``."""
    row = list(range(len(s1) + 1))
    for r, c in enumerate(s2):
        diag, row[0] = row[0], r + 1
        for i in range(1, len(s1) + 1):
            up = row[i]
            row[i] = min(diag + (s1[i - 1] != c), up + 1, row[i - 1] + 1)
            diag = up
    return row


def _leaf(s1: Sequence, s2: Sequence, src: int, dest: int, out: list) -> None:
    """The traceback of a problem small enough for its full matrix, appended to ``out`` in order."""
    m, n = len(s1), len(s2)
    ops = []
    if m and n:
        # d[j][i]: distance of s1[:i] to s2[:j]
        d = [list(range(m + 1))]
        for j in range(1, n + 1):
            d.append(_last_row_step(d[-1], s1, s2[j - 1], j))
        col, row = m, n
        while row and col:
            if d[row][col] - d[row][col - 1] == 1:
                col -= 1
                ops.append(("delete", col + src, row + dest))
            else:
                row -= 1
                if row and d[row][col] - d[row][col - 1] == -1:
                    ops.append(("insert", col + src, row + dest))
                else:
                    col -= 1
                    if s1[col] != s2[row]:
                        ops.append(("replace", col + src, row + dest))
        while col:
            col -= 1
            ops.append(("delete", col + src, row + dest))
        while row:
            row -= 1
            ops.append(("insert", col + src, row + dest))
    else:
        ops.extend(("delete", col + src, dest) for col in reversed(range(m)))
        ops.extend(("insert", src, row + dest) for row in reversed(range(n)))
    out.extend(reversed(ops))


def _last_row_step(prev: list[int], s1: Sequence, c, j: int) -> list[int]:
    row = [j]
    for i in range(1, len(s1) + 1):
        row.append(min(prev[i - 1] + (s1[i - 1] != c), prev[i] + 1, row[i - 1] + 1))
    return row


def _align(s1: Sequence, s2: Sequence, src: int, dest: int, bound: int, out: list) -> None:
    prefix = 0
    while prefix < min(len(s1), len(s2)) and s1[prefix] == s2[prefix]:
        prefix += 1
    s1, s2 = s1[prefix:], s2[prefix:]
    suffix = 0
    while suffix < min(len(s1), len(s2)) and s1[len(s1) - 1 - suffix] == s2[len(s2) - 1 - suffix]:
        suffix += 1
    s1, s2 = s1[: len(s1) - suffix], s2[: len(s2) - suffix]
    src, dest = src + prefix, dest + prefix
    bound = min(bound, max(len(s1), len(s2)))
    band = min(len(s1), 2 * bound + 1)
    if 2 * band * len(s2) // 8 < _MATRIX_BYTES or len(s1) < 65 or len(s2) < 10:
        _leaf(s1, s2, src, dest, out)
        return
    half = len(s2) // 2
    left = _last_row(s1, s2[:half])
    right = _last_row(s1[::-1], s2[half:][::-1])
    n = len(s1)
    mid = min(range(n + 1), key=lambda i: (left[i] + right[n - i], i))
    _align(s1[:mid], s2[:half], src, dest, left[mid], out)
    _align(s1[mid:], s2[half:], src + mid, dest + half, right[n - mid], out)


def editops(reference: Sequence, hypothesis: Sequence) -> list[tuple[str, int, int]]:
    """rapidfuzz's edit operations ``(kind, reference position, hypothesis position)`` turning
    ``reference`` into ``hypothesis`` (sequences of comparable tokens), in order."""
    out: list = []
    _align(list(reference), list(hypothesis), 0, 0, max(len(reference), len(hypothesis)), out)
    return out


def opcodes(reference: Sequence, hypothesis: Sequence) -> list[tuple[str, int, int, int, int]]:
    """rapidfuzz's ``Levenshtein.opcodes(reference, hypothesis)`` as ``(kind, i1, i2, j1, j2)`` tuples."""
    ops = editops(reference, hypothesis)
    out = []
    src = dest = k = 0
    while k < len(ops):
        kind, s, d = ops[k]
        if src < s or dest < d:
            out.append(("equal", src, s, dest, d))
            src, dest = s, d
        begin = (src, dest)
        while True:
            if kind == "replace":
                src, dest = src + 1, dest + 1
            elif kind == "insert":
                dest += 1
            else:
                src += 1
            k += 1
            if not (k < len(ops) and ops[k][0] == kind and ops[k][1] == src and ops[k][2] == dest):
                break
        out.append((kind, begin[0], src, begin[1], dest))
    if src < len(reference) or dest < len(hypothesis):
        out.append(("equal", src, len(reference), dest, len(hypothesis)))
    return out


def counts(reference: Sequence, hypothesis: Sequence) -> list[int]:
    """The statistics row ``[hits, substitutions, deletions, insertions, len(reference), len(hypothesis)]``
    of the alignment."""
    s = d = i = 0
    for kind, _, _ in editops(reference, hypothesis):
        if kind == "replace":
            s += 1
        elif kind == "delete":
            d += 1
        else:
            i += 1
    return [len(reference) - s - d, s, d, i, len(reference), len(hypothesis)]
