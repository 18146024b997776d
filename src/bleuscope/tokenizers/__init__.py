"""Tokenizer registry.

Tokenizers are looked up by name and built once per process (heavy ones, such as MeCab or SentencePiece,
keep their handle open and are reused). New tokenizers register a factory with :func:`register_tokenizer`;
the engine only relies on the :class:`~bleuscope.tokenizers.base.BaseTokenizer` interface.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable

from .base import BaseTokenizer, WordLocalTokenizer
from .language import CJKTokenizationWarning, MissingExtraError, named_error

# name -> "module:Class" (imported lazily) or a zero-argument factory
_REGISTRY: dict[str, str | Callable[[], BaseTokenizer]] = {
    "none": "bleuscope.tokenizers.simple:TokenizerNone",
    "13a": "bleuscope.tokenizers.mteval:Tokenizer13a",
    "intl": "bleuscope.tokenizers.mteval:TokenizerIntl",
    "char": "bleuscope.tokenizers.simple:TokenizerChar",
    "zh": "bleuscope.tokenizers.zh:TokenizerZh",
    "ja-mecab": "bleuscope.tokenizers.mecab:TokenizerJaMecab",
    "ko-mecab": "bleuscope.tokenizers.mecab:TokenizerKoMecab",
    "flores101": "bleuscope.tokenizers.spm:TokenizerFlores101",
    "flores200": "bleuscope.tokenizers.spm:TokenizerFlores200",
    "spBLEU-1K": "bleuscope.tokenizers.spm:TokenizerSpBLEU1K",
    "spm": "bleuscope.tokenizers.spm:TokenizerSPMAlias",  # deprecated alias of flores101 (warns)
    "cjk-char": "bleuscope.tokenizers.cjk:TokenizerCJKChar",  # not in sacreBLEU (its issue #171)
}

_INSTANCES: dict[str, BaseTokenizer] = {}
_LOCK = threading.Lock()


def register_tokenizer(name: str, factory: str | Callable[[], BaseTokenizer]) -> None:
    """Register a tokenizer under ``name`` (a ``"module:Class"`` path or a factory)."""
    _REGISTRY[name] = factory
    _INSTANCES.pop(name, None)


def registered_factory(name: str) -> str | Callable[[], BaseTokenizer] | None:
    """What ``name`` is registered with (a ``"module:Class"`` path or a factory), or None."""
    return _REGISTRY.get(name)


def available_tokenizers() -> list[str]:
    return list(_REGISTRY)


def get_tokenizer(name: str) -> BaseTokenizer:
    """The process-wide instance of the tokenizer called ``name``."""
    if not isinstance(name, str):
        raise TypeError(f"tokenize must be a string naming a tokenizer, got {type(name).__name__}")
    inst = _INSTANCES.get(name)
    if inst is not None:
        return inst
    if name not in _REGISTRY:
        # the argument is named in the message so that the command says its option (-tok, --meteor-tokenize...)
        known = ", ".join(available_tokenizers())
        raise named_error(ValueError, f"unknown tokenizer {name!r} for {{}}; choose one of: {known}".replace(
            f"{name!r}", repr(name).replace("{", "{{").replace("}", "}}")), "tokenize")
    with _LOCK:
        inst = _INSTANCES.get(name)
        if inst is None:
            factory = _REGISTRY[name]
            if isinstance(factory, str):
                module, cls = factory.split(":")
                factory = getattr(importlib.import_module(module), cls)
            inst = factory()
            _INSTANCES[name] = inst
    return inst


__all__ = [
    "BaseTokenizer",
    "CJKTokenizationWarning",
    "MissingExtraError",
    "WordLocalTokenizer",
    "available_tokenizers",
    "get_tokenizer",
    "register_tokenizer",
    "registered_factory",
]
