"""chrF statistics in pure Python: the reference implementation (the compiled core must match it row for row).

Per order (character orders 1..C, then word orders 1..W) a segment has three integers: hypothesis n-grams,
reference n-grams and clipped matches. The hypothesis count is 0 when the reference has no n-gram of that
order (sacreBLEU's rule: no hits are counted without a reference). With several references, the
candidate rows of every reference are returned and the caller keeps the one with the best sentence F.
"""

from __future__ import annotations

from collections import Counter

#: ASCII punctuation that chrF++ splits off the start or the end of a word
PUNCTUATION = frozenset('!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~')


def chrf_words(text: str) -> list[str]:
    """Whitespace words with one leading or one trailing punctuation mark split off (trailing wins).

    ``"(hi)"`` gives ``["(hi", ")"]``: only one side is split, as in the original chrF++ script.
    """
    out: list[str] = []
    for word in text.split():
        if len(word) > 1:
            if word[-1] in PUNCTUATION:
                out.append(word[:-1])
                out.append(word[-1])
                continue
            if word[0] in PUNCTUATION:
                out.append(word[0])
                out.append(word[1:])
                continue
        out.append(word)
    return out


def ngram_counters(text: str, char_order: int, word_order: int, whitespace: bool) -> list[Counter]:
    """One Counter per order: character n-grams 1..char_order, then word n-grams 1..word_order."""
    chars = text if whitespace else "".join(text.split())
    counters = [Counter([chars[i:i + n] for i in range(len(chars) - n + 1)]) for n in range(1, char_order + 1)]
    if word_order:
        words = chrf_words(text)
        for n in range(1, word_order + 1):
            # words never contain whitespace, so joining with " " keeps distinct n-grams distinct
            counters.append(Counter([" ".join(words[i:i + n]) for i in range(len(words) - n + 1)]))
    return counters


def match_row(hyp: list[Counter], ref: list[Counter]) -> list[int]:
    """[hyp_1, ref_1, match_1, hyp_2, ...] for one hypothesis against one reference."""
    row: list[int] = []
    for h, r in zip(hyp, ref):
        matches = 0
        for gram, count in h.items():
            other = r.get(gram)
            if other:
                matches += count if count < other else other
        row.append(h.total() if r else 0)
        row.append(r.total())
        row.append(matches)
    return row
