"""The ``expert`` bots of both games (issue 27 item 9): only legal actions, decisions that depend
on the seat's view alone (the same view with other hidden cards behind it gives the same
choice), the same choices for the same seed and settings, and a time limit that holds."""

from __future__ import annotations

import logging
from random import Random
from typing import Any

import pytest
from tests.bots.test_budgets import SlowClock
from tests.bots.test_search_bots import play_deals

from blot.arena import run
from blot.bots import make_bot, sampling
from blot.cards import iter_bits
from blot.errors import IllegalAction
from blot.game import Action, View
from blot.games import spec
from blot.play import Player, moves
from blot.store import LogEntry
from server.frames import cards_in, known_cards

#: Small budgets: the tests check behaviour, not strength.
EXPERT = {
    "bazar-blot": "expert:samples=4,bid_samples=4",
    "3-5-8": "expert:samples=3,call_samples=2",
}


#: The 3-5-8 expert's searched trump call and discard, each way (double-dummy, played out).
CHOICES = [f"{EXPERT['3-5-8']},choices={way}" for way in ("expert", "rollout")]


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_expert_plays_only_legal_actions(game: str) -> None:
    opponents = {"bazar-blot": "heuristic", "3-5-8": "basic"}[game]
    assert play_deals(game, [EXPERT[game], opponents], 6, 31) > 0
    assert play_deals(game, [EXPERT[game], "random"], 4, 32) > 0


@pytest.mark.parametrize("bot", CHOICES)
def test_the_3_5_8_experts_searched_choices_are_legal_and_its_own(bot: str) -> None:
    """Calls and discards searched either way: legal against any opponents, and the same for the
    same view whatever the bot's seed (they draw random numbers from the seat's own cards, so
    that the card play's numbers do not depend on them)."""
    assert play_deals("3-5-8", [bot, "basic"], 4, 33) > 0
    assert play_deals("3-5-8", [bot, "random"], 3, 34) > 0
    compared = 0
    for (cards, dealer), actions, seat in positions("3-5-8", 40, seed=6):
        state = replayed("3-5-8", cards, dealer, actions)
        if state.deal.phase.name not in ("CALL", "DISCARD"):
            continue
        view: View = state.view(seat)
        chosen = make_bot("3-5-8", bot, Random(9)).choose(view)
        assert chosen in state.legal_actions()
        assert make_bot("3-5-8", bot, Random(10)).choose(view) == chosen  # not the bot's generator
        compared += 1
    assert compared >= 2


def positions(game: str, count: int, seed: int) -> list[tuple[Any, list[Action], int]]:
    """Seeded deals of heuristic players: (the dealt cards and dealer, the actions up to a
    decision with several choices, the seat to decide)."""
    game_spec = spec(game)
    rng = Random(seed)
    found: list[tuple[Any, list[Action], int]] = []
    while len(found) < count:
        dealer = len(found) % game_spec.seats
        cards = game_spec.random_deal(rng)
        state = game_spec.new_game(dealer=dealer)
        state.start_deal(cards)
        bots = [make_bot(game, "heuristic", Random(s)) for s in range(game_spec.seats)]
        actions: list[Action] = []
        deal = state.deal
        assert deal is not None
        while not deal.is_over and len(found) < count:
            seat = state.to_act
            assert seat is not None
            if len(state.legal_actions()) > 1 and rng.random() < 0.15:
                found.append(((cards, dealer), list(actions), seat))
            action = bots[seat].choose(state.view(seat))
            state.apply(action)
            actions.append(action)
    return found


def replayed(game: str, cards: Any, dealer: int, actions: list[Action]) -> Any:
    game_spec = spec(game)
    state = game_spec.new_game(dealer=dealer)
    state.start_deal(cards)
    for action in actions:
        state.apply(action)
    return state


