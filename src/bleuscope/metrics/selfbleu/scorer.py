"""Self-BLEU: the diversity of a set of generated sentences, as each sentence's BLEU against all the other
sentences, averaged (lower is more diverse), with distinct-n from the same n-gram pass.

By default each sentence is scored with NLTK 3.10.4's ``sentence_bleu`` (4-grams, uniform weights,
``SmoothingFunction().method1``) against every other sentence, which is what Texygen's ``SelfBleu`` does
with its own settings (3-grams by default; :meth:`SelfBLEU.texygen`, whose ``fast=True`` scores only the
first 500 sentences against each other) and what fast-bleu computes for several weight vectors at once
(:meth:`SelfBLEU.fast_bleu`). The per-sentence values equal NLTK's bit for bit; the work is O(total n-grams)
instead of N^2 BLEU calls (:mod:`.reference` says why it is exact). The average is the plain left-to-right
sum of the sentence values divided by their number, as Texygen adds them.
"""

from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from ...core import native
from ...core.native import strmetrics as native_strmetrics
from ...core.signature import format_signature, version_field
from ...tokenizers import get_tokenizer
from ...tokenizers.base import BaseTokenizer
from .reference import self_bleu as python_self_bleu

SMOOTHING = ("method0", "method1")


@dataclass(frozen=True)
class SelfBLEUScore:
    """Self-BLEU of a set: ``score`` the mean of ``scores`` (each sentence's BLEU against the others, NLTK's
    0-1 scale) for the first weight vector; ``by_weights`` / ``scores_by_weights`` for every named weight
    vector; ``distinct[n]`` distinct-n (distinct n-grams / n-grams of the set) and ``ngrams[n]`` the counts
    ``(distinct, total)``, n = 1..max order."""

    score: float
    scores: np.ndarray
    by_weights: dict[str, float]
    scores_by_weights: dict[str, np.ndarray]
    distinct: dict[int, float]
    ngrams: dict[int, tuple[int, int]]
    signature: str = ""
    name: str = field(default="Self-BLEU")

    def __float__(self) -> float:
        return float(self.score)

    def __str__(self) -> str:
        return f"{self.name} = {self.score:.4f}"


def _mean(values: np.ndarray) -> float:
    total = 0.0
    for x in values.tolist():
        total += x
    return total / len(values)


def _weights(weights) -> dict[str, tuple[float, ...]]:
    named = dict(weights) if isinstance(weights, Mapping) else {"default": weights}
    if not named:
        raise ValueError("weights is empty: give at least one weight vector")
    out = {}
    for key, w in named.items():
        w = tuple(w)
        if not w or any(isinstance(x, bool) or not isinstance(x, numbers.Real) for x in w):
            raise ValueError(f"weights {key!r} must be a non-empty sequence of numbers, got {w!r}")
        out[str(key)] = tuple(float(x) for x in w)
    return out


