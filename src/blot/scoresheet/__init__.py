"""The score sheet (Davtar) for Bazar Blot games played with real cards."""

from blot.scoresheet.model import Entry, Line, ScoreSheet, SheetError, Standing, compute, parse_entry

__all__ = ["Entry", "Line", "ScoreSheet", "SheetError", "Standing", "compute", "parse_entry"]
