"""METEOR with NLTK 3.10.4's definition (:mod:`.alignment`), for raw text or token lists, one pair, a batch
or a corpus.

Each segment's statistics row is the ``(matches, hypothesis length, reference length, chunks)`` of its best
reference (the first reference that reaches the highest score, NLTK's ``max``); the segment score is
computed from that row with NLTK's float arithmetic, so ``METEOR().sentence_scores(...)`` equals
``[nltk.translate.meteor_score.meteor_score(refs, hyp) for ...]`` (``==``) on the same tokens and WordNet.

The corpus score is the mean of the segment scores (NLTK has no corpus METEOR; this is what HF ``evaluate``
and most papers report), summed with ``math.fsum`` -- exactly rounded, so it does not depend on the order
of the segments or on how a corpus is split into shards. Scores are fractions in [0, 1], as NLTK's.
"""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core.signature import format_signature, nrefs_field, version_field
from ...core.stats import SegmentStatistics
from ...core.validation import check_bool, check_reference_presence, check_references
from ...tokenizers import get_tokenizer
from .alignment import ROW_FIELDS, align, score
from .lexicon import stem_function, synonym_function
from .wordnet import WordNet


@dataclass(frozen=True)
class METEORScore:
    """One METEOR score (a fraction in [0, 1]): a segment's, or a corpus mean."""

    score: float
    signature: str = ""
    name: str = field(default="METEOR")

    def format(self, width: int = 4, score_only: bool = False, signature: str | None = None) -> str:
        """``METEOR = 0.6944`` (``METEOR|SIGNATURE = ...`` with a signature)."""
        text = f"{self.score:.{width}f}"
        if score_only:
            return text
        head = f"{self.name}|{signature}" if signature else self.name
        return f"{head} = {text}"

    def to_dict(self) -> dict:
        return {"name": self.name, "score": self.score, "signature": self.signature}

    def __str__(self) -> str:
        return self.format()

    def __float__(self) -> float:
        return float(self.score)


@dataclass(frozen=True)
class METEORScores:
    """Sentence METEOR scores of a batch: ``scores`` (float64 [S]) and the statistics rows behind them
    (int64 [S, 4]: matches, hypothesis length, reference length, chunks of the best reference)."""

    scores: np.ndarray
    stats: np.ndarray
    signature: str = ""
    name: str = "METEOR"

    def __len__(self) -> int:
        return len(self.scores)

    def __getitem__(self, i: int) -> METEORScore:
        return METEORScore(float(self.scores[i]), self.signature, self.name)

    def __iter__(self):
        return (self[i] for i in range(len(self)))

    def tolist(self) -> list[float]:
        return self.scores.tolist()


