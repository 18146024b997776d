"""ROUGE counts in plain Python: the readable definition the compiled core is tested against.

Every ROUGE type reduces one (reference, hypothesis) pair to three integers, ``(matches, hyp_count,
ref_count)``, from which precision, recall and F follow with rouge-score's arithmetic
(:func:`bleuscope.metrics.rouge.scores.prf`):

* ``rougeN``: clipped n-gram matches (each reference n-gram matches at most as often as it occurs in the
  hypothesis), the number of hypothesis n-grams and of reference n-grams;
* ``rougeL``: the length of the longest common subsequence of the two token lists, and the two lengths;
* ``rougeLsum``: both texts are split into sentences at ``"\\n"`` (empty lines dropped); for each reference
  sentence, the union of its tokens that lie on one LCS with each hypothesis sentence, where the LCS is
  read back from the dynamic-programming table the way rouge-score reads it (from the end: a match is taken
  diagonally; otherwise move left when the cell to the left is strictly larger than the cell above, else
  up). A union token counts as a hit while both texts still have an unused occurrence of it (counted over
  the whole texts), so no token is matched twice. ``hyp_count`` and ``ref_count`` are the token totals.
"""

from __future__ import annotations

from collections import Counter

from .tokenize import tokenize


def ngram_counts(ref: list[str], hyp: list[str], n: int) -> tuple[int, int, int]:
    """Clipped n-gram matches, hypothesis n-grams, reference n-grams."""
    ref_ngrams = Counter(tuple(ref[i : i + n]) for i in range(len(ref) - n + 1))
    hyp_ngrams = Counter(tuple(hyp[i : i + n]) for i in range(len(hyp) - n + 1))
    matches = sum(min(c, hyp_ngrams[g]) for g, c in ref_ngrams.items())
    return matches, max(len(hyp) - n + 1, 0), max(len(ref) - n + 1, 0)


def lcs_length(a: list, b: list) -> int:
    """Length of a longest common subsequence, with two rows of the table (memory linear in ``len(b)``)."""
    if len(b) > len(a):
        a, b = b, a
    prev = [0] * (len(b) + 1)
    for x in a:
        cur = [0]
        for j, y in enumerate(b):
            cur.append(prev[j] + 1 if x == y else max(prev[j + 1], cur[j]))
        prev = cur
    return prev[-1]


def lcs_positions(ref: list, hyp: list) -> list[int]:
    """Positions in ``ref`` of the LCS that rouge-score reads back from the full table (see module doc)."""
    rows, cols = len(ref), len(hyp)
    table = [[0] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        above, row, x = table[i - 1], table[i], ref[i - 1]
        for j in range(1, cols + 1):
            row[j] = above[j - 1] + 1 if x == hyp[j - 1] else max(above[j], row[j - 1])
    i, j = rows, cols
    out: list[int] = []
    while i > 0 and j > 0:
        if ref[i - 1] == hyp[j - 1]:
            out.append(i - 1)
            i -= 1
            j -= 1
        elif table[i][j - 1] > table[i - 1][j]:
            j -= 1
        else:
            i -= 1
    out.reverse()
    return out


def summary_lcs_counts(ref_sents: list[list[str]], hyp_sents: list[list[str]]) -> tuple[int, int, int]:
    """rougeLsum's ``(hits, hyp tokens, ref tokens)`` of tokenized sentences."""
    m = sum(map(len, ref_sents))
    n = sum(map(len, hyp_sents))
    if not m or not n:
        return 0, n, m
    ref_left = Counter(t for s in ref_sents for t in s)
    hyp_left = Counter(t for s in hyp_sents for t in s)
    hits = 0
    for sent in ref_sents:
        union = sorted(set().union(*(lcs_positions(sent, h) for h in hyp_sents)))
        for pos in union:
            tok = sent[pos]
            if ref_left[tok] > 0 and hyp_left[tok] > 0:
                hits += 1
                ref_left[tok] -= 1
                hyp_left[tok] -= 1
    return hits, n, m


def sentences(text: str) -> list[str]:
    """rougeLsum's sentences: the lines of ``text`` (split at ``"\\n"`` only), empty ones dropped."""
    return [s for s in text.split("\n") if s]


def pair_counts(
    ref: str, hyp: str, types: tuple[str, ...], tokenizer: str = "default", stem: bool = False
) -> list[tuple[int, int, int]]:
    """``(matches, hyp_count, ref_count)`` for each ROUGE type of one pair of texts."""
    ref_tokens = tokenize(ref, tokenizer, stem)
    hyp_tokens = tokenize(hyp, tokenizer, stem)
    out = []
    for rouge_type in types:
        if rouge_type == "rougeL":
            if ref_tokens and hyp_tokens:
                out.append((lcs_length(ref_tokens, hyp_tokens), len(hyp_tokens), len(ref_tokens)))
            else:
                out.append((0, len(hyp_tokens), len(ref_tokens)))
        elif rouge_type == "rougeLsum":
            out.append(summary_lcs_counts(
                [tokenize(s, tokenizer, stem) for s in sentences(ref)],
                [tokenize(s, tokenizer, stem) for s in sentences(hyp)],
            ))
        else:
            out.append(ngram_counts(ref_tokens, hyp_tokens, ngram_order(rouge_type)))
    return out


def ngram_order(rouge_type: str) -> int:
    """n of ``rougeN`` (``rouge1`` .. ``rouge9``)."""
    return int(rouge_type[5:])
