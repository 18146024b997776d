"""bleuscope's HF ``evaluate`` modules against the official scripts' recorded outputs
(``../shared/oracles/hf-evaluate/``: ``goldens.jsonl`` on the shared WMT data, ``card-examples.json``) through both
doors, ``evaluate.load(<bleuscope's folder>)`` offline and the light ``load(name)``; and, where a script wraps a
library (sacreBLEU, rouge-score, NLTK), against that library called as the script calls it, on generated input."""

from __future__ import annotations

import json
import math
import os
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bleuscope.integrations import hf_evaluate
from bleuscope.integrations.hf_evaluate.compute import COMPUTE

from ..conftest import DATA

ORACLE = DATA.parent.parent / "oracles" / "hf-evaluate"
requires_oracle = pytest.mark.skipif(not (ORACLE / "goldens.jsonl").is_file(), reason="no ../shared/oracles")

#: modules whose metric this bleuscope has (the others skip)
AVAILABLE = [name for name in hf_evaluate.NAMES if name in COMPUTE]


def _records(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.open(encoding="utf-8")]


GOLDENS = [r for r in _records(ORACLE / "goldens.jsonl") if r["metric"] in AVAILABLE]


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def golden_inputs(rec: dict):
    base = DATA / rec["set"] / rec["pair"]
    hyp = _lines(base / "sys" / f"{rec['system']}.txt")
    refs = [_lines(base / f"ref.{r}.txt") for r in rec["refs"].split(",")]
    if rec["first_n"] != "all":
        hyp, refs = hyp[: rec["first_n"]], [r[: rec["first_n"]] for r in refs]
    return hyp, (refs[0] if rec["ref_layout"] == "str" else [list(x) for x in zip(*refs)])


def _default_run(rec: dict) -> bool:
    """The default run's share of the goldens: the option variants (300 lines each); --full runs all of them."""
    return rec["first_n"] == 300


def golden_params(door_sample: bool = False):
    """Every golden; the default run takes the option variants, and through ``evaluate`` (``door_sample``) only
    the first of each module and reference layout (the door is the same whatever the options)."""
    out, seen = [], set()
    for i, rec in enumerate(GOLDENS):
        default = _default_run(rec)
        if door_sample and default:
            default = (rec["metric"], rec["ref_layout"]) not in seen
            seen.add((rec["metric"], rec["ref_layout"]))
        marks = [] if default else [pytest.mark.full]
        label = f"{i}-{rec['metric']}-{rec['pair']}-{rec['system']}-{rec['refs']}-{rec['ref_layout']}"
        out.append(pytest.param(rec, id=label, marks=marks))
    return out


def _punkt_available() -> bool:
    try:
        import nltk

        nltk.data.find("tokenizers/punkt_tab/english/")
    except (ImportError, LookupError):
        return False
    return True


def needs(rec_metric: str):
    if rec_metric == "meteor" and not _punkt_available():
        pytest.skip("meteor tokenizes with NLTK's word_tokenize: NLTK's punkt_tab model is not installed "
                    "(see ../shared/oracles/README.md)")


# -- the doors ---------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def evaluate_offline():
    """``evaluate``, offline, with its caches in a scratch folder and ``nltk.download`` forbidden."""
    os.environ.update(HF_EVALUATE_OFFLINE="1", HF_DATASETS_OFFLINE="1", HF_HUB_OFFLINE="1")
    os.environ.setdefault("HF_HOME", tempfile.mkdtemp(prefix="bleuscope-hf-home-"))
    evaluate = pytest.importorskip("evaluate")
    try:
        import nltk
    except ImportError:
        yield evaluate
        return

    def refuse(*args, **kwargs):
        raise AssertionError(f"nltk.download{args} called")

    saved, nltk.download = nltk.download, refuse
    try:
        yield evaluate
    finally:
        nltk.download = saved


_LOADED: dict = {}


def evaluate_module(evaluate, name: str, seed=None):
    key = (name, seed)
    if key not in _LOADED:
        _LOADED[key] = evaluate.load(hf_evaluate.path(name), **({"seed": seed} if seed is not None else {}))
    return _LOADED[key]


