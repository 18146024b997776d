"""The command counts BLEU on plain UTF-8 text files with the compiled core's file reader; everything it
prints (scores, warnings, errors naming file, line and byte, exit codes) is what the chunk loop of the
Python reader prints, which the core hands the files back to at any problem."""

from __future__ import annotations

import builtins
import json
from unittest import mock

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import bleuscope.cli.scoring as scoring
from bleuscope.core.native import bleu as native_bleu
from bleuscope.tokenizers import get_tokenizer
from bleuscope.tokenizers.language import warn_if_mostly_cjk

from ..conftest import DATA, read_lines, requires_core, requires_wmt

GOOD_HYPS = ["The cat sat on the mat .", "Hello , world !", "", "a b c d", "Grüße\u00a0aus Köln .\r", "x .  "]
GOOD_REFS = ["The cat sat on a mat .", "Hello world!", "nothing", "a b c d e", "Grüße aus Köln.", "x"]


def write(path, lines, end="\n"):
    path.write_bytes((end.join(lines) + end).encode("utf-8") if lines else b"")
    return path


@pytest.fixture
def both_paths(run_main, monkeypatch):
    """Runs the command twice, with and without the core's file reader: returns both results and whether
    the core counted."""

    def call(argv):
        counted = []
        real = scoring.count_files_in_core

        def spy(*args, **kwargs):
            result = real(*args, **kwargs)
            counted.append(result is not None)
            return result

        monkeypatch.setattr(scoring, "count_files_in_core", spy)
        core = run_main([str(a) for a in argv])
        monkeypatch.setattr(scoring, "count_files_in_core", lambda *args, **kwargs: None)
        python = run_main([str(a) for a in argv])
        monkeypatch.setattr(scoring, "count_files_in_core", real)
        return core, python, any(counted)

    return call


@requires_core
@pytest.mark.parametrize(
    "options",
    [[], ["-lc"], ["-tok", "intl"], ["-tok", "char"], ["-tok", "none"], ["-f", "text"], ["-m", "bleu", "chrf"]],
)
def test_same_output_as_the_python_reader(tmp_path, both_paths, options):
    hyp = write(tmp_path / "hyp.txt", GOOD_HYPS * 30)
    other = write(tmp_path / "other.txt", GOOD_REFS * 30)
    ref = write(tmp_path / "ref.txt", GOOD_REFS * 30)
    ref2 = write(tmp_path / "ref2.txt", GOOD_HYPS[::-1] * 30)
    for argv in ([hyp, "-r", ref], [hyp, other, "-r", ref, ref2]):
        core, python, counted = both_paths([*argv, *options])
        assert core == python
        assert core[0] == 0
        assert counted


LATIN = ["a b c .", "d e .\r", "f g . \u3000"]
CHINESE = "这是一个中文句子，没有空格。"


@requires_core
@pytest.mark.parametrize(
    ("hyps", "warns"),
    [
        (LATIN * 40 + [CHINESE] * 60, True),  # Chinese from the second chunk on
        (LATIN * 53 + [CHINESE] * 10 + ["x"], True),  # only the last chunk (after its first line) is Chinese
        (LATIN * 20 + [CHINESE] * 10 + LATIN * 30, True),  # one chunk in the middle of the file
        (["latin " * 120] * 30 + [CHINESE] * 10 + LATIN * 10, False),  # past a chunk's 20,000 sampled characters
        (["Ünïcödé — “quoted” …"] * 100, False),  # characters from U+1100 on that are no CJK letters
    ],
)
def test_the_warnings_of_every_chunk(tmp_path, both_paths, monkeypatch, hyps, warns):
    # tokenized lines (" ." also before trailing whitespace, as sacreBLEU's command strips lines) and
    # hypothesis files that turn Chinese after their first chunk: the chunk loop checks every chunk
    monkeypatch.setattr(scoring, "CHUNK_SEGMENTS", 40)
    hyp = write(tmp_path / "hyp.txt", hyps)
    latin = write(tmp_path / "latin.txt", ["a b c ."] * len(hyps))
    ref = write(tmp_path / "ref.txt", ["a b c"] * len(hyps))
    for systems in ([hyp], [latin, hyp], [hyp, latin]):
        core, python, counted = both_paths([*systems, "-r", ref, "-tok", "13a"])
        assert core == python and counted
        assert ("Chinese, Japanese or Korean" in core[2]) == warns
    core, python, counted = both_paths([hyp, "-r", hyp])
    assert core == python and counted
    assert "both a hypothesis and a reference" in core[2]


