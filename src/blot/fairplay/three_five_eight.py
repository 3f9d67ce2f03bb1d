"""The fair-play decisions of a finished 3-5-8 game (issue 43 item 2).

3-5-8 has no partners, but a player who sees another's hand gains as a pair does. Each card
played is valued as ``blot analyse`` values it: the tricks the seat ends with, playing for itself
against the other two ("paranoid"), exactly with :data:`~blot.analysis.three_five_eight.EXACT_TRICKS`
tricks or fewer to play, before that by a search ``HORIZON`` tricks deep. The test of information
weighs the decisions with more than one legal card and at most ``Settings.tfe_left`` tricks to
play (exact searches of the actual deal and of every sampled one): the seat's view is read as the
bots read it (:func:`blot.bots.tfe_info.infer`: its hand, the talon when shown, the exchange it
took part in, the cards played) and ``samples`` deals of the hidden cards (the other two hands
and the talon or discard pile) are drawn uniformly among those consistent with it. Unlike Bazar
Blot's, these deals are not weighed by the trump calls (docs/fairplay.md says what that means).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from random import Random
from typing import Any

from blot.analysis.three_five_eight import EXACT_TRICKS, HORIZON
from blot.bots.tfe_info import TfeKnowledge, infer, sample_hands
from blot.cards import Card
from blot.fairplay.figures import Decision
from blot.fairplay.sampling import Settings, Where, judge, rng_for, share_best
from blot.game import AnyGame
from blot.solver.three_five_eight import default_tfe_solver
from blot.three_five_eight import Deal, Game
from blot.three_five_eight.values import TRICKS


def decisions(
    game: AnyGame,
    number: int,
    settings: Settings,
    seats: frozenset[int] | None = None,
    stored: Mapping[int, Mapping[str, Any]] | None = None,
) -> Iterator[Decision]:
    """Every card of ``seats`` (all by default) in the finished deals of ``game``, the
    ``number``-th record read; ``stored``: the game's stored analysis by deal number, whose card
    losses are read rather than searched again (valued the same way)."""
    assert isinstance(game, Game), "3-5-8's fair-play figures were given another game"
    for index, played in enumerate(game.deals):
        if not played.is_over or played.is_void:
            continue
        losses = _stored_losses(stored, index + 1, len(played.plays))
        counted = [r for r in game.results[:index] if not r.void]
        deal = Deal(played.dealt, played.talon, played.dealer, previous=counted[-1] if counted else None)
        for action in (*played.calls, *played.gifts, *played.discard):
            deal.apply(action)
        for n, card in enumerate(played.plays):
            seat = deal.to_act
            assert seat is not None
            if seats is None or seat in seats:
                rng = rng_for(settings, played.dealt, played.talon, played.dealer, n)
                loss = None if losses is None else losses[n]
                where = (number, index + 1, seat, len(deal.tricks) + 1, n == 0, "")
                yield _decision(where, deal, card, settings, rng, loss)
            deal.apply(card)


def _values(hands: tuple[int, ...] | list[int], deal: Deal, seat: int, horizon: int) -> dict[Card, int]:
    """Each legal card's tricks for ``seat`` from the trick in progress on."""
    trick = deal.trick
    leader = trick[0][0] if trick else seat
    trump = deal.trump.suit if deal.trump is not None else None
    left = TRICKS - len(deal.tricks)
    cards = [c.index for _, c in trick]
    return default_tfe_solver().solve_cards(list(hands[:3]), cards, leader, trump, left, seat, horizon).values


def _stored_losses(
    stored: Mapping[int, Mapping[str, Any]] | None, number: int, cards: int
) -> list[int] | None:
    """Each card's loss in the stored analysis of deal ``number``, in play order (None unless it
    values every card of the deal)."""
    found = None if stored is None or number not in stored else stored[number].get("cards")
    if not isinstance(found, list) or len(found) != cards:
        return None
    return [int(c["loss"]) for c in found]


def _decision(
    where: Where, deal: Deal, card: Card, settings: Settings, rng: Random, loss: int | None
) -> Decision:
    seat = where[2]
    left = TRICKS - len(deal.tricks)

    def chances() -> tuple[float, int]:
        drawn = _drawn(infer(deal.view(seat)), rng, settings.samples)
        return share_best(card, drawn, lambda hands: _values(hands, deal, seat, left))

    return judge(
        where,
        card,
        sum(isinstance(c, Card) for c in deal.legal_actions()),
        loss,
        lambda: _values(deal.hands, deal, seat, left if left <= EXACT_TRICKS else HORIZON),
        left <= settings.tfe_left,
        chances,
    )


def _drawn(known: TfeKnowledge, rng: Random, samples: int) -> Iterator[tuple[list[int], int]]:
    """Up to ``samples`` deals of the hidden cards consistent with what the seat knows, each of
    weight 1 (fewer when no deal is consistent: :func:`sample_hands` gives up)."""
    for _ in range(samples):
        hands = sample_hands(known, rng)
        if hands is None:
            return
        yield hands, 1
