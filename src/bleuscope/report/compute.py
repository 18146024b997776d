"""The numbers of the report, computed once from per-segment statistics (no HTML here).

Everything is derived from each system's per-segment BLEU statistics (``[hyp_len, ref_len, correct_1..N,
total_1..N]`` rows), through the library's public functions only: corpus scores with
``BLEU.score_from_statistics``, sentence scores with :func:`bleuscope.compute_scores` under the same options
with effective order on (sacreBLEU's sentence BLEU), bootstrap intervals and all-pairs tests with
:mod:`bleuscope.significance`. So every number on the page equals what the library (and so sacreBLEU)
gives for the same segments.

Further metrics implementing the additive-metric interface (:mod:`bleuscope.metrics.base`) are added as
:class:`MetricSummary` entries: a corpus score, a bootstrap interval and a sentence score per segment for
each system. BLEU always comes first; its statistics also give the length analyses and the n-gram views.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .. import BLEU, BLEUScore, compute_scores, significance

#: ratio buckets of hypothesis length / reference length per segment (upper bounds, exclusive)
RATIO_EDGES = (0.8, 0.95, 1.05, 1.2)
#: how many length buckets the segments are split into (by quantiles of the reference length)
LENGTH_BUCKETS = 5
#: default number of segments whose texts go into the page (all segments are always scored)
DEFAULT_MAX_SEGMENTS = 5000
#: wins and losses listed per direction
TOP_DIFFERENCES = 10


@dataclass(frozen=True)
class MetricSummary:
    """One metric over every system: corpus scores, bootstrap intervals and sentence scores."""

    name: str
    signature: str
    higher_is_better: bool
    scores: tuple[float, ...]  # corpus score per system
    intervals: tuple  # bootstrap interval per system: objects with mean, ci (half-width), lower, upper
    sentence_scores: np.ndarray  # float64 [K, S]
    all_pairs: significance.AllPairsResult | None  # BLEU's, with two systems or more; None for other metrics


@dataclass(frozen=True)
class Bucket:
    """Segments grouped by a property; ``scores[k]`` is system k's corpus score on the bucket's segments."""

    label: str
    counts: tuple[int, ...]  # segments in the bucket, per system (length buckets: the same for all)
    scores: tuple[float | None, ...]  # None where a system has no segment in the bucket


@dataclass(frozen=True)
class Highlight:
    """A text prepared for display: ``text`` and the spans ``(start, end, order)`` of matched n-grams.

    ``order`` is the longest n-gram order of a clipped match covering the tokens of the span (1..N).
    ``tokenized`` is True when the tokens could not be placed in the original text, so ``text`` is the
    tokenized form (tokens joined by spaces).
    """

    text: str
    spans: tuple[tuple[int, int, int], ...]
    tokenized: bool = False


@dataclass(frozen=True)
class ReportData:
    """Everything the page shows. ``systems[k]`` indexes every per-system field."""

    title: str
    systems: tuple[str, ...]
    reference_names: tuple[str, ...]
    n_segments: int
    nrefs: str  # the signature's nrefs field ("2", or "var")
    bleu: BLEU
    corpus: tuple[BLEUScore, ...]  # corpus BLEU per system (counts, totals, precisions, BP, lengths)
    stats: np.ndarray  # int64 [K, S, W] BLEU statistics
    metrics: tuple[MetricSummary, ...]  # BLEU first
    length_buckets: tuple[Bucket, ...]
    reference_lengths: np.ndarray  # int64 [S]: tokens of the first reference present, per segment
    ratio_buckets: tuple[Bucket, ...]
    pair: tuple[int, int]  # default systems (A, B) compared in the pair views
    sources: tuple[str, ...] | None
    references: tuple[tuple[str | None, ...], ...]  # streams
    hypotheses: tuple[tuple[str, ...], ...]  # [K][S]
    shown_segments: int  # segments whose texts are in the page (the first ones)
    highlights: tuple[tuple[Highlight, ...], ...]  # [K][shown]
    n_bootstrap: int
    seed: int
    alpha: float

    @property
    def bleu_summary(self) -> MetricSummary:
        return self.metrics[0]


def _check_systems(systems) -> tuple[tuple[str, ...], list[list[str]]]:
    if isinstance(systems, Mapping):
        items = list(systems.items())
    elif isinstance(systems, (str, bytes)) or not isinstance(systems, Sequence):
        raise TypeError(f"systems must be a mapping {{name: hypotheses}} or a list of (name, hypotheses) pairs, "
                        f"got {type(systems).__name__}")
    else:
        items = list(systems)
    if not items:
        raise ValueError("systems is empty: give at least one system")
    names, hyps = [], []
    for k, item in enumerate(items):
        if not (isinstance(item, tuple) and len(item) == 2):
            raise TypeError(f"systems[{k}] must be a (name, hypotheses) pair")
        name, lines = item
        if not isinstance(name, str) or not name:
            raise TypeError(f"system names must be non-empty strings, got {name!r}")
        if name in names:
            raise ValueError(f"system name {name!r} is used twice")
        if isinstance(lines, (str, bytes)):
            raise TypeError(f"system {name!r} must be a list of hypothesis strings, got a single string")
        names.append(name)
        hyps.append(list(lines))
    return tuple(names), hyps


def _row_scorer(metric):
    """A vectorized ``rows -> scores`` for a metric: its ``score_rows`` (the additive-metric interface)."""
    score_rows = getattr(metric, "score_rows", None)
    if score_rows is None:
        raise TypeError(f"metric {metric!r} has no score_rows(rows); it must implement the additive-metric "
                        "interface (bleuscope.metrics.base.AdditiveMetric)")
    return lambda rows: np.asarray(score_rows(np.atleast_2d(rows)), dtype=np.float64)


def _summary(name, signature, higher, stats, names, corpus_scores, sentence, statistic, n_bootstrap, seed,
             alpha, pairwise: bool = True) -> MetricSummary:
    """Bootstrap intervals and the all-pairs test of one metric from its per-system statistics.

    The intervals of all systems come from one paired bootstrap (the same draws for every system, so the
    same bounds as a ``confidence_interval`` per system, for one resampling pass instead of one per system).
    """
    if len(names) == 1:
        intervals: tuple = (significance.confidence_interval(stats[0], metric=statistic, n_samples=n_bootstrap,
                                                             seed=seed, name=names[0]),)
    else:
        paired = significance.paired_bootstrap(dict(zip(names, stats)), metric=statistic, n_samples=n_bootstrap,
                                               seed=seed)
        intervals = tuple(paired[n] for n in names)
    pairs = None
    if pairwise and len(names) > 1:
        pairs = significance.all_pairs(dict(zip(names, stats)), metric=statistic, test="bs",
                                       n_samples=n_bootstrap, seed=seed, alpha=alpha)
    return MetricSummary(name, signature, higher, tuple(float(x) for x in corpus_scores), intervals, sentence,
                         pairs)


def _quantile_edges(lengths: np.ndarray, n_buckets: int) -> list[int]:
    """Integer bucket boundaries at the length quantiles (fewer buckets when lengths repeat a lot)."""
    qs = np.quantile(lengths, np.linspace(0, 1, n_buckets + 1)[1:-1], method="lower") if len(lengths) else []
    edges = sorted({int(q) + 1 for q in qs})  # bucket b holds lengths < edges[b]
    return [e for e in edges if lengths.min() < e <= lengths.max()]


def _range_label(lo: int, hi: int) -> str:
    return f"{lo}" if lo == hi else f"{lo}–{hi}"


def _bucket_scores(bleu: BLEU, stats: np.ndarray, masks: Sequence[np.ndarray]) -> tuple[float | None, ...]:
    out = []
    for k, mask in enumerate(masks):
        out.append(float(bleu.score_from_statistics(stats[k][mask]).score) if mask.any() else None)
    return tuple(out)


def length_buckets(bleu: BLEU, stats: np.ndarray, reference_lengths: np.ndarray,
                   n_buckets: int = LENGTH_BUCKETS) -> tuple[Bucket, ...]:
    """Corpus BLEU per system on segments grouped by reference length (quantile buckets)."""
    edges = _quantile_edges(reference_lengths, n_buckets)
    bounds = [None] + edges + [None]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        mask = np.ones(len(reference_lengths), dtype=bool)
        if lo is not None:
            mask &= reference_lengths >= lo
        if hi is not None:
            mask &= reference_lengths < hi
        if not mask.any():
            continue
        label = _range_label(int(reference_lengths[mask].min()), int(reference_lengths[mask].max()))
        n = int(mask.sum())
        out.append(Bucket(label, (n,) * len(stats), _bucket_scores(bleu, stats, [mask] * len(stats))))
    return tuple(out)


def segment_ratios(stats_k: np.ndarray) -> np.ndarray:
    """hyp_len / ref_len per segment (an empty reference counts as ratio inf, two empty texts as 1)."""
    hyp, ref = stats_k[:, 0].astype(np.float64), stats_k[:, 1].astype(np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = hyp / ref
    ratio[(ref == 0) & (hyp == 0)] = 1.0
    return ratio


def ratio_buckets(bleu: BLEU, stats: np.ndarray, edges: Sequence[float] = RATIO_EDGES) -> tuple[Bucket, ...]:
    """Corpus BLEU per system on its segments grouped by their length ratio (hypothesis / reference)."""
    ratios = [segment_ratios(s) for s in stats]
    bounds = [None, *edges, None]
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        masks = []
        for r in ratios:
            m = np.ones(len(r), dtype=bool)
            if lo is not None:
                m &= r >= lo
            if hi is not None:
                m &= r < hi
            masks.append(m)
        label = f"< {hi:g}" if lo is None else f"≥ {lo:g}" if hi is None else f"{lo:g}–{hi:g}"
        out.append(Bucket(label, tuple(int(m.sum()) for m in masks), _bucket_scores(bleu, stats, masks)))
    return tuple(out)


# ---------------------------------------------------------------------------------------------------------
# matched n-grams
# ---------------------------------------------------------------------------------------------------------
def _ngrams(tokens: list[str], n: int):
    return zip(*(tokens[i:] for i in range(n))) if n > 1 else ((t,) for t in tokens)


def reference_limits(ref_tokens: Sequence[list[str]], max_order: int) -> list[dict]:
    """Per order: the largest count of each n-gram in any one reference (BLEU's clipping limits)."""
    out = []
    for n in range(1, max_order + 1):
        if len(ref_tokens) == 1:
            out.append(Counter(_ngrams(ref_tokens[0], n)))
            continue
        limit: dict = {}
        for ref in ref_tokens:
            for g, c in Counter(_ngrams(ref, n)).items():
                if c > limit.get(g, 0):
                    limit[g] = c
        out.append(limit)
    return out


def matched_ngrams(hyp_tokens: list[str], limits: list[dict]) -> list[list[int]]:
    """Start positions of the clipped n-gram matches, per order (1..len(limits)).

    An n-gram occurring ``c`` times in the hypothesis and at most ``m`` times in any one reference has its
    first ``min(c, m)`` occurrences matched: the counts per order are BLEU's clipped counts.
    """
    out: list[list[int]] = []
    for n, limit in enumerate(limits, start=1):
        if out and not out[-1]:  # no (n-1)-gram matched, so no n-gram can
            out.append([])
            continue
        used: dict = {}
        starts = []
        for i, g in enumerate(_ngrams(hyp_tokens, n)):
            u = used.get(g, 0)
            if u < limit.get(g, 0):
                used[g] = u + 1
                starts.append(i)
        out.append(starts)
    return out


def _token_levels(n_tokens: int, matches: list[list[int]]) -> list[int]:
    """Per token: the longest matched n-gram order covering it (0 = not matched)."""
    level = [0] * n_tokens
    for n, starts in enumerate(matches, start=1):
        for s in starts:
            for t in range(s, s + n):
                level[t] = n
    return level


def _place_tokens(text: str, tokens: list[str]) -> list[tuple[int, int]] | None:
    """Character offsets of each token in ``text`` (in order, separated by whitespace only), or None."""
    pos, out = 0, []
    for tok in tokens:
        idx = text.find(tok, pos)
        if idx < 0 or (idx > pos and text[pos:idx].strip()):
            return None
        out.append((idx, idx + len(tok)))
        pos = idx + len(tok)
    return out


def highlight(text: str, tokens: list[str], levels: list[int], lowercase: bool) -> Highlight:
    """Spans of matched tokens in the original text (runs of equal level merged), else in the tokenized text."""
    searched = text.lower() if lowercase else text
    offsets = None if len(searched) != len(text) else _place_tokens(searched, tokens)
    tokenized = offsets is None
    if tokenized:
        text = " ".join(tokens)
        offsets, pos = [], 0
        for tok in tokens:
            offsets.append((pos, pos + len(tok)))
            pos += len(tok) + 1
    spans: list[list[int]] = []
    prev_level = 0
    for (a, b), lvl in zip(offsets, levels):
        if lvl and lvl == prev_level and spans:
            spans[-1][1] = b
        elif lvl:
            spans.append([a, b, lvl])
        prev_level = lvl
    return Highlight(text, tuple(tuple(s) for s in spans), tokenized)


def _tokenize(bleu: BLEU, lines: Sequence[str]) -> list[list[str]]:
    if bleu.lowercase:
        lines = [line.lower() for line in lines]
    return bleu.tokenizer.tokenize_batch(lines)


# ---------------------------------------------------------------------------------------------------------
# the whole report
# ---------------------------------------------------------------------------------------------------------
def compute_report(
    systems,
    references,
    *,
    sources: Sequence[str] | None = None,
    bleu: BLEU | None = None,
    metrics: Sequence = (),
    reference_names: Sequence[str] | None = None,
    title: str | None = None,
    n_bootstrap: int = significance.BOOTSTRAP_SAMPLES,
    seed: int | None = significance.DEFAULT_SEED,
    alpha: float = 0.05,
    max_segments: int | None = DEFAULT_MAX_SEGMENTS,
    pair: tuple[str, str] | None = None,
) -> ReportData:
    """All numbers of the report; see :func:`bleuscope.report.build_report` for the arguments."""
    names, hyps = _check_systems(systems)
    bleu = BLEU() if bleu is None else bleu
    if not isinstance(bleu, BLEU):
        raise TypeError(f"bleu must be a bleuscope.BLEU, got {type(bleu).__name__}")
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence) or not references:
        raise TypeError("references must be a non-empty list of reference streams (references[k][i])")
    if max_segments is not None and (isinstance(max_segments, bool) or not isinstance(max_segments, int)
                                     or max_segments < 0):
        raise ValueError(f"max_segments must be None or an integer >= 0, got {max_segments!r}")
    seed = significance.resolve_seed(seed)
    if pair is None:
        pair_idx = (0, 1) if len(names) > 1 else (0, 0)
    else:
        missing = [p for p in pair if p not in names]
        if missing or len(pair) != 2:
            raise ValueError(f"pair must name two of the systems {list(names)}, got {pair!r}")
        pair_idx = (names.index(pair[0]), names.index(pair[1]))

    segs = significance.system_statistics(bleu, hyps, references, names=list(names))
    n_seg = len(hyps[0])
    streams = [list(s) for s in references]
    if sources is not None:
        if isinstance(sources, (str, bytes)) or len(sources) != n_seg:
            got = "a single string" if isinstance(sources, (str, bytes)) else f"{len(sources)} lines"
            raise ValueError(f"sources has {got} but the systems have {n_seg} segments")
        sources = tuple(sources)
    if reference_names is None:
        reference_names = [f"reference {k + 1}" for k in range(len(streams))]
    elif len(reference_names) != len(streams):
        raise ValueError(f"{len(reference_names)} reference names for {len(streams)} reference streams")

    stats = np.stack([s.stats for s in segs])  # [K, S, W]
    corpus = tuple(bleu.score_from_statistics(s.stats, _nrefs(segs[0].nrefs)) for s in segs)
    signature = bleu.signature(_nrefs(segs[0].nrefs))
    sentence_config = dataclasses.replace(bleu.config, effective_order=True)
    sentence = np.stack([compute_scores(s.stats, sentence_config).score for s in segs])
    bleu_summary = _summary("BLEU", signature, True, segs, names, [c.score for c in corpus], sentence, bleu,
                            n_bootstrap, seed, alpha)
    summaries = [bleu_summary]
    for metric in metrics:
        summaries.append(_metric_summary(metric, names, hyps, references, n_bootstrap, seed, alpha))

    # reference lengths (every segment, in chunks, keeping only the counts) and matched n-grams (segments shown)
    first_refs = [next(s[i] for s in streams if s[i] is not None) for i in range(n_seg)]
    with warnings.catch_warnings():  # the references scored as hypotheses: their warnings are not the user's
        warnings.simplefilter("ignore")
        # column 0 (hypothesis length) of the first reference scored against itself: its length in tokens,
        # counted by the library's fast path
        ref_len = bleu.segment_statistics(first_refs, [first_refs]).stats[:, 0].copy()
    shown = n_seg if max_segments is None else min(n_seg, max_segments)
    order = bleu.max_ngram_order
    ref_tokens = [_tokenize(bleu, [x if x is not None else "" for x in s[:shown]]) for s in streams]
    limits = [reference_limits([ref_tokens[r][i] for r in range(len(streams)) if streams[r][i] is not None], order)
              for i in range(shown)]
    highlights = []
    for k in range(len(names)):
        hyp_tokens = _tokenize(bleu, hyps[k][:shown])
        row = []
        for i in range(shown):
            matches = matched_ngrams(hyp_tokens[i], limits[i])
            row.append(highlight(hyps[k][i], hyp_tokens[i], _token_levels(len(hyp_tokens[i]), matches),
                                 bleu.lowercase))
        highlights.append(tuple(row))

    return ReportData(
        title=title or f"bleuscope report: {len(names)} system{'s' if len(names) != 1 else ''}, {n_seg} segments",
        systems=names, reference_names=tuple(reference_names), n_segments=n_seg, nrefs=_nrefs(segs[0].nrefs), bleu=bleu, corpus=corpus,
        stats=stats, metrics=tuple(summaries), length_buckets=length_buckets(bleu, stats, ref_len),
        reference_lengths=ref_len, ratio_buckets=ratio_buckets(bleu, stats), pair=pair_idx, sources=sources,
        references=tuple(tuple(s) for s in streams), hypotheses=tuple(tuple(h) for h in hyps),
        shown_segments=shown, highlights=tuple(highlights), n_bootstrap=n_bootstrap, seed=seed, alpha=alpha,
    )


