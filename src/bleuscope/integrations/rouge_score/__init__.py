"""A drop-in for Google's ``rouge-score`` 0.1.2: ``from bleuscope.rouge_score import rouge_scorer, scoring``.

``rouge_scorer.RougeScorer(rouge_types, use_stemmer=False, split_summaries=False, tokenizer=None)`` with
``score(target, prediction)`` and ``score_multi(targets, prediction)``, and ``scoring.Score``,
``scoring.AggregateScore``, ``scoring.BootstrapAggregator`` take the same arguments and return the same
types and the very same floats (``==``) as rouge-score's, computed by bleuscope's compiled core (or its
Python reference). rouge-score itself, absl and six are never imported; NLTK is imported only for
``split_summaries=True`` (its punkt sentence splitter, which needs NLTK's downloaded ``punkt_tab`` data).
"""

from . import rouge_scorer, scoring, tokenize, tokenizers

__all__ = ["rouge_scorer", "scoring", "tokenize", "tokenizers"]
