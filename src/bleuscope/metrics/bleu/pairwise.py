"""Pairwise sentence BLEU: every hypothesis against every single reference (MBR builds on it:
:mod:`bleuscope.analysis.mbr`).

``pairwise_scores(bleu, hyps, refs)[h, r]`` is, bit for bit, ``bleu.sentence_score(hyps[h], [refs[r]]).score``
(and so sacreBLEU's ``sentence_score`` with the same options), computed without H x R tokenizations:

1. Hypotheses and references are encoded once with one :class:`~bleuscope.metrics.bleu.encoding.CorpusEncoder`
   (each distinct word is tokenized once; a reference list equal to the hypothesis list is encoded once).
2. Per order n, every n-gram occurrence gets a global n-gram id: order 1 is the token id, order n ranks
   ``(id of the (n-1)-gram prefix, next token)`` over the union of hypotheses and references (exact, no
   hashing). Only n-grams that occur on *both* sides can ever match; only their occurrences are kept, and
   only those are extended to the next order.
3. The clipped matches of a pair are ``sum_g min(c_h(g), c_r(g))`` over the shared n-grams ``g``, where
   ``c_h``/``c_r`` count ``g`` in hypothesis ``h`` / reference ``r``. Two exact integer paths compute it:

   * n-grams shared by many lines ("dense") go through matrix products of 0/1 indicator matrices, using
     ``min(a, b) = sum_{k>=1} [a >= k] [b >= k]`` (float32 products of 0/1 values summed below 2**24 are
     exact integers), in column blocks of bounded size;
   * n-grams shared by few lines ("sparse") go through a join: the (hypothesis, n-gram, count) entries are
     matched to the (reference, n-gram, count) entries of the same n-gram and ``min`` of the counts is
     summed per (h, r) cell with ``bincount``, in chunks of bounded size.

4. The per-pair statistics rows ``[hyp_len, ref_len, correct_1..N, total_1..N]`` (one reference, so
   ``ref_len`` is its length) are scored by :func:`bleuscope.metrics.bleu.scoring.compute_scores`, the function every
   bleuscope sentence score goes through, in row blocks.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ...core import native
from ...core.native import bleu as native_bleu
from ...core.validation import check_text_list
from .encoding import EncodedLines, expand_ranges, slice_lines
from .layout import hypothesis_ngram_counts, layout, order_of_width
from .scoring import SACREBLEU_SMOOTHING, compute_scores

_INT64_MAX = np.iinfo(np.int64).max

#: elements of one dense count block (H x block columns)
DENSE_BLOCK_ELEMENTS = 1 << 22
#: (hypothesis, reference) entry pairs generated at once by the sparse join
JOIN_PAIRS = 1 << 22
#: (hypothesis, reference) pairs counted and scored at once (hypotheses are processed in row blocks)
PAIR_BLOCK = 1 << 19
#: an n-gram shared by n_h hypotheses and n_r references goes through the matrix product when
#: ``n_h * n_r * DENSE_RATIO > H * R`` (a product costs about H * R per column, the join n_h * n_r pairs)
DENSE_RATIO = 256


def _line_layout(enc: EncodedLines) -> tuple[np.ndarray, np.ndarray]:
    """Line index and tokens remaining in the line (this one included) for every token position."""
    n_tok = len(enc.ids)
    line = np.repeat(np.arange(len(enc.lengths), dtype=np.int64), enc.lengths)
    ends = np.cumsum(enc.lengths)
    remaining = ends[line] - np.arange(n_tok, dtype=np.int64)
    return line, remaining


def _entries(line: np.ndarray, gram: np.ndarray):
    """Distinct (line, n-gram) entries with their counts, sorted by n-gram."""
    n_lines = int(line.max(initial=0)) + 1
    uniq, counts = np.unique(gram * n_lines + line, return_counts=True)
    return uniq % n_lines, uniq // n_lines, counts


def _dense_products(acc, h_ent, r_ent, cols: np.ndarray, n_hyp: int, n_ref: int) -> None:
    """acc += sum over the n-grams in ``cols`` of min(c_h, c_r), via 0/1 matrix products."""
    n_cols = len(cols)
    col_of = np.full(int(cols.max()) + 1, -1, dtype=np.int64)
    col_of[cols] = np.arange(n_cols, dtype=np.int64)
    block = max(1, DENSE_BLOCK_ELEMENTS // max(n_hyp, n_ref))
    sides = []
    for line, gram, count in (h_ent, r_ent):
        keep = gram <= cols[-1]
        c = np.where(keep, col_of[np.minimum(gram, cols[-1])], -1)
        keep = c >= 0
        sides.append((line[keep], c[keep], count[keep]))  # sorted by column (entries are sorted by n-gram)
    for c0 in range(0, n_cols, block):
        c1 = min(n_cols, c0 + block)
        mats = []
        for (line, c, count), n_lines in zip(sides, (n_hyp, n_ref)):
            a, b = np.searchsorted(c, [c0, c1])
            m = np.zeros((n_lines, c1 - c0), dtype=np.int32)
            m[line[a:b], c[a:b] - c0] = count[a:b]
            mats.append(m)
        hm, rm = mats
        k = 1
        use_h, use_r = hm, rm
        while use_h.shape[1]:
            acc += (use_h >= k).astype(np.float32) @ (use_r >= k).astype(np.float32).T
            k += 1
            more = (use_h.max(axis=0) >= k) & (use_r.max(axis=0) >= k)
            use_h, use_r = use_h[:, more], use_r[:, more]


def _sparse_join(acc_flat, h_ent, r_ent, n_ref: int) -> None:
    """acc += min(c_h, c_r) for every (hypothesis entry, reference entry) pair of the same n-gram."""
    h_line, h_gram, h_count = h_ent
    r_line, r_gram, r_count = r_ent
    if not len(h_gram) or not len(r_gram):
        return
    start = np.searchsorted(r_gram, h_gram, side="left")
    n_pairs = np.searchsorted(r_gram, h_gram, side="right") - start
    cum = np.cumsum(n_pairs)
    a = 0
    while a < len(h_gram):
        base = cum[a - 1] if a else 0
        b = int(np.searchsorted(cum, base + JOIN_PAIRS, side="right"))
        b = max(b, a + 1)
        idx = expand_ranges(start[a:b], n_pairs[a:b])
        rep = np.repeat(np.arange(a, b, dtype=np.int64), n_pairs[a:b])
        w = np.minimum(h_count[rep], r_count[idx])
        acc_flat += np.bincount(h_line[rep] * n_ref + r_line[idx], weights=w, minlength=len(acc_flat))
        a = b


def _clipped_matches(h_ent, r_ent, n_grams: int, n_hyp: int, n_ref: int) -> np.ndarray:
    """int64 [H, R]: sum over shared n-grams of min(count in hypothesis, count in reference)."""
    n_h = np.bincount(h_ent[1], minlength=n_grams)
    n_r = np.bincount(r_ent[1], minlength=n_grams)
    dense = (n_h * n_r) * DENSE_RATIO > n_hyp * n_ref
    acc = np.zeros((n_hyp, n_ref), dtype=np.float64)
    dense_cols = np.flatnonzero(dense)
    if len(dense_cols):
        _dense_products(acc, h_ent, r_ent, dense_cols, n_hyp, n_ref)
    if not dense.all():
        sparse = [tuple(x[~dense[e[1]]] for x in e) for e in (h_ent, r_ent)]
        _sparse_join(acc.reshape(-1), sparse[0], sparse[1], n_ref)
    return np.rint(acc).astype(np.int64)


def pairwise_match_counts(hyp: EncodedLines, ref: EncodedLines | None, max_order: int, vocab_size: int) -> np.ndarray:
    """Clipped n-gram matches, int64 [N, H, R], of every hypothesis against every single reference.

    ``ref=None`` means the references are the hypotheses themselves (encoded and ranked once).
    """
    same = ref is None
    sides = [hyp] if ref is None else [hyp, ref]
    n_hyp = len(hyp.lengths)
    n_ref = n_hyp if ref is None else len(ref.lengths)
    out = np.zeros((max_order, n_hyp, n_ref), dtype=np.int64)
    if n_hyp == 0 or n_ref == 0:
        return out
    ids = [s.ids.astype(np.int64, copy=False) for s in sides]
    layouts = [_line_layout(s) for s in sides]
    vocab = max(int(vocab_size), max(int(x.max(initial=-1)) for x in ids) + 1, 1)
    pos = [np.arange(len(x), dtype=np.int64) for x in ids]
    gram = [x for x in ids]
    n_grams = vocab
    for n in range(1, max_order + 1):
        if n > 1:
            if n_grams >= _INT64_MAX // vocab:
                raise OverflowError("too many n-grams x vocabulary for one pairwise call")
            keys = [g * vocab + x[p + (n - 1)] for g, x, p in zip(gram, ids, pos)]
        else:
            keys = gram
        uniq, inverse = np.unique(np.concatenate(keys), return_inverse=True)
        n_grams = len(uniq)
        splits = np.cumsum([len(k) for k in keys])[:-1]
        gram = np.split(inverse.reshape(-1), splits)
        if n_grams == 0:
            break
        if same:
            shared = np.ones(n_grams, dtype=bool)
        else:
            shared = (np.bincount(gram[0], minlength=n_grams) > 0) & (np.bincount(gram[1], minlength=n_grams) > 0)
            keep = [shared[g] for g in gram]
            pos = [p[k] for p, k in zip(pos, keep)]
            gram = [g[k] for g, k in zip(gram, keep)]
        if not shared.any():
            break
        ents = [_entries(lay[0][p], g) for lay, p, g in zip(layouts, pos, gram)]
        out[n - 1] = _clipped_matches(ents[0], ents[-1], n_grams, n_hyp, n_ref)
        if n == max_order:
            break
        # an (n+1)-gram starts here only if the line has more than n tokens left from this position
        keep = [lay[1][p] > n for lay, p in zip(layouts, pos)]
        pos = [p[k] for p, k in zip(pos, keep)]
        gram = [g[k] for g, k in zip(gram, keep)]
    return out


def _check_pair(hypotheses, references) -> tuple[list[str], list[str]]:
    return check_text_list(hypotheses, "hypotheses"), check_text_list(references, "references")


def _encode_pair(bleu, hyps: list[str], refs: list[str]):
    """Both lists (validated) encoded with one vocabulary, and its size; the references are the hypotheses'
    encoding (None) when equal."""
    if not hyps:
        raise ValueError("hypotheses is empty: give at least one hypothesis")
    if not refs:
        raise ValueError("references is empty: give at least one reference")
    encoder = bleu.new_encoder()
    hyp_enc = encoder.encode(hyps)
    ref_enc = None if refs == hyps else encoder.encode(refs)
    return hyp_enc, ref_enc, encoder.vocab_size


def _pair_statistics(hyp_lens, ref_lens, matches) -> np.ndarray:
    """Statistics rows, int64 [H * R, 2 + 2N], of hypotheses (row-major) against every reference."""
    n_ord, n_hyp, n_ref = matches.shape
    rows = n_hyp * n_ref
    cols = layout(n_ord)
    stats = np.empty((rows, cols.width), dtype=np.int64)
    stats[:, cols.hyp_len] = np.repeat(hyp_lens, n_ref)
    stats[:, cols.ref_len] = np.tile(ref_lens, n_hyp)
    stats[:, cols.correct] = matches.reshape(n_ord, rows).T
    stats[:, cols.total] = np.repeat(hypothesis_ngram_counts(hyp_lens, n_ord), n_ref, axis=0)
    return stats


def _pair_blocks(bleu, hyp_enc: EncodedLines, ref_enc: EncodedLines | None, vocab_size: int):
    """(h0, h1, statistics rows of hypotheses h0..h1 against every reference), in blocks of PAIR_BLOCK pairs.

    Each block counts its hypotheses against all references, so memory is bounded by the block, not H x R.
    """
    n_hyp = len(hyp_enc.lengths)
    refs = hyp_enc if ref_enc is None else ref_enc
    n_ref = len(refs.lengths)
    step = max(1, PAIR_BLOCK // n_ref)
    for h0 in range(0, n_hyp, step):
        h1 = min(n_hyp, h0 + step)
        if h1 - h0 == n_hyp:
            block, other = hyp_enc, ref_enc  # everything at once (ref None: hypotheses = references)
        else:
            block, other = slice_lines(hyp_enc, h0, h1), refs
        matches = pairwise_match_counts(block, other, bleu.stats_order, vocab_size)
        yield h0, h1, _pair_statistics(block.lengths, refs.lengths, matches)


def _native_pairwise(bleu, hyp_enc: EncodedLines, ref_enc: EncodedLines | None, *, scores: bool):
    """The compiled core's pairwise scores [H, R] (``scores=True``) or statistics [H, R, 2 + 2N] of already
    encoded lines; None when the engine is numpy, the core is not built, or (scores) the configuration has
    no compiled scorer."""
    if bleu.engine == "numpy":
        return None
    config = bleu.config
    scoring = None
    if scores:
        if (
            config.weights is not None
            or config.smooth_method not in SACREBLEU_SMOOTHING
            or bleu.stats_order != config.max_ngram_order
        ):
            return None
        value = config.smooth_value
        scoring = {
            "smooth_method": config.smooth_method,
            "smooth_value": 0.0 if value is None else float(value),
            "effective_order": config.effective_order,
        }
    if scoring is None:
        counter = native_bleu.id_counter(bleu.stats_order, bleu.threads)
        out = None if counter is None else native_bleu.pairwise_rows(counter, hyp_enc, ref_enc)
    else:
        scorer = native_bleu.bleu_scorer(bleu.stats_order, **scoring, threads=native.core_threads(bleu.threads))
        out = None if scorer is None else native_bleu.pairwise_scores(scorer, hyp_enc, ref_enc)
    if out is None or scores:
        return out
    n_hyp = len(hyp_enc.lengths)
    return out.reshape(n_hyp, len(out) // n_hyp, -1)


def pairwise_statistics(bleu, hypotheses: Sequence[str], references: Sequence[str]) -> np.ndarray:
    """Sufficient statistics of every (hypothesis, single reference) pair, int64 [H, R, 2 + 2N]."""
    hyp_enc, ref_enc, vocab_size = _encode_pair(bleu, *_check_pair(hypotheses, references))
    native = _native_pairwise(bleu, hyp_enc, ref_enc, scores=False)
    if native is not None:
        return native
    parts = [stats for _, _, stats in _pair_blocks(bleu, hyp_enc, ref_enc, vocab_size)]
    stats = np.concatenate(parts) if len(parts) > 1 else parts[0]
    n_hyp = len(hyp_enc.lengths)
    return stats.reshape(n_hyp, len(stats) // n_hyp, -1)


def pairwise_scores(bleu, hypotheses: Sequence[str], references: Sequence[str]) -> np.ndarray:
    """float64 [H, R]: ``bleu.sentence_score(hypotheses[h], [references[r]]).score`` for every pair."""
    return pairwise_scores_checked(bleu, *_check_pair(hypotheses, references))


def pairwise_scores_checked(bleu, hyps: list[str], refs: list[str]) -> np.ndarray:
    """:func:`pairwise_scores` of validated lists of strings."""
    hyp_enc, ref_enc, vocab_size = _encode_pair(bleu, hyps, refs)
    native = _native_pairwise(bleu, hyp_enc, ref_enc, scores=True)
    if native is not None:
        return native
    n_ref = len((hyp_enc if ref_enc is None else ref_enc).lengths)
    out = np.empty((len(hyp_enc.lengths), n_ref), dtype=np.float64)
    for h0, h1, stats in _pair_blocks(bleu, hyp_enc, ref_enc, vocab_size):
        out[h0:h1] = _score_distinct_rows(stats, bleu.config, bleu.engine).reshape(h1 - h0, n_ref)
    return out


def _score_distinct_rows(stats: np.ndarray, config, engine: str) -> np.ndarray:
    """``compute_scores(stats, config, engine=engine).score``, computed once per distinct row.

    A pair matrix has far fewer distinct statistics rows than pairs (lengths and match counts are small
    integers), and the per-row cost of the exact scoring is in ``math.log``/``math.exp`` calls. A row is
    determined by ``hyp_len, ref_len, correct_1..N`` (the totals follow from ``hyp_len``); these columns
    are packed into one int64 key when their bit widths fit, else rows are compared as raw bytes.
    """
    # orders counted: one more than scored for chen-cherry-5/7
    cols = stats[:, : layout(order_of_width(stats.shape[1])).correct.stop]
    widths = [int(c).bit_length() for c in cols.max(axis=0, initial=0)]
    key: np.ndarray
    if sum(widths) <= 62:
        key = np.zeros(len(stats), dtype=np.int64)
        shift = 0
        for j, w in enumerate(widths):
            key |= cols[:, j] << shift
            shift += w
    else:
        key = np.ascontiguousarray(cols).view(np.dtype((np.void, 8 * cols.shape[1]))).ravel()
    _, first, inverse = np.unique(key, return_index=True, return_inverse=True)
    return compute_scores(stats[first], config, engine=engine).score[inverse.reshape(-1)]


# -- minimum Bayes risk -------------------------------------------------------------------------------------


__all__ = ["pairwise_match_counts", "pairwise_scores", "pairwise_scores_checked", "pairwise_statistics"]
