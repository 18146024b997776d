"""GLEU, CharacTER, EED and Self-BLEU against their peers, side by side in one process, results checked
equal (``==``) before a timing is kept. CPU seconds of one thread on both sides (bleuscope ``threads=1``).

* GLEU ``corpus_gleu`` drop-in: NLTK 3.10.4's ``corpus_gleu`` vs ``bleuscope.nltk_gleu.corpus_gleu`` on the
  same whitespace token lists (two references);
* GLEU as HF ``google_bleu`` computes it: sacreBLEU's 13a tokenizer in Python then NLTK's ``corpus_gleu``, vs
  ``GLEU().corpus_score`` on the raw strings (13a inside the timing);
* GLEU ``sentence_gleu``: NLTK's loop vs ``GLEU().sentence_scores`` on the same token lists;
* CharacTER: PyPI ``cer`` 1.2.0's ``calculate_cer`` loop (what HF ``character`` runs) vs
  ``CharacTER().sentence_scores``;
* EED: the rwth-i6 program (its C++ ``libEED.so`` driven by its ``EED.py``: ``util.preprocess`` then
  ``eed()`` per segment, as its ``main()`` does) when a local build is found, vs ``EED().sentence_scores``
  (preprocessing inside the timing). Its licence keeps it out of this repository: build it yourself in a
  folder outside the checkout and point ``BLEUSCOPE_EED_DIR`` at it (default ``../ext/ExtendedEditDistance``
  beside the checkout); without it the row is skipped. The Python reference on a few segments gives scale;
* Self-BLEU: NLTK's ``sentence_bleu`` of each sentence against the others vs ``SelfBLEU().score`` (300 WMT
  sentences), and 100k generated sentences of 10-30 tokens at n=4 in a child process (wall, CPU, peak RSS).

Run ``python benchmarks/bench_strmetrics.py [--quick]`` (quick: fewer segments), or through
``benchmarks/bench.py`` (``run(quick)``). A missing peer (the bench extra: ``cer==1.2.0``, NLTK, sacreBLEU)
skips its rows.
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
DATA = HERE.parents[1] / "shared" / "data" / "mt"
EED_DIR = Path(os.environ.get("BLEUSCOPE_EED_DIR", HERE.parents[1] / "ext" / "ExtendedEditDistance"))


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def load(n: int) -> tuple[list[str], list[list[str]]]:
    """n hypotheses (every system of WMT22 de-en and en-de, in turn) and their references A and B."""
    hyps, refs = [], []
    for pair in ("de-en", "en-de"):
        base = DATA / "generaltest2022" / pair
        a, b = _lines(base / "ref.A.txt"), _lines(base / "ref.B.txt")
        for system in sorted((base / "sys").glob("*.txt")):
            for i, line in enumerate(_lines(system)):
                hyps.append(line)
                refs.append([a[i], b[i]])
    step = max(1, len(hyps) // n)
    return hyps[::step][:n], refs[::step][:n]


def timed(fn):
    gc.collect()
    gc.disable()
    try:
        c0 = time.process_time()
        out = fn()
        return out, time.process_time() - c0
    finally:
        gc.enable()


def row(task: str, peer: str, t_peer: float, t_ours: float, n: int, same: bool) -> list[dict]:
    """The task's two rows (bleuscope's and the peer's, CPU seconds), printed as a line with the ratio."""
    ratio = t_peer / t_ours if t_ours > 0 else float("inf")
    print(f"{task:<44} {peer:<28} {t_peer * 1e6 / n:10.1f} us  bleuscope {t_ours * 1e6 / n:8.2f} us  "
          f"{ratio:7.1f}x  {'equal' if same else 'RESULTS DIFFER'}", flush=True)
    note = f"{n:,} segments, {'results equal' if same else 'RESULTS DIFFER'}"
    return [{"task": task, "tool": "bleuscope", "seconds": t_ours, "peak_mb": None, "note": note},
            {"task": task, "tool": peer, "seconds": t_peer, "peak_mb": None, "note": f"{ratio:.1f}x bleuscope"}]


def best_of(repeat: int, fn):
    """``(result, smallest CPU seconds)`` of ``repeat`` runs (the load of a shared machine only adds)."""
    out, best = None, float("inf")
    for _ in range(repeat):
        out, t = timed(fn)
        best = min(best, t)
    return out, best