def _check_parameter(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a real number, got {value!r}")
    if not math.isfinite(value):
        raise ValueError(f"{name} must be finite, got {value!r}")
    return value


def _number_field(value) -> str:
    return repr(float(value)).removesuffix(".0") if float(value).is_integer() else repr(float(value))


class METEOR:
    """METEOR scorer (all options keyword-only).

    * ``tokenize``: the tokenizer for raw strings (a bleuscope tokenizer name; default ``"13a"``, sacreBLEU's
      mteval tokenizer; ``"none"`` splits on whitespace). Token lists (``list``/``tuple`` of strings) are
      used as they are, whatever this option says.
    * ``lowercase``: lowercase every token first (NLTK's default ``preprocess=str.lower``).
    * ``wordnet``: a :class:`WordNet`, a path to a WordNet 3.0 directory (or NLTK's ``wordnet.zip``, or an
      NLTK data directory), or ``None``: the first one found (see :func:`.wordnet.search_locations`).
    * ``stemmer``: an object with ``stem(word)``; ``None``: NLTK's ``PorterStemmer()`` rules.
    * ``alpha``, ``beta``, ``gamma``: NLTK's parameters (0.9, 3.0, 0.5).

    The signature records what changes the numbers: ``nrefs|case|tok|wn|a|b|g|version``.
    """

    name = "METEOR"
    higher_is_better = True
    stats_width = len(ROW_FIELDS)

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
    ) -> None:
        self.tokenizer = get_tokenizer(tokenize)
        self.tokenize = tokenize
        self.lowercase = check_bool(lowercase, "lowercase")
        if wordnet is not None and not isinstance(wordnet, WordNet):
            wordnet = WordNet.load(wordnet)
        self.wordnet = wordnet if wordnet is not None else WordNet.load()
        if stemmer is not None and not callable(getattr(stemmer, "stem", None)):
            raise TypeError(f"stemmer must have a stem(word) method, got {type(stemmer).__name__}")
        self.stemmer = stemmer
        self.alpha = _check_parameter(alpha, "alpha")
        self.beta = _check_parameter(beta, "beta")
        self.gamma = _check_parameter(gamma, "gamma")
        self._stem = stem_function(stemmer)
        self._synonyms = synonym_function(self.wordnet)
        self._last_nrefs: str | None = None

    # -- signature ---------------------------------------------------------------------------------------
    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        if nrefs is None:
            nrefs = self._last_nrefs
        if nrefs is None:
            raise ValueError("the number of references is unknown: score something first, or pass nrefs=")
        return {
            "nrefs": str(nrefs),
            "case": "lc" if self.lowercase else "mixed",
            "tok": self.tokenizer.signature(),
            "stem": "porter" if self.stemmer is None else type(self.stemmer).__name__,
            "wn": self.wordnet.version,
            "a": _number_field(self.alpha),
            "b": _number_field(self.beta),
            "g": _number_field(self.gamma),
            "version": version_field(),
        }

    def signature(self, nrefs: str | int | None = None, *, short: bool = False) -> str:
        """``nrefs:2|case:lc|tok:13a|stem:porter|wn:3.0|a:0.9|b:3|g:0.5|version:bleuscope-...``."""
        fields = self.signature_fields(nrefs)
        if short:
            keys = {"nrefs": "#", "case": "c", "tok": "tok", "stem": "s", "wn": "wn", "a": "a", "b": "b", "g": "g",
                    "version": "v"}
            return "|".join(f"{keys[k]}:{v}" for k, v in fields.items() if v is not None)
        return format_signature(fields)

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

    def check_inputs(self, hypotheses, references) -> tuple[list, list, np.ndarray]:
        """Validated ``(hypotheses, reference streams, presence [S, K])``; items are strings or token lists."""
        if isinstance(hypotheses, str):
            raise TypeError("hypotheses must be a list of segments (strings or token lists), got a single string")
        hyps = list(hypotheses)
        if not hyps:
            raise ValueError("hypotheses is empty: give at least one segment")
        streams = check_references(references, len(hyps), check_items=False)
        return hyps, streams, check_reference_presence(streams)

    # -- statistics --------------------------------------------------------------------------------------
    def pair_row(self, hyp: list[str], ref: list[str]) -> tuple[int, int, int, int]:
        """The statistics row of one tokenized (and lowercased) pair."""
        matches, chunks = align(hyp, ref, self._stem, self._synonyms)
        return matches, len(hyp), len(ref), chunks

    def count_checked(self, hyps: list, streams: list, present: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(rows int64 [S, 4], scores float64 [S])`` of validated input: each segment's best reference."""
        n_seg = len(hyps)
        rows = np.zeros((n_seg, self.stats_width), dtype=np.int64)
        scores = np.zeros(n_seg, dtype=np.float64)
        ref_cache: list[dict] = [{} for _ in streams]  # a reference repeated across segments is tokenized once
        alpha, beta, gamma = self.alpha, self.beta, self.gamma
        for i, text in enumerate(hyps):
            hyp = self.tokens(text, f"hypotheses[{i}]")
            best_row = None
            best = None
            for k, stream in enumerate(streams):
                if not present[i, k]:
                    continue
                ref_text = stream[i]
                key = ref_text if isinstance(ref_text, str) else None
                ref = ref_cache[k].get(key) if key is not None else None
                if ref is None:
                    ref = self.tokens(ref_text, f"references[{k}][{i}]")
                    if key is not None:
                        if len(ref_cache[k]) > 4096:
                            ref_cache[k].clear()
                        ref_cache[k][key] = ref
                row = self.pair_row(hyp, ref)
                value = score(*row, alpha, beta, gamma)
                if best is None or value > best:
                    best, best_row = value, row
            rows[i] = best_row
            scores[i] = best
        return rows, scores

    def segment_statistics(self, hypotheses, references) -> SegmentStatistics:
        """Per-segment rows (matches, hypothesis length, reference length, chunks of the best reference)."""
        hyps, streams, present = self.check_inputs(hypotheses, references)
        rows, _ = self.count_checked(hyps, streams, present)
        return SegmentStatistics(stats=rows, nrefs=present.sum(axis=1).astype(np.int64))

    # -- scores ------------------------------------------------------------------------------------------
    def score_rows(self, rows: np.ndarray, *, float32: bool = False) -> np.ndarray:
        """float64 METEOR per statistics row, with NLTK's arithmetic (``float32`` is accepted and ignored:
        METEOR has no sacreBLEU counterpart)."""
        rows = np.asarray(rows, dtype=np.int64)
        if rows.ndim == 1:
            rows = rows[None, :]
        if rows.ndim != 2 or rows.shape[1] != self.stats_width:
            raise ValueError(f"METEOR statistics rows must have {self.stats_width} columns, got shape {rows.shape}")
        alpha, beta, gamma = self.alpha, self.beta, self.gamma
        return np.fromiter((score(*row, alpha, beta, gamma) for row in rows.tolist()), dtype=np.float64,
                           count=len(rows))

    def score_from_statistics(self, stats: np.ndarray, nrefs: str | int | None = None) -> METEORScore:
        """Corpus METEOR (the mean segment score, ``math.fsum``) from per-segment rows."""
        stats = np.asarray(stats, dtype=np.int64)
        if stats.ndim != 2 or len(stats) == 0:
            raise ValueError("METEOR's corpus score needs per-segment rows [S, 4] with S >= 1")
        return self._mean(self.score_rows(stats), nrefs)

    def _mean(self, scores: np.ndarray, nrefs) -> METEORScore:
        value = math.fsum(scores.tolist()) / len(scores)
        sig = self.signature(nrefs) if (nrefs is not None or self._last_nrefs is not None) else ""
        return METEORScore(value, sig, self.name)

    def sentence_scores(self, hypotheses: Sequence, references: Sequence[Sequence]) -> METEORScores:
        """One METEOR per segment (``references[k][i]``: reference k of segment i; ``None`` = missing)."""
        hyps, streams, present = self.check_inputs(hypotheses, references)
        rows, scores = self.count_checked(hyps, streams, present)
        self._last_nrefs = nrefs_field(present.sum(axis=1))
        return METEORScores(scores, rows, self.signature(self._last_nrefs), self.name)

    def corpus_score(self, hypotheses: Sequence, references: Sequence[Sequence]) -> METEORScore:
        """The mean sentence METEOR of a corpus."""
        batch = self.sentence_scores(hypotheses, references)
        return self._mean(batch.scores, self._last_nrefs)

    def sentence_score(self, hypothesis, references: Sequence) -> METEORScore:
        """METEOR of one hypothesis (a string or a token list) against its references (a list of them)."""
        if not isinstance(hypothesis, (str, list, tuple)):
            raise TypeError(f"hypothesis must be a string or a token list, got {type(hypothesis).__name__}")
        if isinstance(references, str):
            raise TypeError("references must be a list of references (strings or token lists), got a string")
        refs = list(references)
        if not refs:
            raise ValueError("references is empty: give at least one reference")
        return self.corpus_score([hypothesis], [[r] for r in refs])

    def __repr__(self) -> str:
        return f"METEOR({self.signature_fields('?')!r})"


def corpus_meteor(hypotheses: Sequence, references: Sequence[Sequence], **options) -> METEORScore:
    """Functional shortcut: ``METEOR(**options).corpus_score(hypotheses, references)``."""
    return METEOR(**options).corpus_score(hypotheses, references)


def sentence_meteor(hypothesis, references: Sequence, **options) -> METEORScore:
    """Functional shortcut: ``METEOR(**options).sentence_score(hypothesis, references)``."""
    return METEOR(**options).sentence_score(hypothesis, references)
