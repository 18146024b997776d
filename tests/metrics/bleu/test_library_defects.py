"""Regression tests of library defects found by a new user: the functional shortcuts' defaults, token ids
at and above 2**63, and where the tokenized-input warning points."""

from __future__ import annotations

import inspect
import warnings

import numpy as np
import pytest

import bleuscope
from bleuscope import BLEU, TokenBLEU, TokenizedInputWarning
from bleuscope.runtime.streaming import BLEUAccumulator

from ...conftest import pair_dir, read_lines, requires_wmt

sacrebleu = pytest.importorskip("sacrebleu")


# -- functional shortcuts: sacreBLEU's arguments and defaults ------------------------------------------------
@pytest.mark.parametrize("name", ["corpus_bleu", "sentence_bleu", "raw_corpus_bleu"])
def test_shortcut_defaults_are_sacrebleus(name):
    ours = inspect.signature(getattr(bleuscope, name)).parameters
    theirs = inspect.signature(getattr(sacrebleu, name)).parameters
    for param in theirs.values():
        assert param.name in ours, f"{name} lacks sacreBLEU's argument {param.name}"
        assert ours[param.name].default == param.default, (name, param.name)
    assert list(ours)[: len(theirs)] == list(theirs)  # same positional order


def test_sentence_bleu_uses_effective_order_by_default():
    assert (
        bleuscope.sentence_bleu("the cat", ["the cat"]).score == sacrebleu.sentence_bleu("the cat", ["the cat"]).score
    )
    assert bleuscope.sentence_bleu("the cat", ["the cat"]).score == pytest.approx(100.0)
    off = bleuscope.sentence_bleu("the cat", ["the cat"], use_effective_order=False)
    assert off.score == sacrebleu.sentence_bleu("the cat", ["the cat"], use_effective_order=False).score == 0.0


@requires_wmt
def test_sentence_bleu_equals_sacrebleu_on_all_wmt22_en_de_segments():
    d = pair_dir("generaltest2022", "en-de")
    hyps = read_lines(d / "sys" / "Online-B.txt")
    refs = read_lines(d / "ref.A.txt")
    assert len(hyps) == len(refs) == 2037
    ours = [bleuscope.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
    theirs = [sacrebleu.sentence_bleu(h, [r]).score for h, r in zip(hyps, refs)]
    assert ours == theirs


@requires_wmt
def test_corpus_and_raw_corpus_bleu_equal_sacrebleu():
    d = pair_dir("generaltest2022", "en-de")
    hyps = read_lines(d / "sys" / "Online-B.txt")[:300]
    refs = [read_lines(d / "ref.A.txt")[:300]]
    assert bleuscope.corpus_bleu(hyps, refs).score == sacrebleu.corpus_bleu(hyps, refs).score
    assert bleuscope.raw_corpus_bleu(hyps, refs).score == sacrebleu.raw_corpus_bleu(hyps, refs).score
    assert (
        bleuscope.corpus_bleu(hyps, refs, "floor", 0.2, False, True, "intl", True).score
        == sacrebleu.corpus_bleu(hyps, refs, "floor", 0.2, False, True, "intl", True).score
    )


# -- token ids of the full uint64 range --------------------------------------------------------------------
def test_token_bleu_accepts_uint64_ids_above_int64():
    big = np.uint64(2**63)
    hyp = np.array([[big, big + np.uint64(1), np.uint64(2**64 - 1), np.uint64(5)]], dtype=np.uint64)
    ref = np.array([[big, big + np.uint64(1), np.uint64(2**64 - 1), np.uint64(7)]], dtype=np.uint64)
    # the same token structure with small ids
    small_hyp, small_ref = np.array([[1, 2, 3, 5]]), np.array([[1, 2, 3, 7]])
    got = TokenBLEU().corpus_score(hyp, ref)
    assert got == TokenBLEU().corpus_score(small_hyp, small_ref)
    text = BLEU(tokenize="none").corpus_score(
        [" ".join(map(str, hyp[0].tolist()))], [[" ".join(map(str, ref[0].tolist()))]]
    )
    assert got.score == text.score and got.counts == text.counts == [3, 2, 1, 0]
    # a list of sequences with uint64 rows and pad stripping
    ragged = TokenBLEU(pad_id=0).sentence_scores(
        [np.array([2**64 - 1, 0], dtype=np.uint64)], [[np.array([2**64 - 1], dtype=np.uint64)]]
    )
    assert ragged.tolist() == TokenBLEU().sentence_scores([[9]], [[[9]]]).tolist()


def test_token_ids_mixing_negative_and_huge_ids_is_an_error():
    with pytest.raises(ValueError, match="negative ids with ids >= 2\\*\\*63"):
        TokenBLEU().corpus_score([np.array([2**64 - 1], dtype=np.uint64)], [[np.array([-1])]])


# -- the tokenized-input warning points at the caller ------------------------------------------------------
TOKENIZED = [f"sentence number {i} ." for i in range(120)]


def _warning_of(call):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    found = [w for w in caught if issubclass(w.category, TokenizedInputWarning)]
    assert len(found) == 1, [str(w.message) for w in caught]
    return found[0]


@pytest.mark.parametrize(
    "entry",
    [
        "corpus_score",
        "sentence_scores",
        "segment_statistics",
        "corpus_score_iterator",
        "corpus_bleu",
        "accumulator",
    ],
)
def test_tokenized_input_warning_points_at_the_callers_line(entry):
    refs = [list(TOKENIZED)]
    bleu = BLEU()
    calls = {
        "corpus_score": lambda: bleu.corpus_score(TOKENIZED, refs),
        "sentence_scores": lambda: bleu.sentence_scores(TOKENIZED, refs),
        "segment_statistics": lambda: bleu.segment_statistics(TOKENIZED, refs),
        "corpus_score_iterator": lambda: bleu.corpus_score(iter(TOKENIZED), [iter(refs[0])]),
        "corpus_bleu": lambda: bleuscope.corpus_bleu(TOKENIZED, refs),
        "accumulator": lambda: BLEUAccumulator().update(TOKENIZED, refs),
    }
    w = _warning_of(calls[entry])
    assert w.filename == __file__


# -- compressed paths in the API, as in the command line ---------------------------------------------------
@pytest.mark.parametrize("suffix,opener", [(".gz", "gzip"), (".xz", "lzma"), (".bz2", "bz2")])
def test_corpus_score_reads_compressed_paths(tmp_path, suffix, opener):
    import importlib
    from pathlib import Path

    module = importlib.import_module(opener)
    hyps = ["the cat sat on the mat", "a dog \r barked", "ünïcode line"]
    refs = ["the cat sat on a mat", "the dog barked", "ünïcode lines"]
    paths = []
    for name, lines in (("hyp", hyps), ("ref", refs)):
        path = tmp_path / f"{name}.txt{suffix}"
        with module.open(path, "wb") as f:
            f.write(("\n".join(lines) + "\n").encode("utf-8"))
        paths.append(Path(path))
    got = BLEU().corpus_score(paths[0], [paths[1]])
    assert got == BLEU().corpus_score(hyps, [refs])
    assert got.score == sacrebleu.corpus_bleu(hyps, [refs]).score
