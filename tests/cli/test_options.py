"""Option values and their messages: one message shape for ranges, -sv for the Chen & Cherry methods with a
parameter, the order limit of the compiled core, chrF's order bounds, the help texts that describe what the
command does."""

from __future__ import annotations

import io
import sys

import pytest

from bleuscope import BLEU
from bleuscope.cli.main import MAX_NGRAM_ORDER, SMOOTH_VALUE_METHODS, build_parser

from .conftest import one_line_error

HYP, REF = "hyp.Online-B.txt", "ref.A.txt"


def test_smooth_value_methods_are_the_library_methods_with_a_parameter():
    from bleuscope.metrics.bleu.smoothing import CHEN_CHERRY_DEFAULTS

    with_value = {"floor", "add-k"} | {m for m, default in CHEN_CHERRY_DEFAULTS.items() if default is not None}
    assert set(SMOOTH_VALUE_METHODS) == with_value


@pytest.mark.parametrize("k, value", [(1, "0.2"), (4, "3"), (6, "2.5"), (7, "4")])
def test_smooth_value_with_chen_cherry_methods_is_the_api(run_main, example, k, value):
    code, out, err = run_main([REF, "-i", HYP, "-s", f"chen-cherry-{k}", "-sv", value, "-f", "text", "-w", "6"])
    assert code == 0, err
    api = BLEU(smooth_method=f"chen-cherry-{k}", smooth_value=float(value))
    score = api.corpus_score(open(HYP, encoding="utf-8").read().split("\n")[:-1],
                             [open(REF, encoding="utf-8").read().split("\n")[:-1]])
    assert f"smooth:chen-cherry-{k}[{float(value):g}]" in out
    assert out.split(" = ")[1].split()[0] == f"{score.score:.6f}"


@pytest.mark.parametrize("method", ["exp", "none", "chen-cherry-2", "chen-cherry-3", "chen-cherry-5"])
def test_smooth_value_refused_where_no_parameter(run_main, example, method):
    code, _, err = run_main([REF, "-i", HYP, "-s", method, "-sv", "1"])
    one_line_error(code, err, 2, f"not used by -s {method}")


def test_max_ngram_order_beyond_the_option_range_is_refused_by_the_library_too():
    with pytest.raises(ValueError, match="order"):
        BLEU(max_ngram_order=MAX_NGRAM_ORDER + 1).corpus_score(["a b"], [["a b"]])


@pytest.mark.parametrize("order", ["64", "65", "1000", str(MAX_NGRAM_ORDER)])
def test_max_ngram_order_scores_or_is_a_usage_error(run_main, example, order):
    """Whatever order the compiled core counts, a large --max-ngram-order is never a data error (exit 1)."""
    code, out, err = run_main([REF, "-i", HYP, "--max-ngram-order", order, "-f", "text"])
    if code == 0:
        assert out.startswith("BLEU|") and f"order:{order}" in out
    else:
        one_line_error(code, err, 2, f"--max-ngram-order {order}")


@pytest.mark.parametrize(
    "option, value, message",
    [
        ("--max-ngram-order", "1000000000", "argument --max-ngram-order: expected a whole number from 1 to 65,536, "
                                           "got '1000000000'"),
        ("--max-ngram-order", "-1", "argument --max-ngram-order: expected a whole number from 1 to 65,536, got '-1'"),
        ("--max-ngram-order", "0", "argument --max-ngram-order: expected a whole number from 1 to 65,536, got '0'"),
        ("--max-line-bytes", "-1", "argument --max-line-bytes: expected a whole number from 1 to 1,073,741,823, "
                                   "got '-1'"),
        ("--max-line-bytes", "0", "argument --max-line-bytes: expected a whole number from 1 to 1,073,741,823, "
                                  "got '0'"),
        ("-nr", "-1", "argument -nr/--num-refs: expected a whole number >= 1, got '-1'"),
        ("-nr", "0", "argument -nr/--num-refs: expected a whole number >= 1, got '0'"),
        ("-w", "-1", "argument -w/--width: expected a whole number from 0 to 100, got '-1'"),
        ("-cin", "0", "argument --confidence-n/-cin: expected a whole number from 1 to 10,000,000, got '0'"),
        ("-sv", "-1", "argument -sv/--smooth-value: expected a finite number >= 0, got '-1'"),
    ],
)
def test_number_options_name_the_option_and_the_whole_range(run_main, example, option, value, message):
    code, _, err = run_main([REF, "-i", HYP, option, value])
    one_line_error(code, err, 2, message)



@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("-cc", "1000000", "-cc/--chrf-char-order must be at most 32, got 1000000"),
        ("-cw", "17", "-cw/--chrf-word-order must be at most 16, got 17"),
    ],
)
def test_chrf_orders_above_the_bound_are_usage_errors(run_main, example, option, value, message):
    """A one-line usage error naming the option (exit 2), not a numpy memory error after gigabytes of allocation."""
    code, out, err = run_main([REF, "-i", HYP, "-m", "chrf", option, value])
    assert (code, out) == (2, "")
    assert err.splitlines() == [f"bleuscope: error: {message}"]

def test_help_says_what_the_options_do():
    text = build_parser().format_help()
    test_set = text[text.index("--test-set NAME"):].split("\n  -", 1)[0]
    assert "comma-separated" not in test_set and "one test set at a time" in test_set
    beta = text[text.index("--chrf-beta"):].split("\n  -", 1)[0]
    assert "bleuscope's own short form" in beta
    assert "chen-cherry-4" in text[text.index("--smooth-value V"):].split("\n  -", 1)[0]


