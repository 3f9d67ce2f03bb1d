"""Play (B-30 … B-34): who leads, which cards are legal, why a card is refused, who wins a trick."""

from __future__ import annotations

from random import Random
from typing import Any

import pytest

from blot.bazar import Deal, Phase, random_deal
from blot.bazar.declarations import DECLARE_NONE
from blot.cards import Suit, cards_of, parse_card
from blot.errors import IllegalAction

from .helpers import fill, finish, hand_text, new_deal, play, snapshot, spec_legal, spec_winner, texts


def ready(deal: Deal) -> None:
    """Let the seat to act declare nothing, if it must first say what it declares (B-43)."""
    if deal.must_declare:
        deal.apply(DECLARE_NONE)


def refuse_card(deal: Deal, card: str, message: str) -> None:
    before = snapshot(deal)
    legal = list(deal.legal_actions())
    with pytest.raises(IllegalAction) as info:
        deal.apply(parse_card(card))
    assert str(info.value) == message
    assert snapshot(deal) == before
    assert list(deal.legal_actions()) == legal


# --- B-30 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
@pytest.mark.parametrize("declarer_offset", [1, 2, 3, 4])
def test_b30_seat_after_dealer_leads_first_trick(dealer: int, declarer_offset: int) -> None:
    passes_before = ["pass"] * (declarer_offset - 1)
    deal = new_deal(fill(), " ".join([*passes_before, "10D", "pass", "pass", "pass"]), dealer=dealer)
    assert deal.contract is not None and deal.contract.declarer == (dealer + declarer_offset) % 4
    assert deal.phase is Phase.PLAY and deal.to_act == (dealer + 1) % 4
    ready(deal)
    assert deal.view((dealer + 1) % 4).legal  # the leader may play


@pytest.mark.parametrize("seed", range(10))
def test_b30_the_winner_of_each_trick_leads_the_next(seed: int) -> None:
    rng = Random(seed)
    dealer = rng.randrange(4)
    deal = finish(
        new_deal(
            random_deal(rng).hands, "9NT pass pass pass" if seed % 2 else "9D pass pass pass", dealer=dealer
        )
    )
    assert deal.tricks[0].leader == (dealer + 1) % 4
    for before, after in zip(deal.tricks, deal.tricks[1:], strict=False):
        assert after.leader == before.winner


# --- B-31 … B-33: legal cards, table-driven ----------------------------------------------------

ANY = "*"  # the whole hand

