"""GLEU (Wu et al. 2016, Google's BLEU for sentence rewards) with NLTK 3.10.4's definition
(:mod:`.reference`), for raw text or token lists, one pair, a batch or a corpus.

Raw strings are tokenized (default ``"13a"``: HF evaluate's ``google_bleu``, which runs sacreBLEU's 13a
tokenizer and then NLTK's ``corpus_gleu``); token lists are used as they are. A segment's statistics row is
``[tp, n_all]`` of its best reference, so rows add up: the corpus GLEU of any shards, streams or resamples is
``sum(tp) / sum(n_all)``, NLTK's ``corpus_gleu``. ``value`` is that fraction (NLTK's and HF's number),
``score`` = 100 x value.
"""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core import native
from ...core.native import strmetrics as native_strmetrics
from ...core.native import tok as native_tok
from ...core.signature import nrefs_field, version_field
from ...core.stats import check_statistics
from ...core.validation import ArgumentError, check_bool, check_reference_presence, check_references
from ...tokenizers import get_tokenizer
from ..base import Metric, ScoreBatch, ScoreText, one_segment
from .reference import segment_row

#: segments tokenized at a time (bounds the memory of the token lists)
TOKENIZE_SEGMENTS = 10_000
ROW_NAMES = ["tp", "n_all"]
#: the item types taken as they are (a faster check than isinstance per item; subclasses take the slow one)
SEGMENT_TYPES = frozenset({str, list, tuple})
REFERENCE_TYPES = SEGMENT_TYPES | {type(None)}


@dataclass(frozen=True)
class GLEUScore(ScoreText):
    """One GLEU score: ``value`` the fraction (NLTK's and HF's number), ``score`` = 100 x value; ``tp`` and
    ``n_all`` its sums."""

    score: float
    value: float
    tp: int
    n_all: int
    signature: str = ""
    name: str = field(default="GLEU")

    @property
    def verbose(self) -> str:
        return f"({self.tp}/{self.n_all})"

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "value": self.value, "tp": self.tp, "n_all": self.n_all,
                "signature": self.signature}


@dataclass(frozen=True)
class GLEUScores(ScoreBatch):
    """Sentence GLEU of a batch: ``scores`` (0-100) and ``values`` (fractions), float64 [S], from ``stats``
    int64 [S, 2] (``tp``, ``n_all`` of each segment's best reference)."""

    scores: np.ndarray
    values: np.ndarray
    stats: np.ndarray
    signature: str = ""
    name: str = "GLEU"

    def __getitem__(self, i: int) -> GLEUScore:
        tp, n_all = (int(x) for x in self.stats[i])
        return GLEUScore(float(self.scores[i]), float(self.values[i]), tp, n_all, self.signature, self.name)


