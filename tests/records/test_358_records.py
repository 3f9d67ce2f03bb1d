"""3-5-8 records and replay (docs/format.md): round trips, the JSON contract, the one error line."""

from __future__ import annotations

import copy
import json
import re
from random import Random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blot.bots import make_bot
from blot.cards import SUIT_MASKS, SUIT_NAMES, cards_of, format_cards, parse_card, parse_cards
from blot.play import play as play_game
from blot.records import RecordError, replay_record
from blot.records.three_five_eight import record_of
from blot.three_five_eight import Game, Phase, check_cards, parse_action, random_deal

TOP_KEYS = ["game", "deals", "totals", "finished", "winner"]
DEAL_KEYS = ["dealer", "void", "trump", "caller", "targets", "tricks", "scores"]


def played_game(seed: int, bots: str = "basic") -> Game:
    rng = Random(seed)
    game = Game(dealer=seed % 3, rng=Random(rng.getrandbits(32)))
    specs = bots.split(",")
    play_game(game, [make_bot("3-5-8", specs[s % len(specs)], Random(rng.getrandbits(32))) for s in range(3)])
    return game


@pytest.fixture(scope="module")
def base_record() -> dict[str, Any]:
    return record_of(played_game(11), ["Ivan", "Maria", "Petar"])


def error_of(record: Any) -> str:
    with pytest.raises(RecordError) as e:
        replay_record(record)
    message = str(e.value)
    assert "\n" not in message
    return message


def replayed(record: dict[str, Any], until: tuple[int, str, int] | None = None) -> Game:
    """Replay ``record`` through the engine directly (no checks beyond the engine's), stopping
    before action ``position`` (from 1) of list ``key`` in deal ``number`` when ``until`` is set."""
    game = Game(record["deals"][0]["dealer"])
    for number, raw in enumerate(record["deals"], 1):
        game.start_deal(check_cards([parse_cards(h) for h in raw["hands"]], parse_cards(raw["talon"])))
        for key in ("calls", "exchange", "discard", "play"):
            texts = raw.get(key, [])
            if isinstance(texts, str):
                texts = texts.split()
            for i, text in enumerate(texts, 1):
                if until == (number, key, i):
                    return game
                game.apply(parse_action(text))
    return game


def first_deal_with(record: dict[str, Any], key: str) -> int:
    """The number (from 1) of the first deal whose ``key`` list is not empty."""
    return next(n for n, d in enumerate(record["deals"], 1) if d.get(key))


# --- round trips -------------------------------------------------------------------------------


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32),
    bots=st.sampled_from(["random", "basic", "basic,random", "random,random,basic"]),
)
def test_records_round_trip(seed: int, bots: str) -> None:
    """Any game played through the engine, written as a record, replays to the same result."""
    game = played_game(seed, bots)
    record = json.loads(json.dumps(record_of(game)))
    result = replay_record(record).to_json()
    assert result == game.result.to_json()
    assert list(result) == TOP_KEYS
    for deal in result["deals"]:
        assert list(deal) == DEAL_KEYS
    assert result["finished"] and result["winner"] in (0, 1, 2)
    assert sum(not d["void"] for d in result["deals"]) == 9


def test_replay_reports_every_key_with_the_documented_types(base_record: dict[str, Any]) -> None:
    replay = replay_record(base_record)
    assert getattr(replay, "players", None) == ["Ivan", "Maria", "Petar"]
    result = replay.to_json()
    assert result["game"] == "3-5-8" and result["finished"] is True and result["winner"] in (0, 1, 2)
    assert len(result["totals"]) == 3 and sum(result["totals"]) == 0
    for deal in result["deals"]:
        assert deal["dealer"] in (0, 1, 2) and isinstance(deal["void"], bool)
        assert sorted(deal["targets"]) == [3, 5, 8]
        assert deal["targets"][(deal["dealer"] + 1) % 3] == 8 and deal["targets"][deal["dealer"]] == 3
        if deal["void"]:
            assert deal["trump"] is None and deal["caller"] is None
            assert deal["tricks"] == deal["scores"] == [0, 0, 0]
            continue
        assert deal["trump"] in ("S", "H", "D", "C", "NT") and deal["caller"] in (0, 1, 2)
        assert sum(deal["tricks"]) == 16 and sum(deal["scores"]) == 0
        assert deal["scores"] == [t - g for t, g in zip(deal["tricks"], deal["targets"], strict=True)]
        assert all(type(x) is int for key in ("targets", "tricks", "scores") for x in deal[key])