def other_hands(game: str, cards: Any, seat: int, state: Any, rng: Random) -> Any | None:
    """The same deal with two hidden cards swapped between two other seats (None when the swap
    is the same deal): a deal the seat cannot tell from the real one if the same actions replay."""
    hands = list(cards.hands)
    others = [s for s in range(len(hands)) if s != seat]
    a, b = rng.sample(others, 2)
    x = rng.choice(list(iter_bits(hands[a])))
    y = rng.choice(list(iter_bits(hands[b])))
    hands[a] ^= x | y
    hands[b] ^= x | y
    return type(cards)(tuple(hands), *([cards.talon] if hasattr(cards, "talon") else []))


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_expert_decides_from_its_seats_view_alone(game: str) -> None:
    """Hidden cards moved between the other seats (where the same actions still replay and the
    seat's view is unchanged) never change the expert's choice: it reads nothing but its view."""
    rng = Random(77)
    compared = 0
    for (cards, dealer), actions, seat in positions(game, 14, seed=5):
        state = replayed(game, cards, dealer, actions)
        view: View = state.view(seat)
        chosen = make_bot(game, EXPERT[game], Random(9)).choose(view)
        for _ in range(30):
            alternative = other_hands(game, cards, seat, state, rng)
            try:
                other = replayed(game, alternative, dealer, actions)
            except IllegalAction:
                continue
            if other.view(seat) != view or alternative.hands == cards.hands:
                continue
            assert make_bot(game, EXPERT[game], Random(9)).choose(other.view(seat)) == chosen
            compared += 1
            break
    assert compared >= 8


class _Watched:
    """The expert, with the JSON of every view it is handed kept (what the bot protocol would
    send a program in its seat)."""

    def __init__(self, bot: Any, wire: Any) -> None:
        self.bot, self.wire = bot, wire
        self.seen: list[dict[str, Any]] = []

    def choose(self, view: View) -> Action:
        self.seen.append(self.wire.view_json(view))
        action: Action = self.bot.choose(view)
        return action


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_expert_is_handed_only_what_its_seat_may_know(game: str) -> None:
    """Over whole deals in every seat, each view the expert decides from holds only cards its seat
    may know then: the bot protocol's check (tests/protocol/test_protocol.py, server/frames.py)."""
    game_spec = spec(game)
    wire = game_spec.wire_module()
    checked = 0
    for seat in range(game_spec.seats):
        players: list[Player] = [make_bot(game, "heuristic", Random(s)) for s in range(game_spec.seats)]
        watched = _Watched(make_bot(game, EXPERT[game], Random(seat)), wire)
        players[seat] = watched
        rules = game_spec.rules()
        state = game_spec.new_game(rules)  # the first dealer, as the log replays it
        cards = game_spec.random_deal(Random(40 + seat))
        state.start_deal(cards)
        settings = {"ruleset": rules.ruleset, "options": rules.options()}
        entries = [LogEntry(1, "create", {"settings": settings}), LogEntry(2, "deal", cards.to_json())]
        deal = state.deal
        assert deal is not None
        for move in moves(state, players, until=lambda _g, d=deal: d.is_over):
            allowed = known_cards(game, entries, len(entries), seat)  # before the move: when it chose
            for view in watched.seen:
                assert view["seat"] == seat
                leaked = cards_in(view) - allowed
                assert not leaked, f"the expert in seat {seat} was shown {sorted(leaked)}"
                checked += len(cards_in(view))
            watched.seen.clear()
            action = wire.action_json(move.action)
            entries.append(LogEntry(len(entries) + 1, "act", {"seat": move.seat, "action": action}))
    assert checked > 100


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_expert_is_deterministic_for_a_seed(game: str) -> None:
    first = list(run(game, EXPERT[game], "heuristic", 3, seed=8))[-1]
    second = list(run(game, EXPERT[game], "heuristic", 3, seed=8))[-1]
    assert first.margins == second.margins and first.decisions == second.decisions


