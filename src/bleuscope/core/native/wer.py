"""The edit rates' compiled aligner (``rust/python/src/wer.rs``): WER, CER, MER, WIL and WIP."""

from __future__ import annotations

import functools

from . import check_threads, core, core_threads


def edit_counts(references: list[str], hypotheses: list[str], units: str, *, threads: int | None = None):
    """Edit-rate statistics rows int64 ``[S, 6]`` (hits, substitutions, deletions, insertions, reference and
    hypothesis lengths) of every (reference, hypothesis) pair tokenized by ``units``, aligned as rapidfuzz
    (jiwer 4.0.0); None when the compiled core is not built or a string is not UTF-8."""
    check_threads(threads)
    if _edit_core() is None:
        return None
    return _edit_aligner(units, core_threads(threads)).counts(references, hypotheses)


def edit_distance_totals(references: list, hypotheses: list, units: str, *, threads: int | None = None):
    """The summed ``(edit distance, reference tokens, hypothesis tokens)`` of every (reference, hypothesis)
    pair tokenized by ``units``; None when the compiled core is not built, or unless both are lists of the
    same length of exact ``str`` that are valid UTF-8."""
    check_threads(threads)
    module = _edit_core()
    if module is None or not hasattr(module.EditAligner, "distance_totals"):
        return None
    return _edit_aligner(units, core_threads(threads)).distance_totals(references, hypotheses)


def edit_alignments(references: list[str], hypotheses: list[str], units: str, *, threads: int | None = None):
    """``(opcodes int64 [M, 5], opcodes per pair int64 [S], rows int64 [S, 6])`` of every pair (opcode kinds
    0 equal, 1 replace, 2 delete, 3 insert, then ``i1, i2, j1, j2``); None as :func:`edit_counts`."""
    check_threads(threads)
    if _edit_core() is None:
        return None
    return _edit_aligner(units, core_threads(threads)).alignments(references, hypotheses)


def edit_alignment_objects(references: list[str], hypotheses: list[str], units: str, chunk_type: type):
    """``(reference tokens, hypothesis tokens, alignment chunks, summed row)`` of every pair as Python objects:
    lists of str per pair, lists of ``chunk_type`` objects per pair (made by ``chunk_type.__new__``, then
    ``type``, ``ref_start_idx``, ``ref_end_idx``, ``hyp_start_idx``, ``hyp_end_idx`` set as attributes), int64 ``[6]``; one thread; None
    as :func:`edit_counts` (and when the module predates this call: the caller's Python path then builds
    the same objects)."""
    module = _edit_core()
    if module is None or not hasattr(module.EditAligner, "objects"):
        return None
    return _edit_aligner(units, 1).objects(references, hypotheses, chunk_type)


def edit_alignments_of_ids(ref_ids, ref_offsets, hyp_ids, hyp_offsets, alphabet: int, *, threads: int | None = None):
    """:func:`edit_alignments` of token ids (uint32 ids below ``alphabet``, int64 offsets of each pair's
    sequence); None when the compiled core is not built."""
    check_threads(threads)
    module = _edit_core()
    if module is None:
        return None
    return module.align_token_ids(ref_ids, ref_offsets, hyp_ids, hyp_offsets, alphabet, threads=core_threads(threads))


def _edit_core():
    """The compiled core when it has the edit-rate aligner (a module built before it was added has not:
    the plain-Python reference then gives the same numbers), else None."""
    module = core()
    return module if module is not None and hasattr(module, "EditAligner") else None


@functools.lru_cache(maxsize=32)
def _edit_aligner(units: str, threads: int):
    """The aligner of these units and threads, built once (it keeps no state between calls)."""
    return _edit_core().EditAligner(units, threads=threads)


__all__ = ["edit_alignment_objects", "edit_alignments", "edit_alignments_of_ids", "edit_counts", "edit_distance_totals"]
