"""3-5-8's compiled play-outs (issue 44 item 1) against the rules engine and the Python bots: the
same legal cards (T-31 … T-33), the same ``basic`` and ``heuristic`` card at every one of 10,000
random positions, the same whole play-outs card for card, and the same numbers with and without
numba."""

from __future__ import annotations

from collections.abc import Iterator
from random import Random
from typing import cast

import pytest
from tests.solver.plain import run_script

from blot.bots.tfe_basic import BasicBot, discard_bit
from blot.bots.tfe_heuristic import HeuristicBot
from blot.cards import CARDS, DECK52, Card, iter_bits
from blot.errors import BlotError
from blot.solver import tfe_playout_kernel as k
from blot.solver._jit import COMPILED
from blot.solver.tfe_playout import TfePlayouts, heuristic_discard, heuristic_score
from blot.three_five_eight import CLUBS, HEARTS, NO_TRUMP, Deal, Phase

CALLS = (HEARTS, CLUBS, NO_TRUMP)


def in_play(rng: Random) -> Deal:
    """A random deal whose trump call and discard are made (at random)."""
    deal = Deal.random(rng, dealer=rng.randrange(3))
    deal.apply(rng.choice(CALLS))
    while deal.phase is not Phase.PLAY:
        deal.apply(rng.choice(deal.legal_actions()))
    return deal


def positions(seed: int, count: int) -> Iterator[Deal]:
    """``count`` positions of random deals played at random, each with a card to choose."""
    rng = Random(seed)
    made = 0
    while made < count:
        deal = in_play(rng)
        while not deal.is_over and made < count:
            made += 1
            yield deal
            deal.apply(rng.choice(deal.legal_actions()))


def as_cards(mask: int) -> set[Card]:
    out = set()
    while mask:
        out.add(cast(Card, CARDS[(mask & -mask).bit_length() - 1]))
        mask &= mask - 1
    return out


def test_issue44_t31_t33_and_both_bots_agree_with_the_engine_on_10000_positions() -> None:
    basic, heuristic = BasicBot(Random(0)), HeuristicBot(Random(0))
    checked = 0
    differing: list[str] = []
    for deal in positions(seed=44, count=10_000):
        seat = deal.to_act
        assert seat is not None
        view = deal.view(seat)
        p = TfePlayouts(deal)
        assert as_cards(int(k.legal(p.start))) == set(deal.legal_actions())
        for name, bot in (("basic", basic), ("heuristic", heuristic)):
            mine = p.choice(name)  # type: ignore[arg-type]
            theirs = bot.choose(view)  # type: ignore[arg-type]
            if mine != theirs:
                differing.append(f"{name}: {mine} for {theirs} at {view}")
        checked += 1
    assert checked == 10_000
    assert differing == []


def kernel_step(p: TfePlayouts, policy: int) -> Card:
    c = int(k.choose(p.start, policy))
    k.play(p.start, c)
    return cast(Card, CARDS[c])


def same_knowledge(a: TfePlayouts, b: TfePlayouts) -> bool:
    """The voids and trumpless seats the play showed, and the cards played, are the same in both."""
    slots = [k.PLAYED, *(k.VOID + s for s in range(3)), *(k.NO_TRUMPS + s for s in range(3))]
    return all(int(a.start[i]) == int(b.start[i]) for i in slots)


@pytest.mark.parametrize("policy", ["basic", "heuristic"])
def test_issue44_whole_play_outs_are_the_python_bots_card_for_card(policy: str) -> None:
    """300 deals from a random point of the play to the end, every seat by the same player: the
    kernel keeps what each card showed (T-31 … T-33) as the bots read it from their views, and
    counts the tricks as the engine does (T-34)."""
    number = k.BASIC if policy == "basic" else k.HEURISTIC
    for seed in range(300):
        rng = Random(seed)
        deal = in_play(rng)
        for _ in range(rng.randrange(40)):
            deal.apply(rng.choice(deal.legal_actions()))
        p = TfePlayouts(deal)
        bot = (BasicBot if policy == "basic" else HeuristicBot)(Random(seed))
        before = deal.tricks_taken
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            theirs = bot.choose(deal.view(seat))  # type: ignore[arg-type]
            assert kernel_step(p, number) == theirs, f"seed {seed}, seat {seat}, {len(deal.tricks)} tricks"
            deal.apply(theirs)
            if seed < 60 and not deal.is_over:
                assert same_knowledge(p, TfePlayouts(deal)), f"seed {seed}, after {theirs}"
        taken = tuple(int(p.start[k.TRICKS + s]) for s in range(3))
        assert taken == tuple(deal.tricks_taken[s] - before[s] for s in range(3))


@pytest.mark.parametrize("seed", range(20))
def test_issue44_random_play_outs_play_only_legal_cards(seed: int) -> None:
    rng = Random(1000 + seed)
    deal = in_play(rng)
    p = TfePlayouts(deal, seed=seed)
    while not deal.is_over:
        deal.apply(kernel_step(p, k.RANDOM))  # the engine refuses an illegal card
    assert tuple(int(p.start[k.TRICKS + s]) for s in range(3)) == deal.tricks_taken


