"""The edit rates WER, CER, MER, WIL and WIP with jiwer 4.0.0's numbers, on additive integer statistics.

A segment's statistics row is ``[hits, substitutions, deletions, insertions, reference length, hypothesis
length]``: the counts of rapidfuzz's alignment of the reference to the hypothesis (the one jiwer 4.0.0
takes; :mod:`.alignment` says which of the optimal alignments that is, and the compiled core gives the same
rows). Rows add up, so the corpus score of shards, streams, worker processes and resamples is that of a
single pass, and it is the **corpus** rate (a ratio of sums, what jiwer, HF evaluate, torchmetrics and NeMo
report), never the mean of sentence rates (``sentence_scores(...).scores.mean()`` gives that):

* WER = (S + D + I) / (H + S + D); CER is WER over characters;
* MER = (S + D + I) / (H + S + D + I);
* WIP = (H / reference length) * (H / hypothesis length); WIL = 1 - WIP.

``average="segments"`` gives the other number users report, the **mean of the segment rates**
(``statistics.mean(jiwer.wer(r, h) for ...)``, correctly rounded once), still on additive rows: each row
gains ``[1, the rate's integer part, its fraction as three fixed-point limbs]`` (:mod:`..segment_mean`'s
exact sums), so shards, streams and resamples give the mean of a single pass. The signature says which
(``avg:corpus`` or ``avg:segments``); a segment whose rate is not finite (an empty reference under a profile
that gives NaN, inf or an error) has no mean and is refused.

A score's ``rate`` is the fraction every one of those tools gives (0.25, ``==`` jiwer's float); its
``score`` is ``100 * rate``, on the 0-100 scale of bleuscope's other metrics (what the command line, the
report and the significance tests show).

**Profiles** (``profile=``, named in the signature) say how text becomes tokens and what an empty reference
gives, for the numbers of each tool:

* ``jiwer`` (the default): jiwer 4.0.0's ``wer_default`` / ``cer_default`` (:mod:`.units`); references
  that are all empty give WER = CER = the number of insertions, MER 0 (1 with a non-empty hypothesis),
  WIP 1 (0), WIL 1 - WIP;
* ``hf-evaluate``: HF evaluate's ``wer`` and ``cer`` modules under jiwer 4 (per pair, counts summed): jiwer's
  numbers, and an error when the references are all empty (the module divides by zero);
* ``hf-evaluate-jiwer3``: the same modules under jiwer 3: WER as jiwer, CER with runs of whitespace
  collapsed first; an empty reference is an error (jiwer 3 refuses it);
* ``torchmetrics``: torchmetrics' ``WordErrorRate`` / ``CharErrorRate``: words of ``str.split()``, every
  character; all-empty references give NaN (0 / 0);
* ``nemo``: NeMo's ``word_error_rate`` (``use_cer`` for CER): tokens as torchmetrics, all-empty references
  give ``inf``.

MER, WIL and WIP are defined by the ``jiwer`` and ``hf-evaluate*`` profiles only.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core import native
from ...core.native import wer as native_wer
from ...core.signature import nrefs_field, version_field
from ...core.stats import SegmentStatistics, check_statistics
from ..base import Metric, ScoreBatch, ScoreText
from ..rouge.scores import LIMBS, SCALE_BITS, check_fixed_point, limb_total, to_limbs
from . import alignment
from .units import tokens

COLUMNS = ["hits", "substitutions", "deletions", "insertions", "ref_length", "hyp_length"]
#: the columns ``average="segments"`` adds: the segment count, the rate's integer part, its fraction's limbs
MEAN_COLUMNS = ["segments", "rate_int", "rate_frac_hi", "rate_frac_mid", "rate_frac_lo"]
AVERAGES = ("corpus", "segments")


@dataclass(frozen=True)
class Profile:
    """How one tool tokenizes and treats empty references (see the module docstring)."""

    name: str
    word_units: str
    char_units: str
    #: what references that are all empty give: "jiwer" (jiwer 4's values), "error", "nan", "inf"
    empty: str
    #: an empty reference of a single segment is an error (jiwer 3)
    refuses_empty_segment: bool = False
    #: the measures the tool defines
    measures: tuple[str, ...] = ("wer", "mer", "wil", "wip")


PROFILES = {
    p.name: p
    for p in (
        Profile("jiwer", "jiwer-words", "jiwer-chars", "jiwer"),
        Profile("hf-evaluate", "jiwer-words", "jiwer-chars", "error"),
        Profile("hf-evaluate-jiwer3", "jiwer-words", "collapsed-chars", "error", refuses_empty_segment=True),
        Profile("torchmetrics", "split-words", "raw-chars", "nan", measures=("wer",)),
        Profile("nemo", "split-words", "raw-chars", "inf", measures=("wer",)),
    )
}


@dataclass(frozen=True)
class EditRateScore(ScoreText):
    """One edit rate with the counts it comes from: ``rate`` the fraction (jiwer's), ``score`` = 100 x rate."""

    score: float
    rate: float
    hits: int
    substitutions: int
    deletions: int
    insertions: int
    ref_length: int
    hyp_length: int
    signature: str = ""
    name: str = field(default="WER")

    @property
    def verbose(self) -> str:
        return (f"(H = {self.hits} S = {self.substitutions} D = {self.deletions} I = {self.insertions} "
                f"ref_len = {self.ref_length} hyp_len = {self.hyp_length})")

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "rate": self.rate, "hits": self.hits, "substitutions": self.substitutions,
                "deletions": self.deletions, "insertions": self.insertions, "ref_length": self.ref_length,
                "hyp_length": self.hyp_length, "signature": self.signature}


