"""Streamed corpus BLEU summed with the compiled core's total-only call, chunk by chunk.

Paths, generators and open files go through ``core.chunks.sum_statistics``; with the native engine each
chunk is summed by the compiled counter's ``total`` (``BLEU().counter.total``: no per-segment rows). These tests compare it with the
in-memory score, the numpy engine's rows and sacreBLEU on WMT data, and check that warnings and errors are
those of the row path.
"""

from __future__ import annotations

import gzip
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.core import native

from ..conftest import pair_dir, read_lines, requires_wmt

if not native.native_available():
    pytest.skip("the compiled core is not built in this installation", allow_module_level=True)

PAIR = ("generaltest2022", "en-de")


def _rows_forbidden(metric: BLEU) -> BLEU:
    """``metric`` whose per-segment row counter fails if called: the streamed sum must not need it."""

    def no_rows(*args, **kwargs):
        raise AssertionError("the streamed native path built per-segment rows")

    metric.counter.rows = no_rows
    return metric


def _gz_copy(src: Path, dst: Path) -> Path:
    with gzip.open(dst, "wb") as f:
        f.write(src.read_bytes())
    return dst


@requires_wmt
@pytest.mark.parametrize("tokenize", ["13a", "intl"])
@pytest.mark.parametrize("compressed", [False, True])
def test_streamed_paths_equal_in_memory_and_sacrebleu(tmp_path, tokenize, compressed):
    sacrebleu = pytest.importorskip("sacrebleu")
    base = pair_dir(*PAIR)
    hyp_path = base / "sys" / "Online-B.txt"
    ref_paths = [base / "ref.A.txt", base / "ref.B.txt"]
    if compressed:
        hyp_path = _gz_copy(hyp_path, tmp_path / "hyp.txt.gz")
        ref_paths = [_gz_copy(p, tmp_path / f"ref{k}.txt.gz") for k, p in enumerate(ref_paths)]
    hyps = read_lines(base / "sys" / "Online-B.txt")
    refs = [read_lines(base / "ref.A.txt"), read_lines(base / "ref.B.txt")]

    streamed_metric = _rows_forbidden(BLEU(tokenize=tokenize, engine="native"))
    streamed = streamed_metric.score_stream(hyp_path, ref_paths, chunk_size=300)  # 7 chunks, the last short
    in_memory_metric = BLEU(tokenize=tokenize, engine="native")
    in_memory = in_memory_metric.corpus_score(hyps, refs)
    rows = BLEU(tokenize=tokenize, engine="numpy").score_stream(hyp_path, ref_paths, chunk_size=300)
    ref = sacrebleu.BLEU(tokenize=tokenize).corpus_score(hyps, refs)

    for other in (in_memory, rows):
        assert (streamed.counts, streamed.totals, streamed.sys_len, streamed.ref_len) == (
            other.counts,
            other.totals,
            other.sys_len,
            other.ref_len,
        )
        assert streamed.score == other.score
    assert list(streamed.counts) == list(ref.counts) and list(streamed.totals) == list(ref.totals)
    assert (streamed.sys_len, streamed.ref_len) == (ref.sys_len, ref.ref_len)
    assert streamed.score == pytest.approx(ref.score, abs=1e-9)
    assert streamed.signature == in_memory.signature
    assert "nrefs:2" in streamed.signature


@requires_wmt
def test_corpus_score_on_paths_uses_the_total_only_call():
    base = pair_dir(*PAIR)
    metric = _rows_forbidden(BLEU())
    score = metric.corpus_score(base / "sys" / "Online-B.txt", [base / "ref.A.txt"])
    expected = BLEU().corpus_score(read_lines(base / "sys" / "Online-B.txt"), [read_lines(base / "ref.A.txt")])
    assert score.score == expected.score and score.counts == expected.counts


def _record(fn):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = fn()
            error = None
        except (TypeError, ValueError) as err:
            result, error = None, (type(err), str(err))
    return result, error, [(w.category, str(w.message)) for w in caught]


