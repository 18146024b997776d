"""The HTML report: its numbers equal the library's (and sacreBLEU's), user text is escaped, the command works
on every WMT pair. The page's behaviour in a browser is tested in test_report_browser.py."""

from __future__ import annotations

import html.parser
import json
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import bleuscope
from bleuscope import BLEU
from bleuscope.analysis import significance
from bleuscope.report import build_report, report_data, write_report
from bleuscope.report.cli import main as report_main

from ..conftest import DATA, all_pairs, expected_rows, read_lines, requires_wmt

EXAMPLE = Path(bleuscope.__file__).parent / "data" / "example"


@pytest.fixture(scope="module")
def example_data(example):
    systems, refs = example
    return report_data(systems, refs, bleu=BLEU(), reference_names=["A", "B"])


def page_json(page: str) -> dict:
    m = re.search(r'<script type="application/json" id="report-data">(.*?)</script>', page, re.S)
    assert m is not None
    return json.loads(m.group(1))


# ---------------------------------------------------------------------------------------------------------
# numbers
# ---------------------------------------------------------------------------------------------------------
def test_corpus_scores_and_intervals_equal_the_library(example, example_data):
    systems, refs = example
    bleu = BLEU()
    for k, (name, hyps) in enumerate(systems.items()):
        expected = bleu.corpus_score(hyps, refs)
        got = example_data.corpus[k]
        assert (got.score, got.counts, got.totals, got.bp, got.sys_len, got.ref_len) == (
            expected.score, expected.counts, expected.totals, expected.bp, expected.sys_len, expected.ref_len)
        assert got.precisions == expected.precisions
        ci = significance.confidence_interval(hyps, refs, metric=BLEU(), name=name)
        got_ci = example_data.bleu_summary.intervals[k]
        assert (got_ci.lower, got_ci.upper) == (ci.lower, ci.upper)  # sacrebleu --confidence's bounds
        paired = significance.paired_bootstrap(systems, refs)[name]  # and --paired-bs's mean and half-width
        assert (got_ci.mean, got_ci.ci) == (paired.mean, paired.ci)
        assert got_ci.mean == pytest.approx(ci.mean, abs=1e-9)


def test_significance_equals_all_pairs(example, example_data):
    systems, refs = example
    expected = significance.all_pairs(systems, refs, metric=BLEU())
    got = example_data.bleu_summary.all_pairs
    assert np.array_equal(got.p_values, expected.p_values)
    assert got.clusters == expected.clusters and got.rank_ranges == expected.rank_ranges
    # and the paired bootstrap with the first system as baseline (sacreBLEU --paired-bs)
    paired = significance.paired_bootstrap(systems, refs)
    assert got.p_values[0, 1] == paired["OpenNMT"].p_value


def test_sentence_scores_equal_sentence_bleu(example, example_data):
    systems, refs = example
    for k, hyps in enumerate(systems.values()):
        expected = BLEU(effective_order=True).sentence_scores(hyps, refs).scores
        np.testing.assert_array_equal(example_data.bleu_summary.sentence_scores[k], expected)


def test_sentence_scores_equal_sacrebleu(example, example_data):
    sacrebleu = pytest.importorskip("sacrebleu")
    systems, refs = example
    hyps = systems["OpenNMT"]
    scorer = sacrebleu.metrics.BLEU(effective_order=True)
    for i in range(0, 300, 7):
        expected = scorer.sentence_score(hyps[i], [refs[0][i], refs[1][i]]).score
        assert example_data.bleu_summary.sentence_scores[1, i] == pytest.approx(expected, abs=1e-9)


