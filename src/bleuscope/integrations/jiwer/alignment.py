"""jiwer 4.0.0's views of an alignment: ``visualize_alignment`` (the same text, byte for byte),
``collect_error_counts`` and ``visualize_error_counts``; and two views jiwer lacks, for text whose
characters are not one terminal column each or that runs right to left: ``visualize_alignment(...,
display="terminal")`` (columns by display width, right-to-left words isolated) and ``display="html"`` (a
table per pair, right-to-left pairs laid out right to left)."""

from __future__ import annotations

import html
import unicodedata
from collections import defaultdict

from .process import CharacterOutput, WordOutput

__all__ = ["visualize_alignment", "collect_error_counts", "visualize_error_counts", "display_width"]

#: the views of :func:`visualize_alignment`
DISPLAYS = ("jiwer", "terminal", "html")
# first strong isolate and pop directional isolate: a right-to-left word between them is reordered within
# itself only, so a bidi-capable terminal keeps the columns in their left-to-right order
_ISOLATE, _POP_ISOLATE = "\u2068", "\u2069"


def display_width(text: str) -> int:
    """Terminal columns of ``text``: 2 for East Asian wide and fullwidth characters, 0 for combining marks
    and format characters (joiners, direction marks), 1 for the others."""
    width = 0
    for ch in text:
        if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1
    return width


def _right_to_left(text: str) -> bool:
    """Whether the first strongly directional character of ``text`` is right to left (Hebrew, Arabic...)."""
    for ch in text:
        kind = unicodedata.bidirectional(ch)
        if kind == "L":
            return False
        if kind in ("R", "AL"):
            return True
    return False


def _holds_right_to_left(text: str) -> bool:
    """Whether ``text`` holds a right-to-left letter anywhere."""
    return any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in text)


def visualize_alignment(output, show_measures: bool = True, skip_correct: bool = True, line_width=None, *,
                        display: str = "jiwer") -> str:
    """The REF/HYP/operation lines of every pair (``skip_correct``: not of the pairs without errors), then,
    with ``show_measures``, the counts and measures; ``line_width``: lines broken, at best, to that width.

    ``display``: ``"jiwer"`` (the default) is jiwer's text, byte for byte, which pads by ``len`` (so CJK or
    combining characters shift its columns); ``"terminal"`` pads by display width and wraps each word that
    holds right-to-left letters in Unicode isolates (the same text as jiwer's when neither occurs);
    ``"html"``: an HTML fragment, a table per pair (right-to-left pairs laid out right to left) and the
    measures, every text escaped."""
    if display not in DISPLAYS:
        raise ValueError(f"display must be one of {', '.join(map(repr, DISPLAYS))}, got {display!r}")
    is_cer = isinstance(output, CharacterOutput)
    if display == "html":
        return _html_view(output, show_measures, skip_correct, is_cer)
    text = ""
    for idx, (ref, hyp, chunks) in enumerate(zip(output.references, output.hypotheses, output.alignments)):
        if skip_correct and (len(chunks) == 0 or (len(chunks) == 1 and chunks[0].type == "equal")):
            continue
        text += f"=== SENTENCE {idx + 1} ===\n\n"
        text += _comparison(ref, hyp, chunks, spaced=not is_cer, line_width=line_width,
                            terminal=display == "terminal")
        text += "\n"
    if not show_measures:
        return text[:-1]
    return text + _summary(output, is_cer)


def _summary(output, is_cer: bool) -> str:
    text = "=== SUMMARY ===\n"
    text += f"number of sentences: {len(output.alignments)}\n"
    text += (f"substitutions={output.substitutions} deletions={output.deletions} "
             f"insertions={output.insertions} hits={output.hits}\n")
    if is_cer:
        text += f"\ncer={output.cer * 100:.2f}%\n"
    else:
        text += (f"\nmer={output.mer * 100:.2f}%\nwil={output.wil * 100:.2f}%\nwip={output.wip * 100:.2f}%"
                 f"\nwer={output.wer * 100:.2f}%\n")
    return text


