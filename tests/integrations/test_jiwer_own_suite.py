"""jiwer 4.0.0's own test suite run against bleuscope.jiwer (the full run only: about 20 CPU-s).

The tests come from jiwer's sdist on PyPI (``pip download --no-binary jiwer jiwer==4.0.0``: a package
registry, reachable in CI; nothing of jiwer is kept in the repository). They ``import jiwer``: a package named
``jiwer`` whose modules are bleuscope.jiwer's is put first on their path. Without pytest-benchmark,
jiwer's ``tests/test_speed.py`` (4 tests of its ``benchmark`` fixture) is left out."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import tarfile

import pytest

SHIM = """import sys
import bleuscope.jiwer as _j
for _sub in ("transforms", "transformations", "process", "measures", "alignment"):
    sys.modules[f"jiwer.{_sub}"] = getattr(_j, _sub)
globals().update({k: getattr(_j, k) for k in dir(_j) if not k.startswith("__")})
"""


@pytest.mark.full
def test_jiwer_4_0_0_tests_pass_against_the_drop_in(tmp_path):
    download = subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", "jiwer", "-d", str(tmp_path),
         "jiwer==4.0.0"], capture_output=True, text=True, timeout=300)
    if download.returncode != 0:
        pytest.skip(f"jiwer 4.0.0's sdist could not be downloaded from PyPI: {download.stderr.strip()[-200:]}")
    with tarfile.open(tmp_path / "jiwer-4.0.0.tar.gz") as tar:
        members = [m for m in tar.getmembers() if m.name.startswith("jiwer-4.0.0/tests/")]
        safe = {"filter": "data"} if hasattr(tarfile, "data_filter") else {}
        tar.extractall(tmp_path, members=members, **safe)
    (tmp_path / "shim" / "jiwer").mkdir(parents=True)
    (tmp_path / "shim" / "jiwer" / "__init__.py").write_text(SHIM, encoding="utf-8")
    tests = tmp_path / "jiwer-4.0.0" / "tests"
    args = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", str(tests)]
    has_benchmark = importlib.util.find_spec("pytest_benchmark") is not None
    args += ["--benchmark-disable"] if has_benchmark else ["--ignore", str(tests / "test_speed.py")]
    env_path = [str(tmp_path / "shim"), *sys.path]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(env_path)}
    run = subprocess.run(args, capture_output=True, text=True, timeout=900, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stdout[-3000:]
    assert ("82 passed" if has_benchmark else "78 passed") in run.stdout
