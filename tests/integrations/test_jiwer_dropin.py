"""bleuscope.jiwer against jiwer 4.0.0 itself (a test dependency): floats, counts, alignment chunks and
the text views `==` on generated input (ties, tabs, NBSP, U+3000, empty strings, CJK), the WMT data and long
inputs past rapidfuzz's Hirschberg switch; the `full` sweep covers every WMT system at word and character
level (115,360 pairs each)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import jiwer as bj
from bleuscope.integrations.jiwer.alignment import display_width

from ..conftest import all_pairs, pair_dir, read_lines, requires_wmt

jiwer = pytest.importorskip("jiwer")


def chunks_of(out) -> list:
    return [[(c.type, c.ref_start_idx, c.ref_end_idx, c.hyp_start_idx, c.hyp_end_idx) for c in s] for s in out.alignments]


def word_view(out) -> tuple:
    return (out.references, out.hypotheses, chunks_of(out), out.wer, out.mer, out.wil, out.wip, out.hits,
            out.substitutions, out.deletions, out.insertions)


def char_view(out) -> tuple:
    return (out.references, out.hypotheses, chunks_of(out), out.cer, out.hits, out.substitutions, out.deletions,
            out.insertions)


def assert_same(refs, hyps, **transforms) -> None:
    """Every public result of both libraries on the same input is equal (and of the same type)."""
    mine, theirs = bj.process_words(refs, hyps, **transforms), jiwer.process_words(refs, hyps, **transforms)
    assert word_view(mine) == word_view(theirs)
    assert type(mine.wer) is type(theirs.wer)
    for f in ("wer", "mer", "wil", "wip"):
        assert getattr(bj, f)(refs, hyps, **transforms) == getattr(jiwer, f)(refs, hyps, **transforms)
    assert bj.visualize_alignment(mine) == jiwer.visualize_alignment(theirs)
    assert bj.collect_error_counts(mine) == jiwer.collect_error_counts(theirs)


def assert_same_chars(refs, hyps, **transforms) -> None:
    mine, theirs = bj.process_characters(refs, hyps, **transforms), jiwer.process_characters(refs, hyps, **transforms)
    assert char_view(mine) == char_view(theirs)
    assert bj.cer(refs, hyps, **transforms) == jiwer.cer(refs, hyps, **transforms)
    assert bj.visualize_alignment(mine) == jiwer.visualize_alignment(theirs)


# words from a small alphabet make ties common; the separators are the traps of jiwer's default transform
ALPHABET = ["x", "y", "a", "b", "c", "中", "文", " ", " ", " ", "  ", "\t", "\xa0", "\u3000", "\n", "\x1c", "\x85",
            "\u2028", "\u200b"]
texts = st.lists(st.sampled_from(ALPHABET), max_size=18).map("".join)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=4))
def test_generated_pairs_word_and_character_level(pairs):
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    assert_same(refs, hyps)
    assert_same_chars(refs, hyps)
    assert_same(refs[0], hyps[0])



@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(texts, texts), min_size=1, max_size=3))
def test_other_transforms_give_the_same_tokens_and_alignments(pairs):
    refs, hyps = [r for r, _ in pairs], [h for _, h in pairs]
    for name in ("wer_standardize", "wer_contiguous", "wer_standardize_contiguous"):
        mine = bj.process_words(refs, hyps, getattr(bj, name), getattr(bj, name))
        theirs = jiwer.process_words(refs, hyps, getattr(jiwer, name), getattr(jiwer, name))
        assert word_view(mine) == word_view(theirs)
    mine = bj.process_characters(refs, hyps, bj.cer_contiguous, bj.cer_contiguous)
    theirs = jiwer.process_characters(refs, hyps, jiwer.cer_contiguous, jiwer.cer_contiguous)
    assert char_view(mine) == char_view(theirs)


@pytest.mark.parametrize(
    ("ref", "hyp"),
    [("x y", "y x"), ("a b", "b c"), ("a\tb", "a b"), ("a  b", "a b"), ("a b", "a  b"), ("a\xa0b", "a b"),
     ("a\u3000b c", "a b c"), ("", ""), ("", "a b"), ("a b", ""), ("   ", "a"), ("a a a", "a"), ("b a b", "a b a"),
     ("中文 字", "中 文字"), ("x y z", "z y x")],
)
def test_known_traps(ref, hyp):
    assert_same(ref, hyp)
    assert_same_chars(ref, hyp)
    assert_same([ref, "a b"], [hyp, "a c"])


def test_all_empty_references_give_jiwer_4_special_values():
    for refs, hyps in ((["", ""], ["a b", "c"]), (["", " "], ["", ""]), ([], [])):
        assert_same(refs, hyps)
        assert_same_chars(refs, hyps)
    assert bj.wer("", "a b c") == 3 and isinstance(bj.wer("", "a b c"), int)


def test_strings_that_are_not_utf8_take_the_python_path():
    refs, hyps = ["a \ud800 b", "x"], ["a b \ud800", "x y"]
    assert_same(refs, hyps)
    assert_same_chars(refs, hyps)


def test_bad_input_raises_as_jiwer():
    for refs, hyps in ((["a", "b"], ["a"]), (None, "a"), (("a",), ("a",)), ([1], ["a"])):
        with pytest.raises(Exception) as mine:
            bj.process_words(refs, hyps)
        with pytest.raises(Exception) as theirs:
            jiwer.process_words(refs, hyps)
        assert type(mine.value) is type(theirs.value)
        assert str(mine.value) == str(theirs.value)


def test_line_width_and_error_count_views():
    refs = ["This is a very long sentence that is much longer than the previous one or the one before that",
            "short one here", "quite a bit of longer sentence"]
    hyps = ["This is a very loong sentence that is not much longer than the previous one or one before that",
            "shoe order one", "quite bit of an even longest sentence here"]
    mine, theirs = bj.process_words(refs, hyps), jiwer.process_words(refs, hyps)
    for kwargs in ({}, {"line_width": 80}, {"line_width": 20, "show_measures": False}, {"skip_correct": False}):
        assert bj.visualize_alignment(mine, **kwargs) == jiwer.visualize_alignment(theirs, **kwargs)
    for kwargs in ({}, {"top_k": 1}, {"show_insertions": False}):
        assert bj.visualize_error_counts(mine, **kwargs) == jiwer.visualize_error_counts(theirs, **kwargs)
    chars_mine, chars_theirs = bj.process_characters(refs, hyps), jiwer.process_characters(refs, hyps)
    assert bj.visualize_alignment(chars_mine, line_width=30) == jiwer.visualize_alignment(chars_theirs, line_width=30)
    assert bj.collect_error_counts(chars_mine) == jiwer.collect_error_counts(chars_theirs)


def _mutated(tokens: list, rate: float, vocabulary: list, rng: random.Random) -> list:
    out = []
    for t in tokens:
        x = rng.random()
        if x < rate / 3:
            continue
        out.extend([rng.choice(vocabulary)] if x < 2 * rate / 3 else [t, rng.choice(vocabulary)] if x < rate else [t])
    return out


@pytest.mark.parametrize("rate", [0.01, 0.3])
def test_long_inputs_past_the_hirschberg_switch(rate):
    """5,000 words and 20,000 characters: rapidfuzz splits such problems (Hirschberg) before tracing back."""
    rng = random.Random(int(rate * 100))
    vocabulary = [str(i) for i in range(30)]
    ref = [rng.choice(vocabulary) for _ in range(5000)]
    assert_same(" ".join(ref), " ".join(_mutated(ref, rate, vocabulary, rng)))
    chars = [rng.choice("abcdefgh ") for _ in range(20000)]
    assert_same_chars("".join(chars), "".join(_mutated(chars, rate, list("abcdefgh "), rng)))


def _wmt_pairs(limit_per_system: int | None):
    for testset, pair in all_pairs():
        base = pair_dir(testset, pair)
        refs = read_lines(sorted(base.glob("ref.*.txt"))[0])
        for system in sorted((base / "sys").glob("*.txt")):
            hyps = read_lines(system)
            n = len(hyps) if limit_per_system is None else limit_per_system
            yield f"{testset}/{pair}/{system.stem}", refs[:n], hyps[:n]


@requires_wmt
def test_wmt_sample_word_and_character_level():
    """The first 15 segments of every WMT system against its first reference (about 1,500 pairs each level)."""
    n = 0
    for _, refs, hyps in _wmt_pairs(15):
        mine, theirs = bj.process_words(refs, hyps), jiwer.process_words(refs, hyps)
        assert word_view(mine) == word_view(theirs)
        mine, theirs = bj.process_characters(refs, hyps), jiwer.process_characters(refs, hyps)
        assert char_view(mine) == char_view(theirs)
        n += len(refs)
    assert n > 1000


@pytest.mark.full
@requires_wmt
def test_wmt_every_system_word_and_character_level():
    """Every segment of every WMT system (115,360 pairs) at word and at character level: 230,720 pairs."""
    n = 0
    for name, refs, hyps in _wmt_pairs(None):
        mine, theirs = bj.process_words(refs, hyps), jiwer.process_words(refs, hyps)
        assert word_view(mine) == word_view(theirs), name
        mine, theirs = bj.process_characters(refs, hyps), jiwer.process_characters(refs, hyps)
        assert char_view(mine) == char_view(theirs), name
        n += 2 * len(refs)
    assert n >= 200_000


def test_alignment_chunks_are_dataclasses_as_jiwer_s():
    """The chunks the compiled core makes (slotted, without ``__init__``) compare, print, convert, copy and
    pickle as jiwer's dataclass does."""
    import copy
    import dataclasses
    import pickle

    mine = bj.process_words(["a b c d", "x y"], ["a c d e", "y x"]).alignments
    theirs = jiwer.process_words(["a b c d", "x y"], ["a c d e", "y x"]).alignments
    assert [[dataclasses.asdict(c) for c in s] for s in mine] == [[dataclasses.asdict(c) for c in s] for s in theirs]
    assert [[repr(c) for c in s] for s in mine] == [[repr(c) for c in s] for s in theirs]
    chunk = mine[0][1]
    assert chunk == bj.AlignmentChunk(**dataclasses.asdict(chunk))
    assert pickle.loads(pickle.dumps(chunk)) == chunk == copy.deepcopy(chunk)
    assert dataclasses.replace(chunk, type="replace").type == "substitute"
    with pytest.raises(ValueError, match="larger than"):
        bj.AlignmentChunk("equal", 2, 1, 0, 0)


