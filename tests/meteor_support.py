"""WordNet 3.0 for the METEOR tests: Debian's files (wordnet-base, wordnet-sense-index) as an NLTK data directory.

NLTK 3.10's reader only opens files inside one of its data paths and refuses symbolic links and multiply
linked files there, so the files are copied into a temporary ``corpora/wordnet`` folder, with NLTK's
``lexnames`` file (Debian does not ship it) written from the list of WordNet 3.0's lexicographer files
(lexnames(5WN)): number, name, syntactic category (1 noun, 2 verb, 3 adjective, 4 adverb).
"""

from __future__ import annotations

import shutil
import warnings
from pathlib import Path

import pytest

DEBIAN_WORDNET = Path("/usr/share/wordnet")

#: the files NLTK's WordNetCorpusReader opens
NLTK_FILES = (
    "cntlist.rev", "index.sense", "index.adj", "index.adv", "index.noun", "index.verb", "data.adj", "data.adv",
    "data.noun", "data.verb", "adj.exc", "adv.exc", "noun.exc", "verb.exc",
)

#: WordNet 3.0's lexicographer files, numbered 00-44 (lexnames(5WN))
LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive "
    "noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity "
    "noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change verb.cognition "
    "verb.communication verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion "
    "verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl"
).split()
CATEGORIES = {"noun": 1, "verb": 2, "adj": 3, "adv": 4}

requires_wordnet = pytest.mark.skipif(
    not all((DEBIAN_WORDNET / name).is_file() for name in NLTK_FILES),
    reason="WordNet 3.0 not installed (apt-get install wordnet-base wordnet-sense-index)",
)


def lexnames_text() -> str:
    assert len(LEXNAMES) == 45
    return "".join(f"{i:02d}\t{name}\t{CATEGORIES[name.split('.')[0]]}\n" for i, name in enumerate(LEXNAMES))


def build_nltk_data(root: Path) -> Path:
    """``root/corpora/wordnet`` with copies of Debian's files and ``lexnames``; returns ``root``."""
    target = root / "corpora" / "wordnet"
    target.mkdir(parents=True, exist_ok=True)
    for name in NLTK_FILES:
        shutil.copyfile(DEBIAN_WORDNET / name, target / name)
    (target / "lexnames").write_text(lexnames_text(), encoding="ascii")
    return root


@pytest.fixture(scope="session")
def nltk_data_dir(tmp_path_factory) -> Path:
    """An NLTK data directory holding WordNet 3.0 (Debian's files)."""
    if not all((DEBIAN_WORDNET / name).is_file() for name in NLTK_FILES):
        pytest.skip("WordNet 3.0 not installed (apt-get install wordnet-base wordnet-sense-index)")
    return build_nltk_data(tmp_path_factory.mktemp("nltk_data"))


@pytest.fixture(scope="session")
def nltk_wordnet(nltk_data_dir):
    """NLTK's own WordNetCorpusReader on the fixture's files (the oracle)."""
    nltk = pytest.importorskip("nltk")
    from nltk.corpus.reader.wordnet import WordNetCorpusReader

    if str(nltk_data_dir) not in nltk.data.path:
        nltk.data.path.insert(0, str(nltk_data_dir))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "The multilingual functions are not available ..."
        return WordNetCorpusReader(nltk.data.find("corpora/wordnet"), None)


@pytest.fixture(scope="session")
def wordnet(nltk_data_dir):
    """bleuscope's reader on the same files."""
    from bleuscope.metrics.meteor import WordNet

    return WordNet.load(nltk_data_dir)


#: the WMT22 into-English pairs (two references each) and their line counts
ENGLISH_PAIRS = ("de-en", "cs-en", "zh-en")


def wmt_segments(stride: int = 1):
    """``(hypothesis, [reference, reference])`` strings of every system of the WMT22 into-English pairs
    (42,456 segments), pair by pair and system by system; ``stride``: every stride-th segment only."""
    from .conftest import DATA, read_lines

    count = 0
    for pair in ENGLISH_PAIRS:
        base = DATA / "generaltest2022" / pair
        refs = [read_lines(p) for p in sorted(base.glob("ref.*.txt"))]
        for path in sorted((base / "sys").glob("*.txt")):
            for i, hyp in enumerate(read_lines(path)):
                if count % stride == 0:
                    yield hyp, [r[i] for r in refs]
                count += 1
