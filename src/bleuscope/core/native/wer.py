"""The edit rates' compiled aligner (``rust/python/src/wer.rs``): WER, CER, MER, WIL and WIP, built once with
its settings and held by its user."""

from __future__ import annotations

import functools

from . import check_threads, core, core_threads


def edit_aligner(units: str, threads: int | None):
    """A compiled :class:`bleuscope._core.EditAligner` of ``units`` (``jiwer-words``, ``split-words``,
    ``jiwer-chars``, ``collapsed-chars``, ``raw-chars``), whose calls on (references, hypotheses) give, as
    rapidfuzz aligns (jiwer 4.0.0):

    * ``counts``: statistics rows int64 ``[S, 6]`` (hits, substitutions, deletions, insertions, reference
      and hypothesis lengths), None for a string that is not UTF-8;
    * ``distance_totals``: the summed ``(edit distance, reference tokens, hypothesis tokens)``, None unless
      both are lists of the same length of exact ``str`` that are UTF-8;
    * ``alignments``: ``(opcodes int64 [M, 5], opcodes per pair int64 [S], rows int64 [S, 6])`` (kinds 0
      equal, 1 replace, 2 delete, 3 insert, then ``i1, i2, j1, j2``), None as ``counts``;
    * ``objects(references, hypotheses, chunk_type)``: the reference and hypothesis tokens (lists of str),
      the chunks (``chunk_type`` objects made by its ``__new__`` with ``type``, ``ref_start_idx``,
      ``ref_end_idx``, ``hyp_start_idx``, ``hyp_end_idx`` set) of every pair and the summed row, on one
      thread; None as ``counts``.

    None when the compiled core is not built."""
    threads = check_threads(threads)
    module = core()
    return None if module is None else module.EditAligner(units, threads=core_threads(threads))


def token_id_aligner(threads: int | None):
    """The compiled alignment of token ids: a callable ``(ref_ids, ref_offsets, hyp_ids, hyp_offsets,
    alphabet)`` (uint32 ids below ``alphabet``, int64 offsets of each pair's sequence) giving what
    ``alignments`` of :func:`edit_aligner` gives; None when the compiled core is not built."""
    threads = check_threads(threads)
    module = core()
    return None if module is None else functools.partial(module.align_token_ids, threads=core_threads(threads))


__all__ = ["edit_aligner", "token_id_aligner"]
