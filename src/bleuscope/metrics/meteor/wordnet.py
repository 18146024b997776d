"""A reader of the WordNet 3.0 database files, for METEOR's synonym stage.

It reads the files Princeton's WordNet distributes (``index.noun|verb|adj|adv``, ``data.*``, ``*.exc``) from

1. a location the user names (``WordNet.load(path)``, ``METEOR(wordnet=path)``, ``--wordnet``): a directory
   holding the files, NLTK's ``wordnet.zip``, or an ``NLTK_DATA``-style directory with ``corpora/wordnet``;
2. ``WNSEARCHDIR`` (WordNet's own variable for the database directory);
3. NLTK's data directories, searched in NLTK's order: every directory of ``NLTK_DATA``, then ``~/nltk_data``,
   ``sys.prefix``'s ``nltk_data``, ``share/nltk_data`` and ``lib/nltk_data``, ``/usr/share/nltk_data``,
   ``/usr/local/share/nltk_data``, ``/usr/lib/nltk_data`` and ``/usr/local/lib/nltk_data`` -- each for a
   ``corpora/wordnet`` folder or ``corpora/wordnet.zip`` (what ``nltk.download("wordnet")`` installs);
4. Debian and Ubuntu's ``wordnet-base`` package (``/usr/share/wordnet``), then ``WNHOME/dict`` and
   ``/usr/local/WordNet-3.0/dict`` (Princeton's installer).

Nothing is ever downloaded. NLTK is not imported.

What the lookups reproduce is what NLTK 3.10.4's ``WordNetCorpusReader.synsets(word)`` returns for English,
reduced to what METEOR uses -- the lemma names of those synsets:

* the word is lowercased (``str.lower``);
* for each part of speech in the order noun, verb, adjective, adverb, *morphy* gives the base forms: when the
  word is a key of that part's exception list (``noun.exc`` ...; a key listed twice keeps its last line) the
  forms are the word and the bases that list gives; otherwise the word and the result of each detachment
  rule that applies, applied once (nouns: -s, -ses, -ves, -xes, -zes, -ches, -shes, -men, -ies; verbs: -s,
  -ies, -es (to -e and to nothing), -ed (to -e and to nothing), -ing (to -e and to nothing); adjectives: -er,
  -est (to nothing and to -e); adverbs: none). The forms that the part's index lists are kept;
* every synset offset the index gives for a kept form, in the part's ``data`` file; a synset's lemma names
  are its words with the adjective position marker (``(a)``, ``(p)``, ``(ip)``) removed, case kept.
"""

from __future__ import annotations

import mmap
import os
import re
import sys
import threading
import zipfile
from collections.abc import Iterable
from pathlib import Path

from ...core import native
from ...core.native import meteor as native_meteor

#: parts of speech in the order NLTK's synsets() visits them, with their file suffixes
PARTS = (("n", "noun"), ("v", "verb"), ("a", "adj"), ("r", "adv"))

