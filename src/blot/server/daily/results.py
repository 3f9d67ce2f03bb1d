"""The day's deals scored against the field (issue 45): the sets offered today with the asker's
progress, a set's results (the ranking, each deal's traveller and par) as the asker may see them,
and a person's history and streak for the profile.

**The field.** On each deal, a person's score from the day's seat is compared with the score of
every other person who finished the set and with the par (the bots' own result from that seat):
2 matchpoints per score beaten, 1 per tie, as a percentage; the day's ranking is the mean
percentage over the deals (ties broken by the total of the scores). The par is ranked nowhere
but shows its own percentage against the people. A guest plays and is ranked by name for the
day; the history and the streak (consecutive days with a finished set, up to today or yesterday)
are an account's.

A set finished after its day is over (when everything of the day was open) does not count.

**Secret until played.** The asker sees a deal's traveller once they finished that deal, the
ranking once they finished the set, everything (and the seed) once the day is over.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy.engine import Connection

from blot.games import GameSpec, spec
from blot.server.daily import deals
from blot.server.errors import Refused
from blot.server.table import FINISHED
from blot.store import daily as rows

if TYPE_CHECKING:
    from blot.server.hub import Hub


class Daily(Protocol):
    """What the scoring needs of the day's deals (:class:`blot.server.daily.Daily`), typed here
    so that the package and its scoring do not import each other."""

    hub: Hub
    config: Any

    def offered(self) -> list[tuple[GameSpec, str]]: ...
    def choose(self, game: str, ruleset: Any) -> tuple[GameSpec, str]: ...
    def today(self) -> date: ...
    def is_over(self, day: str) -> bool: ...
    async def the_set(self, day: str, game: GameSpec, ruleset: str) -> dict[str, Any]: ...
    async def par(self, the_set: Mapping[str, Any]) -> list[dict[str, Any]]: ...


#: The days a profile's history shows at most.
HISTORY = 30


async def settle(daily: Daily, day: str, game: GameSpec, ruleset: str) -> list[dict[str, Any]]:
    """The set's plays, those whose table finished since scored and kept; answers them all."""
    hub = daily.hub
    plays = await hub.read(lambda c: rows.plays(c, day, game.name, ruleset))
    open_ids = [str(p["table_id"]) for p in plays if not p["finished"]]
    if not open_ids:
        return plays
    states = await hub.read(lambda c: rows.table_states(c, open_ids))
    the_set = await hub.read(lambda c: rows.the_set(c, day, game.name, ruleset))
    assert the_set is not None
    at = hub.now()
    end = deals.ends(date.fromisoformat(day), daily.config.daily_zone)
    for p in plays:
        state = states.get(str(p["table_id"]))
        if p["finished"] or state is None or state["status"] != FINISHED or state["record"] is None:
            continue
        done = p["finished_at"] or at  # when its game ended, by the server's clock
        if (done if done.tzinfo else done.replace(tzinfo=UTC)) >= end:
            continue  # finished after the day, when its deals were open to all: it does not count
        results = game.replay(state["record"]).game.result.deals
        scores = deals.deal_scores(game, results, int(the_set["seat"]), int(the_set["deals"]))
        await hub.write(_finisher(day, game.name, ruleset, int(p["player_id"]), scores, done))
        p.update(finished=True, scores=scores, finished_at=done)
    return plays


def _finisher(
    day: str, game: str, ruleset: str, player: int, scores: list[dict[str, Any]], at: datetime
) -> Callable[[Connection], None]:
    """The write that keeps a finished play's scores."""
    return lambda c: rows.finish_play(c, day, game, ruleset, player, scores, at)


