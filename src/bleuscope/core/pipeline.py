"""The one chunk loop: inputs cut into chunks, each chunk counted by :mod:`bleuscope.core.backend`.

* :class:`TextCounter` turns text (hypotheses + reference streams) into statistics rows, chunk by chunk,
  with an encoder cache kept across chunks and calls (each distinct word is tokenized once). It is the
  counting side of a text metric: the scorer, significance, streaming and the process pool all count
  through it, and it pickles as a small spec (tokenizer name, model, case, order, engine) that a worker
  process turns back into a counter of its own.
* :func:`count_id_chunks` does the same for token ids (:mod:`bleuscope.metrics.bleu.token_ids`) and
  :func:`count_token_lists` for already tokenized segments (:mod:`bleuscope.integrations.nltk`).
"""

from __future__ import annotations

import threading
from collections.abc import Sequence

import numpy as np

from . import backend
from .encoding import CorpusEncoder, EncodedLines, slice_lines

#: segments read, counted or scored at a time, everywhere (streams, shards, metrics' counting passes, the
#: command line): bounds the memory of one pass
CHUNK_SEGMENTS = 50_000

#: tokens (hypothesis + references) per counting call for token-id input: the engine's sorts and gathers
#: run several times faster when one call's arrays stay in the CPU cache
CHUNK_TOKENS = 1 << 15

#: the encoder cache (distinct words -> token ids) is dropped and rebuilt when its vocabulary grows past
#: this many tokens; it keeps the memory of an endless stream bounded, results do not depend on it
MAX_CACHED_VOCABULARY = 1_000_000


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


class TextCounter:
    """Text -> statistics rows for one tokenizer, case, counted order and engine.

    ``tokenize`` is the registry name of ``tokenizer`` and ``spm_model`` its SentencePiece model (if any):
    with them a worker process rebuilds the same tokenizer (see :meth:`__reduce__`).
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
        self.threads = threads
        self.spm_model = spm_model
        self._local = threading.local()  # an encoder is not thread-safe: one cache per thread

    @property
    def encoders(self) -> EncoderCache:
        """This thread's encoder cache (kept across calls, renewed when its vocabulary grows large)."""
        cache = getattr(self._local, "cache", None)
        if cache is None:
            cache = self._local.cache = EncoderCache(self.tokenizer, self.lowercase)
        return cache

    def new_encoder(self) -> CorpusEncoder:
        return CorpusEncoder(self.tokenizer, self.lowercase)

    def count(
        self,
        hyps: list[str],
        ref_streams: list[list[str | None]],
        *,
        encoder: CorpusEncoder | None = None,
        chunk_segments: int = CHUNK_SEGMENTS,
    ) -> np.ndarray:
        """Statistics rows of validated input (``None`` references are missing), int64 [S, 2 + 2 * order]."""
        if encoder is None:
            encoder = self.encoders.get()
        n_seg = len(hyps)
        parts = []
        for a in range(0, max(n_seg, 1), chunk_segments):
            b = min(n_seg, a + chunk_segments)
            parts.append(
                backend.count_text(
                    hyps[a:b],
                    [s[a:b] for s in ref_streams],
                    tokenizer=self.tokenizer,
                    lowercase=self.lowercase,
                    order=self.order,
                    engine=self.engine,
                    threads=self.threads,
                    encoder=encoder,
                )
            )
        return np.concatenate(parts) if len(parts) > 1 else parts[0]

    __call__ = count

    # -- sending to worker processes --------------------------------------------------------------------
    def spec(self) -> tuple:
        """A small picklable description from which :func:`text_counter_from_spec` rebuilds this counter."""
        from ..tokenizers import registered_factory

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
        return text_counter_from_spec, (self.spec(),)


_COUNTERS: dict[tuple, TextCounter] = {}


def text_counter_from_spec(spec: tuple) -> TextCounter:
    """The counter described by ``spec`` (:meth:`TextCounter.spec`), one per process and spec, so that its
    tokenizer and encoder cache serve every chunk a worker receives."""
    counter = _COUNTERS.get(spec)
    if counter is None:
        from ..tokenizers import get_tokenizer, register_tokenizer, registered_factory

        tokenize, model, factory, lowercase, order, engine, threads = spec
        if factory is not None and registered_factory(tokenize) != factory:
            register_tokenizer(tokenize, factory)
        if model is not None:
            from ..tokenizers.spm import get_spm_tokenizer

            tokenizer = get_spm_tokenizer(tokenize, model)
        else:
            tokenizer = get_tokenizer(tokenize)
        counter = TextCounter(
            tokenize, tokenizer, lowercase=lowercase, order=order, engine=engine, threads=threads, spm_model=model
        )
        _COUNTERS[spec] = counter
    return counter


def count_id_chunks(
    hyp: EncodedLines,
    refs: Sequence[EncodedLines],
    present: np.ndarray,
    *,
    order: int,
    engine: str = "auto",
    threads: int | None = None,
    chunk_tokens: int = CHUNK_TOKENS,
    chunk_segments: int = CHUNK_SEGMENTS,
) -> np.ndarray:
    """Statistics rows of token-id input (flat ids + lengths per stream), counted in chunks of about
    ``chunk_tokens`` tokens (and at most ``chunk_segments`` segments)."""
    bounds = chunk_bounds(hyp.lengths + sum(r.lengths for r in refs), chunk_tokens, chunk_segments)
    out = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        whole = a == 0 and b == len(hyp.lengths)
        h, rs = (hyp, refs) if whole else (slice_lines(hyp, a, b), [slice_lines(r, a, b) for r in refs])
        out.append(backend.count_ids(h, rs, order=order, present=present[a:b], engine=engine, threads=threads))
    return np.concatenate(out) if len(out) > 1 else out[0]


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
    from ..tokenizers import get_tokenizer

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
        parts.append(backend.count_ids(hyp, streams, order=order, present=present, engine=engine, threads=threads))
    return np.concatenate(parts) if len(parts) > 1 else parts[0]


__all__ = [
    "CHUNK_SEGMENTS",
    "CHUNK_TOKENS",
    "MAX_CACHED_VOCABULARY",
    "EncoderCache",
    "TextCounter",
    "chunk_bounds",
    "count_id_chunks",
    "count_token_lists",
    "text_counter_from_spec",
]
