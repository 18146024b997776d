"""Hand-made inline SVG charts: intervals by group, differences from the best system, a scatter plot.

Every label that can come from the user (system names, bucket labels) goes through :func:`esc`. Numbers are
written with few decimals to keep the page small. The charts need no script and no external resource.
"""

from __future__ import annotations

import html
import math
import re
from collections.abc import Sequence

#: Kelly's 20 colours of maximum contrast (without white and black), strongest first; charts also name
#: every system in text, so a colour is never the only key
PALETTE = ("#0067a5", "#f38400", "#be0032", "#008856", "#875692", "#882d17", "#e68fac", "#848482", "#8db600",
           "#f3c300", "#a1caf1", "#c2b280", "#f99379", "#604e97", "#f6a600", "#b3446c", "#dcd300", "#654522",
           "#e25822", "#2b3d26")

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


def _n(x: float) -> str:
    """A coordinate with at most one decimal."""
    s = f"{x:.1f}"
    return s[:-2] if s.endswith(".0") else s


def _svg_open(width: int, height: int, label: str, cls: str = "chart", chart_id: str | None = None) -> str:
    ident = f' id="{esc(chart_id)}"' if chart_id else ""
    return (f'<svg{ident} class="{cls}" width="{width}" height="{height}" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{esc(label)}" xmlns="http://www.w3.org/2000/svg">')


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


def _ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """Round tick values covering [lo, hi]."""
    span = hi - lo
    if span <= 0 or not math.isfinite(span):
        return [lo]
    raw = span / n
    exp = 10 ** math.floor(math.log10(raw))
    step = next(m * exp for m in (1, 2, 2.5, 5, 10) if m * exp >= raw)
    first = math.ceil(lo / step) * step
    out, v = [], first
    while v <= hi + 1e-9 * step:
        out.append(round(v, 10))
        v += step
    return out


def zoomed_range(values: Sequence[float], include: Sequence[float] = ()) -> tuple[float, float]:
    """An axis range around ``values`` (plus ``include``) with a 6% margin, never a 0-100 default."""
    finite = [v for v in [*values, *include] if v is not None and math.isfinite(v)]
    if not finite:
        return 0.0, 1.0
    lo, hi = min(finite), max(finite)
    pad = (hi - lo) * 0.06 or max(abs(hi) * 0.05, 0.5)
    return lo - pad, hi + pad


