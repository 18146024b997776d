"""chrF and chrF++ (Popović 2015, 2017) with sacreBLEU 2.6.0's definitions, on additive integer statistics.

A segment's statistics row has three integers per order -- character orders 1..``char_order`` first, then
word orders 1..``word_order``: hypothesis n-grams, reference n-grams, clipped matches. With several
references a segment keeps the row of the reference with the best sentence-level F (ties: the first), as
sacreBLEU does. The corpus score is a function of the column sums, so summing rows of any shards gives the
same score, bit for bit, as sacreBLEU's ``corpus_score``.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core import native
from ...core.chunks import CHUNK_SEGMENTS
from ...core.native import chrf_ter as native_chrf_ter
from ...core.signature import nrefs_field, version_field
from ...core.stats import check_statistics
from ...core.validation import ArgumentError, ArgumentTypeError, check_bool, check_reference_presence
from ..base import Metric, SacreBLEUArithmetic, ScoreBatch, ScoreText
from .arithmetic import Mixed, binary, select
from .counting import match_row, ngram_counters

#: sacreBLEU's epsilon for orders without hypothesis or reference n-grams
EPSILON = 1e-16

@dataclass(frozen=True)
class CHRFScore(ScoreText):
    """One chrF score (0-100), like sacreBLEU's ``CHRFScore`` (``name`` is ``chrF2``, ``chrF2++``, ...)."""

    score: float
    char_order: int
    word_order: int
    beta: int
    signature: str = ""
    name: str = field(default="chrF2")

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "char_order": self.char_order,
                "word_order": self.word_order, "beta": self.beta, "signature": self.signature}


@dataclass(frozen=True)
class CHRFScores(ScoreBatch):
    """Sentence chrF scores of a batch: an array, plus a :class:`CHRFScore` per segment on indexing."""

    scores: np.ndarray  # float64 [S]
    stats: np.ndarray  # int64 [S, 3 * (char_order + word_order)]
    char_order: int
    word_order: int
    beta: int
    signature: str = ""
    name: str = "chrF2"

    def __getitem__(self, i: int) -> CHRFScore:
        return CHRFScore(float(self.scores[i]), self.char_order, self.word_order, self.beta,
                         self.signature, self.name)


#: the highest n-gram orders accepted. sacreBLEU's are 6 characters and 2 words (chrF++); published variants
#: stay within single digits. Each order adds three columns per segment, so an unbounded order (-cc 1000000)
#: would allocate gigabytes before counting anything.
MAX_CHAR_ORDER = 32
MAX_WORD_ORDER = 16


def _check_order(value, name: str, maximum: int | None = None) -> int:
    if isinstance(value, numbers.Real) and not isinstance(value, numbers.Integral) and not math.isfinite(value):
        raise ArgumentError(f"{{}} must be a finite integer, got {value!r}", name)
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise ArgumentTypeError(f"{{}} must be an integer, got {value!r}", name)
    order = int(value)
    if order < 0:
        raise ArgumentError(f"{{}} must be >= 0, got {order}", name)
    if maximum is not None and order > maximum:
        raise ArgumentError(f"{{}} must be at most {maximum}, got {order}", name)
    return order


def f_scores(rows, order: int, beta: int, eps_smoothing: bool, *, float32: bool = False) -> np.ndarray:
    """chrF of each statistics row, with sacreBLEU's arithmetic (float32: its bootstrap arithmetic).

    Effective-order rule (default): precision and recall are averaged over the orders where both the
    hypothesis and the reference have n-grams, and F-beta is taken of the averages. ``eps_smoothing``:
    the mean of the per-order F-beta values, with 1e-16 for empty precisions/recalls/F (chrF++.py, NLTK).
    """
    rows = np.asarray(rows)
    if rows.ndim == 1:
        rows = rows[None, :]
    if rows.shape[1] != 3 * order:
        raise ValueError(f"chrF statistics rows must have {3 * order} columns, got {rows.shape[1]}")
    if not float32:
        return _f_scores64(rows, order, beta, eps_smoothing)
    return _f_scores_mixed(rows, order, beta, eps_smoothing, float32)