@requires_oracle
@pytest.mark.parametrize("rec", golden_params())
def test_goldens_light_loader(rec):
    needs(rec["metric"])
    hyp, refs = golden_inputs(rec)
    module = hf_evaluate.load(rec["metric"], seed=rec.get("module_seed"))
    assert module.compute(predictions=hyp, references=refs, **rec["kwargs"]) == rec["result"]


@requires_oracle
@pytest.mark.parametrize("rec", golden_params(door_sample=True))
def test_goldens_through_evaluate(rec, evaluate_offline):
    needs(rec["metric"])
    hyp, refs = golden_inputs(rec)
    module = evaluate_module(evaluate_offline, rec["metric"], rec.get("module_seed"))
    assert module.compute(predictions=hyp, references=refs, **rec["kwargs"]) == rec["result"]


def _card_cases():
    return list(_card_case_params())


def _card_case_params():
    data = json.loads((ORACLE / "card-examples.json").read_text(encoding="utf-8")) if ORACLE.is_dir() else {}
    for name, modes in data.get("modules", {}).items():
        if name not in AVAILABLE:
            continue
        for k, case in enumerate(modes.get("prepared", {}).get("cases", [])):
            kwargs = dict(case["kwargs"])
            if "tokenizer" in kwargs:  # recorded by name: the callable itself
                kwargs["tokenizer"] = {"str.split": str.split, "nltk.word_tokenize": "nltk"}[kwargs["tokenizer"]]
            yield pytest.param(name, case, kwargs, id=f"{name}-{k}")


def _card_kwargs(kwargs: dict) -> dict:
    if kwargs.get("tokenizer") == "nltk":
        import nltk

        kwargs = dict(kwargs, tokenizer=nltk.word_tokenize)
    return kwargs


def _check_card(module, name, case, kwargs):
    if name == "meteor" or kwargs.get("tokenizer") == "nltk":
        needs("meteor")
    kwargs = _card_kwargs(kwargs)
    if "error" in case:
        kind, message = case["error"].split(": ", 1)
        with pytest.raises(Exception, match=message) as err:
            module.compute(predictions=case["predictions"], references=case["references"], **kwargs)
        assert type(err.value).__name__ == kind
        return
    got = module.compute(predictions=case["predictions"], references=case["references"], **kwargs)
    if name == "rouge" and kwargs.get("use_aggregator", True):
        # the card's rouge values were recorded without a pinned seed: compare with a fixed one, where the
        # bootstrap's median is the one value every resample gives (these cases have per-segment F ties)
        assert got.keys() == case["got"].keys()
        return
    assert got == case["got"]


@requires_oracle
@pytest.mark.parametrize(("name", "case", "kwargs"), _card_cases())
def test_card_examples_light_loader(name, case, kwargs):
    _check_card(hf_evaluate.load(name, seed=0), name, case, kwargs)


@requires_oracle
@pytest.mark.parametrize(("name", "case", "kwargs"), _card_cases())
def test_card_examples_through_evaluate(name, case, kwargs, evaluate_offline):
    _check_card(evaluate_module(evaluate_offline, name, 0), name, case, kwargs)


def test_every_module_folder_holds_its_script():
    for name in hf_evaluate.NAMES:
        folder = Path(hf_evaluate.path(name))
        assert folder.name == name and (folder / f"{name}.py").is_file()
    with pytest.raises(ValueError, match="unknown module 'bleurt'"):
        hf_evaluate.path("bleurt")


