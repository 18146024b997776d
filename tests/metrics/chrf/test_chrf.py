"""chrF / chrF++: differential tests against sacreBLEU 2.6.0 on the WMT data and on generated text."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sacrebleu
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.metrics.chrf import CHRF, corpus_chrf, sentence_chrf

from ...conftest import all_pairs, expected_rows, pair_dir, read_lines, requires_wmt

OPTIONS = [
    {},
    {"word_order": 2},
    {"lowercase": True},
    {"whitespace": True},
    {"eps_smoothing": True},
    {"word_order": 2, "eps_smoothing": True, "lowercase": True},
    {"char_order": 4, "word_order": 1, "beta": 1},
    {"char_order": 0, "word_order": 2, "beta": 3},
]


def _pair_files(testset: str, pair: str):
    base = pair_dir(testset, pair)
    refs = sorted(base.glob("ref.*.txt"))
    systems = sorted((base / "sys").glob("*.txt")) if (base / "sys").exists() else []
    return refs, systems


def _load(testset: str, pair: str, n_lines: int | None, n_systems: int):
    refs, systems = _pair_files(testset, pair)
    ref_lines = [read_lines(p)[:n_lines] for p in refs]
    if systems:
        hyps = [read_lines(p)[:n_lines] for p in systems[:n_systems]]
    else:  # references only (wmt24pp): score one reference against the others
        hyps, ref_lines = [ref_lines[0]], ref_lines[1:]
    return hyps, ref_lines


def _sacrebleu_stats(options: dict, hyps, refs) -> np.ndarray:
    return np.array(sacrebleu.CHRF(**options)._extract_corpus_statistics(hyps, refs), dtype=np.int64)


def _check_corpus(options: dict, hyps, refs, sentences: int = 0) -> None:
    ours = CHRF(**options)
    theirs = sacrebleu.CHRF(**options)
    seg = ours.segment_statistics(hyps, refs)
    assert np.array_equal(seg.stats, _sacrebleu_stats(options, hyps, refs))
    ref_score = theirs.corpus_score(hyps, refs)
    got = ours.corpus_score(hyps, refs)
    assert got.score == ref_score.score
    assert got.name == ref_score.name
    assert got.signature.rsplit("|", 1)[0] == str(theirs.get_signature()).rsplit("|", 1)[0]
    if sentences:
        batch = ours.sentence_scores(hyps[:sentences], [r[:sentences] for r in refs])
        expected = [theirs.sentence_score(h, [r[i] for r in refs]).score for i, h in enumerate(hyps[:sentences])]
        assert batch.tolist() == expected


@requires_wmt
@pytest.mark.parametrize(("testset", "pair"), all_pairs())
def test_wmt_default_and_chrf_plus_plus(testset, pair):
    """Every pair: one system, first reference and all references, chrF and chrF++ (first 150 lines)."""
    hyps, refs = _load(testset, pair, 150, 1)
    for options in ({}, {"word_order": 2}):
        _check_corpus(options, hyps[0], refs[:1], sentences=30)
        _check_corpus(options, hyps[0], refs, sentences=30)


@requires_wmt
@pytest.mark.parametrize("options", OPTIONS, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_wmt_every_option(options):
    """Every option on a European, a CJK and a paragraph-level set (first 150 lines, all references)."""
    for testset, pair in [("newstest2021", "en-de"), ("generaltest2022", "en-zh"), ("wmttest2024", "en-ja")]:
        hyps, refs = _load(testset, pair, 80, 1)
        _check_corpus(options, hyps[0], refs, sentences=20)


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


@requires_wmt
def test_published_expected_scores():
    """The chrF/chrF++ scores computed with sacreBLEU 2.6.0 in expected/ (the first row of 3 pairs)."""
    rows = expected_rows("chrF") + expected_rows("chrF++")
    seen: set[tuple] = set()
    checked = 0
    for row in rows:
        key = (row["testset"], row["pair"], row["metric"])
        if key in seen or len({k[:2] for k in seen | {key}}) > 3:
            continue
        seen.add(key)
        base = pair_dir(row["testset"], row["pair"])
        hyp_path = base / "sys" / f"{row['system']}.txt"
        if not hyp_path.exists():
            hyp_path = base / f"{row['system']}.txt"
        hyps = read_lines(hyp_path)
        refs = [read_lines(base / f"ref.{name}.txt") for name in row["refs"].split("+")]
        options = {"word_order": 2} if row["metric"] == "chrF++" else {}
        got = CHRF(**options).corpus_score(hyps, refs)
        assert round(got.score, 6) == float(row["score"])
        assert got.signature.rsplit("|", 1)[0] == row["signature"].rsplit("|", 1)[0]
        checked += 1
    assert checked == 6  # 3 pairs x (chrF, chrF++)


def test_multi_reference_rule_and_missing_references():
    """Best sentence F wins (ties: the first reference); None references are skipped, as in sacreBLEU."""
    hyps = ["the cat sat", "abc", "same", "x"]
    refs = [["the dog sat", "xyz", "same", None], ["the cat sat", "abc", "same", "x y"]]
    ours = CHRF().segment_statistics(hyps, refs)
    assert np.array_equal(ours.stats, _sacrebleu_stats({}, hyps, refs))
    assert ours.nrefs.tolist() == [2, 2, 2, 1]
    assert CHRF().corpus_score(hyps, refs).signature.startswith("nrefs:var|")


def test_statistics_sum_over_shards():
    hyps = ["a b c", "the quick brown fox", "", "jumps over"]
    refs = [["a b d", "the quick fox", "x", "jumps over the"]]
    metric = CHRF(word_order=2)
    whole = metric.segment_statistics(hyps, refs)
    parts = [metric.segment_statistics(hyps[a:b], [r[a:b] for r in refs]).stats for a, b in [(0, 1), (1, 4)]]
    assert np.array_equal(np.concatenate(parts), whole.stats)
    assert metric.score_from_statistics(whole.total(), 1).score == sacrebleu.CHRF(word_order=2).corpus_score(
        hyps, refs).score


def test_functional_shortcuts_and_sentence_score():
    hyp, refs = "The cat sat on the mat.", ["A cat sat on a mat.", "The cat is on the mat."]
    assert sentence_chrf(hyp, refs).score == sacrebleu.sentence_chrf(hyp, refs).score
    assert sentence_chrf(hyp, refs, word_order=2).score == sacrebleu.sentence_chrf(hyp, refs, word_order=2).score
    assert corpus_chrf([hyp], [[refs[0]]]).score == sacrebleu.corpus_chrf([hyp], [[refs[0]]]).score
    score = CHRF(word_order=2).sentence_score(hyp, refs)
    assert score.name == "chrF2++" and str(score).startswith("chrF2++ = ")


def test_signature_short_and_long():
    metric = CHRF(word_order=2, lowercase=True, whitespace=True)
    ours = metric.corpus_score(["a"], [["a"]])
    theirs = sacrebleu.CHRF(word_order=2, lowercase=True, whitespace=True)
    theirs.corpus_score(["a"], [["a"]])
    sig = theirs.get_signature()
    assert ours.signature == metric.signature(1)
    assert metric.signature(1).rsplit("|", 1)[0] == sig.format().rsplit("|", 1)[0]
    assert metric.signature(1, short=True).rsplit("|", 1)[0] == sig.format(short=True).rsplit("|", 1)[0]
    assert metric.signature(1).endswith(f"|version:bleuscope-{__import__('bleuscope').__version__}")


@requires_wmt
def test_float32_scores_equal_sacrebleu_bootstrap_arithmetic():
    """sacrebleu.score_rows == sacreBLEU's _compute_score_from_stats on float32 resample sums."""
    hyps, refs = _load("generaltest2022", "de-en", 400, 1)
    rng = np.random.default_rng(3)
    for options in ({}, {"word_order": 2}, {"eps_smoothing": True}, {"word_order": 2, "eps_smoothing": True}):
        ours = CHRF(**options)
        theirs = sacrebleu.CHRF(**options)
        stats32 = ours.segment_statistics(hyps[0], refs).stats.astype(np.float32)
        idx = rng.integers(0, len(stats32), size=(40, len(stats32)))
        sums = np.stack([stats32[i].sum(0) for i in idx])
        # edge rows: nothing matched, empty orders, tiny counts
        edge = np.zeros((3, ours.stats_width), dtype=np.float32)
        edge[1, 0::3] = 3
        edge[1, 1::3] = 2
        edge[2, :3] = [1, 1, 1]
        sums = np.concatenate([sums, edge])
        expected = np.array([theirs._compute_score_from_stats(s).score for s in sums], dtype=np.float64)
        got = ours.sacrebleu.score_rows(sums)
        assert np.array_equal(got, expected), options
        exact = np.array([theirs._compute_score_from_stats(s.astype(np.int64).tolist()).score for s in sums])
        assert np.array_equal(ours.score_rows(sums.astype(np.int64)), exact)


