"""The referee's console of an event (League rulebook §8–§9, L-4 … L-8): the organizer assigns
a referee to each table (required at every table when the event says so, L-6); over the board the
referee keeps the table's score sheet (the Davtar, edited through the score sheet API with the
sheet's id, which the event page gives the referee and the organizers who do not play there
only), announces the start, the players, breaks, complaints, the end,
the winner or that the game is unfinished (each timestamped, shown on the event page), records
each dispute with its ruling and the penalty entered through B-72, and sends to the Court of
Sages (rules) or the Court of Conduct (conduct) what they cannot decide, **without the players'
names** (L-5): a question that holds any player's username, display name or pair name of the
event, in any spelling (:func:`name_in`), is refused and kept nowhere; a court member sees the
case, never the event or the table, and the event page says only that a question went to a
court and, once applied, its answer. The court's answer is recorded on the case and applied by
the referee. A referee steps down on his own, or when any player at the table raises a conflict
of interest (L-8): the sheet and its history stay, the organizer assigns another, never him
again at that table. Online event tables may have a referee too: he watches as a spectator (no
hidden card), hears disputes, announces, and pauses the table.

Every change is one transaction; nothing is kept in memory."""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Iterable, Mapping
from typing import Any

from sqlalchemy.engine import Connection

from blot.accounts import skeleton
from blot.scoresheet import sheets as sheet_service
from blot.scoresheet.model import SheetError
from blot.server.errors import Refused
from blot.server.tournaments import Tournaments
from blot.server.tournaments.state import LEFT_UNFINISHED, TournamentState, _iso, note_json
from blot.store import accounts as account_rows
from blot.store import courts
from blot.store import tournaments as rows

#: What a referee announces (L-7).
ANNOUNCEMENTS = ("start", "players", "break", "complaint", "end", "winner", "unfinished", "reopened")
COURTS = ("sages", "conduct")
TEXT_LIMIT = 2000
#: The announcements that leave a Davtar's game unfinished or reopen it (an online game is left
#: unfinished by its players' agreement at the table, never announced).
SHEET_ONLY = ("unfinished", "reopened")


def _text(body: Mapping[str, Any], key: str, required: bool = True) -> str:
    value = body.get(key, "")
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise Refused("malformed", "field_needed", key, field=key)
    text = value.strip()
    if len(text) > TEXT_LIMIT:
        raise Refused("malformed", "field_too_long_n", key, field=key, n=TEXT_LIMIT)
    return text


#: A name whose skeleton is shorter than this is looked for only as a word of its own (or two
#: joined); one shorter than :data:`LONG_NAME` only from a word's start; a longer one anywhere.
SHORT_NAME = 3
LONG_NAME = 5


def _runs(text: str) -> list[str]:
    """The text's words: its runs of letters and digits, once invisible (format) characters
    such as zero-width spaces are dropped from it (a ``|`` reads as ``l``)."""
    visible = "".join(ch for ch in text.replace("|", "l") if unicodedata.category(ch) != "Cf")
    return re.findall(r"[^\W_]+", visible)


#: How Armenian and Cyrillic letters are written in Latin ones (a name may be spelled by its sound,
#: not only by letters that look alike: ``Գոհար``, ``Гохар`` for ``gohar``).
_SOUNDS = str.maketrans(
    {
        **dict(zip("абвгдезийклмнопрстуфхыэ", "abvgdeziyklmnoprstufhye", strict=True)),
        "ё": "e", "ж": "zh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch", "ъ": "", "ь": "",
        "ю": "yu", "я": "ya", "є": "ye", "і": "i", "ї": "yi", "ґ": "g",
        **dict(zip("աբգդեզէըթիլկհմյնոպջռսվտրփքօֆ", "abgdezeytilkhmynopjrsvtrpkof", strict=True)),
        "ժ": "zh", "խ": "kh", "ծ": "ts", "ձ": "dz", "ղ": "gh", "ճ": "ch", "շ": "sh", "չ": "ch",
        "ց": "ts", "և": "yev",
    }
)  # fmt: skip