def test_the_record_has_the_format_keys(base_record: dict[str, Any]) -> None:
    assert list(base_record) == ["game", "players", "deals"]
    for raw in base_record["deals"]:
        assert list(raw) == ["dealer", "hands", "talon", "calls", "exchange", "discard", "play"]
        assert [len(h.split()) for h in raw["hands"]] == [16, 16, 16]
        assert len(raw["talon"].split()) == 4 and len(raw["discard"].split()) == 4
        assert len(raw["play"]) == 48
    assert base_record["deals"][0]["exchange"] == []  # the first counted deal has none (T-20)
    assert any(d["exchange"] for d in base_record["deals"])


def test_a_record_may_stop_at_the_end_of_any_deal(base_record: dict[str, Any]) -> None:
    full = replay_record(base_record).to_json()
    for n in range(len(base_record["deals"])):
        part = dict(base_record, deals=base_record["deals"][:n])
        result = replay_record(part).to_json()
        assert result["deals"] == full["deals"][:n]
        assert result["finished"] is False and result["winner"] is None
        assert result["totals"] == [sum(d["scores"][s] for d in result["deals"]) for s in range(3)]


def test_an_empty_record_is_an_unfinished_game() -> None:
    assert replay_record({"game": "3-5-8", "deals": []}).to_json() == {
        "game": "3-5-8",
        "deals": [],
        "totals": [0, 0, 0],
        "finished": False,
        "winner": None,
    }


# --- void deals, the dealer and the one pass (T-2, T-10) ---------------------------------------


def void_then_counted() -> dict[str, Any]:
    """Deal 1 (dealer 0) void after three passes; deal 2, the same dealer, hearts by seat 1."""
    cards = random_deal(Random(3))
    hands, talon = cards.hands, cards.talon
    void = {"dealer": 0, "hands": [format_cards(h) for h in hands], "talon": format_cards(talon)}
    void["calls"] = ["pass", "pass", "pass"]
    game = Game(0)
    game.start_deal(check_cards(void["hands"], void["talon"]))
    for text in void["calls"]:
        game.apply(parse_action(text))
    cards = random_deal(Random(4))
    hands2, talon2 = cards.hands, cards.talon
    deal = game.start_deal(check_cards(hands2, talon2))
    game.apply(parse_action("H"))
    rng = Random(5)
    while not deal.is_over:
        game.apply(rng.choice(deal.legal_actions()))
    return record_of(game)


def test_void_deal_replays_with_zeros_and_the_same_dealer_deals_again() -> None:
    record = void_then_counted()
    assert list(record["deals"][0]) == ["dealer", "hands", "talon", "calls"]
    deals = replay_record(record).to_json()["deals"]
    assert deals[0] == {
        "dealer": 0,
        "void": True,
        "trump": None,
        "caller": None,
        "targets": [3, 8, 5],
        "tricks": [0, 0, 0],
        "scores": [0, 0, 0],
    }
    assert deals[1]["dealer"] == 0 and deals[1]["trump"] == "H" and deals[1]["caller"] == 1
    empty = copy.deepcopy(record)
    empty["deals"][0].update(exchange=[], discard="", play=[])
    assert replay_record(empty).to_json()["deals"] == deals


@pytest.mark.parametrize(
    ("key", "value", "message"),
    [
        ("play", ["2S"], "deal 1, play 1 (2S): the deal is void: no card is played"),
        ("exchange", ["2S"], "deal 1, exchange 1 (2S): the deal is void: no card is given"),
        ("discard", "2S 3S 4S 5S", "deal 1, discard 1 (2S): the deal is void: no card is discarded"),
        ("discard", ["2S"], "deal 1, discard must be a string"),
    ],
)
def test_a_void_deal_has_no_exchange_discard_or_play(key: str, value: Any, message: str) -> None:
    record = void_then_counted()
    record["deals"][0][key] = value
    assert error_of(record) == message


def test_after_a_void_deal_the_same_dealer_deals() -> None:
    record = void_then_counted()
    record["deals"][1]["dealer"] = 1
    assert error_of(record) == "deal 2, dealer: must be seat 0, who deals again after a void deal (T-10)"


