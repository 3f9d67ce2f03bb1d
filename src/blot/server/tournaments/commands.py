"""A League tournament's commands: creating one, entries (entering, confirming, withdrawing),
organizers, and who may keep a tournament table's score sheet."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from blot.errors import BlotError
from blot.games import GameSpec, spec
from blot.games import names as game_names
from blot.server.errors import Refused
from blot.server.openings import TIMER_LIMIT
from blot.server.services import Storage
from blot.server.table import RATED_TIMER
from blot.server.tournaments.state import (
    DEAL_LIMIT,
    ENTRY_LIMIT,
    FORFEIT_SECONDS,
    FORMATS,
    LEFT_UNFINISHED,
    NAME_LIMIT,
    ROUND_LIMIT,
    TournamentState,
    _aware,
    _clean_text,
    _flag,
    _insert_within_limit,
    _schedule_of,
    _whole,
)
from blot.server.tournaments.views import TournamentViews
from blot.store import accounts as account_rows
from blot.store import tournaments as rows


class TournamentCommands:
    """What an organizer or an entrant asks of a tournament, each one transaction of the writer."""

    def __init__(self, storage: Storage, views: TournamentViews) -> None:
        self.storage = storage
        self.config = storage.config
        self.views = views

    # --- creating -------------------------------------------------------------------------------

    async def create(self, player: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """A new event; its creator is its organizer (an account), who creates at most
        ``public_events_per_day`` public ones in 24 hours unless an administrator (issue 38 item 7)."""
        username = await self._username(player)
        if username is None:
            raise Refused("forbidden", "event_accounts_only")
        at = self.storage.now()
        name, game, fmt, settings, public = validated(body, at)
        event_id = secrets.token_urlsafe(9)
        row = {
            "id": event_id,
            "name": name,
            "game": game.name,
            "format": fmt,
            "settings": settings,
            "public": public,
            "status": "registration",
            "created_by": player,
            "created_at": at,
            "updated_at": at,
        }
        limit = None if not public or self._admin(username) else self.config.public_events_per_day
        await self.storage.write(lambda c: _insert_within_limit(c, row, player, limit))
        return self.views.to_json(await self.views.load(event_id), player)

    def _admin(self, username: str) -> bool:
        """Whether the account is one of the server's administrators (``blot serve --admin``)."""
        from blot.accounts import username_key

        return username_key(username) in {username_key(name) for name in self.config.admins}

    async def _username(self, player: int) -> str | None:
        def read(c: Connection) -> str | None:
            found = account_rows.by_id(c, player)
            return None if found is None or found.disabled else found.username

        return await self.storage.read(read)

    # --- entries --------------------------------------------------------------------------------

    async def enter(self, player: int, event_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """An entry: ``{"usernames": [...]}`` (a team's accounts: a pair, or one account; the
        requester among them, or the organizer) or ``{"bot": LEVEL}`` (the organizer)."""
        state = await self.views.load(event_id)
        organizer = player in state.organizers
        late = bool(state.rounds)
        self._check_open(state, organizer)
        score = _late_score(body, state, organizer)
        at = self.storage.now()
        if "bot" in body:
            return await self._enter_bot(state, player, body.get("bot"), late, at, score)
        accounts = await self._accounts_of(state, body.get("usernames"), player, organizer)
        await self._check_bars(state, [a.id for a in accounts], at)
        entry_name = " & ".join(a.username for a in accounts)

        def write(c: Connection) -> int:
            state.unchanged(c)  # late or not, as decided
            self._closed_at_start(state, organizer)  # on the clock of this locked write (item 6)
            referees = rows.referees(c, state.id)  # under the lock that assigning one takes too
            row = rows.event_row(c, state.id)
            referees |= {int(p) for p in (row or {}).get("settings", {}).get("referee_pool") or []}
            for account in accounts:
                if account.id in referees:
                    raise Refused("conflict", "referee_cannot_play", name=account.username)
            entry = rows.insert_entry(c, state.id, entry_name, None, late, at)
            for position, account in enumerate(accounts):
                rows.insert_member(
                    c, state.id, account.id, entry, position, organizer or account.id == player
                )
            if score is not None:
                _keep_late_score(c, state, entry, score, at)
            rows.touch(c, state.id, at)
            return entry

        try:
            await self.storage.write(write)
        except IntegrityError:
            taken = await self.storage.read(
                lambda c: {m["player"] for e in rows.entries(c, state.id) for m in e["members"]}
            )
            who = next((a.username for a in accounts if a.id in taken), accounts[0].username)
            raise Refused("conflict", "already_entered", name=who) from None
        return self.views.to_json(await self.views.load(event_id), player)

    def _closed_at_start(self, state: TournamentState, organizer: bool) -> None:
        """Issue 42 item 6: registration closes at the deadline or, with a schedule, at round 1's
        start time, read on the server's clock inside the write that locks the event: an entry
        and a scheduled start never race (the organizer may still enter anybody before round 1)."""
        if organizer or state.rounds:
            return
        now = self.storage.now()
        deadline = state.settings.get("deadline")
        if deadline is not None and now > _aware(datetime.fromisoformat(deadline)):
            raise Refused("conflict", "deadline_passed")
        schedule = state.settings.get("schedule") or []
        if schedule and now >= _aware(datetime.fromisoformat(schedule[0])):
            raise Refused("conflict", "registration_closed_start")

    def _check_open(self, state: TournamentState, organizer: bool) -> None:
        """Registration is open: before the first round (a late entry only by the organizer, in
        the first half of a Swiss), before the deadline (but for the organizer), within the limit."""
        late = bool(state.rounds)
        if late:
            if not organizer:
                raise Refused(
                    "conflict",
                    "registration_closed_late",
                )
            if state.format == "round_robin":
                raise Refused("conflict", "round_robin_no_late")
            if len(state.rounds) * 2 > state.total_rounds():
                raise Refused("conflict", "late_half_rounds")
        deadline = state.settings.get("deadline")
        if (
            deadline is not None
            and not organizer
            and self.storage.now() > _aware(datetime.fromisoformat(deadline))
        ):
            raise Refused("conflict", "deadline_passed")
        if sum(1 for e in state.entries if e["withdrawn_at"] is None) >= ENTRY_LIMIT:
            raise Refused("conflict", "event_entry_limit", n=ENTRY_LIMIT)

    async def _accounts_of(
        self, state: TournamentState, names: Any, player: int, organizer: bool
    ) -> list[Any]:
        """The entry's accounts from the usernames typed (the requester among them unless the
        organizer enters them)."""
        need = len(state.game.teams[0])
        if not isinstance(names, list) or not all(isinstance(n, str) for n in names) or len(names) != need:
            title = state.game.title
            raise Refused(
                "malformed",
                "entry_pair_form" if state.game.pairs else "entry_one_form",
                "usernames",
                game=title,
            )
        from blot.accounts import username_key

        keys = [username_key(n) for n in names]
        if len(set(keys)) != len(keys):
            raise Refused("malformed", "pair_twice", "usernames", name=names[0])

        def find(c: Connection) -> list[Any]:
            return [account_rows.find(c, k) for k in keys]

        accounts = await self.storage.read(find)
        for typed, found in zip(names, accounts, strict=True):
            if found is None or found.disabled:
                raise Refused("not_found", "no_such_account", "usernames", name=typed)
        ids = [a.id for a in accounts]
        if not organizer and player not in ids:
            raise Refused("forbidden", "enter_yourself")
        return accounts

    async def _enter_bot(
        self, state: TournamentState, player: int, level: Any, late: bool, at: datetime, score: float | None
    ) -> dict[str, Any]:
        if player not in state.organizers:
            raise Refused("forbidden", "bot_entrants_organizer")
        if not state.settings.get("online"):
            raise Refused("conflict", "bot_entrants_online")
        if not isinstance(level, str) or level not in state.game.bots:
            raise Refused("malformed", "bot_entrant_level", "bot", levels=", ".join(state.game.bot_names()))
        if state.settings.get("rated"):
            from blot.server.seats import check_rated_level

            check_rated_level(state.game, level)
        count = sum(1 for e in state.entries if e["bot"] is not None) + 1
        name = f"bot ({level}) {count}"

        def write(c: Connection) -> None:
            state.unchanged(c)
            entry = rows.insert_entry(c, state.id, name, level, late, at)
            if score is not None:
                _keep_late_score(c, state, entry, score, at)
            rows.touch(c, state.id, at)

        await self.storage.write(write)
        return self.views.to_json(await self.views.load(state.id), player)

    async def _check_bars(self, state: TournamentState, ids: Sequence[int], at: datetime) -> None:
        """L-3, L-10: an account barred by a dishonour may not enter, nor (``--league``) a pair
        barred by a tars kapoot; the refusal names the kind of event it is kept out of (issue 42
        item 7: rated online, online, or over the board)."""
        from blot import league

        tars = self.config.league
        found = await self.storage.read(lambda c: league.entry_bar(c, list(ids), at, tars=tars))
        if found is not None:
            from blot.server.conduct import bar_refusal

            why = bar_refusal(found)
            if not state.settings.get("online"):
                raise Refused("forbidden", "entry_barred_board", bar=why)
            if state.settings.get("rated"):
                raise Refused("forbidden", "entry_barred_rated", bar=why)
            raise Refused("forbidden", "entry_barred_online", bar=why)

    async def confirm(self, player: int, event_id: str, entry: int) -> dict[str, Any]:
        state = await self.views.load(event_id)
        if state.rounds and player not in state.organizers:
            raise Refused("conflict", "registration_closed")

        def write(c: Connection) -> bool:
            state.unchanged(c)
            return rows.confirm(c, state.id, entry, player)

        if not await self.storage.write(write):
            raise Refused("forbidden", "entry_confirm_own")
        return self.views.to_json(await self.views.load(event_id), player)

    async def withdraw(self, player: int, event_id: str, entry: int) -> dict[str, Any]:
        state = await self.views.load(event_id)
        found = next((e for e in state.entries if int(e["id"]) == entry), None)
        if found is None:
            raise Refused("not_found", "no_such_entry")
        members = {m["player"] for m in found["members"]}
        if player not in members and player not in state.organizers:
            raise Refused("forbidden", "entry_withdraw_who")
        if found["withdrawn_at"] is not None:
            raise Refused("conflict", "entry_withdrawn")
        if state.status() == "finished":  # issue 42 item 7: the standings are final
            raise Refused("conflict", "event_over_withdraw")
        at = self.storage.now()
        played = any(entry in t["entries"] for t in state.tables) or any(
            entry in r["byes"] for r in state.rounds
        )

        def write(c: Connection) -> None:
            state.unchanged(c)  # played or not, as decided
            if played:
                rows.withdraw(c, entry, at)
            else:
                rows.delete_unconfirmed(c, entry)
            rows.touch(c, state.id, at)

        await self.storage.write(write)
        return self.views.to_json(await self.views.load(event_id), player)

    async def add_organizer(self, player: int, event_id: str, body: Mapping[str, Any]) -> dict[str, Any]:
        state = await self.views.load(event_id)
        if player not in state.organizers:
            raise Refused("forbidden", "organizer_adds")
        return await self._add_organizer(state, body.get("username"), player)

    async def _add_organizer(self, state: TournamentState, username: Any, viewer: int) -> dict[str, Any]:
        from blot.accounts import username_key

        if not isinstance(username, str):
            raise Refused("malformed", "username_needed", "username")
        found = await self.storage.read(lambda c: account_rows.find(c, username_key(username)))
        if found is None:
            raise Refused("not_found", "no_such_account", name=username)
        await self.storage.write(lambda c: rows.add_organizer(c, state.id, found.id))
        return self.views.to_json(await self.views.load(state.id), viewer)

    async def check_sheet_keeper(self, sheet_id: str, player: int | None) -> None:
        """A score sheet that is a tournament's table is edited by its referee and the tournament's
        organizers only (a referee who stepped down no longer can, L-8), and not while its game
        is left unfinished (L-2: the referee announces that it is reopened first)."""
        found = await self.storage.read(lambda c: rows.sheet_keeping(c, sheet_id))
        if found is None:
            return
        keepers, left, playing = found
        if player is not None and player in playing:
            raise Refused(
                "forbidden",
                "own_davtar",
            )
        if player not in keepers:
            raise Refused("forbidden", "davtar_of_event")
        if left:
            raise Refused("conflict", LEFT_UNFINISHED)


def _late_score(body: Mapping[str, Any], state: TournamentState, organizer: bool) -> float | None:
    """A late entry's starting score (issue 42 item 1): ``late_score``, the organizer's, in half
    points from 0 to the match points of a plain win (1) per round played; 0 unless given."""
    if "late_score" not in body:
        return None
    value = body["late_score"]
    played = len(state.rounds)
    if not organizer or not played:
        raise Refused("conflict", "late_score_late_only")
    if type(value) not in (int, float) or not 0 <= value <= played or (value * 2) % 1:
        raise Refused("malformed", "late_score_range", "late_score", n=played)
    return float(value)


def _keep_late_score(c: Connection, state: TournamentState, entry: int, score: float, at: datetime) -> None:
    row = rows.event_row(c, state.id)  # read under the lock
    assert row is not None
    settings = dict(row["settings"])
    settings["late_scores"] = {**(settings.get("late_scores") or {}), str(entry): score}
    rows.set_settings(c, state.id, settings, at)


def validated(
    body: Mapping[str, Any], now: datetime, started: int = 0, deadline_due: bool = True
) -> tuple[str, GameSpec, str, dict[str, Any], bool]:
    """An event's name, game, format, settings and publicity from what an organizer sent (creating
    it, or editing it: :mod:`.desk`), each checked; a start time or deadline in the past is refused
    (issue 42 item 6; the first ``started`` rounds' times are history, and an edit that leaves
    the deadline as it was, ``deadline_due`` false, does not check it again)."""
    name = _clean_text(body.get("name"), "name", NAME_LIMIT)
    try:
        game = spec(body.get("game", game_names()[0]))
    except BlotError as e:
        raise Refused.of(e) from None
    fmt = body.get("format", "swiss")
    if fmt not in FORMATS:
        raise Refused("malformed", "event_formats", "format", formats=", ".join(FORMATS))
    if fmt == "duplicate" and not game.duplicate:
        raise Refused("malformed", "event_no_duplicate", "format", game=game.title)
    options = body.get("options")
    if options is not None and not isinstance(options, dict):
        raise Refused("malformed", "options_object", "options")
    try:
        rules = game.rules(body.get("ruleset"), options or None)
    except BlotError as e:
        raise Refused.of(e) from None
    online = _flag(body, "online", True)
    rated = _flag(body, "rated", False)
    public = _flag(body, "public", True)
    if rated and not online:
        raise Refused(
            "malformed",
            "event_rated_online",
            "rated",
        )
    if rated and fmt == "duplicate":
        raise Refused(
            "malformed",
            "event_duplicate_unrated",
            "rated",
        )
    if not online and fmt == "duplicate":
        raise Refused(
            "malformed",
            "event_duplicate_online",
            "format",
        )
    if not online and not game.score_sheet:
        raise Refused("malformed", "event_no_davtar", "online", game=game.title)
    settings = _settings_of(body, rules, fmt, online, rated, now, started, deadline_due)
    return name, game, fmt, settings, public


def _per_round(value: Any, rounds: int) -> dict[str, dict[str, int]]:
    """Each round's own time control (issue 42 item 1): ``{"3": {"timer": 60,
    "forfeit_seconds": 600}}``; a round not named has the event's."""
    if not isinstance(value, dict) or not all(isinstance(v, dict) for v in value.values()):
        raise Refused("malformed", "rounds_settings_form", "rounds_settings", n=rounds)
    out: dict[str, dict[str, int]] = {}
    for key, own in value.items():
        number = int(key) if isinstance(key, str) and key.isdigit() else 0
        if not 1 <= number <= rounds or set(own) - {"timer", "forfeit_seconds"}:
            raise Refused("malformed", "rounds_settings_form", "rounds_settings", n=rounds)
        out[str(number)] = {}
        if "timer" in own:
            out[str(number)]["timer"] = _whole(own, "timer", 0, 0, TIMER_LIMIT)
        if "forfeit_seconds" in own:
            out[str(number)]["forfeit_seconds"] = _whole(own, "forfeit_seconds", FORFEIT_SECONDS, 1, 3600)
    return out


def _settings_of(
    body: Mapping[str, Any],
    rules: Any,
    fmt: str,
    online: bool,
    rated: bool,
    now: datetime,
    started: int,
    deadline_due: bool,
) -> dict[str, Any]:
    """A new tournament's settings from what the organizer sent (each checked, with its default)."""
    settings: dict[str, Any] = {
        "ruleset": rules.ruleset,
        "options": rules.options(),
        "rounds": _whole(body, "rounds", 5, 1, ROUND_LIMIT),
        "online": online,
        "rated": rated,
        "forfeit_seconds": _whole(body, "forfeit_seconds", FORFEIT_SECONDS, 1, 3600),
        "timer": _whole(body, "timer", RATED_TIMER if rated else 0, 0, TIMER_LIMIT),
        # a referee at every table (L-6): by default over the board under the League's rules
        "referees": _flag(body, "referees", not online and rules.ruleset == "league"),
    }
    if rated and not settings["timer"]:
        settings["timer"] = RATED_TIMER
    if fmt == "duplicate":
        settings["deals"] = _whole(body, "deals", 4, 1, DEAL_LIMIT)
    per_round = body.get("rounds_settings")
    if per_round:
        settings["rounds_settings"] = _per_round(per_round, settings["rounds"])
    schedule = body.get("schedule")
    if schedule is not None:
        settings["schedule"] = _schedule_of(schedule, settings["rounds"])
        if any(_aware(datetime.fromisoformat(t)) < now for t in settings["schedule"][started:]):
            raise Refused("malformed", "schedule_past", "schedule")
    deadline = body.get("deadline")
    if deadline is not None:
        try:
            when = datetime.fromisoformat(str(deadline))
        except ValueError:
            raise Refused("malformed", "event_deadline_form", "deadline") from None
        if deadline_due and _aware(when) < now:
            raise Refused("malformed", "deadline_past", "deadline")
        settings["deadline"] = when.isoformat()
        first = (settings.get("schedule") or [None])[0]
        if first is not None and _aware(when) > _aware(datetime.fromisoformat(first)):
            raise Refused("malformed", "deadline_after_start", "deadline")  # registration ends first
    return settings