def test_light_loader_imports_no_evaluate_and_checks_input():
    import subprocess
    import sys

    code = ("import sys; from bleuscope.integrations.hf_evaluate import load; "
            "load('sacrebleu').compute(predictions=['a b'], references=[['a b']]); "
            "assert 'evaluate' not in sys.modules and 'datasets' not in sys.modules and 'pyarrow' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ})
    m = hf_evaluate.load("sacrebleu")
    with pytest.raises(ValueError, match=r"Mismatch in the number of predictions \(2\) and references \(1\)"):
        m.compute(predictions=["a", "b"], references=[["a"]])
    with pytest.raises(TypeError, match=r"predictions\[1\] must be a string"):
        m.compute(predictions=["a", 3], references=["a", "b"])
    with pytest.raises(TypeError, match=r"references\[1\] must be a string like references\[0\]"):
        m.compute(predictions=["a", "b"], references=["a", ["b"]])
    with pytest.raises(TypeError, match=r"references\[0\] must be a string \(exact_match takes one"):
        hf_evaluate.load("exact_match").compute(predictions=["a"], references=[["a"]])
    with pytest.raises(TypeError, match="unexpected keyword argument 'smooth'"):
        m.compute(predictions=["a"], references=["a"], smooth=True)


# -- references per prediction ---------------------------------------------------------------------------------------
def test_different_reference_counts_refused_where_the_script_refuses_them():
    preds, refs = ["the cat sat", "a dog"], [["the cat sat", "a cat sat"], ["a dog"]]
    for name, message in (("sacrebleu", "Sacrebleu requires the same number of references for each prediction"),
                          ("ter", "Sacrebleu requires the same number of references for each prediction"),
                          ("chrf", "ChrF, as implemented by sacrebleu, requires the same number")):
        with pytest.raises(ValueError, match=message):
            hf_evaluate.load(name).compute(predictions=preds, references=refs)


@pytest.mark.parametrize("name", ["bleu", "rouge", "meteor", "google_bleu", "character"])
def test_empty_reference_list_is_refused(name):
    if name == "meteor":
        needs("meteor")
    with pytest.raises(ValueError, match=r"references\[1\] is an empty list"):
        hf_evaluate.load(name).compute(predictions=["the cat sat", "a dog"], references=[["the cat sat"], []])


words = st.text(alphabet="abcde .,!?-&;'\"0123456789", max_size=30)
ragged = st.lists(st.tuples(words, st.lists(words, min_size=1, max_size=3)), min_size=1, max_size=6)


@settings(max_examples=40, deadline=None)
@given(ragged)
def test_bleu_compiled_counts_equal_the_python_definition(pairs):
    """TF-NMT's BLEU from bleuscope's compiled BLEU statistics == its definition counted in Python, whatever the
    number of references of each prediction (the shortest one's length, the largest count of an n-gram)."""
    from bleuscope.integrations.hf_evaluate import compute

    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    if not (compute._compiled_13a_safe(preds) and all(compute._compiled_13a_safe(r) for r in refs)):
        return  # texts bleu() scores in Python (entities HF replaces once)
    for order in (1, 4):
        fast = compute._nmt_statistics_compiled(preds, refs, order)
        slow = compute._nmt_statistics_python(preds, refs, compute.tokenize_13a, order)
        assert fast == slow


@settings(max_examples=40, deadline=None)
@given(st.lists(words, min_size=1, max_size=10))
def test_hf_13a_tokens_equal_sacrebleu_13a(texts):
    """HF's tokenizer_13a is sacreBLEU's 13a on the texts the compiled path takes."""
    tokenizer_13a = pytest.importorskip("sacrebleu.tokenizers.tokenizer_13a")
    from bleuscope.integrations.hf_evaluate.compute import _compiled_13a_safe, tokenize_13a

    tok = tokenizer_13a.Tokenizer13a()
    for t in texts:
        if _compiled_13a_safe([t]):
            assert tokenize_13a(t) == tok(t.rstrip()).split()


# -- the wrapped libraries, called as the scripts call them ------------------------------------------------------------
def _streams(refs):
    return [[r[i] for r in refs] for i in range(len(refs[0]))]


texts = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=40)
same_count = st.integers(1, 3).flatmap(
    lambda k: st.lists(st.tuples(texts, st.lists(texts, min_size=k, max_size=k)), min_size=1, max_size=5))


@settings(max_examples=40, deadline=None)
@given(same_count, st.sampled_from([{}, {"lowercase": True}, {"tokenize": "intl"}, {"smooth_method": "add-k"},
                                    {"use_effective_order": True}, {"smooth_method": "floor"}]))
def test_sacrebleu_module_equals_sacrebleu(pairs, kwargs):
    sacrebleu = pytest.importorskip("sacrebleu")
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    out = sacrebleu.corpus_bleu(preds, _streams(refs), **kwargs)
    exp = {"score": out.score, "counts": out.counts, "totals": out.totals, "precisions": out.precisions,
           "bp": out.bp, "sys_len": out.sys_len, "ref_len": out.ref_len}
    assert hf_evaluate.load("sacrebleu").compute(predictions=preds, references=refs, **kwargs) == exp