class SelfBLEU:
    """Self-BLEU scorer (all options keyword-only).

    * ``max_order``: n-gram order with uniform weights ``(1/max_order,) * max_order`` (default 4, NLTK's);
      or ``weights``: one weight vector, or ``{name: weights}`` for several at once (fast-bleu's form).
    * ``smoothing``: NLTK's ``"method1"`` (default; ``epsilon`` 0.1, NLTK's) or ``"method0"`` (none).
    * ``tokenize``: for sentences given as strings, a bleuscope tokenizer name, or None (default: split on
      whitespace, ``str.split()``); token lists are used as they are.
    * ``sample_size``: score only the first ``sample_size`` sentences against each other (Texygen's fast
      mode uses 500); None: all.
    * ``engine``: ``"auto"``, ``"native"`` or ``"numpy"`` (:mod:`.reference`); the numbers are the same.
    """

    weights: dict[str, tuple[float, ...]]
    smoothing: str
    epsilon: float
    tokenizer: BaseTokenizer | None
    sample_size: int | None
    engine: str

    def __init__(
        self,
        *,
        max_order: int = 4,
        weights=None,
        smoothing: str = "method1",
        epsilon: float = 0.1,
        tokenize: str | None = None,
        sample_size: int | None = None,
        engine: str = "auto",
    ) -> None:
        if isinstance(max_order, bool) or not isinstance(max_order, numbers.Integral) or max_order < 1:
            raise ValueError(f"max_order must be an integer >= 1, got {max_order!r}")
        self.weights = _weights(weights if weights is not None else (1.0 / max_order,) * max_order)
        if smoothing not in SMOOTHING:
            raise ValueError(f"smoothing must be one of {', '.join(map(repr, SMOOTHING))}, got {smoothing!r}")
        self.smoothing = smoothing
        if isinstance(epsilon, bool) or not isinstance(epsilon, numbers.Real) or not epsilon >= 0:
            raise ValueError(f"epsilon must be a number >= 0, got {epsilon!r}")
        self.epsilon = float(epsilon)
        self.tokenizer = get_tokenizer(tokenize) if tokenize is not None else None
        if sample_size is not None and (isinstance(sample_size, bool) or not isinstance(sample_size, numbers.Integral)
                                        or sample_size < 2):
            raise ValueError(f"sample_size must be an integer >= 2 or None, got {sample_size!r}")
        self.sample_size = sample_size
        self.engine = native.check_engine(engine)

    @classmethod
    def texygen(cls, gram: int = 3, *, fast: bool = False, **options) -> SelfBLEU:
        """Texygen's ``SelfBleu(gram=3)``: uniform ``1/gram`` weights, method1; ``fast=True`` is its
        ``get_score(is_fast=True)``: the first 500 sentences only. (Texygen tokenizes with NLTK's
        ``word_tokenize``: give token lists for its exact numbers.)"""
        return cls(max_order=gram, sample_size=500 if fast else None, **options)

    @classmethod
    def fast_bleu(cls, weights=None, **options) -> SelfBLEU:
        """fast-bleu's ``SelfBLEU(references, weights)``: several named weight vectors at once (its default
        ``{"bigram": (1/2, 1/2), "trigram": (1/3, 1/3, 1/3)}``), method1 smoothing."""
        if weights is None:
            weights = {"bigram": (1 / 2.0, 1 / 2.0), "trigram": (1 / 3.0, 1 / 3.0, 1 / 3.0)}
        return cls(weights=weights, **options)

    @property
    def max_order(self) -> int:
        return max(len(w) for w in self.weights.values())

    def signature_fields(self) -> dict[str, str | None]:
        """``n:4|w:uniform|smooth:method1|eps:0.1|tok:split|sample:all|version``."""
        uniform = all(w == (1.0 / len(w),) * len(w) for w in self.weights.values()) and len(self.weights) == 1
        return {
            "n": str(self.max_order),
            "w": "uniform" if uniform else ",".join(self.weights),
            "smooth": self.smoothing,
            "eps": repr(self.epsilon) if self.smoothing == "method1" else None,
            "tok": "split" if self.tokenizer is None else self.tokenizer.signature(),
            "sample": "all" if self.sample_size is None else str(self.sample_size),
            "version": version_field(),
        }

    def signature(self) -> str:
        return format_signature(self.signature_fields())

    def _sentences(self, sentences) -> list:
        if isinstance(sentences, str):
            raise TypeError("sentences must be a list of sentences (strings or token lists), got a single string")
        items = list(sentences)
        if self.sample_size is not None:
            items = items[: self.sample_size]
        if len(items) < 2:
            raise ValueError(f"Self-BLEU needs at least two sentences, got {len(items)}")
        out: list[str | Sequence[str]] = []
        for i, s in enumerate(items):
            if isinstance(s, str):
                out.append(s if self.tokenizer is None else self.tokenizer(s.rstrip()).split())
            elif isinstance(s, (list, tuple)):
                out.append(s)
            else:
                raise TypeError(f"sentences[{i}] must be a string or a list of token strings, got {type(s).__name__}")
        return out

    def _compiled(self, vectors: list, epsilon: float | None):
        """The compiled scorer of these weights and smoothing, built once (None: the numpy engine, or no
        compiled core)."""
        key = (tuple(map(tuple, vectors)), epsilon, self.engine)
        held = self.__dict__.get("_scorer")
        if held is None or held[0] != key:
            native_engine = native.resolve_engine(self.engine) == "native"
            held = (key, native_strmetrics.self_bleu_scorer(vectors, epsilon) if native_engine else None)
            self.__dict__["_scorer"] = held
        return held[1]

    def __getstate__(self) -> dict:
        """The settings without the compiled scorer, which is built again where it is needed."""
        state = dict(self.__dict__)
        state.pop("_scorer", None)
        return state

    def score(self, sentences: Sequence) -> SelfBLEUScore:
        """Self-BLEU of ``sentences`` (at least two; strings or token lists)."""
        sents = self._sentences(sentences)
        names = list(self.weights)
        vectors = [self.weights[k] for k in names]
        epsilon = self.epsilon if self.smoothing == "method1" else None
        n = self.max_order
        scorer = self._compiled(vectors, epsilon)
        native = None if scorer is None else scorer.score(sents)
        if native is not None:
            scores, _, _, _, _, distinct, totals = native
            per = np.asarray(scores, dtype=np.float64).reshape(len(vectors), len(sents))
            distinct, totals = distinct.tolist(), totals.tolist()
        else:
            tokens = [s.split() if isinstance(s, str) else list(s) for s in sents]
            per = np.array([python_self_bleu(tokens, w, epsilon) for w in vectors], dtype=np.float64)
            distinct, totals = [], []
            for k in range(1, n + 1):
                grams = [tuple(t[i:i + k]) for t in tokens for i in range(len(t) - k + 1)]
                distinct.append(len(set(grams)))
                totals.append(len(grams))
        by = {k: _mean(per[i]) for i, k in enumerate(names)}
        return SelfBLEUScore(
            score=by[names[0]],
            scores=per[0],
            by_weights=by,
            scores_by_weights={k: per[i] for i, k in enumerate(names)},
            distinct={k + 1: (distinct[k] / totals[k] if totals[k] else 0.0) for k in range(n)},
            ngrams={k + 1: (int(distinct[k]), int(totals[k])) for k in range(n)},
            signature=self.signature(),
        )

    def __repr__(self) -> str:
        return f"SelfBLEU({self.signature_fields()!r})"
