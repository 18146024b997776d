"""bleuscope's METEOR against NLTK 3.10.4's ``meteor_score`` on WMT22 into-English segments (two references).

Tasks, each side by side in one process, results checked equal (``==``) before timings are kept; NLTK runs on
one thread, bleuscope on one (``threads=1``) unless a row says two:

* ``meteor_score`` drop-in: a Python loop of ``bleuscope.nltk.meteor_score`` vs the same loop of NLTK's, on
  whitespace tokens;
* ``METEOR(threads=1 | 2).sentence_scores``: raw strings (tokenized by bleuscope's 13a tokenizer inside the
  timing) vs NLTK's loop on the same tokens, given to it already tokenized (timed once, shown in both rows);
* every system of WMT22 de-en (8 x 1,984 segments) scored by one ``METEOR()`` vs NLTK's loop;
* WordNet load: NLTK's ``WordNetCorpusReader`` vs bleuscope's ``WordNet`` on the same files.

Both tools read the same WordNet 3.0 files (NLTK's own data if it has WordNet, else a temporary NLTK data
directory with copies of Debian's ``/usr/share/wordnet``), loaded before the scoring tasks are timed.
bleuscope's per-word caches (stems, synonym sets) start empty in every task, so the first-use cost is in
the timing. Run ``python benchmarks/bench_meteor.py [--quick] [--save]`` (quick: 2,000 segments, else
10,000; 250 lines per system).
"""

from __future__ import annotations

import argparse
import gc
import os
import shutil
import sys
import tempfile
import time
import warnings
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"
PAIRS = ("de-en", "cs-en", "zh-en")
DEBIAN = Path("/usr/share/wordnet")
LEXNAMES = (
    "adj.all adj.pert adv.all noun.Tops noun.act noun.animal noun.artifact noun.attribute noun.body "
    "noun.cognition noun.communication noun.event noun.feeling noun.food noun.group noun.location noun.motive "
    "noun.object noun.person noun.phenomenon noun.plant noun.possession noun.process noun.quantity "
    "noun.relation noun.shape noun.state noun.substance noun.time verb.body verb.change verb.cognition "
    "verb.communication verb.competition verb.consumption verb.contact verb.creation verb.emotion verb.motion "
    "verb.perception verb.possession verb.social verb.stative verb.weather adj.ppl"
).split()
NLTK_FILES = ("cntlist.rev", "index.sense", "index.adj", "index.adv", "index.noun", "index.verb", "data.adj",
              "data.adv", "data.noun", "data.verb", "adj.exc", "adv.exc", "noun.exc", "verb.exc")


def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")[:-1]


