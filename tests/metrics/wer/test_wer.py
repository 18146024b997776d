"""The edit-rate metrics (WER, CER, MER, WIL, WIP) on the Metric contract: corpus scores `==` jiwer 4.0.0 on
the WMT data, the compiled core's rows `==` the plain-Python reference's, every path (streams, halves,
significance) on the same rows, HF evaluate's recorded outputs under jiwer 3 and 4 from the profiles, and
bad input."""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.core.stats import Totals
from bleuscope.metrics.wer import CER, MER, WER, WIL, WIP
from bleuscope.metrics.wer import alignment as reference
from bleuscope.metrics.wer.units import UNITS, tokens

from ...conftest import DATA, all_pairs, pair_dir, read_lines, requires_core, requires_wmt

jiwer = pytest.importorskip("jiwer")

GOLDENS = DATA.parent.parent / "oracles" / "hf-evaluate"


def first_pairs(n: int):
    for testset, pair in all_pairs():
        base = pair_dir(testset, pair)
        systems = sorted((base / "sys").glob("*.txt"))
        if systems:
            yield read_lines(sorted(base.glob("ref.*.txt"))[0])[:n], read_lines(systems[0])[:n]


@requires_wmt
def test_corpus_scores_equal_jiwer_on_wmt(engine):
    for refs, hyps in first_pairs(60 if engine == "native" else 12):
        for metric, peer in ((WER, jiwer.wer), (MER, jiwer.mer), (WIL, jiwer.wil), (WIP, jiwer.wip), (CER, jiwer.cer)):
            score = metric(engine=engine).corpus_score(hyps, [refs])
            assert score.rate == peer(refs, hyps)
            assert score.score == 100 * score.rate
        out = jiwer.process_words(refs, hyps)
        score = WER(engine=engine).corpus_score(hyps, [refs])
        assert (score.hits, score.substitutions, score.deletions, score.insertions) == (
            out.hits, out.substitutions, out.deletions, out.insertions)


texts = st.lists(st.sampled_from(["a", "b", "c", " ", "  ", "\t", "\xa0", "\u3000", "中", "\x1f", "\u2029"]),
                 max_size=25).map("".join)


@requires_core
@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=5))
def test_native_rows_equal_the_python_reference(pairs):
    from bleuscope.core.native import wer as native_wer

    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    for units in UNITS:
        expected = [reference.counts(tokens(r, units), tokens(h, units)) for r, h in pairs]
        aligner = native_wer.edit_aligner(units, None)
        assert aligner.counts(refs, hyps).tolist() == expected
        distance = sum(s + d + i for _, s, d, i, _, _ in expected)
        lengths = [sum(row[k] for row in expected) for k in (4, 5)]
        assert aligner.distance_totals(refs, hyps) == (distance, *lengths)


@requires_core
@requires_wmt
def test_native_distances_equal_the_alignments_on_wmt():
    """The summed edit distances (what ``bleuscope.jiwer.wer`` and ``cer`` read) equal S + D + I of the
    alignments, on WMT pairs and on runs of three lines joined (past 64 words: the multi-word recurrence)."""
    from bleuscope.core.native import wer as native_wer

    for refs, hyps in first_pairs(300):
        joined = ([" ".join(refs[k:k + 3]) for k in range(0, len(refs), 3)],
                  [" ".join(hyps[k:k + 3]) for k in range(0, len(hyps), 3)])
        for r, h in ((refs, hyps), joined, (hyps, refs)):
            for units in UNITS:
                aligner = native_wer.edit_aligner(units, 2)
                rows = aligner.counts(r, h)
                want = (int(rows[:, 1:4].sum()), int(rows[:, 4].sum()), int(rows[:, 5].sum()))
                assert aligner.distance_totals(r, h) == want