async def done_deals(daily: Daily, play: Mapping[str, Any] | None, n: int) -> int:
    """How many of the set's deals a person has finished: exactly from their table when this
    process holds it, else as :mod:`blot.server.secrecy` counts them from the stored log (a
    game of counted deals: one fewer while it is played, never more)."""
    if play is None:
        return 0
    if play["finished"]:
        return n
    table_id = str(play["table_id"])
    table = daily.hub.registry.live.get(table_id)
    if table is not None and table.status == "playing":
        game = table.spec
        counted = [r for r in table.game.result.deals if not (deals.spares(game) and r.void)]
        return min(n, len(counted))
    from blot.server import secrecy

    found = await daily.hub.read(lambda c: secrecy.of_table(c, table_id))
    return 0 if found is None else min(n, found.visible(int(play["player_id"])))


async def today(daily: Daily, player: int | None) -> dict[str, Any]:
    """``GET /api/daily``: today's sets with the asker's progress."""
    day = daily.today()
    sets = []
    for game, ruleset in daily.offered():
        the_set = await daily.the_set(day.isoformat(), game, ruleset)
        plays = await settle(daily, day.isoformat(), game, ruleset)
        mine = next((p for p in plays if player is not None and int(p["player_id"]) == player), None)
        status = "new" if mine is None else "finished" if mine["finished"] else "playing"
        sets.append(
            {
                "game": game.name,
                "ruleset": ruleset,
                "deals": int(the_set["deals"]),
                "seat": int(the_set["seat"]),
                "bots": str(the_set["bots"]),
                "status": status,
                "table": None if mine is None else str(mine["table_id"]),
                "field": sum(1 for p in plays if p["finished"]),
            }
        )
    zone = daily.config.daily_zone
    return {"day": day.isoformat(), "zone": zone, "ends": deals.ends(day, zone).isoformat(), "sets": sets}


