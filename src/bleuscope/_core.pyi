"""The compiled core's typed boundary (the Rust crate rust/python). Only :mod:`bleuscope.core.backend`
imports this module; the tests check this stub against the built module (mypy's stubtest).

Statistics rows are int64 ``[S, 2 + 2 * order]``: ``[hyp_len, ref_len, correct_1..order, total_1..order]``.
``threads=0`` lets the core pick a thread count for the input size; results never depend on it.
"""

import os
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Final, Literal, final, overload

import numpy as np
import numpy.typing as npt

__all__ = [
    "__version__",
    "BUILD",
    "TOKENIZER_TABLES",
    "TextCounter",
    "IdCounter",
    "BleuScorer",
    "ChrfCounter",
    "TerCounter",
    "Tokenizer",
    "RougeCounter",
    "porter_stem",
    "EditAligner",
    "align_token_ids",
    "MeteorTable",
    "WordNetTables",
    "WordNetFormatError",
    "use_tokenizer_tables",
    "tokenizer_tables_in_use",
    "resample_sums_f32",
    "masked_sums_i64",
    "libm_map",
    "GleuCounter",
    "CharacterScorer",
    "EedScorer",
    "SelfBleuScorer",
    "read_file_lines",
    "_panic_for_tests",
]

__version__: Final[str]
#: how this module was built: "version", "profile", "target", "abi3"
BUILD: Final[dict[str, str]]
#: the built-in Unicode tables: "python", "unidata_version", "regex_version" (str) and "whitespace" (the
#: code points the scanners take as Python's whitespace)
TOKENIZER_TABLES: Final[dict[str, Any]]

_Ids = npt.NDArray[np.uint64]
_Lengths = npt.NDArray[np.int64]
_Rows = npt.NDArray[np.int64]
_Lines = Sequence[str] | Iterable[str]
_RefStreams = Sequence[Sequence[str | None]] | Iterable[Iterable[str | None]]

@final
class TextCounter:
    """Text to statistics rows with a built-in tokenizer (``none``, ``13a``, ``intl``, ``char``, ``zh``,
    ``cjk-char``); lines it cannot tokenize exactly go to ``fallback(lines) -> token lists``."""

    def __new__(
        cls,
        tokenizer: str,
        *,
        lowercase: bool = False,
        order: int = 4,
        threads: int = 0,
        fallback: Callable[[list[str]], Sequence[Iterable[str]]] | None = None,
    ) -> TextCounter: ...
    @property
    def tokenizer(self) -> str: ...
    @property
    def lowercase(self) -> bool: ...
    @property
    def order(self) -> int: ...
    @property
    def threads(self) -> int: ...
    @overload
    def rows(
        self, hyps: _Lines, ref_streams: _RefStreams, *, block_segments: int = 0, facts: Literal[False] = False
    ) -> _Rows: ...
    @overload
    def rows(
        self, hyps: _Lines, ref_streams: _RefStreams, *, block_segments: int = 0, facts: Literal[True]
    ) -> tuple[_Rows, _Rows, int]: ...
    def total(
        self, hyps: _Lines, ref_streams: _RefStreams, *, block_segments: int = 0
    ) -> tuple[_Rows, _Rows, int]: ...
    def systems(self, systems: Sequence[_Lines], ref_streams: _RefStreams) -> _Rows | None: ...
    def total_files(
        self,
        hyp_paths: Sequence[str | os.PathLike[str]],
        ref_paths: Sequence[str | os.PathLike[str]],
        *,
        max_line_bytes: int,
        block_segments: int = 0,
        strip_line_ends: bool = False,
        sample_segments: int = 0,
        sample_chars: int = 0,
    ) -> tuple[_Rows, int, list[int], list[list[str]]] | None: ...

@final
class IdCounter:
    """Token ids (equal ids are equal tokens) to statistics rows."""

    def __new__(cls, order: int = 4, *, threads: int = 0) -> IdCounter: ...
    @property
    def order(self) -> int: ...
    @property
    def threads(self) -> int: ...
    def rows(
        self,
        hyp_ids: _Ids,
        hyp_lens: _Lengths,
        ref_ids: Sequence[_Ids],
        ref_lens: Sequence[_Lengths],
        present: npt.NDArray[np.bool_] | None = None,
    ) -> _Rows: ...
    def padded_rows(
        self,
        hyp: npt.NDArray[np.uint64],
        hyp_lens: _Lengths,
        refs: npt.NDArray[np.uint64],
        ref_lens: _Lengths,
        *,
        left: bool = False,
    ) -> _Rows: ...
    def token_list_rows(self, hyps: list[Any], refs: list[Any]) -> _Rows | None: ...
    def pairwise_rows(
        self, hyp_ids: _Ids, hyp_lens: _Lengths, refs: tuple[_Ids, _Lengths] | None = None
    ) -> _Rows: ...

