"""The report's tables as plain data, for the LaTeX and CSV exports (``--latex DIR``, ``--csv DIR`` and the
page's download buttons).

One :class:`Table` per table of the page. Its cells are values (text, integers, floats, or None for "no
value"): the CSV (RFC 4180) holds one value per column, numbers written as numbers and nothing else in a
numeric column ("tidy" rows: one row per system and bucket, per pair, ...); the LaTeX export is a ``booktabs``
tabular in the page's shape, every value and interval bound in its own column, every special character
escaped (:func:`latex_escape`), shrunk to the line width only where it is wider (so one file fits an A4 page
and a two-column paper's column). Each file names the packages it needs in its first lines.
"""

from __future__ import annotations

import csv
import io
import math
import re
from dataclasses import dataclass, field

from .analyses import NGRAM_REPORT_LENGTH, interval_rule
from .compute import ReportData

#: the preamble lines a document needs for the LaTeX exports (also in each file's comment)
LATEX_PREAMBLE = ("\\usepackage[T1]{fontenc}", "\\usepackage[utf8]{inputenc}", "\\usepackage{textcomp}",
                  "\\usepackage{lmodern}", "\\usepackage{booktabs}", "\\usepackage{graphicx}")
#: the layouts of --latex-layout: the page's shape, or one row per value ("long": narrow, for a column)
LATEX_LAYOUTS = ("wide", "long")

#: ASCII characters that are special in LaTeX, or form ligatures in T1 fonts (-- ,, '' `` << >> !` ?`)
_LATEX_ASCII = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
                "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", '"': r"\textquotedbl{}",
                "'": r"\textquotesingle{}", "`": r"\textasciigrave{}", "-": "-{}", ",": ",{}", "[": "{[}",
                "]": "{]}", "!": "!{}", "?": "?{}", "\n": " ", "\r": " ", "\t": " "}
#: characters beyond Latin-1 and Latin Extended-A that pdflatex's utf8 + T1 + textcomp cannot typeset as
#: they are, written as commands
_LATEX_UNICODE = {"\u2212": r"\textminus{}", "\u2264": r"\ensuremath{\leq}", "\u2265": r"\ensuremath{\geq}",
                  "\u2260": r"\ensuremath{\neq}", "\u2248": r"\ensuremath{\approx}", "\u2206": r"\ensuremath{\Delta}",
                  "\u0394": r"\ensuremath{\Delta}", "\u25b2": r"\ensuremath{\blacktriangle}",
                  "\u2013": r"\textendash{}", "\u2014": r"\textemdash{}", "\u00a0": "~"}
#: characters pdflatex (utf8 inputenc, T1 fontenc, textcomp) typesets as they are: Latin-1 and Latin
#: Extended-A except the few T1 lacks, and common punctuation (checked by compiling each one)
_LATEX_MISSING = frozenset(map(chr, (0x126, 0x127, 0x138, 0x13F, 0x140, 0x149, 0x166, 0x167, 0x17F)))
_LATEX_PUNCTUATION = frozenset("\u2018\u2019\u201a\u201c\u201d\u201e\u2026\u2039\u203a\u20ac\u2022\u2020\u2021"
                               "\u2030\u2122\u2192")


def _latex_char(c: str) -> str:
    if c in _LATEX_ASCII:
        return _LATEX_ASCII[c]
    if c in _LATEX_UNICODE:
        return _LATEX_UNICODE[c]
    code = ord(c)
    if 0x20 <= code < 0x7F:
        return c
    if (0xA0 <= code <= 0x17F and c not in _LATEX_MISSING and code != 0xAD) or c in _LATEX_PUNCTUATION:
        return c
    # anything else (controls, other scripts, symbols): its code point, visibly
    return f"\\texttt{{[U+{code:04X}]}}"


def latex_escape(text: str) -> str:
    """``text`` as LaTeX text for pdflatex with T1 fonts: specials escaped, ligatures broken, characters the
    fonts lack written as ``[U+XXXX]``; the result typesets the characters it was given."""
    return "".join(_latex_char(c) for c in str(text))


