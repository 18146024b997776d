"""Shared test fixtures: the WMT data in ../shared/data/mt and the --full flag for long sweeps."""

from __future__ import annotations

import csv
import os
import re
import secrets
import shutil
import signal
import tempfile
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "mt"

# Ray's token authentication (on by default in Ray 2.60) with a token of our own in the environment: nothing is
# written to ~/.ray, and the `ray start` subprocesses and the workers of pytest-xdist inherit it. Ray reads
# these variables when it is imported, so they are set before any test imports it (unless the environment
# already chooses).
os.environ.setdefault("RAY_AUTH_MODE", "token")
if os.environ["RAY_AUTH_MODE"] == "token":
    os.environ.setdefault("RAY_AUTH_TOKEN", secrets.token_hex(32))
os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
RAY_OBJECT_STORE_BYTES = 80 * 1024 * 1024


def pytest_addoption(parser):
    parser.addoption("--full", action="store_true", default=False, help="run the full WMT parity sweeps")


_CACHE_ENV = "BLEUSCOPE_CACHE_DIR"


def pytest_configure(config):
    config.addinivalue_line("markers", "full: long sweep, only with --full")
    # Unicode tables derived by the tests go to a scratch directory, not to the user's cache. The first
    # process sets it (under pytest-xdist, the controller), so the workers and the subprocesses the tests
    # start share it; the cache writes are atomic. A directory the user chose is kept.
    if _CACHE_ENV not in os.environ:
        os.environ[_CACHE_ENV] = tempfile.mkdtemp(prefix="bleuscope-test-cache-")
        config._bleuscope_scratch_cache = os.environ[_CACHE_ENV]


def pytest_unconfigure(config):
    scratch = getattr(config, "_bleuscope_scratch_cache", None)
    if scratch:
        shutil.rmtree(scratch, ignore_errors=True)
        os.environ.pop(_CACHE_ENV, None)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """With ``-n`` (pytest-xdist), tests marked ``xdist_group`` stay on one worker, in their order (the Ray
    tests share one local Ray runtime, ``local_ray``, instead of starting one per worker and module); all
    others are spread test by test."""
    if config.getoption("dist") != "load":
        return None  # the user chose a distribution mode: keep it
    from xdist.scheduler import LoadGroupScheduling

    return LoadGroupScheduling(config, log)


#: tests that start a Ray cluster (by module or parameter name): one pytest-xdist worker runs them all
_RAY_TEST = re.compile(r"(?<![a-z])ray(?![a-z])", re.IGNORECASE)


def _add_group_suffix(item, group: str) -> None:
    nodeid = f"{item.nodeid}@{group}"
    try:  # pytest 9 keeps a structured id
        from _pytest.nodes import coerce_node_id
    except ImportError:  # pragma: no cover - pytest 8
        item._nodeid = nodeid
    else:
        item._id = coerce_node_id(nodeid)


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    # the scheduler groups a test by the "@group" suffix of its id, which pytest-xdist's worker adds only under
    # --dist loadgroup, and in a way pytest 9 ignores (it sets ``item._nodeid``): a worker adds it here
    suffix = hasattr(config, "workerinput")
    for item in items:
        if _RAY_TEST.search(item.nodeid):
            item.add_marker(pytest.mark.xdist_group("ray"))
            if suffix:
                _add_group_suffix(item, "ray")
    if config.getoption("--full"):
        return
    skip = pytest.mark.skip(reason="full sweep: run with --full")
    for item in items:
        if "full" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(scope="session")
def ray_workdir(tmp_path_factory) -> Path:
    """The directory the workers of ``local_ray`` run in (relative paths given to Ray resolve there)."""
    return tmp_path_factory.mktemp("ray-workdir")


@pytest.fixture(scope="session")
def local_ray(ray_workdir):
    """One local Ray runtime (2 CPUs) for every test of this process that needs one: starting one takes
    seconds, and pytest-xdist runs all of them on one worker."""
    ray = pytest.importorskip("ray", reason='ray is not installed (pip install "bleuscope[ray]")')
    pytest.importorskip("ray.data", reason='ray.data is not installed (pip install "bleuscope[ray]")')
    cwd = os.getcwd()
    os.chdir(ray_workdir)  # Ray's workers run in the directory the driver is in when Ray starts
    try:
        ray.init(address="local", num_cpus=2, object_store_memory=RAY_OBJECT_STORE_BYTES, include_dashboard=False,
                 logging_level="ERROR", log_to_driver=False, configure_logging=True)
    finally:
        os.chdir(cwd)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    ctx.print_on_execution_start = False
    try:
        yield ray
    finally:
        ray.shutdown()