def _columns(reference: list, hypothesis: list, chunks: list):
    """``(reference token, hypothesis token, mark)`` per aligned column, ``None`` for the missing side of an
    insertion or a deletion; mark ``" "``, ``"S"``, ``"D"`` or ``"I"``."""
    for chunk in chunks:
        refs = reference[chunk.ref_start_idx : chunk.ref_end_idx]
        hyps = hypothesis[chunk.hyp_start_idx : chunk.hyp_end_idx]
        if chunk.type in ("equal", "substitute"):
            mark = " " if chunk.type == "equal" else "S"
            yield from ((r, h, mark) for r, h in zip(refs, hyps))
        elif chunk.type == "delete":
            yield from ((r, None, "D") for r in refs)
        elif chunk.type == "insert":
            yield from ((None, h, "I") for h in hyps)
        else:
            raise ValueError(f"unparseable op name={chunk.type}")


def _html_view(output, show_measures: bool, skip_correct: bool, is_cer: bool) -> str:
    names = {" ": "equal", "S": "substitute", "D": "delete", "I": "insert"}
    parts = []
    for idx, (ref, hyp, chunks) in enumerate(zip(output.references, output.hypotheses, output.alignments)):
        if skip_correct and (len(chunks) == 0 or (len(chunks) == 1 and chunks[0].type == "equal")):
            continue
        direction = "rtl" if _right_to_left("".join(ref) or "".join(hyp)) else "ltr"
        rows: dict[str, list[str]] = {"REF": [], "HYP": [], "": []}
        for r, h, mark in _columns(ref, hyp, chunks):
            cls = names[mark]
            rows["REF"].append(f'<td class="{cls}">{"*" if r is None else html.escape(r)}</td>')
            rows["HYP"].append(f'<td class="{cls}">{"*" if h is None else html.escape(h)}</td>')
            rows[""].append(f'<td class="{cls}">{mark.strip()}</td>')
        body = "".join(f'<tr><th dir="ltr">{label}</th>{"".join(cells)}</tr>' for label, cells in rows.items())
        parts.append(f'<h3>sentence {idx + 1}</h3>\n<table class="alignment" dir="{direction}">{body}</table>\n')
    if show_measures:
        parts.append(f"<pre>{html.escape(_summary(output, is_cer))}</pre>\n")
    return "".join(parts)


def _comparison(reference: list, hypothesis: list, chunks: list, spaced: bool, line_width,
                terminal: bool = False) -> str:
    """The three lines (REF, HYP, operations) of one pair, in blocks of at most ``line_width`` columns:
    jiwer's, padded by ``len``; with ``terminal``, padded by display width and right-to-left words
    isolated."""
    sep = " " if spaced else ""
    width_of = display_width if terminal else len

    def shown(token: str, width: int) -> str:
        pad = " " * (width - width_of(token))
        return pad + (_ISOLATE + token + _POP_ISOLATE if terminal and _holds_right_to_left(token) else token)

    lines, used = ["REF: ", "HYP: ", "     "], 5
    done = ""
    for r, h, mark in _columns(reference, hypothesis, chunks):
        r, h = "*" if r is None else r, "*" if h is None else h
        width = max(width_of(r), width_of(h), 1)
        if line_width is not None and used + width > line_width:
            done += "\n".join(line[:-1] if spaced else line for line in lines) + "\n\n"
            lines, used = ["REF: ", "HYP: ", "     "], 5
        # as jiwer: a star (a missing word, or a word "*") fills the column, on one side only
        if r == "*":
            r = "*" * width
        elif h == "*":
            h = "*" * width
        lines[0] += shown(r, width) + sep
        lines[1] += shown(h, width) + sep
        lines[2] += shown(mark, width) + sep
        used += width + len(sep)
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
