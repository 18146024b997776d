"""GLEU in plain Python: the readable definition the compiled core (``rust/core/src/gleu.rs``) is tested
against, for token sequences of any hashable tokens.

NLTK 3.10.4's definition: a sequence's n-grams are those of every order ``min_len..max_len`` (NLTK's
``everygrams``; ``max_len=-1``: the sequence's length), counted with multiplicity. Per hypothesis and
reference, ``tp`` is the number of shared n-grams, ``n_all = max(hypothesis n-grams, reference n-grams)``;
a segment keeps the reference with the highest ``tp / n_all`` (the first on ties; references with
``n_all = 0`` are skipped); the corpus score is ``sum(tp) / sum(n_all)`` (0.0 when that is 0).
"""

from __future__ import annotations

from collections import Counter


def everygrams(tokens, min_len: int, max_len: int) -> Counter:
    """The n-grams NLTK's ``everygrams(tokens, min_len, max_len)`` yields, counted: for each start, the
    n-grams of orders ``min_len..`` up to ``max_len`` words that fit (an order of 0 gives the empty n-gram
    once per start, as NLTK's loop does)."""
    tokens = list(tokens)
    if max_len == -1:
        max_len = len(tokens)
    grams: Counter = Counter()
    for start in range(len(tokens)):
        window = tokens[start:start + max_len]
        for n in range(min_len, len(window) + 1):
            grams[tuple(window[:n])] += 1
    return grams


def segment_row(hypothesis, references, min_len: int = 1, max_len: int = 4) -> tuple[int, int]:
    """``(tp, n_all)`` of one segment's best reference (``(0, 0)`` when every ``n_all`` is 0)."""
    hyp = everygrams(hypothesis, min_len, max_len)
    tpfp = sum(hyp.values())
    best = None
    for reference in references:
        ref = everygrams(reference, min_len, max_len)
        tpfn = sum(ref.values())
        tp = sum((ref & hyp).values())
        n_all = max(tpfp, tpfn)
        if n_all > 0 and (best is None or tp / n_all > best[0] / best[1]):
            best = (tp, n_all)
    return best if best is not None else (0, 0)


def corpus_value(rows) -> float:
    """``sum(tp) / sum(n_all)``, 0.0 when the denominator is 0."""
    tp = sum(int(r[0]) for r in rows)
    n_all = sum(int(r[1]) for r in rows)
    return tp / n_all if n_all else 0.0
