"""The ``bleuscope`` command line (``bleuscope = "bleuscope.cli:main"``, ``python -m bleuscope``).

Modules: :mod:`.main` (options and the run), :mod:`.metrics` (what ``-m`` can name), :mod:`.inputs` (streamed,
checked input), :mod:`.scoring` (scores chunk by chunk), :mod:`.render` (every output format),
:mod:`.significance` (``--confidence`` / ``--paired-*``), :mod:`.testsets` (``-t`` through sacreBLEU's datasets).
Importing this package imports nothing heavy, so that ``bleuscope -h`` starts fast.
"""

from .main import build_parser, example_dir, example_paths, main, parse_args

__all__ = ["build_parser", "example_dir", "example_paths", "main", "parse_args"]