@final
class BleuScorer:
    """BLEU scores with a sacreBLEU smoothing method and uniform weights, bit-identical to Python's."""

    def __new__(
        cls,
        order: int = 4,
        smooth_method: str = "exp",
        smooth_value: float = 0.0,
        effective_order: bool = False,
        *,
        threads: int = 0,
    ) -> BleuScorer: ...
    @property
    def order(self) -> int: ...
    @property
    def smooth_method(self) -> str: ...
    @property
    def effective_order(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    def score_rows(
        self, stats: _Rows
    ) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]: ...
    def pairwise_scores(
        self, hyp_ids: _Ids, hyp_lens: _Lengths, refs: tuple[_Ids, _Lengths] | None = None
    ) -> npt.NDArray[np.float64]: ...

@final
class ChrfCounter:
    """chrF candidate rows ``[S, K, 3 * (char_order + word_order)]`` of already lowercased text."""

    def __new__(
        cls, char_order: int = 6, word_order: int = 0, whitespace: bool = False, *, threads: int = 0
    ) -> ChrfCounter: ...
    @property
    def char_order(self) -> int: ...
    @property
    def word_order(self) -> int: ...
    @property
    def whitespace(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    def rows(self, hyps: _Lines, ref_streams: _RefStreams) -> _Rows | None: ...

@final
class TerCounter:
    """TER ``(edits, reference length)`` rows ``[S, K, 2]`` of normalized text."""

    def __new__(cls, *, threads: int = 0) -> TerCounter: ...
    @property
    def threads(self) -> int: ...
    def rows(self, hyps: _Lines, ref_streams: _RefStreams) -> _Rows | None: ...

@final
class Tokenizer:
    """A built-in tokenizer, for tests and measurements."""

    def __new__(cls, name: str, *, lowercase: bool = False) -> Tokenizer: ...
    @property
    def name(self) -> str: ...
    @property
    def lowercase(self) -> bool: ...
    def tokenize(self, lines: _Lines, *, joined: bool = False) -> list[list[str] | None] | list[str | None]: ...
    def count_tokens(self, lines: _Lines, *, repeat: int = 1) -> tuple[int, int, float]: ...

@final
class RougeCounter:
    """ROUGE counts ``[S, K, T, 3]`` (matches, hypothesis count, reference count) per type, as rouge-score."""

    def __new__(
        cls, types: list[str], *, stem: bool = False, pretokenized: bool = False, threads: int = 0
    ) -> RougeCounter: ...
    @property
    def types(self) -> list[str]: ...
    @property
    def stem(self) -> bool: ...
    @property
    def pretokenized(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    def rows(self, hyps: _Lines, ref_streams: _RefStreams) -> _Rows | None: ...
    def best(
        self, hyps: _Lines, ref_streams: _RefStreams
    ) -> tuple[_Rows, npt.NDArray[np.float64], _Lengths] | None: ...

def porter_stem(word: str) -> str: ...

#: what ``EditAligner.alignments`` and ``align_token_ids`` return: opcodes ``[M, 5]`` (kind 0 equal,
#: 1 replace, 2 delete, 3 insert; i1, i2, j1, j2), opcodes per pair ``[S]``, statistics rows ``[S, 6]``
_Alignments = tuple[_Rows, _Lengths, _Rows]

@final
class EditAligner:
    """Edit-rate rows ``[S, 6]`` (H, S, D, I, reference and hypothesis lengths) and rapidfuzz's opcodes."""

    def __new__(cls, units: str, *, threads: int = 0) -> EditAligner: ...
    @property
    def units(self) -> str: ...
    @property
    def threads(self) -> int: ...
    def counts(self, references: _Lines, hypotheses: _Lines) -> _Rows | None: ...
    def distance_totals(self, references: list[str], hypotheses: list[str]) -> tuple[int, int, int] | None: ...
    def alignments(self, references: _Lines, hypotheses: _Lines) -> _Alignments | None: ...
    def objects(
        self, references: _Lines, hypotheses: _Lines, chunk_type: type
    ) -> tuple[list[list[str]], list[list[str]], list[list[Any]], _Lengths] | None: ...

def align_token_ids(
    ref_ids: npt.NDArray[np.uint32],
    ref_offsets: npt.NDArray[np.int64],
    hyp_ids: npt.NDArray[np.uint32],
    hyp_offsets: npt.NDArray[np.int64],
    alphabet: int,
    *,
    threads: int = 0,
) -> _Alignments: ...

class WordNetFormatError(ValueError): ...

@final
class WordNetTables:
    def __new__(cls, parts: list[tuple[str, bytes, str, bytes, str, bytes]]) -> WordNetTables: ...
    def synonyms(self, word: str) -> list[str]: ...

@final
class MeteorTable:
    def __new__(
        cls, *, porter: bool, wordnet: WordNetTables | None = None, unicode: bool = False
    ) -> MeteorTable: ...
    def __len__(self) -> int: ...
    def encode_lines(
        self, lines: list[str | None]
    ) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64]] | None: ...
    def encode_tokens(
        self, segments: list[list[str]]
    ) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.int64]] | None: ...
    def stems(self, words: list[str]) -> list[str | None]: ...
    def words(self, ids: list[int]) -> list[str]: ...
    def set_stems(self, ids: list[int], stems: list[str]) -> None: ...
    def set_synonyms(self, ids: list[int], names: list[list[str]]) -> None: ...
    def align(
        self,
        hyps: tuple[npt.NDArray[np.uint32], _Lengths],
        refs: tuple[npt.NDArray[np.uint32], _Lengths],
        pairs: tuple[_Lengths, _Lengths],
        out: _Rows,
        threads: int = 1,
    ) -> tuple[npt.NDArray[np.uint32], npt.NDArray[np.uint32]]: ...
    def align_tokens(
        self, hypothesis: list[str], references: list[list[str]]
    ) -> tuple[list[tuple[int, int]], list[int], list[int]] | None: ...

