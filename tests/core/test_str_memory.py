"""What reading lists of ``str`` leaves in memory: the compiled core must not make CPython keep a UTF-8 copy
inside every ``str`` that is not ASCII (asking CPython for such a string's UTF-8 in place does, for as long
as the caller's strings live: as much memory again as the text).

Each measurement runs in a fresh interpreter: a corpus of non-ASCII lines (WMT22 en-de, each line made its own
object) is built, the peak-RSS counter reset, corpus BLEU computed, and the growth of the peak and of the
resident memory after the call (what the allocator holds freed given back first) compared with the text's
UTF-8 size.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU, CHRF

from ..conftest import requires_core, requires_wmt, system_path

pytestmark = requires_core
#: the peak-RSS counter the memory measurements reset (Linux)
requires_clear_refs = pytest.mark.skipif(not Path("/proc/self/clear_refs").exists(),
                                         reason="needs Linux's /proc/self/clear_refs")

_CHILD = r"""
import gc, json, sys
from bleuscope import BLEU, CHRF

def status():
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmHWM:", "VmRSS:")):
                out[line.split(":")[0]] = int(line.split()[1]) * 1024
    return out

hyp_path, ref_path, repeats, metric, threads = json.loads(sys.argv[1])
hyp_lines, ref_lines = (open(p, encoding="utf-8").read().split("\n")[:-1] for p in (hyp_path, ref_path))
# every line its own str object, none of them ASCII (a middle dot: one byte per character in CPython)
hyps = [f"{k} \u00b7 {line}" for k in range(repeats) for line in hyp_lines]
refs = [f"{k} \u00b7 {line}" for k in range(repeats) for line in ref_lines]
utf8 = sum(len(s.encode()) for s in hyps) + sum(len(s.encode()) for s in refs)
scorer = BLEU(tokenize="13a", threads=threads) if metric == "bleu" else CHRF()
scorer.corpus_score(hyps[:100], [refs[:100]])  # imports, tables, the engine chosen: not the growth measured
gc.collect()
before = status()["VmRSS"]
with open("/proc/self/clear_refs", "w") as f:
    f.write("5")
score = scorer.corpus_score(hyps, [refs]).score
gc.collect()
try:  # what the allocator holds freed is not kept by anyone
    import ctypes
    ctypes.CDLL("libc.so.6").malloc_trim(0)
except (OSError, AttributeError):
    pass
after = status()
print(json.dumps({"utf8": utf8, "peak": after["VmHWM"] - before, "kept": after["VmRSS"] - before,
                  "score": score, "segments": len(hyps)}))
