"""bleuscope's HF ``evaluate`` metric modules: ``sacrebleu``, ``bleu``, ``chrf``, ``ter``, ``rouge``, ``meteor``,
``google_bleu``, ``wer``, ``cer``, ``character`` and ``exact_match``, with the official scripts' arguments and
returned dicts (the same keys and the same values), computed by bleuscope.

Two ways in:

* ``evaluate.load(path("sacrebleu"))``: a module folder shipped in this package (``<name>/<name>.py``), which
  ``evaluate`` loads from disk without the network (``HF_EVALUATE_OFFLINE=1`` works); ``evaluate`` and
  ``datasets`` handle the input as for any module (its features, ``add_batch``, the seed).
* ``load("sacrebleu")``: the same computation without ``evaluate`` (no ``datasets``, no pyarrow, no cache files):
  an object with ``compute(predictions=..., references=..., **kwargs)`` that checks the input as ``evaluate``
  checks it against the script's features.

What differs from the official scripts: the speed; nothing is downloaded (``meteor`` calls no ``nltk.download``:
WordNet is bleuscope's reader, only NLTK's ``punkt_tab`` model is needed for its tokenizer; ``bleu`` needs no
file from GitHub); an input the script would turn into a meaningless number is refused with a ``ValueError``
(an empty list of references). ``bleu`` is TF-NMT's BLEU, not sacreBLEU's (shortest-reference brevity penalty,
add-one smoothing from the bigrams on), as its ``signature()`` says.
"""

from __future__ import annotations

import os

from .compute import NAMES

__all__ = ["NAMES", "Module", "load", "path"]

_HERE = os.path.dirname(os.path.realpath(__file__))


def _check_name(name) -> str:
    if not isinstance(name, str):
        raise TypeError(f"name must be a module name string, got {type(name).__name__}")
    if name not in NAMES:
        raise ValueError(f"unknown module {name!r}; bleuscope has: {', '.join(NAMES)}")
    return name


def path(name: str) -> str:
    """The folder of bleuscope's module ``name``, for ``evaluate.load(path(name))`` (a local folder: no Hub)."""
    folder = os.path.join(_HERE, _check_name(name))
    script = os.path.join(folder, f"{name}.py")
    if not os.path.isfile(script):
        raise FileNotFoundError(f"{script}: the module file is missing from this installation")
    return folder


def _evaluate_seed() -> int:
    """The seed ``evaluate`` gives a module built without one: a word of numpy's global random state."""
    import numpy as np

    mt = np.random.get_state(legacy=False)["state"]
    keys, pos = mt["key"], mt["pos"]
    return int(keys[pos] if pos < 624 else keys[0])


class Module:
    """One metric, as ``evaluate.load(name)`` gives it, without ``evaluate``: ``compute(predictions=...,
    references=..., **kwargs)``. ``seed`` (as ``evaluate.load``'s): numpy's global random state is seeded with it
    during ``compute`` and restored after (only ``rouge``'s bootstrap draws from it); None, as in ``evaluate``:
    a word of numpy's global state at the time the module is built."""

    def __init__(self, name: str, seed: int | None = None) -> None:
        from .compute import COMPUTE

        self.name = _check_name(name)
        if name not in COMPUTE:
            raise NotImplementedError(f"the {name} module needs a metric this bleuscope does not have yet")
        self._compute = COMPUTE[name]
        self.seed = seed if seed is not None else (_evaluate_seed() if name == "rouge" else 0)

    def __repr__(self) -> str:
        return f"bleuscope.integrations.hf_evaluate.Module({self.name!r})"

    def compute(self, *, predictions=None, references=None, **kwargs):
        """The script's result for these predictions and references (``kwargs``: the script's options)."""
        from .compute import check_inputs

        preds, refs = check_inputs(self.name, predictions, references)
        if self.name != "rouge":
            return self._compute(preds, refs, **kwargs)
        import numpy as np

        state = np.random.get_state()
        np.random.seed(self.seed)
        try:
            return self._compute(preds, refs, **kwargs)
        finally:
            np.random.set_state(state)

    def signature(self, **kwargs) -> str:
        """What this module computes with these options, in bleuscope's signature form."""
        from .compute import signature

        return signature(self.name, **kwargs)


def load(name: str, *, seed: int | None = None) -> Module:
    """bleuscope's module ``name`` without ``evaluate``: ``load("sacrebleu").compute(predictions=...,
    references=...)`` returns what ``evaluate.load("sacrebleu")`` returns.

    >>> load("chrf").compute(predictions=["the cat sat"], references=[["the cat sat"]])["score"]
    100.0
    """
    return Module(name, seed=seed)

