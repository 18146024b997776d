"""The ``evaluate.Metric`` class behind bleuscope's module folders (imported only by them, so only where
``evaluate`` is installed): the official script's features (which decide how ``evaluate`` checks and stores the
input) and a ``_compute`` that hands the stored input to :mod:`.compute`."""

from __future__ import annotations

import datasets
import evaluate

from .compute import COMPUTE, signature

_DESCRIPTIONS = {
    "sacrebleu": "sacreBLEU 2.6.0's corpus BLEU, computed by bleuscope (the same score and statistics).",
    "bleu": "TF-NMT's BLEU (tensorflow/nmt's compute_bleu, what HF's bleu module wraps): the shortest reference "
            "length of each segment in the brevity penalty and, with smooth=True, add-one smoothing of every "
            "n-gram order; not sacreBLEU's BLEU. Computed by bleuscope.",
    "chrf": "sacreBLEU 2.6.0's chrF / chrF++, computed by bleuscope.",
    "ter": "sacreBLEU 2.6.0's TER, computed by bleuscope.",
    "rouge": "rouge-score 0.1.2's ROUGE (mid F of its BootstrapAggregator, or per-segment F), computed by "
             "bleuscope.",
    "meteor": "NLTK 3.10.4's METEOR on NLTK's word_tokenize, computed by bleuscope (WordNet read by bleuscope; "
              "nothing downloaded).",
    "google_bleu": "NLTK's corpus GLEU (Google BLEU) on 13a tokens, computed by bleuscope.",
    "wer": "Word error rate (jiwer 4's process_words), computed by bleuscope.",
    "cer": "Character error rate (jiwer 4's process_characters), computed by bleuscope.",
    "character": "CharacTER (the cer package's), computed by bleuscope.",
    "exact_match": "The share of predictions equal to their reference after optional normalization.",
}


def features(name: str):
    """The script's features: the list of ``datasets.Features`` it accepts, in its order."""
    value = datasets.Value
    list_refs = datasets.Features({
        "predictions": value("string", id="sequence"),
        "references": datasets.Sequence(value("string", id="sequence"), id="references"),
    })
    str_refs = datasets.Features({"predictions": value("string", id="sequence"),
                                  "references": value("string", id="sequence")})
    if name in ("wer", "cer", "exact_match"):
        return str_refs
    if name == "rouge":
        return [datasets.Features({"predictions": value("string", id="sequence"),
                                   "references": datasets.Sequence(value("string", id="sequence"))}), str_refs]
    if name == "character":
        return [
            datasets.Features({"predictions": value("string", id="prediction"),
                               "references": value("string", id="reference")}),
            datasets.Features({"predictions": value("string", id="prediction"),
                               "references": datasets.Sequence(value("string", id="reference"), id="references")}),
        ]
    return [list_refs, str_refs]


class BleuscopeMetric(evaluate.Metric):
    """A bleuscope module: subclasses set ``module_name``."""

    module_name = ""

    def _info(self):
        return evaluate.MetricInfo(
            description=_DESCRIPTIONS[self.module_name],
            citation="",
            inputs_description=(COMPUTE[self.module_name].__doc__ or "") if self.module_name in COMPUTE else "",
            features=features(self.module_name),
            codebase_urls=[],
            reference_urls=[],
        )

    def _compute(self, predictions, references, **kwargs):
        if self.module_name not in COMPUTE:
            raise NotImplementedError(f"the {self.module_name} module needs a metric this bleuscope does not have")
        return COMPUTE[self.module_name](predictions, references, **kwargs)

    def signature(self, **kwargs) -> str:
        """What this module computes with these options, in bleuscope's signature form."""
        return signature(self.module_name, **kwargs)