def test_length_buckets_are_corpus_scores_of_their_segments(example, example_data):
    """compare-mt's reference-length buckets and the length-difference buckets: each cell is the corpus score
    of the bucket's segments (recomputed here from the texts), inside its bootstrap interval."""
    systems, refs = example
    bleu = BLEU()
    lengths = example_data.reference_lengths
    tok = bleu.tokenizer
    assert lengths.tolist() == [len(tok(r).split()) for r in refs[0]]
    table = example_data.length_buckets[0]
    assert table.labels == ("< 10", "10–19", "20–29", "30–39", "40–49", "50–59", "≥ 60")
    edges = [0, 10, 20, 30, 40, 50, 60, 10**9]
    for g in range(len(table.labels)):
        idx = [i for i in range(len(lengths)) if edges[g] <= lengths[i] < edges[g + 1]]
        for k, hyps in enumerate(systems.values()):
            assert table.counts[k][g] == len(idx)
            if not idx:
                assert table.scores[k][g] is None
                continue
            expected = bleu.corpus_score([hyps[i] for i in idx], [[r[i] for i in idx] for r in refs]).score
            assert table.scores[k][g] == pytest.approx(expected, abs=1e-9)
            if len(idx) >= table.min_segments:
                assert table.lower[k][g] <= table.upper[k][g]
            else:
                assert table.lower[k][g] is None and table.upper[k][g] is None
    diff = example_data.length_diff_buckets[0]
    for k, hyps in enumerate(systems.values()):
        stats = bleu.segment_statistics(hyps, refs).stats
        d = stats[:, 0] - stats[:, 1]
        assert sum(diff.counts[k]) == len(hyps)
        g = diff.labels.index("0")
        idx = [i for i in range(len(hyps)) if d[i] == 0]
        assert diff.counts[k][g] == len(idx)
        expected = bleu.corpus_score([hyps[i] for i in idx], [[r[i] for i in idx] for r in refs]).score
        assert diff.scores[k][g] == pytest.approx(expected, abs=1e-9)


def test_highlighted_ngrams_are_the_clipped_matches(example, example_data):
    """Every highlight's matched n-grams per order are exactly BLEU's clipped counts of that segment."""
    from bleuscope.report.compute import matched_ngrams, reference_limits

    systems, refs = example
    bleu = BLEU()
    for k, hyps in enumerate(systems.values()):
        stats = bleu.segment_statistics(hyps, refs).stats
        for i in range(len(hyps)):
            hyp_tok = bleu.tokenizer(hyps[i]).split()
            limits = reference_limits([bleu.tokenizer(r[i]).split() for r in refs], 4)
            counts = [len(s) for s in matched_ngrams(hyp_tok, limits)]
            assert counts == stats[i, 2:6].tolist()
            h = example_data.highlights[k][i]
            assert not h.tokenized and h.text == hyps[i]
            # the spans cover exactly the tokens that are part of a matched n-gram
            covered = "".join(h.text[a:b] for a, b, _ in h.spans).replace(" ", "")
            in_match = set()
            for n, starts in enumerate(matched_ngrams(hyp_tok, limits), start=1):
                for s in starts:
                    in_match.update(range(s, s + n))
            assert covered == "".join(hyp_tok[t] for t in sorted(in_match))


def test_page_numbers_equal_the_data(example, example_data):
    systems, refs = example
    page = build_report(systems, refs, reference_names=["A", "B"])
    data = page_json(page)
    assert data["systems"] == ["Online-B", "OpenNMT"]
    sentence = example_data.bleu_summary.sentence_scores
    np.testing.assert_allclose(np.array(data["score"][0]) / 100, sentence, atol=5e-3)  # two decimals in the page
    for k, name in enumerate(systems):
        m = re.search(rf'<tr[^>]*data-system="{name}">.*?<td class="num" data-metric="BLEU" data-value="([^"]+)">',
                      page)
        assert m is not None and float(m.group(1)) == example_data.corpus[k].score
    p = float(re.search(r'data-p="([^"]+)"', page).group(1))
    assert p == example_data.bleu_summary.all_pairs.p_values[0, 1]
    assert example_data.bleu_summary.signature in page


