"""The contract every game of the registry must keep (after OpenSpiel's ``basic_tests``), checked
on random games of every game and ruleset through the one interface (:mod:`blot.game`,
:mod:`blot.games`, :mod:`blot.wire`) without knowing which game it is:

- ``refusal`` and ``apply`` agree, and a refused action changes nothing;
- ``copy()`` is independent of its original;
- every seat's view, its JSON and the events it hears hold only what that seat may know, and
  the public view (spectators) only what everybody may know: exactly what every seat's view has
  in common (:mod:`contract.knowledge` says what the rules show, and to whom);
- every action's text and JSON forms read back as the action;
- everything the wire writes is JSON that reads back unchanged;
- the automatic move is legal in every phase;
- records round-trip and replay to the same result;
- random games end, with results that add up; seeded runs are the same run.

What one game's rules say in detail is checked in that game's own tests (tests/bazar,
tests/three_five_eight), each against a reference model of the rule text.
"""

from __future__ import annotations

import dataclasses
import json
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blot.bots import make_bot
from blot.cards import DECK52, cards_of
from blot.errors import BlotError, IllegalAction, NotationError
from blot.game import Action, AnyGame
from blot.games import names, spec, spec_of
from blot.play import play as bots_play

from .helpers import CASE_IDS, CASES, choose, deal, new_game, play, snapshot
from .knowledge import cards_of_json, cards_of_value, knowledge, names_cards

seeds = st.integers(min_value=0, max_value=2**32 - 1)
QUICK = settings(deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow])
cases = pytest.mark.parametrize(("name", "ruleset"), CASES, ids=CASE_IDS)

#: Every text that is an action of some game in some phase, and a few that are none.
TEXTS = (
    [c.text for c in cards_of(DECK52)]
    + ["pass", "contra", "redouble", "sevens", "S", "H", "D", "C", "NT", "best", "none"]
    + [f"{level}{strain}" for level in (8, 9, 16, 24, 25, 30) for strain in ("S", "H", "D", "C", "NT")]
    + ["", "AS KS QS", "1S", "play", "10X"]
)
#: Values that are no action of any game.
NOT_ACTIONS: list[object] = [None, 7, "AS", "pass", 1.5, object()]


def json_round_trip(value: Any) -> None:
    text = json.dumps(value, allow_nan=False)
    assert json.loads(text) == value, "the JSON does not read back as written"


# --- refusal, apply, copies ------------------------------------------------------------------------


@cases
@settings(QUICK, max_examples=6)
@given(seed=seeds)
def test_refusal_and_apply_agree_and_a_refused_action_changes_nothing(
    name: str, ruleset: str, seed: int
) -> None:
    """For every action read from every notation, every action legal elsewhere in the game, and
    values that are no action: ``refusal`` is ``None`` exactly for the legal actions; ``apply``
    takes those and refuses the others with that one-sentence reason, leaving the game as it was
    (between deals too: the game waits for the cards, as the server's games do)."""
    game = new_game(name, ruleset, seed, own_cards=False)
    rng = Random(seed)
    seen: dict[str, Action] = {}

    def check(game: AnyGame) -> None:
        legal = list(game.legal_actions())
        for a in legal:
            seen.setdefault(f"{type(a).__name__} {a}", a)
        if rng.random() > 0.2 and not game.is_over:
            return
        candidates: list[object] = [*NOT_ACTIONS, *seen.values()]
        for text in TEXTS:
            try:
                candidates.append(game.parse_action(text))
            except NotationError as e:
                assert str(e) and "\n" not in str(e)
            except IllegalAction as e:  # a text that is no choice of the seat to act
                assert str(e) and "\n" not in str(e)
        before = snapshot(game)
        for action in candidates:
            reason = game.refusal(action)
            assert (reason is None) == (action in legal), (action, reason)
            if reason is None:
                twin = game.copy()
                twin.apply(action)
                continue
            said = str(reason)  # a Reason: its key and parts; str() is the English sentence
            assert said and "\n" not in said
            with pytest.raises(IllegalAction) as refused:
                game.apply(action)
            assert str(refused.value) == said, action
            assert refused.value.reason == getattr(reason, "reason", None), action  # the same key
        assert snapshot(game) == before, "a refused action changed the game"
        assert list(game.legal_actions()) == legal

    play(game, rng, check)


