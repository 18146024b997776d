"""TER: differential tests against sacreBLEU 2.6.0 on the WMT data and on generated text."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.metrics.ter import REF_LENGTH_SCALE, TER, corpus_ter, sentence_ter
from bleuscope.metrics.ter.edits import ter_edits

from ...conftest import all_pairs, pair_dir, read_lines, requires_wmt

OPTIONS = [
    {},
    {"normalized": True},
    {"no_punct": True},
    {"case_sensitive": True},
    {"normalized": True, "asian_support": True},
    {"no_punct": True, "asian_support": True},
    {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True},
]


def _load(testset: str, pair: str, n_lines: int | None, n_systems: int):
    base = pair_dir(testset, pair)
    ref_lines = [read_lines(p)[:n_lines] for p in sorted(base.glob("ref.*.txt"))]
    systems = sorted((base / "sys").glob("*.txt")) if (base / "sys").exists() else []
    if systems:
        return [read_lines(p)[:n_lines] for p in systems[:n_systems]], ref_lines
    return [ref_lines[0]], ref_lines[1:]  # references only (wmt24pp)


def _sacrebleu_stats(options: dict, hyps, refs) -> list:
    return sacrebleu.TER(**options)._extract_corpus_statistics(hyps, refs)


def _check_corpus(options: dict, hyps, refs, sentences: int = 0) -> None:
    ours = TER(**options)
    theirs = sacrebleu.TER(**options)
    seg = ours.segment_statistics(hyps, refs)
    expected = theirs._extract_corpus_statistics(hyps, refs)
    assert seg.stats[:, 0].tolist() == [int(e) for e, _ in expected]
    assert ours.mean_ref_lengths(seg.stats).tolist() == [float(r) for _, r in expected]
    want = theirs._aggregate_and_compute(expected)
    got = ours.corpus_score(hyps, refs)
    # corpus_score adds the per-segment means in segment order, as sacreBLEU: identical for any count
    assert (got.score, got.num_edits, got.ref_length) == (want.score, want.num_edits, want.ref_length)
    # the summed-row path is exact: identical when the sum of means is exact (1/2 refs), else last bits
    summed = ours.score_from_statistics(seg.total())
    exact_ref = Fraction(int(seg.total()[1]), REF_LENGTH_SCALE)
    assert summed.ref_length == float(exact_ref)
    if len(refs) in (1, 2):
        assert summed.score == want.score
    else:
        assert math.isclose(summed.score, want.score, rel_tol=1e-14)
    assert got.signature.rsplit("|", 1)[0] == str(theirs.get_signature()).rsplit("|", 1)[0]
    if sentences:
        batch = ours.sentence_scores(hyps[:sentences], [r[:sentences] for r in refs])
        expected_s = [theirs.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps[:sentences])]
        assert batch.tolist() == expected_s


@requires_wmt
@pytest.mark.parametrize(("testset", "pair"), all_pairs())
def test_wmt_every_pair(testset, pair):
    """Every pair: one system, first reference and all references (first 60 lines)."""
    hyps, refs = _load(testset, pair, 60, 1)
    _check_corpus({}, hyps[0], refs[:1], sentences=15)
    _check_corpus({}, hyps[0], refs, sentences=15)


@requires_wmt
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_wmt_every_option(options):
    for testset, pair in [("newstest2021", "en-de"), ("generaltest2022", "zh-en"), ("generaltest2022", "en-ja")]:
        hyps, refs = _load(testset, pair, 25, 1)
        _check_corpus(options, hyps[0], refs, sentences=5)


@requires_wmt
def test_three_references_last_bit_rule():
    """newstest2021 en-de has 3 references: corpus_score equals sacreBLEU bit for bit (segment-order sum),
    the exact sum of summed rows differs only in the last bits (sacreBLEU's 37.6535343401752 vs the exact
    37.65353434017516 for the whole Facebook-AI output; test_three_references_whole_file checks it)."""
    base = pair_dir("newstest2021", "en-de")
    hyps = read_lines(base / "sys" / "Online-W.txt")[:100]
    refs = [read_lines(base / f"ref.{x}.txt")[:100] for x in "ACD"]
    metric = TER()
    seg = metric.segment_statistics(hyps, refs)
    want = sacrebleu.TER().corpus_score(hyps, refs)
    assert metric.corpus_score(hyps, refs).score == want.score
    assert metric.score_from_statistics(seg.stats).score == want.score
    exact = metric.score_from_statistics(seg.total()).score
    assert math.isclose(exact, want.score, rel_tol=1e-14)


@requires_wmt
@pytest.mark.full
def test_three_references_whole_file():
    """--full: a whole file with three references, Facebook-AI on newstest2021 en-de with references A, C, D."""
    base = pair_dir("newstest2021", "en-de")
    hyps = read_lines(base / "sys" / "Facebook-AI.txt")
    refs = [read_lines(base / f"ref.{x}.txt") for x in "ACD"]
    metric = TER()
    want = sacrebleu.TER().corpus_score(hyps, refs).score
    assert metric.corpus_score(hyps, refs).score == want
    exact = metric.score_from_statistics(metric.segment_statistics(hyps, refs).total()).score
    assert exact != want and math.isclose(exact, want, rel_tol=1e-14)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize(("testset", "pair"), all_pairs())
def test_wmt_full_sweep(testset, pair):
    """--full: every system of every pair, whole files, 1 and all references, every option."""
    hyps, refs = _load(testset, pair, None, 99)
    for options in OPTIONS:
        for system in hyps:
            _check_corpus(options, system, refs[:1])
            _check_corpus(options, system, refs, sentences=100)


def test_functional_shortcuts_and_sentence_score():
    hyp, refs = "The cat sat on the mat .", ["A cat sat on a mat.", "on the mat the cat sat"]
    assert sentence_ter(hyp, refs).score == sacrebleu.sentence_ter(hyp, refs).score
    assert sentence_ter(hyp, refs, normalized=True).score == sacrebleu.sentence_ter(hyp, refs, normalized=True).score
    assert corpus_ter([hyp], [[refs[0]]]).score == sacrebleu.corpus_ter([hyp], [[refs[0]]]).score
    score = TER().sentence_score(hyp, refs)
    assert str(score).startswith("TER = ") and score.num_edits == sacrebleu.sentence_ter(hyp, refs).num_edits


def test_shift_is_one_edit():
    # moving a block of 3 words is one shift: 1 edit out of 6 reference words
    assert ter_edits("d e f a b c".split(), "a b c d e f".split()) == 1
    assert TER().sentence_score("d e f a b c", ["a b c d e f"]).score == 100 * (1 / 6)


def test_empty_and_missing_references():
    hyps = ["a b c", "", "x", "y z"]
    refs = [["", "", "x", None], ["a b", "p q", None, "y"]]
    ours = TER()
    seg = ours.segment_statistics(hyps, refs)
    expected = _sacrebleu_stats({}, hyps, refs)
    assert seg.stats[:, 0].tolist() == [e for e, _ in expected]
    assert ours.mean_ref_lengths(seg.stats).tolist() == [r for _, r in expected]
    assert ours.corpus_score(hyps, refs).signature.startswith("nrefs:var|")
    assert TER().sentence_score("a", [""]).score == sacrebleu.TER().sentence_score("a", [""]).score == 100.0
    assert TER().sentence_score("", [""]).score == 0.0


def test_signature_short_and_long():
    options = {"normalized": True, "no_punct": True, "asian_support": True, "case_sensitive": True}
    metric = TER(**options)
    ours = metric.corpus_score(["a"], [["a"]])
    theirs = sacrebleu.TER(**options)
    theirs.corpus_score(["a"], [["a"]])
    sig = theirs.get_signature()
    assert ours.signature == metric.signature(1)
    assert metric.signature(1).rsplit("|", 1)[0] == sig.format().rsplit("|", 1)[0]
    assert metric.signature(1, short=True).rsplit("|", 1)[0] == sig.format(short=True).rsplit("|", 1)[0]


@requires_wmt
def test_float32_scores_equal_sacrebleu_bootstrap_arithmetic():
    """sacrebleu.statistics + sacrebleu.score_rows == sacreBLEU's float32 resample scoring."""
    base = pair_dir("newstest2021", "en-de")
    hyps = read_lines(base / "sys" / "Online-B.txt")[:60]
    rng = np.random.default_rng(5)
    for names in ("A", "AC", "ACD"):
        refs = [read_lines(base / f"ref.{x}.txt")[:60] for x in names]
        ours = TER()
        theirs = sacrebleu.TER()
        stats = ours.segment_statistics(hyps, refs).stats
        theirs32 = np.array(theirs._extract_corpus_statistics(hyps, refs), dtype="float32")
        ours32 = ours.sacrebleu.statistics(stats)
        assert np.array_equal(ours32, theirs32)
        idx = rng.integers(0, len(stats), size=(30, len(stats)))
        sums = np.stack([ours32[i].sum(0) for i in idx])
        expected = np.array([theirs._compute_score_from_stats(s).score for s in sums], dtype=np.float64)
        assert np.array_equal(ours.sacrebleu.score_rows(sums), expected)


