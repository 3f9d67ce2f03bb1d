"""Declarations (B-11, B-40 … B-45, B-90) and belote-rebelote (B-42)."""

from __future__ import annotations

from collections.abc import Mapping
from random import Random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from blot.bazar import Deal, Declare, Rules, random_deal
from blot.bazar.declarations import DECLARE_NONE, Declaration, best_choice, candidates, choices, resolve
from blot.bazar.tables import NT, STRAIN_INDEX
from blot.bazar.view import Announcement
from blot.cards import DECK32, Suit, cards_of, parse_card, parse_cards
from blot.errors import IllegalAction, NotationError

from .helpers import (
    CLASSIC,
    LEAGUE,
    decl,
    declare,
    fill,
    finish,
    new_deal,
    play,
    snapshot,
    spec_classify,
    spec_declaration_points,
    spec_resolve,
)


def declares(plan: Mapping[int, Declare]) -> object:
    """A declaration policy: the seats in ``plan`` declare what it says, the others nothing."""

    def policy(deal: Deal, seat: int) -> Declare:
        return plan.get(seat, DECLARE_NONE)

    return policy


def held(hand: str) -> set[str]:
    return {d.cards_text for d in candidates(parse_cards(hand))}


# --- B-11: sequences in natural order ------------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "found"),
    [
        ("AS KS QS 7H 9D JC 8C 10D", {"AS KS QS"}),
        ("QS JS 10S 7H 9D JC 8H AD", {"QS JS 10S"}),
        ("JS 10S 9S 7H 9D JC 8H AD", {"JS 10S 9S"}),
        ("9S 8S 7S AH QD JC 9H KD", {"9S 8S 7S"}),
        ("JH 9H AH 8S 7S 9D JC QD", set()),  # consecutive in trump strength only (B-10), not B-11
        ("KS AS 7H 8D 10C QC 9S JD", set()),  # a run does not go round the corner or cross suits
        ("AS KS 10S 9S 7H JD QC 8C", set()),
        ("KD QD JD 10D 7S 9H JC AC", {"KD QD JD 10D", "KD QD JD", "QD JD 10D"}),
    ],
)
def test_b11_sequences_follow_the_natural_order(hand: str, found: set[str]) -> None:
    assert held(hand) == found


def test_b11_jack_nine_ace_of_trumps_is_no_declaration_in_a_deal() -> None:
    deal = new_deal(fill("JH 9H AH 7S 9S JD KD 8C"), "8H pass pass pass")
    assert deal.to_act == 0 and not deal.must_declare
    assert all(not isinstance(a, Declare) for a in deal.legal_actions())


# --- B-40: sequences and long runs ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "kind", "points"),
    [
        ("AS KS QS", "terz", 2),
        ("9H 8H 7H", "terz", 2),
        ("KD QD JD 10D", "fifty", 5),
        ("AC KC QC JC 10C", "hundred", 10),
    ],
)
@pytest.mark.parametrize("strain", ["S", "NT"])
def test_b40_terz_fifty_hundred_points(cards: str, kind: str, points: int, strain: str) -> None:
    d = decl(cards)
    assert d.kind == kind
    assert d.points(LEAGUE, STRAIN_INDEX[strain]) == points
    # the seat declares it alone; nothing else is declared
    deal = new_deal(fill(cards), f"8{strain} pass pass pass")
    finish(deal, declares({0: Declare((d,))}))  # type: ignore[arg-type]
    assert deal.result is not None and deal.result.declaration_points == (points, 0)


@pytest.mark.parametrize(
    ("run", "best", "points"),
    [
        ("AS KS QS JS 10S 9S 8S 7S", {"AS KS QS JS 10S", "9S 8S 7S"}, 12),
        ("AS KS QS JS 10S 9S 8S", {"AS KS QS JS 10S"}, 10),
        ("KS QS JS 10S 9S 8S 7S", {"KS QS JS 10S 9S"}, 10),
        ("AS KS QS JS 10S 9S", {"AS KS QS JS 10S"}, 10),
        ("QS JS 10S 9S 8S 7S", {"QS JS 10S 9S 8S"}, 10),
        ("AS KS QS JS 10S", {"AS KS QS JS 10S"}, 10),
        ("KS QS JS 10S", {"KS QS JS 10S"}, 5),
    ],
)
def test_b40_long_runs_split_for_the_most_points(run: str, best: set[str], points: int) -> None:
    hand = fill(run)[0]
    top = best_choice(choices(hand), LEAGUE, STRAIN_INDEX["H"])
    assert {d.cards_text for d in top.declarations} >= best
    assert {d.cards_text for d in top.declarations if d.suit == Suit.S} == best
    assert sum(d.points(LEAGUE, 1) for d in top.declarations if d.suit == Suit.S) == points
    # every non-overlapping split is offered, the best one is the engine's choice for a seat
    deal = new_deal(fill(run), "8H pass pass pass")
    assert deal.best_declare(0) == top
    assert top in deal.legal_actions()