"""


def _measure(metric: str, threads: int = 0, repeats: int = 100) -> dict:
    hyps = system_path("generaltest2022", "en-de", "Online-B")
    refs = hyps.parents[1] / "ref.A.txt"
    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[2] / "src"))
    spec = json.dumps([str(hyps), str(refs), repeats, metric, threads])
    proc = subprocess.run([sys.executable, "-c", _CHILD, spec],
                          capture_output=True, text=True, env=env, timeout=300, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


@requires_wmt
@requires_clear_refs
@pytest.mark.parametrize("threads", [1, 2])
def test_corpus_bleu_on_non_ascii_lists_keeps_no_copy_of_the_text(threads):
    """~200k segments, ~49 MB of UTF-8, every line non-ASCII: the call grows the process by a small part of
    the text (the lines being counted, the n-gram tables) and keeps nothing; with a UTF-8 copy cached inside
    every str it grew by the whole text and kept it."""
    m = _measure("bleu", threads)
    assert m["segments"] == 203_700
    assert m["utf8"] > 45 * 2**20
    assert m["peak"] < 0.25 * m["utf8"], m
    assert m["kept"] < 0.1 * m["utf8"], m


class _Str(str):
    """A str subclass: CPython lays its text out apart from the object (not compact)."""


#: text of every width CPython stores (1, 2 and 4 bytes a character), with lone surrogates now and then
_chars = st.characters(codec=None, categories=None, exclude_characters="\n\r")
_word = st.text(st.sampled_from("abéß· .,") | _chars, max_size=12)
_line = st.lists(_word, max_size=8).map(" ".join) | st.text(_chars, max_size=30)
_item = st.tuples(_line, st.booleans()).map(lambda t: _Str(t[0]) if t[1] else t[0])


@pytest.mark.filterwarnings("ignore")  # the tokenizers' advice on generated text is not news here
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_item, _item), min_size=1, max_size=12), st.sampled_from(["13a", "intl", "char"]))
def test_text_of_every_width_reads_as_the_python_engines(pairs, tokenize):
    """The core's own reading of text that is not ASCII (its code units, in every width) gives the rows
    and scores of the numpy engine, which reads the text through Python."""
    hyps, refs = [h for h, _ in pairs], [r for _, r in pairs]
    native = BLEU(tokenize=tokenize, engine="native").segment_statistics(hyps, [refs]).stats
    np.testing.assert_array_equal(native, BLEU(tokenize=tokenize, engine="numpy")
                                  .segment_statistics(hyps, [refs]).stats)
    assert CHRF(engine="native").corpus_score(hyps, [refs]).score == pytest.approx(
        CHRF(engine="numpy").corpus_score(hyps, [refs]).score, abs=1e-9)


#: long lines that are mostly ASCII, with characters of every width (and now and then a lone surrogate)
#: between runs of it: the reader stores 16 code units at a time where they are ASCII
_run = st.text(st.sampled_from("abcdefghij klmnop"), min_size=0, max_size=40)
_long_line = st.lists(st.tuples(_run, st.text(_chars, max_size=3)), min_size=1, max_size=12).map(
    lambda parts: "".join(a + b for a, b in parts))


@pytest.mark.filterwarnings("ignore")
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(_long_line, _long_line), min_size=1, max_size=6))
def test_long_mostly_ascii_text_reads_as_the_python_engine(pairs):
    """Long lines of ASCII runs between other characters (in every width, at every offset of the reader's
    16-unit steps) give the rows of the numpy engine, which reads the text through Python. The first
    reference of each is its hypothesis as a str subclass, whose text CPython encodes: every character
    read wrong, lost or added is an n-gram that does not match."""
    hyps = [h for h, _ in pairs]
    refs = [[_Str(h) for h in hyps], [r for _, r in pairs]]
    for tokenize in ("none", "char"):
        native = BLEU(tokenize=tokenize, engine="native").segment_statistics(hyps, refs).stats
        np.testing.assert_array_equal(native, BLEU(tokenize=tokenize, engine="numpy")
                                      .segment_statistics(hyps, refs).stats)


def _readers():
    """Every way a list of str reaches the compiled core's reader."""
    import bleuscope.jiwer
    from bleuscope import CER, TER, WER
    from bleuscope.analysis.significance.inputs import system_statistics
    from bleuscope.metrics.rouge import ROUGE

    bleu = BLEU(tokenize="13a", engine="native")
    return {
        "corpus BLEU": lambda h, r: bleu.corpus_score(h, [r]),
        "corpus BLEU, 2 threads": lambda h, r: BLEU(tokenize="13a", engine="native", threads=2).corpus_score(h, [r]),
        "sentence BLEU": lambda h, r: BLEU(effective_order=True, engine="native").sentence_scores(h, [r]),
        "several systems": lambda h, r: system_statistics(bleu, [h, r], [r]),
        "chrF": lambda h, r: CHRF(engine="native").corpus_score(h, [r]),
        "TER": lambda h, r: TER(engine="native").corpus_score(h, [r]),
        "WER": lambda h, r: WER().corpus_score(h, [r]),
        "CER": lambda h, r: CER().corpus_score(h, [r]),
        "jiwer drop-in wer": lambda h, r: bleuscope.jiwer.wer(r, h),
        "jiwer drop-in wer, exact str": lambda h, r: bleuscope.jiwer.wer([str(x) for x in r], [str(x) for x in h]),
        "jiwer drop-in process_words": lambda h, r: bleuscope.jiwer.process_words(r, h),
        "ROUGE": lambda h, r: ROUGE(["rouge1", "rougeL"], engine="native").corpus_score(h, [r]),
    }


@pytest.mark.parametrize("reader", list(_readers()))
def test_no_utf8_copy_is_left_inside_the_strings(reader):
    """A str that CPython gives a UTF-8 copy keeps it, and sys.getsizeof counts it: after the core has read
    lines of every width (and str subclasses), each is as large as before."""
    hyps = [f"Gr\u00fc\u00dfe {i} \u20ac und \U0001f600" for i in range(40)] + [_Str("\u00e9t\u00e9 \u00e0 Paris"), _Str("plain")]
    refs = [f"Gr\u00fc\u00dfe {i} \u00b7 \u3042" for i in range(40)] + [_Str("\u00e9t\u00e9 a Paris"), "plain"]
    before = [sys.getsizeof(x) for x in hyps + refs]
    _readers()[reader](hyps, refs)
    assert [sys.getsizeof(x) for x in hyps + refs] == before


@requires_wmt
@requires_clear_refs
def test_chrf_on_non_ascii_lists_keeps_no_copy_of_the_text():
    """chrF reads its whole input at once: the copy of the text lives during the call only."""
    m = _measure("chrf", repeats=60)
    assert m["utf8"] > 25 * 2**20
    assert m["kept"] < 0.1 * m["utf8"], m
