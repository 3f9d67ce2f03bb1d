"""What one seat may know (DESIGN.md, B-42, B-43): its own hand and everything public, nothing else."""

from __future__ import annotations

import dataclasses
from random import Random

import pytest

from blot.bazar import DealView, Game, GameView, Phase, PublicDealView, PublicGameView, random_deal
from blot.bazar.declarations import DECLARE_NONE
from blot.bazar.tables import NT
from blot.bazar.view import Announcement
from blot.cards import Suit, parse_card

from .helpers import declare, fill, finish, new_deal, play, play_random_game, snapshot

#: The fields a view has. A new field must be checked for leaks before it is added here.
VIEW_FIELDS = [
    "rules",
    "dealer",
    "phase",
    "to_act",
    "calls",
    "contract",
    "trump",
    "announced",
    "shown",
    "declarations_team",
    "trick",
    "tricks",
    "tricks_taken",
    "card_points",
    "belotes",
    "result",
    # the seat's own, after the public view's (a seat's view extends the public view)
    "seat",
    "hand",
    "own_declarations",
    "legal",
    "best_declare",
]
GAME_VIEW_FIELDS = [
    "rules",
    "phase",
    "to_act",
    "dealer",
    "deal_number",
    "totals",
    "results",
    "finished",
    "winner",
    "match_score",
    "tars_kapoot",
    "deal",
    # the seat's own, after the public view's
    "seat",
    "legal",
]


#: What a seat's view has that the public view (spectators) has not: its own cards and choices.
PRIVATE_FIELDS = {"seat", "hand", "own_declarations", "legal", "best_declare"}


def test_view_fields_are_pinned() -> None:
    assert [f.name for f in dataclasses.fields(DealView)] == VIEW_FIELDS
    assert [f.name for f in dataclasses.fields(GameView)] == GAME_VIEW_FIELDS
    public = [f.name for f in dataclasses.fields(PublicDealView)]
    assert public == [f for f in VIEW_FIELDS if f not in PRIVATE_FIELDS]
    assert [f.name for f in dataclasses.fields(PublicGameView)] == [
        f for f in GAME_VIEW_FIELDS if f not in PRIVATE_FIELDS
    ]
    assert [f.name for f in dataclasses.fields(Announcement)] == ["seat", "kind", "rank"]


def test_view_during_bidding_own_hand_and_public_calls() -> None:
    hands = random_deal(Random(3)).hands
    deal = new_deal(hands, "8S contra", dealer=3)
    for seat in range(4):
        v = deal.view(seat)
        assert v.seat == seat and v.team == seat % 2
        assert v.hand == hands[seat]
        assert v.phase is Phase.BIDDING and v.to_act == 2
        assert [(s, str(c)) for s, c in v.calls] == [(0, "8S"), (1, "contra")]
        assert v.contract is None and v.trump is None
        assert v.announced == () and v.shown == () and v.trick == () and v.tricks == ()
        assert v.legal == (tuple(deal.legal_actions()) if seat == 2 else ())
        assert v.result is None


def test_view_in_play_hand_trick_and_legal_cards() -> None:
    deal = new_deal(fill("7S", "8S", "9S", "10S"), "8H pass pass pass")
    play(deal, "7S 8S")
    for seat in range(4):
        v = deal.view(seat)
        assert v.hand == deal.hands[seat]
        assert v.trick == ((0, parse_card("7S")), (1, parse_card("8S")))
        assert v.to_act == 2
        assert v.contract is not None and v.trump == 1
        assert v.legal == (tuple(deal.legal_actions()) if seat == 2 else ())
    play(deal, "9S 10S")
    v = deal.view(1)
    assert v.trick == () and len(v.tricks) == 1 and v.tricks[0].winner == v.to_act == 3
    assert v.tricks_taken == tuple(deal.tricks_taken)
    assert v.card_points == (deal.card_points[0], deal.card_points[1])


