"""BLEU's counting: text or token ids -> statistics rows, chunk by chunk, in the compiled core or the
numpy reference engine (:mod:`.reference`).

* :class:`BLEUCounter` is what a :class:`~bleuscope.metrics.bleu.scorer.BLEU` holds (its
  :class:`~bleuscope.metrics.base.Counter`): built once with the tokenizer, case, counted order, engine
  and threads, it builds the compiled text counter once (when the engine and tokenizer allow), else counts
  with the encoder and the reference engine (or the compiled id counter, for a tokenizer that stays in
  Python). It offers ``rows``, ``total``, ``systems`` and ``files`` (plain UTF-8 files read by the core)
  and pickles as a small spec that a worker process turns back into a counter of its own.
* :class:`IdCounter` does the same for token ids (:mod:`.token_ids`, :mod:`bleuscope.integrations.nltk`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from ...core import native
from ...core.chunks import CHUNK_SEGMENTS, FileCounts
from ...core.native import bleu as native_bleu
from ...core.validation import reference_presence
from ...tokenizers.base import BaseTokenizer
from ...tokenizers.language import CJK_SAMPLE_CHARS
from ..base import Counter
from .encoding import CorpusEncoder, EncodedLines, slice_lines
from .reference import common_id_dtype, segment_statistics

#: tokens (hypothesis + references) per counting call for token-id input: the engine's sorts and gathers
#: run several times faster when one call's arrays stay in the CPU cache
CHUNK_TOKENS = 1 << 15

#: the encoder cache (distinct words -> token ids) is dropped and rebuilt when its vocabulary grows past
#: this many tokens; it keeps the memory of an endless stream bounded, results do not depend on it
MAX_CACHED_VOCABULARY = 1_000_000

_INT64_MAX = (1 << 63) - 1


class EncoderCache:
    """One :class:`CorpusEncoder` reused across chunks, renewed when its vocabulary passes
    ``MAX_CACHED_VOCABULARY`` so that memory stays bounded."""

    def __init__(self, tokenizer, lowercase: bool) -> None:
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.encoder = CorpusEncoder(tokenizer, lowercase)

    def get(self) -> CorpusEncoder:
        if self.encoder.vocab_size > MAX_CACHED_VOCABULARY:
            self.encoder = CorpusEncoder(self.tokenizer, self.lowercase)
        return self.encoder


class IdCounter:
    """Token ids -> statistics rows for one counted order and engine: the compiled id counter, built once,
    or the numpy reference engine."""

    def __init__(self, order: int, *, engine: str = "auto", threads: int | None = None) -> None:
        self.order = order
        self.engine = native.check_engine(engine)
        self.threads = native.check_threads(threads)
        self.compiled = native_bleu.id_counter(order, threads) if native.resolve_engine(engine) == "native" else None

    def __reduce__(self):  # the compiled counter is built again where it is unpickled
        return IdCounter, (self.order,), {"engine": self.engine, "threads": self.threads}

    def __setstate__(self, state: dict) -> None:
        IdCounter.__init__(self, self.order, **state)

    def rows(self, hyp_ids: EncodedLines, ref_ids: Sequence[EncodedLines], present: np.ndarray | None = None) -> np.ndarray:
        """Statistics rows from token ids: flat ids + lengths per stream (:class:`EncodedLines`).

        ``hyp_ids.ids`` holds the hypotheses' ids back to back, ``hyp_ids.lengths[i]`` of them belong to
        segment i; ``ref_ids[k]`` is reference stream k in the same form. ``present`` (bool ``[S, K]``,
        default all True) marks missing references, whose length must be 0. Ids may be any integers of one
        numpy integer dtype (int64, or uint64 up to 2**64 - 1); equal ids are equal tokens.
        """
        if self.compiled is not None:
            dtype = common_id_dtype([hyp_ids.ids] + [r.ids for r in ref_ids])
            return native_bleu.id_rows(self.compiled, hyp_ids, ref_ids, present, dtype)
        return reference_id_rows(hyp_ids, ref_ids, present, self.order)

    def chunked_rows(
        self,
        hyp: EncodedLines,
        refs: Sequence[EncodedLines],
        present: np.ndarray,
        *,
        chunk_tokens: int = CHUNK_TOKENS,
        chunk_segments: int = CHUNK_SEGMENTS,
    ) -> np.ndarray:
        """:meth:`rows` counted in chunks of about ``chunk_tokens`` tokens (and at most ``chunk_segments``
        segments)."""
        bounds = chunk_bounds(hyp.lengths + sum(r.lengths for r in refs), chunk_tokens, chunk_segments)
        out = []
        for a, b in zip(bounds[:-1], bounds[1:]):
            whole = a == 0 and b == len(hyp.lengths)
            h, rs = (hyp, refs) if whole else (slice_lines(hyp, a, b), [slice_lines(r, a, b) for r in refs])
            out.append(self.rows(h, rs, present[a:b]))
        return np.concatenate(out) if len(out) > 1 else out[0]


def reference_id_rows(hyp_ids: EncodedLines, ref_ids: Sequence[EncodedLines], present, order: int) -> np.ndarray:
    """:meth:`IdCounter.rows` by the numpy reference engine."""
    n_seg = len(hyp_ids.lengths)
    if present is None:
        present = np.ones((n_seg, len(ref_ids)), dtype=bool)
    parts = [hyp_ids.ids] + [r.ids for r in ref_ids]
    dtype = common_id_dtype(parts)
    parts = [p.astype(dtype, copy=False) for p in parts]
    sizes = [len(p) for p in parts]
    n_tok = sum(sizes)
    if n_tok:
        low = min(int(p.min()) for p in parts if len(p))
        high = max(int(p.max()) for p in parts if len(p))
    else:
        low = high = 0
    if low < 0 or (high + 1) >= _INT64_MAX // (4 * (n_tok + n_seg + 1)):
        # the numpy engine packs (rank, token) pairs into int64: give it dense ids instead
        _, inverse = np.unique(np.concatenate(parts), return_inverse=True)
        dense = inverse.reshape(-1).astype(np.int64)
        parts = np.split(dense, np.cumsum(sizes)[:-1])
        high = int(dense.max(initial=-1))
    else:
        parts = [p.astype(np.int64, copy=False) for p in parts]
    hyp = EncodedLines(ids=parts[0], lengths=hyp_ids.lengths)
    refs = [EncodedLines(ids=p, lengths=r.lengths) for p, r in zip(parts[1:], ref_ids)]
    return segment_statistics(hyp, refs, present, order, high + 1)


class BLEUCounter(Counter):
    """Text -> BLEU statistics rows for one tokenizer, case, counted order, engine and thread count.

    ``tokenize`` is the registry name of ``tokenizer`` and ``spm_model`` its SentencePiece model (if any):
    with them a worker process rebuilds the same counter (see :meth:`__reduce__`). The compiled objects
    are built here, once; ``compiled`` is the compiled text counter, or None when the text is tokenized in
    Python (then ``ids`` counts its token ids: the compiled id counter, or the reference engine).
    """

    def __init__(
        self,
        tokenize: str,
        tokenizer,
        *,
        lowercase: bool,
        order: int,
        engine: str = "auto",
        threads: int | None = None,
        spm_model: str | None = None,
    ) -> None:
        self.tokenize = tokenize
        self.tokenizer = tokenizer
        self.lowercase = lowercase
        self.order = order
        self.engine = engine
        self.threads = native.check_threads(threads)
        self.spm_model = spm_model
        self._local = threading.local()  # an encoder is not thread-safe: one cache per thread
        self.compiled = None
        if native.resolve_engine(engine) == "native":
            self.compiled = native_bleu.text_counter(tokenizer, lowercase=lowercase, order=order, threads=threads)
        self.ids = None if self.compiled is not None else IdCounter(order, engine=engine, threads=threads)

    @property
    def reads_files(self) -> bool:
        """The compiled core reads plain UTF-8 files itself (:meth:`files`)."""
        return self.compiled is not None

    @property
    def encoders(self) -> EncoderCache:
        """This thread's encoder cache (kept across calls, renewed when its vocabulary grows large)."""
        cache = getattr(self._local, "cache", None)
        if cache is None:
            cache = self._local.cache = EncoderCache(self.tokenizer, self.lowercase)
        return cache

    def new_encoder(self) -> CorpusEncoder:
        return CorpusEncoder(self.tokenizer, self.lowercase)

    def rows(
        self,
        hyps: list[str],
        streams: list[list[str | None]],
        present: np.ndarray | None = None,
        *,
        encoder: CorpusEncoder | None = None,
        chunk_segments: int | None = None,
    ) -> np.ndarray:
        """Statistics rows of validated input (``None`` references are missing), int64 [S, 2 + 2 * order],
        counted in chunks of ``chunk_segments`` (default :data:`~bleuscope.core.chunks.CHUNK_SEGMENTS`)."""
        if chunk_segments is None:
            chunk_segments = CHUNK_SEGMENTS
        n_seg = len(hyps)
        parts = []
        for a in range(0, max(n_seg, 1), chunk_segments):
            b = min(n_seg, a + chunk_segments)
            parts.append(self._chunk_rows(hyps[a:b], [s[a:b] for s in streams], encoder))
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    def _chunk_rows(self, hyps: list[str], streams: list[list[str | None]], encoder) -> np.ndarray:
        if self.compiled is not None:
            return self.compiled.rows(hyps, streams)
        if encoder is None:
            encoder = self.encoders.get()
        present = reference_presence(streams, len(hyps))
        hyp_enc = encoder.encode(hyps)
        ref_encs = [encoder.encode([x if x is not None else "" for x in s]) for s in streams]
        ids = self.ids
        assert ids is not None  # built when there is no compiled text counter
        if ids.compiled is not None:  # a tokenizer that stays in Python: its token ids counted natively
            return ids.rows(hyp_enc, ref_encs, present)
        return segment_statistics(hyp_enc, ref_encs, present, self.order, encoder.vocab_size)

    def total(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """The summed row of validated input; in the compiled core without per-segment rows."""
        if self.compiled is not None:
            return self.compiled.total(hyps, streams)[0]
        return self.rows(hyps, streams, present).sum(axis=0)

    def unchecked(self, hyps: list, streams: list, *, per_segment: bool = False):
        """One pass of the compiled text counter over unchecked lists: ``(total row, nref_counts,
        tokenized_periods)``, where ``nref_counts[k]`` is the number of segments with exactly k present
        references and ``tokenized_periods`` the number of hypotheses ending in ``" ."``; ``per_segment``:
        the rows in place of the total row. The core checks the items' types as it reads them (a TypeError
        names the first bad one). Only for a counter with ``compiled``."""
        compiled = self._compiled()
        if per_segment:
            return compiled.rows(hyps, streams, facts=True)
        return compiled.total(hyps, streams)

    def _compiled(self):
        """The compiled text counter, for the methods that only a compiled counter has."""
        if self.compiled is None:
            raise RuntimeError("this BLEU counter has no compiled text counter (engine='python', a tokenizer "
                               "that stays in Python, or the core is not built)")
        return self.compiled

    def systems(self, systems: list[list[str]], streams: list, present: np.ndarray) -> list[np.ndarray]:
        """Several systems' rows against the same references: in the compiled core the references are
        tokenized once for all systems (with threads); otherwise this thread's encoder, shared by the
        systems. One system is counted as :meth:`rows` counts it (the systems' path is slower for one)."""
        rows = None if len(systems) == 1 or self.compiled is None else self.compiled.systems(systems, streams)
        if rows is None:  # one system, no compiled counter, or a line only Python tokenizes: one by one
            return [self.rows(hyps, streams, present) for hyps in systems]
        n_seg = len(systems[0])
        return [rows[k * n_seg : (k + 1) * n_seg] for k in range(len(systems))]

    def files(
        self, hyp_paths: list[str], ref_paths: list[str], *, max_line_bytes: int, strip_line_ends: bool = False,
        sample_segments: int = 0,
    ) -> FileCounts | None:
        """The summed rows of K systems' plain UTF-8 files (one hypothesis file per system, then the
        reference streams, one segment a line) read and counted by the compiled core without Python
        strings, the reference files read once and their lines tokenized once for all systems
        (``strip_line_ends``: hypotheses ending in " ." after ``str.rstrip()``, as sacreBLEU's command
        reads them; ``samples``: of every chunk of ``sample_segments`` hypotheses, the first characters of
        its lines joined by "\\n", kept when one is U+1100 or above, what the CJK input check samples).
        None when the core stopped at something the Python reader reports (a file that cannot be read, a
        line that is not UTF-8, holds a NUL or is longer than ``max_line_bytes``, files of different
        lengths): the caller then reads the files, and its reader names the problem."""
        compiled = self._compiled()
        try:
            counted = compiled.total_files(
                list(hyp_paths),
                list(ref_paths),
                max_line_bytes=max_line_bytes,
                strip_line_ends=strip_line_ends,
                sample_segments=sample_segments,
                sample_chars=CJK_SAMPLE_CHARS,
            )
        except (TypeError, ValueError):
            return None  # the Python reader raises it, after what it raises first
        if counted is None:
            return None
        totals, segments, tokenized_periods, samples = counted
        return FileCounts(totals, segments, list(tokenized_periods), [list(s) for s in samples])

    # -- sending to worker processes --------------------------------------------------------------------
    def spec(self) -> tuple:
        """A small picklable description from which :func:`counter_from_spec` rebuilds this counter."""
        from ...tokenizers import registered_factory

        factory = registered_factory(self.tokenize)
        if factory is not None and not isinstance(factory, str):
            import pickle

            try:
                pickle.dumps(factory)
            except Exception:
                raise TypeError(
                    f"tokenizer {self.tokenize!r} was registered with a factory that cannot be sent to worker "
                    "processes; register it as a 'module:Class' string to use n_jobs > 1"
                ) from None
        return (self.tokenize, self.spm_model, factory, self.lowercase, self.order, self.engine, self.threads)

    def __reduce__(self):
        return counter_from_spec, (self.spec(),)


_COUNTERS: dict[tuple, BLEUCounter] = {}


def counter_from_spec(spec: tuple) -> BLEUCounter:
    """The counter described by ``spec`` (:meth:`BLEUCounter.spec`), one per process and spec, so that its
    tokenizer and encoder cache serve every chunk a worker receives."""
    counter = _COUNTERS.get(spec)
    if counter is None:
        from ...tokenizers import get_tokenizer, register_tokenizer, registered_factory

        tokenize, model, factory, lowercase, order, engine, threads = spec
        if factory is not None and registered_factory(tokenize) != factory:
            register_tokenizer(tokenize, factory)
        if model is not None:
            from ...tokenizers.spm import get_spm_tokenizer

            tokenizer: BaseTokenizer = get_spm_tokenizer(tokenize, model)
        else:
            tokenizer = get_tokenizer(tokenize)
        counter = BLEUCounter(
            tokenize, tokenizer, lowercase=lowercase, order=order, engine=engine, threads=threads, spm_model=model
        )
        _COUNTERS[spec] = counter
    return counter


def chunk_bounds(
    tokens_per_segment: np.ndarray, chunk_tokens: int = CHUNK_TOKENS, chunk_segments: int = CHUNK_SEGMENTS
) -> list[int]:
    """Segment boundaries of counting calls: about ``chunk_tokens`` tokens (at most ``chunk_segments``
    segments, at least one) each."""
    n_seg = len(tokens_per_segment)
    cum = np.cumsum(tokens_per_segment)
    bounds = [0]
    while bounds[-1] < n_seg:
        a = bounds[-1]
        base = cum[a - 1] if a else 0
        b = int(np.searchsorted(cum, base + chunk_tokens, side="right"))
        bounds.append(min(n_seg, max(b, a + 1), a + chunk_segments))
    if len(bounds) == 1:
        bounds.append(0)
    return bounds


def count_token_lists(
    hypotheses: Sequence[Sequence[str]],
    references: Sequence[Sequence[Sequence[str]]],
    *,
    order: int,
    engine: str = "auto",
    threads: int | None = None,
    chunk_segments: int = CHUNK_SEGMENTS,
) -> np.ndarray:
    """Statistics rows of already tokenized segments: ``hypotheses[i]`` a list of tokens and
    ``references[i]`` the list of token lists of segment i (any number per segment, at least one)."""
    from ...tokenizers import get_tokenizer

    counter = IdCounter(order, engine=engine, threads=threads)
    n_seg = len(hypotheses)
    nrefs = np.fromiter(map(len, references), dtype=np.int64, count=n_seg)
    encoder = CorpusEncoder(get_tokenizer("none"))
    parts = []
    for a in range(0, n_seg, chunk_segments):
        b = min(n_seg, a + chunk_segments)
        segs = references[a:b]
        hyp = encoder.encode_tokens(hypotheses[a:b])
        n_streams = int(nrefs[a:b].max())
        streams = [encoder.encode_tokens([refs[k] if len(refs) > k else () for refs in segs]) for k in range(n_streams)]
        present = np.arange(n_streams)[None, :] < nrefs[a:b, None]
        parts.append(counter.rows(hyp, streams, present))
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


def count_ids(hyp_ids, ref_ids, *, order: int, present=None, engine: str = "auto", threads=None) -> np.ndarray:
    """:meth:`IdCounter.rows` with a counter built for this one call."""
    return IdCounter(order, engine=engine, threads=threads).rows(hyp_ids, ref_ids, present)


def count_text(hyps, streams, *, tokenizer, lowercase: bool, order: int, engine: str = "auto", threads=None):
    """Statistics rows of validated text (``streams[k][i]``: reference k of segment i, None = missing) with
    a counter built for this one call (a metric holds its own :class:`BLEUCounter`)."""
    name = getattr(tokenizer, "name", "13a")
    counter = BLEUCounter(name, tokenizer, lowercase=lowercase, order=order, engine=engine, threads=threads)
    return counter.rows(hyps, streams, encoder=counter.new_encoder())


__all__ = [
    "CHUNK_TOKENS",
    "MAX_CACHED_VOCABULARY",
    "BLEUCounter",
    "EncoderCache",
    "IdCounter",
    "chunk_bounds",
    "count_ids",
    "count_text",
    "count_token_lists",
    "counter_from_spec",
    "reference_id_rows",
]