def read_lines(path: Path) -> list[str]:
    """One segment per line, split on "\\n" only (never str.splitlines)."""
    text = path.read_text(encoding="utf-8")
    lines = text.split("\n")
    assert lines[-1] == ""
    return lines[:-1]


def wmt_available() -> bool:
    return (DATA / "expected" / "sacrebleu-2.6.0-corpus.tsv").exists()


requires_wmt = pytest.mark.skipif(not wmt_available(), reason="../shared/data/mt not found")


def core_available() -> bool:
    from bleuscope.core import native

    return native.native_available()


#: a test of the compiled core itself (skipped where it is not built)
requires_core = pytest.mark.skipif(not core_available(), reason="the compiled core (bleuscope._core) is not built")


@pytest.fixture(params=["native", "numpy"])
def engine(request) -> str:
    """The counting engine a test runs on: every test taking it runs on the compiled core ("native") and on
    its readable reference ("numpy"), with the same expected values."""
    if request.param == "native" and not core_available():
        pytest.skip("the compiled core (bleuscope._core) is not built")
    return request.param


def spy_on_validation(monkeypatch, name: str):
    """A ``unittest.mock`` spy counting the calls of ``bleuscope.core.validation.<name>``, put wherever
    bleuscope imported it (load a lazily imported module before calling this)."""
    import sys
    from unittest import mock

    from bleuscope.core import validation

    real = getattr(validation, name)
    spy = mock.Mock(wraps=real)
    for module in list(sys.modules.values()):
        if getattr(module, "__name__", "").startswith("bleuscope") and getattr(module, name, None) is real:
            monkeypatch.setattr(module, name, spy)
    return spy


def expected_rows(metric: str = "BLEU") -> list[dict]:
    with open(DATA / "expected" / "sacrebleu-2.6.0-corpus.tsv", encoding="utf-8") as f:
        return [r for r in csv.DictReader(f, delimiter="\t") if r["metric"] == metric]


def pair_dir(testset: str, pair: str) -> Path:
    return DATA / testset / pair


def system_path(testset: str, pair: str, system: str) -> Path:
    base = pair_dir(testset, pair)
    return base / f"{system}.txt" if system.startswith("ref.") else base / "sys" / f"{system}.txt"


def reference_paths(testset: str, pair: str, refs: str) -> list[Path]:
    return [pair_dir(testset, pair) / f"ref.{name}.txt" for name in refs.split("+")]


def all_pairs() -> list[tuple[str, str]]:
    return sorted((p.parent.name, p.name) for p in DATA.glob("*/*") if p.is_dir() and p.parent.name != "expected")


WMT_MISSING = "../shared/data/mt not found"


def skip_reasons(reports) -> list[tuple[str, int]]:
    """``(reason, count)`` of skipped test reports, the most frequent first."""
    from collections import Counter

    counts: Counter = Counter()
    for r in reports:
        reason = r.longrepr[2] if isinstance(r.longrepr, tuple) and len(r.longrepr) == 3 else str(r.longrepr)
        counts[reason.removeprefix("Skipped: ")] += 1
    return counts.most_common()


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One closing line saying what was skipped and why (the ``--full`` sweeps, missing optional data or
    packages); and loudly when the WMT parity sweep did not run: its tests skip without the data, and a skip
    count in the summary line does not tell that the comparison with sacreBLEU on real WMT data was left out."""
    reasons = skip_reasons(terminalreporter.stats.get("skipped", []))
    if reasons:
        total = sum(n for _, n in reasons)
        parts = [f"{n:,} {reason}" for reason, n in reasons[:4]]
        if len(reasons) > 4:
            parts.append(f"{sum(n for _, n in reasons[4:]):,} for {len(reasons) - 4} other reasons (pytest -rs lists them)")
        terminalreporter.write_line(f"skipped {total:,}: " + "; ".join(parts))
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if WMT_MISSING in str(r.longrepr)]
    if not skipped:
        return
    terminalreporter.write_sep("!", "WMT PARITY SWEEP DID NOT RUN", red=True, bold=True)
    terminalreporter.write_line(
        f"{len(skipped)} tests comparing with sacreBLEU/NLTK on the real WMT data were skipped: {WMT_MISSING} "
        f"(expected at {DATA}). Only the bundled parity set (tests/parity/test_bundled_parity.py) compared "
        "with the peers.",
        red=True,
    )


def default_ctrl_c() -> None:
    """``preexec_fn`` of a command a test interrupts with SIGINT: Ctrl-C's default action in the child even
    when the test runs where SIGINT is ignored (a shell starts background jobs so, and children inherit it)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
