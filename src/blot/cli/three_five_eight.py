"""3-5-8 in the terminal: the table of ``blot play 3-5-8`` (one person against two bots, a whole game, T-50)
and the score table ``blot replay`` prints.

The person sees only what their seat may know (the same view a bot gets): their hand, the
calls, the cards of the exchange steps they gave or got, the talon once shown, their own
discard, the tricks. Everything they type is checked by the rules, and a refused move is
explained and asked again. ``quit`` (or the end of input) leaves the game; Ctrl-C too, with
exit status 130.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table

from blot.cards import SUIT_NAMES, SUIT_SYMBOLS, Card, cards_of, parse_card
from blot.cli.terminal import Ask, TerminalTable
from blot.errors import BlotError
from blot.game import View
from blot.play import Move, Player
from blot.printable import markup
from blot.records import Replay
from blot.three_five_eight import (
    COUNTED_DEALS,
    GAME_NAME,
    PASS,
    Action,
    Call,
    Deal,
    DealView,
    Game,
    GameView,
    Phase,
)

SEATS = 3
SUIT_STYLE = ("bold", "bold red", "bold red", "bold")
#: A person's words for each seat, counted from their own (play goes to the right, T-1).
RELATIVE_NAMES = ("You", "Right", "Left")


def card_text(card: Card) -> str:
    return f"[{SUIT_STYLE[card.suit]}]{card.text[:-1]}{SUIT_SYMBOLS[card.suit]}[/]"


def cards_text(cards: Sequence[Card] | int) -> str:
    """Cards strongest first, suit by suit."""
    items = cards_of(cards) if isinstance(cards, int) else list(cards)
    return " ".join(card_text(c) for c in sorted(items, key=lambda c: (c.suit, -c.rank)))


def hand_text(hand: int, trump: int | None) -> str:
    """The hand grouped by suit, trumps first, strongest first, with the length of each suit."""
    cards = cards_of(hand)
    groups = []
    for suit in sorted({c.suit for c in cards}, key=lambda s: (s != trump, s)):
        in_suit = [c for c in cards if c.suit == suit]
        label = f"{SUIT_SYMBOLS[suit]}{' (trump)' if suit == trump else ''}"
        groups.append(f"[{SUIT_STYLE[suit]}]{label}[/] {cards_text(in_suit)}")
    return "  ".join(groups) + f"  ({len(cards)} card{'s' if len(cards) != 1 else ''})"


class TfeTable(TerminalTable[Game, Deal]):
    """The terminal table of 3-5-8."""

    def __init__(self, seat: int, bots: Mapping[int, Player], game: Game, console: Console, ask: Ask) -> None:
        super().__init__(
            seat, bots, game, console, ask, [RELATIVE_NAMES[(s - seat) % SEATS] for s in range(SEATS)]
        )
        #: Cards typed ahead for the discard, put back one by one.
        self.pending: list[Card] = []
        #: The exchange the deal would have had (T-20), shown when NT cancels it.
        self.plan: tuple[tuple[int, int], ...] = ()

    def short(self, seat: int) -> str:
        return self.names[seat]

    def does(self, seat: int, verb: str) -> str:
        """``You call`` or ``Left (seat 2) calls``."""
        return f"You {verb}" if seat == self.seat else f"{self.name(seat)} {verb}s"

    def view(self) -> DealView:
        deal = self.game.view(self.seat).deal
        assert deal is not None
        return deal

    def _start_game(self) -> None:
        c = self.console
        c.print(f"[bold]3-5-8 (Blato)[/] · {COUNTED_DEALS} counted deals · you are seat {self.seat}")
        c.print(
            f"Play goes to the right: you, {self.name((self.seat + 1) % SEATS)}, "
            f"{self.name((self.seat + 2) % SEATS)}."
        )
        c.print("Type a call (S, H, D, C, NT, pass) or a card (10H, AS) when asked; 'quit' leaves.")

    def _start_deal(self, deal: Deal) -> None:
        c = self.console
        game = self.game
        c.rule(
            f"Deal {len(game.deals)} · counted deal {game.counted + 1} of {COUNTED_DEALS} · "
            f"dealer: {self.name(deal.dealer)}"
        )
        order = [(deal.dealer + i) % SEATS for i in (1, 2, 0)]
        if order[0] == self.seat:
            duties = "You call first, then take the talon and lead"
        else:
            duties = f"{self.short(order[0])} calls first, then takes the talon and leads"
        targets = ", ".join(f"{self.short(s)} {deal.targets[s]}" for s in order)
        c.print(f"Targets: {targets} — {duties} (T-3, T-10).")
        left = [self.short(s) for s in range(SEATS) if deal.may_pass[s]]
        c.print("May still pass this game: " + (", ".join(left) if left else "nobody"))
        self.plan = deal.plan
        if deal.plan:
            c.print(f"Exchange after the call unless it is NT (T-20): {self._plan_text(deal.plan)}.")
        c.print("Your hand: " + hand_text(deal.hand(self.seat), None))

    def _plan_text(self, plan: Sequence[tuple[int, int]]) -> str:
        steps: list[tuple[int, int, int]] = []
        for giver, receiver in plan:
            if steps and steps[-1][:2] == (giver, receiver):
                steps[-1] = (giver, receiver, steps[-1][2] + 1)
            else:
                steps.append((giver, receiver, 1))
        parts = []
        for giver, receiver, n in steps:
            gives = "You give" if giver == self.seat else f"{self.short(giver)} gives"
            to = "you" if receiver == self.seat else self.short(receiver)
            parts.append(f"{gives} {to} {n} card{'s' if n > 1 else ''}")
        return ", then ".join(parts)

    def _announce(self, deal: Deal, move: Move) -> None:
        c = self.console
        seat, action, phase = move.seat, move.action, move.before
        who = self.name(seat)
        if phase is Phase.CALL:
            assert type(action) is Call
            if action is PASS:
                c.print(f"{who}: pass")
            else:
                c.print(f"{self.does(seat, 'name')} [bold]{action.describe()}[/] as trump.")
                if deal.phase is Phase.EXCHANGE:
                    c.print(f"The exchange (T-20): {self._plan_text(deal.plan)}.")
                elif self.plan:
                    c.print("No exchange after an NT call (T-20).")
        elif phase is Phase.EXCHANGE:
            self._show_exchange(len(deal.exchanges) - 1)
        elif phase is Phase.DISCARD:
            if deal.phase is Phase.PLAY:
                if seat == self.seat:
                    c.print(f"You put back: {cards_text(list(deal.discard))}")
                else:
                    c.print(f"{who} puts back four cards face down.")
                c.print(f"{self.does(deal.first, 'lead')} the first trick (T-30).")
        else:
            assert type(action) is Card
            c.print(f"{who}: {card_text(action)}")
            if not deal.trick:
                trick = deal.tricks[-1]
                played = ", ".join(
                    f"{self.short(trick.seat_of(i))} {card_text(card)}" for i, card in enumerate(trick.cards)
                )
                c.print(
                    f"  → trick {len(deal.tricks)} ({played}) to [bold]{self.name(trick.winner)}[/] · "
                    + self._tricks_text(deal.tricks_taken, deal.targets)
                )
        if deal.phase is Phase.DISCARD and phase is not Phase.DISCARD:
            self._show_talon(deal)

    def _tricks_text(self, taken: Sequence[int], targets: Sequence[int]) -> str:
        return "tricks: " + ", ".join(f"{self.short(s)} {taken[s]}/{targets[s]}" for s in range(SEATS))

    def _show_exchange(self, step: int) -> None:
        """One exchange step as this seat may see it (T-20, T-21)."""
        e = self.view().exchanges[step]
        giver, receiver = e.giver, e.receiver
        if e.gift is None or e.returned is None:
            self.console.print(f"{self.name(giver)} gives {self.name(receiver)} a card and gets one back.")
            return
        suit = SUIT_NAMES[e.gift.suit]
        gift, back = card_text(e.gift), card_text(e.returned)
        if giver == self.seat:
            if e.returned is e.gift:
                how = f"{self.short(receiver)} has no stronger {suit[:-1]}, so {gift} comes back"
            else:
                how = f"{self.short(receiver)} gives back {back}, his strongest {suit[:-1]}"
            self.console.print(f"You give {gift} to {self.name(receiver)}; {how} (T-21).")
        else:
            if e.returned is e.gift:
                how = f"you have no stronger {suit[:-1]}, so it goes back"
            else:
                how = f"you must give back {back}, your strongest {suit[:-1]}"
            self.console.print(f"{self.name(giver)} gives you {gift}; {how} (T-21).")

    def _show_talon(self, deal: Deal) -> None:
        view = self.view()
        assert view.talon is not None
        first = deal.first
        takes = "You take it and put" if first == self.seat else f"{self.name(first)} takes it and puts"
        talon = cards_text(view.talon)
        self.console.print(f"Talon (shown to all): {talon} — {takes} back four cards (T-22).")

    def _end_deal(self, deal: Deal) -> None:
        c = self.console
        result = deal.result
        assert result is not None
        names = [self.short(s) for s in range(SEATS)]
        if result.void:
            c.print(
                f"[bold]Void deal[/]: all three passed; it is not counted and "
                f"{self.name(deal.dealer)} deals again (T-10)."
            )
        else:
            assert result.trump is not None and result.caller is not None
            number = self.game.counted
            table = Table(
                title=f"Deal {number} of {COUNTED_DEALS}: {result.trump.describe()}, named by "
                f"{self.short(result.caller)}"
            )
            table.add_column("")
            for name in names:
                table.add_column(name, justify="right")
            table.add_row("target", *map(str, result.targets))
            table.add_row("tricks", *map(str, result.tricks))
            table.add_row("score", *(f"{s:+d}" for s in result.scores))
            c.print(table)
        c.print(tfe_sheet([r.to_json() for r in self.game.results], names, title="Score table"))

    def _end_game(self) -> None:
        data = self.game.result.to_json()
        names = [self.short(s) for s in range(SEATS)]
        text = tfe_winner_text(data, names)
        if data["winner"] == self.seat:
            text = text.replace("You wins", "You win", 1)
        self.console.print(f"[bold]Game over[/]: {text}.")

    # --- asking the person ---------------------------------------------------------------------

    def choose(self, view: View) -> Action:
        """The person's decision at their turn (the table is their seat's player)."""
        assert isinstance(view, GameView) and view.deal is not None
        return self._ask_action(view.deal)

    def _ask_action(self, view: DealView) -> Action:
        if view.phase is Phase.CALL:
            return self._ask_call(view)
        if view.phase is Phase.EXCHANGE:
            return self._ask_gift(view)
        if view.phase is Phase.DISCARD:
            return self._ask_discard(view)
        return self._ask_card(view)

    def _ask_call(self, view: DealView) -> Action:
        c = self.console
        calls = ", ".join(
            f"{self.short((view.dealer + 1 + i) % SEATS)} {call}" for i, call in enumerate(view.calls)
        )
        c.print(f"Calls so far: {calls or 'none yet'}")
        if PASS in view.legal:
            c.print("You may name S, H, D, C or NT, or pass (your one pass of the game).")
        else:
            c.print("You may name S, H, D, C or NT; you have used your pass, so you must name one.")
        return self._ask_legal(view.legal, "Your call (S, H, D, C, NT or pass): ")

    def _trump(self, view: DealView) -> int | None:
        return None if view.trump is None else view.trump.suit

    def _ask_gift(self, view: DealView) -> Action:
        step = len(view.exchanges)
        receiver = view.plan[step][1]
        mine = sum(1 for g, _ in view.plan if g == self.seat)
        done = sum(1 for e in view.exchanges if e.giver == self.seat)
        self.console.print(
            f"You give {self.name(receiver)} a card ({done + 1} of {mine}); he must give back his "
            "strongest card of its suit if it is stronger, else your card comes back (T-21)."
        )
        self.console.print("Your hand: " + hand_text(view.hand, self._trump(view)))
        return self._ask_legal(view.legal, f"Card to give {self.short(receiver)} (e.g. 2C): ")

    def _ask_discard(self, view: DealView) -> Action:
        if self.pending:
            return self.pending.pop(0)
        c = self.console
        left = 4 - (view.discard or 0).bit_count()
        if left == 4:
            assert view.talon is not None
            c.print(f"You took the talon: {cards_text(view.talon)}")
        c.print("Your hand: " + hand_text(view.hand, self._trump(view)))
        c.print(f"Put back {left} card{'s' if left > 1 else ''} face down (one at a time or all at once).")
        while True:
            answer = self._read(f"Card{'s' if left > 1 else ''} to put back ({left} left): ")
            try:
                words = answer.replace(",", " ").split()
                if not words:
                    raise BlotError("type a card you hold, e.g. 2C")
                if len(words) > left:
                    raise BlotError(f"only {left} more card{'s' if left > 1 else ''} go back")
                cards = [parse_card(w) for w in words]
                for card in cards:
                    if not card.bit & view.hand:
                        raise BlotError(f"you do not hold {card}")
                if len(set(cards)) < len(cards):
                    raise BlotError("a card is named twice")
                self.pending = cards[1:]
                return cards[0]
            except BlotError as e:
                self._refuse(e)

    def _ask_card(self, view: DealView) -> Action:
        c = self.console
        trump = self._trump(view)
        trick = ", ".join(f"{self.short(s)} {card_text(card)}" for s, card in view.trick) or "you lead"
        c.print(
            f"Trick {len(view.tricks) + 1}: {trick} · trump: "
            f"{'none (NT)' if view.trump is None or trump is None else SUIT_NAMES[trump]}"
        )
        c.print(self._tricks_text(view.tricks_taken, view.targets))
        c.print("Your hand: " + hand_text(view.hand, trump))
        legal = [a for a in view.legal if type(a) is Card]
        c.print("Legal: " + cards_text(legal))
        return self._ask_legal(view.legal, "Your card (e.g. 10H): ")


#: The table ``blot play`` seats the person at (:func:`blot.cli.terminal.play`).
TABLE = TfeTable


def print_replay(replay: Replay, console: Console | None = None) -> None:
    """``blot replay``'s readable output: the score table and how the game ended."""
    console = console or Console()
    data = replay.to_json()
    names = [markup(p) for p in replay.players] if replay.players else ["seat 0", "seat 1", "seat 2"]
    console.print(tfe_sheet(data["deals"], names, title=GAME_NAME))
    if data["finished"]:
        console.print(f"Game over: {tfe_winner_text(data, names)}.")
    else:
        console.print(
            "Unfinished: " + ", ".join(f"{n} {t}" for n, t in zip(names, data["totals"], strict=True)) + "."
        )


