"""The report's analyses, each number against an independent computation: clipped n-gram counts recounted
here from the tokens, compare-mt's word accuracy on small cases worked by hand, the bootstrap intervals
redrawn with numpy, Holm-Bonferroni by hand; the exports and the command's new options."""

from __future__ import annotations

import csv
import io
from collections import Counter

import numpy as np
import pytest

import bleuscope
from bleuscope import BLEU
from bleuscope.analysis import significance
from bleuscope.report import analyses, report_data
from bleuscope.report.cli import main as report_main
from bleuscope.report.compute import holm_bonferroni, matched_ngrams, reference_limits
from bleuscope.report.tables import all_tables, latex_escape, p_text

from ..conftest import DATA, read_lines, requires_wmt
from .conftest import EXAMPLE

N_BOOT = 200


@pytest.fixture(scope="module")
def data(example):
    systems, refs = example
    return report_data(systems, refs, n_bootstrap=N_BOOT, reference_names=["A", "B"])


def _draws(n_segments: int, n_samples: int = N_BOOT, seed: int = 12345) -> np.ndarray:
    """sacreBLEU's resamples, drawn in one go: segment indices [N, S]."""
    return np.random.default_rng(seed).choice(n_segments, size=(n_samples, n_segments), replace=True)


def _clipped(hyps: list[str], refs: list[list[str]], max_order: int = 4) -> list[Counter]:
    """Per segment: n-gram -> min(count in the hypothesis, largest count in one reference), recounted."""
    tok = BLEU().tokenizer
    out = []
    for i, hyp in enumerate(hyps):
        h = tok(hyp).split()
        rs = [tok(r[i]).split() for r in refs]
        seg: Counter = Counter()
        for n in range(1, max_order + 1):
            hc = Counter(tuple(h[j:j + n]) for j in range(len(h) - n + 1))
            for g, c in hc.items():
                limit = max(Counter(tuple(r[j:j + n]) for j in range(len(r) - n + 1))[g] for r in rs)
                if limit:
                    seg[g] = min(c, limit)
        out.append(seg)
    return out


def test_ngram_differences_are_clipped_counts_ranked_as_compare_mt(example, data):
    systems, refs = example
    names = list(systems)
    per_seg = [_clipped(systems[n], refs) for n in names]
    totals = [sum(s, Counter()) for s in per_seg]
    tok = BLEU().tokenizer
    ref_total: Counter = Counter()
    for i in range(len(refs[0])):
        rs = [tok(r[i]).split() for r in refs]
        for n in range(1, 5):
            grams = set(tuple(r[j:j + n]) for r in rs for j in range(len(r) - n + 1))
            for g in grams:
                ref_total[g] += max(Counter(tuple(r[j:j + n]) for j in range(len(r) - n + 1))[g] for r in rs)
    # summed over an order, the clipped counts are BLEU's matched counts
    for k in range(len(names)):
        for n in range(1, 5):
            assert sum(c for g, c in totals[k].items() if len(g) == n) == data.corpus[k].counts[n - 1]
    # compare-mt's ranking: (a + 1) / (a + b + 2), ties by the larger difference, then the n-gram
    keys = set(totals[0]) | set(totals[1])
    ranked = sorted((g for g in keys if totals[0][g] > totals[1][g]),
                    key=lambda g: (-(totals[0][g] + 1) / (totals[0][g] + totals[1][g] + 2),
                                   -(totals[0][g] - totals[1][g]), g))[:analyses.NGRAM_CANDIDATES]
    (diff,) = data.ngram_differences
    assert (diff.a, diff.b) == (0, 1)
    assert [r.ngram for r in diff.a_better] == [" ".join(g) for g in ranked]
    draws = _draws(len(refs[0]))
    for row in diff.a_better + diff.b_better:
        g = tuple(row.ngram.split(" "))
        assert (row.a, row.b, row.ref, row.order) == (totals[0][g], totals[1][g], ref_total[g], len(g))
        d = np.array([per_seg[0][i][g] - per_seg[1][i][g] for i in range(len(refs[0]))], dtype=np.float64)
        lo, hi = np.percentile(d[draws].sum(axis=1), [2.5, 97.5])
        assert (row.lower, row.upper) == pytest.approx((lo, hi), abs=1e-9)
        assert set(row.segments) == {i for i in range(len(d)) if d[i]}
    assert all(r.b > r.a for r in diff.b_better)


