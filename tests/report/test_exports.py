"""The report's exports on WMT22 en-de (eight systems, BLEU, chrF and TER): every LaTeX table compiles with
pdflatex in nonstop mode and fits an A4 page with 2 cm margins and one column of a two-column (ACL) page in
both layouts, with no overfull box over 1 pt; the escaper typesets every printable ASCII character and a sample
of Unicode as given (read back from the PDF with pdftotext); every CSV is read back with the csv module and
has numbers, and only numbers, in its numeric columns."""

from __future__ import annotations

import csv
import io
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from bleuscope.report.tables import LATEX_PREAMBLE, all_tables, file_stem, latex_escape

PDFLATEX = shutil.which("pdflatex")
needs_pdflatex = pytest.mark.skipif(PDFLATEX is None, reason="pdflatex not installed (texlive-latex-base)")

#: A4 with 2 cm margins; the ACL template's column: 7.7 cm of a 16 cm text block
PAGES = {
    "a4": "\\documentclass[a4paper,10pt]{article}\\usepackage[a4paper,margin=2cm]{geometry}",
    "acl": "\\documentclass[a4paper,10pt,twocolumn]{article}"
           "\\usepackage[a4paper,textwidth=16cm,columnsep=0.6cm,textheight=24.7cm]{geometry}",
}


def _compile(directory: Path, name: str, body: str, preamble: str) -> str:
    """pdflatex in nonstop mode with a timeout; the log."""
    tex = directory / f"{name}.tex"
    tex.write_text(f"{preamble}\n" + "\n".join(LATEX_PREAMBLE) + "\n\\begin{document}\n" + body
                   + "\n\\end{document}\n", encoding="utf-8")
    run = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", "-no-shell-escape", tex.name],
                         cwd=directory, capture_output=True, text=True, timeout=120)
    log = (directory / f"{name}.log").read_text(encoding="latin-1")
    errors = [line for line in log.splitlines() if line.startswith("!")]
    assert run.returncode == 0 and not errors, (errors, run.stdout[-2000:])
    return log


def _overfull(log: str) -> list[str]:
    """Overfull boxes over 1 pt, with the file being read."""
    return [m.group(0) for m in re.finditer(r"Overfull \\[hv]box \((\d+(?:\.\d+)?)pt too (?:wide|high)\)[^\n]*", log)
            if float(m.group(1)) > 1.0]


@needs_pdflatex
def test_every_latex_export_compiles_and_fits(wmt_en_de_report, tmp_path):
    tables = all_tables(wmt_en_de_report)
    assert len(tables) >= 46 and {"label-BLEU", "label-chrF2", "label-TER"} <= {t.name for t in tables}
    for layout in ("wide", "long"):
        for t in tables:
            (tmp_path / f"{file_stem(t.name)}-{layout}.tex").write_text(t.latex(layout), encoding="utf-8")
    for page, preamble in PAGES.items():
        # every table in its own float-free block; \clearpage keeps one table's height from hiding another's
        body = "\n".join(f"\\noindent{{\\small {latex_escape(t.name)} ({layout})}}\\par\\smallskip\n"
                         f"\\input{{{file_stem(t.name)}-{layout}.tex}}\\par\\clearpage"
                         for layout in ("wide", "long") for t in tables)
        log = _compile(tmp_path, page, body, preamble)
        assert _overfull(log) == [], page
        pages = int(re.search(r"Output written on \S+ \((\d+) pages?", log).group(1))
        assert pages >= 2 * len(tables) // (2 if page == "acl" else 1)
    # the shrinking happens only where needed: the four-column difference table keeps its natural size
    assert "\\resizebox" in tables[0].latex()


