"""A drop-in for jiwer 4.0.0: ``from bleuscope import jiwer`` (or ``import bleuscope.jiwer as jiwer``).

``wer``, ``mer``, ``wil``, ``wip``, ``cer``, ``process_words``, ``process_characters`` (with
``AlignmentChunk``, ``WordOutput``, ``CharacterOutput``), the 17 transforms and ``Compose``, the ready-made
``wer_default``, ``wer_contiguous``, ``wer_standardize``, ``wer_standardize_contiguous``, ``cer_default``,
``cer_contiguous``, and ``visualize_alignment``, ``collect_error_counts``, ``visualize_error_counts`` take
jiwer's arguments and give its results: the same floats, counts and alignment chunks (``==``) and the same
text. The alignment is rapidfuzz's (``Levenshtein.opcodes``: common affixes stripped, Hirschberg's split on
large inputs, its order of preference among optimal paths), computed by bleuscope's compiled core; jiwer,
rapidfuzz and click are never imported. jiwer's command line is ``bleuscope jiwer``.
``visualize_alignment(..., display="terminal" | "html")`` adds views for wide and right-to-left text.

The numbers of other tools (HF evaluate's ``wer``/``cer`` under jiwer 3 and 4, torchmetrics, NeMo's
``inf`` on empty references) are the ``profile=`` of the metrics :class:`bleuscope.metrics.wer.WER` and
:class:`~bleuscope.metrics.wer.CER` (:data:`bleuscope.metrics.wer.PROFILES`), which also give signatures,
streaming, shards and significance tests.
"""

from . import alignment, measures, process, transformations, transforms
from .alignment import collect_error_counts, visualize_alignment, visualize_error_counts
from .measures import cer, mer, wer, wil, wip
from .process import AlignmentChunk, CharacterOutput, WordOutput, process_characters, process_words
from .transformations import (
    cer_contiguous,
    cer_default,
    wer_contiguous,
    wer_default,
    wer_standardize,
    wer_standardize_contiguous,
)
from .transforms import (
    AbstractTransform,
    Compose,
    ExpandCommonEnglishContractions,
    ReduceToListOfListOfChars,
    ReduceToListOfListOfWords,
    ReduceToSingleSentence,
    RemoveEmptyStrings,
    RemoveKaldiNonWords,
    RemoveMultipleSpaces,
    RemovePunctuation,
    RemoveSpecificWords,
    RemoveWhiteSpace,
    Strip,
    SubstituteRegexes,
    SubstituteWords,
    ToLowerCase,
    ToUpperCase,
)

name = "jiwer"

__all__ = [
    "AbstractTransform",
    "AlignmentChunk",
    "CharacterOutput",
    "Compose",
    "ExpandCommonEnglishContractions",
    "ReduceToListOfListOfChars",
    "ReduceToListOfListOfWords",
    "ReduceToSingleSentence",
    "RemoveEmptyStrings",
    "RemoveKaldiNonWords",
    "RemoveMultipleSpaces",
    "RemovePunctuation",
    "RemoveSpecificWords",
    "RemoveWhiteSpace",
    "Strip",
    "SubstituteRegexes",
    "SubstituteWords",
    "ToLowerCase",
    "ToUpperCase",
    "WordOutput",
    "alignment",
    "cer",
    "cer_contiguous",
    "cer_default",
    "collect_error_counts",
    "measures",
    "mer",
    "process",
    "process_characters",
    "process_words",
    "transformations",
    "transforms",
    "visualize_alignment",
    "visualize_error_counts",
    "wer",
    "wer_contiguous",
    "wer_default",
    "wer_standardize",
    "wer_standardize_contiguous",
    "wil",
    "wip",
]
