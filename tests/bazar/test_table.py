"""Table and cards (B-1 … B-3), trick strength and card points (B-10, B-12)."""

from __future__ import annotations

from random import Random

import pytest

from blot.bazar import PASS, Deal, DealtCards, Game, Phase, check_hands, parse_call, random_deal
from blot.cards import DECK32, SUIT_MASKS, Suit, cards_of, parse_card, parse_cards
from blot.errors import BlotError

from .helpers import (
    PLAIN_STRENGTH,
    TRUMP_STRENGTH,
    fill,
    finish,
    new_deal,
    play,
    spec_points,
    spec_winner,
)

RANKS = ["7", "8", "9", "10", "J", "Q", "K", "A"]

# --- B-1: seats and teams -------------------------------------------------------------------------


@pytest.mark.parametrize("declarer", [0, 1, 2, 3])
def test_b1_teams_are_seats_0_2_and_1_3(declarer: int) -> None:
    # dealer 3: seat 0 calls first; the declarer bids, the others pass
    before = " ".join(["pass"] * declarer)
    after = " ".join(["pass"] * 3)
    deal = new_deal(fill(), f"{before} 8NT {after}")
    assert deal.contract is not None
    assert deal.contract.declarer == declarer
    assert deal.contract.team == declarer % 2
    finish(deal)
    result = deal.result
    assert result is not None
    won = deal.tricks_taken
    assert result.tricks == (won[0] + won[2], won[1] + won[3])
    assert sum(result.tricks) == 8


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_b1_next_seat_is_s_plus_1_mod_4(dealer: int) -> None:
    deal = Deal(fill(), dealer)
    order = []
    for _ in range(4):
        order.append(deal.to_act)
        deal.apply(PASS)
    assert order == [(dealer + 1 + i) % 4 for i in range(4)]


# --- B-2: 32 cards, 8 each --------------------------------------------------------------------------


def test_b2_the_deck_is_7_to_ace_of_four_suits() -> None:
    assert DECK32.bit_count() == 32
    assert {c.text[:-1] for c in cards_of(DECK32)} == set(RANKS)
    assert {c.suit for c in cards_of(DECK32)} == set(Suit)


@pytest.mark.parametrize("seed", range(20))
def test_b2_random_deal_deal_8_cards_to_each_seat(seed: int) -> None:
    hands = random_deal(Random(seed)).hands
    assert len(hands) == 4
    assert [h.bit_count() for h in hands] == [8, 8, 8, 8]
    assert hands[0] | hands[1] | hands[2] | hands[3] == DECK32
    Deal(hands)  # accepted


def test_b2_random_deal_vary_with_the_seed() -> None:
    assert len({tuple(random_deal(Random(s)).hands) for s in range(50)}) == 50


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (lambda: fill()[:3], "a deal needs 4 hands, not 3"),
        (
            lambda: [parse_cards("2S") | (fill()[0] & ~parse_cards("7S")), *fill()[1:]],
            "seat 0 holds 2S, not in the 32-card deck",
        ),
        (
            lambda: [fill()[0] & ~parse_cards("7S"), *fill()[1:]],
            "seat 0 holds 7 cards, not 8",
        ),
        (
            lambda: [
                parse_cards(h)
                for h in (
                    "7S 8S 9S 10S JS QS KS AS",
                    "7S 7H 8H 9H 10H JH QH KH",
                    "7D 8D 9D 10D JD QD KD AD",
                    "7C 8C 9C 10C JC QC KC AC",
                )
            ],
            "7S dealt twice",
        ),
    ],
)
def test_b2_a_deal_needs_four_hands_of_eight_distinct_cards(hands: object, message: str) -> None:
    with pytest.raises(BlotError) as info:
        check_hands(hands())  # type: ignore[operator]
    assert str(info.value) == message
    with pytest.raises(BlotError):
        Deal(hands())  # type: ignore[operator]


# --- B-3: deals and dealers --------------------------------------------------------------------------


def test_b3_first_dealer_is_seat_0_and_each_next_deal_the_next_seat() -> None:
    game = Game(rng=Random(3))
    rng = Random(4)
    while len(game.deals) < 9 and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    assert [d.dealer for d in game.deals] == [i % 4 for i in range(len(game.deals))]
    assert len(game.deals) >= 6


@pytest.mark.parametrize("first", [1, 2, 3])
def test_b3_first_dealer_may_be_chosen(first: int) -> None:
    game = Game(dealer=first)
    deal = game.start_deal(DealtCards(fill()))
    assert deal.dealer == first
    assert deal.to_act == (first + 1) % 4
    for _ in range(4):
        game.apply(PASS)  # a void deal (B-23)
    assert game.start_deal(DealtCards(fill())).dealer == (first + 1) % 4


def test_b3_a_deal_is_bidding_then_eight_tricks_then_a_score() -> None:
    deal = new_deal(fill())
    assert deal.phase is Phase.BIDDING and deal.result is None
    for word in ["8S", "pass", "pass", "pass"]:
        assert deal.phase is Phase.BIDDING
        deal.apply(parse_call(word))
    assert deal.phase is Phase.PLAY  # type: ignore[comparison-overlap]
    finish(deal)
    assert deal.phase is Phase.OVER and deal.is_over
    assert len(deal.tricks) == 8 and deal.result is not None


# --- B-10, B-34: trick strength -------------------------------------------------------------------


