"""The BLEU metric: a scorer object, its score types, and functional shortcuts.

Pipeline: validate -> count (the scorer's :class:`~.counting.BLEUCounter`, built once: the compiled core's
counter, or the encoder and the numpy reference engine) -> score (:mod:`bleuscope.metrics.bleu.scoring`). Everything a score
needs later (bootstrap, significance, streaming, distributed sums) works on the statistics.
"""

from __future__ import annotations

import dataclasses
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core import chunks, native
from ...core.checks import (  # noqa: F401 (TokenizedInputWarning, warn_if_tokenized: public here)
    TOKENIZED_PERIOD_LINES,
    TokenizedInputWarning,
    warn_if_mostly_cjk,
    warn_if_tokenized,
    warn_tokenized,
)
from ...core.signature import nrefs_field, nrefs_value, version_field
from ...core.stats import check_statistics
from ...core.validation import check_references, check_text_list
from ...tokenizers import get_tokenizer
from ...tokenizers.base import BaseTokenizer
from ..base import Metric, SacreBLEUArithmetic, ScoreBatch, ScoreText, TokenView
from .counting import BLEUCounter, IdCounter
from .encoding import CorpusEncoder
from .layout import layout, order_of_width
from .options import LANGUAGE_TOKENIZERS, MAX_NGRAM_ORDER, BLEUOptions  # noqa: F401 (public here)
from .scoring import compute_scores
from .smoothing import is_chen_cherry, signature_value


@dataclass(frozen=True)
class BLEUScore(ScoreText):
    """One BLEU score (0-100) with the statistics it came from, like sacreBLEU's ``BLEUScore``."""

    score: float
    counts: list[int]
    totals: list[int]
    precisions: list[float]
    bp: float
    sys_len: int
    ref_len: int
    signature: str = ""
    name: str = field(default="BLEU")

    @property
    def ratio(self) -> float:
        return self.sys_len / self.ref_len if self.ref_len else 0

    @property
    def verbose(self) -> str:
        prec = "/".join(f"{p:.1f}" for p in self.precisions)
        return (
            f"{prec} (BP = {self.bp:.3f} ratio = {self.ratio:.3f} "
            f"hyp_len = {self.sys_len:d} ref_len = {self.ref_len:d})"
        )

    def to_dict(self) -> dict:
        return {
            "name": self.name,
            "score": self.score,
            "counts": list(self.counts),
            "totals": list(self.totals),
            "precisions": list(self.precisions),
            "bp": self.bp,
            "sys_len": self.sys_len,
            "ref_len": self.ref_len,
            "signature": self.signature,
        }


@dataclass(frozen=True)
class BLEUScores(ScoreBatch):
    """Sentence scores for a batch: arrays, plus a :class:`BLEUScore` per segment on indexing."""

    scores: np.ndarray  # float64 [S]
    stats: np.ndarray  # int64 [S, 2 + 2N]
    precisions: np.ndarray  # float64 [S, N]
    bp: np.ndarray  # float64 [S]
    signature: str = ""

    def __getitem__(self, i: int) -> BLEUScore:
        n = self.precisions.shape[1]
        cols = layout(order_of_width(self.stats.shape[1]))  # n + 1 orders for chen-cherry-5/7 (smoothing.py)
        row = self.stats[i]
        return BLEUScore(
            score=float(self.scores[i]),
            counts=row[cols.correct_upto(n)].tolist(),
            totals=row[cols.total_upto(n)].tolist(),
            precisions=self.precisions[i].tolist(),
            bp=float(self.bp[i]),
            sys_len=int(row[cols.hyp_len]),
            ref_len=int(row[cols.ref_len]),
            signature=self.signature,
        )