def _spellings(text: str) -> list[str]:
    """The text as written, and as its Armenian and Cyrillic letters sound in Latin ones."""
    sounded = text.lower().replace("ու", "u").translate(_SOUNDS)
    return [text] if sounded == text.lower() else [text, sounded]


def name_in(text: str, names: Mapping[str, Iterable[str]]) -> str | None:
    """The kind of the first name (by kind: ``username``, ``display_name``, ``pair_name``) that
    ``text`` holds in any case, spacing, punctuation, look-alike or zero-width spelling, or None.
    Both sides are compared as skeletons (:func:`blot.accounts.skeleton`) of their letters and
    digits only, so ``p10s``, ``p 09``, ``p-10``, ``P.1.0`` and ``р10`` (a Cyrillic ``р``) all hold
    ``p10``; Armenian and Cyrillic letters count by their look and by their sound (``Գոհար`` and
    ``Гохар`` hold ``gohar``). Short names would be in many innocent words: a name of one or two
    letters counts only as a word of its own or two words joined (``A.L.``), one of three or four
    only from the start of a word (``ani`` refuses ``Ani's`` and ``a.n.i`` but not ``mechanical``), a longer
    one anywhere.

    >>> name_in("Did P.1.0 signal?", {"username": ["p10"]})
    'username'
    >>> name_in("a trump led by the mechanical shuffler", {"username": ["al", "ani"]}) is None
    True
    """
    squashed: list[str] = []
    words: set[str] = set()
    starts: list[str] = []  # from each word's start, enough of the text for a name of LONG_NAME - 1
    for spelling in _spellings(text):
        runs = _runs(spelling)
        squashed.append(skeleton("".join(runs)))
        words |= {skeleton(w) for w in runs} | {skeleton(a + b) for a, b in itertools.pairwise(runs)}
        for i in range(len(runs)):
            taken, j = "", i
            while j < len(runs) and len(taken) < 2 * LONG_NAME:
                taken += runs[j]
                j += 1
            starts.append(skeleton(taken))
    prefixes = {start[:n] for start in starts for n in range(SHORT_NAME, LONG_NAME)}
    for kind, found in names.items():
        for name in found:
            for shape in {skeleton("".join(_runs(s))) for s in _spellings(name)}:
                if not shape:
                    continue
                if len(shape) < SHORT_NAME:
                    held = shape in words
                elif len(shape) < LONG_NAME:
                    held = shape in prefixes
                else:
                    held = any(shape in whole for whole in squashed)
                if held:
                    return kind
    return None