def test_b40_eight_card_run_hundred_and_terz_is_12_not_two_fifties() -> None:
    hand = parse_cards("AS KS QS JS 10S 9S 8S 7S")
    splits = {frozenset(d.cards_text for d in o.declarations) for o in choices(hand)}
    assert frozenset({"AS KS QS JS", "10S 9S 8S 7S"}) in splits  # two fifties, 10 points: offered
    assert frozenset({"JS 10S 9S 8S 7S", "AS KS QS"}) in splits  # 12 too, but a lower hundred
    best = best_choice(choices(hand), LEAGUE, 1)
    assert {d.cards_text for d in best.declarations} == {"AS KS QS JS 10S", "9S 8S 7S"}
    deal = new_deal(fill("AS KS QS JS 10S 9S 8S 7S"), "8H pass pass pass")
    finish(deal, declares({0: deal.best_declare(0)}))  # type: ignore[arg-type]
    assert deal.result is not None and deal.result.declaration_points == (12, 0)


# --- B-41, B-90: four of a kind ----------------------------------------------------------------

FOUR_ROWS = [
    # ruleset, rank, trump deal points, no-trump deal points (nt_four_nines 10), (nt_four_nines 0)
    ("league", "J", 20, 10, 10),
    ("league", "9", 15, 10, 0),
    ("league", "A", 10, 20, 20),
    ("league", "10", 10, 15, 15),
    ("league", "K", 10, 10, 10),
    ("league", "Q", 10, 10, 10),
    ("league", "8", 0, 0, 0),
    ("classic", "J", 20, 20, 20),
    ("classic", "9", 14, 10, 0),  # Interpretation: the option applies in both rulesets
    ("classic", "A", 10, 19, 19),
    ("classic", "10", 10, 10, 10),
    ("classic", "K", 10, 10, 10),
    ("classic", "Q", 10, 10, 10),
    ("classic", "8", 0, 0, 0),
]


def _four(rank: str) -> str:
    return " ".join(f"{rank}{s}" for s in "SHDC")


@pytest.mark.parametrize(("ruleset", "rank", "trump_points", "nt_points", "nt_zero"), FOUR_ROWS)
def test_b41_b90_four_of_a_kind_points(
    ruleset: str, rank: str, trump_points: int, nt_points: int, nt_zero: int | None
) -> None:
    d = decl(_four(rank))
    assert d.kind == "four"
    rules = Rules(ruleset=ruleset)  # type: ignore[arg-type]
    for strain in ["S", "H", "D", "C"]:
        assert d.points(rules, STRAIN_INDEX[strain]) == trump_points
    assert d.points(rules, NT) == nt_points
    if nt_zero is not None:
        assert d.points(Rules(ruleset=ruleset, nt_four_nines=0), NT) == nt_zero  # type: ignore[arg-type]


@pytest.mark.parametrize(("ruleset", "rank", "trump_points", "nt_points", "nt_zero"), FOUR_ROWS)
@pytest.mark.parametrize("strain", ["D", "NT"])
def test_b41_four_of_a_kind_scored_in_a_deal(
    ruleset: str, rank: str, trump_points: int, nt_points: int, nt_zero: int | None, strain: str
) -> None:
    rules = Rules(ruleset=ruleset)  # type: ignore[arg-type]
    deal = new_deal(fill(_four(rank)), f"8{strain} pass pass pass", rules=rules)
    assert declare(_four(rank)) in deal.legal_actions()
    finish(deal, declares({0: declare(_four(rank))}))  # type: ignore[arg-type]
    expected = trump_points if strain != "NT" else nt_points
    assert deal.result is not None and deal.result.declaration_points == (expected, 0)