def _ranking(
    finished: Sequence[Mapping[str, Any]], par: Sequence[Mapping[str, Any]]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The day's ranking of the people who finished the set, and the par's line."""
    scores = {int(p["player_id"]): [int(d["score"]) for d in p["scores"] or []] for p in finished}
    par_scores = [int(d["score"]) for d in par]
    percents = deals.field_percents(scores, par_scores)
    lines: list[dict[str, Any]] = []
    for p in finished:
        key = int(p["player_id"])
        lines.append(
            {
                "player": key,
                "name": str(p["name"]),
                "guest": bool(p["guest"]),
                "percent": round(percents.get(key, 50.0), 2),
                "total": sum(scores[key]),
                "deals": len(scores[key]),
            }
        )
    lines.sort(key=lambda r: (-r["percent"], -r["total"], r["name"]))
    for i, line in enumerate(lines):
        same = i and (line["percent"], line["total"]) == (lines[i - 1]["percent"], lines[i - 1]["total"])
        line["rank"] = lines[i - 1]["rank"] if same else i + 1
    par_line = {"percent": round(percents.get(None, 50.0), 2), "total": sum(par_scores)}
    return lines, par_line


def _traveller(
    k: int, finished: Sequence[Mapping[str, Any]], par: Sequence[Mapping[str, Any]]
) -> dict[str, Any]:
    """Deal ``k`` (from 0) as everybody who finished the set played it, and the par."""
    entries = [(p, p["scores"][k]) for p in finished if k < len(p["scores"] or [])]
    par_deal = par[k] if k < len(par) else None
    column = sorted([int(d["score"]) for _, d in entries] + ([int(par_deal["score"])] if par_deal else []))
    traveller = []
    for p, d in entries:
        table = str(p["table_id"])
        traveller.append(
            {
                "name": str(p["name"]),
                "result": d["result"],
                "score": int(d["score"]),
                "percent": deals.percent_in(column, int(d["score"])),
                "table": table,
                "replay": f"/api/tables/{table}/replay",
            }
        )
    traveller.sort(key=lambda t: -t["score"])
    out: dict[str, Any] = {"number": k + 1, "traveller": traveller, "par": None}
    if par_deal is not None:
        out["par"] = {
            "result": par_deal["result"],
            "score": int(par_deal["score"]),
            "percent": deals.percent_in(column, int(par_deal["score"])),
        }
    return out


def _day(text: str | None, daily: Daily) -> str:
    if text in (None, ""):
        return daily.today().isoformat()
    try:
        day = date.fromisoformat(str(text))
    except ValueError:
        raise Refused("malformed", "daily_day") from None
    if day > daily.today():
        raise Refused("malformed", "daily_day")
    return day.isoformat()


async def results(
    daily: Daily, player: int | None, game_name: str, ruleset: str | None, day_text: str | None
) -> dict[str, Any]:
    """``GET /api/daily/{game}/results``: what the asker may see of a day's set."""
    game, ruleset = daily.choose(game_name, ruleset)
    day = _day(day_text, daily)
    the_set = await daily.hub.read(lambda c: rows.the_set(c, day, game.name, ruleset))
    if the_set is None:  # made today by the first request; a past day without one had none
        if day != daily.today().isoformat():
            raise Refused("not_found", "daily_no_set", game=game.name, day=day)
        the_set = await daily.the_set(day, game, ruleset)
    n = int(the_set["deals"])
    plays = await settle(daily, day, game, ruleset)
    finished = [p for p in plays if p["finished"]]
    mine = next((p for p in plays if player is not None and int(p["player_id"]) == player), None)
    over = daily.is_over(day)
    seen = n if over else await done_deals(daily, mine, n)
    par = await daily.par(the_set) if seen else []
    out: dict[str, Any] = {
        "day": day,
        "game": game.name,
        "ruleset": ruleset,
        "deals_in_set": n,
        "seat": int(the_set["seat"]),
        "field": len(finished),
        "over": over,
        "seed": str(the_set["seed"]) if over else None,
        "ranking": [],
        "par": None,
        "secret": seen < n,
        "table": None if mine is None else str(mine["table_id"]),
    }
    if seen >= n:
        ranking, par_line = _ranking(finished, par)
        for line in ranking:
            line["you"] = line.pop("player") == player
        out.update(ranking=ranking, par=par_line)
    out["deals"] = [
        _traveller(k, finished, par) | _own(mine) if k < seen else {"number": k + 1, "secret": True}
        for k in range(n)
    ]
    return out


def _own(mine: Mapping[str, Any] | None) -> dict[str, Any]:
    """The asker's own table of a deal: its replay and analysis."""
    if mine is None:
        return {"table": None, "replay": None, "analysis": None}
    table = str(mine["table_id"])
    return {
        "table": table,
        "replay": f"/api/tables/{table}/replay",
        "analysis": f"/api/tables/{table}/analysis",
    }


async def profile(daily: Daily, player: int) -> dict[str, Any]:
    """A person's history of finished sets (days that are over: a day still running would tell
    others how its deals went) and their streak."""
    mine = await daily.hub.read(lambda c: rows.plays_of_player(c, player))
    for p in [p for p in mine if not p["finished"]]:  # a table finished since: scored now
        settled = await settle(daily, str(p["day"]), spec(str(p["game"])), str(p["ruleset"]))
        p.update(next(s for s in settled if int(s["player_id"]) == player))
    days = {str(p["day"]) for p in mine if p["finished"]}
    today = daily.today()
    start = today if today.isoformat() in days else today - timedelta(days=1)
    streak = 0
    while (start - timedelta(days=streak)).isoformat() in days:
        streak += 1
    history: list[dict[str, Any]] = []
    for p in mine:
        if not p["finished"] or not daily.is_over(str(p["day"])):
            continue
        if len(history) >= HISTORY:
            break
        game = spec(str(p["game"]))
        found = await results(daily, player, game.name, str(p["ruleset"]), str(p["day"]))
        line = next((r for r in found["ranking"] if r["you"]), None)
        history.append(
            {
                "day": p["day"],
                "game": game.name,
                "ruleset": p["ruleset"],
                "percent": None if line is None else line["percent"],
                "rank": None if line is None else line["rank"],
                "field": found["field"],
            }
        )
    return {"streak": streak, "history": history}