def test_matched_ngrams_record_every_clipped_occurrence(example):
    systems, refs = example
    hyps = systems["OpenNMT"]
    tok = BLEU().tokenizer
    vocabulary: dict = {}
    matched = analyses.MatchedNgrams(vocabulary)
    for i, hyp in enumerate(hyps):
        grams: list = []
        matched_ngrams(tok(hyp).split(), reference_limits([tok(r[i]).split() for r in refs], 4), grams)
        matched.add(i, grams)
    totals = matched.totals()
    assert {g: int(totals[j]) for g, j in vocabulary.items() if totals[j]} == sum(_clipped(hyps, refs), Counter())


def test_word_accuracy_worked_by_hand():
    """compare-mt's definition. Reference frequencies: a 2, b 2, c 1, d 1, e 0. Segment 1: output a a a e,
    reference a b a c: a matches twice. Segment 2: output b d d, reference b d: b and d match once.
    Bucket <1 {e}: 0 of 1 output words match -> F 0. Bucket 1 {c, d}: output d d, reference c d, 1 match:
    P = R = 1/2, F = 0.5. Bucket 2 {a, b}: output a a a b, reference a a b b, 3 matches: P = R = 3/4."""
    data = report_data({"sys": ["a a a e", "b d d"]}, [["a b a c", "b d"]], n_bootstrap=50)
    wa = data.word_accuracy
    assert wa.labels == ("<1", "1", "2", "3", "4", "[5,10)", "[10,100)", "[100,1000)", ">=1000")
    f = dict(zip(wa.labels, wa.fmeasure[0]))
    counts = dict(zip(wa.labels, wa.counts[0]))
    assert counts["<1"] == (0, 1, 0) and counts["1"] == (1, 2, 2) and counts["2"] == (3, 4, 4)
    # <1 has no reference words: recall and F-measure are undefined (compare-mt writes 0), precision is 0/1
    assert f["<1"] is None and dict(zip(wa.labels, wa.precision[0]))["<1"] == 0.0
    assert f["1"] == pytest.approx(0.5) and f["2"] == pytest.approx(0.75)
    assert wa.source == "the reference" and wa.ref_words[:3] == (0, 2, 4)
    # with training data a 5, c 1: <1 {b, d, e}: output e b d d, reference b b d: 2 matches, P 2/4, R 2/3;
    # 1 {c}: nothing output -> 0; [5,10) {a}: output a a a, reference a a: P 2/3, R 1 -> F 0.8
    trained = report_data({"sys": ["a a a e", "b d d"]}, [["a b a c", "b d"]], n_bootstrap=50,
                          train=["a a a a a", "c"], train_name="train.txt").word_accuracy
    f = dict(zip(trained.labels, trained.fmeasure[0]))
    assert f["<1"] == pytest.approx(2 * 0.5 * (2 / 3) / (0.5 + 2 / 3)) and f["1"] == 0.0
    assert f["[5,10)"] == pytest.approx(0.8) and trained.source == "train.txt"


def test_word_accuracy_intervals_are_the_bootstrap_of_the_counts(example, data):
    systems, refs = example
    tok = BLEU().tokenizer
    hyps = systems["OpenNMT"]
    freq = Counter(w for r in refs[0] for w in tok(r).split())
    cut = analyses.FREQUENCY_CUTOFFS
    rows = np.zeros((len(hyps), len(cut) + 1, 3))
    for i, (h, r) in enumerate(zip(hyps, refs[0])):
        hc, rc = Counter(tok(h).split()), Counter(tok(r).split())
        for w in set(hc) | set(rc):
            g = sum(freq[w] >= c for c in cut)
            rows[i, g] += (min(hc[w], rc[w]), hc[w], rc[w])
    assert data.word_accuracy.counts[1] == tuple(tuple(int(x) for x in r) for r in rows.sum(axis=0))
    sampled = rows[_draws(len(hyps))].sum(axis=1)  # [N, G, 3]
    both, out, ref = sampled[..., 0], sampled[..., 1], sampled[..., 2]
    with np.errstate(divide="ignore", invalid="ignore"):
        p, r = both / out, both / ref
        f = np.where(both > 0, 2 * p * r / (p + r), 0.0)
    wa = data.word_accuracy
    segments = (rows[:, :, 2] > 0).sum(axis=0)
    assert wa.segments[1] == tuple(int(x) for x in segments)
    for g in range(len(cut) + 1):
        if segments[g] < analyses.MIN_BUCKET_SEGMENTS:  # <1: never a reference word
            assert wa.lower[1][g] is None and wa.upper[1][g] is None
            continue
        kept = ref[:, g] > 0  # the resamples in which the bucket has reference words
        lo, hi = np.percentile(f[kept, g], [2.5, 97.5])
        assert (wa.lower[1][g], wa.upper[1][g]) == pytest.approx((lo, hi), abs=1e-12)
        assert wa.resamples[1][g] == kept.sum()


