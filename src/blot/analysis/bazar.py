"""Double-dummy analysis of Bazar Blot deals (:mod:`blot.analysis`).

A card's value is the card points its team holds at the end of the deal (B-12, the last trick's
10 included, no kapoot bonus) when everybody plays perfectly from that card on: the points its
team has already won plus the solver's value of the card from the trick in progress on.

The *dd table* of a deal gives, for each strain, each team's card points under perfect play
from the first lead (the seat after the dealer leads, B-30, whoever declares), and the highest
level each team would make there as contractors (B-51), with its declarations and belote in that
strain. **Interpretations**: each seat declares its best set (as a record without declarations
does), ties between equal declarations are decided for the first leader's side; a team is
counted as taking all eight tricks (level 25) when it takes all 162 card points; the kanach
level (30) is not considered.

Each deal's calls are also reviewed against its *par contract* (:mod:`blot.analysis.par`).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from blot.analysis import CardValue, DealAnalysis, losses
from blot.analysis.par import review
from blot.bazar import PASS, Deal, Game, Rules, bid
from blot.bazar.deal import BELOTE
from blot.bazar.declarations import DECLARE_NONE, Declare, best_choice, choices, resolve
from blot.bazar.tables import NT, PLAIN_ORDER, STRAIN_INDEX, TOTAL_CARD_POINTS, TRUMP_ORDER
from blot.bazar.values import DealtCards
from blot.cards import Card
from blot.game import AnyGame
from blot.solver import bazar_kernel, default_solver

#: The compiled search this analysis uses (``blot analyse`` says when it compiles).
kernel = bazar_kernel

#: A loss of 10 card points or more is large on the replay (a game point: B-50 counts card
#: points in tens); a smaller one is small.
large = 10
#: Accuracy's scale (:func:`blot.analysis.accuracy`): a deal's 162 card points over its 32 cards.
card_value: Final = TOTAL_CARD_POINTS / 32
STRAINS: Final = ("S", "H", "D", "C", "NT")
KAPOOT: Final = 25


def analyse_deal(game: AnyGame, index: int) -> DealAnalysis:
    """Deal ``index`` (from 0) of a Bazar Blot game, which must be over."""
    assert isinstance(game, Game), "a Bazar Blot analysis was given another game"
    played = game.deals[index]
    table = dd_table(played.dealt, played.dealer, played.rules)
    bidding = review(table, played.rules, played.dealer, played.dealt, list(played.calls))
    if played.contract is None:
        return DealAnalysis(index + 1, True, (), (0, 0, 0, 0), table, bidding)
    cards: list[CardValue] = []
    for deal, seat, card in card_positions(played):
        won = deal.card_points[seat % 2]
        values = {c: won + v for c, v in default_solver().solve(deal).values.items()}
        cards.append(CardValue.of(seat, card, len(deal.trick_winners) + 1, values))
    return DealAnalysis(index + 1, False, tuple(cards), losses(cards, 4), table, bidding)


def card_positions(played: Deal) -> Iterator[tuple[Deal, int, Card]]:
    """Each card of a played deal with the position it was played from: the deal replayed up
    to it (the calls, the cards before it, each seat's declarations as made) and its seat. The
    deal is one object, moved on past the card once the caller is done with it."""
    deal = Deal(played.dealt, played.dealer, played.rules)
    for call in played.calls:
        deal.apply(call)
    for card in played.plays:
        while deal.must_declare:
            seat = deal.to_act
            assert seat is not None
            deal.apply(Declare(played.declared[seat] or ()))
        seat = deal.to_act
        assert seat is not None
        yield deal, seat, card
        deal.apply(card)


def dd_table(hands: tuple[int, ...], dealer: int, rules: Rules) -> dict[str, dict[str, list[int | None]]]:
    """Each strain's double-dummy card points per team from the first lead, and the highest
    level (B-51) each team would make there as contractors (``None``: not even 8); with the
    declarations (B-44) and belote each team counts there (what par scores, :mod:`.par`)."""
    first = (dealer + 1) % 4
    out: dict[str, dict[str, list[int | None]]] = {}
    for strain in STRAINS:
        deal = Deal(hands, dealer, rules)
        deal.apply(bid(8, strain))
        for _ in range(3):
            deal.apply(PASS)
        while deal.must_declare:
            deal.apply(DECLARE_NONE)
        points = default_solver().solve(deal, all_cards=False).points
        tix = STRAIN_INDEX[strain]
        declared = [best_choice(choices(h), rules, tix).declarations for h in hands]
        counted = resolve(declared, rules, tix, first).points
        belote = [0, 0]
        if tix != NT:
            for seat, hand in enumerate(hands):
                if hand & BELOTE[tix] == BELOTE[tix]:
                    belote[seat % 2] = 2
        makes: list[int | None] = []
        for team in (0, 1):
            c = int(points[team])
            if c == TOTAL_CARD_POINTS:
                makes.append(KAPOOT)
                continue
            top = c // 10 + counted[team] + belote[team]
            makes.append(min(top, KAPOOT - 1) if top >= 8 else None)
        declared_points: list[int | None] = [counted[0], counted[1]]
        out[strain] = {
            "card_points": [int(points[0]), int(points[1])],
            "makes": makes,
            "declarations": declared_points,
            "belote": [belote[0], belote[1]],
        }
    return out


def play_deal(game: AnyGame, source: AnyGame, index: int) -> Iterator[int]:
    """Play deal ``index`` (from 0) of the finished ``source`` again on ``game``, which has
    played the deals before it: yields before each card (its declarations due made), with the
    number of cards played so far (a puzzle's position, :mod:`blot.puzzles`)."""
    assert isinstance(game, Game) and isinstance(source, Game), "a Bazar Blot game was expected"
    played = source.deals[index]
    deal = game.start_deal(DealtCards(played.dealt))
    for call in played.calls:
        game.apply(call)
    for after, card in enumerate(played.plays):
        while deal.must_declare:
            seat = deal.to_act
            assert seat is not None
            game.apply(Declare(played.declared[seat] or ()))
        yield after
        game.apply(card)


def strength(game: AnyGame, card: Card) -> int:
    """How high ``card`` ranks in its suit in the deal being played (B-10: the trump order in
    the trump suit, the plain order elsewhere)."""
    assert isinstance(game, Game) and game.deal is not None, "a Bazar Blot deal was expected"
    order = TRUMP_ORDER if game.deal.trump == card.suit else PLAIN_ORDER
    return order.index(card.rank)
