"""Self-BLEU in plain Python: the leave-one-out counts with dictionaries and NLTK 3.10.4's sentence BLEU
arithmetic, the readable definition the compiled core (``rust/core/src/selfbleu.rs``) is tested against.

Against "every sentence but i", an n-gram's clip count is its largest count in another sentence: the
largest count over all sentences unless sentence i holds it alone, then the second largest. The closest
reference length is the closest length among the others (the shorter on ties, NLTK's rule).
"""

from __future__ import annotations

import bisect
import math
import sys
from collections import Counter


def ngram_counts(tokens: list, n: int) -> Counter:
    return Counter(tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1))


def leave_one_out(sentences: list[list], max_order: int):
    """``(matches [N][max_order], totals [N][max_order], closest [N])``, NLTK's modified precision fractions
    and closest reference lengths of each sentence against all the others."""
    n_sent = len(sentences)
    matches = [[0] * max_order for _ in range(n_sent)]
    totals = [[0] * max_order for _ in range(n_sent)]
    for n in range(1, max_order + 1):
        counts = [ngram_counts(s, n) for s in sentences]
        top: dict = {}  # n-gram -> (largest count, its first sentence, second largest count)
        for j, c in enumerate(counts):
            for gram, k in c.items():
                first, holder, second = top.get(gram, (0, -1, 0))
                if k > first:
                    top[gram] = (k, j, first)
                elif k > second:
                    top[gram] = (first, holder, k)
        for j, c in enumerate(counts):
            clipped = 0
            for gram, k in c.items():
                first, holder, second = top[gram]
                clipped += min(k, second if holder == j else first)
            matches[j][n - 1] = clipped
            totals[j][n - 1] = max(1, sum(c.values()))
    lengths = [len(s) for s in sentences]
    how_many = Counter(lengths)
    distinct = sorted(how_many)
    closest = []
    for h in lengths:
        # the other sentences' lengths: h itself if another sentence has it, else its neighbours
        at = bisect.bisect_left(distinct, h)
        candidates = [h] if how_many[h] > 1 else distinct[max(0, at - 1):at] + distinct[at + 1:at + 2]
        closest.append(min(candidates, key=lambda r: (abs(r - h), r)))
    return matches, totals, closest


def sentence_bleu(matches: list[int], totals: list[int], closest: int, length: int, weights, epsilon) -> float:
    """NLTK's ``sentence_bleu`` from the counts: method1 (``epsilon / total`` for a zero precision) or, for
    ``epsilon=None``, method0 (``sys.float_info.min``); ``math.fsum`` of the weighted logarithms."""
    if matches[0] == 0:
        return 0.0
    if length > closest:
        bp = 1.0
    elif length == 0:
        bp = 0.0
    else:
        bp = math.exp(1 - closest / length)
    p = []
    for m, t in zip(matches, totals):
        if m:
            p.append(m / t)
        else:
            p.append(sys.float_info.min if epsilon is None else epsilon / t)
    return bp * math.exp(math.fsum(w * math.log(x) for w, x in zip(weights, p)))


def self_bleu(sentences: list[list], weights, epsilon=0.1) -> list[float]:
    """Each sentence's Self-BLEU against all the others."""
    matches, totals, closest = leave_one_out(sentences, len(weights))
    return [sentence_bleu(m, t, c, len(s), weights, epsilon) for m, t, c, s in zip(matches, totals, closest, sentences)]