@pytest.mark.parametrize("game", ["bazar-blot", "3-5-8"])
def test_the_expert_keeps_to_its_time_limit(game: str, monkeypatch: Any, caplog: Any) -> None:
    """On a clock that jumps a second per reading, a limit of 1.5 s stops every search after its
    first or second deal, says so in the log, and the deal is still played to its end."""
    monkeypatch.setattr(sampling.time, "perf_counter", SlowClock(1.0))
    bot = EXPERT[game].replace("samples=4", "samples=30").replace("call_samples=2", "call_samples=4")
    with caplog.at_level(logging.WARNING, logger="blot.bots"):
        assert play_deals(game, [f"{bot},seconds=1.5"], 1, 3) > 0
    assert "expert: the time limit of 1.5 s cut its search after" in caplog.text
    if game == "3-5-8":  # the played-out call and discard keep to it too
        assert "deals when calling" in caplog.text and "deals when discarding" in caplog.text


def test_b21_the_expert_bids_kapoot_with_a_sweep_in_hand_and_redoubles_the_contra() -> None:
    """All eight trumps on lead take every trick whatever the others hold: the expert bids
    kapoot (25) at once, where the heuristic player bids 8; a contra of it is redoubled."""
    from blot.bazar import Deal
    from blot.bazar.values import Phase
    from blot.cards import DECK32, cards_of, mask_of

    deck = cards_of(DECK32)
    rest = [c for c in deck if not str(c).endswith("H")]
    Random(4).shuffle(rest)
    hands = [mask_of(rest[0:8]), mask_of([c for c in deck if str(c).endswith("H")])]
    hands += [mask_of(rest[8:16]), mask_of(rest[16:24])]
    calls = {}
    for name in ("expert:bid_samples=6", "heuristic"):
        deal = Deal(hands, dealer=0)
        bots = [make_bot("bazar-blot", name, Random(s)) for s in range(4)]
        said = []
        while deal.phase is Phase.BIDDING:
            seat = deal.to_act
            assert seat is not None
            call = bots[seat].choose(deal.view(seat))
            said.append(f"{seat}:{call}")
            deal.apply(call)
        calls[name] = said
    assert calls["heuristic"][0] == "1:8H"
    assert calls["expert:bid_samples=6"][0] == "1:25H"
    assert "1:redouble" in calls["expert:bid_samples=6"]


def gift_positions(count: int, seed: int) -> list[tuple[int, list[tuple[Any, list[Action]]], int]]:
    """Gifts to choose (T-20) in the second counted deal of 3-5-8 games of heuristic players:
    (the first dealer, each deal's cards and its actions up to the gift, the seat to give)."""
    game_spec = spec("3-5-8")
    rng = Random(seed)
    found: list[tuple[int, list[tuple[Any, list[Action]]], int]] = []
    while len(found) < count:
        dealer = len(found) % 3
        state = game_spec.new_game(dealer=dealer)
        bots = [make_bot("3-5-8", "heuristic", Random(s)) for s in range(3)]
        history: list[tuple[Any, list[Action]]] = []
        while state.counted < 2 and len(found) < count:
            cards = game_spec.random_deal(rng)
            state.start_deal(cards)
            history.append((cards, []))
            deal = state.deal
            while not deal.is_over:
                seat = state.to_act
                if deal.phase.name == "EXCHANGE" and len(state.legal_actions()) > 1:
                    found.append((dealer, [(c, list(a)) for c, a in history], seat))
                action = bots[seat].choose(state.view(seat))
                state.apply(action)
                history[-1][1].append(action)
    return found


def replayed_game(dealer: int, history: list[tuple[Any, list[Action]]]) -> Any:
    state = spec("3-5-8").new_game(dealer=dealer)
    for cards, actions in history:
        state.start_deal(cards)
        for action in actions:
            state.apply(action)
    return state


def test_t20_the_3_5_8_experts_gifts_are_legal_its_own_and_from_its_view_alone() -> None:
    """The played-out gifts of the exchange: legal, the same whatever the bot's seed, and the same
    when hidden cards move between the other two seats where the seat's view stays the same."""
    rng = Random(78)
    bot = EXPERT["3-5-8"]
    compared = swapped = 0
    for dealer, history, seat in gift_positions(24, seed=7):
        state = replayed_game(dealer, history)
        view: View = state.view(seat)
        chosen = make_bot("3-5-8", bot, Random(9)).choose(view)
        assert chosen in state.legal_actions()
        assert make_bot("3-5-8", bot, Random(10)).choose(view) == chosen
        compared += 1
        cards = history[-1][0]
        for _ in range(30):
            alternative = other_hands("3-5-8", cards, seat, state, rng)
            try:
                other = replayed_game(dealer, [*history[:-1], (alternative, history[-1][1])])
            except IllegalAction:
                continue
            if other.view(seat) != view or alternative.hands == cards.hands:
                continue
            assert make_bot("3-5-8", bot, Random(9)).choose(other.view(seat)) == chosen
            swapped += 1
            break
    assert compared == 24 and swapped >= 8