@requires_wmt
def test_every_path_sums_the_same_rows(tmp_path):
    refs, hyps = next(first_pairs(200))
    metric = WER()
    whole = metric.corpus_score(hyps, [refs])
    halves = [Totals.of(metric.segment_statistics(hyps[a:b], [refs[a:b]])) for a, b in ((0, 77), (77, 200))]
    assert (halves[0] + halves[1]).score(metric).rate == whole.rate
    (tmp_path / "h.txt").write_text("".join(h + "\n" for h in hyps), encoding="utf-8")
    (tmp_path / "r.txt").write_text("".join(r + "\n" for r in refs), encoding="utf-8")
    assert metric.corpus_score(tmp_path / "h.txt", [tmp_path / "r.txt"]).rate == whole.rate
    assert metric.corpus_score(hyps, [refs], n_jobs=2).rate == whole.rate
    sentence = metric.sentence_scores(hyps, [refs])
    assert sentence.rates.tolist() == [jiwer.wer(r, h) for r, h in zip(refs, hyps)]
    assert sentence[3].rate == sentence.rates[3] and sentence.scores[3] == 100 * sentence.rates[3]
    assert whole.signature == "nrefs:1|profile:jiwer|tok:jiwer-words|avg:corpus|version:" + whole.signature.split(":")[-1]


@requires_wmt
def test_paired_bootstrap_of_corpus_wer_is_a_ratio_of_sums():
    from bleuscope.analysis.significance import paired_bootstrap

    base = pair_dir("generaltest2022", "de-en")
    refs = read_lines(base / "ref.A.txt")[:300]
    systems = {p.stem: read_lines(p)[:300] for p in sorted((base / "sys").glob("*.txt"))[:3]}
    result = paired_bootstrap(systems, [refs], metric=WER(), n_samples=200)
    text = str(result)
    for name in systems:
        assert name in text
    # the resampled scores are WER of summed rows: the observed corpus WER is jiwer's
    assert WER().corpus_score(systems[next(iter(systems))], [refs]).rate == jiwer.wer(refs, systems[next(iter(systems))])


def hf_records(version: str):
    path = GOLDENS / f"goldens-wer-cer-jiwer-{version}.jsonl"
    if not path.exists():
        pytest.skip(f"{path} not found")
    return [json.loads(line) for line in path.open(encoding="utf-8")]


def golden_inputs(rec):
    if "predictions" in rec:
        return rec["predictions"], rec["references"]
    base = DATA / rec["set"] / rec["pair"]
    hyps = read_lines(base / "sys" / f"{rec['system']}.txt")
    refs = read_lines(base / f"ref.{rec['refs']}.txt")
    if rec.get("first_n", "all") != "all":
        hyps, refs = hyps[: rec["first_n"]], refs[: rec["first_n"]]
    return hyps, refs


def whole_text_alignment(rec) -> bool:
    """jiwer 3's ``cer`` with ``concatenate_texts``: one alignment of the whole text (about 300,000
    characters a side for a WMT file, seconds each)."""
    return rec["metric"] == "cer" and rec["jiwer"] == "3.1.0" and bool(rec["kwargs"].get("concatenate_texts"))


@pytest.mark.parametrize(
    ("version", "whole_texts"),
    [("3.1.0", False), ("4.0.0", False), pytest.param("3.1.0", True, marks=pytest.mark.full)],
)
def test_hf_evaluate_goldens_from_the_profiles(version, whole_texts):
    """HF evaluate's ``wer``/``cer`` outputs recorded under jiwer 3.1.0 and 4.0.0: ``hf-evaluate`` and
    ``hf-evaluate-jiwer3``; jiwer 3's ``cer`` with ``concatenate_texts`` aligns the whole text at once (the
    sentences collapsed, stripped and joined without a separator): on the WMT files only in the full run."""
    profile = "hf-evaluate" if version == "4.0.0" else "hf-evaluate-jiwer3"
    records = [r for r in hf_records(version)
               if r["set"] == "inline" or whole_text_alignment(r) == whole_texts]
    if any("predictions" not in r and not (DATA / r["set"]).exists() for r in records):
        pytest.skip("../shared/data/mt not found")
    for rec in records:
        hyps, refs = golden_inputs(rec)
        metric = (WER if rec["metric"] == "wer" else CER)(profile=profile)
        if rec["metric"] == "cer" and version == "3.1.0" and rec["kwargs"].get("concatenate_texts"):
            refs = ["".join("".join(tokens(s, "collapsed-chars")) for s in refs)]
            hyps = ["".join("".join(tokens(s, "collapsed-chars")) for s in hyps)]
        assert metric.corpus_score(hyps, [refs]).rate == rec["result"], rec


