"""``blot scoresheet``: keep the score sheet (Davtar) of a real-table game in the terminal.

The sheet lives in the same database as ``blot serve`` (its players' read-only link shows it live
in the browser), and every point is scored by the engine's own rules through the score sheet
model. A deal is typed on one line (``10Hx 0 98, d0=2 b1``) or asked for question by question
after its bid (``10H``); refused input is explained and asked again.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from rich.console import Console, JustifyMethod
from rich.table import Table

from blot.cards import SUIT_SYMBOLS
from blot.cli.score_deal import team_numbers
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

BID = re.compile(r"^(\d+)(S|H|D|C|NT)(X{0,2})$", re.IGNORECASE)
STRAIN_TEXT = {
    "S": SUIT_SYMBOLS[0],
    "H": SUIT_SYMBOLS[1],
    "D": SUIT_SYMBOLS[2],
    "C": SUIT_SYMBOLS[3],
    "NT": "NT",
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


class Cancel(Exception):
    """An empty answer where a deal was being entered: back to the main prompt."""


# --- reading what the referee types -------------------------------------------------------------


def parse_bid(text: str) -> tuple[int, str, int]:
    """``10H`` -> (10, "H", 1); ``12NTx`` -> (12, "NT", 2); ``25Cxx`` -> (25, "C", 4)."""
    m = BID.match(text.strip())
    if not m:
        raise BlotError(f"{text!r} is not a bid: write the level, the trump and x or xx, e.g. 10H, 12NTx")
    return int(m.group(1)), m.group(2).upper(), (1, 2, 4)[len(m.group(3))]


def parse_team(text: str, what: str = "team") -> int:
    if text.strip() not in ("0", "1"):
        raise BlotError(f"the {what} is 0 or 1, not {text.strip()!r}")
    return int(text)


def parse_cards(text: str) -> list[int | None]:
    """``98,64``, ``98,`` or ``,64`` -> team 0's and team 1's card points (one may be missing)."""
    return team_numbers(text, "card points", one_may_be_empty=True)


def parse_decl(text: str) -> list[int]:
    """``0=20`` or ``1=5`` (a team and its points), or ``20,0``; empty: none."""
    text = text.strip()
    if not text:
        return [0, 0]
    m = re.match(r"^([01])\s*=\s*(\d+)$", text)
    if m:
        out = [0, 0]
        out[int(m.group(1))] = int(m.group(2))
        return out
    m = re.match(r"^(\d+)\s*,\s*(\d+)$", text)
    if m:
        return [int(m.group(1)), int(m.group(2))]
    raise BlotError(f"{text!r}: declarations are a team and its points, e.g. 0=20, or 'team 0,team 1'")


def belote_pair(team: int | None) -> list[int]:
    return [0, 0] if team is None else ([2, 0] if team == 0 else [0, 2])


def one_line(text: str) -> dict[str, Any]:
    """The entry of a one-line deal such as ``10Hx 0 98, d0=2 b1`` or ``25C 1 k1``."""
    tokens = text.split()
    level, strain, mult = parse_bid(tokens[0])
    team: int | None = None
    cards: list[int | None] | None = None
    kapoot: int | None = None
    decl = [0, 0]
    belote: int | None = None
    alone = False
    for token in tokens[1:]:
        low = token.lower()
        if low in ("0", "1"):
            team = int(low)
        elif low in ("x", "contra"):
            mult = 2
        elif low in ("xx", "redouble"):
            mult = 4
        elif re.fullmatch(r"k[01]", low):
            kapoot = int(low[1])
        elif re.fullmatch(r"b[01]", low):
            belote = int(low[1])
        elif m := re.fullmatch(r"d([01])=(\d+)", low):
            side = int(m.group(1))
            if decl[side]:
                raise BlotError(f"d{side} is given twice: write d{side}=N once, with all its points")
            decl[side] = int(m.group(2))  # both teams' points: the model refuses them (B-44)
        elif low == "alone":
            alone = True
        elif "," in low:
            cards = parse_cards(low)
        else:
            raise BlotError(f"{token!r} is not part of a deal: type 'help' for the one-line form")
    if team is None:
        raise BlotError("say which team took the contract: 0 or 1 after the bid, e.g. 10H 0 98,")
    return {
        "void": False,
        "contract": {"team": team, "level": level, "strain": strain, "multiplier": mult},
        "card_points": cards,
        "kapoot": kapoot,
        "declarer_alone": alone,
        "declaration_points": decl,
        "belote": belote_pair(belote),
    }


def penalty_entry(words: list[str]) -> dict[str, Any] | None:
    """``misdeal 1``, ``misplay 0 5``; None when the team is missing (it is then asked)."""
    kind = words[0].lower()
    if len(words) == 1:
        return None
    team = parse_team(words[1], "team at fault")
    points = 0
    if len(words) > 2:
        given = whole_number(words[2], 6)
        if kind != "misplay" or given is None or len(words) > 3:
            raise BlotError("write misdeal T, or misplay T N with N the points of the deal's declarations")
        points = given
    return {"penalty": {"kind": kind, "team": team, "declaration_points": points}}


# --- showing the sheet --------------------------------------------------------------------------


def bid_text(entry: dict[str, Any]) -> str:
    if entry.get("void"):
        return "void"
    if entry.get("penalty"):
        return str(entry["penalty"]["kind"])
    c = entry["contract"]
    mult = {1: "", 2: " x2", 4: " x4"}[c["multiplier"]]
    return f"{c['level']}{STRAIN_TEXT[c['strain']]}{mult}"


def pair_text(pair: list[int]) -> str:
    return "-" if not any(pair) else f"{pair[0]}-{pair[1]}"


def sheet_table(stored: StoredSheet) -> Table:
    data = stored.to_json()
    teams = [markup(t) for t in data["teams"]]
    table = Table(title=f"Davtar: {teams[0]} - {teams[1]}", title_justify="left")
    columns: list[tuple[str, JustifyMethod]] = [
        ("#", "right"),
        ("Bid", "left"),
        ("By", "left"),
        ("Cards", "right"),
        ("Decl.", "right"),
        ("Belote", "right"),
        (teams[0], "right"),
        (teams[1], "right"),
    ]
    for name, justify in columns:
        table.add_column(name, justify=justify)
    for deal in data["deals"]:
        e = deal["entry"]
        played = "contract" in e
        mark = "" if deal["made"] is None else (" made" if deal["made"] else " failed")
        who = ""
        if played:
            who = teams[e["contract"]["team"]]
        elif e.get("penalty"):
            who = teams[e["penalty"]["team"]]
        cards = "-"
        if played:
            cards = f"kapoot {teams[e['kapoot']]}" if e["kapoot"] is not None else pair_text(e["card_points"])
        decl = pair_text(e["declaration_points"]) if played else "-"
        if e.get("penalty") and e["penalty"]["declaration_points"]:
            decl = f"+{e['penalty']['declaration_points']}"
        table.add_row(
            str(deal["number"]),
            bid_text(e) + mark + (" (tars kapoot)" if deal["tars_kapoot"] else ""),
            who,
            cards,
            decl,
            pair_text(e["belote"]) if played else "-",
            f"{deal['points'][0]} [dim]({deal['totals'][0]})[/]",
            f"{deal['points'][1]} [dim]({deal['totals'][1]})[/]",
        )
    table.add_section()
    table.add_row(
        "", "[bold]Total[/]", "", "", "", "", f"[bold]{data['totals'][0]}[/]", f"[bold]{data['totals'][1]}[/]"
    )
    return table


def result_line(stored: StoredSheet) -> str | None:
    data = stored.to_json()
    if not data["finished"]:
        return None
    winner = data["winner"]
    teams, totals = data["teams"], data["totals"]
    how = " by tars kapoot" if data["tars_kapoot"] else ""
    score = f"{totals[winner]} to {totals[1 - winner]}"
    return f"Game over: {teams[winner]} win{how}, {data['match_score']} ({score})."


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
        try:
            answer = self.ask(prompt).strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in ("quit", "exit", "q"):
            raise Quit
        return answer

    def refuse(self, message: str) -> None:
        self.console.print(f"[bold red]refused:[/] {markup(message)}", highlight=False)

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
                self.refuse(str(e))

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
                self.refuse(str(e))

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
                self.refuse(str(e))
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
            return self.question("Contra? (enter: no, x: contra, xx: redouble): ", _multiplier, empty=1)
        if key == "kapoot":
            return self.question(
                "Kapoot, every trick, by team (enter: none, 0 or 1): ", parse_team, empty=None
            )
        if key == "alone":
            if level != 30 or answers["kapoot"] != answers["team"]:
                return False
            return self.question("Did the declarer alone take every trick? (y/n): ", _yes_no)
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


def describe(entry: dict[str, Any], teams: tuple[str, str]) -> str:
    """One line for an entry, in the one-line form's spirit."""
    if entry.get("void"):
        return "void"
    if entry.get("penalty"):
        p = entry["penalty"]
        extra = f" with {p['declaration_points']} declared" if p["declaration_points"] else ""
        return f"{p['kind']} by {teams[p['team']]}{extra}"
    c = entry["contract"]
    parts = [f"{bid_text(entry)} by {teams[c['team']]}"]
    if entry["kapoot"] is not None:
        parts.append(f"kapoot by {teams[entry['kapoot']]}")
    else:
        parts.append(f"cards {entry['card_points'][0]}-{entry['card_points'][1]}")
    if any(entry["declaration_points"]):
        parts.append(f"declarations {pair_text(entry['declaration_points'])}")
    if any(entry["belote"]):
        parts.append(f"belote {teams[0 if entry['belote'][0] else 1]}")
    if entry.get("declarer_alone"):
        parts.append("alone")
    return ", ".join(parts)


