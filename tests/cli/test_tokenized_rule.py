"""The "looks tokenized" rule, once for the library and the command: hypotheses ending in " ." (100 or more
warn). The command applies it to lines as sacreBLEU's command reads them (trailing whitespace stripped), the
library to the strings as given, as sacreBLEU's library does."""

from __future__ import annotations

import logging
import subprocess
import sys
import warnings

import pytest
import sacrebleu

from bleuscope import BLEU
from bleuscope.core.checks import TokenizedInputWarning, count_tokenized_periods

LINES = ["Das ist ein Satz . ", "Noch einer .\r", "Kein Punkt am Ende"] * 60  # 120 end in " ." before whitespace
REFS = ["Das ist ein Satz.", "Noch einer.", "Kein Punkt am Ende"] * 60


def test_the_rule_counts_as_sacrebleu_reads():
    assert count_tokenized_periods(LINES) == 0  # the strings as given: they end in whitespace
    assert count_tokenized_periods(LINES, strip_line_ends=True) == 120  # as sacreBLEU's command reads lines


def test_command_warns_as_sacrebleus_command(run_main, tmp_path):
    hyp, ref = tmp_path / "hyp.txt", tmp_path / "ref.txt"
    hyp.write_text("".join(x + "\n" for x in LINES), encoding="utf-8", newline="")
    ref.write_text("".join(x + "\n" for x in REFS), encoding="utf-8")
    code, _, err = run_main([ref, "-i", hyp])
    assert code == 0 and "120 lines end in ' .'" in err
    theirs = subprocess.run(
        [sys.executable, "-c", "from sacrebleu.sacrebleu import main; main()", str(ref), "-i", str(hyp)],
        capture_output=True, text=True, check=True,
    )
    assert "tokenized period" in theirs.stderr
    code, _, err = run_main([ref, "-i", hyp, "--force"])
    assert code == 0 and "tokenized" not in err


def test_library_warns_as_sacrebleus_library(caplog):
    with warnings.catch_warnings():
        warnings.simplefilter("error", TokenizedInputWarning)
        BLEU().corpus_score(LINES, [REFS])  # no warning: the strings end in whitespace
        with pytest.raises(TokenizedInputWarning):
            BLEU().corpus_score([x.rstrip() for x in LINES], [REFS])
    with caplog.at_level(logging.WARNING, logger="sacrebleu"):
        sacrebleu.corpus_bleu(LINES, [REFS])
        assert "tokenized period" not in caplog.text
        sacrebleu.corpus_bleu([x.rstrip() for x in LINES], [REFS])
        assert "tokenized period" in caplog.text