def test_small_bucket_intervals_use_only_nonempty_resamples(example):
    """Buckets of 1, 2 and 3 segments (and one of 24): an interval comes from the resamples in which the bucket
    holds a segment, redrawn here; none below the minimum size; an empty bucket has no score."""
    systems, refs = example
    bleu = BLEU()
    n = 30
    stats = np.stack([bleu.segment_statistics(h[:n], [r[:n] for r in refs]).stats for h in systems.values()])
    groups = np.array([0] + [1] * 2 + [2] * 3 + [3] * 24)
    rng = np.random.default_rng(7)
    groups = groups[rng.permutation(n)]
    resampler = analyses.Resampler(n, N_BOOT, 12345)
    labels = ["one", "two", "three", "rest", "empty"]
    draws = _draws(n)
    counts = np.stack([np.bincount(d, minlength=n) for d in draws])  # [N, S]
    for min_segments in (1, analyses.MIN_BUCKET_SEGMENTS):
        table = analyses.bucket_tables("t", [("BLEU", bleu.score_rows, stats)], groups, labels, resampler,
                                       min_segments=min_segments)[0]
        for k in range(len(systems)):
            assert table.scores[k][4] is None and table.lower[k][4] is None  # the empty bucket
            for g, size in enumerate((1, 2, 3, 24)):
                members = groups == g
                assert table.counts[k][g] == size
                assert table.scores[k][g] == pytest.approx(float(bleu.score_rows(stats[k][members].sum(axis=0,
                                                                                                   keepdims=True))[0]))
                drawn = counts[:, members].sum(axis=1) > 0
                assert table.resamples[k][g] == drawn.sum()
                if size < min_segments:
                    assert table.lower[k][g] is None and table.upper[k][g] is None
                    continue
                sums = counts[drawn][:, members] @ stats[k][members]
                lo, hi = np.percentile(bleu.score_rows(sums), [2.5, 97.5])
                assert (table.lower[k][g], table.upper[k][g]) == pytest.approx((lo, hi), abs=1e-9)
                if size == 1:  # every kept resample repeats the one segment: no lower bound of 0
                    assert table.lower[k][g] == pytest.approx(table.scores[k][g])
                    assert drawn.sum() < N_BOOT  # some resamples missed it (and are not scored 0)
    assert "least one segment" in analyses.interval_rule(10, 1000) and "fewer than 10" in analyses.interval_rule(10, 1000)


def test_bucket_and_best_difference_intervals_redrawn(example, data):
    systems, refs = example
    bleu = BLEU()
    stats = np.stack([bleu.segment_statistics(h, refs).stats for h in systems.values()])
    draws = _draws(stats.shape[1])
    sampled = np.stack([bleu.score_rows(s[draws].sum(axis=1)) for s in stats])  # [K, N]
    best = data.best_differences[0]
    assert best.order == tuple(data.metrics[0].order)
    for k in range(2):
        lo, hi = np.percentile(sampled[k] - sampled[best.best], [2.5, 97.5])
        assert (best.lower[k], best.upper[k]) == pytest.approx((lo, hi), abs=1e-9)
        assert best.delta[k] == pytest.approx(data.corpus[k].score - data.corpus[best.best].score, abs=1e-12)
    table = data.length_buckets[0]
    g = table.labels.index("20–29")
    mask = (data.reference_lengths >= 20) & (data.reference_lengths < 30)
    for k in range(2):
        scores = bleu.score_rows((stats[k] * mask[:, None])[draws].sum(axis=1))
        lo, hi = np.percentile(scores, [2.5, 97.5])
        assert (table.lower[k][g], table.upper[k][g]) == pytest.approx((lo, hi), abs=1e-9)


