"""The fair-play decisions of a finished Bazar Blot game (issue 43 item 2).

Each card played is valued double-dummy in the actual deal, exactly, as ``blot analyse`` values
it (the card points its team ends with, B-12). A card decision with more than one legal card
from trick ``from_trick`` on is weighed by the test of information: the seat's view at that
moment (:meth:`blot.bazar.Deal.view`: its hand, the calls, the cards played, declarations and
belote shown) is read as the bots read it (:func:`blot.bots.bazar_info.infer`), ``samples`` deals
of the hidden cards are drawn consistent with it and weighed by how well they explain the calls
(:class:`blot.bots.bazar_belief.CallModel`, as ``expert`` weighs them: bidding inference), each
is solved exactly, and ``q`` is the weighed share of them where the card played is a best card.
Each call is valued against par (:func:`blot.analysis.par.review`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from random import Random
from typing import Any

from blot.analysis.bazar import card_positions, card_value, dd_table
from blot.analysis.par import review
from blot.bazar import Deal, Game
from blot.bots.bazar_belief import CallModel
from blot.bots.bazar_info import infer, sample_hands
from blot.bots.sampling import weighted_deals
from blot.cards import Card
from blot.fairplay.figures import CallLoss, Decision
from blot.fairplay.sampling import Settings, Where, judge, rng_for, share_best
from blot.solver import default_solver

CARD_VALUE = card_value


def decisions(
    game: Game,
    number: int,
    settings: Settings,
    seats: frozenset[int] | None = None,
    stored: Mapping[int, Mapping[str, Any]] | None = None,
) -> Iterator[Decision | CallLoss]:
    """Every card (and call, with ``bidding``) of ``seats`` (all by default) in the finished
    deals of ``game``, the ``number``-th record read; ``stored``: the game's stored analysis by
    deal number, whose bidding review and card losses are read rather than solved again."""
    for index, played in enumerate(game.deals):
        if not played.is_over or played.contract is None:
            continue  # a void deal has no play
        key = (played.dealt, played.dealer)
        known = (stored or {}).get(index + 1)
        if settings.bidding:
            for call in _reviewed_calls(played, known):
                if call["loss"] is not None and (seats is None or call["seat"] in seats):
                    yield CallLoss(number, index + 1, call["seat"], call["loss"])
        declarer = played.contract.declarer % 2
        losses = stored_losses(known, len(played.plays))
        for n, (deal, seat, card) in enumerate(card_positions(played)):
            if seats is None or seat in seats:
                side = "declarer" if seat % 2 == declarer else "defence"
                rng = rng_for(settings, key, n)
                loss = None if losses is None else losses[n]
                where = (number, index + 1, seat, len(deal.trick_winners) + 1, n == 0, side)
                yield _decision(where, deal, card, settings, rng, loss)


def _reviewed_calls(played: Deal, known: Mapping[str, Any] | None) -> list[dict[str, Any]]:
    """The deal's calls against par: the stored analysis's review when it has one for them."""
    bidding = None if known is None else known.get("bidding")
    if isinstance(bidding, Mapping) and len(bidding.get("calls", ())) == len(played.calls):
        return list(bidding["calls"])
    table = dd_table(played.dealt, played.dealer, played.rules)
    return list(review(table, played.rules, played.dealer, played.dealt, list(played.calls))["calls"])


def stored_losses(known: Mapping[str, Any] | None, cards: int) -> list[int] | None:
    """Each card's double-dummy loss in a stored deal analysis, in play order (None unless it
    values every card of the deal, exactly)."""
    found = None if known is None else known.get("cards")
    if not isinstance(found, list) or len(found) != cards or not all(c.get("exact", True) for c in found):
        return None
    return [int(c["loss"]) for c in found]


def _values(hands: list[int] | tuple[int, ...], deal: Deal) -> dict[Card, int]:
    """Each legal card's card points from the trick in progress on, double-dummy, exactly."""
    trick = [c.index for _, c in deal.trick]
    leader = deal.trick[0][0] if deal.trick else deal.leader
    left = 8 - len(deal.trick_winners)
    return default_solver().solve_cards(list(hands), trick, leader, deal.tix, left).values


def _decision(
    where: Where, deal: Deal, card: Card, settings: Settings, rng: Random, loss: int | None
) -> Decision:
    seat, trick = where[2], where[3]
    return judge(
        where,
        card,
        sum(isinstance(c, Card) for c in deal.legal_actions()),
        loss,
        lambda: _values(deal.hands, deal),
        trick >= settings.from_trick,
        lambda: chance_best(deal, seat, card, settings, rng),
    )


def chance_best(deal: Deal, seat: int, card: Card, settings: Settings, rng: Random) -> tuple[float, int]:
    """The share of deals consistent with ``seat``'s view of ``deal`` (weighed by the calls)
    in which ``card`` is a best card, and how many deals that was."""
    view = deal.view(seat)
    k = infer(view)
    model = CallModel(view, settings.trust)
    played_by = k.played_by
    pool = settings.samples * settings.pool if model.informative else settings.samples
    deals = weighted_deals(
        lambda: sample_hands(k, rng),
        lambda hands: model.weight([hands[s] | played_by[s] for s in range(4)]),
        settings.samples,
        pool,
        rng,
    )
    return share_best(card, deals, lambda hands: _values(hands, deal))