def test_bad_input_messages():
    with pytest.raises(ValueError, match="char_order \\+ word_order"):
        CHRF(char_order=0)
    with pytest.raises(TypeError, match="beta must be an integer"):
        CHRF(beta=1.5)
    with pytest.raises(ValueError, match="references\\[0\\] has 1 lines but hypotheses has 2"):
        CHRF().corpus_score(["a", "b"], [["a"]])
    with pytest.raises(ValueError, match="segment 0 has no reference"):
        CHRF().corpus_score(["a"], [[None]])
    with pytest.raises(TypeError, match="hypotheses\\[1\\] must be a string"):
        CHRF().corpus_score(["a", 3], [["a", "b"]])
    with pytest.raises(ValueError, match="signature|number of references"):
        CHRF().signature()


TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=60)
SPACEY = st.sampled_from(["", " ", "\t \n", "\u3000", "a  b", "(hi)", "x.", ".x", "\x1c"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    segments=st.lists(st.tuples(st.one_of(TEXT, SPACEY), st.one_of(TEXT, SPACEY), st.one_of(TEXT, SPACEY)),
                      min_size=1, max_size=6),
    options=st.sampled_from(OPTIONS),
)
def test_property_random_unicode_matches_sacrebleu(segments, options):
    hyps = [s[0] for s in segments]
    refs = [[s[1] for s in segments], [s[2] for s in segments]]
    ours = CHRF(**options)
    stats = ours.segment_statistics(hyps, refs).stats
    assert np.array_equal(stats, _sacrebleu_stats(options, hyps, refs))
    score = ours.corpus_score(hyps, refs).score
    assert score == sacrebleu.CHRF(**options).corpus_score(hyps, refs).score
    assert 0.0 <= score <= 100.0 + 1e-9 and not math.isnan(score)
    # clipped matches never exceed either count
    assert np.all(stats[:, 2::3] <= stats[:, 0::3]) and np.all(stats[:, 2::3] <= stats[:, 1::3])


@settings(max_examples=5, deadline=None)
@given(word=st.text(alphabet="abcde ", min_size=1, max_size=5), repeat=st.integers(2000, 6000))
def test_property_very_long_segments(word, repeat):
    hyp = word * repeat
    ref = (word[::-1] + "x") * (repeat // 2)
    for options in ({}, {"word_order": 2}):
        assert CHRF(**options).sentence_score(hyp, [ref]).score == sacrebleu.CHRF(**options).sentence_score(
            hyp, [ref]).score


def test_identical_and_disjoint():
    assert CHRF().sentence_score("Hello there", ["Hello there"]).score == 100.0
    assert CHRF().sentence_score("aaaa", ["bbbb"]).score == 0.0
    assert CHRF().sentence_score("", [""]).score == sacrebleu.CHRF().sentence_score("", [""]).score


requires_native = pytest.mark.skipif(
    not __import__("bleuscope.core.native", fromlist=["native_available"]).native_available(),
    reason="the compiled core (bleuscope._core) is not built",
)


def _native_vs_python(options: dict, hyps, refs) -> None:
    from bleuscope.core.native import chrf_ter as native_chrf_ter
    from bleuscope.core.validation import check_reference_presence

    metric = CHRF(**options, engine="native")
    present = check_reference_presence(refs)
    lower = str.lower if metric.lowercase else str
    native = native_chrf_ter.chrf_counter(metric.char_order, metric.word_order, metric.whitespace, None).rows(
        [lower(h) for h in hyps],
        [[None if r is None else lower(r) for r in s] for s in refs],
    )
    assert native is not None
    assert np.array_equal(native, metric.candidate_rows(hyps, refs, present))
    assert np.array_equal(metric._candidates(hyps, refs, present), native)


@requires_native
@requires_wmt
@pytest.mark.parametrize("options", OPTIONS[:6], ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default")
def test_native_rows_equal_python_rows_on_wmt(options):
    for testset, pair in [("generaltest2022", "cs-en"), ("generaltest2022", "zh-en"), ("wmt24pp", "en-ko")]:
        hyps, refs = _load(testset, pair, 400, 1)
        _native_vs_python(options, hyps[0], refs)


@requires_native
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    segments=st.lists(st.tuples(st.one_of(TEXT, SPACEY), st.one_of(TEXT, SPACEY), st.one_of(TEXT, SPACEY, st.none())),
                      min_size=1, max_size=8),
    options=st.sampled_from(OPTIONS),
)
def test_property_native_rows_equal_python_rows(segments, options):
    hyps = [s[0] for s in segments]
    refs = [[s[1] for s in segments], [s[2] for s in segments]]
    _native_vs_python(options, hyps, refs)


#: words that share n-grams of every order (and chrF++'s punctuation splits, non-ASCII, odd whitespace)
WORDS = st.sampled_from(["der", "die", "Haus", "haus.", "(x)", "é", "Über", "日本語", "a", "ab", "abab", "\u3000", ","])
PHRASE = st.lists(WORDS, max_size=40).map(" ".join)


@requires_native
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    segments=st.lists(st.tuples(st.one_of(PHRASE, TEXT), st.one_of(PHRASE, TEXT, SPACEY), st.one_of(PHRASE, SPACEY, st.none())),
                      min_size=1, max_size=8),
    options=st.sampled_from(OPTIONS + [{"char_order": 9, "word_order": 6}]),
)
def test_property_native_sentence_batch_equals_python_and_sacrebleu(segments, options):
    """The batch of sentence scores (what the RL rewards call): the compiled core's rows and scores equal the
    Python reference engine's and sacreBLEU's sentence chrF of each segment, with a second reference that is
    sometimes absent."""
    hyps = [s[0] for s in segments]
    refs = [[s[1] for s in segments], [s[2] for s in segments]]
    native = CHRF(**options, engine="native").sentence_scores(hyps, refs)
    python = CHRF(**options, engine="numpy").sentence_scores(hyps, refs)
    assert np.array_equal(native.stats, python.stats)
    assert native.scores.tolist() == python.scores.tolist()
    theirs = sacrebleu.CHRF(**options)
    assert native.scores.tolist() == [theirs.sentence_score(h, [r for r in (a, b) if r is not None]).score
                                      for h, a, b in segments]


@requires_native
def test_native_falls_back_on_lone_surrogates():
    hyp = "a\ud800b"
    assert CHRF().sentence_score(hyp, ["ab"]).score == sacrebleu.CHRF().sentence_score(hyp, ["ab"]).score


def _wmt_systems(testset: str, pair: str, n_lines: int, n_systems: int):
    base = pair_dir(testset, pair)
    systems = sorted((base / "sys").glob("*.txt"))[:n_systems]
    refs = [read_lines(p)[:n_lines] for p in sorted(base.glob("ref.*.txt"))]
    return [(p.stem, read_lines(p)[:n_lines]) for p in systems], refs


def check_significance_parity(metric_factory, systems, refs) -> None:
    """Paired bootstrap, paired AR (with CIs) and the single-system CI equal sacreBLEU's for the same seed."""
    from sacrebleu.significance import PairedTest

    from bleuscope.analysis.significance import confidence_interval, paired_ar, paired_bootstrap

    name = metric_factory().name if hasattr(metric_factory(), "name") else None
    for test, n_samples in (("bs", 1000), ("ar", 500)):
        theirs_metric = metric_factory(sacrebleu)
        _, table = PairedTest(systems, {"m": theirs_metric}, refs, test_type=test, n_samples=n_samples,
                              n_ar_confidence=300 if test == "ar" else -1)()
        results = next(v for k, v in table.items() if k != "System")
        if test == "bs":
            ours = paired_bootstrap(systems, refs, metric=metric_factory(), n_samples=n_samples, strict=True)
        else:
            ours = paired_ar(systems, refs, metric=metric_factory(), n_samples=n_samples, confidence_n=300,
                             strict=True)
        for row, want in zip(ours.systems, results):
            assert row.score == want.score, (test, row.system)
            assert row.p_value == want.p_value, (test, row.system)
            if want.mean is not None:
                assert (row.mean, row.ci) == (float(want.mean), float(want.ci)), (test, row.system)
    # single system: sacreBLEU corpus_score(n_bootstrap=...)
    hyps = systems[1][1]
    want = metric_factory(sacrebleu).corpus_score(hyps, refs, n_bootstrap=500)
    got = confidence_interval(hyps, refs, metric=metric_factory(), n_samples=500)
    assert (got.score, got.mean, got.ci) == (want.score, float(want._mean), float(want._ci))
    assert name is None or got.metric == name


@requires_wmt
@pytest.mark.parametrize("options", [{}, {"word_order": 2}], ids=["chrF", "chrF++"])
def test_significance_equals_sacrebleu(options):
    systems, refs = _wmt_systems("generaltest2022", "de-en", 300, 3)

    def factory(module=None):
        return (module.CHRF if module else CHRF)(**options)

    check_significance_parity(factory, systems, refs)


@requires_wmt
def test_process_pool_and_accumulator_work_unchanged():
    """n_jobs=2 gives the serial rows; the generic streaming Accumulator gives sacreBLEU's corpus score."""
    from bleuscope.core.pool import statistics_checked
    from bleuscope.runtime.streaming import Accumulator

    hyps, refs = _load("generaltest2022", "en-de", 400, 1)
    metric = CHRF(word_order=2)
    serial = metric.segment_statistics(hyps[0], refs)
    pooled = statistics_checked(metric, hyps[0], refs, np.ones((400, 2), dtype=bool), 2, chunk_size=150)
    assert np.array_equal(serial.stats, pooled)
    acc = Accumulator(CHRF(word_order=2))
    acc.update(hyps[0][:150], [r[:150] for r in refs])
    acc.update(iter(hyps[0][150:]), [iter(r[150:]) for r in refs])
    assert acc.compute().score == sacrebleu.CHRF(word_order=2).corpus_score(hyps[0], refs).score


# -- command line: `-m bleu chrf ter` against the `sacrebleu` command ---------------------------------------
def _cli_wired() -> bool:
    from bleuscope.cli.metrics import metric_names

    return "chrf" in metric_names() and "ter" in metric_names()


requires_cli = pytest.mark.skipif(not _cli_wired(), reason="chrf/ter are not registered in bleuscope.cli.metrics yet")
EXAMPLE = __import__("pathlib").Path(__file__).resolve().parents[3] / "src" / "bleuscope" / "data" / "example"


def _outputs(args: list[str]) -> tuple[str, str]:
    import shutil
    import subprocess
    import sys

    if shutil.which("sacrebleu") is None:
        pytest.skip("the sacrebleu command is not installed")
    theirs = subprocess.run(["sacrebleu", *args], cwd=EXAMPLE, capture_output=True, text=True, check=True).stdout
    ours = subprocess.run([sys.executable, "-m", "bleuscope", *args], cwd=EXAMPLE, capture_output=True, text=True,
                          check=True).stdout
    return (theirs.replace("version:2.6.0", "version:V").replace('"2.6.0"', '"V"'),
            ours.replace("version:bleuscope-", "version:").replace(f"version:{__import__('bleuscope').__version__}",
                                                                   "version:V").replace(
                f'"bleuscope-{__import__("bleuscope").__version__}"', '"V"'))


@requires_cli
@pytest.mark.parametrize("args", [
    ["ref.A.txt", "ref.B.txt", "-i", "hyp.Online-B.txt", "-m", "bleu", "chrf", "ter", "-f", "text"],
    ["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "-m", "bleu", "chrf", "ter", "-f", "text"],
    ["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "-m", "ter", "chrf", "-cw", "2", "-f", "latex"],
    ["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "-m", "bleu", "chrf", "ter"],
    ["ref.A.txt", "-i", "hyp.Online-B.txt", "-m", "chrf", "-sl", "--chrf-lowercase", "-w", "3"],
    ["ref.A.txt", "ref.B.txt", "-i", "hyp.Online-B.txt", "-m", "ter", "-sl", "--ter-normalized"],
    ["ref.A.txt", "-i", "hyp.Online-B.txt", "-m", "chrf", "-b"],
])
def test_cli_text_equals_sacrebleu_command(args):
    theirs, ours = _outputs(args)
    assert ours == theirs


@requires_cli
def test_cli_json_equals_sacrebleu_command():
    import json

    args = ["ref.A.txt", "ref.B.txt", "-i", "hyp.Online-B.txt", "-m", "bleu", "chrf", "ter", "-cw", "2",
            "--ter-case-sensitive"]
    theirs, ours = (json.loads(x) for x in _outputs(args))
    assert [d["name"] for d in ours] == [d["name"] for d in theirs] == ["BLEU", "chrF2++", "TER"]
    for mine, want in zip(ours, theirs):
        assert {k: mine[k] for k in want} == want  # sacreBLEU's keys and values (bleuscope adds score_unrounded)


@requires_cli
def test_cli_significance_numbers_equal_sacrebleu_command():
    """Scores, means, CIs and p-values of the paired tests and the CI (sacreBLEU's JSON output of paired tests
    fails on chrF's float32 means, so the text tables' numbers are compared)."""
    import json
    import re

    def numbers(text: str) -> list[str]:
        return [n for line in text.splitlines() if line.startswith("│") for n in re.findall(r"\d+\.\d+", line)]

    for metric in ("chrf", "ter"):
        args = ["ref.A.txt", "-i", "hyp.Online-B.txt", "hyp.OpenNMT.txt", "-m", metric, "-f", "text",
                "--paired-bs", "--paired-bs-n", "500"]
        theirs, ours = _outputs(args)
        assert numbers(ours) == numbers(theirs) and len(numbers(ours)) == 7
        args[-3:] = ["--paired-ar", "--paired-ar-n", "2000"]  # p-values may differ by ties: bleuscope counts >=
        theirs, ours = _outputs(args)
        assert numbers(ours)[:2] == numbers(theirs)[:2]
    theirs, ours = (json.loads(x) for x in _outputs(["ref.A.txt", "-i", "hyp.Online-B.txt", "-m", "ter",
                                                      "--confidence"]))
    for key in ("name", "score", "signature", "confidence_mean", "confidence_var", "confidence"):
        assert ours[key] == theirs[key]


def test_streamed_inputs_paths_and_generators(tmp_path):
    """corpus_score takes paths and generators (bounded memory) with the in-memory numbers."""
    from bleuscope import TER

    hyps = ["The cat sat on the mat.", "", "a b c d", "Hello  world"] * 30
    refs = [["The cat is on the mat.", "x", "a c b d", "hello world!"] * 30]
    path = tmp_path / "ref.txt"
    path.write_text("\n".join(refs[0]) + "\n", encoding="utf-8")
    for metric, theirs in ((CHRF(word_order=2), sacrebleu.CHRF(word_order=2)), (TER(), sacrebleu.TER())):
        got = metric.score_stream(iter(hyps), [path], chunk_size=7)
        assert got.score == metric.corpus_score((h for h in hyps), [path]).score == theirs.corpus_score(hyps, refs).score


@settings(max_examples=60, deadline=None)
@given(
    rows=st.lists(st.lists(st.integers(0, 40), min_size=3 * 8, max_size=3 * 8), min_size=1, max_size=12),
    order=st.integers(1, 8),
    beta=st.integers(0, 3),
    eps_smoothing=st.booleans(),
)
def test_property_float64_scores_equal_the_mixed_precision_arithmetic(rows, order, beta, eps_smoothing):
    """The float64 score path (sentence and corpus scores) computes what the per-row float32/float64 path does
    with every row in float64, bit for bit, including rows with empty orders and nothing matched."""
    from bleuscope.metrics.chrf.scorer import _f_scores64, _f_scores_mixed

    stats = np.array(rows, dtype=np.int64)[:, :3 * order]
    stats[:, 2::3] = np.minimum(stats[:, 2::3], np.minimum(stats[:, 0::3], stats[:, 1::3]))
    fast = _f_scores64(stats, order, beta, eps_smoothing)
    assert fast.tolist() == _f_scores_mixed(stats, order, beta, eps_smoothing, False).tolist()
    assert fast.dtype == np.float64 and fast.shape == (len(rows),)
