"""The numbers of the report, computed once from per-segment statistics (no HTML here).

Everything is derived from each system's per-segment BLEU statistics (``[hyp_len, ref_len, correct_1..N,
total_1..N]`` rows), through the library's public functions only: corpus scores with
``BLEU.score_from_statistics``, sentence scores with :func:`bleuscope.compute_scores` under the same options
with effective order on (sacreBLEU's sentence BLEU), bootstrap intervals and all-pairs tests with
:mod:`bleuscope.analysis.significance`. So every number on the page equals what the library (and so sacreBLEU)
gives for the same segments.

Every metric is handled alike through the Metric contract (:mod:`bleuscope.metrics.base`): BLEU first,
then any further metric (chrF, TER, ...), each a :class:`MetricSummary` with corpus scores, bootstrap
intervals, sentence scores, the all-pairs test, clusters and rank ranges. The first metric's tokens (its
``token_view()``: BLEU's tokenizer, case and n-gram orders) also give the matched-n-gram views; the
aggregate analyses are in :mod:`bleuscope.report.analyses`.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from .. import BLEU, BLEUScore
from ..analysis import significance
from ..analysis.significance.clusters import significance_clusters
from ..analysis.significance.resampling import _advance as advance
from ..core.signature import nrefs_field
from ..core.validation import reference_presence
from ..metrics.base import Metric, TokenView, check_metric
from . import analyses, matching

#: default number of segments whose texts go into the page (all segments are always scored)
DEFAULT_MAX_SEGMENTS = 5000
#: wins and losses listed per direction
TOP_DIFFERENCES = 10
#: segments tokenized and matched at a time (bounds the memory of the clipping limits)
SEGMENT_BLOCK = 20_000


@dataclass(frozen=True)
class MetricSummary:
    """One metric over every system: corpus scores, bootstrap intervals, sentence scores, pairwise tests.

    ``p_values``, ``order``, ``cluster_of``, ``clusters`` and ``rank_ranges`` come from the all-pairs paired
    bootstrap (Holm-Bonferroni adjusted when the report asks for it); they are None with one system.
    """

    name: str
    signature: str
    higher_is_better: bool
    scores: tuple[float, ...]  # corpus score per system
    intervals: tuple  # bootstrap interval per system: objects with mean, ci (half-width), lower, upper
    sentence_scores: np.ndarray  # float64 [K, S]
    all_pairs: significance.AllPairsResult | None  # the raw test, with two systems or more
    stats: np.ndarray  # int64 [K, S, D] per-segment statistics
    score_rows: Callable[[np.ndarray], np.ndarray]  # statistics rows -> scores
    p_values: np.ndarray | None = None  # [K, K] as shown (adjusted with Holm-Bonferroni when asked)
    clusters: tuple[tuple[int, ...], ...] | None = None  # system indices, best cluster first
    cluster_of: tuple[int, ...] | None = None
    rank_ranges: tuple[tuple[int, int], ...] | None = None

    @property
    def order(self) -> list[int]:
        """System indices best first (by corpus score; lower first where lower is better)."""
        sign = -1.0 if self.higher_is_better else 1.0
        return sorted(range(len(self.scores)), key=lambda k: (sign * self.scores[k], k))


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
class InputFile:
    """An input file named in the page header: its role, name, size in bytes and SHA-256."""

    role: str
    name: str
    size: int
    sha256: str


@dataclass(frozen=True)
class ReportData:
    """Everything the page shows. ``systems[k]`` indexes every per-system field."""

    title: str
    systems: tuple[str, ...]
    reference_names: tuple[str, ...]
    n_segments: int
    nrefs: str  # the signature's nrefs field ("2", or "var")
    bleu: Metric  # BLEU: the first metric, whose token view the n-gram views use
    tokens: TokenView  # its tokenizer, case, n-gram orders and target language
    corpus: tuple[BLEUScore, ...]  # corpus BLEU per system (counts, totals, precisions, BP, lengths)
    stats: np.ndarray  # int64 [K, S, W] BLEU statistics
    metrics: tuple[MetricSummary, ...]  # BLEU first
    length_buckets: tuple[analyses.BucketTable, ...]  # per metric: scores by reference length
    length_diff_buckets: tuple[analyses.BucketTable, ...]  # per metric: by hypothesis - reference length
    best_differences: tuple[analyses.BestDifference, ...]  # per metric (two systems or more)
    ngram_differences: tuple[analyses.NgramDifferences, ...]  # every ordered pair (a < b), empty for one system
    word_accuracy: analyses.WordAccuracy
    reference_lengths: np.ndarray  # int64 [S]: tokens of the first reference present, per segment
    pair: tuple[int, int]  # default systems (A, B) compared in the pair views
    sources: tuple[str, ...] | None
    references: tuple[tuple[str | None, ...], ...]  # streams
    hypotheses: tuple[tuple[str, ...], ...]  # [K][S]
    shown_segments: int  # segments whose texts are in the page (the first ones)
    highlights: tuple[tuple[Highlight, ...], ...]  # [K][shown]
    best_reference: np.ndarray  # int [K, shown]: the reference stream each hypothesis matches best
    n_bootstrap: int
    seed: int
    alpha: float
    holm: bool = False
    label_buckets: tuple[analyses.BucketTable, ...] = ()  # per metric: scores by segment label (--labels)
    ngram_over: tuple[analyses.NgramDifferences, ...] = ()  # compare-mt's over-generated n-grams, every pair
    ngram_under: tuple[analyses.NgramDifferences, ...] = ()  # and under-generated ones
    bucket_words: tuple[analyses.BucketWords, ...] = ()  # the most frequent words of each frequency bucket
    segment_labels: tuple[str, ...] | None = None  # the label of each segment
    warnings: tuple[str, ...] = ()
    command: str | None = None
    inputs: tuple[InputFile, ...] = ()
    created: str = ""

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
        if not isinstance(lines, Iterable):
            raise TypeError(f"system {name!r} must be a list of hypothesis strings, got {type(lines).__name__}")
        names.append(name)
        hyps.append(list(lines))
    return tuple(names), hyps


def _row_scorer(metric: Metric) -> Callable[[np.ndarray], np.ndarray]:
    """A vectorized ``rows -> scores`` for a metric: its ``score_rows`` as float64."""
    return lambda rows: np.asarray(metric.score_rows(np.atleast_2d(rows)), dtype=np.float64)


def holm_bonferroni(p: np.ndarray) -> np.ndarray:
    """Holm-Bonferroni adjusted p-values of the pairs (i < j) of a symmetric matrix (diagonal kept at 1)."""
    k = len(p)
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    m = len(pairs)
    ranked = sorted(pairs, key=lambda ij: (p[ij], ij))
    out = np.ones_like(p, dtype=np.float64)
    running = 0.0
    for rank, (i, j) in enumerate(ranked):
        running = max(running, min(1.0, (m - rank) * float(p[i, j])))
        out[i, j] = out[j, i] = running
    return out


def metric_summary(metric, names, stats: np.ndarray, nrefs: str, n_bootstrap: int, seed: int, alpha: float,
                   holm: bool = False) -> MetricSummary:
    """Corpus scores, bootstrap intervals, sentence scores and the all-pairs test of one additive metric from
    its per-system statistics ``stats`` [K, S, D].

    The intervals of all systems come from one paired bootstrap (the same draws for every system, so the
    same bounds as a ``confidence_interval`` per system, for one resampling pass instead of one per system).
    """
    score_rows = _row_scorer(metric)
    name, higher = metric.name, bool(metric.higher_is_better)
    corpus = tuple(float(x) for x in score_rows(stats.sum(axis=1)))
    # sentence scores: BLEU's with effective order, as sacreBLEU's sentence BLEU
    sentence = np.stack([np.asarray(metric.sentence_score_rows(s), dtype=np.float64) for s in stats])
    try:
        signature = metric.signature(nrefs)
    except (TypeError, ValueError):
        signature = ""
    systems = dict(zip(names, list(stats)))
    if len(names) == 1:
        intervals: tuple = (significance.confidence_interval(stats[0], metric=metric, n_samples=n_bootstrap,
                                                             seed=seed, name=names[0]),)
        return MetricSummary(name, signature, higher, corpus, intervals, sentence, None, stats, score_rows)
    paired = significance.paired_bootstrap(systems, metric=metric, n_samples=n_bootstrap, seed=seed)
    intervals = tuple(paired[n] for n in names)
    pairs = significance.all_pairs(systems, metric=metric, test="bs", n_samples=n_bootstrap, seed=seed,
                                   alpha=alpha)
    p = holm_bonferroni(pairs.p_values) if holm else np.array(pairs.p_values)
    goodness = np.asarray(corpus) if higher else -np.asarray(corpus)
    clusters, ranks = significance_clusters(list(pairs.order), goodness, p, alpha)
    cluster_of = [0] * len(names)
    for c, members in enumerate(clusters, start=1):
        for i in members:
            cluster_of[i] = c
    return MetricSummary(name, signature, higher, corpus, intervals, sentence, pairs, stats, score_rows, p,
                         tuple(tuple(c) for c in clusters), tuple(cluster_of), tuple(ranks))


# ---------------------------------------------------------------------------------------------------------
# matched n-grams
# ---------------------------------------------------------------------------------------------------------
def reference_limits(ref_tokens: Sequence[list[str]], max_order: int) -> list[dict]:
    """Per order: the largest count of each n-gram in any one reference (BLEU's clipping limits)."""
    out: list[dict] = []
    for n in range(1, max_order + 1):
        if len(ref_tokens) == 1:
            out.append(Counter(analyses.ngrams(ref_tokens[0], n)))
            continue
        limit: dict = {}
        for ref in ref_tokens:
            for g, c in Counter(analyses.ngrams(ref, n)).items():
                if c > limit.get(g, 0):
                    limit[g] = c
        out.append(limit)
    return out


def matched_ngrams(hyp_tokens: list[str], limits: list[dict], grams: list | None = None) -> list[list[int]]:
    """Start positions of the clipped n-gram matches, per order (1..len(limits)).

    An n-gram occurring ``c`` times in the hypothesis and at most ``m`` times in any one reference has its
    first ``min(c, m)`` occurrences matched: the counts per order are BLEU's clipped counts. Only positions
    whose two (n-1)-grams both occur in the references are tried for order n (an n-gram of a reference
    contains both). ``grams``, when given, receives each matched n-gram (a tuple of tokens), in order.
    """
    out: list[list[int]] = []
    candidates: Sequence[int] = range(len(hyp_tokens))
    for n, limit in enumerate(limits, start=1):
        grams_n = [(t,) for t in hyp_tokens] if n == 1 else [tuple(hyp_tokens[i:i + n]) for i in candidates]
        hits = [(i, g, m) for i, g, m in zip(candidates, grams_n, map(limit.get, grams_n)) if m]
        used: dict = {}
        starts = []
        for i, g, m in hits:
            u = used.get(g, 0)
            if u < m:
                used[g] = u + 1
                starts.append(i)
                if grams is not None:
                    grams.append(g)
        out.append(starts)
        found = {i for i, _, _ in hits}
        candidates = [i for i, _, _ in hits if i + 1 in found]
    return out


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
    if offsets is None:
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
    return Highlight(text, tuple((a, b, lvl) for a, b, lvl in spans), tokenized)


# ---------------------------------------------------------------------------------------------------------
# the whole report
# ---------------------------------------------------------------------------------------------------------
def _statistics(metric, hyps, references, names) -> tuple[np.ndarray, str]:
    segs = significance.system_statistics(metric, hyps, references, names=list(names))
    return np.stack([s.stats for s in segs]), nrefs_field(segs[0].nrefs)


def _best_references(bleu: Metric, ids: matching.NgramIds, refs: Sequence[matching.Encoded], hyp: matching.Encoded,
                     matches: matching.SystemMatches, present: np.ndarray) -> np.ndarray:
    """Per segment of a block, the reference stream (text r of ``ids``) with the highest sentence BLEU against
    the hypothesis alone: the first on ties; a missing reference never wins."""
    if len(refs) == 1:
        return np.zeros(ids.n_segments, dtype=np.int64)
    hyp_len = hyp.lengths
    totals = np.maximum(hyp_len[:, None] - np.arange(len(ids.sizes))[None, :], 0)
    scores = []
    for r, ref in enumerate(refs):
        rows = np.concatenate([hyp_len[:, None], ref.lengths[:, None],
                               matching.single_reference_matches(ids, matches, r), totals], axis=1)
        scores.append(np.where(present[:, r], bleu.sentence_score_rows(rows), -1.0))
    return np.argmax(np.stack(scores), axis=0)


def input_warnings(names, hyps, streams, reference_names, sources, metrics, trg_lang: str | None) -> list[str]:
    """What a reader should know about the input before trusting the numbers."""
    out = []

    def crlf(lines) -> int:
        return sum(1 for x in lines if x is not None and x.endswith("\r"))

    for name, lines in [*zip(names, hyps), *zip(reference_names, streams)] + (
            [("source", sources)] if sources is not None else []):
        n = crlf(lines)
        if n:
            out.append(f"{name}: {n} line(s) end with a carriage return (CRLF line ends); it is part of the text "
                       "and is shown as ␍")
    for name, lines in zip(names, hyps):
        empty = sum(1 for x in lines if not x.strip())
        if empty == len(lines):
            out.append(f"system {name}: every line is empty")
        elif empty:
            out.append(f"system {name}: {empty} empty line(s)")
    for name, lines in zip(reference_names, streams):
        empty = sum(1 for x in lines if x is not None and not x.strip())
        if empty:
            out.append(f"reference {name}: {empty} empty line(s); such a segment counts against every system")
    for i in range(len(hyps)):
        for j in range(i + 1, len(hyps)):
            if hyps[i] == hyps[j]:
                out.append(f"systems {names[i]} and {names[j]} are identical")
    for name, lines in zip(names, hyps):
        note = placeholder_note(name, lines)
        if note:
            out.append(note)
    for metric in metrics:
        for note in metric.input_notes(streams, trg_lang):
            if note not in out:  # one metric's scorers (ROUGE: one per type) give the same note
                out.append(note)
    return out


#: tokens that stand for a word a system could not produce (vocabulary placeholders, special symbols)
PLACEHOLDER = re.compile(r"<unk>|<UNK>|\[UNK\]|<s>|</s>|<pad>|\[PAD\]|<mask>|\[MASK\]|<\|endoftext\|>|\bUNK\b")
#: a system is named when placeholders appear on more than this share of its lines (and on 3 lines or more)
PLACEHOLDER_SHARE = 0.005


def placeholder_note(name: str, lines: Sequence[str]) -> str | None:
    """A note when a system's output holds placeholder tokens (``<unk>``, ``</s>``, ...) on more than
    :data:`PLACEHOLDER_SHARE` of its lines: no reference matches them, so every metric counts them as wrong."""
    found: Counter = Counter()
    hit = 0
    for line in lines:
        tokens = PLACEHOLDER.findall(line)
        if tokens:
            hit += 1
            found.update(tokens)
    if hit < 3 or hit <= PLACEHOLDER_SHARE * len(lines):
        return None
    which = ", ".join(f"{t} {c} times" for t, c in found.most_common(3))
    return (f"system {name}: {hit} of {len(lines)} lines ({100 * hit / len(lines):.1f}%) hold placeholder tokens "
            f"({which}): words the system did not translate, which no reference matches")


def compute_report(
    systems,
    references,
    *,
    sources: Sequence[str] | None = None,
    bleu: Metric | None = None,
    metrics: Sequence[Metric] = (),
    reference_names: Sequence[str] | None = None,
    title: str | None = None,
    n_bootstrap: int = significance.BOOTSTRAP_SAMPLES,
    seed: int | None = significance.DEFAULT_SEED,
    alpha: float = 0.05,
    max_segments: int | None = DEFAULT_MAX_SEGMENTS,
    pair: tuple[str, str] | None = None,
    holm: bool = False,
    train: Sequence[str] | None = None,
    train_name: str = "training data",
    command: str | None = None,
    inputs: Sequence[InputFile] = (),
    created: str = "",
    labels: Sequence[str] | None = None,
    phase: Callable[[str, str], None] | None = None,
) -> ReportData:
    """All numbers of the report; see :func:`bleuscope.report.build_report` for the arguments.

    ``phase(label, unit)``, when given, is called as each long phase begins (counting, resampling each
    metric's intervals and all-pairs tests, matching n-grams, the tables' resamples); the phase's counts come
    as ``advance(n)`` calls, the resamples' through
    :func:`bleuscope.analysis.significance.resampling.reporting_progress` (the command's progress line)."""
    def begin(label: str, unit: str) -> None:
        if phase is not None:
            phase(label, unit)
    names, hyps = _check_systems(systems)
    from .cli import MAX_REPORT_RESAMPLES, MAX_REPORT_SEGMENTS, MAX_REPORT_SYSTEMS

    if len(names) > MAX_REPORT_SYSTEMS:
        raise ValueError(f"{len(names)} systems: the report compares every pair of systems and takes at most "
                         f"{MAX_REPORT_SYSTEMS}")
    if isinstance(n_bootstrap, int) and n_bootstrap > MAX_REPORT_RESAMPLES:
        raise ValueError(f"n_bootstrap must be at most {MAX_REPORT_RESAMPLES:,} in the report (it resamples every "
                         f"table), got {n_bootstrap:,}")
    if len(hyps[0]) > MAX_REPORT_SEGMENTS:
        raise ValueError(f"{len(hyps[0]):,} segments: the report keeps every segment in memory and takes at most "
                         f"{MAX_REPORT_SEGMENTS:,}")
    bleu = BLEU() if bleu is None else check_metric(bleu, "bleu")
    view = bleu.token_view()
    if view is None:
        raise TypeError(f"bleu must be a metric on BLEU's n-gram statistics with a token view (a bleuscope.BLEU), "
                        f"got {type(bleu).__name__}")
    metrics = [check_metric(m, f"metrics[{k}]") for k, m in enumerate(metrics)]
    if isinstance(references, (str, bytes)) or not isinstance(references, Sequence) or not references:
        raise TypeError("references must be a non-empty list of reference streams (references[k][i])")
    if max_segments is not None and (isinstance(max_segments, bool) or not isinstance(max_segments, int)
                                     or max_segments < 0):
        raise ValueError(f"max_segments must be None or an integer >= 0, got {max_segments!r}")
    seed = significance.resolve_seed(seed)
    if pair is not None:
        missing = [p for p in pair if p not in names]
        if missing or len(pair) != 2:
            raise ValueError(f"pair must name two of the systems {list(names)}, got {pair!r}")

    n_pairs = len(names) * (len(names) - 1) // 2
    begin(f"counting {bleu.name}", "systems")
    stats, nrefs = _statistics(bleu, hyps, references, names)
    advance(len(names))
    n_seg = len(hyps[0])
    streams = [list(s) for s in references]
    if sources is not None:
        if isinstance(sources, (str, bytes)) or len(sources) != n_seg:
            got = "a single string" if isinstance(sources, (str, bytes)) else f"{len(sources)} lines"
            raise ValueError(f"sources has {got} but the systems have {n_seg} segments")
        sources = tuple(sources)
    if labels is not None:
        if isinstance(labels, (str, bytes)) or len(labels) != n_seg:
            got = "a single string" if isinstance(labels, (str, bytes)) else f"{len(labels)} lines"
            raise ValueError(f"labels has {got} but the systems have {n_seg} segments")
        labels = tuple(str(x) for x in labels)
    if reference_names is None:
        reference_names = [f"reference {k + 1}" for k in range(len(streams))]
    elif len(reference_names) != len(streams):
        raise ValueError(f"{len(reference_names)} reference names for {len(streams)} reference streams")

    corpus = tuple(bleu.score_from_statistics(s, nrefs) for s in stats)
    resampling = f"intervals, {n_pairs:,} pair test{'s' if n_pairs > 1 else ''}" if n_pairs else "intervals"
    begin(f"{bleu.name}: {resampling}", "resamples")
    summaries = [metric_summary(bleu, names, stats, nrefs, n_bootstrap, seed, alpha, holm)]
    for metric in metrics:
        begin(f"counting {metric.name}", "systems")
        m_stats, m_nrefs = _statistics(metric, hyps, references, names)
        advance(len(names))
        begin(f"{metric.name}: {resampling}", "resamples")
        summaries.append(metric_summary(metric, names, m_stats, m_nrefs, n_bootstrap, seed, alpha, holm))
    first = summaries[0].order
    if pair is None:
        pair_idx = (first[0], first[1]) if len(names) > 1 else (0, 0)
    else:
        pair_idx = (names.index(pair[0]), names.index(pair[1]))

    # tokens of every segment, in blocks of segments (the n-gram ids of a block are dropped after it):
    # reference lengths and word frequencies first, then matched n-grams, highlights and word matches
    shown = n_seg if max_segments is None else min(n_seg, max_segments)
    order = view.max_order
    blocks = [(lo, min(n_seg, lo + SEGMENT_BLOCK)) for lo in range(0, n_seg, SEGMENT_BLOCK)]
    present = reference_presence(streams)  # [S, R]
    first_stream = np.argmax(present, axis=1)  # segments without any reference are refused earlier
    vocabulary = matching.Vocabulary()
    if train is not None:
        train_ids = vocabulary.encode(matching.tokenize(view, list(train))).ids
        freq_source = train_name

    def reference_ids(lo: int, hi: int) -> list[matching.Encoded]:
        return [vocabulary.encode(matching.tokenize(view, [x if x is not None else "" for x in s[lo:hi]]))
                for s in streams]

    def first_present(refs: list[matching.Encoded], lo: int) -> tuple[np.ndarray, np.ndarray]:
        """(segment, word id) of the first present reference of each segment of the block."""
        segs, words = [], []
        for r, enc in enumerate(refs):
            seg = enc.segments()
            keep = first_stream[lo + seg] == r
            segs.append(seg[keep])
            words.append(enc.ids[keep])
        seg, word = np.concatenate(segs), np.concatenate(words)
        by_segment = np.argsort(seg, kind="stable")
        return seg[by_segment], word[by_segment]

    ref_len = np.zeros(n_seg, dtype=np.int64)
    reference_frequency = np.zeros(0, dtype=np.int64)
    kept = None
    for lo, hi in blocks:
        refs = reference_ids(lo, hi)
        seg, word = first_present(refs, lo)
        ref_len[lo:hi] = np.bincount(seg, minlength=hi - lo)
        counts = np.bincount(word, minlength=len(vocabulary))
        counts[:len(reference_frequency)] += reference_frequency
        reference_frequency = counts
        if len(blocks) == 1:
            kept = refs
    if train is not None:
        frequency = np.bincount(train_ids, minlength=len(vocabulary))
    else:
        frequency, freq_source = reference_frequency, "the reference"
    n_refs = len(streams)
    ngram_vocabulary: dict = {}
    ref_totals = np.zeros(0, dtype=np.int64)
    matches = [analyses.MatchedNgrams(ngram_vocabulary) for _ in names]
    overs = [analyses.MatchedNgrams(ngram_vocabulary) for _ in names]
    unders = [analyses.MatchedNgrams(ngram_vocabulary) for _ in names]
    highlights: list[list[Highlight]] = [[] for _ in names]
    word_blocks: list[list[np.ndarray]] = [[] for _ in names]
    word_totals = [np.zeros((0, 3), dtype=np.int64) for _ in names]  # per word id: matched, output, reference
    best_reference = np.zeros((len(names), shown), dtype=np.int64)
    n_buckets = len(analyses.FREQUENCY_CUTOFFS) + 1
    begin("matching n-grams", "segments")
    for lo, hi in blocks:
        advance(hi - lo)
        refs = kept if kept is not None else reference_ids(lo, hi)
        # ids of every system's tokens; the tokens themselves only for the highlights, as compact strings
        hyp_ids, hyp_joined = [], []
        for h in hyps:
            tokens = matching.tokenize(view, h[lo:hi])
            hyp_ids.append(vocabulary.encode(tokens))
            hyp_joined.append([" ".join(t) for t in tokens[:max(0, min(hi, shown) - lo)]])
            del tokens
        ids = matching.NgramIds([*refs, *hyp_ids], order)
        limits = matching.reference_limits(ids, range(n_refs))
        system_matches = [matching.match_system(ids, n_refs + k, limits) for k in range(len(names))]
        # n-gram ids of the report: tuples of words, numbered across blocks; every reference n-gram gets one
        # (matched and under-generated n-grams are among them), and every n-gram a system over-generates
        words = vocabulary.words()
        local_to_global = []
        for n in range(1, order + 1):
            size = ids.sizes[n - 1]
            wanted = np.unique(np.concatenate([limits[n - 1][0] % size] + [
                m.keys[n - 1][m.counts[n - 1] > m.clipped[n - 1]] % size for m in system_matches]))
            mapping = np.full(ids.sizes[n - 1], -1, dtype=np.int64)
            mapping[wanted] = [ngram_vocabulary.setdefault(g, len(ngram_vocabulary))
                               for g in ids.tuples(n, wanted, words)]
            local_to_global.append(mapping)
            ref_keys, ref_limit = limits[n - 1]
            local = ref_keys % ids.sizes[n - 1]
            known = mapping[local] >= 0
            totals = np.bincount(mapping[local[known]], weights=ref_limit[known], minlength=len(ngram_vocabulary))
            totals[:len(ref_totals)] += ref_totals
            ref_totals = totals.astype(np.int64)
        first_seg, first_word = first_present(refs, lo)
        word_bucket = analyses.bucket_of(np.pad(frequency, (0, max(0, len(vocabulary) - len(frequency)))),
                                         analyses.FREQUENCY_CUTOFFS)
        block_present = present[lo:hi]
        for k, m in enumerate(system_matches):
            for n in range(1, order + 1):
                hit = m.clipped[n - 1] > 0
                keys = m.keys[n - 1][hit]
                matches[k].add_counts(lo + keys // ids.sizes[n - 1],
                                      local_to_global[n - 1][keys % ids.sizes[n - 1]], m.clipped[n - 1][hit])
                # compare-mt's over-generated (produced beyond the clipping limit) and under-generated
                # (in the references beyond what was matched) occurrences
                size = ids.sizes[n - 1]
                extra = m.counts[n - 1] - m.clipped[n - 1]
                keys = m.keys[n - 1][extra > 0]
                overs[k].add_counts(lo + keys // size, local_to_global[n - 1][keys % size], extra[extra > 0])
                ref_keys, ref_limit = limits[n - 1]
                missing = ref_limit - matching.counts_at(ref_keys, m.keys[n - 1], m.clipped[n - 1])
                keys = ref_keys[missing > 0]
                unders[k].add_counts(lo + keys // size, local_to_global[n - 1][keys % size], missing[missing > 0])
            enc = hyp_ids[k]
            word_blocks[k].append(analyses.word_match_counts((enc.segments(), enc.ids), (first_seg, first_word),
                                                             word_bucket, hi - lo, n_buckets))
            block_totals = analyses.word_totals((enc.segments(), enc.ids), (first_seg, first_word), len(vocabulary))
            if len(word_totals[k]) < len(block_totals):
                word_totals[k] = np.pad(word_totals[k], ((0, len(block_totals) - len(word_totals[k])), (0, 0)))
            word_totals[k][:len(block_totals)] += block_totals
            if lo < shown:
                levels = matching.token_levels(len(enc.ids), m.starts).tolist()
                starts = enc.starts.tolist()
                for i in range(lo, min(hi, shown)):
                    toks = hyp_joined[k][i - lo].split()
                    highlights[k].append(highlight(hyps[k][i], toks, levels[starts[i - lo]:starts[i - lo + 1]],
                                                   view.lowercase))
                best = _best_references(bleu, ids, refs, enc, m, block_present)
                best_reference[k, lo:min(hi, shown)] = best[:min(hi, shown) - lo]
    word_rows = [np.concatenate(w) for w in word_blocks]

    begin("the tables' intervals", "resamples")
    resampler = analyses.Resampler(n_seg, n_bootstrap, seed)
    length_groups = analyses.bucket_of(ref_len, analyses.LENGTH_CUTOFFS)
    length_labels = analyses.bucket_labels(analyses.LENGTH_CUTOFFS)
    diff_groups = analyses.bucket_of(stats[:, :, 0] - stats[:, :, 1], analyses.LENGTH_DIFF_CUTOFFS)
    diff_labels = analyses.bucket_labels(analyses.LENGTH_DIFF_CUTOFFS)
    every_metric = [(m.name, m.score_rows, m.stats) for m in summaries]
    length_tables = analyses.bucket_tables("by reference length (tokens)", every_metric, length_groups,
                                           length_labels, resampler)
    diff_tables = analyses.bucket_tables("by length difference (hypothesis − reference tokens)", every_metric,
                                         diff_groups, diff_labels, resampler)
    label_tables: list = []
    if labels is not None:
        label_names = list(dict.fromkeys(labels))  # in order of first appearance
        index = {x: g for g, x in enumerate(label_names)}
        label_groups = np.array([index[x] for x in labels], dtype=np.int64)
        label_tables = analyses.bucket_tables("by segment label", every_metric, label_groups,
                                              [x if x else "(empty)" for x in label_names], resampler)
    best_differences = [analyses.best_difference(m.name, m.score_rows, m.stats, m.order, resampler)
                        for m in summaries] if len(names) > 1 else []
    ngram_tables: tuple[analyses.NgramDifferences, ...] = ()
    over_tables = under_tables = ngram_tables
    if len(names) > 1:
        grams = analyses.gram_list(ngram_vocabulary)
        ngram_tables = analyses.ngram_differences(matches, ref_totals, resampler, analyses.NGRAM_CANDIDATES,
                                                  grams=grams)
        over_tables, under_tables = (analyses.ngram_differences(x, ref_totals, resampler,
                                                                analyses.NGRAM_REPORT_LENGTH, grams=grams)
                                     for x in (overs, unders))
    accuracy = analyses.word_accuracy(word_rows, freq_source, resampler)
    final_bucket = analyses.bucket_of(np.pad(frequency, (0, max(0, len(vocabulary) - len(frequency)))),
                                      analyses.FREQUENCY_CUTOFFS)
    drill = analyses.bucket_words([np.pad(t, ((0, max(0, len(vocabulary) - len(t))), (0, 0))) for t in word_totals],
                                  final_bucket, vocabulary.words(), accuracy.labels)

    notes = input_warnings(names, hyps, streams, reference_names, sources, metrics, view.trg_lang)
    return ReportData(
        title=title or f"bleuscope report: {len(names)} system{'s' if len(names) != 1 else ''}, {n_seg} segments",
        systems=names, reference_names=tuple(reference_names), n_segments=n_seg, nrefs=nrefs, bleu=bleu,
        tokens=view, corpus=corpus, stats=stats, metrics=tuple(summaries), length_buckets=tuple(length_tables),
        length_diff_buckets=tuple(diff_tables), best_differences=tuple(best_differences), ngram_differences=ngram_tables,
        ngram_over=over_tables, ngram_under=under_tables, bucket_words=drill,
        word_accuracy=accuracy, reference_lengths=ref_len, pair=pair_idx, sources=sources,
        references=tuple(tuple(s) for s in streams), hypotheses=tuple(tuple(h) for h in hyps),
        shown_segments=shown, highlights=tuple(tuple(h) for h in highlights),
        best_reference=best_reference, n_bootstrap=n_bootstrap, seed=seed,
        alpha=alpha, holm=holm, label_buckets=tuple(label_tables), segment_labels=labels, warnings=tuple(notes), command=command, inputs=tuple(inputs), created=created,
    )


def top_differences(sentence: np.ndarray, a: int, b: int, n: int = TOP_DIFFERENCES) -> tuple[list[int], list[int]]:
    """Segments where B beats A most (largest B - A first) and where A beats B most; ties by segment order."""
    delta = sentence[b] - sentence[a]
    idx = np.arange(len(delta))
    wins = [int(i) for i in idx[np.lexsort((idx, -delta))] if delta[i] > 0][:n]
    losses = [int(i) for i in idx[np.lexsort((idx, delta))] if delta[i] < 0][:n]
    return wins, losses
