"""The report's tables as plain data, for the LaTeX and CSV exports (``--latex DIR``, ``--csv DIR`` and the
page's download buttons): one :class:`Table` per table of the page, each written as CSV (RFC 4180) and as a
LaTeX ``booktabs`` tabular with every special character escaped."""

from __future__ import annotations

import csv
import io
import math
from dataclasses import dataclass

from .compute import ReportData

#: LaTeX's special characters in text
_LATEX = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
          "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
          "<": r"\textless{}", ">": r"\textgreater{}", "\n": " ", "\r": " "}


@dataclass(frozen=True)
class Table:
    """``name`` is the file stem (``systems``, ``significance-BLEU``, ...); cells are display strings."""

    name: str
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    numeric: tuple[bool, ...] = ()  # per column: right-aligned in LaTeX

    def csv(self) -> str:
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(self.header)
        writer.writerows(self.rows)
        return out.getvalue()

    def latex(self) -> str:
        numeric = self.numeric or (False,) * len(self.header)
        spec = "".join("r" if n else "l" for n in numeric)
        lines = [f"% {latex_escape(self.caption)}", f"\\begin{{tabular}}{{{spec}}}", "\\toprule",
                 " & ".join(latex_escape(h) for h in self.header) + " \\\\", "\\midrule"]
        lines += [" & ".join(latex_escape(c) for c in row) + " \\\\" for row in self.rows]
        lines += ["\\bottomrule", "\\end{tabular}", ""]
        return "\n".join(lines)


def latex_escape(text: str) -> str:
    return "".join(_LATEX.get(c, c) for c in text).replace("–", "--").replace("−", "$-$").replace("≤", "$\\le$")


def _num(x: float | None, digits: int = 2) -> str:
    return "" if x is None else f"{x:.{digits}f}"


def p_text(p: float, n_samples: int) -> str:
    """A p-value as written in the page: ``≤ 0.001`` at the resampling floor ``1 / (N + 1)`` (the floor
    rounded up to three decimals, so the bound stays true), else three significant decimals."""
    floor = 1.0 / (n_samples + 1)
    if p <= floor * (1 + 1e-9):
        bound = math.ceil(floor * 1000 - 1e-9) / 1000
        return f"≤ {bound:.3f}" if floor >= 0.0001 else f"≤ {floor:.1e}"
    return f"{p:.4f}" if p < 0.01 else f"{p:.3f}"


def systems_table(data: ReportData) -> Table:
    header = ["rank", "system"]
    for m in data.metrics:
        header += [m.name, f"{m.name} 95% CI", f"{m.name} cluster", f"{m.name} rank"]
    rows = []
    for k in data.metrics[0].order:
        row = [str(data.metrics[0].order.index(k) + 1), data.systems[k]]
        for m in data.metrics:
            ci = m.intervals[k]
            cluster = "1" if m.cluster_of is None else str(m.cluster_of[k])
            lo, hi = (1, 1) if m.rank_ranges is None else m.rank_ranges[k]
            row += [_num(m.scores[k]), f"{ci.lower:.2f}–{ci.upper:.2f}", cluster, f"{lo}" if lo == hi else f"{lo}–{hi}"]
        rows.append(tuple(row))
    numeric = (True, False) + (True,) * (len(header) - 2)
    return Table("systems", "Systems: corpus scores, 95% bootstrap intervals, significance clusters, rank ranges",
                 tuple(header), tuple(rows), numeric)


def bleu_details_table(data: ReportData) -> Table:
    n = data.tokens.max_order
    header = ("system", *(f"P{i}" for i in range(1, n + 1)), "BP", "ratio", "hyp_len", "ref_len")
    rows = []
    for k in data.metrics[0].order:
        c = data.corpus[k]
        rows.append((data.systems[k], *(f"{p:.1f}" for p in c.precisions), f"{c.bp:.3f}", f"{c.ratio:.3f}",
                     str(c.sys_len), str(c.ref_len)))
    return Table("bleu-details", "BLEU details: n-gram precisions, brevity penalty, lengths", header, tuple(rows),
                 (False,) + (True,) * (len(header) - 1))


