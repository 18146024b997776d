"""bleuscope: fast, exact BLEU with sacreBLEU 2.6.0's numbers.

>>> from bleuscope import BLEU
>>> BLEU().corpus_score(["The dog bit the man."], [["The dog bit the man."]]).score
100.00000000000004
"""

from ._version import __version__

# Names are imported on first use (PEP 562), so that ``import bleuscope`` (and ``bleuscope -h``) stays light:
# numpy, the tokenizers' regexes and the metrics load when something is scored.
_LAZY = {
    "BLEU": "metrics.bleu.scorer",
    "BLEUScore": "metrics.bleu.scorer",
    "BLEUScores": "metrics.bleu.scorer",
    "corpus_bleu": "metrics.bleu.scorer",
    "sentence_bleu": "metrics.bleu.scorer",
    "raw_corpus_bleu": "metrics.bleu.scorer",
    "SegmentStatistics": "core.stats",
    "TokenizedInputWarning": "core.checks",
    "CHRF": "metrics.chrf",
    "CHRFScore": "metrics.chrf",
    "corpus_chrf": "metrics.chrf",
    "sentence_chrf": "metrics.chrf",
    "TER": "metrics.ter",
    "TERScore": "metrics.ter",
    "corpus_ter": "metrics.ter",
    "sentence_ter": "metrics.ter",
    "ROUGE": "metrics.rouge",
    "METEOR": "metrics.meteor",
    "METEORScore": "metrics.meteor",
    "corpus_meteor": "metrics.meteor",
    "sentence_meteor": "metrics.meteor",
    "WER": "metrics.wer",
    "CER": "metrics.wer",
    "MER": "metrics.wer",
    "WIL": "metrics.wer",
    "WIP": "metrics.wer",
    "GLEU": "metrics.gleu",
    "GLEUScore": "metrics.gleu",
    "CharacTER": "metrics.character",
    "EED": "metrics.eed",
    "SelfBLEU": "metrics.selfbleu",
    "SelfBLEUScore": "metrics.selfbleu",
    "MBRResult": "analysis.mbr",
    "expected_utility": "analysis.mbr",
    "mbr_select": "analysis.mbr",
    "ScoringConfig": "metrics.bleu.scoring",
    "compute_scores": "metrics.bleu.scoring",
    "TokenBLEU": "metrics.bleu.token_ids",
    "available_tokenizers": "tokenizers",
    "get_tokenizer": "tokenizers",
    "register_tokenizer": "tokenizers",
    "CJKTokenizationWarning": "tokenizers.language",
    "MissingExtraError": "tokenizers.language",
    "show_config": "core.installation",
}


# the drop-ins' documented short names (``bleuscope.nltk``, ``from bleuscope.rouge_score import ...``)
from ._drop_ins import SHORT_NAMES as _MODULES  # noqa: E402 - installs their import paths


def __getattr__(name: str):
    import importlib

    module = _LAZY.get(name)
    if module is not None:
        value = getattr(importlib.import_module(f".{module}", __name__), name)
    elif name in _MODULES:
        value = importlib.import_module(f".{_MODULES[name]}", __name__)
    else:
        # subpackages by attribute (``bleuscope.metrics`` after ``import bleuscope``)
        try:
            return importlib.import_module(f".{name}", __name__)
        except ModuleNotFoundError as err:
            if err.name != f"{__name__}.{name}":
                raise
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY) | set(_MODULES))


__all__ = [
    "BLEU",
    "BLEUScore",
    "BLEUScores",
    "CER",
    "CHRF",
    "CHRFScore",
    "CJKTokenizationWarning",
    "CharacTER",
    "EED",
    "GLEU",
    "GLEUScore",
    "MBRResult",
    "MER",
    "METEOR",
    "METEORScore",
    "MissingExtraError",
    "ScoringConfig",
    "SegmentStatistics",
    "SelfBLEU",
    "SelfBLEUScore",
    "TER",
    "TERScore",
    "TokenBLEU",
    "TokenizedInputWarning",
    "WER",
    "WIL",
    "WIP",
    "__version__",
    "available_tokenizers",
    "compute_scores",
    "corpus_bleu",
    "corpus_chrf",
    "corpus_meteor",
    "corpus_ter",
    "expected_utility",
    "get_tokenizer",
    "mbr_select",
    "raw_corpus_bleu",
    "register_tokenizer",
    "sentence_bleu",
    "sentence_chrf",
    "sentence_meteor",
    "sentence_ter",
    "show_config",
]
