"""chrF's and TER's compiled counters (``rust/python/src/chrf_ter.rs``), built once with their settings."""

from __future__ import annotations

from . import core, core_threads


def chrf_counter(char_order: int, word_order: int, whitespace: bool, threads: int | None):
    """A compiled :class:`bleuscope._core.ChrfCounter`, whose ``rows(hyps, ref_streams)`` gives the candidate
    rows int64 ``[S, K, 3 * (char_order + word_order)]`` of (lowercased if needed) text, or None for a
    string that is not valid UTF-8 (left to Python); None when the core is not built."""
    module = core()
    return None if module is None else module.ChrfCounter(char_order, word_order, whitespace, threads=core_threads(threads))


def ter_counter(threads: int | None):
    """A compiled :class:`bleuscope._core.TerCounter`, whose ``rows(hyps, ref_streams)`` gives TER's
    ``(edits, reference length)`` rows int64 ``[S, K, 2]`` of normalized text, or None for a string that is
    not valid UTF-8; None when the core is not built."""
    module = core()
    return None if module is None else module.TerCounter(threads=core_threads(threads))


__all__ = ["chrf_counter", "ter_counter"]
