"""jiwer 4.0.0's ``process_words`` and ``process_characters`` with its dataclasses (``AlignmentChunk``,
``WordOutput``, ``CharacterOutput``), the very same counts, floats and alignment chunks: the words are
aligned as ``rapidfuzz.distance.Levenshtein.opcodes`` aligns them (bleuscope's compiled core, or its
plain-Python reference :mod:`bleuscope.metrics.wer.alignment`; neither jiwer nor rapidfuzz is imported).

With the default transforms (``wer_default``, ``cer_default``) the compiled core reads the strings and
tokenizes them itself; any other transform runs in Python, as in jiwer, and the core aligns its tokens.
"""

from __future__ import annotations

import functools
import gc
from dataclasses import dataclass

import numpy as np

from ...core import native
from ...core.native import wer as native_wer
from ...metrics.wer import alignment as reference_alignment
from .transformations import cer_default, wer_default

__all__ = [
    "AlignmentChunk",
    "WordOutput",
    "CharacterOutput",
    "process_words",
    "process_characters",
]

_TYPES = ("replace", "insert", "delete", "equal", "substitute")


@dataclass(slots=True)
class AlignmentChunk:
    """One run of the alignment: ``type`` (``equal``, ``substitute``, ``insert`` or ``delete``) over
    reference words ``ref_start_idx:ref_end_idx`` and hypothesis words ``hyp_start_idx:hyp_end_idx``.

    jiwer's dataclass with the same fields, equality and text form; its fields are slots (no per-object
    ``__dict__``): a corpus's alignment is hundreds of thousands of chunks, and slotted objects are made,
    garbage-collected and freed about three times faster."""

    type: str
    ref_start_idx: int
    ref_end_idx: int
    hyp_start_idx: int
    hyp_end_idx: int

    def __post_init__(self):
        if self.type not in _TYPES:
            raise ValueError("")
        if self.type == "replace":  # rapidfuzz's name
            self.type = "substitute"
        if self.ref_start_idx > self.ref_end_idx:
            raise ValueError(f"ref_start_idx={self.ref_start_idx} is larger than ref_end_idx={self.ref_end_idx}")
        if self.hyp_start_idx > self.hyp_end_idx:
            raise ValueError(f"hyp_start_idx={self.hyp_start_idx} is larger than hyp_end_idx={self.hyp_end_idx}")


@dataclass
class WordOutput:
    """``process_words``' result: the transformed sentences, the alignment chunks of each pair, the
    measures of the whole input and its summed counts."""

    references: list
    hypotheses: list
    alignments: list
    wer: float
    mer: float
    wil: float
    wip: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


@dataclass
class CharacterOutput:
    """``process_characters``' result: as :class:`WordOutput` over characters, with ``cer``."""

    references: list
    hypotheses: list
    alignments: list
    cer: float
    hits: int
    substitutions: int
    insertions: int
    deletions: int


_CHUNK_TYPES = ("equal", "substitute", "delete", "insert")
_new = object.__new__


def _chunks(ops: list, per_pair: list) -> list:
    """Lists of :class:`AlignmentChunk` from opcode rows ``(kind, i1, i2, j1, j2)``, ``per_pair[i]`` for
    pair ``i`` (already valid: built without ``__post_init__``)."""
    out, k = [], 0
    for n in per_pair:
        sentence = []
        for kind, i1, i2, j1, j2 in ops[k : k + n]:
            chunk = _new(AlignmentChunk)
            chunk.type = _CHUNK_TYPES[kind]
            chunk.ref_start_idx = i1
            chunk.ref_end_idx = i2
            chunk.hyp_start_idx = j1
            chunk.hyp_end_idx = j2
            sentence.append(chunk)
        out.append(sentence)
        k += n
    return out


def _without_gc(build, *args):
    """``build(*args)`` with the cyclic garbage collector paused: the objects it makes (lists of words and
    chunks) hold no cycles, and collections triggered while hundreds of thousands of them are made cost more
    than making them (the collector is restarted if it was running)."""
    running = gc.isenabled()
    gc.disable()
    try:
        return build(*args)
    finally:
        if running:
            gc.enable()


