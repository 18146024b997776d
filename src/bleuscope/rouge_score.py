"""``bleuscope.rouge_score``: the rouge-score drop-in (:mod:`bleuscope.integrations.rouge_score`) under the
name it replaces, so ``from bleuscope.rouge_score import rouge_scorer, scoring`` works like
``from rouge_score import rouge_scorer, scoring``."""

import sys

from .integrations import rouge_score

sys.modules[__name__] = rouge_score
