"""The bidding (B-20 … B-26, and B-90 for four sevens): who calls, which calls are legal, when the
bidding ends and what contract it leaves."""

from __future__ import annotations

from random import Random

import pytest

from blot.bazar import (
    BIDS,
    CONTRA,
    PASS,
    REDOUBLE,
    SEVENS,
    Call,
    Deal,
    DealtCards,
    Game,
    Phase,
    Rules,
    bid,
    parse_call,
)
from blot.bazar.bidding import Stage
from blot.errors import IllegalAction, NotationError

from .helpers import CLASSIC, LEAGUE, calls, fill, new_deal, snapshot, texts

#: One 7 for each seat, so nobody may show four sevens.
HANDS = fill("7S", "7H", "7D", "7C")
SUITS = ["S", "H", "D", "C", "NT"]


def bids_from(level: int, top: int = 25) -> list[str]:
    return [f"{lv}{s}" for lv in [*range(level, 26), 30] if lv <= top for s in SUITS]


def refused(deal: Deal, call: str | Call, message: str) -> None:
    action = parse_call(call) if isinstance(call, str) else call
    deal.legal_actions()
    before = snapshot(deal)
    assert action not in deal.legal_actions()
    with pytest.raises(IllegalAction) as info:
        deal.apply(action)
    assert str(info.value) == message
    assert snapshot(deal) == before


# --- B-20 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_b20_bidding_starts_after_the_dealer_and_goes_round(dealer: int) -> None:
    deal = new_deal(HANDS, dealer=dealer)
    seen = []
    for word in ["8S", "9S", "10S", "11S", "12S"]:
        seen.append(deal.to_act)
        deal.apply(parse_call(word))
    assert seen == [(dealer + 1 + i) % 4 for i in range(5)]
    assert deal.bidding.callers == seen


@pytest.mark.parametrize(
    ("text", "kind", "level", "strain"),
    [
        ("pass", "pass", 0, ""),
        ("contra", "contra", 0, ""),
        ("redouble", "redouble", 0, ""),
        ("sevens", "sevens", 0, ""),
        ("8H", "bid", 8, "H"),
        ("12NT", "bid", 12, "NT"),
        ("25C", "bid", 25, "C"),
        ("30S", "bid", 30, "S"),
        ("10 nt", "bid", 10, "NT"),
    ],
)
def test_b20_a_call_is_a_bid_pass_contra_or_redouble(text: str, kind: str, level: int, strain: str) -> None:
    call = parse_call(text)
    assert (call.kind, call.level, call.strain) == (kind, level, strain)
    assert parse_call(str(call)) is call


def test_b20_opening_calls_are_pass_and_every_bid_from_8_to_25() -> None:
    deal = new_deal(HANDS)
    assert texts(deal.legal_actions()) == ["pass", *bids_from(8)]


# --- B-21 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", range(8, 26))
@pytest.mark.parametrize("strain", SUITS)
def test_b21_levels_8_to_25_in_any_strain(level: int, strain: str) -> None:
    deal = new_deal(HANDS, f"{level}{strain} pass pass pass")
    assert deal.contract is not None
    assert (deal.contract.level, deal.contract.strain, deal.contract.declarer) == (level, strain, 0)
    assert deal.trump == (None if strain == "NT" else "SHDC".index(strain))


@pytest.mark.parametrize(
    ("text", "level", "strain"),
    [("7S", 7, "S"), ("26H", 26, "H"), ("29NT", 29, "NT"), ("31C", 31, "C"), ("0S", 0, "S"), ("8X", 8, "X")],
)
def test_b21_no_other_levels(text: str, level: int, strain: str) -> None:
    with pytest.raises(NotationError) as info:
        parse_call(text)
    assert str(info.value) == (
        f"{text!r} is not a call: write pass, contra, redouble, sevens or a bid such as 10H or 12NT"
    )
    with pytest.raises(NotationError) as info:
        bid(level, strain)
    assert str(info.value) == f"{text} is not a bid: levels are 8 to 25 (or 30), strains S H D C NT"


