"""Every printed result of the command: one renderer for text, LaTeX, JSON, TSV and JSON Lines.

The building blocks (:func:`grid`, :func:`latex`, :func:`tsv`, :func:`json_object`) are shared by the corpus
scores, the sentence scores and the significance results, for one system or several. Nothing here reads
input or computes a score.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Iterator
from dataclasses import dataclass

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


# ---------------------------------------------------------------------------------------------------------
# building blocks
# ---------------------------------------------------------------------------------------------------------
def rounded(score: float, width: int) -> str:
    return f"{score:.{width}f}"


def grid(headers: list[str], rows: list[list[str]], aligns: list[str] | None = None) -> str:
    """A box-drawn table (the look of sacreBLEU's fancy_grid); cells may hold several lines.

    ``aligns``: "right", "center" or "left" per column (default: first column right, the others centred);
    headers are centred except the first column's, which follows its column."""
    if aligns is None:
        aligns = ["right"] + ["center"] * (len(headers) - 1)
    cells = [[str(c).split("\n") for c in row] for row in [headers] + rows]
    widths = [max(len(line) for row in cells for line in row[j]) for j in range(len(headers))]

    def rule(left, mid, right, fill):
        return left + mid.join(fill * (w + 2) for w in widths) + right

    def align(text, w, how):
        if how == "right":
            return text.rjust(w)
        if how == "left":
            return text.ljust(w)
        pad = w - len(text)
        return " " * (pad // 2) + text + " " * (pad - pad // 2)

    def render(row, header):
        out = []
        for k in range(max(len(c) for c in row)):
            parts = []
            for j, c in enumerate(row):
                text = c[k] if k < len(c) else ""
                parts.append(" " + align(text, widths[j], "center" if header and j else aligns[j]) + " ")
            out.append("│" + "│".join(parts) + "│")
        return out

    lines = [rule("╒", "╤", "╕", "═")] + render(cells[0], True) + [rule("╞", "╪", "╡", "═")]
    for i, row in enumerate(cells[1:]):
        if i:
            lines.append(rule("├", "┼", "┤", "─"))
        lines += render(row, False)
    lines.append(rule("╘", "╧", "╛", "═"))
    return "\n".join(lines) + "\n"


_LATEX_ESCAPES = {
    "\\": r"\textbackslash{}",
    "&": r"\&",
    "%": r"\%",
    "$": r"\$",
    "#": r"\#",
    "_": r"\_",
    "{": r"\{",
    "}": r"\}",
    "~": r"\textasciitilde{}",
    "^": r"\textasciicircum{}",
    "±": r"$\pm$",
    "μ": r"$\mu$",
    "\n": " ",
}


def latex_escape(text: str) -> str:
    return "".join(_LATEX_ESCAPES.get(c, c) for c in text)


def latex(headers: list[str], rows: list[list[str]]) -> str:
    """A booktabs tabular, as sacreBLEU's latex format."""
    spec = "r" + "c" * (len(headers) - 1)
    body = [" & ".join(latex_escape(c) for c in row) + r" \\" for row in rows]
    return (
        "\n".join(
            [
                rf"\begin{{tabular}}{{{spec}}}",
                r"\toprule",
                " & ".join(latex_escape(h) for h in headers) + r" \\",
                r"\midrule",
                *body,
                r"\bottomrule",
                r"\end{tabular}",
            ]
        )
        + "\n"
    )


def tsv_cell(text) -> str:
    return str(text).replace("\t", " ").replace("\n", " ")


def tsv(headers: list[str], rows: list[list]) -> str:
    return "".join("\t".join(tsv_cell(c) for c in row) + "\n" for row in [headers, *rows])


def json_object(pairs: dict, indent: str = " ", close: str = "") -> str:
    """A JSON object with one key per line (sacreBLEU's layout) and lists kept on one line."""
    inner = ",\n".join(f"{indent}{json.dumps(k)}: {json.dumps(v, ensure_ascii=False)}" for k, v in pairs.items())
    return "{\n" + inner + "\n" + close + "}"


def order_columns(n: int) -> list[str]:
    """TSV column names of the per-order statistics: precisions, matches, totals for orders 1..n."""
    return [f"{what}_{k}" for what in ("prec", "correct", "total") for k in range(1, n + 1)]


def signature_footer(signatures: list[str], metric: str = "BLEU") -> str:
    """sacreBLEU's block under a table."""
    return "-----------------\nMetric signatures\n-----------------\n" + "".join(
        f" - {metric:<10} {sig}\n" for sig in signatures
    )


def signature_dict(signature: str) -> dict:
    return dict(part.split(":", 1) for part in signature.split("|") if part)


# ---------------------------------------------------------------------------------------------------------
# corpus scores
# ---------------------------------------------------------------------------------------------------------
def _score_fields(score) -> dict:
    """Statistics added to sacreBLEU's keys."""
    return {
        "score_unrounded": score.score,
        "counts": list(score.counts),
        "totals": list(score.totals),
        "precisions": list(score.precisions),
        "bp": score.bp,
        "ratio": score.ratio,
        "sys_len": score.sys_len,
        "ref_len": score.ref_len,
    }


def corpus_json_dict(result, scorer, width: int) -> dict:
    """sacreBLEU 2.6.0's keys in its order (name, score, signature, verbose_score, signature fields), then ours."""
    score = result.score
    signature = scorer.signature(result.nrefs)
    d = {
        "name": "BLEU",
        "score": float(rounded(score.score, width)),
        "signature": signature,
        "verbose_score": score.verbose,
    }
    d.update(signature_dict(signature))
    d.update(_score_fields(score))
    return d


def render_corpus(results: list, scorer, options: RenderOptions) -> str:
    """Corpus scores of one system or several (``results``: name, nrefs, score per system)."""
    fmt, width = options.format, options.width
    if options.score_only:
        return "".join(rounded(r.score.score, width) + "\n" for r in results)
    if fmt == "json":
        if len(results) == 1:
            return json_object(corpus_json_dict(results[0], scorer, width)) + "\n"
        items = []
        for r in results:
            d = {
                "system": r.name,
                "BLEU": rounded(r.score.score, width),
                "signature": scorer.signature(r.nrefs),
                "verbose_score": r.score.verbose,
            }
            d.update(_score_fields(r.score))
            items.append("    " + json_object(d, " " * 8, " " * 4))
        return "[\n" + ",\n".join(items) + "\n]\n"
    if fmt == "jsonl":
        return "".join(
            json.dumps({"system": r.name, **corpus_json_dict(r, scorer, width)}, ensure_ascii=False) + "\n"
            for r in results
        )
    signatures = sorted({scorer.signature(r.nrefs, short=options.short) for r in results})
    if fmt == "tsv":
        n = scorer.max_ngram_order
        head = ["system", "BLEU", "score", "bp", "ratio", "sys_len", "ref_len"] + order_columns(n) + ["signature"]
        rows = []
        for r in results:
            s = r.score
            rows.append(
                [
                    r.name,
                    rounded(s.score, width),
                    repr(s.score),
                    repr(s.bp),
                    repr(s.ratio),
                    s.sys_len,
                    s.ref_len,
                    *map(repr, s.precisions),
                    *s.counts,
                    *s.totals,
                    scorer.signature(r.nrefs, short=options.short),
                ]
            )
        return tsv(head, rows)
    if fmt == "text" and len(results) == 1:
        r = results[0]
        return r.score.format(width, signature=scorer.signature(r.nrefs, short=options.short)) + "\n"
    header = ["System", "BLEU", f"precisions (1-{scorer.max_ngram_order})", "BP", "ratio", "hyp_len", "ref_len"]
    rows = []
    for r in results:
        s = r.score
        rows.append(
            [
                r.name,
                rounded(s.score, width),
                "/".join(f"{p:.1f}" for p in s.precisions),
                f"{s.bp:.3f}",
                f"{s.ratio:.3f}",
                str(s.sys_len),
                str(s.ref_len),
            ]
        )
    if fmt == "latex":
        return latex(header, rows) + "".join(f"% BLEU signature: {sig}\n" for sig in signatures)
    return grid(header, rows) + "\n" + signature_footer(signatures)


# ---------------------------------------------------------------------------------------------------------
# sentence scores
# ---------------------------------------------------------------------------------------------------------
#: segments rendered at a time by :func:`render_sentences` (its output is produced piece by piece)
SENTENCE_CHUNK = 20_000


def render_sentences(result, scorer, options: RenderOptions, chunk: int = SENTENCE_CHUNK) -> Iterator[str]:
    """Per-segment scores: text (sacreBLEU's -sl lines), jsonl/json (score and statistics), or tsv.

    The text comes in pieces of ``chunk`` segments, so that a million sentence scores are never one string
    in memory (:func:`bleuscope.core.files.write_output` writes the pieces as they come)."""
    fmt, n = options.format, scorer.max_ngram_order
    if fmt == "tsv" and not options.score_only:
        yield tsv(
            ["line", "BLEU", "score", "bp", "sys_len", "ref_len"] + order_columns(n),
            [],
        )
    total = len(result.stats)
    for start in range(0, total, chunk):
        piece = _sentence_piece(result, scorer, options, start, min(total, start + chunk))
        if fmt == "json" and not options.score_only:
            piece = ("[\n" if start == 0 else ",\n") + piece
        yield piece
    if fmt == "json" and not options.score_only:
        yield "\n]\n"


def _sentence_piece(result, scorer, options: RenderOptions, start: int, end: int) -> str:
    import numpy as np

    from ..core.stats import layout
    from ..metrics.bleu.scoring import compute_scores

    block = result.stats[start:end]
    res = compute_scores(block, scorer.config)
    n = scorer.max_ngram_order
    cols = layout(getattr(scorer, "stats_order", n))  # some smoothing methods also count (N+1)-grams
    stats = np.concatenate(
        [block[:, [cols.hyp_len, cols.ref_len]], block[:, cols.correct_upto(n)], block[:, cols.total_upto(n)]], axis=1
    )
    width = options.width
    scores = res.score.tolist()
    if options.score_only:
        return "".join(f"{s:.{width}f}\n" for s in scores)
    rows = stats.tolist()
    precisions = res.precisions.tolist()
    bps = res.bp.tolist()
    fmt = options.format
    numbered = enumerate(zip(scores, rows, precisions, bps), start + 1)
    if fmt == "text":
        head = f"BLEU|{scorer.signature(result.nrefs, short=options.short)} = "
        out = []
        for _, (s, row, prec, bp) in numbered:
            ratio = row[0] / row[1] if row[1] else 0
            out.append(
                f"{head}{s:.{width}f} {'/'.join(f'{p:.1f}' for p in prec)} (BP = {bp:.3f} "
                f"ratio = {ratio:.3f} hyp_len = {row[0]:d} ref_len = {row[1]:d})\n"
            )
        return "".join(out)
    if fmt == "tsv":
        return "".join(
            "\t".join(map(str, [i, f"{s:.{width}f}", repr(s), repr(bp), row[0], row[1], *map(repr, prec), *row[2:]]))
            + "\n"
            for i, (s, row, prec, bp) in numbered
        )
    sig_long = scorer.signature(result.nrefs)
    objects = [
        json.dumps(
            {
                "line": i,
                "score": s,
                "counts": row[2 : 2 + n],
                "totals": row[2 + n :],
                "precisions": prec,
                "bp": bp,
                "sys_len": row[0],
                "ref_len": row[1],
                "signature": sig_long,
            },
            ensure_ascii=False,
        )
        for i, (s, row, prec, bp) in numbered
    ]
    if fmt == "jsonl":
        return "\n".join(objects) + "\n"
    return ",\n".join(objects)  # json: render_sentences adds the brackets and separators


# ---------------------------------------------------------------------------------------------------------
# confidence intervals and significance tests
# ---------------------------------------------------------------------------------------------------------
def _fmt(x, width: int) -> str:
    return "-" if x is None else f"{x:.{width}f}"


def _table(headers, rows, aligns, signature, fmt, footer: str = "", metric: str = "BLEU") -> str:
    """A significance table (text or latex) with its explanation and the signature block."""
    body = latex(headers, rows) if fmt == "latex" else grid(headers, rows, aligns)
    return body + "\n" + (footer + "\n" if footer else "") + signature_footer([signature], metric)


def render_single_ci(ci, score, signature: str, options: RenderOptions) -> str:
    """``--confidence`` for one system: sacreBLEU's JSON keys, or its text line."""
    width, fmt = options.width, options.format
    conf = f"μ = {ci.mean:.{width}f} ± {ci.ci:.{width}f}"
    if fmt in ("json", "jsonl"):
        d = {
            "name": ci.metric,
            "score": float(f"{ci.score:.{width}f}"),
            "signature": signature,
            "confidence_mean": float(f"{ci.mean:.{width}f}"),
            "confidence_var": float(f"{ci.ci:.{width}f}"),
            "confidence": conf,
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
        return json.dumps(d, indent=1 if fmt == "json" else None, ensure_ascii=False) + "\n"
    if fmt == "tsv":
        return tsv(
            ["system", "score", "mean", "ci", "lower", "upper", "signature"],
            [[ci.system, *(f"{v:.{width}f}" for v in (ci.score, ci.mean, ci.ci, ci.lower, ci.upper)), signature]],
        )
    sc = f"{ci.score:.{width}f} ({conf})"
    if options.score_only:
        return sc + "\n"
    return f"{ci.metric}|{signature} = {sc}" + (f" {score.verbose}" if score.verbose else "") + "\n"


def _p_text(p: float, sep: str) -> str:
    return f"{sep}(p = {p:.4f})" + ("*" if p <= 0.05 else "")


def render_paired(res, signature: str, options: RenderOptions) -> str:
    """A paired test against the baseline (``--paired-bs`` / ``--paired-ar``)."""
    fmt, width = options.format, options.width
    if fmt == "json":
        rows = res.to_json()
        for row, s in zip(rows, res.systems):
            row[res.metric].update({"lower": s.lower, "upper": s.upper, "delta": s.delta, "signature": signature})
        return json.dumps(rows, indent=4) + "\n"
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
            for s in res.systems
        )
    if fmt == "tsv":
        rows = []
        for s in res.systems:
            p = "" if s.p_value is None else f"{s.p_value:.4f}"
            vals = [_fmt(v, width) if v is not None else "" for v in (s.score, s.delta, s.mean, s.ci, s.lower, s.upper)]
            rows.append([s.system, *vals, p, signature])
        return tsv(["system", "score", "delta", "mean", "ci", "lower", "upper", "p_value", "signature"], rows)
    has_ci = any(s.mean is not None for s in res.systems)
    header = f"{res.metric} (μ ± 95% CI)" if has_ci else res.metric
    sep = "\n" if fmt == "text" else " "
    rows = []
    for s in res.systems:
        cell = f"{s.score:.{width}f}"
        if s.mean is not None:
            cell += f" ({s.mean:.{width}f} ± {s.ci:.{width}f})"
        if s.p_value is not None:
            cell += _p_text(s.p_value, sep)
        rows.append([s.system, cell])
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
    return _table(["System", header], rows, ["right", "center"], signature, fmt, footer, res.metric)


def render_ci_table(cis: list, signature: str, options: RenderOptions) -> str:
    """``--confidence`` for several systems (each resampled on its own)."""
    fmt, width = options.format, options.width
    if fmt in ("json", "jsonl"):
        rows = [
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
        if fmt == "json":
            return json.dumps(rows, indent=4) + "\n"
        return "".join(json.dumps(r) + "\n" for r in rows)
    if fmt == "tsv":
        return tsv(
            ["system", "score", "mean", "ci", "lower", "upper", "signature"],
            [
                [c.system, *(f"{v:.{width}f}" for v in (c.score, c.mean, c.ci, c.lower, c.upper)), signature]
                for c in cis
            ],
        )
    rows = [[c.system, f"{c.score:.{width}f} ({c.mean:.{width}f} ± {c.ci:.{width}f})"] for c in cis]
    footer = (
        f"Bootstrap confidence intervals with {cis[0].n_samples} resamples per system "
        "(each system resampled on its own; use --paired-bs to compare systems)\n"
    )
    return _table(
        ["System", f"{cis[0].metric} (μ ± 95% CI)"], rows, ["right", "center"], signature, fmt, footer, cis[0].metric
    )


def render_all_pairs(res, signature: str, options: RenderOptions) -> str:
    """``--paired-all``: the ranking with clusters, and the matrix of p-values."""
    fmt, width = options.format, options.width
    if fmt == "json":
        rows = res.to_json()
        for row in rows:
            row[res.metric]["signature"] = signature
        return json.dumps(rows, indent=4) + "\n"
    if fmt == "jsonl":
        return "".join(json.dumps({**row, "signature": signature}) + "\n" for row in res.to_json())
    order = list(res.order)
    if fmt == "tsv":
        head = [
            "rank",
            "system",
            "score",
            "mean",
            "ci",
            "cluster",
            "rank_range",
            *(f"p[{res.systems[j]}]" for j in order),
            "signature",
        ]
        rows = []
        for pos, i in enumerate(order, start=1):
            lo, hi = res.rank_ranges[i]
            ps = [f"{res.p_values[i, j]:.4f}" if i != j else "" for j in order]
            rows.append(
                [
                    str(pos),
                    res.systems[i],
                    f"{res.scores[i]:.{width}f}",
                    _fmt(res.means[i], width),
                    _fmt(res.cis[i], width),
                    str(res.cluster_of[i]),
                    f"{lo}-{hi}",
                    *ps,
                    signature,
                ]
            )
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
        "   the significant differences.\n\n" + signature_footer([signature], res.metric)
    )
