"""ROUGE with rouge-score 0.1.2's definitions (Google's ``rouge_score.rouge_scorer``), on exact additive rows.

``ROUGE(types=("rouge1", "rouge2", "rougeL", "rougeLsum"), use_stemmer=False, tokenizer="default")``.
Each (hypothesis, reference) pair gives, per type, ``(matches, hyp_count, ref_count)`` (see
:mod:`.reference`), and from those rouge-score's precision, recall and F (:func:`.scores.prf`). With several
references a segment keeps, per type, the reference with the best F (the first on ties): rouge-score's
``score_multi``.

The corpus score is the **mean** over segments of each type's precision, recall and F (what HF ``evaluate``
reports with ``use_aggregator=False`` followed by a mean; rouge-score's own ``BootstrapAggregator`` reports
the median of 1,000 resampled means instead, a random number: :meth:`ROUGE.bootstrap_aggregate` reproduces
it). The statistics row of a segment is ``[1, then per type the limbs of P, R, F]`` (``1 + 9 * len(types)``
int64 columns; :mod:`.scores` says why fixed-point limbs): rows sum exactly, so shards, streams, the
process pool and the significance tests see the same means as a single pass.

``score`` (and ``score_rows``, what the significance tests resample) is 100 x the mean F of the *first*
type, on the 0-100 scale of BLEU, chrF and TER; ``precision`` / ``recall`` / ``fmeasure`` keep rouge-score's
0-1 scale per type.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core import native
from ...core.chunks import CHUNK_SEGMENTS
from ...core.native import rouge as native_rouge
from ...core.signature import nrefs_field, version_field
from ...core.stats import check_statistics
from ...core.validation import (
    check_bool,
    check_reference_items,
    check_reference_presence,
    check_references,
    check_text_list,
)
from ..base import Metric, ScoreBatch, ScoreText
from . import reference
from .scores import LIMBS, AggregateScore, Score, check_fixed_point, exact_mean, prf, to_limbs
from .tokenize import TOKENIZERS, tokenize

#: the share of the references' letters outside ASCII from which the library warns that the default tokenizer
#: drops them (other scripts: Cyrillic, CJK, Arabic, ...; accented Latin text stays far below it)
FOREIGN_LETTER_WARNING_SHARE = 0.5


def _foreign_letter_share(streams: list) -> float:
    """The share of letters outside ASCII in the first 200 lines of the first reference stream."""
    letters = foreign = 0
    for line in streams[0][:200] if streams else ():
        if isinstance(line, str):
            for c in line:
                if c.isalpha():
                    letters += 1
                    foreign += not c.isascii()
    return foreign / letters if letters else 0.0


class RougeTokenizerWarning(UserWarning):
    """The default tokenizer (rouge-score's ``[a-z0-9]`` runs) drops most of the references' letters: text in
    another script scores 0 even against itself. ``ROUGE(tokenizer="unicode")`` keeps them."""


#: the most hypothesis tokens x reference tokens ROUGE-L and ROUGE-Lsum take in one segment: the longest
#: common subsequence takes time in that product (10^11, e.g. two texts of 316,000 tokens: a few seconds in
#: the compiled core); a longer pair is refused rather than counted for hours
MAX_LCS_TOKEN_PAIRS = 10**11

DEFAULT_TYPES = ("rouge1", "rouge2", "rougeL", "rougeLsum")


_TYPE_RE = re.compile(r"rouge[1-9]|rougeL|rougeLsum")


def check_types(types) -> tuple[str, ...]:
    """ROUGE type names as a tuple: ``rouge1`` .. ``rouge9``, ``rougeL``, ``rougeLsum``."""
    if isinstance(types, str):
        types = (types,)
    try:
        out = tuple(types)
    except TypeError:
        raise TypeError(f"types must be a list of ROUGE type names, got {type(types).__name__}") from None
    if not out:
        raise ValueError("types is empty: give at least one ROUGE type (e.g. 'rouge1')")
    for t in out:
        if not isinstance(t, str) or not _TYPE_RE.fullmatch(t):
            raise ValueError(f"unknown ROUGE type {t!r}; expected rouge1 .. rouge9, rougeL or rougeLsum")
    if len(set(out)) != len(out):
        raise ValueError(f"types has a repeated ROUGE type: {list(out)}")
    return out


def type_label(rouge_type: str) -> str:
    """``ROUGE-1``, ``ROUGE-L``, ``ROUGE-Lsum``."""
    return "ROUGE-" + rouge_type[5:]


@dataclass(frozen=True)
class ROUGEScore(ScoreText):
    """Corpus ROUGE: the mean precision, recall and F of each type (0-1), and ``score`` = 100 x the mean F
    of the first type."""

    score: float
    types: tuple[str, ...]
    precision: dict[str, float]
    recall: dict[str, float]
    fmeasure: dict[str, float]
    signature: str = ""
    name: str = field(default="ROUGE-1")

    def __getitem__(self, rouge_type: str) -> Score:
        return Score(self.precision[rouge_type], self.recall[rouge_type], self.fmeasure[rouge_type])

    @property
    def verbose(self) -> str:
        """``(P/R/F: rouge1 45.00/40.00/42.35 rougeL ...)`` on the 0-100 scale."""
        parts = [
            f"{t} {100 * self.precision[t]:.2f}/{100 * self.recall[t]:.2f}/{100 * self.fmeasure[t]:.2f}"
            for t in self.types
        ]
        return "(P/R/F: " + " ".join(parts) + ")"

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "signature": self.signature,
                **{t: dict(self[t]._asdict()) for t in self.types}}


@dataclass(frozen=True)
class ROUGEScores(ScoreBatch):
    """Sentence ROUGE of a batch: ``prf`` float64 ``[S, T, 3]`` (rouge-score's values of the best reference
    per type), ``counts`` int64 ``[S, T, 3]`` (matches, hyp_count, ref_count of that reference), ``scores``
    = 100 x F of the first type."""

    scores: np.ndarray
    prf: np.ndarray
    counts: np.ndarray
    types: tuple[str, ...]
    signature: str = ""
    name: str = "ROUGE-1"

    def __getitem__(self, i: int) -> ROUGEScore:
        row = self.prf[i]
        return ROUGEScore(
            float(self.scores[i]), self.types,
            {t: float(row[k, 0]) for k, t in enumerate(self.types)},
            {t: float(row[k, 1]) for k, t in enumerate(self.types)},
            {t: float(row[k, 2]) for k, t in enumerate(self.types)},
            self.signature, self.name,
        )

    def score_dicts(self) -> list[dict[str, Score]]:
        """rouge-score's result shape: one ``{type: Score}`` dict per segment."""
        return [
            {t: Score(*(float(x) for x in row[k])) for k, t in enumerate(self.types)} for row in self.prf
        ]


class ROUGE(Metric):
    """ROUGE scorer with rouge-score 0.1.2's numbers (all options keyword-only but ``types``).

    ``use_stemmer``: NLTK's Porter stemmer on tokens longer than three characters (rouge-score's option).
    ``tokenizer``: ``"default"`` (rouge-score's: ``[a-z0-9]`` runs after lowercasing), ``"unicode"`` or
    ``"unicode-cjk"`` (see :mod:`bleuscope.metrics.rouge.tokenize`; recorded in the signature, and not
    comparable with rouge-score). ``engine``: ``"auto"`` (the compiled core when built), ``"native"`` or
    ``"numpy"`` (the reference implementation in Python, as for every metric). ``threads``: threads of the
    compiled core (None: it picks a count for the input size, one below 2,000 segments); the counts do not
    depend on it.
    """

    higher_is_better = True
    #: threads of the compiled core (None: it picks a count for the input size); also settable later
    threads = native.ThreadsOption()

    def __init__(
        self,
        types: Sequence[str] = DEFAULT_TYPES,
        *,
        use_stemmer: bool = False,
        tokenizer: str = "default",
        engine: str = "auto",
        threads: int | None = None,
    ) -> None:
        self.types = check_types(types)
        self.use_stemmer = check_bool(use_stemmer, "use_stemmer")
        if tokenizer not in TOKENIZERS:
            raise ValueError(f"unknown ROUGE tokenizer {tokenizer!r}; expected one of {', '.join(TOKENIZERS)}")
        self.tokenizer = tokenizer
        self.engine = native.check_engine(engine)
        self.threads = threads
        self._ngram = np.array([t[5:].isdigit() for t in self.types])
        self.compiled_counter()  # built once, with the settings (again only when threads are set)

    def compiled_counter(self):
        """The compiled ROUGE counter of these settings (None: the reference engine, or no compiled core);
        with a tokenizer other than rouge-score's, Python tokenizes (and stems) and the counter reads the
        tokens."""
        if "_counter" not in self.__dict__:
            pretokenized = self.tokenizer != "default"
            build = native.resolve_engine(self.engine) == "native"
            self.__dict__["_counter"] = native_rouge.rouge_counter(
                self.types, stem=self.use_stemmer and not pretokenized, pretokenized=pretokenized,
                threads=self.threads) if build else None
        return self.__dict__["_counter"]

    @property
    def name(self) -> str:
        return type_label(self.types[0])

    @property
    def stats_width(self) -> int:
        return 1 + 3 * LIMBS * len(self.types)

    # -- signature -------------------------------------------------------------------------------------
    #: the short signature names of ROUGE's fields
    short_keys = {"types": "t", "stem": "s", "agg": "a"}

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:1|types:rouge1,rouge2,rougeL,rougeLsum|stem:no|tok:default|agg:mean|version:...``."""
        return {
            "nrefs": str(nrefs),
            "types": ",".join(self.types),
            "stem": "yes" if self.use_stemmer else "no",
            "tok": self.tokenizer,
            "agg": "mean",
            "version": version_field(),
        }

    def input_notes(self, references: Sequence, trg_lang: str | None = None) -> list[str]:
        """A note when rouge-score's ASCII-only tokenizer meets a target whose words hold other letters
        (accented Latin, other scripts): it drops those letters, so different words can count as equal."""
        if self.tokenizer != "default" or not references:
            return []
        words = [w for line in references[0][:2000] if line is not None for w in line.split()]
        if not words:
            return []
        other = sum(1 for w in words if any(c.isalpha() and not c.isascii() for c in w))
        if other < max(1, 0.01 * len(words)):
            return []
        return [f"ROUGE's default tokenizer (rouge-score's) keeps only a-z and 0-9: {100 * other / len(words):.0f}% "
                "of the reference words hold other letters, which are dropped (ROUGE-1 of 'Größe' against 'Grüße' is "
                "100; a word in another script is no token at all); the Unicode tokenizer (--rouge-tokenize "
                "unicode, ROUGE(tokenizer='unicode')) keeps them"]

    def check_reference_streams(self, references, n_segments: int):
        """The base checks, then :class:`RougeTokenizerWarning` when the default tokenizer would drop most of
        the references' letters (text in another script)."""
        streams, present = super().check_reference_streams(references, n_segments)
        share = _foreign_letter_share(streams) if self.tokenizer == "default" else 0.0
        if share >= FOREIGN_LETTER_WARNING_SHARE:
            from ...core.checks import caller_stacklevel

            warnings.warn(
                f"ROUGE's default tokenizer (rouge-score's) keeps only a-z and 0-9: {share:.0%} of the references' "
                "letters are other letters, which it drops (a word in another script is no token at all: such "
                "text scores 0 even against itself); ROUGE(tokenizer='unicode') keeps them",
                RougeTokenizerWarning,
                stacklevel=caller_stacklevel(),
            )
        return streams, present

    # -- counting --------------------------------------------------------------------------------------
    def pair_counts(self, hyps: list[str], streams: list[list], present: np.ndarray) -> np.ndarray:
        """int64 ``[S, K, T, 3]``: (matches, hyp_count, ref_count) of every hypothesis against each of its K
        references, per type (zero for absent references)."""
        return self._counts(hyps, streams, present, best=False)

    def _counts(self, hyps: list, streams: list, present: np.ndarray, *, best: bool):
        """The engine's counts: the compiled core's when the engine allows and it counts this input, else
        the reference implementation's. :meth:`pair_counts`, or with ``best`` :meth:`chunk_values`."""
        self._check_lcs_sizes(hyps, streams, present)
        if self.engine != "numpy":
            from .native import native_pair_counts

            out = native_pair_counts(self, hyps, streams, present, required=self.engine == "native", best=best)
            if out is not None:
                return out[:2] if best else out
        counts = self.python_pair_counts(hyps, streams, present)
        return self.best_counts(counts, present) if best else counts

    def _check_lcs_sizes(self, hyps: list, streams: list, present: np.ndarray) -> None:
        """ValueError for a segment beyond :data:`MAX_LCS_TOKEN_PAIRS` when a type is ROUGE-L/Lsum (characters
        bound the tokens: only pairs whose characters pass the bound are tokenized to count)."""
        if not any(t in ("rougeL", "rougeLsum") for t in self.types):
            return
        hyp_chars = np.fromiter(map(len, hyps), dtype=np.int64, count=len(hyps))
        for stream in streams:
            ref_chars = np.fromiter((0 if r is None else len(r) for r in stream), dtype=np.int64, count=len(stream))
            for i in np.flatnonzero(hyp_chars * ref_chars > MAX_LCS_TOKEN_PAIRS):
                n_hyp, n_ref = (len(tokenize(x, self.tokenizer)) if isinstance(x, str) else len(x)
                                for x in (hyps[i], stream[i]))
                if n_hyp * n_ref > MAX_LCS_TOKEN_PAIRS:
                    raise ValueError(
                        f"ROUGE-L: a segment has {n_hyp:,} hypothesis and {n_ref:,} reference tokens; the longest "
                        f"common subsequence takes time in their product, and more than 10^11 is refused "
                        "(split the documents, or score rouge1/rouge2 alone)"
                    )

    def python_pair_counts(self, hyps: list[str], streams: list[list], present: np.ndarray) -> np.ndarray:
        """:meth:`pair_counts` by the reference implementation (:mod:`.reference`)."""
        n_seg, n_ref = present.shape
        out = np.zeros((n_seg, n_ref, len(self.types), 3), dtype=np.int64)
        for i, hyp in enumerate(hyps):
            for k in range(n_ref):
                if present[i, k]:
                    out[i, k] = reference.pair_counts(streams[k][i], hyp, self.types, self.tokenizer,
                                                      self.use_stemmer)
        return out

    def best_counts(self, counts: np.ndarray, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Per segment and type, the counts and (P, R, F) of the reference with the best F (ties: the first),
        as rouge-score's ``score_multi``: ``([S, T, 3] int64, [S, T, 3] float64)``."""
        values = prf(counts, self._ngram[None, None, :])
        n_seg, n_ref = present.shape
        if n_ref == 1:
            return counts[:, 0], values[:, 0]
        f = np.where(present[:, :, None], values[..., 2], -np.inf)
        best = np.argmax(f, axis=1)  # [S, T]
        seg = np.arange(n_seg)[:, None]
        typ = np.arange(len(self.types))[None, :]
        return counts[seg, best, typ], values[seg, best, typ]

    def chunk_values(self, hyps: list, streams: list, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(counts [S, T, 3], prf [S, T, 3])`` of validated input: each segment's best reference per type,
        chosen in the compiled core (no ``[S, K, T, 3]`` counts), else as :meth:`best_counts` does."""
        return self._counts(hyps, streams, present, best=True)

    def segment_values(self, hyps: list, streams: list, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(counts [S, T, 3], prf [S, T, 3])`` of validated input, in chunks of bounded memory."""
        counts, values = [], []
        for a in range(0, len(hyps), CHUNK_SEGMENTS):
            b = min(len(hyps), a + CHUNK_SEGMENTS)
            c, v = self.chunk_values(hyps[a:b], [s[a:b] for s in streams], present[a:b])
            counts.append(c)
            values.append(v)
        if not counts:
            t = len(self.types)
            return np.zeros((0, t, 3), dtype=np.int64), np.zeros((0, t, 3))
        return np.concatenate(counts), np.concatenate(values)

    def rows_of_values(self, values: np.ndarray) -> np.ndarray:
        """Statistics rows ``[S, 1 + 9T]`` of per-segment (P, R, F) values ``[S, T, 3]``."""
        n_seg = values.shape[0]
        limbs = to_limbs(values).reshape(n_seg, -1)
        return np.concatenate([np.ones((n_seg, 1), dtype=np.int64), limbs], axis=1)

    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """Statistics rows of already validated input."""
        if present is None:
            present = check_reference_presence(streams)
        return self.rows_of_values(self.segment_values(hyps, streams, present)[1])

    # -- scores ----------------------------------------------------------------------------------------
    def means(self, total: np.ndarray) -> np.ndarray:
        """float64 ``[T, 3]`` mean (P, R, F) per type of one summed row (exact, rounded once)."""
        total = np.asarray(total, dtype=np.int64)
        if total.shape != (self.stats_width,):
            raise ValueError(f"ROUGE statistics rows must have {self.stats_width} columns, got {total.shape}")
        limbs = total[1:].reshape(len(self.types), 3, LIMBS)
        return np.array([[exact_mean(limbs[t, v], total[0]) for v in range(3)] for t in range(len(self.types))])

    def score_rows(self, rows: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """float64 100 x mean F of the first type per row of (summed) statistics (``float32`` is ignored:
        sacreBLEU has no ROUGE)."""
        rows = np.asarray(rows, dtype=np.int64)
        if rows.ndim == 1:
            rows = rows[None, :]
        if rows.shape[1] != self.stats_width:
            raise ValueError(f"ROUGE statistics rows must have {self.stats_width} columns, got {rows.shape[1]}")
        f = rows[:, 1 + 2 * LIMBS : 1 + 3 * LIMBS]
        return np.array([100 * exact_mean(f[i], rows[i, 0]) for i in range(len(rows))], dtype=np.float64)

    def column_names(self) -> list[str]:
        """The names of the statistics columns: the segment count, then each type's precision, recall and F
        as three fixed-point limbs."""
        return ["segments"] + [f"{t}_{v}_{limb}" for t in self.types for v in ("precision", "recall", "fmeasure")
                               for limb in ("hi", "mid", "lo")]

    def check_statistics(self, stats) -> np.ndarray:
        """``stats`` (per-segment rows ``[S, W]`` or one summed row ``[W]``) as int64 after the checks, or a
        ValueError naming the column and row: the wrong number of columns, values that are not whole numbers,
        negative values, a value above the row's segment count (a mean above 1)."""
        names = self.column_names()
        stats = check_statistics(stats, names, (), "ROUGE statistics")
        rows = stats.reshape(-1, len(names)).astype(np.int64, copy=False)
        check_fixed_point(rows, 0, list(range(1, len(names), LIMBS)), names, "ROUGE statistics")
        return stats

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> ROUGEScore:
        """Corpus ROUGE from per-segment rows (summed here) or one already summed row; invalid statistics are
        a ValueError naming the column and row (:meth:`check_statistics`)."""
        stats = self.check_statistics(stats)
        total = stats.sum(axis=0) if stats.ndim == 2 else stats.astype(np.int64)
        m = self.means(total)
        sig = self.signature(nrefs) if nrefs is not None else ""
        return ROUGEScore(
            float(100 * m[0, 2]), self.types,
            {t: float(m[k, 0]) for k, t in enumerate(self.types)},
            {t: float(m[k, 1]) for k, t in enumerate(self.types)},
            {t: float(m[k, 2]) for k, t in enumerate(self.types)},
            sig, self.name,
        )

    def sentence_scores(
        self, hypotheses: Sequence[str], references: Sequence[Sequence[str | None]], *, n_jobs: int | None = None
    ) -> ROUGEScores:
        """Sentence ROUGE of every segment (rouge-score's ``score`` / ``score_multi`` values).

        The input is checked once, as :meth:`check_inputs` checks it: the lists here, their items by the
        compiled core while it reads them (no Python pass over them), or by Python when the core does not
        count this input or stopped at an item (which the Python checks then name)."""
        hyps = check_text_list(hypotheses, "hypotheses", check_items=False)
        if not hyps:
            raise ValueError("hypotheses is empty: give at least one segment")
        streams = check_references(references, len(hyps), check_items=False)
        counted = self._native_sentence_values(hyps, streams)
        if counted is None:
            hyps, streams = check_text_list(hyps, "hypotheses"), check_reference_items(streams)
            present = check_reference_presence(streams)
            counts, values = self.segment_values(hyps, streams, present)
            counted = counts, values, present.sum(axis=1)
        counts, values, nrefs = counted
        return ROUGEScores(100 * values[:, 0, 2], values, counts, self.types, self.signature(nrefs_field(nrefs)),
                           self.name)

    def _native_sentence_values(self, hyps: list, streams: list):
        """``(counts, values, references per segment)`` of lists whose items are not checked yet, in one call
        of the compiled core over the whole input (it checks the items while it reads them, holds the text
        of one block of segments at a time and keeps only each segment's best reference: no ``[S, K, T, 3]``
        counts, so no Python chunks), with rouge-score's tokenizer; None when the compiled core does not take
        this input or an item is invalid (the checked path then scores it or names the item)."""
        if self.engine == "numpy" or self.tokenizer != "default":
            return None
        from .native import native_pair_counts

        try:
            counted = native_pair_counts(self, hyps, streams, None, required=False, best=True)
        except (TypeError, ValueError):
            return None
        if counted is None or not counted[2].all():  # a segment without a reference: the checks name it
            return None
        return counted

    def bootstrap_aggregate(
        self, hypotheses, references, *, n_samples: int = 1000, confidence_interval: float = 0.95
    ) -> dict[str, AggregateScore]:
        """rouge-score's ``BootstrapAggregator`` over the sentence scores: low/mid/high per type, equal to
        rouge-score's under the same state of numpy's global random generator (which it advances)."""
        from .aggregate import bootstrap_aggregate

        values = self.sentence_scores(hypotheses, references).prf
        return bootstrap_aggregate({t: values[:, k, :] for k, t in enumerate(self.types)}, n_samples,
                                   confidence_interval)


def corpus_rouge(hypotheses: Sequence[str], references: Sequence[Sequence[str]], **options) -> ROUGEScore:
    """Functional shortcut: ``ROUGE(**options).corpus_score(hypotheses, references)``."""
    return ROUGE(**options).corpus_score(hypotheses, references)


def sentence_rouge(hypothesis: str, references: Sequence[str], **options) -> ROUGEScore:
    """Functional shortcut: ``ROUGE(**options).sentence_score(hypothesis, references)``."""
    return ROUGE(**options).sentence_score(hypothesis, references)