def test_profiles_for_empty_references():
    assert WER().corpus_score(["a b", "c"], [["", ""]]).rate == jiwer.wer(["", ""], ["a b", "c"]) == 3
    assert WER(profile="nemo").corpus_score(["a b"], [[""]]).rate == float("inf")
    assert np.isnan(WER(profile="torchmetrics").corpus_score(["a b"], [[" "]]).rate)
    with pytest.raises(ValueError, match="all empty"):
        WER(profile="hf-evaluate").corpus_score(["a"], [[""]])
    with pytest.raises(ValueError, match=r"references\[1\] is empty"):
        CER(profile="hf-evaluate-jiwer3").corpus_score(["a", "b"], [["a", ""]])
    # torchmetrics and NeMo split at any whitespace; jiwer keeps a lone tab inside its word
    assert WER(profile="nemo").corpus_score(["a b"], [["a\tb"]]).rate == 0.0
    assert WER().corpus_score(["a b"], [["a\tb"]]).rate == jiwer.wer("a\tb", "a b") == 2.0


def test_bad_input_is_a_clear_error():
    with pytest.raises(ValueError, match="one reference per segment"):
        WER().corpus_score(["a"], [["a"], ["b"]])
    with pytest.raises(ValueError, match="profile must be one of"):
        WER(profile="sclite")
    with pytest.raises(ValueError, match="has no MER"):
        MER(profile="nemo")
    with pytest.raises(TypeError):
        WER().corpus_score([1], [["a"]])
    with pytest.raises(ValueError, match="6 columns"):
        WER().score_rows(np.zeros((1, 5), dtype=np.int64))


def correctly_rounded_mean(values) -> float:
    from fractions import Fraction

    values = list(values)
    return float(sum(map(Fraction, values)) / len(values))


@requires_wmt
@pytest.mark.parametrize("metric", [WER, CER, MER, WIL, WIP])
def test_the_mean_of_segment_rates_is_jiwers_per_pair_rates_averaged(metric, engine):
    peers = {WER: jiwer.wer, CER: jiwer.cer, MER: jiwer.mer, WIL: jiwer.wil, WIP: jiwer.wip}
    for refs, hyps in list(first_pairs(80 if engine == "native" else 10))[:6]:
        score = metric(average="segments", engine=engine).corpus_score(hyps, [refs])
        per_pair = [peers[metric](r, h) for r, h in zip(refs, hyps)]
        assert score.rate == correctly_rounded_mean(per_pair)
        assert score.signature.split("|")[3] == "avg:segments"
        # the counts are the corpus sums, as with the corpus rate
        corpus = metric(engine=engine).corpus_score(hyps, [refs])
        assert (score.hits, score.insertions, score.ref_length) == (corpus.hits, corpus.insertions, corpus.ref_length)


pair_lists = st.lists(st.tuples(texts, texts), min_size=1, max_size=30)


@settings(max_examples=100, deadline=None)
@given(pair_lists, st.integers(0, 30))
def test_the_mean_of_segment_rates_adds_up_over_any_split(pairs, cut):
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    metric = WER(average="segments")
    whole = metric.corpus_score(hyps, [refs])
    # jiwer 4's per-pair WER (an empty reference gives the number of insertions)
    assert whole.rate == correctly_rounded_mean(jiwer.wer(r, h) for r, h in pairs)
    cut = min(cut, len(pairs))
    parts = [Totals.of(metric.segment_statistics(hyps[a:b], [refs[a:b]])) for a, b in ((0, cut), (cut, len(pairs)))
             if b > a]
    total = parts[0] if len(parts) == 1 else parts[0] + parts[1]
    assert total.score(metric).rate == whole.rate
    assert metric.score_rows(metric.segment_statistics(hyps, [refs]).stats.sum(axis=0))[0] == whole.score


