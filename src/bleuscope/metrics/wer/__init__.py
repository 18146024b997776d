"""Edit rates with jiwer 4.0.0's numbers: :class:`WER`, :class:`CER`, :class:`MER`, :class:`WIL`,
:class:`WIP` (one family on the Metric contract, rows ``[H, S, D, I, ref_len, hyp_len]``), the plain-Python
reference of the alignment (:mod:`.alignment`) and the tokenizations of each tool (:mod:`.units`). The
jiwer drop-in is :mod:`bleuscope.jiwer`."""

from .scorer import (
    CER,
    MER,
    PROFILES,
    WER,
    WIL,
    WIP,
    EditRate,
    EditRateScore,
    EditRateScores,
    corpus_cer,
    corpus_wer,
)

__all__ = [
    "CER",
    "MER",
    "PROFILES",
    "WER",
    "WIL",
    "WIP",
    "EditRate",
    "EditRateScore",
    "EditRateScores",
    "corpus_cer",
    "corpus_wer",
]