@dataclass(frozen=True)
class Column:
    """A column: its header, and how a value is written in LaTeX (``fmt``: a format spec; "" = text)."""

    header: str
    fmt: str = ""
    align: str = ""  # "r" or "l"; default: numbers right, text left

    @property
    def numeric(self) -> bool:
        return self.align == "r" or (bool(self.fmt) and self.align != "l")


@dataclass(frozen=True)
class Table:
    """``name`` is the file stem (``systems``, ``significance-BLEU``, ...). ``columns``/``rows`` are the LaTeX
    (and page) shape, ``csv_columns``/``csv_rows`` the machine-readable one (default: the same). Cells are
    values: str, int, float, or None (no value: "—" in LaTeX, empty in CSV). ``note`` is the rule written
    under the table."""

    name: str
    caption: str
    columns: tuple[Column, ...]
    rows: tuple[tuple, ...]
    note: str = ""
    csv_columns: tuple[str, ...] = ()
    csv_rows: tuple[tuple, ...] = ()
    long_columns: tuple[Column, ...] = field(default=(), repr=False)  # the "long" LaTeX layout
    long_rows: tuple[tuple, ...] = field(default=(), repr=False)

    @property
    def header(self) -> tuple[str, ...]:
        return tuple(c.header for c in self.columns)

    def display_rows(self) -> list[list[str]]:
        """The rows as the page writes them: numbers in their column's format, "—" for no value."""
        return [[display_value(v, c.fmt) for v, c in zip(row, self.columns)] for row in self.rows]

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        if self.csv_columns:
            writer.writerow(self.csv_columns)
            writer.writerows([[csv_value(v) for v in row] for row in self.csv_rows])
        else:
            writer.writerow(self.header)
            writer.writerows([[csv_value(v) for v in row] for row in self.rows])
        return out.getvalue()

    def latex(self, layout: str = "wide") -> str:
        columns, rows = ((self.long_columns, self.long_rows) if layout == "long" and self.long_columns
                         else (self.columns, self.rows))
        spec = "".join("r" if c.numeric else "l" for c in columns)
        lines = [f"% {_comment(self.caption)}"]
        if self.note:
            lines.append(f"% {_comment(self.note)}")
        lines += ["% needs: " + " ".join(LATEX_PREAMBLE),
                  "% (shrunk to \\linewidth only where it is wider, to 90% of \\textheight where it is taller)",
                  "\\begingroup\\setbox0=\\hbox{%", f"\\begin{{tabular}}{{@{{}}{spec}@{{}}}}", "\\toprule",
                  " & ".join(latex_escape(c.header) for c in columns) + " \\\\", "\\midrule"]
        lines += [" & ".join(latex_cell(v, c.fmt) for v, c in zip(row, columns)) + " \\\\" for row in rows]
        lines += ["\\bottomrule", "\\end{tabular}}%",
                  "\\ifdim\\wd0>\\linewidth\\setbox0=\\hbox{\\resizebox{\\linewidth}{!}{\\box0}}\\fi",
                  "\\dimen0=\\ht0\\advance\\dimen0\\dp0",
                  "\\ifdim\\dimen0>0.9\\textheight\\setbox0=\\hbox{\\resizebox*{!}{0.9\\textheight}{\\box0}}\\fi",
                  "\\noindent\\box0\\endgroup", ""]
        return "\n".join(lines)


def _comment(text: str) -> str:
    return " ".join(str(text).split())


