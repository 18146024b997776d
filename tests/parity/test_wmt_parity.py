"""Corpus BLEU on the real WMT data equals sacreBLEU 2.6.0: the expected table and live sacreBLEU runs."""

from __future__ import annotations

import functools

import pytest

from bleuscope import BLEU

from ..conftest import all_pairs, expected_rows, read_lines, reference_paths, requires_wmt, system_path, wmt_available

sacrebleu = pytest.importorskip("sacrebleu")

# 13a/intl on the ja/zh/ko targets is part of the parity table; the library rightly warns about it
pytestmark = pytest.mark.filterwarnings("ignore::bleuscope.CJKTokenizationWarning")

ROWS = [r for r in expected_rows() if "mecab" not in r["signature"]] if wmt_available() else []


@functools.lru_cache(maxsize=64)
def _lines(path) -> tuple[str, ...]:
    return tuple(read_lines(path))


def _tok(row) -> str:
    return row["signature"].split("tok:")[1].split("|")[0]


def _first_system_rows():
    seen = {}
    for r in ROWS:
        seen.setdefault((r["testset"], r["pair"]), r["system"])
    return [r for r in ROWS if seen[(r["testset"], r["pair"])] == r["system"]]


def _check_row(row):
    hyps = list(_lines(system_path(row["testset"], row["pair"], row["system"])))
    refs = [list(_lines(p)) for p in reference_paths(row["testset"], row["pair"], row["refs"])]
    bleu = BLEU(tokenize=_tok(row))
    s = bleu.corpus_score(hyps, refs)
    assert s.counts == [int(x) for x in row["counts"].split()]
    assert s.totals == [int(x) for x in row["totals"].split()]
    assert s.sys_len == int(row["sys_len"])
    assert s.ref_len == int(row["ref_len"])
    assert s.score == pytest.approx(float(row["score"]), abs=5e-7)  # the table prints 6 decimals
    expected_sig = row["signature"].rsplit("|version:", 1)[0]
    assert s.signature.rsplit("|version:", 1)[0] == expected_sig


def _row_id(r):
    return f"{r['testset']}/{r['pair']}/{r['system']}/{r['refs']}/{_tok(r)}"


@requires_wmt
@pytest.mark.parametrize("row", _first_system_rows(), ids=_row_id)
def test_expected_table_first_system(row):
    _check_row(row)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("row", ROWS, ids=_row_id)
def test_expected_table_every_system(row):
    _check_row(row)


def _live_cases(full: bool):
    cases = []
    for testset, pair in all_pairs() if wmt_available() else []:
        base = system_path(testset, pair, "x").parent
        systems = sorted(p.stem for p in base.glob("*.txt")) if base.exists() else []
        refs = sorted(p.stem[4:] for p in system_path(testset, pair, "x").parents[1].glob("ref.*.txt"))
        if not systems:  # references only (wmt24pp en-ko): score one reference against the other
            systems, refs = [f"ref.{refs[0]}"], refs[1:]
        toks = ["none", "13a", "intl", "char"] + (["zh"] if pair.endswith("-zh") else [])
        for system in systems if full else systems[:1]:
            for tok in toks if full else ["13a", "char"]:
                for lc in (False, True):
                    cases.append((testset, pair, system, "+".join(refs), tok, lc))
    return cases


def _check_live(testset, pair, system, refs, tok, lc):
    hyps = list(_lines(system_path(testset, pair, system)))
    ref_streams = [list(_lines(p)) for p in reference_paths(testset, pair, refs)]
    ours = BLEU(tokenize=tok, lowercase=lc).corpus_score(hyps, ref_streams)
    theirs = sacrebleu.BLEU(tokenize=tok, lowercase=lc).corpus_score(hyps, ref_streams)
    assert ours.counts == theirs.counts and ours.totals == theirs.totals
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert ours.score == pytest.approx(theirs.score, abs=1e-9)
    one = BLEU(tokenize=tok, lowercase=lc).corpus_score(hyps, ref_streams[:1])
    one_theirs = sacrebleu.BLEU(tokenize=tok, lowercase=lc).corpus_score(hyps, ref_streams[:1])
    assert one.counts == one_theirs.counts and one.ref_len == one_theirs.ref_len
    assert one.score == pytest.approx(one_theirs.score, abs=1e-9)


@requires_wmt
@pytest.mark.parametrize("case", _live_cases(full=False), ids=lambda c: "/".join(map(str, c)))
def test_live_sacrebleu_subset(case):
    _check_live(*case)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("case", _live_cases(full=True), ids=lambda c: "/".join(map(str, c)))
def test_live_sacrebleu_full(case):
    _check_live(*case)


SMOOTHINGS = [("exp", None), ("floor", None), ("floor", 0.5), ("add-k", None), ("add-k", 2), ("none", None)]


@requires_wmt
@pytest.mark.parametrize("method,value", SMOOTHINGS)
@pytest.mark.parametrize("eff", [True, False])
def test_sentence_scores_equal_sacrebleu_loop(method, value, eff):
    hyps = list(_lines(system_path("generaltest2022", "en-de", "Online-B")))[:150]
    refs = [list(_lines(p))[:150] for p in reference_paths("generaltest2022", "en-de", "A+B")]
    ours = BLEU(smooth_method=method, smooth_value=value, effective_order=eff).sentence_scores(hyps, refs)
    sb = sacrebleu.BLEU(smooth_method=method, smooth_value=value, effective_order=eff)
    for i, h in enumerate(hyps):
        theirs = sb.sentence_score(h, [r[i] for r in refs])
        assert ours.scores[i] == theirs.score, (i, h)  # bit-identical
        assert ours[i].precisions == pytest.approx(theirs.precisions, abs=0)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("method,value", SMOOTHINGS)
def test_sentence_scores_every_pair_full(method, value):
    for testset, pair in all_pairs():
        base = system_path(testset, pair, "x").parent
        systems = sorted(p.stem for p in base.glob("*.txt")) if base.exists() else []
        if not systems:
            continue
        hyps = list(_lines(base / f"{systems[0]}.txt"))
        refs = sorted(system_path(testset, pair, "x").parents[1].glob("ref.*.txt"))
        ref_streams = [list(_lines(p)) for p in refs]
        tok = "zh" if pair.endswith("-zh") else "13a"
        ours = BLEU(tokenize=tok, smooth_method=method, smooth_value=value, effective_order=True)
        theirs = sacrebleu.BLEU(tokenize=tok, smooth_method=method, smooth_value=value, effective_order=True)
        got = ours.sentence_scores(hyps, ref_streams).scores
        for i, h in enumerate(hyps):
            assert got[i] == theirs.sentence_score(h, [r[i] for r in ref_streams]).score
