"""One metric registry for both commands: every metric that ``bleuscope -m`` names is a metric of
``bleuscope report``, with the same option group (names, defaults, help texts), the same scorer and the same
one-line errors. The tests run over the registry, so a metric registered once is covered here too."""

from __future__ import annotations

import argparse
import html
import json
import re

import pytest

from bleuscope.cli import main as cli_main
from bleuscope.cli.main import build_parser as main_parser
from bleuscope.cli.metrics import get_metric, metric_names
from bleuscope.report.cli import build_parser as report_parser
from bleuscope.report.cli import main as report_main

from .conftest import EXAMPLE

#: options other than the defaults, so that the test sees them reach the scorer (a metric missing here runs
#: with its defaults)
NON_DEFAULT_OPTIONS = {
    "bleu": ["-lc"],
    "chrf": ["-cc", "5", "--chrf-lowercase"],
    "chrf++": ["--chrf-eps-smoothing"],
    "ter": ["--ter-no-punct"],
    "meteor": ["--meteor-alpha", "0.8", "--meteor-case-sensitive"],
    "rouge": ["--rouge-types", "rouge1,rougeL", "--rouge-stem"],
}

WITH_OPTIONS = [name for name in metric_names() if get_metric(name).add_arguments is not None]


def _group(name: str) -> tuple[str, list[argparse.Action]]:
    """The title and the actions of a metric's own option group."""
    parser = argparse.ArgumentParser(add_help=False)
    get_metric(name).add_arguments(parser)
    (group,) = [g for g in parser._action_groups if g._group_actions]
    return group.title, group._group_actions


def _described(action: argparse.Action) -> tuple:
    return (tuple(action.option_strings), action.dest, action.default, action.help, action.nargs, action.metavar,
            getattr(action.type, "__qualname__", action.type), action.choices, type(action).__name__)


@pytest.fixture
def files(tmp_path):
    """The first 20 segments of the bundled example: the reference A and the system Online-B (and OpenNMT)."""
    for name in ("ref.A.txt", "hyp.Online-B.txt", "hyp.OpenNMT.txt"):
        lines = (EXAMPLE / name).read_text(encoding="utf-8").split("\n")[:20]
        (tmp_path / name).write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path / "ref.A.txt", tmp_path / "hyp.Online-B.txt"


def test_both_commands_offer_every_registered_metric():
    for parser in (main_parser(), report_parser()):
        (metrics,) = [a for a in parser._actions if a.dest == "metrics"]
        assert list(metrics.choices) == metric_names()
        assert "chrf++" in metrics.choices  # chrF with word order 2, a name of its own


@pytest.mark.parametrize("name", WITH_OPTIONS)
def test_the_metric_option_group_is_the_same_in_both_commands(name):
    title, actions = _group(name)
    for parser in (main_parser(), report_parser()):
        assert title in [g.title for g in parser._action_groups]
        by_dest = {a.dest: a for a in parser._actions}
        for action in actions:
            assert _described(by_dest[action.dest]) == _described(action)


