"""Per-segment scores of any metric (COMET, MetricX, human MQM/DA, ...) read from the files that tools write.

Formats (detected from the content):

* **TSV with a header** naming ``system``, ``line`` (1-based) and a score column (``score`` by default, or
  ``column=``: e.g. ``raw`` or ``z`` of the DA files in ``data/human/derived``); other columns ignored.
* **mtme** ``<name>.seg.score``: ``SYSTEM<TAB>SCORE`` lines, each system's segments in line order (``None``:
  not scored); ``<name>.sys.score`` (one line per system) is a system-level file and is refused here.
* **COMET JSON** (``comet-score --to_json``): ``{file: [{"src", "mt", "ref", "COMET": score}, ...]}``;
  the system is the file's stem (``sys/Online-B.txt`` -> ``Online-B``).
* **comet-score's printed output**: ``FILE<TAB>Segment I<TAB>score: X`` lines (and the ``FILE<TAB>score: X``
  summary lines, checked against the segments' mean when present).
* **MQM ratings** (Google's ``mqm_*.tsv``: ``system ... seg_id rater ... category severity``): scored with
  mtme's weights, see :mod:`.mqm`; the line is ``seg_id``.
* **plain**: one number per line, the file's stem naming the system (one file per system).

Every value is checked: a number (no NaN or infinity), no duplicate (system, line), lines in range, and,
against what the caller expects, every system present with every segment scored (``allow_missing`` for
human scores, which often cover part of the lines). Errors are ``InputError`` naming the file and line.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from ...core.files import InputError, display_name, read_bytes
from .mqm import RATING_COLUMNS, mqm_from_ratings

MISSING_WORDS = frozenset({"None", "none", "NA", "-", ""})


def system_name(path: str) -> str:
    """A system's name from its hypothesis file: the file name without directories and its last suffix
    (``sys/Online-B.txt`` -> ``Online-B``, ``ref.A.txt`` -> ``ref.A``)."""
    base = os.path.basename(path.rstrip("/"))
    stem, ext = os.path.splitext(base)
    return stem if ext and stem else base


def _number(text: str, name: str, lineno: int, allow_missing: bool) -> float:
    text = text.strip()
    if text in MISSING_WORDS:
        if allow_missing:
            return math.nan
        raise InputError(f"{name}:{lineno}: no score ({text or 'empty'!r}); every segment needs one")
    try:
        value = float(text)
    except ValueError:
        raise InputError(f"{name}:{lineno}: {text!r} is not a number") from None
    if not math.isfinite(value):
        raise InputError(f"{name}:{lineno}: the score is {text!r}; scores must be finite numbers "
                         "(write a missing human score as None, or leave its row out)")
    return value


class _Collector:
    """(system, line) -> value, refusing duplicates with both places named."""

    def __init__(self, name: str):
        self.name = name
        self.values: dict[str, dict[int, tuple[float, int]]] = {}

    def add(self, system: str, line: int, value: float, lineno: int) -> None:
        seen = self.values.setdefault(system, {})
        if line in seen:
            raise InputError(f"{self.name}:{lineno}: a second score for system {system!r} segment {line} (the "
                             f"first is on line {seen[line][1]})")
        seen[line] = (value, lineno)


def _read_text(path: str) -> tuple[str, str]:
    name = display_name(path)
    try:
        data = read_bytes(path)
    except OSError as e:
        raise InputError(f"{name}: cannot read the scores file ({e.strerror or e})") from None
    try:
        return name, data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise InputError(f"{name}: not UTF-8 text (byte {e.start})") from None


def _parse_tsv(lines: list[str], name: str, column: str | None, allow_missing: bool, out: _Collector) -> None:
    header = lines[0].rstrip("\r\n").split("\t")
    col = column or "score"
    for need in ("system", "line", col):
        if need not in header:
            raise InputError(f"{name}:1: the header has no {need!r} column (columns: {', '.join(header)})")
    si, li, vi = header.index("system"), header.index("line"), header.index(col)
    for lineno, raw in enumerate(lines[1:], start=2):
        text = raw.rstrip("\r\n")
        if not text:
            continue
        fields = text.split("\t")
        if len(fields) != len(header):
            raise InputError(f"{name}:{lineno}: {len(fields)} fields, the header has {len(header)}")
        try:
            line = int(fields[li])
        except ValueError:
            raise InputError(f"{name}:{lineno}: line {fields[li]!r} is not a whole number") from None
        if line < 1:
            raise InputError(f"{name}:{lineno}: line {line}: lines are numbered from 1")
        out.add(fields[si], line, _number(fields[vi], name, lineno, allow_missing), lineno)


def _parse_mtme(lines: list[str], name: str, allow_missing: bool, out: _Collector) -> None:
    counters: dict[str, int] = {}
    for lineno, raw in enumerate(lines, start=1):
        text = raw.rstrip("\r\n")
        if not text:
            continue
        fields = text.split("\t")
        if len(fields) != 2:
            raise InputError(f"{name}:{lineno}: expected SYSTEM<TAB>SCORE, got {len(fields)} fields")
        system = fields[0]
        counters[system] = counters.get(system, 0) + 1
        value = _number(fields[1], name, lineno, allow_missing=True)
        if math.isnan(value) and not allow_missing:
            raise InputError(f"{name}:{lineno}: system {system!r} segment {counters[system]} has no score")
        out.add(system, counters[system], value, lineno)


def _parse_comet_text(lines: list[str], name: str, out: _Collector) -> dict[str, tuple[float, int]]:
    summaries: dict[str, tuple[float, int]] = {}
    for lineno, raw in enumerate(lines, start=1):
        text = raw.rstrip("\r\n")
        if not text:
            continue
        fields = text.split("\t")
        if len(fields) == 3 and fields[1].startswith("Segment ") and fields[2].startswith("score: "):
            try:
                seg = int(fields[1][len("Segment "):])
            except ValueError:
                raise InputError(f"{name}:{lineno}: {fields[1]!r} is not 'Segment N'") from None
            # comet-score counts segments from 0
            out.add(system_name(fields[0]), seg + 1, _number(fields[2][len("score: "):], name, lineno, False),
                    lineno)
        elif len(fields) == 2 and fields[1].startswith("score: "):
            summaries[system_name(fields[0])] = (_number(fields[1][len("score: "):], name, lineno, False), lineno)
        else:
            raise InputError(f"{name}:{lineno}: not a comet-score line (FILE<TAB>Segment I<TAB>score: X)")
    return summaries


def _parse_comet_json(text: str, name: str, key: str | None, out: _Collector) -> None:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError(f"{name}:{e.lineno}: not valid JSON ({e.msg})") from None
    if not isinstance(data, dict):
        raise InputError(f"{name}:1: expected an object {{file: [segments]}} (comet-score --to_json)")
    for file, segments in data.items():
        if not isinstance(segments, list):
            raise InputError(f"{name}: the entry of {file!r} is not a list of segments")
        for i, seg in enumerate(segments, start=1):
            if not isinstance(seg, dict):
                raise InputError(f"{name}: {file!r} segment {i} is not an object")
            field = key or next((k for k in ("COMET", "score", "metricx") if k in seg), None)
            if field is None:
                numeric = [k for k, v in seg.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
                if len(numeric) != 1:
                    raise InputError(f"{name}: {file!r} segment {i} has no score field (give the field with "
                                     f"column=; fields: {', '.join(seg)})")
                field = numeric[0]
            if field not in seg:
                raise InputError(f"{name}: {file!r} segment {i} has no {field!r} field")
            value = seg[field]
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise InputError(f"{name}: {file!r} segment {i}: {field} is {value!r}, not a finite number")
            out.add(system_name(file), i, float(value), i)


def read_segment_scores(
    path: str, *, column: str | None = None, allow_missing: bool = False, system: str | None = None,
) -> dict[str, np.ndarray]:
    """``{system: float64 scores by line}`` from one file (NaN where a human score is missing); a plain
    one-number-per-line file belongs to ``system`` (default: the file's stem)."""
    name, text = _read_text(path)
    out = _Collector(name)
    stripped = text.lstrip()
    lines = text.splitlines()
    summaries: dict[str, tuple[float, int]] = {}
    if not stripped:
        raise InputError(f"{name}: the scores file is empty")
    if stripped.startswith("{"):
        _parse_comet_json(text, name, column, out)
    else:
        first = lines[0].rstrip("\r\n").split("\t")
        if all(c in first for c in RATING_COLUMNS):
            return mqm_from_ratings(lines, name)
        if "system" in first and "line" in first:
            _parse_tsv(lines, name, column, allow_missing, out)
        elif len(first) == 3 and first[1].startswith("Segment "):
            summaries = _parse_comet_text(lines, name, out)
        elif len(first) == 2:
            if name.endswith(".sys.score"):
                raise InputError(f"{name}: a system-level file (one score per system); give the .seg.score file")
            _parse_mtme(lines, name, allow_missing, out)
        elif len(first) == 1:
            who = system or system_name(path)
            for lineno, raw in enumerate(lines, start=1):
                out.add(who, lineno, _number(raw, name, lineno, allow_missing), lineno)
        else:
            raise InputError(f"{name}:1: unknown scores format: a TSV needs a header with 'system' and 'line' "
                             "columns")
    result = {}
    for sysname, seen in out.values.items():
        n = max(seen)
        arr = np.full(n, np.nan)
        for line, (value, _) in seen.items():
            arr[line - 1] = value
        result[sysname] = arr
    for sysname, (value, lineno) in summaries.items():
        seg = result.get(sysname)
        # comet-score prints 4 decimals
        if seg is not None and not np.isnan(seg).any() and abs(float(np.mean(seg)) - value) > 5.1e-5:
            raise InputError(f"{name}:{lineno}: the system score {value} of {sysname!r} is not the mean of its "
                             f"{seg.size} segment scores ({float(np.mean(seg))!r})")
    return result


def check_segment_scores(
    scores: Mapping[str, np.ndarray], systems: Sequence[str], n_segments: int, source: str,
    allow_missing: bool = False,
) -> dict[str, np.ndarray]:
    """The expected systems' vectors of ``n_segments`` scores, in ``systems`` order; an error names the
    source and the first system or segment at fault. Systems in the file that are not asked for are ignored
    (human score files rate more systems than a study has outputs of)."""
    out = {}
    for s in systems:
        if s not in scores:
            have = ", ".join(sorted(scores)[:12]) + (" ..." if len(scores) > 12 else "")
            raise InputError(f"{source}: no scores for system {s!r} (a system is named by its hypothesis file's "
                             f"stem; the file has: {have})")
        v = np.asarray(scores[s], dtype=np.float64)
        if v.size > n_segments:
            raise InputError(f"{source}: system {s!r} has a score for segment {v.size}, but the input has only "
                             f"{n_segments} segments")
        if v.size < n_segments:
            v = np.concatenate([v, np.full(n_segments - v.size, np.nan)])
        missing = np.flatnonzero(np.isnan(v))
        if missing.size and not allow_missing:
            raise InputError(f"{source}: system {s!r} has no score for segment {int(missing[0]) + 1} "
                             f"({missing.size} of {n_segments} segments are missing)")
        if missing.size == n_segments:
            raise InputError(f"{source}: system {s!r} has no score for any of the {n_segments} segments")
        out[s] = v
    return out


def read_scores_files(
    paths: Iterable[str], systems: Sequence[str], n_segments: int, *, column: str | None = None,
    allow_missing: bool = False,
) -> dict[str, np.ndarray]:
    """Scores for ``systems`` from one file for all or one file per system (several paths), checked."""
    merged: dict[str, np.ndarray] = {}
    origin: dict[str, str] = {}
    paths = list(paths)
    for path in paths:
        for sysname, v in read_segment_scores(path, column=column, allow_missing=allow_missing).items():
            if sysname in merged:
                raise InputError(f"{display_name(path)}: system {sysname!r} is also scored in {origin[sysname]}")
            merged[sysname] = v
            origin[sysname] = display_name(path)
    return check_segment_scores(merged, systems, n_segments, ", ".join(display_name(p) for p in paths),
                                allow_missing)