def test_holm_bonferroni_by_hand():
    p = np.array([[1, 0.01, 0.04], [0.01, 1, 0.03], [0.04, 0.03, 1]])
    # sorted 0.01, 0.03, 0.04 times 3, 2, 1 = 0.03, 0.06, 0.04 -> running maximum 0.03, 0.06, 0.06
    adj = holm_bonferroni(p)
    assert (adj[0, 1], adj[1, 2], adj[0, 2]) == pytest.approx((0.03, 0.06, 0.06))
    assert np.array_equal(adj, adj.T) and (np.diag(adj) == 1).all()


def test_holm_option_adjusts_the_shown_p_values(example):
    systems, refs = example
    three = dict(systems, copy=list(systems["OpenNMT"][:150]) + list(systems["Online-B"][150:]))
    raw = report_data(three, refs, n_bootstrap=100)
    holm = report_data(three, refs, n_bootstrap=100, holm=True)
    np.testing.assert_array_equal(holm.metrics[0].p_values, holm_bonferroni(raw.metrics[0].p_values))
    assert p_text(1 / 101, 100) == "≤ 0.010" and p_text(1 / 1001, 1000) == "≤ 0.001" and p_text(0.5, 100) == "0.500"
    assert p_text(0.0123, 1000) == "0.012" and p_text(0.0045, 1000) == "0.0045"


def test_every_metric_has_tests_clusters_and_sentence_scores(example):
    pytest.importorskip("sacrebleu")
    from bleuscope.metrics.chrf import CHRF
    from bleuscope.metrics.ter import TER

    systems, refs = example
    data = report_data(systems, refs, metrics=[CHRF(), CHRF(word_order=2), TER()], n_bootstrap=100)
    assert [m.name for m in data.metrics] == ["BLEU", "chrF2", "chrF2++", "TER"]
    for m, metric in zip(data.metrics[1:], (CHRF(), CHRF(word_order=2), TER())):
        expected = bleuscope.analysis.significance.all_pairs(systems, refs, metric=metric, n_samples=100)
        np.testing.assert_array_equal(m.p_values, expected.p_values)
        assert m.rank_ranges == expected.rank_ranges
        for k, hyps in enumerate(systems.values()):
            rows = metric.segment_statistics(hyps, refs).stats
            np.testing.assert_array_equal(m.sentence_scores[k], metric.score_rows(rows))
    assert {t.name for t in all_tables(data)} >= {"systems", "significance-TER", "length-chrF2++",
                                                  "difference-from-best-TER"}


def test_exports_and_command_options(tmp_path, capsys):
    ref = tmp_path / "newstest2021.en-de.ref.txt"
    ref.write_text("the cat sat on the mat\nhello world\n", encoding="utf-8")
    a, b = tmp_path / "sys_a&b.txt", tmp_path / "other.txt"
    a.write_text("the cat sat on a mat\nhello world\n", encoding="utf-8")
    b.write_text("a cat\nhello there world\n", encoding="utf-8")
    out = tmp_path / "r.html"
    assert report_main([str(ref), "-i", str(a), str(b), "-m", "chrf", "ter", "--ter-asian-support", "--holm",
                        "--latex", str(tmp_path / "tex"), "--csv", str(tmp_path / "csv"), "-o", str(out),
                        "--n-bootstrap", "50", "-q"]) == 0, capsys.readouterr().err
    page = out.read_text(encoding="utf-8")
    assert "<title>newstest2021 en-de: 2 systems, 2 segments</title>" in page
    assert "asian:yes" in page and "Holm-Bonferroni adjusted" in page
    import hashlib
    assert hashlib.sha256(ref.read_bytes()).hexdigest() in page and "bleuscope report" in page
    rows = list(csv.reader(io.StringIO((tmp_path / "csv" / "systems.csv").read_text(encoding="utf-8"))))
    assert rows[0] == ["system", "metric", "score", "lower", "upper", "cluster", "rank_low", "rank_high"]
    assert [r[1] for r in rows[1:]] == ["BLEU", "chrF2", "TER"] * 2
    tex = (tmp_path / "tex" / "systems.tex").read_text(encoding="utf-8")
    assert "sys\\_a\\&b" in tex and "\\begin{tabular}" in tex and "\\bottomrule" in tex
    assert latex_escape("50% of $x_1 {a}~^\\") == "50\\% of \\$x\\_1 \\{a\\}\\textasciitilde{}\\textasciicircum{}\\textbackslash{}"
    assert (tmp_path / "csv" / "ngrams-sys_a_b-vs-other.csv").exists() and (tmp_path / "tex" / "word-accuracy.tex").exists()


