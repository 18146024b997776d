"""Scores of any metric read from files (COMET JSON, comet-score output, mtme score files, TSV), as a
metric: :class:`Scores`."""

from .files import check_segment_scores, read_scores_files, read_segment_scores, system_name
from .scorer import Scores, ScoresScore

__all__ = ["Scores", "ScoresScore", "check_segment_scores", "read_scores_files", "read_segment_scores",
           "system_name"]
