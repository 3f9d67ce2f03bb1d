"""Bazar Blot records and replay (docs/format.md): round trips, the JSON contract, the one error line."""

from __future__ import annotations

import copy
import json
import re
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blot.bazar import DealtCards, Game, Rules
from blot.bazar.deal import Phase
from blot.bots import make_bot
from blot.cards import SUIT_NAMES, cards_of, format_cards, parse_cards
from blot.play import play as play_game
from blot.records import RecordError, replay_record
from blot.records.bazar import record_of

DEAL_KEYS = [
    "dealer",
    "void",
    "contract",
    "tricks",
    "card_points",
    "declaration_points",
    "belote",
    "made",
    "points",
]
TOP_KEYS = ["game", "deals", "totals", "finished", "winner", "match_score", "tars_kapoot"]


def played_game(seed: int, bots: str = "basic", rules: Rules | None = None) -> Game:
    rng = Random(seed)
    game = Game(rules or Rules(), dealer=seed % 4, rng=Random(rng.getrandbits(32)))
    specs = bots.split(",")
    play_game(
        game, [make_bot("bazar-blot", specs[s % len(specs)], Random(rng.getrandbits(32))) for s in range(4)]
    )
    return game


def expected_json(game: Game) -> dict[str, Any]:
    return {
        "game": "bazar-blot",
        "deals": [r.to_json() for r in game.results],
        "totals": list(game.totals),
        "finished": game.is_over,
        "winner": game.winner,
        "match_score": game.match_score,
        "tars_kapoot": game.tars_kapoot,
    }


@pytest.fixture(scope="module")
def base_record() -> dict[str, Any]:
    return record_of(played_game(11), ["Ani", "Bagrat", "Gohar", "Davit"])


def error_of(record: dict[str, Any]) -> str:
    with pytest.raises(RecordError) as e:
        replay_record(record)
    return str(e.value)


# --- round trips -------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    bots=st.sampled_from(["random", "basic", "basic,random"]),
    ruleset=st.sampled_from(["league", "classic"]),
    kanach=st.booleans(),
    three_passes=st.booleans(),
)
def test_records_round_trip(seed: int, bots: str, ruleset: str, kanach: bool, three_passes: bool) -> None:
    """Any game played through the engine, written as a record, replays to the same result."""
    rules = Rules(ruleset=ruleset, kanach=kanach, three_passes_end_bidding=three_passes)  # type: ignore[arg-type]
    game = played_game(seed, bots, rules)
    record = json.loads(json.dumps(record_of(game)))
    result = replay_record(record).to_json()
    assert result == expected_json(game)
    assert list(result) == TOP_KEYS
    for deal in result["deals"]:
        assert list(deal) == DEAL_KEYS
    assert result["finished"] and result["winner"] in (0, 1)


def test_replay_reports_every_key_with_the_documented_types(base_record: dict[str, Any]) -> None:
    result = replay_record(base_record).to_json()
    assert result["game"] == "bazar-blot"
    assert result["finished"] is True
    assert result["match_score"] in ("2-0", "1-0")
    for deal in result["deals"]:
        if deal["void"]:
            assert deal["contract"] is None and deal["made"] is None
            assert deal["points"] == deal["tricks"] == deal["card_points"] == [0, 0]
            continue
        assert set(deal["contract"]) == {"seat", "team", "level", "strain", "multiplier"}
        assert deal["contract"]["team"] == deal["contract"]["seat"] % 2
        assert sum(deal["card_points"]) == 162 and sum(deal["tricks"]) == 8
        assert isinstance(deal["made"], bool)


def test_a_record_may_stop_at_the_end_of_any_deal(base_record: dict[str, Any]) -> None:
    full = replay_record(base_record).to_json()
    for n in range(len(base_record["deals"])):
        part = dict(base_record, deals=base_record["deals"][:n])
        result = replay_record(part).to_json()
        assert result["deals"] == full["deals"][:n]
        assert result["finished"] is False and result["winner"] is None and result["match_score"] is None


