"""Huge segments and text the default tokenizers cannot see: chrF's memory follows the line (a table grown as its
distinct n-grams arrive, not sized for every n-gram occurrence: 4 GiB for an 11 MB line), ROUGE-L/Lsum and
METEOR refuse a pair whose token product would take hours (a stated bound) instead of never finishing, and
ROUGE warns when its default tokenizer drops most of the references' letters."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import warnings

import pytest

from bleuscope import CHRF, METEOR, ROUGE, cli
from bleuscope.metrics.meteor.scorer import MAX_ALIGNMENT_TOKEN_PAIRS
from bleuscope.metrics.rouge.scorer import MAX_LCS_TOKEN_PAIRS, RougeTokenizerWarning

from ..conftest import DATA, read_lines, requires_core, requires_wmt

sacrebleu = pytest.importorskip("sacrebleu")


def joined(path, chars: int) -> str:
    """The lines of ``path`` joined by spaces into one segment of about ``chars`` characters."""
    out, n = [], 0
    for line in read_lines(path):
        out.append(line)
        n += len(line) + 1
        if n >= chars:
            break
    return " ".join(out)


DE = DATA / "generaltest2022" / "en-de"


@requires_wmt
@pytest.mark.parametrize("word_order", [2])
def test_chrf_of_a_long_line_equals_sacrebleu(word_order):
    """150 kB: the hypothesis table grows from 65,536 slots several times over."""
    hyp, ref = joined(DE / "sys" / "Online-B.txt", 150_000), joined(DE / "ref.A.txt", 150_000)
    ours = CHRF(word_order=word_order).corpus_score([hyp], [[ref]]).score
    assert ours == sacrebleu.CHRF(word_order=word_order).corpus_score([hyp], [[ref]]).score


@requires_core
@requires_wmt
def test_chrf_of_a_3_mb_line_under_a_memory_limit(tmp_path):
    """Before: a 1 GiB table for 3 MB (the process aborted: "memory allocation of 1073741824 bytes failed")."""
    (tmp_path / "hyp.txt").write_text(joined(DE / "sys" / "Online-B.txt", 3_000_000), encoding="utf-8")
    (tmp_path / "ref.txt").write_text(joined(DE / "ref.A.txt", 3_000_000), encoding="utf-8")
    script = textwrap.dedent("""
        import resource
        hyp, ref = (open(name, encoding="utf-8").read() for name in ("hyp.txt", "ref.txt"))
        limit = 1000 << 20  # address space: Python, numpy and the threads' stacks take about 400 MB of it
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        from bleuscope import CHRF
        print(CHRF(engine="native").corpus_score([hyp], [[ref]]).score)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    assert 0 < float(done.stdout) < 100


def long_text(tokens: int, seed: int) -> str:
    return " ".join(f"w{(i * 7919 + seed) % 5003}" for i in range(tokens))


@pytest.mark.parametrize(("types", "engine"), [(["rougeL"], "auto"), (["rouge1", "rougeLsum"], "auto"),
                                               (["rougeL"], "numpy")])
def test_rouge_l_refuses_a_pair_beyond_the_stated_bound(types, engine):
    n = int(MAX_LCS_TOKEN_PAIRS**0.5) + 10  # just past the bound: the check is exact, not a guess from characters
    hyp, ref = long_text(n, 1), long_text(n, 2)
    with pytest.raises(ValueError, match=rf"^ROUGE-L: a segment has {n:,} hypothesis and {n:,} reference tokens; "
                                         r".* more than 10\^11 is refused"):
        ROUGE(types, engine=engine).corpus_score(["a b", hyp], [["a b", ref]])


def test_rouge_n_of_the_same_pair_is_scored():
    n = int(MAX_LCS_TOKEN_PAIRS**0.5) + 10
    hyp, ref = long_text(n, 1), long_text(n, 1)
    assert ROUGE(["rouge1", "rouge2"]).corpus_score([hyp], [[ref]]).score == 100.0


def test_rouge_l_below_the_bound_by_characters_is_not_tokenized_twice(monkeypatch):
    """Characters bound the tokens: ordinary segments never reach the exact count."""
    from bleuscope.metrics.rouge import scorer

    monkeypatch.setattr(scorer, "tokenize", lambda *a, **k: pytest.fail("tokenized for the size check"))
    assert ROUGE(["rougeL"]).corpus_score(["a b c"] * 3, [["a b d"] * 3]).score > 0


@pytest.mark.parametrize("engine", ["auto", "numpy"])
def test_meteor_refuses_a_pair_beyond_the_stated_bound(wordnet, engine):
    n = int(MAX_ALIGNMENT_TOKEN_PAIRS**0.5) + 10
    hyp, ref = long_text(n, 1), long_text(n, 2)
    with pytest.raises(ValueError, match=rf"^METEOR: a segment has {n:,} hypothesis and {n:,} reference tokens; "
                                         r".* more than 10\^10 is refused"):
        METEOR(wordnet=wordnet, engine=engine, tokenize="none").corpus_score(["a b", hyp], [["a b", ref]])


def test_the_command_says_it_in_one_line(tmp_path, capsys):
    n = int(MAX_LCS_TOKEN_PAIRS**0.5) + 10
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text(long_text(n, 1) + "\n", encoding="utf-8")
    ref.write_text(long_text(n, 2) + "\n", encoding="utf-8")
    code = cli.main([str(ref), "-i", str(hyp), "-m", "rouge", "--max-line-bytes", "10000000"])
    err = capsys.readouterr().err
    assert code == 1 and err.count("\n") == 1 and err.startswith("bleuscope: error: ROUGE-L: a segment has "), err


@requires_wmt
@pytest.mark.parametrize(("testset", "pair", "warns"), [
    ("newstest2021", "en-ru", True), ("generaltest2022", "en-ja", True), ("generaltest2022", "en-zh", True),
    ("generaltest2022", "en-de", False), ("generaltest2022", "de-en", False),
])
def test_rouge_warns_when_its_default_tokenizer_drops_the_script(testset, pair, warns):
    refs = read_lines(DATA / testset / pair / "ref.A.txt")[:300]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        score = ROUGE(["rouge1"]).corpus_score(refs, [refs]).score
        unicode_score = ROUGE(["rouge1"], tokenizer="unicode").corpus_score(refs, [refs]).score
    ours = [w for w in caught if issubclass(w.category, RougeTokenizerWarning)]
    assert len(ours) == warns, [str(w.message) for w in caught]
    assert unicode_score == 100.0
    if warns:
        assert score < 50 and "ROUGE(tokenizer='unicode')" in str(ours[0].message)
        assert ours[0].filename == __file__  # attributed to the caller


@requires_wmt
def test_the_command_notes_the_tokenizer_once(capsys):
    ref = str(DATA / "newstest2021" / "en-ru" / "ref.A.txt")
    code = cli.main([ref, "-i", ref, "-m", "rouge", "-b"])
    err = capsys.readouterr().err.splitlines()
    notes = [line for line in err if "ROUGE's default tokenizer" in line]
    assert code == 0 and len(notes) == 1 and "--rouge-tokenize unicode" in notes[0], err
