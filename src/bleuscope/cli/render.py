"""Every printed result of the command: one renderer for text, LaTeX, JSON, TSV and JSON Lines.

Input: a list of :class:`MetricResults` (one per ``-m`` metric, sorted by name), each with the scores of every
system. The shapes are sacreBLEU 2.6.0's: one system -> one JSON object per metric (a list for several), or
``name|signature = score`` lines aligned on ``=``; several systems -> a table with a column per metric and
the signatures under it (JSON: ``[{"system": ..., "BLEU": "37.6", "chrF2": "65.6"}, ...]``). A metric printed
alone whose registry row has ``details`` (BLEU) adds them: its statistics in JSON, JSON Lines and TSV, and its
own table columns. The building blocks (:func:`grid`, :func:`latex`, :func:`tsv`, :func:`json_object`) are
shared by the corpus scores, the sentence scores and the significance results. Nothing here reads input or
computes a corpus score.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..metrics.base import Metric
    from .metrics import MetricDetails
    from .scoring import SystemResult

FORMATS = ("json", "text", "latex", "tsv", "jsonl")


@dataclass(frozen=True)
class RenderOptions:
    format: str = "json"  # one of FORMATS
    width: int = 1  # decimals of printed scores
    short: bool = False  # short signatures
    score_only: bool = False  # bare scores

    @classmethod
    def from_args(cls, args: argparse.Namespace) -> RenderOptions:
        return cls(format=args.format or "json", width=args.width, short=args.short, score_only=args.score_only)


class RegistryRow(Protocol):
    """What the renderers read of a metric's registry row (:class:`bleuscope.cli.metrics.MetricSpec`, or a
    ``--scores`` column's): its own extra output, if any."""

    @property
    def details(self) -> MetricDetails | None: ...


@dataclass
class MetricResults:
    """One metric's scores of every system: its registry row, its scorer and one result per system
    (:class:`bleuscope.cli.scoring.SystemResult`: name, stats, nrefs, score)."""

    spec: RegistryRow
    scorer: Metric
    systems: list[SystemResult]

    @property
    def label(self) -> str:
        """The metric's printed name (``BLEU``, ``chrF2``, ``chrF2++``, ``TER``)."""
        return self.systems[0].score.name

    def signature(self, short: bool = False) -> str:
        return self.scorer.signature(self.systems[0].nrefs, short=short)


# ---------------------------------------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------------------------------------
def rounded(score: float, width: int) -> str:
    return f"{score:.{width}f}"


def grid(headers: list[str], rows: list[list[str]], aligns: list[str] | None = None, header_pad: int = 0) -> str:
    """A box-drawn table (sacreBLEU's fancy_grid look); cells may hold several lines.

    ``aligns``: "right", "center" or "left" per column (default: first column right, the others centred);
    headers are centred except the first column's, which follows its column. ``header_pad=2`` makes every
    column at least two wider than its header, as tabulate (sacreBLEU's tables) does."""
    if aligns is None:
        aligns = ["right"] + ["center"] * (len(headers) - 1)
    cells = [[str(c).split("\n") for c in row] for row in [headers] + rows]
    widths = [
        max([len(headers[j]) + header_pad] + [len(line) for row in cells for line in row[j]])
        for j in range(len(headers))
    ]

    def rule(left, mid, right, fill):
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def render(row, header):
        out = []
        for k in range(max(len(c) for c in row)):
            parts = []
            for j, c in enumerate(row):
                text = c[k] if k < len(c) else ""
                parts.append(" " + _align(text, widths[j], "center" if header and j else aligns[j]) + " ")
            out.append("│" + "│".join(parts) + "│")
        return out

    lines = [rule("╒", "╤", "╕", "═")] + render(cells[0], True) + [rule("╞", "╪", "╡", "═")]
    for i, row in enumerate(cells[1:]):
        if i:
            lines.append(rule("├", "┼", "┤", "─"))
        lines += render(row, False)
    lines.append(rule("╘", "╧", "╛", "═"))
    return "\n".join(lines) + "\n"