def test_after_a_counted_deal_the_next_seat_deals(base_record: dict[str, Any]) -> None:
    record = copy.deepcopy(base_record)
    first = record["deals"][0]["dealer"]
    record["deals"][1]["dealer"] = first
    expected = (first + 1) % 3
    assert (
        error_of(record) == f"deal 2, dealer: must be seat {expected}, the seat after the last dealer (T-2)"
    )


def test_t10_a_seat_passes_once_per_game_across_deals() -> None:
    record = void_then_counted()
    record["deals"][1]["calls"] = ["pass", "H"]
    assert error_of(record) == "deal 2, calls 1 (pass, seat 1): seat 1 has already passed once this game"


# --- the one error line ------------------------------------------------------------------------


def find_revoke(record: dict[str, Any]) -> tuple[int, int, str, int, str]:
    """A (deal, position, card, seat, suit): the seat follows a plain suit led in the record and
    holds a card of another suit it could wrongly play instead."""
    for number, raw in enumerate(record["deals"], 1):
        for i in range(1, len(raw.get("play", [])) + 1):
            game = replayed(record, (number, "play", i))
            deal = game.deal
            assert deal is not None and deal.phase is Phase.PLAY
            seat = deal.to_act
            assert seat is not None
            if deal.trick:
                led = deal.trick[0][1].suit
                hand = deal.hand(seat)
                others = [c for c in cards_of(hand) if c.suit != led]
                if hand & SUIT_MASKS[led] and others and deal.trump is not None and deal.trump.suit != led:
                    return number, i, str(others[0]), seat, SUIT_NAMES[led]
    raise AssertionError("no revoke found")


def test_a_revoke_names_deal_position_card_seat_and_reason(base_record: dict[str, Any]) -> None:
    number, position, card, seat, suit = find_revoke(base_record)
    record = copy.deepcopy(base_record)
    record["deals"][number - 1]["play"][position - 1] = card
    where = f"deal {number}, play {position} ({card}, seat {seat})"
    assert error_of(record) == f"{where}: seat {seat} holds {suit} and must follow {suit}"


def test_a_gift_the_giver_does_not_hold(base_record: dict[str, Any]) -> None:
    number = first_deal_with(base_record, "exchange")
    game = replayed(base_record, (number, "exchange", 1))
    deal = game.deal
    assert deal is not None and deal.phase is Phase.EXCHANGE
    giver = deal.to_act
    assert giver is not None
    foreign = str(cards_of(deal.hand((giver + 1) % 3))[0])
    record = copy.deepcopy(base_record)
    record["deals"][number - 1]["exchange"][0] = foreign
    expected = f"deal {number}, exchange 1 ({foreign}, seat {giver}): seat {giver} does not hold {foreign}"
    assert error_of(record) == expected


def test_the_exchange_has_as_many_cards_as_t20_says(base_record: dict[str, Any]) -> None:
    number = first_deal_with(base_record, "exchange")
    raw = base_record["deals"][number - 1]
    n = len(raw["exchange"])
    game = replayed(base_record, (number, "exchange", n))
    deal = game.deal
    assert deal is not None
    giver, receiver = deal.plan[n - 1]
    shorter = copy.deepcopy(base_record)
    shorter["deals"][number - 1]["exchange"].pop()
    cards = "cards" if n > 1 else "card"
    assert error_of(shorter) == (
        f"deal {number}, exchange {n}: the record ends before the exchange does: "
        f"seat {giver} must give seat {receiver} a card, {n} {cards} in all (T-20)"
    )
    longer = copy.deepcopy(base_record)
    extra = raw["discard"].split()[0]
    longer["deals"][number - 1]["exchange"].append(extra)
    assert error_of(longer) == (
        f"deal {number}, exchange {n + 1} ({extra}): "
        f"the exchange is already complete: {n} {cards} in all (T-20)"
    )


def test_the_first_counted_deal_has_no_exchange(base_record: dict[str, Any]) -> None:
    """docs/format.md's example shows ``"exchange": ["2C", "5D"]`` in a first deal; T-20 says the
    exchange starts from the second counted deal, so such a record is refused."""
    record = copy.deepcopy(base_record)
    record["deals"][0]["exchange"] = ["2C", "5D"]
    assert (
        error_of(record) == "deal 1, exchange 1 (2C): there is no exchange in the first counted deal (T-20)"
    )


