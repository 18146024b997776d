"""The command checks each chunk's references once for all systems (``Metric.check_systems``) and counts
the systems together (``Metric.counter.systems``): the same scores as each system scored alone, with the
references' checks and presence made once per chunk, not once per system."""

from __future__ import annotations

import pytest

import bleuscope.cli.scoring as scoring

from ..conftest import spy_on_validation

HYPS = ["The cat sat on the mat .", "Hello , world !", "a b c d", "Grüße aus Köln ."]
REFS = ["The cat sat on a mat .", "Hello world!", "a b c d e", "Grüße aus Köln."]


def _write(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return str(path)


@pytest.mark.parametrize("metric", ["bleu", "chrf", "ter"])
def test_references_checked_once_per_chunk(tmp_path, run_main, monkeypatch, metric):
    monkeypatch.setattr(scoring, "CHUNK_SEGMENTS", 6)  # 2 chunks of 12 lines
    monkeypatch.setattr(scoring, "KEPT_ROWS_CHUNK_SEGMENTS", 6)  # (TER keeps the rows)
    monkeypatch.setattr(scoring, "count_files_in_core", lambda *args, **kwargs: None)  # the chunk loop
    systems = [_write(tmp_path / f"sys{k}.txt", (HYPS[k:] + HYPS[:k]) * 3) for k in range(3)]
    refs = [_write(tmp_path / "ref.txt", REFS * 3), _write(tmp_path / "ref2.txt", HYPS[::-1] * 3)]
    alone = [run_main([system, "-r", *refs, "-m", metric, "-b"]) for system in systems]
    checked, presence = spy_on_validation(monkeypatch, "check_references"), spy_on_validation(monkeypatch, "reference_presence")
    code, out, err = run_main([*systems, "-r", *refs, "-m", metric, "-b"])
    assert code == 0 and not err
    assert (checked.call_count, presence.call_count) == (2, 2)  # once per chunk (6, and 8 to 14, before)
    assert [line.split()[-1] for line in out.splitlines() if line.strip()][-3:] == [
        a[1].split()[-1] for a in alone
    ]