def _align(text: str, width: int, how: str) -> str:
    if how == "right":
        return text.rjust(width)
    if how == "left":
        return text.ljust(width)
    pad = width - len(text)
    return " " * (pad // 2) + text + " " * (pad - pad // 2)


#: LaTeX escapes: tabulate's latex_booktabs rules (sacreBLEU's tables), plus the two symbols of the
#: significance tables that LaTeX cannot typeset in text mode, and newlines (cells are one line in LaTeX)
_LATEX_ESCAPES = {
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "^": r"\^{}",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "\\": r"\textbackslash{}",
    "<": r"\ensuremath{<}",
    ">": r"\ensuremath{>}",
    "±": r"$\pm$",
    "μ": r"$\mu$",
    "\n": " ",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(c, c) for c in text)


def latex(headers: list[str], rows: list[list[str]], header_pad: int | None = None) -> str:
    """A booktabs tabular. ``header_pad=None``: cells joined by `` & `` (bleuscope's own tables); a number:
    padded, aligned columns, each at least ``header_pad`` wider than its header (tabulate's latex_booktabs, as
    sacreBLEU prints its tables)."""
    headers = [latex_escape(h) for h in headers]
    rows = [[latex_escape(str(c)) for c in row] for row in rows]
    aligns = ["right"] + ["center"] * (len(headers) - 1)
    if header_pad is None:
        head = " & ".join(headers) + r" \\"
        body = [" & ".join(row) + r" \\" for row in rows]
    else:
        widths = [max([len(headers[j]) + header_pad] + [len(row[j]) for row in rows]) for j in range(len(headers))]

        def cells(row):
            return "&".join(" " + _align(c, w, a) + " " for c, w, a in zip(row, widths, aligns)) + r"\\"

        head, body = cells(headers), [cells(row) for row in rows]
    spec = "".join("r" if a == "right" else "c" for a in aligns)
    return "\n".join([rf"\begin{{tabular}}{{{spec}}}", r"\toprule", head, r"\midrule", *body, r"\bottomrule",
                      r"\end{tabular}"]) + "\n"


def tsv_cell(text) -> str:
    return str(text).replace("\t", " ").replace("\n", " ")


def tsv(headers: list[str], rows: list[list]) -> str:
    return "".join("\t".join(tsv_cell(c) for c in row) + "\n" for row in [headers, *rows])


def json_object(pairs: dict, indent: str = " ", close: str = "") -> str:
    """A JSON object with one key per line (sacreBLEU's layout) and lists kept on one line."""
    inner = ",\n".join(f"{indent}{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in pairs.items())
    return "{\n" + inner + "\n" + close + "}"


def json_list(objects: list[dict]) -> str:
    """sacreBLEU's ``json.dumps(objects, indent=4)`` layout, with lists kept on one line."""
    return "[\n" + ",\n".join("    " + json_object(d, " " * 8, " " * 4) for d in objects) + "\n]\n"


def signature_footer(signatures: list[tuple[str, str]]) -> str:
    """sacreBLEU's block under a table: ``(label, signature)`` pairs."""
    return "-----------------\nMetric signatures\n-----------------\n" + "".join(
        f" - {label:<10} {sig}\n" for label, sig in signatures
    )


def signature_dict(signature: str) -> dict:
    return dict(part.split(":", 1) for part in signature.split("|") if part)


def align_on_equals(lines: list[str]) -> str:
    """``name|signature = score`` lines right-aligned on `` = ``, as sacreBLEU prints several metrics."""
    cut = max(line.index(" = ") for line in lines)
    return "".join(f"{line[: line.index(' = ')]:>{cut}}{line[line.index(' = ') :]}\n" for line in lines)


# ---------------------------------------------------------------------------------------------------------
# corpus scores
# ---------------------------------------------------------------------------------------------------------
def score_json(metric: MetricResults, k: int, width: int, details) -> dict:
    """sacreBLEU 2.6.0's keys in its order (name, score, signature, [verbose_score], signature fields), then
    the unrounded score and the metric's details."""
    result = metric.systems[k]
    score = result.score
    signature = metric.scorer.signature(result.nrefs)
    d = {"name": score.name, "score": float(rounded(score.score, width)), "signature": signature}
    if score.verbose:
        d["verbose_score"] = score.verbose
    d.update(signature_dict(signature))
    d["score_unrounded"] = score.score
    if details is not None:
        d.update(details.json_fields(score))
    return d


def render_corpus(table: list[MetricResults], options: RenderOptions) -> str:
    """Corpus scores of every system for every metric (``table``: one :class:`MetricResults` per metric)."""
    fmt, width = options.format, options.width
    n_sys = len(table[0].systems)
    details = table[0].spec.details if len(table) == 1 else None
    if options.score_only:
        return "".join(rounded(m.systems[k].score.score, width) + "\n" for k in range(n_sys) for m in table)
    if fmt == "jsonl":
        return "".join(
            json.dumps({"system": m.systems[k].name, **score_json(m, k, width, details)}, ensure_ascii=False) + "\n"
            for k in range(n_sys)
            for m in table
        )
    if fmt == "tsv":
        if details is None:
            head = ["system", "metric", "score", "score_unrounded", "signature"]
            rows = [
                [m.systems[k].name, m.label, rounded(m.systems[k].score.score, width), repr(m.systems[k].score.score),
                 m.signature(options.short)]
                for k in range(n_sys)
                for m in table
            ]
            return tsv(head, rows)
        m = table[0]
        head = ["system", m.label, "score", *details.tsv_header(m.scorer), "signature"]
        rows = [
            [r.name, rounded(r.score.score, width), repr(r.score.score), *details.tsv_values(r.score),
             m.signature(options.short)]
            for r in m.systems
        ]
        return tsv(head, rows)
    if n_sys == 1 and fmt == "json":
        objects = [json_object(score_json(m, 0, width, details)) for m in table]
        return (objects[0] if len(objects) == 1 else "[\n" + ",\n".join(objects) + "\n]") + "\n"
    if n_sys == 1 and fmt == "text":
        return align_on_equals(
            [m.systems[0].score.format(width, signature=m.signature(options.short)) for m in table]
        )
    if fmt == "json":
        items = []
        for k in range(n_sys):
            d: dict[str, object] = {"system": table[0].systems[k].name}
            d.update({m.label: rounded(m.systems[k].score.score, width) for m in table})
            if details is not None:
                score = table[0].systems[k].score
                d["signature"] = table[0].scorer.signature(table[0].systems[k].nrefs)
                if score.verbose:
                    d["verbose_score"] = score.verbose
                d["score_unrounded"] = score.score
                d.update(details.json_fields(score))
            items.append(d)
        return json_list(items)
    signatures = [(m.label, m.signature(options.short)) for m in table]
    if details is not None:  # the metric's own table (bleuscope's, with its statistics)
        m = table[0]
        header = ["System", m.label, *details.table_header(m.scorer)]
        rows = [[r.name, rounded(r.score.score, width), *details.table_values(r.score)] for r in m.systems]
        if fmt == "latex":
            return latex(header, rows) + "".join(f"% {label} signature: {sig}\n" for label, sig in signatures)
        return grid(header, rows) + "\n" + signature_footer(signatures)
    # sacreBLEU's table: a column per metric
    header = ["System", *(m.label for m in table)]
    rows = [[table[0].systems[k].name, *(rounded(m.systems[k].score.score, width) for m in table)]
            for k in range(n_sys)]
    body = latex(header, rows, header_pad=2) if fmt == "latex" else grid(header, rows, header_pad=2)
    return body + "\n" + signature_footer(signatures)


# ---------------------------------------------------------------------------------------------------------
# sentence scores
# ---------------------------------------------------------------------------------------------------------
#: segments rendered at a time by :func:`render_sentences` (its output is produced piece by piece)
SENTENCE_CHUNK = 20_000


def _generic_sentences(scorer, block, signature: str):
    scores = scorer.score_rows(block).tolist()
    rows = block.tolist()
    return (
        scores,
        None,
        [[signature]] * len(scores),
        [{"name": scorer.name, "score": s, "stats": row} for s, row in zip(scores, rows)],
    )


def render_sentences(metric: MetricResults, options: RenderOptions, chunk: int = SENTENCE_CHUNK) -> Iterator[str]:
    """Per-segment scores of one system and one metric: text (sacreBLEU's -sl lines), jsonl/json (score and
    statistics), or tsv. The text comes in pieces of ``chunk`` segments, so that a million sentence scores are
    never one string in memory (:func:`bleuscope.core.files.write_output` writes the pieces as they come)."""
    scorer, details, result = metric.scorer, metric.spec.details, metric.systems[0]
    fmt, width = options.format, options.width
    signature = scorer.signature(result.nrefs)
    head = f"{scorer.name}|{scorer.signature(result.nrefs, short=options.short)} = "
    if fmt == "tsv" and not options.score_only:
        extra = details.sentence_tsv_header(scorer) if details is not None else ["signature"]
        yield tsv(["line", scorer.name, "score", *extra], [])
    total = len(result.stats)
    for start in range(0, total, chunk):
        block = result.stats[start : start + chunk]
        if details is not None:
            scores, verbose, tsv_values, records = details.sentences(scorer, block)
            records = [{"score": s, **r} for s, r in zip(scores, records)]
        else:
            scores, verbose, tsv_values, records = _generic_sentences(scorer, block, signature)
        if options.score_only:
            yield "".join(f"{s:.{width}f}\n" for s in scores)
        elif fmt == "text":
            tails = [""] * len(scores) if verbose is None else [" " + v for v in verbose]
            yield "".join(f"{head}{s:.{width}f}{tail}\n" for s, tail in zip(scores, tails))
        elif fmt == "tsv":
            yield "".join(
                "\t".join(map(str, [i, f"{s:.{width}f}", repr(s), *values])) + "\n"
                for i, (s, values) in enumerate(zip(scores, tsv_values), start + 1)
            )
        else:
            lines = [
                json.dumps({"line": i, **record, "signature": signature}, ensure_ascii=False)
                for i, record in enumerate(records, start + 1)
            ]
            if fmt == "jsonl":
                yield "\n".join(lines) + "\n"
            else:
                yield ("[\n" if start == 0 else ",\n") + ",\n".join(lines)
    if fmt == "json" and not options.score_only:
        yield "\n]\n"


# ---------------------------------------------------------------------------------------------------------
# confidence intervals and significance tests
# ---------------------------------------------------------------------------------------------------------
def _fmt(x, width: int) -> str:
    return "-" if x is None else f"{x:.{width}f}"


def _signature_block(labels: list[str], signatures: list[str]) -> str:
    return signature_footer(list(zip(labels, signatures)))


def _metric_tsv(labels: list[str], head: list[str], rows_per_metric: list[list[list]]) -> str:
    """TSV of one or several metrics: with several, a ``metric`` column follows the ``system`` column."""
    if len(labels) == 1:
        return tsv(head, rows_per_metric[0])
    rows = []
    for k in range(len(rows_per_metric[0])):
        for label, metric_rows in zip(labels, rows_per_metric):
            row = metric_rows[k]
            rows.append([row[0], label, *row[1:]])
    return tsv([head[0], "metric", *head[1:]], rows)


def render_single_ci(cis: list, scores: list, signatures: list[str], options: RenderOptions) -> str:
    """``--confidence`` for one system, one :class:`ConfidenceInterval` per metric: sacreBLEU's JSON (one
    object, a list of them for several metrics), or its text lines aligned on ``=``."""
    width, fmt = options.width, options.format
    if fmt in ("json", "jsonl"):
        objects = []
        for ci, score, signature in zip(cis, scores, signatures):
            d = {
                "name": ci.metric,
                "score": float(f"{ci.score:.{width}f}"),
                "signature": signature,
                "confidence_mean": float(f"{ci.mean:.{width}f}"),
                "confidence_var": float(f"{ci.ci:.{width}f}"),
                "confidence": f"μ = {ci.mean:.{width}f} ± {ci.ci:.{width}f}",
            }
            if score.verbose:  # sacreBLEU leaves the key out for metrics without a verbose score (chrF, TER)
                d["verbose_score"] = score.verbose
            d.update(signature_dict(signature))
            d.update(
                {
                    "confidence_lower": ci.lower,
                    "confidence_upper": ci.upper,
                    "score_unrounded": ci.score,
                    "confidence_mean_unrounded": ci.mean,
                    "confidence_var_unrounded": ci.ci,
                }
            )
            objects.append(json.dumps(d, indent=1 if fmt == "json" else None, ensure_ascii=False))
        if fmt == "jsonl":
            return "".join(o + "\n" for o in objects)
        return (objects[0] if len(objects) == 1 else "[\n" + ",\n".join(objects) + "\n]") + "\n"
    if fmt == "tsv":
        return _metric_tsv(
            [ci.metric for ci in cis],
            ["system", "score", "mean", "ci", "lower", "upper", "signature"],
            [
                [[ci.system, *(f"{v:.{width}f}" for v in (ci.score, ci.mean, ci.ci, ci.lower, ci.upper)), signature]]
                for ci, signature in zip(cis, signatures)
            ],
        )
    lines = []
    for ci, score, signature in zip(cis, scores, signatures):
        sc = f"{ci.score:.{width}f} (μ = {ci.mean:.{width}f} ± {ci.ci:.{width}f})"
        if options.score_only:
            lines.append(sc)
        else:
            lines.append(f"{ci.metric}|{signature} = {sc}" + (f" {score.verbose}" if score.verbose else ""))
    if options.score_only:
        return "".join(line + "\n" for line in lines)
    return align_on_equals(lines)


def _p_text(p: float, sep: str) -> str:
    return f"{sep}(p = {p:.4f})" + ("*" if p <= 0.05 else "")


def _merged_by_system(per_metric: list[list[dict]]) -> list[dict]:
    """``[{"system": s, metric: {...}}, ...]`` of each metric -> one row per system with every metric's cell."""
    rows = []
    for cells in zip(*per_metric):
        row = dict(cells[0])
        for cell in cells[1:]:
            row.update({k: v for k, v in cell.items() if k != "system"})
        rows.append(row)
    return rows


def render_paired(results: list, signatures: list[str], options: RenderOptions) -> str:
    """Paired tests against the baseline (``--paired-bs`` / ``--paired-ar``), one result per metric: one JSON
    list (a row per system, a cell per metric) and one table with a column per metric, as sacreBLEU."""
    fmt, width = options.format, options.width
    labels = [res.metric for res in results]
    if fmt == "json":
        per_metric = []
        for res, signature in zip(results, signatures):
            rows = res.to_json()
            for row, s in zip(rows, res.systems):
                row[res.metric].update({"lower": s.lower, "upper": s.upper, "delta": s.delta, "signature": signature})
            per_metric.append(rows)
        return json.dumps(_merged_by_system(per_metric), indent=4) + "\n"
    if fmt == "jsonl":
        return "".join(
            json.dumps(
                {
                    "system": s.system,
                    "metric": res.metric,
                    **s.to_dict(),
                    "lower": s.lower,
                    "upper": s.upper,
                    "delta": s.delta,
                    "signature": signature,
                }
            )
            + "\n"
            for k in range(len(results[0].systems))
            for res, signature in zip(results, signatures)
            for s in [res.systems[k]]
        )
    if fmt == "tsv":
        per_metric = []
        for res, signature in zip(results, signatures):
            rows = []
            for s in res.systems:
                p = "" if s.p_value is None else f"{s.p_value:.4f}"
                values = (s.score, s.delta, s.mean, s.ci, s.lower, s.upper)
                rows.append([s.system, *(_fmt(v, width) if v is not None else "" for v in values), p, signature])
            per_metric.append(rows)
        head = ["system", "score", "delta", "mean", "ci", "lower", "upper", "p_value", "signature"]
        return _metric_tsv(labels, head, per_metric)
    has_ci = any(s.mean is not None for res in results for s in res.systems)
    sep = "\n" if fmt == "text" else " "
    headers = ["System", *(f"{label} (μ ± 95% CI)" if has_ci else label for label in labels)]
    rows = []
    for k, first in enumerate(results[0].systems):
        row = [first.system]
        for res in results:
            s = res.systems[k]
            cell = f"{s.score:.{width}f}"
            if s.mean is not None:
                cell += f" ({s.mean:.{width}f} ± {s.ci:.{width}f})"
            if s.p_value is not None:
                cell += _p_text(s.p_value, sep)
            row.append(cell)
        rows.append(row)
    res = results[0]
    if res.test == "bs":
        msg = f"Paired bootstrap resampling test with {res.n_samples} resampling trials"
    else:
        msg = f"Paired approximate randomization test with {res.n_samples} trials"
    footer = "\n".join(
        [
            "-" * len(msg),
            msg,
            "-" * len(msg),
            f" - Each system is pairwise compared to {res.baseline}.",
            "   Actual system score / bootstrap estimated true mean / 95% CI are provided for each metric."
            if has_ci
            else "   Actual system score is provided for each metric.",
            "",
            " - Null hypothesis: the system and the baseline translations are essentially generated by the same",
            "   underlying process. The p-value is roughly the probability of the absolute score difference",
            "   (delta) or higher occurring by chance, if the null hypothesis is correct.",
            ' - p-values <= 0.05 are marked with "*": the delta is unlikely to be due to chance. Significance',
            "   does not tell which system is better, only that the difference is replicable.",
            "",
        ]
    )
    # sacreBLEU's table (tabulate): every column at least two wider than its header
    body = latex(headers, rows, header_pad=2) if fmt == "latex" else grid(headers, rows, header_pad=2)
    return body + "\n" + footer + "\n" + _signature_block(labels, signatures)


def render_ci_table(results: list, signatures: list[str], options: RenderOptions) -> str:
    """``--confidence`` for several systems (each resampled on its own), one list of intervals per metric."""
    fmt, width = options.format, options.width
    labels = [cis[0].metric for cis in results]
    if fmt in ("json", "jsonl"):
        per_metric = [
            [
                {
                    "system": c.system,
                    c.metric: {
                        "score": c.score,
                        "p_value": None,
                        "mean": c.mean,
                        "ci": c.ci,
                        "lower": c.lower,
                        "upper": c.upper,
                        "signature": signature,
                    },
                }
                for c in cis
            ]
            for cis, signature in zip(results, signatures)
        ]
        merged = _merged_by_system(per_metric)
        if fmt == "json":
            return json.dumps(merged, indent=4) + "\n"
        return "".join(json.dumps(r) + "\n" for r in merged)
    if fmt == "tsv":
        return _metric_tsv(
            labels,
            ["system", "score", "mean", "ci", "lower", "upper", "signature"],
            [
                [
                    [c.system, *(f"{v:.{width}f}" for v in (c.score, c.mean, c.ci, c.lower, c.upper)), signature]
                    for c in cis
                ]
                for cis, signature in zip(results, signatures)
            ],
        )
    headers = ["System", *(f"{label} (μ ± 95% CI)" for label in labels)]
    rows = [
        [first.system, *(f"{c.score:.{width}f} ({c.mean:.{width}f} ± {c.ci:.{width}f})" for c in (cis[k] for cis in results))]
        for k, first in enumerate(results[0])
    ]
    footer = (
        f"Bootstrap confidence intervals with {results[0][0].n_samples} resamples per system "
        "(each system resampled on its own; use --paired-bs to compare systems)\n"
    )
    body = latex(headers, rows) if fmt == "latex" else grid(headers, rows, ["right"] + ["center"] * len(labels))
    return body + "\n" + footer + "\n" + _signature_block(labels, signatures)


def render_all_pairs(results: list, signatures: list[str], options: RenderOptions) -> str:
    """``--paired-all``: per metric, the ranking with clusters and the matrix of p-values (one JSON list, one
    TSV, or the tables of each metric one after another)."""
    fmt = options.format
    if fmt == "json":
        rows = []
        for res, signature in zip(results, signatures):
            for row in res.to_json():
                row[res.metric]["signature"] = signature
                rows.append(row)
        return json.dumps(rows, indent=4) + "\n"
    if fmt == "jsonl":
        return "".join(
            json.dumps({**row, "signature": signature}) + "\n"
            for res, signature in zip(results, signatures)
            for row in res.to_json()
        )
    if fmt == "tsv" and len(results) > 1:
        # one header for every metric: the p-value columns follow the systems' input order
        head = ["rank", "metric", "system", "score", "mean", "ci", "cluster", "rank_range",
                *(f"p[{name}]" for name in results[0].systems), "signature"]
        rows = []
        for res, signature in zip(results, signatures):
            for pos, i, cells in _all_pairs_rows(res, options):
                ps = [f"{res.p_values[i, j]:.4f}" if i != j else "" for j in range(len(res.systems))]
                rows.append([str(pos), res.metric, *cells, *ps, signature])
        return tsv(head, rows)
    return "\n".join(_one_all_pairs(res, signature, options) for res, signature in zip(results, signatures))


def _all_pairs_rows(res, options: RenderOptions):
    width = options.width
    for pos, i in enumerate(res.order, start=1):
        lo, hi = res.rank_ranges[i]
        yield pos, i, [
            res.systems[i],
            f"{res.scores[i]:.{width}f}",
            _fmt(res.means[i], width),
            _fmt(res.cis[i], width),
            str(res.cluster_of[i]),
            f"{lo}-{hi}",
        ]


def _one_all_pairs(res, signature: str, options: RenderOptions) -> str:
    fmt, width = options.format, options.width
    order = list(res.order)
    if fmt == "tsv":
        head = ["rank", "system", "score", "mean", "ci", "cluster", "rank_range",
                *(f"p[{res.systems[j]}]" for j in order), "signature"]
        rows = [
            [str(pos), *cells, *(f"{res.p_values[i, j]:.4f}" if i != j else "" for j in order), signature]
            for pos, i, cells in _all_pairs_rows(res, options)
        ]
        return tsv(head, rows)
    has_ci = res.means[0] is not None
    header = f"{res.metric} (μ ± 95% CI)" if has_ci else res.metric
    rows = []
    for pos, i in enumerate(order, start=1):
        cell = f"{res.scores[i]:.{width}f}"
        if has_ci:
            cell += f" ({res.means[i]:.{width}f} ± {res.cis[i]:.{width}f})"
        lo, hi = res.rank_ranges[i]
        rows.append([f"{pos}", res.systems[i], cell, str(res.cluster_of[i]), f"{lo}" if lo == hi else f"{lo}-{hi}"])
    headers = ["#", "System", header, "Cluster", "Rank"]
    table = (
        grid(headers, rows, ["right", "right", "center", "center", "center"]) if fmt == "text" else latex(headers, rows)
    )
    prow = [
        [f"{pos}"]
        + [
            ("" if i == j else f"{res.p_values[i, j]:.4f}" + ("*" if res.p_values[i, j] < res.alpha else ""))
            for j in order
        ]
        for pos, i in enumerate(order, start=1)
    ]
    pheaders = ["p"] + [str(k) for k in range(1, len(order) + 1)]
    ptable = grid(pheaders, prow, ["right"] + ["center"] * len(order)) if fmt == "text" else latex(pheaders, prow)
    test = "paired bootstrap resampling" if res.test == "bs" else "paired approximate randomization"
    return (
        table + "\n" + f"All-pairs {test} with {res.n_samples} {'resamples' if res.test == 'bs' else 'trials'}; "
        f"p-values (row vs column, * = p < {res.alpha:g}):\n"
        + ptable
        + "\n"
        + f" - Clusters: a line is drawn between ranks k and k+1 when every system above it is significantly\n"
        f"   better (p < {res.alpha:g}) than every system below it. Rank: best-worst rank consistent with\n"
        "   the significant differences.\n\n" + signature_footer([(res.metric, signature)])
    )