def test_missing_declarations_key_means_each_seat_declares_its_best() -> None:
    """docs/format.md: without the key, every seat declares its best set."""
    # Seat 0: a hundred to the ace of spades overlaps four jacks on JS; its best set is four
    # jacks (20) + terz A-K-Q of spades (2). Seat 2 (partner) holds A K Q and 10 9 8 of diamonds
    # (seat 0 has the jack): two terzes (4). Seat 1 holds a hundred to the ace of hearts, beaten
    # by the four jacks, so only team 0 counts: 26 (B-40, B-41, B-44).
    hands = [
        "AS KS QS JS 10S JH JD JC",
        "9S 8S 7S AH KH QH 10H 9H",
        "8H 7H AD KD QD 10D 9D 8D",
        "7D AC KC QC 10C 9C 8C 7C",
    ]
    game = Game(Rules(), 3)
    deal = game.start_deal(DealtCards([parse_cards(h) for h in hands]))
    for call in ("8C", "pass", "pass", "pass"):
        game.apply(next(a for a in deal.legal_actions() if str(a) == call))
    while not deal.is_over:
        seat = deal.to_act
        game.apply(deal.best_declare(seat) if deal.must_declare else deal.legal_actions()[0])  # type: ignore[arg-type]
    record = record_of(game)
    del record["deals"][0]["declarations"]
    result = replay_record(record).to_json()["deals"][0]
    assert result["declaration_points"] == [26, 0]
    explicit = copy.deepcopy(record)
    explicit["deals"][0]["declarations"] = {"0": ["JS JH JD JC", "AS KS QS"], "2": ["AD KD QD JD 10D"]}
    with pytest.raises(RecordError, match="the hand does not hold JD"):
        replay_record(explicit)
    explicit["deals"][0]["declarations"] = {"0": ["JS JH JD JC", "AS KS QS"], "2": ["AD KD QD", "10D 9D 8D"]}
    assert replay_record(explicit).to_json()["deals"][0] == result
    nothing = copy.deepcopy(record)
    nothing["deals"][0]["declarations"] = {}
    assert replay_record(nothing).to_json()["deals"][0]["declaration_points"] == [0, 0]


# --- the one error line ------------------------------------------------------------------------


def find_revoke(record: dict[str, Any]) -> tuple[int, int, str, int, str]:
    """A (deal, position, card, seat, suit) where the seat follows the led suit in the record and
    holds another card it could wrongly play instead."""
    game = Game(Rules(), record["deals"][0]["dealer"])
    for number, raw in enumerate(record["deals"], 1):
        deal = game.start_deal(DealtCards([parse_cards(h) for h in raw["hands"]]))
        for call in raw["calls"]:
            game.apply(next(a for a in deal.legal_actions() if str(a) == call))
        for i, text in enumerate(raw["play"], 1):
            while deal.must_declare:
                game.apply(deal.best_declare(deal.to_act))  # type: ignore[arg-type]
            seat = deal.to_act
            assert seat is not None
            if deal.trick and deal.phase is Phase.PLAY:
                led = int(deal.trick[0][1].suit)
                hand = deal.hands[seat]
                others = [c for c in cards_of(hand) if c.suit != led]
                if hand & (0xFFFF << 16 * led) and others and led != deal.trump:
                    return number, i, str(others[0]), seat, SUIT_NAMES[led]
            game.apply(next(a for a in deal.legal_actions() if str(a) == text))
    raise AssertionError("no revoke found")


def test_a_revoke_names_deal_position_card_seat_and_reason(base_record: dict[str, Any]) -> None:
    number, position, card, seat, suit = find_revoke(base_record)
    record = copy.deepcopy(base_record)
    record["deals"][number - 1]["play"][position - 1] = card
    where = f"deal {number}, play {position} ({card}, seat {seat})"
    assert error_of(record) == f"{where}: seat {seat} holds {suit} and must follow {suit}"


def first_played(record: dict[str, Any]) -> int:
    return next(i for i, d in enumerate(record["deals"]) if d["play"])