def _f_scores64(rows: np.ndarray, order: int, beta: int, eps_smoothing: bool) -> np.ndarray:
    """:func:`f_scores` in float64 throughout: sacreBLEU's Python-float corpus and sentence arithmetic, the
    same operations in the same order as :func:`_f_scores_mixed` (whose float32 bookkeeping costs a dozen
    array passes per operation, most of a reward batch's time outside the counting)."""
    factor = beta ** 2
    stats = rows.astype(np.float64)
    score = np.zeros(rows.shape[0])
    avg_prec = np.zeros(rows.shape[0])
    avg_rec = np.zeros(rows.shape[0])
    effective = np.zeros(rows.shape[0], dtype=np.int64)
    with np.errstate(all="ignore"):
        for i in range(order):
            n_hyp, n_ref, n_match = stats[:, 3 * i], stats[:, 3 * i + 1], stats[:, 3 * i + 2]
            has_hyp = n_hyp > 0
            has_ref = n_ref > 0
            prec = np.where(has_hyp, n_match / n_hyp, EPSILON)
            rec = np.where(has_ref, n_match / n_ref, EPSILON)
            denom = factor * prec + rec
            term = (1 + factor) * prec * rec / denom
            score = score + np.where(denom > 0, term, EPSILON)
            both = has_hyp & has_ref
            avg_prec = np.where(both, avg_prec + prec, avg_prec)
            avg_rec = np.where(both, avg_rec + rec, avg_rec)
            effective += both
        if eps_smoothing:
            return 100 * score / order
        any_order = effective > 0
        safe = np.maximum(effective, 1)
        avg_prec = np.where(any_order, avg_prec / safe, 0.0)
        avg_rec = np.where(any_order, avg_rec / safe, 0.0)
        total = avg_prec + avg_rec
        out = (1 + factor) * avg_prec * avg_rec
        out = out / (factor * avg_prec + avg_rec)
        out = 100 * out
    return np.where(total != 0, out, 0.0)


def _f_scores_mixed(rows: np.ndarray, order: int, beta: int, eps_smoothing: bool, float32: bool) -> np.ndarray:
    """:func:`f_scores` with each operation in float32 or float64 row by row, as sacreBLEU's scalar code."""
    n_rows = rows.shape[0]
    factor = beta ** 2
    score: Mixed | float = 0.0
    avg_prec: Mixed | float = 0.0
    avg_rec: Mixed | float = 0.0
    effective = np.zeros(n_rows, dtype=np.int64)
    for i in range(order):
        n_hyp = Mixed.of(rows[:, 3 * i], float32)
        n_ref = Mixed.of(rows[:, 3 * i + 1], float32)
        n_match = Mixed.of(rows[:, 3 * i + 2], float32)
        has_hyp = n_hyp.value > 0
        has_ref = n_ref.value > 0
        prec = select(has_hyp, n_match / n_hyp, EPSILON)
        rec = select(has_ref, n_match / n_ref, EPSILON)
        denom = factor * prec + rec
        term = (1 + factor) * prec * rec / denom
        score = score + select(denom.value > 0, term, EPSILON)
        both = has_hyp & has_ref
        avg_prec = select(both, avg_prec + prec, avg_prec)
        avg_rec = select(both, avg_rec + rec, avg_rec)
        effective += both
    if eps_smoothing:
        return _value(100 * score / order, n_rows)
    any_order = effective > 0
    safe = np.maximum(effective, 1)
    avg_prec = select(any_order, binary(avg_prec, safe, np.divide), 0.0)
    avg_rec = select(any_order, binary(avg_rec, safe, np.divide), 0.0)
    total = avg_prec + avg_rec
    out = (1 + factor) * avg_prec * avg_rec
    out = out / (factor * avg_prec + avg_rec)
    out = 100 * out
    return np.where(total.value != 0, out.value, 0.0)


def _value(x, n_rows: int) -> np.ndarray:
    return np.broadcast_to(x.value if isinstance(x, Mixed) else np.float64(x), (n_rows,)).astype(np.float64)