def test_view_must_declare_own_declarations_announcements() -> None:
    deal = new_deal(fill("AS KS QS", "", "AD KD QD JD"), "8H pass pass pass")
    v0 = deal.view(0)
    assert v0.must_declare and v0.own_declarations is None
    assert all(a in deal.legal_actions() for a in v0.legal)
    assert not deal.view(1).must_declare
    deal.apply(declare("AS KS QS"))
    assert [d.cards_text for d in deal.view(0).own_declarations or ()] == ["AS KS QS"]
    assert deal.view(1).own_declarations == ()  # nothing to declare
    for seat in range(4):
        assert deal.view(seat).announced == (Announcement(0, "terz", 14),)
    deal.apply(deal.legal_actions()[0])
    v1 = deal.view(1)
    assert v1.must_declare is False and v1.legal == tuple(deal.legal_actions())
    assert v1.announced == (Announcement(0, "terz", 14),) and v1.shown == ()


def test_view_declarations_shown_from_the_second_trick_counting_team_only() -> None:
    deal = new_deal(fill("AS KS QS", "AD KD QD JD", "AC KC QC"), "8H pass pass pass")
    deal.apply(declare("AS KS QS"))
    deal.apply(deal.legal_actions()[0])
    deal.apply(declare("AD KD QD JD"))
    deal.apply(deal.legal_actions()[0])
    deal.apply(declare("AC KC QC"))
    deal.apply(deal.legal_actions()[0])
    for seat in range(4):
        v = deal.view(seat)
        assert v.shown == () and v.declarations_team is None
        assert [(a.seat, a.kind, a.rank) for a in v.announced] == [
            (0, "terz", 14),
            (1, "fifty", 14),
            (2, "terz", 14),
        ]
    if deal.must_declare:
        deal.apply(DECLARE_NONE)
    deal.apply(deal.legal_actions()[0])  # the first trick is complete
    assert len(deal.tricks) == 1
    for seat in range(4):
        v = deal.view(seat)
        assert v.declarations_team == 1
        assert [(s, d.cards_text) for s, d in v.shown] == [(1, "AD KD QD JD")]
    finish(deal)
    assert deal.view(0).shown == deal.view(3).shown


def test_view_belote_announced_when_played() -> None:
    deal = new_deal(fill("KH QH 7S"), "8H pass pass pass")
    assert all(deal.view(s).belotes == () for s in range(4))
    play(deal, "KH")
    assert all(deal.view(s).belotes == ((0, parse_card("KH")),) for s in range(4))


def test_view_result_once_over_and_game_context() -> None:
    game = Game(rng=Random(21))
    play_random_game(game, Random(22))
    assert game.deal is not None and game.deal.is_over
    v = game.view(2)
    assert v.deal is not None and v.deal.result == game.deal.result
    assert v.deal_number == len(game.deals) and v.finished and v.winner == game.winner
    assert v.totals == game.totals and v.match_score == game.match_score
    assert list(v.results) == [d.result for d in game.deals]
    assert v.legal == () and v.to_act is None


def test_view_seat_out_of_range() -> None:
    deal = new_deal(fill())
    with pytest.raises(ValueError, match="a seat is a number from 0 to 3, not 4"):
        deal.view(4)


def test_view_does_not_change_the_deal() -> None:
    deal = new_deal(random_deal(Random(5)).hands, "9D pass pass pass")
    before = snapshot(deal)
    for seat in range(4):
        deal.view(seat)
    assert snapshot(deal) == before


@pytest.mark.parametrize(
    ("calls", "tix"),
    [
        ("", NT),  # before the contract
        ("8S pass pass pass", Suit.S.value),  # B-21: the bid's suit is trump
        ("10NT pass pass pass", NT),  # no trump
        ("9C contra pass pass", Suit.C.value),
    ],
)
def test_b21_view_tix_is_the_trump_suit_or_nt(calls: str, tix: int) -> None:
    deal = new_deal(random_deal(Random(5)).hands, calls, dealer=3)
    assert deal.view(0).tix == tix