def tfe_sheet(deals: list[dict[str, Any]], names: list[str], title: str | None = None) -> Table:
    """The score table of a 3-5-8 game (docs/format.md deal objects): one row per deal, void deals
    included but not numbered among the nine counted ones; per seat its tricks against its
    target, its score in the deal and its running total."""
    table = Table(title=title, caption="tricks/target  score (total) · score = tricks - target (T-40)")
    table.add_column("deal", justify="right")
    table.add_column("dealer")
    table.add_column("trump (by)")
    for name in names:
        table.add_column(name, justify="right")
    totals = [0, 0, 0]
    counted = 0
    for d in deals:
        totals = [t + s for t, s in zip(totals, d["scores"], strict=True)]
        if d["void"]:
            table.add_row("-", names[d["dealer"]], "void: all passed", "", "", "")
            continue
        counted += 1
        table.add_row(
            str(counted),
            names[d["dealer"]],
            f"{d['trump']} ({names[d['caller']]})",
            *(f"{d['tricks'][s]}/{d['targets'][s]}  {d['scores'][s]:+d} ({totals[s]})" for s in range(3)),
        )
    return table


def tfe_winner_text(data: dict[str, Any], names: list[str]) -> str:
    """Who won a finished 3-5-8 game, and how the tie-break decided when the totals tied (T-50)."""
    winner: int = data["winner"]
    totals: list[int] = data["totals"]
    text = f"{names[winner]} wins with {totals[winner]}"
    tied = [s for s in range(3) if totals[s] == totals[winner] and s != winner]
    if not tied:
        return text
    last = next(d for d in reversed(data["deals"]) if not d["void"])
    others = " and ".join(names[s] for s in tied)
    if all(last["scores"][s] < last["scores"][winner] for s in tied):
        how = "more points in the last deal"
    else:
        how = "took the latest trick of the last deal"
    return f"{text} (tied with {others}; tie-break T-50: {how})"
