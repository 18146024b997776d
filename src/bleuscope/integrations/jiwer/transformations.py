"""jiwer 4.0.0's ready-made transforms: ``wer_default``, ``wer_contiguous``, ``wer_standardize``,
``wer_standardize_contiguous``, ``cer_default``, ``cer_contiguous``. ``process_words`` and
``process_characters`` recognise the two defaults and tokenize them in the compiled core."""

from __future__ import annotations

from . import transforms as tr

__all__ = [
    "wer_default",
    "wer_contiguous",
    "wer_standardize",
    "wer_standardize_contiguous",
    "cer_default",
    "cer_contiguous",
]

#: whitespace runs collapsed, ends stripped, words split at single spaces
wer_default = tr.Compose([tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToListOfListOfWords()])

#: as ``wer_default``, every sentence joined into one first (for unequal numbers of sentences)
wer_contiguous = tr.Compose(
    [tr.RemoveMultipleSpaces(), tr.Strip(), tr.ReduceToSingleSentence(), tr.ReduceToListOfListOfWords()]
)

#: lower case, contractions expanded, Kaldi non-words removed, whitespace as spaces, then ``wer_default``
wer_standardize = tr.Compose(
    [
        tr.ToLowerCase(),
        tr.ExpandCommonEnglishContractions(),
        tr.RemoveKaldiNonWords(),
        tr.RemoveWhiteSpace(replace_by_space=True),
        tr.RemoveMultipleSpaces(),
        tr.Strip(),
        tr.ReduceToListOfListOfWords(),
    ]
)

#: ``wer_standardize`` with every sentence joined into one first
wer_standardize_contiguous = tr.Compose(
    [
        tr.ToLowerCase(),
        tr.ExpandCommonEnglishContractions(),
        tr.RemoveKaldiNonWords(),
        tr.RemoveWhiteSpace(replace_by_space=True),
        tr.RemoveMultipleSpaces(),
        tr.Strip(),
        tr.ReduceToSingleSentence(),
        tr.ReduceToListOfListOfWords(),
    ]
)

#: ends stripped, then characters (inner spaces kept, not collapsed)
cer_default = tr.Compose([tr.Strip(), tr.ReduceToListOfListOfChars()])

#: as ``cer_default``, every sentence joined into one first
cer_contiguous = tr.Compose([tr.Strip(), tr.ReduceToSingleSentence(), tr.ReduceToListOfListOfChars()])