class BLEU(Metric):
    """BLEU scorer with sacreBLEU 2.6.0's definitions and options (all keyword-only).

    ``tokenize=None`` picks the target language's tokenizer (``trg_lang`` zh/ja/ko) or ``13a``.
    ``spm_model`` is the model file (or a folder holding ``<name>.model``) of a SentencePiece tokenizer.
    ``weights`` (beyond sacreBLEU) are per-order weights, non-negative, summing to 1; they set the order.
    ``engine`` (``"auto"``, ``"native"``, ``"numpy"``) picks the counting engine and ``threads`` its thread
    count (None: the engine decides); every engine gives the same statistics (:mod:`bleuscope.core.native`).
    """

    def __init__(
        self,
        *,
        tokenize: str | None = "13a",
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int | None = None,
        effective_order: bool = False,
        weights: Sequence[float] | None = None,
        trg_lang: str | None = None,
        spm_model: str | os.PathLike | None = None,
        force: bool = False,
        engine: str = "auto",
        threads: int | None = None,
    ) -> None:
        self.options = options = BLEUOptions.of(
            tokenize=tokenize, lowercase=lowercase, smooth_method=smooth_method, smooth_value=smooth_value,
            max_ngram_order=max_ngram_order, effective_order=effective_order, weights=weights, trg_lang=trg_lang,
            spm_model=spm_model, force=force, engine=engine, threads=threads,
        )
        if spm_model is not None:  # SentencePiece tokenizers: the model file (never downloaded)
            from ...tokenizers.spm import get_spm_tokenizer

            self.tokenizer: BaseTokenizer = get_spm_tokenizer(options.tokenize, spm_model)
        else:
            self.tokenizer = get_tokenizer(options.tokenize)
        self.config = options.config
        self._build_counter(options.threads)

    def _build_counter(self, threads: int | None) -> None:
        """The counter, built once for these options and ``threads`` (the compiled one when it can)."""
        model = getattr(self.tokenizer, "model_path", None)
        o = self.options
        self._counting = BLEUCounter(
            o.tokenize,
            self.tokenizer,
            lowercase=o.lowercase,
            order=o.stats_order,
            engine=o.engine,
            threads=threads,
            spm_model=None if model is None else str(model),
        )

    @property
    def counter(self) -> BLEUCounter:
        """The counting side (tokenizer, case, counted orders, engine, threads), built once; what worker
        processes receive (it pickles as a small spec)."""
        return self._counting

    # the options, read as attributes
    tokenize = property(lambda self: self.options.tokenize)
    lowercase = property(lambda self: self.options.lowercase)
    smooth_method = property(lambda self: self.options.smooth_method)
    smooth_value = property(lambda self: self.options.smooth_value)
    max_ngram_order = property(lambda self: self.options.max_ngram_order)
    effective_order = property(lambda self: self.options.effective_order)
    weights = property(lambda self: self.options.weights)
    trg_lang = property(lambda self: self.options.trg_lang)
    force = property(lambda self: self.options.force)
    engine = property(lambda self: self.options.engine)
    stats_order = property(lambda self: self.options.stats_order)

    @property
    def threads(self) -> int | None:
        """Threads of the compiled core (None: it picks a count for the input size); settable after
        construction (a Ray worker fits it to its CPUs): the counter is built again, once, with them."""
        return self.counter.threads

    @threads.setter
    def threads(self, value) -> None:
        value = native.check_threads(value)
        if value != self.counter.threads:
            self._build_counter(value)

    @property
    def input_warning_tokenizer(self) -> str:
        """The tokenizer sacreBLEU's CJK input warning judges: this scorer's."""
        return self.tokenizer.name

    @property
    def warns_if_tokenized(self) -> bool:
        """sacreBLEU's tokenized-input warning applies unless ``force=True``."""
        return not self.force

    #: the metric contract (:class:`bleuscope.metrics.base.Metric`)
    name = "BLEU"
    higher_is_better = True

    @property
    def stats_width(self) -> int:
        """Columns of this scorer's statistics rows (``2 + 2 * stats_order``)."""
        return layout(self.stats_order).width

    # -- signature -------------------------------------------------------------------------------------
    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:bleuscope-...``."""
        smooth = self.smooth_method
        value = self.config.smooth_value  # the method's default when it takes a value, else None
        if value is not None:  # chen-cherry: exact (%g), sacreBLEU methods: sacreBLEU's %.2f
            smooth += f"[{signature_value(value)}]" if is_chen_cherry(smooth) else f"[{value:.2f}]"
        return {
            "nrefs": str(nrefs),
            "case": "lc" if self.lowercase else "mixed",
            "eff": "yes" if self.effective_order else "no",
            "tok": self.tokenizer.signature(),
            "smooth": smooth,
            "order": None if self.max_ngram_order == 4 else str(self.max_ngram_order),
            "w": None if self.weights is None else ",".join(f"{w:g}" for w in self.weights),
            "version": version_field(),
        }

    # -- statistics ------------------------------------------------------------------------------------
    def new_encoder(self) -> CorpusEncoder:
        return self.counter.new_encoder()

    def check_hypotheses(self, hypotheses, name: str = "hypotheses") -> list:
        """Validated hypotheses, with the input warnings."""
        hyps = super().check_hypotheses(hypotheses, name)
        warn_if_mostly_cjk(self.tokenizer.name, hyps)  # CJKTokenizationWarning for CJK text with 13a/intl
        if not self.force:
            warn_if_tokenized(hyps)
        return hyps

    def count_checked(
        self, hyps: list, streams: list, present: np.ndarray | None = None, *, encoder: CorpusEncoder | None = None
    ) -> np.ndarray:
        """Statistics rows of already validated input (see :meth:`check_inputs`); ``encoder`` keeps the
        tokenization cache (default: this thread's, kept across calls and renewed when it grows large)."""
        return self.counter.rows(hyps, streams, present, encoder=encoder)

    def count_ids(self, hyp_ids, ref_ids, present=None) -> np.ndarray:
        """Statistics rows of one chunk of token-id input (see :meth:`.counting.IdCounter.rows`) with this
        scorer's order and engine."""
        return IdCounter(self.stats_order, engine=self.engine, threads=self.threads).rows(hyp_ids, ref_ids, present)

    # -- scores ----------------------------------------------------------------------------------------
    def score_rows(self, rows: np.ndarray) -> np.ndarray:
        """BLEU (0-100) of every statistics row, float64."""
        return compute_scores(rows, self.config, engine=self.engine).score

    @property
    def sacrebleu(self) -> SacreBLEUArithmetic:
        """sacreBLEU's arithmetic on float32 resample sums (see
        :func:`~bleuscope.metrics.bleu.scoring.compute_scores`)."""
        config = self.config
        return SacreBLEUArithmetic(lambda sums: compute_scores(sums, config, float32=True).score)

    def sentence_score_rows(self, rows: np.ndarray) -> np.ndarray:
        """Sentence BLEU of every per-segment row with effective order on (sacreBLEU's sentence BLEU)."""
        return compute_scores(rows, dataclasses.replace(self.config, effective_order=True)).score

    def token_view(self) -> TokenView:
        """This scorer's tokens (tokenizer, case), n-gram orders and target language, for views of its
        matched n-grams (the report's highlights)."""
        return TokenView(self.tokenizer, self.lowercase, self.max_ngram_order, self.trg_lang)

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> BLEUScore:
        """Corpus BLEU from per-segment statistics (summed) or one already summed row; invalid statistics
        (wrong width, negative counts, matches above totals) are a ValueError naming the column and row."""
        n = self.stats_order
        names = ["hyp_len", "ref_len", *(f"correct_{k}" for k in range(1, n + 1)), *(f"total_{k}" for k in range(1, n + 1))]
        stats = check_statistics(stats, names, [(2 + k, 2 + n + k) for k in range(n)], "BLEU statistics")
        total = stats.sum(axis=0) if stats.ndim == 2 else stats
        res = compute_scores(total[None, :], self.config, engine=self.engine)
        n, cols = self.max_ngram_order, layout(self.stats_order)
        sig = self.signature(nrefs) if nrefs is not None else ""
        return BLEUScore(
            score=float(res.score[0]),
            counts=total[cols.correct_upto(n)].tolist(),
            totals=total[cols.total_upto(n)].tolist(),
            precisions=res.precisions[0].tolist(),
            bp=float(res.bp[0]),
            sys_len=int(total[cols.hyp_len]),
            ref_len=int(total[cols.ref_len]),
            signature=sig,
        )

    def corpus_score(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], *, n_jobs: int | None = None
    ) -> BLEUScore:
        """Corpus BLEU: clipped counts summed over all segments, BP from the summed closest lengths.

        Iterators (generators, open files) and paths (:class:`os.PathLike`) among the inputs are read in
        chunks with bounded memory (:mod:`bleuscope.core.chunks`); the score is the in-memory one."""
        if chunks.is_streaming_input(hypotheses, references):
            return self.score_stream(hypotheses, references, n_jobs=n_jobs)
        if n_jobs is None:
            counted = self._counted_unchecked(hypotheses, references, per_segment=False)
            if counted is not None:
                return self.score_from_statistics(*counted)
        seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
        return self.score_from_statistics(seg.stats, nrefs_field(seg.nrefs))

    def _counted_unchecked(self, hypotheses, references, *, per_segment: bool) -> tuple[np.ndarray, str] | None:
        """The summed statistics row (``per_segment``: the rows) and the ``nrefs`` field of lists in memory,
        counted in one pass of the compiled counter, which also checks the items' types, counts the
        hypotheses ending in " ." and the references per segment while it reads them (no separate Python
        passes over the lists). None when the counter is not compiled, or the input is invalid:
        :meth:`segment_statistics` then counts it, or raises the precise error (after the same warnings)."""
        if self.counter.compiled is None:
            return None
        try:
            hyps = check_text_list(hypotheses, "hypotheses", check_items=False, copy=False)
            if not hyps:
                return None
            streams = check_references(references, len(hyps), check_items=False, copy=False)
            counted, nref_counts, tokenized_periods = self.counter.unchecked(hyps, streams, per_segment=per_segment)
        except (TypeError, ValueError):
            return None
        if nref_counts[0]:  # a segment without any reference: the checked path names it
            return None
        warn_if_mostly_cjk(self.tokenizer.name, hyps)  # the same warnings, in the same order, as check_inputs
        if not self.force and tokenized_periods >= TOKENIZED_PERIOD_LINES:
            warn_tokenized()
        counts = np.arange(len(nref_counts), dtype=np.int64)  # nref_counts[k]: segments with k references
        return counted, nrefs_value(int(nref_counts.sum()), int(nref_counts @ counts), int(nref_counts @ counts**2))

    def sentence_scores(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], *, n_jobs: int | None = None
    ) -> BLEUScores:
        """One sentence BLEU per segment, computed in one vectorized pass (same values as a loop);
        ``n_jobs`` as in :meth:`segment_statistics`. In memory, the compiled core reads, checks and counts
        the input in one pass (:meth:`_counted_unchecked`); the per-segment :class:`BLEUScore` objects are built
        only when indexed."""
        counted = None
        # one-shot iterators go to the checked path, which reads them once (the native pass may decline)
        if n_jobs is None and not _one_shot(hypotheses, references):
            counted = self._counted_unchecked(hypotheses, references, per_segment=True)
        if counted is not None:
            stats, nrefs = counted
        else:
            seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
            stats, nrefs = seg.stats, nrefs_field(seg.nrefs)
        res = compute_scores(stats, self.config, engine=self.engine)
        return BLEUScores(
            scores=res.score,
            stats=stats,
            precisions=res.precisions,
            bp=res.bp,
            signature=self.signature(nrefs),
        )

    def pairwise_checked(self, hyps: list[str], refs: list[str]) -> np.ndarray:
        """float64 [H, R]: ``sentence_score(hyps[h], [refs[r]]).score`` for every pair of validated lists,
        each string tokenized once (see :mod:`bleuscope.metrics.bleu.pairwise`)."""
        from .pairwise import pairwise_scores_checked  # the all-pairs machinery loads when it is used

        return pairwise_scores_checked(self, hyps, refs)