@needs_pdflatex
def test_the_escaper_typesets_what_it_is_given(tmp_path):
    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) not installed")
    printable = "".join(chr(c) for c in range(32, 127))
    unicode_sample = "Größe Grüße „Wir“ ‚x‘ «a» ‹b› – — € • ≤ ≥ − ñ ç ø å œ Ł ő ß é Æ þ"
    unsupported = "中文 ☃ 😀 Ω \x08 \u200b"
    cells = [printable[:48], printable[48:], "[5,10)", "-10--6", ",,x''", "``q''", "<<a>>", "!`?`"]
    lines = [printable[i:i + 32] for i in range(0, len(printable), 32)]  # short enough for one line each
    body = ("".join(f"\\noindent S{latex_escape(x)}E\\par\n" for x in lines)
            + f"\\noindent U{latex_escape(unicode_sample)}U\\par\n\\noindent X{latex_escape(unsupported)}X\\par\n"
            "\\begin{tabular}{l}\\toprule\n" + "\\\\\n".join(latex_escape(c) for c in cells)
            + "\\\\\n\\bottomrule\\end{tabular}")
    _compile(tmp_path, "escape", body, PAGES["a4"])
    text = subprocess.run(["pdftotext", str(tmp_path / "escape.pdf"), "-"], capture_output=True, text=True,
                          check=True).stdout
    flat = "".join(text.split())
    for x in lines:
        assert "S" + x.replace(" ", "") + "E" in flat
    assert "U" + unicode_sample.replace(" ", "") + "U" in flat
    assert "X[U+4E2D][U+6587][U+2603][U+1F600][U+03A9][U+0008][U+200B]X" in flat
    lines = [x for x in text.splitlines() if x.strip()]
    for c in cells:  # each cell on its own line, no ligature (-- ,, '' `` << !`) and no lost [
        assert c.replace(" ", "") in [x.replace(" ", "") for x in lines], (c, lines)


def _number(text: str) -> float:
    return float(text)


#: CSV columns that hold numbers (empty where a value does not exist)
NUMERIC = {"score", "lower", "upper", "p_value", "difference", "segments", "resamples", "matched", "output",
           "reference", "precision", "recall", "fmeasure", "n", "count_a", "count_b", "cluster", "rank_low",
           "rank_high", "score_a", "score_b", "significant", "rank", "BP", "ratio", "hyp_len", "ref_len"}


def test_every_csv_has_one_number_per_numeric_column(wmt_en_de_report):
    data = wmt_en_de_report
    tables = all_tables(data)
    stems = [file_stem(t.name) for t in tables]
    assert len(set(stems)) == len(stems)
    assert "ngrams-Online-B-vs-PROMT" in stems and not any(re.fullmatch(r"ngrams-\d+-\d+", s) for s in stems)
    seen_empty_interval = False
    for t in tables:
        rows = list(csv.reader(io.StringIO(t.csv())))
        header, body = rows[0], rows[1:]
        assert body, t.name
        numeric = [i for i, h in enumerate(header) if h in NUMERIC or re.fullmatch(r"P\d", h)]
        assert numeric, (t.name, header)
        for row in body:
            assert len(row) == len(header), t.name
            for i in numeric:
                if row[i] == "":
                    assert header[i] in {"lower", "upper", "precision", "recall", "fmeasure", "score"}, (t.name, row)
                    seen_empty_interval = True
                    continue
                _number(row[i])  # raises on "51.40–53.32", "+0.70 (p 0.021)", "≤ 0.001"
    assert seen_empty_interval  # the word-accuracy <1 bucket has no F-measure
    systems = list(csv.DictReader(io.StringIO(next(t for t in tables if t.name == "systems").csv())))
    assert len(systems) == len(data.systems) * len(data.metrics)
    for row in systems:
        m = next(x for x in data.metrics if x.name == row["metric"])
        k = data.systems.index(row["system"])
        assert float(row["score"]) == pytest.approx(m.scores[k], abs=1e-8)
        assert float(row["lower"]) == pytest.approx(m.intervals[k].lower, abs=1e-8)
    pairs = list(csv.DictReader(io.StringIO(next(t for t in tables if t.name == "significance-BLEU").csv())))
    assert len(pairs) == 28
    bleu = data.metrics[0]
    for row in pairs:
        i, j = data.systems.index(row["system_a"]), data.systems.index(row["system_b"])
        assert float(row["p_value"]) == pytest.approx(bleu.p_values[i, j])
    words = list(csv.DictReader(io.StringIO(next(t for t in tables if t.name == "word-accuracy").csv())))
    for row in words:
        k, g = data.systems.index(row["system"]), data.word_accuracy.labels.index(row["frequency"])
        matched, output, reference = (int(row[c]) for c in ("matched", "output", "reference"))
        assert (matched, output, reference) == data.word_accuracy.counts[k][g]
        if reference and output:
            p, r = matched / output, matched / reference
            assert float(row["precision"]) == pytest.approx(p) and float(row["recall"]) == pytest.approx(r)
            assert float(row["fmeasure"]) == pytest.approx(2 * p * r / (p + r) if matched else 0.0)