def test_b41_four_nines_trump_deal_15_and_no_trump_option() -> None:
    nines = decl("9S 9H 9D 9C")
    assert nines.points(LEAGUE, STRAIN_INDEX["C"]) == 15
    assert nines.points(LEAGUE, NT) == 10
    assert nines.points(Rules(nt_four_nines=0), NT) == 0
    assert nines.points(Rules(nt_four_nines=0), STRAIN_INDEX["C"]) == 15  # the option is NT only
    deal = new_deal(fill("9S 9H 9D 9C"), "8NT pass pass pass", rules=Rules(nt_four_nines=0))
    finish(deal, declares({0: declare("9S 9H 9D 9C")}))  # type: ignore[arg-type]
    assert deal.result is not None and deal.result.declaration_points == (0, 0)


def test_b41_b25_four_sevens_are_no_declaration() -> None:
    assert held("7S 7H 7D 7C AS 9H JD KC") == set()
    with pytest.raises(NotationError):
        decl("7S 7H 7D 7C")
    for rules in (LEAGUE, CLASSIC):
        deal = new_deal(fill("7S 7H 7D 7C"), "8S pass pass pass", rules=rules)
        for option in choices(deal.dealt[0]):
            assert all(d.rank != 7 for d in option.declarations if d.kind == "four")


# --- B-42: belote-rebelote -------------------------------------------------------------------------

BELOTE_HANDS = [
    "KH QH 7S 8S 9S 7D 8D 9D",
    "JH 9H AH 10H 8H 7H 10S KS",
    "QS JS AS 10D JD QD KD AD",
    "7C 8C 9C 10C JC QC KC AC",
]


def test_b42_belote_is_announced_as_each_card_is_played() -> None:
    deal = new_deal(BELOTE_HANDS, "pass 8H pass pass pass")  # seat 1 declares hearts
    play(deal, "KH")  # seat 0 leads the king of trumps
    assert deal.belotes == ((0, parse_card("KH")),)
    for seat in range(4):
        assert deal.view(seat).belotes == ((0, parse_card("KH")),)
    finish(deal)
    assert [(s, c.text) for s, c in deal.belotes] == [(0, "KH"), (0, "QH")]
    assert deal.result is not None and deal.result.belote == (2, 0)


@pytest.mark.parametrize(
    ("bidding", "belote"),
    [
        ("pass 8H pass pass pass", (2, 0)),  # the holder defends
        ("8H pass pass pass", (2, 0)),  # the holder declares
        ("pass 8S pass pass pass", (0, 0)),  # KH QH plain, KS QS in two hands
        ("pass 8D pass pass pass", (2, 0)),  # seat 2 holds KD QD
        ("pass 8NT pass pass pass", (0, 0)),  # no belote in no trump
        ("pass pass pass 8C pass pass pass", (0, 2)),  # seat 3 holds KC QC
    ],
)
def test_b42_belote_counts_for_the_holders_team_in_trump_deals_only(
    bidding: str, belote: tuple[int, int]
) -> None:
    deal = finish(new_deal(BELOTE_HANDS, bidding))
    assert deal.result is not None and deal.result.belote == belote
    if belote == (0, 0):
        assert deal.belotes == ()


def test_b42_king_and_queen_in_partners_hands_are_no_belote() -> None:
    deal = finish(new_deal(fill("KH", "", "QH"), "8H pass pass pass"))
    assert deal.result is not None and deal.result.belote == (0, 0) and deal.belotes == ()


def test_b42_belote_takes_no_part_in_the_comparison() -> None:
    # seat 0 has belote (hearts), seat 1 a terz: the terz counts, and belote still counts for team 0
    deal = new_deal(fill("KH QH", "AS KS QS"), "8H pass pass pass")
    finish(deal, declares({1: declare("AS KS QS")}))  # type: ignore[arg-type]
    r = deal.result
    assert r is not None
    assert r.declaration_points == (0, 2) and r.belote == (2, 0)
    assert deal.outcome.team == 1


# --- B-43 ---------------------------------------------------------------------------------------

OVERLAP = "JS JH JD JC QH KH"  # four jacks and a terz KH QH JH share JH


def test_b43_overlapping_combinations_offer_each_but_not_both() -> None:
    deal = new_deal(fill(OVERLAP), "8S pass pass pass")
    assert deal.must_declare and deal.to_act == 0
    offered = {str(a) for a in deal.legal_actions()}
    assert offered == {"none", "JS JH JD JC", "KH QH JH"}
    both = Declare((decl("JS JH JD JC"), decl("KH QH JH")))
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(both)
    assert str(info.value) == (
        "seat 0 cannot declare JS JH JD JC, KH QH JH: a card may serve in only one declaration (B-43)"
    )
    assert snapshot(deal) == before