@pytest.mark.filterwarnings("ignore::bleuscope.analysis.significance.TiesWarning")
def test_warnings_panel():
    hyps = ["the cat\r", "a dog"]
    data = report_data({"a": hyps, "b": list(hyps), "empty": ["", ""]}, [["the cat", ""]], n_bootstrap=20)
    text = " | ".join(data.warnings)
    assert "carriage return" in text and "systems a and b are identical" in text
    assert "system empty: every line is empty" in text and "reference reference 1: 1 empty line" in text


def test_ter_caveat_on_cjk_targets():
    from bleuscope.metrics.ter import TER

    refs = [["今日は良い天気です。", "私は学生です。"]]
    hyps = {"a": ["今日は天気です。", "私は学生。"], "b": ["良い天気。", "学生です。"]}
    plain = report_data(hyps, refs, metrics=[TER()], n_bootstrap=20, bleu=BLEU(tokenize="char"))
    assert any("asian_support" in w for w in plain.warnings)
    asian = report_data(hyps, refs, metrics=[TER(asian_support=True)], n_bootstrap=20, bleu=BLEU(tokenize="char"))
    assert not any("asian_support" in w for w in asian.warnings)


@requires_wmt
def test_wmt22_en_de_quote_ngrams_top_online_b_vs_lan_bridge():
    """Lan-Bridge writes <unk> for the German quotes „ and “: they lead Online-B's n-grams against it."""
    base = DATA / "generaltest2022" / "en-de"
    systems = {n: read_lines(base / "sys" / f"{n}.txt") for n in ("Lan-Bridge", "Online-B")}
    refs = [read_lines(base / "ref.A.txt"), read_lines(base / "ref.B.txt")]
    data = report_data(systems, refs, n_bootstrap=100, max_segments=0)
    (diff,) = data.ngram_differences
    online_b = [r.ngram for r in diff.b_better[:6]]
    assert {"„Wir", "“", "„Ich"} <= set(online_b), online_b
    assert all(r.a == 0 and r.upper < 0 for r in diff.b_better[:6])
    assert sum("<unk>" in h for h in systems["Lan-Bridge"]) == 229


def test_palette_and_outlier_chart():
    from bleuscope.report import charts

    assert len({charts.color(k) for k in range(20)}) == 20  # no colour repeats up to 20 systems
    # one system far below the rest is an arrow at the edge: the others keep a readable axis
    svg = charts.difference_chart(["best", "close", "far"], [0, 1, 2], [0.0, -0.8, -40.0], [0.0, -1.5, -42.0],
                                  [0.0, -0.1, -38.0], "BLEU difference", "BLEU")
    assert "-40.00 (off the axis)" in svg
    ticks = [float(t) for t in __import__("re").findall(r'class="tick" x="[^"]+" y="[^"]+" '
                                                       r'text-anchor="middle">([^<]+)<', svg)]
    assert min(ticks) > -5  # zoomed to the close systems' intervals, not to -42


def test_segment_blocks_change_nothing(example, data, monkeypatch):
    """Tokens and clipping limits are handled in blocks of segments: any block size gives the same page."""
    from bleuscope.report import compute

    systems, refs = example
    monkeypatch.setattr(compute, "SEGMENT_BLOCK", 64)
    blocked = report_data(systems, refs, n_bootstrap=N_BOOT, reference_names=["A", "B"])
    assert blocked.ngram_differences == data.ngram_differences
    assert blocked.word_accuracy == data.word_accuracy and blocked.highlights == data.highlights
    assert np.array_equal(blocked.reference_lengths, data.reference_lengths)