def bench_gleu(hyps, refs, repeat: int = 1) -> list[dict]:
    from nltk.translate import gleu_score as nltk
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    import bleuscope.nltk_gleu as ours
    from bleuscope import GLEU

    n = len(hyps)
    tok_hyps = [h.split() for h in hyps]
    tok_refs = [[r.split() for r in rs] for rs in refs]
    out = []
    want, t_nltk = best_of(repeat, lambda: nltk.corpus_gleu(tok_refs, tok_hyps))
    got, t_ours = best_of(repeat, lambda: ours.corpus_gleu(tok_refs, tok_hyps))
    out += row("GLEU corpus_gleu, token lists, 2 refs", "nltk 3.10.4", t_nltk, t_ours, n, got == want)

    tok13a = Tokenizer13a()

    def hf_google_bleu():
        # sacreBLEU's 13a keeps an LRU cache of lines: emptied, so each round tokenizes the text as new text
        getattr(Tokenizer13a.__call__, "cache_clear", lambda: None)()
        p = [tok13a(h).split() for h in hyps]
        r = [[tok13a(x).split() for x in rs] for rs in refs]
        return nltk.corpus_gleu(r, p)

    want, t_hf = best_of(repeat, hf_google_bleu)
    streams = [list(s) for s in zip(*refs)]
    metric = GLEU(threads=1)
    got, t_ours = best_of(repeat, lambda: metric.corpus_score(hyps, streams).value)
    out += row("GLEU as HF google_bleu (13a + corpus_gleu)", "sacrebleu 13a + nltk", t_hf, t_ours, n, got == want)
    m = min(n, 5000)
    want, t_nltk = best_of(repeat, lambda: [nltk.sentence_gleu(r, h) for r, h in zip(tok_refs[:m], tok_hyps[:m])])
    plain = GLEU(tokenize="none", threads=1)
    joined_hyps = [" ".join(h) for h in tok_hyps[:m]]
    joined_refs = [[" ".join(r[k]) for r in tok_refs[:m]] for k in range(2)]
    got, t_ours = best_of(repeat, lambda: plain.sentence_scores(joined_hyps, joined_refs).values)
    out += row("GLEU sentence scores, 2 refs", "nltk sentence_gleu loop", t_nltk, t_ours, m, got.tolist() == want)
    return out


def bench_character(hyps, refs, n: int, repeat: int = 1) -> list[dict]:
    from cer import calculate_cer

    from bleuscope import CharacTER

    hyps, refs = hyps[:n], [r[0] for r in refs[:n]]
    want, t_cer = best_of(repeat, lambda: [calculate_cer(h.split(), r.split()) for h, r in zip(hyps, refs)])
    # float64 shift scores: cer's arithmetic (the default float32 is the rwth-i6 program's)
    metric = CharacTER(shift_precision="float64", threads=1)
    got, t_ours = best_of(repeat, lambda: metric.sentence_scores(hyps, [refs]).values)
    return row("CharacTER sentence scores, 1 ref", "cer 1.2.0 calculate_cer", t_cer, t_ours, n, got.tolist() == want)


