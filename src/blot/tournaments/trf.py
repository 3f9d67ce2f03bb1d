"""An event as FIDE's Tournament Report File (TRF-2016, the "001" player lines): the format every
pairing program and lichess exchange Swiss events in (issue 42 item 4). Pure: no I/O.

The mapping (docs/operators.md, "TRF"):

- one TRF *player* per entry: a pair is one line, named "A / B" (a 3-5-8 player would be one too,
  but a TRF game has two sides, so only Bazar Blot events are written); its *ID* field is blot's
  entry id, its rating blank (blot's ratings are not FIDE's);
- a game's result is the win or the loss (``1`` / ``0``; a forfeit ``+`` / ``-``; not played yet:
  blank), the first pair of the table (team 0) playing *white*; a bye ``0000 - U`` (a pairing-
  allocated bye, 1 point as in blot), a round an entry sat out ``0000 - Z``;
- the *points* column is blot's match points (B-71: a Rubicon win counts 2, so it may be more
  than the wins a TRF reader counts), the *rank* column blot's rank;
- blot's exact values travel in extension lines a TRF reader skips: ``XXR`` the number of rounds
  (as JaVaFo and bbpPairings read it), one ``XXG round table white black points points score
  score`` per game, ``XXL player score`` a late entry's starting score and ``XXW player [why]`` a
  withdrawn (or barred) entry, so that :func:`read` gives back the same standings.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from blot.errors import BlotError
from blot.games import spec
from blot.tournaments.standings import Entrant, Game, Round, export_parts, standings

#: The formats a TRF holds, as its "092" line names them.
TYPES = {"swiss": "Swiss system", "round_robin": "Round robin"}


@dataclass(frozen=True)
class Report:
    """A TRF read back: the event's name, format, entrants (their ids blot's when it wrote them)
    and rounds, as :func:`blot.tournaments.standings.standings` takes them."""

    name: str
    format: str
    entrants: list[Entrant]
    rounds: list[Round]


def write(data: Mapping[str, Any]) -> str:
    """The TRF of an event's answer (``GET /api/events/{id}``'s JSON, as its viewer may see it);
    :class:`BlotError` keyed ``trf_formats`` for a duplicate event or a game of more than two sides
    (3-5-8)."""
    fmt = str(data.get("format", "swiss"))
    if fmt not in TYPES or len(spec(str(data.get("game", "bazar-blot"))).teams) != 2:
        raise BlotError("trf_formats")
    confirmed = {**data, "entries": [e for e in data.get("entries") or [] if e.get("confirmed", True)]}
    entrants, rounds, _ = export_parts(confirmed)
    table = {s.entry: s for s in standings(entrants, rounds, fmt)}
    start = {e.id: i for i, e in enumerate(entrants, 1)}
    total = data.get("rounds_total") or len(rounds)
    lines = [
        f"012 {_field(str(data.get('name', 'event')), 80)}",
        f"042 {str(data.get('created_at') or '')[:10].replace('-', '/')}",
        f"062 {len(entrants)}",
        f"092 {TYPES[fmt]} (Bazar Blot pairs, blot)",
        f"XXR {total}",
    ]
    for e in entrants:
        s = table[e.id]
        line = (
            f"001 {start[e.id]:>4}   {'':>2} {_field(e.name, 33):<33} {'':>4} {'':<3} {e.id:>11} "
            f"{'':>10} {s.points:>4.1f} {s.rank:>4}"
        )
        line += "".join(f"  {_cell(e.id, r, start)}" for r in rounds)
        lines.append(line)
    for e in entrants:  # what a TRF has no field for: a late entry's start, a withdrawal, a bar
        if e.start:
            lines.append(f"XXL {start[e.id]} {e.start:g}")
        if e.withdrawn or e.barred:
            lines.append(f"XXW {start[e.id]} {_field(e.barred or '', 80)}".rstrip())
    for r in rounds:
        for number, g in enumerate(r.games, 1):
            if len(g.entries) != 2 or any(x not in start for x in g.entries):
                continue
            points = g.points or ("-", "-")
            score = g.score or ("-", "-")
            lines.append(
                f"XXG {r.number} {number} {start[g.entries[0]]} {start[g.entries[1]]} "
                f"{points[0]} {points[1]} {score[0]} {score[1]}"
            )
    return "\n".join(lines) + "\n"


def _field(text: str, width: int) -> str:
    """A name cut to its TRF column (one line, no control characters)."""
    return "".join(ch if ch.isprintable() else " " for ch in text)[:width]


def _cell(entry: int, r: Round, start: Mapping[int, int]) -> str:
    """An entry's round in its player line: opponent, colour, result."""
    if entry in r.byes:
        return "0000 - U"
    for g in r.games:
        if entry not in g.entries or len(g.entries) != 2:
            continue
        i = g.entries.index(entry)
        other = g.entries[1 - i]
        colour = "w" if i == 0 else "b"
        if g.points is None:
            return f"{start.get(other, 0):>4} {colour}  "
        won = g.points[i] > g.points[1 - i]
        drawn = g.points[i] == g.points[1 - i]
        forfeit = g.score is None and not g.boards
        result = "=" if drawn else ("+" if won else "-") if forfeit else ("1" if won else "0")
        return f"{start.get(other, 0):>4} {colour} {result}"
    return "0000 - Z"