def test_b43_a_seat_may_declare_fewer_than_it_holds_or_none() -> None:
    hand = "JS JH JD JC 9D 8D 7D 7S"  # four jacks and a terz, no overlap
    offered = {str(a) for a in new_deal(fill(hand), "8S pass pass pass").legal_actions()}
    assert offered == {"none", "JS JH JD JC", "9D 8D 7D", "JS JH JD JC, 9D 8D 7D"}
    for choice, points in [("none", 0), ("JS JH JD JC", 20), ("9D 8D 7D", 2), ("JS JH JD JC, 9D 8D 7D", 22)]:
        deal = new_deal(fill(hand), "8S pass pass pass")
        action = next(a for a in deal.legal_actions() if str(a) == choice)
        deal.apply(action)
        assert deal.declared[0] == action.declarations  # type: ignore[union-attr]
        finish(deal)
        assert deal.result is not None and deal.result.declaration_points == (points, 0)


def test_b43_declaring_none_lets_a_lower_declaration_count() -> None:
    deal = new_deal(fill("AS KS QS JS 10S", "AD KD QD"), "8H pass pass pass")
    finish(deal, declares({1: declare("AD KD QD")}))  # type: ignore[arg-type]
    assert deal.result is not None and deal.result.declaration_points == (0, 2)


def test_b43_declare_at_own_turn_in_the_first_trick_before_the_card() -> None:
    deal = new_deal(fill("7S", "AS KS QS", "", "AD KD QD", voids="1:S"), "8H pass pass pass")
    assert deal.to_act == 0 and not deal.must_declare  # seat 0 holds nothing to declare
    play(deal, "7S")
    assert deal.to_act == 1 and deal.must_declare
    assert all(isinstance(a, Declare) for a in deal.legal_actions())
    # a card first is refused
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(parse_card("AS"))
    assert str(info.value) == "seat 1 must say what it declares before playing its first card"
    assert snapshot(deal) == before
    deal.apply(declare("AS KS QS"))
    assert not deal.must_declare and deal.to_act == 1
    assert all(not isinstance(a, Declare) for a in deal.legal_actions())
    with pytest.raises(IllegalAction) as info:
        deal.apply(DECLARE_NONE)  # a second time
    assert str(info.value) == "seat 1 has already said what it declares"


def test_b43_no_declaring_after_the_first_trick() -> None:
    deal = new_deal(fill("AS KS QS"), "8H pass pass pass")
    deal.apply(DECLARE_NONE)
    finish_trick = 4
    while len(deal.plays) < finish_trick:
        deal.apply(deal.legal_actions()[0])
    assert len(deal.tricks) == 1
    while deal.to_act != 0:
        deal.apply(deal.legal_actions()[0])
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(declare("AS KS QS"))
    assert str(info.value) == "seat 0 may declare only in the first trick, before its card"
    assert snapshot(deal) == before


def test_b43_declaring_what_the_seat_does_not_hold() -> None:
    deal = new_deal(fill("JS JH JD JC", "AD KD QD"), "8H pass pass pass")
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as info:
        deal.apply(declare("AD KD QD"))
    assert str(info.value) == "seat 0 cannot declare AD KD QD: it does not hold QD KD AD"
    assert snapshot(deal) == before


def test_b43_kind_and_top_rank_at_once_cards_from_the_second_trick() -> None:
    deal = new_deal(fill("7S", "AS KS QS", "", "AD KD QD JD", voids="1:S"), "8H pass pass pass")
    play(deal, "7S")
    deal.apply(declare("AS KS QS"))
    v = deal.view(2)
    assert v.announced == (Announcement(1, "terz", 14),)
    assert v.shown == () and v.declarations_team is None
    deal.apply(deal.legal_actions()[0])
    deal.apply(deal.legal_actions()[0])
    deal.apply(declare("AD KD QD JD"))
    v = deal.view(0)
    assert v.announced == (Announcement(1, "terz", 14), Announcement(3, "fifty", 14))
    assert v.shown == ()
    deal.apply(deal.legal_actions()[0])  # the first trick is complete
    for seat in range(4):
        v = deal.view(seat)
        assert v.declarations_team == 1
        assert [(s, d.cards_text) for s, d in v.shown] == [(1, "AS KS QS"), (3, "AD KD QD JD")]


