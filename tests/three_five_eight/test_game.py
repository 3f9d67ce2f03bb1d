"""Scoring (T-40), the nine-deal game with its dealer rotation (T-2, T-10, T-50), the winner
and each step of the tie-break (T-50), and replaying a game from what a record holds."""

from __future__ import annotations

from random import Random

import pytest

from blot.cards import parse_card
from blot.errors import IllegalAction, SetupError
from blot.three_five_eight import (
    COUNTED_DEALS,
    PASS,
    SPADES,
    Deal,
    DealResult,
    Game,
    GameResult,
    Phase,
    check_cards,
    game_winner,
    parse_action,
    random_deal,
)

from .helpers import act, make_deal, random_play, result

TALON = "2C 3C 4C 5C"


def test_t40_worked_deal_all_tricks_to_the_first_seat() -> None:
    # Seat 0 (first, target 8) holds all 13 spades and AH KH QH; spades are trump.
    deal = make_deal("AS KS QS JS 10S 9S 8S 7S 6S 5S 4S 3S 2S AH KH QH", "", "", TALON, dealer=2)
    act(deal, "S", *TALON.split())
    while not deal.is_over:
        deal.apply(deal.legal_actions()[-1])  # everyone plays his highest legal card
    assert deal.tricks_taken == (16, 0, 0)
    assert deal.scores == (8, -5, -3) and sum(deal.scores) == 0
    assert deal.result == DealResult(2, False, SPADES, 0, (8, 5, 3), (16, 0, 0), (8, -5, -3), (0,) * 16)
    assert deal.result.to_json() == {
        "dealer": 2,
        "void": False,
        "trump": "S",
        "caller": 0,
        "targets": [8, 5, 3],
        "tricks": [16, 0, 0],
        "scores": [8, -5, -3],
    }
    assert len(deal.tricks) == 16 and all(t.winner == 0 and t.leader == 0 for t in deal.tricks)
    assert deal.hands == (0, 0, 0)


@pytest.mark.parametrize("seed", range(20))
def test_t40_scores_are_tricks_minus_target_and_sum_to_zero(seed: int) -> None:
    deal = Deal.random(Random(seed), dealer=seed % 3)
    random_play(deal, Random(seed + 100))
    r = deal.result
    assert r is not None
    if r.void:
        return
    assert sum(r.tricks) == 16 and sum(r.scores) == 0
    assert r.scores == tuple(t - g for t, g in zip(r.tricks, r.targets, strict=True))


def test_t50_nine_counted_deals_with_rotating_dealer() -> None:
    for seed in range(10):
        game = Game(dealer=seed % 3, rng=Random(seed))
        random_play(game, Random(1000 + seed))
        assert game.is_over and game.phase is Phase.OVER and game.to_act is None
        assert game.counted == COUNTED_DEALS
        counted = [r for r in game.results if not r.void]
        assert len(counted) == 9 and len(game.results) <= 10  # one void deal at most (T-10)
        dealer = seed % 3
        for r in game.results:  # T-2, T-10: next seat after a counted deal, same after a void
            assert r.dealer == dealer
            dealer = dealer if r.void else (dealer + 1) % 3
        assert [r.dealer for r in counted] == [(seed + i) % 3 for i in range(9)]
        assert game.totals == tuple(sum(r.scores[s] for r in counted) for s in range(3))
        assert sum(game.totals) == 0
        assert game.winner == game_winner(game.results)
        assert game.result == GameResult(game.results, game.totals, True, game.winner)
        assert game.legal_actions() == ()
        with pytest.raises(IllegalAction) as refused:
            game.apply(SPADES)
        assert str(refused.value) == "the game is over"


def _winners(counts: tuple[int, int, int], tail: tuple[int, ...]) -> tuple[int, ...]:
    """16 trick winners with these counts, ending with ``tail``."""
    left = list(counts)
    for seat in tail:
        left[seat] -= 1
    return tuple(s for s in range(3) for _ in range(left[s])) + tail


@pytest.mark.parametrize(
    ("name", "results", "winner"),
    [
        ("highest total", [result(0, (5, 6, 5)), result(1, (5, 3, 8))], 0),
        # totals 1 1 -2; last deal: seat 1 scored 1, seat 0 scored 0
        ("step 1: more points in the last deal", [result(0, (4, 8, 4)), result(1, (5, 4, 7))], 1),
        # totals 1 1 -2; last deal 0 0 0; seat 2 took trick 16 but is not tied; seat 1 took 15
        (
            "step 2: latest trick of the last deal among the tied",
            [result(0, (4, 9, 3)), result(2, (8, 5, 3), _winners((8, 5, 3), (1, 2)))],
            1,
        ),
        (
            "step 2: looking back past several tricks",
            [result(0, (4, 9, 3)), result(2, (8, 5, 3), _winners((8, 5, 3), (0, 2, 2)))],
            0,
        ),
        # all three at 0: the last deal's scores 1 0 -1 decide at once
        ("step 1 among three", [result(0, (4, 8, 4)), result(1, (4, 3, 9))], 2),
        # all three at 0 and the last deal 0 0 0: the last trick decides
        ("step 2 among three", [result(2, (8, 5, 3), _winners((8, 5, 3), (2,)))], 2),
        # totals 1 1 -2; last deal -1 0 1: seat 2's best last deal does not count (not a leader)
        ("step 1 ignores seats that are not tied", [result(0, (5, 9, 2)), result(1, (4, 3, 9))], 1),
    ],
)
def test_t50_winner_and_tie_break(name: str, results: list[DealResult], winner: int) -> None:
    assert game_winner(results) == winner, name


