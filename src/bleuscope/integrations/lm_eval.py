"""lm-evaluation-harness's corpus-level MT aggregations, computed by bleuscope: ``bleu``, ``chrf``, ``chrfpp``
(``chrf++``) and ``ter`` take the items lm-eval collects (one ``[gold, result]`` per document: ``gold`` a reference
string or a list of them, ``result`` the generated string) and return the score of ``lm_eval.api.metrics``
(lm-eval 0.4.13, which runs sacreBLEU 2.6.0), ``==``. lm-eval is not needed.

**The reference layout** is lm-eval's ``_sacreformat``: the per-document reference lists are transposed with
``zip(*refs)``, which *truncates to the shortest list*: when documents have different numbers of references, only
the first ``m`` of each are scored, ``m`` the smallest count. The aggregations keep that (the numbers are
lm-eval's) and warn (:class:`ReferencesTruncatedWarning`) when it drops a reference. Where lm-eval would silently
score something else, they raise instead: a document whose gold is a string while the first document's is a list
(lm-eval would take the string's characters as references), or the reverse.

**Direction.** TER is an error rate: :data:`HIGHER_IS_BETTER` says so (lm-eval's registry before 0.4.13 and several
WMT task files said ``higher_is_better: true``).

**Standard errors** (:func:`bootstrap_stderr`, :func:`stderr_for_metric`) resample per-document statistics rows
(counted once) instead of re-running sacreBLEU on every resample, so any number of resamples is cheap
(lm-eval caps these four at 100 because each costs a full sacreBLEU run). ``method="lm-eval"`` (the default of
the drop-in :func:`stderr_for_metric`) gives lm-eval's very numbers: its chunks of ``min(1000, iters)`` resamples
(so ``iters=1500`` is 1,000 resamples), chunk ``i`` drawn by ``random.Random(i).choices``, the sample standard
deviation; ``method="numpy"`` draws exactly ``iters`` resamples from ``numpy.random.default_rng(seed)``. chrF's
parameters are the aggregation's own (an aggregation made by :func:`chrf_aggregation` keeps its ``char_order``,
``word_order`` and ``beta`` in the resamples too).
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable, Sequence

import numpy as np

__all__ = [
    "AGGREGATIONS",
    "HIGHER_IS_BETTER",
    "ReferencesTruncatedWarning",
    "bleu",
    "bootstrap_stderr",
    "chrf",
    "chrf_aggregation",
    "chrfpp",
    "patch_stderr",
    "stderr_for_metric",
    "ter",
]


class ReferencesTruncatedWarning(UserWarning):
    """lm-eval's reference layout dropped references: documents have different numbers of them."""


# -- items -------------------------------------------------------------------------------------------------------
def _is_list(x) -> bool:
    return not isinstance(x, str) and hasattr(x, "__iter__")


def split_items(items) -> tuple[list[str], list[list[str]]]:
    """``(predictions, references per document)`` of lm-eval items, checked: a list of ``[gold, result]``, every
    gold a string or every gold a list of strings, every result a string or a list of exactly one string."""
    try:
        items = list(items)
    except TypeError:
        raise TypeError(f"items must be a list of [gold, result] pairs, got {type(items).__name__}") from None
    if not items:
        raise ValueError("items is empty: give at least one [gold, result] pair")
    preds, refs = [], []
    first_is_list = None
    for i, item in enumerate(items):
        try:
            gold, result = item
        except (TypeError, ValueError):
            raise ValueError(f"items[{i}] must be a [gold, result] pair, got {item!r:.80}") from None
        if _is_list(result):
            result = list(result)
            if len(result) != 1:
                raise ValueError(f"items[{i}]: a result given as a list must hold exactly one string, got "
                                 f"{len(result)} (lm-eval asserts the same)")
            result = result[0]
        if not isinstance(result, str):
            raise TypeError(f"items[{i}]: the result must be a string, got {type(result).__name__}")
        is_list = _is_list(gold)
        if first_is_list is None:
            first_is_list = is_list
        elif is_list != first_is_list:
            raise ValueError(
                f"items[{i}]: the gold is a {'list' if is_list else 'string'} but items[0]'s is a "
                f"{'list' if first_is_list else 'string'}; lm-eval decides the layout from the first item and would "
                f"score {'this list as one reference' if is_list else 'the characters of this string as references'}")
        gold = list(gold) if is_list else [gold]
        if not gold:
            raise ValueError(f"items[{i}]: the gold is an empty list: give at least one reference")
        for x in gold:
            if not isinstance(x, str):
                raise TypeError(f"items[{i}]: references must be strings, got {type(x).__name__}")
        preds.append(result)
        refs.append(gold)
    return preds, refs


