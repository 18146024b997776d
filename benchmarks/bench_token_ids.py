"""Token-id BLEU for training loops: 256 sentences x 1,024 token ids on the CPU.

The batch is real text turned into ids: WMT22 en-de system outputs (hypotheses) and reference A, both
13a-tokenized, with consecutive segments packed into rows of exactly 1,024 tokens (row i holds the same
segments on both sides), ids from a shared vocabulary, one reference per row, padding id 0 (unused here).

Tools (each computes sentence BLEU for every row):

* ``bleuscope``: ``TokenBLEU(...).sentence_scores(ids[B, L], refs[B, L])`` on numpy int64 arrays;
* ``bleuscope-torch``: the same through ``bleuscope.integrations.torch.sentence_bleu`` on a CPU tensor;
* ``nltk``: a loop of ``nltk.translate.bleu_score.sentence_bleu`` on the rows as Python lists of ids
  (the ``tolist`` conversion is inside the timing, as in a training loop);
* ``torchmetrics``: a loop of ``torchmetrics.functional.bleu_score`` per row (it takes strings: the rows are
  turned into space-joined id strings once, outside the timing), when torchmetrics is installed.

    python benchmarks/bench_token_ids.py [--quick]

``run(quick)`` returns rows ``{"task", "tool", "seconds", "peak_mb", "note"}``; each time is the best of the
repetitions, ``peak_mb`` is tracemalloc's peak of a separate run (Python and numpy allocations).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"
ROWS, WIDTH = 256, 1024


def _read(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def make_batch(rows: int = ROWS, width: int = WIDTH) -> tuple[np.ndarray, np.ndarray]:
    """(hypotheses [rows, width], references [rows, width]) int64 ids from the WMT22 en-de data."""
    from bleuscope import get_tokenizer

    tok = get_tokenizer("13a")
    base = DATA / "generaltest2022" / "en-de"
    ref = [tok(x).split() for x in _read(base / "ref.A.txt")]
    vocab: dict[str, int] = {}
    hyp_rows, ref_rows = [], []
    for path in sorted((base / "sys").glob("*.txt")):
        hyp = [tok(x).split() for x in _read(path)]
        i = 0
        while i < len(hyp) and len(hyp_rows) < rows:
            h_toks, r_toks = [], []
            while i < len(hyp) and (len(h_toks) < width or len(r_toks) < width):
                h_toks += hyp[i]
                r_toks += ref[i]
                i += 1
            if len(h_toks) < width or len(r_toks) < width:
                break
            hyp_rows.append([vocab.setdefault(t, len(vocab) + 1) for t in h_toks[:width]])
            ref_rows.append([vocab.setdefault(t, len(vocab) + 1) for t in r_toks[:width]])
        if len(hyp_rows) == rows:
            break
    return np.array(hyp_rows, dtype=np.int64), np.array(ref_rows, dtype=np.int64)


def _best(fn, repeats: int) -> tuple[float, object]:
    best, out = float("inf"), None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        best = min(best, time.perf_counter() - t0)
    return best, out


def _peak_mb(fn) -> float:
    from bench import tracemalloc_peak_mb

    return tracemalloc_peak_mb(fn)


def run(quick: bool = False) -> list[dict]:
    from bleuscope.metrics.bleu.token_ids import TokenBLEU

    if not (DATA / "generaltest2022" / "en-de").exists():
        return []
    hyp, ref = make_batch()
    task = f"token-id sentence BLEU, {ROWS} x {WIDTH} ids, CPU"
    repeats = 2 if quick else 5
    rows = []

    scorer = TokenBLEU(pad_id=0, smooth_method="floor")
    ours_fn = lambda: scorer.sentence_scores(hyp, ref)  # noqa: E731
    seconds, ours = _best(ours_fn, repeats)
    rows.append({"task": task, "tool": "bleuscope", "seconds": seconds, "peak_mb": _peak_mb(ours_fn),
                 "note": f"numpy int64 arrays, best of {repeats}; mean sentence BLEU {ours.mean():.3f}"})

    try:
        import torch

        from bleuscope.integrations.torch import sentence_bleu as torch_sentence_bleu
    except ImportError:
        rows.append({"task": task, "tool": "bleuscope-torch", "seconds": float("nan"), "peak_mb": None,
                     "note": 'skipped: torch not installed (pip install "bleuscope[torch]")'})
    else:
        th, tr = torch.from_numpy(hyp), torch.from_numpy(ref)
        seconds, out = _best(lambda: torch_sentence_bleu(th, tr, pad_id=0, smooth_method="floor"), repeats)
        same = np.array_equal(out.numpy(), ours)
        rows.append({"task": task, "tool": "bleuscope-torch", "seconds": seconds, "peak_mb": None,
                     "note": f"CPU tensors in/out; {'same' if same else 'DIFFERENT'} scores as numpy path"})

    from nltk.translate.bleu_score import SmoothingFunction, sentence_bleu

    method1 = SmoothingFunction().method1
    n_nltk = 64 if quick else ROWS

    def nltk_loop():
        hl, rl = hyp[:n_nltk].tolist(), ref[:n_nltk].tolist()
        return [sentence_bleu([r], h, smoothing_function=method1) for h, r in zip(hl, rl)]

    seconds, _ = _best(nltk_loop, 1 if quick else 2)
    note = "sentence_bleu loop on Python lists of ids (method1 smoothing)"
    if n_nltk != ROWS:
        note += f"; timed on {n_nltk} rows and scaled x{ROWS / n_nltk:g}"
    rows.append({"task": task, "tool": "nltk", "seconds": seconds * ROWS / n_nltk, "peak_mb": None, "note": note})

    try:
        from torchmetrics.functional.text import bleu_score
    except ImportError:
        rows.append({"task": task, "tool": "torchmetrics", "seconds": float("nan"), "peak_mb": None,
                     "note": "skipped: torchmetrics not installed"})
    else:
        n_tm = 32 if quick else ROWS
        h_txt = [" ".join(map(str, r)) for r in hyp[:n_tm].tolist()]
        r_txt = [[" ".join(map(str, r))] for r in ref[:n_tm].tolist()]
        seconds, _ = _best(lambda: [bleu_score([h], [r]) for h, r in zip(h_txt, r_txt)], 1 if quick else 2)
        note = "functional bleu_score per row on space-joined id strings (conversion not timed)"
        if n_tm != ROWS:
            note += f"; timed on {n_tm} rows and scaled x{ROWS / n_tm:g}"
        rows.append({"task": task, "tool": "torchmetrics", "seconds": seconds * ROWS / n_tm, "peak_mb": None,
                     "note": note})
    return rows


def main() -> None:
    from bench import standalone_main

    standalone_main(run, __doc__.splitlines()[0], "fewer repetitions, peers timed on a subsample")


if __name__ == "__main__":
    main()