def test_rouge_and_meteor_plug_in_through_the_metric_interface(example, tmp_path, capsys):
    """No metric is special-cased: ROUGE (and METEOR where WordNet is installed) get the same views."""
    from bleuscope.metrics.rouge import ROUGE

    systems, refs = example
    metrics = [ROUGE()]
    try:
        from bleuscope.metrics.meteor import METEOR

        metrics.append(METEOR())
    except (ImportError, OSError, LookupError):
        pass
    data = report_data(systems, refs, metrics=metrics, n_bootstrap=50)
    for m, metric in zip(data.metrics[1:], metrics):
        expected = significance.all_pairs(systems, refs, metric=metric, n_samples=50)
        np.testing.assert_array_equal(m.p_values, expected.p_values)
        assert m.scores == pytest.approx(expected.scores, abs=1e-12)
    assert {t.name for t in all_tables(data)} >= {f"length-{m.name}" for m in data.metrics}
    out = tmp_path / "r.html"
    assert report_main([str(EXAMPLE / "ref.A.txt"), "-i", str(EXAMPLE / "hyp.OpenNMT.txt"), "-m", "rouge", "-o",
                        str(out), "-q", "--n-bootstrap", "20"]) == 0, capsys.readouterr().err
    page = out.read_text(encoding="utf-8")  # the command's -m rouge: a section per type, as the main command's columns
    assert all(f'data-metric="{label}"' in page for label in ("ROUGE-1", "ROUGE-2", "ROUGE-L"))
    assert 'data-metric="ROUGE-Lsum"' not in page  # ROUGE-L again on one segment per line, unless asked for
    assert report_main([str(EXAMPLE / "ref.A.txt"), "-i", str(EXAMPLE / "hyp.OpenNMT.txt"), "-m", "rouge",
                        "--rouge-types", "rougeL,rougeLsum", "-o", str(out), "-q", "--n-bootstrap", "20"]) == 0
    assert 'data-metric="ROUGE-Lsum"' in out.read_text(encoding="utf-8")


@pytest.mark.filterwarnings("ignore::bleuscope.analysis.significance.TiesWarning")
def test_identical_systems_are_never_marked_significant():
    """Two identical systems tie in every resample, so sacreBLEU's rule gives them the floor p-value; the
    page does not mark such a pair (and the warnings panel names it)."""
    from bleuscope.report import build_report

    h = ["the cat sat on the mat", "a dog runs", "hello world"]
    page = build_report({"a": h, "b": list(h), "c": ["x", "y", "z"]},
                        [["the cat sat on the mat", "a dog barks", "hello world"]], n_bootstrap=100)
    assert 'title="a − b: Δ = +0.00, p ≤ 0.010"' in page
    assert not __import__("re").search(r'class="sig-\w+" title="a − b', page)
    assert "systems a and b are identical" in page


def test_warnings_that_matter_on_a_german_target():
    """WMT22 en-de: Lan-Bridge's <unk> lines are named (recounted here), ROUGE's ASCII tokenizer and METEOR's
    English resources are flagged on German and not on English; rouge-score agrees that its tokenizer makes
    'Größe' and 'Grüße' one word."""
    from bleuscope.metrics.rouge import ROUGE
    from bleuscope.report.compute import placeholder_note

    from .conftest import WMT_EN_DE, wmt_en_de_inputs

    if not (WMT_EN_DE / "ref.A.txt").exists():
        pytest.skip("../shared/data/mt not found")
    systems, refs, _ = wmt_en_de_inputs()
    unk_lines = sum(1 for x in systems["Lan-Bridge"] if "<unk>" in x)
    unk_tokens = sum(x.count("<unk>") for x in systems["Lan-Bridge"])
    note = placeholder_note("Lan-Bridge", systems["Lan-Bridge"])
    assert note.startswith(f"system Lan-Bridge: {unk_lines} of {len(refs[0])} lines") and f"<unk> {unk_tokens} times" in note
    assert unk_lines == 229
    assert all(placeholder_note(n, h) is None for n, h in systems.items() if n != "Lan-Bridge")
    german = ROUGE(("rouge1",)).input_notes(refs)
    assert len(german) == 1 and "--rouge-tokenize unicode" in german[0]
    assert ROUGE(("rouge1",), tokenizer="unicode").input_notes(refs) == []
    english = [read_lines(WMT_EN_DE.parent / "de-en" / "ref.A.txt")]
    assert ROUGE(("rouge1",)).input_notes(english) == []
    assert ROUGE(("rouge1",)).corpus_score(["Größe"], [["Grüße"]]).score == 100.0
    rouge_score = pytest.importorskip("rouge_score.rouge_scorer")
    assert rouge_score.RougeScorer(["rouge1"]).score("Grüße", "Größe")["rouge1"].fmeasure == 1.0
    try:
        from bleuscope.metrics.meteor import METEOR

        meteor = METEOR()
    except (ImportError, OSError, LookupError):
        return
    assert "English resources" in meteor.input_notes(refs)[0] and meteor.input_notes(english) == []
    assert meteor.input_notes(english, "de") and meteor.input_notes(refs, "en") == []


