"""TER edits of one hypothesis against one reference, as sacreBLEU 2.6.0 computes them (pure Python).

This is the reference implementation; the compiled core must give the same edit counts.

The algorithm (Tercom's, with sacreBLEU's variations, which are part of its numbers):

* Edit distance is a *beam* Levenshtein distance: row i (hypothesis word i) only fills the cells
  ``j in [floor(i * m / n) - beam, floor(i * m / n) + beam)`` (clipped; the last row fills every cell),
  beam = 25, widened to ``ceil(m / n / 2 + 25)`` when ``m / n / 2 > 25``. Cells outside are infinite.
  Ties prefer match/substitution, then the hypothesis-word deletion, then the reference-word insertion.
* Greedy shifts: while some shift of a block of 1..10 hypothesis words onto an equal block of the
  reference (start positions at most 50 apart) lowers the edit distance, apply the best one (largest
  gain, then longest block, then earliest hypothesis start, then earliest target position), counting
  one edit per shift. A block is only tried when some of its words is misaligned in the hypothesis,
  some of the reference block is misaligned, and the block does not already cover the reference
  start's aligned position. Targets are the positions after the alignment of the reference block's
  words (and before the first word). After 1000 evaluated candidates in total the search stops, and
  the shift found in that last round is *not* applied.
* TER edits = shifts + the final edit distance. An empty reference gives (hypothesis length) edits.
"""

from __future__ import annotations

import math

MAX_SHIFT_SIZE = 10
MAX_SHIFT_DIST = 50
BEAM_WIDTH = 25
MAX_SHIFT_CANDIDATES = 1000
INFINITY = 10 ** 16

# edit operations in the DP trace (hypothesis -> reference)
OP_MATCH, OP_SUB, OP_DEL_HYP, OP_INS_REF, OP_UNDEF = 0, 1, 2, 3, 4


class BeamDistance:
    """Beam edit distance of hypotheses of one fixed length against one reference, with the DP rows of
    the last full computation kept so that a shifted hypothesis only recomputes rows after its first
    changed word (rows depend only on the hypothesis prefix and the fixed length ratio)."""

    def __init__(self, ref: list, n_hyp: int) -> None:
        self.ref = ref
        m = len(ref)
        self.m = m
        self.n = n_hyp
        self.ratio = m / n_hyp if n_hyp else 1
        self.beam = math.ceil(self.ratio / 2 + BEAM_WIDTH) if BEAM_WIDTH < self.ratio / 2 else BEAM_WIDTH
        self.first_costs = list(range(m + 1))
        self.first_ops = [OP_INS_REF] * (m + 1)

    def rows(self, hyp: list, start: int = 0, base_costs=None, base_ops=None):
        """(costs, ops) rows 0..n; rows 0..start are taken from ``base_*`` (a run on a hypothesis with
        the same first ``start`` words)."""
        m, n, ref = self.m, self.n, self.ref
        if base_costs is None:
            costs, ops = [self.first_costs], [self.first_ops]
            start = 0
        else:
            costs, ops = base_costs[: start + 1], base_ops[: start + 1]
        for i in range(start + 1, n + 1):
            diag = math.floor(i * self.ratio)
            lo = max(0, diag - self.beam)
            hi = m + 1 if i == n else min(m + 1, diag + self.beam)
            prev = costs[i - 1]
            row = [INFINITY] * (m + 1)
            op_row = [OP_UNDEF] * (m + 1)
            word = hyp[i - 1]
            for j in range(lo, hi):
                if j == 0:
                    row[0] = prev[0] + 1
                    op_row[0] = OP_DEL_HYP
                    continue
                best, op = INFINITY, OP_UNDEF
                c = prev[j - 1] + (0 if word == ref[j - 1] else 1)
                if c < best:
                    best, op = c, (OP_MATCH if word == ref[j - 1] else OP_SUB)
                c = prev[j] + 1
                if c < best:
                    best, op = c, OP_DEL_HYP
                c = row[j - 1] + 1
                if c < best:
                    best, op = c, OP_INS_REF
                row[j] = best
                op_row[j] = op
            costs.append(row)
            ops.append(op_row)
        return costs, ops


