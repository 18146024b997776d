"""The SentencePiece tokenizers: ``flores101``, ``flores200``, ``spBLEU-1K`` and the deprecated ``spm``.

A line's tokens are SentencePiece's pieces (``EncodeAsPieces``), exactly as in sacreBLEU 2.6.0. Unlike
sacreBLEU, bleuscope **never downloads a model**. The model file is found, in this order:

1. ``spm_model=`` (``BLEU(tokenize="flores200", spm_model="path/to/file.model")``): a model file, or a folder
   that holds ``<name>.model``;
2. the cache folder ``~/.cache/bleuscope/spm/<name>.model`` (:data:`DEFAULT_CACHE_DIR`), where ``<name>`` is
   ``flores101``, ``flores200`` or ``spBLEU-1K`` (``spm`` uses ``flores101.model``);
3. the file sacreBLEU itself downloaded to its default folder ``~/.sacrebleu/models/`` (read only).

A missing model is a :class:`FileNotFoundError` that says where to put it and where sacreBLEU fetches it from.
The signature names the tokenizer (``tok:flores200``), as sacreBLEU's does; it cannot tell whether the file
given is the official model, so pass the right one. ``spm`` is a deprecated alias of ``flores101``: it warns
(:class:`FutureWarning`) and signs as ``flores101``, as in sacreBLEU. Needs the extra ``bleuscope[spm]``.
"""

from __future__ import annotations

import os
import threading
import warnings
from pathlib import Path
from typing import cast

from .language import LineCachedTokenizer, caller_stacklevel, import_extra, named_error

#: tokenizer name -> (signature, file name in sacreBLEU's model folder, URL sacreBLEU downloads it from)
SPM_MODELS = {
    "spm": (
        "flores101",
        "sacrebleu_tokenizer_spm.model",
        "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
    ),
    "flores101": (
        "flores101",
        "sacrebleu_tokenizer_spm.model",
        "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
    ),
    "flores200": ("flores200", "flores200sacrebleuspm", "https://tinyurl.com/flores200sacrebleuspm"),
    "spBLEU-1K": (
        "spBLEU-1K",
        "spbleu-1k_tokenizer_spm.model",
        "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model",
    ),
}

#: where bleuscope looks for ``<name>.model`` when no ``spm_model`` is given
DEFAULT_CACHE_DIR = Path("~/.cache/bleuscope/spm")
#: sacreBLEU's default download folder, looked at (never written) as a last resort
SACREBLEU_MODEL_DIR = Path("~/.sacrebleu/models")


def _check_name(name) -> str:
    if not isinstance(name, str) or name not in SPM_MODELS:
        raise ValueError(f"{name!r} is not a SentencePiece tokenizer; choose one of: {', '.join(SPM_MODELS)}")
    return name


def model_file_name(name: str) -> str:
    """The file name bleuscope looks for in a model folder, e.g. ``flores200.model``."""
    return SPM_MODELS[_check_name(name)][0] + ".model"


def resolve_model(name: str, model: str | os.PathLike | None = None) -> Path:
    """The model file of tokenizer ``name``: ``model`` (a file or a folder) or the cache folders."""
    _check_name(name)
    fname = model_file_name(name)
    url = SPM_MODELS[name][2]
    if model is not None:
        if not isinstance(model, (str, os.PathLike)):
            raise named_error(TypeError, f"{{}} must be a path (str or os.PathLike), got {type(model).__name__}", "spm_model")
        path = Path(model).expanduser()
        if path.is_dir():
            path = path / fname
        if not path.is_file():
            raise named_error(
                FileNotFoundError,
                f"{{}}: no SentencePiece model at {_brace(str(path))!r} for {{}}={name!r}. Give the path of "
                f"the .model file, or a folder holding {fname!r} (sacreBLEU downloads it from {url}).",
                "spm_model",
                "tokenize",
            )
        return path
    default = DEFAULT_CACHE_DIR.expanduser() / fname
    sacre = SACREBLEU_MODEL_DIR.expanduser() / SPM_MODELS[name][1]
    for path in (default, sacre):
        if path.is_file():
            return path
    raise named_error(
        FileNotFoundError,
        f"{{}}={name!r} needs its SentencePiece model, and bleuscope never downloads one. Put the file at "
        f"{_brace(str(default))!r} or pass {{}}='path/to/model' (a file, or a folder holding {fname!r}). "
        f"sacreBLEU downloads this model from {url}.",
        "tokenize",
        "spm_model",
    )


