"""Language support shared by the CJK and SentencePiece tokenizers.

* :class:`CJKTokenizationWarning` and :func:`warn_if_mostly_cjk`: a warning when text that is mostly Chinese,
  Japanese or Korean is scored with a tokenizer that cannot split it (``13a``, ``intl``), which silently turns
  whole CJK sentences into single "words" and BLEU into a near-meaningless number.
* :class:`MissingExtraError` / :func:`import_extra`: one clear error naming the ``pip install`` line of a
  missing optional extra.
* :class:`LineCachedTokenizer`: the base of the whole-line tokenizers (MeCab, SentencePiece). Their output
  for a line is not the concatenation of their output for its words, so they use the whole-line path of
  :class:`~bleuscope.tokenizers.base.BaseTokenizer`, with a cache of distinct lines (a corpus with repeated
  lines, or hypotheses equal to references, tokenizes each distinct line once) and a batch interface.
"""

from __future__ import annotations

import bisect
import importlib
import re
import sys
import threading
import warnings
from collections import Counter
from collections.abc import Iterable, Sequence
from types import FrameType
from typing import TypeVar

from .base import BaseTokenizer, Unit

#: tokenizers that leave CJK text unsplit (a CJK sentence without spaces becomes one or a few tokens)
CJK_BLIND_TOKENIZERS = frozenset({"13a", "intl"})

#: a sample is "mostly CJK" when at least this share of its letters are Han, kana or Hangul
MOSTLY_CJK_SHARE = 0.5
#: how much text (characters) of the hypotheses the check looks at
CJK_SAMPLE_CHARS = 20_000

_CJK_LETTER_RANGES = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x2E80, 0x2FDF),  # CJK radicals, Kangxi radicals
    (0x3005, 0x3007),  # 々 〆 〇
    (0x3021, 0x3029),
    (0x3038, 0x303B),  # Hangzhou numerals, more ideographic marks
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),
    (0x3130, 0x318F),
    (0x31A0, 0x31BF),
    (0x31F0, 0x31FF),  # Bopomofo, Hangul compat, kana ext
    (0x3400, 0x4DBF),
    (0x4E00, 0x9FFF),
    (0xA960, 0xA97F),
    (0xAC00, 0xD7FF),
    (0xF900, 0xFAFF),
    (0xFF66, 0xFFDC),  # half-width katakana and Hangul
    (0x1B000, 0x1B16F),
    (0x20000, 0x3FFFF),
)


def regex_char_class(ranges) -> str:
    return "".join(f"\\U{a:08X}-\\U{b:08X}" for a, b in ranges)


class CJKTokenizationWarning(UserWarning):
    """Text that is mostly Chinese/Japanese/Korean is scored with a tokenizer that does not split it."""