def trace(ops: list, n: int, m: int) -> list[int]:
    """Operations from (0, 0) to (n, m) along the DP's back pointers."""
    out = []
    i, j = n, m
    while i > 0 or j > 0:
        op = ops[i][j]
        out.append(op)
        if op in (OP_MATCH, OP_SUB):
            i -= 1
            j -= 1
        elif op == OP_INS_REF:
            j -= 1
        elif op == OP_DEL_HYP:
            i -= 1
        else:
            raise RuntimeError("TER beam edit distance left its beam (undefined cell on the trace)")
    out.reverse()
    return out


def alignment(path: list[int]) -> tuple[list[int], list[int], list[int]]:
    """(align, ref_err, hyp_err): ``align[r]`` is the hypothesis position aligned to reference word r
    (for an inserted reference word, the position of the last hypothesis word before it, -1 at the start);
    the error lists mark words that are not exact matches."""
    h = r = -1
    align: list[int] = []
    ref_err: list[int] = []
    hyp_err: list[int] = []
    for op in path:
        if op == OP_MATCH or op == OP_SUB:
            h += 1
            r += 1
            align.append(h)
            err = 0 if op == OP_MATCH else 1
            hyp_err.append(err)
            ref_err.append(err)
        elif op == OP_DEL_HYP:
            h += 1
            hyp_err.append(1)
        else:
            r += 1
            align.append(h)
            ref_err.append(1)
    return align, ref_err, hyp_err


def shifted(words: list, start: int, length: int, target: int) -> list:
    """The words with the block [start, start + length) moved to ``target`` (sacreBLEU's three cases)."""
    if target < start:
        return words[:target] + words[start:start + length] + words[target:start] + words[start + length:]
    if target > start + length:
        return words[:start] + words[start + length:target] + words[start:start + length] + words[target:]
    return words[:start] + words[start + length:length + target] + words[start:start + length] + words[length + target:]


def matching_blocks(hyp: list, ref: list):
    """(hyp start, ref start, length) of equal blocks, lengths 1..10, starts at most 50 apart, in
    hypothesis-start, reference-start, length order."""
    n, m = len(hyp), len(ref)
    for sh in range(n):
        for sr in range(max(0, sh - MAX_SHIFT_DIST), min(m, sh + MAX_SHIFT_DIST + 1)):
            length = 0
            while length < MAX_SHIFT_SIZE and hyp[sh + length] == ref[sr + length]:
                length += 1
                yield sh, sr, length
                if sh + length == n or sr + length == m:
                    break


def best_shift(words: list, ref: list, dist: BeamDistance, checked: int):
    """(gain, shifted words or None, candidates checked so far) of the best shift of ``words``."""
    costs, ops = dist.rows(words)
    n, m = len(words), len(ref)
    before = costs[n][m]
    align, ref_err, hyp_err = alignment(trace(ops, n, m))
    best = None
    best_words = None
    for sh, sr, length in matching_blocks(words, ref):
        if not any(hyp_err[sh:sh + length]):
            continue
        if not any(ref_err[sr:sr + length]):
            continue
        if sh <= align[sr] < sh + length:
            continue
        prev_target = -1
        for offset in range(-1, length):
            pos = sr + offset
            if pos == -1:
                target = 0
            elif pos < len(align):
                target = align[pos] + 1
            else:
                break
            if target == prev_target:
                continue
            prev_target = target
            candidate = shifted(words, sh, length, target)
            c_costs, _ = dist.rows(candidate, min(sh, target), costs, ops)
            key = (before - c_costs[n][m], length, -sh, -target)
            checked += 1
            if best is None or key > best:
                best, best_words = key, candidate
        if checked >= MAX_SHIFT_CANDIDATES:
            break
    if best is None:
        return 0, None, checked
    return best[0], best_words, checked


def ter_edits(hyp: list, ref: list) -> int:
    """Number of TER edits (shifts + beam edit distance after the shifts) turning ``hyp`` into ``ref``."""
    if not ref:
        return len(hyp)
    dist = BeamDistance(ref, len(hyp))
    words = hyp
    shifts = 0
    checked = 0
    while True:
        gain, new_words, checked = best_shift(words, ref, dist, checked)
        if checked >= MAX_SHIFT_CANDIDATES or gain <= 0:
            break
        shifts += 1
        words = new_words
    costs, _ = dist.rows(words)
    return shifts + costs[len(words)][len(ref)]
