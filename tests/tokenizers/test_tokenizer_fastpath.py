"""The engine's fast tokenization path (distinct words tokenized once, in batches, with line-edge context)
gives exactly sacreBLEU's tokens: an exhaustive sweep over short lines built from edge-sensitive pieces."""

from __future__ import annotations

import itertools

import pytest

from bleuscope.metrics.bleu.encoding import CorpusEncoder
from bleuscope.tokenizers import get_tokenizer

sb_tok = pytest.importorskip("sacrebleu.tokenizers")

PIECES = [".", ",", "5", "a", "-", "«", "€", " ", "中", "'", ".5", "5.", "&amp;", "\u00a0", "\n", "-5", "<skipped>"]
LINES = ["".join(c) for n in range(1, 4) for c in itertools.product(PIECES, repeat=n)]


def _sacrebleu(name):
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a
    from sacrebleu.tokenizers.tokenizer_char import TokenizerChar
    from sacrebleu.tokenizers.tokenizer_intl import TokenizerV14International
    from sacrebleu.tokenizers.tokenizer_none import NoneTokenizer
    from sacrebleu.tokenizers.tokenizer_zh import TokenizerZh

    return {"13a": Tokenizer13a, "intl": TokenizerV14International, "zh": TokenizerZh, "char": TokenizerChar,
            "none": NoneTokenizer}[name]()


@pytest.mark.parametrize("name", ["13a", "intl", "zh", "char", "none"])
@pytest.mark.parametrize("lowercase", [False, True])
def test_fast_path_equals_sacrebleu_tokens(name, lowercase):
    theirs = _sacrebleu(name)
    ours = get_tokenizer(name)
    enc = CorpusEncoder(ours, lowercase)
    encoded = enc.encode(LINES)
    inverse = {v: k for k, v in enc.vocab.items()}
    offsets = encoded.offsets
    for i, line in enumerate(LINES):
        text = line.lower() if lowercase else line
        expected = theirs(text.rstrip()).split()
        assert [inverse[t] for t in encoded.ids[offsets[i]: offsets[i + 1]].tolist()] == expected, repr(line)
        assert ours(text.rstrip()).split() == expected, repr(line)
        assert [t for u in ours.split_units(text) for t in ours.tokenize_unit(u)] == expected, repr(line)