def test_comma_separated_test_sets_are_refused_as_the_help_says(run_main):
    pytest.importorskip("sacrebleu")
    code, _, err = run_main(["-t", "wmt21,wmt22", "-l", "en-de", "-i", "x.txt"])
    one_line_error(code, err, 2, "one test set at a time")


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_progress_line_is_cleared_before_a_warning(monkeypatch):
    """On a terminal, a warning printed while the progress line is drawn starts on a clean line."""
    from bleuscope.cli.main import _stderr_writer
    from bleuscope.cli.progress import Progress

    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    progress = Progress(10, terminal, min_interval=0)
    progress.update(5, "hyp.txt")
    assert terminal.getvalue().endswith("\x1b[K") and "\n" not in terminal.getvalue()
    _stderr_writer(False)("something to say")
    drawn, warning = terminal.getvalue().rsplit("\r\x1b[K", 1)
    assert drawn.startswith("\rbleuscope:") and warning == "bleuscope: warning: something to say\n"
    progress.update(5)  # drawn again after the warning, on its own line
    assert terminal.getvalue().endswith("\x1b[K") and terminal.getvalue().count("\rbleuscope:") == 2
    progress.close()
    assert terminal.getvalue().endswith("\r\x1b[K")


@pytest.mark.parametrize(
    ("build", "arguments", "library", "option"),
    [
        (lambda: BLEU(max_ngram_order=0), ("max_ngram_order",), "max_ngram_order must be >= 1, got 0",
         "--max-ngram-order must be >= 1, got 0"),
        (lambda: BLEU(smooth_method="add-k", smooth_value=-1), ("smooth_value",), "smooth_value must be >= 0.0",
         "-sv/--smooth-value must be >= 0.0"),
        (lambda: BLEU(tokenize="13a", spm_model="x.model"), ("spm_model", "tokenize"),
         "spm_model is only used by the SentencePiece", "--spm-model is only used by the SentencePiece"),
    ],
)
def test_library_errors_carry_their_arguments_the_command_names_its_options(build, arguments, library, option):
    # the library names its arguments in the message and as fields; the command says the same with its
    # option names (no message is rewritten)
    from bleuscope.cli.metrics import BLEU_OPTION_NAMES
    from bleuscope.core.validation import named_message

    with pytest.raises(ValueError) as caught:
        build()
    assert caught.value.arguments == arguments and caught.value.arguments[0] == arguments[0]
    assert str(caught.value).startswith(library)
    assert named_message(caught.value, BLEU_OPTION_NAMES).startswith(option)


def test_chrf_and_gleu_errors_name_their_arguments(run_main, example):
    from bleuscope.metrics.chrf import CHRF
    from bleuscope.metrics.gleu import GLEU

    with pytest.raises(ValueError) as caught:
        CHRF(char_order=0, word_order=0)
    assert caught.value.argument == "char_order" and caught.value.arguments == ("char_order", "word_order")
    with pytest.raises(ValueError) as caught:
        GLEU(min_len=3, max_len=2)
    assert caught.value.argument == "max_len"
    code, _, err = run_main([REF, "-i", HYP, "-m", "gleu", "--gleu-min-len", "3", "--gleu-max-len", "2"])
    one_line_error(code, err, 2, "--gleu-max-len must be >= --gleu-min-len, got --gleu-min-len=3 and --gleu-max-len=2")
    code, _, err = run_main([REF, "-i", HYP, "-m", "chrf", "-cc", "0", "-cw", "0"])
    one_line_error(code, err, 2, "-cc/--chrf-char-order + -cw/--chrf-word-order must be >= 1")


@pytest.mark.parametrize(
    ("options", "library", "command"),
    [
        (["-m", "meteor", "--meteor-tokenize", "nope"], "unknown tokenizer 'nope' for tokenize",
         "unknown tokenizer 'nope' for --meteor-tokenize"),
        (["-m", "gleu", "--gleu-tokenize", "n{o}pe"], "unknown tokenizer 'n{o}pe' for tokenize",
         "unknown tokenizer 'n{o}pe' for --gleu-tokenize"),
        (["-m", "meteor", "--meteor-beta", "0"], "beta must be > 0", "--meteor-beta must be > 0, got 0.0"),
    ],
    ids=["meteor-tokenize", "gleu-tokenize-braces", "meteor-beta"],
)
def test_tokenizer_and_meteor_errors_name_the_metrics_options(run_main, example, options, library, command):
    """The library names its argument (``tokenize``, ``beta``) as a field; each metric's options say it with
    their own names, never another metric's ``-tok``."""
    from bleuscope.metrics.gleu import GLEU
    from bleuscope.metrics.meteor import METEOR

    value = options[-1]
    build = {"meteor-tokenize": lambda: METEOR(tokenize=value), "gleu-tokenize": lambda: GLEU(tokenize=value),
             "meteor-beta": lambda: METEOR(beta=float(value))}[options[2].removeprefix("--")]
    with pytest.raises(ValueError) as caught:
        build()
    assert str(caught.value).startswith(library) and caught.value.arguments[0] in ("tokenize", "beta")
    code, _, err = run_main([REF, "-i", HYP, *options])
    one_line_error(code, err, 2, command)


def test_a_missing_sentencepiece_model_names_the_option(run_main, example, tmp_path):
    pytest.importorskip("sentencepiece")
    from bleuscope.tokenizers.spm import resolve_model

    with pytest.raises(FileNotFoundError) as caught:
        resolve_model("flores101", tmp_path / "none.model")
    assert caught.value.arguments == ("spm_model", "tokenize")
    code, _, err = run_main([REF, "-i", HYP, "-tok", "flores101", "--spm-model", str(tmp_path / "none.model")])
    one_line_error(code, err, 1, "tokenizer 'flores101' is not usable: --spm-model: no SentencePiece model at",
                   "for -tok='flores101'")
