"""Drop-in replacements for other toolkits' BLEU functions (NLTK)."""