def _nrefs(counts: np.ndarray) -> str:
    return str(int(counts[0])) if len(counts) and counts.min() == counts.max() else "var"


def _metric_summary(metric, names, hyps, references, n_bootstrap, seed, alpha) -> MetricSummary:
    """A further additive metric (chrF, TER, ...): statistics per system, then the same summaries."""
    score_rows = _row_scorer(metric)
    name = getattr(metric, "name", type(metric).__name__)
    segs = [metric.segment_statistics(h, references) for h in hyps]
    corpus = [float(score_rows(s.stats.sum(axis=0))[0]) for s in segs]
    sentence = np.stack([score_rows(s.stats) for s in segs])
    statistic = significance.FunctionStatistic(score_rows, name)
    try:
        signature = metric.signature(_nrefs(segs[0].nrefs))
    except (TypeError, ValueError):
        signature = ""
    return _summary(name, signature, bool(getattr(metric, "higher_is_better", True)), [s.stats for s in segs],
                    names, corpus, sentence, statistic, n_bootstrap, seed, alpha, pairwise=False)


def top_differences(sentence: np.ndarray, a: int, b: int, n: int = TOP_DIFFERENCES) -> tuple[list[int], list[int]]:
    """Segments where B beats A most (largest B - A first) and where A beats B most; ties by segment order."""
    delta = sentence[b] - sentence[a]
    idx = np.arange(len(delta))
    wins = [int(i) for i in idx[np.lexsort((idx, -delta))] if delta[i] > 0][:n]
    losses = [int(i) for i in idx[np.lexsort((idx, delta))] if delta[i] < 0][:n]
    return wins, losses
