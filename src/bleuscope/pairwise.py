"""Former location of :mod:`bleuscope.metrics.bleu.pairwise` (pairwise sentence BLEU) and of
:mod:`bleuscope.analysis.mbr` (MBR selection): reading or setting a name here reads or sets it there."""

import sys
import types

from .analysis import mbr as _MBR_MODULE
from .metrics.bleu import pairwise as _PAIRWISE_MODULE

_TARGETS = (_PAIRWISE_MODULE, _MBR_MODULE)


class _PairwiseModule(types.ModuleType):
    def __getattr__(self, name: str):
        for module in _TARGETS:
            if hasattr(module, name):
                return getattr(module, name)
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __setattr__(self, name: str, value) -> None:
        for module in _TARGETS:
            if hasattr(module, name):
                setattr(module, name, value)
                break
        super().__setattr__(name, value)


# the names are also copied here, so that tools reading the module's __dict__ (monkeypatch) find them
for _module in reversed(_TARGETS):
    globals().update({k: v for k, v in vars(_module).items() if not k.startswith("__")})
__all__ = [*_PAIRWISE_MODULE.__all__, *_MBR_MODULE.__all__]
sys.modules[__name__].__class__ = _PairwiseModule
