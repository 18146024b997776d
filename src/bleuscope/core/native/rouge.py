"""ROUGE's compiled counter and Porter stemmer (``rust/python/src/rouge.rs``)."""

from __future__ import annotations

from . import core, core_threads


def rouge_counter(types: tuple[str, ...], *, stem: bool, pretokenized: bool, threads: int | None):
    """A compiled :class:`bleuscope._core.RougeCounter` of these settings, or None when the core is not
    built. ``rows(hyps, ref_streams)``: int64 ``[S, K, T, 3]`` (matches, hyp_count, ref_count per type);
    ``best(...)``: per segment and type the counts of the reference with the best F, their (P, R, F) and
    each segment's number of references. ``pretokenized``: tokens separated by spaces and sentences by
    newlines (already stemmed). ``threads`` as the thread policy says (None: the core picks a count for
    the input size)."""
    module = core()
    if module is None:
        return None
    return module.RougeCounter(list(types), stem=stem, pretokenized=pretokenized, threads=core_threads(threads))


def porter_stem(word: str) -> str | None:
    """The compiled Porter stemmer (NLTK's rules) of an ASCII lowercase word, or None when it is not built."""
    module = core()
    return None if module is None else module.porter_stem(word)


__all__ = ["porter_stem", "rouge_counter"]
