"""Bazar Blot in the terminal: the table of ``blot play bazar-blot`` (one person against three bots, a whole
game) and the score sheet ``blot replay`` prints.

The person sees only what their seat may know (the same view a bot gets) and plays through the
same loop as the bots (:func:`blot.play.moves`); everything they type is read and checked by
the rules (``parse_action``, ``refusal``), and a refused move is explained and asked again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from blot.bazar import Action, Deal, DealView, Game, GameView, Phase
from blot.bazar.calls import STRAIN_NAMES, Call
from blot.bazar.declarations import Declare
from blot.bazar.tables import KEY, NT, POINTS
from blot.cards import SUIT_SYMBOLS, Card, cards_of
from blot.cli.terminal import Ask, TerminalTable
from blot.game import View
from blot.numbers import whole_number
from blot.play import Move, Player
from blot.printable import markup
from blot.records import Replay

SUIT_STYLE = ("bold", "bold red", "bold red", "bold")


class BazarTable(TerminalTable[Game, Deal]):
    """The terminal table of Bazar Blot."""

    def __init__(self, seat: int, bots: Mapping[int, Player], game: Game, console: Console, ask: Ask) -> None:
        names = {0: "You", 1: "Left", 2: "Partner", 3: "Right"}
        super().__init__(seat, bots, game, console, ask, [names[(s - seat) % 4] for s in range(4)])

    def _start_game(self) -> None:
        c = self.console
        partner = (self.seat + 2) % 4
        target = self.game.rules.target
        c.print(f"[bold]Bazar Blot[/] · to {target} · you: seat {self.seat}, partner: seat {partner}")
        c.print("Type a call (pass, 10H, 12NT, contra) or a card (10H, AS) when asked; 'quit' leaves.")

    def _start_deal(self, deal: Deal) -> None:
        self.console.rule(f"Deal {len(self.game.deals)} · dealer: {self.name(deal.dealer)}")

    def _announce(self, deal: Deal, move: Move) -> None:
        c = self.console
        seat, action = move.seat, move.action
        who = self.name(seat)
        if type(action) is Call:
            c.print(f"{who}: [bold]{action.describe()}[/]")
            if deal.phase is Phase.PLAY:
                assert deal.contract is not None
                leader = self.name((deal.dealer + 1) % 4)
                c.print(f"Contract: [bold]{describe_contract(deal)}[/]; {leader} leads.")
        elif type(action) is Declare:
            if action.declarations:
                said = ", ".join(d.announcement() for d in action.declarations)
                c.print(f"{who} declares: {said}")
        elif type(action) is Card:
            extra = ""
            if deal.belotes and deal.belotes[-1] == (seat, action):
                extra = " — belote" if len(deal.belotes) == 1 else " — rebelote"
            c.print(f"{who}: {card_text(action)}{extra}")
            if not deal.trick:
                winners = deal.trick_winners
                c.print(f"  → trick {len(winners)} to [bold]{self.name(winners[-1])}[/]")
                if len(winners) == 1:
                    self._show_declarations(deal)

    def _show_declarations(self, deal: Deal) -> None:
        outcome = deal.outcome
        if outcome.team is None:
            return
        team = "your team" if outcome.team == self.seat % 2 else "the opponents"
        total = outcome.points[outcome.team]
        self.console.print(f"Declarations count for {team} ({total} points):")
        for seat, d in outcome.counting:
            self.console.print(f"  {self.name(seat)}: {d.describe()} — {d.cards_text}")

    def _end_deal(self, deal: Deal) -> None:
        c = self.console
        result = deal.result
        assert result is not None
        if result.void:
            reason = "four sevens" if deal.calls and str(deal.calls[-1]) == "sevens" else "everybody passed"
            c.print(f"[bold]Void deal[/] ({reason}): no score, the next seat deals.")
        else:
            us, them = self.seat % 2, 1 - self.seat % 2
            number = self.game.deals.index(deal) + 1
            verdict = "made" if result.made else "failed"
            table = Table(title=f"Deal {number}: {describe_contract(deal)} — {verdict}")
            table.add_column("")
            table.add_column("your team", justify="right")
            table.add_column("opponents", justify="right")
            for label, pair in (
                ("tricks", result.tricks),
                ("card points", result.card_points),
                ("declarations", result.declaration_points),
                ("belote", result.belote),
                ("points", result.points),
            ):
                table.add_row(label, str(pair[us]), str(pair[them]))
            c.print(table)
        c.print(bazar_sheet([r.to_json() for r in self.game.results], title="Score sheet"))

    def _end_game(self) -> None:
        game = self.game
        assert game.winner is not None
        won = game.winner == self.seat % 2
        how = " by tars kapoot" if game.tars_kapoot else ""
        verdict = "You and your partner win" if won else "The opponents win"
        score = f"{game.totals[game.winner]} to {game.totals[1 - game.winner]}"
        self.console.print(f"[bold]{verdict}{how}[/], {game.match_score}: {score}.")

    # --- asking the person ---------------------------------------------------------------------

    def choose(self, view: View) -> Action:
        """The person's decision at their turn (the table is their seat's player)."""
        assert isinstance(view, GameView) and view.deal is not None
        v = view.deal
        if v.phase is Phase.BIDDING:
            return self._ask_call(v)
        if v.must_declare:
            return self._ask_declare(v)
        return self._ask_card(v)

    def _ask_call(self, view: DealView) -> Action:
        c = self.console
        calls = ", ".join(f"{self.names[s]} {call}" for s, call in view.calls) or "none yet"
        c.print(f"Calls so far: {calls}")
        c.print("Your hand: " + hand_text(view.hand, None))
        c.print("You may call: " + legal_calls_text(view.legal))
        return self._ask_legal(view.legal, "Your call (e.g. pass, 10H, 12NT, contra): ")

    def _ask_declare(self, view: DealView) -> Action:
        c = self.console
        options = [a for a in view.legal if type(a) is Declare]
        c.print(
            "You may declare (the table hears kind and top card; the cards that count are shown at trick 2):"
        )
        for i, option in enumerate(options):
            text = ", ".join(f"{d.describe()} ({d.cards_text})" for d in option.declarations) or "nothing"
            c.print(f"  {i}: {text}")
        while True:
            answer = self._read(f"Your declaration (0-{len(options) - 1}, or 'best'): ")
            if answer.lower() == "best" and view.best_declare is not None:
                return view.best_declare
            choice = whole_number(answer)
            if choice is not None and choice < len(options):
                return options[choice]
            c.print(
                f"[red]{answer!r} is not one of the choices: type a number from 0 to {len(options) - 1}[/]"
            )

    def _ask_card(self, view: DealView) -> Action:
        c = self.console
        tix = view.tix
        trick = ", ".join(f"{self.names[s]} {card_text(card)}" for s, card in view.trick) or "you lead"
        c.print(f"Trick {len(view.tricks) + 1}: {trick}")
        c.print("Your hand: " + hand_text(view.hand, tix))
        legal = [a for a in view.legal if type(a) is Card]
        c.print("Legal: " + " ".join(card_text(card) for card in sort_cards(legal, tix)))
        return self._ask_legal(view.legal, "Your card (e.g. 10H): ")


def describe_contract(deal: Deal) -> str:
    contract = deal.contract
    assert contract is not None
    extra = {1: "", 2: ", contra", 4: ", redoubled"}[contract.multiplier]
    return f"{contract.level} {STRAIN_NAMES[contract.strain]}{extra} by seat {contract.declarer}"


def card_text(card: Card) -> str:
    return f"[{SUIT_STYLE[card.suit]}]{card.text[:-1]}{SUIT_SYMBOLS[card.suit]}[/]"


def sort_cards(cards: Sequence[Card], tix: int) -> list[Card]:
    """By suit, strongest first in the order of the deal (B-10)."""
    keys = KEY[tix]
    return sorted(cards, key=lambda c: (c.suit, -keys[c.index]))


def hand_text(hand: int, tix: int | None) -> str:
    """The hand grouped by suit, trumps first, strongest first (B-10), with its card points once
    the strain is known (``tix`` None during the bidding)."""
    cards = cards_of(hand)
    order = NT if tix is None else tix
    groups = []
    for suit in sorted({c.suit for c in cards}, key=lambda s: (s != order, s)):
        in_suit = sort_cards([c for c in cards if c.suit == suit], order)
        label = f"{SUIT_SYMBOLS[suit]}{' (trump)' if suit == order else ''}"
        groups.append(f"[{SUIT_STYLE[suit]}]{label}[/] " + " ".join(card_text(c) for c in in_suit))
    text = "  ".join(groups)
    if tix is not None:
        text += f"  ({sum(POINTS[tix][c.index] for c in cards)} card points)"
    return text


def legal_calls_text(legal: Sequence[Action]) -> str:
    calls = [a for a in legal if type(a) is Call]
    bids = [c for c in calls if c.is_bid]
    others = [str(c) for c in calls if not c.is_bid]
    if bids:
        levels = sorted({b.level for b in bids})
        others.append(f"a bid from {levels[0]} to {levels[-1]} in S H D C or NT")
    return ", ".join(others)


#: The table ``blot play`` seats the person at (:func:`blot.cli.terminal.play`).
TABLE = BazarTable


def team_names(players: list[str] | None) -> tuple[str, str]:
    if not players:
        return ("team 0 (seats 0 & 2)", "team 1 (seats 1 & 3)")
    return (f"{players[0]} & {players[2]}", f"{players[1]} & {players[3]}")


def print_replay(replay: Replay, console: Console | None = None) -> None:
    """``blot replay``'s readable output: the score sheet and how the game ended."""
    console = console or Console()
    data = replay.to_json()
    console.print(bazar_sheet(data["deals"], title="Bazar Blot"))
    teams = team_names(None if replay.players is None else [markup(p) for p in replay.players])
    totals = data["totals"]
    if data["finished"]:
        winner = data["winner"]
        how = " by tars kapoot (B-55)" if data["tars_kapoot"] else ""
        score = f"{totals[winner]} to {totals[1 - winner]}"
        console.print(f"Game over{how}: {teams[winner]} win {data['match_score']}, {score}.")
    else:
        console.print(f"Unfinished: {teams[0]} {totals[0]}, {teams[1]} {totals[1]}.")


def bazar_sheet(deals: list[dict[str, Any]], title: str | None = None) -> Table:
    """The score sheet of a Bazar Blot game: one row per deal; pairs read team 0 - team 1."""
    table = Table(title=title, caption="pairs: team 0 (seats 0, 2) - team 1 (seats 1, 3)")
    for column in ("#", "contract", "result", "card pts", "decl.", "belote", "points", "total"):
        table.add_column(column, justify="left" if column in ("contract", "result") else "right")
    totals = [0, 0]

    def pair(p: list[int]) -> str:
        return f"{p[0]}-{p[1]}"

    for number, d in enumerate(deals, 1):
        totals = [totals[0] + d["points"][0], totals[1] + d["points"][1]]
        if d["void"]:
            table.add_row(str(number), "void", "", "", "", "", "0-0", pair(totals))
            continue
        c = d["contract"]
        mult = {1: "", 2: "x", 4: "xx"}[c["multiplier"]]
        table.add_row(
            str(number),
            f"{c['level']}{c['strain']}{mult} s{c['seat']}",
            "made" if d["made"] else "failed",
            pair(d["card_points"]),
            pair(d["declaration_points"]),
            pair(d["belote"]),
            pair(d["points"]),
            pair(totals),
        )
    return table
