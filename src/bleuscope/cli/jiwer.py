"""``bleuscope jiwer``: jiwer 4.0.0's command line, with its output, on bleuscope's core.

    bleuscope jiwer -r REF -h HYP [-c] [-a] [-g]

It prints what ``jiwer -r REF -h HYP ...`` prints (the WER or, with ``-c``, the CER as Python prints a
float; with ``-a`` the alignment view and the measures), from the same sentences: jiwer's command reads the
files with universal newlines, strips every line and skips the lines of at most one character. bleuscope
says on standard error how many it skipped and where (``--keep-short-lines`` keeps them, pairing every line),
reads strict UTF-8 (an undecodable byte is an error naming the file and line), and without ``-a`` or ``-g``
reads the files a block at a time, in bounded memory. ``-g`` aligns the two texts as wholes (jiwer's
``wer_contiguous``/``cer_contiguous``).
"""

from __future__ import annotations

import argparse
import codecs
import sys
from collections.abc import Iterator

from ..core import files as bio
from .output import UsageError

EPILOG = """\
examples (in a copy of the folder that `bleuscope --example-dir` prints):
  bleuscope jiwer -r ref.A.txt -h hyp.Online-B.txt           WER, as `jiwer -r ... -h ...` prints it
  bleuscope jiwer -r ref.A.txt -h hyp.Online-B.txt -c -a     CER with the alignment of every sentence"""


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="bleuscope jiwer", add_help=False, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter,
        description="jiwer 4.0.0's command line: the WER (or CER) of a hypothesis file against a reference file, "
                    "one sentence per line.")
    # --help alone: -h is the hypothesis file, as in jiwer
    p.add_argument("--help", action="help", help="show this help message and exit")
    p.add_argument("-r", "--reference", required=True, metavar="FILE", help="reference sentences, one per line")
    p.add_argument("-h", "--hypothesis", required=True, metavar="FILE", help="hypothesis sentences, one per line")
    p.add_argument("-c", "--cer", action="store_true", help="compute CER instead of WER")
    p.add_argument("-a", "--align", action="store_true", help="print the alignment of each sentence")
    p.add_argument("-g", "--global", dest="global_alignment", action="store_true",
                   help="align the whole reference text with the whole hypothesis text")
    p.add_argument("--encoding", default="utf-8", help="the files' encoding (default: utf-8, read strictly)")
    p.add_argument("--keep-short-lines", action="store_true",
                   help="keep the lines of at most one character, which jiwer's command skips")
    p.add_argument("--display", choices=("jiwer", "terminal", "html"), default="jiwer",
                   help="with -a: jiwer's text (default), columns by display width (wide and right-to-left "
                        "text), or HTML")
    return p


class Sentences:
    """The sentences of one file as jiwer's command reads them: split at ``\\n``, ``\\r\\n`` and ``\\r``,
    stripped, and (unless ``keep_short``) without the lines of at most one character, whose count and first
    line number it keeps for the note."""

    def __init__(self, path: str, keep_short: bool, encoding: str) -> None:
        self.path, self.keep_short, self.encoding = path, keep_short, encoding
        self.skipped, self.first_skipped = 0, 0

    def __iter__(self) -> Iterator[str]:
        lineno = 0
        for block in bio.iter_line_blocks(self.path, self.encoding):
            for line in block:
                lineno += 1
                for piece in (line[:-1] if line.endswith("\r") else line).split("\r"):
                    sentence = piece.strip()
                    if len(sentence) > 1 or self.keep_short:
                        yield sentence
                    else:
                        self.skipped += 1
                        self.first_skipped = self.first_skipped or lineno

    def note(self) -> None:
        if self.skipped:
            print(f"bleuscope jiwer: note: {bio.display_name(self.path)}: skipped {self.skipped} line(s) of at most "
                  f"one character (the first at line {self.first_skipped}), as jiwer's command does; "
                  "--keep-short-lines keeps them", file=sys.stderr)


def _mismatch(refs: Sentences, n_refs: int, hyps: Sentences, n_hyps: int, *, at_least: bool = False) -> UsageError:
    more = "at least " if at_least else ""
    longer, shorter = (refs, hyps) if n_refs > n_hyps else (hyps, refs)
    return UsageError(f"{bio.display_name(longer.path)} has {more}{max(n_refs, n_hyps)} sentences and "
                      f"{bio.display_name(shorter.path)} {min(n_refs, n_hyps)}: they must pair up (-g aligns the "
                      "whole texts instead)")


#: sentence pairs counted at a time without -a or -g
CHUNK = 8192


def _streamed_rate(args, refs: Sentences, hyps: Sentences) -> float:
    """The corpus rate of the paired sentences, read and counted a chunk at a time (bounded memory); a
    count mismatch is an error as soon as one file ends before the other."""
    from itertools import islice

    import numpy as np

    from ..metrics.wer import CER, WER

    metric = CER() if args.cer else WER()
    counter = metric.counter
    total = np.zeros(metric.stats_width, dtype=np.int64)
    ref_iter, hyp_iter = iter(refs), iter(hyps)
    done = 0
    while True:
        r, h = list(islice(ref_iter, CHUNK)), list(islice(hyp_iter, CHUNK))
        if len(r) != len(h):
            # the longer file may go on past a full chunk
            raise _mismatch(refs, done + len(r), hyps, done + len(h), at_least=max(len(r), len(h)) == CHUNK)
        if not r:
            break
        total += counter.total(h, [r])
        done += len(r)
    if done == 0:
        raise UsageError(f"{bio.display_name(refs.path)}: no sentences to score")
    return metric.score_from_statistics(total).rate


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.display != "jiwer" and not args.align:
        raise UsageError("--display applies to the alignment view: give -a")
    try:
        codecs.lookup(args.encoding)
    except LookupError:
        raise UsageError(f"--encoding {args.encoding}: unknown encoding") from None
    refs = Sentences(args.reference, args.keep_short_lines, args.encoding)
    hyps = Sentences(args.hypothesis, args.keep_short_lines, args.encoding)
    if not args.align and not args.global_alignment:
        rate = _streamed_rate(args, refs, hyps)
        refs.note()
        hyps.note()
        print(rate)
        return 0
    from ..integrations import jiwer

    ref_lines, hyp_lines = list(refs), list(hyps)
    refs.note()
    hyps.note()
    if not args.global_alignment and len(ref_lines) != len(hyp_lines):
        raise _mismatch(refs, len(ref_lines), hyps, len(hyp_lines))
    if not ref_lines:
        raise UsageError(f"{bio.display_name(refs.path)}: no sentences to score")
    try:
        if args.cer:
            chars = jiwer.cer_contiguous if args.global_alignment else jiwer.cer_default
            char_out = jiwer.process_characters(ref_lines, hyp_lines, reference_transform=chars,
                                                hypothesis_transform=chars)
            out: jiwer.CharacterOutput | jiwer.WordOutput = char_out
            rate = char_out.cer
        else:
            words = jiwer.wer_contiguous if args.global_alignment else jiwer.wer_default
            word_out = jiwer.process_words(ref_lines, hyp_lines, reference_transform=words, hypothesis_transform=words)
            out = word_out
            rate = word_out.wer
    except ValueError as e:
        raise UsageError(str(e)) from None
    if args.align:
        print(jiwer.visualize_alignment(out, show_measures=True, display=args.display), end="")
    else:
        print(rate)
    return 0
