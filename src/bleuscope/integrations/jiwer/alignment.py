"""jiwer 4.0.0's views of an alignment: ``visualize_alignment`` (the same text, byte for byte),
``collect_error_counts`` and ``visualize_error_counts``."""

from __future__ import annotations

from collections import defaultdict

from .process import CharacterOutput, WordOutput

__all__ = ["visualize_alignment", "collect_error_counts", "visualize_error_counts"]


def visualize_alignment(output, show_measures: bool = True, skip_correct: bool = True, line_width=None) -> str:
    """The REF/HYP/operation lines of every pair (``skip_correct``: not of the pairs without errors), then,
    with ``show_measures``, the counts and measures; ``line_width``: lines broken, at best, to that width."""
    is_cer = isinstance(output, CharacterOutput)
    text = ""
    for idx, (ref, hyp, chunks) in enumerate(zip(output.references, output.hypotheses, output.alignments)):
        if skip_correct and (len(chunks) == 0 or (len(chunks) == 1 and chunks[0].type == "equal")):
            continue
        text += f"=== SENTENCE {idx + 1} ===\n\n"
        text += _comparison(ref, hyp, chunks, spaced=not is_cer, line_width=line_width)
        text += "\n"
    if not show_measures:
        return text[:-1]
    text += "=== SUMMARY ===\n"
    text += f"number of sentences: {len(output.alignments)}\n"
    text += (f"substitutions={output.substitutions} deletions={output.deletions} "
             f"insertions={output.insertions} hits={output.hits}\n")
    if is_cer:
        text += f"\ncer={output.cer * 100:.2f}%\n"
    else:
        text += (f"\nmer={output.mer * 100:.2f}%\nwil={output.wil * 100:.2f}%\nwip={output.wip * 100:.2f}%"
                 f"\nwer={output.wer * 100:.2f}%\n")
    return text


def _comparison(reference: list, hypothesis: list, chunks: list, spaced: bool, line_width) -> str:
    """The three lines (REF, HYP, operations) of one pair, in blocks of at most ``line_width``."""
    sep = " " if spaced else ""
    lines = ["REF: ", "HYP: ", "     "]
    done = ""
    for chunk in chunks:
        if chunk.type in ("equal", "substitute"):
            refs = reference[chunk.ref_start_idx : chunk.ref_end_idx]
            hyps = hypothesis[chunk.hyp_start_idx : chunk.hyp_end_idx]
            mark = " " if chunk.type == "equal" else "S"
        elif chunk.type == "delete":
            refs = reference[chunk.ref_start_idx : chunk.ref_end_idx]
            hyps = ["*"] * len(refs)
            mark = "D"
        elif chunk.type == "insert":
            hyps = hypothesis[chunk.hyp_start_idx : chunk.hyp_end_idx]
            refs = ["*"] * len(hyps)
            mark = "I"
        else:
            raise ValueError(f"unparseable op name={chunk.type}")
        for r, h in zip(refs, hyps):
            width = max(len(r), len(h), 1)
            if line_width is not None and len(lines[0]) + width > line_width:
                done += "\n".join(line[:-1] if spaced else line for line in lines) + "\n\n"
                lines = ["REF: ", "HYP: ", "     "]
            if r == "*":
                r = "*" * width
            elif h == "*":
                h = "*" * width
            lines[0] += f"{r:>{width}}{sep}"
            lines[1] += f"{h:>{width}}{sep}"
            lines[2] += f"{mark:>{width}}{sep}"
    return done + "\n".join(line[:-1] if spaced else line for line in lines) + "\n"


def collect_error_counts(output):
    """Three ``defaultdict(int)``-like counters: substitutions ``{(reference words, hypothesis words): n}``,
    insertions ``{words: n}``, deletions ``{words: n}`` (a chunk's words joined by a space; characters
    joined without one)."""
    substitutions: defaultdict[tuple[str, str], int] = defaultdict(lambda: 0)
    insertions: defaultdict[str, int] = defaultdict(lambda: 0)
    deletions: defaultdict[str, int] = defaultdict(lambda: 0)
    sep = " " if isinstance(output, WordOutput) else ""
    for idx, chunks in enumerate(output.alignments):
        ref, hyp = output.references[idx], output.hypotheses[idx]
        for chunk in chunks:
            if chunk.type == "insert":
                insertions[sep.join(hyp[chunk.hyp_start_idx : chunk.hyp_end_idx])] += 1
            if chunk.type == "delete":
                deletions[sep.join(ref[chunk.ref_start_idx : chunk.ref_end_idx])] += 1
            if chunk.type == "substitute":
                key = (sep.join(ref[chunk.ref_start_idx : chunk.ref_end_idx]),
                       sep.join(hyp[chunk.hyp_start_idx : chunk.hyp_end_idx]))
                substitutions[key] += 1
    return substitutions, insertions, deletions


def visualize_error_counts(output, show_substitutions: bool = True, show_insertions: bool = True,
                           show_deletions: bool = True, top_k=None) -> str:
    """The substituted, inserted and deleted words (or characters) with their frequencies, most frequent
    first (``top_k``: only that many of each)."""
    subs, ins, dels = collect_error_counts(output)

    def block(errors: dict) -> str:
        if not errors:
            return "none"
        ranked = sorted(errors.items(), key=lambda kv: kv[1], reverse=True)
        if top_k is not None:
            ranked = ranked[:top_k]
        # the padding is the longest key of the kept keys, in the order of sorting the keys alone
        keys = sorted(errors.keys(), reverse=True, key=lambda k: errors[k])
        if top_k is not None:
            keys = keys[:top_k]
        width = max(len(k) if isinstance(k, str) else max(len(e) for e in k) for k in keys)
        out = ""
        for k, v in ranked:
            if isinstance(k, tuple):
                out += f"{k[0]: <{width}} --> {k[1]:<{width}} = {v}x\n"
            else:
                out += f"{k:<{width}} = {v}x\n"
        return out

    text = ""
    for shown, title, errors in ((show_substitutions, "SUBSTITUTIONS", subs), (show_insertions, "INSERTIONS", ins),
                                 (show_deletions, "DELETIONS", dels)):
        if shown:
            if text != "":
                text += "\n"
            text += f"=== {title} ===\n" + block(errors)
    if text[-1:] == "\n":
        text = text[:-1]
    return text