def test_further_metrics_equal_sacrebleu(example, tmp_path):
    """chrF and TER (the additive-metric interface) in the systems table: sacreBLEU's corpus scores, and
    bootstrap intervals from the library."""
    sacrebleu = pytest.importorskip("sacrebleu")
    chrf_mod = pytest.importorskip("bleuscope.metrics.chrf")
    ter_mod = pytest.importorskip("bleuscope.metrics.ter")
    systems, refs = example
    systems = {k: v[:40] for k, v in systems.items()}
    refs = [r[:40] for r in refs]
    data = report_data(systems, refs, metrics=[chrf_mod.CHRF(), ter_mod.TER()], n_bootstrap=100)
    chrf, ter = data.metrics[1:]
    assert (chrf.name, ter.name, ter.higher_is_better) == ("chrF2", "TER", False)
    for k, hyps in enumerate(systems.values()):
        assert chrf.scores[k] == pytest.approx(sacrebleu.corpus_chrf(hyps, refs).score, abs=1e-9)
        assert ter.scores[k] == pytest.approx(sacrebleu.corpus_ter(hyps, refs).score, abs=1e-9)
        ci = significance.confidence_interval(chrf_mod.CHRF().segment_statistics(hyps, refs).stats,
                                              metric=chrf_mod.CHRF(), n_samples=100)
        assert (chrf.intervals[k].lower, chrf.intervals[k].upper) == (ci.lower, ci.upper)
    page = build_report(systems, refs, metrics=[chrf_mod.CHRF()], n_bootstrap=50)
    assert f'data-metric="chrF2" data-value="{chrf.scores[0]!r}"' in page
    out = tmp_path / "r.html"
    assert report_main([str(EXAMPLE / "ref.A.txt"), "-i", str(EXAMPLE / "hyp.OpenNMT.txt"), "-m", "chrf",
                        "-o", str(out), "-q", "--n-bootstrap", "20"]) == 0
    assert 'data-metric="chrF2"' in out.read_text(encoding="utf-8")


@requires_wmt
def test_wmt22_en_de_scores_equal_sacrebleu():
    """All eight WMT22 en-de systems with both references: the systems table equals sacreBLEU 2.6.0."""
    base = DATA / "generaltest2022" / "en-de"
    expected = {r["system"]: r for r in expected_rows() if r["testset"] == "generaltest2022" and r["pair"] == "en-de"
                and r["refs"] == "A+B" and "tok:13a" in r["signature"]}
    names = sorted(expected)
    systems = {n: read_lines(base / "sys" / f"{n}.txt") for n in names}
    refs = [read_lines(base / "ref.A.txt"), read_lines(base / "ref.B.txt")]
    data = report_data(systems, refs, max_segments=0, n_bootstrap=200)
    assert len(names) == 8 and data.shown_segments == 0
    for k, n in enumerate(names):
        assert data.corpus[k].score == pytest.approx(float(expected[n]["score"]), abs=5e-7)
        assert " ".join(map(str, data.corpus[k].counts)) == expected[n]["counts"]
        assert data.corpus[k].sys_len == int(expected[n]["sys_len"])


