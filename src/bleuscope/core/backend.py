"""The one door to the compiled core: the only module that imports ``bleuscope._core``.

It chooses the engine, applies the thread policy and makes every native call: BLEU statistics of text,
token ids, padded id matrices and token lists, BLEU scores, pairwise BLEU, chrF and TER rows, the C
library's ``log``/``exp``. Every path (the scorer, significance, streaming, the process pool, token ids, the NLTK module, the CLI)
turns its input into statistics through :func:`count_text` or :func:`count_ids`, one chunk at a time
(:mod:`bleuscope.core.pipeline` owns the chunk loop). The engine is chosen here:

* ``"numpy"``: the reference implementation (:mod:`bleuscope.core.encoding` + :mod:`bleuscope.core.reference.counting`);
* ``"native"``: the compiled core (``bleuscope._core``); an error when it is not built;
* ``"auto"``: the compiled core when it is available and can do the job, numpy otherwise.

Both engines return the same rows, int64 ``[S, 2 + 2 * order]``: ``[hyp_len, ref_len, correct_1..order,
total_1..order]`` (:mod:`bleuscope.core.stats`). Inputs are validated by the callers.
"""

from __future__ import annotations

import functools
import numbers
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # numpy and the encoder are imported when something is counted
    import numpy as np

    from ..tokenizers.base import BaseTokenizer
    from .encoding import CorpusEncoder, EncodedLines

#: accepted values of every metric's ``engine`` option; ``"numpy"`` is the readable reference engine (numpy or plain
#: Python: ROUGE and METEOR have no numpy in theirs), the oracle of the compiled core
ENGINES = ("auto", "native", "numpy")

_INT64_MAX = (1 << 63) - 1


class NativeEngineUnavailableError(RuntimeError):
    """``engine="native"`` was asked for, but the compiled core is not built in this installation."""


def native_available() -> bool:
    """Whether the compiled core (``bleuscope._core``) can be imported (tried once, lazily)."""
    return _native() is not None


#: the jobs ("text", "ids") whose native branch in this module is wired to the compiled core
NATIVE_JOBS: frozenset[str] = frozenset({"text", "ids"})

#: tokenizer classes ("module:Class") the compiled core implements exactly, by its name for them; any
#: other tokenizer (MeCab, SentencePiece, registered ones, subclasses) tokenizes in Python and hands token
#: ids to the compiled counter
_NATIVE_TOKENIZERS = {
    "bleuscope.tokenizers.simple:TokenizerNone": "none",
    "bleuscope.tokenizers.mteval:Tokenizer13a": "13a",
    "bleuscope.tokenizers.mteval:TokenizerIntl": "intl",
    "bleuscope.tokenizers.simple:TokenizerChar": "char",
    "bleuscope.tokenizers.zh:TokenizerZh": "zh",
    "bleuscope.tokenizers.cjk:TokenizerCJKChar": "cjk-char",
}


#: the compiled tokenizers that read the ``regex`` module's classes (intl: \\p{N}/\\p{P}/\\p{S}; cjk-char:
#: \\p{M}); with lowercasing, every tokenizer also reads ``str.lower``'s facts (Python's Unicode database).
#: Nothing else is version-dependent: ``zh``'s ranges are fixed code points, and Python's whitespace (the
#: only fact ``none``, ``char``, cased ``13a`` and cased ``zh`` read) is compiled in and checked below.
_REGEX_TABLE_TOKENIZERS = frozenset({"intl", "cjk-char"})

#: Unicode versions whose whitespace (``str.isspace``) the compiled core's is checked against in CI (Python
#: 3.10 to 3.13); on any other version it is compared once per process (about 0.1 s)
_CHECKED_WHITESPACE_UNICODE = frozenset({"13.0.0", "14.0.0", "15.0.0", "15.1.0"})

#: (tokenizer name, lowercase) -> (native?, why): decided once per process
_support: dict[tuple[str, bool], tuple[bool, str]] = {}
_tables_state: dict[str, object] = {}


def _whitespace_problem() -> str | None:
    """Why the compiled core's whitespace is not this Python's, or None when it is."""
    if "whitespace" not in _tables_state:
        import unicodedata

        problem = None
        if unicodedata.unidata_version not in _CHECKED_WHITESPACE_UNICODE:
            import re

            from .unicode_tables import _all_code_points

            python_ws = [m.start() for m in re.finditer(r"\s", _all_code_points())]
            if python_ws != list(_native().TOKENIZER_TABLES["whitespace"]):
                problem = f"Python's whitespace (Unicode {unicodedata.unidata_version}) is not the compiled core's"
        _tables_state["whitespace"] = problem
    return _tables_state["whitespace"]  # type: ignore[return-value]