def test_b21_kanach_30_only_with_the_option() -> None:
    deal = new_deal(HANDS)
    refused(deal, "30S", "30 (kanach) is not a bid unless the kanach option is on")
    on = new_deal(HANDS, rules=Rules(kanach=True))
    assert texts(on.legal_actions()) == ["pass", *bids_from(8, 30)]
    on.apply(parse_call("30S"))
    for _ in range(3):
        on.apply(PASS)
    assert on.contract is not None and on.contract.level == 30


@pytest.mark.parametrize(
    ("history", "call", "current"),
    [
        ("10H", "10S", "10H"),
        ("10H", "10H", "10H"),
        ("10H", "9NT", "10H"),
        ("10H", "8C", "10H"),
        ("8S 12D", "11NT", "12D"),
        ("8S pass 24NT", "24S", "24NT"),
    ],
)
def test_b21_a_later_bid_must_be_strictly_higher(history: str, call: str, current: str) -> None:
    deal = new_deal(HANDS, history)
    refused(deal, call, f"{call} is too low: a bid must be above {current}")


@pytest.mark.parametrize("history", ["8S", "10H", "12NT", "24C"])
def test_b21_legal_bids_are_exactly_the_higher_levels_in_any_strain(history: str) -> None:
    deal = new_deal(HANDS, history)
    level = int(history[:-1].rstrip("N"))
    legal = texts(deal.legal_actions())
    assert legal == ["pass", *bids_from(level + 1), "contra"]


def test_b21_partners_may_raise_each_other() -> None:
    deal = new_deal(HANDS, "10H pass 11H pass pass pass")
    assert deal.contract is not None
    assert (deal.contract.declarer, deal.contract.level, deal.contract.strain) == (2, 11, "H")


def test_b21_any_player_any_strain_the_last_bid_is_the_contract() -> None:
    deal = new_deal(HANDS, "8S 9H 10NT 11C 12S pass pass pass")
    assert deal.contract is not None
    assert (deal.contract.declarer, deal.contract.level, deal.contract.strain) == (0, 12, "S")
    assert deal.contract.multiplier == 1


# --- B-22 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("top", ["25S", "25NT"])
def test_b22_after_kapoot_only_pass_or_contra(top: str) -> None:
    deal = new_deal(HANDS, f"8D {top}")  # seat 1 bids 25
    assert deal.to_act == 2
    assert texts(deal.legal_actions()) == ["pass", "contra"]
    refused(deal, "25H", f"nobody may bid after {top} (B-22)")
    refused(deal, "30H", "30 (kanach) is not a bid unless the kanach option is on")
    deal.apply(PASS)
    assert texts(deal.legal_actions()) == ["pass"]  # the partner may not contra, nor bid
    refused(deal, "25NT" if top == "25S" else "25S", f"nobody may bid after {top} (B-22)")
    deal.apply(PASS)
    deal.apply(PASS)
    assert deal.contract is not None and deal.contract.level == 25 and deal.contract.declarer == 1


def test_b22_with_kanach_25_may_be_outbid_by_30_and_30_by_nobody() -> None:
    rules = Rules(kanach=True)
    deal = new_deal(HANDS, "25S", rules=rules)
    assert texts(deal.legal_actions()) == ["pass", "30S", "30H", "30D", "30C", "30NT", "contra"]
    deal.apply(parse_call("30H"))  # seat 1
    assert texts(deal.legal_actions()) == ["pass", "contra"]  # seat 2, an opponent of seat 1
    refused(deal, "30NT", "nobody may bid after 30H (B-22)")
    deal.apply(PASS)
    assert texts(deal.legal_actions()) == ["pass"]  # seat 3, the partner
    refused(deal, "30NT", "nobody may bid after 30H (B-22)")


def test_b22_after_top_bid_a_contra_then_the_b24_window() -> None:
    deal = new_deal(HANDS, "25C contra")
    assert deal.to_act == 2 and texts(deal.legal_actions()) == ["pass", "redouble"]
    deal.apply(REDOUBLE)
    assert deal.contract is not None and deal.contract.multiplier == 4 and deal.contract.level == 25