@requires_core
def test_the_command_reads_the_hypotheses_once(tmp_path, run_main, monkeypatch):
    # counted by the core, a hypothesis or reference file is opened in Python only for the peek at its byte
    # order mark (the CJK check samples what the core read; BLEU has no notes about the references)
    hyp = write(tmp_path / "hyp.txt", LATIN * 50 + [CHINESE] * 50)
    ref = write(tmp_path / "ref.txt", ["a b c"] * 200)
    opened = mock.Mock(wraps=builtins.open)
    monkeypatch.setattr(builtins, "open", opened)
    code, _, err = run_main([hyp, "-r", ref, "-tok", "13a"])
    assert code == 0 and "Chinese, Japanese or Korean" in err
    paths = [c.args[0] for c in opened.call_args_list]
    assert (paths.count(str(hyp)), paths.count(str(ref))) == (1, 1)


def _bytes_read() -> int | None:
    """Bytes this process has read through system calls so far (Linux's ``rchar``), or None."""
    try:
        with open("/proc/self/io", encoding="ascii") as f:
            return next(int(line.split()[1]) for line in f if line.startswith("rchar:"))
    except (OSError, StopIteration, ValueError):
        return None


@requires_core
@pytest.mark.skipif(_bytes_read() is None, reason="no /proc/self/io here")
def test_the_references_are_read_once_for_all_systems(tmp_path, run_main, monkeypatch):
    # three systems against two large reference files: one count of the counter for all of them, which
    # reads each reference file once (the bytes the process reads), and the scores of each system alone
    from bleuscope import BLEU
    from bleuscope.metrics.bleu.counting import BLEUCounter

    n = 400
    words = [f"w{i}" for i in range(50)]
    refs = [
        write(tmp_path / f"ref{k}.txt", [" ".join(words[(i + j * k) % 50] for j in range(300)) for i in range(n)])
        for k in (1, 2)
    ]
    systems = [
        write(tmp_path / f"sys{s}.txt", [" ".join(words[(i * s + j) % 50] for j in range(8)) for i in range(n)])
        for s in (1, 2, 3)
    ]
    calls = []
    real = BLEUCounter.files

    def spy(self, hyp_paths, ref_paths, **kwargs):
        calls.append((list(hyp_paths), list(ref_paths)))
        return real(self, hyp_paths, ref_paths, **kwargs)

    monkeypatch.setattr(BLEUCounter, "files", spy)
    before = _bytes_read()
    code, out, err = run_main([*refs, "-i", *systems, "-b", "-w", "6"])
    read = _bytes_read() - before
    assert code == 0, err
    assert calls == [([str(s) for s in systems], [str(r) for r in refs])]
    ref_bytes = sum(r.stat().st_size for r in refs)
    hyp_bytes = sum(s.stat().st_size for s in systems)
    assert ref_bytes > 10 * hyp_bytes
    assert ref_bytes <= read < hyp_bytes + 1.2 * ref_bytes  # each system counted alone read them 3 times
    ref_lines = [r.read_text("utf-8").split("\n")[:-1] for r in refs]
    alone = [f"{BLEU().corpus_score(s.read_text('utf-8').split(chr(10))[:-1], ref_lines).score:.6f}" for s in systems]
    assert out.split() == alone


@requires_wmt
@requires_core
def test_eight_wmt_systems_counted_together_match_sacrebleu(run_main, monkeypatch):
    # WMT22 en-de, its 8 systems and 2 references in one run of the core's file count: the scores and
    # counts of sacreBLEU's library, system by system
    sacrebleu = pytest.importorskip("sacrebleu")
    from bleuscope.metrics.bleu.counting import BLEUCounter

    calls = []
    real = BLEUCounter.files

    def spy(self, hyp_paths, ref_paths, **kwargs):
        calls.append(len(hyp_paths))
        return real(self, hyp_paths, ref_paths, **kwargs)

    monkeypatch.setattr(BLEUCounter, "files", spy)
    pair = DATA / "generaltest2022" / "en-de"
    systems = sorted((pair / "sys").glob("*.txt"))
    refs = [pair / "ref.A.txt", pair / "ref.B.txt"]
    code, out, err = run_main([*refs, "-i", *systems])
    assert code == 0, err
    assert calls == [len(systems)] and len(systems) == 8
    ref_lines = [read_lines(r) for r in refs]
    for row, path in zip(json.loads(out), systems):
        expected = sacrebleu.metrics.BLEU().corpus_score(read_lines(path), ref_lines)
        assert row["score_unrounded"] == expected.score
        assert (row["counts"], row["totals"]) == (expected.counts, expected.totals)