def rwth_eed():
    """The rwth-i6 EED program's ``(EED, util)`` modules from a local build (``EED_DIR`` with ``EED.py``,
    ``util.py`` and the ``libEED.so`` built from its ``EED.cpp``), or None."""
    if not all((EED_DIR / f).is_file() for f in ("EED.py", "util.py", "libEED.so")):
        return None
    import importlib.util

    modules = []
    for name in ("util", "EED"):
        spec = importlib.util.spec_from_file_location(name, EED_DIR / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module  # EED.py imports util by name
        spec.loader.exec_module(module)
        modules.append(module)
    return modules[1], modules[0]


def bench_eed(hyps, refs, n: int, repeat: int = 1) -> list[dict]:
    from bleuscope import EED

    hyps, refs = hyps[:n], [r[0] for r in refs[:n]]
    metric = EED(threads=1)
    got, t_ours = best_of(repeat, lambda: metric.sentence_scores(hyps, [refs]).values)
    out = []
    rwth = rwth_eed()
    if rwth is None:
        print(f"EED: no local build of the rwth-i6 program in {EED_DIR} (BLEUSCOPE_EED_DIR): its row is skipped",
              flush=True)
    else:
        program, util = rwth

        def as_its_script():
            # EED.py's main(): util.preprocess(line, "en"), then eed(list(hyp), list(ref)) per segment
            return [program.eed(list(util.preprocess(h, "en")), list(util.preprocess(r, "en")))
                    for h, r in zip(hyps, refs)]

        want, t_rwth = best_of(repeat, as_its_script)
        out += row("EED sentence scores, 1 ref", "rwth-i6 C++ via EED.py", t_rwth, t_ours, n, got.tolist() == want)
    few = 30
    want, t_py = timed(lambda: EED(engine="numpy").sentence_scores(hyps[:few], [refs[:few]]).values)
    same = got[:few].tolist() == want.tolist()
    out += row("EED sentence scores, 1 ref, vs Python", "bleuscope Python reference", t_py / few * n, t_ours, n,
               same)
    return out


SELF_BLEU_100K = textwrap.dedent("""
    import random, resource, time
    from bleuscope import SelfBLEU
    rng = random.Random(0)
    vocab = [f"w{i}" for i in range(20000)]
    sents = [" ".join(rng.choice(vocab[: rng.choice([200, 2000, 20000])]) for _ in range(rng.randint(10, 30)))
             for _ in range(N)]
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    t0, c0 = time.perf_counter(), time.process_time()
    score = SelfBLEU().score(sents)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(wall, cpu, before / 1024, peak / 1024, score.ngrams[4][0], sum(score.ngrams[k][1] for k in score.ngrams))
""")


def bench_self_bleu(quick: bool) -> list[dict]:
    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    from bleuscope import SelfBLEU

    sents = [x.split() for x in _lines(DATA / "generaltest2022" / "de-en" / "ref.A.txt")][:300]
    method1 = SmoothingFunction().method1
    want, t_nltk = timed(lambda: [sentence_bleu(sents[:i] + sents[i + 1:], s, smoothing_function=method1)
                                  for i, s in enumerate(sents)])
    got, t_ours = timed(lambda: SelfBLEU().score(sents).scores)
    out = row("Self-BLEU of 300 sentences, n=4", "nltk sentence_bleu loop", t_nltk, t_ours, len(sents),
              got.tolist() == want)
    n = 20_000 if quick else 100_000
    child = subprocess.run([sys.executable, "-c", SELF_BLEU_100K.replace("N)", f"{n})")], capture_output=True,
                           text=True, check=True, env=dict(os.environ))
    wall, cpu, before, peak, distinct4, total = child.stdout.split()
    print(f"Self-BLEU of {n:,} generated sentences (10-30 tokens, n=4): wall {float(wall):.2f} s, cpu "
          f"{float(cpu):.2f} s, peak RSS {float(peak):.0f} MB (before scoring {float(before):.0f} MB), "
          f"{int(distinct4):,} distinct 4-grams, {int(total):,} n-grams", flush=True)
    out.append({"task": f"Self-BLEU of {n:,} generated sentences, n=4", "tool": "bleuscope", "seconds": float(cpu),
                "peak_mb": float(peak), "note": f"wall {float(wall):.2f} s; RSS {float(before):.0f} MB before scoring"})
    return out


def _optional(what: str, fn) -> list[dict]:
    """``fn()``'s rows, or none (said so) when a peer it compares with is not installed."""
    try:
        return fn()
    except ImportError as exc:
        print(f"{what}: skipped, {exc}", flush=True)
        return []


def run(quick: bool = False) -> list[dict]:
    """Every comparison's rows (``benchmarks/bench.py`` prints them with the others)."""
    n = 4_000 if quick else 20_000
    few = 1_000 if quick else 4_000
    repeat = 1 if quick else 3
    hyps, refs = load(n)
    print(f"load average {os.getloadavg()[0]:.2f}; {len(hyps):,} WMT22 segments; per segment, one thread, "
          f"best of {repeat}", flush=True)
    rows = _optional("GLEU", lambda: bench_gleu(hyps, refs, repeat))
    rows += _optional("CharacTER", lambda: bench_character(hyps, refs, few, repeat))
    rows += bench_eed(hyps, refs, few, repeat)
    rows += _optional("Self-BLEU", lambda: bench_self_bleu(quick))
    print(f"load average at the end {os.getloadavg()[0]:.2f}", flush=True)
    return rows


def main() -> None:
    sys.path.insert(0, str(HERE))
    from bench import standalone_main

    standalone_main(run, __doc__.split("\n\n")[0], "fewer segments, one round")


if __name__ == "__main__":
    main()
