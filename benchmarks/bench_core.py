"""Corpus BLEU and batch sentence BLEU (13a): bleuscope against sacreBLEU, NLTK, torchmetrics and fast-bleu.

Data: one WMT test set from ``../shared/data/mt`` (WMT22 en-de, system Online-B, references A and B) and the
1,000,000-line corpus built by ``../shared/tools/make_corpus.py`` (real WMT system outputs and references of
the European-target pairs, one reference per line; written to ``../bench-data/1m`` next to the repository if
missing, ~140 MB per file, never inside the repository).

Every measurement runs in a **fresh Python process**: the inputs are read first (outside the timing), then
the peak-RSS counter is reset (``/proc/self/clear_refs``), the tool is run once and timed, and ``VmHWM`` gives
the process's peak resident memory during the call -- the inputs already in memory included, as a user would
see it. "Cold" therefore means cold for every tool: a fresh sacreBLEU ``BLEU`` object (empty tokenizer
caches) and a fresh bleuscope ``BLEU`` in a process that never tokenized anything.

Tasks and what is compared:

* corpus BLEU 13a on the WMT set and on 1M lines: ``bleuscope`` (lists in memory), ``bleuscope files``
  (``corpus_score_files``, read lazily), ``bleuscope n_jobs=2``; ``sacrebleu`` (first call of a fresh object);
  ``nltk`` (``corpus_bleu`` on token lists pre-split with 13a *outside* the timing: NLTK has no tokenizer);
  ``torchmetrics`` (``sacre_bleu_score(..., tokenize="13a")``, which tokenizes inside).
* corpus BLEU 13a streamed over 10,000,000 lines (the 1M files read 10 times through a generator): bleuscope
  only; the point is the peak memory.
* sentence BLEU 13a, effective order, 100,000 segments (the first 100k lines of the 1M corpus): bleuscope
  ``sentence_scores`` vs a loop of sacreBLEU ``sentence_score``, a loop of NLTK ``sentence_bleu`` (pre-split
  tokens, ``method3`` = sacreBLEU's ``exp``), and fast-bleu. fast-bleu scores each hypothesis against a whole
  reference *set*; per-segment BLEU therefore needs one ``fast_bleu.BLEU([ref])`` per segment (that loop is
  timed). Its native workload has its own task: 300 hypotheses each against the same 300 references
  (bleuscope: 300 reference streams; NLTK: ``sentence_bleu`` with the 300 references; semantics differ in
  denominators and smoothing -- only speed is compared there).

Slow peers run on a prefix of the data; their time is extrapolated linearly and the row says
"extrapolated from N lines" (their peak memory is then the prefix's).

    python benchmarks/bench_core.py [--quick] [--profile]

``--quick`` uses 100,000 lines instead of 1M and smaller prefixes. ``--profile`` prints where bleuscope's
time goes on the large corpus (validation / tokenization+ids / counting / scoring). ``run(quick)`` returns the
rows ``{"task", "tool", "seconds", "peak_mb", "note"}`` (``benchmarks/bench.py`` prints them with the others).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from itertools import islice
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
SHARED = ROOT.parent / "shared"
DATA = SHARED / "data" / "mt"
MAKE_CORPUS = SHARED / "tools" / "make_corpus.py"
DEFAULT_BENCH_DATA = ROOT.parent / "bench-data"
WMT_DIR = DATA / "generaltest2022" / "en-de"
WMT_DESC = "WMT22 en-de Online-B, 2,037 lines, 2 refs"


# -- data ----------------------------------------------------------------------------------------------------
def corpus_paths(n_lines: int = 1_000_000, data_dir: Path | None = None) -> tuple[Path, Path]:
    """hyp.txt / ref.txt of the large corpus (built with make_corpus.py if missing)."""
    out = Path(data_dir or DEFAULT_BENCH_DATA) / "1m"
    hyp, ref = out / "hyp.txt", out / "ref.txt"
    if not (hyp.exists() and ref.exists()):
        subprocess.run([sys.executable, str(MAKE_CORPUS), str(out), "1000000"], check=True,
                       stdout=subprocess.DEVNULL)
    return hyp, ref


def head(path: Path, n: int) -> list[str]:
    from bleuscope.core.files import read_lines

    return list(islice(read_lines(path), n))


def load(source: str, n: int, data_dir: str | None) -> tuple[list[str], list[list[str]]]:
    if source == "wmt":
        return head(WMT_DIR / "sys" / "Online-B.txt", n), [head(WMT_DIR / f"ref.{k}.txt", n) for k in "AB"]
    hyp, ref = corpus_paths(data_dir=Path(data_dir) if data_dir else None)
    return head(hyp, n), [head(ref, n)]


def split13a(lines: list[str]) -> list[list[str]]:
    """13a tokens of each line (sacreBLEU's own tokenizer), for the tools that take token lists."""
    from sacrebleu.tokenizers.tokenizer_13a import Tokenizer13a

    tok = Tokenizer13a()
    return [tok(x.rstrip()).split() for x in lines]


# -- the measured calls (run in a child process) --------------------------------------------------------------
def prepare(tool: str, source: str, n: int, data_dir: str | None):
    """Load the inputs for ``tool`` and return the zero-argument call to time."""
    import warnings

    warnings.simplefilter("ignore")  # NLTK's zero-count warnings, sacreBLEU's tokenized-period notice
    if tool == "bleuscope stream10x":
        from itertools import chain

        from bleuscope import BLEU
        from bleuscope.core.files import read_lines

        hyp, ref = corpus_paths(data_dir=Path(data_dir) if data_dir else None)
        reps = max(1, n // 1_000_000)
        limit = min(n, 1_000_000)

        def stream(path):
            return chain.from_iterable(islice(read_lines(path), limit) for _ in range(reps))

        return lambda: BLEU(tokenize="13a", force=True).corpus_score(stream(hyp), [stream(ref)]).score
    if tool == "bleuscope files":
        from bleuscope.runtime.streaming import corpus_score_files

        if source == "wmt":
            return lambda: corpus_score_files(WMT_DIR / "sys" / "Online-B.txt",
                                              [WMT_DIR / "ref.A.txt", WMT_DIR / "ref.B.txt"], force=True).score
        hyp, ref = corpus_paths(data_dir=Path(data_dir) if data_dir else None)
        assert n == 1_000_000, "the files hold 1M lines"
        return lambda: corpus_score_files(hyp, [ref], tokenize="13a", force=True).score

    hyps, refs = load(source, n, data_dir)
    if tool in ("bleuscope", "bleuscope n_jobs=2"):
        from bleuscope import BLEU

        jobs = 2 if "n_jobs" in tool else None
        return lambda: BLEU(tokenize="13a", force=True).corpus_score(hyps, refs, n_jobs=jobs).score
    if tool in ("bleuscope sent", "bleuscope sent n_jobs=2"):
        from bleuscope import BLEU

        jobs = 2 if "n_jobs" in tool else None
        bleu_options = {"tokenize": "13a", "effective_order": True, "force": True}
        return lambda: float(BLEU(**bleu_options).sentence_scores(hyps, refs, n_jobs=jobs).scores.mean())
    if tool == "sacrebleu":
        from sacrebleu.metrics import BLEU as SacreBLEU

        return lambda: SacreBLEU(tokenize="13a", force=True).corpus_score(hyps, refs).score
    if tool == "sacrebleu sent":
        from sacrebleu.metrics import BLEU as SacreBLEU

        def loop():
            sb = SacreBLEU(tokenize="13a", effective_order=True)
            scores = [sb.sentence_score(h, list(r)).score for h, *r in zip(hyps, *refs)]
            return sum(scores) / len(scores)
        return loop
    if tool == "nltk":
        from nltk.translate.bleu_score import corpus_bleu

        h_tok = split13a(hyps)
        r_tok = list(zip(*[split13a(r) for r in refs]))
        return lambda: 100 * corpus_bleu(r_tok, h_tok)
    if tool == "nltk sent":
        from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

        h_tok = split13a(hyps)
        r_tok = list(zip(*[split13a(r) for r in refs]))
        smooth = SmoothingFunction().method3

        def loop():
            scores = [sentence_bleu(r, h, smoothing_function=smooth) for h, r in zip(h_tok, r_tok)]
            return 100 * sum(scores) / len(scores)
        return loop
    if tool == "fast-bleu sent":
        from fast_bleu import BLEU as FastBLEU

        h_tok = split13a(hyps)
        r_tok = list(zip(*[split13a(r) for r in refs]))
        w = {"bleu": (0.25, 0.25, 0.25, 0.25)}

        def loop():
            scores = [FastBLEU(list(r), w, smoothing_func=1).get_score([h])["bleu"][0] for h, r in zip(h_tok, r_tok)]
            return 100 * sum(scores) / len(scores)
        return loop
    if tool == "torchmetrics":
        from torchmetrics.functional.text import sacre_bleu_score

        target = [list(r) for r in zip(*refs)]
        return lambda: 100 * float(sacre_bleu_score(hyps, target, tokenize="13a"))
    if tool.endswith(" refset"):  # fast-bleu's native workload: every hypothesis against one reference set
        h_tok = split13a(hyps)
        r_tok = split13a(refs[0])
        if tool == "fast-bleu refset":
            from fast_bleu import BLEU as FastBLEU

            return lambda: 100 * sum(FastBLEU(r_tok, {"b": (0.25,) * 4}, smoothing_func=1).get_score(h_tok)["b"]) / n
        if tool == "nltk refset":
            from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

            smooth = SmoothingFunction().method1
            return lambda: 100 * sum(sentence_bleu(r_tok, h, smoothing_function=smooth) for h in h_tok) / n
        if tool == "bleuscope refset":
            from bleuscope import BLEU

            h_txt = [" ".join(t) for t in h_tok]
            r_streams = [[" ".join(t)] * n for t in r_tok]
            return lambda: float(BLEU(tokenize="none", smooth_method="floor").sentence_scores(h_txt, r_streams)
                                 .scores.mean())
    raise ValueError(f"unknown tool {tool!r}")


def _rss_status() -> dict[str, float]:
    out = {}
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(("VmHWM:", "VmRSS:")):
                out[line.split(":")[0]] = int(line.split()[1]) / 1024
    return out


def child(spec: dict) -> dict:
    """Runs in a fresh process: prepare, reset the peak counter, time one call, report."""
    call = prepare(spec["tool"], spec["source"], spec["n"], spec.get("data_dir"))
    import gc

    gc.collect()
    base = _rss_status().get("VmRSS", float("nan"))
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")  # reset VmHWM to the current RSS
        reset = True
    except OSError:
        reset = False
    t0 = time.perf_counter()
    value = call()
    seconds = time.perf_counter() - t0
    if reset:
        peak = _rss_status().get("VmHWM", float("nan"))
    else:  # no /proc: the process's lifetime peak (includes loading)
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return {"seconds": seconds, "peak_mb": peak, "base_mb": base, "value": value}


def measure(spec: dict, timeout: float) -> dict:
    """One measurement in a fresh interpreter; worker processes of the tool count in RUSAGE_CHILDREN."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--child", json.dumps(spec)]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=str(ROOT))
    except subprocess.TimeoutExpired:
        return {"error": f"timed out after {timeout:.0f} s"}
    if proc.returncode != 0:
        tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
        return {"error": f"failed: {tail[:200]}"}
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- the plan -------------------------------------------------------------------------------------------------
def plan(quick: bool) -> list[dict]:
    big = 100_000 if quick else 1_000_000
    big_desc = f"{big:,} lines, 1 ref"
    sent_n = 20_000 if quick else 100_000
    rows = []

    def add(task, tool, name, source, n, sub=None, reps=1, timeout=900, note=""):
        rows.append({"task": task, "tool": name, "spec": {"tool": tool, "source": source, "n": sub or n},
                     "full_n": n, "reps": reps, "timeout": timeout, "note": note})

    t = f"corpus BLEU 13a, {WMT_DESC}"
    reps = 1 if quick else 3
    add(t, "bleuscope", "bleuscope", "wmt", 2037, reps=reps, note="fresh process, first call")
    add(t, "bleuscope files", "bleuscope (files, lazy)", "wmt", 2037, reps=reps)
    add(t, "sacrebleu", "sacrebleu", "wmt", 2037, reps=reps, note="fresh BLEU object, first call (cold)")
    add(t, "nltk", "nltk", "wmt", 2037, reps=reps, note="corpus_bleu on pre-split 13a tokens")
    add(t, "torchmetrics", "torchmetrics", "wmt", 2037, reps=reps, note="sacre_bleu_score, tokenize=13a")

    t = f"corpus BLEU 13a, {big_desc}"
    add(t, "bleuscope", "bleuscope", "big", big, note="lists in memory")
    if not quick:
        add(t, "bleuscope files", "bleuscope (files, lazy)", "big", big, note="corpus_score_files, chunks of 50k")
    add(t, "bleuscope n_jobs=2", "bleuscope n_jobs=2", "big", big, note="2 worker processes (2 shared cores)")
    add(t, "sacrebleu", "sacrebleu", "big", big, sub=20_000 if quick else None,
        note="fresh BLEU object, first call (cold)")
    add(t, "nltk", "nltk", "big", big, sub=20_000 if quick else 200_000, note="pre-split 13a tokens")
    add(t, "torchmetrics", "torchmetrics", "big", big, sub=5_000 if quick else 30_000,
        note="sacre_bleu_score, tokenize=13a")

    if not quick:
        t = "corpus BLEU 13a, 10,000,000 lines streamed (1M files read 10x)"
        add(t, "bleuscope stream10x", "bleuscope", "big", 10_000_000, timeout=1200,
            note="generator over the files, chunks of 50k; no peer can hold this in memory")

    t = f"sentence BLEU 13a (effective order), {sent_n:,} segments, 1 ref"
    add(t, "bleuscope sent", "bleuscope", "big", sent_n, note="sentence_scores, one vectorized pass")
    add(t, "bleuscope sent n_jobs=2", "bleuscope n_jobs=2", "big", sent_n)
    add(t, "sacrebleu sent", "sacrebleu", "big", sent_n, sub=5_000 if quick else None,
        note="loop of sentence_score, one BLEU object")
    add(t, "nltk sent", "nltk", "big", sent_n, sub=5_000 if quick else None,
        note="loop of sentence_bleu, method3 (= exp), pre-split tokens")
    add(t, "fast-bleu sent", "fast-bleu", "big", sent_n, sub=500 if quick else 1_000,
        note="one fast_bleu.BLEU([ref]) per segment (its API scores vs a whole reference set), method1")

    t = "each of 300 hypotheses vs one set of 300 references (fast-bleu's workload)"
    add(t, "bleuscope refset", "bleuscope", "wmt", 300, reps=reps, note="300 reference streams, tok none, floor")
    add(t, "fast-bleu refset", "fast-bleu", "wmt", 300, reps=reps, note="C++/OpenMP, method1")
    add(t, "nltk refset", "nltk", "wmt", 300, reps=reps, note="loop of sentence_bleu, method1")
    return rows


def _available(tool: str) -> str | None:
    import importlib.util

    mod = {"sacrebleu": "sacrebleu", "nltk": "nltk", "fast-bleu": "fast_bleu", "torchmetrics": "torchmetrics"}
    for prefix, name in mod.items():
        if tool.startswith(prefix) and importlib.util.find_spec(name) is None:
            return name
    return None


def run(quick: bool = False, data_dir: str | None = None, verbose: bool = True) -> list[dict]:
    results = []
    for item in plan(quick):
        spec = dict(item["spec"], data_dir=data_dir)
        row = {"task": item["task"], "tool": item["tool"], "seconds": float("nan"), "peak_mb": None,
               "note": item["note"]}
        missing = _available(spec["tool"])
        if missing:
            row["note"] = f"not installed ({missing})"
            results.append(row)
            continue
        runs = [measure(spec, item["timeout"]) for _ in range(item["reps"])]
        good = [r for r in runs if "seconds" in r]
        if not good:
            row["note"] = f"{item['note']}; {runs[0]['error']}".strip("; ")
        else:
            best = min(good, key=lambda r: r["seconds"])
            scale = item["full_n"] / spec["n"]
            row["seconds"] = best["seconds"] * scale
            row["peak_mb"] = round(best["peak_mb"], 1)
            notes = [item["note"]] if item["note"] else []
            if scale != 1:
                notes.append(f"extrapolated from {spec['n']:,} lines (x{scale:g}; peak of the prefix)")
            if item["reps"] > 1:
                notes.append(f"best of {len(good)} fresh processes")
            notes.append(f"inputs resident {best['base_mb']:.0f} MB; score {best['value']:.4f}")
            row["note"] = "; ".join(notes)
        results.append(row)
        if verbose:
            print(f"  {row['task'][:50]:50s} {row['tool']:26s} {row['seconds']:9.3f} s  "
                  f"{row['peak_mb'] or float('nan'):8.1f} MB", file=sys.stderr, flush=True)
    return results


# -- where bleuscope's time goes --------------------------------------------------------------------------------
def profile(n: int, data_dir: str | None = None) -> None:
    """Phase times of one in-memory corpus_score on ``n`` lines, then cProfile's top functions."""
    import cProfile
    import pstats

    import numpy as np

    from bleuscope import BLEU
    from bleuscope.core.validation import check_reference_presence, check_references, check_text_list
    from bleuscope.metrics.bleu import reference as engine
    from bleuscope.core.chunks import CHUNK_SEGMENTS
    from bleuscope.metrics.bleu.scoring import compute_scores

    hyps, refs = load("big", n, data_dir)
    bleu = BLEU(tokenize="13a")
    times = dict.fromkeys(["validation", "input warnings (CJK share, ' .')", "tokenize + ids (hyp)",
                           "tokenize + ids (refs)", "counting (engine)", "scoring"], 0.0)
    t = time.perf_counter()
    h = check_text_list(hyps, "hypotheses")
    streams = check_references(refs, len(h))
    present = check_reference_presence(streams)
    times["validation"] = time.perf_counter() - t
    t = time.perf_counter()
    try:
        import warnings

        from bleuscope.metrics.bleu.scorer import warn_if_tokenized
        from bleuscope.tokenizers.language import warn_if_mostly_cjk

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            warn_if_mostly_cjk(bleu.tokenizer.name, h)
            warn_if_tokenized(h)
    except ImportError:  # older layouts without these checks
        pass
    times["input warnings (CJK share, ' .')"] = time.perf_counter() - t
    enc = bleu.new_encoder()
    parts = []
    for a in range(0, len(h), CHUNK_SEGMENTS):
        t = time.perf_counter()
        he = enc.encode(h[a: a + CHUNK_SEGMENTS])
        times["tokenize + ids (hyp)"] += time.perf_counter() - t
        t = time.perf_counter()
        re_ = [enc.encode(s[a: a + CHUNK_SEGMENTS]) for s in streams]
        times["tokenize + ids (refs)"] += time.perf_counter() - t
        t = time.perf_counter()
        parts.append(engine.segment_statistics(he, re_, present[a: a + CHUNK_SEGMENTS], 4, enc.vocab_size))
        times["counting (engine)"] += time.perf_counter() - t
    t = time.perf_counter()
    compute_scores(np.concatenate(parts).sum(axis=0)[None, :], bleu.config)
    times["scoring"] = time.perf_counter() - t
    total = sum(times.values())
    print(f"bleuscope corpus_score phases on {n:,} lines (13a, 1 ref), distinct vocabulary {enc.vocab_size:,}:")
    for k, v in times.items():
        print(f"  {k:34s} {v:8.2f} s  {100 * v / total:5.1f} %")
    prof = cProfile.Profile()
    prof.enable()
    BLEU(tokenize="13a", force=True).corpus_score(hyps, refs)
    prof.disable()
    pstats.Stats(prof).sort_stats("tottime").print_stats(15)


def print_rows(rows: list[dict]) -> None:
    """Standalone output: the rows with speed ratios (the shared table is benchmarks/bench.py's)."""
    sys.path.insert(0, str(HERE))
    from bench import format_table

    print(format_table(rows))


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="100k lines instead of 1M, smaller prefixes for peers")
    ap.add_argument("--profile", action="store_true", help="where bleuscope's time goes on the large corpus")
    ap.add_argument("--profile-lines", type=int, default=1_000_000)
    ap.add_argument("--data-dir", default=None, help=f"where the generated corpus lives (default {DEFAULT_BENCH_DATA})")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(json.loads(args.child))))
        return
    if args.profile:
        profile(100_000 if args.quick else args.profile_lines, args.data_dir)
        return
    print_rows(run(args.quick, args.data_dir))


if __name__ == "__main__":
    main()
