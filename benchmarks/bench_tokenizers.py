"""Corpus BLEU per tokenizer, bleuscope vs sacreBLEU 2.6.0, on the WMT data in ../shared/data/mt.

For each tokenizer (none, 13a, intl, char on WMT22 en-de; zh on WMT22 en-zh; ja-mecab on WMT22 + WMT24 en-ja;
ko-mecab on WMT24++ en-ko; flores200 with a SentencePiece model trained here on WMT references, since models
are never downloaded) one task scores every system of the pair against all its references. Each repetition
starts cold for both tools: a fresh sacreBLEU ``BLEU`` object (its per-tokenizer ``lru_cache`` and a new
MeCab tagger / SentencePiece processor), and bleuscope's line caches emptied (its MeCab/SentencePiece handle
is opened once per process, which is its design). The scores of both tools are checked to be identical.

    python benchmarks/bench_tokenizers.py [--quick]

``run(quick)`` returns rows ``{"task", "tool", "seconds", "peak_mb", "note"}``; the best of the repetitions
is reported.
"""

from __future__ import annotations

import io
import tempfile
import time
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"


def _read(path: Path) -> list[str]:
    lines = path.read_text(encoding="utf-8").split("\n")
    return lines[:-1] if lines and lines[-1] == "" else lines


def _jobs(pairs: list[str], quick: bool) -> list[tuple[list[str], list[list[str]]]]:
    """(hypotheses, reference streams) for every system of the pairs (references only: each vs the other)."""
    jobs = []
    for pair in pairs:
        base = DATA / pair
        refs = {p.stem[4:]: _read(p) for p in sorted(base.glob("ref.*.txt"))}
        systems = sorted((base / "sys").glob("*.txt"))
        if systems:
            for path in systems[:2] if quick else systems:
                jobs.append((_read(path), list(refs.values())))
        else:
            for name, lines in refs.items():
                jobs.append((lines, [v for k, v in refs.items() if k != name]))
    return jobs


def _train_spm(directory: Path) -> Path:
    import sentencepiece as spm

    lines = []
    for rel in ("generaltest2022/en-ja/ref.A.txt", "generaltest2022/en-zh/ref.A.txt",
                "wmt24pp/en-ko/ref.orig.txt", "generaltest2022/en-de/ref.A.txt"):
        lines += _read(DATA / rel)
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        sentence_iterator=iter(lines), model_writer=model, vocab_size=8000, character_coverage=0.9995,
        hard_vocab_limit=False, num_threads=2, minloglevel=2,
    )
    path = directory / "bench.model"
    path.write_bytes(model.getvalue())
    return path


def _sacre_bleu_factory(tok: str, spm_home: Path | None):
    import sacrebleu

    if spm_home is None:
        return lambda: sacrebleu.BLEU(tokenize=tok)
    from sacrebleu.tokenizers import tokenizer_spm

    def make():  # point sacreBLEU's model folder at the trained file: it finds it and downloads nothing
        saved = tokenizer_spm.SACREBLEU_DIR
        tokenizer_spm.SACREBLEU_DIR = str(spm_home)
        try:
            return sacrebleu.BLEU(tokenize=tok)
        finally:
            tokenizer_spm.SACREBLEU_DIR = saved

    return make


def _time(make, jobs) -> tuple[float, list[float]]:
    t0 = time.perf_counter()
    bleu = make()
    scores = [bleu.corpus_score(h, r).score for h, r in jobs]
    return time.perf_counter() - t0, scores


def _cases(quick: bool):
    en_de = ["generaltest2022/en-de"]
    return [
        ("none", en_de), ("13a", en_de), ("intl", en_de), ("char", en_de),
        ("zh", ["generaltest2022/en-zh"]),
        ("ja-mecab", ["generaltest2022/en-ja", "wmttest2024/en-ja"]),
        ("ko-mecab", ["wmt24pp/en-ko"]),
        ("flores200", ["generaltest2022/en-ja", "generaltest2022/en-zh"] + ([] if quick else en_de)),
    ]


def run(quick: bool = False) -> list[dict]:
    from bleuscope import BLEU
    from bleuscope.tokenizers import get_tokenizer
    from bleuscope.tokenizers.language import LineCachedTokenizer

    rows: list[dict] = []
    if not DATA.exists():
        return rows
    repeats = 1 if quick else 3
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        spm_model = spm_home = None
        for tok, pairs in _cases(quick):
            note = ""
            try:
                if tok == "flores200":
                    if spm_model is None:
                        spm_model = _train_spm(tmp)
                        spm_home = tmp / "sacrebleu"
                        (spm_home / "models").mkdir(parents=True)
                        (spm_home / "models" / "flores200sacrebleuspm").write_bytes(spm_model.read_bytes())
                    note = "SentencePiece model trained on WMT refs (8k pieces); "
                    ours_make = lambda: BLEU(tokenize="flores200", spm_model=spm_model)  # noqa: E731
                else:
                    get_tokenizer(tok)  # fails here when the extra is missing
                    ours_make = lambda tok=tok: BLEU(tokenize=tok)  # noqa: E731
                sacre_make = _sacre_bleu_factory(tok, spm_home if tok == "flores200" else None)
            except ImportError as exc:
                rows.append({"task": f"corpus BLEU tok:{tok}", "tool": "bleuscope", "seconds": float("nan"),
                             "peak_mb": None, "note": f"skipped: {exc}"})
                continue
            jobs = _jobs(pairs, quick)
            n_lines = sum(len(h) for h, _ in jobs)
            task = f"corpus BLEU tok:{tok} ({len(jobs)} systems, {n_lines} hyp lines, {'+'.join(pairs)})"
            best_ours = best_sacre = float("inf")
            for _ in range(repeats):
                tokenizer = ours_make().tokenizer
                if isinstance(tokenizer, LineCachedTokenizer):
                    tokenizer.clear_cache()  # cold start, like a fresh sacreBLEU object
                seconds, ours_scores = _time(ours_make, jobs)
                best_ours = min(best_ours, seconds)
                seconds, sacre_scores = _time(sacre_make, jobs)
                best_sacre = min(best_sacre, seconds)
                if any(abs(a - b) > 1e-9 for a, b in zip(ours_scores, sacre_scores)):
                    note += "SCORES DIFFER; "
            note += f"best of {repeats}, cold line/word caches"
            if tok in ("ja-mecab", "ko-mecab", "flores200"):
                note += " (sacreBLEU time includes opening its tagger/model per BLEU object; bleuscope's is open)"
            rows.append({"task": task, "tool": "bleuscope", "seconds": best_ours, "peak_mb": None, "note": note})
            rows.append({"task": task, "tool": "sacrebleu", "seconds": best_sacre, "peak_mb": None, "note": note})
    return rows


def main() -> None:
    from bench import standalone_main

    standalone_main(run, __doc__.splitlines()[0], "two systems per pair, one repetition")


if __name__ == "__main__":
    main()