def difference_chart(names: Sequence[str], colors: Sequence[int], delta: Sequence[float],
                     lower: Sequence[float], upper: Sequence[float], label: str, unit: str,
                     width: int = 560, chart_id: str | None = None) -> str:
    """One row per system (given in rank order): its difference from the best system with a 95% interval,
    on an axis zoomed to the intervals; a system far below the rest is drawn as an arrow at the axis edge
    with its value written out, so that it does not squeeze the other intervals."""
    widths = sorted(u - lo for u, lo in zip(upper, lower))
    typical = widths[len(widths) // 2] if widths else 1.0
    kept = [k for k in range(len(delta)) if upper[k] >= -12 * max(typical, 1e-9) - abs(delta[0])]
    lo_axis, hi_axis = zoomed_range([lower[k] for k in kept] + [upper[k] for k in kept], [0.0])
    row_h, left, right, top = 20, 150, 16, 8
    height = top + row_h * len(names) + 26
    plot = width - left - right

    def x(v: float) -> float:
        return left + plot * (min(max(v, lo_axis), hi_axis) - lo_axis) / (hi_axis - lo_axis)

    out = [_svg_open(width, height, label, "chart diffchart", chart_id)]
    for t in _ticks(lo_axis, hi_axis):
        out.append(f'<line class="grid" x1="{_n(x(t))}" x2="{_n(x(t))}" y1="{top}" y2="{_n(height - 22)}"/>'
                   f'<text class="tick" x="{_n(x(t))}" y="{_n(height - 8)}" text-anchor="middle">{t:g}</text>')
    out.append(f'<line class="zero" x1="{_n(x(0))}" x2="{_n(x(0))}" y1="{top}" y2="{_n(height - 22)}"/>')
    for r, name in enumerate(names):
        y = top + row_h * r + row_h / 2
        c = color(colors[r])
        tip = f"{name}: {delta[r]:+.2f} {unit} [{lower[r]:+.2f}, {upper[r]:+.2f}]"
        name_text = name if len(name) <= 22 else name[:21] + "…"
        out.append(f'<text class="tick" x="{left - 6}" y="{_n(y + 4)}" text-anchor="end">{esc(name_text)}</text>')
        if upper[r] < lo_axis:  # an outlier: an arrow at the left edge
            out.append(f'<g><title>{esc(tip)}</title><path d="M{_n(left + 10)} {_n(y - 5)}L{left} {_n(y)}'
                       f'L{_n(left + 10)} {_n(y + 5)}Z" fill="{c}"/><text class="tick" x="{left + 14}" '
                       f'y="{_n(y + 4)}">{delta[r]:+.2f} (off the axis)</text></g>')
            continue
        out.append(f'<g><title>{esc(tip)}</title><line x1="{_n(x(lower[r]))}" x2="{_n(x(upper[r]))}" '
                   f'y1="{_n(y)}" y2="{_n(y)}" stroke="{c}" stroke-width="3"/>'
                   f'<circle cx="{_n(x(delta[r]))}" cy="{_n(y)}" r="4" fill="{c}" stroke="#000" '
                   f'stroke-width=".6"/></g>')
    out.append("</svg>")
    return "".join(out)


def interval_groups(categories: Sequence[str], values: Sequence[Sequence[float | None]],
                    lower: Sequence[Sequence[float | None]], upper: Sequence[Sequence[float | None]],
                    names: Sequence[str], colors: Sequence[int], label: str, y_label: str,
                    width: int = 720, height: int = 230, chart_id: str | None = None) -> str:
    """Per category, one dot with its 95% interval per system (side by side), on a zoomed y axis."""
    left, right, top_pad, bottom = 46, 8, 10, 34
    plot_w, plot_h = width - left - right, height - top_pad - bottom
    flat = [v for s in (lower, upper) for row in s for v in row if v is not None]
    lo, hi = zoomed_range(flat)
    y0 = top_pad + plot_h

    def y(v: float) -> float:
        return y0 - plot_h * (v - lo) / (hi - lo)

    out = [_svg_open(width, height, label, "chart", chart_id)]
    for t in _ticks(lo, hi, 4):
        out.append(f'<line class="grid" x1="{left}" x2="{left + plot_w}" y1="{_n(y(t))}" y2="{_n(y(t))}"/>'
                   f'<text class="tick" x="{left - 4}" y="{_n(y(t) + 3)}" text-anchor="end">{t:g}</text>')
    out.append(f'<text class="axis" transform="translate(11 {_n(top_pad + plot_h / 2)}) rotate(-90)" '
               f'text-anchor="middle">{esc(y_label)}</text>')
    n_cat, n_sys = max(len(categories), 1), max(len(values), 1)
    group_w = plot_w / n_cat
    step = group_w * 0.8 / n_sys
    for c, cat in enumerate(categories):
        gx = left + group_w * c + group_w * 0.1 + step / 2
        for k in range(len(values)):
            v, a, b = values[k][c], lower[k][c], upper[k][c]
            if v is None or a is None or b is None:
                continue
            cx = gx + step * k
            tip = f"{names[k]} · {cat}: {v:.2f} [{a:.2f}, {b:.2f}]"
            out.append(f'<g><title>{esc(tip)}</title><line x1="{_n(cx)}" x2="{_n(cx)}" y1="{_n(y(a))}" '
                       f'y2="{_n(y(b))}" stroke="{color(colors[k])}" stroke-width="2"/><circle cx="{_n(cx)}" '
                       f'cy="{_n(y(v))}" r="3" fill="{color(colors[k])}"/></g>')
        out.append(f'<text class="tick" x="{_n(left + group_w * (c + 0.5))}" y="{_n(y0 + 14)}" '
                   f'text-anchor="middle">{esc(cat)}</text>')
    out.append(f'<line class="axisline" x1="{left}" x2="{left + plot_w}" y1="{_n(y0)}" y2="{_n(y0)}"/>')
    out.append("</svg>")
    return "".join(out)


def swatch(k: int) -> str:
    """A small colour mark drawn in SVG, so that it prints without the browser's background graphics."""
    return (f'<svg class="sw" width="10" height="10" viewBox="0 0 10 10" aria-hidden="true" '
            f'xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10" rx="2" fill="{color(k)}"/></svg>')


def legend_for(names: Sequence[str], colors: Sequence[int]) -> str:
    return '<div class="legend">' + "".join(
        f"<span>{swatch(c)}{esc(n)}</span>" for n, c in zip(names, colors)) + "</div>"
