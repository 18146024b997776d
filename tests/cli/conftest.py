"""Fixtures of this folder's tests."""

from ..meteor_support import nltk_data_dir, wordnet  # noqa: F401 - WordNet 3.0 for the METEOR tests