CASES = [
    # id, strain, named cards per seat, voids for the filler, cards played, legal, refused
    (
        "b31_must_follow_the_suit_led",
        "H",
        ["7S", "8S AS JH 7D"],
        "1:S",
        "7S",
        "8S AS",
        [
            ("JH", "seat 1 holds spades and must follow spades"),
            ("7D", "seat 1 holds spades and must follow spades"),
        ],
    ),
    (
        "b31_trump_led_must_play_a_stronger_trump",
        "H",
        ["10H", "9H 7H AS"],
        "1:H",
        "10H",
        "9H",
        [
            ("7H", "seat 1 holds a trump above 10H and must play one (B-31)"),
            ("AS", "seat 1 holds trumps and must follow hearts"),
        ],
    ),
    (
        "b31_trump_led_cannot_overtrump_any_trump",
        "H",
        ["JH", "7H 8H AS"],
        "1:H",
        "JH",
        "7H 8H",
        [("AS", "seat 1 holds trumps and must follow hearts")],
    ),
    (
        "b31_trump_led_beat_the_highest_trump_in_the_trick",
        "H",
        ["10H", "AH", "KH 9H 7D"],
        "1:H 2:H",
        "10H AH",
        "9H",
        [("KH", "seat 2 holds a trump above AH and must play one (B-31)")],
    ),
    (
        "b31_trump_led_partner_winning_still_must_overtrump",
        "H",
        ["9H", "7H", "JH 8H"],
        "1:H 2:H",
        "9H 7H",
        "JH",
        [("8H", "seat 2 holds a trump above 9H and must play one (B-31)")],
    ),
    (
        "b31_trump_led_no_trump_held_any_card",
        "H",
        ["JH", "7S 8D 9C"],
        "1:H",
        "JH",
        ANY,
        [],
    ),
    (
        "b32a_partner_winning_may_discard",
        "H",
        ["AS", "7S", "7H 8C"],
        "1:S 2:S",
        "AS 7S",
        ANY,
        [],
    ),
    (
        "b32a_partner_winning_with_a_ruff_may_discard",
        "H",
        ["7S", "JH", "8S", "7H 9D"],
        "1:S 3:S",
        "7S JH 8S",
        ANY,
        [],
    ),
    (
        "b32b_partner_played_but_losing_must_ruff",
        "H",
        ["7S", "AS", "7H KH 8C"],
        "2:SH",
        "7S AS",
        "7H KH",
        [("8C", "seat 2 has no spades and must trump (B-32)")],
    ),
    (
        "b32b_must_ruff_before_the_partner_plays",
        "H",
        ["7S", "7H KH 7D"],
        "1:SH",
        "7S",
        "7H KH",
        [("7D", "seat 1 has no spades and must trump (B-32)")],
    ),
    (
        "b32b_must_overtrump_a_trump_in_the_trick",
        "H",
        ["7S", "10H", "JH 8H 7C"],
        "1:S 2:SH",
        "7S 10H",
        "JH",
        [
            ("8H", "seat 2 has no spades and must play a trump above 10H (B-32)"),
            ("7C", "seat 2 has no spades and must play a trump above 10H (B-32)"),
        ],
    ),
    (
        "b32b_must_beat_every_trump_in_the_trick",
        "H",
        ["7S", "10H", "AH", "9H KH 7D"],
        "1:S 2:S 3:SH",
        "7S 10H AH",
        "9H",
        [
            ("KH", "seat 3 has no spades and must play a trump above AH (B-32)"),
            ("7D", "seat 3 has no spades and must play a trump above AH (B-32)"),
        ],
    ),
    (
        "b32c_cannot_overtrump_any_card_no_duty_to_undertrump",
        "H",
        ["7S", "JH", "8H 7H 7C"],
        "1:S 2:SH",
        "7S JH",
        ANY,
        [],
    ),
    (
        "b33_no_card_of_the_suit_and_no_trump_any_card",
        "H",
        ["7S", "7D 8C"],
        "1:SH",
        "7S",
        ANY,
        [],
    ),
    (
        "b33_no_trump_deal_void_any_card",
        "NT",
        ["7S", "7H 8D"],
        "1:S",
        "7S",
        ANY,
        [],
    ),
    (
        "b33_no_trump_deal_must_still_follow",
        "NT",
        ["7S", "8S 7H"],
        "1:S",
        "7S",
        "8S",
        [("7H", "seat 1 holds spades and must follow spades")],
    ),
    ("b30_the_leader_may_lead_any_card", "H", ["7S JH"], "", "", ANY, []),
]


ARGS = ("strain", "named", "voids", "played", "legal", "refusals")


def _cases(prefix: str) -> list[Any]:
    found = [pytest.param(*c[1:], id=c[0]) for c in CASES if c[0].startswith(prefix)]
    assert found
    return found


def _check_legal(
    strain: str, named: list[str], voids: str, played: str, legal: str, refusals: list[tuple[str, str]]
) -> None:
    deal = new_deal(fill(*named, voids=voids), f"8{strain} pass pass pass")
    play(deal, played)
    ready(deal)
    seat = deal.to_act
    assert seat is not None
    expected = set(hand_text(deal, seat).split()) if legal == ANY else set(legal.split())
    assert set(texts(deal.legal_actions())) == expected
    trump = None if strain == "NT" else Suit[strain]
    trick = deal.plays[len(deal.tricks) * 4 :]
    assert {c.text for c in spec_legal(deal.hands[seat], trick, trump)} == expected
    for card, message in refusals:
        refuse_card(deal, card, message)
    for card in sorted(expected):  # every legal card is accepted
        copy = deal.copy()
        copy.apply(parse_card(card))


@pytest.mark.parametrize(ARGS, _cases("b30"))
def test_b30_the_leader_may_lead_any_card(
    strain: str, named: list[str], voids: str, played: str, legal: str, refusals: list[tuple[str, str]]
) -> None:
    _check_legal(strain, named, voids, played, legal, refusals)


@pytest.mark.parametrize(ARGS, _cases("b31"))
def test_b31_follow_the_suit_led_trump_led_overtrump(
    strain: str, named: list[str], voids: str, played: str, legal: str, refusals: list[tuple[str, str]]
) -> None:
    _check_legal(strain, named, voids, played, legal, refusals)


@pytest.mark.parametrize(ARGS, _cases("b32a"))
def test_b32a_partner_winning_may_discard(
    strain: str, named: list[str], voids: str, played: str, legal: str, refusals: list[tuple[str, str]]
) -> None:
    _check_legal(strain, named, voids, played, legal, refusals)