@dataclass(frozen=True)
class EditRateScores(ScoreBatch):
    """Sentence edit rates of a batch: ``scores`` (100 x ``rates``), and an :class:`EditRateScore` per segment
    on indexing."""

    scores: np.ndarray  # float64 [S]: 100 x rates
    rates: np.ndarray  # float64 [S]: the fractions
    stats: np.ndarray  # int64 [S, 6] (or [S, 11] with average="segments")
    signature: str = ""
    name: str = "WER"

    def __getitem__(self, i: int) -> EditRateScore:
        hits, subs, dels, ins, ref_len, hyp_len = map(int, self.stats[i, :6])
        return EditRateScore(100 * float(self.rates[i]), float(self.rates[i]), hits, subs, dels, ins, ref_len,
                             hyp_len, self.signature, self.name)


def rates(measure: str, rows: np.ndarray, empty: str) -> np.ndarray:
    """float64 ``measure`` ("wer", "mer", "wil", "wip") of every summed row, jiwer's arithmetic; rows whose
    reference length is 0 follow ``empty`` ("jiwer": jiwer 4's values; "nan"; "inf"; "error": NaN here,
    the callers refuse such input)."""
    rows = np.asarray(rows, dtype=np.int64)[..., :6].reshape(-1, 6)
    h, s, d, i, nr, nh = (rows[:, k].astype(np.float64) for k in range(6))
    errors = s + d + i
    with np.errstate(divide="ignore", invalid="ignore"):
        if measure == "wer":
            value = errors / (h + s + d)
            fallback = i if empty == "jiwer" else np.full_like(i, np.inf if empty == "inf" else np.nan)
        elif measure == "mer":
            value = errors / (h + s + d + i)
            fallback = np.where(nh == 0, 0.0, 1.0)
        else:
            wip = np.where(nh >= 1, (h / nr) * (h / nh), 0.0)
            fallback = np.where(nh == 0, 1.0, 0.0)
            value, fallback = (wip, fallback) if measure == "wip" else (1 - wip, 1 - fallback)
    if empty != "jiwer" and measure != "wer":
        fallback = np.full_like(fallback, np.nan)
    return np.where(nr > 0, value, fallback)