def test_bad_input_messages():
    with pytest.raises(TypeError, match="normalized must be True or False"):
        TER(normalized="yes")
    with pytest.raises(ValueError, match="references\\[0\\] has 1 lines but hypotheses has 2"):
        TER().corpus_score(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="segment 0 has no reference"):
        TER().corpus_score(["a"], [[None]])
    with pytest.raises(ValueError, match="17 references"):
        TER().corpus_score(["a"], [["a"]] * 17)


WORDS = st.lists(st.sampled_from(["a", "b", "c", "d", "the", "A", ".", "é", "猫", "x,y"]), max_size=25)
TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=50)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segments=st.lists(st.tuples(st.one_of(WORDS.map(" ".join), TEXT), st.one_of(WORDS.map(" ".join), TEXT),
                                   st.one_of(WORDS.map(" ".join), TEXT, st.just(""), st.just("  \t"))),
                         min_size=1, max_size=5),
       options=st.sampled_from(OPTIONS))
def test_property_matches_sacrebleu(segments, options):
    hyps = [s[0] for s in segments]
    refs = [[s[1] for s in segments], [s[2] for s in segments]]
    ours = TER(**options)
    stats = ours.segment_statistics(hyps, refs).stats
    expected = _sacrebleu_stats(options, hyps, refs)
    assert stats[:, 0].tolist() == [e for e, _ in expected]
    got = ours.corpus_score(hyps, refs).score
    assert got == sacrebleu.TER(**options).corpus_score(hyps, refs).score
    assert got >= 0.0 and not math.isnan(got)


