"""EED, the Extended Edit Distance (Stanchev, Wang and Ney 2019), with the rwth-i6 program's numbers:
float32 arithmetic, its English preprocessing, its default parameters.

With several references a segment takes the smallest value (the original takes one reference). The corpus
score is the **mean** of the segment values (the original's system score), carried exactly in the
statistics rows (:mod:`bleuscope.metrics.segment_mean`). ``value`` is the 0-1 number, ``score`` = 100 x
value; lower is better. Publications of EED numbers should cite the EED paper, as its authors ask.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Sequence

import numpy as np

from ...core import native
from ...core.native import strmetrics as native_strmetrics
from ...core.signature import version_field
from ..segment_mean import SegmentMeanMetric, SegmentMeanScore
from .reference import DEFAULTS, eed, preprocess_en

PREPROCESSING = {"en": preprocess_en, "none": None}


def _parameter(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value) or value < 0:
        raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
    return float(value)


def _number(value: float) -> str:
    return repr(value).removesuffix(".0") if value.is_integer() else repr(value)


class EED(SegmentMeanMetric):
    """EED scorer (all options keyword-only).

    * ``preprocess``: ``"en"`` (the original's, its default) or ``"none"`` (the text as it is).
    * ``alpha``, ``deletion``, ``insertion``, ``substitution``, ``rho``: the original's parameters (2.0, 0.2,
      1.0, 1.0, 0.3), used in float32.
    * ``engine``: ``"auto"``, ``"native"`` or ``"numpy"`` (:mod:`.reference`); the numbers are the same.
    * ``threads``: threads of the compiled core (None: it picks a count for the input size).

    The signature: ``nrefs|prep|a|del|ins|sub|rho|multi:min|agg:mean|version``.
    """

    name = "EED"
    threads = native.ThreadsOption()
    short_keys = {"prep": "p", "a": "a", "del": "d", "ins": "i", "sub": "s", "rho": "r", "multi": "m", "agg": "agg"}

    def __init__(
        self,
        *,
        preprocess: str = "en",
        alpha: float = DEFAULTS[0],
        deletion: float = DEFAULTS[1],
        insertion: float = DEFAULTS[2],
        substitution: float = DEFAULTS[3],
        rho: float = DEFAULTS[4],
        engine: str = "auto",
        threads: int | None = None,
    ) -> None:
        if preprocess not in PREPROCESSING:
            raise ValueError(f"preprocess must be one of {', '.join(map(repr, PREPROCESSING))}, got {preprocess!r}")
        self.preprocess = preprocess
        self.parameters = tuple(
            _parameter(v, n)
            for v, n in zip((alpha, deletion, insertion, substitution, rho),
                            ("alpha", "deletion", "insertion", "substitution", "rho"))
        )
        self.engine = native.check_engine(engine)
        self.threads = threads

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:1|prep:en|a:2|del:0.2|ins:1|sub:1|rho:0.3|multi:min|agg:mean|version:bleuscope-...``."""
        a, d, i, s, r = (_number(v) for v in self.parameters)
        return {"nrefs": str(nrefs), "prep": self.preprocess, "a": a, "del": d, "ins": i, "sub": s, "rho": r,
                "multi": "min", "agg": "mean", "version": version_field()}

    def prepared(self, items: list) -> list:
        """The segments after the preprocessing (None stays None)."""
        prep = PREPROCESSING[self.preprocess]
        if prep is None:
            return list(items)
        return [None if x is None else prep(x) for x in items]

    def _compiled(self):
        """The compiled scorer of these parameters, built once (None: the numpy engine, or no compiled core)."""
        if "_counter" not in self.__dict__:
            native_engine = native.resolve_engine(self.engine) == "native"
            self.__dict__["_counter"] = native_strmetrics.eed_scorer(self.parameters, self.threads) \
                if native_engine else None
        return self.__dict__["_counter"]

    def segment_values(self, hyps: list, streams: list, present: np.ndarray) -> np.ndarray:
        """float64 ``[S]``: each segment's smallest EED over its references."""
        scorer = self._compiled()
        if scorer is not None and self.preprocess == "en":
            # the compiled preprocessing, for text whose digits are ASCII (else Python's, below)
            values = scorer.values(hyps, streams, preprocess=True)
            if values is not None:
                return np.asarray(values, dtype=np.float64)
        hyps = self.prepared(hyps)
        streams = [self.prepared(s) for s in streams]
        values = None if scorer is None else scorer.values(hyps, streams)
        if values is not None:
            return np.asarray(values, dtype=np.float64)
        out = np.empty(len(hyps), dtype=np.float64)
        for i, hyp in enumerate(hyps):
            out[i] = min(eed(hyp, s[i], self.parameters) for s in streams if s[i] is not None)
        return out


def corpus_eed(hypotheses: Sequence[str], references: Sequence[Sequence[str]], **options) -> SegmentMeanScore:
    """Functional shortcut: ``EED(**options).corpus_score(hypotheses, references)``."""
    return EED(**options).corpus_score(hypotheses, references)


def sentence_eed(hypothesis: str, references: Sequence[str], **options) -> SegmentMeanScore:
    """Functional shortcut: ``EED(**options).sentence_score(hypothesis, references)``."""
    return EED(**options).sentence_score(hypothesis, references)