def use_unicode_tables(facts) -> None:
    """Hands ``facts`` (:class:`~bleuscope.core.unicode_tables.UnicodeFacts`) to the compiled core, whose
    tokenizers read them from then on; a ValueError says what the core refuses (nothing changes then)."""
    _native().use_tokenizer_tables(
        facts.props.tobytes(),
        facts.lower_single.astype("<u4").tobytes(),
        list(facts.lower_multi),
        facts.case_ignorable.astype("<u4").tobytes(),
        facts.cased.astype("<u4").tobytes(),
        (facts.unidata_version, facts.regex_version),
    )


def _derived_tables() -> tuple[bool, str]:
    """Derives (or loads from the cache) the tables of this interpreter and ``regex`` and hands them to the
    compiled core, once per process: (done?, how or why not)."""
    if "derived" not in _tables_state:
        import regex

        from . import unicode_tables

        try:
            got = unicode_tables.load_or_derive()
            f = got.facts
            use_unicode_tables(f)
            how = "loaded from" if got.source == "cache" else "derived in"
            where = f"{got.path}" if got.source == "cache" else f"{got.seconds:.2f} s"
            note = f"; {got.cache_note}" if got.cache_note else ""
            result = (True, f"tables of Unicode {f.unidata_version} and regex {f.regex_version}, {how} {where}{note}")
            _support.clear()  # decided with the built-in tables, which are no longer the ones in use
        except Exception as err:  # any failure leaves the Python tokenizer in charge, and says why
            result = (False, f"deriving the Unicode tables for regex {regex.__version__} failed: {err}")
        _tables_state["derived"] = result
    return _tables_state["derived"]  # type: ignore[return-value]


def tokenizer_support(name: str, lowercase: bool) -> tuple[bool, str]:
    """Whether the compiled tokenizer ``name`` runs (with ``lowercase``) in this installation, and why
    (or why not): the reason ``bleuscope --version`` shows."""
    key = (name, bool(lowercase))
    if key not in _support:
        _support[key] = _decide_support(name, bool(lowercase))
    return _support[key]


def _decide_support(name: str, lowercase: bool) -> tuple[bool, str]:
    core = _native()
    if core is None:
        return False, "the compiled core is not built"
    if name not in _NATIVE_TOKENIZERS.values():
        return False, "not a compiled tokenizer: tokenized in Python, token ids counted by the compiled core"
    problem = _whitespace_problem()
    if problem:
        return False, problem
    needs_regex = name in _REGEX_TABLE_TOKENIZERS
    if not lowercase and not needs_regex:
        return True, "needs no Unicode table"
    import unicodedata

    import regex

    builtin = core.TOKENIZER_TABLES
    derived_in_use = _tables_state.get("derived", (False, ""))[0]
    if not derived_in_use and (
        (not lowercase or builtin["unidata_version"] == unicodedata.unidata_version)
        and (not needs_regex or builtin["regex_version"] == regex.__version__)
    ):
        return True, f"built-in tables (Unicode {builtin['unidata_version']}, regex {builtin['regex_version']})"
    return _derived_tables()


def tokenizer_core_name(registered: str) -> str:
    """The compiled core's name for the tokenizer registered as ``registered`` (its name when the
    registry maps it to a class the core implements; else the registered name, which the core lacks)."""
    from ..tokenizers import registered_factory

    factory = registered_factory(registered)
    return _NATIVE_TOKENIZERS.get(factory, registered) if isinstance(factory, str) else registered


def core_build() -> dict | None:
    """The compiled core's build (version, profile, target, abi3), or None when it is not built."""
    core = _native()
    if core is None:
        return None
    return dict(core.BUILD)


def tables_in_use() -> dict | None:
    """Which Unicode tables the compiled tokenizers read now (``source``: "built-in" or "installed", and
    their Unicode and regex versions), or None when the compiled core is not built."""
    core = _native()
    return None if core is None else dict(core.tokenizer_tables_in_use())


def native_tokenizer_name(tokenizer, lowercase: bool = True) -> str | None:
    """The compiled core's name for ``tokenizer`` if it implements exactly this class with the Unicode
    tables of this installation (with lowercasing, if ``lowercase``), else None."""
    cls = type(tokenizer)
    name = _NATIVE_TOKENIZERS.get(f"{cls.__module__}:{cls.__qualname__}")
    return name if name is not None and tokenizer_support(name, lowercase)[0] else None


def native_supports(job: str) -> bool:
    """Whether the compiled core can do ``job`` (``"text"`` or ``"ids"``): it is built and the native
    branch of that job is wired (:data:`NATIVE_JOBS`)."""
    return job in NATIVE_JOBS and _native() is not None


@functools.cache
def _native():
    """The compiled module ``bleuscope._core``, or None when it is not built (imported once, lazily)."""
    try:
        from .. import _core
    except ImportError:
        return None
    return _core


def compiled_core():
    """The compiled module (for the tests of its boundary), or None when it is not built."""
    return _native()