def test_b22_top_bid_with_three_passes_option_off_still_ends_at_three_passes() -> None:
    deal = new_deal(HANDS, "25S pass pass pass", rules=Rules(three_passes_end_bidding=False))
    assert deal.phase is Phase.PLAY and deal.contract is not None and deal.contract.level == 25


# --- B-23 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("history", "declarer", "contract"),
    [
        ("8S pass pass pass", 0, "8S"),
        ("pass 9H pass pass pass", 1, "9H"),
        ("pass pass pass 8D pass pass pass", 3, "8D"),
        ("8S pass pass 9H pass pass pass", 3, "9H"),
        ("8S 9S pass pass 10S pass pass pass", 0, "10S"),
    ],
)
def test_b23_three_passes_in_a_row_end_the_bidding(history: str, declarer: int, contract: str) -> None:
    words = history.split()
    deal = new_deal(HANDS, " ".join(words[:-1]))
    assert deal.phase is Phase.BIDDING and not deal.bidding.is_over
    deal.apply(parse_call(words[-1]))
    assert deal.phase is Phase.PLAY  # type: ignore[comparison-overlap]
    assert deal.contract is not None
    assert f"{deal.contract.level}{deal.contract.strain}" == contract
    assert deal.contract.declarer == declarer and deal.contract.team == declarer % 2
    assert deal.to_act == 0  # B-30: the seat after the dealer (3) leads, whoever declared


@pytest.mark.parametrize("dealer", [0, 1, 2, 3])
def test_b23_four_passes_void_the_deal(dealer: int) -> None:
    deal = new_deal(HANDS, "pass pass pass", dealer=dealer)
    assert not deal.is_over and deal.to_act == dealer  # the dealer may still open
    deal.apply(PASS)
    assert deal.is_over and deal.is_void and deal.phase is Phase.OVER
    assert deal.contract is None and deal.to_act is None
    assert deal.legal_actions() == ()
    r = deal.result
    assert r is not None
    assert r.void and r.contract is None and r.made is None
    assert r.points == r.tricks == r.card_points == r.declaration_points == r.belote == (0, 0)
    assert r.to_json()["void"] is True
    refused(deal, "pass", "the deal is over")


def test_b23_void_deal_scores_nothing_and_the_next_seat_deals() -> None:
    game = Game(dealer=2)
    game.start_deal(DealtCards(HANDS))
    for _ in range(4):
        game.apply(PASS)
    assert game.totals == (0, 0) and not game.is_over
    assert game.start_deal(DealtCards(HANDS)).dealer == 3


# --- B-24 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("history", "may_contra"),
    [
        ("8S", True),  # seat 1, an opponent
        ("8S pass", False),  # seat 2, the partner
        ("8S pass pass", True),  # seat 3, an opponent, after two passes
        ("8S 9H", True),  # seat 2 against 9H of seat 1
        ("8S 9H pass", False),  # seat 3: its own team holds 9H (8S was the other team's)
        ("pass 8S pass", False),
        ("pass 8S pass pass", True),
        ("pass", False),  # no bid yet
    ],
)
def test_b24_contra_only_by_the_team_not_holding_the_bid(history: str, may_contra: bool) -> None:
    deal = new_deal(HANDS, history)
    assert (CONTRA in deal.legal_actions()) is may_contra
    if may_contra:
        deal.apply(CONTRA)
        assert deal.bidding.multiplier == 2
    elif "8S" in history:
        refused(deal, CONTRA, f"seat {deal.to_act} may not contra its own team's bid")
    else:
        refused(deal, CONTRA, "there is no bid to contra")