def test_header_command_line_has_no_absolute_paths(tmp_path, capsys, monkeypatch):
    from bleuscope.report.cli import public_path

    out = tmp_path / "r.html"
    monkeypatch.chdir(tmp_path)
    assert report_main([str(EXAMPLE / "ref.A.txt"), "-i", str(EXAMPLE / "hyp.OpenNMT.txt"), "-o", str(out), "-q",
                        "--n-bootstrap", "20", "--max-segments", "5"]) == 0
    page = out.read_text(encoding="utf-8")
    assert str(EXAMPLE) not in page and "…/ref.A.txt" in page and "…/hyp.OpenNMT.txt" in page
    assert public_path(str(tmp_path / "x" / "y.txt")) == "x/y.txt" and public_path("rel.txt") == "rel.txt"


def test_over_and_under_generated_ngrams_are_compare_mts(example):
    """compare-mt's over-generated (output occurrences beyond the reference's) and under-generated (reference
    occurrences the output lacks) n-grams, recounted here per segment on BLEU's tokens with one reference."""
    systems, refs = example
    one = [refs[0]]
    data = report_data(systems, one, n_bootstrap=50)
    tok = BLEU().tokenizer
    hyps = list(systems.values())

    def grams(text, n):
        t = tok(text).split()
        return Counter(tuple(t[i:i + n]) for i in range(len(t) - n + 1))

    def recount(k, gram, kind):
        n, total = len(gram), 0
        for h, r in zip(hyps[k], one[0]):
            hc, rc = grams(h, n)[gram], grams(r, n)[gram]
            total += max(0, hc - rc) if kind == "over" else max(0, rc - hc)
        return total

    for kind, group in (("over", data.ngram_over), ("under", data.ngram_under)):
        diff = group[0]
        assert diff.a_better and diff.b_better
        for row in (*diff.a_better[:8], *diff.b_better[:8]):
            gram = tuple(row.ngram.split(" "))
            assert (row.a, row.b) == (recount(0, gram, kind), recount(1, gram, kind)), (kind, row.ngram)
        assert all(r.a > r.b for r in diff.a_better) and all(r.b > r.a for r in diff.b_better)
    rows = list(csv.DictReader(io.StringIO(next(t for t in all_tables(data) if t.name.startswith("ngrams-")).csv())))
    assert {r["compare"] for r in rows} == {"matched", "over", "under"}


def test_word_bucket_drill_down_recounted(example, data):
    """Each bucket lists its most frequent reference words with their reference counts and every system's
    matched / output counts, recounted here (first reference stream, per-segment one-to-one matching)."""
    systems, refs = example
    tok = BLEU().tokenizer
    ref_counts = [Counter(tok(r).split()) for r in refs[0]]
    freq = sum(ref_counts, Counter())
    hyp_counts = [[Counter(tok(h).split()) for h in hyps] for hyps in systems.values()]
    assert [b.bucket for b in data.bucket_words] == list(data.word_accuracy.labels)
    for b in data.bucket_words:
        for i, w in enumerate(b.words):
            assert b.reference[i] == freq[w]
            g = sum(freq[w] >= c for c in analyses.FREQUENCY_CUTOFFS)
            assert data.word_accuracy.labels[g] == b.bucket
            for k, counts in enumerate(hyp_counts):
                out = sum(c[w] for c in counts)
                matched = sum(min(c[w], rc[w]) for c, rc in zip(counts, ref_counts))
                assert (b.matched[k][i], b.output[k][i]) == (matched, out), (b.bucket, w)
        ranked = sorted(b.reference, reverse=True)
        assert list(b.reference) == ranked
    assert sum(len(b.words) for b in data.bucket_words) > 20