def csv_value(value) -> str:
    """A CSV cell: numbers as numbers (floats to 10 significant digits), None as empty."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return "" if not math.isfinite(value) else f"{value:.10g}"
    return str(value)


def display_value(value, fmt: str) -> str:
    if value is None:
        return "—"
    if fmt and isinstance(value, (int, float)) and not isinstance(value, bool):
        return format(value, fmt)
    return str(value)


def latex_cell(value, fmt: str) -> str:
    if value is None:
        return "---"
    if fmt and isinstance(value, (int, float)) and not isinstance(value, bool):
        text = format(value, fmt)
        return text.replace("-", "\\textminus{}") if text.startswith("-") else text
    return latex_escape(value)


def file_stem(name: str) -> str:
    """A table name as a file name: letters, digits and ``+._-`` kept, anything else ``_``."""
    return re.sub(r"[^A-Za-z0-9+._-]", "_", name)


def p_text(p: float, n_samples: int) -> str:
    """A p-value as written in the page: ``≤ 0.001`` at the resampling floor ``1 / (N + 1)`` (the floor
    rounded up to three decimals, so the bound stays true), else three significant decimals."""
    floor = 1.0 / (n_samples + 1)
    if p <= floor * (1 + 1e-9):
        bound = math.ceil(floor * 1000 - 1e-9) / 1000
        return f"≤ {bound:.3f}" if floor >= 0.0001 else f"≤ {floor:.1e}"
    return f"{p:.4f}" if p < 0.01 else f"{p:.3f}"


def cluster_rule(alpha: float) -> str:
    """The rule of the significance clusters as it is applied (WMT's)."""
    return (f"A line is drawn between two ranks where every system above it beats every system below it "
            f"(paired bootstrap, p < {alpha:g}); systems in one cluster are not all separated, though some pairs "
            "inside a cluster can be.")


def separated_pairs(data: ReportData, m, members) -> list[tuple[int, int, float]]:
    """The pairs (better, worse, p) of one cluster that the test separates (p < alpha and unequal scores)."""
    out = []
    for x, i in enumerate(members):
        for j in members[x + 1:]:
            p = float(m.p_values[i, j])
            delta = m.scores[i] - m.scores[j]
            if p < data.alpha and delta != 0:
                out.append((i, j, p) if (delta > 0) == bool(m.higher_is_better) else (j, i, p))
    return out


def _within_clusters(data: ReportData) -> str:
    notes = []
    for m in data.metrics:
        for c, members in enumerate(m.clusters or (), start=1):
            pairs = separated_pairs(data, m, members)
            if pairs:
                notes.append(f"{m.name} cluster {c}: " + ", ".join(
                    f"{data.systems[i]} > {data.systems[j]} (p {p_text(p, data.n_bootstrap)})" for i, j, p in pairs))
    return (" Significant pairs inside one cluster: " + "; ".join(notes) + ".") if notes else ""


def systems_table(data: ReportData) -> Table:
    columns = [Column("rank", "d"), Column("system")]
    for m in data.metrics:
        columns += [Column(m.name, ".2f"), Column("lower", ".2f"), Column("upper", ".2f"), Column("cluster", "d"),
                    Column("ranks", align="r")]
    rows, tidy = [], []
    for r, k in enumerate(data.metrics[0].order):
        row = [r + 1, data.systems[k]]
        for m in data.metrics:
            ci = m.intervals[k]
            cluster = 1 if m.cluster_of is None else m.cluster_of[k]
            lo, hi = (1, 1) if m.rank_ranges is None else m.rank_ranges[k]
            row += [m.scores[k], float(ci.lower), float(ci.upper), cluster, f"{lo}" if lo == hi else f"{lo}–{hi}"]
            tidy.append((data.systems[k], m.name, m.scores[k], float(ci.lower), float(ci.upper), cluster, lo, hi))
        rows.append(tuple(row))
    return Table("systems", "Systems: corpus scores with 95% bootstrap intervals (lower, upper), significance "
                 "clusters and rank ranges", tuple(columns), tuple(rows), cluster_rule(data.alpha) + _within_clusters(data),
                 ("system", "metric", "score", "lower", "upper", "cluster", "rank_low", "rank_high"), tuple(tidy))


def bleu_details_table(data: ReportData) -> Table:
    n = data.tokens.max_order
    columns = (Column("system"), *(Column(f"P{i}", ".1f") for i in range(1, n + 1)), Column("BP", ".3f"),
               Column("ratio", ".3f"), Column("hyp_len", "d"), Column("ref_len", "d"))
    rows = []
    for k in data.metrics[0].order:
        c = data.corpus[k]
        rows.append((data.systems[k], *(float(p) for p in c.precisions), float(c.bp), float(c.ratio), int(c.sys_len),
                     int(c.ref_len)))
    return Table("bleu-details", "BLEU details: n-gram precisions, brevity penalty, lengths", columns, tuple(rows))


def significance_table(data: ReportData, m_index: int) -> Table | None:
    """Every pair once (the better-ranked system first): difference and paired-bootstrap p-value."""
    m = data.metrics[m_index]
    if m.p_values is None:
        return None
    order = m.order
    rows, tidy = [], []
    for x, i in enumerate(order):
        for j in order[x + 1:]:
            delta = m.scores[i] - m.scores[j]
            p = float(m.p_values[i, j])
            significant = p < data.alpha and delta != 0
            rows.append((data.systems[i], data.systems[j], delta, p_text(p, data.n_bootstrap),
                         "yes" if significant else "no"))
            tidy.append((data.systems[i], data.systems[j], m.scores[i], m.scores[j], delta, p, int(significant)))
    adjusted = "Holm-Bonferroni adjusted " if data.holm else ""
    return Table(f"significance-{m.name}",
                 f"{m.name}: every pair of systems (A ranked above B), A minus B and the {adjusted}paired "
                 f"bootstrap p-value ({data.n_bootstrap} resamples); significant: p < {data.alpha:g}",
                 (Column("A"), Column("B"), Column("A − B", "+.2f"), Column("p", align="r"), Column("significant")),
                 tuple(rows), "", ("system_a", "system_b", "score_a", "score_b", "difference", "p_value",
                                    "significant"), tuple(tidy))


def bucket_export(data: ReportData, tables, name: str, what: str | None = None) -> list[Table]:
    out = []
    order = list(data.metrics[0].order)
    for t in tables:
        columns = [Column(what or "bucket")]
        if name != "length-difference":  # the same segments for every system
            columns.append(Column("segments", "d"))
        for k in order:
            columns += [Column(data.systems[k], ".2f"), Column("lower", ".2f"), Column("upper", ".2f")]
        rows, tidy = [], []
        for g, label in enumerate(t.labels):
            cells: list = [label]
            if name != "length-difference":
                cells.append(t.counts[order[0]][g])
            for k in order:
                cells += [t.scores[k][g], t.lower[k][g], t.upper[k][g]]
                tidy.append((label, data.systems[k], t.counts[k][g], t.scores[k][g], t.lower[k][g], t.upper[k][g],
                             t.resamples[k][g] if t.resamples else None))
            rows.append(tuple(cells))
        long_columns = (Column(what or "bucket"), Column("system"), Column("segments", "d"), Column(t.metric, ".2f"),
                        Column("lower", ".2f"), Column("upper", ".2f"))
        out.append(Table(f"{name}-{t.metric}", f"{t.metric} {t.title}, with 95% bootstrap intervals",
                         tuple(columns), tuple(rows), interval_rule(t.min_segments, data.n_bootstrap),
                         (what or "bucket", "system", "segments", "score", "lower", "upper", "resamples"),
                         tuple(tidy), long_columns, tuple(r[:6] for r in tidy)))
    return out


def bucket_rule(data: ReportData) -> str:
    """The interval rule of the bucket tables (each cell: score, interval, segments, resamples used)."""
    tables = (*data.length_buckets, *data.length_diff_buckets)
    minimum = tables[0].min_segments if tables else 0
    return ("Each cell: the score, its interval and, in parentheses, the segments of the bucket (and the "
            "resamples used where fewer than all). " + interval_rule(minimum, data.n_bootstrap))


def best_difference_tables(data: ReportData) -> list[Table]:
    out = []
    for bd in data.best_differences:
        rows = tuple((data.systems[k], bd.delta[k], bd.lower[k], bd.upper[k]) for k in bd.order)
        out.append(Table(f"difference-from-best-{bd.metric}",
                         f"{bd.metric}: difference from the best system ({data.systems[bd.best]}), 95% paired "
                         "bootstrap interval",
                         (Column("system"), Column("difference", "+.2f"), Column("lower", "+.2f"),
                          Column("upper", "+.2f")), rows))
    return out


def ngram_export_name(data: ReportData, a: int, b: int) -> str:
    return f"ngrams-{data.systems[a]}-vs-{data.systems[b]}"


def _ngram_rows(data: ReportData, diff, a: str | None = None, b: str | None = None) -> list[tuple]:
    """The rows of one pair; the "more" column names the system (``a``/``b``: the names written for A, B)."""
    name_a, name_b = a or data.systems[diff.a], b or data.systems[diff.b]
    return [(better, r.ngram, r.order, r.a, r.b, r.ref, r.a - r.b, float(r.lower), float(r.upper), float(r.score))
            for better, items in ((name_a, diff.a_better), (name_b, diff.b_better))
            for r in items[:NGRAM_REPORT_LENGTH]]


def ngram_table(data: ReportData, diff) -> Table:
    name_a, name_b = data.systems[diff.a], data.systems[diff.b]
    rows = _ngram_rows(data, diff)
    # the CSV: A is the first system of the file name, B the second
    tidy = [("matched", *r) for r in _ngram_rows(data, diff, "A", "B")]
    for kind, group in (("over", data.ngram_over), ("under", data.ngram_under)):
        other = next((d for d in group if (d.a, d.b) == (diff.a, diff.b)), None)
        if other is not None:
            tidy += [(kind, *r) for r in _ngram_rows(data, other, "A", "B")]
    columns = (Column("better"), Column("n-gram"), Column("n", "d"), Column(name_a, "d"), Column(name_b, "d"),
               Column("reference", "d"), Column("difference", "+d"), Column("lower", "+.0f"), Column("upper", "+.0f"),
               Column("score", ".3f"))
    return Table(ngram_export_name(data, diff.a, diff.b),
                 f"n-grams matched more often by one system: {name_a} vs {name_b} (matches of each, occurrences in the "
                 "references, difference with a 95% paired bootstrap interval, compare-mt's score)", columns,
                 tuple(rows), "", ("compare", "more", "ngram", "n", "count_a", "count_b", "reference", "difference",
                                   "lower", "upper", "score"), tuple(tidy))


def word_accuracy_table(data: ReportData) -> Table:
    wa = data.word_accuracy
    order = list(data.metrics[0].order)
    columns = [Column("frequency"), Column("ref. words", "d")]
    for k in order:
        columns += [Column(data.systems[k], ".4f"), Column("lower", ".4f"), Column("upper", ".4f")]
    rows, tidy = [], []
    for g, label in enumerate(wa.labels):
        cells: list = [label, wa.ref_words[g]]
        for k in order:
            cells += [wa.fmeasure[k][g], wa.lower[k][g], wa.upper[k][g]]
            matched, output, reference = wa.counts[k][g]
            tidy.append((label, data.systems[k], matched, output, reference,
                         wa.precision[k][g] if wa.precision else None, wa.recall[k][g] if wa.recall else None,
                         wa.fmeasure[k][g], wa.lower[k][g], wa.upper[k][g],
                         wa.segments[k][g] if wa.segments else None, wa.resamples[k][g] if wa.resamples else None))
        rows.append(tuple(cells))
    long_columns = (Column("frequency"), Column("system"), Column("matched", "d"), Column("output", "d"),
                    Column("reference", "d"), Column("P", ".4f"), Column("R", ".4f"), Column("F", ".4f"),
                    Column("lower", ".4f"), Column("upper", ".4f"))
    rule = interval_rule(wa.min_segments, data.n_bootstrap).replace("holds at least one segment",
                                                                    "has reference words").replace(
        "of fewer than", "whose reference words lie in fewer than")
    return Table("word-accuracy", f"word F-measure by frequency in {wa.source} (compare-mt's buckets), with 95% "
                 "bootstrap intervals; no F-measure (—) where a bucket has no reference words", tuple(columns),
                 tuple(rows), rule,
                 ("frequency", "system", "matched", "output", "reference", "precision", "recall", "fmeasure", "lower",
                  "upper", "segments", "resamples"), tuple(tidy), long_columns, tuple(r[:10] for r in tidy))


def all_tables(data: ReportData) -> list[Table]:
    """Every table of the page (the n-gram tables: one per pair of systems)."""
    out = [systems_table(data), bleu_details_table(data)]
    out += [t for m in range(len(data.metrics)) if (t := significance_table(data, m)) is not None]
    out += best_difference_tables(data)
    out += [ngram_table(data, d) for d in data.ngram_differences]
    out.append(word_accuracy_table(data))
    out += bucket_export(data, data.length_buckets, "length", "reference length")
    out += bucket_export(data, data.length_diff_buckets, "length-difference", "length difference")
    out += bucket_export(data, getattr(data, "label_buckets", ()), "label", "label")
    return out