@pytest.mark.parametrize(
    ("history", "after_contra", "declarer", "multiplier"),
    [
        # dealer 3: seat 0 bids, seat 1 contras; the contractors 2 then 0 speak, 3 is skipped
        ("8S contra", [(2, "pass"), (0, "pass")], 0, 2),
        ("8S contra", [(2, "redouble")], 0, 4),
        ("8S contra", [(2, "pass"), (0, "redouble")], 0, 4),
        # seat 3 contras after two passes: seats 0 then 2 speak
        ("8S pass pass contra", [(0, "pass"), (2, "pass")], 0, 2),
        ("8S pass pass contra", [(0, "redouble")], 0, 4),
        ("8S pass pass contra", [(0, "pass"), (2, "redouble")], 0, 4),
        # seat 1 bids, seat 2 contras: seats 3 then 1
        ("pass 9H contra", [(3, "pass"), (1, "pass")], 1, 2),
        ("pass 9H contra", [(3, "pass"), (1, "redouble")], 1, 4),
        # a raise by the partner is the bid contra'd
        ("8S pass 9S contra", [(0, "pass"), (2, "pass")], 2, 2),
    ],
)
def test_b24_after_contra_only_the_contractors_speak(
    history: str, after_contra: list[tuple[int, str]], declarer: int, multiplier: int
) -> None:
    deal = new_deal(HANDS, history)
    assert deal.bidding.stage is Stage.CONTRA
    for seat, word in after_contra:
        assert not deal.bidding.is_over
        assert deal.to_act == seat
        assert texts(deal.legal_actions()) == ["pass", "redouble"]
        deal.apply(parse_call(word))
    assert deal.bidding.is_over and deal.phase is Phase.PLAY
    c = deal.contract
    assert c is not None and (c.declarer, c.multiplier) == (declarer, multiplier)
    assert deal.bidding.calls == calls(history) + [parse_call(w) for _, w in after_contra]


@pytest.mark.parametrize("call", ["9H", "25NT", "contra", "sevens"])
def test_b24_after_contra_nobody_may_bid_again(call: str) -> None:
    deal = new_deal(fill("7S 7H 7D 7C"), "pass 8S contra")  # seat 0 has four 7s, seat 3 speaks
    assert deal.to_act == 3
    refused(deal, call, "after a contra seat 3 may only redouble or pass (B-24)")


def test_b24_redouble_needs_a_contra() -> None:
    deal = new_deal(HANDS, "8S")
    assert REDOUBLE not in deal.legal_actions()
    refused(deal, REDOUBLE, "there is no contra to redouble")
    fresh = new_deal(HANDS)
    refused(fresh, REDOUBLE, "there is no contra to redouble")


def test_b24_contra_ends_the_defenders_turns() -> None:
    deal = new_deal(HANDS, "8S contra pass")
    assert deal.to_act == 0  # seat 3, a defender, is skipped
    deal.apply(PASS)
    assert deal.is_over is False and deal.phase is Phase.PLAY
    assert deal.bidding.callers == [0, 1, 2, 0]


# --- B-25 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("holder", [0, 1, 2, 3])
def test_b25_four_sevens_as_first_call_void_the_deal(holder: int) -> None:
    hands = fill(*[("7S 7H 7D 7C" if s == holder else "") for s in range(4)])
    before = " ".join(["8S", "pass", "9H", "pass"][:holder])  # others call first
    deal = new_deal(hands, before)
    assert deal.to_act == holder
    assert SEVENS in deal.legal_actions()
    assert all(
        SEVENS not in new_deal(hands, " ".join(before.split()[:k])).legal_actions() for k in range(holder)
    )
    deal.apply(SEVENS)
    assert deal.is_over and deal.is_void and deal.contract is None
    r = deal.result
    assert r is not None and r.void and r.points == (0, 0) and r.made is None


def test_b25_four_sevens_then_the_next_seat_deals() -> None:
    game = Game(dealer=1)
    game.start_deal(DealtCards(fill("", "", "7S 7H 7D 7C")))
    game.apply(SEVENS)  # seat 2 speaks first
    assert game.totals == (0, 0) and game.deal is not None and game.deal.is_void
    assert game.start_deal(DealtCards(HANDS)).dealer == 2


def test_b25_not_after_the_holders_first_call() -> None:
    deal = new_deal(fill("7S 7H 7D 7C"), "pass 8S pass pass")
    assert deal.to_act == 0
    assert SEVENS not in deal.legal_actions()
    refused(deal, SEVENS, "four sevens may only be shown as a seat's first call (B-25)")
    deal = new_deal(fill("7S 7H 7D 7C"), "8S pass pass pass")
    assert deal.phase is Phase.PLAY  # he may keep quiet and play