@cases
@settings(QUICK, max_examples=8)
@given(seed=seeds, stop=st.integers(0, 600))
def test_copies_are_independent(name: str, ruleset: str, seed: int, stop: int) -> None:
    """Playing a copy to the end leaves the original as it was, and the original then played the
    same way ends exactly as the copy did (its own random source continues the same way)."""
    game = new_game(name, ruleset, seed)
    play(game, Random(seed), stop=stop)
    before = snapshot(game)
    twin = game.copy()
    assert snapshot(twin) == before
    actions = play(twin, Random(seed + 1))
    assert snapshot(game) == before, "playing the copy changed the original"
    after = snapshot(twin)
    for action in actions:
        game.apply(action)
    assert snapshot(game) == after
    assert snapshot(twin) == after, "playing the original changed the copy"
    assert game.result.to_json() == twin.result.to_json()


# --- views -------------------------------------------------------------------------------------------


def check_seat_views(game: AnyGame) -> None:
    """Each seat's view, and its JSON, holds only what the seat may know (its own cards, what
    the rules showed it and everybody), and the choices only of the seat to act."""
    s = spec_of(game)
    know = knowledge(s.name)
    wire = s.wire_module()
    for seat in range(s.seats):
        view = game.view(seat)
        allowed = know.seat(game, seat)
        seen = cards_of_value(view, know.card_sets)
        assert seen & ~allowed == 0, f"seat {seat} sees {names_cards(seen & ~allowed)}"
        seen = cards_of_json(wire.view_json(view))
        assert seen & ~allowed == 0, f"seat {seat}'s JSON shows {names_cards(seen & ~allowed)}"
        assert view.seat == seat and view.to_act == game.to_act
        assert list(view.legal) == (list(game.legal_actions()) if game.to_act == seat else [])


def check_public_view(game: AnyGame) -> None:
    """The public view, and its JSON, hold only cards everybody has seen; the public view is
    exactly what every seat's view has in common (a field the seats see differently is ``None``
    in it), and its JSON has a seat's shape and says nothing a seat's JSON does not."""
    s = spec_of(game)
    know = knowledge(s.name)
    wire = s.wire_module()
    public = game.public_view()
    allowed = know.public(game)
    seen = cards_of_value(public, know.card_sets)
    assert seen & ~allowed == 0, f"the public view shows {names_cards(seen & ~allowed)}"
    views = [game.view(seat) for seat in range(s.seats)]
    check_common(public, views, "view")
    as_json = wire.public_json(public)
    seen = cards_of_json(as_json)
    assert seen & ~allowed == 0, f"the public JSON shows {names_cards(seen & ~allowed)}"
    for view in views:
        seat_json = wire.view_json(view)
        if as_json is None or seat_json is None:
            assert as_json is seat_json is None
            continue
        assert implied(as_json, seat_json), (as_json, seat_json)
        # the server builds the public part once per event and each seat's own part (issue 24)
        assert {**as_json, **(wire.seat_json(view) or {})} == seat_json


def check_common(public: Any, views: list[Any], path: str) -> None:
    """``public`` is what every one of ``views`` has in common, field by field."""
    if dataclasses.is_dataclass(public) and not isinstance(public, type):
        for f in dataclasses.fields(public):
            check_common(getattr(public, f.name), [getattr(v, f.name) for v in views], f"{path}.{f.name}")
        return
    if all(v == views[0] for v in views):
        assert public == views[0], f"{path}: every seat sees {views[0]!r}, the public view {public!r}"
        return
    if public is None:
        return
    if isinstance(public, tuple) and all(isinstance(v, tuple) and len(v) == len(public) for v in views):
        for i, item in enumerate(public):
            check_common(item, [v[i] for v in views], f"{path}[{i}]")
        return
    raise AssertionError(f"{path}: the public view says {public!r}, the seats {views!r}")


def implied(public: Any, private: Any) -> bool:
    """``public`` says nothing that ``private`` does not: null (or false) where it knows less,
    else the same, key by key and item by item."""
    if public is None or public is False or public == private:
        return True
    if isinstance(public, dict):
        return (
            isinstance(private, dict)
            and public.keys() == private.keys()
            and all(implied(v, private[k]) for k, v in public.items())
        )
    if isinstance(public, list):
        return (
            isinstance(private, list)
            and len(public) == len(private)
            and all(implied(a, b) for a, b in zip(public, private, strict=True))
        )
    return False