def check_engine(engine) -> str:
    """``engine`` validated (one of :data:`ENGINES`); ``"native"`` also checks that the core is built."""
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}")
    if engine == "native" and not native_available():
        raise NativeEngineUnavailableError(
            "engine='native' needs bleuscope's compiled core (bleuscope._core), which is not built in this "
            "installation; use engine='auto' or engine='numpy', or install bleuscope with its Rust extension"
        )
    return engine


#: the thread count of every compiled call in this process when set (pool workers: one thread each, so that
#: ``n_jobs`` processes do not each start a thread per core)
_process_threads: int | None = None


def set_process_threads(threads: int | None) -> None:
    """Caps the compiled core's threads in this process (the process pool's worker initializer sets 1)."""
    global _process_threads
    _process_threads = check_threads(threads)


def core_threads(threads: int | None) -> int:
    """The thread policy: the compiled core's thread count for a metric's ``threads``. None lets the core pick
    one for the input size (0); a number is used as it is; in a pool worker, the process cap wins."""
    if _process_threads is not None:
        return _process_threads if threads is None else min(threads, _process_threads)
    return 0 if threads is None else threads


class ThreadsOption:
    """A metric's ``threads`` attribute, validated whenever it is set (also after construction, as
    :func:`bleuscope.runtime.ray.fit_threads` does) and read by every counting path at call time."""

    def __set_name__(self, owner, name: str) -> None:
        self.slot = f"_{name}"

    def __get__(self, obj, objtype=None):
        return self if obj is None else obj.__dict__.get(self.slot)

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.slot] = check_threads(value)


