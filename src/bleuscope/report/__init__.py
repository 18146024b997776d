"""A self-contained HTML report that shows where MT systems differ (``bleuscope report``).

>>> from bleuscope.report import build_report
>>> page = build_report({"A": ["the cat sat"], "B": ["a cat sat"]}, [["the cat sat"]], n_bootstrap=100)
>>> page.startswith("<!DOCTYPE html>")
True

One HTML file: for every metric (BLEU, chrF, TER, ...) the systems table with bootstrap intervals,
significance clusters, rank ranges and the pairwise p-value matrix, the difference from the best system;
the n-grams one system gets right and another does not, word accuracy by frequency bucket, scores by
sentence length and length difference (all with paired-bootstrap intervals); sentence-score distributions,
a system-vs-system scatter plot, the biggest wins and losses between two systems, and a sortable,
filterable segment table with matched n-grams highlighted. Every table exports to LaTeX and CSV. Charts are
inline SVG; a small inline script sorts, filters and pages; nothing is loaded from the network. Nothing in
the package imports this module.
"""

from __future__ import annotations

import inspect
import os

#: names given by the modules that need numpy, imported on first use: ``python -m bleuscope.report`` then
#: runs the command's thread policy (one OpenBLAS thread, set before numpy loads) as ``bleuscope report`` does
_LAZY = {"InputFile": "compute", "ReportData": "compute", "compute_report": "compute", "report_data": "compute",
         "render": "render"}


def __getattr__(name: str):
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), "compute_report" if name == "report_data" else name)
    if name != "render":  # the attribute `render` is the submodule once it is imported
        globals()[name] = value
    return value


def build_report(systems, references, *, bleu=None, **options) -> str:
    """The report as one HTML string; the options are those of :func:`report_data`, plus BLEU's.

    ``systems`` maps names to hypotheses (or is a list of ``(name, hypotheses)`` pairs); ``references`` are
    reference streams (``references[k][i]``, ``None`` where a segment lacks reference k), as everywhere in
    bleuscope. BLEU options are keyword arguments of :class:`bleuscope.BLEU` (``tokenize=``, ``lowercase=``,
    ``trg_lang=``, ...), or a ready ``bleu=BLEU(...)``. ``metrics`` adds further metrics implementing the
    additive-metric interface (``segment_statistics``, ``score_rows``, ``signature``, ``name``).
    Bootstrap intervals and the all-pairs test use ``n_bootstrap`` resamples and ``seed`` (sacreBLEU's
    defaults: 1000 and 12345). The texts of the first ``max_segments`` segments go into the page (None: all);
    every score covers all segments. ``pair`` names the two systems compared by default (else the two best).
    ``holm`` adjusts the pairwise p-values with Holm-Bonferroni; ``train`` (lines of the training data's
    target side, named ``train_name``) gives the word frequencies of the word-accuracy buckets (else the
    reference); ``command``, ``inputs`` (:class:`InputFile`) and ``created`` go into the page header.
    """
    from .. import BLEU
    from .compute import compute_report
    from .render import render

    report_options = {k: options.pop(k) for k in list(options) if k in _report_options()}
    if bleu is not None and options:
        raise TypeError(f"give either bleu=BLEU(...) or BLEU keyword options, not both (got {sorted(options)})")
    if bleu is None:
        bleu = BLEU(**options)
    return render(compute_report(systems, references, bleu=bleu, **report_options))


def _report_options() -> frozenset:
    """The keyword arguments of :func:`report_data` (everything else given to build_report is a BLEU option)."""
    from .compute import compute_report

    return frozenset(inspect.signature(compute_report).parameters) - {"systems", "references", "bleu"}


def write_report(path: str | os.PathLike, systems, references, **options) -> None:
    """:func:`build_report` written to ``path`` (UTF-8) atomically, by the command's writer
    (:func:`bleuscope.core.files.write_atomic`): a failure or SIGTERM leaves an existing file as it was and no
    temporary file behind; an existing file keeps its permissions."""
    from ..core.files import write_atomic

    page = build_report(systems, references, **options)
    write_atomic(os.fspath(path), page)


__all__ = ["InputFile", "ReportData", "build_report", "report_data", "write_report"]
