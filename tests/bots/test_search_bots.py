"""The heuristic and PIMC bots of both games: only legal actions in thousands of deals, only
their own view, and PIMC samples that never contradict what the view reveals."""

from __future__ import annotations

import gc
import time
from random import Random

import pytest

from blot.bazar import Deal as BazarDeal
from blot.bazar import Game as BazarGame
from blot.bazar import random_deal
from blot.bots import make_bot
from blot.bots.bazar_info import infer, sample_hands
from blot.bots.bazar_pimc import PimcBot
from blot.bots.tfe_info import deal_view
from blot.bots.tfe_info import infer as tfe_infer
from blot.bots.tfe_info import sample_hands as tfe_sample
from blot.cards import DECK32, DECK52
from blot.errors import SetupError
from blot.games import spec
from blot.play import play as play_game
from blot.three_five_eight import Deal as TfeDeal
from blot.three_five_eight import Game as TfeGame


def play_deals(game: str, specs: list[str], deals: int, seed: int) -> int:
    """Play ``deals`` whole deals through the engine (``apply`` refuses any illegal action
    with IllegalAction, which fails the test). Returns the number of decisions taken."""
    rng = Random(seed)
    game_spec = spec(game)
    seats = game_spec.seats
    bots = [make_bot(game, specs[s % len(specs)], Random(rng.getrandbits(32))) for s in range(seats)]
    decisions = 0
    for i in range(deals):
        state = game_spec.new_game(dealer=i % seats)
        state.start_deal(game_spec.random_deal(rng))
        deal = state.deal
        assert deal is not None
        while not deal.is_over:
            seat = state.to_act
            action = bots[seat].choose(state.view(seat))
            assert action in state.legal_actions()
            state.apply(action)
            decisions += 1
    return decisions


def test_bazar_heuristic_plays_only_legal_actions_in_thousands_of_deals() -> None:
    assert play_deals("bazar-blot", ["heuristic", "random"], 1500, 1) > 0
    assert play_deals("bazar-blot", ["heuristic", "basic"], 1500, 2) > 0


def test_bazar_heuristic_plays_whole_games() -> None:
    rng = Random(4)
    for _ in range(20):
        game = BazarGame(dealer=0, rng=Random(rng.getrandbits(32)))
        play_game(game, [make_bot("bazar-blot", "heuristic", Random(s)) for s in range(4)])
        assert game.is_over


def test_bazar_pimc_plays_only_legal_actions() -> None:
    assert play_deals("bazar-blot", ["pimc:samples=2,bidding=pimc,bid_samples=1", "heuristic"], 6, 3) > 0
    assert play_deals("bazar-blot", ["pimc:samples=3", "random"], 8, 5) > 0


def test_358_heuristic_plays_only_legal_actions_in_thousands_of_deals() -> None:
    assert play_deals("3-5-8", ["heuristic", "random"], 1000, 6) > 0
    assert play_deals("3-5-8", ["heuristic", "basic"], 1000, 7) > 0


def test_358_pimc_plays_only_legal_actions_in_whole_games() -> None:
    rng = Random(8)
    for _ in range(2):
        game = TfeGame(dealer=0, rng=Random(rng.getrandbits(32)))
        play_game(
            game,
            [make_bot("3-5-8", s, Random(i)) for i, s in enumerate(("pimc:samples=4", "heuristic", "basic"))],
        )
        assert game.is_over


def _reaches(root: object, target: type, limit: int = 20000) -> bool:
    """Whether any object reachable from ``root`` (through references) is a ``target``."""
    seen: set[int] = set()
    stack = [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, target):
            return True
        if isinstance(obj, type | int | str | float | bool) or obj is None:
            continue
        stack.extend(gc.get_referents(obj))
    assert not stack, "the view's object graph is larger than expected: look deeper"
    return False


