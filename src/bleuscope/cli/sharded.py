"""Sharded inputs on the command line: Parquet / JSON Lines shards (paths or globs) with ``--hyp-field`` and
``--ref-field``, scored in this process or on Ray with ``--ray [ADDRESS|local]``.

    bleuscope 'data/part-*.parquet' --hyp-field hyp --ref-field ref            # read here (pyarrow)
    bleuscope 'data/part-*.parquet' --hyp-field hyp --ref-field ref --ray      # a local Ray runtime
    bleuscope 'data/part-*.parquet' --hyp-field hyp --ref-field ref --ray auto # the running cluster

Nothing heavy is imported while the parser is built: pyarrow and ray are imported when a shard is read.
"""

from __future__ import annotations

import argparse
import glob
import warnings

from ..core import files as bio
from . import output

SHARD_SUFFIXES = (".parquet", ".pq")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        'sharded inputs (Parquet needs: pip install "bleuscope[parquet]"; Ray: pip install "bleuscope[ray]")',
        "FILEs that are Parquet shards or globs (quote them) are read shard by shard with --hyp-field and "
        "--ref-field; every shard must have those columns. The corpus score is the same wherever it is computed.",
    )
    group.add_argument(
        "--ray",
        nargs="?",
        const="local",
        metavar="ADDRESS",
        help="score the shards on Ray: 'local' (default) starts a Ray runtime for this command, "
        "'auto' or HOST:PORT connects to a running cluster",
    )


def requested(args: argparse.Namespace) -> bool:
    """Sharded inputs: ``--ray``, or FILEs that are Parquet shards or globs."""
    if getattr(args, "ray", None) is not None:
        return True
    files = list(args.files or [])
    return any(f.lower().endswith(SHARD_SUFFIXES) or glob.has_magic(f) for f in files)


def _input_shards(args: argparse.Namespace) -> list[str] | None:
    """``-i FILE --hyp-field H --ref-field R`` without reference files: the hypotheses and their references
    in one file, as without ``--ray``; None when the input is not given that way."""
    if not args.input or args.files or args.references or not getattr(args, "hyp_field_refs", False):
        return None
    if len(args.input) > 1:
        raise output.UsageError(
            f"--ray scores one system, and {len(args.input)} -i files are {len(args.input)} systems; give one -i "
            "file, or the shards of one system as FILEs or a quoted glob"
        )
    if args.input == [bio.STDIN]:
        raise output.UsageError(
            "--ray reads its shards from files, not from standard input; write the JSON Lines to a file, or drop "
            "--ray (the score is the same)"
        )
    return list(args.input)


def check(args: argparse.Namespace) -> None:
    if not args.hyp_field or not args.ref_field:
        raise output.UsageError("sharded inputs (Parquet shards, globs or --ray) need --hyp-field and --ref-field")
    if _input_shards(args) is None and (args.input or args.references or not args.files):
        raise output.UsageError(
            "give the shards as FILEs (paths or quoted globs) with --hyp-field/--ref-field; "
            "-i and -r do not go with them"
        )
    if args.sentence_level:
        raise output.UsageError("-sl with shards: use bleuscope.runtime.ray.sentence_scores (a scored Ray Dataset)")


def score(args: argparse.Namespace, scorer, warn):
    """``[SystemResult]`` of the shards (one system), read here or on Ray."""
    from ..runtime.shards import expand_shards
    from ..tokenizers.language import MissingExtraError
    from .scoring import ReadWhenAsked, SystemResult, give_input_notes

    check(args)
    try:
        paths = expand_shards(_input_shards(args) or args.files)
        if args.ray is None:
            from ..runtime.shards import corpus_totals_shards

            totals = corpus_totals_shards(paths, scorer, hyp_field=args.hyp_field, ref_field=args.ref_field)
        else:
            totals = _ray_totals(args, paths, scorer)
        # the notes on the input (TER: a Chinese, Japanese or Korean target) judge the first shard's first
        # chunk of rows, as the chunk loop of text files judges its first chunk; read only if a metric asks
        give_input_notes(scorer, ReadWhenAsked(lambda: _first_reference_streams(args, paths[0])), args, warn)
    except MissingExtraError as e:
        raise output.UsageError(str(e)) from None
    nrefs = totals.nrefs()
    name = paths[0] if len(paths) == 1 else f"{len(paths)} shards"
    return [
        SystemResult(
            name=name, stats=totals.stats[None, :], nrefs=nrefs, score=scorer.score_from_statistics(totals.stats, nrefs)
        )
    ]


def _first_reference_streams(args: argparse.Namespace, path: str) -> list:
    """The reference streams of the first chunk of rows of the shard ``path``."""
    from ..runtime.shards import iter_shard

    first = next(iter_shard(path, args.hyp_field, args.ref_field), None)
    return first.streams() if first is not None else []


def _ray_totals(args, paths, scorer):
    from ..runtime.ray import RayScoringError, corpus_totals, ray_session

    try:
        with warnings.catch_warnings():
            # Ray's notices about its own deprecated settings are not the user's business here
            warnings.filterwarnings("ignore", category=DeprecationWarning, module=r"ray(\.|$)")
            with ray_session(args.ray) as ray:
                ray.data.DataContext.get_current().enable_progress_bars = False
                return corpus_totals(paths, scorer, hyp_field=args.hyp_field, ref_field=args.ref_field)
    except RayScoringError as e:
        raise bio.InputError(str(e)) from None
