"""The one contract every bleuscope metric implements: :class:`Metric` (BLEU, chrF, TER, ...).

A metric turns each segment (a hypothesis and its references) into one int64 **statistics row**, and its
corpus score is a function of the **column sums** of those rows. Everything above the metrics (corpus and
streamed scoring, the process pool, shards and Ray, accumulators, significance tests, the report, the
command line) uses a metric only through this contract, so a new metric plugs in without changes there.

A metric subclasses :class:`Metric` and writes:

* ``name`` (``"BLEU"``, ``"chrF2"``, ``"TER"``) and ``higher_is_better``;
* ``stats_width``: the number of columns of a statistics row;
* ``count_checked(hyps, streams, present)``: the int64 rows ``[S, stats_width]`` of validated input
  (``streams[k][i]`` is reference ``k`` of segment ``i`` or None, ``present`` the bool ``[S, K]`` of the
  references that exist); must be picklable with the metric (worker processes count with it);
* ``score_rows(rows)``: the float64 score of each row, every row a (summed) statistics row;
* ``score_from_statistics(stats, nrefs=None)``: the metric's score object for per-segment rows (summed
  there) or one summed row, with the signature for ``nrefs`` (none when ``nrefs`` is None);
* ``signature_fields(nrefs)``: the settings as ordered ``{key: value}`` (``None`` values are left out),
  ``nrefs`` first (never None: :meth:`Metric.signature` refuses an unknown ``nrefs`` before it asks).

**Rows are integers, so sums are exact in any order.** A value that is not a count is carried as an
integer too: a mean of per-segment floats (CharacTER, EED, ROUGE, METEOR) as fixed-point limbs
(:mod:`bleuscope.metrics.segment_mean`, :mod:`bleuscope.metrics.rouge.scores`), a ratio with a small
denominator as a scaled integer (TER's mean reference length times 720720). Then the corpus score of
shards, streams, worker chunks and Ray partitions is the in-memory one, bit for bit.

It may set, each with a default here so that code above the metrics reads them without probing:
``check_hypotheses`` and ``check_reference_streams`` (the two halves of ``check_inputs``: BLEU adds
sacreBLEU's input warnings, TER its limit of references), ``short_keys`` (short signature names of its own
fields), ``threads`` (the compiled core's threads), the input warnings' settings
(``input_warning_tokenizer``, ``warns_if_tokenized``), ``counter`` (what it counts with, a :class:`Counter`,
built once at construction: ``rows``, ``total``, ``systems``, ``files``; the default counts with
``count_checked``), ``sacrebleu`` (a :class:`SacreBLEUArithmetic`, read only by the significance tests:
sacreBLEU's float32 arithmetic of resampled scores; None unless sacreBLEU has the metric),
``sentence_score_rows`` and ``sentence_scores`` (a batch: a :class:`ScoreBatch`), ``pairwise_checked``
(every hypothesis against every reference, of checked lists), ``token_view()`` (the tokens and n-gram orders
of a metric on BLEU's statistics, or None) and ``input_notes(references, trg_lang)`` (what a reader of the
scores should know about the input).

The base class gives, written once: ``segment_statistics`` (optionally in worker processes),
``corpus_score`` (lists in memory; iterables, open files and paths streamed in bounded memory),
``score_stream``, ``sentence_score``, ``sentence_scores``, ``pairwise``, ``signature``, ``check_inputs``
and ``check_systems`` (several systems against the same references, checked once; ``counter.systems``
counts them).

:class:`SentenceScorer` is the smaller protocol of a scorer that a Ray actor holds (every metric, and
:class:`~bleuscope.metrics.bleu.token_ids.TokenBLEU` over token ids).

**No call history.** A metric object is its settings: scoring never changes it, and ``signature(nrefs)``
depends only on the settings and ``nrefs``. A score carries the signature of the input it was computed
from (``score.signature``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import numpy as np

from ..core import chunks, pool
from ..core.signature import format_signature, nrefs_field
from ..core.stats import SegmentStatistics
from ..core.validation import check_reference_presence, check_references, check_text_list

if TYPE_CHECKING:
    from ..core.chunks import FileCounts
    from ..tokenizers.base import BaseTokenizer


class Metric(ABC):
    """A metric on additive per-segment statistics; see the module docstring for the contract."""

    # What a metric says about itself is read-only: a property here (with its default, if it has one),
    # which a subclass writes as a class attribute (``name = "TER"``) or as a property of its settings
    # (chrF's name, BLEU's input warnings). Only ``threads`` is settable.

    #: threads of the compiled core (None: the metric picks them); a metric without a threaded path ignores it
    threads: int | None = None

    @property
    @abstractmethod
    def name(self) -> str:
        """The metric's name in its scores and signatures (``"BLEU"``, ``"chrF2"``, ``"TER"``)."""

    @property
    def higher_is_better(self) -> bool:
        """Whether a higher score is better (True unless the metric says otherwise: TER, the error rates)."""
        return True

    @property
    def short_keys(self) -> Mapping[str, str]:
        """Short signature names of the metric's own fields (the common ones are in bleuscope.core.signature)."""
        return {}

    @property
    def sacrebleu(self) -> SacreBLEUArithmetic | None:
        """sacreBLEU's arithmetic of this metric's resampled scores, which the significance tests reproduce
        with ``precision="sacrebleu"`` (BLEU, chrF, TER); None (the default): sacreBLEU has no such metric,
        and resamples are scored from exact sums whatever the precision."""
        return None

    @property
    def input_warning_tokenizer(self) -> str:
        """The tokenizer whose name sacreBLEU's CJK input warning judges ("", the default: the metric gives no
        such warning; BLEU and METEOR: their tokenizer's), on every path that reads hypotheses (in memory,
        streamed, systems)."""
        return ""

    @property
    def warns_if_tokenized(self) -> bool:
        """Whether sacreBLEU's tokenized-input warning applies (BLEU unless force=True; False by default)."""
        return False

    # -- what a metric writes ----------------------------------------------------------------------------

    @property
    @abstractmethod
    def stats_width(self) -> int:
        """Columns of a statistics row."""

    @abstractmethod
    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """int64 ``[S, stats_width]`` statistics rows of validated input (see :meth:`check_inputs`)."""

    @abstractmethod
    def score_rows(self, rows: np.ndarray) -> np.ndarray:
        """float64 score of every (summed) statistics row."""

    @abstractmethod
    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None):
        """The score object of per-segment rows (summed) or of one summed row."""

    @abstractmethod
    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """The settings as ordered signature fields, ``nrefs`` first."""

    # -- given by the contract ---------------------------------------------------------------------------
    @property
    def counter(self) -> Counter:
        """What this metric counts with (picklable: what worker processes receive). The default counts
        with :meth:`count_checked`; a built-in metric holds its own, built once with its settings (the
        compiled counter when the engine allows, else its reference)."""
        return MetricCounter(self)

    def __getstate__(self) -> dict:
        """The settings without the compiled objects (``_counter``), which a worker builds again."""
        state = dict(self.__dict__)
        state.pop("_counter", None)
        return state

    def check_inputs(self, hypotheses, references) -> tuple[list, list, np.ndarray]:
        """Validated ``(hypotheses, reference streams, presence [S, K])``: :meth:`check_hypotheses`, then
        :meth:`check_reference_streams`."""
        hyps = self.check_hypotheses(hypotheses)
        return (hyps, *self.check_reference_streams(references, len(hyps)))

    def check_systems(
        self, systems: list, references, names: list[str] | None = None
    ) -> tuple[list[list], list, np.ndarray]:
        """:meth:`check_inputs` of several systems against the same references, the references checked
        once: ``(validated systems, reference streams, presence [S, K])``, what ``counter.systems`` takes.
        Errors name a system by its entry of ``names`` (``system 'name'``), else as ``systems[k]``."""
        labels = [f"system {n!r}" for n in names] if names is not None else [f"systems[{k}]" for k in range(len(systems))]
        if not systems:
            raise ValueError("systems is empty: give at least one system")
        first = self.check_hypotheses(systems[0], labels[0])
        streams, present = self.check_reference_streams(references, len(first))
        checked = [first]
        for k, system in enumerate(systems[1:], 1):
            checked.append(self.check_hypotheses(system, labels[k]))
            if len(checked[k]) != len(first):
                raise ValueError(
                    f"{labels[k]} has {len(checked[k])} segments but {labels[0]} has {len(first)}: every "
                    "system must translate the same segments"
                )
        return checked, streams, present

    def check_hypotheses(self, hypotheses, name: str = "hypotheses") -> list:
        """Validated hypotheses (strings, at least one segment), with the metric's input warnings; errors
        call them ``name``."""
        hyps = check_text_list(hypotheses, name)
        if not hyps:
            raise ValueError(f"{name} is empty: give at least one segment")
        return hyps

    def check_reference_streams(self, references, n_segments: int) -> tuple[list, np.ndarray]:
        """Validated ``(reference streams, presence [S, K])`` for ``n_segments`` hypotheses: strings or None,
        streams of that length, a reference for every segment."""
        streams = check_references(references, n_segments)
        return streams, check_reference_presence(streams)

    def signature(self, nrefs: str | int | None = None, *, short: bool = False) -> str:
        """The settings in sacreBLEU's ``key:value|...`` form for input with ``nrefs`` references per segment
        (a count or ``var``; ``"?"`` when unknown); a ValueError when ``nrefs`` is None (a score's
        ``.signature`` has it)."""
        if nrefs is None:
            raise ValueError("the number of references is unknown: pass nrefs= (a score's .signature has it)")
        return format_signature(self.signature_fields(nrefs), short=short, keys=self.short_keys)

    def sentence_score_rows(self, rows: np.ndarray) -> np.ndarray:
        """float64 sentence-level score of every per-segment row (the metric's ``score_rows``; BLEU scores a
        sentence with effective order, as sacreBLEU's sentence BLEU does)."""
        return np.asarray(self.score_rows(np.atleast_2d(rows)), dtype=np.float64)

    def token_view(self) -> TokenView | None:
        """The tokens and n-gram orders of the statistics, for views of the matched n-grams (the report's
        highlights, n-gram differences and word accuracy), or None (the default: the rows are not BLEU's
        clipped n-gram counts of tokens). BLEU gives its own."""
        return None

    def input_notes(self, references: Sequence, trg_lang: str | None = None) -> list[str]:
        """What a reader of this metric's scores should know about the input (reference streams
        ``references[k][i]``, target language ``trg_lang`` when known): one sentence each, none by default
        (TER: a Chinese, Japanese or Korean target without ``asian_support``)."""
        return []

    def segment_statistics(self, hypotheses, references, *, n_jobs: int | None = None) -> SegmentStatistics:
        """Per-segment statistics rows of validated input (``check_inputs``, then ``count_checked``);
        ``n_jobs`` > 1 (or -1: every CPU) counts chunks in worker processes (identical rows)."""
        hyps, streams, present = self.check_inputs(hypotheses, references)
        if n_jobs is not None:
            stats = pool.statistics_checked(self, hyps, streams, present, n_jobs)
        else:
            stats = self.count_checked(hyps, streams, present)
        return SegmentStatistics(stats=stats, nrefs=present.sum(axis=1).astype(np.int64))

    def corpus_score(self, hypotheses, references, *, n_jobs: int | None = None):
        """Corpus score: the statistics of every segment summed, then scored once. Iterators (generators,
        open files) and paths (:class:`os.PathLike`) among the inputs are read in chunks with bounded memory
        (:meth:`score_stream`); the score is the in-memory one."""
        if chunks.is_streaming_input(hypotheses, references):
            return self.score_stream(hypotheses, references, n_jobs=n_jobs)
        seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
        return self.score_from_statistics(seg.stats, nrefs_field(seg.nrefs))

    def score_stream(
        self,
        hypotheses,
        references,
        *,
        chunk_size: int | None = None,
        encoding: str = "utf-8",
        n_jobs: int | None = None,
    ):
        """Corpus score of streamed input (iterables, open files, paths), read in chunks of ``chunk_size``
        segments with bounded memory (:func:`bleuscope.core.chunks.sum_statistics`)."""
        total = chunks.sum_statistics(
            self, hypotheses, references, chunk_size=chunk_size, encoding=encoding, n_jobs=n_jobs
        )
        return total.score(self)

    def sentence_scores(self, hypotheses, references, *, n_jobs: int | None = None) -> ScoreBatch:
        """The sentence score of every segment (:meth:`sentence_score_rows` of the per-segment rows), as a
        batch: ``.scores`` (float64), ``len``, indexing gives one score object. Every built-in metric
        returns its own batch type with the same values."""
        seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
        return SentenceScores(self.sentence_score_rows(seg.stats), seg.stats, seg.nrefs, self)

    def pairwise(self, hypotheses, references) -> np.ndarray:
        """float64 ``[H, R]``: ``sentence_score(hypotheses[h], [references[r]]).score`` for every pair (the
        lists checked, then :meth:`pairwise_checked`)."""
        return self.pairwise_checked(check_text_list(hypotheses, "hypotheses"), check_text_list(references, "references"))

    def pairwise_checked(self, hyps: list[str], refs: list[str]) -> np.ndarray:
        """:meth:`pairwise` of validated lists of strings, from the rows of the H x R pairs, which are not
        checked again (BLEU: each string tokenized once, pairs counted in the compiled core)."""
        if not hyps or not refs:
            return np.zeros((len(hyps), len(refs)), dtype=np.float64)
        pairs = len(hyps) * len(refs)
        rows = self.count_checked([h for h in hyps for _ in refs], [refs * len(hyps)], np.ones((pairs, 1), dtype=bool))
        return np.asarray(self.score_rows(rows), dtype=np.float64).reshape(len(hyps), len(refs))

    def sentence_score(self, hypothesis: str, references):
        """Score of one hypothesis against its references (a list of strings)."""
        if not isinstance(hypothesis, str):
            raise TypeError(f"hypothesis must be a string, got {type(hypothesis).__name__}")
        refs = check_text_list(references, "references", allow_none=True)
        if not refs:
            raise ValueError("references is empty: give at least one reference string")
        return self.corpus_score([hypothesis], [[r] for r in refs])

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.signature_fields('?')!r})"


