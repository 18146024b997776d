"""The report's HTML: static tables and SVG charts, the segment data as escaped JSON, and the inline script.

Everything a reader needs without JavaScript (scores, intervals, significance, charts, the first page of the
segment table) is plain HTML. The script adds sorting, filtering, paging and the choice of the two systems
compared; it reads the segments from a ``<script type="application/json">`` block. A Content-Security-Policy
allows only that one script (by hash) and no network access at all, as a second line of defence behind the
escaping.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re

from .. import __version__
from . import charts
from .assets import CSS, JS
from .charts import esc, fmt, text_html
from .compute import TOP_DIFFERENCES, Highlight, ReportData, top_differences

#: segment table rows per page (and rows in the static page for readers without JavaScript)
PAGE_SIZE = 50

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
    """What the script needs: texts and sentence scores of the segments shown, names, defaults."""
    shown = data.shown_segments
    sentence = data.bleu_summary.sentence_scores
    return {
        "systems": [charts.clean(n) for n in data.systems],
        "refNames": [charts.clean(n) for n in data.reference_names],
        "pair": list(data.pair),
        "pageSize": PAGE_SIZE,
        "shown": shown,
        "total": data.n_segments,
        "top": TOP_DIFFERENCES,
        "src": None if data.sources is None else [charts.clean(s) for s in data.sources[:shown]],
        "refs": [[None if x is None else charts.clean(x) for x in s[:shown]] for s in data.references],
        "len": data.reference_lengths[:shown].tolist(),
        "hyp": [[_pieces(h) for h in row] for row in data.highlights],
        "score": [[round(float(x), 4) for x in sentence[k, :shown]] for k in range(len(data.systems))],
        "scatter": SCATTER_GEOMETRY if len(data.systems) > 1 else None,
    }


#: the scatter plot's layout, shared with the script that redraws it for another pair
SCATTER_SIZE = 300
SCATTER_GEOMETRY = {"left": 36, "plot": SCATTER_SIZE - 44, "y0": 8 + SCATTER_SIZE - 44}


# ---------------------------------------------------------------------------------------------------------
# sections
# ---------------------------------------------------------------------------------------------------------
def _order(data: ReportData) -> list[int]:
    pairs = data.bleu_summary.all_pairs
    if pairs is not None:
        return list(pairs.order)
    return sorted(range(len(data.systems)), key=lambda k: (-data.corpus[k].score, k))


def systems_section(data: ReportData) -> str:
    bleu = data.bleu_summary
    pairs = bleu.all_pairs
    order = _order(data)
    n_ord = data.bleu.max_ngram_order
    lows = [ci.lower for ci in bleu.intervals]
    highs = [ci.upper for ci in bleu.intervals]
    lo, hi = min(lows), max(highs)
    pad = (hi - lo) * 0.05 or 1.0
    lo, hi = lo - pad, hi + pad
    extra = data.metrics[1:]
    head = ['<th class="num" title="significance cluster (1 = best)">cluster</th>',
            '<th class="num" title="range of ranks consistent with the pairwise tests">rank</th>',
            "<th>system</th>", '<th class="num">BLEU</th>', '<th class="num">95% CI</th>',
            f'<th>interval <span class="muted">({lo:.1f}–{hi:.1f})</span></th>',
            '<th class="num" title="mean of the bootstrap resamples ± half the 95% interval">μ ± CI</th>']
    head += [f'<th class="num">P{n}</th>' for n in range(1, n_ord + 1)]
    head += ['<th class="num">BP</th>', '<th class="num">ratio</th>', '<th class="num">hyp_len</th>',
             '<th class="num">ref_len</th>']
    for m in extra:
        lower = "" if m.higher_is_better else ' title="lower is better"'
        head.append(f'<th class="num"{lower}>{esc(m.name)}{"" if m.higher_is_better else " ↓"}</th>'
                    '<th class="num">95% CI</th>')
    rows = []
    prev_cluster = None
    for k in order:
        c = data.corpus[k]
        ci = bleu.intervals[k]
        cluster = pairs.cluster_of[k] if pairs is not None else 1
        rank = pairs.rank_ranges[k] if pairs is not None else (1, 1)
        cls = ' class="cluster-start"' if prev_cluster is not None and cluster != prev_cluster else ""
        prev_cluster = cluster
        cells = [f'<td class="num">{cluster}</td>',
                 f'<td class="num">{rank[0] if rank[0] == rank[1] else f"{rank[0]}–{rank[1]}"}</td>',
                 f'<td><i class="swatch" style="display:inline-block;width:10px;height:10px;'
                 f'background:{charts.color(k)};margin-right:5px"></i>{esc(data.systems[k])}</td>',
                 f'<td class="num" data-value="{c.score!r}"><b>{c.score:.2f}</b></td>',
                 f'<td class="num">{ci.lower:.2f}–{ci.upper:.2f}</td>',
                 f"<td>{charts.interval(ci.lower, c.score, ci.upper, lo, hi, k)}</td>",
                 f'<td class="num">{ci.mean:.2f} ± {ci.ci:.2f}</td>']
        cells += [f'<td class="num">{p:.1f}</td>' for p in c.precisions]
        cells += [f'<td class="num">{c.bp:.3f}</td>', f'<td class="num">{c.ratio:.3f}</td>',
                  f'<td class="num">{c.sys_len}</td>', f'<td class="num">{c.ref_len}</td>']
        for m in extra:
            mci = m.intervals[k]
            cells.append(f'<td class="num" data-metric="{esc(m.name)}" data-value="{m.scores[k]!r}">{m.scores[k]:.2f}'
                         f'</td><td class="num">{mci.lower:.2f}–{mci.upper:.2f}</td>')
        rows.append(f'<tr{cls} data-system="{esc(data.systems[k])}">' + "".join(cells) + "</tr>")
    sentence_fields = data.bleu.signature_fields(data.nrefs)
    sentence_fields["eff"] = "yes"
    sentence_sig = "|".join(f"{key}:{v}" for key, v in sentence_fields.items() if v is not None)
    sigs = [f'<p>BLEU signature: <span class="sig" id="signature">{esc(bleu.signature)}</span></p>',
            f'<p>Sentence BLEU (segment views): <span class="sig">{esc(sentence_sig)}</span></p>',
            f'<p>Bootstrap: <span class="sig">{esc(_test_signature(data))}</span></p>']
    sigs += [f'<p>{esc(m.name)} signature: <span class="sig">{esc(m.signature)}</span></p>' for m in extra]
    return (
        '<section id="systems"><h2>Systems</h2>'
        f'<p class="note">{data.n_segments} segments, {len(data.reference_names)} reference stream(s). '
        "Best first. 95% CI: the bootstrap percentile interval of the corpus score "
        f"({data.n_bootstrap} resamples, seed {data.seed}, as <code>sacrebleu --confidence</code>); clusters: a "
        f"line between clusters means every system above beats every system below with p &lt; {data.alpha:g} "
        "(paired bootstrap).</p>"
        f'<table id="systems-table"><thead><tr>{"".join(head)}</tr></thead><tbody>{"".join(rows)}</tbody></table>'
        + "".join(sigs) + "</section>"
    )


def _test_signature(data: ReportData) -> str:
    pairs = data.bleu_summary.all_pairs
    if pairs is not None:
        return pairs.signature
    return data.bleu_summary.intervals[0].signature


def significance_section(data: ReportData) -> str:
    pairs = data.bleu_summary.all_pairs
    if pairs is None:
        return ('<section id="significance"><h2>Significance</h2><p class="note">One system: no pairwise test.'
                "</p></section>")
    order = list(pairs.order)
    head = "".join(f'<th title="{esc(pairs.systems[j])}">{esc(pairs.systems[j])}</th>' for j in order)
    rows = []
    for i in order:
        cells = []
        for j in order:
            if i == j:
                cells.append('<td class="diag">–</td>')
                continue
            p = float(pairs.p_values[i, j])
            delta = pairs.scores[i] - pairs.scores[j]
            cls = ""
            if p < pairs.alpha:
                cls = ' class="sig-better"' if delta > 0 else ' class="sig-worse"'
            tip = f"{pairs.systems[i]} − {pairs.systems[j]}: Δ = {delta:+.2f}, p = {p:.4f}"
            cells.append(f'<td{cls} title="{esc(tip)}" data-p="{p!r}">{delta:+.2f}<br>'
                         f'<span class="muted">p={p:.3f}</span></td>')
        rows.append(f"<tr><th>{esc(pairs.systems[i])}</th>{''.join(cells)}</tr>")
    clusters = "".join(
        f"<li>cluster {c}: {', '.join(esc(n) for n in members)}</li>"
        for c, members in enumerate(pairs.clusters, start=1))
    return (
        '<section id="significance"><h2>Significance</h2>'
        f'<p class="note">Paired bootstrap over every pair ({pairs.n_samples} resamples, seed {pairs.seed}; the '
        "same p-values as <code>sacrebleu --paired-bs</code> with the row system as baseline). Cell: BLEU of "
        f"the row system minus the column system, and the p-value; green/red: significantly better/worse "
        f"(p &lt; {pairs.alpha:g}).</p>"
        f'<ol class="clusters">{clusters}</ol>'
        f'<table class="pmatrix" id="p-matrix"><thead><tr><th></th>{head}</tr></thead><tbody>{"".join(rows)}'
        "</tbody></table></section>"
    )


def distributions_section(data: ReportData) -> str:
    sentence = data.bleu_summary.sentence_scores
    y_max = max(max(charts.histogram_counts(s)) for s in sentence)
    hists = "".join(charts.histogram(s.tolist(), data.systems[k], k, y_max=y_max) for k, s in enumerate(sentence))
    return ('<section id="distributions"><h2>Sentence BLEU distributions</h2>'
            '<p class="note">Segments per sentence-BLEU bin (width 10; 100 is in the last bin), one chart per '
            "system on a shared scale; the dashed line is the mean.</p>"
            f'<div class="charts">{hists}</div></section>')


def _system_select(id_: str, data: ReportData, selected: int) -> str:
    opts = "".join(f'<option value="{k}"{" selected" if k == selected else ""}>{esc(n)}</option>'
                   for k, n in enumerate(data.systems))
    return f'<select id="{id_}">{opts}</select>'


def _wl_rows(data: ReportData, idx: list[int], a: int, b: int) -> str:
    if not idx:
        return '<tr><td class="muted" colspan="5">none</td></tr>'
    sentence = data.bleu_summary.sentence_scores
    out = []
    for i in idx:
        d = float(sentence[b, i] - sentence[a, i])
        ref = next(s[i] for s in data.references if s[i] is not None)
        out.append(f'<tr><td class="num">{i + 1}</td><td class="num delta {"pos" if d > 0 else "neg"}">{d:+.1f}</td>'
                   f'<td class="text">{highlight_html(data.highlights[a][i])}</td>'
                   f'<td class="text">{highlight_html(data.highlights[b][i])}</td>'
                   f'<td class="text">{text_html(ref)}</td></tr>')
    return "".join(out)


def pair_section(data: ReportData) -> str:
    if len(data.systems) < 2:
        return ""
    a, b = data.pair
    sentence = data.bleu_summary.sentence_scores[:, : data.shown_segments]
    wins, losses = top_differences(sentence, a, b)
    name_a = f'<span class="name-a">{esc(data.systems[a])}</span>'
    name_b = f'<span class="name-b">{esc(data.systems[b])}</span>'
    head = (f"<thead><tr><th>#</th><th>Δ</th><th>A: {name_a}</th><th>B: {name_b}</th><th>reference</th></tr>"
            "</thead>")
    scope = ("" if data.shown_segments == data.n_segments else
             f" These views cover the first {data.shown_segments} of {data.n_segments} segments.")
    return (
        '<section id="pair"><h2>Two systems</h2>'
        f'<div class="controls"><span class="js-only">A: {_system_select("sys-a", data, a)} '
        f'B: {_system_select("sys-b", data, b)}</span><span>A = {name_a}, B = {name_b}</span></div>'
        '<p class="note">Sentence BLEU of B against A, one dot per segment (above the diagonal: B is better); '
        f"the biggest wins of B and of A by sentence BLEU difference.{scope} The choice of A and B also sets "
        "the segment table.</p>"
        '<div class="charts"><div>'
        + charts.scatter(sentence[a].tolist(), sentence[b].tolist(), data.systems[a], data.systems[b],
                         SCATTER_SIZE)
        + "</div></div>"
        f'<div class="wl"><div><h3>B ({name_b}) better: biggest wins</h3><table id="wins-table">{head}'
        f'<tbody id="wins-body">{_wl_rows(data, wins, a, b)}</tbody></table></div>'
        f'<div><h3>A ({name_a}) better: biggest losses of B</h3><table id="losses-table">{head}'
        f'<tbody id="losses-body">{_wl_rows(data, losses, a, b)}</tbody></table></div></div></section>'
    )


def breakdown_section(data: ReportData) -> str:
    names = data.systems
    lb, rb = data.length_buckets, data.ratio_buckets
    length_chart = charts.grouped_bars(
        [b.label for b in lb], [[b.scores[k] for b in lb] for k in range(len(names))], names,
        "corpus BLEU by reference length", "BLEU", [[f"{b.counts[k]} segments" for b in lb] for k in range(len(names))])
    ratio_chart = charts.grouped_bars(
        [b.label for b in rb], [[b.scores[k] for b in rb] for k in range(len(names))], names,
        "corpus BLEU by length ratio", "BLEU", [[f"{b.counts[k]} segments" for b in rb] for k in range(len(names))])
    prec = [data.corpus[k].precisions for k in range(len(names))]
    n_ord = data.bleu.max_ngram_order
    prec_chart = charts.grouped_bars([f"{n}-gram" for n in range(1, n_ord + 1)], prec, names,
                                     "n-gram precision by order", "precision (%)")
    count_rows = "".join(
        f"<tr><td>{esc(names[k])}</td>" + "".join(f'<td class="num">{b.counts[k]}</td>' for b in rb) + "</tr>"
        for k in range(len(names)))
    length_rows = "".join(
        f"<tr><td>{esc(names[k])}</td>" + "".join(f'<td class="num">{fmt(b.scores[k], 2)}</td>' for b in lb)
        + "</tr>" for k in range(len(names)))
    ratio_rows = "".join(
        f"<tr><td>{esc(names[k])}</td>" + "".join(f'<td class="num">{fmt(b.scores[k], 2)}</td>' for b in rb)
        + "</tr>" for k in range(len(names)))
    return (
        '<section id="breakdown"><h2>Where scores differ</h2>' + charts.legend(names)
        + '<h3>BLEU by segment length</h3><p class="note">Segments grouped by the length of their first '
        "reference (tokens of the BLEU tokenizer) into buckets of about equal size; each bar is the corpus BLEU "
        "of one system on the segments of the bucket.</p>" + length_chart
        + '<table id="length-table"><thead><tr><th>system</th>'
        + "".join(f'<th class="num">{esc(b.label)} ({b.counts[0]})</th>' for b in lb)
        + f"</tr></thead><tbody>{length_rows}</tbody></table>"
        + '<h3>BLEU by length ratio</h3><p class="note">Each system\'s segments grouped by hypothesis length / '
        "reference length (BLEU's effective reference length); corpus BLEU per group, and below, how many "
        "segments fall into each group (too short or too long outputs).</p>" + ratio_chart
        + '<table id="ratio-table"><thead><tr><th>system</th>'
        + "".join(f'<th class="num">{esc(b.label)}</th>' for b in rb)
        + f"</tr></thead><tbody>{ratio_rows}</tbody></table>"
        + '<table id="ratio-counts"><thead><tr><th>segments</th>'
        + "".join(f'<th class="num">{esc(b.label)}</th>' for b in rb)
        + f"</tr></thead><tbody>{count_rows}</tbody></table>"
        + '<h3>n-gram precision by order</h3><p class="note">Corpus-level clipped precision per n-gram order '
        "(the P columns of the systems table).</p>" + prec_chart
        + "</section>"
    )


def _static_segment_rows(data: ReportData, a: int, b: int) -> str:
    sentence = data.bleu_summary.sentence_scores
    out = []
    k_all = len(data.systems)
    for i in range(min(PAGE_SIZE, data.shown_segments)):
        d = float(sentence[b, i] - sentence[a, i])
        refs = []
        for name, s in zip(data.reference_names, data.references):
            if s[i] is None:
                continue
            label = f"<b>{esc(name)}: </b>" if len(data.references) > 1 else ""
            refs.append(label + text_html(s[i]))
        cells = [f'<td class="num">{i + 1}</td>', f'<td class="num">{data.reference_lengths[i]}</td>']
        if data.sources is not None:
            cells.append(f'<td class="text">{text_html(data.sources[i])}</td>')
        cells += [f'<td class="text">{"<hr>".join(refs)}</td>',
                  f'<td class="text">{highlight_html(data.highlights[a][i])}</td>',
                  f'<td class="num score-a">{sentence[a, i]:.1f}</td>',
                  f'<td class="text">{highlight_html(data.highlights[b][i])}</td>',
                  f'<td class="num score-b">{sentence[b, i]:.1f}</td>',
                  f'<td class="num delta {"pos" if d > 0 else "neg" if d < 0 else ""}">{"+" if d > 0 else ""}'
                  f"{d:.1f}</td>"]
        if k_all > 2:
            items = "".join(f"<li><b>{esc(data.systems[k])} ({sentence[k, i]:.1f}): </b>"
                            f"{highlight_html(data.highlights[k][i])}</li>" for k in range(k_all))
            cells.append(f'<td><details><summary>all {k_all}</summary><ul class="allsys">{items}</ul></details></td>')
        out.append(f'<tr data-seg="{i + 1}">{"".join(cells)}</tr>')
    return "".join(out)


def segments_section(data: ReportData) -> str:
    a, b = data.pair
    name_a = f'<span class="name-a">{esc(data.systems[a])}</span>'
    name_b = f'<span class="name-b">{esc(data.systems[b])}</span>'
    head = ['<th data-key="idx" class="num" aria-sort="ascending">#</th>',
            '<th data-key="len" class="num" title="tokens of the first reference">len</th>']
    if data.sources is not None:
        head.append("<th>source</th>")
    head += [f"<th>reference{'s' if len(data.references) > 1 else ''}</th>", f"<th>A: {name_a}</th>",
             '<th data-key="a" class="num">A</th>', f"<th>B: {name_b}</th>", '<th data-key="b" class="num">B</th>',
             '<th data-key="delta" class="num" title="sentence BLEU of B minus A">Δ B−A</th>']
    if len(data.systems) > 2:
        head.append("<th>systems</th>")
    capped = ""
    if data.shown_segments < data.n_segments:
        capped = (f" The page holds the first {data.shown_segments} of {data.n_segments} segments "
                  "(<code>max_segments</code> / <code>--max-segments</code>); every score above uses all of them.")
    legend = "".join(f'<span class="m{n}">{n}-gram</span> ' for n in range(1, min(4, data.bleu.max_ngram_order) + 1))
    return (
        '<section id="segment-table"><h2>Segments</h2>'
        f'<p class="note">Sentence BLEU (effective order) of A and B per segment. Matched n-grams (clipped '
        f"against the references, as BLEU counts them) are highlighted by the longest match covering each token: "
        f"{legend}. Click a column header to sort; the filter searches the source, references and every "
        f"system's output.{capped}</p>"
        '<p class="note no-js">JavaScript is off: the first '
        f"{min(PAGE_SIZE, data.shown_segments)} segments are shown, in order.</p>"
        '<div class="controls js-only"><label>filter <input type="search" id="filter" '
        'placeholder="text in source, references or outputs"></label>'
        '<label>show <select id="diff"><option value="all">all segments</option>'
        '<option value="b">B better</option><option value="a">A better</option>'
        '<option value="eq">A and B equal</option></select></label>'
        '<button type="button" id="prev">◀ previous</button><span id="page-info"></span>'
        '<button type="button" id="next">next ▶</button></div>'
        f'<table id="segments"><thead><tr>{"".join(head)}</tr></thead>'
        f'<tbody id="seg-body">{_static_segment_rows(data, a, b)}</tbody></table></section>'
    )


def render(data: ReportData) -> str:
    """The whole page as one string."""
    js_hash = base64.b64encode(hashlib.sha256(JS.encode("utf-8")).digest()).decode("ascii")
    csp = (f"default-src 'none'; script-src 'sha256-{js_hash}'; style-src 'unsafe-inline'; img-src 'none'; "
           "base-uri 'none'; form-action 'none'")
    nav = "".join(f'<a href="#{id_}">{label}</a>' for id_, label in (
        ("systems", "systems"), ("significance", "significance"), ("distributions", "distributions"),
        ("pair", "two systems"), ("breakdown", "where scores differ"), ("segment-table", "segments"))
        if id_ != "pair" or len(data.systems) > 1)
    body = [
        f"<header><h1>{esc(data.title)}</h1>"
        f'<p class="note">bleuscope {esc(__version__)} · BLEU {esc(data.bleu_summary.signature)}</p>'
        f"<nav>{nav}</nav></header>",
        systems_section(data), significance_section(data), distributions_section(data), pair_section(data),
        breakdown_section(data), segments_section(data),
    ]
    return (
        "<!DOCTYPE html>\n"
        '<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<meta http-equiv="Content-Security-Policy" content="{csp}">'
        '<meta name="generator" content="bleuscope">'
        f"<title>{esc(data.title)}</title><style>{CSS}</style></head><body>\n"
        + "\n".join(body)
        + f'\n<script type="application/json" id="report-data">{script_json(page_data(data))}</script>\n'
        f"<script>{JS}</script>\n</body></html>\n"
    )
