"""rouge-score's ``rouge_scorer`` module: ``RougeScorer`` with its arguments, results and errors.

Differences: none in the returned values or types (``Score`` tuples of Python floats, and the integer
zeros rouge-score returns for rougeL / rougeLsum when a text has no token). ``split_summaries=True`` needs
NLTK and its ``punkt_tab`` model; when they are missing the error says what to install (rouge-score fails
inside NLTK with a longer message). A ``tokenizer`` object is called as rouge-score calls it.
"""

from __future__ import annotations

import re

import numpy as np

from ...metrics.rouge import reference
from ...metrics.rouge.scorer import ROUGE
from ...metrics.rouge.scores import prf_of
from . import scoring, tokenizers

__all__ = ["RougeScorer"]

_NGRAM_TYPE = re.compile(r"rouge[0-9]$")

#: the characters outside ASCII whose str.lower() holds an ASCII letter or digit (U+0130 -> "i\u0307", the
#: Kelvin sign -> "k")
_BYTES_LOWER_SEPARATORS = {0x130: " ", 0x212A: " "}


def _canonical(rouge_type) -> str:
    """The type bleuscope computes for a rouge-score type name, or rouge-score's error for it."""
    if rouge_type in ("rougeL", "rougeLsum"):
        return rouge_type
    if isinstance(rouge_type, str) and _NGRAM_TYPE.match(rouge_type):
        n = int(rouge_type[5:])
        if n <= 0:
            raise ValueError(f"rougen requires positive n: {rouge_type}")
        return f"rouge{n}"
    raise ValueError(f"Invalid rouge type: {rouge_type}")


def _nltk_sentences(text: str) -> list[str]:
    try:
        import nltk
    except ImportError:
        raise ImportError(
            "split_summaries=True splits sentences with NLTK's punkt model: pip install nltk, then "
            "python -m nltk.downloader punkt_tab"
        ) from None
    try:
        return nltk.sent_tokenize(text)
    except LookupError:
        raise LookupError(
            "split_summaries=True needs NLTK's punkt_tab sentence model, which is not installed: "
            "python -m nltk.downloader punkt_tab (or set NLTK_DATA to a folder that has it)"
        ) from None


