"""BLEU on integer token ids (training loops, RL rewards): no text, no tokenizer, the same numbers.

The ids are already the tokens, so the text pipeline's tokenization step is skipped: padding is stripped,
the ids go straight into :class:`~bleuscope.metrics.bleu.encoding.EncodedLines`, and the statistics and scores come from
the same counter (:class:`bleuscope.metrics.bleu.counting.IdCounter`) and scoring (:func:`bleuscope.metrics.bleu.scoring.compute_scores`) as text.
A batch scored here gives the same numbers as the text path on strings whose whitespace-separated tokens
are the ids (``BLEU(tokenize="none")``), with the same smoothing, order, weights and effective-order options.

Layouts (numpy arrays of any integer dtype, or Python lists):

* hypotheses: ``[B, L]`` array, or a list of B 1-D sequences (ragged lengths allowed);
* references **per segment** (like torchmetrics and TensorBLEU, unlike sacreBLEU's text streams):
  ``[B, R, L]`` array, ``[B, L]`` array (one reference each), or a list of B items, each a ``[R_i, L]``
  array or a list of 1-D sequences (R_i may differ between segments).

Padding: with ``pad_id``, a row's tokens end at its first ``pad_id`` (``padding_side="right"``) or start
after its last leading ``pad_id`` (``"left"``); a pad id *inside* the tokens is an error (pass lengths).
Explicit ``hyp_lengths`` ``[B]`` / ``ref_lengths`` ``[B, R]`` take precedence over ``pad_id`` and count the
tokens kept from the padding side's opposite edge. A reference row that is all padding, or has length
``-1`` in ``ref_lengths``, is *missing* (like sacreBLEU's ``None`` reference); an empty sequence or a length
of 0 is a real, empty reference. Every segment needs at least one reference.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence

import numpy as np

from ...core.chunks import CHUNK_SEGMENTS
from ...core.native import bleu as native_bleu
from ...core.signature import nrefs_field
from .counting import CHUNK_TOKENS, IdCounter
from .encoding import EncodedLines, expand_ranges
from .reference import common_id_dtype
from .scorer import BLEU, BLEUScore
from .scoring import compute_scores

_INT64_MAX = np.iinfo(np.int64).max


_INT64_MIN = np.iinfo(np.int64).min
_UINT64_MAX = np.iinfo(np.uint64).max


def _python_ints(x, path: tuple = ()):
    """(index path, value) of every Python int in nested lists/tuples (numpy turns ints beyond int64 into
    float64 or object arrays, which would hide where they are)."""
    if isinstance(x, (list, tuple)):
        for i, item in enumerate(x):
            yield from _python_ints(item, (*path, i))
    elif isinstance(x, numbers.Integral) and not isinstance(x, bool):
        yield path, int(x)


def _wide_ids(x, name: str) -> np.ndarray | None:
    """Python ints beyond int64: a uint64 array when they all fit one (0 .. 2**64-1), else a ValueError naming
    the first id that does not fit; None when every int fits int64 (the dtype problem is something else)."""
    ints = list(_python_ints(x))
    wide = [(path, v) for path, v in ints if not _INT64_MIN <= v <= _INT64_MAX]
    if not wide:
        return None
    def where(path: tuple) -> str:
        full = name + "".join(f"[{i}]" for i in path)
        # the row and column of the id in its batch: the indices in brackets, the last one the column
        indices = [int(i) for i in full[full.index("[") + 1 : -1].split("][")] if "[" in full else []
        if len(indices) == 2:
            return f"{full} (row {indices[0]}, column {indices[1]})"
        if len(indices) == 3:
            return f"{full} (segment {indices[0]}, reference {indices[1]}, column {indices[2]})"
        return full

    path, value = next(((p, v) for p, v in wide if not 0 <= v <= _UINT64_MAX), wide[0])
    if not 0 <= value <= _UINT64_MAX:
        raise ValueError(
            f"{where(path)} = {value}: the token id does not fit in 64 bits (ids must be in -2**63 .. 2**64-1)"
        )
    negative = next(((p, v) for p, v in ints if v < 0), None)
    if negative is not None:
        raise ValueError(
            f"{where(path)} = {value}: the token id does not fit in 64 bits together with the negative id "
            f"{where(negative[0])} = {negative[1]} (ids above 2**63-1 need unsigned 64-bit integers, which hold "
            "no negative ids)"
        )
    try:
        return np.asarray(x, dtype=np.uint64)
    except (TypeError, ValueError):
        return None  # ragged or mixed items: the message below says so


def _as_int_array(x, name: str) -> np.ndarray:
    try:
        arr = np.asarray(x)
    except ValueError:  # numpy >= 1.24 refuses nested sequences of different shapes
        arr = np.empty(0, dtype=object)
    if arr.dtype.kind in "fO" and not isinstance(x, np.ndarray):
        wide = _wide_ids(x, name)
        if wide is not None:
            arr = wide
    if arr.dtype == object:
        raise TypeError(f"{name} must be integer token ids; got ragged or mixed items (use a list of 1-D sequences)")
    if arr.size and (arr.dtype.kind not in "iu" or arr.dtype == np.bool_):
        raise TypeError(f"{name} must hold integer token ids, got dtype {arr.dtype}")
    if arr.dtype.kind == "u" and arr.dtype.itemsize == 8 and arr.size and int(arr.max()) > _INT64_MAX:
        return arr  # ids >= 2**63 stay unsigned; counting maps all ids to dense ones
    return arr.astype(np.int64, copy=False) if arr.size else arr.astype(np.int64).reshape(arr.shape)


def _check_lengths(lengths, shape: tuple, width: int, name: str, *, allow_missing: bool) -> np.ndarray:
    arr = np.asarray(lengths)
    if arr.dtype.kind not in "iu" or arr.dtype == np.bool_:
        raise TypeError(f"{name} must be integers, got dtype {arr.dtype}")
    if arr.shape != shape:
        raise ValueError(f"{name} must have shape {shape}, got {arr.shape}")
    arr = arr.astype(np.int64)
    low = -1 if allow_missing else 0
    bad = (arr < low) | (arr > width)
    if bad.any():
        idx = tuple(int(i) for i in np.argwhere(bad)[0])
        allowed = f"-1 (missing) .. {width}" if allow_missing else f"0 .. {width}"
        raise ValueError(f"{name}{list(idx)} = {int(arr[idx])} is outside {allowed} (the padded width)")
    return arr


def _rows(mat: np.ndarray, lengths: np.ndarray | None, pad_id, side: str, name: str):
    """Token ids of the rows of a 2-D array: (flat ids, lengths, all_padding mask)."""
    lengths, all_pad = _row_lengths(mat, lengths, pad_id, side, name)
    cols = np.arange(mat.shape[1], dtype=np.int64)[None, :]
    keep = cols < lengths[:, None] if side == "right" else cols >= (mat.shape[1] - lengths)[:, None]
    return mat[keep], lengths, all_pad


def _row_lengths(mat: np.ndarray, lengths: np.ndarray | None, pad_id, side: str, name: str):
    """Tokens per row of a 2-D array (from ``lengths`` or the padding) and the all-padding mask."""
    n_rows, width = mat.shape
    cols = np.arange(width, dtype=np.int64)[None, :]
    all_pad = np.zeros(n_rows, dtype=bool)
    if lengths is None:
        if pad_id is None or width == 0:
            lengths = np.full(n_rows, width, dtype=np.int64)
        else:
            is_pad = mat == pad_id
            all_pad = is_pad.all(axis=1)
            if side == "right":
                lengths = np.where(is_pad.any(axis=1), is_pad.argmax(axis=1), width).astype(np.int64)
                stray = ~is_pad & (cols >= lengths[:, None])
            else:
                starts = np.where(all_pad, width, (~is_pad).argmax(axis=1)).astype(np.int64)
                lengths = width - starts
                stray = is_pad & (cols >= starts[:, None])
            if stray.any():
                r, c = (int(v) for v in np.argwhere(stray)[0])
                raise ValueError(
                    f"{name}: row {r} has {'a token after' if side == 'right' else 'padding inside'} its padding "
                    f"(pad_id={pad_id} at column {c if side == 'left' else int(lengths[r])}, padding_side={side!r}); "
                    "pass explicit lengths if pad_id also occurs as a real token"
                )
    return np.maximum(lengths, 0), all_pad


def _ragged(seqs, name: str, labels: Sequence[str] | None = None) -> tuple[np.ndarray, np.ndarray]:
    """A list of 1-D integer sequences as a right-padded matrix (fill 0) and their lengths; ``labels`` name
    the sequences in messages (default ``name[i]``)."""
    rows = []
    for i, s in enumerate(seqs):
        label = f"{name}[{i}]" if labels is None else labels[i]
        if isinstance(s, (str, bytes)) or isinstance(s, numbers.Number):
            raise TypeError(f"{label} must be a 1-D sequence of token ids, got {type(s).__name__}")
        a = _as_int_array(s, label)
        if a.ndim != 1:
            raise ValueError(f"{label} must be 1-D token ids, got shape {a.shape}")
        rows.append(a)
    width = max((len(r) for r in rows), default=0)
    mat = np.zeros((len(rows), width), dtype=common_id_dtype(rows, name))
    lengths = np.fromiter(map(len, rows), dtype=np.int64, count=len(rows))
    if rows:
        mat[np.arange(width)[None, :] < lengths[:, None]] = np.concatenate(rows) if width else []
    return mat, lengths


def _strip_ragged(mat, lengths, pad_id, side, name):
    """Ragged rows (given as a right-filled matrix + lengths) with pad stripping applied to each row."""
    if pad_id is None:
        return _rows(mat, lengths, None, "right", name)
    n_rows, width = mat.shape
    cols = np.arange(width)[None, :]
    # re-pad with the pad id so the padded-matrix rules apply, aligned on the padding side
    padded = np.full_like(mat, pad_id)
    inside = cols < lengths[:, None]
    if side == "right":
        padded[inside] = mat[inside]
    else:
        padded[cols >= (width - lengths)[:, None]] = mat[inside]
    flat, lens, all_pad = _rows(padded, None, pad_id, side, name)
    return flat, lens, all_pad & (lengths > 0)


def _check_every_segment_has_a_reference(present: np.ndarray, n_seg: int) -> None:
    empty = np.flatnonzero(~present.any(axis=1)) if present.size else np.arange(n_seg)
    if len(empty):
        raise ValueError(
            f"references: segment {int(empty[0])} has no reference (all missing or padding); "
            f"{len(empty)} segment(s) affected"
        )


def _is_sequence(x) -> bool:
    return isinstance(x, (Sequence, np.ndarray)) and not isinstance(x, (str, bytes))


class TokenBLEU:
    """BLEU over integer token ids; options as in :class:`bleuscope.BLEU` (minus tokenization/case).

    ``pad_id`` / ``padding_side`` say how padded rows end; see the module documentation for the layouts.
    ``threads``: threads of the compiled counter (None: it decides), as for every metric.
    """

    def __init__(
        self,
        *,
        pad_id: int | None = None,
        padding_side: str = "right",
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int | None = None,
        effective_order: bool = False,
        weights: Sequence[float] | None = None,
        threads: int | None = None,
    ) -> None:
        if pad_id is not None and (isinstance(pad_id, bool) or not isinstance(pad_id, numbers.Integral)):
            raise TypeError(f"pad_id must be an integer or None, got {pad_id!r}")
        if padding_side not in ("right", "left"):
            raise ValueError(f"padding_side must be 'right' or 'left', got {padding_side!r}")
        self.pad_id = None if pad_id is None else int(pad_id)
        self.padding_side = padding_side
        # the text scorer validates the options and owns the scoring configuration and the signature
        self.bleu = BLEU(
            tokenize="none",
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=max_ngram_order,
            effective_order=effective_order,
            weights=weights,
            threads=threads,
        )
        self.config = self.bleu.config
        self.max_ngram_order = self.bleu.max_ngram_order
        #: n-gram orders counted into the statistics (max_ngram_order, + 1 for chen-cherry-5/7)
        self.stats_order = self.bleu.stats_order
        self._ids = IdCounter(self.stats_order, engine=self.bleu.engine, threads=threads)

    @property
    def threads(self) -> int | None:
        """Threads of the compiled counter (None: it decides); settable, as on every metric."""
        return self.bleu.threads

    @threads.setter
    def threads(self, value) -> None:
        self.bleu.threads = value
        if self.bleu.threads != self._ids.threads:
            self._ids = IdCounter(self.stats_order, engine=self.bleu.engine, threads=self.bleu.threads)

    # -- input -----------------------------------------------------------------------------------------
    def _hypotheses(self, hypotheses, hyp_lengths):
        if isinstance(hypotheses, np.ndarray) or _uniform(hypotheses, depth=1):
            mat = _as_int_array(hypotheses, "hypotheses")
            if mat.ndim != 2:
                raise ValueError(f"hypotheses must be a [batch, length] array, got shape {mat.shape}")
            lengths = None
            if hyp_lengths is not None:
                lengths = _check_lengths(hyp_lengths, (mat.shape[0],), mat.shape[1], "hyp_lengths", allow_missing=False)
            flat, lens, _ = _rows(mat, lengths, self.pad_id, self.padding_side, "hypotheses")
            return flat, lens
        if not _is_sequence(hypotheses):
            raise TypeError(
                f"hypotheses must be a [batch, length] integer array or a list of sequences, "
                f"got {type(hypotheses).__name__}"
            )
        if hyp_lengths is not None:
            raise ValueError("hyp_lengths needs hypotheses as one padded [batch, length] array")
        mat, lengths = _ragged(hypotheses, "hypotheses")
        flat, lens, _ = _strip_ragged(mat, lengths, self.pad_id, self.padding_side, "hypotheses")
        return flat, lens

    def _references(self, references, n_seg: int, ref_lengths):
        """Reference streams as EncodedLines (length 0 where missing) and the presence mask [B, K]."""
        if isinstance(references, np.ndarray) or _uniform(references, depth=2):
            arr = _as_int_array(references, "references")
            if arr.ndim == 2:
                arr = arr[:, None, :]
                if ref_lengths is not None:
                    ref_lengths = np.asarray(ref_lengths)
                    ref_lengths = ref_lengths[:, None] if ref_lengths.ndim == 1 else ref_lengths
            if arr.ndim != 3:
                raise ValueError(
                    f"references must be a [batch, refs, length] or [batch, length] array, got shape {arr.shape}"
                )
            if arr.shape[0] != n_seg:
                raise ValueError(f"references has {arr.shape[0]} segments but hypotheses has {n_seg}")
            n_ref, width = arr.shape[1], arr.shape[2]
            if n_ref == 0:
                raise ValueError("references has no reference per segment (shape [B, 0, L])")
            lengths = None
            missing = np.zeros((n_seg, n_ref), dtype=bool)
            if ref_lengths is not None:
                lengths = _check_lengths(ref_lengths, (n_seg, n_ref), width, "ref_lengths", allow_missing=True)
                missing = lengths < 0
                lengths = lengths.reshape(-1)
            flat, lens, all_pad = _rows(
                arr.reshape(n_seg * n_ref, width), lengths, self.pad_id, self.padding_side, "references"
            )
            if ref_lengths is None:
                missing = all_pad.reshape(n_seg, n_ref)
            lens = lens.reshape(n_seg, n_ref)
        else:
            if not _is_sequence(references):
                raise TypeError(
                    f"references must be an integer array or a list (one item per segment), "
                    f"got {type(references).__name__}"
                )
            if ref_lengths is not None:
                raise ValueError("ref_lengths needs references as one padded [batch, refs, length] array")
            if len(references) != n_seg:
                raise ValueError(f"references has {len(references)} segments but hypotheses has {n_seg}")
            per_seg = []
            for i, item in enumerate(references):
                if isinstance(item, np.ndarray):
                    if item.ndim != 2:
                        raise ValueError(f"references[{i}] must be a [refs, length] array, got shape {item.shape}")
                    item = list(item)
                elif not _is_sequence(item) or (len(item) and not _is_sequence(item[0])):
                    raise TypeError(
                        f"references[{i}] must be a list of token-id sequences (the references of segment {i})"
                    )
                per_seg.append(item)
            n_ref = max((len(x) for x in per_seg), default=0)
            counts = np.fromiter(map(len, per_seg), dtype=np.int64, count=n_seg)
            labels = [f"references[{i}][{k}]" for i, x in enumerate(per_seg) for k in range(len(x))]
            mat, lengths = _ragged([r for x in per_seg for r in x], "references", labels)
            flat, lens_f, all_pad = _strip_ragged(mat, lengths, self.pad_id, self.padding_side, "references")
            # scatter the segment-major references into [B, K] slots
            slot = np.arange(len(lengths)) - np.repeat(np.cumsum(counts) - counts, counts)
            seg = np.repeat(np.arange(n_seg), counts)
            lens = np.zeros((n_seg, n_ref), dtype=np.int64)
            lens[seg, slot] = lens_f
            missing = np.ones((n_seg, n_ref), dtype=bool)
            missing[seg, slot] = all_pad
        present = ~missing
        lens = np.where(present, lens, 0)
        _check_every_segment_has_a_reference(present, n_seg)
        # flat is segment-major; the engine wants one EncodedLines per reference slot (stream)
        seg_major = lens.reshape(-1)
        starts = np.zeros(len(seg_major), dtype=np.int64)
        np.cumsum(seg_major[:-1], out=starts[1:])
        streams = []
        for k in range(lens.shape[1]):
            s_k = starts.reshape(lens.shape)[:, k]
            streams.append((flat[expand_ranges(s_k, lens[:, k])], lens[:, k].copy()))
        return streams, present

    # -- statistics and scores -------------------------------------------------------------------------
    def statistics(self, hypotheses, references, *, hyp_lengths=None, ref_lengths=None) -> np.ndarray:
        """Per-segment statistics, int64 [B, 2 + 2N] (``[hyp_len, ref_len, correct_1..N, total_1..N]``)."""
        return self._statistics_and_nrefs(hypotheses, references, hyp_lengths, ref_lengths)[0]

    def _statistics_and_nrefs(self, hypotheses, references, hyp_lengths, ref_lengths):
        padded = self._padded_statistics(hypotheses, references, hyp_lengths, ref_lengths)
        if padded is not None:
            return padded
        hyp_ids, hyp_lens = self._hypotheses(hypotheses, hyp_lengths)
        n_seg = len(hyp_lens)
        if n_seg == 0:
            raise ValueError("hypotheses is empty: give at least one segment")
        streams, present = self._references(references, n_seg, ref_lengths)
        return self._statistics(hyp_ids, hyp_lens, streams, present), nrefs_field(present.sum(axis=1))

    def _padded_statistics(self, hypotheses, references, hyp_lengths, ref_lengths):
        """(statistics, nrefs) of int64 padded matrices counted in place by the compiled core (no copy of
        the ids, threads over large batches), or None for any other input (the general path below, which
        also produces the errors)."""
        if not (isinstance(hypotheses, np.ndarray) and isinstance(references, np.ndarray)):
            return None
        if (
            self._ids.compiled is None
            or hypotheses.dtype != np.int64
            or references.dtype != np.int64
            or hypotheses.ndim != 2
            or references.ndim not in (2, 3)
            or len(hypotheses) == 0
            or references.shape[0] != len(hypotheses)
            or (references.ndim == 3 and references.shape[1] == 0)
        ):
            return None
        n_seg = len(hypotheses)
        refs = references if references.ndim == 3 else references[:, None, :]
        n_ref, width = refs.shape[1], refs.shape[2]
        if hyp_lengths is not None:
            hyp_lens = _check_lengths(hyp_lengths, (n_seg,), hypotheses.shape[1], "hyp_lengths", allow_missing=False)
        else:
            hyp_lens, _ = _row_lengths(hypotheses, None, self.pad_id, self.padding_side, "hypotheses")
        if ref_lengths is not None:
            ref_lengths = np.asarray(ref_lengths)
            if references.ndim == 2 and ref_lengths.ndim == 1:
                ref_lengths = ref_lengths[:, None]
            lens = _check_lengths(ref_lengths, (n_seg, n_ref), width, "ref_lengths", allow_missing=True)
            missing = lens < 0
        else:
            flat_lens, all_pad = _row_lengths(
                refs.reshape(n_seg * n_ref, width), None, self.pad_id, self.padding_side, "references"
            )
            lens, missing = flat_lens.reshape(n_seg, n_ref), all_pad.reshape(n_seg, n_ref)
        present = ~missing
        _check_every_segment_has_a_reference(present, n_seg)
        stats = native_bleu.padded_rows(
            self._ids.compiled, hypotheses, hyp_lens, refs, np.where(present, lens, -1), left=self.padding_side == "left"
        )
        return stats, nrefs_field(present.sum(axis=1))

    def _statistics(self, hyp_ids, hyp_lens, streams, present) -> np.ndarray:
        hyp = EncodedLines(ids=hyp_ids, lengths=hyp_lens)
        refs = [EncodedLines(ids=ids, lengths=lens) for ids, lens in streams]
        return self._ids.chunked_rows(hyp, refs, present, chunk_tokens=CHUNK_TOKENS, chunk_segments=CHUNK_SEGMENTS)

    def sentence_scores(self, hypotheses, references, *, hyp_lengths=None, ref_lengths=None) -> np.ndarray:
        """Sentence BLEU (0-100) per segment, float64 [B]."""
        stats = self.statistics(hypotheses, references, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths)
        return compute_scores(stats, self.config, engine=self.bleu.engine).score

    def corpus_score(self, hypotheses, references, *, hyp_lengths=None, ref_lengths=None) -> BLEUScore:
        """Corpus BLEU of the batch, as a :class:`~bleuscope.BLEUScore` (counts, totals, BP, signature)."""
        stats, nrefs = self._statistics_and_nrefs(hypotheses, references, hyp_lengths, ref_lengths)
        return self.score_from_statistics(stats, nrefs)

    def score_from_statistics(self, stats, nrefs: str | int = "?") -> BLEUScore:
        """Corpus BLEU from per-segment statistics rows (summed) or one summed row."""
        return self.bleu.score_from_statistics(stats, nrefs)

    def __repr__(self) -> str:
        return (
            f"TokenBLEU(pad_id={self.pad_id!r}, padding_side={self.padding_side!r}, "
            f"{self.bleu.signature_fields('?')!r})"
        )


def _uniform(items, depth: int = 1) -> bool:
    """Whether a nested list is rectangular (so it can be read as one array) at the given depth."""
    if not _is_sequence(items):
        return False
    try:
        arr = np.asarray(items)
    except ValueError:
        return False
    return arr.dtype != object and arr.ndim == depth + 1


def token_sentence_bleu(hypotheses, references, *, hyp_lengths=None, ref_lengths=None, **options) -> np.ndarray:
    """Functional shortcut: ``TokenBLEU(**options).sentence_scores(...)`` (float64 [B], 0-100)."""
    return TokenBLEU(**options).sentence_scores(
        hypotheses, references, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths
    )


def token_corpus_bleu(hypotheses, references, *, hyp_lengths=None, ref_lengths=None, **options) -> BLEUScore:
    """Functional shortcut: ``TokenBLEU(**options).corpus_score(...)``."""
    return TokenBLEU(**options).corpus_score(hypotheses, references, hyp_lengths=hyp_lengths, ref_lengths=ref_lengths)


__all__ = ["TokenBLEU", "token_corpus_bleu", "token_sentence_bleu"]