#: morphy's detachment rules per part of speech: (suffix, replacement), each applied once to the word
DETACHMENT_RULES = {
    "n": (("s", ""), ("ses", "s"), ("ves", "f"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"),
          ("men", "man"), ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}

#: words whose synonym sets are cached before the cache is cleared (bounds memory on unbounded vocabularies)
SYNONYM_CACHE_LIMIT = 1_000_000

#: the files the reader needs (``lexnames``, ``index.sense`` and the rest are not used)
REQUIRED_FILES = tuple(f"{kind}.{suffix}" for _, suffix in PARTS for kind in ("index", "data")) + tuple(
    f"{suffix}.exc" for _, suffix in PARTS
)

_VERSION = re.compile(rb"WordNet (\d+\+?|\d+\.\d+) Copyright")

INSTALL_HINT = (
    "install Debian/Ubuntu's wordnet-base package (apt-get install wordnet-base), or NLTK's corpus "
    "(python -m nltk.downloader wordnet), or name a directory with wordnet=... / --wordnet"
)


def _without_marker(word: str) -> str:
    r"""``word`` without a trailing syntactic marker (``beautiful(a)`` -> ``beautiful``): a last ``(...)``
    holding no parenthesis, as NLTK's pattern ``(.*?)(\([^()]*\))?$`` removes it."""
    if word.endswith(")"):
        start = word.rfind("(")
        if start >= 0 and ")" not in word[start + 1 : -1]:
            return word[:start]
    return word


class WordNetNotFoundError(FileNotFoundError):
    """No WordNet database was found where bleuscope looks (see :func:`search_locations`)."""


class WordNetFormatError(ValueError):
    """A WordNet file does not have the documented format (names the file and the line)."""


def nltk_data_directories() -> list[Path]:
    """The directories NLTK 3.10 searches for its data, in its order (``NLTK_DATA`` first)."""
    dirs = [Path(p) for p in os.environ.get("NLTK_DATA", "").split(os.pathsep) if p]
    dirs.append(Path("~/nltk_data").expanduser())
    prefix = Path(sys.prefix)
    dirs += [prefix / "nltk_data", prefix / "share" / "nltk_data", prefix / "lib" / "nltk_data"]
    if sys.platform.startswith("win"):
        appdata = os.environ.get("APPDATA")
        dirs += [Path(r"C:\nltk_data"), Path(r"D:\nltk_data"), Path(r"E:\nltk_data")]
        if appdata:
            dirs.append(Path(appdata) / "nltk_data")
    else:
        dirs += [Path(p) for p in ("/usr/share/nltk_data", "/usr/local/share/nltk_data", "/usr/lib/nltk_data",
                                   "/usr/local/lib/nltk_data")]
    return dirs


def search_locations() -> list[Path]:
    """Where :meth:`WordNet.load` looks when no location is named, in order."""
    found: list[Path] = []
    if os.environ.get("WNSEARCHDIR"):
        found.append(Path(os.environ["WNSEARCHDIR"]))
    for base in nltk_data_directories():
        found += [base / "corpora" / "wordnet", base / "corpora" / "wordnet.zip"]
    found.append(Path("/usr/share/wordnet"))
    if os.environ.get("WNHOME"):
        found.append(Path(os.environ["WNHOME"]) / "dict")
    found.append(Path("/usr/local/WordNet-3.0/dict"))
    return found


class _Files:
    """The database files of one location: a directory or a zip archive (NLTK's ``wordnet.zip``)."""

    def __init__(self, location: Path) -> None:
        self.location = location
        self._zip: zipfile.ZipFile | None = None
        self._members: dict[str, str] = {}
        self._mapped: list[mmap.mmap] = []
        if location.is_file():
            self._zip = zipfile.ZipFile(location)
            for name in self._zip.namelist():
                base = name.rsplit("/", 1)[-1]
                if base in REQUIRED_FILES and base not in self._members:
                    self._members[base] = name

    @staticmethod
    def probe(location: Path) -> bool:
        """Whether ``location`` holds every file the reader needs."""
        try:
            if location.is_dir():
                return all((location / name).is_file() for name in REQUIRED_FILES)
            if location.is_file() and zipfile.is_zipfile(location):
                with zipfile.ZipFile(location) as zf:
                    names = {n.rsplit("/", 1)[-1] for n in zf.namelist()}
                return all(name in names for name in REQUIRED_FILES)
        except OSError:
            return False
        return False

    def describe(self, name: str) -> str:
        if self._zip is not None:
            return f"{self.location}:{self._members.get(name, name)}"
        return str(self.location / name)

    def read(self, name: str) -> bytes:
        """The whole file (index and exception files)."""
        if self._zip is not None:
            return self._zip.read(self._members[name])
        return (self.location / name).read_bytes()

    def head(self, name: str, size: int) -> bytes:
        """The first ``size`` bytes of a file."""
        if self._zip is not None:
            with self._zip.open(self._members[name]) as f:
                return f.read(size)
        with open(self.location / name, "rb") as f:
            return f.read(size)

    def buffer(self, name: str) -> bytes | mmap.mmap:
        """The file for reading lines at byte offsets (data files): memory-mapped from a directory."""
        if self._zip is not None:
            return self._zip.read(self._members[name])
        with open(self.location / name, "rb") as f:
            if os.fstat(f.fileno()).st_size == 0:
                return b""
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self._mapped.append(mapped)
        return mapped


def _lines(data: bytes, describe: str) -> Iterable[tuple[int, str]]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data.count(b"\n", 0, err.start) + 1
        raise WordNetFormatError(f"{describe}, line {line}: not UTF-8 ({err.reason})") from None
    return enumerate(text.splitlines(), start=1)


class WordNet:
    """The WordNet lookups METEOR needs: morphy and the lemma names of a word's synsets (see the module
    docstring for the exact rules). Build it with :meth:`load`; instances for one location are shared."""

    _loaded: dict[str, WordNet] = {}
    _lock = threading.Lock()

    def __init__(self, location: Path) -> None:
        self.location = Path(location)
        self._files = files = _Files(self.location)
        self._python_lock = threading.Lock()
        self._python_loaded = False
        #: the compiled core's copy of the index, exception and data files (what METEOR's fast path reads)
        self._core = None
        if native.native_available():
            parts = [
                (files.describe(f"index.{suffix}"), files.read(f"index.{suffix}"), files.describe(f"{suffix}.exc"),
                 files.read(f"{suffix}.exc"), files.describe(f"data.{suffix}"), files.read(f"data.{suffix}"))
                for _, suffix in PARTS
            ]
            try:
                self._core = native_meteor.wordnet_tables(parts)
            except native_meteor.wordnet_format_error() as err:
                raise WordNetFormatError(str(err)) from None
        else:
            self._load_python()
        self.version = self._read_version()
        self._synset_names: dict[tuple[str, int], tuple[str, ...]] = {}
        self._synonyms: dict[str, frozenset[str]] = {}
        #: (pos, offset) -> the synset's lemma names without "_" (the ones METEOR can match)
        self._one_word_names: dict[tuple[str, int], tuple[str, ...]] = {}

    def _load_python(self) -> None:
        """The Python lookups' tables (read on first use when the compiled core has its own copy)."""
        with self._python_lock:
            if self._python_loaded:
                return
            files = self._files
            #: per part of speech: lemma -> synset offsets, in index order
            self._index: dict[str, dict[str, tuple[int, ...]]] = {}
            #: per part of speech: inflected form -> base forms (a key listed twice keeps its last line)
            self._exceptions: dict[str, dict[str, tuple[str, ...]]] = {}
            self._data: dict[str, bytes | mmap.mmap] = {}
            self._data_names: dict[str, str] = {}
            for pos, suffix in PARTS:
                self._index[pos] = self._read_index(files, f"index.{suffix}", pos)
                self._exceptions[pos] = self._read_exceptions(files, f"{suffix}.exc")
                self._data[pos] = files.buffer(f"data.{suffix}")
                self._data_names[pos] = files.describe(f"data.{suffix}")
            self._python_loaded = True

    def core_tables(self):
        """The compiled core's tables of this database (``None`` without the compiled core)."""
        return self._core

    # -- construction ------------------------------------------------------------------------------------
    @classmethod
    def load(cls, path: str | os.PathLike | None = None) -> WordNet:
        """The database at ``path`` (a directory with the files, NLTK's ``wordnet.zip``, or a directory with
        ``corpora/wordnet``), or the first one found in :func:`search_locations`. Raises
        :class:`WordNetNotFoundError` (a one-line message saying what to install) when there is none."""
        location = cls.locate(path)
        key = str(location.resolve())
        with cls._lock:
            wn = cls._loaded.get(key)
            if wn is None:
                wn = cls._loaded[key] = cls(location)
        return wn

    @staticmethod
    def locate(path: str | os.PathLike | None = None) -> Path:
        """Where :meth:`load` reads from (see its documentation)."""
        if path is not None:
            base = Path(path).expanduser()
            candidates = [base, base / "corpora" / "wordnet", base / "corpora" / "wordnet.zip", base / "dict"]
            for candidate in candidates:
                if _Files.probe(candidate):
                    return candidate
            raise WordNetNotFoundError(
                f"no WordNet database at {base} (it needs {', '.join(REQUIRED_FILES)}; a directory with "
                "them, NLTK's wordnet.zip, or an NLTK data directory with corpora/wordnet)"
            )
        searched = search_locations()
        for candidate in searched:
            if _Files.probe(candidate):
                return candidate
        raise WordNetNotFoundError(f"WordNet 3.0 not found: {INSTALL_HINT}")

    @staticmethod
    def _read_index(files: _Files, name: str, file_pos: str) -> dict[str, tuple[int, ...]]:
        index: dict[str, tuple[int, ...]] = {}
        describe = files.describe(name)
        for number, line in _lines(files.read(name), describe):
            if not line or line.startswith(" "):
                continue  # the license header
            fields = line.split()
            try:
                lemma, pos = fields[0], fields[1]
                n_synsets = int(fields[2])
                n_pointers = int(fields[3])
                start = 4 + n_pointers
                if n_synsets <= 0 or int(fields[start]) != n_synsets:
                    raise ValueError("synset and sense counts differ")
                offsets = tuple(int(x) for x in fields[start + 2 : start + 2 + n_synsets])
                if len(offsets) != n_synsets:
                    raise ValueError("fewer synset offsets than announced")
            except (IndexError, ValueError) as err:
                raise WordNetFormatError(f"{describe}, line {number}: {err}") from None
            if pos != file_pos:
                raise WordNetFormatError(f"{describe}, line {number}: part of speech {pos!r}, expected {file_pos!r}")
            index[lemma] = offsets
        return index

    @staticmethod
    def _read_exceptions(files: _Files, name: str) -> dict[str, tuple[str, ...]]:
        exceptions: dict[str, tuple[str, ...]] = {}
        describe = files.describe(name)
        for number, line in _lines(files.read(name), describe):
            terms = line.split()
            if not terms:
                raise WordNetFormatError(f"{describe}, line {number}: empty line")
            exceptions[terms[0]] = tuple(terms[1:])
        return exceptions

    def _read_version(self) -> str:
        head = self._files.head("data.adj", 4096)
        match = _VERSION.search(head)
        return match.group(1).decode("ascii") if match else "unknown"

    # -- lookups -----------------------------------------------------------------------------------------
    def morphy(self, form: str, pos: str) -> list[str]:
        """The base forms of ``form`` (already lowercased) that part of speech ``pos`` lists, the form itself
        first when listed, each once (NLTK's ``_morphy``)."""
        if not self._python_loaded:
            self._load_python()
        index = self._index[pos]
        exceptions = self._exceptions[pos]
        if form in exceptions:
            candidates = [form, *exceptions[form]]
        else:
            candidates = [form] + [form[: len(form) - len(old)] + new
                                   for old, new in DETACHMENT_RULES[pos] if form.endswith(old)]
        result: list[str] = []
        for candidate in candidates:
            if candidate in index and candidate not in result:
                result.append(candidate)
        return result

    def synset_offsets(self, word: str) -> list[tuple[str, int]]:
        """``(pos, offset)`` of every synset of ``word``, in the order NLTK's ``synsets(word)`` lists them."""
        if not self._python_loaded:
            self._load_python()
        form = word.lower()
        return [(pos, offset) for pos, _ in PARTS for base in self.morphy(form, pos)
                for offset in self._index[pos][base]]

    def lemma_names(self, pos: str, offset: int) -> tuple[str, ...]:
        """The lemma names of the synset at ``offset`` of part ``pos``'s data file (markers removed)."""
        key = (pos, offset)
        names = self._synset_names.get(key)
        if names is None:
            names = self._synset_names[key] = self._parse_lemma_names(pos, offset)
        return names

    def _parse_lemma_names(self, pos: str, offset: int) -> tuple[str, ...]:
        if not self._python_loaded:
            self._load_python()
        data = self._data[pos]
        end = data.find(b"\n", offset)
        line = bytes(data[offset : end if end >= 0 else len(data)])
        where = f"{self._data_names[pos]}, byte {offset}"
        if line[:8] != b"%08d" % offset:
            raise WordNetFormatError(f"{where}: no synset starts there (the index and data files disagree)")
        try:
            head = line.split(maxsplit=4)  # offset, lexicographer file, synset type, word count, the rest
            count = int(head[3], 16)
            words = head[4].split(maxsplit=2 * count)[: 2 * count : 2]
        except (IndexError, ValueError) as err:
            raise WordNetFormatError(f"{where}: {err}") from None
        if len(words) != count:
            raise WordNetFormatError(f"{where}: fewer words than announced")
        return tuple(_without_marker(w.decode("utf-8", errors="replace")) for w in words)

    def synonyms(self, word: str) -> frozenset[str]:
        """METEOR's synonym set of ``word``: the word itself and every lemma name without ``_`` of the
        synsets of ``word`` (cached per word)."""
        found = self._synonyms.get(word)
        if found is None:
            names = {word}
            one_word = self._one_word_names
            for key in self.synset_offsets(word):
                one = one_word.get(key)
                if one is None:
                    one = one_word[key] = tuple(name for name in self.lemma_names(*key) if "_" not in name)
                names.update(one)
            if len(self._synonyms) >= SYNONYM_CACHE_LIMIT:
                self._synonyms.clear()
            found = self._synonyms[word] = frozenset(names)
        return found

    def __reduce__(self):
        # pickled as its location (worker processes load the files themselves)
        return (WordNet.load, (self.location,))

    def __repr__(self) -> str:
        return f"WordNet({str(self.location)!r}, version={self.version!r})"