# --- B-44: which team's declarations count ----------------------------------------------------------

ORDER = [
    # strain, ruleset, higher, lower
    ("H", "league", "8S 8H 8D 8C", "JS JH JD JC"),
    ("NT", "league", "8S 8H 8D 8C", "AS AH AD AC"),
    ("H", "league", "8S 8H 8D 8C", "AH KH QH JH 10H"),
    ("H", "league", "JS JH JD JC", "9S 9H 9D 9C"),
    ("H", "league", "9S 9H 9D 9C", "AS AH AD AC"),
    ("H", "league", "AS AH AD AC", "10S 10H 10D 10C"),
    ("H", "league", "10S 10H 10D 10C", "KS KH KD KC"),
    ("H", "league", "KS KH KD KC", "QS QH QD QC"),
    ("NT", "league", "AS AH AD AC", "10S 10H 10D 10C"),
    ("NT", "league", "10S 10H 10D 10C", "KS KH KD KC"),
    ("NT", "league", "KS KH KD KC", "QS QH QD QC"),
    ("NT", "league", "QS QH QD QC", "JS JH JD JC"),
    ("NT", "league", "JS JH JD JC", "9S 9H 9D 9C"),
    ("NT", "classic", "JS JH JD JC", "9S 9H 9D 9C"),
    ("NT", "classic", "9S 9H 9D 9C", "AS AH AD AC"),
    ("NT", "classic", "AS AH AD AC", "10S 10H 10D 10C"),
    ("NT", "classic", "10S 10H 10D 10C", "KS KH KD KC"),
    ("NT", "classic", "KS KH KD KC", "QS QH QD QC"),
    ("NT", "classic", "8S 8H 8D 8C", "JS JH JD JC"),
    ("H", "classic", "8S 8H 8D 8C", "JS JH JD JC"),
    ("H", "league", "QS QH QD QC", "JD 10D 9D 8D 7D"),  # the lowest four over any hundred it allows
    ("H", "league", "9S 9H 9D 9C", "AD KD QD JD 10D"),
    ("NT", "league", "9S 9H 9D 9C", "AD KD QD JD 10D"),
    ("H", "league", "AS KS QS JS 10S", "KH QH JH 10H 9H"),  # hundreds by top card, trump or not
    ("H", "league", "KS QS JS 10S 9S", "QH JH 10H 9H 8H"),
    ("H", "league", "QS JS 10S 9S 8S", "JH 10H 9H 8H 7H"),
    ("H", "league", "JS 10S 9S 8S 7S", "AH KH QH JH"),  # the lowest hundred over the top fifty
    ("H", "league", "AS KS QS JS", "KH QH JH 10H"),
    ("H", "league", "KS QS JS 10S", "QH JH 10H 9H"),
    ("H", "league", "QS JS 10S 9S", "JH 10H 9H 8H"),
    ("H", "league", "JS 10S 9S 8S", "10H 9H 8H 7H"),
    ("H", "league", "10S 9S 8S 7S", "AH KH QH"),  # the lowest fifty over the top terz
    ("H", "league", "AS KS QS", "KH QH JH"),
    ("H", "league", "KS QS JS", "QH JH 10H"),
    ("H", "league", "QS JS 10S", "JH 10H 9H"),
    ("H", "league", "JS 10S 9S", "10H 9H 8H"),
    ("H", "league", "10S 9S 8S", "9H 8H 7H"),
    ("NT", "league", "10S 9S 8S", "9H 8H 7H"),
]


@pytest.mark.parametrize(("strain", "ruleset", "higher", "lower"), ORDER)
@pytest.mark.parametrize("higher_seat", [0, 1, 2, 3])
def test_b44_order_of_declarations(
    strain: str, ruleset: str, higher: str, lower: str, higher_seat: int
) -> None:
    rules = Rules(ruleset=ruleset)  # type: ignore[arg-type]
    lower_seat = (higher_seat + 1) % 4  # an opponent who plays right after, yet loses
    declared: list[list[Declaration]] = [[], [], [], []]
    declared[higher_seat].append(decl(higher))
    declared[lower_seat].append(decl(lower))
    tix = STRAIN_INDEX[strain]
    for second_leader in range(4):
        outcome = resolve(declared, rules, tix, second_leader)
        assert outcome.team == higher_seat % 2
        assert [(s, d.cards_text) for s, d in outcome.counting] == [(higher_seat, decl(higher).cards_text)]
        points = spec_declaration_points(
            spec_classify(parse_cards(higher)), rules, None if tix == NT else Suit(tix)
        )
        assert outcome.points[higher_seat % 2] == points and outcome.points[lower_seat % 2] == 0


