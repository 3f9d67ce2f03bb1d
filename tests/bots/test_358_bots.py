"""The 3-5-8 bots: they only ever choose a legal action of their own view, ``basic`` beats
``random`` clearly, and ``basic``'s rules do what its docstring says (T-10, T-20 … T-22, T-30 …)."""

from __future__ import annotations

from collections import Counter
from random import Random

import pytest

from blot.bots import make_bot
from blot.bots.tfe_basic import BasicBot, hand_tricks
from blot.cards import DECK52, SUIT_MASKS, Card, cards_of, parse_card, parse_cards
from blot.game import Action, View
from blot.games import spec
from blot.simulate import Simulation, games_played
from blot.three_five_eight import (
    HEARTS,
    NO_TRUMP,
    PASS,
    SPADES,
    STRAINS,
    Deal,
    DealResult,
    DealView,
    Game,
    GameView,
    Phase,
    parse_action,
    targets_for,
    winning_bit,
)


def deal_with(h0: str, h1: str, h2: str, talon: str = "", **kwargs: object) -> Deal:
    """A deal of these partial hands; every other card goes, low index first, to the seat (then
    the talon) with the fewest cards."""
    hands = [parse_cards(h) for h in (h0, h1, h2)]
    tal = parse_cards(talon)
    for card in cards_of(DECK52 & ~(hands[0] | hands[1] | hands[2] | tal)):
        open_seats = [s for s in range(3) if hands[s].bit_count() < 16]
        if open_seats:
            seat = min(open_seats, key=lambda s: (hands[s].bit_count(), s))
            hands[seat] |= card.bit
        else:
            tal |= card.bit
    return Deal(hands, tal, **kwargs)  # type: ignore[arg-type]


def previous(dealer: int, tricks: tuple[int, int, int]) -> DealResult:
    targets = targets_for(dealer)
    scores = (tricks[0] - targets[0], tricks[1] - targets[1], tricks[2] - targets[2])
    return DealResult(dealer, False, HEARTS, (dealer + 1) % 3, targets, tricks, scores)


class Checked:
    """Wraps a bot: it must be given its own seat's view and answer one of its legal actions."""

    def __init__(self, name: str, seat: int, rng: Random) -> None:
        self.bot = make_bot("3-5-8", name, rng)
        self.seat = seat
        self.calls = 0

    def choose(self, view: View) -> Action:
        assert isinstance(view, GameView) and view.seat == self.seat and view.to_act == self.seat
        action = self.bot.choose(view)
        assert action in view.legal, (action, view.phase)
        self.calls += 1
        return action


@pytest.mark.parametrize("name", ["random", "basic", "basic:pass_margin=0"])
def test_bots_only_choose_legal_actions_of_their_own_view(name: str) -> None:
    assert set(spec("3-5-8").bot_names()) >= {"random", "basic"}
    rng = Random(name)
    for i in range(40 if name != "random" else 100):
        game = Game(dealer=i % 3, rng=Random(rng.getrandbits(32)))
        bots = [Checked(name, s, Random(rng.getrandbits(32))) for s in range(3)]
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            game.apply(bots[seat].choose(game.view(seat)))
        assert game.counted == 9 and sum(b.calls for b in bots) >= 9 * 53


def test_basic_beats_random_clearly() -> None:
    """Measured with ``blot simulate``'s own loop: ``basic`` in seat 0 against two random bots."""
    sim = Simulation("3-5-8", ["basic", "random", "random"])
    for _ in games_played("3-5-8", 30, 1, sim.bots, sim):
        pass
    summary = sim.to_json()
    assert summary["wins_by_seat"][0] >= 27, summary
    assert summary["average_total_by_seat"][0] > 20, summary


def test_basic_plays_a_deal_as_well_as_the_view_of_a_deal() -> None:
    """A bot takes a DealView as readily as a GameView."""
    deal = Deal.random(Random(2), dealer=1)
    bot = BasicBot()
    while not deal.is_over:
        seat = deal.to_act
        assert seat is not None
        deal.apply(bot.choose(deal.view(seat)))
    assert sum(deal.tricks_taken) == 16


