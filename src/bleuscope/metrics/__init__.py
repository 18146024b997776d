"""Metrics on additive per-segment statistics (see :mod:`bleuscope.metrics.base`)."""