@pytest.mark.parametrize("second_leader", [0, 1, 2, 3])
@pytest.mark.parametrize(("trump_seat", "plain_seat"), [(0, 1), (1, 0), (3, 2), (2, 1)])
def test_b44_equal_declarations_trump_suit_sequence_wins(
    second_leader: int, trump_seat: int, plain_seat: int
) -> None:
    declared: list[list[Declaration]] = [[], [], [], []]
    declared[trump_seat].append(decl("AH KH QH"))
    declared[plain_seat].append(decl("AS KS QS"))
    outcome = resolve(declared, LEAGUE, STRAIN_INDEX["H"], second_leader)
    assert outcome.team == trump_seat % 2


@pytest.mark.parametrize("second_leader", [0, 1, 2, 3])
@pytest.mark.parametrize("strain", ["H", "NT"])
@pytest.mark.parametrize(
    ("first", "second"), [("AS KS QS", "AD KD QD"), ("KC QC JC 10C 9C", "KS QS JS 10S 9S")]
)
def test_b44_equal_declarations_earlier_seat_in_the_second_trick_wins(
    second_leader: int, strain: str, first: str, second: str
) -> None:
    for seats in [(0, 1), (1, 2), (0, 3), (2, 3)]:
        declared: list[list[Declaration]] = [[], [], [], []]
        declared[seats[0]].append(decl(first))
        declared[seats[1]].append(decl(second))
        outcome = resolve(declared, LEAGUE, STRAIN_INDEX[strain], second_leader)
        earlier = min(seats, key=lambda s: (s - second_leader) % 4)
        assert outcome.team == earlier % 2, (seats, second_leader)


def test_b44_both_partners_declarations_count_and_none_of_the_others() -> None:
    declared = [[decl("AS KS QS JS 10S")], [decl("AD KD QD JD")], [decl("9C 8C 7C"), decl("KH QH JH")], []]
    outcome = resolve(declared, LEAGUE, STRAIN_INDEX["H"], 0)
    assert outcome.team == 0 and outcome.points == (14, 0)
    assert sorted((s, d.cards_text) for s, d in outcome.counting) == [
        (0, "AS KS QS JS 10S"),
        (2, "9C 8C 7C"),
        (2, "KH QH JH"),
    ]


def test_b44_the_single_highest_declaration_decides_not_the_total() -> None:
    # team 1: three terzes to the king (6 points); team 0: one fifty to the 10 (5 points)
    declared = [[decl("10H 9H 8H 7H")], [decl("KS QS JS"), decl("KD QD JD")], [], [decl("KC QC JC")]]
    outcome = resolve(declared, LEAGUE, STRAIN_INDEX["NT"], 1)
    assert outcome.team == 0 and outcome.points == (5, 0)


@pytest.mark.parametrize(("first_trick", "team"), [("7C 8C AC 9C", 0), ("7C 8C 10C AC", 1)])
def test_b44_tie_break_follows_the_first_trick_winner_in_a_deal(first_trick: str, team: int) -> None:
    c = first_trick.split()
    hands = fill(c[0], f"AS KS QS {c[1]}", f"AD KD QD {c[2]}", c[3])
    deal = new_deal(hands, "8H pass pass pass")
    play(deal, first_trick, declares({1: declare("AS KS QS"), 2: declare("AD KD QD")}))  # type: ignore[arg-type]
    assert deal.tricks[0].winner == (2 if team == 0 else 3)
    assert deal.outcome.team == team
    finish(deal)
    assert deal.result is not None
    assert deal.result.declaration_points == ((2, 0) if team == 0 else (0, 2))


# --- B-45 ---------------------------------------------------------------------------------------

B45 = [[decl("8S 8H 8D 8C"), decl("AD KD QD")], [decl("JS JH JD JC")], [decl("AC KC QC JC 10C")], []]


def test_b45_league_four_eights_void_partners_and_opponents_declarations() -> None:
    outcome = resolve(B45, LEAGUE, STRAIN_INDEX["H"], 2)
    assert outcome.team == 0
    assert [(s, d.cards_text) for s, d in outcome.counting] == [(0, "8S 8H 8D 8C"), (0, "AD KD QD")]
    assert outcome.points == (2, 0)


