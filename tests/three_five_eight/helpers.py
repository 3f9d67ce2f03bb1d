"""Shared helpers for the 3-5-8 tests: worked deals from partial hands, and driving a deal."""

from __future__ import annotations

from collections.abc import Iterable
from random import Random

from blot.cards import DECK52, SUIT_MASKS, cards_of, parse_card, parse_cards
from blot.three_five_eight import Action, Deal, DealResult, Game, parse_action
from blot.three_five_eight.calls import HEARTS, Call


def fill(h0: str, h1: str, h2: str, talon: str = "", voids: str = "") -> tuple[list[int], int]:
    """Three hands and a talon from the cards a test cares about; every other card goes, low
    suit and rank first (void suits' cards before the rest), to the seat (then the talon) with
    the fewest cards so far. ``voids``
    lists, per seat, suits that the filler must not give it: ``"0:SH 2:C"``."""
    hands = [parse_cards(h) for h in (h0, h1, h2)]
    tal = parse_cards(talon)
    banned = [0, 0, 0]
    for item in voids.split():
        who, suits = item.split(":")
        for letter in suits:
            banned[int(who)] |= SUIT_MASKS["SHDC".index(letter)]
    rest = DECK52 & ~(hands[0] | hands[1] | hands[2] | tal)
    # the cards some seat may not take are placed first, so the others still have room
    for card in sorted(cards_of(rest), key=lambda c: (-sum(b & c.bit > 0 for b in banned), c.index)):
        open_seats = [s for s in range(3) if hands[s].bit_count() < 16 and not banned[s] & card.bit]
        if open_seats:
            seat = min(open_seats, key=lambda s: (hands[s].bit_count(), s))
            hands[seat] |= card.bit
        else:
            assert tal.bit_count() < 4, f"no room for {card}"
            tal |= card.bit
    return hands, tal


def make_deal(
    h0: str,
    h1: str,
    h2: str,
    talon: str = "",
    *,
    dealer: int = 2,
    voids: str = "",
    may_pass: tuple[bool, bool, bool] = (True, True, True),
    previous: DealResult | None = None,
) -> Deal:
    hands, tal = fill(h0, h1, h2, talon, voids)
    return Deal(hands, tal, dealer, may_pass=may_pass, previous=previous)


def act(state: Deal | Game, *texts: str) -> None:
    """Apply actions written in record notation, one after another."""
    for text in texts:
        state.apply(parse_action(text))


def to_play(deal: Deal, call: Call = HEARTS, discard: Iterable[str] | None = None) -> Deal:
    """Name ``call`` at the first chance (others pass when allowed), then discard (by default
    the four lowest-index cards of the first seat that the test did not name)."""
    while deal.trump is None:
        deal.apply(call)
    if discard is None:
        discard = [str(c) for c in cards_of(deal.hand(deal.first))[:4]]
    for text in discard:
        deal.apply(parse_card(text))
    return deal


def random_play(state: Deal | Game, rng: Random, stop: int | None = None) -> list[Action]:
    """Random legal actions until the end (or ``stop`` actions); returns them."""
    done: list[Action] = []
    while not state.is_over and (stop is None or len(done) < stop):
        legal = state.legal_actions()
        if not legal:
            break
        action = rng.choice(legal)
        state.apply(action)
        done.append(action)
    return done


def result(
    dealer: int, tricks: tuple[int, int, int], winners: tuple[int, ...] = (), trump: Call = HEARTS
) -> DealResult:
    """A counted deal's result with these tricks (scores = tricks - targets)."""
    from blot.three_five_eight import targets_for

    targets = targets_for(dealer)
    scores = (tricks[0] - targets[0], tricks[1] - targets[1], tricks[2] - targets[2])
    return DealResult(dealer, False, trump, (dealer + 1) % 3, targets, tricks, scores, winners)
