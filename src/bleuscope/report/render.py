"""The report's HTML: static tables and SVG charts, the segment data as escaped JSON, and the inline script.

Everything a reader needs without JavaScript (scores, intervals, significance, analyses, charts, the first
page of the segment table) is plain HTML. The script adds sorting, filtering, paging, the choice of the two
systems compared, the exports and the state in the URL; it reads its data from a ``<script
type="application/json">`` block. A Content-Security-Policy allows only that one script (by hash) and no
network access at all, as a second line of defence behind the escaping.
"""

from __future__ import annotations

import base64
import hashlib
import json
import platform
import re

import numpy as np

from .. import __version__
from . import charts, tables
from .analyses import NGRAM_REPORT_LENGTH
from .assets import CSS, JS
from .charts import esc, text_html
from .compute import TOP_DIFFERENCES, Highlight, ReportData, top_differences

#: segment table rows per page (and rows in the static page for readers without JavaScript)
PAGE_SIZE = 50
#: sentence-score bins of the distribution table
BINS = 10

#: characters escaped inside the JSON block: markup characters, and those JavaScript or HTML treat specially
_JSON_UNSAFE = re.compile("[<>&\x7f-\x9f\u2028\u2029]")


def script_json(value) -> str:
    """JSON that is safe inside ``<script type="application/json">``: no ``</script>``, ``<!--``, U+2028/9."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    text = charts.clean(text)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _pieces(h: Highlight):
    """A highlighted text for the script: a string, or [text, level, text, level, ...]."""
    if not h.spans:
        out: object = charts.clean(h.text)
    else:
        parts, pos = [], 0
        for a, b, level in h.spans:
            if a > pos:
                parts += [h.text[pos:a], 0]
            parts += [h.text[a:b], level]
            pos = b
        if pos < len(h.text):
            parts += [h.text[pos:], 0]
        out = parts
    return {"p": out} if h.tokenized else out


def highlight_html(h: Highlight) -> str:
    parts, pos = [], 0
    for a, b, level in h.spans:
        parts.append(text_html(h.text[pos:a]))
        parts.append(f'<span class="m{min(4, level)}">{text_html(h.text[a:b])}</span>')
        pos = b
    parts.append(text_html(h.text[pos:]))
    body = "".join(parts)
    if h.tokenized:
        return ('<span class="tok" title="shown tokenized: the tokens could not be placed in the original text">'
                f"{body}</span>")
    return body


def page_data(data: ReportData) -> dict:
    """What the script needs: texts and sentence scores of the segments shown, names, defaults, exports."""
    shown = data.shown_segments
    exports = {t.name: {"csv": t.csv(), "tex": t.latex()} for t in tables.all_tables(data)}
    ngram_exports = {f"{d.a}-{d.b}": tables.ngram_export_name(data, d.a, d.b) for d in data.ngram_differences}
    def ngram_rows(differences) -> dict:
        return {f"{d.a}-{d.b}": [[[r.ngram, r.order, r.a, r.b, r.ref, round(r.lower), round(r.upper),
                                   list(r.segments)] for r in rows] for rows in (d.a_better, d.b_better)]
                for d in differences}

    ngrams = {"m": ngram_rows(data.ngram_differences), "o": ngram_rows(data.ngram_over),
              "u": ngram_rows(data.ngram_under)}
    return {
        "systems": [charts.clean(n) for n in data.systems],
        "refNames": [charts.clean(n) for n in data.reference_names],
        "metrics": [m.name for m in data.metrics],
        "higher": [m.higher_is_better for m in data.metrics],
        "pair": list(data.pair),
        "pageSize": PAGE_SIZE,
        "ngramRows": NGRAM_REPORT_LENGTH,
        "shown": shown,
        "total": data.n_segments,
        "top": TOP_DIFFERENCES,
        "src": None if data.sources is None else [charts.clean(s) for s in data.sources[:shown]],
        "refs": [[None if x is None else charts.clean(x) for x in s[:shown]] for s in data.references],
        "len": data.reference_lengths[:shown].tolist(),
        "hyp": [[_pieces(h) for h in row] for row in data.highlights],
        "best": data.best_reference.tolist(),
        # sentence scores in hundredths (integers: the page shows one decimal)
        "score": [np.rint(100 * np.nan_to_num(m.sentence_scores[:, :shown], nan=0.0, posinf=0.0, neginf=0.0))
                  .astype(np.int64).tolist()
                  for m in data.metrics],
        "ngrams": ngrams,
        "exports": exports,
        "ngramExports": ngram_exports,
        "scatter": SCATTER_GEOMETRY if len(data.systems) > 1 else None,
    }


#: the scatter plot's layout, shared with the script that redraws it for another pair
SCATTER_SIZE = 300
SCATTER_GEOMETRY = {"left": 36, "plot": SCATTER_SIZE - 44, "y0": 8 + SCATTER_SIZE - 44}


def _export_buttons(name: str, what: str | None = None, chart: str | None = None) -> str:
    """Download buttons of one table (CSV, LaTeX) and of its chart (SVG; ``chart`` is the chart's id); their
    accessible names say which table."""
    what = esc(what or name)
    svg = (f' <button type="button" data-format="svg" data-chart="{esc(chart)}" aria-label="SVG of the chart: '
           f'{what}">SVG</button>' if chart else "")
    return (f'<span class="export js-only" data-export="{esc(name)}">export: <button type="button" '
            f'data-format="csv" aria-label="CSV of {what}">CSV</button> <button type="button" data-format="tex" '
            f'aria-label="LaTeX of {what}">LaTeX</button>{svg}</span>')


def _wrap(table_html: str) -> str:
    """A table in a box that scrolls sideways on a narrow screen instead of the page."""
    return f'<div class="scroll">{table_html}</div>'


def _p_html(p: float, data: ReportData) -> str:
    return esc(f"p {tables.p_text(p, data.n_bootstrap)}" if tables.p_text(p, data.n_bootstrap).startswith("≤")
               else f"p = {tables.p_text(p, data.n_bootstrap)}")


# ---------------------------------------------------------------------------------------------------------
# header
# ---------------------------------------------------------------------------------------------------------
def header_section(data: ReportData, nav: str) -> str:
    versions = (f"bleuscope {__version__}, Python {platform.python_version()}, numpy {np.__version__}")
    rows = "".join(
        f"<tr><td>{esc(f.role)}</td><td class=\"path\">{text_html(f.name)}</td><td class=\"num\">{f.size:,}</td>"
        f'<td class="hash">{esc(f.sha256)}</td></tr>' for f in data.inputs)
    files = ""
    if rows:
        files = ('<details class="inputs"><summary>input files (size in bytes, SHA-256)</summary>'
                 + _wrap(f'<table id="inputs-table"><thead><tr><th>role</th><th>file</th><th class="num">bytes</th>'
                         f"<th>SHA-256</th></tr></thead><tbody>{rows}</tbody></table>") + "</details>")
    command = f'<p class="note">command: <code class="cmd">{text_html(data.command)}</code></p>' if data.command else ""
    created = f"{esc(data.created)} · " if data.created else ""
    warn = ""
    if data.warnings:
        items = "".join(f"<li>{text_html(w)}</li>" for w in data.warnings)
        warn = (f'<div class="warnings" id="warnings" role="note"><b>⚠ Warnings about the input</b>'
                f"<ul>{items}</ul></div>")
    return (f"<header><h1>{esc(data.title)}</h1>"
            f'<p class="note">{created}{esc(versions)} · {data.n_segments} segments · '
            f"{len(data.systems)} systems · {len(data.reference_names)} reference stream(s) · "
            f"{data.n_bootstrap} bootstrap resamples, seed {data.seed}</p>"
            f"{command}{files}<nav>{nav}</nav></header>{warn}")


# ---------------------------------------------------------------------------------------------------------
# systems and significance
# ---------------------------------------------------------------------------------------------------------
def _rank_text(rank: tuple[int, int]) -> str:
    return f"{rank[0]}" if rank[0] == rank[1] else f"{rank[0]}–{rank[1]}"


def systems_section(data: ReportData) -> str:
    first = data.metrics[0]
    order = first.order
    head = ['<th class="num" data-sort="num">#</th>', '<th data-sort="text">system</th>']
    for m in data.metrics:
        arrow = "" if m.higher_is_better else " ↓"
        tip = "" if m.higher_is_better else ' title="lower is better"'
        first_dir = "" if not m.higher_is_better else ' data-first="desc"'
        head += [f'<th class="num" data-sort="num"{first_dir}{tip}>{esc(m.name)}{arrow}</th>',
                 f'<th class="num">{esc(m.name)} 95% CI</th>',
                 f'<th class="num" data-sort="num" title="{esc(m.name)} significance cluster (1 = best)">'
                 f"{esc(m.name)} cluster</th>",
                 f'<th class="num" data-sort="num" title="ranks consistent with the {esc(m.name)} pairwise tests">'
                 f"{esc(m.name)} rank</th>"]
    rows = []
    prev_cluster = None
    for r, k in enumerate(order):
        cluster = first.cluster_of[k] if first.cluster_of is not None else 1
        cls = ' class="cluster-start"' if prev_cluster is not None and cluster != prev_cluster else ""
        prev_cluster = cluster
        cells = [f'<td class="num" data-value="{r + 1}">{r + 1}</td>',
                 f"<td>{charts.swatch(k)} {esc(data.systems[k])}</td>"]
        for m in data.metrics:
            ci = m.intervals[k]
            c = m.cluster_of[k] if m.cluster_of is not None else 1
            rank = m.rank_ranges[k] if m.rank_ranges is not None else (1, 1)
            cells += [f'<td class="num" data-metric="{esc(m.name)}" data-value="{m.scores[k]!r}"><b>{m.scores[k]:.2f}'
                      "</b></td>",
                      f'<td class="num">{ci.lower:.2f}–<wbr>{ci.upper:.2f}</td>',
                      f'<td class="num" data-value="{c}">{c}</td>',
                      f'<td class="num" data-value="{rank[0] + rank[1] / 1000}">{_rank_text(rank)}</td>']
        rows.append(f'<tr{cls} data-system="{esc(data.systems[k])}">' + "".join(cells) + "</tr>")
    details = tables.bleu_details_table(data)
    det_head = "".join(f'<th class="num">{esc(h)}</th>' if i else f"<th>{esc(h)}</th>"
                       for i, h in enumerate(details.header))
    det_rows = "".join("<tr>" + "".join(f'<td class="num">{esc(c)}</td>' if i else f"<td>{esc(c)}</td>"
                                         for i, c in enumerate(row)) + "</tr>" for row in details.display_rows())
    sentence_fields = data.bleu.signature_fields(data.nrefs)
    sentence_fields["eff"] = "yes"
    sentence_sig = "|".join(f"{key}:{v}" for key, v in sentence_fields.items() if v is not None)
    sigs = [f'<p>{esc(m.name)} signature: <span class="sig"{" id=signature" if i == 0 else ""}>{esc(m.signature)}'
            "</span></p>" for i, m in enumerate(data.metrics)]
    sigs.append(f'<p>Sentence BLEU (segment views): <span class="sig">{esc(sentence_sig)}</span></p>')
    if first.all_pairs is not None:
        sigs.append(f'<p>Bootstrap: <span class="sig">{esc(first.all_pairs.signature)}</span></p>')
    holm = (" p-values are Holm-Bonferroni adjusted over the pairs." if data.holm else
            f" The {len(data.systems) * (len(data.systems) - 1) // 2} pairwise tests are not corrected for "
            "multiple comparisons (<code>--holm</code> adjusts them)." if len(data.systems) > 2 else "")
    return (
        '<section id="systems"><h2>Systems</h2>'
        f'<p class="note">Ranked by {esc(first.name)}, best first. 95% CI: the bootstrap percentile interval of '
        f"the corpus score ({data.n_bootstrap} resamples, seed {data.seed}, as <code>sacrebleu --confidence"
        f"</code>). Cluster (WMT's rule): {esc(tables.cluster_rule(data.alpha))} The pairs of one cluster that "
        "are separated are listed under each metric in the significance section. Rank: the ranks consistent "
        f"with the tests.{holm} Click a column header to sort (a second click reverses; the first sorts "
        "best first).</p>"
        + _export_buttons("systems")
        + _wrap(f'<table id="systems-table" class="sortable"><thead><tr>{"".join(head)}</tr></thead><tbody>'
                f'{"".join(rows)}</tbody></table>')
        + _within_cluster_summary(data)
        + '<h3>BLEU details</h3>' + _export_buttons("bleu-details")
        + _wrap(f'<table id="bleu-details"><thead><tr>{det_head}</tr></thead><tbody>{det_rows}</tbody></table>')
        + "".join(sigs) + best_difference_html(data) + "</section>"
    )


def _within_cluster_summary(data: ReportData) -> str:
    """Where a cluster holds pairs the test separates, say so under the systems table (a cluster is not a
    set of ties)."""
    notes = []
    for m in data.metrics:
        if m.clusters is None:
            continue
        for c, members in enumerate(m.clusters, start=1):
            pairs = tables.separated_pairs(data, m, members)
            if pairs:
                names = "; ".join(f"{esc(data.systems[i])} &gt; {esc(data.systems[j])}" for i, j, _ in pairs[:4])
                more = f"; {len(pairs) - 4} more" if len(pairs) > 4 else ""
                notes.append(f"{esc(m.name)} cluster {c}: {len(pairs)} significant pair{'s' if len(pairs) > 1 else ''} "
                             f"({names}{more})")
    if not notes:
        return ""
    return ('<p class="note within-cluster"><b>Significant differences inside clusters</b> (do not write that '
            "the systems of one cluster are indistinguishable): " + " · ".join(notes) + ".</p>")


def best_difference_html(data: ReportData) -> str:
    if not data.best_differences:
        return ""
    out = ['<h3 id="best">Difference from the best system</h3><p class="note">Each system\'s corpus score minus '
           "the best system's, in rank order, with a 95% paired-bootstrap interval of the difference (the same "
           "resamples for both systems); the axis is zoomed to the intervals and 0 is the best system.</p>"
           '<div class="charts">']
    for bd in data.best_differences:
        names = [data.systems[k] for k in bd.order]
        out.append("<div>" + f'<p class="chart-title">{esc(bd.metric)} − {esc(bd.metric)} of '
                   f"{esc(data.systems[bd.best])}</p>"
                   + '<div class="chartscroll">'
                   + charts.difference_chart(names, list(bd.order), [bd.delta[k] for k in bd.order],
                                             [bd.lower[k] for k in bd.order], [bd.upper[k] for k in bd.order],
                                             f"{bd.metric} difference from the best system", bd.metric,
                                             chart_id=f"chart-best-{bd.metric}") + "</div>"
                   + _export_buttons(f"difference-from-best-{bd.metric}",
                                     f"the difference from the best system by {bd.metric}",
                                     f"chart-best-{bd.metric}") + "</div>")
    out.append("</div>")
    return "".join(out)


def _separated_in_cluster(data: ReportData, m, members) -> str:
    pairs = tables.separated_pairs(data, m, members)
    if not pairs:
        return " (no pair separated)" if len(members) > 1 else ""
    items = "; ".join(f"{esc(data.systems[i])} &gt; {esc(data.systems[j])} ({_p_html(p, data)})" for i, j, p in pairs)
    return (f' — <span class="separated">{len(pairs)} pair{"s" if len(pairs) > 1 else ""} inside this cluster '
            f"differ significantly: {items}</span>")


def significance_section(data: ReportData) -> str:
    if len(data.systems) < 2:
        return ('<section id="significance"><h2>Significance</h2><p class="note">One system: no pairwise test.'
                "</p></section>")
    parts = []
    for m in data.metrics:
        assert m.p_values is not None and m.clusters is not None  # the test of two systems or more
        order = m.order
        head = "".join(f'<th title="{esc(data.systems[j])}">{esc(data.systems[j])}</th>' for j in order)
        rows = []
        for i in order:
            cells = []
            for j in order:
                if i == j:
                    cells.append('<td class="diag">–</td>')
                    continue
                p = float(m.p_values[i, j])
                delta = m.scores[i] - m.scores[j]
                better = delta > 0 if m.higher_is_better else delta < 0
                cls, mark = "", ""
                if p < data.alpha and delta != 0:  # equal scores: never marked (ties give the floor)
                    cls, mark = (' class="sig-better"', "▲ ") if better else (' class="sig-worse"', "▼ ")
                tip = f"{data.systems[i]} − {data.systems[j]}: Δ = {delta:+.2f}, {_p_html(p, data)}"
                cells.append(f'<td{cls} title="{esc(tip)}" data-p="{p!r}">{mark}{delta:+.2f}<br>'
                             f'<span class="p">{_p_html(p, data)}</span></td>')
            rows.append(f"<tr><th>{esc(data.systems[i])}</th>{''.join(cells)}</tr>")
        clusters = "".join(f"<li>cluster {c}: {', '.join(esc(data.systems[n]) for n in members)}"
                           f"{_separated_in_cluster(data, m, members)}</li>"
                           for c, members in enumerate(m.clusters, start=1))
        table_id = "p-matrix" if m is data.metrics[0] else f"p-matrix-{esc(m.name)}"
        parts.append(
            f'<h3>{esc(m.name)}</h3><ol class="clusters">{clusters}</ol>'
            + _export_buttons(f"significance-{m.name}")
            + _wrap(f'<table class="pmatrix" id="{table_id}"><thead><tr><th></th>{head}</tr></thead>'
                    f'<tbody>{"".join(rows)}</tbody></table>'))
    adjusted = ("Holm-Bonferroni adjusted p-values (over all pairs of one metric)" if data.holm else
                "p-values not corrected for multiple comparisons")
    return (
        '<section id="significance"><h2>Significance</h2>'
        f'<p class="note">Paired bootstrap over every pair ({data.n_bootstrap} resamples, seed {data.seed}; the same '
        "p-values as <code>sacrebleu --paired-bs</code> with the row system as baseline), for every metric. Cell: "
        "score of the row system minus the column system, and the p-value; ▲ (green): the row system is "
        f"significantly better, ▼ (red): significantly worse (p &lt; {data.alpha:g}); {adjusted}. "
        f"“p {tables.p_text(0.0, data.n_bootstrap)}” marks the smallest p-value {data.n_bootstrap} resamples can "
        "give.</p>"
        + "".join(parts) + "</section>"
    )


# ---------------------------------------------------------------------------------------------------------
# analyses
# ---------------------------------------------------------------------------------------------------------
def _system_select(id_: str, label: str, data: ReportData, selected: int) -> str:
    opts = "".join(f'<option value="{k}"{" selected" if k == selected else ""}>{esc(n)}</option>'
                   for k, n in enumerate(data.systems))
    return f'<label>{label} <select id="{id_}">{opts}</select></label>'


def _ngram_rows(rows, name_better: str) -> str:
    if not rows:
        return '<tr><td class="muted" colspan="7">none</td></tr>'
    numbers = [(r.order, r.a, r.b, r.ref, f'{r.a - r.b:+d} <span class="muted">[{r.lower:+.0f}, {r.upper:+.0f}]</span>',
                len(r.segments)) for r in rows]
    return "".join(f'<tr><td class="ng">{text_html(r.ngram)}</td>' + "".join(f'<td class="num">{x}</td>' for x in n)
                   + "</tr>" for r, n in zip(rows, numbers))


def ngram_section(data: ReportData) -> str:
    if len(data.systems) < 2:
        return ""
    a, b = data.pair
    lo, hi = min(a, b), max(a, b)
    diff = next(d for d in data.ngram_differences if (d.a, d.b) == (lo, hi))
    a_rows, b_rows = (diff.a_better, diff.b_better) if a == lo else (diff.b_better, diff.a_better)
    a_rows, b_rows = a_rows[:NGRAM_REPORT_LENGTH], b_rows[:NGRAM_REPORT_LENGTH]  # the script can show others
    name_a = f'<span class="name-a">{esc(data.systems[a])}</span>'
    name_b = f'<span class="name-b">{esc(data.systems[b])}</span>'

    def swap(rows):  # the rows are stored for (lo, hi); show them as (a, b)
        if a == lo:
            return rows
        from dataclasses import replace
        return [replace(r, a=r.b, b=r.a, lower=-r.upper, upper=-r.lower) for r in rows]

    head = ("<thead><tr><th>n-gram</th><th class=\"num\">n</th><th class=\"num\" title=\"matches of A\">A</th>"
            "<th class=\"num\" title=\"matches of B\">B</th><th class=\"num\" title=\"occurrences in the references (per segment "
            "the largest count in one reference)\">ref</th><th class=\"num\" title=\"A − B with a 95% "
            "paired-bootstrap interval\">A − B [95% CI]</th><th class=\"num\">segments</th></tr></thead>")
    return (
        '<section id="ngrams"><h2>n-grams one system gets right and the other does not</h2>'
        '<div class="controls js-only">' + _system_select("ng-a", "A:", data, a) + " "
        + _system_select("ng-b", "B:", data, b)
        + ' <label>compare <select id="ng-kind"><option value="m">matched n-grams (in the references)</option>'
        '<option value="o">over-generated n-grams (beyond the references)</option>'
        '<option value="u">under-generated n-grams (in the references, missed)</option></select></label>'
        ' <label><input type="checkbox" id="ng-collapse"> hide n-grams inside a higher-ranked one</label>'
        ' <label><input type="checkbox" id="ng-words"> words only (no n-gram of punctuation or placeholders)'
        "</label></div>"
        f'<p class="note">For every n-gram (orders 1–{data.tokens.max_order} of BLEU\'s tokens) the number of '
        "times each system produced it <em>and</em> the references have it, clipped per segment as BLEU clips "
        "(summed over an order, these are the matched counts of BLEU's precisions). Ranked as compare-mt ranks "
        "them, by (A + 1) / (A + B + 2); the interval of A − B is a 95% paired bootstrap over segments. Click an "
        "n-gram to list its segments (where A and B differ on it) in the segment table. The choice of A and B "
        "also sets the two-systems views and the segment table.</p>"
        + _export_buttons(tables.ngram_export_name(data, lo, hi), "the n-gram tables")
        + '<p class="note" id="ng-kind-note">Matched n-grams: A and B count the occurrences each system '
        "produced that the references have (clipped as BLEU clips).</p>"
        + f'<div class="wl"><div><h3 id="ngrams-a-title">A ({name_a}) better</h3>'
        + _wrap(f'<table id="ngrams-a">{head}<tbody id="ngrams-a-body">{_ngram_rows(swap(a_rows), "A")}</tbody></table>')
        + f'</div><div><h3 id="ngrams-b-title">B ({name_b}) better</h3>'
        + _wrap(f'<table id="ngrams-b">{head}<tbody id="ngrams-b-body">{_ngram_rows(swap(b_rows), "B")}</tbody></table>')
        + "</div></div></section>"
    )


def _bucket_words_html(data: ReportData) -> str:
    """Per frequency bucket, its most frequent words and how many of each every system matched (a closed
    ``<details>``: works without JavaScript)."""
    if not data.bucket_words:
        return ""
    order = data.metrics[0].order
    head = "<th>word</th><th class=\"num\">ref</th>" + "".join(
        f'<th class="num" title="matched / output occurrences">{esc(data.systems[k])}</th>' for k in order)
    parts = []
    for b in data.bucket_words:
        if not b.words:
            continue
        rows = "".join(
            f'<tr><td class="ng">{text_html(w)}</td><td class="num">{b.reference[i]}</td>'
            + "".join(f'<td class="num">{b.matched[k][i]}/{b.output[k][i]}</td>' for k in order) + "</tr>"
            for i, w in enumerate(b.words))
        parts.append(f'<details class="bucket-words"><summary>bucket {esc(b.bucket)}: its {len(b.words)} most '
                     "frequent words</summary>"
                     + _wrap(f'<table class="words"><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>')
                     + "</details>")
    return ('<h3>Words of each bucket</h3><p class="note">The words behind each bucket (most frequent in the '
            "reference first): reference occurrences and, per system, matched / output occurrences.</p>"
            + "".join(parts))


def word_accuracy_section(data: ReportData) -> str:
    wa = data.word_accuracy
    order = data.metrics[0].order
    names = [data.systems[k] for k in order]
    head = "<th>frequency</th><th class=\"num\">ref words</th>" + "".join(
        f'<th class="num">{charts.swatch(k)} {esc(data.systems[k])}</th>' for k in order)
    rows = []
    for g, label in enumerate(wa.labels):
        cells = "".join(_interval_cell(wa.fmeasure[k][g], wa.lower[k][g], wa.upper[k][g], 3,
                                       wa.resamples[k][g] if wa.resamples else None, data.n_bootstrap)
                        for k in order)
        rows.append(f'<tr><td>{esc(label)}</td><td class="num">{wa.ref_words[g]}</td>{cells}</tr>')
    chart = charts.interval_groups(list(wa.labels), [wa.fmeasure[k] for k in order], [wa.lower[k] for k in order],
                                   [wa.upper[k] for k in order], names, order,
                                   "word F-measure by frequency bucket", "F-measure", chart_id="chart-word-accuracy")
    return (
        '<section id="word-accuracy"><h2>Word accuracy by frequency</h2>'
        f'<p class="note">compare-mt\'s word accuracy: each word (BLEU\'s tokens) falls into a bucket by its '
        f"frequency in {esc(wa.source)}; per bucket, output words matched one-to-one with equal reference words "
        "(first reference stream) give precision and recall, and their F-measure. Rare words are where systems "
        "usually differ most. 95% bootstrap intervals in brackets.</p>"
        + charts.legend_for(names, order) + f'<div class="chartscroll">{chart}</div>' + _export_buttons("word-accuracy", "word accuracy by frequency", "chart-word-accuracy")
        + _wrap(f'<table class="iv" id="word-accuracy-table"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}</tbody></table>')
        + f'<p class="note rule">{esc(tables.word_accuracy_table(data).note)}</p>'
        + _bucket_words_html(data)
        + "</section>"
    )


def _interval_cell(score: float | None, lower: float | None, upper: float | None, digits: int, used: int | None,
                   n_samples: int, segments: int | None = None, interval_digits: int | None = None) -> str:
    """A score with its interval: "—" for no score, the interval "[—]" where the bucket is too small, the
    resamples used where some were empty."""
    if score is None:
        return '<td class="num muted" title="empty bucket">—</td>'
    inner = f"{score:.{digits}f}"
    interval_digits = digits if interval_digits is None else interval_digits
    if lower is None or upper is None:
        interval = '[—]'
    else:
        interval = f"[{lower:.{interval_digits}f}, {upper:.{interval_digits}f}]"
    extra = []
    if segments is not None:
        extra.append(f"{segments}")
    if used is not None and used < n_samples and lower is not None:
        extra.append(f"{used} res.")
    tail = f" ({', '.join(extra)})" if extra else ""
    return f'<td class="num">{inner} <span class="muted">{interval}{tail}</span></td>'


def _bucket_block(data: ReportData, t, name: str, title: str, chart: bool) -> str:
    order = data.metrics[0].order
    names = [data.systems[k] for k in order]
    head = "<th>bucket</th>" + "".join(f'<th class="num">{esc(n)}</th>' for n in names)
    rows = []
    for g, label in enumerate(t.labels):
        cells = [_interval_cell(t.scores[k][g], t.lower[k][g], t.upper[k][g], 2,
                                t.resamples[k][g] if t.resamples else None, data.n_bootstrap, t.counts[k][g], 1)
                 for k in order]
        rows.append(f"<tr><td>{esc(label)}</td>{''.join(cells)}</tr>")
    svg = ""
    if chart:
        svg = charts.interval_groups(list(t.labels), [t.scores[k] for k in order], [t.lower[k] for k in order],
                                     [t.upper[k] for k in order], names, order, f"{t.metric} {title}", t.metric,
                                     chart_id=f"chart-{name}-{t.metric}")
    table = (f'<table class="iv" id="{name}-{esc(t.metric)}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}'
             "</tbody></table>")
    if svg:
        svg = f'<div class="chartscroll">{svg}</div>'
    return (f"<h4>{esc(t.metric)}</h4>" + svg + _export_buttons(f"{name}-{t.metric}", f"{t.metric} {title}",
                                                             f"chart-{name}-{t.metric}" if chart else None)
            + _wrap(table))


def buckets_section(data: ReportData) -> str:
    order = data.metrics[0].order
    legend = charts.legend_for([data.systems[k] for k in order], order)
    blocks = []
    for name, title, group in (("length", "by reference length", data.length_buckets),
                               ("length-difference", "by length difference", data.length_diff_buckets)):
        inner = "".join(_bucket_block(data, t, name, title, i == 0) for i, t in enumerate(group))
        blocks.append(inner)
    rule = f'<p class="note rule">{esc(tables.bucket_rule(data))}</p>'
    return (
        '<section id="buckets"><h2>Scores by sentence length and length difference</h2>'
        '<p class="note">Corpus scores of each metric on groups of segments, with 95% bootstrap intervals and, '
        "in parentheses, the number of segments. By reference length: compare-mt's buckets of the first "
        "reference's length in BLEU tokens (the same segments for every system). By length difference: each "
        "system's own segments grouped by its hypothesis length minus BLEU's reference length (too short "
        "outputs on the left).</p>" + legend
        + "<h3>By reference length</h3>" + blocks[0] + rule + "<h3>By length difference</h3>" + blocks[1] + rule
        + "</section>"
    )


def labels_section(data: ReportData) -> str:
    """Every metric's scores per segment label (--labels), as compare-mt's label buckets."""
    if not data.label_buckets:
        return ""
    order = data.metrics[0].order
    legend = charts.legend_for([data.systems[k] for k in order], order)
    blocks = "".join(_bucket_block(data, t, "label", "by label", i == 0) for i, t in enumerate(data.label_buckets))
    return ('<section id="labels"><h2>Scores by segment label</h2>'
            '<p class="note">Corpus scores of each metric on the segments of each label (one label per segment, '
            "from <code>--labels</code>; compare-mt's <code>bucket_type=label</code>), with 95% bootstrap "
            "intervals.</p>" + legend + blocks
            + f'<p class="note rule">{esc(tables.bucket_rule(data))}</p></section>')


def distributions_section(data: ReportData) -> str:
    """One table per metric: segments per sentence-score bin, rows in rank order, cells shaded by count."""
    parts = []
    for m in data.metrics:
        order = m.order
        sentence = m.sentence_scores
        counts = [charts.histogram_counts(np.clip(sentence[k], 0, 100).tolist(), BINS) for k in order]
        peak = max(max(c) for c in counts) or 1
        head = ("<th>system</th><th class=\"num\">mean</th><th class=\"num\">median</th>"
                + "".join(f'<th class="num">[{100 * b // BINS}, {100 * (b + 1) // BINS}{"]" if b == BINS - 1 else ")"}'
                          "</th>" for b in range(BINS)))
        rows = []
        for k, c in zip(order, counts):
            cells = "".join(f'<td class="num heat" style="--h:{v / peak:.2f}">{v}</td>' for v in c)
            rows.append(f"<tr><td>{esc(data.systems[k])}</td><td class=\"num\">{float(np.mean(sentence[k])):.1f}</td>"
                        f"<td class=\"num\">{float(np.median(sentence[k])):.1f}</td>{cells}</tr>")
        parts.append(f"<h3>Sentence {esc(m.name)}</h3>" + _wrap(
            f'<table class="dist" id="dist-{esc(m.name)}"><thead><tr>{head}</tr></thead><tbody>{"".join(rows)}'
            "</tbody></table>"))
    return ('<section id="distributions"><h2>Sentence-score distributions</h2>'
            '<p class="note">Segments per sentence-score bin (width 10; 100 is in the last bin), one row per '
            "system in rank order; the darker the cell, the more segments. TER can exceed 100; such segments "
            "are in the last bin.</p>" + "".join(parts) + "</section>")


# ---------------------------------------------------------------------------------------------------------
# two systems and the segment table
# ---------------------------------------------------------------------------------------------------------
def _reference_cell(data: ReportData, i: int, a: int, b: int) -> str:
    out = []
    for r, (name, s) in enumerate(zip(data.reference_names, data.references)):
        ref = s[i]
        if ref is None:
            continue
        badges = ""
        if len(data.references) > 1:
            marks = [x for x, k in (("A", a), ("B", b)) if data.best_reference[k, i] == r]
            badges = "".join(f'<span class="badge" title="the reference {x} matches best">best for {x}</span>'
                             for x in marks)
            out.append(f'<div class="ref"><b>{esc(name)}</b>{badges}: {text_html(ref)}</div>')
        else:
            out.append(f'<div class="ref">{text_html(ref)}</div>')
    return "".join(out)


def _wl_rows(data: ReportData, idx: list[int], a: int, b: int) -> str:
    if not idx:
        return '<tr><td class="muted" colspan="5">none</td></tr>'
    sentence = data.bleu_summary.sentence_scores
    out = []
    for i in idx:
        d = float(sentence[b, i] - sentence[a, i])
        out.append(f'<tr><td class="num">{i + 1}</td><td class="num delta {"pos" if d > 0 else "neg"}">{d:+.1f}</td>'
                   f'<td class="text"><div class="cell">{highlight_html(data.highlights[a][i])}</div></td>'
                   f'<td class="text"><div class="cell">{highlight_html(data.highlights[b][i])}</div></td>'
                   f'<td class="text"><div class="cell">{_reference_cell(data, i, a, b)}</div></td></tr>')
    return "".join(out)


def pair_section(data: ReportData) -> str:
    if len(data.systems) < 2:
        return ""
    a, b = data.pair
    sentence = data.bleu_summary.sentence_scores[:, : data.shown_segments]
    wins, losses = top_differences(sentence, a, b)
    name_a = f'<span class="name-a">{esc(data.systems[a])}</span>'
    name_b = f'<span class="name-b">{esc(data.systems[b])}</span>'
    head = (f"<thead><tr><th>#</th><th>Δ</th><th>A: {name_a}</th><th>B: {name_b}</th>"
            "<th>references (the best match of each)</th></tr></thead>")
    scope = ("" if data.shown_segments == data.n_segments else
             f" These views cover the first {data.shown_segments} of {data.n_segments} segments.")
    metric_opts = "".join(f'<option value="{m}">{esc(x.name)}</option>' for m, x in enumerate(data.metrics))
    return (
        '<section id="pair"><h2>Two systems</h2>'
        f'<div class="controls"><span class="js-only">{_system_select("sys-a", "A:", data, a)} '
        f'{_system_select("sys-b", "B:", data, b)} <label>sentence score <select id="metric">{metric_opts}'
        f"</select></label></span><span>A = {name_a}, B = {name_b}</span></div>"
        '<p class="note">Sentence scores of B against A, one dot per segment (above the diagonal: B is better; '
        "for TER, below); click a dot to show its segment in the table. The biggest wins of B and of A by "
        f"sentence-score difference, with the reference each hypothesis matches best.{scope} The default pair "
        "is the two best systems.</p>"
        '<div class="charts"><div>'
        + charts.scatter(sentence[a].tolist(), sentence[b].tolist(), data.systems[a], data.systems[b],
                         SCATTER_SIZE)
        + '<span class="export js-only">export: <button type="button" data-format="svg" data-chart="scatter-svg" '
        'aria-label="SVG of the scatter plot">SVG</button></span>'
        + "</div></div>"
        f'<div class="wl"><div><h3>B ({name_b}) better: biggest wins</h3>'
        + _wrap(f'<table id="wins-table">{head}<tbody id="wins-body">{_wl_rows(data, wins, a, b)}</tbody></table>')
        + f'</div><div><h3>A ({name_a}) better: biggest losses of B</h3>'
        + _wrap(f'<table id="losses-table">{head}<tbody id="losses-body">{_wl_rows(data, losses, a, b)}</tbody>'
                "</table>")
        + "</div></div></section>"
    )


def _static_segment_rows(data: ReportData, a: int, b: int) -> str:
    sentence = data.bleu_summary.sentence_scores
    out = []
    k_all = len(data.systems)
    for i in range(min(PAGE_SIZE, data.shown_segments)):
        d = float(sentence[b, i] - sentence[a, i])
        cells = [f'<td class="num">{i + 1}</td>', f'<td class="num">{data.reference_lengths[i]}</td>']
        if data.sources is not None:
            cells.append(f'<td class="text"><div class="cell">{text_html(data.sources[i])}</div></td>')
        cells += [f'<td class="text"><div class="cell">{_reference_cell(data, i, a, b)}</div></td>',
                  f'<td class="text"><div class="cell">{highlight_html(data.highlights[a][i])}</div></td>',
                  f'<td class="num score-a">{sentence[a, i]:.1f}</td>',
                  f'<td class="text"><div class="cell">{highlight_html(data.highlights[b][i])}</div></td>',
                  f'<td class="num score-b">{sentence[b, i]:.1f}</td>',
                  f'<td class="num delta {"pos" if d > 0 else "neg" if d < 0 else ""}">{"+" if d > 0 else ""}'
                  f"{d:.1f}</td>"]
        if k_all > 2:
            items = "".join(f"<li><b>{esc(data.systems[k])} ({sentence[k, i]:.1f}): </b>"
                            f"{highlight_html(data.highlights[k][i])}</li>" for k in range(k_all))
            cells.append(f'<td><details><summary>all {k_all}</summary><ul class="allsys">{items}</ul></details></td>')
        out.append(f'<tr data-seg="{i + 1}">{"".join(cells)}</tr>')
    return "".join(out)


def _sort_th(key: str, label: str, title: str = "", sort: str = "") -> str:
    tip = f' title="{esc(title)}"' if title else ""
    return (f'<th data-key="{key}" class="num"{tip}{sort}><button type="button" class="sort">{label}</button></th>')


def segments_section(data: ReportData) -> str:
    a, b = data.pair
    name_a = f'<span class="name-a">{esc(data.systems[a])}</span>'
    name_b = f'<span class="name-b">{esc(data.systems[b])}</span>'
    head = [_sort_th("idx", "#", sort=' aria-sort="ascending"'), _sort_th("len", "len", "tokens of the first reference")]
    if data.sources is not None:
        head.append("<th>source</th>")
    head += [f"<th>reference{'s' if len(data.references) > 1 else ''}</th>", f"<th>A: {name_a}</th>",
             _sort_th("a", "A"), f"<th>B: {name_b}</th>", _sort_th("b", "B"),
             _sort_th("delta", "Δ B−A", "sentence score of B minus A")]
    if len(data.systems) > 2:
        head.append("<th>systems</th>")
    capped = ""
    if data.shown_segments < data.n_segments:
        capped = (f" The page holds the first {data.shown_segments} of {data.n_segments} segments "
                  "(<code>max_segments</code> / <code>--max-segments</code>); every score above uses all of them.")
    legend = "".join(f'<span class="m{n}">{n}-gram</span> ' for n in range(1, min(4, data.tokens.max_order) + 1))
    fields = [("all", "everywhere"), ("src", "source"), ("ref", "references"), ("a", "A"), ("b", "B"),
              ("sys", "any system")]
    src_len = '<option value="src">the source (words)</option>' if data.sources is not None else ""
    field_opts = "".join(f'<option value="{v}">{x}</option>' for v, x in fields if v != "src" or data.sources)
    return (
        '<section id="segment-table"><h2>Segments</h2>'
        f'<p class="note">Sentence scores of A and B per segment (the metric chosen above; BLEU with effective '
        f"order). Matched n-grams (clipped against the references, as BLEU counts them) are highlighted by the "
        f"longest match covering each token: {legend}; the A-vs-B view marks instead the words one output has "
        "and the other does not. Every reference is shown; the one each hypothesis matches best is marked. "
        f"Sort by the column headers (keyboard: Tab, then Enter); the view is kept in the page address.{capped}</p>"
        '<p class="note no-js">JavaScript is off: the first '
        f"{min(PAGE_SIZE, data.shown_segments)} segments are shown, in order.</p>"
        '<div class="controls js-only"><label>filter <input type="search" id="filter" '
        'placeholder="text or /regular expression/"></label>'
        f'<label>in <select id="field">{field_opts}</select></label>'
        '<label><input type="checkbox" id="regex"> regular expression</label>'
        '<label>show <select id="diff"><option value="all">all segments</option>'
        '<option value="b">B better</option><option value="a">A better</option>'
        '<option value="eq">A and B equal</option><option value="star">starred segments</option></select></label>'
        f'<label>length of <select id="len-of"><option value="ref">the reference (tokens)</option>{src_len}'
        '</select></label><label>from <input type="number" id="len-min" min="0" step="1"></label>'
        '<label>to <input type="number" id="len-max" min="0" step="1"></label>'
        '<label>|B − A| at least <input type="number" id="delta-min" min="0" step="any"></label>'
        '<label>highlight <select id="view"><option value="match">matched n-grams</option>'
        '<option value="diff">A vs B differences</option></select></label>'
        '<span id="subset" class="subset"></span>'
        '<button type="button" id="prev">◀ previous</button><span id="page-info" aria-live="polite"></span>'
        '<button type="button" id="next">next ▶</button>'
        '<span id="segment-export" class="export">export the listed segments (every page; “starred” lists the '
        'starred ones): <button type="button" data-format="tsv" aria-label="TSV of the listed segments">TSV</button> '
        '<button type="button" data-format="json" aria-label="JSON of the listed segments">JSON</button></span>'
        '<span id="star-info" aria-live="polite"></span></div>'
        + _wrap(f'<table id="segments"><thead><tr>{"".join(head)}</tr></thead>'
                f'<tbody id="seg-body">{_static_segment_rows(data, a, b)}</tbody></table>')
        + "</section>"
    )


def render(data: ReportData) -> str:
    """The whole page as one string."""
    js_hash = base64.b64encode(hashlib.sha256(JS.encode("utf-8")).digest()).decode("ascii")
    csp = (f"default-src 'none'; script-src 'sha256-{js_hash}'; style-src 'unsafe-inline'; img-src 'none'; "
           "base-uri 'none'; form-action 'none'")
    two = len(data.systems) > 1
    nav = "".join(f'<a href="#{id_}">{label}</a>' for id_, label, show in (
        ("systems", "systems", True), ("significance", "significance", True), ("ngrams", "n-grams", two),
        ("word-accuracy", "word accuracy", True), ("buckets", "length", True),
        ("labels", "labels", bool(data.label_buckets)),
        ("distributions", "distributions", True), ("pair", "two systems", two), ("segment-table", "segments", True))
        if show)
    body = [
        header_section(data, nav),
        systems_section(data), significance_section(data), ngram_section(data), word_accuracy_section(data),
        buckets_section(data), labels_section(data), distributions_section(data), pair_section(data), segments_section(data),
    ]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<meta name="color-scheme" content="light dark">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="generator" content="bleuscope">'
        f"<title>{esc(data.title)}</title><style>{CSS}</style></head><body>\n"
        + "\n".join(body)
        + f'\n<script type="application/json" id="report-data">{script_json(page_data(data))}</script>\n'
        f"<script>{JS}</script>\n</body></html>\n"
    )
