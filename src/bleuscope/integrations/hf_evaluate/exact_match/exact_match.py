"""HF evaluate's ``exact_match`` metric module, computed by bleuscope: ``evaluate.load(<this folder>)``, the official
script's arguments and returned dict (see :mod:`bleuscope.integrations.hf_evaluate`)."""

from bleuscope.integrations.hf_evaluate import evaluate_base as _base


class ExactMatch(_base.BleuscopeMetric):
    module_name = "exact_match"
