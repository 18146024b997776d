"""The package's structure: a light top-level import, no former module paths, the statistics layout, the
counting seam and the additive-metric interface that the layers above BLEU use."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import bleuscope
from bleuscope import BLEU
from bleuscope.core import native
from bleuscope.metrics.base import Metric
from bleuscope.metrics.bleu import counting as bleu_counting
from bleuscope.metrics.bleu.encoding import EncodedLines
from bleuscope.metrics.bleu.layout import layout, order_of_width

from .import_contracts import SHORT_NAMES, imported_modules

sacrebleu = pytest.importorskip("sacrebleu")


def test_import_bleuscope_loads_no_numpy_and_no_metric():
    code = (
        "import sys, bleuscope; print(sorted(m for m in ('numpy', 'regex', 'bleuscope.metrics') if m in sys.modules))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
    assert set(bleuscope.__all__) <= set(dir(bleuscope))
    for name in bleuscope.__all__:
        assert getattr(bleuscope, name) is not None


#: module paths of earlier layouts, deleted (the package is 0.x and unreleased); nothing may import them
FORMER_PATHS = (
    "bleu", "compat", "encoding", "engine", "io", "nltk", "pairwise", "parallel", "rouge_score", "scoring",
    "signature", "significance", "smoothing", "streaming", "token_ids", "validation", "core.backend",
    "core.encoding", "core.pipeline", "core.reference",
)
ROOT = Path(__file__).resolve().parents[1]


def _imported_modules(path: Path, package: str | None = None):
    if package is None:
        top = ROOT / "src" if path.is_relative_to(ROOT / "src") else ROOT
        package = ".".join(path.relative_to(top).parent.parts)
    return imported_modules(path, package)


def test_no_former_paths_are_imported_anywhere():
    # bleuscope.nltk and bleuscope.rouge_score stay importable: the drop-ins' documented import paths
    # (bleuscope._drop_ins serves them; no module files of those names)
    former = {f"bleuscope.{name}" for name in FORMER_PATHS if name not in SHORT_NAMES}
    files = [p for d in ("src", "tests", "benchmarks") for p in (ROOT / d).rglob("*.py") if p != Path(__file__)]
    assert len(files) > 50
    found = [
        f"{p.relative_to(ROOT)}:{line}: {module}"
        for p in files
        for line, module in _imported_modules(p)
        if any(module == f or module.startswith(f + ".") for f in former)
    ]
    assert found == []
    for name in FORMER_PATHS:
        if name in SHORT_NAMES:
            continue
        path = ROOT / "src" / "bleuscope" / name.replace(".", "/")
        assert not path.with_suffix(".py").exists() and not path.exists()


def test_the_scan_finds_a_former_path(tmp_path):
    probe = tmp_path / "probe.py"
    probe.write_text(
        "from .. import io as bio\nfrom ..significance import all_pairs\nimport bleuscope.nltk\n"
        "FILTER = 'ignore::bleuscope.streaming.Warning'\nTEXT = 'see bleuscope.nltk.corpus_bleu'\n"
    )
    modules = {m for _, m in _imported_modules(probe, "bleuscope.cli")}
    assert {"bleuscope.io", "bleuscope.significance", "bleuscope.nltk", "bleuscope.streaming.Warning"} <= modules
    assert "bleuscope.nltk.corpus_bleu" not in modules  # text naming a documented short name


def test_documented_short_names_of_the_drop_ins():
    """``bleuscope.nltk`` and ``bleuscope.rouge_score`` (attribute access) are the integrations' modules."""
    from bleuscope.integrations import nltk, rouge_score

    assert bleuscope.nltk is nltk and bleuscope.rouge_score is rouge_score
    with pytest.raises(AttributeError):
        bleuscope.significance  # noqa: B018 - a former path: gone
    code = (
        "import importlib, pickle, bleuscope.integrations.nltk as real\n"
        "from bleuscope.nltk import corpus_bleu\nfrom bleuscope.rouge_score import rouge_scorer\n"
        "import bleuscope.integrations.rouge_score as rs\n"
        "assert real.corpus_bleu is corpus_bleu and rs.rouge_scorer is rouge_scorer\n"
        "assert (real.__spec__.name, rs.__spec__.name) == (real.__name__, rs.__name__), real.__spec__\n"
        "importlib.reload(real)\nassert pickle.loads(pickle.dumps(real.corpus_bleu)) is real.corpus_bleu\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)  # a fresh interpreter: nothing imported before


def test_layout_names_the_columns():
    cols = layout(4)
    row = np.arange(cols.width)
    assert cols.width == 10 and order_of_width(10) == 4
    assert row[cols.hyp_len] == 0 and row[cols.ref_len] == 1
    assert row[cols.correct].tolist() == [2, 3, 4, 5] and row[cols.total].tolist() == [6, 7, 8, 9]
    assert row[cols.correct_upto(3)].tolist() == [2, 3, 4] and row[cols.total_upto(3)].tolist() == [6, 7, 8]
    with pytest.raises(ValueError, match="columns"):
        cols.check(np.zeros((2, 8)))
    with pytest.raises(ValueError):
        order_of_width(7)


HYPS = ["The cat sat on the mat.", "", "a b a b a", "Zwei Hunde bellen laut!", "x"]
REFS = [["The cat is on the mat.", "c", "a b a", "Zwei Hunde bellen.", None], ["the cat", "", None, "Hunde", "x"]]


@pytest.mark.parametrize("engine", ["numpy", "auto"])
def test_count_text_rows_equal_sacrebleu_statistics(engine):
    from bleuscope.tokenizers import get_tokenizer

    rows = bleu_counting.count_text(HYPS, REFS, tokenizer=get_tokenizer("13a"), lowercase=False, order=4, engine=engine)
    sb = sacrebleu.BLEU()
    for i, hyp in enumerate(HYPS):
        refs = [r[i] for r in REFS if r[i] is not None]
        assert rows[i].tolist() == sb._extract_corpus_statistics([hyp], [[r] for r in refs])[0]


@pytest.mark.parametrize("engine", ["numpy", "auto"])
def test_count_ids_equals_count_text_on_the_same_tokens(engine):
    from bleuscope.tokenizers import get_tokenizer

    hyps = ["5 6 7 5 6", "", "9"]
    refs = [["5 6 7", "1", None], ["6 7 5 6", "", "9 9"]]
    text = bleu_counting.count_text(hyps, refs, tokenizer=get_tokenizer("none"), lowercase=False, order=3, engine="numpy")

    def stream(lines):
        toks = [[int(t) for t in (line or "").split()] for line in lines]
        ids = np.array([t for line in toks for t in line], dtype=np.uint64) + np.uint64(2**63)  # beyond int64
        return EncodedLines(ids=ids, lengths=np.array([len(t) for t in toks], dtype=np.int64))

    present = np.array([[r[i] is not None for r in refs] for i in range(len(hyps))])
    ids = bleu_counting.count_ids(stream(hyps), [stream(r) for r in refs], order=3, present=present, engine=engine)
    assert np.array_equal(ids, text)


def test_engine_option_is_checked():
    with pytest.raises(ValueError, match="engine must be one of"):
        BLEU(engine="fast")
    with pytest.raises(TypeError, match="threads"):
        BLEU(threads="2")
    with pytest.raises(ValueError, match="threads"):
        BLEU(threads=0)
    assert native.ENGINES == ("auto", "native", "numpy")
    if not native.native_available():
        with pytest.raises(native.NativeEngineUnavailableError):
            BLEU(engine="native")


def test_bleu_is_an_additive_metric_and_scores_float32_sums_like_significance():
    bleu = BLEU()
    assert isinstance(bleu, Metric)
    assert bleu.name == "BLEU" and bleu.higher_is_better and bleu.stats_width == 10
    seg = bleu.segment_statistics(HYPS, REFS)
    total = seg.stats.sum(axis=0)
    assert bleu.score_rows(total[None, :])[0] == bleu.score_from_statistics(seg.stats).score
    assert bleu.sacrebleu.score_rows(total[None, :].astype(np.float32))[0] == pytest.approx(
        bleu.score_rows(total[None, :])[0], rel=1e-6
    )


def test_generic_accumulator_with_a_metric_where_lower_is_better():
    """The accumulator and all_pairs only use the Metric contract (a toy error-rate metric here)."""
    from bleuscope.analysis.significance import all_pairs
    from bleuscope.runtime.streaming import Accumulator

    class LengthErrorRate(Metric):
        name = "LER"
        higher_is_better = False
        stats_width = 2

        def count_checked(self, hyps, streams, present=None):
            stats = np.array([[abs(len(h) - len(r[0])), len(r[0])] for h, *r in zip(hyps, *streams)])
            return stats.astype(np.int64).reshape(-1, 2)

        def score_rows(self, rows, *, float32=False):
            rows = np.atleast_2d(rows).astype(np.float64)
            return 100 * rows[:, 0] / np.maximum(rows[:, 1], 1)

        def score_from_statistics(self, stats, nrefs=None):
            stats = np.asarray(stats)
            return float(self.score_rows(stats.sum(axis=0) if stats.ndim == 2 else stats)[0])

        def signature_fields(self, nrefs=None):
            return {"nrefs": str(nrefs), "version": "test"}

    metric = LengthErrorRate()
    refs = [["abcd", "ab", "abcdef"]]
    acc = Accumulator(metric)
    acc.add_statistics(metric.segment_statistics(["abc", "ab", "abcdefgh"], refs))
    assert acc.compute() == pytest.approx(100 * 3 / 12)
    close = ["abcd", "ab", "abcdeg"]
    far = ["a", "abcdefgh", "a"]
    result = all_pairs({"far": far, "close": close}, refs, metric=metric, n_samples=50)
    assert result.order[0] == result.systems.index("close")  # the lower error rate ranks first


def test_one_segment_statistics_type_for_every_metric():
    from bleuscope.metrics import base
    from bleuscope.metrics.chrf import CHRF
    from bleuscope.runtime.streaming import Accumulator

    assert base.SegmentStatistics is bleuscope.SegmentStatistics
    chrf = CHRF()
    acc = Accumulator(chrf)
    acc.add_statistics(chrf.segment_statistics(["a cat sat"], [["a cat sat"]]))  # no nrefs needed: same type
    assert acc.compute().score == sacrebleu.corpus_chrf(["a cat sat"], [["a cat sat"]]).score


def test_one_scorer_streams_from_several_threads():
    """The scorer's tokenization cache is per thread: concurrent streamed scores stay exact."""
    import threading

    bleu = BLEU(engine="numpy")
    hyps = [f"w{i} x{i % 7} y{i % 3}" for i in range(2000)]
    refs = [[f"w{i} x{i % 5} y{i % 3}" for i in range(2000)]]
    expected = sacrebleu.corpus_bleu(hyps, refs).score
    scores = []

    def run():
        for _ in range(3):
            scores.append(bleu.corpus_score(iter(hyps), [iter(refs[0])]).score)

    threads = [threading.Thread(target=run) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert scores == [expected] * 12


#: the metric classes code above the metrics must not ask for by name
METRIC_CLASSES = {"BLEU", "CHRF", "TER", "ROUGE", "METEOR", "TokenBLEU"}


def _metric_probes(path: Path) -> list[str]:
    """``isinstance``/``issubclass`` against a metric class, and ``hasattr``/``getattr`` of a member of the
    Metric contract or of a built-in metric (a probe for what a metric is or offers)."""
    import ast

    from bleuscope import CHRF, METEOR, ROUGE, TER

    members = {n for cls in (Metric, BLEU, CHRF, TER, ROUGE, METEOR) for n in dir(cls) if not n.startswith("__")}
    members |= {n for m in (BLEU(), CHRF(), TER()) for n in vars(m)}
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) >= 2):
            continue
        arg = node.args[1]
        if node.func.id in ("isinstance", "issubclass"):
            named = {n.id for n in ast.walk(arg) if isinstance(n, ast.Name)} | {
                n.attr for n in ast.walk(arg) if isinstance(n, ast.Attribute)}
            if named & METRIC_CLASSES:
                out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.id} on {sorted(named & METRIC_CLASSES)}")
        elif node.func.id in ("hasattr", "getattr") and isinstance(arg, ast.Constant) and arg.value in members:
            out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.func.id}(..., {arg.value!r})")
    return out


def test_no_probes_on_metrics_above_the_metrics():
    """analysis, runtime, cli and report use a metric through the Metric contract only (check_metric, the
    members with their defaults): never which class it is, never whether it has a member."""
    rooms = [ROOT / "src" / "bleuscope" / room for room in ("analysis", "runtime", "cli", "report")]
    files = [p for room in rooms for p in room.rglob("*.py")]
    assert len(files) > 20
    assert [probe for p in files for probe in _metric_probes(p)] == []