@requires_wmt
def test_paired_bootstrap_of_the_mean_of_segment_rates():
    from bleuscope.analysis.significance import paired_bootstrap

    base = pair_dir("generaltest2022", "de-en")
    refs = read_lines(base / "ref.A.txt")[:200]
    systems = {p.stem: read_lines(p)[:200] for p in sorted((base / "sys").glob("*.txt"))[:2]}
    metric = WER(average="segments")
    result = paired_bootstrap(systems, [refs], metric=metric, n_samples=100)
    assert "avg:segments" in result.signature
    for row in result.systems:
        assert row.score == 100 * correctly_rounded_mean(jiwer.wer(r, h) for r, h in zip(refs, systems[row.system]))
        assert row.lower <= row.mean <= row.upper


def test_the_mean_refuses_segments_without_a_rate_and_bad_rows():
    with pytest.raises(ValueError, match=r"references\[1\] is empty: its WER under profile 'nemo' is inf"):
        WER(profile="nemo", average="segments").corpus_score(["a", "b"], [["a", ""]])
    with pytest.raises(ValueError, match=r"references\[0\] is empty: its WER under profile 'hf-evaluate' is an error"):
        WER(profile="hf-evaluate", average="segments").corpus_score(["a"], [[""]])
    with pytest.raises(ValueError, match="average must be 'corpus'"):
        WER(average="mean")
    metric = WER(average="segments")
    with pytest.raises(ValueError, match="11 columns"):
        metric.score_rows(np.zeros((1, 6), dtype=np.int64))
    row = metric.segment_statistics(["a b"], [["a c"]]).stats[0].copy()
    row[8] = 1 << 40  # a fraction above the row's one segment
    with pytest.raises(ValueError, match="more than the row's 1 segment"):
        metric.score_from_statistics(row[None, :])


@requires_core
@pytest.mark.parametrize("threads", [1, 2, 3])
def test_native_rows_of_many_chunks_equal_the_python_reference(threads):
    """Input of several of the chunks the core reads at a time (1,024 pairs), counted on threads while
    the next chunk is read: the rows and totals of the Python reference, in order."""
    from bleuscope.core.native import wer as native_wer

    rnd = np.random.default_rng(threads)
    words = ["a", "b", "c", "dé", "中", "\U0001f600"]
    refs = [" ".join(rnd.choice(words, size=rnd.integers(0, 9))) for _ in range(5000)]
    hyps = [" ".join(rnd.choice(words, size=rnd.integers(0, 9))) for _ in range(5000)]
    expected = [reference.counts(tokens(r, "jiwer-words"), tokens(h, "jiwer-words")) for r, h in zip(refs, hyps)]
    aligner = native_wer.edit_aligner("jiwer-words", threads)
    assert aligner.counts(refs, hyps).tolist() == expected
    assert aligner.distance_totals(refs, hyps) == (sum(s + d + i for _, s, d, i, _, _ in expected),
                                                   *(sum(row[k] for row in expected) for k in (4, 5)))


@requires_core
def test_a_missing_reference_in_a_later_chunk_is_named_unless_a_line_needs_python():
    from bleuscope.core.native import wer as native_wer

    aligner = native_wer.edit_aligner("jiwer-words", 2)
    refs, hyps = ["a b"] * 5000, ["a c"] * 5000
    refs[2500] = None
    with pytest.raises(ValueError, match=r"references\[2500\] is missing"):
        aligner.counts(refs, hyps)
    hyps[4900] = "a \ud800"  # not UTF-8, in a chunk after the missing reference: the job goes to Python
    assert aligner.counts(refs, hyps) is None