def check_threads(threads) -> int | None:
    """``threads`` validated: None (the engine decides) or a positive integer."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads must be a positive integer or None, got {threads!r}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    return int(threads)


def resolve_engine(engine: str = "auto", job: str = "text") -> str:
    """The engine that will do ``job`` (``"text"`` or ``"ids"``): ``"native"`` or ``"numpy"``."""
    engine = check_engine(engine)
    if engine == "auto":
        return "native" if native_supports(job) else "numpy"
    if engine == "native" and not native_supports(job):
        raise NativeEngineUnavailableError(
            f"the compiled core of this installation cannot count {job} input; use engine='auto' or engine='numpy'"
        )
    return engine


def count_text(
    hyps: list[str],
    ref_streams: list[list[str | None]],
    *,
    tokenizer: BaseTokenizer,
    lowercase: bool,
    order: int,
    engine: str = "auto",
    threads: int | None = None,
    encoder: CorpusEncoder | None = None,
) -> np.ndarray:
    """Statistics rows of hypotheses against reference streams (``ref_streams[k][i]``: reference k of
    segment i; ``None`` = missing: no n-grams, not a length candidate).

    ``encoder`` (a :class:`~bleuscope.core.encoding.CorpusEncoder` for the same tokenizer and case) keeps
    the tokenization cache across calls; the numpy engine creates one per call without it.
    """
    check_threads(threads)
    native = resolve_engine(engine, "text") == "native"
    if native:
        counter = _text_counter(tokenizer, lowercase, order, threads)
        if counter is not None:
            return counter.rows(hyps, ref_streams)
    from .encoding import CorpusEncoder
    from .reference.counting import segment_statistics
    from .validation import reference_presence

    if encoder is None:
        encoder = CorpusEncoder(tokenizer, lowercase)
    present = reference_presence(ref_streams, len(hyps))
    hyp_enc = encoder.encode(hyps)
    ref_encs = [encoder.encode([x if x is not None else "" for x in s]) for s in ref_streams]
    if native:  # a tokenizer that stays in Python: its token ids are counted natively
        return count_ids(hyp_enc, ref_encs, order=order, present=present, engine="native", threads=threads)
    return segment_statistics(hyp_enc, ref_encs, present, order, encoder.vocab_size)


def native_text_total(
    hyps: list,
    ref_streams: list[list],
    *,
    tokenizer: BaseTokenizer,
    lowercase: bool,
    order: int,
    engine: str = "auto",
    threads: int | None = None,
    per_segment: bool = False,
) -> tuple[np.ndarray, np.ndarray, int] | None:
    """The corpus total of :func:`count_text` in one pass of the compiled core, with no per-segment rows:
    ``(total row, nref_counts, tokenized_periods)``, where ``nref_counts[k]`` is the number of segments with
    exactly k present references and ``tokenized_periods`` the number of hypotheses ending in ``" ."``.
    The core also checks the items' types (a TypeError names the first bad one). None when the compiled
    core does not count this input (numpy engine, a tokenizer that stays in Python): use :func:`count_text`.
    ``per_segment``: the rows of :func:`count_text` in place of the total row (what sentence scores take).
    """
    check_threads(threads)
    if resolve_engine(engine, "text") != "native":
        return None
    counter = _text_counter(tokenizer, lowercase, order, threads)
    if counter is not None and per_segment:
        return counter.rows(hyps, ref_streams, facts=True)
    return None if counter is None else counter.total(hyps, ref_streams)


def native_file_total(
    hyp_path,
    ref_paths: list,
    *,
    tokenizer: BaseTokenizer,
    lowercase: bool,
    order: int,
    engine: str = "auto",
    threads: int | None = None,
    max_line_bytes: int,
    strip_line_ends: bool = False,
    sample_segments: int = 0,
    sample_chars: int = 0,
) -> tuple[np.ndarray, int, int, list[str]] | None:
    """The corpus total of plain UTF-8 files (hypotheses and reference streams, one segment a line), read
    and counted by the compiled core without Python strings: ``(total row, segments, tokenized_periods,
    samples)`` (``strip_line_ends``: hypotheses ending in " ." after ``str.rstrip()``, as sacreBLEU's command
    reads them; ``samples``: of every chunk of ``sample_segments`` hypotheses, the first ``sample_chars``
    characters of its lines joined by "\n", kept when one is U+1100 or above, what the CJK input check
    samples; none for ``sample_segments=0``). None when the compiled core does not count this input, or stopped at something the Python reader
    reports (a file that cannot be read, a line that is not UTF-8, holds a NUL or is longer than
    ``max_line_bytes``, files of different lengths): read the files with :mod:`bleuscope.core.chunks`."""
    check_threads(threads)
    if resolve_engine(engine, "text") != "native" or not hasattr(_native(), "read_file_lines"):
        return None
    counter = _text_counter(tokenizer, lowercase, order, threads)
    if counter is None:
        return None
    return counter.total_files(
        hyp_path,
        list(ref_paths),
        max_line_bytes=max_line_bytes,
        strip_line_ends=strip_line_ends,
        sample_segments=sample_segments,
        sample_chars=sample_chars,
    )


def read_file_lines(path, *, max_line_bytes: int) -> tuple[list[str] | None, dict | None]:
    """The compiled reader's lines of a plain UTF-8 file, or the first line it refuses (see
    :func:`bleuscope._core.read_file_lines`); what :func:`native_file_total` reads."""
    return _native().read_file_lines(path, max_line_bytes=max_line_bytes)


def _text_counter(tokenizer: BaseTokenizer, lowercase: bool, order: int, threads: int | None):
    """The compiled counter for this tokenizer and case, or None when the tokenizer stays in Python."""
    name = native_tokenizer_name(tokenizer, lowercase)
    if name is None:
        return None

    def python_tokens(lines):  # the rare lines the compiled tokenizer leaves to Python
        return tokenizer.tokenize_batch([x.lower() for x in lines] if lowercase else lines)

    return _native().TextCounter(
        name, lowercase=lowercase, order=order, threads=core_threads(threads), fallback=python_tokens
    )


def count_ids(
    hyp_ids: EncodedLines,
    ref_ids: Sequence[EncodedLines],
    *,
    order: int,
    present: np.ndarray | None = None,
    engine: str = "auto",
    threads: int | None = None,
) -> np.ndarray:
    """Statistics rows from token ids: flat ids + lengths per stream (:class:`EncodedLines`).

    ``hyp_ids.ids`` holds the hypotheses' ids back to back, ``hyp_ids.lengths[i]`` of them belong to
    segment i; ``ref_ids[k]`` is reference stream k in the same form. ``present`` (bool ``[S, K]``, default
    all True) marks missing references, whose length must be 0. Ids may be any integers of one numpy
    integer dtype (int64, or uint64 up to 2**64 - 1); equal ids are equal tokens.
    """
    check_threads(threads)
    import numpy as np

    from .encoding import EncodedLines
    from .reference.counting import common_id_dtype, segment_statistics

    if resolve_engine(engine, "ids") == "native":
        # the compiled counter compares ids as 64-bit patterns: int64 ids are viewed as uint64
        dtype = common_id_dtype([hyp_ids.ids] + [r.ids for r in ref_ids])

        def as_u64(ids):
            return np.ascontiguousarray(np.asarray(ids).astype(dtype, copy=False)).view(np.uint64)

        def as_lengths(lengths):
            return np.ascontiguousarray(lengths, dtype=np.int64)

        return _native().IdCounter(order, threads=core_threads(threads)).rows(
            as_u64(hyp_ids.ids),
            as_lengths(hyp_ids.lengths),
            [as_u64(r.ids) for r in ref_ids],
            [as_lengths(r.lengths) for r in ref_ids],
            None if present is None else np.ascontiguousarray(present, dtype=bool),
        )

    n_seg = len(hyp_ids.lengths)
    if present is None:
        present = np.ones((n_seg, len(ref_ids)), dtype=bool)
    parts = [hyp_ids.ids] + [r.ids for r in ref_ids]
    dtype = common_id_dtype(parts)
    parts = [p.astype(dtype, copy=False) for p in parts]
    sizes = [len(p) for p in parts]
    n_tok = sum(sizes)
    if n_tok:
        low = min(int(p.min()) for p in parts if len(p))
        high = max(int(p.max()) for p in parts if len(p))
    else:
        low = high = 0
    if low < 0 or (high + 1) >= _INT64_MAX // (4 * (n_tok + n_seg + 1)):
        # the numpy engine packs (rank, token) pairs into int64: give it dense ids instead
        _, inverse = np.unique(np.concatenate(parts), return_inverse=True)
        dense = inverse.reshape(-1).astype(np.int64)
        parts = np.split(dense, np.cumsum(sizes)[:-1])
        high = int(dense.max(initial=-1))
    else:
        parts = [p.astype(np.int64, copy=False) for p in parts]
    hyp = EncodedLines(ids=parts[0], lengths=hyp_ids.lengths)
    refs = [EncodedLines(ids=p, lengths=r.lengths) for p, r in zip(parts[1:], ref_ids)]
    return segment_statistics(hyp, refs, present, order, high + 1)


def count_text_systems(
    systems: list[list[str]],
    ref_streams: list[list[str | None]],
    *,
    tokenizer: BaseTokenizer,
    lowercase: bool,
    order: int,
    engine: str = "auto",
    threads: int | None = None,
) -> np.ndarray | None:
    """Statistics rows of several systems against the same reference streams, int64 ``[K * S, 2 + 2 *
    order]`` (system k's segment i at row ``k * S + i``), from the compiled core with every reference
    tokenized once; None when the compiled core cannot do it (numpy engine, a Python tokenizer, a line
    only Python can tokenize): then count each system with :func:`count_text`. Inputs are validated."""
    check_threads(threads)
    if resolve_engine(engine, "text") != "native":
        return None
    counter = _text_counter(tokenizer, lowercase, order, threads)
    return None if counter is None else counter.systems(systems, ref_streams)


def rouge_pair_counts(
    hyps: list[str],
    ref_streams: list[list[str | None]],
    types: tuple[str, ...],
    *,
    stem: bool,
    pretokenized: bool,
    threads: int | None = None,
    best: bool = False,
):
    """ROUGE counts int64 ``[S, K, T, 3]`` (matches, hyp_count, ref_count per type) of every hypothesis
    against each reference stream, from the compiled core; None when it is not built or a string is not
    UTF-8. ``pretokenized``: tokens separated by spaces and sentences by newlines (already stemmed).

    ``best``: per segment and type only the counts of the reference with the best F (the first on ties),
    int64 ``[S, T, 3]``, with their rouge-score (P, R, F), float64 ``[S, T, 3]``, and each segment's number
    of references, int64 ``[S]``. The core checks the items as it reads them (a TypeError when one is not
    a str, or None in a reference stream)."""
    check_threads(threads)
    if _native() is None:
        return None
    counter = _rouge_counter(tuple(types), stem, pretokenized, core_threads(threads))
    return counter.best(hyps, ref_streams) if best else counter.rows(hyps, ref_streams)


@functools.lru_cache(maxsize=64)
def _rouge_counter(types: tuple[str, ...], stem: bool, pretokenized: bool, threads: int):
    """The compiled ROUGE counter of these settings, built once (it keeps no state between calls: the
    drop-in scores one pair per call)."""
    return _native().RougeCounter(list(types), stem=stem, pretokenized=pretokenized, threads=threads)


def porter_stem(word: str) -> str | None:
    """The compiled Porter stemmer (NLTK's rules) of an ASCII lowercase word, or None when it is not built."""
    core = _native()
    return None if core is None else core.porter_stem(word)


def tokenize_joined(tokenizer: BaseTokenizer, lines: list[str]) -> list[str | None] | None:
    """Each line's tokens, ``tokenizer(line.rstrip()).split()``, joined by single spaces, from the compiled
    tokenizer (tokens hold no whitespace: ``.split()`` gives them back); ``None`` in the list for a line it
    leaves to Python. None when the compiled core does not implement ``tokenizer`` here."""
    name = native_tokenizer_name(tokenizer)
    if name is None:
        return None
    return _native().Tokenizer(name).tokenize(lines, joined=True)


def meteor_available() -> bool:
    """Whether the compiled core has METEOR's word table and alignment (:func:`meteor_table`)."""
    return _native() is not None


def wordnet_tables(parts: list[tuple]):
    """The compiled core's WordNet database built from the files' bytes (see ``_core.WordNetTables``), or
    None when the core is not built. Its format errors are :func:`wordnet_format_error` instances."""
    core = _native()
    return None if core is None else core.WordNetTables(parts)


def wordnet_format_error() -> type[Exception]:
    """The exception the compiled core raises for a malformed WordNet file (a ValueError)."""
    core = _native()
    return ValueError if core is None else core.WordNetFormatError


def meteor_table(*, porter: bool, wordnet=None):
    """A compiled METEOR word table (``_core.MeteorTable``: word ids, stems, synonym sets and the batch
    alignment), stemming words itself when ``porter`` and reading synonym sets from ``wordnet``
    (:func:`wordnet_tables`) when given; None when the core is not built. Non-ASCII words are lowercased
    there (for the stemmer and WordNet) only when the core's Unicode tables are this Python's (as for its
    lowercasing tokenizers); else their stems and synonym sets are left to Python."""
    core = _native()
    if core is None:
        return None
    return core.MeteorTable(porter=porter, wordnet=wordnet, unicode=tokenizer_support("13a", True)[0])


def resample_sums_f32(stats32: np.ndarray, idx: np.ndarray, threads: int | None = None) -> np.ndarray | None:
    """float32 ``[R, D]``: ``stats32[idx[r]].sum(axis=0)`` for every row of the resample indices ``idx``
    (int32 or int64 ``[R, S]``), accumulated in float32 in segment order as numpy does; ``stats32`` is float32,
    or uint16 (the same values in half the memory). None when the core is not built."""
    core = _native()
    if core is None:
        return None
    import numpy as np

    stats = np.ascontiguousarray(stats32) if stats32.dtype in (np.float32, np.uint16) else (
        np.ascontiguousarray(stats32, dtype=np.float32))
    idx = np.ascontiguousarray(idx) if idx.dtype in (np.int32, np.int64) else np.ascontiguousarray(idx, np.int64)
    return core.resample_sums_f32(stats, idx, threads=core_threads(threads))


#: largest absolute column value :func:`masked_sums` takes (the core keeps its partial sums in 32 bits)
MASKED_MAX_VALUE = (1 << 28) - 1


def masked_sums(words: np.ndarray, first_bit: int, rows: int, cols: np.ndarray, threads: int | None = None):
    """int64 ``[rows, W]``: ``M @ cols`` for the 0/1 mask ``M`` ``[rows, S]`` whose bits are read from the
    uint64 ``words`` (bit k is bit ``k % 64`` of ``words[k // 64]``) from ``first_bit`` on, row after row;
    ``cols`` int32 ``[S, W]`` with values up to :data:`MASKED_MAX_VALUE` in absolute value. None when the
    core is not built."""
    core = _native()
    if core is None:
        return None
    import numpy as np

    return core.masked_sums_i64(np.ascontiguousarray(words, dtype=np.uint64), int(first_bit), int(rows),
                                np.ascontiguousarray(cols, dtype=np.int32), threads=core_threads(threads))


def libm_map(func, values: np.ndarray) -> np.ndarray | None:
    """``func`` (``math.log`` or ``math.exp``) of every value of a flat float64 array, computed by the
    compiled core with the same C library functions that :mod:`math` calls (so bit-identical), or None
    when the core is not built, the array is small, or some value is one where :mod:`math` would raise
    (the caller's Python loop then raises the same error)."""
    import math

    name = {math.log: "log", math.exp: "exp"}.get(func)
    core = _native()
    if name is None or core is None or len(values) < 64:
        return None
    import numpy as np

    out = core.libm_map(name, values)
    if not np.isfinite(out).all() and (np.isfinite(values) & ~np.isfinite(out)).any():
        return None
    return out


#: the highest n-gram order the compiled BLEU scorer scores (it keeps per-order values on the stack); higher
#: orders are scored by the numpy code
NATIVE_SCORER_MAX_ORDER = 64


def bleu_scores(
    stats: np.ndarray, *, order: int, smooth_method: str, smooth_value: float, effective_order: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray] | None:
    """``(scores, precisions, bp)`` of int64 statistics rows by the compiled scorer (sacreBLEU's smoothing
    methods, uniform weights), or None when the core is not built or ``order`` is beyond its scorer's."""
    core = _native()
    if core is None or order > NATIVE_SCORER_MAX_ORDER:
        return None
    import numpy as np

    scorer = core.BleuScorer(order, smooth_method, smooth_value, effective_order)
    return scorer.score_rows(np.ascontiguousarray(stats))


def count_padded_ids(
    hyp: np.ndarray,
    hyp_lens: np.ndarray,
    refs: np.ndarray,
    ref_lens: np.ndarray,
    *,
    left: bool,
    order: int,
    engine: str = "auto",
    threads: int | None = None,
) -> np.ndarray | None:
    """Statistics rows of int64 padded id matrices read in place by the compiled core (``hyp [B, L]``,
    ``refs [B, K, M]``, lengths ``[B]`` and ``[B, K]``, a negative reference length = missing; a row's
    tokens are its first ``len`` entries, its last with ``left``), or None when the ids engine is numpy."""
    if resolve_engine(engine, "ids") != "native":
        return None
    import numpy as np

    return _native().IdCounter(order, threads=core_threads(threads)).padded_rows(
        np.ascontiguousarray(hyp).view(np.uint64),
        np.ascontiguousarray(hyp_lens, dtype=np.int64),
        np.ascontiguousarray(refs).view(np.uint64),
        np.ascontiguousarray(ref_lens, dtype=np.int64),
        left=left,
    )


def count_str_token_lists(hyps: list, refs: list, *, order: int, threads: int | None = None) -> np.ndarray | None:
    """Statistics rows of tokenized segments (``hyps[i]`` a list of str tokens, ``refs[i]`` its list of token
    lists) by the compiled core, or None when it is not built or a token is not an exact ``str``."""
    core = _native()
    if core is None:
        return None
    return core.IdCounter(order, threads=core_threads(threads)).token_list_rows(hyps, refs)


def pairwise(
    hyp: EncodedLines,
    refs: EncodedLines | None,
    *,
    order: int,
    scoring: dict | None = None,
    threads: int | None = None,
) -> np.ndarray | None:
    """Pairwise BLEU of every hypothesis against every single reference (``refs=None``: the hypotheses) by
    the compiled core: the statistics rows ``[H * R, 2 + 2 * order]``, or with ``scoring`` (the
    :class:`~bleuscope._core.BleuScorer` options: smooth_method, smooth_value, effective_order) the scores
    ``[H, R]``; None when the core is not built."""
    core = _native()
    if core is None:
        return None
    import numpy as np

    def ids(enc):
        return (
            np.ascontiguousarray(enc.ids, dtype=np.int64).view(np.uint64),
            np.ascontiguousarray(enc.lengths, dtype=np.int64),
        )

    other = None if refs is None else ids(refs)
    if scoring is None:
        return core.IdCounter(order, threads=core_threads(threads)).pairwise_rows(*ids(hyp), other)
    scorer = core.BleuScorer(order, **scoring, threads=core_threads(threads))
    return scorer.pairwise_scores(*ids(hyp), other)


def chrf_rows(
    hyps: list[str],
    ref_streams: list[list[str | None]],
    *,
    char_order: int,
    word_order: int,
    whitespace: bool,
    engine: str = "auto",
    threads: int | None = None,
) -> np.ndarray | None:
    """chrF candidate rows int64 ``[S, K, 3 * (char_order + word_order)]`` of (lowercased if needed) text by
    the compiled core, or None when the numpy engine is chosen or the input needs the Python counting."""
    if resolve_engine(engine, "text") != "native":
        return None
    counter = _native().ChrfCounter(char_order, word_order, whitespace, threads=core_threads(threads))
    return counter.rows(hyps, ref_streams)


def ter_rows(
    hyps: list[str], ref_streams: list[list[str | None]], *, engine: str = "auto", threads: int | None = None
) -> np.ndarray | None:
    """TER ``(edits, reference length)`` rows int64 ``[S, K, 2]`` of normalized text by the compiled core, or
    None when the numpy engine is chosen or a string is not valid UTF-8."""
    if resolve_engine(engine, "text") != "native":
        return None
    return _native().TerCounter(threads=core_threads(threads)).rows(hyps, ref_streams)


# -- the string metrics (GLEU, Self-BLEU, CharacTER, EED) ---------------------------------------------------
def _string_metric_core(engine: str):
    """The compiled module for a string metric's job, or None when the numpy (Python) engine is chosen."""
    if resolve_engine(engine, "text") != "native":
        return None
    return _native()


def gleu_rows(hyps: list, ref_streams: list, *, min_len: int, max_len: int, engine: str = "auto",
              threads: int | None = None, layout: str = "streams") -> np.ndarray | None:
    """GLEU ``(tp, n_all)`` rows int64 ``[S, 2]`` by the compiled core (items: strings split as ``str.split()``
    or token lists of ``str``; ``layout="lists"``: NLTK's list of references per hypothesis), or None when the
    Python implementation must do the job."""
    core = _string_metric_core(engine)
    if core is None:
        return None
    count = core.gleu_list_rows if layout == "lists" else core.gleu_rows
    rows = count(hyps, ref_streams, min_len, max_len, threads=core_threads(threads))
    return None if rows is None else rows.reshape(-1, 2)


def character_values(hyps: list, ref_streams: list, *, float64: bool = False, engine: str = "auto",
                     threads: int | None = None) -> np.ndarray | None:
    """CharacTER float64 ``[S]`` (the smallest over the references present; ``float64``: shifts scored in
    float64 as PyPI ``cer`` 1.2.0) by the compiled core, or None."""
    core = _string_metric_core(engine)
    if core is None:
        return None
    return core.character_values(hyps, ref_streams, float64=float64, threads=core_threads(threads))


def eed_values(hyps: list, ref_streams: list, parameters: tuple, *, engine: str = "auto",
               threads: int | None = None) -> np.ndarray | None:
    """EED float64 ``[S]`` of preprocessed text (``parameters``: alpha, deletion, insertion, substitution,
    rho) by the compiled core, or None."""
    core = _string_metric_core(engine)
    if core is None:
        return None
    return core.eed_values(hyps, ref_streams, *parameters, threads=core_threads(threads))


def self_bleu(sentences: list, weights: list, epsilon: float | None, *, engine: str = "auto"):
    """The compiled core's Self-BLEU ``(scores [W * N], matches, totals, closest, lengths, distinct,
    ngrams)`` (see ``_core.self_bleu``), or None."""
    core = _string_metric_core(engine)
    if core is None:
        return None
    return core.self_bleu(sentences, [list(map(float, w)) for w in weights], epsilon)


__all__ = [
    "ENGINES",
    "edit_alignment_objects",
    "edit_alignments",
    "edit_alignments_of_ids",
    "edit_counts",
    "character_values",
    "eed_values",
    "gleu_rows",
    "self_bleu",
    "ThreadsOption",
    "set_process_threads",
    "bleu_scores",
    "chrf_rows",
    "compiled_core",
    "core_threads",
    "count_padded_ids",
    "count_str_token_lists",
    "pairwise",
    "ter_rows",
    "NativeEngineUnavailableError",
    "check_engine",
    "check_threads",
    "count_ids",
    "count_text",
    "core_build",
    "count_text_systems",
    "libm_map",
    "meteor_table",
    "meteor_available",
    "wordnet_format_error",
    "wordnet_tables",
    "native_available",
    "native_text_total",
    "native_file_total",
    "native_supports",
    "read_file_lines",
    "porter_stem",
    "resolve_engine",
    "rouge_pair_counts",
    "tokenize_joined",
    "tables_in_use",
    "use_unicode_tables",
    "tokenizer_core_name",
    "tokenizer_support",
]


# -- edit rates (WER, CER, MER, WIL, WIP) -------------------------------------------------------------------
def edit_counts(references: list[str], hypotheses: list[str], units: str, *, threads: int | None = None):
    """Edit-rate statistics rows int64 ``[S, 6]`` (hits, substitutions, deletions, insertions, reference and
    hypothesis lengths) of every (reference, hypothesis) pair tokenized by ``units``, aligned as rapidfuzz
    (jiwer 4.0.0); None when the compiled core is not built or a string is not UTF-8."""
    check_threads(threads)
    if _edit_core() is None:
        return None
    return _edit_aligner(units, core_threads(threads)).counts(references, hypotheses)


def edit_alignments(references: list[str], hypotheses: list[str], units: str, *, threads: int | None = None):
    """``(opcodes int64 [M, 5], opcodes per pair int64 [S], rows int64 [S, 6])`` of every pair (opcode kinds
    0 equal, 1 replace, 2 delete, 3 insert, then ``i1, i2, j1, j2``); None as :func:`edit_counts`."""
    check_threads(threads)
    if _edit_core() is None:
        return None
    return _edit_aligner(units, core_threads(threads)).alignments(references, hypotheses)


def edit_alignment_objects(references: list[str], hypotheses: list[str], units: str, chunk_type: type):
    """``(reference tokens, hypothesis tokens, alignment chunks, summed row)`` of every pair as Python objects:
    lists of str per pair, lists of ``chunk_type`` objects per pair (their ``__dict__`` set to ``type``,
    ``ref_start_idx``, ``ref_end_idx``, ``hyp_start_idx``, ``hyp_end_idx``), int64 ``[6]``; one thread; None
    as :func:`edit_counts`."""
    if _edit_core() is None:
        return None
    return _edit_aligner(units, 1).objects(references, hypotheses, chunk_type)


def edit_alignments_of_ids(ref_ids, ref_offsets, hyp_ids, hyp_offsets, alphabet: int, *, threads: int | None = None):
    """:func:`edit_alignments` of token ids (uint32 ids below ``alphabet``, int64 offsets of each pair's
    sequence); None when the compiled core is not built."""
    check_threads(threads)
    core = _edit_core()
    if core is None:
        return None
    return core.align_token_ids(ref_ids, ref_offsets, hyp_ids, hyp_offsets, alphabet, threads=core_threads(threads))


def _edit_core():
    """The compiled core when it has the edit-rate aligner (a module built before it was added has not:
    the plain-Python reference then gives the same numbers), else None."""
    core = _native()
    return core if core is not None and hasattr(core, "EditAligner") else None


@functools.lru_cache(maxsize=32)
def _edit_aligner(units: str, threads: int):
    return _edit_core().EditAligner(units, threads=threads)
