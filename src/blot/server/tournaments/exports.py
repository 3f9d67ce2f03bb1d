"""A tournament's standings as a spreadsheet's rows (CSV)."""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

#: The tie-breaks in the order the standings apply them.
TIEBREAKS = ("buchholz", "sonneborn_berger", "head_to_head", "difference")


def csv_of(data: Mapping[str, Any]) -> str:
    """The standings of a tournament's answer as CSV (a spreadsheet's rows)."""
    out = io.StringIO()
    # a round robin's head to head is shown only where it decides a tie (issue 42 item 7): the
    # column is there when any standing has it, empty for the others
    seen = [k for st in data["standings"] for k in st["tiebreaks"]]
    keys = sorted(
        set(seen), key=lambda k: (TIEBREAKS.index(k) if k in TIEBREAKS else len(TIEBREAKS), seen.index(k))
    )
    writer = csv.writer(out)
    writer.writerow(["rank", "entry", "name", "points", *keys, "games", "withdrawn"])
    for s in data["standings"]:
        writer.writerow(
            [
                s["rank"],
                s["entry"],
                s["name"],
                s["points"],
                *(s["tiebreaks"].get(k, "") for k in keys),
                s["games"],
                s["withdrawn"],
            ]
        )
    return out.getvalue()


def round_csv(data: Mapping[str, Any], number: int) -> str:
    """One round's pairings and results as CSV (issue 42 item 4): a row per table (its entries in
    seat order, referee, status, result and score as the event's answer gives them; a duplicate
    table's result is each pair's score on the boards), then a row per bye."""
    names = {int(e["id"]): str(e["name"]) for e in data.get("entries") or []}
    found = [r for r in data.get("rounds") or [] if int(r["number"]) == number]
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(
        ["round", "table", "entry_a", "name_a", "entry_b", "name_b", "referee", "status", "result", "score"]
    )
    for r in found:
        for t in r["tables"]:
            entries = [int(e) for e in t["entries"]]
            people = [x for e in entries for x in (e, names.get(e, ""))]
            writer.writerow(
                [
                    number,
                    t["number"],
                    *people,
                    t.get("referee_name") or t.get("referee") or "",
                    t.get("status", ""),
                    _pair(t.get("result")),
                    _pair(t.get("score")),
                ]
            )
        for e in r.get("byes") or []:
            writer.writerow([number, "bye", int(e), names.get(int(e), ""), "", "", "", "bye", "", ""])
    return out.getvalue()


def _pair(values: Any) -> str:
    return "" if not values else "-".join(str(v) for v in values)
