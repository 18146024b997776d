"""Streaming corpus BLEU (iterables, generators, files, chunks) equals the in-memory score."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core.files import read_lines
from bleuscope.runtime.streaming import BLEUAccumulator, corpus_score_files, corpus_score_stream, iter_statistics

from ..conftest import pair_dir, read_lines as read_list, requires_wmt


def same_score(a, b) -> None:
    assert a.counts == b.counts
    assert a.totals == b.totals
    assert (a.sys_len, a.ref_len) == (b.sys_len, b.ref_len)
    assert a.score == b.score  # bit-identical: the same integers go into the same formula
    assert a.bp == b.bp and a.precisions == b.precisions


def wmt(testset: str, pair: str, system: str):
    d = pair_dir(testset, pair)
    refs = sorted(d.glob("ref.*.txt"))
    return d / "sys" / f"{system}.txt", refs


# -- WMT data ----------------------------------------------------------------------------------------------
@requires_wmt
@pytest.mark.parametrize(
    "testset,pair,system,tokenize",
    [
        ("generaltest2022", "en-de", "Online-B", "13a"),
        ("newstest2021", "en-de", "Facebook-AI", "intl"),  # three references
        ("generaltest2022", "en-zh", "HuaweiTSC", "zh"),
        ("wmttest2024", "en-ja", "Phi-3-Medium", "char"),  # empty hypothesis lines, paragraphs
    ],
)
def test_wmt_streams_and_files_equal_in_memory(testset, pair, system, tokenize):
    hyp_path, ref_paths = wmt(testset, pair, system)
    hyps = read_list(hyp_path)
    refs = [read_list(p) for p in ref_paths]
    bleu = BLEU(tokenize=tokenize)
    expected = bleu.corpus_score(hyps, refs)
    for chunk in (500, None):
        same_score(corpus_score_stream(bleu, iter(hyps), [iter(r) for r in refs], chunk_size=chunk), expected)
    same_score(corpus_score_files(hyp_path, ref_paths, tokenize=tokenize, chunk_size=333), expected)
    head = bleu.corpus_score(hyps[:200], [r[:200] for r in refs])
    same_score(corpus_score_stream(bleu, iter(hyps[:200]), [iter(r[:200]) for r in refs], chunk_size=7), head)
    # BLEU.corpus_score takes the streaming path for generators and paths
    got = bleu.corpus_score((h for h in hyps), [(x for x in r) for r in refs])
    same_score(got, expected)
    assert got.signature == expected.signature
    same_score(bleu.corpus_score(hyp_path, list(ref_paths)), expected)


@requires_wmt
def test_wmt_chunk_sizes_one_and_two_and_per_segment_rows():
    hyp_path, ref_paths = wmt("generaltest2022", "de-en", "LT22")
    hyps = read_list(hyp_path)[:300]
    refs = [read_list(p)[:300] for p in ref_paths]
    bleu = BLEU()
    seg = bleu.segment_statistics(hyps, refs)
    for chunk in (1, 2):
        parts = list(iter_statistics(bleu, iter(hyps), [iter(r) for r in refs], chunk_size=chunk))
        assert all(len(p) == chunk for p in parts)
        assert np.array_equal(np.concatenate([p.stats for p in parts]), seg.stats)
        assert np.array_equal(np.concatenate([p.nrefs for p in parts]), seg.nrefs)
        same_score(corpus_score_stream(bleu, hyps, refs, chunk_size=chunk), bleu.corpus_score(hyps, refs))


@requires_wmt
def test_wmt_matches_sacrebleu_through_files():
    sacrebleu = pytest.importorskip("sacrebleu")
    hyp_path, ref_paths = wmt("generaltest2022", "cs-en", "CUNI-Transformer")
    ours = BLEU().corpus_score(hyp_path, ref_paths)
    theirs = sacrebleu.metrics.BLEU().corpus_score(read_list(hyp_path), [read_list(p) for p in ref_paths])
    assert ours.counts == theirs.counts and ours.totals == theirs.totals
    assert ours.score == pytest.approx(theirs.score, abs=1e-9)


# -- random inputs -----------------------------------------------------------------------------------------
WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", ".", ",", "Katze", "猫", "😀", "&amp;", "don't", "3.5"]
line = st.lists(st.sampled_from(WORDS), max_size=12).map(" ".join) | st.text(max_size=20)


@st.composite
def corpora(draw):
    n = draw(st.integers(1, 40))
    k = draw(st.integers(1, 3))
    hyps = draw(st.lists(line, min_size=n, max_size=n))
    refs = [draw(st.lists(line | st.none(), min_size=n, max_size=n)) for _ in range(k)]
    for i in range(n):  # every segment keeps at least one reference
        if all(r[i] is None for r in refs):
            refs[0][i] = draw(line)
    return hyps, refs


@settings(max_examples=60, deadline=None)
@given(corpora(), st.sampled_from([1, 2, 3, 7, 64]), st.sampled_from(["13a", "intl", "char", "none"]),
       st.booleans())
def test_random_streams_equal_in_memory(corpus, chunk, tokenize, lowercase):
    hyps, refs = corpus
    bleu = BLEU(tokenize=tokenize, lowercase=lowercase)
    expected = bleu.corpus_score(hyps, refs)
    got = corpus_score_stream(bleu, iter(hyps), [iter(r) for r in refs], chunk_size=chunk)
    same_score(got, expected)
    assert got.signature == expected.signature  # nrefs:var with None references, as in memory


@settings(max_examples=40, deadline=None)
@given(corpora(), st.data(), st.sampled_from(["floor", "chen-cherry-5"]))
def test_accumulator_split_merge_and_state_sum(corpus, data, smooth):
    hyps, refs = corpus
    bleu = BLEU(smooth_method=smooth)  # chen-cherry-5 keeps one more order in the statistics
    expected = bleu.corpus_score(hyps, refs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(hyps)), max_size=4)))
    bounds = [0] + cuts + [len(hyps)]
    shards = []
    for a, b in zip(bounds[:-1], bounds[1:]):
        acc = BLEUAccumulator(bleu)
        if b > a:
            acc.update(hyps[a:b], [r[a:b] for r in refs])
        shards.append(acc)
    merged = BLEUAccumulator(bleu).merge(*shards)
    same_score(merged.compute(), expected)
    assert merged.compute().signature == expected.signature
    # states are plain int64 vectors that sum across shards (an all-reduce)
    summed = np.sum([s.state() for s in shards], axis=0)
    same_score(BLEUAccumulator.from_state(summed, bleu).compute(), expected)
    # raw per-segment statistics
    raw = BLEUAccumulator(bleu)
    seg = bleu.segment_statistics(hyps, refs)
    raw.add_statistics(seg.stats, seg.nrefs)
    same_score(raw.compute(), expected)


def test_accumulator_nrefs_and_errors():
    acc = BLEUAccumulator(tokenize="13a")
    with pytest.raises(ValueError, match="nothing accumulated"):
        acc.compute()
    acc.update(["a b c", "d e"], [["a b c", "d e"], ["a b", None]])
    assert acc.nrefs() == "var" and acc.n_segments == 2
    assert acc.compute().signature.startswith("nrefs:var|")
    acc.reset()
    acc.update(["a b c"], [["a b c"], ["a"]])
    assert acc.nrefs() == "2"
    with pytest.raises(ValueError, match="different settings.*tok"):
        acc.merge(BLEUAccumulator(tokenize="char"))
    with pytest.raises(TypeError, match="nrefs is required"):
        acc.add_statistics(np.zeros((1, 10), dtype=np.int64))
    with pytest.raises(ValueError, match=r"shape \[S, 10\]"):
        acc.add_statistics(np.zeros((1, 8), dtype=np.int64), 1)
    with pytest.raises(TypeError, match="integer array"):
        acc.add_statistics(np.zeros((1, 10)), 1)
    with pytest.raises(ValueError, match="state must have shape"):
        BLEUAccumulator.from_state(np.zeros(5, dtype=np.int64))
    with pytest.raises(TypeError, match="either a BLEU object or BLEU options"):
        BLEUAccumulator(BLEU(), tokenize="13a")


# -- strict input ------------------------------------------------------------------------------------------
@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 30), min_size=2, max_size=4).filter(lambda n: len(set(n)) > 1),
       st.sampled_from([1, 3, 50]))
def test_mismatched_stream_lengths_name_the_stream_and_line(lengths, chunk):
    hyps = iter(["w x y"] * lengths[0])
    refs = [iter(["w y"] * n) for n in lengths[1:]]
    names = ["hypotheses"] + [f"references[{k}]" for k in range(len(lengths) - 1)]
    shortest = min(lengths)
    with pytest.raises(ValueError) as info:
        corpus_score_stream(BLEU(), hyps, refs, chunk_size=chunk)
    msg = str(info.value)
    ended, rest = msg.split(" ended after line ")
    assert ended.split(" and ") == [n for n, x in zip(names, lengths) if x == shortest]
    assert rest.startswith(f"{shortest}, but ")
    assert f"a line {shortest + 1}:" in msg
    for name, n in zip(names, lengths):
        if n > shortest:
            assert name in rest


def test_streams_are_read_lazily():
    pulled = []

    def endless():
        for i in itertools.count():
            pulled.append(i)
            yield "a b c"

    # an endless hypothesis stream against a 10-line reference: an error, after reading a bounded amount
    with pytest.raises(ValueError, match=r"references\[0\] ended after line 10, but hypotheses has a line 11"):
        corpus_score_stream(BLEU(), endless(), [["a b c"] * 10], chunk_size=4)
    assert len(pulled) == 12  # three chunks of 4
    pulled.clear()
    it = iter_statistics(BLEU(), endless(), [endless()], chunk_size=5)
    next(it)
    assert len(pulled) == 10  # one chunk of each stream, nothing more


def test_bad_items_and_layouts():
    bleu = BLEU()
    with pytest.raises(TypeError, match=r"hypotheses: item 2 \(line 3\) must be a string, got int"):
        corpus_score_stream(bleu, iter(["a", "b", 3]), [["a", "b", "c"]])
    with pytest.raises(TypeError, match=r"hypotheses: item 0 \(line 1\) must be a string, got None"):
        corpus_score_stream(bleu, iter([None]), [["a"]])
    with pytest.raises(TypeError, match=r"references\[0\]: item 1 .* got list .*per-segment"):
        corpus_score_stream(bleu, iter(["a", "b"]), [iter(["a", ["b"]])])
    with pytest.raises(ValueError, match=r"segment 1 \(line 2\) has no reference"):
        corpus_score_stream(bleu, iter(["a", "b"]), [iter(["a", None])])
    with pytest.raises(TypeError, match="single str"):
        corpus_score_stream(bleu, "a b", [["a b"]])
    with pytest.raises(TypeError, match="flat list of strings"):
        corpus_score_stream(bleu, iter(["a"]), ["a"])
    with pytest.raises(TypeError, match="single PosixPath|single WindowsPath"):
        corpus_score_stream(bleu, iter(["a"]), Path("ref.txt"))
    with pytest.raises(ValueError, match="hypotheses is empty"):
        corpus_score_stream(bleu, iter([]), [iter([])])
    with pytest.raises(ValueError, match="chunk_size must be >= 1"):
        corpus_score_stream(bleu, iter(["a"]), [["a"]], chunk_size=0)
    with pytest.raises(TypeError, match="ordered"):
        corpus_score_stream(bleu, {"a"}, [["a"]])


# -- files -------------------------------------------------------------------------------------------------
ODD = ["tab\there", "line\u2028separator", "group\x1dseparator", "next\x85line", "cr\rinside", "  ", "", "é 猫 😀"]


def write(path: Path, lines: list[str], final_newline: bool) -> Path:
    path.write_bytes(("\n".join(lines) + ("\n" if final_newline else "")).encode("utf-8"))
    return path


@pytest.mark.parametrize("final_newline", [True, False])
def test_files_split_on_newline_only(tmp_path, final_newline):
    hyps = ODD + ["last one"]
    refs = list(reversed(ODD)) + ["last"]
    h = write(tmp_path / "h.txt", hyps, final_newline)
    r = write(tmp_path / "r.txt", refs, final_newline)
    assert list(read_lines(h)) == hyps
    assert list(read_lines(str(r))) == refs
    for tok in ("13a", "none", "char"):
        expected = BLEU(tokenize=tok).corpus_score(hyps, [refs])
        same_score(corpus_score_files(h, [r], tokenize=tok, chunk_size=3), expected)
        same_score(BLEU(tokenize=tok).corpus_score(h, [r]), expected)
    with open(h, encoding="utf-8", newline="\n") as fh, open(r, encoding="utf-8", newline="\n") as fr:
        same_score(BLEU().corpus_score(fh, [fr]), BLEU().corpus_score(hyps, [refs]))


def test_file_edge_cases(tmp_path):
    assert list(read_lines(write(tmp_path / "empty.txt", [], False))) == []
    assert list(read_lines(write(tmp_path / "blank.txt", [""], True))) == [""]  # one empty line
    assert list(read_lines(write(tmp_path / "two.txt", ["", ""], True))) == ["", ""]
    h = write(tmp_path / "h.txt", ["a b", "c d", "e"], True)
    short = write(tmp_path / "r.txt", ["a b", "c d"], False)
    with pytest.raises(ValueError, match=r"references\[0\] \(.*r\.txt\) ended after line 2, but hypotheses"):
        corpus_score_files(h, [short])
    bad = tmp_path / "bad.txt"
    bad.write_bytes(b"fine\nalso fine\nbroken \xff here\n")
    with pytest.raises(ValueError, match=r"bad\.txt:3: invalid UTF-8"):
        corpus_score_files(bad, [bad])
    with pytest.raises(FileNotFoundError, match="missing.txt"):
        corpus_score_files(h, [tmp_path / "missing.txt"])
    with pytest.raises(TypeError, match="list of paths"):
        corpus_score_files(h, h)
    with pytest.raises(ValueError, match="hypotheses is empty"):
        corpus_score_files(tmp_path / "empty.txt", [tmp_path / "empty.txt"])


def test_stream_gives_the_in_memory_warnings():
    from bleuscope.metrics.bleu.scorer import TokenizedInputWarning

    hyps = ["a b ."] * 120
    refs = [["a b ."] * 120]
    with pytest.warns(TokenizedInputWarning):
        corpus_score_stream(BLEU(), iter(hyps), [iter(r) for r in refs], chunk_size=50)
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        corpus_score_stream(BLEU(force=True), iter(hyps), [iter(r) for r in refs], chunk_size=50)
        corpus_score_stream(BLEU(), iter(hyps[:99]), [iter(r[:99]) for r in refs], chunk_size=50)