# --- the call (T-10) ---------------------------------------------------------------------------


def test_t10_basic_names_its_long_strong_suit() -> None:
    deal = deal_with("AH KH QH 10H 8H 7H 5H AS", "", "", dealer=2)
    assert BasicBot().choose(deal.view(0)) is HEARTS


def test_t10_basic_names_nt_when_it_would_have_to_give_back_its_top_cards() -> None:
    """A flat hand full of top cards; with three cards to receive, the exchange (T-21) would
    take its strongest cards, and NT cancels it (T-20)."""
    flat = "AS KS QS JS AH KH QH JH AD KD QD JD AC KC QC JC"
    plain = deal_with(flat, "", "", dealer=2)
    assert BasicBot().choose(plain.view(0)) in STRAINS[:4]
    # previous deal: dealer 1, so seat 0 had target 5; 2 tricks is -3; seat 1 (target 3) took 6
    minus = deal_with(flat, "", "", dealer=2, previous=previous(1, (2, 6, 8)))
    assert minus.plan == ((1, 0),) * 3
    assert BasicBot().choose(minus.view(0)) is NO_TRUMP


def test_t10_basic_passes_only_a_hopeless_hand_and_only_while_it_may() -> None:
    low = "2S 3S 4S 5S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C 5C"
    deal = deal_with(low, "", "", dealer=2)
    assert hand_tricks(deal.hand(0), None) == 0
    assert BasicBot().choose(deal.view(0)) is PASS
    used = deal_with(low, "", "", dealer=2, may_pass=(False, True, True))
    assert BasicBot().choose(used.view(0)) in STRAINS
    second = deal_with("", low, "", dealer=2)
    second.apply(PASS)
    assert BasicBot().choose(second.view(1)) in STRAINS  # passing would hand the trump to the dealer
    average = deal_with("AS 10S 7S 4S 2S KH 9H 3H QD 8D 5D 2D JC 8C 6C 3C", "", "", dealer=2)
    assert BasicBot().choose(average.view(0)) is not PASS


# --- the exchange (T-20, T-21) -----------------------------------------------------------------


def test_t21_basic_gives_its_lowest_trump_to_draw_a_top_trump_back() -> None:
    # previous deal: dealer 1 (targets 5, 3, 8): seat 0 took 6 (+1), seat 2 took 7 (-1)
    deal = deal_with(
        "2H 3H 9H 10H AS KS QS JS 2C 3C",
        "",
        "AH KH QH",
        dealer=2,
        previous=previous(1, (6, 3, 7)),
    )
    assert deal.plan == ((0, 2),)
    deal.apply(HEARTS)
    gift = BasicBot().choose(deal.view(0))
    assert gift == parse_card("2H")
    deal.apply(gift)
    assert deal.exchanges[0].returned == parse_card("AH")


def test_t21_basic_learns_from_a_gift_that_came_back() -> None:
    """2D came back: the receiver holds no diamond above it, so the next gift goes where a
    stronger card may still come back (the ace of spades)."""
    deal = Deal(
        [
            "KS QS JS 10S 9S 8S AC KC QC JC 10C 9C 2D 3D 4D 5D",
            "8H 9H 10H JH QH KH AH 6D 7D 8D 9D 10D JD QD KD AD",
            "AS 2S 3S 4S 5S 2H 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C",
        ],
        "6S 7S 7C 8C",
        dealer=2,
        previous=previous(1, (7, 3, 6)),
    )
    assert deal.plan == ((0, 2), (0, 2))
    deal.apply(HEARTS)
    bot = BasicBot()
    first = bot.choose(deal.view(0))
    assert first == parse_card("2D")  # diamonds: the most to gain while nothing is known
    deal.apply(first)
    assert deal.exchanges[0].returned == first
    second = bot.choose(deal.view(0))
    assert second == parse_card("8S")
    deal.apply(second)
    assert deal.exchanges[1].returned == parse_card("AS")


