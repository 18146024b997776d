"""METEOR's word alignment and score, as NLTK 3.10.4's ``nltk.translate.meteor_score`` defines them.

A hypothesis and a reference (lists of words, already preprocessed, e.g. lowercased) are aligned in three
stages; each stage only sees the words the earlier stages left unmatched:

1. **exact**: hypothesis words are visited from the last to the first; each takes the *last* still unmatched
   reference word equal to it;
2. **stem**: the same on the stems of the words left (the stemmer's ``stem(word)``);
3. **synonym**: on the *stems* of the words left (NLTK hands the stemmed words of stage 2 on to stage 3),
   hypothesis stems are visited from the last to the first; each takes the *last* still unmatched reference
   stem that is in its synonym set (the stem and the one-word lemma names of the stem's WordNet synsets, see
   :meth:`.wordnet.WordNet.synonyms`). So ``"guiding"`` is looked up as ``"guid"`` and an unstemmed
   reference word can only be matched when the stemmer leaves it unchanged.

The matches, sorted by hypothesis position, form *chunks*: maximal runs where both the hypothesis and the
reference positions go up by one. With ``m`` matches, ``c`` chunks, hypothesis length ``h`` and reference
length ``r``::

    P = m / h,  R = m / r,  Fmean = P * R / (alpha * P + (1 - alpha) * R)
    penalty = gamma * (c / m) ** beta,  score = (1 - penalty) * Fmean

computed in that order in Python floats; a division by zero (no match, an empty side) gives 0.0. With
several references the score is the largest, and the statistics kept are those of the first reference
that reaches it.
"""

from __future__ import annotations

from collections.abc import Callable

#: the statistics row of one aligned pair: matches, hypothesis length, reference length, chunks
ROW_FIELDS = ("matches", "hyp_len", "ref_len", "chunks")


def align(
    hyp: list[str],
    ref: list[str],
    stem: Callable[[str], str],
    synonyms: Callable[[str], frozenset[str]],
) -> tuple[int, int]:
    """``(matches, chunks)`` of the METEOR alignment of ``hyp`` with ``ref`` (see the module docstring).

    ``stem`` and ``synonyms`` are called only for words the earlier stages left unmatched; callers pass
    cached functions."""
    # stage 1: exact. Reference positions per word, ascending; a hypothesis word takes the last one left.
    positions: dict[str, list[int]] = {}
    for j, word in enumerate(ref):
        found = positions.get(word)
        if found is None:
            positions[word] = [j]
        else:
            found.append(j)
    pairs: list[tuple[int, int]] = []
    left: list[int] = []  # unmatched hypothesis positions, last first
    for i in range(len(hyp) - 1, -1, -1):
        found = positions.get(hyp[i])
        if found:
            pairs.append((i, found.pop()))
        else:
            left.append(i)
    if left and len(pairs) < len(ref):
        left = _stage(left, hyp, ref, positions, pairs, stem)
        if left and len(pairs) < len(ref):
            _synonym_stage(left, hyp, positions, pairs, stem, synonyms)
    if not pairs:
        return 0, 0
    pairs.sort()
    chunks = 1
    prev_i, prev_j = pairs[0]
    for i, j in pairs[1:]:
        if i != prev_i + 1 or j != prev_j + 1:
            chunks += 1
        prev_i, prev_j = i, j
    return len(pairs), chunks


def _unmatched(positions: dict[str, list[int]]) -> list[int]:
    return sorted(j for found in positions.values() for j in found)


def _stage(left, hyp, ref, positions, pairs, stem) -> list[int]:
    """Stage 2: the exact rule on stems; returns the hypothesis positions still unmatched (last first)."""
    by_stem: dict[str, list[int]] = {}
    for j in _unmatched(positions):
        key = stem(ref[j])
        found = by_stem.get(key)
        if found is None:
            by_stem[key] = [j]
        else:
            found.append(j)
    rest = []
    for i in left:
        found = by_stem.get(stem(hyp[i]))
        if found:
            pairs.append((i, found.pop()))
        else:
            rest.append(i)
    # the synonym stage sees the stems (NLTK passes the stemmed words on)
    positions.clear()
    positions.update(by_stem)
    return rest


def _synonym_stage(left, hyp, positions, pairs, stem, synonyms) -> None:
    """Stage 3: each hypothesis stem (last first) takes the last unmatched reference stem among its synonyms."""
    for i in left:
        names = synonyms(stem(hyp[i]))
        best = -1
        best_word = None
        if len(names) <= len(positions):
            for word in names:
                found = positions.get(word)
                if found and found[-1] > best:
                    best = found[-1]
                    best_word = word
        else:
            for word, found in positions.items():
                if found and found[-1] > best and word in names:
                    best = found[-1]
                    best_word = word
        if best_word is not None:
            positions[best_word].pop()
            pairs.append((i, best))


def score(matches, hyp_len, ref_len, chunks, alpha=0.9, beta=3.0, gamma=0.5):
    """METEOR of one statistics row, with NLTK's operations in NLTK's order (see the module docstring)."""
    try:
        precision = float(matches) / hyp_len
        recall = float(matches) / ref_len
        fmean = (precision * recall) / (alpha * precision + (1 - alpha) * recall)
        frag_frac = float(chunks) / matches
    except ZeroDivisionError:
        return 0.0
    penalty = gamma * frag_frac**beta
    return (1 - penalty) * fmean


def score_array(rows, alpha=0.9, beta=3.0, gamma=0.5):
    """:func:`score` of many rows ``[matches, hyp_len, ref_len, chunks]`` (int64 [P, 4]) at once, equal to it
    row by row: numpy's float64 division, multiplication and addition round as Python's floats do, and the
    power is taken by Python's ``float.__pow__`` (numpy's may use another ``pow``). A row where :func:`score`
    divides by zero gets 0.0."""
    import numpy as np

    rows = np.asarray(rows, dtype=np.int64)
    m = rows[:, 0].astype(np.float64)
    h, r, c = rows[:, 1], rows[:, 2], rows[:, 3]
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = m / h
        recall = m / r
        denominator = alpha * precision + (1 - alpha) * recall
        fmean = (precision * recall) / denominator
        frag = c.astype(np.float64) / rows[:, 0]
    zero = (h == 0) | (r == 0) | (denominator == 0) | (rows[:, 0] == 0)
    frag = np.where(zero, 0.0, frag)
    powered = np.array([x**beta for x in frag.tolist()], dtype=np.float64)
    penalty = gamma * powered
    return np.where(zero, 0.0, (1 - penalty) * np.where(zero, 0.0, fmean))