def _measures(h: int, s: int, d: int, i: int, n_ref: int, n_hyp: int):
    """jiwer 4.0.0's (wer, mer, wil, wip) of summed counts, its special values for empty references."""
    wer: float
    mer: float
    wip: float
    if n_ref == 0:
        wer = i
        mer, wip = (0, 1) if n_hyp == 0 else (1, 0)
    else:
        wer = float(s + d + i) / float(h + s + d)
        mer = float(s + d + i) / float(h + s + d + i)
        wip = (float(h) / n_ref) * (float(h) / n_hyp) if n_hyp >= 1 else 0
    return wer, mer, 1 - wip, wip


def _is_list_of_list_of_strings(x) -> bool:
    return isinstance(x, list) and all(isinstance(e, list) and all(isinstance(s, str) for s in e) for e in x)


def _apply_transform(sentences, transform, is_reference: bool):
    out = transform(sentences)
    if not _is_list_of_list_of_strings(out):
        raise ValueError(
            "After applying the transformation, each "
            f"{'reference' if is_reference else 'hypothesis'} should be a "
            "list of strings, with each string being a single word or character."
            "Please ensure the given transformation reduces the input "
            "to a list of list strings."
        )
    return out


def _check_lengths(n_ref: int, n_hyp: int) -> None:
    if n_ref != n_hyp:
        raise ValueError(
            "After applying the transforms on the reference and hypothesis sentences, "
            f"their lengths must match. "
            f"Instead got {n_ref} reference and "
            f"{n_hyp} hypothesis sentences."
        )


def _default_units(reference_transform, hypothesis_transform) -> str | None:
    """The compiled core's units when both transforms are jiwer's defaults (it tokenizes then)."""
    if reference_transform is wer_default and hypothesis_transform is wer_default:
        return "jiwer-words"
    if reference_transform is cer_default and hypothesis_transform is cer_default:
        return "jiwer-chars"
    return None


def _as_list(x):
    return [x] if isinstance(x, str) else x


def _plain_strings(reference, hypothesis):
    """``(references, hypotheses)`` as lists when both are str or lists of str ([""] for an empty list, as
    the default transforms make [[]] of it), else None."""
    reference, hypothesis = _as_list(reference), _as_list(hypothesis)
    if type(reference) is not list or type(hypothesis) is not list:
        return None
    if not all(type(s) is str for s in reference) or not all(type(s) is str for s in hypothesis):
        return None
    return reference or [""], hypothesis or [""]


def _aligner(units: str):
    """The compiled aligner of ``units`` at the process's thread policy (None: no compiled core)."""
    return _aligner_for(units, native.core_threads(None))


@functools.lru_cache(maxsize=16)
def _aligner_for(units: str, threads: int):
    # built once per units and thread count (0: the core picks one for the input size)
    return native_wer.edit_aligner(units, threads or None)


def summed_counts(reference, hypothesis, reference_transform, hypothesis_transform) -> tuple[int, ...] | None:
    """The summed ``(H, S, D, I, reference tokens, hypothesis tokens)`` from the compiled core when both
    transforms are the defaults and the input is plain strings, else None (the caller runs
    :func:`process_words`)."""
    units = _default_units(reference_transform, hypothesis_transform)
    if units is None:
        return None
    plain = _plain_strings(reference, hypothesis)
    if plain is None:
        return None
    refs, hyps = plain
    _check_lengths(len(refs), len(hyps))
    aligner = _aligner(units)
    rows = None if aligner is None else aligner.counts(refs, hyps)
    return None if rows is None else tuple(int(x) for x in rows.sum(axis=0))


def error_rate(reference, hypothesis, reference_transform, hypothesis_transform):
    """jiwer's WER (CER with the character transforms) from the summed edit distances alone, when both
    transforms are the defaults, the input is plain strings and the compiled core is built; else None (the
    caller runs :func:`process_words`). S + D + I is the edit distance whichever optimal alignment is taken,
    and H + S + D the reference length, so no alignment is traced."""
    units = _default_units(reference_transform, hypothesis_transform)
    if units is None:
        return None
    reference, hypothesis = _as_list(reference), _as_list(hypothesis)
    if type(reference) is not list or type(hypothesis) is not list:
        return None
    aligner = _aligner(units)
    totals = None if aligner is None else aligner.distance_totals(reference or [""], hypothesis or [""])
    if totals is None:
        return None
    distance, n_ref, n_hyp = totals
    # all-empty references: jiwer 4 gives the number of insertions, every hypothesis token
    return n_hyp if n_ref == 0 else float(distance) / float(n_ref)