class CHRF(Metric):
    """chrF / chrF++ scorer with sacreBLEU 2.6.0's options, defaults and numbers (all keyword-only).

    ``word_order=2`` is chrF++. ``whitespace=True`` keeps whitespace inside character n-grams.
    ``eps_smoothing=True`` uses the chrF++.py / NLTK / Moses smoothing instead of the effective order.
    """

    higher_is_better = True

    #: threads of the compiled core (None: it picks a count for the input size); also settable later
    threads = native.ThreadsOption()

    def __init__(
        self,
        *,
        char_order: int = 6,
        word_order: int = 0,
        beta: int = 2,
        lowercase: bool = False,
        whitespace: bool = False,
        eps_smoothing: bool = False,
        engine: str = "auto",
        threads: int | None = None,
    ) -> None:
        self.engine = native.check_engine(engine)
        self.threads = threads
        self.char_order = _check_order(char_order, "char_order", MAX_CHAR_ORDER)
        self.word_order = _check_order(word_order, "word_order", MAX_WORD_ORDER)
        if self.char_order + self.word_order == 0:
            raise ArgumentError("{} + {} must be >= 1 (there is nothing to count)", "char_order", "word_order")
        self.beta = _check_order(beta, "beta")
        self.lowercase = check_bool(lowercase, "lowercase")
        self.whitespace = check_bool(whitespace, "whitespace")
        self.eps_smoothing = check_bool(eps_smoothing, "eps_smoothing")
        self.order = self.char_order + self.word_order
        self._compiled()  # built once, with the settings (again only when threads are set)

    @property
    def name(self) -> str:
        """``chrF2``, ``chrF2++`` (one ``+`` per word order), ``chrF1``, ..."""
        return f"chrF{self.beta}" + "+" * self.word_order

    @property
    def stats_width(self) -> int:
        return 3 * self.order

    # -- signature -------------------------------------------------------------------------------------
    #: the short signature names of chrF's fields
    short_keys = {"nc": "nc", "nw": "nw", "space": "s"}

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:1|case:mixed|eff:yes|nc:6|nw:0|space:no|version:bleuscope-...``."""
        return {
            "nrefs": str(nrefs),
            "case": "lc" if self.lowercase else "mixed",
            "eff": "no" if self.eps_smoothing else "yes",
            "nc": str(self.char_order),
            "nw": str(self.word_order),
            "space": "yes" if self.whitespace else "no",
            "version": version_field(),
        }

    # -- statistics ------------------------------------------------------------------------------------
    def _prepare(self, text: str) -> str:
        return text.lower() if self.lowercase else text

    def candidate_rows(self, hyps: list[str], streams: list[list], present: np.ndarray) -> np.ndarray:
        """int64 [S, K, W]: the statistics row of every hypothesis against each of its K references
        (rows of absent references are zero)."""
        n_seg, n_ref = present.shape
        out = np.zeros((n_seg, n_ref, self.stats_width), dtype=np.int64)
        args = (self.char_order, self.word_order, self.whitespace)
        ref_counters = []
        for stream in streams:
            cache: dict[str, list] = {}  # repeated references are counted once
            counted = []
            for ref in stream:
                if ref is not None and ref not in cache:
                    cache[ref] = ngram_counters(self._prepare(ref), *args)
                counted.append(None if ref is None else cache[ref])
            ref_counters.append(counted)
        for i, hyp in enumerate(hyps):
            counters = ngram_counters(self._prepare(hyp), *args)
            for k, counted in enumerate(ref_counters):
                ref_counts = counted[i]
                if ref_counts is not None:  # the reference is present
                    out[i, k] = match_row(counters, ref_counts)
        return out

    def best_rows(self, candidates: np.ndarray, present: np.ndarray) -> np.ndarray:
        """Each segment's row against the reference with the best sentence F (ties: the first)."""
        n_seg, n_ref, width = candidates.shape
        if n_ref == 1:
            return candidates[:, 0, :]
        f = f_scores(candidates.reshape(-1, width), self.order, self.beta, self.eps_smoothing)
        f = np.where(present, f.reshape(n_seg, n_ref), -np.inf)
        best = np.argmax(f, axis=1)
        return candidates[np.arange(n_seg), best]

    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """Statistics rows of already validated input, counted in chunks of bounded memory."""
        if present is None:
            present = check_reference_presence(streams)
        parts = []
        for a in range(0, len(hyps), CHUNK_SEGMENTS):
            b = min(len(hyps), a + CHUNK_SEGMENTS)
            cand = self._candidates(hyps[a:b], [s[a:b] for s in streams], present[a:b])
            parts.append(self.best_rows(cand, present[a:b]))
        if not parts:
            return np.zeros((0, self.stats_width), dtype=np.int64)
        return np.ascontiguousarray(np.concatenate(parts) if len(parts) > 1 else parts[0])

    def _compiled(self):
        """The compiled chrF counter of these settings (None: the numpy engine, or no compiled core)."""
        if "_counter" not in self.__dict__:
            build = native.resolve_engine(self.engine) == "native"
            self.__dict__["_counter"] = native_chrf_ter.chrf_counter(
                self.char_order, self.word_order, self.whitespace, self.threads) if build else None
        return self.__dict__["_counter"]

    def _candidates(self, hyps, streams, present) -> np.ndarray:
        """Candidate rows [S, K, W]: the compiled core's when the engine allows and it can count the input
        (Python does the lowercasing, ``str.lower`` being the definition), else :meth:`candidate_rows`."""
        counter = self._compiled()
        if counter is not None:
            native_hyps, native_streams = hyps, streams
            if self.lowercase:
                native_hyps = [h.lower() for h in hyps]
                native_streams = [[None if r is None else r.lower() for r in s] for s in streams]
            rows = counter.rows(native_hyps, native_streams)
            if rows is not None:
                return rows
        return self.candidate_rows(hyps, streams, present)

    # -- scores ----------------------------------------------------------------------------------------
    def score_rows(self, rows: np.ndarray) -> np.ndarray:
        """float64 chrF per row of (summed) statistics."""
        return f_scores(rows, self.order, self.beta, self.eps_smoothing)

    @property
    def sacrebleu(self) -> SacreBLEUArithmetic:
        """sacreBLEU's bootstrap arithmetic on float32 sums (every intermediate value rounded where
        sacreBLEU's numpy.float32 code rounds); its resampled scores are numpy.float32."""
        order, beta, eps = self.order, self.beta, self.eps_smoothing
        return SacreBLEUArithmetic(lambda sums: f_scores(sums, order, beta, eps, float32=True), scores_float32=True)

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> CHRFScore:
        """Corpus chrF from per-segment rows (summed here) or one already summed row; invalid statistics
        (wrong width, negative counts, matches above the hypothesis or reference n-grams) are a ValueError
        naming the column and row."""
        names = [f"{what}_{k}" for k in range(1, self.order + 1) for what in ("hyp", "ref", "match")]
        bounded = [(3 * i + 2, 3 * i + j) for i in range(self.order) for j in (0, 1)]
        stats = check_statistics(stats, names, bounded, "chrF statistics")
        total = stats.sum(axis=0) if stats.ndim == 2 else stats
        score = float(self.score_rows(total[None, :])[0])
        sig = self.signature(nrefs) if nrefs is not None else ""
        return CHRFScore(score, self.char_order, self.word_order, self.beta, sig, self.name)

    def sentence_scores(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], *, n_jobs: int | None = None
    ) -> CHRFScores:
        """One sentence chrF per segment (same values as ``sentence_score`` in a loop), vectorized."""
        seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
        return CHRFScores(self.score_rows(seg.stats), seg.stats, self.char_order, self.word_order, self.beta,
                          self.signature(nrefs_field(seg.nrefs)), self.name)


def corpus_chrf(hypotheses: Sequence[str], references: Sequence[Sequence[str]], **options) -> CHRFScore:
    """Functional shortcut: ``CHRF(**options).corpus_score(hypotheses, references)``."""
    return CHRF(**options).corpus_score(hypotheses, references)


def sentence_chrf(hypothesis: str, references: Sequence[str], **options) -> CHRFScore:
    """Functional shortcut: ``CHRF(**options).sentence_score(hypothesis, references)``."""
    return CHRF(**options).sentence_score(hypothesis, references)