# --- the discard (T-22) ------------------------------------------------------------------------


def test_t22_basic_discards_to_void_a_short_weak_side_suit() -> None:
    deal = deal_with(
        "AS KS QS JS 10S 9S 8S AH KH QH AD KD QD 3C 4C 6C",
        "",
        "",
        "2S 5H 7D 2C",
        dealer=2,
    )
    deal.apply(SPADES)
    assert deal.phase is Phase.DISCARD
    bot = BasicBot()
    put_back: list[Card] = []
    while deal.phase is Phase.DISCARD:
        card = bot.choose(deal.view(0))
        assert isinstance(card, Card)
        put_back.append(card)
        deal.apply(card)
    assert {str(c) for c in put_back} == {"2C", "3C", "4C", "6C"}  # clubs void: ruffs with spades
    assert not deal.hand(0) & SUIT_MASKS[3]


# --- play (T-30 … T-34) ------------------------------------------------------------------------


def positions(games: int) -> list[tuple[DealView, Action]]:
    """Every play decision of some basic-vs-basic games, with the card basic chose."""
    out: list[tuple[DealView, Action]] = []
    bot = BasicBot()
    for seed in range(games):
        game = Game(dealer=seed % 3, rng=Random(seed))
        while not game.is_over:
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            action = bot.choose(view)
            if view.phase is Phase.PLAY:
                assert view.deal is not None
                out.append((view.deal, action))
            game.apply(action)
    return out


@pytest.fixture(scope="module")
def plays() -> list[tuple[DealView, Action]]:
    return positions(4)


def wins(view: DealView, card: Card) -> bool:
    trick = 0
    for _, c in view.trick:
        trick |= c.bit
    lead = SUIT_MASKS[view.trick[0][1].suit]
    trump = view.trump.trump_mask if view.trump is not None else 0
    return winning_bit(trick | card.bit, lead, trump) == card.bit


def test_t34_last_to_play_wins_with_the_cheapest_card_that_does(
    plays: list[tuple[DealView, Action]],
) -> None:
    checked = Counter[str]()
    for view, action in plays:
        if len(view.trick) != 2:
            continue
        legal = [a for a in view.legal if isinstance(a, Card)]
        winners = [c for c in legal if wins(view, c)]
        assert isinstance(action, Card)
        trump = view.trump.suit if view.trump is not None else None
        if winners:
            assert action == min(winners, key=lambda c: (c.suit == trump, c.rank))
            checked["win"] += 1
        else:
            # a lost trick gets no trump while another card may go
            assert action.suit != trump or all(c.suit == trump for c in legal)
            checked["throw"] += 1
    assert checked["win"] > 20 and checked["throw"] > 20


def test_t30_the_first_lead_draws_trumps_with_the_top_trump_and_the_length(
    plays: list[tuple[DealView, Action]],
) -> None:
    seen = 0
    for view, action in plays:
        if view.trick or view.tricks or view.trump is None or view.trump.suit is None:
            continue
        tmask = view.trump.trump_mask
        out = DECK52 & ~view.hand & ~(view.discard or 0) & tmask
        mine = view.hand & tmask
        if mine and out and mine.bit_length() > out.bit_length() and mine.bit_count() * 2 >= out.bit_count():
            assert isinstance(action, Card) and action.bit == 1 << (mine.bit_length() - 1)
            seen += 1
    assert seen >= 3


def test_parse_and_strains_are_what_basic_answers() -> None:
    """Basic answers with the engine's own singletons (compare with ``is``)."""
    deal = deal_with("AH KH QH 10H 8H 7H 5H AS", "", "", dealer=2)
    call = BasicBot().choose(deal.view(0))
    assert call is parse_action(str(call))