def _align(reference, hypothesis, reference_transform, hypothesis_transform):
    """(transformed references, hypotheses, chunk lists, summed counts)."""
    units = _default_units(reference_transform, hypothesis_transform)
    plain = None if units is None else _plain_strings(reference, hypothesis)
    if units is not None and plain is not None:
        refs, hyps = plain
        _check_lengths(len(refs), len(hyps))
        aligner = _aligner(units)
        result = None if aligner is None else _without_gc(aligner.objects, refs, hyps, AlignmentChunk)
        if result is not None:
            return result
    ref_t = _apply_transform(_as_list(reference), reference_transform, is_reference=True)
    hyp_t = _apply_transform(_as_list(hypothesis), hypothesis_transform, is_reference=False)
    _check_lengths(len(ref_t), len(hyp_t))
    ids: dict = {}
    ref_ids = [[ids.setdefault(w, len(ids)) for w in s] for s in ref_t]
    hyp_ids = [[ids.setdefault(w, len(ids)) for w in s] for s in hyp_t]
    align_ids = native_wer.token_id_aligner(None)
    result = None if align_ids is None else align_ids(*_flat(ref_ids), *_flat(hyp_ids), max(len(ids), 1))
    if result is not None:
        ops, per_pair, rows = result
        return ref_t, hyp_t, _without_gc(_chunks, ops.tolist(), per_pair.tolist()), rows.sum(axis=0)
    ops, per_pair, total = [], [], [0] * 6
    for r, h in zip(ref_ids, hyp_ids):
        codes = reference_alignment.opcodes(r, h)
        ops.extend((reference_alignment.KINDS.index(c[0]), *c[1:]) for c in codes)
        per_pair.append(len(codes))
        total = [a + b for a, b in zip(total, reference_alignment.counts(r, h))]
    return ref_t, hyp_t, _chunks(ops, per_pair), total


def _flat(seqs: list) -> tuple[np.ndarray, np.ndarray]:
    offsets = np.zeros(len(seqs) + 1, dtype=np.int64)
    np.cumsum([len(s) for s in seqs], out=offsets[1:])
    ids = np.fromiter((i for s in seqs for i in s), dtype=np.uint32, count=int(offsets[-1]))
    return ids, offsets


def process_words(
    reference,
    hypothesis,
    reference_transform=wer_default,
    hypothesis_transform=wer_default,
) -> WordOutput:
    """jiwer's ``process_words``: the word-level alignment of each reference/hypothesis pair (strings or
    lists of strings, transformed by the transforms), the summed counts and the measures."""
    refs, hyps, chunks, total = _align(reference, hypothesis, reference_transform, hypothesis_transform)
    h, s, d, i, n_ref, n_hyp = (int(x) for x in total)
    wer, mer, wil, wip = _measures(h, s, d, i, n_ref, n_hyp)
    return WordOutput(references=refs, hypotheses=hyps, alignments=chunks, wer=wer, mer=mer, wil=wil, wip=wip,
                      hits=h, substitutions=s, insertions=i, deletions=d)


def process_characters(
    reference,
    hypothesis,
    reference_transform=cer_default,
    hypothesis_transform=cer_default,
) -> CharacterOutput:
    """jiwer's ``process_characters``: ``process_words`` over characters, with ``cer``."""
    refs, hyps, chunks, total = _align(reference, hypothesis, reference_transform, hypothesis_transform)
    h, s, d, i, n_ref, n_hyp = (int(x) for x in total)
    wer = _measures(h, s, d, i, n_ref, n_hyp)[0]
    return CharacterOutput(references=refs, hypotheses=hyps, alignments=chunks, cer=wer, hits=h,
                           substitutions=s, insertions=i, deletions=d)
