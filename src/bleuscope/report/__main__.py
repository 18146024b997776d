"""``python -m bleuscope.report REF ... -i SYS ... -o report.html`` (the same as ``bleuscope report``)."""

import sys

from .cli import main

sys.exit(main())
