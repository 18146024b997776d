"""BLEU's options, checked once into a frozen :class:`BLEUOptions` (what a :class:`~.scorer.BLEU` is)."""

from __future__ import annotations

import math
import numbers
import os
from collections.abc import Sequence
from dataclasses import dataclass
from typing import cast

import numpy as np

from ...core import native
from ...core.validation import ArgumentError, ArgumentTypeError, check_bool
from .scoring import SMOOTH_DEFAULTS, ScoringConfig
from .smoothing import check_value as check_chen_cherry_value
from .smoothing import is_chen_cherry, stats_order

#: the highest n-gram order counted (the compiled core's limit; a row has 2 + 2 * order columns per segment)
MAX_NGRAM_ORDER = 1 << 16

#: target language -> default tokenizer, as in sacreBLEU
LANGUAGE_TOKENIZERS = {"zh": "zh", "ja": "ja-mecab", "ko": "ko-mecab"}


def default_tokenizer(trg_lang: str | None) -> str:
    """The tokenizer sacreBLEU picks for a target language (``zh``, ``ja-mecab``, ``ko-mecab``; else ``13a``)."""
    return LANGUAGE_TOKENIZERS.get((trg_lang or "").lower(), "13a")


def _check_number(value, name: str, *, minimum: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise ArgumentTypeError(f"{{}} must be a finite number, got {value!r}", name)
    number = cast(float, value)  # any real number, kept as given (an int stays an int)
    if not math.isfinite(number):  # a number, out of range: ValueError, as Python's own functions raise
        raise ArgumentError(f"{{}} must be a finite number, got {value!r}", name)
    if number < minimum:
        raise ArgumentError(f"{{}} must be >= {minimum}, got {value!r}", name)
    return number


def _check_weights(weights, max_ngram_order) -> tuple[tuple[float, ...] | None, int | None]:
    """``(weights or None when uniform, the order they set)``."""
    if isinstance(weights, (str, bytes)) or not isinstance(weights, (Sequence, np.ndarray)):
        raise ArgumentTypeError(f"{{}} must be a sequence of numbers, got {type(weights).__name__}", "weights")
    weights_t = tuple(float(_check_number(w, f"weights[{i}]")) for i, w in enumerate(weights))
    if not weights_t:
        raise ArgumentError("{} is empty", "weights")
    if abs(math.fsum(weights_t) - 1.0) > 1e-9:
        raise ArgumentError(f"{{}} must sum to 1, they sum to {math.fsum(weights_t)!r}", "weights")
    if max_ngram_order is not None and max_ngram_order != len(weights_t):
        raise ArgumentError(f"{{}}={max_ngram_order} does not match {len(weights_t)} {{}}", "max_ngram_order", "weights")
    return (None if len(set(weights_t)) == 1 else weights_t), len(weights_t)  # uniform: sacreBLEU's formula


def _check_order(max_ngram_order) -> int:
    if max_ngram_order is None:
        return 4
    if isinstance(max_ngram_order, bool) or not isinstance(max_ngram_order, numbers.Integral):
        raise ArgumentTypeError(f"{{}} must be an integer, got {max_ngram_order!r}", "max_ngram_order")
    if max_ngram_order < 1:
        raise ArgumentError(f"{{}} must be >= 1, got {max_ngram_order}", "max_ngram_order")
    return int(max_ngram_order)


def _check_smoothing(smooth_method, smooth_value) -> None:
    if not isinstance(smooth_method, str) or smooth_method not in SMOOTH_DEFAULTS:
        raise ArgumentError(
            f"unknown {{}} {smooth_method!r}; choose one of: {', '.join(SMOOTH_DEFAULTS)}", "smooth_method"
        )
    if smooth_value is not None:
        if SMOOTH_DEFAULTS[smooth_method] is None:
            raise ArgumentError(
                f"{{}} is not used by {{}}={smooth_method!r}; leave it None", "smooth_value", "smooth_method"
            )
        _check_number(smooth_value, "smooth_value")
        if is_chen_cherry(smooth_method):
            check_chen_cherry_value(smooth_method, smooth_value)


@dataclass(frozen=True)
class BLEUOptions:
    """BLEU's settings, checked (:meth:`of`): what the scorer's signature, counter and scores depend on."""

    tokenize: str
    lowercase: bool
    smooth_method: str
    smooth_value: float | None
    max_ngram_order: int
    effective_order: bool
    weights: tuple[float, ...] | None
    trg_lang: str | None
    spm_model: str | os.PathLike | None
    force: bool
    engine: str
    threads: int | None

    @classmethod
    def of(
        cls,
        *,
        tokenize: str | None = "13a",
        lowercase: bool = False,
        smooth_method: str = "exp",
        smooth_value: float | None = None,
        max_ngram_order: int | None = None,
        effective_order: bool = False,
        weights: Sequence[float] | None = None,
        trg_lang: str | None = None,
        spm_model: str | os.PathLike | None = None,
        force: bool = False,
        engine: str = "auto",
        threads: int | None = None,
    ) -> BLEUOptions:
        """The options checked, in the order sacreBLEU's errors come (a TypeError or ValueError naming the
        argument); ``tokenize=None``: the target language's tokenizer (:func:`default_tokenizer`)."""
        engine = native.check_engine(engine)
        threads = native.check_threads(threads)
        lowercase = check_bool(lowercase, "lowercase")
        force = check_bool(force, "force")  # sacreBLEU's switch for the "looks tokenized" warning
        effective_order = check_bool(effective_order, "effective_order")
        if trg_lang is not None and not isinstance(trg_lang, str):
            raise ArgumentTypeError(f"{{}} must be a language code string, got {trg_lang!r}", "trg_lang")
        if tokenize is None:
            tokenize = default_tokenizer(trg_lang)
        _check_smoothing(smooth_method, smooth_value)
        weights_t = None
        if weights is not None:
            weights_t, max_ngram_order = _check_weights(weights, max_ngram_order)
        order = _check_order(max_ngram_order)
        counted = stats_order(smooth_method, order)  # one more for chen-cherry-5/7
        if counted > MAX_NGRAM_ORDER:
            most = MAX_NGRAM_ORDER - (counted - order)
            names = ("max_ngram_order",) if most == MAX_NGRAM_ORDER else ("max_ngram_order", "smooth_method")
            extra = "" if most == MAX_NGRAM_ORDER else f" with {{}}={smooth_method!r} (it counts one order more)"
            raise ArgumentError(f"{{}} must be at most {most:,}{extra}, got {max_ngram_order}", *names)
        return cls(
            tokenize=tokenize,
            lowercase=lowercase,
            smooth_method=smooth_method,
            smooth_value=smooth_value,
            max_ngram_order=order,
            effective_order=effective_order,
            weights=weights_t,
            trg_lang=trg_lang,
            spm_model=spm_model,
            force=force,
            engine=engine,
            threads=threads,
        )

    @property
    def stats_order(self) -> int:
        """n-gram orders counted into the statistics (one more than scored for chen-cherry-5/7)."""
        return stats_order(self.smooth_method, self.max_ngram_order)

    @property
    def config(self) -> ScoringConfig:
        """What the scores are computed with (:mod:`.scoring`)."""
        default_value = SMOOTH_DEFAULTS[self.smooth_method]
        return ScoringConfig(
            max_ngram_order=self.max_ngram_order,
            smooth_method=self.smooth_method,
            smooth_value=default_value if self.smooth_value is None else self.smooth_value,
            effective_order=self.effective_order,
            weights=self.weights,
        )


__all__ = ["LANGUAGE_TOKENIZERS", "MAX_NGRAM_ORDER", "BLEUOptions", "default_tokenizer"]