def _one_shot(hypotheses, references) -> bool:
    """Is some input an iterator, an open file or a path, which a second reading would find exhausted?"""
    return chunks.is_streaming_input(hypotheses, references) or not isinstance(references, (list, tuple, np.ndarray))


def _shortcut_options(use_effective_order: bool, options: dict) -> dict:
    options.setdefault("effective_order", use_effective_order)  # BLEU's name for the same option wins
    return options


def corpus_bleu(
    hypotheses: Sequence[str],
    references: Sequence[Sequence[str]],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    force: bool = False,
    lowercase: bool = False,
    tokenize: str | None = "13a",
    use_effective_order: bool = False,
    **options,
) -> BLEUScore:
    """Functional shortcut with ``sacrebleu.corpus_bleu``'s arguments and defaults; further
    :class:`BLEU` options (``max_ngram_order``, ``weights``, ...) as keywords."""
    bleu = BLEU(
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        force=force,
        lowercase=lowercase,
        tokenize=tokenize,
        **_shortcut_options(use_effective_order, options),
    )
    return bleu.corpus_score(hypotheses, references)


def sentence_bleu(
    hypothesis: str,
    references: Sequence[str],
    smooth_method: str = "exp",
    smooth_value: float | None = None,
    lowercase: bool = False,
    tokenize: str | None = "13a",
    use_effective_order: bool = True,
    **options,
) -> BLEUScore:
    """Functional shortcut with ``sacrebleu.sentence_bleu``'s arguments and defaults (effective order on,
    as there); further :class:`BLEU` options as keywords."""
    bleu = BLEU(
        smooth_method=smooth_method,
        smooth_value=smooth_value,
        lowercase=lowercase,
        tokenize=tokenize,
        **_shortcut_options(use_effective_order, options),
    )
    return bleu.sentence_score(hypothesis, references)


def raw_corpus_bleu(
    hypotheses: Sequence[str], references: Sequence[Sequence[str]], smooth_value: float | None = 0.1
) -> BLEUScore:
    """``sacrebleu.raw_corpus_bleu``: BLEU on untokenized text (``tokenize="none"``), floor smoothing,
    effective order, no tokenized-input warning."""
    return corpus_bleu(
        hypotheses,
        references,
        smooth_method="floor",
        smooth_value=smooth_value,
        force=True,
        tokenize="none",
        use_effective_order=True,
    )