@settings(max_examples=40, deadline=None)
@given(same_count, st.sampled_from([{}, {"word_order": 2}, {"lowercase": True, "whitespace": True},
                                    {"eps_smoothing": True}, {"char_order": 3, "beta": 1}]))
def test_chrf_module_equals_sacrebleu(pairs, kwargs):
    sacrebleu = pytest.importorskip("sacrebleu")
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    out = sacrebleu.CHRF(**kwargs).corpus_score(preds, _streams(refs))
    exp = {"score": out.score, "char_order": out.char_order, "word_order": out.word_order, "beta": out.beta}
    assert hf_evaluate.load("chrf").compute(predictions=preds, references=refs, **kwargs) == exp


@settings(max_examples=40, deadline=None)
@given(same_count, st.sampled_from([{}, {"normalized": True}, {"ignore_punct": True}, {"case_sensitive": True},
                                    {"support_zh_ja_chars": True}]))
def test_ter_module_equals_sacrebleu(pairs, kwargs):
    sacrebleu = pytest.importorskip("sacrebleu")
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    out = sacrebleu.TER(normalized=kwargs.get("normalized", False), no_punct=kwargs.get("ignore_punct", False),
                        asian_support=kwargs.get("support_zh_ja_chars", False),
                        case_sensitive=kwargs.get("case_sensitive", False)).corpus_score(preds, _streams(refs))
    exp = {"score": out.score, "num_edits": out.num_edits, "ref_length": out.ref_length}
    assert hf_evaluate.load("ter").compute(predictions=preds, references=refs, **kwargs) == exp


def _rouge_score_as_the_script(preds, refs, types, use_aggregator, use_stemmer, seed):
    from rouge_score import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(rouge_types=types, use_stemmer=use_stemmer)
    multi = isinstance(refs[0], list)
    scores = [scorer.score_multi(r, p) if multi else scorer.score(r, p) for r, p in zip(refs, preds)]
    if not use_aggregator:
        return {k: [s[k].fmeasure for s in scores] for k in scores[0]}
    aggregator = scoring.BootstrapAggregator()
    for s in scores:
        aggregator.add_scores(s)
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        result = aggregator.aggregate()
    finally:
        np.random.set_state(state)
    return {k: result[k].mid.fmeasure for k in result}


prose = st.text(alphabet="abc de\nfgAB1.", max_size=40)


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(prose, st.lists(prose, min_size=1, max_size=3)), min_size=1, max_size=6),
       st.booleans(), st.booleans(), st.booleans(), st.integers(0, 2**31 - 1))
def test_rouge_module_equals_rouge_score(pairs, multi, use_aggregator, use_stemmer, seed):
    pytest.importorskip("rouge_score")
    preds = [p for p, _ in pairs]
    refs = [r for _, r in pairs] if multi else [r[0] for _, r in pairs]
    types = ["rouge1", "rouge2", "rougeL", "rougeLsum"]
    exp = _rouge_score_as_the_script(preds, refs, types, use_aggregator, use_stemmer, seed)
    got = hf_evaluate.load("rouge", seed=seed).compute(predictions=preds, references=refs,
                                                        use_aggregator=use_aggregator, use_stemmer=use_stemmer)
    assert got == exp


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(prose, st.lists(prose, min_size=1, max_size=3)), min_size=1, max_size=4),
       st.sampled_from([{}, {"alpha": 0.8, "beta": 2, "gamma": 0.4}, {"alpha": 1.5, "beta": -1, "gamma": 2}]))
def test_meteor_module_equals_nltk(nltk_wordnet, pairs, kwargs):
    needs("meteor")
    import nltk
    from nltk.translate import meteor_score

    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    exp = np.mean([meteor_score.meteor_score([nltk.word_tokenize(r) for r in rs], nltk.word_tokenize(p),
                                             wordnet=nltk_wordnet, **kwargs) for p, rs in zip(preds, refs)])
    got = hf_evaluate.load("meteor").compute(predictions=preds, references=refs, **kwargs)["meteor"]
    assert got == exp or (math.isnan(got) and math.isnan(exp))