def test_there_is_no_exchange_after_nt() -> None:
    """T-20: an NT call cancels the exchange the last deal's result asked for."""
    for seed in range(100):
        game = played_game(seed, "random")
        deals = game.deals
        for number, deal in enumerate(deals, 1):
            if (
                deal.trump is not None
                and deal.trump.is_no_trump
                and number > 1
                and not deals[number - 2].is_void
            ):
                previous = deals[number - 2].result
                assert previous is not None and deal.gifts == ()
                if any(s > 0 for s in previous.scores):
                    record = record_of(game)
                    card = record["deals"][number - 1]["discard"].split()[0]
                    record["deals"][number - 1]["exchange"] = [card]
                    assert error_of(record) == (
                        f"deal {number}, exchange 1 ({card}): there is no exchange after an NT call (T-20)"
                    )
                    return
    raise AssertionError("no NT deal after a deal with a plus seat found")


def test_discard_checks(base_record: dict[str, Any]) -> None:
    raw = base_record["deals"][0]
    first = (raw["dealer"] + 1) % 3
    words = raw["discard"].split()
    other = raw["hands"][(first + 1) % 3].split()[0]
    wrong = copy.deepcopy(base_record)
    wrong["deals"][0]["discard"] = " ".join([*words[:2], other, words[3]])
    assert error_of(wrong) == f"deal 1, discard 3 ({other}, seat {first}): seat {first} does not hold {other}"
    three = copy.deepcopy(base_record)
    three["deals"][0]["discard"] = " ".join(words[:3])
    assert error_of(three) == (
        "deal 1, discard 4: the record ends before the discard does: "
        "the 8-target player puts back 4 cards (T-22)"
    )
    five = copy.deepcopy(base_record)
    extra = raw["play"][0]
    five["deals"][0]["discard"] = " ".join([*words, extra])
    assert error_of(five) == (
        f"deal 1, discard 5 ({extra}): the discard is already complete: "
        "the 8-target player puts back 4 cards (T-22)"
    )
    twice = copy.deepcopy(base_record)
    twice["deals"][0]["discard"] = " ".join([words[0], *words[:3]])
    assert (
        error_of(twice)
        == f"deal 1, discard 2 ({words[0]}, seat {first}): seat {first} does not hold {words[0]}"
    )


def mutate(record: dict[str, Any], change: str) -> dict[str, Any]:
    out = copy.deepcopy(record)
    d = out["deals"][0]
    first = (d["dealer"] + 1) % 3
    if change == "card not in hand":
        held = parse_cards(d["hands"][first]) | parse_cards(d["talon"])
        d["play"][0] = format_cards(cards_of(~held & parse_cards(" ".join(d["hands"])))[0:1])
    elif change == "not a card":
        d["play"][0] = "1H"
    elif change == "too few cards":
        d["play"] = d["play"][:47]
    elif change == "too many cards":
        d["play"].append(d["play"][0])
    elif change == "not a call":
        d["calls"] = ["X"]
    elif change == "call after the trump":
        d["calls"] = ["S", "H"]
    elif change == "calls unfinished":
        d["calls"] = ["pass"]
    elif change == "no calls":
        d["calls"] = []
    elif change == "duplicate card":
        hands = d["hands"]
        hands[1] = " ".join([hands[0].split()[0], *hands[1].split()[1:]])
    elif change == "fifteen cards":
        d["hands"][2] = " ".join(d["hands"][2].split()[:15])
    elif change == "three talon cards":
        d["talon"] = " ".join(d["talon"].split()[:3])
    elif change == "two hands":
        d["hands"] = d["hands"][:2]
    elif change == "bad card in a hand":
        d["hands"][1] = "ZZ " + d["hands"][1]
    elif change == "bad talon":
        d["talon"] = "1S 2S"
    elif change == "dealer out of range":
        d["dealer"] = 3
    elif change == "dealer not a number":
        d["dealer"] = "0"
    elif change in ("no talon", "no exchange", "no discard", "no play", "no hands", "no calls key"):
        del d[change.split()[1] if change != "no calls key" else "calls"]
    elif change == "discard a list":
        d["discard"] = d["discard"].split()
    elif change == "play not a list":
        d["play"] = " ".join(d["play"])
    elif change == "two players":
        out["players"] = ["Ivan", "Maria"]
    elif change == "deal after the end":
        extra = copy.deepcopy(out["deals"][-1])
        extra["dealer"] = (extra["dealer"] + 1) % 3
        out["deals"].append(extra)
    return out


