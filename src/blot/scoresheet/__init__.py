"""The score sheet (Davtar) for Bazar Blot games played with real cards."""

from pathlib import Path

from blot.reasons import register
from blot.scoresheet.model import Entry, Line, ScoreSheet, SheetError, Standing, compute, parse_entry

__all__ = ["Entry", "Line", "ScoreSheet", "SheetError", "Standing", "compute", "parse_entry"]

register(Path(__file__).with_name("reasons.json"))  # its refusals' sentences (blot.reasons)
