"""sacreBLEU's test sets (``-t``, ``--echo``, ``--list``) through sacreBLEU's own dataset module and cache.

bleuscope has no downloader: the optional extra ``bleuscope[testsets]`` installs sacreBLEU 2.6.0, whose
``sacrebleu.dataset.DATASETS`` knows every test set and keeps the files in its cache (``$SACREBLEU``, default
``~/.sacrebleu``). A test set missing from the cache is downloaded by sacreBLEU, which happens only because
the user gave ``-t`` (or ``--list`` with ``-t`` for datasets whose fields are read from the raw files).
"""

from __future__ import annotations

import argparse

from ..core import files as bio
from ..core.files import InputError
from .output import CLIError, UsageError

INSTALL = 'pip install "bleuscope[testsets]"'


class MissingTestSetsExtra(CLIError):
    exit_code = 1


def _datasets() -> dict:
    try:
        from sacrebleu.dataset import DATASETS
    except ImportError:
        raise MissingTestSetsExtra(
            f"-t/--test-set, --echo and --list use sacreBLEU's test sets, which are not installed: {INSTALL}"
        ) from None
    return DATASETS


def _dataset(args: argparse.Namespace):
    datasets = _datasets()
    name = args.test_set
    if "," in name:
        raise UsageError(f"-t {name}: one test set at a time (bleuscope does not concatenate test sets)")
    if name not in datasets:
        close = [n for n in datasets if n.startswith(name.split("/")[0][:4])][:8]
        hint = f"; similar: {', '.join(close)}" if close else ""
        raise UsageError(f"unknown test set {name!r} (-t); bleuscope --list shows them{hint}")
    dataset = datasets[name]
    pair = args.language_pair
    if pair is not None and pair not in dataset.langpairs:
        raise UsageError(f"test set {name} has no language pair {pair!r} (-l); it has: {', '.join(dataset.langpairs)}")
    return dataset


def _call(what: str, function, *args):
    """A call into sacreBLEU; its failures (a download that cannot happen, a corrupt cache) become one line."""
    try:
        return function(*args)
    except SystemExit:  # sacreBLEU exits after logging a download problem
        raise InputError(
            f"sacreBLEU could not provide {what} (see its message above; the cache is $SACREBLEU or ~/.sacrebleu)"
        ) from None
    except (OSError, ValueError, KeyError, AssertionError) as e:
        raise InputError(f"sacreBLEU could not provide {what}: {e}") from None
    except Exception as e:  # noqa: BLE001 - sacreBLEU raises bare Exception for unknown sets and pairs
        if type(e) is Exception:
            raise InputError(f"sacreBLEU could not provide {what}: {e}") from None
        raise


def reference_files(args: argparse.Namespace) -> list[str]:
    """The reference files of ``-t NAME -l PAIR`` in sacreBLEU's cache (sacreBLEU fetches them if missing)."""
    dataset = _dataset(args)
    what = f"{args.test_set}/{args.language_pair}"
    files = _call(what, dataset.get_reference_files, args.language_pair)
    if not files:
        raise InputError(f"test set {what} has no references")
    return list(files)


def echo(args: argparse.Namespace) -> str:
    """``--echo FIELD ...``: the fields of the test set, tab-separated, one segment per line (as sacreBLEU)."""
    dataset = _dataset(args)
    what = f"{args.test_set}/{args.language_pair}"
    names = _call(what, dataset.fieldnames, args.language_pair)
    files = _call(what, dataset.get_files, args.language_pair)
    wanted = list(args.echo)
    if wanted == ["all"]:
        wanted = list(names)
    elif "all" in wanted:
        raise UsageError("--echo all prints every field; do not name other fields with it")
    if "ref" in wanted and "ref" not in names:  # sacreBLEU: "ref" means the first reference
        first = min(n for n in names if n.startswith("ref"))
        wanted = [first if w == "ref" else w for w in wanted]
    paths = []
    for field in wanted:
        if field not in names:
            raise UsageError(f"test set {what} has no field {field!r} (--echo); it has: {', '.join(names)}")
        paths.append(files[names.index(field)])
    columns = [bio.read_lines(p, args.encoding, max_line_bytes=args.max_line_bytes) for p in paths]
    return "".join("\t".join(x.rstrip() for x in row) + "\n" for row in zip(*columns))


def listing(args: argparse.Namespace) -> str:
    """``--list``: the test sets (of ``-l PAIR``), or with ``-t`` the language pairs and fields of that set."""
    datasets = _datasets()
    if args.test_set is not None:
        dataset = _dataset(args)
        pairs = [args.language_pair] if args.language_pair else list(dataset.langpairs)
        return "".join(
            f"{pair}: {', '.join(_call(f'{args.test_set}/{pair}', dataset.fieldnames, pair))}\n" for pair in pairs
        )
    names = sorted(datasets)
    if args.language_pair:
        names = [n for n in names if args.language_pair in datasets[n].langpairs]
        head = f"The available test sets for {args.language_pair} are:\n"
    else:
        head = "The available test sets are:\n"
    return head + "".join(f"{n:<30}: {datasets[n].description.strip()}\n" for n in names)
