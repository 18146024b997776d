"""What this installation runs on: the compiled core's build, the Python, Unicode and ``regex`` versions,
and for each tokenizer whether the compiled core tokenizes it, and why (or why not).

``bleuscope --version`` prints :func:`config_text`; :func:`show_config` prints it from Python.
"""

from __future__ import annotations

import platform
import sys
import unicodedata

from .._version import __version__
from . import native
from .native import tok as native_tok


def config() -> dict:
    """The installation's facts as a dict (JSON-serializable). Asking about the tokenizers prepares their
    Unicode tables (built in, cached, or derived once: the report says which)."""
    from ..tokenizers import available_tokenizers

    try:
        import regex

        regex_version = regex.__version__
    except ImportError:
        regex_version = None
    tokenizers: dict[str, dict[str, dict[str, object]]] = {}
    info = {
        "bleuscope": __version__,
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "unicode": unicodedata.unidata_version,
        "regex": regex_version,
        "core": native.core_build(),
        "tokenizers": tokenizers,
    }
    for name in available_tokenizers():
        entry = {}
        for lowercase in (False, True):
            runs, why = native_tok.tokenizer_support(native_tok.tokenizer_core_name(name), lowercase)
            entry["lowercase" if lowercase else "cased"] = {"native": runs, "why": why}
        tokenizers[name] = entry
    from .unicode_tables import cache_dir

    directory = cache_dir()
    info["unicode_tables"] = native_tok.tables_in_use()
    info["unicode_tables_cache"] = None if directory is None else str(directory)
    return info


def config_text(info: dict | None = None) -> str:
    """:func:`config` as the lines ``bleuscope --version`` prints."""
    info = config() if info is None else info
    core = info["core"]
    if core is None:
        core_line = "not built (every step runs in Python/numpy)"
    else:
        core_line = (
            f"{core['version']} ({core['profile']}, {core['target']}, "
            f"{'stable ABI (abi3) for Python >= ' + core['abi3'] if core.get('abi3') else 'one Python version'})"
        )
    lines = [
        f"bleuscope {info['bleuscope']} (BLEU identical to sacreBLEU 2.6.0)",
        f"compiled core: {core_line}",
        f"Python:        {info['python']} ({sys.executable})",
        f"Unicode:       {info['unicode']} (Python's unicodedata)",
        f"regex:         {info['regex'] or 'not installed'}",
    ]
    tables = info.get("unicode_tables")
    if tables is not None:
        source = "built in" if tables["source"] == "built-in" else "derived from this Python and regex"
        cache = info.get("unicode_tables_cache") or "none"
        lines.append(
            f"Unicode tables: {source} (Unicode {tables['unidata_version']}, regex {tables['regex_version']});"
            f" cache: {cache}"
        )
    lines.append("tokenizers (native = tokenized by the compiled core):")
    width = max(map(len, info["tokenizers"]), default=0)
    for name, entry in info["tokenizers"].items():
        cased, lower = entry["cased"], entry["lowercase"]
        if cased == lower:
            state = f"{'native' if cased['native'] else 'Python'}: {cased['why']}"
        else:
            state = "; ".join(
                f"{label} {'native' if e['native'] else 'Python'}: {e['why']}"
                for label, e in (("cased", cased), ("lowercased", lower))
            )
        lines.append(f"  {name:<{width}}  {state}")
    return "\n".join(lines)


def show_config() -> None:
    """Prints the compiled core's build, the Python, Unicode and ``regex`` versions and, for each
    tokenizer, whether the compiled core tokenizes it and why (what ``bleuscope --version`` prints)."""
    print(config_text())


__all__ = ["config", "config_text", "show_config"]
