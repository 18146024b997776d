"""BLEU: the scorer (:mod:`.scorer`), its scoring from statistics (:mod:`.scoring`, :mod:`.smoothing`),
all-pairs statistics (:mod:`.pairwise`) and token-id input (:mod:`.token_ids`)."""