class RougeScorer(scoring.BaseScorer):
    """Scores a prediction against a target (or several) for each of ``rouge_types``."""

    def __init__(self, rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None):
        self.rouge_types = rouge_types
        self._tokenizer = tokenizer if tokenizer else tokenizers.DefaultTokenizer(use_stemmer)
        self._custom_tokenizer = bool(tokenizer)
        self._use_stemmer = bool(use_stemmer)
        self._split_summaries = split_summaries
        self._metrics: dict[tuple, ROUGE] = {}

    # -- helpers ---------------------------------------------------------------------------------------
    def _metric(self, types: tuple[str, ...]) -> ROUGE:
        metric = self._metrics.get(types)
        if metric is None:
            metric = self._metrics[types] = ROUGE(types, use_stemmer=self._use_stemmer)
        return metric

    def _summary_text(self, text: str) -> str:
        """rougeLsum's sentences as lines: punkt's sentences (their own newlines become spaces, which
        separate tokens alike) when ``split_summaries``, else the text itself."""
        if not self._split_summaries:
            return text
        return "\n".join(s.replace("\n", " ") for s in _nltk_sentences(text) if len(s))

    def _counts(self, targets: list[str], prediction: str, types: tuple[str, ...]) -> np.ndarray:
        """int64 [len(targets), T, 3] counts of ``prediction`` against each target."""
        if self._custom_tokenizer:
            return np.array([self._tokenizer_counts(t, prediction, types) for t in targets], dtype=np.int64)
        present = np.ones((1, len(targets)), dtype=bool)
        if "rougeLsum" in types and self._split_summaries:
            plain = tuple(t for t in types if t != "rougeLsum")
            out = np.zeros((len(targets), len(types), 3), dtype=np.int64)
            if plain:
                counts = self._metric(plain).pair_counts([prediction], [[t] for t in targets], present)[0]
                out[:, [types.index(t) for t in plain]] = counts
            summary = self._metric(("rougeLsum",)).pair_counts(
                [self._summary_text(prediction)], [[self._summary_text(t)] for t in targets], present)[0]
            out[:, types.index("rougeLsum")] = summary[:, 0]
            return out
        return self._metric(types).pair_counts([prediction], [[t] for t in targets], present)[0]

    def _tokenizer_counts(self, target: str, prediction: str, types) -> list[tuple[int, int, int]]:
        tok = self._tokenizer.tokenize
        ref, hyp = tok(target), tok(prediction)
        out = []
        for rouge_type in types:
            if rouge_type == "rougeL":
                lcs = reference.lcs_length(ref, hyp) if ref and hyp else 0
                out.append((lcs, len(hyp), len(ref)))
            elif rouge_type == "rougeLsum":
                sents = _nltk_sentences if self._split_summaries else reference.sentences
                out.append(reference.summary_lcs_counts([tok(s) for s in sents(target) if len(s)],
                                                        [tok(s) for s in sents(prediction) if len(s)]))
            else:
                out.append(reference.ngram_counts(ref, hyp, reference.ngram_order(rouge_type)))
        return out

    @staticmethod
    def _score(rouge_type: str, counts: list[int]) -> scoring.Score:
        matches, hyp, ref = counts
        if rouge_type in ("rougeL", "rougeLsum") and (hyp == 0 or ref == 0):
            return scoring.Score(precision=0, recall=0, fmeasure=0)  # rouge-score's integer zeros
        return scoring.Score(*prf_of(matches, hyp, ref, rouge_type[5:].isdigit()))

    def _score_all(self, targets: list[str], prediction: str) -> list[dict]:
        names = list(self.rouge_types)
        canonical = [_canonical(t) for t in names]
        types = tuple(dict.fromkeys(canonical))
        counts = self._counts(targets, prediction, types).tolist()
        col = {t: k for k, t in enumerate(types)}
        return [{name: self._score(c, row[col[c]]) for name, c in zip(names, canonical)} for row in counts]

    def _text(self, value, what: str):
        """A text as rouge-score's default tokenizer reads it: a ``str``, or ``bytes`` decoded as UTF-8
        (``six.ensure_str``); anything else is refused as rouge-score refuses it (an AttributeError, from its
        ``text.lower()``), never read as a missing text. A custom tokenizer gets the value as given."""
        if self._custom_tokenizer or isinstance(value, (str, bytes)):
            return value
        raise AttributeError(f"{what} must be a str (or UTF-8 bytes), got {type(value).__name__}: "
                             f"'{type(value).__name__}' object has no attribute 'lower'")

    def _score_texts(self, targets: list, prediction) -> list[dict]:
        """:meth:`_score_all` of texts that may be bytes. rouge-score lowercases bytes (ASCII only) and then
        decodes them for its n-gram and rougeL tokens, but decodes them first for rougeLsum's sentences: the
        two characters whose ``str.lower()`` is ASCII (U+0130, the Kelvin sign) are separators in the former."""
        texts = [*targets, prediction]
        if self._custom_tokenizer or not any(isinstance(t, bytes) for t in texts):
            return self._score_all(targets, prediction)
        decoded = [t.decode("utf-8") if isinstance(t, bytes) else t for t in texts]
        words = [t.decode("utf-8").translate(_BYTES_LOWER_SEPARATORS) if isinstance(t, bytes) else t for t in texts]
        scores = self._score_all(words[:-1], words[-1])
        if words != decoded and any(_canonical(t) == "rougeLsum" for t in self.rouge_types):
            summaries = self._score_all(decoded[:-1], decoded[-1])
            for score, summary in zip(scores, summaries):
                score.update({k: v for k, v in summary.items() if _canonical(k) == "rougeLsum"})
        return scores

    # -- rouge-score's API -----------------------------------------------------------------------------
    def score(self, target, prediction):
        """``{rouge_type: Score}`` of ``prediction`` against ``target``."""
        return self._score_texts([self._text(target, "target")], self._text(prediction, "prediction"))[0]

    def score_multi(self, targets, prediction):
        """Per type, the score against the target with the best F (the first on ties)."""
        targets = [self._text(t, f"targets[{k}]") for k, t in enumerate(targets)]
        prediction = self._text(prediction, "prediction")
        if not targets:
            np.argmax([])  # rouge-score's error for no targets
        score_dicts = self._score_texts(targets, prediction)
        best = {}
        for k in self.rouge_types:
            index = int(np.argmax([s[k].fmeasure for s in score_dicts]))
            best[k] = score_dicts[index][k]
        return best
