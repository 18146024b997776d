"""Analyses on top of per-segment statistics: significance tests and MBR."""
