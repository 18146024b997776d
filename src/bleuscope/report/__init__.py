"""A self-contained HTML report that shows where MT systems differ (``bleuscope report``).

>>> from bleuscope.report import build_report
>>> page = build_report({"A": ["the cat sat"], "B": ["a cat sat"]}, [["the cat sat"]], n_bootstrap=100)
>>> page.startswith("<!DOCTYPE html>")
True

One HTML file: the systems table with bootstrap intervals, significance clusters and the pairwise p-value
matrix, sentence-score histograms, a system-vs-system scatter plot, BLEU by segment length and by length
ratio, n-gram precision by order, the biggest wins and losses between two systems, and a sortable,
filterable segment table with matched n-grams highlighted. Charts are inline SVG; a small inline script
sorts, filters and pages; nothing is loaded from the network. Nothing in the package imports this module.
"""

from __future__ import annotations

import os
from collections.abc import Sequence

from .. import BLEU, significance
from .compute import DEFAULT_MAX_SEGMENTS, ReportData, compute_report
from .render import render


def build_report(
    systems,
    references,
    *,
    sources: Sequence[str] | None = None,
    bleu: BLEU | None = None,
    metrics: Sequence = (),
    reference_names: Sequence[str] | None = None,
    title: str | None = None,
    n_bootstrap: int = significance.BOOTSTRAP_SAMPLES,
    seed: int | None = significance.DEFAULT_SEED,
    alpha: float = 0.05,
    max_segments: int | None = DEFAULT_MAX_SEGMENTS,
    pair: tuple[str, str] | None = None,
    **bleu_options,
) -> str:
    """The report as one HTML string.

    ``systems`` maps names to hypotheses (or is a list of ``(name, hypotheses)`` pairs); ``references`` are
    reference streams (``references[k][i]``, ``None`` where a segment lacks reference k), as everywhere in
    bleuscope. BLEU options are keyword arguments of :class:`bleuscope.BLEU` (``tokenize=``, ``lowercase=``,
    ``trg_lang=``, ...), or a ready ``bleu=BLEU(...)``. ``metrics`` adds further metrics implementing the
    additive-metric interface (``segment_statistics``, ``score_rows``, ``signature``, ``name``).
    Bootstrap intervals and the all-pairs test use ``n_bootstrap`` resamples and ``seed`` (sacreBLEU's
    defaults: 1000 and 12345). The texts of the first ``max_segments`` segments go into the page (None: all);
    every score covers all segments. ``pair`` names the two systems compared by default (else the first two).
    """
    if bleu is not None and bleu_options:
        raise TypeError("give either bleu=BLEU(...) or BLEU keyword options, not both")
    if bleu is None:
        bleu = BLEU(**bleu_options)
    return render(report_data(systems, references, sources=sources, bleu=bleu, metrics=metrics,
                              reference_names=reference_names, title=title, n_bootstrap=n_bootstrap,
                              seed=seed, alpha=alpha, max_segments=max_segments, pair=pair))


def write_report(path: str | os.PathLike, systems, references, **options) -> None:
    """:func:`build_report` written to ``path`` (UTF-8) atomically: a failure leaves an existing file as it was."""
    page = build_report(systems, references, **options)
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(page)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


report_data = compute_report

__all__ = ["ReportData", "build_report", "report_data", "write_report"]