@pytest.mark.parametrize("name", WITH_OPTIONS)
def test_report_help_lists_the_metric_option_group(name, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "1000")  # argparse would wrap lines, also at hyphens
    assert report_main(["--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    title, actions = _group(name)
    assert f"{title}:" in text
    for action in actions:
        assert all(flag in text for flag in action.option_strings)
        assert " ".join(action.help.split()) in text


@pytest.mark.parametrize("name", metric_names())
def test_every_metric_gives_the_same_scores_in_both_commands(name, files, tmp_path, capsys):
    """The report's section of each scorer has the main command's name, signature and unrounded score."""
    ref, hyp = files
    options = ["-m", name, *NON_DEFAULT_OPTIONS.get(name, [])]
    code = cli_main([str(ref), "-i", str(hyp), *options])
    out, err = capsys.readouterr()
    if code != 0 and name == "meteor" and "WordNet" in err:
        pytest.skip(f"no WordNet here: {err.strip()}")
    assert code == 0, err
    result = json.loads(out)
    scores = result if isinstance(result, list) else [result]
    page_path = tmp_path / "r.html"
    assert report_main([str(ref), "-i", str(hyp), *options, "-o", str(page_path), "-q", "--n-bootstrap",
                        "10"]) == 0, capsys.readouterr().err
    page = page_path.read_text(encoding="utf-8")
    shown = dict(re.findall(r'data-metric="([^"]+)" data-value="([^"]+)"', page))
    signatures = [html.unescape(s) for s in re.findall(r'signature: <span class="sig"[^>]*>([^<]+)', page)]
    for score in scores:
        assert float(shown[html.escape(score["name"])]) == score["score_unrounded"]
        assert score["signature"] in signatures
    if name != "bleu":  # BLEU is always the report's first metric; the others follow, one section per scorer
        assert list(shown)[1:] == [html.escape(s["name"]) for s in scores]


def test_rouge_gives_one_report_section_per_type(files, tmp_path, capsys):
    from bleuscope.metrics.rouge import ROUGE

    ref, hyp = files
    page_path = tmp_path / "r.html"
    other = tmp_path / "hyp.OpenNMT.txt"
    assert report_main([str(ref), "-i", str(hyp), str(other), "-m", "rouge", "--rouge-types", "rouge1,rouge2,rougeL",
                        "--csv", str(tmp_path / "csv"), "-o", str(page_path), "-q", "--n-bootstrap", "10"]) == 0
    page = page_path.read_text(encoding="utf-8")
    refs = [(tmp_path / "ref.A.txt").read_text(encoding="utf-8").split("\n")[:-1]]
    hyps = (tmp_path / "hyp.Online-B.txt").read_text(encoding="utf-8").split("\n")[:-1]
    for rouge_type, label in (("rouge1", "ROUGE-1"), ("rouge2", "ROUGE-2"), ("rougeL", "ROUGE-L")):
        expected = ROUGE((rouge_type,)).corpus_score(hyps, refs).score
        assert f'data-metric="{label}" data-value="{expected!r}"' in page
        assert f"<h3>{label}</h3>" in page and f'id="p-matrix-{label}"' in page
        assert (tmp_path / "csv" / f"significance-{label}.csv").exists()
    rows = (tmp_path / "csv" / "systems.csv").read_text(encoding="utf-8").splitlines()
    assert rows[0].split(",")[:3] == ["system", "metric", "score"]
    assert [r.split(",")[1] for r in rows[1:]] == ["BLEU", "ROUGE-1", "ROUGE-2", "ROUGE-L"] * 2


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (["-m", "chrf", "-cw", "17"], "-cw/--chrf-word-order must be at most 16, got 17"),
        (["-m", "chrf", "-cc", "0"], "-cc/--chrf-char-order + -cw/--chrf-word-order must be >= 1"),
        (["-m", "chrf++", "-cw", "3"], "-m chrf++ has word order 2; -cw/--chrf-word-order 3 goes with -m chrf"),
        (["-m", "chrf", "chrf++", "-cw", "2"], "-m chrf and -m chrf++ give chrF2++ twice"),
        (["-m", "meteor", "--meteor-alpha", "2"], "--meteor-alpha must be in [0, 1], got 2.0"),
        (["-m", "rouge", "--rouge-types", "rouge0"], "--rouge-types: unknown ROUGE type 'rouge0'"),
        (["-m", "rouge", "--rouge-types", "rougeL,rougeL"], "--rouge-types: rougeL is named twice"),
    ],
    ids=["chrf-word-order", "chrf-nothing-to-count", "chrf++-word-order", "chrf-twice", "meteor-alpha",
         "rouge-type", "rouge-type-twice"],
)
def test_option_errors_name_the_option_alike_in_both_commands(options, message, files, tmp_path, capsys):
    ref, hyp = files
    assert cli_main([str(ref), "-i", str(hyp), *options]) == 2
    main_err = capsys.readouterr().err
    assert report_main([str(ref), "-i", str(hyp), *options, "-o", str(tmp_path / "r.html")]) == 2
    report_err = capsys.readouterr().err
    assert len(main_err.splitlines()) == len(report_err.splitlines()) == 1
    assert main_err.startswith(f"bleuscope: error: {message}")
    assert report_err == main_err.replace("bleuscope:", "bleuscope report:", 1)
    assert not (tmp_path / "r.html").exists()