def _truncation_warning(counts: Sequence[int]) -> None:
    low, high = min(counts), max(counts)
    if low != high:
        dropped = sum(c - low for c in counts)
        warnings.warn(
            f"documents have between {low} and {high} references: lm-eval's layout (zip of the reference lists) "
            f"scores only the first {low} of each, {dropped} reference(s) dropped",
            ReferencesTruncatedWarning, stacklevel=3)


# -- the aggregations ----------------------------------------------------------------------------------------------
class Aggregation:
    """An lm-eval aggregation: ``aggregation(items) -> float``, with the metric behind it (``metric()``: a fresh
    bleuscope scorer) for the resampling standard errors."""

    def __init__(self, name: str, make_metric: Callable, doc: str) -> None:
        self.__name__ = self.name = name
        self.__qualname__ = name
        self.__doc__ = doc
        self.metric = make_metric

    def __repr__(self) -> str:
        return f"bleuscope.integrations.lm_eval.{self.__name__}"

    def streams(self, refs: list[list[str]]) -> list[list[str]]:
        """lm-eval's reference streams: ``zip(*refs)``, to the shortest list."""
        m = min(len(r) for r in refs)
        return [[r[k] for r in refs] for k in range(m)]

    def __call__(self, items) -> float:
        preds, refs = split_items(items)
        _truncation_warning([len(r) for r in refs])
        return float(self.metric().corpus_score(preds, self.streams(refs)).score)

    # the statistics behind the resampling standard errors
    def level_statistics(self, preds: list[str], refs: list[list[str]]) -> dict[int, np.ndarray]:
        """Per-document statistics rows at each reference count ``m`` lm-eval can end up with in a resample
        (the smallest count among the documents drawn): ``{m: int64 [S, D]}`` of the first ``m`` references."""
        counts = sorted({len(r) for r in refs})
        metric = self.metric()
        out = {}
        for m in counts:
            usable = [i for i, r in enumerate(refs) if len(r) >= m]
            rows = np.zeros((len(preds), metric.stats_width), dtype=np.int64)
            sub_refs = [refs[i] for i in usable]
            stats = metric.segment_statistics([preds[i] for i in usable], self.streams(
                [r[:m] for r in sub_refs])).stats
            rows[usable] = stats
            out[m] = rows
        return out


def _bleu():
    from ..metrics.bleu.scorer import BLEU

    return BLEU()


def _ter():
    from ..metrics.ter import TER

    return TER()


def chrf_aggregation(name: str = "chrf", *, char_order: int = 6, word_order: int = 0, beta: int = 2) -> Aggregation:
    """A chrF aggregation with these parameters (its standard error resamples chrF with the same ones)."""
    from ..metrics.chrf import CHRF

    CHRF(char_order=char_order, word_order=word_order, beta=beta)  # check the parameters now

    def make():
        return CHRF(char_order=char_order, word_order=word_order, beta=beta)

    return Aggregation(name, make, f"Corpus chrF (char_order={char_order}, word_order={word_order}, beta={beta}) "
                                   "of lm-eval items, as sacreBLEU's corpus_chrf. Higher is better.")


bleu = Aggregation("bleu", _bleu, "Corpus BLEU of lm-eval items, sacreBLEU's corpus_bleu defaults (lm-eval's "
                                  "bleu). Higher is better.")
chrf = chrf_aggregation("chrf")
chrfpp = chrf_aggregation("chrfpp", word_order=2)
ter = Aggregation("ter", _ter, "Corpus TER of lm-eval items, sacreBLEU's corpus_ter defaults (lm-eval's ter). "
                               "Lower is better.")

#: lm-eval's registry names -> the aggregations
AGGREGATIONS = {"bleu": bleu, "chrf": chrf, "chrf++": chrfpp, "ter": ter}
#: lm-eval's registry names -> whether a higher score is better (TER: no)
HIGHER_IS_BETTER = {"bleu": True, "chrf": True, "chrf++": True, "ter": False}

#: lm-eval's own aggregation functions (``lm_eval.api.metrics``), by name, and ours for them
_LM_EVAL_NAMES = {"bleu": bleu, "chrf": chrf, "chrfpp": chrfpp, "ter": ter}


def _aggregation_of(f) -> Aggregation | None:
    if isinstance(f, Aggregation):
        return f
    if getattr(f, "__module__", None) == "lm_eval.api.metrics":
        return _LM_EVAL_NAMES.get(getattr(f, "__name__", ""))
    return None