@pytest.mark.parametrize(
    ("change", "pattern"),
    [
        ("card not in hand", r"^deal 1, play 1 \((\w+), seat (\d)\): seat \2 does not hold \1$"),
        ("not a card", r"^deal 1, play 1 \(1H, seat \d\): '1H' is not a card: write the rank"),
        ("too few cards", r"^deal 1, play 48: the record ends before the deal does$"),
        ("too many cards", r"^deal 1, play 49 \(\w+\): the deal is already over$"),
        (
            "not a call",
            r"^deal 1, calls 1 \(X, seat \d\): 'X' is not a 3-5-8 call: write S, H, D, C, NT or pass$",
        ),
        ("call after the trump", r"^deal 1, calls 2 \(H\): the trump is already named \(S\)$"),
        ("calls unfinished", r"^deal 1, calls 2: the record ends before the trump call does$"),
        ("no calls", r"^deal 1, calls 1: the record ends before the trump call does$"),
        ("duplicate card", r"^deal 1, hands: \w+ dealt twice$"),
        ("fifteen cards", r"^deal 1, hands: seat 2 holds 15 cards, not 16$"),
        ("three talon cards", r"^deal 1, talon: the talon holds 3 cards, not 4$"),
        ("two hands", r"^deal 1, hands: a 3-5-8 deal needs 3 hands$"),
        ("bad card in a hand", r"^deal 1, hands 2: 'ZZ' is not a card"),
        ("bad talon", r"^deal 1, talon: '1S' is not a card"),
        ("dealer out of range", r"^deal 1, dealer: must be a seat from 0 to 2, not 3$"),
        ("dealer not a number", r"^deal 1, dealer must be a whole number$"),
        ("no talon", r"^deal 1 has no key 'talon'$"),
        ("no hands", r"^deal 1 has no key 'hands'$"),
        ("no calls key", r"^deal 1 has no key 'calls'$"),
        ("no exchange", r"^deal 1 has no key 'exchange'$"),
        ("no discard", r"^deal 1 has no key 'discard'$"),
        ("no play", r"^deal 1 has no key 'play'$"),
        ("discard a list", r"^deal 1, discard must be a string$"),
        ("play not a list", r"^deal 1, play must be a list$"),
        ("two players", r"^players must name 3 players$"),
        ("deal after the end", r"^deal (\d+): the game was already over after deal \d+$"),
    ],
)
def test_each_broken_record_gives_one_documented_line(
    base_record: dict[str, Any], change: str, pattern: str
) -> None:
    message = error_of(mutate(base_record, change))
    assert re.search(pattern, message), message


def test_a_wrong_card_late_in_a_deal_names_its_position(base_record: dict[str, Any]) -> None:
    """E.g. ``deal 4, play 17 (...)``: a card played twice."""
    number = min(4, len(base_record["deals"]))
    record = copy.deepcopy(base_record)
    play = record["deals"][number - 1]["play"]
    game = replayed(base_record, (number, "play", 17))
    seat = game.deal.to_act if game.deal is not None else None
    play[16] = play[0]
    assert (
        error_of(record)
        == f"deal {number}, play 17 ({play[0]}, seat {seat}): seat {seat} does not hold {play[0]}"
    )


@pytest.mark.parametrize(
    ("record", "message"),
    [
        ({"game": "3-5-8"}, "the record has no key 'deals'"),
        ({"game": "3-5-8", "deals": {}}, "the record, deals must be a list"),
        ({"game": "3-5-8", "deals": [[]]}, "deal 1 must be an object"),
        ({"game": "3-5-8", "deals": [{}]}, "deal 1 has no key 'dealer'"),
        ({"game": "3-5-8", "players": "Ivan", "deals": []}, "players must be a list"),
        ({"game": "3-5-8", "players": ["a", "b", 3], "deals": []}, "players 3 must be a string"),
    ],
)
def test_what_is_not_a_record_is_refused_in_one_line(record: Any, message: str) -> None:
    assert error_of(record) == message


def test_cards_in_record_notation_are_read_back() -> None:
    """Every card the writer puts in a record is read back as the same card."""
    record = record_of(played_game(2, "random"))
    for raw in record["deals"]:
        for text in [*raw["play"], *raw["discard"].split(), *raw["exchange"]]:
            assert str(parse_card(text)) == text
