"""What bleuscope's HF ``evaluate`` modules compute: one function per module, with the keyword arguments of the
official script's ``_compute`` and its returned dict (the same keys, in the same order, and the same values),
computed by bleuscope's metrics. :mod:`.evaluate_base` calls them from ``evaluate.Metric._compute``; the light
loader (:func:`bleuscope.integrations.hf_evaluate.load`) calls them after checking the input as ``evaluate``
would (:func:`check_inputs`), without importing ``evaluate``.

Where a script silently computes something meaningless, these functions refuse the input with a ``ValueError``
naming the argument and the item instead (an empty reference list, for which ``character`` reports ``inf``);
where a script raises, they raise the same exception type with the same message.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

#: the modules, in the order of the docs
NAMES = (
    "sacrebleu", "bleu", "chrf", "ter", "rouge", "meteor", "google_bleu", "wer", "cer", "character", "exact_match",
)

#: the reference layouts each module's features accept, in the order its script lists them ("list": one list of
#: references per prediction, "str": one reference string per prediction)
LAYOUTS = {
    "sacrebleu": ("list", "str"), "bleu": ("list", "str"), "chrf": ("list", "str"), "ter": ("list", "str"),
    "rouge": ("list", "str"), "meteor": ("list", "str"), "google_bleu": ("list", "str"),
    "character": ("str", "list"), "wer": ("str",), "cer": ("str",), "exact_match": ("str",),
}


# -- input -----------------------------------------------------------------------------------------------------
def _as_list(value, name: str) -> list:
    if isinstance(value, (str, bytes)) or value is None:
        raise TypeError(f"{name} must be a list, got {type(value).__name__}")
    try:
        return list(value)
    except TypeError:
        raise TypeError(f"{name} must be a list, got {type(value).__name__}") from None


def check_inputs(name: str, predictions, references) -> tuple[list[str], list]:
    """``(predictions, references)`` as lists, checked as ``evaluate`` checks them against the module's features:
    equal lengths, strings, and one reference layout (strings, or lists of strings) for every item."""
    preds = _as_list(predictions, "predictions")
    refs = _as_list(references, "references")
    if len(preds) != len(refs):
        raise ValueError(f"Mismatch in the number of predictions ({len(preds)}) and references ({len(refs)})")
    if not preds:
        raise ValueError("predictions is empty: give at least one prediction")
    for i, p in enumerate(preds):
        if not isinstance(p, str):
            raise TypeError(f"predictions[{i}] must be a string, got {type(p).__name__}")
    layouts = LAYOUTS[name]
    first = "str" if isinstance(refs[0], str) else "list"
    if first not in layouts:
        raise TypeError(f"references[0] must be a string ({name} takes one reference string per prediction), "
                        f"got {type(refs[0]).__name__}")
    if first == "str":
        for i, r in enumerate(refs):
            if not isinstance(r, str):
                raise TypeError(f"references[{i}] must be a string like references[0], got {type(r).__name__}")
        return preds, refs
    out = []
    for i, r in enumerate(refs):
        if isinstance(r, str) or not isinstance(r, (list, tuple)) and not hasattr(r, "__iter__"):
            raise TypeError(f"references[{i}] must be a list of strings like references[0], got {type(r).__name__}")
        r = list(r)
        for j, x in enumerate(r):
            if not isinstance(x, str):
                raise TypeError(f"references[{i}][{j}] must be a string, got {type(x).__name__}")
        out.append(r)
    return preds, out


def _reference_lists(references: list) -> list[list[str]]:
    """One list per prediction (the scripts' ``if isinstance(references[0], str)`` step)."""
    if references and isinstance(references[0], str):
        return [[r] for r in references]
    return references


def _no_empty_lists(references: list[list[str]]) -> None:
    for i, refs in enumerate(references):
        if not refs:
            raise ValueError(f"references[{i}] is an empty list: give every prediction at least one reference")


def _same_count_streams(references: list, message: str) -> list[list[str]]:
    """sacreBLEU's reference streams from one list per prediction, each of the same length (else ``message``)."""
    lists = _reference_lists(references)
    k = len(lists[0])
    if any(len(refs) != k for refs in lists):
        raise ValueError(message)
    if k == 0:
        raise ValueError("references[0] is an empty list: give every prediction at least one reference")
    return [[refs[i] for refs in lists] for i in range(k)]


def _padded_streams(references: list[list[T]]) -> list[list[T | None]]:
    """Streams from lists of different lengths, a missing reference as ``None`` (what bleuscope's metrics skip)."""
    k = max(len(refs) for refs in references)
    return [[refs[i] if i < len(refs) else None for refs in references] for i in range(k)]


# -- sacrebleu, chrf, ter: sacreBLEU's corpus scores ---------------------------------------------------------------
def sacrebleu(
    predictions, references, smooth_method="exp", smooth_value=None, force=False, lowercase=False, tokenize=None,
    use_effective_order=False,
) -> dict:
    from ...metrics.bleu.scorer import BLEU

    streams = _same_count_streams(references, "Sacrebleu requires the same number of references for each prediction")
    metric = BLEU(smooth_method=smooth_method, smooth_value=smooth_value, force=force, lowercase=lowercase,
                  effective_order=use_effective_order, **({"tokenize": tokenize} if tokenize else {}))
    out = metric.corpus_score(predictions, streams)
    counts, totals = list(out.counts), list(out.totals)
    if smooth_method == "add-k" and any(counts):
        # sacreBLEU adds k to the n-gram counts of orders 2 and up in the very lists its score returns (unless
        # nothing matched at all; up to the first order without a hypothesis n-gram), so HF's dict shows them
        k = 1 if smooth_value is None else smooth_value
        for n in range(1, len(counts)):
            counts[n] += k
            totals[n] += k
            if totals[n] == 0:
                break
    return {
        "score": out.score,
        "counts": counts,
        "totals": totals,
        "precisions": list(out.precisions),
        "bp": out.bp,
        "sys_len": out.sys_len,
        "ref_len": out.ref_len,
    }


def chrf(predictions, references, char_order=6, word_order=0, beta=2, lowercase=False, whitespace=False,
         eps_smoothing=False) -> dict:
    from ...metrics.chrf import CHRF

    streams = _same_count_streams(
        references, "ChrF, as implemented by sacrebleu, requires the same number of references for each prediction")
    metric = CHRF(char_order=char_order, word_order=word_order, beta=beta, lowercase=lowercase,
                  whitespace=whitespace, eps_smoothing=eps_smoothing)
    out = metric.corpus_score(predictions, streams)
    return {"score": out.score, "char_order": out.char_order, "word_order": out.word_order, "beta": out.beta}


def ter(predictions, references, normalized=False, ignore_punct=False, support_zh_ja_chars=False,
        case_sensitive=False) -> dict:
    from ...metrics.ter import TER

    streams = _same_count_streams(references, "Sacrebleu requires the same number of references for each prediction")
    metric = TER(normalized=normalized, no_punct=ignore_punct, asian_support=support_zh_ja_chars,
                 case_sensitive=case_sensitive)
    out = metric.corpus_score(predictions, streams)
    return {"score": out.score, "num_edits": out.num_edits, "ref_length": out.ref_length}


# -- bleu: TF-NMT's BLEU ---------------------------------------------------------------------------------------------
#: what HF's ``tokenizer_13a`` does before its regular expressions (sacreBLEU's 13a, which bleuscope's is)
_13A_REPLACEMENTS = (("<skipped>", ""), ("-\n", ""), ("\n", " "))
_13A_ENTITIES = (("&quot;", '"'), ("&amp;", "&"), ("&lt;", "<"), ("&gt;", ">"))
#: HF's 13a rules (compiled by ``re`` on first use, which caches them: only the Python tokenizer needs them)
_13A_RULES = (
    (r"([\{-\~\[-\` -\&\(-\+\:-\@\/])", r" \1 "),
    (r"([^0-9])([\.,])", r"\1 \2 "),
    (r"([\.,])([^0-9])", r" \1 \2"),
    (r"([0-9])(-)", r"\1 \2 "),
)
_13A_TRIGGERS = ("<skipped>", "\n", "&")


def _13a_prepared(line: str) -> str:
    for old, new in _13A_REPLACEMENTS:
        line = line.replace(old, new)
    if "&" in line:
        for old, new in _13A_ENTITIES:
            line = line.replace(old, new)
    return line


def tokenize_13a(line: str) -> list[str]:
    """HF's ``Tokenizer13a()(line)``: the words of mteval-v13a's tokenization, in Python (for the segments the
    compiled 13a cannot take as they are, see :func:`_compiled_13a_safe`)."""
    line = f" {_13a_prepared(line)} "
    for rule, repl in _13A_RULES:
        line = re.sub(rule, repl, line)
    return line.split()


def _compiled_13a_safe(texts: list[str]) -> bool:
    """Whether bleuscope's 13a (sacreBLEU's, which strips trailing whitespace first) gives HF's tokens for every
    text: yes unless a text holds a newline, ``<skipped>`` or an entity whose replacement HF does once and
    sacreBLEU's 13a would then find again."""
    for t in texts:
        if any(x in t for x in _13A_TRIGGERS):
            prepared = _13a_prepared(t)
            if prepared != t.rstrip() or any(x in prepared for x in ("<skipped>", "&quot;", "&amp;", "&lt;", "&gt;")):
                return False
    return True


def _ngram_counts(tokens: Sequence, max_order: int) -> dict:
    counts: dict = {}
    for n in range(1, max_order + 1):
        for i in range(len(tokens) - n + 1):
            g = tuple(tokens[i:i + n])
            counts[g] = counts.get(g, 0) + 1
    return counts


def _nmt_statistics_python(predictions, references, tokenizer: Callable, max_order: int):
    """``(matches, possible, translation_length, reference_length)`` summed over the corpus, TF-NMT's counting on
    ``tokenizer``'s tokens (any callable returning a token list)."""
    matches, possible = [0] * max_order, [0] * max_order
    hyp_len = ref_len = 0
    for pred, refs in zip(predictions, references):
        hyp = tokenizer(pred)
        ref_tokens = [tokenizer(r) for r in refs]
        ref_len += min(len(r) for r in ref_tokens)
        hyp_len += len(hyp)
        merged: dict = {}
        for r in ref_tokens:
            for g, c in _ngram_counts(r, max_order).items():
                if c > merged.get(g, 0):
                    merged[g] = c
        for g, c in _ngram_counts(hyp, max_order).items():
            m = min(c, merged.get(g, 0))
            if m > 0:
                matches[len(g) - 1] += m
        for n in range(1, max_order + 1):
            if len(hyp) - n + 1 > 0:
                possible[n - 1] += len(hyp) - n + 1
    return matches, possible, hyp_len, ref_len


def _nmt_statistics_compiled(predictions, references, max_order: int):
    """The same sums from bleuscope's BLEU statistics (13a): sacreBLEU's clipped matches are TF-NMT's (a
    hypothesis n-gram is clipped by its largest count in any one reference) and its totals TF-NMT's possible
    matches; the shortest reference lengths come from the references' own token counts."""
    import numpy as np

    from ...metrics.bleu.scorer import BLEU

    metric = BLEU(tokenize="13a", max_ngram_order=max_order, smooth_method="none")
    stats = metric.segment_statistics(predictions, _padded_streams(references)).stats.sum(axis=0)
    flat = [r for refs in references for r in refs]
    lengths = metric.segment_statistics(flat, [flat]).stats[:, 0]
    bounds = np.cumsum([0] + [len(refs) for refs in references])
    ref_len = int(np.minimum.reduceat(lengths, bounds[:-1]).sum())
    matches = [int(x) for x in stats[2:2 + max_order]]
    possible = [int(x) for x in stats[2 + max_order:2 + 2 * max_order]]
    return matches, possible, int(stats[0]), ref_len


def bleu(predictions, references, tokenizer=None, max_order=4, smooth=False) -> dict:
    """TF-NMT's ``compute_bleu`` (what HF's ``bleu`` module wraps): clipped n-gram matches over the corpus, the
    *shortest* reference length of each segment for the brevity penalty (sacreBLEU takes the closest), and with
    ``smooth`` Lin & Och's add-one on every order, unigrams included (the tensorflow/nmt file HF's module
    imports, commit 0be8642; later versions of that file leave the unigrams alone). ``tokenizer``: HF's 13a when None, else a callable from a
    string to its tokens."""
    if isinstance(max_order, bool) or not isinstance(max_order, int) or max_order < 1:
        raise ValueError(f"max_order must be a positive integer, got {max_order!r}")
    references = _reference_lists(references)
    _no_empty_lists(references)
    if tokenizer is None and _compiled_13a_safe(predictions) and all(
            _compiled_13a_safe(refs) for refs in references):
        matches, possible, hyp_len, ref_len = _nmt_statistics_compiled(predictions, references, max_order)
    else:
        matches, possible, hyp_len, ref_len = _nmt_statistics_python(
            predictions, references, tokenize_13a if tokenizer is None else tokenizer, max_order)
    precisions = [0.0] * max_order
    for i in range(max_order):
        if smooth:
            precisions[i] = (matches[i] + 1.0) / (possible[i] + 1.0)
        elif possible[i] > 0:
            precisions[i] = float(matches[i]) / possible[i]
        else:
            precisions[i] = 0.0
    geo_mean = math.exp(sum((1.0 / max_order) * math.log(p) for p in precisions)) if min(precisions) > 0 else 0
    if ref_len == 0:
        raise ZeroDivisionError("float division by zero: every reference is empty (TF-NMT's BLEU divides by the "
                                "reference length)")
    ratio = float(hyp_len) / ref_len
    if ratio > 1.0:
        bp = 1.0
    else:
        if ratio == 0:
            raise ZeroDivisionError("float division by zero: every prediction is empty (TF-NMT's brevity penalty "
                                    "divides by the length ratio)")
        bp = math.exp(1 - 1.0 / ratio)
    return {
        "bleu": geo_mean * bp,
        "precisions": precisions,
        "brevity_penalty": bp,
        "length_ratio": ratio,
        "translation_length": hyp_len,
        "reference_length": ref_len,
    }


# -- rouge: rouge-score's scorer and BootstrapAggregator --------------------------------------------------------------
_ROUGE_TYPE = r"rouge[1-9]|rougeL|rougeLsum"


def rouge(predictions, references, rouge_types=None, use_aggregator=True, use_stemmer=False, tokenizer=None) -> dict:
    """rouge-score 0.1.2 as HF's ``rouge`` calls it: ``score`` (one reference string each) or ``score_multi``
    (lists), then the F of each type per segment, or with ``use_aggregator`` the ``mid`` F of rouge-score's
    ``BootstrapAggregator``: the median of 1,000 resampled means drawn from numpy's global random state, which
    ``evaluate`` seeds with the module's ``seed`` around this call (and so does the light loader)."""
    if rouge_types is None:
        rouge_types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    multi_ref = isinstance(references[0], list)
    if multi_ref:
        _no_empty_lists(references)
    types = list(rouge_types)
    fast = (tokenizer is None and types and len(set(types)) == len(types)
            and all(isinstance(t, str) and re.fullmatch(_ROUGE_TYPE, t) for t in types))
    if fast:
        from ...metrics.rouge import ROUGE

        metric = ROUGE(tuple(types), use_stemmer=use_stemmer)
        streams = _padded_streams(references) if multi_ref else [references]
        prf = metric.sentence_scores(predictions, streams).prf
        if use_aggregator:
            return {t: bootstrap_mid_fmeasure(prf[:, k, :]) for k, t in enumerate(types)}
        return {t: [float(x) for x in prf[:, k, 2]] for k, t in enumerate(types)}
    return _rouge_score_path(predictions, references, types, use_aggregator, use_stemmer, tokenizer, multi_ref)


#: resampled means computed at a time (a [block, S, 3] float64 array)
_BOOTSTRAP_BLOCK = 100


def bootstrap_mid_fmeasure(matrix, n_samples: int = 1000, confidence_interval: float = 0.95):
    """rouge-score's ``BootstrapAggregator().aggregate()[type].mid.fmeasure`` of one type's ``[S, 3]`` (P, R, F)
    matrix, drawing from numpy's global random state as it does, in blocks of resamples instead of one at a time:
    ``choice(arange(S), size=S)`` is ``randint(0, S, size=S)``, whose successive calls draw the very words one
    ``randint(0, S, size=(block, S))`` draws; each resample's mean is the same sequential sum over its rows
    divided by S; then the same ``percentile`` of the ``[n_samples, 3]`` means."""
    import numpy as np

    matrix = np.asarray(matrix, dtype=np.float64)
    n = matrix.shape[0]
    means = np.zeros((n_samples, matrix.shape[1]))
    for start in range(0, n_samples, _BOOTSTRAP_BLOCK):
        r = min(_BOOTSTRAP_BLOCK, n_samples - start)
        idx = np.random.randint(0, n, size=(r, n))
        means[start:start + r] = np.mean(matrix[idx, :], axis=1)
    delta = (1 - confidence_interval) / 2
    bounds = np.percentile(means, 100 * np.array([delta, 0.5, 1 - delta]), axis=0)
    return bounds[1, 2]


class _TokenizerOf:
    """A callable as rouge-score's tokenizer object (what HF's script wraps it in)."""

    def __init__(self, tokenizer_func):
        self.tokenizer_func = tokenizer_func

    def tokenize(self, text):
        return self.tokenizer_func(text)


def _rouge_score_path(predictions, references, types, use_aggregator, use_stemmer, tokenizer, multi_ref) -> dict:
    """The script's loop on bleuscope's rouge-score drop-in (a custom tokenizer, repeated or invalid types)."""
    from ..rouge_score import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(rouge_types=types, use_stemmer=use_stemmer,
                                      tokenizer=_TokenizerOf(tokenizer) if tokenizer is not None else None)
    aggregator = scoring.BootstrapAggregator() if use_aggregator else None
    scores = []
    for ref, pred in zip(references, predictions):
        score = scorer.score_multi(ref, pred) if multi_ref else scorer.score(ref, pred)
        if aggregator is not None:
            aggregator.add_scores(score)
        else:
            scores.append(score)
    if aggregator is not None:
        result = aggregator.aggregate()
        return {key: result[key].mid.fmeasure for key in result}
    return {key: [s[key].fmeasure for s in scores] for key in scores[0]}


# -- meteor: NLTK's meteor_score on NLTK's word_tokenize ------------------------------------------------------------------
def word_tokenize(text: str) -> list[str]:
    """NLTK's ``word_tokenize`` (punkt sentences, then Treebank words): what HF's ``meteor`` feeds NLTK. It needs
    NLTK and its ``punkt_tab`` model; nothing is downloaded."""
    try:
        import nltk
    except ImportError:
        raise ImportError("the meteor module tokenizes as HF's script does, with NLTK's word_tokenize: "
                          "pip install nltk (WordNet is bleuscope's own reader; nothing is downloaded)") from None
    try:
        return nltk.word_tokenize(text)
    except LookupError:
        raise LookupError("the meteor module tokenizes with NLTK's word_tokenize, which needs NLTK's punkt_tab "
                          "sentence model: python -m nltk.downloader punkt_tab, or set NLTK_DATA to a folder that "
                          "has tokenizers/punkt_tab (bleuscope never downloads it)") from None


def meteor(predictions, references, alpha=0.9, beta=3, gamma=0.5) -> dict:
    """NLTK 3.10.4's ``meteor_score`` / ``single_meteor_score`` of each prediction (tokenized with NLTK's
    ``word_tokenize``, as the script does), averaged with ``numpy.mean``. WordNet 3.0 is read by bleuscope's
    reader (NLTK's data directories, then Debian's ``/usr/share/wordnet``); ``nltk.download`` is never called."""
    import numpy as np

    from ...metrics.meteor import METEOR

    multiple_refs = isinstance(references[0], list)
    if multiple_refs:
        _no_empty_lists(references)
    hyps = [word_tokenize(p) for p in predictions]
    if multiple_refs:
        ref_tokens = [[word_tokenize(r) for r in refs] for refs in references]
    else:
        ref_tokens = [[word_tokenize(r)] for r in references]
    try:
        metric = METEOR(alpha=alpha, beta=beta, gamma=gamma)
    except (TypeError, ValueError):
        # parameters outside METEOR's bounds, which NLTK (and so the script) takes: NLTK's arithmetic, per segment
        from ..nltk_meteor import meteor_score

        scores = [meteor_score(refs, hyp, alpha=alpha, beta=beta, gamma=gamma) for hyp, refs in zip(hyps, ref_tokens)]
        return {"meteor": np.mean(scores)}
    values = metric.sentence_scores(hyps, _padded_streams(ref_tokens)).values
    return {"meteor": np.mean(values)}


def _translate(strings, table: dict[int, int | None]):
    """``numpy.char.translate`` with a deletion table, as the script calls it (numpy applies ``str.translate`` to
    each item, which takes the mapping that ``str.maketrans`` makes; numpy's stubs only admit a str)."""
    import numpy as np

    return np.char.translate(strings, table=table)  # type: ignore[call-overload]


# -- exact_match -----------------------------------------------------------------------------------------------------------
def exact_match(predictions, references, regexes_to_ignore=None, ignore_case=False, ignore_punctuation=False,
                ignore_numbers=False) -> dict:
    """The share of predictions equal to their reference after the optional removals, in the script's order
    (regexes, case, punctuation, digits) and with its numpy string arrays (which, like the script's, compare
    strings without their trailing NUL characters)."""
    import numpy as np

    if regexes_to_ignore is not None:
        for s in regexes_to_ignore:
            predictions = np.array([re.sub(s, "", x) for x in predictions])
            references = np.array([re.sub(s, "", x) for x in references])
    else:
        predictions = np.asarray(predictions)
        references = np.asarray(references)
    if ignore_case:
        predictions = np.char.lower(predictions)
        references = np.char.lower(references)
    if ignore_punctuation:
        import string

        table = string.punctuation.maketrans("", "", string.punctuation)
        predictions = _translate(predictions, table)
        references = _translate(references, table)
    if ignore_numbers:
        import string

        table = string.digits.maketrans("", "", string.digits)
        predictions = _translate(predictions, table)
        references = _translate(references, table)
    return {"exact_match": np.mean(predictions == references)}


# -- google_bleu: NLTK's corpus GLEU on HF's 13a tokens ---------------------------------------------------------------
def _gleu_counts_python(predictions, references, tokenizer, min_len: int, max_len: int):
    """Per prediction and reference ``(tp, tpfp, tpfn)``: NLTK's ``corpus_gleu`` counting (``everygrams`` of orders
    ``min_len..max_len``, overlaps clipped), on ``tokenizer``'s tokens."""
    out = []
    for pred, refs in zip(predictions, references):
        hyp = _ngram_counts(tokenizer(pred), max_len)
        hyp = {g: c for g, c in hyp.items() if len(g) >= min_len}
        tpfp = sum(hyp.values())
        row = []
        for ref in refs:
            counts = {g: c for g, c in _ngram_counts(tokenizer(ref), max_len).items() if len(g) >= min_len}
            tp = sum(min(c, counts[g]) for g, c in hyp.items() if g in counts)
            row.append((tp, tpfp, sum(counts.values())))
        out.append(row)
    return out


def _gleu_counts_compiled(predictions, references, min_len: int, max_len: int):
    """The same counts from bleuscope's BLEU statistics (13a), one reference stream at a time: its clipped matches
    of orders ``min_len..max_len`` are GLEU's true positives, its totals the hypothesis n-grams, and a reference's
    n-grams follow from its length (the statistics' reference length, with one reference)."""
    import numpy as np

    from ...metrics.bleu.scorer import BLEU

    metric = BLEU(tokenize="13a", max_ngram_order=max_len, smooth_method="none")
    k = max(len(refs) for refs in references)
    orders = np.arange(min_len, max_len + 1)
    out: list[list[tuple[int, int, int]]] = [[] for _ in predictions]
    for j in range(k):
        rows_of = [i for i, refs in enumerate(references) if j < len(refs)]
        stats = metric.segment_statistics([predictions[i] for i in rows_of],
                                          [[references[i][j] for i in rows_of]]).stats
        tp = stats[:, 2 + min_len - 1:2 + max_len].sum(axis=1)
        tpfp = stats[:, 2 + max_len + min_len - 1:2 + 2 * max_len].sum(axis=1)
        tpfn = np.maximum(stats[:, 1:2] - orders[None, :] + 1, 0).sum(axis=1)
        for i, a, b, c in zip(rows_of, tp.tolist(), tpfp.tolist(), tpfn.tolist()):
            out[i].append((a, b, c))
    return out


def google_bleu(predictions, references, tokenizer=None, min_len=1, max_len=4) -> dict:
    """NLTK's ``corpus_gleu`` on HF's 13a tokens (``tokenizer``: another callable from a string to its tokens): per
    prediction the reference with the best ``tp / max(tpfp, tpfn)`` (the first on ties), its counts summed over
    the corpus, ``0.0`` when there is no n-gram at all."""
    references = _reference_lists(references)
    _no_empty_lists(references)
    compiled = (tokenizer is None and isinstance(min_len, int) and isinstance(max_len, int)
                and 1 <= min_len <= max_len <= 16 and _compiled_13a_safe(predictions)
                and all(_compiled_13a_safe(refs) for refs in references))
    if compiled:
        counts = _gleu_counts_compiled(predictions, references, min_len, max_len)
    else:
        counts = _gleu_counts_python(predictions, references, tokenize_13a if tokenizer is None else tokenizer,
                                     min_len, max_len)
    corpus_match = corpus_all = 0
    for row in counts:
        candidates = [(tp, max(tpfp, tpfn)) for tp, tpfp, tpfn in row if max(tpfp, tpfn) > 0]
        if candidates:
            n_match, n_all = max(candidates, key=lambda hc: hc[0] / hc[1])
            corpus_match += n_match
            corpus_all += n_all
    return {"google_bleu": 0.0 if corpus_all == 0 else corpus_match / corpus_all}


# -- character: CharacTER (the cer package's) ------------------------------------------------------------------------
def character(predictions, references, aggregate="mean", return_all_scores=False) -> dict:
    """CharacTER of each prediction (words of ``str.split()``; with several references the smallest value), then
    the script's aggregate: ``statistics.mean`` / ``statistics.median`` or ``sum`` of the segment values. An empty
    list of references is refused (the script would report ``inf``); an empty reference gives 1 (0 for an empty
    prediction) where the ``cer`` package divides by zero."""
    import statistics

    from ...metrics.character import CharacTER

    if aggregate not in ("mean", "sum", "median"):
        raise ValueError("'aggregate' must be one of 'sum', 'mean', 'median'")
    multi = not isinstance(references[0], str)
    if multi:
        _no_empty_lists(references)
    streams = _padded_streams(references) if multi else [references]
    cer_scores = [float(x) for x in CharacTER().sentence_scores(predictions, streams).values]
    if aggregate == "sum":
        score = sum(cer_scores)
    elif aggregate == "mean":
        score = statistics.mean(cer_scores)
    else:
        score = statistics.median(cer_scores)
    if return_all_scores:
        return {"cer_score": score, "cer_scores": cer_scores}
    return {"cer_score": score}


# -- wer, cer: jiwer 4's edit rates -----------------------------------------------------------------------------------
def _edit_rate(kind: str, predictions, references, concatenate_texts: bool) -> float:
    """The corpus rate the scripts return, a bare float: per pair counts summed (``hf-evaluate`` profile: all-empty
    references divide by zero, as in the script), or with ``concatenate_texts`` jiwer's own call on the lists
    (``jiwer`` profile: its values for empty references)."""
    from ...metrics.wer import CER, WER

    metric = (WER if kind == "wer" else CER)(profile="jiwer" if concatenate_texts else "hf-evaluate")
    try:
        return metric.corpus_score(predictions, [references]).rate
    except ValueError as err:
        if "all empty" in str(err):
            # the script divides the summed edits by the summed reference length
            raise ZeroDivisionError(f"division by zero: {err}") from None
        raise


def wer(predictions=None, references=None, concatenate_texts=False) -> float:
    """HF's ``wer`` under jiwer 4: ``(S + D + I) / (S + D + H)`` summed over the pairs (``process_words``)."""
    return _edit_rate("wer", predictions, references, concatenate_texts)


def cer(predictions, references, concatenate_texts=False) -> float:
    """HF's ``cer`` under jiwer 4: the same over characters (``process_characters``)."""
    return _edit_rate("cer", predictions, references, concatenate_texts)


#: module name -> its compute function
COMPUTE: dict[str, Callable[..., dict[str, Any] | float]] = {
    "sacrebleu": sacrebleu, "bleu": bleu, "chrf": chrf, "ter": ter, "rouge": rouge, "meteor": meteor,
    "exact_match": exact_match, "wer": wer, "cer": cer, "google_bleu": google_bleu,
    "character": character,
}


# -- signatures ----------------------------------------------------------------------------------------------------
def signature(name: str, **kwargs) -> str:
    """What module ``name`` computes with these options: bleuscope's signature of the metric behind it (``nrefs``
    is ``var``, as it depends on the input), or for ``bleu``, whose BLEU is not sacreBLEU's, a signature naming
    TF-NMT's brevity penalty and smoothing."""
    from ..._version import __version__

    version = f"version:bleuscope-{__version__}"
    if name == "bleu":
        tok = "13a" if kwargs.get("tokenizer") is None else "custom"
        smooth = "add1" if kwargs.get("smooth") else "none"
        return (f"BLEU-tfnmt|nrefs:var|tok:{tok}|bp:shortest-ref|smooth:{smooth}|"
                f"max_order:{kwargs.get('max_order', 4)}|{version}")
    if name == "sacrebleu":
        from ...metrics.bleu.scorer import BLEU

        opts = {"tokenize": kwargs["tokenize"]} if kwargs.get("tokenize") else {}
        metric = BLEU(smooth_method=kwargs.get("smooth_method", "exp"), smooth_value=kwargs.get("smooth_value"),
                      lowercase=kwargs.get("lowercase", False),
                      effective_order=kwargs.get("use_effective_order", False), **opts)
        return metric.signature("var")
    if name == "chrf":
        from ...metrics.chrf import CHRF

        return CHRF(**{k: kwargs[k] for k in ("char_order", "word_order", "beta", "lowercase", "whitespace",
                                             "eps_smoothing") if k in kwargs}).signature("var")
    if name == "ter":
        from ...metrics.ter import TER

        return TER(normalized=kwargs.get("normalized", False), no_punct=kwargs.get("ignore_punct", False),
                   asian_support=kwargs.get("support_zh_ja_chars", False),
                   case_sensitive=kwargs.get("case_sensitive", False)).signature("var")
    if name == "rouge":
        agg = "bootstrap-mid" if kwargs.get("use_aggregator", True) else "none"
        tok = "default" if kwargs.get("tokenizer") is None else "custom"
        types = ",".join(kwargs.get("rouge_types") or ["rouge1", "rouge2", "rougeL", "rougeLsum"])
        return f"ROUGE|types:{types}|tok:{tok}|stem:{'yes' if kwargs.get('use_stemmer') else 'no'}|agg:{agg}|{version}"
    if name == "meteor":
        return (f"METEOR|tok:nltk-word_tokenize|stem:porter|wn:3.0|a:{kwargs.get('alpha', 0.9)}|"
                f"b:{kwargs.get('beta', 3)}|g:{kwargs.get('gamma', 0.5)}|agg:mean|{version}")
    return f"{name}|{version}"
