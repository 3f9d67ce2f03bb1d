"""A tournament's standings as a spreadsheet's rows (CSV)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any


def csv_of(data: Mapping[str, Any]) -> str:
    """The standings of a tournament's answer as CSV (a spreadsheet's rows)."""
    out = io.StringIO()
    keys = list(data["standings"][0]["tiebreaks"]) if data["standings"] else []
    writer = csv.writer(out)
    writer.writerow(["rank", "entry", "name", "points", *keys, "games", "withdrawn"])
    for s in data["standings"]:
        writer.writerow(
            [
                s["rank"],
                s["entry"],
                s["name"],
                s["points"],
                *(s["tiebreaks"][k] for k in keys),
                s["games"],
                s["withdrawn"],
            ]
        )
    return out.getvalue()