BAD_FILES = {
    "invalid UTF-8": b"ok\nab\xffc\nend\n",
    "NUL": b"ok\nab\x00c\nend\n",
    "too long": b"ok\n" + b"x" * 300 + b"\nend\n",
    "shorter": b"ok\nend\n",
    "longer": b"ok\nmid\nend\nmore\n",
    "empty": b"",
    "truncated UTF-8": b"ok\nmid\nend \xe2\x82",
    "byte order mark": b"\xef\xbb\xbfok\nmid\nend\n",
}


@requires_core
@pytest.mark.parametrize("which", ["hypothesis", "reference"])
@pytest.mark.parametrize("bad", list(BAD_FILES))
def test_bad_files_give_the_same_errors(tmp_path, both_paths, which, bad):
    good = write(tmp_path / "good.txt", ["ok", "mid", "end"])
    broken = tmp_path / "bad.txt"
    broken.write_bytes(BAD_FILES[bad])
    hyp, ref = (broken, good) if which == "hypothesis" else (good, broken)
    core, python, counted = both_paths([hyp, "-r", ref, "--max-line-bytes", "100"])
    assert core == python
    assert not counted  # the core stopped (or, for the mark, left the file to the Python reader)
    if bad != "byte order mark":
        assert core[0] != 0 and "bad.txt" in core[2]


@requires_core
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(
    lines=st.lists(st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\n\x00"), max_size=6), max_size=40),
    size=st.integers(1, 7),
    max_chars=st.integers(1, 12),
    final_newline=st.booleans(),
)
def test_the_core_keeps_the_samples_of_the_chunk_loop(tmp_path, lines, size, max_chars, final_newline):
    # what the chunk loop's CJK check takes of each chunk (its first max_chars characters, lines joined by
    # "\n"), kept by the core's reader when it holds a character from U+1100 on: one without cannot warn
    path = tmp_path / "h.txt"
    data = "\n".join(lines) + ("\n" if final_newline and lines else "")
    path.write_bytes(data.encode("utf-8"))
    read = data.split("\n")
    if read and read[-1] == "":
        read.pop()
    ref = tmp_path / "r.txt"
    ref.write_bytes(b"r\n" * len(read))
    heads = ["\n".join(read[i : i + size])[:max_chars] for i in range(0, len(read), size)]
    counter = native_bleu.text_counter(get_tokenizer("none"), lowercase=False, order=4, threads=None)
    counted = counter.total_files(
        [str(path)], [str(ref)], max_line_bytes=1 << 20, sample_segments=size, sample_chars=max_chars
    )
    if not read:
        assert counted is not None and counted[1] == 0
        return
    assert counted is not None
    assert counted[3] == [[h for h in heads if h and max(h) >= "\u1100"]]
    assert not any(warn_if_mostly_cjk("13a", [h]) for h in heads if not h or max(h) < "\u1100")


@requires_core
def test_notes_about_the_references_on_both_paths(tmp_path, both_paths, monkeypatch):
    # a metric's input notes see the first chunk of the references on the core's path (read only when the
    # notes ask for them) as in the chunk loop
    from bleuscope import BLEU

    def notes(self, references, trg_lang=None):
        return [f"{len(references)} streams, {len(references[1])} lines, first {references[0][0]!r}, to {trg_lang}"]

    monkeypatch.setattr(BLEU, "input_notes", notes)
    monkeypatch.setattr(scoring, "CHUNK_SEGMENTS", 4)
    hyp = write(tmp_path / "hyp.txt", GOOD_HYPS)
    refs = [write(tmp_path / "ref.txt", GOOD_REFS), write(tmp_path / "ref2.txt", GOOD_HYPS)]
    core, python, counted = both_paths([hyp, "-r", *refs, "-l", "de-en"])
    assert core == python and counted
    assert "bleuscope: warning: 2 streams, 4 lines, first 'The cat sat on a mat .', to en\n" in core[2]
