"""``blot event``: events from the terminal. ``blot event standings FILE.json`` prints the
standings of an exported event (``GET /api/events/{id}``'s JSON), recomputed from its rounds by
the same rules as the server (:mod:`blot.tournaments.standings`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from blot.errors import BlotError
from blot.printable import printable

TIEBREAK_TITLES = {
    "buchholz": "Buchholz",
    "sonneborn_berger": "S-B",
    "head_to_head": "H2H",
    "difference": "Diff",
}


def load_export(path: Path) -> dict[str, Any]:
    """The exported event in ``path``; :class:`BlotError` in one sentence when it is not one."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BlotError(f"there is no file {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BlotError(f"{path} cannot be read: {e}") from None
    except ValueError:
        raise BlotError(f"{path} is not JSON") from None
    if (
        not isinstance(data, dict)
        or not isinstance(data.get("rounds"), list)
        or not isinstance(data.get("entries"), list)
    ):
        raise BlotError(f"{path} is not an exported event: it needs entries and rounds (GET /api/events/ID)")
    return data


def print_standings(path: Path, as_json: bool = False) -> None:
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from blot.tournaments.standings import standings_of_export

    if _is_trf(path):
        data, rows = _trf_standings(path)
    else:
        data = load_export(path)
        try:
            rows = standings_of_export(data)
        except (KeyError, TypeError, ValueError) as e:
            raise BlotError(
                f"{path} is not an exported event: a round or an entry is malformed ({e})"
            ) from None
    if as_json:
        print(json.dumps([r.to_json() for r in rows], ensure_ascii=False, indent=2))
        return
    keys = list(rows[0].tiebreaks) if rows else []
    title = printable(str(data.get("name", "event")))
    table = Table(title=Text(f"{title}: {len(data['rounds'])} rounds ({data.get('format', 'swiss')})"))
    # a duplicate event ranks by the percentage of matchpoints (issue 42 item 5)
    points = "percent" if data.get("format") == "duplicate" else "points"
    for column in ("#", "entry", points, *(TIEBREAK_TITLES.get(k, k) for k in keys), "games"):
        table.add_column(column, justify="left" if column == "entry" else "right")
    for r in rows:
        name = printable(r.name) + (" (withdrawn)" if r.withdrawn else "")
        values = [_show(r.tiebreaks[k]) for k in keys]
        table.add_row(str(r.rank), Text(name), _show(r.points), *values, str(r.games))
    Console().print(table)


def _is_trf(path: Path) -> bool:
    """Whether the file is a TRF (its name, or a first line of TRF's: ``012 `` / ``001 ``)."""
    if path.suffix.lower() in (".trf", ".txt"):
        return True
    try:
        with path.open("rb") as f:
            return f.read(4) in (b"012 ", b"001 ")
    except OSError:
        return False


def _trf_standings(path: Path) -> tuple[dict[str, Any], list[Any]]:
    """A TRF's name and format and its standings as blot ranks them (:mod:`blot.tournaments.trf`)."""
    from blot.tournaments import trf
    from blot.tournaments.standings import standings

    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BlotError(f"there is no file {path}") from None
    except (OSError, UnicodeDecodeError) as e:
        raise BlotError(f"{path} cannot be read: {e}") from None
    report = trf.read(text)
    data = {"name": report.name, "format": report.format, "rounds": report.rounds}
    return data, standings(report.entrants, report.rounds, report.format)


def fetch_trf(event: str, server: str, token: str | None, out: Path | None) -> None:
    """``blot event trf``: the event's TRF from a server (``GET /api/events/{id}/trf``), printed
    or written to ``out``."""
    import urllib.parse

    from blot.cli.http import server_text

    text = server_text(server, "GET", f"/api/events/{urllib.parse.quote(event, safe='')}/trf", token)
    if out is None:
        print(text, end="")
    else:
        out.write_text(text, encoding="utf-8")


def _show(value: float) -> str:
    return str(int(value)) if float(value).is_integer() else f"{value:.2f}"
