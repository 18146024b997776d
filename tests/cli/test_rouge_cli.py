"""``bleuscope -m rouge``: one column per ROUGE type, values equal to the API (and so to rouge-score),
significance through the generic path, usage errors with exit status 2."""

from __future__ import annotations

import json

from bleuscope.cli.main import main
from bleuscope.metrics.rouge import ROUGE

from ..conftest import DATA, read_lines, requires_wmt

PAIR = DATA / "generaltest2022" / "de-en"


def run(capsys, *argv) -> tuple[int, str, str]:
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@requires_wmt
def test_types_stemming_and_values(capsys):
    ref, hyp = PAIR / "ref.A.txt", PAIR / "sys" / "Online-B.txt"
    code, out, _ = run(capsys, ref, "-i", hyp, "-m", "rouge", "--rouge-types", "rouge2,rougeL", "--rouge-stem",
                       "-f", "json")
    assert code == 0
    objects = json.loads(out)
    assert [o["name"] for o in objects] == ["ROUGE-2", "ROUGE-L"]
    for o, t in zip(objects, ("rouge2", "rougeL")):
        expected = ROUGE((t,), use_stemmer=True).corpus_score(read_lines(hyp), [read_lines(ref)])
        assert o["score_unrounded"] == expected.score
        assert o["signature"] == expected.signature
        assert o["stem"] == "yes" and o["types"] == t


@requires_wmt
def test_with_bleu_in_a_table_and_paired_bootstrap(capsys):
    ref = PAIR / "ref.A.txt"
    systems = [PAIR / "sys" / "Online-B.txt", PAIR / "sys" / "PROMT.txt"]
    code, out, _ = run(capsys, ref, "-i", *systems, "-m", "bleu", "rouge", "--rouge-types", "rouge1", "-f", "json")
    assert code == 0
    rows = json.loads(out)
    assert set(rows[0]) == {"system", "BLEU", "ROUGE-1"}
    code, out, _ = run(capsys, ref, "-i", *systems, "-m", "rouge", "--rouge-types", "rougeL", "--paired-bs",
                       "--paired-bs-n", "100", "-f", "json")
    assert code == 0
    assert "types:rougeL" in out and "p_value" in out


def test_bad_type_is_a_usage_error(capsys, tmp_path):
    f = tmp_path / "a.txt"
    f.write_text("a b\n", encoding="utf-8")
    code, _, err = run(capsys, f, "-i", f, "-m", "rouge", "--rouge-types", "rouge0")
    assert code == 2
    assert "--rouge-types: unknown ROUGE type 'rouge0'" in err
