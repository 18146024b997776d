"""The drop-ins' documented import paths: ``from bleuscope.rouge_score import rouge_scorer, scoring`` and
``from bleuscope.nltk import corpus_bleu`` import the modules of :mod:`bleuscope.integrations` under the
short names :data:`SHORT_NAMES` lists (as the package's attribute access does), without module files of
those names. Importing this module installs the finder once (``bleuscope/__init__`` does); it imports the
integrations only by name, when such a path is imported, so the package layers stay as they are."""

from __future__ import annotations

import importlib
import importlib.machinery
import importlib.util
import sys

#: short name -> the integration's module, below ``bleuscope``
SHORT_NAMES = {
    "jiwer": "integrations.jiwer",
    "nltk": "integrations.nltk",
    "nltk_gleu": "integrations.nltk_gleu",
    "rouge_score": "integrations.rouge_score",
}


class DropInFinder:
    """A meta path finder and loader for ``bleuscope.<short name>``: the loaded module *is* the integration's
    module (``bleuscope.rouge_score is bleuscope.integrations.rouge_score``)."""

    @staticmethod
    def find_spec(fullname, path=None, target=None):
        package, _, name = fullname.rpartition(".")
        if package != "bleuscope":
            return None
        if name not in SHORT_NAMES:
            return None
        # the class is its own loader (static create_module/exec_module), which LoaderProtocol cannot say
        return importlib.util.spec_from_loader(fullname, DropInFinder)  # type: ignore[arg-type]

    @staticmethod
    def create_module(spec):
        return importlib.import_module(f"bleuscope.{SHORT_NAMES[spec.name.rpartition('.')[2]]}")

    @staticmethod
    def exec_module(module) -> None:
        """Nothing to run: the integration's module was imported by :meth:`create_module`. The import system
        has just set its ``__spec__`` to the short name's; give it back its own (``importlib.reload`` and
        ``pickle`` use it)."""
        parent = sys.modules[module.__name__.rpartition(".")[0]]
        module.__spec__ = importlib.machinery.PathFinder.find_spec(module.__name__, parent.__path__)


if not any(f is DropInFinder or getattr(f, "__name__", "") == "DropInFinder" for f in sys.meta_path):
    sys.meta_path.append(DropInFinder)
