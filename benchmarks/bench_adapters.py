"""bleuscope's framework adapters against what the frameworks run, side by side, results checked equal first.

* HF ``evaluate`` modules on WMT22 en-de (Online-B, references A and B, 2,037 segments): bleuscope's light
  ``load(name).compute`` against the library called as the official script calls it (sacreBLEU's
  ``corpus_bleu``/``CHRF``/``TER``, rouge-score's ``RougeScorer`` + ``BootstrapAggregator``, NLTK's
  ``meteor_score`` on ``word_tokenize`` (into-English: de-en), TF-NMT's ``compute_bleu`` algorithm in Python on
  HF's 13a tokens, NLTK's ``corpus_gleu``, jiwer's ``process_words`` / ``process_characters`` per pair and the
  ``cer`` package's ``calculate_cer_corpus``, against reference A where the module takes one reference). The scripts themselves are on no registry: these are their calls, without ``evaluate``'s
  Arrow round trip (which adds to the script's side only).
* import plus first call of the light loader in a fresh interpreter (numpy already imported, as in any process
  that runs evaluation), median of 5.
* lm-eval's bootstrap standard error: ``lm_eval.api.metrics.bootstrap_stderr`` (one sacreBLEU run per resample,
  timed on a few and extrapolated) vs bleuscope's from statistics, lm-eval's exact draws, 3,000 segments.
* RL rewards: 4,096 completions of ~200 tokens, one reference each, vs a Python loop of sacreBLEU's
  ``sentence_bleu`` / ``sentence_chrf`` and rouge-score's ``score`` (timed on a prefix, extrapolated).

Run ``python benchmarks/bench_adapters.py [--quick]``; ``run(quick)`` returns the rows for ``bench.py``.
Everything runs on one core (``OPENBLAS_NUM_THREADS=1``; bleuscope with its default threads, which are 1 below
2,000 segments for most metrics; the machine's load is printed).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import warnings
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("DISABLE_MULTIPROC", "1")

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def _wmt(pair: str = "en-de", system: str = "Online-B"):
    base = DATA / "generaltest2022" / pair
    hyp = _lines(base / "sys" / f"{system}.txt")
    refs = [_lines(base / "ref.A.txt"), _lines(base / "ref.B.txt")]
    return hyp, [list(x) for x in zip(*refs)]


def _best(fn, repeat: int):
    best, value = None, None
    for _ in range(repeat):
        t = time.process_time()
        value = fn()
        dt = time.process_time() - t
        best = dt if best is None else min(best, dt)
    return best, value


def _streams(refs):
    return [[r[i] for r in refs] for i in range(len(refs[0]))]


# -- the libraries as the official scripts call them -------------------------------------------------------------
def script_sacrebleu(preds, refs):
    import sacrebleu

    out = sacrebleu.corpus_bleu(preds, _streams(refs))
    return {"score": out.score, "counts": out.counts, "totals": out.totals, "precisions": out.precisions,
            "bp": out.bp, "sys_len": out.sys_len, "ref_len": out.ref_len}


def script_chrf(preds, refs):
    from sacrebleu import CHRF

    out = CHRF(6, 0, 2, False, False, False).corpus_score(preds, _streams(refs))
    return {"score": out.score, "char_order": out.char_order, "word_order": out.word_order, "beta": out.beta}


def script_ter(preds, refs):
    from sacrebleu import TER

    out = TER(normalized=False, no_punct=False, asian_support=False, case_sensitive=False).corpus_score(
        preds, _streams(refs))
    return {"score": out.score, "num_edits": out.num_edits, "ref_length": out.ref_length}


def script_bleu(preds, refs):
    """TF-NMT's compute_bleu on HF's 13a tokens, in Python (the algorithm of the file the script imports)."""
    import math

    from bleuscope.integrations.hf_evaluate.compute import _nmt_statistics_python, tokenize_13a

    matches, possible, hyp_len, ref_len = _nmt_statistics_python(preds, refs, tokenize_13a, 4)
    precisions = [m / p if p else 0.0 for m, p in zip(matches, possible)]
    geo = math.exp(sum(math.log(p) / 4 for p in precisions)) if min(precisions) > 0 else 0
    ratio = hyp_len / ref_len
    bp = 1.0 if ratio > 1.0 else math.exp(1 - 1.0 / ratio)
    return {"bleu": geo * bp, "precisions": precisions, "brevity_penalty": bp, "length_ratio": ratio,
            "translation_length": hyp_len, "reference_length": ref_len}


def script_rouge(preds, refs, seed=0):
    import numpy as np
    from rouge_score import rouge_scorer, scoring

    scorer = rouge_scorer.RougeScorer(rouge_types=["rouge1", "rouge2", "rougeL", "rougeLsum"])
    aggregator = scoring.BootstrapAggregator()
    for ref, pred in zip(refs, preds):
        aggregator.add_scores(scorer.score_multi(ref, pred))
    state = np.random.get_state()
    np.random.seed(seed)
    try:
        result = aggregator.aggregate()
    finally:
        np.random.set_state(state)
    return {k: result[k].mid.fmeasure for k in result}


def script_meteor(preds, refs):
    import nltk
    import numpy as np
    from nltk.translate import meteor_score

    return {"meteor": np.mean([meteor_score.meteor_score([nltk.word_tokenize(r) for r in rs], nltk.word_tokenize(p))
                               for rs, p in zip(refs, preds)])}


def script_google_bleu(preds, refs):
    from nltk.translate import gleu_score

    from bleuscope.integrations.hf_evaluate.compute import tokenize_13a  # HF's Tokenizer13a, same tokens

    return {"google_bleu": gleu_score.corpus_gleu(list_of_references=[[tokenize_13a(r) for r in rs] for rs in refs],
                                                  hypotheses=[tokenize_13a(p) for p in preds], min_len=1, max_len=4)}


def _script_edit_rate(kind):
    def score(preds, refs):
        import jiwer

        process = jiwer.process_words if kind == "wer" else jiwer.process_characters
        incorrect = total = 0
        for p, r in zip(preds, refs):
            m = process(r[0], p)
            incorrect += m.substitutions + m.deletions + m.insertions
            total += m.substitutions + m.deletions + m.hits
        return incorrect / total
    return score


def script_character(preds, refs):
    import statistics

    import cer

    return {"cer_score": statistics.mean(cer.calculate_cer_corpus([p.split() for p in preds],
                                                                  [r[0].split() for r in refs])["cer_scores"])}


def hf_rows(quick: bool) -> list[dict]:
    from bleuscope.integrations.hf_evaluate import load

    rows = []
    preds, refs = _wmt()
    cases = [("sacrebleu", script_sacrebleu, "sacreBLEU corpus_bleu"), ("chrf", script_chrf, "sacreBLEU CHRF"),
             ("ter", script_ter, "sacreBLEU TER"), ("bleu", script_bleu, "TF-NMT compute_bleu (Python)"),
             ("rouge", script_rouge, "rouge-score + BootstrapAggregator"),
             ("google_bleu", script_google_bleu, "NLTK corpus_gleu on 13a tokens"),
             ("wer", _script_edit_rate("wer"), "jiwer process_words per pair"),
             ("cer", _script_edit_rate("cer"), "jiwer process_characters per pair")]
    try:
        import cer  # noqa: F401 - the PyPI package HF's character wraps

        cases.append(("character", script_character, "cer 1.2.0 calculate_cer_corpus"))
    except ImportError:
        rows.append({"task": "HF character", "tool": "cer", "seconds": None, "peak_mb": None,
                     "note": "not installed (pip install cer==1.2.0)"})
    try:
        import nltk

        nltk.word_tokenize("A test.")
        sys.path.insert(0, str(Path(__file__).resolve().parent))
        from bench_meteor import nltk_wordnet_root

        nltk_wordnet_root()  # NLTK's meteor_score reads WordNet through NLTK (copies of Debian's files if needed)
        de_en = _wmt("de-en", "Online-B")
        cases.append(("meteor", script_meteor, "NLTK meteor_score + word_tokenize"))
    except (ImportError, LookupError):
        de_en = None
        rows.append({"task": "HF meteor, WMT22 de-en", "tool": "bleuscope", "seconds": None, "peak_mb": None,
                     "note": "NLTK or its punkt_tab model is missing"})
    for name, script, peer in cases:
        p, r = (de_en if name == "meteor" else (preds, refs))
        if name in ("wer", "cer", "character"):  # one reference string per prediction
            r = [[x[0]] for x in r]
        if quick and name in ("ter", "meteor", "rouge", "character"):
            p, r = p[:500], r[:500]
        inputs = [x[0] for x in r] if name in ("wer", "cer", "character") else r
        module = load(name, seed=0)
        module.compute(predictions=p[:5], references=inputs[:5])  # first-use costs (WordNet, tables) untimed
        ours_s, ours = _best(lambda m=module, p=p, r=inputs: m.compute(predictions=p, references=r), 3)
        theirs_s, theirs = _best(lambda s=script, p=p, r=r: s(p, r), 1)
        same = "same dict" if ours == theirs else f"DIFFERENT: {ours} vs {theirs}"
        pair = "de-en" if name == "meteor" else "en-de"
        task = f"HF {name}, WMT22 {pair} Online-B, {len(p):,} segments, {len(r[0])} ref(s)"
        rows.append({"task": task, "tool": "bleuscope", "seconds": ours_s, "peak_mb": None, "note": same})
        rows.append({"task": task, "tool": peer, "seconds": theirs_s, "peak_mb": None, "note": "CPU-s, one run"})
    return rows


def first_call_rows() -> list[dict]:
    """Import + first call of the light loader in fresh processes, twice: with bytecode cached (as an installed
    wheel has it: compiled once, untimed, into a private cache) and without bytecode (a source checkout under
    ``PYTHONDONTWRITEBYTECODE=1``, where every process compiles every module it imports)."""
    import tempfile

    code = ("import numpy, time; c = time.process_time(); t = time.perf_counter()\n"
            "from bleuscope.integrations.hf_evaluate import load\n"
            "load('{name}').compute(predictions=['hello there general kenobi', 'foo bar foobar'], "
            "references=[['hello there general kenobi', 'hello there !'], ['foo bar foobar', 'foo bar']])\n"
            "print(time.process_time() - c, time.perf_counter() - t)")
    cached = dict(os.environ, PYTHONPYCACHEPREFIX=tempfile.mkdtemp(prefix="bleuscope-pyc-"))
    cached.pop("PYTHONDONTWRITEBYTECODE", None)
    uncached = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    uncached.pop("PYTHONPYCACHEPREFIX", None)

    def run(name, env):
        out = subprocess.run([sys.executable, "-c", code.format(name=name)], capture_output=True, text=True,
                             check=True, env=env).stdout.split()
        return float(out[0]), float(out[1])

    rows = []
    for name in ("sacrebleu", "chrf", "ter", "bleu", "rouge"):
        run(name, cached)  # compiles the bytecode, as installing does
        for label, env in (("bytecode cached, as installed", cached), ("no bytecode: compiled every run", uncached)):
            times = sorted(run(name, env) for _ in range(5))
            cpu, wall = times[2][0], sorted(w for _, w in times)[2]
            rows.append({"task": f"HF {name}: import + first call (light loader), {label}", "tool": "bleuscope",
                         "seconds": cpu, "peak_mb": None,
                         "note": f"median CPU of 5 fresh processes with numpy imported; wall {wall:.3f} s"})
    return rows


def lm_eval_rows(quick: bool) -> list[dict]:
    from bleuscope.integrations import lm_eval as ours

    base = DATA / "generaltest2022" / "en-de"
    hyp = _lines(base / "sys" / "Online-B.txt") + _lines(base / "sys" / "JDExploreAcademy.txt")
    ref = _lines(base / "ref.A.txt") * 2
    items = [[r, h] for r, h in zip(ref[:3000], hyp[:3000])]
    rows = []
    for name in ("bleu", "chrf", "ter"):
        agg = ours.AGGREGATIONS[name]
        task = f"lm-eval {name} stderr, 10,000 resamples, 3,000 segments"
        ours_s, _ = _best(lambda agg=agg: ours.bootstrap_stderr(agg, items, 10_000), 1)
        numpy_s, _ = _best(lambda agg=agg: ours.bootstrap_stderr(agg, items, 10_000, method="numpy"), 1)
        rows.append({"task": task, "tool": "bleuscope", "seconds": ours_s, "peak_mb": None,
                     "note": "lm-eval's draws (random.Random(i) chunks), statistics counted once"})
        rows.append({"task": task, "tool": "bleuscope, numpy draws", "seconds": numpy_s, "peak_mb": None,
                     "note": "exactly 10,000 resamples, numpy default_rng"})
        try:
            from lm_eval.api import metrics
        except ImportError:
            rows.append({"task": task, "tool": "lm-eval", "seconds": None, "peak_mb": None,
                         "note": "not installed (pip install --no-deps lm-eval==0.4.13)"})
            continue
        k = 2 if quick or name == "ter" else 5
        import contextlib
        import io

        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            theirs_s, value = _best(lambda name=name, k=k: metrics.bootstrap_stderr(
                getattr(metrics, name), items, iters=k), 1)
        same = value == ours.bootstrap_stderr(agg, items, k)
        rows.append({"task": task, "tool": "lm-eval", "seconds": theirs_s * 10_000 / k, "peak_mb": None,
                     "note": f"extrapolated from {k} resamples ({theirs_s:.2f} CPU-s); "
                             f"{'same stderr' if same else 'STDERR DIFFERS'} on those {k}"})
    return rows


def reward_rows(quick: bool) -> list[dict]:
    import random

    from bleuscope.integrations import rewards

    rnd = random.Random(0)
    base = DATA / "generaltest2022" / "en-de"
    words = " ".join(_lines(base / "ref.A.txt")).split()
    comps = [" ".join(rnd.choices(words, k=200)) for _ in range(4096)]
    refs = [" ".join(rnd.choices(words, k=200)) for _ in range(4096)]
    rows = []
    peers = {"bleu": "sacreBLEU sentence_bleu loop", "chrf": "sacreBLEU sentence_chrf loop",
             "rouge_l": "rouge-score RougeScorer(['rougeL']) loop"}
    for metric, fn in (("bleu", rewards.bleu_reward), ("chrf", rewards.chrf_reward),
                       ("rouge_l", rewards.rouge_l_reward)):
        task = f"TRL reward {metric}, 4,096 completions x 200 tokens, 1 ref"
        fn(comps[:8], references=refs[:8])
        ours_s, values = _best(lambda fn=fn: fn(comps, references=refs), 3)
        rows.append({"task": task, "tool": "bleuscope", "seconds": ours_s, "peak_mb": None, "note": "CPU-s, best of 3"})
        n = 64 if quick else 256
        if metric == "rouge_l":
            from rouge_score import rouge_scorer

            scorer = rouge_scorer.RougeScorer(["rougeL"])

            def loop(n=n, scorer=scorer):
                return [scorer.score(r, c)["rougeL"].fmeasure for c, r in zip(comps[:n], refs[:n])]
        else:
            import sacrebleu

            peer_fn = sacrebleu.sentence_bleu if metric == "bleu" else sacrebleu.sentence_chrf

            def loop(n=n, peer_fn=peer_fn):
                return [peer_fn(c, [r]).score / 100 for c, r in zip(comps[:n], refs[:n])]
        theirs_s, theirs = _best(loop, 1)
        close = max(abs(a - b) for a, b in zip(values[:n], theirs)) < 1e-12
        rows.append({"task": task, "tool": peers[metric], "seconds": theirs_s * 4096 / n, "peak_mb": None,
                     "note": f"extrapolated from {n}; {'same values' if close else 'VALUES DIFFER'}"})
    ids = [[rnd.randrange(50_000) for _ in range(200)] for _ in range(4096)]
    rids = [[rnd.randrange(50_000) for _ in range(200)] for _ in range(4096)]
    ours_s, _ = _best(lambda: rewards.token_bleu_reward(ids, reference_ids=rids), 3)
    rows.append({"task": "TRL token-id BLEU reward, 4,096 x 200 ids (Python lists)", "tool": "bleuscope",
                 "seconds": ours_s, "peak_mb": None, "note": "CPU-s, best of 3, lists converted inside"})
    return rows


def run(quick: bool = False) -> list[dict]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return hf_rows(quick) + first_call_rows() + lm_eval_rows(quick) + reward_rows(quick)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller inputs for the slow peers")
    args = ap.parse_args()
    rows = run(args.quick)
    print(f"load average {os.getloadavg()}")
    print("| task | tool | CPU-s | vs bleuscope | note |\n|---|---|---:|---:|---|")
    for task in dict.fromkeys(r["task"] for r in rows):
        group = [r for r in rows if r["task"] == task]
        ref = next((r["seconds"] for r in group if r["tool"] == "bleuscope"), None)
        for r in group:
            s = r["seconds"]
            ratio = f"{s / ref:.1f}x" if s is not None and ref else ""
            print(f"| {task} | {r['tool']} | {'' if s is None else f'{s:.3f}'} | {ratio} | {r['note']} |")


if __name__ == "__main__":
    main()
