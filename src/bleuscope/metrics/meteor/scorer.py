"""METEOR with NLTK 3.10.4's definition (:mod:`.alignment`), for raw text or token lists, one pair, a batch
or a corpus.

Each segment is aligned with each of its references; the segment keeps the first reference that reaches the
highest score (NLTK's ``max``), and its value is computed with NLTK's float arithmetic, so
``METEOR().sentence_scores(...).values`` equals ``[meteor_score(refs, hyp) for ...]`` of
``nltk.translate.meteor_score`` (``==``) on the same tokens and WordNet.

The corpus score is the **mean** of the segment values (NLTK has no corpus METEOR; the mean is what HF
``evaluate`` and most papers report). A segment's statistics row is ``[1, matches, hypothesis length,
reference length, chunks, then the value as three fixed-point limbs]`` (ROUGE's exact rows,
:mod:`bleuscope.metrics.rouge.scores`): rows sum exactly, so the mean of any shards, streams, worker chunks
or resamples is the exact mean of the segment values rounded once, whatever the order of summation.

``score`` is 100 x the value (the 0-100 scale of BLEU, chrF, TER and ROUGE); ``value`` / ``values`` keep
NLTK's 0-1 numbers.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import numpy as np

from ...core import native, pool
from ...core.native import tok as native_tok
from ...core.signature import nrefs_field, version_field
from ...core.stats import check_statistics
from ...core.validation import (
    ArgumentError,
    ArgumentTypeError,
    check_bool,
    check_reference_presence,
    check_references,
)
from ...tokenizers import get_tokenizer
from ..base import Metric, ScoreBatch, ScoreText, one_segment
from ..rouge.scores import LIMBS, check_fixed_point, exact_mean, to_limbs
from .alignment import ROW_FIELDS, align, score, score_array
from .lexicon import stem_function, synonym_function
from .native import WordTable
from .wordnet import WordNet

#: segments tokenized at a time (bounds the memory of the token lists)
TOKENIZE_SEGMENTS = 10_000

#: columns of a statistics row: the segment count, the alignment of the best reference, the value's limbs
STATS_WIDTH = 1 + len(ROW_FIELDS) + LIMBS

#: the most hypothesis tokens x reference tokens METEOR aligns in one segment: the alignment takes time in that
#: product (10^10, e.g. two texts of 100,000 tokens: about two seconds in the compiled core); a longer pair is
#: refused rather than aligned for hours
MAX_ALIGNMENT_TOKEN_PAIRS = 10**10


def check_alignment_size(hyp_lens: np.ndarray, ref_lens: np.ndarray) -> None:
    """ValueError when a pair of token counts passes :data:`MAX_ALIGNMENT_TOKEN_PAIRS`."""
    pairs = hyp_lens.astype(np.int64) * ref_lens.astype(np.int64)
    over = np.flatnonzero(pairs > MAX_ALIGNMENT_TOKEN_PAIRS)
    if over.size:
        i = over[0]
        raise ValueError(
            f"METEOR: a segment has {int(hyp_lens[i]):,} hypothesis and {int(ref_lens[i]):,} reference tokens; the "
            "alignment takes time in their product, and more than 10^10 is refused (split the documents)"
        )


@dataclass(frozen=True)
class METEORScore(ScoreText):
    """One METEOR score: ``score`` on the 0-100 scale, ``value`` the same as a fraction (NLTK's scale); a
    segment's, or a corpus mean."""

    score: float
    value: float
    signature: str = ""
    name: str = field(default="METEOR")

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "value": self.value, "signature": self.signature}


@dataclass(frozen=True)
class METEORScores(ScoreBatch):
    """Sentence METEOR of a batch: ``scores`` (0-100) and ``values`` (NLTK's 0-1 numbers), float64 [S], and
    the alignment behind them, ``alignment`` int64 [S, 4] (matches, hypothesis length, reference length,
    chunks of the best reference)."""

    scores: np.ndarray
    values: np.ndarray
    alignment: np.ndarray
    signature: str = ""
    name: str = "METEOR"

    def __getitem__(self, i: int) -> METEORScore:
        return METEORScore(float(self.scores[i]), float(self.values[i]), self.signature, self.name)