ascii_texts = st.lists(st.sampled_from(["x", "y", "ab", "*", "c", " ", "  "]), max_size=14).map("".join)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(ascii_texts, ascii_texts), min_size=1, max_size=4), st.sampled_from([None, 8, 15, 40]))
def test_the_terminal_view_is_jiwers_text_when_every_character_is_one_column(pairs, line_width):
    refs = [r if r.strip() else "x" for r, _ in pairs]
    hyps = [h for _, h in pairs]
    for mine, theirs in ((bj.process_words(refs, hyps), jiwer.process_words(refs, hyps)),
                         (bj.process_characters(refs, hyps), jiwer.process_characters(refs, hyps))):
        want = jiwer.visualize_alignment(theirs, line_width=line_width, skip_correct=False)
        assert bj.visualize_alignment(mine, line_width=line_width, skip_correct=False, display="terminal") == want


def pair_lines(view: str) -> list[list[str]]:
    """The REF, HYP and operation lines of each pair of a view."""
    blocks = [b for b in view.split("\n\n") if b.startswith("REF: ")]
    return [b.split("\n")[:3] for b in blocks]


WIDE_AND_RTL = ["中", "文", "字", "ｱ", "é", "e\u0301", "ש", "ל", "ו", "ם", "س", "ل", "ا", "a", "b", " "]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(*[st.lists(st.sampled_from(WIDE_AND_RTL), min_size=1, max_size=12).map("".join)] * 2),
                min_size=1, max_size=3), st.booleans())