# -- wer and cer: the jiwer 4 goldens (inline edge cases, and WMT files in the full run) ---------------------------------
def _jiwer4_params():
    out = []
    for i, rec in enumerate(_records(ORACLE / "goldens-wer-cer-jiwer-4.0.0.jsonl")):
        if rec["metric"] not in AVAILABLE:
            continue
        marks = [] if "predictions" in rec else [pytest.mark.full]
        out.append(pytest.param(rec, id=f"{i}-{rec['metric']}-{rec['set']}", marks=marks))
    return out


def _jiwer4_inputs(rec):
    if "predictions" in rec:
        return rec["predictions"], rec["references"]
    base = DATA / rec["set"] / rec["pair"]
    hyps = _lines(base / "sys" / f"{rec['system']}.txt")
    refs = _lines(base / f"ref.{rec['refs']}.txt")
    if rec.get("first_n", "all") != "all":
        hyps, refs = hyps[: rec["first_n"]], refs[: rec["first_n"]]
    return hyps, refs


@requires_oracle
@pytest.mark.parametrize("rec", _jiwer4_params())
def test_wer_cer_jiwer4_goldens(rec, evaluate_offline):
    hyps, refs = _jiwer4_inputs(rec)
    assert hf_evaluate.load(rec["metric"]).compute(predictions=hyps, references=refs, **rec["kwargs"]) == rec["result"]
    if "predictions" in rec:
        module = evaluate_module(evaluate_offline, rec["metric"])
        assert module.compute(predictions=hyps, references=refs, **rec["kwargs"]) == rec["result"]


def _jiwer_as_the_script(kind, preds, refs, concatenate_texts):
    import jiwer

    if concatenate_texts:
        return (jiwer.process_words if kind == "wer" else jiwer.process_characters)(refs, preds).__getattribute__(kind)
    incorrect = total = 0
    for p, r in zip(preds, refs):
        m = (jiwer.process_words if kind == "wer" else jiwer.process_characters)(r, p)
        incorrect += m.substitutions + m.deletions + m.insertions
        total += m.substitutions + m.deletions + m.hits
    return incorrect / total


spoken = st.text(alphabet="ab c\t", max_size=12)


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(spoken, spoken.filter(lambda s: s.strip())), min_size=1, max_size=5),
       st.sampled_from(["wer", "cer"]), st.booleans())
def test_wer_cer_modules_equal_jiwer(pairs, kind, concatenate_texts):
    pytest.importorskip("jiwer")
    if kind not in AVAILABLE:
        pytest.skip(f"no {kind} metric in this bleuscope")
    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    exp = _jiwer_as_the_script(kind, preds, refs, concatenate_texts)
    got = hf_evaluate.load(kind).compute(predictions=preds, references=refs, concatenate_texts=concatenate_texts)
    assert got == exp


def test_wer_all_empty_references_divide_by_zero_as_the_script():
    with pytest.raises(ZeroDivisionError, match="division by zero"):
        hf_evaluate.load("wer").compute(predictions=["a b"], references=[" "])


@settings(max_examples=40, deadline=None)
@given(ragged, st.sampled_from([(1, 4), (2, 2), (2, 3), (1, 1), (3, 2)]))
def test_google_bleu_module_equals_nltk_gleu(pairs, lengths):
    """NLTK's corpus_gleu called as the script calls it (on HF's 13a tokens), and the compiled counts equal to
    NLTK's counting in Python, whatever the number of references of each prediction."""
    gleu_score = pytest.importorskip("nltk.translate.gleu_score")
    from bleuscope.integrations.hf_evaluate import compute

    preds, refs = [p for p, _ in pairs], [r for _, r in pairs]
    min_len, max_len = lengths
    exp = gleu_score.corpus_gleu([[compute.tokenize_13a(r) for r in rs] for rs in refs],
                                 [compute.tokenize_13a(p) for p in preds], min_len=min_len, max_len=max_len)
    got = hf_evaluate.load("google_bleu").compute(predictions=preds, references=refs, min_len=min_len,
                                                  max_len=max_len)
    assert got == {"google_bleu": exp}
    safe = compute._compiled_13a_safe(preds) and all(compute._compiled_13a_safe(r) for r in refs)
    if min_len <= max_len and safe:
        assert compute._gleu_counts_compiled(preds, refs, min_len, max_len) == compute._gleu_counts_python(
            preds, refs, compute.tokenize_13a, min_len, max_len)