@cases
@settings(QUICK, max_examples=8)
@given(seed=seeds)
def test_views_and_events_hold_only_what_their_seat_may_know(name: str, ruleset: str, seed: int) -> None:
    """Every state of a random game (dealt as the server deals: the game waits for the cards),
    every seat's view; after every action, the event everybody hears and each seat's additions."""
    s = spec(name)
    know = knowledge(name)
    wire = s.wire_module()
    game = new_game(name, ruleset, seed, own_cards=False)
    rng = Random(seed)
    while not game.is_over:
        check_seat_views(game)
        if game.needs_cards:
            deal(game, rng)
            continue
        seat, before = game.to_act, game.phase
        assert seat is not None
        action = choose(game.legal_actions(), rng, 0.5)
        game.apply(action)
        public, private = wire.event(game, seat, action, before)
        json_round_trip([public, {str(k): v for k, v in private.items()}])
        seen = cards_of_json(public)
        assert seen & ~know.public(game) == 0, f"everybody hears {names_cards(seen & ~know.public(game))}"
        for other, extra in private.items():
            seen = cards_of_json({**public, **extra})
            assert seen & ~know.seat(game, other) == 0, f"seat {other} hears {names_cards(seen)}"
    check_seat_views(game)


@cases
@settings(QUICK, max_examples=8)
@given(seed=seeds)
def test_the_public_view_holds_only_what_everybody_sees(name: str, ruleset: str, seed: int) -> None:
    """Every state of a random game, waiting for cards too: see :func:`check_public_view`."""
    play(new_game(name, ruleset, seed, own_cards=False), Random(seed), check_public_view)


# --- actions and JSON ------------------------------------------------------------------------------


@cases
@settings(QUICK, max_examples=5)
@given(seed=seeds)
def test_actions_round_trip_as_text_and_as_json(name: str, ruleset: str, seed: int) -> None:
    """Every legal action in every state: ``parse_action(str(a))`` and the wire's JSON form read
    back as ``a``."""
    wire = spec(name).wire_module()

    def check(game: AnyGame) -> None:
        for a in game.legal_actions():
            assert game.parse_action(str(a)) == a, a
            value = wire.action_json(a)
            json_round_trip(value)
            assert wire.action_from_json(game, json.loads(json.dumps(value))) == a, value

    play(new_game(name, ruleset, seed), Random(seed), check)


@cases
@settings(QUICK, max_examples=4)
@given(seed=seeds)
def test_what_the_wire_writes_reads_back_as_json(name: str, ruleset: str, seed: int) -> None:
    """Every seat's view, the public view, the replay frame and the summary are JSON values that
    read back unchanged (no tuples, no integer keys, no NaN)."""
    s = spec(name)
    wire = s.wire_module()

    def check(game: AnyGame) -> None:
        for seat in range(s.seats):
            json_round_trip(wire.view_json(game.view(seat)))
        json_round_trip(wire.public_json(game.public_view()))
        if game.deal is not None:
            frame = wire.frame(game)
            json_round_trip(frame)
            # what the replay page reads of every game's frame (web/app.js)
            assert {"phase", "to_act", "hands", "trick", "result", "totals"} <= set(frame), sorted(frame)
        json_round_trip(game.result.to_json())
        if game.is_over:
            json_round_trip(wire.summary(game))

    play(new_game(name, ruleset, seed, own_cards=False), Random(seed), check)


@cases
def test_the_automatic_move_is_legal_in_every_phase(name: str, ruleset: str) -> None:
    """In every state of a few seeded games the automatic move (turn timer, failed bots) is
    legal, and those games go through every phase of the game."""
    phases: set[Any] = set()

    def check(game: AnyGame) -> None:
        phases.add(game.phase)
        if game.to_act is not None:
            action = game.auto_action()
            assert game.refusal(action) is None and action in game.legal_actions(), action

    for seed in range(3):
        game = new_game(name, ruleset, seed, own_cards=False)  # so that it waits for cards too
        play(game, Random(seed), check)
    every = set(type(game.phase))
    assert phases == every, f"phases never reached: {sorted(p.value for p in every - phases)}"


# --- records, results, seeds -----------------------------------------------------------------------