def check_metric(metric, what: str = "metric") -> Metric:
    """``metric`` if it follows the contract (an instance of a :class:`Metric` subclass), else a TypeError
    naming ``what``; what a caller above the metrics asks of an argument, never which metric it is."""
    if not isinstance(metric, Metric):
        raise TypeError(
            f"{what} must be a bleuscope metric (BLEU(), CHRF(), TER(), ROUGE(), METEOR() or a subclass of "
            f"bleuscope.metrics.base.Metric), got {type(metric).__name__}"
        )
    return metric


def one_segment(hypothesis, references) -> tuple[list, list]:
    """``(hypotheses, reference streams)`` of one segment for a ``sentence_score`` of a metric that takes a
    string or a token list: the hypothesis and its references checked, each reference its own stream."""
    if not isinstance(hypothesis, (str, list, tuple)):
        raise TypeError(f"hypothesis must be a string or a token list, got {type(hypothesis).__name__}")
    if isinstance(references, str):
        raise TypeError("references must be a list of references (strings or token lists), got a string")
    refs = list(references)
    if not refs:
        raise ValueError("references is empty: give at least one reference")
    return [hypothesis], [[r] for r in refs]


class Counter:
    """What a metric counts with (:attr:`Metric.counter`): validated text -> statistics rows.

    A counter writes ``rows``; ``total`` (one chunk's summed row), ``systems`` (several systems against the
    same references) and ``files`` (plain UTF-8 files read by the counter itself, when ``reads_files``) have
    defaults here that a counter may do faster (BLEU's compiled counter: no per-segment rows, references
    tokenized once, files read without a Python string per line). It must pickle (worker processes count
    with it)."""

    @property
    def reads_files(self) -> bool:
        """Whether :meth:`files` reads files (False, the default: the caller reads them and counts the
        chunks); read-only, a class attribute or a property of the counter's build."""
        return False

    def rows(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """int64 ``[S, stats_width]`` rows of validated input (``streams[k][i]``: reference k of segment i
        or None; ``present`` the bool ``[S, K]`` of the references that exist, when known)."""
        raise NotImplementedError

    def total(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """The summed row ``[stats_width]`` of validated input."""
        return self.rows(hyps, streams, present).sum(axis=0)

    def systems(self, systems: list[list[str]], streams: list, present: np.ndarray) -> list[np.ndarray]:
        """The rows of several systems' validated hypotheses against the same references; identical to
        separate counts."""
        return [self.rows(hyps, streams, present) for hyps in systems]

    def files(
        self, hyp_paths: list[str], ref_paths: list[str], *, max_line_bytes: int, strip_line_ends: bool = False,
        sample_segments: int = 0,
    ) -> FileCounts | None:
        """Only when :attr:`reads_files`: the summed rows of K systems' plain UTF-8 files (one hypothesis
        file per system, one segment a line, every reference line present) against the same reference
        files, or None when it stopped at a problem (the caller's reader then reads them and names it).
        Called through :func:`bleuscope.core.chunks.count_files`, by the library and the command alike."""
        raise NotImplementedError


class MetricCounter(Counter):
    """The default :class:`Counter`: a metric's :meth:`Metric.count_checked`."""

    def __init__(self, metric) -> None:
        self.metric = metric

    def rows(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        return self.metric.count_checked(hyps, streams, present)


class ScoreText:
    """sacreBLEU's text forms of one score, shared by every metric's score type (a frozen dataclass with
    ``score``, ``name`` and, optionally, a ``verbose`` property with the details printed after the score)."""

    if TYPE_CHECKING:  # a field or a property of each score type

        @property
        def score(self) -> float: ...

        @property
        def name(self) -> str: ...

    @property
    def verbose(self) -> str:
        """The details sacreBLEU prints after the score (none unless the metric defines them)."""
        return ""

    def format(self, width: int = 2, score_only: bool = False, signature: str | None = None) -> str:
        """``NAME = SCORE DETAILS``, or ``NAME|SIGNATURE = SCORE DETAILS``, e.g.
        ``BLEU = 48.53 82.4/50.0/45.5/37.5 (BP = 0.943 ...)`` or ``chrF2 = 55.12``."""
        sc = f"{self.score:.{width}f}"
        if score_only:
            return sc
        head = f"{self.name}|{signature}" if signature else self.name
        details = self.verbose
        return f"{head} = {sc} {details}" if details else f"{head} = {sc}"

    def __str__(self) -> str:
        return self.format()

    def __float__(self) -> float:
        return float(self.score)


class ScoreBatch:
    """The one base of a batch of sentence scores (what :meth:`Metric.sentence_scores` returns): a frozen
    dataclass with a float64 ``scores`` array ``[S]`` and a ``__getitem__`` that builds one score object;
    this class gives it ``len``, iteration, ``tolist`` and ``np.asarray(batch)``."""

    scores: np.ndarray

    def __getitem__(self, i: int):  # pragma: no cover - every batch type writes its own
        raise NotImplementedError

    def __len__(self) -> int:
        return len(self.scores)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def tolist(self) -> list[float]:
        return self.scores.tolist()

    def __array__(self, dtype=None, copy=None) -> np.ndarray:
        """The float scores (``np.asarray(batch)``), like a plain array of sentence scores."""
        if copy:
            return np.array(self.scores, dtype=dtype, copy=True)
        return np.asarray(self.scores, dtype=dtype)


@dataclass(frozen=True)
class SentenceScores(ScoreBatch):
    """Sentence scores of a batch from :meth:`Metric.sentence_scores`: ``scores`` float64 [S]; indexing
    gives the metric's score object of one segment."""

    scores: np.ndarray
    stats: np.ndarray  # int64 [S, stats_width]
    nrefs: np.ndarray  # int64 [S]: references present per segment
    metric: Metric

    def __getitem__(self, i: int):
        return self.metric.score_from_statistics(self.stats[i], int(self.nrefs[i]))


@dataclass(frozen=True)
class TokenView:
    """What views of a metric's matched n-grams need (:meth:`Metric.token_view`): the tokenizer and case
    of its tokens, its n-gram orders ``1..max_order`` and the target language. A metric that gives one
    has BLEU's statistics rows (``[hyp_len, ref_len, correct_1..N, total_1..N]``, see
    :mod:`bleuscope.core.stats`) and BLEU's score objects."""

    tokenizer: BaseTokenizer
    lowercase: bool
    max_order: int
    trg_lang: str | None = None


class SacreBLEUArithmetic:
    """How sacreBLEU 2.6.0 scores a metric's resamples (its bootstrap and randomization tests), which only
    :mod:`bleuscope.analysis.significance` reads (``precision="sacrebleu"``): the float32 sums of per-segment
    float32 rows, scored with numpy.float32 arithmetic.

    ``score_rows(sums32)``: float64 scores of float32 sums; ``scores_float32``: sacreBLEU's resampled scores
    are numpy.float32 (chrF, TER: means, half-widths and paired differences in float32); ``statistics``:
    sacreBLEU's float32 per-segment rows when they are not the int64 rows cast (TER's mean reference length),
    None for the cast."""

    def __init__(self, score_rows, *, scores_float32: bool = False, statistics=None) -> None:
        self.score_rows = score_rows
        self.scores_float32 = scores_float32
        self._statistics = statistics

    def statistics(self, stats: np.ndarray) -> np.ndarray | None:
        """sacreBLEU's float32 rows of ``stats`` when they are not the rows cast, else None."""
        return None if self._statistics is None else self._statistics(stats)


class SentenceScorer(Protocol):
    """A scorer a Ray actor holds (:class:`bleuscope.runtime.ray.Scorer`): every :class:`Metric` and
    :class:`~bleuscope.metrics.bleu.token_ids.TokenBLEU`. ``sentence_scores`` returns float scores, array-like
    (a :class:`ScoreBatch` or a float64 array); ``threads`` is settable."""

    threads: int | None

    def sentence_scores(self, hypotheses, references, **options): ...

    def corpus_score(self, hypotheses, references, **options): ...


__all__ = [
    "Counter",
    "MetricCounter",
    "Metric",
    "ScoreBatch",
    "ScoreText",
    "SegmentStatistics",
    "SacreBLEUArithmetic",
    "SentenceScorer",
    "SentenceScores",
    "TokenView",
    "check_metric",
]
