"""CharacTER: translation edit rate on characters (Wang et al. 2016), the values of the rwth-i6 program
(float32 shift scores, as its C++ distance) and of PyPI ``cer`` 1.2.0 (what HF evaluate's ``character``
wraps).

A segment's words are the hypothesis and reference split as ``str.split()`` does (the rwth-i6 program
reads the files and splits each line so); with several references a segment takes the smallest value
(HF ``character``'s ``min`` over references). The corpus score is the **mean** of the segment values (the
rwth-i6 program's system score), carried exactly in the statistics rows
(:mod:`bleuscope.metrics.segment_mean`). ``value`` is the 0-1 number, ``score`` = 100 x value; lower is
better.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core import native
from ...core.native import strmetrics as native_strmetrics
from ...core.signature import version_field
from ..segment_mean import SegmentMeanMetric, SegmentMeanScore
from .reference import character


class CharacTER(SegmentMeanMetric):
    """CharacTER scorer (all options keyword-only).

    * ``shift_precision``: ``"float32"`` (default: the rwth-i6 program, whose C++ distance scores shifts in
      float32) or ``"float64"`` (PyPI ``cer`` 1.2.0, which HF ``character`` wraps). They differ where float32
      rounding makes two shift candidates tie (2 of 4,000 WMT22 segments: 0.5 against 0.4839).
    * ``engine``: ``"auto"`` (the compiled core when it is built), ``"native"`` or ``"numpy"``
      (:mod:`.reference`, the readable definition in Python); the numbers are the same.
    * ``threads``: threads of the compiled core (None: it picks a count for the input size).

    The signature: ``nrefs|tok:split|shift:f32|multi:min|agg:mean|version`` (``shift:f64`` for float64).
    """

    name = "CharacTER"
    threads = native.ThreadsOption()
    short_keys = {"shift": "s", "multi": "m", "agg": "agg"}

    def __init__(self, *, shift_precision: str = "float32", engine: str = "auto", threads: int | None = None) -> None:
        if shift_precision not in ("float32", "float64"):
            raise ValueError(f"shift_precision must be 'float32' or 'float64', got {shift_precision!r}")
        self.shift_precision = shift_precision
        self.engine = native.check_engine(engine)
        self.threads = threads

    def signature_fields(self, nrefs: str | int | None = None) -> dict[str, str | None]:
        """``nrefs:1|tok:split|shift:f32|multi:min|agg:mean|version:bleuscope-...``."""
        return {"nrefs": str(nrefs), "tok": "split", "shift": "f64" if self.shift_precision == "float64" else "f32",
                "multi": "min", "agg": "mean", "version": version_field()}

    def _compiled(self):
        """The compiled scorer of these settings, built once (None: the numpy engine, or no compiled core)."""
        if "_counter" not in self.__dict__:
            native_engine = native.resolve_engine(self.engine) == "native"
            self.__dict__["_counter"] = native_strmetrics.character_scorer(
                self.shift_precision == "float64", self.threads) if native_engine else None
        return self.__dict__["_counter"]

    def segment_values(self, hyps: list, streams: list, present: np.ndarray) -> np.ndarray:
        """float64 ``[S]``: each segment's smallest CharacTER over its references."""
        float64 = self.shift_precision == "float64"
        scorer = self._compiled()
        values = None if scorer is None else scorer.values(hyps, streams)
        if values is not None:
            return np.asarray(values, dtype=np.float64)
        out = np.empty(len(hyps), dtype=np.float64)
        for i, hyp in enumerate(hyps):
            words = hyp.split()
            out[i] = min(character(words, s[i].split(), float64) for s in streams if s[i] is not None)
        return out


def corpus_character(hypotheses: Sequence[str], references: Sequence[Sequence[str]], **options) -> SegmentMeanScore:
    """Functional shortcut: ``CharacTER(**options).corpus_score(hypotheses, references)``."""
    return CharacTER(**options).corpus_score(hypotheses, references)


def sentence_character(hypothesis: str, references: Sequence[str], **options) -> SegmentMeanScore:
    """Functional shortcut: ``CharacTER(**options).sentence_score(hypothesis, references)``."""
    return CharacTER(**options).sentence_score(hypothesis, references)