# ---------------------------------------------------------------------------------------------------------
# escaping
# ---------------------------------------------------------------------------------------------------------
class _Elements(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.attrs: list[tuple[str, str | None]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        self.attrs.extend(attrs)


ALLOWED_TAGS = {"html", "head", "meta", "title", "style", "body", "header", "h1", "h2", "h3", "p", "nav", "a",
                "section", "table", "thead", "tbody", "tr", "th", "td", "b", "i", "span", "br", "hr", "ol", "li",
                "ul", "div", "svg", "line", "text", "rect", "path", "circle", "wbr", "code", "details", "summary",
                "select", "option", "label", "input", "button", "script", "h4", "em", "g"}

NASTY = ['</script><script>window.__pwned=1</script>', '<img src=x onerror="window.__pwned=2">',
         "</textarea><b>bold</b>", "\"quoted' & <!-- comment", "tab\there\x08bs\x1dgs\x00nul", "line\u2028sep\u2029",
         "\u202eevil bidi", "lone \ud800 surrogate", "]]></style><style>body{display:none}</style>"]


def _check_safe(page: str, texts: list[str]) -> None:
    parser = _Elements()
    parser.feed(page)
    assert parser.tags.count("script") == 2  # the data block and the page's own script
    assert set(parser.tags) <= ALLOWED_TAGS, set(parser.tags) - ALLOWED_TAGS
    assert parser.tags.count("style") == 1
    assert not [a for a, _ in parser.attrs if a.startswith("on")]
    assert "<!DOCTYPE html>" in page and page.count("</script>") == 2
    data = page_json(page)
    flat = json.dumps(data, ensure_ascii=False)
    for t in texts:
        cleaned = re.sub("[\ud800-\udfff]", "\ufffd", t)
        assert json.dumps(cleaned, ensure_ascii=False)[1:-1] in flat


def test_user_text_is_escaped_everywhere():
    hyps = NASTY
    refs = [[f"ref {t}" for t in NASTY]]
    src = [f"src {t}" for t in NASTY]
    name = '<script>alert("name")</script>'
    page = build_report({name: hyps, "b\"'<>&": list(reversed(hyps)), "third": hyps}, refs, sources=src,
                        title="</title><script>x</script>", reference_names=["</td>ref"], n_bootstrap=50)
    _check_safe(page, hyps + refs[0] + src + [name])
    assert "&lt;script&gt;alert(&quot;name&quot;)&lt;/script&gt;" in page
    # control characters are shown as symbols in the static rows, never written raw
    assert '<span class="ctl" title="U+0008">\u2408</span>' in page
    assert "\x08" not in page and "\x00" not in page and "\u2028" not in page
    page.encode("utf-8")  # lone surrogates were replaced


@pytest.mark.filterwarnings("ignore::bleuscope.CJKTokenizationWarning")
@settings(max_examples=25, deadline=None)
@given(st.lists(st.text(max_size=30), min_size=2, max_size=4), st.text(min_size=1, max_size=12))
def test_arbitrary_text_never_becomes_markup(hyps, name):
    refs = [[h[::-1] for h in hyps]]
    page = build_report({name: hyps, name + "2": hyps[::-1]}, refs, sources=hyps, n_bootstrap=20)
    _check_safe(page, hyps + [name])


def test_script_json_escapes_what_html_and_js_would_interpret():
    from bleuscope.report.render import script_json

    text = script_json({"a": "</script><!--\u2028\u2029&>\x85"})
    assert "<" not in text and ">" not in text and "&" not in text
    assert "\u2028" not in text and "\u2029" not in text and "\x85" not in text
    assert json.loads(text) == {"a": "</script><!--\u2028\u2029&>\x85"}


# ---------------------------------------------------------------------------------------------------------
# options, sizes, edge cases
# ---------------------------------------------------------------------------------------------------------
def test_max_segments_caps_texts_not_scores(example):
    systems, refs = example
    page = build_report(systems, refs, max_segments=40, n_bootstrap=50)
    data = page_json(page)
    assert data["shown"] == 40 and data["total"] == 300 and len(data["hyp"][0]) == 40
    assert "first 40 of 300 segments" in page
    full = report_data(systems, refs, max_segments=40, n_bootstrap=50)
    assert full.corpus[0].score == BLEU().corpus_score(systems["Online-B"], refs).score


def test_single_system_and_missing_references():
    hyps = ["the cat sat on the mat", "a dog", "hello world"]
    refs = [["the cat sat on a mat", None, "hello world"], ["a cat sat", "a dog barks", None]]
    page = build_report({"only": hyps}, refs, n_bootstrap=30)
    data = page_json(page)
    assert data["refs"][0][1] is None
    assert "nrefs:var" in page and "One system: no pairwise test." in page
    np.testing.assert_allclose(np.array(data["score"][0][0]) / 100, BLEU(effective_order=True).sentence_scores(hyps, refs).scores,
                               atol=5e-3)  # two decimals in the page


def test_lowercase_and_tokenized_fallback():
    # 13a turns &quot; into a quote: the token cannot be placed in the original text, so it is shown tokenized
    data = report_data({"a": ["He said &quot;Hi&quot; .", "The CAT sat"], "b": ["x", "y"]},
                       [["He said \"Hi\" .", "the cat sat"]], bleu=BLEU(lowercase=True), n_bootstrap=20)
    first, second = data.highlights[0]
    assert first.tokenized and first.text == 'he said " hi " .'
    assert not second.tokenized and second.text == "The CAT sat" and second.spans == ((0, 11, 3),)


def test_bad_arguments():
    with pytest.raises(ValueError, match="used twice"):
        build_report([("a", ["x"]), ("a", ["y"])], [["x"]])
    with pytest.raises(TypeError, match="either bleu"):
        build_report({"a": ["x"]}, [["x"]], bleu=BLEU(), tokenize="13a")
    with pytest.raises(TypeError, match="token view"):  # the n-gram views need BLEU's tokens
        build_report({"a": ["x"]}, [["x"]], bleu=bleuscope.CHRF())
    with pytest.raises(TypeError, match="bleu must be a bleuscope metric"):
        build_report({"a": ["x"]}, [["x"]], bleu="13a")
    with pytest.raises(TypeError, match=r"metrics\[1\] must be a bleuscope metric"):
        build_report({"a": ["x"]}, [["x"]], metrics=[bleuscope.CHRF(), "ter"])
    with pytest.raises(ValueError, match="sources has 2 lines"):
        build_report({"a": ["x"]}, [["x"]], sources=["a", "b"])
    with pytest.raises(ValueError, match="pair"):
        build_report({"a": ["x"], "b": ["y"]}, [["x"]], pair=("a", "c"))
    with pytest.raises(ValueError, match="system 'b' has 1 segments but system 'a' has 2"):
        build_report({"a": ["x", "y"], "b": ["y"]}, [["x", "y"]])


def test_write_report_is_atomic(tmp_path, example):
    systems, refs = example
    out = tmp_path / "r.html"
    out.write_text("old")
    with pytest.raises(ValueError):
        write_report(out, {"a": ["x"]}, [["x", "y"]])
    assert out.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["r.html"]
    write_report(out, {"a": systems["OpenNMT"][:20]}, [r[:20] for r in refs], n_bootstrap=20)
    assert out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


# ---------------------------------------------------------------------------------------------------------
# the command
# ---------------------------------------------------------------------------------------------------------
def _write(path: Path, lines: list[str]) -> str:
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")
    return str(path)


def test_cli_writes_the_report(tmp_path, capsys):
    out = tmp_path / "report.html"
    code = report_main([str(EXAMPLE / "ref.A.txt"), str(EXAMPLE / "ref.B.txt"), "-i", str(EXAMPLE / "hyp.Online-B.txt"),
                        str(EXAMPLE / "hyp.OpenNMT.txt"), "-o", str(out), "--n-bootstrap", "100",
                        "--pair", "hyp.OpenNMT", "hyp.Online-B"])
    assert code == 0
    assert "wrote" in capsys.readouterr().err
    data = page_json(out.read_text(encoding="utf-8"))
    assert data["systems"] == ["hyp.Online-B", "hyp.OpenNMT"] and data["pair"] == [1, 0]
    assert data["refNames"] == ["ref.A", "ref.B"]


@pytest.mark.parametrize("args, code, message", [
    (["REF", "-i", "SHORT", "-o", "OUT"], 1, "line counts differ: hypothesis {SHORT} has 2 lines but reference {REF} "
                                            "has 3; {REF}:3 has no counterpart"),
    (["REF", "-i", "HYP", "-s", "SHORT", "-o", "OUT"], 1, "source {SHORT} has 2 lines"),
    (["REF", "-i", "MISSING", "-o", "OUT"], 1, "{MISSING}: no such file"),
    (["REF", "-i", "LATIN1", "-o", "OUT"], 1, "{LATIN1}:2: invalid UTF-8"),
    (["REF", "-i", "EMPTY", "-o", "OUT"], 1, "{EMPTY}: empty input"),
    (["REF", "-i", "HYP", "-o", "OUT", "-tok", "nope"], 2, "unknown tokenizer 'nope'"),
    (["REF", "-i", "HYP", "-o", "OUT", "--pair", "HYPNAME", "x"], 2, "--pair: 'x' is not one of the systems"),
    (["REF", "-i", "HYP", "-o", "OUT", "--names", "a", "b"], 2, "--names gives 2 names for 1 -i files"),
    (["REF", "-i", "HYP"], 2, "the following arguments are required: -o/--output"),
    (["REF", "-i", "HYP", "-o", "OUT", "--n-bootstrap", "0"], 2, "must be from 1 to 100,000, got 0"),
    # BLEU's library messages carry the command's option names
    (["REF", "-i", "HYP", "-o", "OUT", "-sv", "0.5"], 2, "-sv/--smooth-value is not used by --smooth-method 'exp'"),
    (["REF", "-i", "HYP", "-o", "OUT", "--smooth-method", "nope"], 2, "unknown --smooth-method 'nope'; choose one"),
    (["REF", "-i", "HYP", "-o", "OUT", "-m", "chrf", "ter", "chrf"], 2, "-m names a metric twice: chrf ter chrf"),
])
def test_cli_errors_are_one_line(tmp_path, capsys, args, code, message):
    files = {
        "REF": _write(tmp_path / "ref.txt", ["a b c", "d e f", "g h i"]),
        "HYP": _write(tmp_path / "hyp.txt", ["a b c", "d e", "g"]),
        "SHORT": _write(tmp_path / "short.txt", ["a", "b"]),
        "EMPTY": _write(tmp_path / "empty.txt", []),
        "MISSING": str(tmp_path / "missing.txt"),
        "OUT": str(tmp_path / "out.html"),
        "HYPNAME": "hyp",
    }
    latin = tmp_path / "latin1.txt"
    latin.write_bytes(b"ok\n\xfc\nx\n")
    files["LATIN1"] = str(latin)
    (tmp_path / "out.html").write_text("untouched")
    assert report_main([files.get(a, a) for a in args]) == code
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("bleuscope report: error: ")
    assert message.format(**files) in err
    assert (tmp_path / "out.html").read_text() == "untouched"


# every pair of the WMT data, including Japanese, Chinese and Korean targets, through the command
LANGUAGE_TOKENIZER = {"zh": "tok:zh", "ja": "tok:ja-mecab", "ko": "tok:ko-mecab"}


@requires_wmt
@pytest.mark.parametrize("testset, pair", all_pairs() if DATA.exists() else [])
def test_cli_on_every_wmt_pair(tmp_path, testset, pair, capsys):
    """The first 60 lines of every file: the whole pipeline, quickly."""
    _check_wmt_pair(tmp_path, testset, pair, capsys, 60)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("testset, pair", all_pairs() if DATA.exists() else [])
def test_cli_on_every_whole_wmt_pair(tmp_path, testset, pair, capsys):
    _check_wmt_pair(tmp_path, testset, pair, capsys, None)


def _check_wmt_pair(tmp_path, testset, pair, capsys, n):
    base = DATA / testset / pair
    refs = sorted(base.glob("ref.*.txt"))
    systems = sorted((base / "sys").glob("*.txt")) if (base / "sys").exists() else refs[:1]
    if systems == refs[:1]:
        refs = refs[1:]  # wmt24pp/en-ko has no systems: score one reference against the other
    trg = pair.split("-")[1]
    if trg in ("ja", "ko"):
        pytest.importorskip("MeCab" if trg == "ja" else "mecab_ko")
    n = n or len(read_lines(base / "src.txt"))
    ref_args = [_write(tmp_path / p.name, read_lines(p)[:n]) for p in refs]
    sys_dir = tmp_path / "sys"
    sys_dir.mkdir()
    sys_args = [_write(sys_dir / p.name, read_lines(p)[:n]) for p in systems]
    src = _write(tmp_path / "src.txt", read_lines(base / "src.txt")[:n])
    out = tmp_path / "report.html"
    assert report_main(ref_args + ["-i", *sys_args, "-s", src, "-l", pair, "-o", str(out), "-q",
                                   "--n-bootstrap", "100"]) == 0, capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    data = page_json(page)
    assert data["systems"] == [p.stem for p in systems] and data["shown"] == n
    assert LANGUAGE_TOKENIZER.get(trg, "tok:13a") in page
    bleu = BLEU(tokenize=None, trg_lang=trg)
    hyps = read_lines(systems[0])[:n]
    ref_lines = [read_lines(p)[:n] for p in refs]
    np.testing.assert_allclose(np.array(data["score"][0][0]) / 100, BLEU(tokenize=None, trg_lang=trg, effective_order=True)
                               .sentence_scores(hyps, ref_lines).scores, atol=5e-3)  # two decimals in the page
    assert f'data-value="{bleu.corpus_score(hyps, ref_lines).score!r}"' in page
    # the highlighted n-grams are BLEU's clipped matches with this language's tokenizer ...
    from bleuscope.report.compute import matched_ngrams, reference_limits

    stats = bleu.segment_statistics(hyps, ref_lines).stats
    hyp_tok = bleu.tokenizer.tokenize_batch(hyps)
    ref_tok = [bleu.tokenizer.tokenize_batch(r) for r in ref_lines]
    for i in range(n):
        limits = reference_limits([r[i] for r in ref_tok], 4)
        assert [len(m) for m in matched_ngrams(hyp_tok[i], limits)] == stats[i, 2:6].tolist()
    # ... and are shown in the original text (not as tokens) almost everywhere
    tokenized = sum(isinstance(h, dict) for row in data["hyp"] for h in row)
    assert tokenized <= 0.05 * n * len(systems)