def test_views_hold_no_reference_to_the_deal_or_the_game() -> None:
    game = BazarGame(dealer=0, rng=Random(3))
    bots = [make_bot("bazar-blot", "heuristic", Random(s)) for s in range(4)]
    for _ in range(20):
        seat = game.to_act
        view = game.view(seat)
        assert not _reaches(view, BazarDeal) and not _reaches(view, BazarGame)
        game.apply(bots[seat].choose(view))
    tgame = TfeGame(dealer=0, rng=Random(3))
    tbots = [make_bot("3-5-8", "heuristic", Random(s)) for s in range(3)]
    for _ in range(40):
        seat = tgame.to_act
        tview = tgame.view(seat)
        assert not _reaches(tview, TfeDeal) and not _reaches(tview, TfeGame)
        tgame.apply(tbots[seat].choose(tview))


def test_bazar_inferences_hold_for_the_real_deal_and_samples_respect_them() -> None:
    """What ``infer`` reads from a view is true of the real hands (so a sample never puts a card
    where the view says it cannot be), and every sample keeps the bot's hand, the played cards
    and each seat's hand size."""
    rng = Random(12)
    checked = 0
    for g in range(40):
        deal = BazarDeal(random_deal(rng).hands, dealer=g % 4)
        bots = [make_bot("bazar-blot", "heuristic", Random(s)) for s in range(4)]
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            view = deal.view(seat)
            if deal.phase.value == "play" and not view.must_declare:
                k = infer(view)
                for s in range(4):
                    assert not deal.hands[s] & k.forbidden[s], (s, view.tricks)
                    assert k.known[s] & ~deal.hands[s] == 0
                    assert k.sizes[s] == deal.hands[s].bit_count()
                hands = sample_hands(k, rng)
                assert hands is not None
                assert hands[seat] == deal.hands[seat]
                assert sum(h.bit_count() for h in hands) == (DECK32 & ~k.played).bit_count()
                for s in range(4):
                    assert hands[s].bit_count() == deal.hands[s].bit_count()
                    assert not hands[s] & k.played
                    assert not hands[s] & k.forbidden[s]
                    assert k.known[s] & ~hands[s] == 0
                checked += 1
            deal.apply(bots[seat].choose(view))
    assert checked > 1000


def test_358_inferences_hold_for_the_real_deal_and_samples_respect_them() -> None:
    """As for Bazar Blot, at every gift (T-20), discard and card of the first two counted deals of
    a game: what a seat learns from the returns of its gifts (T-21) holds too."""
    rng = Random(13)
    checked = ceilings = 0
    for g in range(12):
        game = TfeGame(dealer=g % 3, rng=Random(rng.getrandbits(32)))
        bots = [make_bot("3-5-8", "heuristic", Random(s)) for s in range(3)]
        while game.counted < 2:
            seat = game.to_act
            view = game.view(seat)
            dv = deal_view(view)
            deal = game.deal
            assert deal is not None
            if dv.phase.value != "call":
                k = tfe_infer(dv)
                for s in range(3):
                    assert not deal.hand(s) & k.forbidden[s], (s, dv.exchanges)
                    assert k.known[s] & ~deal.hand(s) == 0
                ceilings += any(e.giver == seat and e.returned is not None for e in dv.exchanges)
                hands = tfe_sample(k, rng)
                assert hands is not None
                assert hands[seat] == deal.hand(seat)
                for s in range(3):
                    assert hands[s].bit_count() == deal.hand(s).bit_count()
                    assert not hands[s] & k.forbidden[s] and not hands[s] & k.played
                assert not (hands[0] & hands[1]) and not (hands[3] & (hands[0] | hands[1] | hands[2]))
                assert (hands[0] | hands[1] | hands[2] | hands[3]) == DECK52 & ~k.played
                if dv.talon is None:  # the talon's four cards, still face down
                    assert hands[3].bit_count() == 4
                checked += 1
            game.apply(bots[seat].choose(view))
    assert checked > 600 and ceilings > 20