@pytest.mark.parametrize(ARGS, _cases("b32b"))
def test_b32b_must_ruff_with_a_trump_above_every_card_in_the_trick(
    strain: str, named: list[str], voids: str, played: str, legal: str, refusals: list[tuple[str, str]]
) -> None:
    _check_legal(strain, named, voids, played, legal, refusals)


@pytest.mark.parametrize(ARGS, _cases("b32c"))
def test_b32c_cannot_overtrump_any_card_no_duty_to_undertrump(
    strain: str, named: list[str], voids: str, played: str, legal: str, refusals: list[tuple[str, str]]
) -> None:
    _check_legal(strain, named, voids, played, legal, refusals)


@pytest.mark.parametrize(ARGS, _cases("b33"))
def test_b33_no_card_of_the_suit_and_no_trump_or_no_trump_deal_any_card(
    strain: str, named: list[str], voids: str, played: str, legal: str, refusals: list[tuple[str, str]]
) -> None:
    _check_legal(strain, named, voids, played, legal, refusals)


def test_b31_not_holding_the_card() -> None:
    deal = new_deal(fill("7S", "", "AS"), "8H pass pass pass")
    play(deal, "7S")
    ready(deal)
    refuse_card(deal, "AS", "seat 1 does not hold AS")
    refuse_card(deal, "7S", "seat 1 does not hold 7S")  # already played


def test_b31_suit_led_is_the_first_card_not_the_winner() -> None:
    # 7S led, seat 1 ruffs with 7H; seat 2 holds spades and hearts and must follow spades
    deal = new_deal(fill("7S", "7H", "8S JH", voids="1:S"), "8H pass pass pass")
    play(deal, "7S 7H")
    ready(deal)
    assert "JH" not in texts(deal.legal_actions())
    refuse_card(deal, "JH", "seat 2 holds spades and must follow spades")


# --- B-34 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strain", "named", "voids", "trick", "winner"),
    [
        ("H", ["7S", "AD", "8S", "KS"], "1:SH", "7S AD 8S KS", 3),  # highest of the suit led
        ("H", ["7S", "7H", "8S", "AS"], "1:S", "7S 7H 8S AS", 1),  # the only trump
        ("H", ["7S", "10H", "JH", "AS"], "1:S 2:S", "7S 10H JH AS", 2),  # the highest trump
        ("NT", ["7S", "AH", "8S", "AD"], "1:S 3:S", "7S AH 8S AD", 2),  # no trump: suit led
        ("D", ["9D", "JD", "AD", "10D"], "", "9D JD AD 10D", 1),  # trump led: J over 9
        ("C", ["AC JC 9C", "10C", "KC", "QC"], "", "AC 10C KC QC", 0),  # A is below 9 and J only
    ],
)
def test_b34_trick_winner(strain: str, named: list[str], voids: str, trick: str, winner: int) -> None:
    deal = new_deal(fill(*named, voids=voids), f"8{strain} pass pass pass")
    play(deal, trick)
    assert deal.tricks[0].winner == winner
    trump = None if strain == "NT" else Suit[strain]
    assert spec_winner([parse_card(c) for c in trick.split()], trump) == winner
    assert deal.to_act == winner or deal.is_over


def test_b31_to_b34_random_deals_match_the_rule_text() -> None:
    """Every position of 300 random deals: the legal cards are those B-31 … B-33 name, the trick
    winners those of B-34."""
    for seed in range(300):
        rng = Random(seed)
        strain = rng.choice(["S", "H", "D", "C", "NT"])
        deal = new_deal(random_deal(rng).hands, f"8{strain} pass pass pass", dealer=rng.randrange(4))
        trump = None if strain == "NT" else Suit[strain]
        while not deal.is_over:
            ready(deal)
            seat = deal.to_act
            assert seat is not None
            trick = deal.plays[len(deal.tricks) * 4 :]
            legal = deal.legal_actions()
            assert set(legal) == spec_legal(deal.hands[seat], trick, trump), (seed, deal.plays)
            before = len(deal.tricks)
            deal.apply(rng.choice(legal))
            if len(deal.tricks) > before:
                t = deal.tricks[-1]
                assert t.winner == (t.leader + spec_winner(t.cards, trump)) % 4
        assert sorted(c.index for c in deal.plays) == sorted(c.index for c in cards_of(sum(deal.dealt)))
