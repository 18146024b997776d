"""bleuscope's WordNet reader against NLTK's: the same synonym sets (what METEOR uses) for every word of
the WMT English data, morphy's edge cases, NLTK's zip layout, and clear errors."""

from __future__ import annotations

import re
import zipfile
from itertools import chain

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bleuscope.metrics.meteor import WordNet, WordNetFormatError, WordNetNotFoundError
from bleuscope.metrics.meteor import wordnet as wordnet_module

from ...conftest import DATA, read_lines, requires_wmt
from ...meteor_support import LEXNAMES, NLTK_FILES

#: words that exercise morphy: exception lists (a key listed twice keeps its last line: "offer" in adj.exc,
#: "involucra" in noun.exc), each detachment rule, capitals, lemma names with markers and case
SPECIAL = (
    "offer", "involucra", "aurar", "diastemata", "dogs", "churches", "aardwolves", "abaci", "boxes", "buzzes",
    "wishes", "women", "men", "flies", "Flies", "ies", "s", "", "better", "best", "biggest", "nicer", "is",
    "was", "are", "went", "lying", "dying", "hoping", "hopping", "ate", "geese", "Paris", "U.S.", "beautiful",
    "galore", "elect", "guid", "guide", "command", "heed", "obey", "ensur", "ensure", "militari", "forev",
)


def nltk_synonyms(reader, word: str) -> set[str]:
    names = chain.from_iterable(
        (lemma.name() for lemma in synset.lemmas() if lemma.name().find("_") < 0) for synset in reader.synsets(word)
    )
    return set(names).union({word})


def test_lexnames_fixture_matches_the_documented_list():
    assert len(LEXNAMES) == 45 and LEXNAMES[0] == "adj.all" and LEXNAMES[3] == "noun.Tops"
    assert LEXNAMES[44] == "adj.ppl"


def test_special_words(wordnet, nltk_wordnet):
    for word in SPECIAL:
        assert wordnet.synonyms(word) == nltk_synonyms(nltk_wordnet, word), word


def test_synset_order_and_morphy(wordnet, nltk_wordnet):
    for word in SPECIAL:
        expected = [(s.pos() if s.pos() != "s" else "a", s.offset()) for s in nltk_wordnet.synsets(word)]
        assert wordnet.synset_offsets(word) == expected, word
        for pos in "nvar":
            assert wordnet.morphy(word.lower(), pos) == nltk_wordnet._morphy(word.lower(), pos), (word, pos)


def compiled_synonyms(wordnet, word: str) -> set[str]:
    return set(wordnet.core_tables().synonyms(word)).union({word})


def test_compiled_lookups_equal_the_python_reader(wordnet):
    """The compiled core's copy of the database gives the Python reader's synonym set for every lemma of
    the index, each lemma's inflected and capitalized forms, the exception lists' forms and the special
    words (the Python reader is checked against NLTK's above and on the WMT words below)."""
    if wordnet.core_tables() is None:
        pytest.skip("the compiled core is not built")
    wordnet._load_python()
    words = set(SPECIAL)
    for pos, _ in wordnet_module.PARTS:
        words.update(wordnet._exceptions[pos])
        for k, lemma in enumerate(wordnet._index[pos]):
            words.add(lemma)
            if k % 7 == 0:
                words.update((lemma + "s", lemma + "ing", lemma + "er", lemma.upper(), lemma[:-1]))
    words.update(("K" + "\u212a", "\u212aing", "İs", "ΣΑΣ", "straße", "naïve", "café(a)"))
    assert len(words) > 200_000
    assert [w for w in sorted(words) if compiled_synonyms(wordnet, w) != wordnet.synonyms(w)] == []


def test_duplicate_exception_keys_keep_the_last_line(wordnet):
    # noun.exc: "involucra involucre", then "involucra involucrum"; only involucre is a noun of the index
    assert wordnet.morphy("involucra", "n") == []
    # adj.exc: "offer off", then "offer offer"; only off is an adjective
    assert wordnet.morphy("offer", "a") == []
    assert wordnet.morphy("aurar", "n") == ["eyrir"]


def wmt_english_words(pairs, systems: int) -> set[str]:
    """Every distinct token (raw and lowercased) of the English references and of the first systems."""
    words = set()
    for pair in pairs:
        base = DATA / "generaltest2022" / pair
        for path in sorted(base.glob("ref.*.txt")) + sorted((base / "sys").glob("*.txt"))[:systems]:
            for line in read_lines(path):
                tokens = line.split()
                words.update(tokens)
                words.update(t.lower() for t in tokens)
    return words


