"""The one door to the compiled core: the only module that imports ``bleuscope._core``.

It imports the compiled module once, lazily, and refuses one built from another version of the package
(a stale build would count with other rules); it owns the engine choice (:data:`ENGINES`) and the thread
policy (:func:`core_threads`). One module per bindings file of ``rust/python/src`` builds the compiled
objects a metric holds: :mod:`.tok` (tokenizers and their Unicode tables), :mod:`.bleu` (BLEU's counters
and scorer), :mod:`.chrf_ter`, :mod:`.rouge`, :mod:`.meteor`, :mod:`.resample` and :mod:`.files`.

A builder returns an object to hold (built once with its configuration, as the bindings document) or None
when the compiled core cannot do that job here (not built, numpy engine, a tokenizer that stays in Python);
a metric decides that once, when it is built, and keeps the object or its reference engine.
"""

from __future__ import annotations

import functools
import numbers

from ..._version import __version__

#: accepted values of every metric's ``engine`` option; ``"numpy"`` is the readable reference engine (numpy or plain
#: Python: ROUGE and METEOR have no numpy in theirs), the oracle of the compiled core
ENGINES = ("auto", "native", "numpy")


class NativeEngineUnavailableError(RuntimeError):
    """``engine="native"`` was asked for, but the compiled core is not built in this installation."""


class NativeVersionError(ImportError):
    """The compiled core was built from another version of bleuscope than the Python package."""


@functools.cache
def core():
    """The compiled module ``bleuscope._core``, or None when it is not built (imported once, lazily); a
    :class:`NativeVersionError` when it was built from another version of the package."""
    try:
        from ... import _core
    except ImportError:
        return None
    check_version(getattr(_core, "__version__", None))
    return _core


def check_version(built: str | None, package: str = __version__) -> None:
    """Refuses a compiled core of another version than ``package`` (its counting could differ)."""
    if built != package:
        raise NativeVersionError(
            f"bleuscope's compiled core (bleuscope._core) is version {built}, but the Python package is "
            f"{package}: rebuild it (pip install -e . --no-deps, or reinstall the wheel)"
        )


def native_available() -> bool:
    """Whether the compiled core can be imported."""
    return core() is not None


def compiled_core():
    """The compiled module (for the tests of its boundary), or None when it is not built."""
    return core()


def core_build() -> dict | None:
    """The compiled core's build (version, profile, target, abi3), or None when it is not built."""
    module = core()
    return None if module is None else dict(module.BUILD)


def check_engine(engine) -> str:
    """``engine`` validated (one of :data:`ENGINES`); ``"native"`` also checks that the core is built."""
    if not isinstance(engine, str) or engine not in ENGINES:
        raise ValueError(f"engine must be one of {', '.join(map(repr, ENGINES))}, got {engine!r}")
    if engine == "native" and not native_available():
        raise NativeEngineUnavailableError(
            "engine='native' needs bleuscope's compiled core (bleuscope._core), which is not built in this "
            "installation; use engine='auto' or engine='numpy', or install bleuscope with its Rust extension"
        )
    return engine


def resolve_engine(engine: str = "auto") -> str:
    """The engine that will count: ``"native"`` (the compiled core) or ``"numpy"`` (the reference)."""
    engine = check_engine(engine)
    if engine == "auto":
        return "native" if native_available() else "numpy"
    return engine


#: the thread count of every compiled object built in this process when set (pool workers: one thread each,
#: so that ``n_jobs`` processes do not each start a thread per core)
_process_threads: int | None = None


def set_process_threads(threads: int | None) -> None:
    """Caps the compiled core's threads in this process (the process pool's worker initializer sets 1)."""
    global _process_threads
    _process_threads = check_threads(threads)


def core_threads(threads: int | None) -> int:
    """The thread policy: the compiled core's thread count for a metric's ``threads``. None lets the core pick
    one for the input size (0); a number is used as it is; in a pool worker, the process cap wins."""
    if _process_threads is not None:
        return _process_threads if threads is None else min(threads, _process_threads)
    return 0 if threads is None else threads


def check_threads(threads) -> int | None:
    """``threads`` validated: None (the engine decides) or a positive integer."""
    if threads is None:
        return None
    if isinstance(threads, bool) or not isinstance(threads, numbers.Integral):
        raise TypeError(f"threads must be a positive integer or None, got {threads!r}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    return int(threads)


class ThreadsOption:
    """A metric's ``threads`` attribute, validated whenever it is set (also after construction, as
    :func:`bleuscope.runtime.ray.fit_threads` does). Setting it drops the metric's compiled counter
    (``_counter`` in its ``__dict__``), which is built again, once, with the new count."""

    def __set_name__(self, owner, name: str) -> None:
        self.slot = f"_{name}"

    def __get__(self, obj, objtype=None):
        return self if obj is None else obj.__dict__.get(self.slot)

    def __set__(self, obj, value) -> None:
        obj.__dict__[self.slot] = check_threads(value)
        obj.__dict__.pop("_counter", None)


def libm_map(func, values):
    """``func`` (``math.log`` or ``math.exp``) of every value of a flat float64 array, computed by the
    compiled core with the same C library functions that :mod:`math` calls (so bit-identical), or None
    when the core is not built, the array is small, or some value is one where :mod:`math` would raise
    (the caller's Python loop then raises the same error)."""
    import math

    name = {math.log: "log", math.exp: "exp"}.get(func)
    module = core()
    if name is None or module is None or len(values) < 64:
        return None
    import numpy as np

    out = module.libm_map(name, values)
    if not np.isfinite(out).all() and (np.isfinite(values) & ~np.isfinite(out)).any():
        return None
    return out


__all__ = [
    "ENGINES",
    "NativeEngineUnavailableError",
    "NativeVersionError",
    "ThreadsOption",
    "check_engine",
    "check_threads",
    "check_version",
    "compiled_core",
    "core",
    "core_build",
    "core_threads",
    "libm_map",
    "native_available",
    "resolve_engine",
    "set_process_threads",
]