def caller_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside the bleuscope package."""
    frame: FrameType | None = sys._getframe(1)
    level = 1
    while frame is not None and frame.f_globals.get("__name__", "").split(".")[0] == "bleuscope":
        frame = frame.f_back
        level += 1
    return level


_CJK_STARTS = [a for a, _ in _CJK_LETTER_RANGES]


def _is_cjk_letter(cp: int) -> bool:
    i = bisect.bisect_right(_CJK_STARTS, cp) - 1
    return i >= 0 and cp <= _CJK_LETTER_RANGES[i][1]


# every character from the first CJK letter range on (in other text: a few quotes and dashes)
_FROM_CJK_START = re.compile(f"[{_CJK_STARTS[0]:c}-\U0010ffff]")


def _sample(lines: Iterable[str], max_chars: int) -> str:
    """The first ``max_chars`` characters of ``lines`` (None items skipped) joined by newlines."""
    parts, size = [], 0
    for line in lines:
        if line is None:
            continue
        parts.append(line)
        size += len(line)
        if size >= max_chars:
            break
    return "\n".join(parts)[:max_chars]


def _cjk_letters(sample: str) -> int:
    """The CJK letters of ``sample``: the characters a CJK range can hold are found by one regex scan (at C
    speed), and each distinct one is tested once."""
    return sum(n for ch, n in Counter(_FROM_CJK_START.findall(sample)).items() if _is_cjk_letter(ord(ch)))


def _letters(sample: str) -> int:
    return sum(map(str.isalpha, sample))  # C-level; Unicode letters like \p{L} (plus a few marks)


def cjk_letter_share(lines: Iterable[str], max_chars: int = CJK_SAMPLE_CHARS) -> tuple[int, int]:
    """(CJK letters, all letters) in the first ``max_chars`` characters of ``lines``."""
    sample = _sample(lines, max_chars)
    return _cjk_letters(sample), _letters(sample)


def warn_if_mostly_cjk(tokenizer_name: str, lines: Iterable[str]) -> bool:
    """Warn (:class:`CJKTokenizationWarning`) when ``lines`` are mostly CJK and ``tokenizer_name`` is 13a/intl.

    Returns whether it warned. Silence it with
    ``warnings.filterwarnings("ignore", category=bleuscope.tokenizers.CJKTokenizationWarning)``.
    """
    if tokenizer_name not in CJK_BLIND_TOKENIZERS:
        return False
    sample = _sample(lines, CJK_SAMPLE_CHARS)
    cjk = _cjk_letters(sample)
    if cjk == 0 or cjk < MOSTLY_CJK_SHARE * _letters(sample):  # letters counted only for CJK text
        return False
    warnings.warn(
        f"most letters of the hypotheses are Chinese, Japanese or Korean, but they are scored with "
        f"tokenize={tokenizer_name!r}, which does not split them: BLEU then counts whole sentences as single "
        f"words. Use tokenize='zh', 'ja-mecab', 'ko-mecab', 'flores200' or 'char' (or trg_lang='zh'/'ja'/'ko' "
        f"with tokenize=None).",
        CJKTokenizationWarning,
        stacklevel=caller_stacklevel(),
    )
    return True


# -- optional extras -----------------------------------------------------------------------------------------
E = TypeVar("E", bound=BaseException)


def naming(error: E, template: str, *arguments: str) -> E:
    """``error`` carrying the names of the arguments its message is about: ``arguments``, and ``template``,
    its message with a ``{}`` for each name (any exception class: a missing model file stays a
    ``FileNotFoundError``), so that a caller knowing them by other names (the command's options) says the
    same with its names (:func:`bleuscope.core.validation.named_message`) instead of rewriting the message."""
    error.template = template  # type: ignore[attr-defined]
    error.arguments = arguments  # type: ignore[attr-defined]
    return error


def named_error(error_type: type[E], template: str, *arguments: str) -> E:
    """An ``error_type`` whose message is ``template`` with the argument names, carrying them (:func:`naming`)."""
    return naming(error_type(template.format(*arguments)), template, *arguments)


class MissingExtraError(ImportError):
    """An optional dependency of a tokenizer is not installed."""


def import_extra(modules: Sequence[str], extra: str, what: str, *arguments: str):
    """Import ``modules`` (returned as a tuple) or raise one :class:`MissingExtraError` naming the extra and
    ``what`` needs them (a template of ``arguments`` when they are given, see :func:`naming`)."""
    try:
        return tuple(importlib.import_module(m) for m in modules)
    except ImportError as exc:
        detail = (
            f"{'' if arguments else what} needs optional dependencies that are not installed ({exc.name or exc}). "
            f'Install them with:  pip install "bleuscope[{extra}]"'
        )
        template = (what if arguments else "") + detail.replace("{", "{{").replace("}", "}}")
        raise named_error(MissingExtraError, template, *arguments) from exc


# -- whole-line tokenizers with a line cache ----------------------------------------------------------------
class LineCachedTokenizer(BaseTokenizer):
    """A whole-line tokenizer that tokenizes each distinct line once.

    Subclasses implement :meth:`tokenize_lines` (tokens of many already stripped lines; the batch interface
    to the underlying library) and ``__call__`` (sacreBLEU's per-line behaviour). ``split_units`` (the
    engine's path) keeps a bounded cache of line -> units, so repeated lines of a corpus, and references that
    equal hypotheses, are tokenized once; the cache is emptied when it holds ``cache_lines`` lines.
    """

    cache_lines: int = 1 << 16

    def __init__(self) -> None:
        self._line_cache: dict[str, tuple] = {}
        self._cache_lock = threading.Lock()

    def tokenize_lines(self, lines: list[str]) -> list[list[str]]:
        """Tokens of right-stripped lines; default: ``__call__`` per line."""
        return [self(line).split() for line in lines]

    def tokenize_batch(self, lines) -> list[list[str]]:
        """Tokens of many (lowercased) lines, each distinct line tokenized once."""
        lines = list(lines)
        distinct = list(dict.fromkeys(line.rstrip() for line in lines))
        tokens = dict(zip(distinct, self.tokenize_lines(distinct)))
        return [list(tokens[line.rstrip()]) for line in lines]

    def split_units(self, line: str) -> tuple[Unit, ...]:
        units = self._line_cache.get(line)
        if units is not None:
            return units
        units = tuple(zip(self(line.rstrip()).split()))  # one-token units (t,), built in C
        with self._cache_lock:
            if len(self._line_cache) >= self.cache_lines:
                self._line_cache.clear()
            self._line_cache[line] = units
        return units

    def split_lines(self, lines: list[str]) -> list[tuple]:
        """``split_units`` of many lines: the distinct lines missing from the cache go to
        :meth:`tokenize_lines` in one batch (one call into the library for SentencePiece)."""
        cache = self._line_cache
        missing = [line for line in dict.fromkeys(lines) if line not in cache]
        if not missing:
            return [cache[line] for line in lines]
        tokens = self.tokenize_lines([line.rstrip() for line in missing])
        fresh = dict(zip(missing, map(tuple, map(zip, tokens))))
        # another thread may empty the cache meanwhile: fall back to split_units (also for empty results)
        get_fresh, get_cached, split = fresh.get, cache.get, self.split_units
        out = [get_fresh(line) or get_cached(line) or split(line) for line in lines]
        with self._cache_lock:
            if len(cache) + len(fresh) > self.cache_lines:
                cache.clear()
            if len(fresh) <= self.cache_lines:
                cache.update(fresh)
        return out

    def clear_cache(self) -> None:
        with self._cache_lock:
            self._line_cache.clear()