def test_t20_the_3_5_8_experts_gifts_keep_to_its_time_limit(monkeypatch: Any, caplog: Any) -> None:
    """On a clock that jumps a second per reading the played-out gifts stop early and say so."""
    monkeypatch.setattr(sampling.time, "perf_counter", SlowClock(1.0))
    dealer, history, seat = gift_positions(1, seed=8)[0]
    state = replayed_game(dealer, history)
    bot = make_bot("3-5-8", "expert:samples=3,call_samples=6,seconds=1.5", Random(1))
    with caplog.at_level(logging.WARNING, logger="blot.bots"):
        assert bot.choose(state.view(seat)) in state.legal_actions()
    assert "deals when giving" in caplog.text


@pytest.mark.parametrize(
    ("cards", "strain", "on_lead", "sweeps"),
    [
        ("7H 8H 9H 10H JH QH KH AH", "H", False, True),  # all eight trumps, whoever leads
        ("JH 9H AH 10H AS 10S AD AC", "H", True, True),  # four top trumps draw the rest, then masters
        ("JH 9H AH 10H AS 10S AD AC", "H", False, False),  # an ace led into can be ruffed
        ("JH 9H AH 10H AS 10S AD AC", "NT", True, False),  # hearts lack the king and queen in NT
        ("JH 9H AH AS 10S KS AD AC", "H", True, False),  # three trumps may not draw four
        ("AH 10H AS 10S AD 10D AC 10C", "NT", False, True),  # every suit's ace takes the first trick
        ("AH 10H KH AS 10S AD 10D KD", "NT", False, False),  # a club led is lost
        ("AH 10H KH AS 10S AD 10D KD", "NT", True, True),
        ("JH 9H AH 10H KH AS 10S 8D", "H", True, False),  # the 8 of diamonds is no master
    ],
)
def test_b21_b30_a_hand_that_takes_every_trick_whatever_the_others_hold(
    cards: str, strain: str, on_lead: bool, sweeps: bool
) -> None:
    from blot.bazar.tables import STRAIN_INDEX
    from blot.bots.bazar_certain import takes_every_trick
    from blot.cards import parse_cards

    assert takes_every_trick(parse_cards(cards), STRAIN_INDEX[strain], on_lead) is sweeps


@pytest.mark.parametrize(
    ("cards", "kanach", "first_call"),
    [
        ("7H 8H 9H 10H JH QH KH AH", True, "30H"),  # kanach: the seat alone takes every trick
        ("JH 9H AH 10H AS 10S AD AC", False, "25H"),  # issue 44: it bid 24NT, the heuristic's strain
    ],
)
def test_b21_the_expert_bids_the_top_level_with_a_sure_sweep_on_lead(
    cards: str, kanach: bool, first_call: str
) -> None:
    """Seat 1 leads the first trick (dealer 0, B-30) and calls first (B-20)."""
    from blot.bazar import Deal
    from blot.bazar.rules import Rules
    from blot.cards import DECK32, cards_of, mask_of, parse_cards

    mine = parse_cards(cards)
    rest = cards_of(DECK32 & ~mine)
    Random(4).shuffle(rest)
    hands = [mask_of(rest[0:8]), mine, mask_of(rest[8:16]), mask_of(rest[16:24])]
    deal = Deal(hands, dealer=0, rules=Rules(kanach=kanach))
    call = make_bot("bazar-blot", "expert:bid_samples=6", Random(1)).choose(deal.view(1))
    assert str(call) == first_call