@requires_wmt
def test_wmt_english_words(wordnet, nltk_wordnet):
    words = wmt_english_words(["de-en"], 0)
    assert len(words) > 10_000
    assert [w for w in sorted(words) if wordnet.synonyms(w) != nltk_synonyms(nltk_wordnet, w)] == []


@requires_wmt
@pytest.mark.full
def test_every_wmt_english_word(wordnet, nltk_wordnet):
    words = wmt_english_words(["de-en", "zh-en", "cs-en"], 8)
    assert len(words) > 40_000
    assert [w for w in sorted(words) if wordnet.synonyms(w) != nltk_synonyms(nltk_wordnet, w)] == []


def test_zip_layout(tmp_path, nltk_data_dir, wordnet):
    """NLTK's downloader installs corpora/wordnet.zip with a wordnet/ folder inside."""
    archive = tmp_path / "corpora" / "wordnet.zip"
    archive.parent.mkdir()
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for name in NLTK_FILES + ("lexnames",):
            zf.write(nltk_data_dir / "corpora" / "wordnet" / name, f"wordnet/{name}")
    zipped = WordNet.load(tmp_path)
    assert zipped.location == archive
    assert zipped.version == "3.0"
    for word in SPECIAL + ("dog", "run", "quickly", "happiest"):
        assert zipped.synonyms(word) == wordnet.synonyms(word)


def test_search_order_prefers_nltk_data(monkeypatch, nltk_data_dir):
    monkeypatch.setenv("NLTK_DATA", str(nltk_data_dir))
    monkeypatch.delenv("WNSEARCHDIR", raising=False)
    assert WordNet.locate() == nltk_data_dir / "corpora" / "wordnet"


def test_not_found_is_one_line(monkeypatch, tmp_path):
    monkeypatch.setattr(wordnet_module, "search_locations", lambda: [tmp_path / "nothing"])
    with pytest.raises(WordNetNotFoundError) as err:
        WordNet.locate()
    message = str(err.value)
    assert "\n" not in message and "wordnet-base" in message and "nltk.downloader wordnet" in message
    with pytest.raises(WordNetNotFoundError, match="no WordNet database at"):
        WordNet.locate(tmp_path)


def test_bad_index_line_names_file_and_line(tmp_path, nltk_data_dir):
    source = nltk_data_dir / "corpora" / "wordnet"
    for name in NLTK_FILES:
        (tmp_path / name).write_bytes((source / name).read_bytes())
    lines = (tmp_path / "index.adv").read_text().splitlines(keepends=True)
    header = sum(1 for line in lines if line.startswith(" "))
    lines[header + 2] = "abruptly r 2 0 x 0 00000000\n"
    (tmp_path / "index.adv").write_text("".join(lines))
    with pytest.raises(WordNetFormatError, match=rf"index\.adv, line {header + 3}:"):
        WordNet(tmp_path)


def test_index_and_data_disagree(tmp_path, nltk_data_dir):
    source = nltk_data_dir / "corpora" / "wordnet"
    for name in NLTK_FILES:
        (tmp_path / name).write_bytes((source / name).read_bytes())
    data = (tmp_path / "data.adv").read_bytes()
    (tmp_path / "data.adv").write_bytes(b"x" + data)  # every offset now points one byte early
    wn = WordNet(tmp_path)
    with pytest.raises(WordNetFormatError, match=r"data\.adv, byte \d+: no synset starts there"):
        wn.synonyms("quickly")
    if wn.core_tables() is not None:  # the compiled copy, through METEOR's alignment
        from bleuscope.metrics.meteor import METEOR

        with pytest.raises(WordNetFormatError, match=r"data\.adv, byte \d+: no synset starts there"):
            METEOR(wordnet=wn, engine="native").sentence_scores(["fast"], [["speedy"]])


@given(st.text(alphabet="ab()_", max_size=10))
def test_marker_removal_is_nltks_pattern(word):
    """NLTK removes an adjective marker with ``(.*?)(\\([^()]*\\))?$``."""
    assert wordnet_module._without_marker(word) == re.match(r"(.*?)(\([^()]*\))?$", word).group(1)