def test_the_terminal_view_lines_up_wide_combining_and_right_to_left_text(pairs, characters):
    refs, hyps = [r if r.strip() else "a" for r, _ in pairs], [h for _, h in pairs]
    out = bj.process_characters(refs, hyps) if characters else bj.process_words(refs, hyps)
    view = bj.visualize_alignment(out, skip_correct=False, display="terminal")
    for ref_line, hyp_line, marks in pair_lines(view):
        # every column has the same display width on the three lines, so the lines end together
        assert display_width(ref_line) == display_width(hyp_line) >= display_width(marks.rstrip())
        # a right-to-left word is isolated (each character, in the character view), so it cannot reorder columns
        for line in (ref_line, hyp_line):
            for ch in line:
                if ch in "שלוםسلا":
                    before = line[: line.index(ch)]
                    assert before.count("\u2068") == before.count("\u2069") + 1
    plain = view.replace("\u2068", "").replace("\u2069", "")
    if not any(display_width(ch) != 1 for r, h in pairs for ch in r + h):
        assert plain == jiwer.visualize_alignment(jiwer.process_characters(refs, hyps) if characters else
                                                  jiwer.process_words(refs, hyps), skip_correct=False)


def test_the_terminal_view_of_chinese_characters():
    out = bj.process_characters(["我爱北京天安门"], ["我爱北京"])
    view = bj.visualize_alignment(out, display="terminal", show_measures=False)
    assert view == "=== SENTENCE 1 ===\n\nREF: 我爱北京天安门\nHYP: 我爱北京******\n              D D D\n"
    # jiwer pads by len: its deletion marks stand under the fourth character
    assert bj.visualize_alignment(out, show_measures=False) == jiwer.visualize_alignment(
        jiwer.process_characters(["我爱北京天安门"], ["我爱北京"]), show_measures=False)


def test_the_html_view_lays_right_to_left_pairs_out_right_to_left():
    from html.parser import HTMLParser

    out = bj.process_words(["שלום לכם חברים", "the <b>cat</b>"], ["שלום חברים טובים", "the dog"])
    page = bj.visualize_alignment(out, display="html")

    class Tables(HTMLParser):
        def __init__(self):
            super().__init__()
            self.tables, self.cells = [], []

        def handle_starttag(self, tag, attrs):
            if tag == "table":
                self.tables.append(dict(attrs)["dir"])
                self.cells.append([])
            if tag == "tr":
                self.cells[-1].append([])

        def handle_data(self, data):
            if self.cells and self.cells[-1] and self.lasttag == "td":
                self.cells[-1][-1].append(data)

    parser = Tables()
    parser.feed(page)
    assert parser.tables == ["rtl", "ltr"]
    assert parser.cells[0][0] == ["שלום", "לכם", "חברים"] and parser.cells[0][1] == ["שלום", "חברים", "טובים"]
    assert [c for c in parser.cells[0][2] if c.strip()] == ["S", "S"]
    assert "&lt;b&gt;cat&lt;/b&gt;" in page and "<b>" not in page
    assert f"wer={out.wer * 100:.2f}%" in page
    with pytest.raises(ValueError, match="display must be one of"):
        bj.visualize_alignment(out, display="rtl")