@cases
@settings(QUICK, max_examples=6)
@given(seed=seeds, stop=st.one_of(st.none(), st.integers(0, 400)))
def test_records_round_trip_and_replay(name: str, ruleset: str, seed: int, stop: int | None) -> None:
    """A game's record (finished, or stopped anywhere: the record holds its finished deals) is
    JSON, replays through the rules to the same result, and is written again identically from
    the replayed game."""
    s = spec(name)
    game = new_game(name, ruleset, seed)
    play(game, Random(seed), stop=stop)
    players = [f"player {i}" for i in range(s.seats)]
    record = s.record_of(game, players)
    json_round_trip(record)
    replay = s.replay(json.loads(json.dumps(record)))
    assert replay.players == players
    assert len(replay.game.deals) == sum(d.is_over for d in game.deals)
    assert replay.to_json() == game.result.to_json()
    assert s.record_of(replay.game, players) == record
    assert replay.game.is_over == game.is_over


@cases
@settings(QUICK, max_examples=10)
@given(seed=seeds, pass_rate=st.floats(0.0, 0.9))
def test_random_games_end_with_results_that_add_up(
    name: str, ruleset: str, seed: int, pass_rate: float
) -> None:
    """A random game ends; its result lists every deal, its totals are the sums of what the deals
    gave each team, and its ranking puts the winner first and partners together."""
    s = spec(name)
    game = new_game(name, ruleset, seed)
    play(game, Random(seed), pass_rate=pass_rate)
    result = game.result
    assert game.is_over and result.finished and game.to_act is None and not game.legal_actions()
    assert len(result.deals) == len(game.deals) and all(d.is_over for d in game.deals)
    out = result.to_json()
    assert out["finished"] is True and len(out["deals"]) == len(game.deals)
    for team, seats in enumerate(s.teams):
        total = sum(d.seat_points[seats[0]] for d in result.deals)
        assert out["totals"][team] == total
        assert all(d.seat_points[seat] == d.seat_points[seats[0]] for d in result.deals for seat in seats)
    for d in result.deals:
        if d.void:
            assert not any(d.seat_points)
    ranking = result.ranking()
    assert len(ranking) == s.seats and min(ranking) == 0
    assert {ranking[seat] for seat in s.teams[out["winner"]]} == {0}
    for seats in s.teams:
        assert len({ranking[seat] for seat in seats}) == 1
    with pytest.raises(BlotError):
        game.start_deal()


@cases
def test_a_game_that_declares_contracts_gives_each_deal_one(name: str, ruleset: str) -> None:
    """What a spec declares is what the game gives: with ``contracts`` (the arena counts contracts
    made and failed) every deal not void ends with a contract of a declarer, a level and a
    multiplier, and whether it was made; a game without skips (issue 39 item 4)."""
    s = spec(name)
    if not s.contracts:
        pytest.skip(f"{name} declares no contracts")
    for seed in range(3):
        game = new_game(name, ruleset, seed)
        play(game, Random(seed), pass_rate=0.3)
        for result in game.result.deals:
            if result.void:
                continue
            contract = getattr(result, "contract", None)
            assert contract is not None and contract.declarer in range(s.seats)
            assert isinstance(contract.level, int) and isinstance(contract.multiplier, int)
            assert isinstance(getattr(result, "made", None), bool)


def bots_game(name: str, ruleset: str, seed: int) -> dict[str, Any]:
    """A whole game between seeded bots of every cheap level the game has, as its record."""
    s = spec(name)
    levels = [level for level in ("random", "basic", "heuristic") if level in s.bots]
    rng = Random(seed)
    bots = [make_bot(s, levels[seat % len(levels)], Random(rng.getrandbits(64))) for seat in range(s.seats)]
    game = s.new_game(s.rules(ruleset), dealer=seed % s.seats, rng=Random(rng.getrandbits(64)))
    bots_play(game, bots)
    return s.record_of(game)


@cases
def test_seeded_runs_are_the_same_run(name: str, ruleset: str) -> None:
    """The same seed gives the same game, move for move (bots and deals); another seed another."""
    first = bots_game(name, ruleset, 11)
    assert bots_game(name, ruleset, 11) == first
    assert bots_game(name, ruleset, 12) != first


def test_simulate_with_a_seed_is_the_same_run() -> None:
    """``blot simulate``'s games (its default rules) are the same for the same seed, for each game
    that provides what it counts (the toy game does not)."""
    from blot.layers import Stats
    from blot.simulate import Simulation, games_played

    for name in (n for n in names() if spec(n).has(Stats)):
        runs = [
            [
                spec(name).record_of(g)
                for g in games_played(name, 2, 5, ["basic", "random"], Simulation(name, []))
            ]
            for _ in range(2)
        ]
        assert runs[0] == runs[1]