class EditRate(Metric):
    """An edit rate over words or characters (:class:`WER`, :class:`CER`, :class:`MER`, :class:`WIL`,
    :class:`WIP`) with one reference per segment. ``profile``: whose numbers; ``average``: ``"corpus"``
    (the ratio of the corpus sums, the default) or ``"segments"`` (the mean of the segment rates; module
    docstring); ``engine``/``threads`` as every metric's."""

    name = "WER"
    measure = "wer"
    characters = False
    higher_is_better = False
    short_keys = {"profile": "p", "tok": "t", "avg": "a"}

    threads = native.ThreadsOption()

    def __init__(self, *, profile: str = "jiwer", average: str = "corpus", engine: str = "auto",
                 threads: int | None = None) -> None:
        if not isinstance(average, str) or average not in AVERAGES:
            raise ValueError(f"average must be 'corpus' (the ratio of the corpus sums) or 'segments' (the mean of "
                             f"the segment rates), got {average!r}")
        self.average = average
        if not isinstance(profile, str) or profile not in PROFILES:
            raise ValueError(f"profile must be one of {', '.join(PROFILES)}, got {profile!r}")
        self.profile = PROFILES[profile]
        if self.measure not in self.profile.measures:
            raise ValueError(f"profile {profile!r} has no {self.name} (it defines {', '.join(m.upper() for m in self.profile.measures)})")
        self.engine = native.check_engine(engine)
        self.threads = threads
        self.units = self.profile.char_units if self.characters else self.profile.word_units
        self._compiled()  # built once (again only when threads are set)

    def _compiled(self):
        """The compiled aligner (None: the plain-Python engine, or no compiled core)."""
        if "_counter" not in self.__dict__:
            build = native.resolve_engine(self.engine) == "native"
            self.__dict__["_counter"] = native_wer.edit_aligner(self.units, self.threads) if build else None
        return self.__dict__["_counter"]

    @property
    def stats_width(self) -> int:
        """6 columns (the counts), 11 with ``average="segments"`` (the counts and the mean's columns)."""
        return len(COLUMNS) + (len(MEAN_COLUMNS) if self.average == "segments" else 0)

    @property
    def columns(self) -> list[str]:
        """The names of a statistics row's columns."""
        return COLUMNS + (MEAN_COLUMNS if self.average == "segments" else [])

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:1|profile:jiwer|tok:jiwer-words|avg:corpus|version:bleuscope-...``: ``avg:corpus`` says the
        score is the ratio of the corpus sums, ``avg:segments`` the mean of the segment rates."""
        return {"nrefs": None if nrefs is None else str(nrefs), "profile": self.profile.name, "tok": self.units,
                "avg": self.average, "version": version_field()}

    def segment_statistics(self, hypotheses, references, *, n_jobs: int | None = None) -> SegmentStatistics:
        """Per-segment statistics rows (:meth:`Metric.segment_statistics`). Lists of strings go to the compiled
        core unchecked: it checks the items while it reads them, on one thread while the others count (the
        checks here would be a pass over every item before any thread counts); where it refuses an item,
        the checked path names it."""
        if n_jobs is None:
            rows = self._unchecked_rows(hypotheses, references)
            if rows is not None:
                return SegmentStatistics(stats=rows, nrefs=np.ones(len(rows), dtype=np.int64))
        return super().segment_statistics(hypotheses, references, n_jobs=n_jobs)

    def _unchecked_rows(self, hypotheses, references) -> np.ndarray | None:
        """The compiled core's rows of a list of hypotheses and one list of references whose items are not
        checked yet; None where the checked path decides (other containers, a refused item, a missing
        or, with a profile that refuses them, an empty reference)."""
        aligner = self._compiled()
        if aligner is None or type(hypotheses) is not list or not hypotheses:
            return None
        if type(references) not in (list, tuple) or len(references) != 1:
            return None
        refs = references[0]
        if type(refs) is not list or len(refs) != len(hypotheses):
            return None
        try:
            rows = aligner.counts(refs, hypotheses)
        except (TypeError, ValueError):
            return None
        if rows is None or (self.profile.refuses_empty_segment and not rows[:, 4].all()):
            return None
        return self.with_mean_columns(rows) if self.average == "segments" else rows

    def check_reference_streams(self, references, n_segments: int) -> tuple[list, np.ndarray]:
        """One reference stream, a reference for every segment."""
        streams, present = super().check_reference_streams(references, n_segments)
        if len(streams) != 1:
            raise ValueError(f"{self.name} takes one reference per segment (one reference stream), got {len(streams)} streams")
        return streams, present

    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """Statistics rows ``[H, S, D, I, reference length, hypothesis length]`` of validated input."""
        refs = streams[0]
        aligner = self._compiled()
        rows = aligner.counts(refs, hyps) if aligner is not None and len(hyps) else None
        if rows is None:
            rows = np.array([alignment.counts(tokens(r, self.units), tokens(h, self.units)) for r, h in zip(refs, hyps)],
                            dtype=np.int64).reshape(-1, 6)
        if self.profile.refuses_empty_segment and len(rows) and not rows[:, 4].all():
            bad = int(np.flatnonzero(rows[:, 4] == 0)[0])
            raise ValueError(f"references[{bad}] is empty, which profile {self.profile.name!r} refuses (jiwer 3 raises on it)")
        return self.with_mean_columns(rows) if self.average == "segments" else rows

    def with_mean_columns(self, rows: np.ndarray) -> np.ndarray:
        """``rows`` (the counts, ``[S, 6]``) with the columns of the mean of the segment rates appended: the
        segment count 1, the rate's integer part and its fraction's fixed-point limbs (exact: a float64's
        fraction is a multiple of 2**-90 down to rates of 2**-38)."""
        values = rates(self.measure, rows, self.profile.empty)
        bad = np.flatnonzero(~np.isfinite(values))
        if bad.size:
            i = int(bad[0])
            raise ValueError(f"references[{i}] is empty: its {self.name} under profile {self.profile.name!r} is "
                             f"{'an error' if self.profile.empty == 'error' else values[i]}, so the mean of the "
                             "segment rates is undefined (average='corpus' gives the corpus rate)")
        whole = np.floor(values)
        out = np.empty((len(rows), self.stats_width), dtype=np.int64)
        out[:, :6] = rows
        out[:, 6] = 1
        out[:, 7] = whole.astype(np.int64)
        out[:, 8:] = to_limbs(values - whole).reshape(len(rows), LIMBS)  # exact: removes the integer part
        return out

    def mean_rates(self, rows: np.ndarray) -> np.ndarray:
        """float64 mean rate of every summed row with the mean's columns: exact, rounded once."""
        out = np.empty(len(rows), dtype=np.float64)
        for k, row in enumerate(rows.tolist()):
            count, whole, hi, mid, lo = row[6:]
            out[k] = ((whole << SCALE_BITS) + limb_total(hi, mid, lo)) / (count << SCALE_BITS) if count > 0 else 0.0
        return out

    def score_rows(self, rows: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """float64 score (100 x rate) of every summed statistics row (``float32`` is ignored: no sacreBLEU
        counterpart)."""
        rows = np.asarray(rows)
        if rows.ndim == 1:
            rows = rows[None, :]
        if rows.shape[1] != self.stats_width:
            raise ValueError(f"{self.name} statistics rows must have {self.stats_width} columns "
                             f"({', '.join(self.columns)}), got {rows.shape[1]}")
        if self.average == "segments":
            return 100 * self.mean_rates(np.asarray(rows, dtype=np.int64))
        return 100 * rates(self.measure, rows, self.profile.empty)

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> EditRateScore:
        """The corpus rate of per-segment rows (summed) or of one summed row; invalid statistics are a
        ValueError naming the column and row."""
        what = f"{self.name} statistics"
        stats = check_statistics(stats, self.columns, (), what)
        total = stats.sum(axis=0) if stats.ndim == 2 else stats
        total = np.asarray(total, dtype=np.int64)
        if self.average == "segments":
            check_fixed_point(np.asarray(stats, dtype=np.int64).reshape(-1, self.stats_width), 6, [8], self.columns,
                              what)
            if total[6] <= 0:
                raise ValueError(f"the mean of {self.name}'s segment rates needs at least one segment")
            rate = float(self.mean_rates(total[None, :])[0])
        elif self.profile.empty == "error" and total[4] == 0:
            raise ValueError(f"the references are all empty: profile {self.profile.name!r} has no {self.name} for them "
                             "(HF evaluate divides by zero)")
        else:
            rate = float(rates(self.measure, total, self.profile.empty)[0])
        sig = self.signature(nrefs) if nrefs is not None else ""
        hits, subs, dels, ins, ref_len, hyp_len = map(int, total[:6])
        return EditRateScore(100 * rate, rate, hits, subs, dels, ins, ref_len, hyp_len, sig, self.name)

    def sentence_scores(self, hypotheses, references, *, n_jobs: int | None = None) -> EditRateScores:
        """The rate of every segment (one reference each), as a batch."""
        seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
        values = rates(self.measure, seg.stats, self.profile.empty)
        return EditRateScores(100 * values, values, seg.stats, self.signature(nrefs_field(seg.nrefs)), self.name)


class WER(EditRate):
    """Word error rate, (S + D + I) / (H + S + D), jiwer 4.0.0's by default (see the module docstring)."""

    name = "WER"
    measure = "wer"


class CER(EditRate):
    """Character error rate: WER over characters (jiwer's ``cer_default`` by default)."""

    name = "CER"
    measure = "wer"
    characters = True


class MER(EditRate):
    """Match error rate, (S + D + I) / (H + S + D + I)."""

    name = "MER"
    measure = "mer"


class WIL(EditRate):
    """Word information lost, 1 - WIP."""

    name = "WIL"
    measure = "wil"


class WIP(EditRate):
    """Word information preserved, (H / reference length) * (H / hypothesis length)."""

    name = "WIP"
    measure = "wip"
    higher_is_better = True


def corpus_wer(hypotheses: Sequence[str], references: Sequence[str], **options) -> EditRateScore:
    """``WER(**options).corpus_score(hypotheses, [references])``: one reference per hypothesis."""
    return WER(**options).corpus_score(hypotheses, [references])


def corpus_cer(hypotheses: Sequence[str], references: Sequence[str], **options) -> EditRateScore:
    """``CER(**options).corpus_score(hypotheses, [references])``: one reference per hypothesis."""
    return CER(**options).corpus_score(hypotheses, [references])
