"""``blot scoresheet``: keep the score sheet (Davtar) of a real-table game in the terminal.

The sheet lives in the same database as ``blot serve`` (its players' read-only link shows it live
in the browser), and every point is scored by the engine's own rules through the score sheet
model. A deal is typed on one line (``10Hx 0 98, d0=2 b1``) or asked for question by question
after its bid (``10H``); refused input is explained and asked again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rich.console import Console

from blot.bazar.rules import TARGET_RANGE
from blot.cli.common import BadOption
from blot.cli.score_deal import as_option
from blot.cli.scoresheet_input import (
    belote_pair,
    multiplier,
    one_line,
    parse_bid,
    parse_cards,
    parse_decl,
    parse_points,
    parse_team,
    penalty_entry,
    yes_no,
)
from blot.cli.scoresheet_view import STRAIN_TEXT, bid_text, describe, result_line, sheet_table
from blot.errors import BlotError
from blot.numbers import whole_number
from blot.printable import markup
from blot.scoresheet import sheets as service
from blot.scoresheet.model import SheetError
from blot.scoresheet.sheets import Editor, SheetNotFound, StoredSheet
from blot.store import Store

Ask = Callable[[str], str]

HELP = """\
Type a deal, or a command (teams are 0 and 1):
  10Hx 0 98, d0=2 b1  one line: the bid (x contra, xx redouble), the team that
                      took it, card points 'team 0,team 1' (one is enough: 98,
                      or ,64), then any of: k0 or k1 (kapoot by that team),
                      d0=N or d1=N (declarations), b0 or b1 (belote), alone
                      (kanach: the declarer alone took every trick)
  10H                 the bid alone: the rest is asked question by question
  void                all passed, or four sevens
  misdeal T           a misdeal by team T (B-72)
  misplay T N         a card played against the rules by team T; N: the points
                      of every declaration of the deal
  edit N              enter deal N again (every later total follows)
  undo                take back the last deal
  show, history, help, quit"""

#: The words of the prompt for each field of an entry the sheet may refuse.
TYPED = {
    "contract.team": "team",
    "contract.level": "bid",
    "contract.strain": "bid",
    "contract.multiplier": "contra",
    "kapoot": "kapoot",
    "card_points": "card points",
    "declaration_points": "declarations",
    "belote": "belote",
    "declarer_alone": "alone",
    "penalty.kind": "penalty",
    "penalty.team": "team at fault",
    "penalty.declaration_points": "declarations",
}

#: Which guided question a refused field sends the referee back to.
QUESTION_OF = {
    "contract.team": "team",
    "contract.multiplier": "mult",
    "kapoot": "kapoot",
    "declarer_alone": "alone",
    "card_points": "cards",
    "declaration_points": "decl",
    "belote": "belote",
}


class Quit(Exception):
    """The referee asked to stop."""


def read_answer(ask: Ask, prompt: str) -> str:
    """The referee's answer, stripped; :class:`Quit` on ``quit`` (or ``exit``, ``q``) and at the
    end of input."""
    try:
        answer = ask(prompt).strip()
    except EOFError:
        raise Quit from None
    if answer.lower() in ("quit", "exit", "q"):
        raise Quit
    return answer


class Cancel(Exception):
    """An empty answer where a deal was being entered: back to the main prompt."""


# --- the session --------------------------------------------------------------------------------


class SheetSession:
    """The prompt loop over one sheet in the database."""

    def __init__(self, store: Store, stored: StoredSheet, editor: Editor, console: Console, ask: Ask) -> None:
        self.store = store
        self.stored = stored
        self.editor = editor
        self.console = console
        self.ask = ask

    @property
    def teams(self) -> tuple[str, str]:
        """The team names as the terminal shows them (:func:`blot.printable.markup`)."""
        a, b = self.stored.sheet.teams
        return markup(a), markup(b)

    def read(self, prompt: str) -> str:
        return read_answer(self.ask, prompt)

    def refuse(self, message: str | BlotError) -> None:
        """Say why input was refused; the sheet's refusal of a field is said of what the referee
        typed (``card points: …``, not the entry's ``card_points: …``)."""
        if isinstance(message, SheetError):
            message = as_option(message, TYPED)
        self.console.print(f"[bold red]refused:[/] {markup(str(message))}", highlight=False)

    def show(self) -> None:
        self.console.print(sheet_table(self.stored))
        line = result_line(self.stored)
        if line:
            self.console.print(f"[bold]{markup(line)}[/]")

    def run(self) -> None:
        s = self.stored
        rules = s.sheet.rules
        kanach = ", kanach" if rules.kanach else ""
        self.console.print(
            f"[bold]Davtar[/] {s.id}: {self.teams[0]} (team 0) - {self.teams[1]} (team 1), "
            f"{rules.ruleset}, to {rules.target}{kanach}",
            highlight=False,
        )
        self.console.print(f"Players' read-only page (with blot serve): /scoresheet/shared/{s.share_id}")
        self.console.print("Type a deal (e.g. 10H 0 98, or a bid alone), 'help', or 'quit'.")
        if s.sheet.entries:
            self.show()
        while True:
            finished = self.stored.sheet.standing().finished
            prompt = "sheet> " if finished else f"deal {len(self.stored.sheet.entries) + 1}> "
            text = self.read(prompt)
            try:
                self.command(text, finished)
            except Cancel:
                self.console.print("(nothing entered)")
            except BlotError as e:
                self.refuse(e)

    def command(self, text: str, finished: bool) -> None:
        words = text.split()
        if not words:
            return
        head = words[0].lower()
        if head in ("help", "?"):
            self.console.print(HELP, highlight=False, markup=False)
        elif head in ("show", "s"):
            self.show()
        elif head in ("history", "h"):
            self.history()
        elif head == "undo":
            self.undo()
        elif head == "edit":
            self.edit(words[1:])
        elif finished:
            self.refuse("the game is over: no deal can be added ('edit N' changes a deal, 'undo' the last)")
        else:
            self.enter(text, None)

    # --- entering deals -----------------------------------------------------------------------------

    def enter(self, text: str, number: int | None) -> None:
        """A deal typed at a prompt: one line, a bid to complete, void or a penalty; stored as
        deal ``number`` (an edit) or as the next deal."""
        words = text.split()
        head = words[0].lower()
        if head == "void":
            self.store_entry({"void": True}, number)
            return
        if head in ("misdeal", "misplay"):
            entry = penalty_entry(words)
            if entry is None:
                entry = self.ask_penalty(head)
            self.store_entry(entry, number)
            return
        if len(words) == 1:
            self.guided(words[0], number)
            return
        self.store_entry(one_line(text), number)

    def store_entry(self, entry: dict[str, Any], number: int | None) -> None:
        with self.store.engine.begin() as c:
            if number is None:
                self.stored, number = service.add_deal(c, self.stored.id, entry, self.editor)
            else:
                self.stored, _ = service.replace_deal(c, self.stored.id, number, entry, self.editor)
        self.report(number)

    def report(self, number: int) -> None:
        data = self.stored.deal_result(number)
        verdict = "" if data["made"] is None else ("made, " if data["made"] else "failed, ")
        pts, tot = data["points"], data["totals"]
        a, b = self.teams
        self.console.print(
            f"deal {number}: {bid_text(data['entry'])}: {verdict}{a} {pts[0]}, {b} {pts[1]}"
            f" - totals {tot[0]} to {tot[1]}",
            highlight=False,
        )
        line = result_line(self.stored)
        if line:
            self.console.print(f"[bold]{markup(line)}[/]", highlight=False)

    def ask_penalty(self, kind: str) -> dict[str, Any]:
        team = self.question("Team at fault (0 or 1): ", lambda a: parse_team(a, "team at fault"))
        points = 0
        if kind == "misplay":
            points = self.question(
                "Points of every declaration of the deal (enter: 0): ", parse_points, empty=0
            )
        return {"penalty": {"kind": kind, "team": team, "declaration_points": points}}

    def question(self, prompt: str, parse: Callable[[str], Any], *, empty: Any = Cancel) -> Any:
        """Ask until the answer reads; an empty answer gives ``empty`` (or cancels the deal)."""
        while True:
            answer = self.read(prompt)
            if not answer:
                if empty is Cancel:
                    raise Cancel
                return empty
            try:
                return parse(answer)
            except BlotError as e:
                self.refuse(e)

    def guided(self, bid: str, number: int | None) -> None:
        """The deal question by question after its bid. Each answer is checked by the sheet at
        once (the questions not yet answered taking harmless values), and a refused answer is
        explained and asked again."""
        level, strain, mult = parse_bid(bid)
        rules = self.stored.sheet.rules
        service.entry_of(self.guided_entry(level, strain, {"mult": mult}), rules)  # the bid itself
        answers: dict[str, Any] = {}
        order = ["team", "mult", "kapoot", "alone", "cards", "decl", "belote"]
        while True:
            key = next((k for k in order if k not in answers), None)
            if key is not None:
                answers[key] = self.guided_question(key, level, strain, mult, answers, self.teams)
            entry = self.guided_entry(level, strain, answers)
            try:
                if key is not None:
                    service.entry_of(entry, rules)
                    continue
                self.store_entry(entry, number)
                return
            except SheetError as e:
                question = QUESTION_OF.get(e.field)
                self.refuse(e)
                if question not in answers:
                    return  # nothing the questions can change (such as the end of the game)
                del answers[question]
                if question == "kapoot":
                    answers.pop("cards", None)

    @staticmethod
    def guided_entry(level: int, strain: str, answers: dict[str, Any]) -> dict[str, Any]:
        """The entry from the answers so far; unanswered questions take values that pass."""
        kapoot = answers.get("kapoot")
        cards = answers.get("cards", None if kapoot is not None else [81, 81])
        return {
            "void": False,
            "contract": {
                "team": answers.get("team", 0),
                "level": level,
                "strain": strain,
                "multiplier": answers.get("mult", 1),
            },
            "card_points": cards,
            "kapoot": kapoot,
            "declarer_alone": answers.get("alone", False),
            "declaration_points": answers.get("decl", [0, 0]),
            "belote": belote_pair(answers.get("belote")),
        }

    def guided_question(
        self, key: str, level: int, strain: str, mult: int, answers: dict[str, Any], teams: tuple[str, str]
    ) -> Any:
        names = f"0 = {teams[0]}, 1 = {teams[1]}"
        if key == "team":
            return self.question(f"Team that took {level}{STRAIN_TEXT[strain]} ({names}): ", parse_team)
        if key == "mult":
            if mult != 1:
                return mult
            return self.question("Contra? (enter: no, x: contra, xx: redouble): ", multiplier, empty=1)
        if key == "kapoot":
            return self.question(
                "Kapoot, every trick, by team (enter: none, 0 or 1): ", parse_team, empty=None
            )
        if key == "alone":
            if level != 30 or answers["kapoot"] != answers["team"]:
                return False
            return self.question("Did the declarer alone take every trick? (y/n): ", yes_no)
        if key == "cards":
            if answers["kapoot"] is not None:
                return None
            return self.question("Card points, team 0,team 1 (one is enough: 98, or ,64): ", parse_cards)
        if key == "decl":
            return self.question(
                "Declarations, team=points (e.g. 0=20; enter: none): ", parse_decl, empty=[0, 0]
            )
        if key == "belote":
            if strain == "NT":
                return None
            return self.question("Belote held by team (enter: none, 0 or 1): ", parse_team, empty=None)
        raise AssertionError(key)

    # --- edits -----------------------------------------------------------------------------------

    def edit(self, words: list[str]) -> None:
        count = len(self.stored.sheet.entries)
        number = whole_number(words[0]) if words else None
        if number is None or not 1 <= number <= count:
            raise BlotError(
                f"write edit N with N from 1 to {count}" if count else "there is no deal to edit yet"
            )
        rest = " ".join(words[1:])
        if not rest:
            deal = self.stored.to_json()["deals"][number - 1]
            self.console.print(
                f"deal {number} is now: {describe(deal['entry'], self.teams)}", highlight=False
            )
            rest = self.read(f"deal {number} (new; enter: keep)> ")
            if not rest:
                raise Cancel
        self.enter(rest, number)

    def undo(self) -> None:
        count = len(self.stored.sheet.entries)
        if not count:
            raise BlotError("there is no deal to take back")
        with self.store.engine.begin() as c:
            self.stored = service.delete_last(c, self.stored.id, count, self.editor)
        totals = self.stored.to_json()["totals"]
        self.console.print(f"deal {count} taken back - totals {totals[0]} to {totals[1]}", highlight=False)

    def history(self) -> None:
        data = self.stored.to_json()
        if not data["history"]:
            self.console.print("No edits yet.")
            return
        for h in data["history"]:
            what = {"add": "added", "replace": "changed", "delete": "taken back"}[h["action"]]
            who = markup(h["who"]) if h["who"] else "someone"
            change = describe(h["after"] or h["before"], self.teams)
            if h["action"] == "replace":
                change = f"{describe(h['before'], self.teams)} -> {change}"
            self.console.print(
                f"{h['when'][:19].replace('T', ' ')} deal {h['deal']} {what} by {who}: {change}",
                highlight=False,
            )


# --- opening a sheet ----------------------------------------------------------------------------


def choose_sheet(store: Store, console: Console, read: Callable[[str], str]) -> StoredSheet | None:
    """Offer the most recent sheets; None: make a new one."""
    with store.engine.connect() as c:
        rows = service.listing(c, limit=9)
        if not rows:
            return None
        sheets = [service.load(c, r["id"]) for r in rows]
    console.print("Score sheets in this database, most recent first:")
    for i, s in enumerate(sheets, 1):
        data = s.to_json()
        teams = [markup(t) for t in data["teams"]]
        state = f"won by {teams[data['winner']]} {data['match_score']}" if data["finished"] else "playing"
        console.print(
            f"  {i}. {teams[0]} - {teams[1]}: {len(data['deals'])} deals, "
            f"{data['totals'][0]} to {data['totals'][1]}, {state}",
            highlight=False,
        )
    while True:
        answer = read("Open which (number; enter: a new sheet)? ")
        if not answer:
            return None
        choice = whole_number(answer)
        if choice is not None and 1 <= choice <= len(sheets):
            return sheets[choice - 1]
        console.print(f"[bold red]refused:[/] answer a number from 1 to {len(sheets)}, or press enter")


#: The option of ``blot scoresheet`` behind each field the sheet's settings may refuse.
OPTION_OF = {"ruleset": "--ruleset", "teams": "--teams", "--by": "--by"}


def checked_options(
    teams: str | None, ruleset: str | None, kanach: bool, target: int, by: str | None
) -> tuple[Editor, list[str] | None, dict[str, Any]]:
    """The editor, the team names and the settings of a new sheet from the options, each checked
    before anything is asked or opened: a bad one is refused by its name (exit 2)."""
    low, high = TARGET_RANGE
    if not low <= target <= high:
        raise BadOption(
            "--target", f"a game's target is a whole number of points from {low} to {high}, not {target}"
        )
    names: list[str] | None = None
    if teams is not None:
        names = [t.strip() for t in teams.split(",")]
        if len(names) != 2:
            raise BadOption(
                "--teams", "two names separated by a comma, e.g. --teams 'Ani & Gohar,Bagrat & Davit'"
            )
    body = {"ruleset": ruleset, "options": {"kanach": kanach, "target": target}, "teams": names}
    try:
        editor = Editor(service.clean_name(by, "--by") if by is not None else "terminal")
        service.sheet_settings(body)
    except SheetError as e:
        raise as_option(e, OPTION_OF) from None
    return editor, names, body


def scoresheet(
    db_url: str,
    *,
    sheet_id: str | None,
    new: bool,
    teams: str | None,
    ruleset: str | None,
    kanach: bool,
    target: int,
    by: str | None,
    ask: Ask | None = None,
    console: Console | None = None,
) -> None:
    """Open (or create) a sheet and keep it until the referee quits."""
    console = console or Console(highlight=False)
    ask = ask or console.input
    editor, names, body = checked_options(teams, ruleset, kanach, target, by)
    store = Store.open(db_url)
    session: SheetSession | None = None

    def read(prompt: str) -> str:
        return read_answer(ask, prompt)

    try:
        if sheet_id is not None:
            with store.engine.connect() as c:
                stored = service.load(c, sheet_id)
        else:
            found = None if new or teams is not None else choose_sheet(store, console, read)
            if found is None:
                if names is None:
                    names = [
                        read(f"{('First', 'Second')[i]} team's name, team {i} (enter: Team {i + 1}): ")
                        or f"Team {i + 1}"
                        for i in (0, 1)
                    ]
                    body["teams"] = names
                with store.engine.begin() as c:
                    stored = service.create(c, body, editor)
            else:
                stored = found
        session = SheetSession(store, stored, editor, console, ask)
        session.run()
    except Quit:
        console.print("Score sheet kept. Goodbye.")
    except KeyboardInterrupt:
        console.print("\nScore sheet kept. Goodbye.")
        raise SystemExit(130) from None
    except SheetNotFound as e:
        raise BlotError(f"{e} ({sheet_id!r} in this database)") from None
    except SheetError as e:
        raise BlotError(str(e)) from None
    finally:
        store.close()