@settings(max_examples=3, deadline=None)
@given(words=st.lists(st.sampled_from("abcdefgh"), min_size=60, max_size=110), seed=st.integers(0, 2**16))
def test_property_long_segments(words, seed):
    """Long segments (beam, 1000-candidate cap and shift limits all active)."""
    rng = np.random.default_rng(seed)
    ref = list(words)
    hyp = list(words)
    rng.shuffle(hyp[: len(hyp) // 2])
    hyp = hyp[5:] + hyp[:5] + ["z"] * int(rng.integers(0, 60))
    h, r = " ".join(hyp), " ".join(ref)
    assert TER().sentence_score(h, [r]).num_edits == sacrebleu.TER().sentence_score(h, [r]).num_edits


requires_native = pytest.mark.skipif(
    not __import__("bleuscope.core.native", fromlist=["native_available"]).native_available(),
    reason="the compiled core (bleuscope._core) is not built",
)


def _native_vs_python(options: dict, hyps, refs) -> None:
    from bleuscope.core.native import chrf_ter as native_chrf_ter
    from bleuscope.core.validation import check_reference_presence

    metric = TER(**options, engine="native")
    present = check_reference_presence(refs)
    normalize, normalize_reference = metric.normalizer.segment, metric.normalizer.reference_segment
    native = native_chrf_ter.ter_counter(None).rows(
        [normalize(h) for h in hyps], [[None if r is None else normalize_reference(r) for r in s] for s in refs]
    )
    assert native is not None
    assert np.array_equal(native, metric.edits_rows(hyps, refs, present))
    assert np.array_equal(metric._rows(hyps, refs, present), native)


@requires_native
@requires_wmt
@pytest.mark.parametrize("options", OPTIONS[:3], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_native_edits_equal_python_edits_on_wmt(options):
    for testset, pair in [("generaltest2022", "de-en"), ("wmttest2024", "en-ja")]:
        hyps, refs = _load(testset, pair, 150, 1)
        _native_vs_python(options, hyps[0], refs)


@requires_native
@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segments=st.lists(st.tuples(WORDS.map(" ".join), WORDS.map(" ".join), st.one_of(WORDS.map(" ".join), TEXT, st.none())),
                         min_size=1, max_size=6),
       options=st.sampled_from(OPTIONS))
def test_property_native_edits_equal_python_edits(segments, options):
    hyps = [s[0] for s in segments]
    refs = [[s[1] for s in segments], [s[2] if s[2] is not None else s[1] for s in segments]]
    _native_vs_python(options, hyps, refs)


@requires_wmt
@pytest.mark.parametrize("n_refs", [1, 2])
def test_significance_equals_sacrebleu(n_refs):
    from ..chrf.test_chrf import _wmt_systems, check_significance_parity

    systems, refs = _wmt_systems("generaltest2022", "cs-en", 60, 3)

    def factory(module=None):
        return (module.TER if module else TER)()

    check_significance_parity(factory, systems, refs[:n_refs])


@requires_wmt
def test_accumulator_and_process_pool():
    from bleuscope.runtime.streaming import Accumulator

    hyps, refs = _load("generaltest2022", "en-ja", 300, 1)
    acc = Accumulator(TER())
    acc.update(hyps[0][:100], [r[:100] for r in refs])
    acc.update(hyps[0][100:], [r[100:] for r in refs])
    assert acc.compute().score == sacrebleu.TER().corpus_score(hyps[0], refs).score  # 1 reference: exact sums
    metric = TER()
    assert np.array_equal(
        metric.segment_statistics(hyps[0], refs).stats,
        __import__("bleuscope.core.pool", fromlist=["x"]).statistics_checked(
            metric, hyps[0], refs, np.ones((300, 1), dtype=bool), 2, chunk_size=100
        ),
    )


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segments=st.lists(st.tuples(WORDS.map(" ".join), WORDS.map(" ".join), TEXT,
                                   st.one_of(WORDS.map(" ".join), TEXT, st.none())), min_size=1, max_size=5),
       options=st.sampled_from(OPTIONS), engine=st.sampled_from(["auto", "numpy"]))
def test_count_systems_equals_separate_counts(segments, options, engine):
    """Several systems against references normalized once: the rows of one count per system."""
    from bleuscope.core.validation import check_reference_presence

    metric = TER(engine=engine, **options)
    systems = [[s[0] for s in segments], [s[2] for s in segments]]
    refs = [[s[1] for s in segments], [s[3] for s in segments]]
    present = check_reference_presence(refs)
    shared = metric.counter.systems(systems, refs, present)
    for hyps, rows in zip(systems, shared):
        assert np.array_equal(rows, metric.count_checked(hyps, refs, present))


# -- one corpus TER from every path: the exact sum of the scaled mean reference lengths -------------------------
_TER_WORDS = ["the", "a", "cat", "dog", "sat", "on", "mat", "ran", "here", "is", "big"]
_ter_line = st.lists(st.sampled_from(_TER_WORDS), max_size=12).map(" ".join)
_ter_corpus = st.integers(2, 40).flatmap(
    lambda n: st.tuples(
        st.lists(_ter_line, min_size=n, max_size=n),
        st.lists(st.lists(_ter_line, min_size=1, max_size=4), min_size=n, max_size=n),  # 1-4 refs per segment
    )
)


def _ter_streams(refs_per_segment):
    width = max(map(len, refs_per_segment))
    return [[refs[k] if k < len(refs) else None for refs in refs_per_segment] for k in range(width)]


def _write_jsonl(path, hyps, refs_per_segment):
    import json

    path.write_text("".join(json.dumps({"hyp": h, "ref": r}) + "\n" for h, r in zip(hyps, refs_per_segment)))
    return path


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_ter_corpus)
def test_ter_over_streams_shards_and_sums_is_one_number(tmp_path, corpus):
    """Streamed, 2-shard (JSON Lines) and summed-rows corpus TER are one float, bit for bit; the in-memory
    score adds the per-segment float mean lengths in segment order as sacreBLEU does, which differs from the
    exact sum by at most ``(2S + 4) * 2**-53`` relative (S - 1 additions of S rounded means, then the
    division and the scaling; the exact path rounds three times) (and not at all when every segment has 1, 2 or 4 refs)."""
    from bleuscope.core.stats import Totals
    from bleuscope.runtime.shards import corpus_totals_shards

    hyps, refs_per_segment = corpus
    streams = _ter_streams(refs_per_segment)
    ter = TER()
    summed = Totals.of(ter.segment_statistics(hyps, streams)).score(ter).score
    streamed = ter.corpus_score(iter(hyps), [iter(s) for s in streams]).score
    half = len(hyps) // 2
    shards = [
        _write_jsonl(tmp_path / f"part{k}.jsonl", hyps[a:b], refs_per_segment[a:b])
        for k, (a, b) in enumerate(((0, half), (half, len(hyps))))
    ]
    sharded = corpus_totals_shards([str(p) for p in shards], ter).score(ter).score
    assert streamed == summed == sharded
    in_memory = ter.corpus_score(hyps, streams).score
    expected = sacrebleu.corpus_ter(hyps, streams).score
    assert in_memory == expected
    assert abs(in_memory - summed) <= abs(summed) * (2 * len(hyps) + 4) * 2.0**-53
    if all(len(r) in (1, 2, 4) for r in refs_per_segment):
        assert in_memory == summed


def test_ter_in_two_processes_and_on_ray_equals_the_summed_rows(request):
    """The process pool and Ray (local) add the same exact totals as the streamed path."""
    import random

    from bleuscope.core import chunks
    from bleuscope.core.stats import Totals

    rng = random.Random(3)
    hyps = [" ".join(rng.choice(_TER_WORDS) for _ in range(rng.randint(0, 12))) for _ in range(300)]
    refs = [[" ".join(rng.choice(_TER_WORDS) for _ in range(rng.randint(1, 12))) for _ in range(rng.randint(1, 4))]
            for _ in range(300)]
    streams = _ter_streams(refs)
    ter = TER()
    summed = Totals.of(ter.segment_statistics(hyps, streams)).score(ter).score
    two_processes = chunks.sum_statistics(ter, iter(hyps), [iter(s) for s in streams], chunk_size=100, n_jobs=2)
    assert two_processes.score(ter).score == summed
    ray = request.getfixturevalue("local_ray")  # skips here without Ray
    from bleuscope.runtime import ray as bleuscope_ray

    data = ray.data.from_items([{"hyp": h, "ref": r} for h, r in zip(hyps, refs)])
    assert bleuscope_ray.corpus_score(data, ter).score == summed