def mutate(record: dict[str, Any], change: str) -> dict[str, Any]:
    out = copy.deepcopy(record)
    i = first_played(out)
    d = out["deals"][i]
    if change == "card not in hand":
        held = parse_cards(d["hands"][(d["dealer"] + 1) % 4])
        d["play"][0] = format_cards(cards_of(~held & parse_cards(" ".join(d["hands"])))[0:1])
    elif change == "not a card":
        d["play"][0] = "1H"
    elif change == "too few cards":
        d["play"] = d["play"][:31]
    elif change == "too many cards":
        d["play"].append(d["play"][0])
    elif change == "bid too low":
        d["calls"] = ["10H", "9S", *d["calls"][2:]]
    elif change == "contra by own team":
        d["calls"] = ["10H", "pass", "contra"]
    elif change == "redouble without contra":
        d["calls"] = ["10H", "redouble"]
    elif change == "bidding unfinished":
        d["calls"] = ["10H", "pass"]
    elif change == "wrong dealer":
        out["deals"][1]["dealer"] = (out["deals"][1]["dealer"] + 2) % 4
    elif change == "duplicate card":
        hands = d["hands"]
        first = hands[0].split()[0]
        hands[1] = " ".join([first, *hands[1].split()[1:]])
    elif change == "seven cards":
        d["hands"][2] = " ".join(d["hands"][2].split()[:7])
    elif change == "not a declaration":
        d["declarations"] = {"0": ["AS 9S 7S"]}
    elif change == "unknown option":
        out["options"] = {"kanach": False, "turbo": True}
    elif change == "bad ruleset":
        out["ruleset"] = "poker"
    return out


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ("card not in hand", r"^deal \d+, play 1 \(\w+, seat \d\): seat \d does not hold \w+$"),
        ("not a card", r"^deal \d+, play 1 \(1H, seat \d\): '1H' is not a card: write the rank"),
        ("too few cards", r"^deal \d+, play 32: the record ends before the deal does$"),
        ("too many cards", r"^deal \d+, play 33 \(\w+\): the deal is already over$"),
        ("bid too low", r"^deal \d+, calls 2 \(9S, seat \d\): 9S is too low: a bid must be above 10H$"),
        (
            "contra by own team",
            r"^deal \d+, calls 3 \(contra, seat \d\): seat \d may not contra its own team's bid$",
        ),
        (
            "redouble without contra",
            r"^deal \d+, calls 2 \(redouble, seat \d\): there is no contra to redouble$",
        ),
        ("bidding unfinished", r"^deal \d+, calls 3: the record ends before the bidding does$"),
        ("wrong dealer", r"^deal 2, dealer: must be seat \d, the seat after the last dealer \(B-3\)$"),
        ("duplicate card", r"^deal \d+, hands: \w+ dealt twice$"),
        ("seven cards", r"^deal \d+, hands: seat 2 holds 7 cards, not 8$"),
        (
            "not a declaration",
            r"^deal \d+, declarations 1 \(AS 9S 7S, seat 0\): AS 9S 7S is not a declaration",
        ),
        ("unknown option", r"^the record's rules: unknown option 'turbo'"),
        ("bad ruleset", r"^the record's rules: unknown ruleset 'poker'"),
    ],
)
def test_each_broken_record_gives_one_documented_line(
    base_record: dict[str, Any], change: str, pattern: str
) -> None:
    message = error_of(mutate(base_record, change))
    assert "\n" not in message
    assert re.search(pattern, message), message


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ([], "a record must be an object"),
        ({}, "the record has no key 'game'"),
        ({"game": "poker"}, "unknown game 'poker': a record's game is bazar-blot or 3-5-8"),
        ({"game": "bazar-blot"}, "the record has no key 'deals'"),
        ({"game": "bazar-blot", "deals": {}}, "the record, deals must be a list"),
        ({"game": "bazar-blot", "deals": [{}]}, "deal 1 has no key 'dealer'"),
        (
            {"game": "bazar-blot", "deals": [{"dealer": 5}]},
            "deal 1, dealer: must be a seat from 0 to 3, not 5",
        ),
        ({"game": "bazar-blot", "deals": [{"dealer": True}]}, "deal 1, dealer must be a whole number"),
        ({"game": "bazar-blot", "players": ["a"], "deals": []}, "players must name 4 players"),
    ],
)
def test_what_is_not_a_record_is_refused_in_one_line(record: Any, message: str) -> None:
    assert error_of(record) == message


def test_a_deal_after_the_end_of_the_game_is_refused(base_record: dict[str, Any]) -> None:
    record = copy.deepcopy(base_record)
    extra = copy.deepcopy(record["deals"][-1])
    extra["dealer"] = (extra["dealer"] + 1) % 4
    record["deals"].append(extra)
    n = len(record["deals"])
    assert error_of(record) == f"deal {n}: the game was already over after deal {n - 1}"


def test_void_deal_has_no_play() -> None:
    hands = [
        "7S 8S 9S 10S JS QS KS AS",
        "7H 8H 9H 10H JH QH KH AH",
        "7D 8D 9D 10D JD QD KD AD",
        "7C 8C 9C 10C JC QC KC AC",
    ]
    record = {
        "game": "bazar-blot",
        "deals": [{"dealer": 0, "hands": hands, "calls": ["pass"] * 4, "play": []}],
    }
    deal = replay_record(record).to_json()["deals"][0]
    assert deal == {
        "dealer": 0,
        "void": True,
        "contract": None,
        "tricks": [0, 0],
        "card_points": [0, 0],
        "declaration_points": [0, 0],
        "belote": [0, 0],
        "made": None,
        "points": [0, 0],
    }
    record["deals"][0]["play"] = ["7H"]
    assert error_of(record) == "deal 1, play 1 (7H): the deal is void: no card is played"
