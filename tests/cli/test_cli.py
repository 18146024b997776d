"""The ``bleuscope`` command: parity with the ``sacrebleu`` command, formats, chunks, input notes, errors,
robustness.

End-to-end tests run the installed ``bleuscope`` and ``sacrebleu`` commands as subprocesses on the shared WMT
data and compare their outputs (equal apart from the signature's version field and the keys bleuscope adds).
Most other tests call :func:`bleuscope.cli.main` in-process with captured stdio (subprocesses are slow).
"""

from __future__ import annotations

import gzip
import io
import json
import os
import re
import shutil
import subprocess
import sys

import pytest
import sacrebleu
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

import bleuscope.cli.scoring as scoring
from bleuscope import TER, cli

from ..conftest import DATA, read_lines, requires_wmt, spy_on_validation

BLEUSCOPE = shutil.which("bleuscope")
SACREBLEU = shutil.which("sacrebleu")
needs_commands = pytest.mark.skipif(not (BLEUSCOPE and SACREBLEU), reason="bleuscope/sacrebleu not on PATH")

EN_DE = DATA / "generaltest2022" / "en-de"
EN_ZH = DATA / "generaltest2022" / "en-zh"
EN_KO = DATA / "wmt24pp" / "en-ko"
NT21 = DATA / "newstest2021" / "en-de"  # 1002 lines, references A, C, D: the smaller set keeps tests fast
REF_A, REF_B = str(EN_DE / "ref.A.txt"), str(EN_DE / "ref.B.txt")


def sys_file(name: str, pair=EN_DE) -> str:
    return str(pair / "sys" / f"{name}.txt")