def test_t50_tie_break_skips_void_deals() -> None:
    void = DealResult(0, True, None, None, (3, 8, 5), (0, 0, 0), (0, 0, 0))
    results = [result(0, (4, 8, 4)), result(1, (5, 4, 7)), void]
    assert game_winner(results) == 1
    with pytest.raises(IllegalAction):
        game_winner([void])


def test_replay_a_game_from_what_a_record_holds() -> None:
    """A record holds, per deal: dealer, hands, talon, calls, the cards given (not the forced
    returns), the discard and the play. Replaying exactly that gives the same game."""
    original = Game(dealer=1, rng=Random(77))
    random_play(original, Random(78))
    records = [
        {
            "dealer": d.dealer,
            "hands": d.dealt,
            "talon": d.talon,
            "calls": [str(c) for c in d.calls],
            "exchange": [str(c) for c in d.gifts],
            "discard": [str(c) for c in d.discard],
            "play": [str(c) for c in d.plays],
        }
        for d in original.deals
    ]
    assert any(r["exchange"] for r in records)
    replay = Game(dealer=1)
    for record in records:
        assert replay.phase is Phase.DEAL and replay.dealer == record["dealer"]
        deal = replay.start_deal(check_cards(record["hands"], record["talon"]))  # type: ignore[arg-type]
        for key in ("calls", "exchange", "discard", "play"):
            for text in record[key]:  # type: ignore[attr-defined]
                replay.apply(parse_action(text))
        assert deal.is_over
    assert replay.result == original.result
    assert replay.result.to_json()["finished"] is True


def test_game_without_generator_waits_for_cards() -> None:
    game = Game(dealer=0)
    assert game.phase is Phase.DEAL and game.to_act is None and not game.is_over
    assert game.legal_actions() == () and game.deal is None and game.view(1).deal is None
    with pytest.raises(IllegalAction) as refused:
        game.apply(PASS)
    assert str(refused.value) == "no deal is in progress: the next deal must be dealt first"
    cards = random_deal(Random(1))
    hands, talon = cards.hands, cards.talon
    with pytest.raises(SetupError, match="seat 1 holds 15 cards, not 16"):
        game.start_deal(check_cards([hands[0], hands[1] & (hands[1] - 1), hands[2]], talon))
    with pytest.raises(SetupError, match="dealt twice"):
        game.start_deal(check_cards([hands[0], hands[0], hands[2]], talon))
    assert game.phase is Phase.DEAL
    game.start_deal(check_cards(hands, talon))
    with pytest.raises(IllegalAction) as refused:
        game.start_deal(check_cards(hands, talon))
    assert str(refused.value) == "the current deal is not over yet"


def test_deal_accepts_cards_as_sets_text_or_cards() -> None:
    cards = random_deal(Random(2))
    hands, talon = cards.hands, cards.talon
    from blot.cards import cards_of, format_cards

    as_text = Deal([format_cards(h) for h in hands], format_cards(talon))
    as_cards = Deal([cards_of(h) for h in hands], cards_of(talon))
    assert as_text == as_cards == Deal(hands, talon)
    with pytest.raises(SetupError, match="the talon holds 3 cards, not 4"):
        Deal(hands, talon & (talon - 1))
    with pytest.raises(SetupError, match="the dealer must be a seat from 0 to 2, not 3") as bad:
        Deal(hands, talon, 3)
    assert bad.value.field == "dealer"


def test_game_result_json_has_the_format_keys() -> None:
    game = Game(dealer=0, rng=Random(5))
    random_play(game, Random(6), stop=60)
    data = game.result.to_json()
    assert list(data) == ["game", "deals", "totals", "finished", "winner"]
    assert data["game"] == "3-5-8" and data["finished"] is False and data["winner"] is None


def test_copies_are_independent() -> None:
    game = Game(dealer=0, rng=Random(8))
    random_play(game, Random(9), stop=150)
    twin, witness = game.copy(), game.copy()
    assert twin == game == witness
    random_play(twin, Random(10))
    assert twin.is_over and game == witness and not game.is_over
    # the copied generator deals the same next deals
    a, b = game.copy(), game.copy()
    random_play(a, Random(11))
    random_play(b, Random(11))
    assert a.result == b.result


def test_first_card_of_a_played_deal_is_refused_when_over() -> None:
    deal = make_deal("", "", "", TALON)
    act(deal, "pass", "pass", "pass")
    with pytest.raises(IllegalAction) as refused:
        deal.apply(parse_card("AS"))
    assert str(refused.value) == "the deal is over"


def test_deal_and_game_fit_the_shared_protocol() -> None:
    from blot.game import View

    states: list[Deal | Game] = [Deal.random(Random(1)), Game(rng=Random(1))]
    for state in states:
        view: View = state.view(state.to_act or 0)
        assert view.legal == state.legal_actions()
        snapshot = state.view(0)
        with pytest.raises(IllegalAction) as refused:
            state.apply("H")
        assert str(refused.value) == "the text 'H' is not an action: read it with parse_action first"
        assert refused.value.reason == "not_parsed"  # keyed where it is raised (issue 39 item 1)
        assert state.view(0) == snapshot
