"""The fair-play tests' cheating bot (issue 43 item 1, L-9): it sees exactly the hands its
settings say, on the deals they say, and nothing else; only ``blot arena`` and ``blot simulate``
make it."""

from __future__ import annotations

from random import Random
from typing import Any, cast

import pytest

from blot.bots import check_bot, make_bot
from blot.bots.bazar_info import sample_hands
from blot.bots.cheat import BazarCheat, TfeCheat, peeks
from blot.bots.tfe_info import DISCARD
from blot.bots.tfe_info import sample_hands as tfe_sample_hands
from blot.errors import SetupError
from blot.games import spec
from blot.play import moves

BAZAR, TFE = spec("bazar-blot"), spec("3-5-8")


def at_a_card_decision(game_spec: Any, seed: int, tricks: int = 1, first: bool = True) -> Any:
    """A game whose deal is in play, ``tricks`` tricks done and a seat with several legal cards
    to act (heuristic players got it there); with ``first`` false, not the seat after the dealer
    (3-5-8: the one who knows the discard)."""
    for attempt in range(50):
        game = game_spec.new_game(rng=Random(seed + attempt))
        bots = [make_bot(game_spec, "heuristic", Random(s)) for s in range(game_spec.seats)]
        deal = game.deal

        def stop(g: Any, deal: Any = deal) -> bool:
            return g.deal is not deal or (g.phase.value == "play" and len(deal.tricks) >= tricks)

        for _ in moves(game, bots, until=stop):
            pass
        seat_ok = first or game.to_act != (deal.dealer + 1) % game_spec.seats
        if game.deal is deal and game.phase.value == "play" and len(deal.legal_actions()) > 1 and seat_ok:
            return game
    raise AssertionError("no card decision found")


def samples(bot: Any, game: Any, sampler: Any, n: int = 30) -> tuple[int, list[list[int]]]:
    """The seat to act, and ``n`` deals of the hidden cards as the bot's search would sample them."""
    seat = game.to_act
    bot.see(game, seat)
    view = game.deal.view(seat)
    k = bot.knowledge(view)
    rng = Random(7)
    return seat, [sampler(k, rng) for _ in range(n)]


def test_bazar_cheat_sees_its_partners_hand_and_nothing_more() -> None:
    game = at_a_card_decision(BAZAR, 1)
    hands = game.deal.hands
    cheat = BazarCheat(Random(1), peek=1.0)
    seat, dealt = samples(cheat, game, sample_hands)
    partner = (seat + 2) % 4
    assert cheat.seen == {partner: hands[partner]}
    assert all(h[partner] == hands[partner] for h in dealt)  # fixed in every sample
    for opponent in ((seat + 1) % 4, (seat + 3) % 4):  # the opponents' cards still vary
        assert len({h[opponent] for h in dealt}) > 1
        assert any(h[opponent] != hands[opponent] for h in dealt)


def test_bazar_cheat_with_all_sees_every_hidden_hand() -> None:
    game = at_a_card_decision(BAZAR, 2)
    cheat = BazarCheat(Random(1), peek=1.0, all="true")
    seat, dealt = samples(cheat, game, sample_hands)
    assert cheat.seen == {s: game.deal.hands[s] for s in range(4) if s != seat}
    assert all(h == list(game.deal.hands) for h in dealt)


def test_the_honest_twin_sees_nothing() -> None:
    game = at_a_card_decision(BAZAR, 1)
    honest = BazarCheat(Random(1), peek=0.0)
    seat, dealt = samples(honest, game, sample_hands)
    assert honest.seen == {}
    assert len({h[(seat + 2) % 4] for h in dealt}) > 1


def test_the_deals_it_peeks_at_are_its_share_and_reproducible() -> None:
    rng = Random(3)
    deals = [tuple(rng.getrandbits(32) for _ in range(4)) for _ in range(2000)]
    share = sum(peeks(d, 0, 0.25) for d in deals) / len(deals)
    assert 0.22 < share < 0.28
    assert [peeks(d, 0, 0.25) for d in deals] == [peeks(d, 0, 0.25) for d in deals]
    assert not any(peeks(d, 0, 0.0) for d in deals) and all(peeks(d, 0, 1.0) for d in deals)


def test_tfe_cheat_sees_the_next_seats_hand_or_every_hidden_card() -> None:
    game = at_a_card_decision(TFE, 1, first=False)
    hands = game.deal.hands
    one = TfeCheat(Random(1), peek=1.0)
    seat, dealt = samples(one, game, tfe_sample_hands)
    seen, unseen = (seat + 1) % 3, (seat + 2) % 3
    assert one.seen == {seen: hands[seen]}
    assert all(h[seen] == hands[seen] for h in dealt)
    assert len({h[unseen] for h in dealt}) > 1
    both = TfeCheat(Random(1), peek=1.0, all="true")
    seat, dealt = samples(both, game, tfe_sample_hands)
    assert all(h[:3] == list(hands) for h in dealt)
    assert len({h[DISCARD] for h in dealt}) == 1  # the talon or discard pile too


def test_the_honest_twin_plays_the_experts_cards() -> None:
    game = at_a_card_decision(BAZAR, 4)
    seat = game.to_act
    expert = make_bot(BAZAR, "expert:samples=6", Random(9))
    twin = make_bot(BAZAR, "cheat:peek=0,samples=6", Random(9), testing=True)
    twin.see(game, seat)  # type: ignore[attr-defined]
    assert twin.choose(game.view(seat)) == expert.choose(game.view(seat))


@pytest.mark.parametrize("web", [False, True])
def test_only_arena_and_simulate_make_the_cheat(web: bool) -> None:
    """The lobby, the server's tables and the bot protocol check bots without ``testing``."""
    with pytest.raises(SetupError, match="unknown bot 'cheat'"):
        check_bot(BAZAR, "cheat:peek=1", web=web)
    with pytest.raises(SetupError, match="unknown bot 'cheat'"):
        check_bot(TFE, "cheat", web=True, testing=True)
    assert "cheat" not in BAZAR.bot_names() + TFE.bot_names()
    assert check_bot(TFE, "cheat:peek=0.5,all=true", testing=True)[0] is TfeCheat


def test_the_play_loop_shows_the_cheat_the_game() -> None:
    game = BAZAR.new_game(rng=Random(5))
    cheat = make_bot(BAZAR, "cheat:peek=1,samples=2,bid_samples=2", Random(1), testing=True)
    bots = [cheat] + [make_bot(BAZAR, "heuristic", Random(s)) for s in range(3)]
    deal = cast(Any, game.deal)
    partner = cast(Any, game.deal).hand
    for move in moves(game, bots, until=lambda g: g.deal is not deal):
        if move.seat == 0:
            assert cheat.seen == {2: partner(2)}  # type: ignore[attr-defined]
            return
    raise AssertionError("seat 0 never acted")