def load_segments(n: int) -> tuple[list[str], list[list[str]]]:
    """n hypotheses and their two reference strings, taken evenly from every system of the three pairs."""
    hyps, refs = [], []
    for pair in PAIRS:
        base = DATA / "generaltest2022" / pair
        pair_refs = [_lines(p) for p in sorted(base.glob("ref.*.txt"))]
        for sys_file in sorted((base / "sys").glob("*.txt")):
            for i, line in enumerate(_lines(sys_file)):
                hyps.append(line)
                refs.append([r[i] for r in pair_refs])
    step = max(1, len(hyps) // n)
    return hyps[::step][:n], refs[::step][:n]


def nltk_wordnet_root() -> tuple[Path, Path | None]:
    """A ``corpora/wordnet`` NLTK accepts: its own, else copies of Debian's files in a temporary directory."""
    import nltk

    try:
        return Path(str(nltk.data.find("corpora/wordnet"))), None
    except LookupError:
        pass
    if not (DEBIAN / "data.noun").is_file():
        raise SystemExit("no WordNet: apt-get install wordnet-base wordnet-sense-index (or nltk.download('wordnet'))")
    tmp = Path(tempfile.mkdtemp(prefix="bench_meteor_"))
    target = tmp / "corpora" / "wordnet"
    target.mkdir(parents=True)
    for name in NLTK_FILES:
        shutil.copyfile(DEBIAN / name, target / name)
    (target / "lexnames").write_text("".join(
        f"{i:02d}\t{name}\t{ {'noun': 1, 'verb': 2, 'adj': 3, 'adv': 4}[name.split('.')[0]] }\n"
        for i, name in enumerate(LEXNAMES)))
    nltk.data.path.insert(0, str(tmp))
    return target, tmp


def _timed(fn):
    gc.collect()
    gc.disable()
    try:
        c0, t0 = time.process_time(), time.perf_counter()
        out = fn()
        return out, time.perf_counter() - t0, time.process_time() - c0
    finally:
        gc.enable()


def fresh_bleuscope(location: Path):
    """bleuscope's WordNet read anew from ``location`` and every per-word cache emptied."""
    from bleuscope.metrics.meteor import lexicon
    from bleuscope.metrics.meteor.wordnet import WordNet

    lexicon.clear_caches()
    return WordNet(location)


def run(quick: bool = False) -> list[dict]:
    import nltk
    from nltk.corpus.reader.wordnet import WordNetCorpusReader
    from nltk.translate.meteor_score import meteor_score as nltk_meteor

    from bleuscope.integrations.nltk import meteor_score
    from bleuscope.metrics.meteor import METEOR
    from bleuscope.metrics.meteor.wordnet import WordNet

    n = 2_000 if quick else 10_000
    hyps, refs = load_segments(n)
    root, tmp = nltk_wordnet_root()
    rows = []
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # NLTK: "The multilingual functions are not available ..."
            reader, t_nltk_load, _ = _timed(lambda: WordNetCorpusReader(nltk.data.find("corpora/wordnet"), None))
        _, t_load, _ = _timed(lambda: WordNet(root))
        rows.append({"task": "METEOR WordNet 3.0 load", "tool": "nltk-3.10.4", "seconds": t_nltk_load,
                     "peak_mb": None, "note": "WordNetCorpusReader"})
        rows.append({"task": "METEOR WordNet 3.0 load", "tool": "bleuscope", "seconds": t_load, "peak_mb": None,
                     "note": "metrics.meteor.WordNet"})

        tok_hyps = [h.split() for h in hyps]
        tok_refs = [[r.split() for r in rs] for rs in refs]
        theirs, t_theirs, cpu_theirs = _timed(
            lambda: [nltk_meteor(r, h, wordnet=reader) for h, r in zip(tok_hyps, tok_refs)])
        wn = fresh_bleuscope(root)
        ours, t_ours, cpu_ours = _timed(lambda: [meteor_score(r, h, wordnet=wn) for h, r in zip(tok_hyps, tok_refs)])
        same = "equal results" if ours == theirs else "RESULTS DIFFER"
        task = f"METEOR meteor_score x{n:,} (2 refs)"
        rows.append({"task": task, "tool": "nltk-3.10.4", "seconds": t_theirs, "peak_mb": None,
                     "note": f"{same}; cpu {cpu_theirs:.2f} s"})
        rows.append({"task": task, "tool": "bleuscope", "seconds": t_ours, "peak_mb": None,
                     "note": f"{same}; cpu {cpu_ours:.2f} s; bleuscope.nltk.meteor_score loop"})

        streams = [list(s) for s in zip(*refs)]
        tokens = None
        theirs = t_theirs = cpu_theirs = None
        for threads in (1, 2):
            wn = fresh_bleuscope(root)
            metric = METEOR(wordnet=wn, threads=threads)
            batch, t_ours, cpu_ours = _timed(lambda m=metric: m.sentence_scores(hyps, streams))
            if tokens is None:
                tokens = [(metric.tokens(h, "h"), [metric.tokens(r, "r") for r in rs]) for h, rs in zip(hyps, refs)]
                theirs, t_theirs, cpu_theirs = _timed(
                    lambda t=tokens: [nltk_meteor(r, h, wordnet=reader, preprocess=str) for h, r in t])
            same = "equal results" if batch.values.tolist() == theirs else "RESULTS DIFFER"
            task = f"METEOR sentence_scores {n:,} segs (2 refs), {threads} thread{'s' if threads > 1 else ''}"
            rows.append({"task": task, "tool": "nltk-3.10.4", "seconds": t_theirs, "peak_mb": None,
                         "note": f"{same}; cpu {cpu_theirs:.2f} s; given 13a tokens; one thread"})
            rows.append({"task": task, "tool": "bleuscope", "seconds": t_ours, "peak_mb": None,
                         "note": f"{same}; cpu {cpu_ours:.2f} s; raw text, 13a inside; threads={threads}"})

        # one test set, every system: what a WMT-style evaluation does (the word caches serve all systems)
        base = DATA / "generaltest2022" / "de-en"
        lines = 250 if quick else None
        ref_streams = [_lines(p)[:lines] for p in sorted(base.glob("ref.*.txt"))]
        systems = [_lines(p)[:lines] for p in sorted((base / "sys").glob("*.txt"))]
        wn = fresh_bleuscope(root)
        metric = METEOR(wordnet=wn, threads=1)
        batches, t_ours, cpu_ours = _timed(lambda: [metric.sentence_scores(h, ref_streams) for h in systems])
        tokens = [[(metric.tokens(x, "h"), [metric.tokens(r[i], "r") for r in ref_streams]) for i, x in enumerate(h)]
                  for h in systems]
        theirs, t_theirs, cpu_theirs = _timed(
            lambda: [[nltk_meteor(r, h, wordnet=reader, preprocess=str) for h, r in system] for system in tokens])
        same = "equal results" if [b.values.tolist() for b in batches] == theirs else "RESULTS DIFFER"
        task = f"METEOR {len(systems)} systems x {len(systems[0]):,} segs (de-en, 2 refs)"
        rows.append({"task": task, "tool": "nltk-3.10.4", "seconds": t_theirs, "peak_mb": None,
                     "note": f"{same}; cpu {cpu_theirs:.2f} s; given 13a tokens"})
        rows.append({"task": task, "tool": "bleuscope", "seconds": t_ours, "peak_mb": None,
                     "note": f"{same}; cpu {cpu_ours:.2f} s; one METEOR(threads=1), raw text"})
    finally:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
    return rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="2,000 segments instead of 10,000")
    ap.add_argument("--save", action="store_true",
                    help="also write the run to benchmarks/results/meteor/latest.json (the docs' METEOR table)")
    args = ap.parse_args(argv)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    rows = run(quick=args.quick)
    if args.save:
        import json

        import bench  # beside this script: the machine and versions recorded with every run

        out = Path(__file__).resolve().parent / "results" / "meteor" / "latest.json"
        out.parent.mkdir(parents=True, exist_ok=True)
        run_data = {"started": started, "quick": args.quick, "machine": bench.machine(),
                    "environment": bench.environment(), "rows": rows}
        out.write_text(json.dumps(run_data, indent=1) + "\n", encoding="utf-8")
    ref = {r["task"]: r["seconds"] for r in rows if r["tool"] == "bleuscope"}
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{'task':56} {'tool':12} {'seconds':>9} {'x bleuscope':>12}  note")
    for r in rows:
        ratio = r["seconds"] / ref[r["task"]] if ref.get(r["task"]) else float("nan")
        print(f"{r['task']:56} {r['tool']:12} {r['seconds']:9.3f} {ratio:12.1f}  {r['note']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
