"""Each seat's view (DESIGN.md): its own hand and what is public, the talon once shown (T-22),
the discard only for the first seat, exchange cards only for their giver and receiver (T-20); and
the public view (spectators): what is public only."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from blot.cards import parse_card, parse_cards
from blot.errors import BlotError
from blot.game import Trick
from blot.three_five_eight import HEARTS, STRAINS, DealView, Exchange, Game, Phase, PublicDealView

from .helpers import act, make_deal, random_play, result

TALON = "2C 3C 4C 5C"


def test_view_in_the_call_phase() -> None:
    deal = make_deal("AS", "KS", "QS", TALON, dealer=2, may_pass=(True, False, True))
    for seat in range(3):
        v = deal.view(seat)
        assert v.seat == seat and v.hand == deal.hand(seat) and v.phase is Phase.CALL
        assert v.talon is None and v.discard is None and v.trump is None
        assert v.targets == (8, 5, 3) and v.hand_sizes == (16, 16, 16)
        assert v.may_pass == (True, False, True) and v.scores is None
    assert deal.view(0).legal == deal.legal_actions() and deal.view(1).legal == ()
    act(deal, "pass")
    assert deal.view(1).legal == STRAINS and deal.view(1).calls == (deal.calls[0],)


def test_exchange_cards_are_seen_by_giver_and_receiver_only() -> None:
    # previous: dealer 0, tricks 5 7 4 -> seat 0 gives one card to seat 1, then one to seat 2
    deal = make_deal("10S 5H", "9S 3S", "KH", TALON, dealer=1, voids="1:S 2:H", previous=result(0, (5, 7, 4)))
    act(deal, "D", "10S", "5H")
    first = Exchange(0, 1, parse_card("10S"), parse_card("10S"))
    second = Exchange(0, 2, parse_card("5H"), parse_card("KH"))
    assert deal.view(0).exchanges == (first, second)
    assert deal.view(1).exchanges == (first, Exchange(0, 2, None, None))
    assert deal.view(2).exchanges == (Exchange(0, 1, None, None), second)
    assert all(deal.view(s).plan == ((0, 1), (0, 2)) for s in range(3))


def test_discard_is_seen_by_the_first_seat_only_and_the_talon_by_all() -> None:
    deal = make_deal("", "AS", "", TALON, dealer=0)  # seat 1 is first
    act(deal, "H", "2C", "AS")
    assert deal.view(1).discard == parse_cards("2C AS")
    assert deal.view(0).discard is None and deal.view(2).discard is None
    assert all(deal.view(s).talon == parse_cards(TALON) for s in range(3))


def test_tricks_and_trick_in_progress_are_public() -> None:
    deal = make_deal(
        "AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S", "3H 4H 5H 7H 8H 10H JH QH KH AH", "2H 6H 9H", TALON
    )
    act(deal, "H", *TALON.split(), "AS", "5H", "9H", "2H")
    for seat in range(3):
        v = deal.view(seat)
        assert v.tricks == (Trick(0, tuple(parse_card(c) for c in ("AS", "5H", "9H")), 2),)
        assert v.tricks[0].seat_of(2) == 2
        assert v.trick == ((2, parse_card("2H")),)
        assert v.tricks_taken == (0, 0, 1) and v.to_act == 0 and v.phase is Phase.PLAY
        assert v.hand_sizes == (15, 15, 14)
    assert deal.view(0).legal == deal.legal_actions() != ()


def test_game_view_holds_public_results_and_the_deal_view() -> None:
    game = Game(dealer=0, rng=Random(3))
    random_play(game, Random(4), stop=120)
    v = game.view(2)
    assert v.seat == 2 and v.results == game.results and v.totals == game.totals
    assert v.deal is not None and v.deal.hand == game.deal.hand(2)  # type: ignore[union-attr]
    assert v.legal == (game.legal_actions() if game.to_act == 2 else ())
    assert v.counted == game.counted and not v.finished and v.winner is None
    with pytest.raises(BlotError, match="a seat is a number from 0 to 2, not 3"):
        game.view(3)


def test_view_after_the_deal_keeps_the_discard_secret() -> None:
    deal = make_deal("", "", "", TALON, dealer=2)
    act(deal, HEARTS.text)
    random_play(deal, Random(1))
    assert deal.view(1).discard is None and deal.view(0).discard is not None
    assert deal.view(1).scores == deal.scores


def test_the_public_view_has_the_seat_views_fields_but_the_private_ones() -> None:
    private = {"seat", "hand", "discard", "legal"}
    seat_fields = [f.name for f in dataclasses.fields(DealView)]
    assert [f.name for f in dataclasses.fields(PublicDealView)] == [
        f for f in seat_fields if f not in private
    ]


def test_the_public_view_shows_the_exchange_steps_without_their_cards_and_the_talon_once_shown() -> None:
    # previous: dealer 0, tricks 5 7 4 -> seat 0 gives one card to seat 1, then one to seat 2
    deal = make_deal("10S 5H", "9S 3S", "KH", TALON, dealer=1, voids="1:S 2:H", previous=result(0, (5, 7, 4)))
    act(deal, "D", "10S")
    public = deal.public_view()
    assert public.exchanges == (Exchange(0, 1, None, None),) and public.talon is None
    act(deal, "5H")
    public = deal.public_view()
    assert public.exchanges == (Exchange(0, 1, None, None), Exchange(0, 2, None, None))
    assert public.talon == parse_cards(TALON) and public.phase is Phase.DISCARD
    assert public.hand_sizes == (16, 16, 20) and public.plan == ((0, 1), (0, 2))  # seat 2 took the talon


def test_a_seats_view_extends_the_public_one_but_is_never_shown_to_all() -> None:
    """Issue 39: a seat's view is the public view's fields and the seat's own after them; the
    presenter still refuses to show a seat's view (its exchanged cards, T-20) as the public one."""
    from blot.wire import three_five_eight as wire

    game = Game(rng=Random(5))
    seat, public = game.view(0), game.public_view()
    assert isinstance(seat.deal, PublicDealView) and public.deal is not None
    assert {f.name: getattr(public.deal, f.name) for f in dataclasses.fields(public.deal)} == {
        f.name: getattr(seat.deal, f.name) for f in dataclasses.fields(public.deal) if f.name != "exchanges"
    } | {"exchanges": public.deal.exchanges}
    assert wire.public_json(public) is not None
    with pytest.raises(AssertionError):
        wire.public_json(seat)