def _two_card_trick(strain: str, lead: str, second: str) -> Deal:
    """Seat 0 leads ``lead``, seat 1 follows with ``second`` of the same suit (its only card of
    that suit), seats 2 and 3 hold neither the suit led nor trumps, so they only discard."""
    led, other = parse_card(lead), parse_card(second)
    letter = "SHDC"[led.suit]
    rest = [c.text for c in cards_of(SUIT_MASKS[led.suit] & DECK32) if c not in (led, other)]
    voids = f"2:{letter} 3:{letter}"
    if strain != "NT" and strain != letter:
        voids += f" 2:{strain} 3:{strain}"
    deal = new_deal(fill(" ".join([lead, *rest]), second, voids=voids), f"8{strain} pass pass pass")
    play(deal, f"{lead} {second}")
    while not deal.tricks:
        deal.apply(deal.legal_actions()[0])
    return deal


def _pairs() -> list[tuple[str, str]]:
    return [(a, b) for a in RANKS for b in RANKS if a != b]


@pytest.mark.parametrize(("a", "b"), _pairs())
def test_b10_trump_suit_strength_j_9_a_10_k_q_8_7(a: str, b: str) -> None:
    deal = _two_card_trick("H", f"{a}H", f"{b}H")
    expected = 1 if TRUMP_STRENGTH.index(b) < TRUMP_STRENGTH.index(a) else 0
    assert deal.tricks[0].winner == expected


@pytest.mark.parametrize(("a", "b"), _pairs())
def test_b10_other_suit_strength_a_10_k_q_j_9_8_7(a: str, b: str) -> None:
    deal = _two_card_trick("H", f"{a}C", f"{b}C")
    expected = 1 if PLAIN_STRENGTH.index(b) < PLAIN_STRENGTH.index(a) else 0
    assert deal.tricks[0].winner == expected


@pytest.mark.parametrize(("a", "b"), _pairs())
def test_b10_no_trump_deal_every_suit_a_10_k_q_j_9_8_7(a: str, b: str) -> None:
    deal = _two_card_trick("NT", f"{a}H", f"{b}H")
    expected = 1 if PLAIN_STRENGTH.index(b) < PLAIN_STRENGTH.index(a) else 0
    assert deal.tricks[0].winner == expected


#: 7S 9S 10S JS QS KS AS 7D / AD 10D KD QD JD 9D 8D 7C / 8S JH 9H AH 10H KH QH 8H / 7H and clubs
B34_HANDS = [
    "7S 9S 10S JS QS KS AS 7D",
    "AD 10D KD QD JD 9D 8D 7C",
    "8S JH 9H AH 10H KH QH 8H",
    "7H 8C 9C 10C JC QC KC AC",
]


def test_b10_any_trump_beats_any_non_trump() -> None:
    deal = new_deal(B34_HANDS, "8H pass pass pass")
    play(deal, "7S AD 8S 7H")  # the lowest trump takes the trick
    assert deal.tricks[0].winner == 3


def test_b34_no_trump_in_the_trick_highest_card_of_the_suit_led() -> None:
    deal = new_deal(B34_HANDS, "8NT pass pass pass")
    play(deal, "7S AD 8S 7H")  # AD and 7H are not of the suit led
    assert deal.tricks[0].winner == 2


OVERRUFF_HANDS = [
    "7S 8S 9S 10S JS QS KS AS",
    "7H 7D 8D 9D 10D JD QD KD",
    "9H AD 7C 8C 9C 10C JC QC",
    "JH AH 10H KH QH 8H KC AC",
]


def test_b34_highest_trump_wins_the_trick() -> None:
    deal = new_deal(OVERRUFF_HANDS, "8H pass pass pass")
    play(deal, "AS 7H 9H JH")
    trick = deal.tricks[0]
    assert [c.text for c in trick.cards] == ["AS", "7H", "9H", "JH"]
    assert trick.leader == 0 and trick.winner == 3
    assert deal.to_act == 3  # B-30: the winner leads the next trick


# --- B-12: card points ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("strain", "trick", "seat0", "points"),
    [
        ("H", "JH 9H AH 10H", "", 55),
        ("H", "KH QH 8H 7H", "JH 9H AH 10H", 7),
        ("H", "AS 10S KS QS", "", 28),
        ("H", "JS 9S 8S 7S", "", 2),
        ("NT", "AS 10S KS QS", "", 36),
        ("NT", "JS 9S 8S 7S", "", 2),
        ("NT", "JH 9H 8H 7H", "", 2),
        ("S", "9S 7S 8S QS", "JS", 17),
        ("S", "AH 9H 10H JH", "", 23),
    ],
)
def test_b12_card_points_of_a_trick(strain: str, trick: str, seat0: str, points: int) -> None:
    cs = trick.split()
    hands = fill(" ".join([cs[0], *seat0.split()]), cs[1], cs[2], cs[3])
    deal = new_deal(hands, f"8{strain} pass pass pass")
    play(deal, trick)
    trump = None if strain == "NT" else Suit[strain]
    winner = spec_winner([parse_card(c) for c in cs], trump)
    assert deal.tricks[0].winner == winner
    assert deal.card_points[winner % 2] == points
    assert deal.card_points[1 - winner % 2] == 0


@pytest.mark.parametrize("strain", ["S", "H", "D", "C", "NT"])
def test_b12_cards_total_152_and_last_trick_adds_10(strain: str) -> None:
    trump = None if strain == "NT" else Suit[strain]
    assert sum(spec_points(c, trump) for c in cards_of(DECK32)) == 152
    deal = finish(new_deal(random_deal(Random(strain)).hands, f"9{strain} pass pass pass"))
    assert sum(deal.card_points) == 162
    per_team = [0, 0]
    for trick in deal.tricks:
        per_team[trick.winner % 2] += sum(spec_points(c, trump) for c in trick.cards)
    per_team[deal.tricks[-1].winner % 2] += 10
    assert tuple(per_team) == tuple(deal.card_points)
    assert deal.result is not None and deal.result.card_points == tuple(per_team)