def _check_parameter(value, name: str, low: float, high: float | None) -> float:
    given = repr(value).replace("{", "{{").replace("}", "}}")
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentTypeError(f"{{}} must be a real number, got {given}", name)
    number = cast(float, value)  # any real number, kept as given (an int stays an int)
    if not math.isfinite(number) or number < low or (high is not None and number > high) or (high is None and number <= low):
        bounds = f"in [{low:g}, {high:g}]" if high is not None else f"> {low:g}"
        raise ArgumentError(f"{{}} must be {bounds}, got {given}", name)
    return number


def _number_field(value) -> str:
    return repr(float(value)).removesuffix(".0") if float(value).is_integer() else repr(float(value))


class METEOR(Metric):
    """METEOR scorer (all options keyword-only).

    * ``tokenize``: the tokenizer for raw strings (a bleuscope tokenizer name; default ``"13a"``, sacreBLEU's
      mteval tokenizer; ``"none"`` splits on whitespace). Token lists (``list``/``tuple`` of strings) are
      used as they are, whatever this option says.
    * ``lowercase``: lowercase every token first (NLTK's default ``preprocess=str.lower``).
    * ``wordnet``: a :class:`WordNet`, a path to a WordNet 3.0 directory (or NLTK's ``wordnet.zip``, or an
      NLTK data directory), or ``None``: the first one found (see :func:`.wordnet.search_locations`).
    * ``stemmer``: an object with ``stem(word)``; ``None``: NLTK's ``PorterStemmer()`` rules.
    * ``alpha`` in [0, 1], ``beta`` > 0, ``gamma`` in [0, 1]: NLTK's parameters (0.9, 3.0, 0.5); within these
      bounds every value lies in [0, 1] (NLTK accepts any number: use :mod:`bleuscope.integrations.nltk` for others).
    * ``engine``: ``"auto"`` (the compiled core's alignment when it is built), ``"native"`` or ``"numpy"``
      (:func:`.alignment.align`, the readable reference in Python, as for every metric); the numbers are the same.
    * ``threads``: threads of the compiled core's alignment (None: it picks a count for the input size; the
      numbers never depend on it); also settable later.

    The signature records what changes the numbers: ``nrefs|case|tok|stem|wn|a|b|g|agg|version``.
    """

    name = "METEOR"
    higher_is_better = True
    stats_width = STATS_WIDTH
    threads = native.ThreadsOption()

    def __init__(
        self,
        *,
        tokenize: str = "13a",
        lowercase: bool = True,
        wordnet: WordNet | str | os.PathLike | None = None,
        stemmer=None,
        alpha: float = 0.9,
        beta: float = 3.0,
        gamma: float = 0.5,
        engine: str = "auto",
        threads: int | None = None,
    ) -> None:
        self.tokenizer = get_tokenizer(tokenize)
        self.tokenize = tokenize
        self.lowercase = check_bool(lowercase, "lowercase")
        if stemmer is not None and not callable(getattr(stemmer, "stem", None)):
            raise TypeError(f"stemmer must have a stem(word) method, got {type(stemmer).__name__}")
        self.stemmer = stemmer
        self.alpha = _check_parameter(alpha, "alpha", 0.0, 1.0)
        self.beta = _check_parameter(beta, "beta", 0.0, None)
        self.gamma = _check_parameter(gamma, "gamma", 0.0, 1.0)
        if wordnet is not None and not isinstance(wordnet, WordNet):
            wordnet = WordNet.load(wordnet)
        self.wordnet = wordnet if wordnet is not None else WordNet.load()
        self.engine = native.check_engine(engine)
        self.threads = threads
        self._lookups()

    @property
    def input_warning_tokenizer(self) -> str:
        """The tokenizer sacreBLEU's CJK input warning judges: this scorer's (for raw strings)."""
        return self.tokenizer.name

    def _lookups(self) -> None:
        self._stem = stem_function(self.stemmer)
        self._synonyms = synonym_function(self.wordnet)
        self._table: WordTable | None = None

    def __getstate__(self) -> dict:
        # what worker processes receive: the cached lookups are rebuilt there
        state = self.__dict__.copy()
        del state["_stem"], state["_synonyms"], state["_table"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._lookups()

    #: English function words: a target where they are rare is not English
    _ENGLISH_WORDS = frozenset("the of and to a in is that for it with as on was be are this by not".split())

    def input_notes(self, references: Sequence, trg_lang: str | None = None) -> list[str]:
        """A note when the target is not English (``trg_lang``, else English function words are rare in the
        first reference stream): METEOR's stemmer and synonyms (Porter, WordNet 3.0) are English resources."""
        if trg_lang:
            foreign = trg_lang.lower() != "en"
            what = f"the target language is {trg_lang}"
        else:
            words = [w.lower() for line in (references[0][:2000] if references else []) if line is not None
                     for w in line.split()]
            if len(words) < 50:
                return []
            share = sum(1 for w in words if w in self._ENGLISH_WORDS) / len(words)
            foreign = share < 0.03
            what = f"the references do not look English ({100 * share:.1f}% English function words)"
        if not foreign:
            return []
        return [f"METEOR uses English resources but {what}: the Porter stemmer and WordNet's English synonyms "
                "match no inflection or synonym of another language, so METEOR here is close to exact-match "
                "unigram F-mean with a fragmentation penalty and is not comparable to METEOR on English"]

    # -- signature ---------------------------------------------------------------------------------------
    #: the short signature names of METEOR's fields
    short_keys = {"stem": "s", "wn": "wn", "a": "a", "b": "b", "g": "g", "agg": "agg"}

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:2|case:lc|tok:13a|stem:porter|wn:3.0|a:0.9|b:3|g:0.5|agg:mean|version:bleuscope-...``."""
        return {
            "nrefs": str(nrefs),
            "case": "lc" if self.lowercase else "mixed",
            "tok": self.tokenizer.signature(),
            "stem": "porter" if self.stemmer is None else type(self.stemmer).__name__,
            "wn": self.wordnet.version,
            "a": _number_field(self.alpha),
            "b": _number_field(self.beta),
            "g": _number_field(self.gamma),
            "agg": "mean",
            "version": version_field(),
        }

    # -- input -------------------------------------------------------------------------------------------
    def tokens(self, text, where: str) -> list[str]:
        """The words of one segment: a raw string through the tokenizer, or a token list as it is; lowercased
        when ``lowercase``."""
        if isinstance(text, str):
            words = self.tokenizer(text.rstrip()).split()
        elif isinstance(text, (list, tuple)):
            bad = next((w for w in text if not isinstance(w, str)), None)
            if bad is not None:
                raise TypeError(f"{where}: tokens must be strings, got {type(bad).__name__} {bad!r}")
            words = list(text)
        else:
            raise TypeError(f"{where} must be a string or a list of token strings, got {type(text).__name__}")
        return [w.lower() for w in words] if self.lowercase else words

    def check_hypotheses(self, hypotheses, name: str = "hypotheses") -> list:
        """Validated hypotheses: a list of segments (their items, strings or token lists, are checked where
        they are counted)."""
        if isinstance(hypotheses, str):
            raise TypeError(f"{name} must be a list of segments (strings or token lists), got a single string")
        hyps = list(hypotheses)
        if not hyps:
            raise ValueError(f"{name} is empty: give at least one segment")
        return hyps

    def check_reference_streams(self, references, n_segments: int) -> tuple[list, np.ndarray]:
        """Validated ``(reference streams, presence [S, K])``; items are strings, token lists or None."""
        streams = check_references(references, n_segments, check_items=False)
        return streams, check_reference_presence(streams)

    # -- statistics --------------------------------------------------------------------------------------
    def pair_row(self, hyp: list[str], ref: list[str]) -> tuple[int, int, int, int]:
        """``(matches, hypothesis length, reference length, chunks)`` of one tokenized (lowercased) pair."""
        matches, chunks = align(hyp, ref, self._stem, self._synonyms)
        return matches, len(hyp), len(ref), chunks

    def token_lists(self, items: list, name: str, offset: int = 0) -> list:
        """:meth:`tokens` of many segments (``None`` stays ``None``: a missing reference); raw strings go through
        the compiled tokenizer in one call when it implements this tokenizer."""
        out: list = [None] * len(items)
        texts = [i for i, x in enumerate(items) if isinstance(x, str)]
        compiled = texts and self.engine != "numpy"
        joined = native_tok.tokenize_joined(self.tokenizer, [items[i] for i in texts]) if compiled else None
        if joined is not None:
            lower = self.lowercase
            for i, line in zip(texts, joined):
                if line is not None:
                    # tokens hold no whitespace and lowercasing adds none, so the joined line splits back
                    out[i] = (line.lower() if lower else line).split()
        for i, x in enumerate(items):
            if out[i] is None and x is not None:
                out[i] = self.tokens(x, f"{name}[{offset + i}]")
        return out

    def segment_values(self, hyps: list, streams: list, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(alignment int64 [S, 4], values float64 [S])`` of validated input: each segment's best reference."""
        n_seg = len(hyps)
        alignment = np.zeros((n_seg, len(ROW_FIELDS)), dtype=np.int64)
        values = np.zeros(n_seg, dtype=np.float64)
        alpha, beta, gamma = self.alpha, self.beta, self.gamma
        stem, synonyms = self._stem, self._synonyms
        compiled_core = self.engine != "numpy" and native.native_available()
        if self.engine == "native" and not compiled_core:
            raise native.NativeEngineUnavailableError("engine='native': the compiled core is not built here")
        for a in range(0, n_seg, TOKENIZE_SEGMENTS):
            b = min(n_seg, a + TOKENIZE_SEGMENTS)
            if compiled_core:
                if self._table is None:
                    self._table = WordTable(self._stem, self._synonyms, porter=self.stemmer is None,
                                            wordnet=self.wordnet)
                self._table.bound()
                hyp_enc = self._encoded(hyps[a:b], "hypotheses", a)
                ref_encs = [self._encoded(stream[a:b], f"references[{k}]", a) for k, stream in enumerate(streams)]
                if hyp_enc is not None and None not in ref_encs:
                    alignment[a:b], values[a:b] = self._native_best(hyp_enc, ref_encs, present[a:b])
                    continue
                # a token with a lone surrogate (no UTF-8 form): this chunk takes the Python path
            hyp_tokens = self.token_lists(hyps[a:b], "hypotheses", a)
            ref_tokens = [self.token_lists(stream[a:b], f"references[{k}]", a) for k, stream in enumerate(streams)]
            for i, hyp in enumerate(hyp_tokens):
                best_row = None
                best = None
                hyp_len = len(hyp)
                for refs in ref_tokens:
                    if refs[i] is None:
                        continue
                    ref_len = len(refs[i])
                    check_alignment_size(np.array([hyp_len]), np.array([ref_len]))
                    matches, chunks = align(hyp, refs[i], stem, synonyms)
                    value = score(matches, hyp_len, ref_len, chunks, alpha, beta, gamma)
                    if best is None or value > best:  # the first reference reaching the maximum, as max() keeps
                        best, best_row = value, (matches, hyp_len, ref_len, chunks)
                assert best_row is not None, "every segment has a reference (checked)"
                alignment[a + i] = best_row
                values[a + i] = best
        return alignment, values

    def _encoded(self, items: list, name: str, offset: int) -> tuple[np.ndarray, np.ndarray] | None:
        """Word ids and offsets of one stream (``None`` items: empty segments, never paired); None when a
        token has no UTF-8 form (a lone surrogate)."""
        table = self._table
        assert table is not None, "the word table is made before anything is encoded"
        if all(type(x) is str or x is None for x in items):
            key = tuple(items)
            found = table.cached_stream(key)
            if found is not None:
                return found
            joined = native_tok.tokenize_joined(self.tokenizer, [x if x is not None else "" for x in items])
            if native_tok.all_tokenized(joined):
                # tokens hold no whitespace and lowercasing adds none, so the lines split back (a newline
                # also bounds the final-sigma rule as a line end does)
                text = "\n".join(joined)
                found = table.encode_lines((text.lower() if self.lowercase else text).split("\n"))
                if found is not None:
                    table.keep_stream(key, found)
                    return found
        lists = self.token_lists(items, name, offset)
        return table.encode_lists([x if x is not None else [] for x in lists])

    def _native_best(self, hyp_enc, ref_encs: list, present: np.ndarray):
        """``(alignment rows, values)`` of one encoded chunk: the compiled core's alignment of every present
        pair, vectorized scores, each segment's first best reference."""
        n_seg, n_ref = present.shape
        stream, seg = (np.ascontiguousarray(x) for x in np.nonzero(present.T))  # stream by stream, segments ascending
        ref_ids = np.concatenate([ids for ids, _ in ref_encs])
        starts = np.cumsum([0] + [len(ids) for ids, _ in ref_encs[:-1]])
        ref_offsets = np.concatenate([[0]] + [offs[1:] + start for (_, offs), start in zip(ref_encs, starts)])
        pair_ref = stream * n_seg + seg
        check_alignment_size(np.diff(hyp_enc[1])[seg], np.diff(ref_offsets)[pair_ref])
        word_table = self._table
        assert word_table is not None, "the word table is made before anything is encoded"
        found = word_table.align(hyp_enc, (ref_ids, ref_offsets.astype(np.int64)), seg, pair_ref,
                                 native.core_threads(self.threads))
        hyp_len = np.diff(hyp_enc[1])[seg]
        ref_len = np.diff(ref_offsets)[pair_ref]
        rows = np.stack([found[:, 0], hyp_len, ref_len, found[:, 1]], axis=1)
        pair_values = score_array(rows, self.alpha, self.beta, self.gamma)
        table = np.full((n_seg, n_ref), -np.inf)
        table[seg, stream] = pair_values
        best = np.argmax(table, axis=1)  # the first reference reaching the maximum, as max() keeps
        where = np.full((n_seg, n_ref), -1, dtype=np.int64)
        where[seg, stream] = np.arange(len(seg))
        chosen = where[np.arange(n_seg), best]
        return rows[chosen], pair_values[chosen]

    def rows_of(self, alignment: np.ndarray, values: np.ndarray) -> np.ndarray:
        """Statistics rows ``[S, 8]`` of per-segment alignments and values."""
        try:
            limbs = to_limbs(values)
        except ValueError:
            raise ValueError(
                "a METEOR value is below 2**-38 and has no exact fixed-point row (documents of 2**19 tokens or "
                "extreme alpha/beta/gamma); score with bleuscope.nltk.meteor_score instead"
            ) from None
        ones = np.ones((len(values), 1), dtype=np.int64)
        return np.concatenate([ones, alignment, limbs.reshape(len(values), LIMBS)], axis=1)

    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """Statistics rows of already validated input."""
        if present is None:
            present = check_reference_presence(streams)
        return self.rows_of(*self.segment_values(hyps, streams, present))

    # -- scores ------------------------------------------------------------------------------------------
    def _check_rows(self, rows: np.ndarray) -> np.ndarray:
        rows = np.asarray(rows, dtype=np.int64)
        if rows.ndim == 1:
            rows = rows[None, :]
        if rows.ndim != 2 or rows.shape[1] != self.stats_width:
            raise ValueError(f"METEOR statistics rows must have {self.stats_width} columns, got shape {rows.shape}")
        return rows

    def mean_values(self, rows: np.ndarray) -> np.ndarray:
        """float64 mean value (0-1) per row of (summed) statistics: exact, rounded once."""
        rows = self._check_rows(rows)
        limbs = rows[:, 1 + len(ROW_FIELDS):]
        return np.array([exact_mean(limbs[i], rows[i, 0]) for i in range(len(rows))], dtype=np.float64)

    def score_rows(self, rows: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """float64 100 x mean METEOR per row of (summed) statistics (``float32`` is ignored: sacreBLEU has no
        METEOR)."""
        return 100 * self.mean_values(rows)

    def check_statistics(self, stats) -> np.ndarray:
        """``stats`` (per-segment rows ``[S, 8]`` or one summed row) as int64 rows ``[R, 8]`` after the checks,
        or a ValueError naming the column and row: the wrong number of columns, values that are not whole
        numbers, negative values, matches above the hypothesis or reference length, chunks above the
        matches, a value above the row's segment count (a mean above 1)."""
        names = ["segments", *ROW_FIELDS, "value_hi", "value_mid", "value_lo"]
        bounded = [(1, 2), (1, 3), (4, 1)]  # matches <= hyp_len, matches <= ref_len, chunks <= matches
        stats = check_statistics(stats, names, bounded, "METEOR statistics")
        rows = self._check_rows(stats)
        check_fixed_point(rows, 0, [1 + len(ROW_FIELDS)], names, "METEOR statistics")
        return rows

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> METEORScore:
        """Corpus METEOR (the mean segment value) from per-segment rows (summed here) or one summed row;
        invalid statistics are a ValueError naming the column and row (:meth:`check_statistics`)."""
        stats = self.check_statistics(stats)
        total = stats.sum(axis=0)
        if total[0] <= 0:
            raise ValueError("METEOR's corpus score needs at least one segment")
        value = float(self.mean_values(total)[0])
        sig = self.signature(nrefs) if nrefs is not None else ""
        return METEORScore(100 * value, value, sig, self.name)

    def sentence_scores(self, hypotheses: Sequence, references: Sequence[Sequence], *,
                        n_jobs: int | None = None) -> METEORScores:
        """One METEOR per segment (``references[k][i]``: reference k of segment i; ``None`` = missing); the
        values are aligned in this process (its ``threads``), ``n_jobs`` is accepted as every metric does."""
        pool.resolve_n_jobs(n_jobs)  # checked as on every metric
        hyps, streams, present = self.check_inputs(hypotheses, references)
        alignment, values = self.segment_values(hyps, streams, present)
        return METEORScores(100 * values, values, alignment, self.signature(nrefs_field(present.sum(axis=1))),
                            self.name)

    def sentence_score(self, hypothesis, references: Sequence) -> METEORScore:
        """METEOR of one hypothesis (a string or a token list) against its references (a list of them)."""
        return self.corpus_score(*one_segment(hypothesis, references))



def corpus_meteor(hypotheses: Sequence, references: Sequence[Sequence], **options) -> METEORScore:
    """Functional shortcut: ``METEOR(**options).corpus_score(hypotheses, references)``."""
    return METEOR(**options).corpus_score(hypotheses, references)


def sentence_meteor(hypothesis, references: Sequence, **options) -> METEORScore:
    """Functional shortcut: ``METEOR(**options).sentence_score(hypothesis, references)``."""
    return METEOR(**options).sentence_score(hypothesis, references)
