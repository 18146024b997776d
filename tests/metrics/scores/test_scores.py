"""Scores from files (bleuscope.metrics.scores): every format read, every malformed file refused with the
file and line named, and the fixed-point rows exact (sums of any subset give the exact mean)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope.analysis.significance import paired_bootstrap
from bleuscope.core.files import InputError
from bleuscope.metrics.scores import Scores, read_scores_files, read_segment_scores

SYSTEMS = ["sysA", "sysB"]


def write(tmp_path, name, text):
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return str(p)


def test_every_format_gives_the_same_scores(tmp_path):
    a, b = [0.5, -1.25, 3.0], [0.125, 2.0, -0.75]
    want = {"sysA": a, "sysB": b}
    tsv = "system\tline\tscore\textra\n" + "".join(f"{s}\t{i + 1}\t{v}\tx\n" for s, vs in want.items()
                                                   for i, v in enumerate(vs))
    mtme = "".join(f"{s}\t{v}\n" for s, vs in want.items() for v in vs)
    comet_json = json.dumps({f"out/{s}.txt": [{"src": "s", "mt": "m", "ref": "r", "COMET": v} for v in vs]
                             for s, vs in want.items()})
    comet_text = "".join(f"hyp/{s}.txt\tSegment {i}\tscore: {v:.4f}\n" for s, vs in want.items()
                         for i, v in enumerate(vs))
    comet_text += "".join(f"hyp/{s}.txt\tscore: {np.mean(vs):.4f}\n" for s, vs in want.items())
    for name, text in (("h.tsv", tsv), ("m.seg.score", mtme), ("c.json", comet_json), ("c.txt", comet_text)):
        got = read_scores_files([write(tmp_path, name, text)], SYSTEMS, 3)
        assert {k: v.tolist() for k, v in got.items()} == want, name
    per_system = [write(tmp_path, f"{s}.scores", "".join(f"{v}\n" for v in vs)) for s, vs in want.items()]
    got = read_scores_files(per_system, SYSTEMS, 3)
    assert {k: v.tolist() for k, v in got.items()} == want


@pytest.mark.parametrize(
    ("name", "text", "message"),
    [
        ("a.tsv", "system\tline\tscore\nsysA\t1\t0.5\nsysA\t2\tnan\n", r"a.tsv:3: the score is 'nan'"),
        ("a.tsv", "system\tline\tscore\nsysA\t1\t0.5\nsysA\t1\t0.7\n",
         r"a.tsv:3: a second score for system 'sysA' segment 1 \(the first is on line 2\)"),
        ("a.tsv", "system\tline\tscore\nsysA\t1\tx\n", r"a.tsv:2: 'x' is not a number"),
        ("a.tsv", "system\tline\tscore\nsysA\t0\t1\n", r"a.tsv:2: line 0: lines are numbered from 1"),
        ("a.tsv", "system\tline\tvalue\nsysA\t1\t1\n", r"a.tsv:1: the header has no 'score' column"),
        ("a.seg.score", "sysA\t1\nsysA\tNone\n", r"a.seg.score:2: system 'sysA' segment 2 has no score"),
        ("a.sys.score", "sysA\t1\nsysB\t2\n", r"a.sys.score: a system-level file"),
        ("a.json", '{"x.txt": [{"COMET": "high"}]}', r"a.json: 'x.txt' segment 1: COMET is 'high'"),
        ("a.json", '{"x.txt": [', r"a.json:1: not valid JSON"),
        ("c.txt", "h/sysA.txt\tSegment 0\tscore: 0.5000\nh/sysA.txt\tscore: 0.9000\n",
         r"c.txt:2: the system score 0.9 of 'sysA' is not the mean"),
    ],
)
def test_malformed_files_name_file_and_line(tmp_path, name, text, message):
    with pytest.raises(InputError, match=message):
        read_segment_scores(write(tmp_path, name, text))


def test_missing_segments_and_wrong_systems_are_errors(tmp_path):
    p = write(tmp_path, "s.tsv", "system\tline\tscore\nsysA\t1\t1\nsysA\t3\t2\nsysB\t1\t1\nsysB\t2\t1\nsysB\t3\t1\n")
    with pytest.raises(InputError, match=r"s.tsv: system 'sysA' has no score for segment 2 \(1 of 3"):
        read_scores_files([p], SYSTEMS, 3)
    with pytest.raises(InputError, match=r"s.tsv: no scores for system 'sysC' .*the file has: sysA, sysB"):
        read_scores_files([p], ["sysB", "sysC"], 3)
    with pytest.raises(InputError, match=r"s.tsv: system 'sysB' has a score for segment 3, but the input has only 2"):
        read_scores_files([p], ["sysB"], 2)
    # human scores may miss segments (NaN), never a whole system
    got = read_scores_files([p], SYSTEMS, 3, allow_missing=True)
    assert np.isnan(got["sysA"][1]) and got["sysB"].tolist() == [1, 1, 1]
    q = write(tmp_path, "t.tsv", "system\tline\tscore\nsysA\t1\t1\n")
    with pytest.raises(InputError, match="is also scored in"):
        read_scores_files([p, q], SYSTEMS, 3)


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(-1e3, 1e3, allow_nan=False).map(lambda v: round(v, 7)), min_size=2, max_size=30),
       st.data())
def test_fixed_point_rows_sum_to_the_exact_mean(values, data):
    sc = Scores("X", {"a": values, "b": values[::-1]})
    rows = sc.statistics("a").stats
    assert (rows >= 0).all()
    subset = data.draw(st.lists(st.integers(0, len(values) - 1), min_size=1, max_size=len(values)))
    total = rows[subset].sum(axis=0)
    exact = sum(Fraction(values[i]) for i in subset) / len(subset)
    assert sc.exact_mean(total) == float(exact)
    assert sc.score_rows(total)[0] == pytest.approx(float(exact), rel=1e-12, abs=1e-12)


def test_values_far_below_the_largest_are_rounded_to_the_recorded_scale():
    sc = Scores("X", {"a": [1000.0, 6e-285]})
    assert sc.scale == 82 and sc.signature_fields()["scale"] == "2^-82"
    assert sc.exact_mean(sc.statistics("a").stats.sum(axis=0)) == 500.0
    tiny = Scores("X", {"a": [6e-285, 3e-285]})
    assert tiny.exact_mean(tiny.statistics("a").stats.sum(axis=0)) == float((Fraction(6e-285) + Fraction(3e-285)) / 2)
    with pytest.raises(ValueError, match="below 2\\*\\*60"):
        Scores("X", {"a": [1e30]})


def test_scores_metric_in_paired_bootstrap_and_by_text():
    rng = np.random.default_rng(0)
    vals = {s: rng.normal(size=50) + k for k, s in enumerate(["base", "better"])}
    texts = {"base": [f"a{i}" for i in range(50)], "better": [f"b{i}" for i in range(50)]}
    sc = Scores("COMET", vals, texts=texts)
    by_stats = paired_bootstrap({s: sc.statistics(s) for s in sc.systems}, metric=sc, n_samples=100, seed=3)
    by_text = paired_bootstrap(texts, [["r"] * 50], metric=sc, n_samples=100, seed=3)
    assert str(by_stats).splitlines()[1:] == str(by_text).splitlines()[1:]
    assert sc.system_score("better") == float(sum(Fraction(v) for v in vals["better"]) / 50)
    with pytest.raises(InputError, match="not those of a system"):
        sc.segment_statistics(["zzz"] * 50, [["r"] * 50])


TED = Path(__file__).resolve().parents[4] / "shared" / "data" / "human" / "wmt-mqm-human-evaluation" / "ted"


@pytest.mark.skipif(not TED.exists(), reason="human data not present")
@pytest.mark.parametrize("pair", ["ende", "zhen"])
def test_mqm_ratings_give_googles_segment_scores(pair):
    """Google's avg_seg_scores files (6 decimals) from the raw TED ratings, with mtme's weights."""
    got = read_segment_scores(str(TED / pair / f"mqm_ted_{pair}.tsv"))
    rename = {"ref-A": "ref", "ref-B": "refB"}  # the two files name the human translations differently
    rows = 0
    for line in (TED / pair / f"mqm_ted_{pair}.avg_seg_scores.tsv").read_text(encoding="utf-8").splitlines()[1:]:
        system, score, seg = line.split()
        mine = got[rename.get(system, system)]
        if score == "None":  # not rated
            assert int(seg) > mine.size or np.isnan(mine[int(seg) - 1])
            continue
        assert mine[int(seg) - 1] == pytest.approx(float(score), abs=5e-7)
        rows += 1
    assert rows == sum(int((~np.isnan(v)).sum()) for v in got.values())


def test_mqm_weights_most_specific_first(tmp_path):
    head = "system\tdoc\tdoc_id\tseg_id\trater\tsource\ttarget\tcategory\tseverity\n"
    rows = ["A\td\t1\t1\tr1\ts\tt\tFluency/Punctuation\tMinor", "A\td\t1\t1\tr1\ts\tt\tAccuracy/Mistranslation\tMajor",
            "A\td\t1\t1\tr2\ts\tt\tNon-translation!\tMajor", "A\td\t2\t2\tr1\ts\tt\tNo-error\tNo-error"]
    got = read_segment_scores(write(tmp_path, "m.tsv", head + "\n".join(rows) + "\n"))
    assert got["A"].tolist() == [-(5.1 + 25) / 2, -0.0]
    with pytest.raises(InputError, match=r"m2.tsv:2: seg_id 'x' is not a whole number"):
        read_segment_scores(write(tmp_path, "m2.tsv", head + "A\td\t1\tx\tr\ts\tt\tOther\tMinor\n"))