def _order(value, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 1:
        raise ArgumentError(f"{{}} must be an integer >= 1, got {value!r}", name)
    return int(value)


class GLEU(Metric):
    """GLEU scorer (all options keyword-only).

    * ``tokenize``: the tokenizer for raw strings (a bleuscope tokenizer name; default ``"13a"``, HF
      ``google_bleu``'s; ``"none"`` splits on whitespace). Token lists are used as they are.
    * ``lowercase``: lowercase raw strings before tokenizing (HF ``google_bleu`` does not).
    * ``min_len``, ``max_len``: the n-gram orders (NLTK's 1 and 4).
    * ``engine``: ``"auto"``, ``"native"`` or ``"numpy"`` (:mod:`.reference`); the numbers are the same.
    * ``threads``: threads of the compiled core (None: it picks a count for the input size).

    The signature: ``nrefs|case|tok|min|max|version``.
    """

    name = "GLEU"
    higher_is_better = True
    stats_width = 2
    threads = native.ThreadsOption()
    short_keys = {"min": "min", "max": "max"}

    def __init__(
        self,
        *,
        tokenize: str = "13a",
        lowercase: bool = False,
        min_len: int = 1,
        max_len: int = 4,
        engine: str = "auto",
        threads: int | None = None,
    ) -> None:
        self.tokenizer = get_tokenizer(tokenize)
        self.tokenize = tokenize
        self.lowercase = check_bool(lowercase, "lowercase")
        self.min_len = _order(min_len, "min_len")
        self.max_len = _order(max_len, "max_len")
        if self.max_len < self.min_len:
            raise ArgumentError(f"{{}} must be >= {{}}, got {{}}={min_len} and {{}}={max_len}", "max_len", "min_len", "min_len", "max_len")
        self.engine = native.check_engine(engine)
        self.threads = threads

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:1|case:mixed|tok:13a|min:1|max:4|version:bleuscope-...``."""
        return {
            "nrefs": str(nrefs),
            "case": "lc" if self.lowercase else "mixed",
            "tok": self.tokenizer.signature(),
            "min": str(self.min_len),
            "max": str(self.max_len),
            "version": version_field(),
        }

    # -- input -------------------------------------------------------------------------------------------
    def check_hypotheses(self, hypotheses, name: str = "hypotheses") -> list:
        """Validated hypotheses: a list of segments (strings or token lists)."""
        if isinstance(hypotheses, str):
            raise TypeError(f"{name} must be a list of segments (strings or token lists), got a single string")
        hyps = list(hypotheses)
        if not hyps:
            raise ValueError(f"{name} is empty: give at least one segment")
        if set(map(type, hyps)) <= SEGMENT_TYPES:
            return hyps
        for i, h in enumerate(hyps):
            if not isinstance(h, (str, list, tuple)):
                raise TypeError(f"{name}[{i}] must be a string or a list of token strings, got {type(h).__name__}")
        return hyps

    def check_reference_streams(self, references, n_segments: int) -> tuple[list, np.ndarray]:
        """Validated ``(reference streams, presence [S, K])``; items are strings, token lists or None."""
        streams = check_references(references, n_segments, check_items=False)
        for k, stream in enumerate(streams):
            if set(map(type, stream)) <= REFERENCE_TYPES:
                continue
            for i, r in enumerate(stream):
                if r is not None and not isinstance(r, (str, list, tuple)):
                    raise TypeError(
                        f"references[{k}][{i}] must be a string, a list of token strings or None, got {type(r).__name__}"
                    )
        return streams, check_reference_presence(streams)

    def token_lists(self, items: list, name: str, offset: int = 0) -> list:
        """Each segment's tokens: raw strings through the (Python) tokenizer, lowercased first if asked; token
        lists as they are; None stays None."""
        out: list = list(items)
        texts = [i for i, x in enumerate(items) if isinstance(x, str)]
        if not texts:
            return out
        for i in texts:
            line = items[i].lower() if self.lowercase else items[i]
            out[i] = self.tokenizer(line.rstrip()).split()
        return out

    # -- statistics --------------------------------------------------------------------------------------
    def _compiled(self):
        """``(counter, tokenizes)``: the compiled GLEU counter of these settings (None: the numpy engine, or
        no compiled core) and whether it tokenizes raw strings itself (else Python tokenizes them first)."""
        if "_counter" not in self.__dict__:
            counter, tokenizes = None, False
            if native.resolve_engine(self.engine) == "native":
                name = native_tok.native_tokenizer_name(self.tokenizer, self.lowercase)
                # sacreBLEU's "none" returns the line: its words are the line's str.split()
                tokenizes = name is not None
                if name == "none" and not self.lowercase:
                    name = None
                counter = native_strmetrics.gleu_counter(self.min_len, self.max_len, name, self.lowercase,
                                                         self.threads)
            self.__dict__["_counter"] = (counter, tokenizes)
        return self.__dict__["_counter"]

    def count_checked(self, hyps: list, streams: list, present: np.ndarray | None = None) -> np.ndarray:
        """Statistics rows ``[S, 2]`` of validated input."""
        rows = np.zeros((len(hyps), 2), dtype=np.int64)
        counter, tokenizes = self._compiled()
        for a in range(0, len(hyps), TOKENIZE_SEGMENTS):
            b = min(len(hyps), a + TOKENIZE_SEGMENTS)
            hyp_items, ref_items = hyps[a:b], [s[a:b] for s in streams]
            if counter is not None:
                if not tokenizes:
                    hyp_items = self.token_lists(hyp_items, "hypotheses", a)
                    ref_items = [self.token_lists(s, f"references[{k}]", a) for k, s in enumerate(ref_items)]
                native_rows = counter.rows(hyp_items, ref_items)
                if native_rows is not None:
                    rows[a:b] = native_rows
                    continue
            hyp_tokens = self.token_lists(hyps[a:b], "hypotheses", a)
            ref_tokens = [self.token_lists(s[a:b], f"references[{k}]", a) for k, s in enumerate(streams)]
            for i, hyp in enumerate(hyp_tokens):
                refs = [s[i] for s in ref_tokens if s[i] is not None]
                rows[a + i] = segment_row(_words(hyp), [_words(r) for r in refs], self.min_len, self.max_len)
        return rows

    # -- scores ------------------------------------------------------------------------------------------
    def check_statistics(self, stats) -> np.ndarray:
        """``stats`` as int64 rows ``[R, 2]``, or a ValueError naming the column and row (wrong width, not
        whole numbers, negative, ``tp`` above ``n_all``)."""
        rows = check_statistics(stats, ROW_NAMES, [(0, 1)], "GLEU statistics")
        return np.asarray(rows, dtype=np.int64).reshape(-1, 2)

    def values_of(self, rows: np.ndarray) -> np.ndarray:
        """float64 ``tp / n_all`` per (summed) row, 0.0 where ``n_all`` is 0."""
        rows = np.atleast_2d(np.asarray(rows, dtype=np.int64))
        n_all = rows[:, 1]
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(n_all > 0, rows[:, 0] / np.where(n_all > 0, n_all, 1), 0.0)

    def score_rows(self, rows: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """float64 100 x GLEU per row of (summed) statistics (``float32`` is ignored)."""
        return 100 * self.values_of(rows)

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> GLEUScore:
        """Corpus GLEU from per-segment rows (summed here) or one summed row."""
        rows = self.check_statistics(stats)
        tp, n_all = (int(x) for x in rows.sum(axis=0))
        value = tp / n_all if n_all else 0.0
        sig = self.signature(nrefs) if nrefs is not None else ""
        return GLEUScore(100 * value, value, tp, n_all, sig, self.name)

    def sentence_scores(self, hypotheses, references, *, n_jobs: int | None = None) -> GLEUScores:
        """Sentence GLEU of every segment (``references[k][i]``: reference k of segment i; None = missing)."""
        seg = self.segment_statistics(hypotheses, references, n_jobs=n_jobs)
        values = self.values_of(seg.stats)
        return GLEUScores(100 * values, values, seg.stats, self.signature(nrefs_field(seg.nrefs)), self.name)

    def sentence_score(self, hypothesis, references: Sequence) -> GLEUScore:
        """GLEU of one hypothesis (a string or a token list) against its references (a list of them)."""
        return self.corpus_score(*one_segment(hypothesis, references))


def _words(tokens) -> list:
    return tokens.split() if isinstance(tokens, str) else list(tokens)


def corpus_gleu(hypotheses: Sequence, references: Sequence[Sequence], **options) -> GLEUScore:
    """Functional shortcut: ``GLEU(**options).corpus_score(hypotheses, references)``."""
    return GLEU(**options).corpus_score(hypotheses, references)


def sentence_gleu(hypothesis, references: Sequence, **options) -> GLEUScore:
    """Functional shortcut: ``GLEU(**options).sentence_score(hypothesis, references)``."""
    return GLEU(**options).sentence_score(hypothesis, references)