# -- resampling ------------------------------------------------------------------------------------------------------
_CHUNK_ROWS = 4_000_000  # drawn indices held at a time (32 MB of int64)


def _ter_in_draw_order(metric, rows: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """TER of resamples as sacreBLEU scores a resampled corpus: edits summed (integers, exact) and the documents'
    mean reference lengths added one by one in the order drawn (float64), then sacreBLEU's ``edits / length``
    (1 for edits against empty references, 0 for none). Summed integer rows give the same number unless some mean
    length is not an integer (references of different lengths), when the order of the additions shows."""
    means = metric.mean_ref_lengths(rows)[idx]
    lengths = np.add.accumulate(means, axis=1)[:, -1]
    edits = rows[:, 0][idx].sum(axis=1).astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.where(lengths > 0, edits / np.where(lengths > 0, lengths, 1), np.where(edits > 0, 1.0, 0.0))
    return 100 * ratio


def _replicate_scores(agg: Aggregation, levels: dict[int, np.ndarray], counts: np.ndarray,
                      index_blocks, draw_order: bool = False) -> list[np.ndarray]:
    """Scores of the resamples whose drawn document indices come in ``index_blocks`` (int64 [R, S] each);
    ``draw_order``: TER's lengths added in the order drawn, as lm-eval's sacreBLEU run adds them."""
    metric = agg.metric()
    n = len(counts)
    varying = len(levels) > 1
    in_order = draw_order and agg.name == "ter" and any(
        not np.all(np.mod(metric.mean_ref_lengths(rows), 1) == 0) for rows in levels.values())
    out = []
    for idx in index_blocks:
        r = idx.shape[0]
        if in_order:
            level = counts[idx].min(axis=1)
            scores = np.empty(r)
            for m, rows in levels.items():
                pick = level == m
                if pick.any():
                    scores[pick] = _ter_in_draw_order(metric, rows, idx[pick])
            out.append(scores)
            continue
        weights = np.bincount((idx + (np.arange(r) * n)[:, None]).ravel(), minlength=r * n).reshape(r, n)
        if not varying:
            rows = levels[next(iter(levels))]
            sums = np.rint(weights.astype(np.float64) @ rows.astype(np.float64)).astype(np.int64)
            out.append(np.asarray(metric.score_rows(sums), dtype=np.float64))
            continue
        level = counts[idx].min(axis=1)
        scores = np.empty(r)
        for m, rows in levels.items():
            pick = level == m
            if pick.any():
                sums = np.rint(weights[pick].astype(np.float64) @ rows.astype(np.float64)).astype(np.int64)
                scores[pick] = metric.score_rows(sums)
        out.append(scores)
    return out


def _lm_eval_blocks(n: int, iters: int):
    """lm-eval's draws: ``iters // chunk`` chunks of ``chunk = min(1000, iters)`` resamples, chunk ``i`` from
    ``random.Random(i)``, each resample ``choices(xs, k=n)``, i.e. ``floor(random() * n)`` per pick. numpy's legacy
    Mersenne Twister seeded with the key ``[i]`` is CPython's ``Random(i)`` (the same ``init_by_array``) and its
    ``random_sample`` is ``random()`` (the same two 32-bit words per double)."""
    chunk = min(1000, iters)
    per_block = max(1, _CHUNK_ROWS // max(n, 1))
    for i in range(iters // chunk):
        rs = np.random.RandomState([i])
        done = 0
        while done < chunk:
            r = min(per_block, chunk - done)
            u = rs.random_sample(r * n)
            yield np.floor(u * float(n)).astype(np.int64).reshape(r, n)
            done += r


def _numpy_blocks(n: int, iters: int, seed):
    rng = np.random.default_rng(seed)
    per_block = max(1, _CHUNK_ROWS // max(n, 1))
    done = 0
    while done < iters:
        r = min(per_block, iters - done)
        yield rng.integers(0, n, size=(r, n))
        done += r


def _sample_stddev(values: list[float]) -> float:
    """lm-eval's ``sample_stddev``, operation for operation (Python's ``sum``, the n - 1 denominator)."""
    mu = sum(values) / len(values)
    return math.sqrt(sum([(x - mu) ** 2 for x in values]) / (len(values) - 1))


def bootstrap_replicates(f, xs, iters: int, *, method: str = "lm-eval", seed=0) -> np.ndarray:
    """The resample scores behind :func:`bootstrap_stderr` (float64, in lm-eval's order for ``method="lm-eval"``)."""
    agg = _aggregation_of(f)
    if agg is None:
        raise TypeError(f"f must be one of bleuscope's lm-eval aggregations (bleu, chrf, chrfpp, ter, or one made by "
                        f"chrf_aggregation) or lm-eval's own, got {f!r}")
    if isinstance(iters, bool) or not isinstance(iters, int) or iters < 1:
        raise ValueError(f"iters must be a positive integer, got {iters!r}")
    if method not in ("lm-eval", "numpy"):
        raise ValueError(f"method must be 'lm-eval' or 'numpy', got {method!r}")
    preds, refs = split_items(xs)
    levels = agg.level_statistics(preds, refs)
    counts = np.array([len(r) for r in refs], dtype=np.int64)
    n = len(preds)
    blocks = _lm_eval_blocks(n, iters) if method == "lm-eval" else _numpy_blocks(n, iters, seed)
    scores = _replicate_scores(agg, levels, counts, blocks, draw_order=method == "lm-eval")
    return np.concatenate(scores) if scores else np.empty(0)


def bootstrap_stderr(f, xs, iters: int, *, method: str = "lm-eval", seed=0) -> float:
    """The bootstrap standard error of aggregation ``f`` over items ``xs`` with ``iters`` resamples: lm-eval's
    ``bootstrap_stderr(f, xs, iters)`` value (``method="lm-eval"``), or with ``method="numpy"`` exactly ``iters``
    resamples drawn by ``numpy.random.default_rng(seed)`` (sample standard deviation). ``f``: one of this module's
    aggregations, or lm-eval's ``bleu``/``chrf``/``chrfpp``/``ter`` (computed as ours).

    >>> items = [["the cat sat", "the cat sat"], ["a dog barked", "a dog"], ["hello", "hello there"]]
    >>> round(bootstrap_stderr(bleu, items, 100), 6) == round(bootstrap_stderr(bleu, items, 100), 6)
    True
    """
    values = bootstrap_replicates(f, xs, iters, method=method, seed=seed)
    if len(values) < 2:
        raise ValueError(f"a standard error needs at least 2 resamples, got {len(values)}")
    if method == "lm-eval":
        return _sample_stddev(values.tolist())
    return float(np.std(values, ddof=1))


def stderr_for_metric(metric, bootstrap_iters: int):
    """lm-eval's ``stderr_for_metric(metric, bootstrap_iters)``: for bleuscope's aggregations (and lm-eval's own
    bleu/chrf/chrfpp/ter) a function ``items -> stderr`` with lm-eval's values, computed from statistics; for any
    other aggregation lm-eval's own answer (None when lm-eval is not installed); None when ``bootstrap_iters <= 0``."""
    if bootstrap_iters <= 0:
        return None
    agg = _aggregation_of(metric)
    if agg is not None:
        return lambda items: bootstrap_stderr(agg, items, bootstrap_iters)
    try:
        from lm_eval.api.metrics import stderr_for_metric as lm_eval_stderr_for_metric
    except ImportError:
        return None
    return lm_eval_stderr_for_metric(metric, bootstrap_iters)


def patch_stderr(bootstrap_iters: int | None = None) -> None:
    """Make lm-eval's evaluator compute the standard errors of bleuscope's aggregations (which it reports as
    ``N/A`` otherwise, as for any custom aggregation) and of its own bleu/chrf/chrf++/ter from statistics: replaces
    ``lm_eval.evaluator_utils.stderr_for_metric`` with :func:`stderr_for_metric`. lm-eval passes these four metrics
    at most 100 resamples; ``bootstrap_iters`` (e.g. 10_000), when given, is used for them instead. Call it from the
    task's ``utils.py``."""
    import lm_eval.evaluator_utils as evaluator_utils

    original = getattr(evaluator_utils.stderr_for_metric, "__wrapped__", evaluator_utils.stderr_for_metric)

    def patched(metric, bootstrap_iters_given):
        agg = _aggregation_of(metric)
        if agg is None:
            return original(metric=metric, bootstrap_iters=bootstrap_iters_given)
        iters = bootstrap_iters if bootstrap_iters is not None and bootstrap_iters_given > 0 else bootstrap_iters_given
        return stderr_for_metric(agg, iters)

    @functools.wraps(original)
    def stderr_hook(metric, bootstrap_iters):
        return patched(metric, bootstrap_iters)

    evaluator_utils.stderr_for_metric = stderr_hook