def test_b25_only_the_seat_dealt_all_four_sevens() -> None:
    deal = new_deal(fill("7S 7H 7D 7C"), "pass")
    assert SEVENS not in deal.legal_actions()
    refused(deal, SEVENS, "seat 1 was not dealt all four 7s")
    refused(new_deal(HANDS), SEVENS, "seat 0 was not dealt all four 7s")


def test_b25_b90_four_sevens_have_no_effect_in_classic() -> None:
    deal = new_deal(fill("7S 7H 7D 7C"), rules=CLASSIC)
    assert SEVENS not in deal.legal_actions()
    refused(deal, SEVENS, "four sevens do not void a deal in the classic ruleset (B-90)")
    for word in ["8S", "pass", "pass", "pass"]:
        deal.apply(parse_call(word))
    assert deal.phase is Phase.PLAY
    league = new_deal(fill("7S 7H 7D 7C"), rules=LEAGUE)
    assert SEVENS in league.legal_actions()


# --- B-26 ---------------------------------------------------------------------------------------

OFF = Rules(three_passes_end_bidding=False)


def test_b26_on_by_default_three_passes_end() -> None:
    assert Rules().three_passes_end_bidding is True
    deal = new_deal(HANDS, "8H pass pass pass")
    assert deal.phase is Phase.PLAY


def test_b26_off_the_bidder_may_go_on_in_another_strain_higher() -> None:
    deal = new_deal(HANDS, "pass 8H pass pass pass", rules=OFF)
    assert deal.phase is Phase.BIDDING and deal.to_act == 1
    legal = texts(deal.legal_actions())
    assert legal == ["pass", *[b for b in bids_from(9) if not b.endswith("H")]]
    assert "contra" not in legal and "9H" not in legal and "9S" in legal and "9NT" in legal
    refused(deal, "9H", "seat 1 may go on only in a strain other than H (B-26)")
    refused(deal, "8S", "8S is too low: a bid must be above 8H")
    deal.apply(parse_call("9S"))
    assert deal.to_act == 2 and CONTRA in deal.legal_actions()  # the bidding goes round again
    for word in ["pass", "pass", "pass"]:
        deal.apply(parse_call(word))
    assert deal.to_act == 1 and "10H" in texts(deal.legal_actions())  # 'different' from 9S
    assert "10S" not in texts(deal.legal_actions())
    deal.apply(PASS)
    assert deal.contract is not None
    assert (deal.contract.declarer, deal.contract.level, deal.contract.strain) == (1, 9, "S")


def test_b26_off_the_bidder_passing_ends_the_bidding() -> None:
    deal = new_deal(HANDS, "8H pass pass pass pass", rules=OFF)
    assert deal.phase is Phase.PLAY and deal.contract is not None
    assert (deal.contract.declarer, deal.contract.level) == (0, 8)


def test_b26_off_four_passes_still_void() -> None:
    deal = new_deal(HANDS, "pass pass pass pass", rules=OFF)
    assert deal.is_void


def test_b26_off_others_may_still_outbid_before_three_passes() -> None:
    deal = new_deal(HANDS, "8H pass 9H pass pass pass", rules=OFF)
    assert deal.to_act == 2  # the last bidder is 2
    refused(deal, "10H", "seat 2 may go on only in a strain other than H (B-26)")


def test_bids_table_is_every_level_and_strain_once() -> None:
    assert len(BIDS) == 19 * 5 and len(set(BIDS)) == len(BIDS)
    assert [b.level for b in BIDS[::5]] == [*range(8, 26), 30]


def test_random_bidding_always_ends() -> None:
    for seed in range(200):
        rng = Random(seed)
        deal = Deal(fill("7S", "7H", "7D", "7C"), rng.randrange(4), Rules(kanach=bool(seed % 2)))
        n = 0
        while deal.phase is Phase.BIDDING:
            deal.apply(rng.choice(deal.legal_actions()))
            n += 1
        assert n <= 4 * 95
