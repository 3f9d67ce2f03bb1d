"""Double-dummy analysis of 3-5-8 deals (:mod:`blot.analysis`).

A card's value is the tricks the acting seat holds at the end of the deal when it plays for
itself from that card on and the other two play against it ("paranoid", as the solver plays
it): the tricks it has taken plus the solver's value of the card from the trick in progress on.
The exchange and the discard are not valued; 3-5-8 has no dd table (its trump is named, not bid).

An exact search from the first lead can take minutes, so a position with more than
:data:`EXACT_TRICKS` tricks to play is searched :data:`HORIZON` tricks deep and the rest
estimated, as the ``pimc`` bot does; such values are marked not exact. Measured on 27 deals:
0.47 s a deal (the slowest position 2.4 s), against 2.1 s with one more exact trick and one
more trick of depth.
"""

from __future__ import annotations

from collections.abc import Iterator

from blot.analysis import CardValue, DealAnalysis, losses
from blot.cards import Card
from blot.game import AnyGame
from blot.solver import tfe_kernel
from blot.solver.three_five_eight import default_tfe_solver
from blot.three_five_eight import SEATS, Deal, Game
from blot.three_five_eight.values import TRICKS, DealtCards

#: The compiled search this analysis uses (``blot analyse`` says when it compiles).
kernel = tfe_kernel

#: Every lost trick is a large loss on the replay: a trick is a point of the deal's score (T-40).
large = 1
#: Accuracy's scale (:func:`blot.analysis.accuracy`): a deal's 16 tricks over its 48 cards.
card_value = TRICKS / (TRICKS * SEATS)
#: Positions with at most this many tricks to play are solved exactly.
EXACT_TRICKS = 9
#: Earlier positions are searched this many tricks deep, the rest estimated.
HORIZON = 5


def analyse_deal(game: AnyGame, index: int) -> DealAnalysis:
    """Deal ``index`` (from 0) of a 3-5-8 game, which must be over."""
    assert isinstance(game, Game), "a 3-5-8 analysis was given another game"
    played = game.deals[index]
    if played.is_void:
        return DealAnalysis(index + 1, True, (), (0, 0, 0), None)
    counted = [r for r in game.results[:index] if not r.void]
    # The deal from its cards again: every seat may pass (the calls recorded were legal with
    # fewer passes allowed), the exchange as the last counted deal decided it (T-20).
    deal = Deal(played.dealt, played.talon, played.dealer, previous=counted[-1] if counted else None)
    for action in (*played.calls, *played.gifts, *played.discard):
        deal.apply(action)
    cards: list[CardValue] = []
    for card in played.plays:
        seat = deal.to_act
        assert seat is not None
        taken = deal.tricks_taken[seat]
        left = TRICKS - len(deal.trick_winners)
        exact = left <= EXACT_TRICKS
        solved = default_tfe_solver().solve(deal, me=seat, horizon=left if exact else HORIZON)
        values = {c: taken + v for c, v in solved.values.items()}
        cards.append(CardValue.of(seat, card, len(deal.trick_winners) + 1, values, exact))
        deal.apply(card)
    return DealAnalysis(index + 1, False, tuple(cards), losses(cards, SEATS), None)


def play_deal(game: AnyGame, source: AnyGame, index: int) -> Iterator[int]:
    """Play deal ``index`` (from 0) of the finished ``source`` again on ``game``, which has
    played the deals before it: yields before each card with the number of cards played so far
    (a puzzle's position, :mod:`blot.puzzles`)."""
    assert isinstance(game, Game) and isinstance(source, Game), "a 3-5-8 game was expected"
    played = source.deals[index]
    game.start_deal(DealtCards(played.dealt, played.talon))
    for action in (*played.calls, *played.gifts, *played.discard):
        game.apply(action)
    for after, card in enumerate(played.plays):
        yield after
        game.apply(card)


def strength(game: AnyGame, card: Card) -> int:
    """How high ``card`` ranks in its suit: by its rank, in every suit (T-1)."""
    return card.rank