def read(text: str) -> Report:
    """A TRF read back (blot's own, or any TRF-2016 of two-sided games): the standings of
    :func:`blot.tournaments.standings.standings` from it equal blot's when blot wrote it (its
    ``XXG`` lines); a foreign TRF's wins count 1. :class:`BlotError` when it is no TRF."""
    name, fmt = "event", "swiss"
    players: list[tuple[int, Entrant, list[str]]] = []
    extra: dict[tuple[int, int, int], tuple[tuple[int, int] | None, tuple[int, int] | None]] = {}
    late: dict[int, float] = {}
    gone: dict[int, str | None] = {}
    for raw in text.splitlines():
        if raw.startswith("012 "):
            name = raw[4:].strip() or name
        elif raw.startswith("092 ") and raw[4:].strip().lower().startswith("round robin"):
            fmt = "round_robin"
        elif raw.startswith("001 "):
            players.append(_player(raw))
        elif raw.startswith("XXL ") and len(raw.split()) == 3:
            late[int(raw.split()[1])] = float(raw.split()[2])
        elif raw.startswith("XXW "):
            parts = raw.split(maxsplit=2)
            gone[int(parts[1])] = parts[2] if len(parts) > 2 else None
        elif raw.startswith("XXG "):
            parts = raw.split()[1:]
            if len(parts) == 8:
                key = (int(parts[0]), int(parts[2]), int(parts[3]))
                extra[key] = (_two(parts[4:6]), _two(parts[6:8]))
    if not players:
        raise BlotError("trf_no_players")
    entrants = [
        replace(e, withdrawn=start in gone, barred=gone.get(start), start=late.get(start, 0.0))
        for start, e, _ in players
    ]
    return Report(name, fmt, entrants, _rounds(players, extra))


def _player(line: str) -> tuple[int, Entrant, list[str]]:
    try:
        start = int(line[4:8])
        ident = line[57:68].strip()
        name = line[14:47].strip()
    except ValueError:
        raise BlotError("trf_bad_line", line=line[:20]) from None
    cells = []
    rest = line[91:]
    while len(rest.rstrip()) >= 6:
        cells.append(rest[:8].ljust(8))
        rest = rest[10:]
    return start, Entrant(int(ident) if ident.isdigit() else start, name), cells


def _two(parts: Sequence[str]) -> tuple[int, int] | None:
    return None if "-" in parts else (int(parts[0]), int(parts[1]))


#: What a result code scores for the one it is written for (a foreign TRF: a win 1, a loss 0).
_POINTS = {"1": 1, "+": 1, "W": 1, "0": 0, "-": 0, "L": 0, "=": 0, "D": 0}


def _rounds(
    players: Sequence[tuple[int, Entrant, list[str]]],
    extra: Mapping[tuple[int, int, int], tuple[tuple[int, int] | None, tuple[int, int] | None]],
) -> list[Round]:
    ids = {start: e.id for start, e, _ in players}
    count = max((len(cells) for _, _, cells in players), default=0)
    out = []
    for n in range(1, count + 1):
        games, byes = [], []
        for start, e, cells in players:
            if n > len(cells):
                continue
            cell = cells[n - 1]
            other, colour, result = cell[:4].strip(), cell[5], cell[7]
            if other in ("", "0", "0000"):
                if result.upper() in ("U", "F"):
                    byes.append(e.id)
                continue
            if colour.lower() != "w" or int(other) not in ids:
                continue  # each game once: from its white side
            black = int(other)
            points: tuple[int, ...] | None = None
            score: tuple[int, ...] | None = None
            if result in _POINTS:
                mine = _POINTS[result]
                points = (mine, 1 - mine if result not in "=D" else 0)
            found = extra.get((n, start, black))
            if found is not None:
                points = found[0] if found[0] is not None else points
                score = found[1]
            games.append(Game(n, (e.id, ids[black]), points, score))
        out.append(Round(n, tuple(games), tuple(byes)))
    return out


def standings_of(text: str) -> list[dict[str, Any]]:
    """The standings of a TRF, as blot ranks them (``blot event standings FILE.trf``)."""
    report = read(text)
    return [s.to_json() for s in standings(report.entrants, report.rounds, report.format)]
