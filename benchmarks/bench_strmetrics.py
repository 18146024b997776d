"""GLEU, CharacTER, EED and Self-BLEU against their peers, side by side in one process, results checked
equal (``==``) before a timing is kept. CPU seconds of one thread on both sides (bleuscope ``threads=1``).

* GLEU ``corpus_gleu`` drop-in: NLTK 3.10.4's ``corpus_gleu`` vs ``bleuscope.nltk_gleu.corpus_gleu`` on the
  same whitespace token lists (two references);
* GLEU as HF ``google_bleu`` computes it: sacreBLEU's 13a tokenizer in Python then NLTK's ``corpus_gleu``, vs
  ``GLEU().corpus_score`` on the raw strings (13a inside the timing);
* GLEU ``sentence_gleu``: NLTK's loop vs ``GLEU().sentence_scores`` on the same token lists;
* CharacTER: PyPI ``cer`` 1.2.0's ``calculate_cer`` loop (what HF ``character`` runs) vs
  ``CharacTER().sentence_scores``;
* EED: bleuscope only (the rwth-i6 program's licence keeps it out of this repository; its C++ can be built
  and timed locally), with the Python reference on a few segments for scale;
* Self-BLEU: NLTK's ``sentence_bleu`` of each sentence against the others vs ``SelfBLEU().score`` (300 WMT
  sentences), and 100k generated sentences of 10-30 tokens at n=4 in a child process (wall, CPU, peak RSS).

Run ``python benchmarks/bench_strmetrics.py [--quick]`` (quick: fewer segments). Needs the bench extra
(``cer==1.2.0``) and NLTK, sacreBLEU.
"""

from __future__ import annotations

import argparse
import gc
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"


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


def row(task: str, peer: str, t_peer: float, t_ours: float, n: int, same: bool) -> dict:
    ratio = t_peer / t_ours if t_ours > 0 else float("inf")
    print(f"{task:<44} {peer:<28} {t_peer * 1e6 / n:10.1f} us  bleuscope {t_ours * 1e6 / n:8.2f} us  "
          f"{ratio:7.1f}x  {'equal' if same else 'RESULTS DIFFER'}", flush=True)
    return {"task": task, "peer": peer, "peer_s": t_peer, "bleuscope_s": t_ours, "ratio": ratio, "equal": same}


def bench_gleu(hyps, refs) -> list[dict]:
    from nltk.translate import gleu_score as nltk
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    import bleuscope.nltk_gleu as ours
    from bleuscope import GLEU

    n = len(hyps)
    tok_hyps = [h.split() for h in hyps]
    tok_refs = [[r.split() for r in rs] for rs in refs]
    out = []
    want, t_nltk = timed(lambda: nltk.corpus_gleu(tok_refs, tok_hyps))
    got, t_ours = timed(lambda: ours.corpus_gleu(tok_refs, tok_hyps))
    out.append(row("GLEU corpus_gleu, token lists, 2 refs", "nltk 3.10.4", t_nltk, t_ours, n, got == want))

    tok13a = Tokenizer13a()

    def hf_google_bleu():
        p = [tok13a(h).split() for h in hyps]
        r = [[tok13a(x).split() for x in rs] for rs in refs]
        return nltk.corpus_gleu(r, p)

    want, t_hf = timed(hf_google_bleu)
    streams = [list(s) for s in zip(*refs)]
    got, t_ours = timed(lambda: GLEU(threads=1).corpus_score(hyps, streams).value)
    out.append(row("GLEU as HF google_bleu (13a + corpus_gleu)", "sacrebleu 13a + nltk", t_hf, t_ours, n,
                   got == want))
    m = min(n, 5000)
    want, t_nltk = timed(lambda: [nltk.sentence_gleu(r, h) for r, h in zip(tok_refs[:m], tok_hyps[:m])])
    got, t_ours = timed(lambda: GLEU(tokenize="none", threads=1).sentence_scores(
        [" ".join(h) for h in tok_hyps[:m]], [[" ".join(r[k]) for r in tok_refs[:m]] for k in range(2)]).values)
    out.append(row("GLEU sentence scores, 2 refs", "nltk sentence_gleu loop", t_nltk, t_ours, m,
                   got.tolist() == want))
    return out


def bench_character(hyps, refs, n: int) -> list[dict]:
    from cer import calculate_cer

    from bleuscope import CharacTER

    hyps, refs = hyps[:n], [r[0] for r in refs[:n]]
    want, t_cer = timed(lambda: [calculate_cer(h.split(), r.split()) for h, r in zip(hyps, refs)])
    # float64 shift scores: cer's arithmetic (the default float32 is the rwth-i6 program's)
    got, t_ours = timed(lambda: CharacTER(shift_precision="float64", threads=1).sentence_scores(hyps, [refs]).values)
    return [row("CharacTER sentence scores, 1 ref", "cer 1.2.0 calculate_cer", t_cer, t_ours, n,
                got.tolist() == want)]


def bench_eed(hyps, refs, n: int) -> list[dict]:
    from bleuscope import EED

    hyps, refs = hyps[:n], [r[0] for r in refs[:n]]
    few = 30
    want, t_py = timed(lambda: EED(engine="numpy").sentence_scores(hyps[:few], [refs[:few]]).values)
    got, t_ours = timed(lambda: EED(threads=1).sentence_scores(hyps, [refs]).values)
    same = EED(threads=1).sentence_scores(hyps[:few], [refs[:few]]).values.tolist() == want.tolist()
    return [row("EED sentence scores, 1 ref", "bleuscope Python reference", t_py / few * n, t_ours, n, same)]


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
    out = [row("Self-BLEU of 300 sentences, n=4", "nltk sentence_bleu loop", t_nltk, t_ours, len(sents),
               got.tolist() == want)]
    n = 20_000 if quick else 100_000
    child = subprocess.run([sys.executable, "-c", SELF_BLEU_100K.replace("N)", f"{n})")], capture_output=True,
                           text=True, check=True, env=dict(os.environ))
    wall, cpu, before, peak, distinct4, total = child.stdout.split()
    print(f"Self-BLEU of {n:,} generated sentences (10-30 tokens, n=4): wall {float(wall):.2f} s, cpu "
          f"{float(cpu):.2f} s, peak RSS {float(peak):.0f} MB (before scoring {float(before):.0f} MB), "
          f"{int(distinct4):,} distinct 4-grams, {int(total):,} n-grams", flush=True)
    out.append({"task": f"Self-BLEU {n} sentences", "wall_s": float(wall), "cpu_s": float(cpu),
                "peak_mb": float(peak), "rss_before_mb": float(before)})
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="fewer segments")
    args = parser.parse_args()
    n = 4_000 if args.quick else 20_000
    hyps, refs = load(n)
    print(f"load average {os.getloadavg()[0]:.2f}; {len(hyps):,} WMT22 segments; per segment, one thread")
    bench_gleu(hyps, refs)
    bench_character(hyps, refs, 1_000 if args.quick else 4_000)
    bench_eed(hyps, refs, 1_000 if args.quick else 4_000)
    bench_self_bleu(args.quick)


if __name__ == "__main__":
    main()
