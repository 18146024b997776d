"""jiwer 4.0.0's measures: ``wer``, ``mer``, ``wil``, ``wip`` (words) and ``cer`` (characters), each of one
or more reference/hypothesis pairs, the counts summed over the pairs. With the default transforms the
compiled core tokenizes and counts without building the alignment chunks."""

from __future__ import annotations

from .process import _measures, error_rate, process_characters, process_words, summed_counts
from .transformations import cer_default, wer_default

__all__ = ["wer", "mer", "wil", "wip", "cer"]


def _word_measures(reference, hypothesis, reference_transform, hypothesis_transform):
    counts = summed_counts(reference, hypothesis, reference_transform, hypothesis_transform)
    if counts is None:
        out = process_words(reference, hypothesis, reference_transform, hypothesis_transform)
        return out.wer, out.mer, out.wil, out.wip
    return _measures(*counts)


def wer(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    """Word error rate (S + D + I) / (H + S + D); all-empty references give the number of insertions."""
    rate = error_rate(reference, hypothesis, reference_transform, hypothesis_transform)
    if rate is None:
        return _word_measures(reference, hypothesis, reference_transform, hypothesis_transform)[0]
    return rate


def mer(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    """Match error rate (S + D + I) / (H + S + D + I)."""
    return _word_measures(reference, hypothesis, reference_transform, hypothesis_transform)[1]


def wil(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    """Word information lost, 1 - WIP."""
    return _word_measures(reference, hypothesis, reference_transform, hypothesis_transform)[2]


def wip(reference=None, hypothesis=None, reference_transform=wer_default, hypothesis_transform=wer_default):
    """Word information preserved, (H / reference words) * (H / hypothesis words)."""
    return _word_measures(reference, hypothesis, reference_transform, hypothesis_transform)[3]


def cer(reference=None, hypothesis=None, reference_transform=cer_default, hypothesis_transform=cer_default):
    """Character error rate: WER over characters (``cer_default``: ends stripped, inner spaces kept)."""
    rate = error_rate(reference, hypothesis, reference_transform, hypothesis_transform)
    if rate is None:
        return process_characters(reference, hypothesis, reference_transform, hypothesis_transform).cer
    return rate
