"""One thread policy: ``threads=`` on every metric reaches the compiled core on every path, also when it is
set after construction (as ``bleuscope.runtime.ray.fit_threads`` does in a Ray worker); pool workers count
with one thread each."""

from __future__ import annotations

import numpy as np
import pytest

from bleuscope import BLEU, CHRF, TER
from bleuscope.core import native
from bleuscope.core.native import bleu as native_bleu
from bleuscope.core.native import chrf_ter as native_chrf_ter

pytestmark = pytest.mark.skipif(not native.native_available(), reason="the compiled core is not built")

HYPS = ["the cat sat on the mat .", "a dog ran", "it is here"]
REFS = [["the cat sat on a mat .", "a dog runs", "it is there"]]


@pytest.fixture
def seen_threads(monkeypatch):
    """The thread counts the compiled core is asked for, whatever its entry point."""
    seen: list = []
    real = native.core_threads

    def spy(threads):
        out = real(threads)
        seen.append(out)
        return out

    for module in (native, native_bleu, native_chrf_ter):
        monkeypatch.setattr(module, "core_threads", spy)
    return seen


@pytest.mark.parametrize("metric_cls", [BLEU, CHRF, TER])
@pytest.mark.parametrize("path", ["corpus_score", "sentence_scores", "segment_statistics"])
def test_threads_set_after_construction_reach_the_core(metric_cls, path, seen_threads):
    metric = metric_cls()
    seen_threads.clear()  # its compiled counter, built with the default (0: the core picks)
    metric.threads = 1  # what fit_threads does with the copy a Ray worker receives
    getattr(metric, path)(HYPS, REFS)
    assert seen_threads and set(seen_threads) == {1}


@pytest.mark.parametrize("metric_cls", [BLEU, CHRF, TER])
def test_threads_are_validated_by_every_metric(metric_cls):
    assert metric_cls(threads=2).threads == 2
    with pytest.raises(ValueError, match="threads must be >= 1"):
        metric_cls(threads=0)
    with pytest.raises(TypeError, match="threads must be a positive integer"):
        metric_cls(threads="2")
    metric = metric_cls()
    with pytest.raises(ValueError, match="threads must be >= 1"):
        metric.threads = 0


class _ThreadProbe:
    """A counter that reports the compiled core's thread count in the process that runs it."""

    def rows(self, hyps, ref_streams, present=None):
        return np.full((len(hyps), 1), native.core_threads(None), dtype=np.int64)


class _ProbeMetric:
    counter = _ThreadProbe()


def test_pool_workers_run_the_core_with_one_thread():
    import multiprocessing

    from bleuscope.core.pool import map_statistics

    assert native.core_threads(None) == 0  # this process: the core picks
    chunks = [(["a"] * 3, [["a"] * 3], np.ones((3, 1), dtype=bool)) for _ in range(4)]
    results = list(map_statistics(_ProbeMetric(), chunks, 2, mp_context=multiprocessing.get_context("fork")))
    assert [rows.ravel().tolist() for rows, _ in results] == [[1, 1, 1]] * 4
    assert native.core_threads(2) == 2