def significance_table(data: ReportData, m_index: int) -> Table | None:
    m = data.metrics[m_index]
    if m.p_values is None:
        return None
    order = m.order
    header = ("system", *(data.systems[j] for j in order))
    rows = []
    for i in order:
        cells = [data.systems[i]]
        for j in order:
            if i == j:
                cells.append("")
                continue
            delta = m.scores[i] - m.scores[j]
            cells.append(f"{delta:+.2f} (p {p_text(float(m.p_values[i, j]), data.n_bootstrap)})")
        rows.append(tuple(cells))
    adjusted = " (Holm-Bonferroni adjusted)" if data.holm else ""
    return Table(f"significance-{m.name}", f"{m.name}: row minus column, paired bootstrap p-value{adjusted}", header,
                 tuple(rows), (False,) + (True,) * len(order))


def bucket_export(data: ReportData, tables, name: str) -> list[Table]:
    out = []
    for t in tables:
        order = [k for k in data.metrics[0].order]
        header = ("bucket", *(f"{data.systems[k]} ({t.metric})" for k in order), "segments")
        rows = []
        for g, label in enumerate(t.labels):
            cells = [label]
            for k in order:
                s = t.scores[k][g]
                cells.append("" if s is None else f"{s:.2f} [{t.lower[k][g]:.2f}, {t.upper[k][g]:.2f}]")
            cells.append(str(t.counts[order[0]][g]) if name == "length" else "/".join(str(t.counts[k][g]) for k in order))
            rows.append(tuple(cells))
        out.append(Table(f"{name}-{t.metric}", f"{t.metric} {t.title}, 95% intervals", header, tuple(rows),
                         (False,) + (True,) * (len(header) - 1)))
    return out


def best_difference_tables(data: ReportData) -> list[Table]:
    out = []
    for bd in data.best_differences:
        rows = tuple((data.systems[k], f"{bd.delta[k]:+.2f}", f"{bd.lower[k]:+.2f}", f"{bd.upper[k]:+.2f}")
                     for k in bd.order)
        out.append(Table(f"difference-from-best-{bd.metric}",
                         f"{bd.metric}: difference from the best system ({data.systems[bd.best]}), 95% interval",
                         ("system", "difference", "lower", "upper"), rows, (False, True, True, True)))
    return out


def ngram_table(data: ReportData, diff) -> Table:
    name_a, name_b = data.systems[diff.a], data.systems[diff.b]
    rows = []
    for better, items in ((name_a, diff.a_better), (name_b, diff.b_better)):
        for r in items:
            rows.append((better, r.ngram, str(r.order), str(r.a), str(r.b), str(r.ref), f"{r.a - r.b:+d}",
                         f"{r.lower:+.0f}", f"{r.upper:+.0f}", f"{r.score:.3f}"))
    return Table(f"ngrams-{diff.a}-{diff.b}", f"n-grams matched more often by one system: {name_a} vs {name_b}",
                 ("better", "n-gram", "n", name_a, name_b, "reference", "difference", "lower", "upper", "score"),
                 tuple(rows), (False, False) + (True,) * 8)


def word_accuracy_table(data: ReportData) -> Table:
    wa = data.word_accuracy
    order = data.metrics[0].order
    header = ("frequency", "reference words", *(data.systems[k] for k in order))
    rows = []
    for g, label in enumerate(wa.labels):
        rows.append((label, str(wa.ref_words[g]),
                     *(f"{wa.fmeasure[k][g]:.4f} [{wa.lower[k][g]:.4f}, {wa.upper[k][g]:.4f}]" for k in order)))
    return Table("word-accuracy", f"word F-measure by frequency in {wa.source} (compare-mt's buckets), 95% intervals",
                 header, tuple(rows), (False,) + (True,) * (len(header) - 1))


def all_tables(data: ReportData) -> list[Table]:
    """Every table of the page (the n-gram tables: one per pair of systems)."""
    out = [systems_table(data), bleu_details_table(data)]
    out += [t for m in range(len(data.metrics)) if (t := significance_table(data, m)) is not None]
    out += best_difference_tables(data)
    out += [ngram_table(data, d) for d in data.ngram_differences]
    out.append(word_accuracy_table(data))
    out += bucket_export(data, data.length_buckets, "length")
    out += bucket_export(data, data.length_diff_buckets, "length-difference")
    return out