class Referees:
    """The referees' and courts' side of tournaments (the hub owns it with the tournaments)."""

    def __init__(self, tournaments: Tournaments) -> None:
        self.tournaments = tournaments
        self.storage = tournaments.storage

    async def _table(self, event_id: str, row_id: int) -> tuple[TournamentState, dict[str, Any]]:
        state = await self.tournaments.views.load(event_id)
        found = next((t for t in state.tables if int(t["id"]) == row_id), None)
        if found is None:
            raise Refused("not_found", "no_such_event_table")
        return state, found

    async def _as_referee(
        self, player: int, event_id: str, row_id: int
    ) -> tuple[TournamentState, dict[str, Any]]:
        state, table = await self._table(event_id, row_id)
        if table["referee"] != player:
            raise Refused("forbidden", "referee_only")
        return state, table

    @staticmethod
    def players_of(state: TournamentState, table: Mapping[str, Any]) -> dict[int, str]:
        """The accounts playing at a table, by id: their names."""
        entries = {int(e["id"]): e for e in state.entries}
        return {m["player"]: m["name"] for e in table["entries"] for m in entries[int(e)]["members"]}

    async def assign(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The organizer assigns a referee (``username``, or null to remove one): never one who
        plays in the event, nor one who stepped down from this table, nor at a table where the
        organizer himself plays (L-8). When the event
        requires a referee at every table (L-6) and this was the round's last table without one,
        the round's tables open now (its play starts)."""
        state, table = await self._table(event_id, row_id)
        if player not in state.organizers:
            raise Refused("forbidden", "referees_organizer")
        if player in state.players_at(table):  # nobody picks the referee of his own game (L-8)
            raise Refused("forbidden", "own_table_referee")
        username = body.get("username")
        referee, name = None, ""
        if username is not None:
            from blot.accounts import username_key

            if not isinstance(username, str):
                raise Refused("malformed", "referee_username", "username")
            found = await self.storage.read(lambda c: account_rows.find(c, username_key(username)))
            if found is None or found.disabled:
                raise Refused("not_found", "no_such_account", name=username)
            referee, name = found.id, found.username

        def write(c: Connection) -> None:
            rows.lock(c, state.id)  # as entering does: nobody becomes both
            if referee is not None and referee in rows.players_in(c, state.id):
                raise Refused("conflict", "player_cannot_referee", name=name)
            if referee is not None and referee in rows.recused(c, row_id):
                raise Refused("conflict", "referee_stepped_down", name=name)
            rows.set_referee(c, row_id, referee)

        await self.storage.write(write)
        await self._start_when_refereed(event_id, int(table["round"]))
        return self.tournaments.views.to_json(await self.tournaments.views.load(event_id), player)

    async def _start_when_refereed(self, event_id: str, number: int) -> None:
        """A round that waited for its referees (L-6) starts once every table has one: its
        tables open together, and forfeits count from now."""
        state = await self.tournaments.views.load(event_id)
        if not state.requires_referees() or state.without_referee(number):
            return
        played = [t for t in state.tables if t["round"] == number]
        if not played or any(t["table_id"] is not None or t["sheet_id"] is not None for t in played):
            return
        at = self.storage.now()
        await self.storage.write(lambda c: rows.round_started(c, event_id, number, at))
        await self.tournaments.rounds.open_tables(event_id)

    async def announce(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """An announcement of L-7 (``kind``, optional ``text``), timestamped."""
        _, table = await self._as_referee(player, event_id, row_id)
        kind = body.get("kind")
        if kind not in ANNOUNCEMENTS:
            raise Refused("malformed", "announcement_kinds", "kind", kinds=", ".join(ANNOUNCEMENTS))
        text = _text(body, "text", required=False)
        if kind == "winner" and not text:  # issue 42 item 7: L-7 announces *the winning pair*
            raise Refused("malformed", "winner_needs_pair", "text")
        at = self.storage.now()
        sheet_id = table["sheet_id"]
        if kind in SHEET_ONLY and sheet_id is None:
            raise Refused(
                "conflict",
                "announce_sheet_only",
            )

        def write(c: Connection) -> None:
            if kind in (rows.LEFT, rows.REOPENED):  # decided in the transaction that records it
                left = rows.left_unfinished(c, row_id)
                if kind == rows.REOPENED and not left:
                    raise Refused("conflict", "reopen_unfinished_only")
                if kind == rows.LEFT and left:
                    raise Refused("conflict", "already_unfinished")
                if kind == rows.LEFT and sheet_service.load(c, sheet_id).sheet.standing().finished:
                    raise Refused("conflict", "over_not_unfinished")
            rows.insert_note(c, row_id, str(kind), {"text": text}, player, at)

        await self.storage.write(write)
        return await self.console(player, event_id, row_id)

    async def dispute(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A dispute (L-4, L-5): what was claimed, the explanation heard, the ruling, and an
        optional table penalty of B-72 (``penalty``: kind, team, declaration_points) entered on
        the sheet in the same transaction."""
        _, table = await self._as_referee(player, event_id, row_id)
        claim = _text(body, "claim")
        explanation = _text(body, "explanation", required=False)
        ruling = _text(body, "ruling")
        penalty = body.get("penalty")
        sheet_id = table["sheet_id"]
        if penalty is not None and sheet_id is None:
            raise Refused("conflict", "online_penalty")
        at = self.storage.now()
        editor = sheet_service.Editor(None, player)

        def write(c: Connection) -> None:
            note: dict[str, Any] = {
                "claim": claim,
                "explanation": explanation,
                "ruling": ruling,
                "penalty": None,
            }
            if penalty is not None:
                if rows.left_unfinished(c, row_id):
                    raise Refused("conflict", LEFT_UNFINISHED)
                stored, number = sheet_service.add_deal(c, sheet_id, {"penalty": penalty}, editor)
                note["penalty"] = {**stored.sheet.entries[number - 1].to_json()["penalty"], "deal": number}
            rows.insert_note(c, row_id, "dispute", note, player, at)

        try:
            await self.storage.write(write)
        except SheetError as e:
            raise Refused.from_error("invalid", e, e.field) from None
        return await self.console(player, event_id, row_id)

    async def escalate(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A question the referee cannot decide, sent to a court without the players' names
        (L-5): a question that holds a name of anyone entered in the event (:func:`name_in`) is
        refused, saying which kind of name, and is neither stored nor logged."""
        state, _ = await self._as_referee(player, event_id, row_id)
        court = body.get("court")
        if court not in COURTS:
            raise Refused("malformed", "court_kind", "court")
        question = _text(body, "question")
        ids = {m["player"] for e in state.entries for m in e["members"]}
        accounts = await self.storage.read(lambda c: rows.account_names(c, ids))
        kind = name_in(
            question,
            {
                "username": [u for u, _ in accounts],
                "display_name": [n for _, n in accounts],
                "pair_name": [str(e["name"]) for e in state.entries if e["bot"] is None],
            },
        )
        if kind is not None:  # said without the text: it is kept nowhere, logged nowhere
            raise Refused(
                "malformed",
                "question_username"
                if kind == "username"
                else "question_display_name"
                if kind == "display_name"
                else "question_pair_name",
                "question",
            )
        at = self.storage.now()

        def write(c: Connection) -> None:
            case = courts.insert_case(c, row_id, str(court), question, at)
            rows.insert_note(
                c, row_id, "escalation", {"case": case, "court": court, "question": question}, player, at
            )

        await self.storage.write(write)
        return await self.console(player, event_id, row_id)

    async def apply(
        self, player: int, event_id: str, row_id: int, case_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The referee applies the court's answer (recorded on the case and announced)."""
        await self._as_referee(player, event_id, row_id)
        applied = _text(body, "applied")
        found = await self.storage.read(lambda c: courts.case(c, case_id))
        if found is None or found["event_table"] != row_id:
            raise Refused("not_found", "no_such_case_here")
        at = self.storage.now()

        def write(c: Connection) -> bool:
            if not courts.apply_case(c, case_id, applied, at):
                return False
            rows.insert_note(
                c,
                row_id,
                "court_answer",
                {"case": case_id, "answer": found["answer"], "applied": applied},
                player,
                at,
            )
            return True

        if not await self.storage.write(write):
            raise Refused("conflict", "court_not_answered")
        return await self.console(player, event_id, row_id)

    async def conflict(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """A player at the table raises a conflict of interest (L-8): the referee steps down and
        is never assigned to this table again. Raised once the game is over, it is recorded and
        changes nothing: the finished sheet and its result stand."""
        state, table = await self._table(event_id, row_id)
        if player not in self.players_of(state, table):
            raise Refused("forbidden", "conflict_players_only")
        if table["referee"] is None:
            raise Refused("conflict", "no_referee_now")
        reason = _text(body, "reason")
        at = self.storage.now()
        referee = int(table["referee"])
        over = state._game_of(table).points is not None

        def write(c: Connection) -> None:
            rows.recuse(c, row_id, referee, at)
            if not over:
                rows.set_referee(c, row_id, None)
            note = {"reason": reason, "referee": referee, "after_the_end": over}
            rows.insert_note(c, row_id, "conflict", note, player, at)

        await self.storage.write(write)
        return self.tournaments.views.to_json(await self.tournaments.views.load(event_id), player)

    async def step_down(
        self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]
    ) -> dict[str, Any]:
        """The referee steps down on his own (L-8, optional ``reason``): the sheet and its history
        stay, and he is never assigned to this table again."""
        await self._as_referee(player, event_id, row_id)
        reason = _text(body, "reason", required=False)
        at = self.storage.now()

        def write(c: Connection) -> bool:
            if rows.event_table(c, row_id) is None:
                return False
            rows.recuse(c, row_id, player, at)
            rows.set_referee(c, row_id, None)
            rows.insert_note(c, row_id, "stepped_down", {"reason": reason, "referee": player}, player, at)
            return True

        await self.storage.write(write)
        return self.tournaments.views.to_json(await self.tournaments.views.load(event_id), player)

    async def pause(self, player: int, event_id: str, row_id: int, body: Mapping[str, Any]) -> dict[str, Any]:
        """The referee of an online table pauses its game (``{"paused": true}``: no turn clock,
        no bot move, every play refused until he resumes it, ``false``)."""
        _, table = await self._as_referee(player, event_id, row_id)
        paused = body.get("paused")
        if not isinstance(paused, bool):
            raise Refused("malformed", "paused_flag", "paused")
        if table["table_id"] is None:
            raise Refused("conflict", "pause_open_online")
        done = await self.tournaments.tables.command(str(table["table_id"]), "pause", {"paused": paused})
        return {"table": table["table_id"], "paused": bool(done["paused"])}

    async def console(self, player: int, event_id: str, row_id: int) -> dict[str, Any]:
        """What the referee's console shows: the table, its sheet's id, its notes and cases."""
        state, table = await self._as_referee(player, event_id, row_id)
        all_notes = await self.storage.read(lambda c: rows.notes(c, event_id))
        cases = await self.storage.read(lambda c: courts.cases(c, event_table_ids=[row_id]))
        return {
            "event": state.id,
            "table": int(table["id"]),
            "round": int(table["round"]),
            "number": int(table["number"]),
            "sheet": table["sheet_id"],
            "online_table": table["table_id"],
            "entries": table["entries"],
            "notes": [note_json(n) for n in all_notes if int(n["event_table"]) == row_id],
            "cases": [case_json(k) for k in cases],
        }

    # --- the courts -------------------------------------------------------------------------------

    async def courts(self, player: int) -> dict[str, Any]:
        """The courts a member sits on (none for anybody else)."""
        mine = await self.storage.read(lambda c: courts.courts_of(c, player))
        return {"courts": [court for court in COURTS if court in mine]}

    async def court_cases(self, player: int, court: str) -> dict[str, Any]:
        """A court's cases, for its members: the question and the answer, nothing of who."""
        if court not in COURTS:
            raise Refused("not_found", "courts_known")
        mine = await self.storage.read(lambda c: courts.courts_of(c, player))
        if court not in mine:
            raise Refused("forbidden", "court_members_only")
        found = await self.storage.read(lambda c: courts.cases(c, courts=[court]))
        return {"court": court, "cases": [court_json(k) for k in found]}

    async def answer(self, player: int, case_id: int, body: Mapping[str, Any]) -> dict[str, Any]:
        found = await self.storage.read(lambda c: courts.case(c, case_id))
        if found is None:
            raise Refused("not_found", "no_such_case")
        mine = await self.storage.read(lambda c: courts.courts_of(c, player))
        if found["court"] not in mine:
            raise Refused("forbidden", "court_member_answers")
        text = _text(body, "answer")
        at = self.storage.now()
        if not await self.storage.write(lambda c: courts.answer_case(c, case_id, text, player, at)):
            raise Refused("conflict", "case_answered")
        done = await self.storage.read(lambda c: courts.case(c, case_id))
        assert done is not None
        return court_json(done)


def court_json(k: Mapping[str, Any]) -> dict[str, Any]:
    """A case as its court's members see it: the question and the answer; the days (not the
    times: a time would match the table's public announcements) it was asked and answered; and
    whether the referee applied it, not his words to the table (they may name people)."""
    return {
        **case_json(k),
        "asked_at": (_iso(k["asked_at"]) or "")[:10],
        "answered_at": None if k["answered_at"] is None else (_iso(k["answered_at"]) or "")[:10],
        "applied": k["applied"] is not None,
        "applied_at": None,
    }


def case_json(k: Mapping[str, Any]) -> dict[str, Any]:
    """A case as a court sees it: no event, no table, no names."""
    return {
        "id": int(k["id"]),
        "court": k["court"],
        "question": k["question"],
        "asked_at": _iso(k["asked_at"]),
        "answer": k["answer"],
        "answered_at": _iso(k["answered_at"]),
        "applied": k["applied"],
        "applied_at": _iso(k["applied_at"]),
    }