def test_t21_a_gift_that_came_back_tells_the_giver_what_the_receiver_cannot_hold() -> None:
    """2D came back from seat 2 (T-21): seat 0 knows he holds no diamond at all, until the
    third seat gives him a card; an ace of spades returned for 8S tells that he holds no spade
    above it either way."""
    from blot.cards import SUIT_MASKS, parse_card
    from blot.three_five_eight import HEARTS, DealResult

    hands = [
        "KS QS JS 10S 9S 8S AC KC QC JC 10C 9C 2D 3D 4D 5D",
        "8H 9H 10H JH QH KH AH 6D 7D 8D 9D 10D JD QD KD AD",
        "AS 2S 3S 4S 5S 2H 3H 4H 5H 6H 7H 2C 3C 4C 5C 6C",
    ]
    # the previous deal (dealer 1, targets 5, 3, 8): seat 0 took 7 (+2), seat 2 took 6 (-2)
    previous = DealResult(1, False, HEARTS, 2, (5, 3, 8), (7, 3, 6), (2, 0, -2))
    deal = TfeDeal(hands, "6S 7S 7C 8C", dealer=2, previous=previous)
    deal.apply(HEARTS)
    deal.apply(parse_card("2D"))
    deal.apply(parse_card("8S"))
    k = tfe_infer(deal.view(0))
    diamonds_above_2 = SUIT_MASKS[2] & ~((parse_card("2D").bit << 1) - 1)
    assert k.forbidden[2] & diamonds_above_2 & k.hidden == diamonds_above_2 & k.hidden != 0
    assert k.forbidden[2] & SUIT_MASKS[0] == 0  # the ace of spades is the top spade: nothing above
    assert k.forbidden[1] == 0


def test_pimc_settings_knob_and_first_trick_decision() -> None:
    """``samples`` sets the deals per decision; ``seconds`` stops sampling early."""
    deal = BazarDeal(random_deal(Random(21)).hands, dealer=3)
    for call in ("8H", "pass", "pass", "pass"):
        from blot.bazar import parse_call

        deal.apply(parse_call(call))
    bot = PimcBot(Random(1), samples=7, seconds=60)
    bot.choose(deal.view(0))  # warm: import and JIT cache load
    start = time.perf_counter()
    card = bot.choose(deal.view(0))
    assert card in deal.legal_actions()
    assert bot.last_samples == 7
    assert time.perf_counter() - start < 30
    quick = PimcBot(Random(1), samples=1000, seconds=0.01)
    quick.choose(deal.view(0))
    assert 1 <= quick.last_samples < 1000


def test_bad_bot_settings_are_one_sentence_errors() -> None:
    from blot.errors import BlotError

    with pytest.raises(BlotError, match="no setting"):
        make_bot("bazar-blot", "pimc:sample=3")
    with pytest.raises(BlotError, match="samples is a whole number from 1 to 1000, not '0'"):
        make_bot("bazar-blot", "pimc:samples=0")
    with pytest.raises(BlotError, match="no setting"):
        make_bot("3-5-8", "pimc:depth=3")


@pytest.mark.parametrize(
    ("game", "settings", "error"),
    [
        ("bazar-blot", {"samples": 0}, "bot pimc: samples is a whole number from 1 to 1000, not '0'"),
        ("bazar-blot", {"seconds": float("nan")}, "bot pimc: seconds is above 0, at most 60, not 'nan'"),
        ("bazar-blot", {"bidding": "loud"}, "bot pimc: bidding is heuristic or pimc, not 'loud'"),
        ("3-5-8", {"horizon": 0}, "bot pimc: horizon is a whole number from 1 to 16, not '0'"),
        ("3-5-8", {"exact": 1.5}, "bot pimc: exact is a whole number from 0 to 16, not '1.5'"),
    ],
)
def test_pimc_built_from_code_checks_its_settings_as_the_command_line_does(
    game: str, settings: dict[str, object], error: str
) -> None:
    """A bot's constructor refuses what ``NAME:key=value`` would (one rule, bots/settings.py)."""
    with pytest.raises(SetupError) as refused:
        spec(game).bot_class("pimc")(rng=Random(1), **settings)
    assert str(refused.value) == error
