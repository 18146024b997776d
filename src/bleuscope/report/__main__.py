"""``python -m bleuscope.report REF ... -i SYS ... -o report.html``: the same as ``bleuscope report`` (the
same entry point, so the same thread policy)."""

import sys

from ..cli import main

sys.exit(main(["report", *sys.argv[1:]]))
