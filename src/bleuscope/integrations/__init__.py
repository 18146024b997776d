"""Drop-ins and adapters for other libraries; each submodule imports its library lazily, if it needs one.

* :mod:`bleuscope.integrations.nltk`: ``nltk.translate.bleu_score`` (and ``meteor_score``) with NLTK's very
  floats, without NLTK (also reachable as ``bleuscope.nltk``);
* :mod:`bleuscope.integrations.rouge_score`: the rouge-score package's ``rouge_scorer`` and ``scoring`` (also
  reachable as ``bleuscope.rouge_score``);
* :mod:`bleuscope.integrations.hf_evaluate`: HF ``evaluate``'s metric modules (``sacrebleu``, ``bleu``, ``chrf``,
  ``ter``, ``rouge``, ``meteor``, ...) as module folders ``evaluate.load`` takes offline, and the same without
  ``evaluate`` (``load(name)``);
* :mod:`bleuscope.integrations.lm_eval`: lm-evaluation-harness's ``bleu``/``chrf``/``chrf++``/``ter`` aggregations
  and their bootstrap standard errors from statistics (lm-eval's very values, any number of resamples);
* :mod:`bleuscope.integrations.rewards`: sentence BLEU / chrF / ROUGE-L (and token-id BLEU) rewards in TRL's
  ``reward_funcs`` and verl's ``compute_score`` forms;
* :mod:`bleuscope.integrations.torch`: token-id BLEU on torch tensors (CPU or CUDA) and an accumulating,
  distributed-aware metric for evaluation loops (``pip install "bleuscope[torch]"``).
"""
