"""Optional integrations with other libraries; each submodule imports its library lazily.

* :mod:`bleuscope.integrations.torch`: token-id BLEU on torch tensors (CPU or CUDA) and an accumulating,
  distributed-aware metric for evaluation loops (``pip install "bleuscope[torch]"``).
"""
