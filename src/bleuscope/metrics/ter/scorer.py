"""TER (Snover et al. 2006) with sacreBLEU 2.6.0's definitions (Tercom's algorithm), on additive integer statistics.

A segment's statistics row is ``[edits, scaled reference length]``: the edits to the closest reference
(shifts + beam edit distance, :mod:`.edits`) and the mean reference length times
:data:`REF_LENGTH_SCALE` (720720 = lcm(1..16), so the mean of up to 16 references is an exact integer).
TER = 100 * sum(edits) / sum(mean reference lengths).

**Summation rule.** sacreBLEU adds the per-segment mean lengths as floats in segment order. With 1, 2, 4,
8 or 16 references those means and their sums are exact, and every path here gives sacreBLEU's number bit
for bit. With other counts (3 references) the float sum rounds differently from the exact sum in the
last bits; bleuscope's ``corpus_score``, ``sentence_scores`` and ``score_from_statistics`` of per-segment
rows add the means in segment order as sacreBLEU does (identical numbers); :meth:`TER.score_rows` and
``score_from_statistics`` of an already-summed row (shards, streaming, significance) use the exact sum,
which can differ from sacreBLEU's in the last bits (37.65353434017516 vs 37.6535343401752 for Facebook-AI on
newstest2021 en-de with its 3 references).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core import native
from ...core.native import chrf_ter as native_chrf_ter
from ...core.signature import nrefs_field, version_field
from ...core.stats import check_statistics
from ...core.validation import check_bool, check_reference_presence
from ...tokenizers.language import cjk_letter_share
from ..base import Metric, MetricCounter, SacreBLEUArithmetic, ScoreBatch, ScoreText
from .edits import ter_edits
from .normalizer import TercomNormalizer

#: the mean reference length is stored times this (lcm(1..16)): exact for up to 16 references per segment
REF_LENGTH_SCALE = 720720

#: the most references per segment whose mean length is an exact multiple of 1 / REF_LENGTH_SCALE
MAX_REFERENCES = 16


@dataclass(frozen=True)
class TERScore(ScoreText):
    """One TER score (0-100+, lower is better), like sacreBLEU's ``TERScore``."""

    score: float
    num_edits: int
    ref_length: float
    signature: str = ""
    name: str = field(default="TER")

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "num_edits": self.num_edits,
                "ref_length": self.ref_length, "signature": self.signature}


@dataclass(frozen=True)
class TERScores(ScoreBatch):
    """Sentence TER scores of a batch: an array, plus a :class:`TERScore` per segment on indexing."""

    scores: np.ndarray  # float64 [S]
    stats: np.ndarray  # int64 [S, 2]
    signature: str = ""

    def __getitem__(self, i: int) -> TERScore:
        edits, scaled = self.stats[i]
        return TERScore(float(self.scores[i]), int(edits), int(scaled) / REF_LENGTH_SCALE, self.signature)