class TokenizerSPM(LineCachedTokenizer):
    """SentencePiece pieces of a line, joined by spaces (sacreBLEU's ``TokenizerSPM``)."""

    def __init__(self, name: str = "flores101", model: str | os.PathLike | None = None) -> None:
        super().__init__()
        _check_name(name)
        if name == "spm":
            warnings.warn(
                "tokenize='spm' is a deprecated alias of 'flores101' (as in sacreBLEU); it signs as flores101",
                FutureWarning,
                stacklevel=caller_stacklevel(),
            )
        (spm,) = import_extra(("sentencepiece",), "spm", f"{{}}={name!r}", "tokenize")
        self.key = name
        self.name = SPM_MODELS[name][0]
        self.model_path = resolve_model(name, model)
        self._sp = spm.SentencePieceProcessor()
        try:
            ok = self._sp.Load(str(self.model_path))
        except (OSError, RuntimeError) as exc:
            raise named_error(
                ValueError, f"{{}}: {_brace(str(self.model_path))!r} is not a SentencePiece model: {_brace(str(exc))}",
                "spm_model",
            ) from exc
        if ok is False:  # pragma: no cover - older sentencepiece versions return False instead of raising
            raise named_error(ValueError, f"{{}}: {_brace(str(self.model_path))!r} is not a SentencePiece model", "spm_model")
        self._encode_pieces = self._sp.EncodeAsPieces

    def __call__(self, line: str) -> str:
        return " ".join(self._encode_pieces(line))

    def __reduce__(self):
        # the processor is not pickled: the receiving process loads (once) the same model file
        return get_spm_tokenizer, (self.key, str(self.model_path))

    def tokenize_lines(self, lines: list[str]) -> list[list[str]]:
        # one batched call into the C++ library; a piece could hold whitespace, hence join + split
        pieces = self._sp.encode(list(lines), out_type=str)
        return [" ".join(p).split() for p in pieces]


class TokenizerSPMAlias(TokenizerSPM):
    def __init__(self, model: str | os.PathLike | None = None) -> None:
        super().__init__("spm", model)


class TokenizerFlores101(TokenizerSPM):
    def __init__(self, model: str | os.PathLike | None = None) -> None:
        super().__init__("flores101", model)


class TokenizerFlores200(TokenizerSPM):
    def __init__(self, model: str | os.PathLike | None = None) -> None:
        super().__init__("flores200", model)


class TokenizerSpBLEU1K(TokenizerSPM):
    def __init__(self, model: str | os.PathLike | None = None) -> None:
        super().__init__("spBLEU-1K", model)


_INSTANCES: dict[tuple, TokenizerSPM] = {}
_LOCK = threading.Lock()


def get_spm_tokenizer(name: str, model: str | os.PathLike | None = None) -> TokenizerSPM:
    """The process-wide tokenizer ``name`` loaded from ``model`` (one SentencePiece handle per file)."""
    if model is None:
        from . import get_tokenizer

        _check_name(name)
        return cast(TokenizerSPM, get_tokenizer(name))  # the registry's SentencePiece names
    if not isinstance(name, str) or name not in SPM_MODELS:
        raise named_error(
            ValueError,
            f"{{}} is only used by the SentencePiece tokenizers ({', '.join(SPM_MODELS)}), not by {{}}="
            f"{_brace(repr(name))}",
            "spm_model",
            "tokenize",
        )
    path = resolve_model(name, model)
    st = path.stat()
    key = (name, os.path.realpath(path), st.st_mtime_ns, st.st_size)
    inst = _INSTANCES.get(key)
    if inst is None:
        with _LOCK:
            inst = _INSTANCES.get(key)
            if inst is None:
                inst = _INSTANCES[key] = TokenizerSPM(name, path)
    return inst


def _brace(text: str) -> str:
    """``text`` inside a message template (:func:`~.language.named_error`): its braces doubled."""
    return text.replace("{", "{{").replace("}", "}}")