def _multiplier(text: str) -> int:
    value = {"x": 2, "contra": 2, "xx": 4, "redouble": 4, "no": 1, "n": 1}.get(text.strip().lower())
    if value is None:
        raise BlotError("answer x (contra), xx (redouble) or press enter for none")
    return value


def _yes_no(text: str) -> bool:
    low = text.strip().lower()
    if low in ("y", "yes"):
        return True
    if low in ("n", "no"):
        return False
    raise BlotError("answer y or n")


def parse_points(text: str) -> int:
    points = whole_number(text, 6)
    if points is None:
        raise BlotError(f"{text!r} is not a whole number of points")
    return points


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
    editor = Editor(service.clean_name(by, "--by") if by is not None else "terminal")
    names: list[str] | None = None
    if teams is not None:
        names = [t.strip() for t in teams.split(",")]
        if len(names) != 2:
            raise BlotError(
                "--teams is two names separated by a comma, e.g. --teams 'Ani & Gohar,Bagrat & Davit'"
            )
    body = {"ruleset": ruleset, "options": {"kanach": kanach, "target": target}, "teams": names}
    try:
        service.sheet_settings(body)  # a bad option is refused before anything is asked
    except SheetError as e:
        raise BlotError(str(e)) from None
    store = Store.open(db_url)
    session: SheetSession | None = None

    def read(prompt: str) -> str:
        try:
            answer = ask(prompt).strip()
        except EOFError:
            raise Quit from None
        if answer.lower() in ("quit", "exit", "q"):
            raise Quit
        return answer

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