def use_tokenizer_tables(
    props: bytes,
    lower_single: bytes,
    lower_multi: list[tuple[int, str]],
    case_ignorable: bytes,
    cased: bytes,
    versions: tuple[str, str],
) -> None: ...
def tokenizer_tables_in_use() -> dict[str, str]: ...
def resample_sums_f32(
    stats: npt.NDArray[np.float32] | npt.NDArray[np.uint16],
    idx: npt.NDArray[np.int32] | npt.NDArray[np.int64],
    *,
    threads: int = 1,
) -> npt.NDArray[np.float32]: ...
def masked_sums_i64(
    words: npt.NDArray[np.uint64],
    first_bit: int,
    rows: int,
    cols: npt.NDArray[np.int32],
    *,
    threads: int = 1,
) -> npt.NDArray[np.int64]: ...
def libm_map(func: str, values: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]: ...

# -- the string metrics: items are str (split as str.split() does) or token lists of str; None when an item
# needs the Python implementation
_Segment = str | Sequence[str]
@final
class GleuCounter:
    """GLEU's ``(tp, n_all)`` rows of the best reference of every segment, built once with its orders and how
    raw strings become words (``tokenizer`` None: ``str.split()``; else a compiled tokenizer's name)."""

    def __new__(
        cls, min_len: int = 1, max_len: int = 4, tokenizer: str | None = None, lowercase: bool = False, *,
        threads: int = 0,
    ) -> GleuCounter: ...
    @property
    def min_len(self) -> int: ...
    @property
    def max_len(self) -> int: ...
    @property
    def tokenizer(self) -> str | None: ...
    @property
    def lowercase(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    def rows(
        self, hyps: Sequence[_Segment], ref_streams: Sequence[Sequence[_Segment | None]]
    ) -> npt.NDArray[np.int64] | None: ...
    def list_rows(
        self, hypotheses: Sequence[Sequence[str]], list_of_references: Sequence[Sequence[Sequence[str]]]
    ) -> npt.NDArray[np.int64] | None: ...
    def list_total(
        self, hypotheses: Sequence[Sequence[str]], list_of_references: Sequence[Sequence[Sequence[str]]]
    ) -> tuple[int, int] | None: ...

@final
class CharacterScorer:
    """CharacTER float64 ``[S]``, the smallest over the references present (``float64``: shifts in float64)."""

    def __new__(cls, float64: bool = False, *, threads: int = 0) -> CharacterScorer: ...
    @property
    def float64(self) -> bool: ...
    @property
    def threads(self) -> int: ...
    def values(
        self, hyps: Sequence[_Segment], ref_streams: Sequence[Sequence[_Segment | None]]
    ) -> npt.NDArray[np.float64] | None: ...

@final
class EedScorer:
    """EED float64 ``[S]`` of preprocessed text, the smallest over the references present."""

    def __new__(
        cls, alpha: float = 2.0, deletion: float = 0.2, insertion: float = 1.0, substitution: float = 1.0,
        rho: float = 0.3, *, threads: int = 0,
    ) -> EedScorer: ...
    @property
    def alpha(self) -> float: ...
    @property
    def deletion(self) -> float: ...
    @property
    def insertion(self) -> float: ...
    @property
    def substitution(self) -> float: ...
    @property
    def rho(self) -> float: ...
    @property
    def threads(self) -> int: ...
    def values(
        self, hyps: Sequence[str], ref_streams: Sequence[Sequence[str | None]], *, preprocess: bool = False
    ) -> npt.NDArray[np.float64] | None: ...
    @staticmethod
    def preprocess(lines: Sequence[str]) -> list[str | None]: ...

@final
class SelfBleuScorer:
    """Self-BLEU of each sentence against the others, for each weight vector (``epsilon`` None: method0)."""

    def __new__(cls, weights: Sequence[Sequence[float]], epsilon: float | None) -> SelfBleuScorer: ...
    @property
    def weights(self) -> list[list[float]]: ...
    @property
    def epsilon(self) -> float | None: ...
    def score(
        self, sentences: Sequence[_Segment]
    ) -> (
        tuple[
            npt.NDArray[np.float64], _Rows, _Rows, _Rows, _Rows, _Rows, _Rows,
        ]
        | None
    ): ...

def read_file_lines(
    path: str | os.PathLike[str], *, max_line_bytes: int
) -> tuple[list[str] | None, dict[str, Any] | None]: ...
def _panic_for_tests() -> None: ...
