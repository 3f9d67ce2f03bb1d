"""``blot play bazar-blot``: one person against three bots in the terminal, a whole game.

The person sees only what their seat may know (the same view a bot gets); everything they type
is checked by the rules, and a refused move is explained and asked again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from random import Random

from rich.console import Console
from rich.table import Table

from blot.bazar import Deal, Game, Phase
from blot.bazar.calls import STRAIN_NAMES, Call, parse_call
from blot.bazar.deal import Action
from blot.bazar.declarations import Declare
from blot.bazar.tables import KEY, NT, POINTS
from blot.bazar.view import BazarView
from blot.bots import make_bot, split_bot_specs
from blot.cards import SUIT_SYMBOLS, Card, cards_of, parse_card
from blot.cli.render import bazar_sheet
from blot.cli.terminal import Ask, read_answer, run_until_quit
from blot.errors import BlotError
from blot.protocol import Action as ProtocolAction
from blot.protocol import Bot

SUIT_STYLE = ("bold", "bold red", "bold red", "bold")


class BazarTable:
    """The terminal table: prints what happens and asks the person for each decision."""

    def __init__(self, seat: int, bots: Mapping[int, Bot], game: Game, console: Console, ask: Ask) -> None:
        self.seat = seat
        self.bots = bots
        self.game = game
        self.console = console
        self.ask = ask
        names = {0: "You", 1: "Left", 2: "Partner", 3: "Right"}
        self.names = [names[(s - seat) % 4] for s in range(4)]

    def name(self, seat: int) -> str:
        return f"{self.names[seat]} (seat {seat})"

    # --- the game loop -------------------------------------------------------------------------

    def run(self) -> None:
        game = self.game
        c = self.console
        partner = (self.seat + 2) % 4
        c.print(
            f"[bold]Bazar Blot[/] · to {game.rules.target} · you: seat {self.seat}, partner: seat {partner}"
        )
        c.print("Type a call (pass, 10H, 12NT, contra) or a card (10H, AS) when asked; 'quit' leaves.")
        while not game.is_over:
            deal = game.deal
            assert deal is not None
            self._start_deal(deal)
            while not deal.is_over:
                seat = deal.to_act
                assert seat is not None
                before = len(deal.winners)
                view = game.view(seat)
                action = self._ask_action(view) if seat == self.seat else self.bots[seat].choose(view)
                game.apply(action)
                self._announce(deal, seat, action, before)
            self._end_deal(deal)
        self._end_game()

    def _start_deal(self, deal: Deal) -> None:
        self.console.rule(f"Deal {len(self.game.deals)} · dealer: {self.name(deal.dealer)}")

    def _announce(self, deal: Deal, seat: int, action: ProtocolAction, tricks_before: int) -> None:
        c = self.console
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
            if len(deal.winners) > tricks_before:
                c.print(f"  → trick {len(deal.winners)} to [bold]{self.name(deal.winners[-1])}[/]")
                if len(deal.winners) == 1:
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

    def _ask_action(self, view: BazarView) -> Action:
        if view.phase is Phase.BIDDING:
            return self._ask_call(view)
        if view.must_declare:
            return self._ask_declare(view)
        return self._ask_card(view)

    def _read(self, prompt: str) -> str:
        return read_answer(self.ask, prompt)

    def _ask_call(self, view: BazarView) -> Action:
        c = self.console
        calls = ", ".join(f"{self.names[s]} {call}" for s, call in view.calls) or "none yet"
        c.print(f"Calls so far: {calls}")
        c.print("Your hand: " + hand_text(view.hand, None))
        c.print("You may call: " + legal_calls_text(view.legal))
        while True:
            answer = self._read("Your call (e.g. pass, 10H, 12NT, contra): ")
            try:
                call = parse_call(answer)
                if call not in view.legal:
                    self.game.apply(call)  # raises IllegalAction with the reason
                return call
            except BlotError as e:
                c.print(f"[red]{e}[/]")

    def _ask_declare(self, view: BazarView) -> Action:
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
            if answer.lower() == "best":
                return self.game.deal.best_declare(self.seat)  # type: ignore[union-attr]
            if answer.isdigit() and int(answer) < len(options):
                return options[int(answer)]
            c.print(
                f"[red]{answer!r} is not one of the choices: type a number from 0 to {len(options) - 1}[/]"
            )

    def _ask_card(self, view: BazarView) -> Action:
        c = self.console
        tix = NT if view.trump is None else view.trump
        trick = (
            ", ".join(f"{self.names[s]} {card_text(card)}" for s, card in view.trick_seats()) or "you lead"
        )
        c.print(f"Trick {len(view.tricks) + 1}: {trick}")
        c.print("Your hand: " + hand_text(view.hand, tix))
        legal = [a for a in view.legal if type(a) is Card]
        c.print("Legal: " + " ".join(card_text(card) for card in sort_cards(legal, tix)))
        while True:
            answer = self._read("Your card (e.g. 10H): ")
            try:
                card = parse_card(answer)
                if card not in legal:
                    self.game.apply(card)  # raises IllegalAction with the reason
                return card
            except BlotError as e:
                c.print(f"[red]{e}[/]")


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


def play_bazar(
    seed: int | None,
    bots: str,
    seat: int,
    *,
    ask: Ask | None = None,
    console: Console | None = None,
) -> None:
    """Play one game to the end (or until the person quits). ``bots`` names the computer players'
    bot (``basic``), or one per computer player in turn from the person's left (``basic,random``)."""
    if seat not in range(4):
        raise BlotError(f"--seat must be 0 to 3, not {seat}")
    rng = Random(seed)
    specs = split_bot_specs(bots) or ["basic"]
    if len(specs) > 3:
        raise BlotError("--bots names at most three bots, one per computer player: e.g. basic,random")
    # the computer players take the named bots in turn, from the seat after the person's
    players: dict[int, Bot] = {}
    for i in range(3):
        players[(seat + 1 + i) % 4] = make_bot(
            "bazar-blot", specs[i % len(specs)], Random(rng.getrandbits(64))
        )
    console = console or Console(highlight=False)
    table = BazarTable(
        seat,
        players,
        Game(dealer=(seat + 3) % 4, rng=Random(rng.getrandbits(64))),
        console,
        ask or console.input,
    )
    run_until_quit(table.run, console)
