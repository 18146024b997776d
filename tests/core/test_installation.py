"""``bleuscope.show_config()`` and ``bleuscope --version``: the compiled core's build, the Python, Unicode and
``regex`` versions, and for every tokenizer whether the compiled core runs it and why."""

from __future__ import annotations

import platform
import subprocess
import sys
import unicodedata

import pytest
import regex

import bleuscope
from bleuscope.core import native
from bleuscope.core.installation import config, config_text
from bleuscope.tokenizers import available_tokenizers

COMPILED = ["none", "13a", "intl", "char", "zh", "cjk-char"]


def test_config_names_versions_and_every_tokenizer():
    info = config()
    assert info["bleuscope"] == bleuscope.__version__
    assert info["python"].endswith(platform.python_version())
    assert info["unicode"] == unicodedata.unidata_version
    assert info["regex"] == regex.__version__
    assert list(info["tokenizers"]) == available_tokenizers()
    for name, entry in info["tokenizers"].items():
        for case in ("cased", "lowercase"):
            assert isinstance(entry[case]["native"], bool) and entry[case]["why"], (name, case)


@pytest.mark.skipif(not native.native_available(), reason="the compiled core is not built")
def test_every_compiled_tokenizer_is_native_on_this_python():
    """On every Python and regex the package supports (CI runs this on 3.10 to 3.13, pinned and newest
    regex), the compiled tokenizers run natively, lowercased too; the table-free rules need no table."""
    info = config()
    for name in COMPILED:
        for case in ("cased", "lowercase"):
            assert info["tokenizers"][name][case]["native"], (name, case, info["tokenizers"][name][case]["why"])
    for name in ("none", "13a", "char", "zh"):
        assert info["tokenizers"][name]["cased"]["why"] == "needs no Unicode table"
    for name in ("ja-mecab", "flores101"):
        entry = info["tokenizers"][name]["cased"]
        assert not entry["native"] and "tokenized in Python" in entry["why"]


@pytest.mark.skipif(not native.native_available(), reason="the compiled core is not built")
def test_core_build():
    _core = native.compiled_core()
    build = config()["core"]
    assert build["version"] == _core.__version__
    assert build["profile"] == "release"  # a debug build would make every speed figure meaningless
    assert build["target"].startswith(platform.machine().lower().replace("amd64", "x86_64"))
    # the stable ABI the build claims is the one its file name carries
    assert (".abi3." in _core.__file__) == bool(build["abi3"])
    assert build["abi3"] == "3.10"


def test_text_has_one_line_per_tokenizer():
    info = config()
    text = config_text(info)
    lines = text.splitlines()
    assert lines[0] == f"bleuscope {bleuscope.__version__} (BLEU identical to sacreBLEU 2.6.0)"
    for needle in (platform.python_version(), unicodedata.unidata_version, regex.__version__):
        assert needle in text
    for name, entry in info["tokenizers"].items():
        (line,) = [x for x in lines if x.strip().startswith(name + " ")]
        assert entry["cased"]["why"] in line


def test_text_without_the_compiled_core():
    info = {**config(), "core": None}
    assert "compiled core: not built" in config_text(info)


def test_show_config_prints_the_text(capsys):
    bleuscope.show_config()
    assert capsys.readouterr().out == config_text() + "\n"


def test_version_option_prints_the_report():
    out = subprocess.run(
        [sys.executable, "-m", "bleuscope", "--version"], capture_output=True, text=True, check=True, timeout=120
    ).stdout
    assert out.startswith(f"bleuscope {bleuscope.__version__} ")
    assert f"Unicode:       {unicodedata.unidata_version}" in out
    assert f"regex:         {regex.__version__}" in out
    for name in available_tokenizers():
        assert any(line.strip().startswith(name + " ") for line in out.splitlines()), name