def test_b45_b90_classic_four_eights_void_nothing_beyond_b44() -> None:
    outcome = resolve(B45, CLASSIC, STRAIN_INDEX["H"], 2)
    assert outcome.team == 0
    assert outcome.points == (12, 0)  # 0 + 2 + 10: the partner's hundred counts
    assert (2, "AC KC QC JC 10C") in [(s, d.cards_text) for s, d in outcome.counting]


@pytest.mark.parametrize("ruleset", ["league", "classic"])
def test_b45_in_a_deal_belote_survives_four_eights(ruleset: str) -> None:
    rules = Rules(ruleset=ruleset)  # type: ignore[arg-type]
    hands = fill("8S 8H 8D 8C", "KH QH JS JH JD JC")
    deal = new_deal(hands, "8H pass pass pass", rules=rules)
    plan = {0: declare("8S 8H 8D 8C"), 1: declare("JS JH JD JC")}
    finish(deal, declares(plan))  # type: ignore[arg-type]
    r = deal.result
    assert r is not None
    assert r.belote == (0, 2)  # seat 1's belote counts although its four jacks do not
    assert r.declaration_points == (0, 0) and deal.outcome.team == 0


def test_b45_four_eights_not_declared_void_nothing() -> None:
    deal = new_deal(fill("8S 8H 8D 8C", "", "AC KC QC"), "8H pass pass pass")
    finish(deal, declares({2: declare("AC KC QC")}))  # type: ignore[arg-type]
    assert deal.result is not None and deal.result.declaration_points == (2, 0)


# --- the engine's resolve against the rule text, over random declarations ---------------------


def stacked_hands(rng: Random) -> list[int]:
    """Random hands, or hands cut from a deck sorted by suit (long runs) or by rank (fours)
    and then lightly shuffled, so that declarations of every kind come up often."""
    kind = rng.randrange(3)
    if kind == 0:
        return list(random_deal(rng).hands)
    deck = sorted(cards_of(DECK32), key=(lambda c: c.index) if kind == 1 else (lambda c: (c.rank, c.suit)))
    for _ in range(rng.randrange(12)):
        i, j = rng.randrange(32), rng.randrange(32)
        deck[i], deck[j] = deck[j], deck[i]
    start = rng.randrange(32)
    deck = deck[start:] + deck[:start]
    return [sum(c.bit for c in deck[8 * s : 8 * s + 8]) for s in range(4)]


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), ruleset=st.sampled_from(["league", "classic"]))
def test_b44_b45_resolve_matches_the_rule_text(seed: int, ruleset: str) -> None:
    rng = Random(seed)
    # nt_four_nines stays 10 in classic: B-90 says classic no-trump four 9s are 10 while the
    # engine lets the option apply there too; docs/rules.md does not settle which (see the report).
    nines = rng.choice([0, 10]) if ruleset == "league" else 10
    rules = Rules(ruleset=ruleset, nt_four_nines=nines)  # type: ignore[arg-type]
    hands = stacked_hands(rng)
    declared = [list(rng.choice(choices(h)).declarations) for h in hands]
    tix = rng.randrange(5)
    leader = rng.randrange(4)
    outcome = resolve(declared, rules, tix, leader)
    team, points, counting = spec_resolve(
        [[d.mask for d in ds] for ds in declared], rules, None if tix == NT else Suit(tix), leader
    )
    assert outcome.team == team
    assert outcome.points == points
    assert sorted((s, d.mask) for s, d in outcome.counting) == sorted(counting)


def test_b44_declarations_in_random_deals_match_the_rule_text() -> None:
    for seed in range(200):
        rng = Random(seed)
        hands = stacked_hands(rng)
        strain = rng.choice(["S", "H", "D", "C", "NT"])
        deal = new_deal(hands, f"8{strain} pass pass pass", dealer=rng.randrange(4))
        plan = {s: rng.choice(deal.declare_options(s)) for s in range(4) if deal.declare_options(s)}
        finish(deal, declares(plan))  # type: ignore[arg-type]
        masks = [[d.mask for d in plan[s].declarations] if s in plan else [] for s in range(4)]
        trump = None if strain == "NT" else Suit[strain]
        _, points, _ = spec_resolve(masks, LEAGUE, trump, deal.tricks[0].winner)
        assert deal.result is not None and deal.result.declaration_points == points