def run_cmd(cmd: str, args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    proc = subprocess.run([cmd, *args], input=stdin if stdin is not None else b"", capture_output=True,
                          timeout=120)
    return proc.returncode, proc.stdout.decode("utf-8"), proc.stderr.decode("utf-8", "replace")


def unversioned(text: str) -> str:
    """Signatures with the version field blanked (bleuscope signs version:bleuscope-X)."""
    return re.sub(r"\b(version|v):[^|\s\"]+", r"\1:*", text)


class _Stdin:
    def __init__(self, data: bytes, tty: bool = False):
        self.buffer = io.BytesIO(data)
        self._tty = tty

    def isatty(self) -> bool:
        return self._tty


@pytest.fixture
def run_main(capsys, monkeypatch):
    """``main(argv)`` in-process: returns (exit code, stdout, stderr)."""

    def call(argv: list[str], stdin: bytes = b"", tty: bool = False):
        monkeypatch.setattr(sys, "stdin", _Stdin(stdin, tty))
        code = cli.main(argv)
        out, err = capsys.readouterr()
        return code, out, err

    return call


def assert_one_line_error(code: int, err: str, expected_code: int, *fragments: str) -> None:
    assert code == expected_code, err
    assert "Traceback" not in err
    lines = err.strip("\n").split("\n")
    assert len(lines) == 1 and lines[0].startswith("bleuscope: error: "), err
    for fragment in fragments:
        assert fragment in lines[0], (fragment, lines[0])


# =========================================================================================================
# parity with the sacrebleu command (subprocesses, real WMT data)
# =========================================================================================================
def assert_json_parity(ours: str, theirs: str) -> dict:
    """sacreBLEU's keys first and in its order, equal values apart from the version; returns our dict."""
    d_ours, d_theirs = json.loads(ours), json.loads(theirs)
    assert list(d_ours)[: len(d_theirs)] == list(d_theirs)
    for key, value in d_theirs.items():
        if key != "version":
            assert unversioned(str(d_ours[key])) == unversioned(str(value)), key
    assert d_ours["version"].startswith("bleuscope-")
    return d_ours


@requires_wmt
@needs_commands
def test_json_matches_sacrebleu_file_input():
    args = [REF_A, "-i", sys_file("Online-B")]
    c1, ours, _ = run_cmd(BLEUSCOPE, args)
    c2, theirs, _ = run_cmd(SACREBLEU, args)
    assert c1 == c2 == 0
    d_ours = assert_json_parity(ours, theirs)
    # the added statistics are sacreBLEU's too
    s = sacrebleu.metrics.BLEU().corpus_score(read_lines(EN_DE / "sys" / "Online-B.txt"),
                                              [read_lines(EN_DE / "ref.A.txt")])
    assert d_ours["score_unrounded"] == s.score
    assert (d_ours["counts"], d_ours["totals"], d_ours["bp"]) == (s.counts, s.totals, s.bp)
    assert (d_ours["sys_len"], d_ours["ref_len"]) == (s.sys_len, s.ref_len)


@requires_wmt
@needs_commands
@pytest.mark.parametrize("options", [
    ["-f", "text", "-w", "3"],
    ["-lc", "-tok", "intl", "-s", "floor", "-sv", "0.2", "-w", "4", "-f", "text"],
    pytest.param(["-s", "add-k", "-sh", "-f", "text", "-w", "2"], marks=pytest.mark.full),
    pytest.param(["-s", "none", "-tok", "char", "-b", "-w", "5"], marks=pytest.mark.full),
])
def test_stdin_two_references_match_sacrebleu(options):
    hyp = (NT21 / "sys" / "VolcTrans-GLAT.txt").read_bytes()
    refs = [str(NT21 / "ref.C.txt"), str(NT21 / "ref.D.txt")]
    c1, ours, _ = run_cmd(BLEUSCOPE, [*refs, *options], stdin=hyp)
    c2, theirs, _ = run_cmd(SACREBLEU, [*refs, *options], stdin=hyp)
    assert c1 == c2 == 0
    if "-f" in options or "-b" in options:
        assert unversioned(ours) == unversioned(theirs)
    else:
        assert_json_parity(ours, theirs)


@requires_wmt
@needs_commands
def test_language_pair_selects_tokenizer_like_sacrebleu(tmp_path):
    names = []
    for name, src in [("ref.A", EN_ZH / "ref.A.txt"), ("hyp", EN_ZH / "sys" / "Online-W.txt")]:
        (tmp_path / name).write_text("".join(x + "\n" for x in read_lines(src)[:500]), encoding="utf-8")
        names.append(str(tmp_path / name))
    args = [names[0], "-i", names[1], "-l", "en-zh", "-f", "text", "-w", "4"]
    c1, ours, _ = run_cmd(BLEUSCOPE, args)
    c2, theirs, _ = run_cmd(SACREBLEU, args)
    assert c1 == c2 == 0
    assert "tok:zh" in ours
    assert unversioned(ours) == unversioned(theirs)


@requires_wmt
@needs_commands
def test_several_systems_match_sacrebleu_json():
    systems = [sys_file(name, NT21) for name in ("Online-A", "UEdin", "WeChat-AI")]
    args = [str(NT21 / "ref.A.txt"), str(NT21 / "ref.C.txt"), "-i", *systems, "-w", "2"]
    c1, ours, _ = run_cmd(BLEUSCOPE, args)
    c2, theirs, _ = run_cmd(SACREBLEU, args)
    assert c1 == c2 == 0
    ours_j, theirs_j = json.loads(ours), json.loads(theirs)
    assert [(d["system"], d["BLEU"]) for d in ours_j] == [(d["system"], d["BLEU"]) for d in theirs_j]
    assert all(unversioned(d["signature"]) == "nrefs:2|case:mixed|eff:no|tok:13a|smooth:exp|version:*"
               for d in ours_j)


@requires_wmt
@needs_commands
@pytest.mark.full
def test_several_systems_match_sacrebleu_table():
    systems = [sys_file(name, NT21) for name in ("Online-A", "UEdin")]
    args = [str(NT21 / "ref.D.txt"), "-i", *systems, "-f", "text", "-w", "3"]
    c1, ours, _ = run_cmd(BLEUSCOPE, args)
    c2, theirs, _ = run_cmd(SACREBLEU, args)
    assert c1 == c2 == 0
    row = re.compile(r"^│\s*(\S+)\s*│\s*([0-9.]+)\s*│", re.M)
    assert row.findall(ours) == row.findall(theirs) and len(row.findall(ours)) == 2
    sig = re.compile(r"^ - BLEU\s+(\S+)$", re.M)
    assert [unversioned(s) for s in sig.findall(ours)] == [unversioned(s) for s in sig.findall(theirs)]


@requires_wmt
@needs_commands
@pytest.mark.parametrize("options", [[], ["-sh", "-w", "3", "-tok", "intl", "-lc"],
                                     pytest.param(["-b", "-w", "4"], marks=pytest.mark.full)])
def test_sentence_level_matches_sacrebleu(options):
    # -sl turns effective order on in both tools
    args = [str(NT21 / "ref.A.txt"), str(NT21 / "ref.D.txt"), "-i", sys_file("Online-W", NT21), "-sl", *options]
    c1, ours, _ = run_cmd(BLEUSCOPE, args)
    c2, theirs, _ = run_cmd(SACREBLEU, args)
    assert c1 == c2 == 0
    assert ours.count("\n") == 1002
    assert unversioned(ours) == unversioned(theirs)


@requires_wmt
@needs_commands
def test_tab_separated_references_and_gzip_match_sacrebleu(tmp_path):
    tsv = tmp_path / "refs.tsv"
    tsv.write_text("".join(f"{a}\t{b}\n" for a, b in zip(read_lines(NT21 / "ref.A.txt"),
                                                         read_lines(NT21 / "ref.C.txt"))), encoding="utf-8")
    hyp_gz = tmp_path / "hyp.txt.gz"
    hyp_gz.write_bytes(gzip.compress((NT21 / "sys" / "Facebook-AI.txt").read_bytes()))
    args = [str(tsv), "-nr", "2", "-i", str(hyp_gz), "-f", "text", "-w", "3"]
    c1, ours, _ = run_cmd(BLEUSCOPE, args)
    c2, theirs, _ = run_cmd(SACREBLEU, args)
    assert c1 == c2 == 0
    assert "nrefs:2" in ours and unversioned(ours) == unversioned(theirs)


@requires_wmt
@needs_commands
def test_group_separator_inside_a_segment_matches_sacrebleu():
    # ref.orig.txt line 17 contains U+001D: str.splitlines() would make 999 lines out of 998
    args = [str(EN_KO / "ref.postedit.txt"), "-i", str(EN_KO / "ref.orig.txt"), "-tok", "char", "-f", "text",
            "-w", "4"]
    c1, ours, _ = run_cmd(BLEUSCOPE, args)
    c2, theirs, _ = run_cmd(SACREBLEU, args)
    assert c1 == c2 == 0
    assert unversioned(ours) == unversioned(theirs)


# =========================================================================================================
# input forms and options (in-process), checked against sacreBLEU's API
# =========================================================================================================
@requires_wmt
def test_three_input_forms_agree(run_main):
    hyp = sys_file("Online-G")
    a = run_main([REF_A, REF_B, "-i", hyp, "-f", "text"])
    b = run_main([REF_A, REF_B, "-f", "text"], stdin=(EN_DE / "sys" / "Online-G.txt").read_bytes())
    c = run_main([hyp, "-r", REF_A, REF_B, "-f", "text"])
    d = run_main([REF_A, REF_B, "-i", "-", "-f", "text"], stdin=(EN_DE / "sys" / "Online-G.txt").read_bytes())
    assert a[0] == b[0] == c[0] == d[0] == 0
    assert a[1] == b[1] == c[1] == d[1] and a[1].startswith("BLEU|nrefs:2|")


@requires_wmt
def test_max_order_and_effective_order_match_sacrebleu_api(run_main):
    hyps = read_lines(NT21 / "sys" / "HuaweiTSC.txt")
    refs = [read_lines(NT21 / "ref.A.txt")]
    for options, kwargs in [(["--max-ngram-order", "2"], {"max_ngram_order": 2}),
                            (["--effective-order"], {"effective_order": True}),
                            (["-s", "add-k", "-sv", "3", "--max-ngram-order", "6"],
                             {"smooth_method": "add-k", "smooth_value": 3, "max_ngram_order": 6})]:
        code, out, _ = run_main([str(NT21 / "ref.A.txt"), "-i", sys_file("HuaweiTSC", NT21), "-f", "jsonl",
                                 *options])
        assert code == 0
        d = json.loads(out)
        s = sacrebleu.metrics.BLEU(**kwargs).corpus_score(hyps, refs)
        assert d["score_unrounded"] == s.score
        assert d["sys_len"] == s.sys_len and d["ref_len"] == s.ref_len
        order = kwargs.get("max_ngram_order", 4)
        assert ("order:" in d["signature"]) == (order != 4)


@requires_wmt
def test_sentence_jsonl_and_tsv_carry_statistics(run_main, tmp_path):
    hyps = read_lines(EN_DE / "sys" / "OpenNMT.txt")
    refs = [read_lines(EN_DE / "ref.A.txt"), read_lines(EN_DE / "ref.B.txt")]
    code, out, _ = run_main([REF_A, REF_B, "-i", sys_file("OpenNMT"), "-sl", "-f", "jsonl"])
    assert code == 0
    rows = [json.loads(line) for line in out.rstrip("\n").split("\n")]
    assert len(rows) == len(hyps) and [r["line"] for r in rows] == list(range(1, len(hyps) + 1))
    metric = sacrebleu.metrics.BLEU(effective_order=True)
    for i in list(range(0, len(hyps), 97)) + [len(hyps) - 1]:
        s = metric.sentence_score(hyps[i], [refs[0][i], refs[1][i]])
        r = rows[i]
        assert (r["score"], r["counts"], r["totals"], r["bp"], r["sys_len"], r["ref_len"]) == (
            s.score, s.counts, s.totals, s.bp, s.sys_len, s.ref_len)
        assert r["precisions"] == s.precisions
    assert "eff:yes" in rows[0]["signature"]

    code, out_tsv, _ = run_main([REF_A, REF_B, "-i", sys_file("OpenNMT"), "-sl", "-f", "tsv"])
    table = [line.split("\t") for line in out_tsv.rstrip("\n").split("\n")]
    assert table[0][:3] == ["line", "BLEU", "score"] and len(table) == len(hyps) + 1
    assert [float(t[2]) for t in table[1:]] == [r["score"] for r in rows]

    code, out_json, _ = run_main([REF_A, REF_B, "-i", sys_file("OpenNMT"), "-sl", "-f", "json"])
    assert json.loads(out_json) == rows


@requires_wmt
def test_corpus_tsv_jsonl_latex(run_main):
    ref = str(NT21 / "ref.C.txt")
    systems = [sys_file("Online-A", NT21), sys_file("Online-B", NT21)]
    code, out, _ = run_main([ref, "-i", *systems, "-f", "tsv", "-w", "2"])
    assert code == 0
    header, *rows = [line.split("\t") for line in out.rstrip("\n").split("\n")]
    assert header[:3] == ["system", "BLEU", "score"] and header[-1] == "signature"
    expected = [sacrebleu.metrics.BLEU().corpus_score(read_lines(NT21 / "sys" / f"{n}.txt"),
                                                      [read_lines(NT21 / "ref.C.txt")])
                for n in ("Online-A", "Online-B")]
    assert [(r[0], r[1], float(r[2])) for r in rows] == [(p, f"{s.score:.2f}", s.score)
                                                          for p, s in zip(systems, expected)]
    code, out, _ = run_main([ref, "-i", *systems, "-f", "jsonl"])
    objs = [json.loads(line) for line in out.rstrip("\n").split("\n")]
    assert [(o["system"], o["score_unrounded"]) for o in objs] == [(p, s.score) for p, s in zip(systems, expected)]
    code, out, _ = run_main([ref, "-i", *systems, "-f", "latex"])
    assert out.startswith("\\begin{tabular}") and "\\bottomrule" in out and "% BLEU signature: nrefs:1|" in out
    assert f"{expected[0].score:.1f}" in out and "Online-A.txt" in out


def test_example_runs_and_matches_sacrebleu_api(run_main):
    code, out, err = run_main(["--example"])
    assert code == 0 and "bundled example" in err
    paths = cli.example_paths()
    refs = [read_lines_str(p) for p in paths["refs"]]
    for name, path in zip(["Online-B", "OpenNMT"], paths["hyps"]):
        score = sacrebleu.corpus_bleu(read_lines_str(path), refs).score
        assert re.search(rf"│\s+{name} │ {score:.1f} │", out)
    code, out, err = run_main(["--example", "-f", "json", "-q"])
    assert code == 0 and err == "" and [d["system"] for d in json.loads(out)] == ["Online-B", "OpenNMT"]


def read_lines_str(path: str) -> list[str]:
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().split("\n")[:-1]


def test_jsonl_input_with_fields_and_variable_references(run_main, tmp_path):
    rows = [{"out": "The dog bit the man.", "refs": ["The dog bit the man.", "The dog had bit the man."]},
            {"out": "It wasn't surprising.", "refs": ["It was not unexpected."]},
            {"out": "The man had just bitten him.", "refs": ["The man bit him first.", "The man had bitten the dog."]}]
    path = tmp_path / "preds.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    code, out, err = run_main(["-i", str(path), "--hyp-field", "out", "--ref-field", "refs", "-f", "jsonl"])
    assert code == 0, err
    d = json.loads(out)
    refs = [[r["refs"][0] for r in rows], [r["refs"][1] if len(r["refs"]) > 1 else None for r in rows]]
    s = sacrebleu.metrics.BLEU().corpus_score([r["out"] for r in rows], refs)
    assert d["score_unrounded"] == s.score and d["nrefs"] == "var"
    # the same references from a separate JSON Lines file
    ref_path = tmp_path / "refs.jsonl"
    ref_path.write_text("".join(json.dumps({"refs": r["refs"]}) + "\n" for r in rows), encoding="utf-8")
    code, out2, err = run_main([str(ref_path), "-i", str(path), "--hyp-field", "out", "--ref-field", "refs",
                                "-f", "jsonl"])
    assert code == 0, err
    assert json.loads(out2)["score_unrounded"] == s.score


def test_output_file_is_written_and_kept_on_failure(run_main, tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("a b c d\ne f g h\n")
    hyp = tmp_path / "hyp.txt"
    hyp.write_text("a b c d\ne f g x\n")
    out_path = tmp_path / "score.json"
    code, out, _ = run_main([str(ref), "-i", str(hyp), "-o", str(out_path)])
    assert code == 0 and out == ""
    written = out_path.read_text()
    code, out, _ = run_main([str(ref), "-i", str(hyp)])
    assert written == out
    hyp.write_text("a b c d\n")  # now the counts differ: the earlier result must survive untouched
    code, _, err = run_main([str(ref), "-i", str(hyp), "-o", str(out_path)])
    assert code == 1 and out_path.read_text() == written
    assert sorted(os.listdir(tmp_path)) == ["hyp.txt", "ref.txt", "score.json"]


def test_warnings_and_quiet(run_main, tmp_path):
    ref = tmp_path / "ref.txt"
    ref.write_text("".join(f"line {i} ends here .\n" for i in range(120)))
    code, out, err = run_main([str(ref), "-i", str(ref), "-b"])
    assert code == 0 and out == "100.0\n"
    assert "lines end in ' .'" in err and "is both a hypothesis and a reference" in err
    assert all(line.startswith("bleuscope: warning: ") for line in err.strip().split("\n"))
    code, out, err = run_main([str(ref), "-i", str(ref), "-b", "-q"])
    assert (code, out, err) == (0, "100.0\n", "")
    code, out, err = run_main([str(ref), "-i", str(ref), "-b", "--force"])
    assert "' .'" not in err


def test_progress_bar_only_on_a_terminal():
    from bleuscope.cli.scoring import Progress

    class Tty(io.StringIO):
        def isatty(self):
            return True

    stream = Tty()
    bar = Progress(10, stream, enabled=True, min_interval=0)
    bar.update(5, "sys.txt")
    bar.update(5)
    bar.close()
    text = stream.getvalue()
    assert "50.0%" in text and "100.0%" in text and "5/10" in text and text.endswith("\r\x1b[K")
    quiet = Tty()
    Progress(10, quiet, enabled=False).update(10)
    assert quiet.getvalue() == ""
    # streamed input of unknown length: a count, shown only past the threshold
    unknown = Tty()
    bar = Progress(None, unknown, min_interval=0, min_segments=100)
    bar.update(60)
    assert unknown.getvalue() == ""
    bar.update(60)
    bar.close()
    assert "120 segments" in unknown.getvalue()


@pytest.mark.parametrize("n_systems", [1, 3])
@pytest.mark.parametrize("keep_segments", [True, False])
def test_chunked_scoring_gives_the_in_memory_statistics(tmp_path, n_systems, keep_segments):
    """Streaming the files in chunks of 60 segments: the same per-segment rows (or their sum) as one call."""
    from bleuscope import BLEU
    from bleuscope.cli import parse_args
    from bleuscope.cli.scoring import Progress, score_systems

    hyps = [f"w{i % 7} w{i % 5} w{i % 3} x" for i in range(250)]
    refs = [[f"w{i % 7} w{i % 5} y x" for i in range(250)]]
    systems = [hyps, [h.replace("x", "y") for h in hyps], list(reversed(hyps))][:n_systems]
    paths = []
    for k, lines in enumerate(systems):
        paths.append(tmp_path / f"h{k}")
        paths[-1].write_text("".join(x + "\n" for x in lines))
    (tmp_path / "r").write_text("".join(x + "\n" for x in refs[0]))
    args = parse_args([str(tmp_path / "r"), "-i", *map(str, paths)])
    stream = io.StringIO()
    bleu = BLEU()
    results = score_systems(bleu, args, keep_segments=keep_segments, chunk_segments=60,
                            progress=Progress(None, stream, min_interval=0))
    assert f"{250 * n_systems} segments" in stream.getvalue()
    for result, lines in zip(results, systems):
        expected = bleu.segment_statistics(lines, refs).stats
        if keep_segments:
            assert (result.stats == expected).all()
        else:
            assert (result.stats == expected.sum(axis=0)).all()
        assert result.score == bleu.corpus_score(lines, refs)


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


SYSTEM_LINES = ["The cat sat on the mat .", "Hello , world !", "a b c d", "Grüße aus Köln ."]
REFERENCE_LINES = ["The cat sat on a mat .", "Hello world!", "a b c d e", "Grüße aus Köln."]


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_references_checked_once_per_chunk(tmp_path, run_main, monkeypatch, metric):
    """Each chunk's references are checked once for all systems (``Metric.check_systems``) and the systems
    counted together (``Metric.counter.systems``): the same scores as each system scored alone."""
    monkeypatch.setattr(scoring, "CHUNK_SEGMENTS", 6)  # 2 chunks of 12 lines
    monkeypatch.setattr(scoring, "KEPT_ROWS_CHUNK_SEGMENTS", 6)  # (TER keeps the rows)
    monkeypatch.setattr(scoring, "count_files_in_core", lambda *args, **kwargs: None)  # the chunk loop
    systems = [_write(tmp_path / f"sys{k}.txt", (SYSTEM_LINES[k:] + SYSTEM_LINES[:k]) * 3) for k in range(3)]
    refs = [_write(tmp_path / "ref.txt", REFERENCE_LINES * 3), _write(tmp_path / "ref2.txt", SYSTEM_LINES[::-1] * 3)]
    alone = [run_main([system, "-r", *refs, "-m", metric, "-b"]) for system in systems]
    checked, presence = spy_on_validation(monkeypatch, "check_references"), spy_on_validation(monkeypatch, "reference_presence")
    code, out, err = run_main([*systems, "-r", *refs, "-m", metric, "-b"])
    assert code == 0 and not err
    assert (checked.call_count, presence.call_count) == (2, 2)  # once per chunk, not once per system
    assert [line.split()[-1] for line in out.splitlines() if line.strip()][-3:] == [
        a[1].split()[-1] for a in alone
    ]


# TER's note about a Chinese, Japanese or Korean target without --ter-asian-support (``Metric.input_notes``,
# which the report shows too) is an input warning on stderr on every path that reads the references: files
# streamed in chunks, standard input read into memory for several metrics, and shards (JSON Lines here;
# Parquet and Ray take the same step)
NOTE = TER().input_notes([["这是一个中文句子"]])[0]
LATIN = ["the cat sat on the mat", "a dog barks", "hello world"]
CHINESE = ["这是一个中文句子", "狗在叫", "你好世界"]


@pytest.mark.parametrize(
    ("refs", "options", "noted"),
    [
        (CHINESE, [], True),  # the references are Chinese
        (LATIN, ["-l", "en-zh"], True),  # the target language says so
        (LATIN, ["-l", "zh-en"], False),
        (LATIN, [], False),
        (CHINESE, ["--ter-asian-support"], False),
        (CHINESE, ["-q"], False),
    ],
)
def test_the_note_on_stderr(tmp_path, run_main, refs, options, noted):
    hyp, ref = _write(tmp_path / "hyp.txt", CHINESE), _write(tmp_path / "ref.txt", refs)
    code, out, err = run_main([hyp, "-r", ref, "-m", "ter", "-b", *options])
    assert code == 0 and out.strip()
    assert err.count(f"bleuscope: warning: {NOTE}\n") == (1 if noted else 0), err
    assert (NOTE in err) == noted


def test_only_for_ter(tmp_path, run_main):
    hyp, ref = _write(tmp_path / "hyp.txt", CHINESE), _write(tmp_path / "ref.txt", CHINESE)
    for metric in ("bleu", "chrf"):
        code, _, err = run_main([hyp, "-r", ref, "-m", metric, "-tok", "zh"] if metric == "bleu" else
                                [hyp, "-r", ref, "-m", metric])
        assert code == 0 and NOTE not in err


def test_several_metrics_on_standard_input(tmp_path, run_main):
    ref = _write(tmp_path / "ref.txt", CHINESE)
    code, _, err = run_main(["-r", ref, "-m", "ter", "chrf", "-b"], stdin="\n".join(CHINESE).encode() + b"\n")
    assert code == 0 and err.count(NOTE) == 1, err


@pytest.mark.parametrize(("refs", "options", "noted"), [(CHINESE, [], True), (LATIN, [], False), (LATIN, ["-l", "en-ja"], True)])
def test_shards(tmp_path, run_main, monkeypatch, refs, options, noted):
    for k in range(2):
        rows = [{"hyp": h, "ref": r} for h, r in zip(CHINESE, refs)]
        (tmp_path / f"part{k}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_main(["part*.jsonl", "--hyp-field", "hyp", "--ref-field", "ref", "-m", "ter", "-b", *options])
    assert code == 0 and out.strip()
    assert err.count(f"bleuscope: warning: {NOTE}\n") == (1 if noted else 0), err


def test_references_read_only_for_a_metric_with_notes():
    from argparse import Namespace

    from bleuscope import BLEU
    from bleuscope.cli.scoring import ReadWhenAsked, give_input_notes

    loads, notes = [], []

    def load():
        loads.append(1)
        return [CHINESE]

    args = Namespace(language_pair=None)
    give_input_notes(BLEU(), ReadWhenAsked(load), args, notes.append)
    assert loads == [] and notes == []
    give_input_notes(TER(), ReadWhenAsked(load), args, notes.append)
    assert loads == [1] and notes == [NOTE]


def test_help_and_version(run_main):
    code, out, _ = run_main(["--help"])
    assert code == 0
    for text in ("bleuscope REF [REF ...] -i HYP", "cat HYP | bleuscope REF", "bleuscope HYP [HYP ...] -r REF",
                 "--tokenize", "--sentence-level", "exit status"):
        assert text in out
    code, out, _ = run_main(["-V"])
    assert code == 0 and out.startswith("bleuscope ")


def test_significance_goes_through_the_command(run_main, tmp_path):
    """--paired-bs on two files: sacreBLEU's JSON shape, computed by bleuscope.analysis.significance."""
    from bleuscope import BLEU
    from bleuscope.analysis.significance import paired_bootstrap

    (tmp_path / "r").write_text("a b c d\nc d e f\ng h i j\n")
    (tmp_path / "h1").write_text("a b c d\nc\ng h i\n")
    (tmp_path / "h2").write_text("a\nc d e f\ng h i j\n")
    code, out, err = run_main([str(tmp_path / "r"), "-i", str(tmp_path / "h1"), str(tmp_path / "h2"), "--paired-bs",
                               "-pbsn", "50"])
    assert code == 0, err
    rows = json.loads(out)
    expected = paired_bootstrap({"h1": ["a b c d", "c", "g h i"], "h2": ["a", "c d e f", "g h i j"]},
                                [["a b c d", "c d e f", "g h i j"]], metric=BLEU(), n_samples=50)
    assert rows[1]["BLEU"]["p_value"] == expected["h2"].p_value
    code, out, _ = run_main([str(tmp_path / "r"), "-i", str(tmp_path / "h1"), "--paired-bs", "-sl"])
    assert code == 2
    code, out, _ = run_main([str(tmp_path / "r"), "-i", str(tmp_path / "h1")])
    assert code == 0 and out.startswith("{")


# =========================================================================================================
# errors: one line, the right exit code, no traceback
# =========================================================================================================
@pytest.fixture
def files(tmp_path):
    def make(name: str, content: bytes | str) -> str:
        path = tmp_path / name
        path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
        return str(path)

    return make


def test_error_line_counts(run_main, files):
    ref = files("ref.txt", "a\nb\nc\n")
    hyp = files("hyp.txt", "a\nb\n")
    code, _, err = run_main([ref, "-i", hyp])
    assert_one_line_error(code, err, 1, "line counts differ", f"hypothesis {hyp} has 2 lines",
                          f"reference {ref} has 3", f"{ref}:3 has no counterpart")
    hyp = files("hyp2.txt", "a\nb\nc\n\n")
    code, _, err = run_main([ref, "-i", hyp])
    assert_one_line_error(code, err, 1, "has 4 lines", "the 1 extra line(s) at the end of", "are empty")
    code, _, err = run_main([ref, files("ref2.txt", "x\n"), "-i", hyp])
    assert_one_line_error(code, err, 1, "reference", "ref2.txt has 1 lines")


def test_error_reference_passed_as_hypothesis(run_main, files):
    ref = files("ref.de", "a\nb\nc\n")
    hyp = files("sys.de", "a\nb\nc\n")
    other_ref = files("ref.other.de", "x\ny\n")
    code, _, err = run_main([ref, "-i", hyp, other_ref])
    assert_one_line_error(code, err, 1, f"{other_ref} has 2 lines", f"is {other_ref} a reference file?",
                          "read as a hypothesis (system 2 of 2)", "references go before -i")
    stray = files("newstest.de", "x\ny\n")  # no "ref" in the name, but the only system whose count differs
    code, _, err = run_main([ref, "-i", hyp, stray])
    assert_one_line_error(code, err, 1, f"is {stray} a reference file?")
    code, _, err = run_main([ref, "-i", stray])  # a short system output: no guess about references
    assert_one_line_error(code, err, 1, "line counts differ")
    assert "reference file?" not in err
    code, _, err = run_main(["-i", hyp, ref])
    assert_one_line_error(code, err, 2, "no reference files", "put the references before -i")


def test_error_invalid_utf8_and_encoding_override(run_main, files):
    ref = files("ref.txt", "héllo\nwörld\n".encode("latin-1"))
    hyp = files("hyp.txt", "hello\nworld\n")
    code, _, err = run_main([ref, "-i", hyp])
    assert_one_line_error(code, err, 1, f"{ref}:1: invalid UTF-8", "byte offset 1", "column 2", "--encoding")
    code, out, err = run_main([ref, "-i", hyp, "--encoding", "latin-1", "-b", "-tok", "char"])
    assert code == 0 and float(out) > 0


def test_error_missing_unreadable_empty(run_main, files, tmp_path, monkeypatch):
    ref = files("ref.txt", "a\n")
    code, _, err = run_main([ref, "-i", str(tmp_path / "nope.txt")])
    assert_one_line_error(code, err, 1, "nope.txt: no such file")
    code, _, err = run_main([str(tmp_path / "gone.txt"), "-i", ref])
    assert_one_line_error(code, err, 1, "gone.txt: no such file")
    code, _, err = run_main([ref, "-i", str(tmp_path)])
    assert_one_line_error(code, err, 1, "is a directory")
    code, _, err = run_main([ref, "-i", files("empty.txt", b"")])
    assert_one_line_error(code, err, 1, "empty.txt: empty input")
    code, _, err = run_main([ref], stdin=b"")
    assert_one_line_error(code, err, 1, "<stdin>: empty input")
    code, _, err = run_main([files("empty_ref.txt", b""), "-i", ref])
    assert_one_line_error(code, err, 1, "empty_ref.txt: empty input, no reference lines")
    code, _, err = run_main(["-r", ref, ref], stdin=b"")
    assert_one_line_error(code, err, 1, "put hypothesis files before -r")
    code, _, err = run_main([ref, "-i", files("bad.gz", b"not gzip")])
    assert_one_line_error(code, err, 1, "bad.gz: not a valid gz file")
    code, _, err = run_main([ref], tty=True)
    assert_one_line_error(code, err, 2, "no hypotheses", "pipe the hypotheses into stdin")
    real_open = open

    def deny(path, *args, **kwargs):
        if str(path).endswith("locked.txt"):
            raise PermissionError(13, "Permission denied")
        return real_open(path, *args, **kwargs)

    locked = files("locked.txt", "a\n")
    monkeypatch.setattr("builtins.open", deny)
    code, _, err = run_main([ref, "-i", locked])
    assert_one_line_error(code, err, 1, "locked.txt: permission denied")


def test_error_data_formats(run_main, files):
    tsv = files("refs.tsv", "a\tb\nc\n")
    hyp = files("hyp.txt", "a\nc\n")
    code, _, err = run_main([tsv, "-nr", "2", "-i", hyp])
    assert_one_line_error(code, err, 1, "refs.tsv:2: expected 2 tab-separated references")
    data = files("d.jsonl", '{"h": "a", "r": "a"}\n{"h": "b"}\n')
    code, _, err = run_main(["-i", data, "--hyp-field", "h", "--ref-field", "r"])
    assert_one_line_error(code, err, 1, "d.jsonl:2: no field 'r'")
    data = files("e.jsonl", '{"h": "a", "r": []}\n')
    code, _, err = run_main(["-i", data, "--hyp-field", "h", "--ref-field", "r"])
    assert_one_line_error(code, err, 1, "e.jsonl:1: this segment has no reference")
    code, _, err = run_main([files("r.txt", "a\n"), "-i", data])
    assert_one_line_error(code, err, 2, "looks like JSON Lines", "--hyp-field")
    code, _, err = run_main([files("r.txt", "a\n"), "-o", str(files("x", "") + "/missing/out.json"), "-i", hyp])
    assert code in (1, 2) and "Traceback" not in err


@pytest.mark.parametrize("argv, fragments", [
    (["REF", "-i", "HYP", "-tok", "nonsense"], ["unknown tokenizer 'nonsense'", "13a"]),
    (["REF", "-i", "HYP", "-sv", "0.5"], ["-sv/--smooth-value is not used by -s exp"]),
    (["REF", "-i", "HYP", "-s", "none", "-sv", "0.5"], ["not used by -s none"]),
    (["REF", "REF", "-nr", "2", "-i", "HYP"], ["-nr 2 reads 2 tab-separated references from ONE reference file"]),
    (["REF", "-i", "HYP", "HYP2", "-sl"], ["-sl scores one system"]),
    (["REF", "-i", "HYP", "-sl", "-f", "latex"], ["latex is for corpus scores"]),
    (["REF", "-i", "HYP", "-r", "REF"], ["not both"]),
    (["--example", "REF"], ["--example uses the bundled files"]),
    (["REF", "-i", "HYP", "-b", "-f", "tsv"], ["does not go with -f tsv"]),
    (["REF", "-i", "HYP", "--frobnicate"], ["unrecognized arguments: --frobnicate"]),
    (["REF", "-i", "HYP", "-w", "-1"], ["-w/--width", "expected a whole number from 0 to 100"]),
    (["REF", "-i", "HYP", "-sv", "nan", "-s", "floor"], ["-sv/--smooth-value"]),
    (["REF", "-i", "HYP", "-s", "magic"], ["invalid choice: 'magic'"]),
    (["REF", "-i", "HYP", "--max-ngram-order", "0"], ["expected a whole number from 1 to 65,536"]),
    (["REF", "-i", "HYP", "-nr", "0"], ["expected a whole number >= 1"]),
    (["REF", "-i", "HYP", "--encoding", "klingon"], ["unknown encoding 'klingon'"]),
    (["REF", "-i", "HYP", "-l", "english"], ["-l/--language-pair must look like en-de"]),
    (["REF", "-i", "HYP", "-o", "REF"], ["would overwrite an input file"]),
    (["REF", "-i", "HYP", "HYP"], ["given twice"]),
    (["REF", "-i", "HYP", "-nr", "2", "--ref-field", "x"], ["do not go together"]),
    (["-i", "HYP", "--ref-field", "x"], ["needs --hyp-field"]),
    (["REF", "-i", "HYP", "-m", "bertscore"], ["invalid choice: 'bertscore'"]),
    (["REF", "-i", "HYP", "-tok", "13a", "--spm-model", "REF"], ["--spm-model is only used by"]),
])
def test_usage_errors(run_main, files, argv, fragments):
    names = {"REF": files("ref.txt", "a b\n"), "HYP": files("hyp.txt", "a b\n"), "HYP2": files("hyp2.txt", "a\n")}
    code, out, err = run_main([names.get(a, a) for a in argv])
    assert out == ""
    assert_one_line_error(code, err, 2, *fragments)


# =========================================================================================================
# robustness: random bytes never produce a traceback
# =========================================================================================================
FILE_NAMES = st.sampled_from(["f.txt", "f.txt", "f.txt", "f.gz", "f.jsonl", "f.bz2", "f.tsv"])
_LINE = st.text(alphabet=st.characters(blacklist_characters="\n\x00", blacklist_categories=["Cs"]), max_size=12)
CONTENTS = st.one_of(
    st.binary(max_size=60),  # mostly invalid UTF-8
    st.lists(_LINE, min_size=1, max_size=3).map(lambda lines: "".join(x + "\n" for x in lines).encode()),
    st.lists(_LINE, min_size=1, max_size=3).map(  # JSON Lines with the fields the options name
        lambda lines: "".join(json.dumps({"h": x, "r": [x[::-1], x]}) + "\n" for x in lines).encode()),
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(hyp=CONTENTS, ref=CONTENTS, hyp_name=FILE_NAMES, ref_name=FILE_NAMES,
       extra=st.sampled_from([[], ["-sl"], ["-nr", "2"], ["--hyp-field", "h"], ["--hyp-field", "h", "--ref-field", "r"],
                              ["-f", "text"], ["-tok", "char", "-lc"], ["-sl", "-f", "jsonl"]]))
def test_random_bytes_never_traceback_in_process(tmp_path_factory, capsys, monkeypatch, hyp, ref, hyp_name, ref_name,
                                                 extra):
    base = tmp_path_factory.mktemp("rnd")
    (base / "h").mkdir()
    (base / "r").mkdir()
    h, r = base / "h" / hyp_name, base / "r" / ref_name
    h.write_bytes(hyp)
    r.write_bytes(ref)
    monkeypatch.setattr(sys, "stdin", _Stdin(b""))
    code = cli.main([str(r), "-i", str(h), *extra])  # a bug would raise here and fail the test
    out, err = capsys.readouterr()
    event(f"exit code {code}")
    assert code in (0, 1, 2)
    assert "Traceback" not in err
    if code:
        assert out == "" and err.count("bleuscope: error: ") == 1


@needs_commands
@settings(max_examples=3, deadline=None)
@given(hyp=st.binary(min_size=1, max_size=40), ref=st.binary(min_size=1, max_size=40))
def test_random_bytes_never_traceback_subprocess(tmp_path_factory, hyp, ref):
    base = tmp_path_factory.mktemp("rnd")
    h, r = base / "hyp.txt", base / "ref.txt"
    h.write_bytes(hyp)
    r.write_bytes(ref)
    code, out, err = run_cmd(BLEUSCOPE, [str(r), "-i", str(h)], stdin=hyp)
    assert code in (0, 1) and "Traceback" not in err
    if code == 0:
        assert json.loads(out)["name"] == "BLEU"
    else:
        assert err.startswith("bleuscope: error: ") and err.count("\n") == 1


@needs_commands
def test_usage_error_subprocess_exit_code(tmp_path):
    code, out, err = run_cmd(BLEUSCOPE, ["-tok", "nope", str(tmp_path)])
    assert code == 2 and out == "" and err.startswith("bleuscope: error: unknown tokenizer 'nope'")
    assert "Traceback" not in err and err.count("\n") == 1


def test_closed_stdin(run_main, files, monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", None)
    code = cli.main([files("ref.txt", "a\n")])
    assert_one_line_error(code, capsys.readouterr().err, 1, "standard input is closed")


@pytest.mark.parametrize("method", ["floor", "add-k", "chen-cherry-5", "chen-cherry-7"])
def test_sentence_statistics_for_every_smoothing_layout(run_main, files, method):
    """Methods counting (N+1)-grams keep the printed counts/totals to orders 1..N, as the API's scores do."""
    from bleuscope import BLEU
    from bleuscope.metrics.bleu.scoring import SMOOTH_DEFAULTS

    if method not in SMOOTH_DEFAULTS:
        pytest.skip(f"{method} not available")
    hyps = ["the cat sat on the mat today", "a b c d e", "x"]
    refs = ["the cat sat on a mat today", "a b c d f g", "x y"]
    code, out, err = run_main([files("ref.txt", "".join(r + "\n" for r in refs)), "-i",
                               files("hyp.txt", "".join(h + "\n" for h in hyps)), "-sl", "-f", "jsonl", "-s", method])
    assert code == 0, err
    rows = [json.loads(line) for line in out.rstrip("\n").split("\n")]
    api = BLEU(smooth_method=method, effective_order=True).sentence_scores(hyps, [refs])
    for row, expected in zip(rows, api):
        assert (row["score"], row["counts"], row["totals"]) == (expected.score, expected.counts, expected.totals)
        assert len(row["counts"]) == 4
    if method in ("floor", "add-k"):  # sacreBLEU's own smoothing methods: its sentence scores too
        metric = sacrebleu.metrics.BLEU(smooth_method=method, effective_order=True)
        assert [r["score"] for r in rows] == [metric.sentence_score(h, [r]).score for h, r in zip(hyps, refs)]


def test_stdin_splits_on_newline_only(run_main, files):
    """A carriage return or U+2028 inside a piped segment stays in it (sacreBLEU's stdin splits on "\\r" too)."""
    ref = files("ref.txt", "a b\rc d\nx\u2028y z\n")
    code, out, err = run_main([ref, "-b", "-tok", "none"], stdin="a b\rc d\nx\u2028y z\n".encode())
    assert (code, out) == (0, "100.0\n"), err


def test_missing_sentencepiece_model_is_one_line(run_main, files, tmp_path):
    ref = files("ref.txt", "a b\n")
    code, _, err = run_main([ref, "-i", ref, "-tok", "flores101", "--spm-model", str(tmp_path / "none.model"), "-q"])
    assert_one_line_error(code, err, 1, "tokenizer 'flores101' is not usable", "--spm-model")


def _pairs_with_systems():
    if not DATA.exists():
        return []
    return sorted((p.parent.name, p.name) for p in DATA.glob("*/*") if (p / "sys").is_dir())


@requires_wmt
@needs_commands
@pytest.mark.full
@pytest.mark.parametrize("testset, pair", _pairs_with_systems())
def test_every_pair_all_systems_match_sacrebleu(testset, pair):
    """Every WMT pair: all systems against all references, tokenizer chosen by -l, as the sacrebleu command."""
    base = DATA / testset / pair
    refs = sorted(str(p) for p in base.glob("ref.*.txt"))
    systems = sorted(str(p) for p in (base / "sys").glob("*.txt"))
    args = [*refs, "-i", *systems, "-l", pair, "-w", "4"]
    c2, theirs, err2 = run_cmd(SACREBLEU, args)
    if c2 != 0:
        pytest.skip(f"sacrebleu failed (a missing tokenizer extra?): {err2.strip()[-200:]}")
    c1, ours, err1 = run_cmd(BLEUSCOPE, args)
    assert c1 == 0, err1
    assert [(d["system"], d["BLEU"]) for d in json.loads(ours)] == [
        (d["system"], d["BLEU"]) for d in json.loads(theirs)]


@requires_wmt
@needs_commands
@pytest.mark.full
@pytest.mark.parametrize("testset, pair", _pairs_with_systems())
def test_every_pair_sentence_level_matches_sacrebleu(testset, pair):
    base = DATA / testset / pair
    refs = sorted(str(p) for p in base.glob("ref.*.txt"))
    system = sorted(str(p) for p in (base / "sys").glob("*.txt"))[-1]
    args = [*refs, "-i", system, "-l", pair, "-sl", "-w", "4"]
    c2, theirs, err2 = run_cmd(SACREBLEU, args)
    if c2 != 0:
        pytest.skip(f"sacrebleu failed (a missing tokenizer extra?): {err2.strip()[-200:]}")
    c1, ours, err1 = run_cmd(BLEUSCOPE, args)
    assert c1 == 0, err1
    assert unversioned(ours) == unversioned(theirs)
