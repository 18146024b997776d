"""Hand-made inline SVG charts: bars, histograms, a scatter plot and interval marks.

Every label that can come from the user (system names, bucket labels) goes through :func:`esc`. Numbers are
written with few decimals to keep the page small. The charts need no script and no external resource.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence

#: a categorical palette (Tableau 10); systems beyond 10 reuse it
PALETTE = ("#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
           "#9c755f", "#bab0ac")

#: characters shown as visible symbols: C0/C1 controls, DEL, line/paragraph separators, bidi controls
CONTROL_CHARS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
#: lone surrogates cannot be written as UTF-8: they are shown as U+FFFD
SURROGATES = re.compile("[\ud800-\udfff]")


def color(k: int) -> str:
    return PALETTE[k % len(PALETTE)]


def clean(text: str) -> str:
    """Text that can be written as UTF-8 (lone surrogates become U+FFFD); everything else is kept."""
    return SURROGATES.sub("\ufffd", text)


def control_symbol(ch: str) -> str:
    code = ord(ch)
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ .. ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return f"U+{code:04X}"


def esc(text: str) -> str:
    """HTML-escaped text (quotes too) for element content and attribute values."""
    return html.escape(clean(str(text)), quote=True)


def text_html(text: str) -> str:
    """User text as HTML: escaped, with control characters shown as marked symbols instead of acting."""
    text = clean(text)
    out, pos = [], 0
    for m in CONTROL_CHARS.finditer(text):
        out.append(html.escape(text[pos:m.start()], quote=True))
        ch = m.group()
        out.append(f'<span class="ctl" title="U+{ord(ch):04X}">{html.escape(control_symbol(ch))}</span>')
        pos = m.end()
    out.append(html.escape(text[pos:], quote=True))
    return "".join(out)


def fmt(x: float | None, digits: int = 1) -> str:
    return "–" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"


def _n(x: float) -> str:
    """A coordinate with at most one decimal."""
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _svg_open(width: int, height: int, label: str, cls: str = "chart") -> str:
    return (f'<svg class="{cls}" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg">')


def _nice_max(value: float) -> float:
    """A round axis maximum at or above ``value`` (BLEU-like scales end at 100 at most)."""
    if value <= 0 or not math.isfinite(value):
        return 1.0
    exp = 10 ** math.floor(math.log10(value))
    for m in (1, 2, 2.5, 5, 10):
        if m * exp >= value:
            return m * exp
    return 10 * exp


def _y_axis(x0: float, y0: float, height: float, width: float, top: float, ticks: int = 4) -> str:
    out = []
    for t in range(ticks + 1):
        v = top * t / ticks
        y = y0 - height * t / ticks
        out.append(f'<line class="grid" x1="{_n(x0)}" x2="{_n(x0 + width)}" y1="{_n(y)}" y2="{_n(y)}"/>'
                   f'<text class="tick" x="{_n(x0 - 4)}" y="{_n(y + 3)}" text-anchor="end">{v:g}</text>')
    return "".join(out)


def grouped_bars(categories: Sequence[str], series: Sequence[Sequence[float | None]], names: Sequence[str],
                 label: str, y_label: str, notes: Sequence[Sequence[str]] | None = None,
                 width: int = 760, height: int = 240) -> str:
    """Bars grouped by category, one colour per system; ``series[k][c]`` (None = no bar).

    ``notes[k][c]`` is added to each bar's tooltip (e.g. the number of segments).
    """
    left, right, top_pad, bottom = 44, 8, 10, 34
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    values = [v for s in series for v in s if v is not None and math.isfinite(v)]
    top = _nice_max(max(values, default=1.0))
    y0 = top_pad + plot_h
    out = [_svg_open(width, height, label), _y_axis(left, y0, plot_h, plot_w, top)]
    out.append(f'<text class="axis" transform="translate(11 {_n(top_pad + plot_h / 2)}) rotate(-90)" '
               f'text-anchor="middle">{esc(y_label)}</text>')
    n_cat, n_sys = max(len(categories), 1), max(len(series), 1)
    group_w = plot_w / n_cat
    bar_w = max(1.0, group_w * 0.8 / n_sys)
    for c, cat in enumerate(categories):
        gx = left + group_w * c + group_w * 0.1
        for k, s in enumerate(series):
            v = s[c]
            if v is None or not math.isfinite(v):
                continue
            h = plot_h * v / top
            tip = f"{names[k]} · {cat}: {v:.2f}" + (f" ({notes[k][c]})" if notes else "")
            out.append(f'<rect x="{_n(gx + bar_w * k)}" y="{_n(y0 - h)}" width="{_n(bar_w)}" height="{_n(h)}" '
                       f'fill="{color(k)}"><title>{esc(tip)}</title></rect>')
        out.append(f'<text class="tick" x="{_n(left + group_w * (c + 0.5))}" y="{_n(y0 + 14)}" '
                   f'text-anchor="middle">{esc(cat)}</text>')
    out.append(f'<line class="axisline" x1="{left}" x2="{left + plot_w}" y1="{_n(y0)}" y2="{_n(y0)}"/>')
    out.append("</svg>")
    return "".join(out)


def histogram(values: Sequence[float], name: str, k: int, bins: int = 10, width: int = 230,
              height: int = 130, y_max: int | None = None) -> str:
    """Sentence scores (0-100) in ``bins`` equal bins; 100 falls into the last bin."""
    counts = histogram_counts(values, bins)
    left, right, top_pad, bottom = 34, 6, 18, 22
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    top = y_max or max(counts, default=1) or 1
    y0 = top_pad + plot_h
    mean = sum(values) / len(values) if len(values) else 0.0
    out = [_svg_open(width, height, f"histogram of sentence scores of {name}", "chart hist"),
           f'<text class="title" x="{left}" y="12">{esc(name)} (mean {mean:.1f})</text>',
           _y_axis(left, y0, plot_h, plot_w, top, 2)]
    bw = plot_w / bins
    for b, c in enumerate(counts):
        h = plot_h * c / top
        lo, hi = 100 * b / bins, 100 * (b + 1) / bins
        out.append(f'<rect x="{_n(left + bw * b + 0.5)}" y="{_n(y0 - h)}" width="{_n(bw - 1)}" height="{_n(h)}" '
                   f'fill="{color(k)}"><title>{lo:g}–{hi:g}{"]" if b == bins - 1 else ")"}: {c} segments'
                   f'</title></rect>')
    for t in (0, 50, 100):
        out.append(f'<text class="tick" x="{_n(left + plot_w * t / 100)}" y="{_n(y0 + 13)}" '
                   f'text-anchor="middle">{t}</text>')
    mx = left + plot_w * mean / 100
    out.append(f'<line class="mean" x1="{_n(mx)}" x2="{_n(mx)}" y1="{top_pad}" y2="{_n(y0)}"/>')
    out.append("</svg>")
    return "".join(out)


def histogram_counts(values: Sequence[float], bins: int = 10) -> list[int]:
    counts = [0] * bins
    for v in values:
        counts[min(bins - 1, max(0, int(v * bins // 100)))] += 1
    return counts


def scatter(xs: Sequence[float], ys: Sequence[float], name_x: str, name_y: str, size: int = 300) -> str:
    """Sentence scores of two systems, one dot per segment, with the diagonal; 0-100 on both axes."""
    left, pad = 36, 8  # the x-axis labels sit in the remaining bottom margin
    plot = size - left - pad
    y0 = pad + plot
    out = [f'<svg class="chart scatter" id="scatter-svg" width="{size}" height="{size}" '
           f'viewBox="0 0 {size} {size}" role="img" aria-label="{esc(f"sentence scores: {name_x} vs {name_y}")}" '
           'xmlns="http://www.w3.org/2000/svg">']
    for t in (0, 25, 50, 75, 100):
        p = plot * t / 100
        out.append(f'<line class="grid" x1="{left}" x2="{left + plot}" y1="{_n(y0 - p)}" y2="{_n(y0 - p)}"/>'
                   f'<text class="tick" x="{left - 4}" y="{_n(y0 - p + 3)}" text-anchor="end">{t}</text>'
                   f'<text class="tick" x="{_n(left + p)}" y="{_n(y0 + 12)}" text-anchor="middle">{t}</text>')
    out.append(f'<line class="diag" x1="{left}" y1="{_n(y0)}" x2="{left + plot}" y2="{pad}"/>')
    dots = []
    for x, y in zip(xs, ys):
        dots.append(f"M{_n(left + plot * x / 100)} {_n(y0 - plot * y / 100)}h0")
    out.append(f'<path class="dots" d="{"".join(dots)}"/>')
    out.append(f'<text class="axis" id="scatter-x" x="{_n(left + plot / 2)}" y="{size - 4}" '
               f'text-anchor="middle">{esc(name_x)}</text>')
    out.append(f'<text class="axis" id="scatter-y" transform="translate(10 {_n(pad + plot / 2)}) rotate(-90)" '
               f'text-anchor="middle">{esc(name_y)}</text>')
    out.append("</svg>")
    return "".join(out)


def interval(lower: float, score: float, upper: float, lo: float, hi: float, k: int, width: int = 150,
             height: int = 16) -> str:
    """One system's bootstrap interval on a shared scale [lo, hi]: a bar from lower to upper, a dot at score."""
    span = (hi - lo) or 1.0

    def x(v: float) -> str:
        return _n(4 + (width - 8) * (v - lo) / span)

    mid = height / 2
    return (f'<svg class="ci" width="{width}" height="{height}" viewBox="0 0 {width} {height}" aria-hidden="true" '
            f'xmlns="http://www.w3.org/2000/svg"><line x1="{x(lower)}" x2="{x(upper)}" y1="{_n(mid)}" '
            f'y2="{_n(mid)}" stroke="{color(k)}" stroke-width="4"/><circle cx="{x(score)}" cy="{_n(mid)}" r="3.5" '
            f'fill="#222"/></svg>')


def legend(names: Sequence[str]) -> str:
    return '<div class="legend">' + "".join(
        f'<span><i style="background:{color(k)}"></i>{esc(n)}</span>' for k, n in enumerate(names)) + "</div>"