def _ter_values(edits: np.ndarray, ref_length: np.ndarray) -> np.ndarray:
    """sacreBLEU's ``100 * edits / ref_length`` (1 for an empty reference with edits, else 0), in the
    dtype of the inputs (float64, or float32 for its bootstrap arithmetic)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = edits / ref_length
        hundred = ratio.dtype.type(100)
        score = (hundred * ratio).astype(np.float64)
    fallback = np.where(edits > 0, 100.0, 0.0)
    return np.where(ref_length > 0, score, fallback)


class TER(Metric):
    """TER scorer with sacreBLEU 2.6.0's options, defaults and numbers (all keyword-only).

    ``normalized``: Tercom's tokenization of punctuation (and of CJK text with ``asian_support``);
    ``no_punct``: remove punctuation; ``case_sensitive``: do not lowercase.
    """

    name = "TER"
    higher_is_better = False
    #: sacreBLEU's bootstrap scores of this metric are numpy.float32 values (see score_rows)
    stats_width = 2

    #: threads of the compiled core (None: it picks a count for the input size); also settable later
    threads = native.ThreadsOption()

    def __init__(
        self,
        *,
        normalized: bool = False,
        no_punct: bool = False,
        asian_support: bool = False,
        case_sensitive: bool = False,
        engine: str = "auto",
        threads: int | None = None,
    ) -> None:
        self.engine = native.check_engine(engine)
        self.threads = threads
        self.normalized = check_bool(normalized, "normalized")
        self.no_punct = check_bool(no_punct, "no_punct")
        self.asian_support = check_bool(asian_support, "asian_support")
        self.case_sensitive = check_bool(case_sensitive, "case_sensitive")
        self.normalizer = TercomNormalizer(normalized=self.normalized, no_punct=self.no_punct,
                                           asian_support=self.asian_support, case_sensitive=self.case_sensitive)
        self._compiled()  # built once (again only when threads are set)

    def _compiled(self):
        """The compiled TER counter (None: the numpy engine, or no compiled core)."""
        if "_counter" not in self.__dict__:
            build = native.resolve_engine(self.engine) == "native"
            self.__dict__["_counter"] = native_chrf_ter.ter_counter(self.threads) if build else None
        return self.__dict__["_counter"]

    @property
    def counter(self) -> TERCounter:
        """TER's counter: several systems' references normalized once (see :class:`TERCounter`)."""
        return TERCounter(self)

    # -- signature -------------------------------------------------------------------------------------
    #: the short signature names of TER's fields (sacreBLEU's)
    short_keys = {"tok": "t", "norm": "nr", "punct": "pn", "asian": "as"}

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:1|case:lc|tok:tercom|norm:no|punct:yes|asian:no|version:bleuscope-...``."""
        yes_no = {True: "yes", False: "no"}
        return {
            "nrefs": str(nrefs),
            "case": "mixed" if self.case_sensitive else "lc",
            "tok": "tercom",
            "norm": yes_no[self.normalized],
            "punct": yes_no[not self.no_punct],
            "asian": yes_no[self.asian_support],
            "version": version_field(),
        }

    # -- statistics ------------------------------------------------------------------------------------
    def edits_rows(self, hyps: list[str], streams: list[list], present: np.ndarray) -> np.ndarray:
        """int64 [S, K, 2]: (edits, reference length) of every hypothesis against each of its references
        (pure Python; zeros for absent references)."""
        n_seg, n_ref = present.shape
        out = np.zeros((n_seg, n_ref, 2), dtype=np.int64)
        words, reference_words = self.normalizer.words, self.normalizer.reference_words
        ref_words = [[None if r is None else reference_words(r) for r in stream] for stream in streams]
        for i, hyp in enumerate(hyps):
            hyp_words = words(hyp)
            for k in range(n_ref):
                if present[i, k]:
                    ref = ref_words[k][i]
                    assert ref is not None, "a present reference has words"
                    out[i, k, 0] = ter_edits(hyp_words, ref)
                    out[i, k, 1] = len(ref)
        return out

    def check_reference_streams(self, references, n_segments: int) -> tuple[list, np.ndarray]:
        """Validated ``(reference streams, presence [S, K])``; at most 16 references per segment (or a count
        dividing :data:`REF_LENGTH_SCALE`)."""
        streams, present = super().check_reference_streams(references, n_segments)
        nrefs = present.sum(axis=1)
        if nrefs.max() > MAX_REFERENCES and np.any(REF_LENGTH_SCALE % nrefs):
            bad = int(np.flatnonzero(REF_LENGTH_SCALE % nrefs)[0])
            raise ValueError(
                f"segment {bad} has {int(nrefs[bad])} references; TER's exact statistics support up to "
                f"{MAX_REFERENCES} references per segment (or any count dividing {REF_LENGTH_SCALE})"
            )
        return streams, present

    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """Statistics rows ``[edits, mean reference length * 720720]`` of already validated input."""
        if present is None:
            present = check_reference_presence(streams)
        if not len(hyps):
            return np.zeros((0, 2), dtype=np.int64)
        return self._statistics(self._rows(hyps, streams, present), present)


    @staticmethod
    def _statistics(rows: np.ndarray, present: np.ndarray) -> np.ndarray:
        """``[edits to the closest reference, scaled mean reference length]`` from rows [S, K, 2]."""
        nrefs = present.sum(axis=1).astype(np.int64)
        best = np.where(present, rows[:, :, 0], np.iinfo(np.int64).max).min(axis=1)
        ref_total = rows[:, :, 1].sum(axis=1)
        return np.ascontiguousarray(np.stack([best, ref_total * (REF_LENGTH_SCALE // nrefs)], axis=1), dtype=np.int64)

    def _normalized_references(self, streams) -> list | None:
        """The references as the compiled core reads them, or None when the engine is not native."""
        if self._compiled() is None:
            return None
        normalize = self.normalizer.reference_segment
        return [[None if r is None else normalize(r) for r in s] for s in streams]

    def _rows(self, hyps, streams, present, normalized: list | None = None) -> np.ndarray:
        """(edits, reference length) rows [S, K, 2]: the compiled core's on normalized text (Tercom's rules
        stay in Python; ``normalized``: the references already normalized) when the engine allows and the
        text is valid UTF-8, else :meth:`edits_rows`."""
        if normalized is None:
            normalized = self._normalized_references(streams)
        if normalized is not None:
            rows = self._compiled().rows([self.normalizer.segment(h) for h in hyps], normalized)
            if rows is not None:
                return rows
        return self.edits_rows(hyps, streams, present)

    @staticmethod
    def mean_ref_lengths(stats: np.ndarray) -> np.ndarray:
        """float64 per-segment mean reference length (the value sacreBLEU keeps per segment)."""
        return np.asarray(stats, dtype=np.int64)[:, 1] / REF_LENGTH_SCALE

    def input_notes(self, references: Sequence, trg_lang: str | None = None) -> list[str]:
        """A note when the target is Chinese, Japanese or Korean (``trg_lang``, or at least half of the
        letters of the first reference stream's start) and ``asian_support`` is off."""
        if self.asian_support:
            return []
        cjk, letters = cjk_letter_share([x for x in references[0][:2000] if x is not None]) if references else (0, 0)
        if (trg_lang or "").lower() in ("zh", "ja", "ko") or (cjk and cjk >= 0.5 * letters):
            return ["TER runs on a Chinese, Japanese or Korean target without asian_support "
                    "(--ter-asian-support): Tercom does not split CJK text into words, so TER here counts edits "
                    "of whole runs of characters and is not comparable to TER on other targets"]
        return []

    @staticmethod
    def float32_statistics(stats: np.ndarray) -> np.ndarray:
        """sacreBLEU's float32 per-segment statistics ``[edits, mean reference length]`` (its resampling
        tests sum these in float32)."""
        stats = np.asarray(stats, dtype=np.int64)
        mean_lengths = stats[:, 1] / REF_LENGTH_SCALE
        return np.stack([stats[:, 0].astype(np.float32), mean_lengths.astype(np.float32)], axis=1)

    @staticmethod
    def score_rows32(rows: np.ndarray) -> np.ndarray:
        """float64 TER of float32 sums of :meth:`float32_statistics` rows, by sacreBLEU's float32 arithmetic."""
        rows = _two_columns(rows).astype(np.float32)
        return _ter_values(rows[:, 0], rows[:, 1])

    #: sacreBLEU's resampling arithmetic: float32 sums of the float32 rows, numpy.float32 scores
    sacrebleu = SacreBLEUArithmetic(score_rows32, scores_float32=True, statistics=float32_statistics)

    # -- scores ----------------------------------------------------------------------------------------
    def score_rows(self, rows: np.ndarray) -> np.ndarray:
        """float64 TER per row of summed int64 statistics (the exact reference-length sum)."""
        rows = _two_columns(rows).astype(np.int64)
        return _ter_values(rows[:, 0].astype(np.float64), rows[:, 1] / REF_LENGTH_SCALE)

    def _score(self, edits: int, ref_length: float, nrefs) -> TERScore:
        score = float(_ter_values(np.array([float(edits)]), np.array([ref_length]))[0])
        sig = self.signature(nrefs) if nrefs is not None else ""
        return TERScore(score, int(edits), float(ref_length), sig)

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> TERScore:
        """Corpus TER from per-segment rows (mean lengths added in segment order, as sacreBLEU does) or
        from one already summed row (exact sum; see the module docstring); invalid statistics (wrong width,
        negative values) are a ValueError naming the column and row."""
        stats = check_statistics(stats, ["edits", "ref_length_scaled"], (), "TER statistics")
        if stats.ndim == 2:
            ref_length = float(np.add.accumulate(self.mean_ref_lengths(stats))[-1]) if len(stats) else 0.0
            return self._score(int(stats[:, 0].sum()), ref_length, nrefs)
        return self._score(int(stats[0]), int(stats[1]) / REF_LENGTH_SCALE, nrefs)

    def sentence_scores(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str]], *, n_jobs: int | None = None
    ) -> TERScores:
        """One sentence TER per segment (same values as ``sentence_score`` in a loop)."""
        seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
        scores = _ter_values(seg.stats[:, 0].astype(np.float64), self.mean_ref_lengths(seg.stats))
        return TERScores(scores, seg.stats, self.signature(nrefs_field(seg.nrefs)))


def _two_columns(rows) -> np.ndarray:
    rows = np.asarray(rows)
    if rows.ndim == 1:
        rows = rows[None, :]
    if rows.shape[1] != 2:
        raise ValueError(f"TER statistics rows must have 2 columns, got {rows.shape[1]}")
    return rows


class TERCounter(MetricCounter):
    """TER's rows (:meth:`TER.count_checked`), several systems against the same references with each
    reference normalized once (not once per system); identical to separate counts."""

    def systems(self, systems: list[list[str]], streams: list, present: np.ndarray) -> list[np.ndarray]:
        metric = self.metric
        if not systems or not len(systems[0]):
            return super().systems(systems, streams, present)
        normalized = metric._normalized_references(streams)
        return [metric._statistics(metric._rows(hyps, streams, present, normalized), present) for hyps in systems]


def corpus_ter(hypotheses: Sequence[str], references: Sequence[Sequence[str]], **options) -> TERScore:
    """Functional shortcut: ``TER(**options).corpus_score(hypotheses, references)``."""
    return TER(**options).corpus_score(hypotheses, references)


def sentence_ter(hypothesis: str, references: Sequence[str], **options) -> TERScore:
    """Functional shortcut: ``TER(**options).sentence_score(hypothesis, references)``."""
    return TER(**options).sentence_score(hypothesis, references)