_text = st.text(alphabet="ab .,中文", max_size=12)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(st.tuples(_text, _text, st.one_of(st.none(), _text)), min_size=1, max_size=40),
    st.integers(1, 9),
    st.booleans(),
    st.booleans(),
)
@pytest.mark.filterwarnings("ignore::bleuscope.CJKTokenizationWarning")
def test_streamed_total_matches_rows_path_with_warnings_and_errors(segments, chunk_size, lowercase, force):
    hyps = [h for h, _, _ in segments]
    refs = [[r for _, r, _ in segments], [r for _, _, r in segments]]

    def run(engine):
        metric = BLEU(engine=engine, lowercase=lowercase, force=force)
        score = metric.score_stream(iter(hyps), [iter(s) for s in refs], chunk_size=chunk_size)
        return score.score, score.counts, score.totals, score.sys_len, score.ref_len, score.signature

    assert _record(lambda: run("native")) == _record(lambda: run("numpy"))
    in_memory = BLEU(lowercase=lowercase, force=force)
    native, _, _ = _record(lambda: run("native"))
    expected = in_memory.corpus_score(hyps, refs)
    assert native[:5] == (expected.score, expected.counts, expected.totals, expected.sys_len, expected.ref_len)
    assert native[5] == expected.signature


@pytest.mark.parametrize(
    "hyps, refs",
    [
        (["a b .", "c d ."] * 80, [["a b .", "c d ."] * 80]),  # tokenized-period warning (force=False)
        (["中文句子"] * 5, [["中文句子"] * 5]),  # CJK warning with 13a
        (["a", "b", "c"], [["a", "b"]]),  # the references end first
        (["a", "b"], [["a", None], [None, None]]),  # a segment with no reference
        (["a", 3], [["a", "b"]]),  # a non-string hypothesis
        ([], [[]]),  # empty input
    ],
)
def test_warnings_and_errors_are_those_of_the_rows_path(hyps, refs):
    def run(engine):
        metric = BLEU(engine=engine, force=False)
        score = metric.score_stream(iter(hyps), [iter(s) for s in refs], chunk_size=50)
        return score.score, score.signature

    native = _record(lambda: run("native"))
    assert native == _record(lambda: run("numpy"))
    assert native[1] is not None or native[2]  # each case warns or raises


def _lines_one_by_one(data: bytes, encoding: str, name: str):
    """Lines of ``data`` decoded whole and split on "\\n", or the start of the error :func:`read_lines` must
    give: the file and the number of the first line that does not decode."""
    try:
        text = data.decode(encoding)
    except UnicodeDecodeError as err:
        good = data[: err.start].decode(encoding, errors="ignore")
        return None, f"{name}:{good.count(chr(10)) + 1}: invalid "
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return lines, None


_bytes = st.lists(
    st.sampled_from([b"a", b" .", b"\n", b"\r", b"\xc3\xa9", b"\xe4\xb8\xad", b"\xe2\x80\xa8", b"\xc3", b"\x85"]),
    max_size=40,
).map(b"".join)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_bytes, st.sampled_from(["utf-8", "ascii", "latin-1", "utf-16-le"]), st.integers(1, 9))
def test_read_lines_in_blocks_equals_line_by_line(tmp_path, data, encoding, block):
    from bleuscope.core import files

    path = tmp_path / "lines.txt"
    path.write_bytes(data)
    expected_lines, expected_error = _lines_one_by_one(data, encoding, str(path))
    lines, error = None, None
    try:
        # small blocks: lines and characters across block boundaries
        lines = [x for b in files.iter_line_blocks(str(path), encoding, block_bytes=block) for x in b]
    except ValueError as err:
        error = str(err)
    assert lines == expected_lines
    assert (error is None) == (expected_error is None)
    if error is not None:
        assert error.startswith(expected_error)