@pytest.mark.parametrize("policy", ["random", "basic", "heuristic"])
def test_issue44_play_outs_add_up(policy: str) -> None:
    deal = in_play(Random(7))
    outcome = TfePlayouts(deal, seed=3).run(policy, 300)  # type: ignore[arg-type]
    assert outcome.count == 300
    assert sum(outcome.tricks) == pytest.approx(16)
    assert TfePlayouts(deal, seed=3).run(policy, 300) == outcome  # type: ignore[arg-type]


def test_issue44_a_deal_not_in_play_is_refused() -> None:
    with pytest.raises(BlotError, match="only a deal in play can be played out"):
        TfePlayouts(Deal.random(Random(1), dealer=0))


def test_issue44_the_compiled_discard_is_the_bots_on_5000_hands() -> None:
    """T-22: the kernel's next discard is ``tfe_basic.discard_bit``'s on 5,000 random hands of 1
    to 20 cards in every strain: the same trick estimate, float for float, so that the many ties
    (two low cards of one suit cost the same) break alike."""
    rng = Random(22)
    deck = list(iter_bits(DECK52))
    for _ in range(5000):
        hand = sum(rng.sample(deck, rng.choice([20, 19, 18, 17, 12, 5, 2, 1])))
        trump = rng.choice([None, 0, 1, 2, 3])
        assert 1 << int(k.discard(hand, -1 if trump is None else trump)) == discard_bit(hand, trump), (
            hand,
            trump,
        )


def test_issue44_a_discard_made_compiled_is_the_heuristic_bots() -> None:
    """Whole discards of 300 random deals (four cards each, every strain): the compiled discard
    puts back the card the ``heuristic`` bot puts back, each time."""
    bot = HeuristicBot(Random(0))
    for seed in range(300):
        rng = Random(seed)
        deal = Deal.random(rng, dealer=rng.randrange(3))
        deal.apply(rng.choice(CALLS))
        while deal.phase is not Phase.PLAY:
            seat = deal.to_act
            assert seat is not None
            theirs = bot.choose(deal.view(seat))  # type: ignore[arg-type]
            assert heuristic_discard(deal) == theirs, f"seed {seed}"
            deal.apply(theirs)


def test_issue44_only_a_deal_in_its_discard_has_a_discard() -> None:
    deal = in_play(Random(3))
    with pytest.raises(BlotError, match="only a deal in its discard has a card to put back"):
        heuristic_discard(deal)


def test_issue44_a_deal_scored_from_its_discard_scores_as_the_heuristic_bots_play_it() -> None:
    """T-22, T-30 … T-34, T-40: from any point of the discard (or the first card), the compiled
    discard and play give every seat the score the ``heuristic`` bots' whole play gives, on 150
    random deals in every strain."""
    bot = HeuristicBot(Random(0))
    for seed in range(150):
        rng = Random(seed)
        deal = Deal.random(rng, dealer=rng.randrange(3))
        deal.apply(rng.choice(CALLS))
        for _ in range(rng.randrange(5)):  # 0 to 4 cards already put back, at random
            deal.apply(rng.choice(deal.legal_actions()))
        scores = [heuristic_score(deal, seat) for seat in range(3)]
        while not deal.is_over:
            seat = deal.to_act
            assert seat is not None
            deal.apply(bot.choose(deal.view(seat)))  # type: ignore[arg-type]
        assert tuple(scores) == deal.scores, f"seed {seed}"


def test_issue44_a_deal_past_its_first_card_has_no_score_from_its_discard() -> None:
    deal = in_play(Random(4))
    deal.apply(deal.legal_actions()[0])
    with pytest.raises(BlotError, match="only a deal in its discard or at its first card"):
        heuristic_score(deal, 0)


SCRIPT = """
import json, sys
from random import Random
sys.path.insert(0, {tests!r})
from solver.test_tfe_playout import in_play
from blot.solver.tfe_playout import TfePlayouts, heuristic_discard, heuristic_score
out = []
for seed in range(3):
    deal = in_play(Random(seed))
    for policy in ("random", "basic", "heuristic"):
        out.append(TfePlayouts(deal, seed=seed).run(policy, 20).tricks)
from blot.solver import tfe_playout_kernel as k
rng = Random(5)
out.append([k.discard(rng.getrandbits(63) & k.DECK, rng.randrange(-1, 4)) for _ in range(300)])
print(json.dumps(out))
"""


@pytest.mark.skipif(not COMPILED, reason="numba is not installed: nothing compiled to compare")
def test_issue44_seeded_play_outs_are_the_same_compiled_and_in_plain_python() -> None:
    assert run_script(SCRIPT, no_jit=True) == run_script(SCRIPT, no_jit=False)
