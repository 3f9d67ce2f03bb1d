"""Properties of 3-5-8 over many random games, checked against the reference model of
``reference`` (the rule text read again, T-1 … T-50) rather than against the engine itself: at
every step the seat to act, the phase, the legal actions and every hand; each exchange's
returned card (T-21) and the talon taken (T-22); each deal's tricks, trick winners and scores
(T-34, T-40); the dealers, the passes and the winner of the game (T-2, T-10, T-50).

What every game must do (refused actions, copies, views, records …) is checked for both games
by the contract suite, tests/contract.
"""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from blot.cards import DECK52, SUIT_MASKS, Card, cards_of
from blot.three_five_eight import Deal, Game, legal_mask

from .reference import RefGame, legal_cards, targets

seeds = st.integers(min_value=0, max_value=2**32 - 1)


def texts(mask: int) -> set[str]:
    return {c.text for c in cards_of(mask)}


def check_step(game: Game, ref: RefGame) -> None:
    """The engine and the model agree on everything a step can show."""
    deal, model = game.deal, ref.deal
    assert deal is not None and model is not None
    assert deal.phase.value == model.phase and deal.to_act == model.to_act
    assert {str(a) for a in deal.legal_actions()} == model.legal()
    assert [texts(h) for h in deal.hands] == model.hands
    assert [(e.giver, e.receiver, str(e.gift), str(e.returned)) for e in deal.exchanges] == model.exchanged
    assert [c.text for c in deal.discard] == model.discarded


def check_deal(deal: Deal, ref: RefGame) -> None:
    model = ref.deal
    assert model is not None and model.result is not None
    r, m = deal.result, model.result
    assert r is not None
    assert r.void == m.void and r.dealer == m.dealer and list(r.targets) == m.targets
    assert (None if r.trump is None else str(r.trump)) == m.trump
    assert list(r.tricks) == m.tricks and list(r.scores) == m.scores
    assert list(r.trick_winners) == m.trick_winners
    assert r.exchanged == len(model.exchanged)
    if not r.void:  # every card once: played, or put back (T-2, T-22)
        used = [c.text for c in deal.plays] + [c.text for c in deal.discard]
        assert len(used) == len(set(used)) == 52


@settings(max_examples=120, deadline=None)
@given(seed=seeds, dealer=st.integers(0, 2), pass_rate=st.floats(0.0, 0.9))
def test_the_engine_plays_as_the_reference_model_reads_the_rules(
    seed: int, dealer: int, pass_rate: float
) -> None:
    game = Game(dealer=dealer, rng=Random(seed))
    ref = RefGame(dealer)
    rng = Random(~seed)
    while True:
        deal = game.deal
        assert deal is not None
        if ref.deal is None or ref.deal.phase == "over":  # the engine dealt: the model takes the cards
            ref.start_deal([texts(h) for h in deal.dealt], texts(deal.talon))
            assert ref.deal is not None
            assert deal.dealer == ref.dealer and list(deal.targets) == targets(ref.dealer)
            assert list(deal.plan) == ref.deal.plan  # T-20, before the call
        check_step(game, ref)
        legal = deal.legal_actions()
        passes = [a for a in legal if str(a) == "pass"]
        action = passes[0] if passes and rng.random() < pass_rate else rng.choice(legal)
        game.apply(action)
        ref.apply(str(action))
        if deal.is_over:
            check_deal(deal, ref)
            assert game.may_pass == tuple(ref.may_pass) and game.counted == len(ref.counted)
            assert list(game.totals) == ref.totals
            if game.is_over:
                break
    assert ref.is_over and game.winner == ref.winner()


@settings(max_examples=1500, deadline=None)
@given(
    cards=st.permutations(cards_of(DECK52)),
    hand_size=st.integers(min_value=1, max_value=16),
    trick_size=st.integers(min_value=0, max_value=2),
    trump=st.sampled_from([None, 0, 1, 2, 3]),
)
def test_legal_cards_match_the_rule_text(
    cards: list[Card], hand_size: int, trick_size: int, trump: int | None
) -> None:
    hand, trick = cards[:hand_size], cards[hand_size : hand_size + trick_size]
    mask = 0
    for c in hand:
        mask |= c.bit
    trick_mask = 0
    for c in trick:
        trick_mask |= c.bit
    lead = SUIT_MASKS[trick[0].suit] if trick else 0
    got = legal_mask(mask, lead, trick_mask, 0 if trump is None else SUIT_MASKS[trump])
    expected = legal_cards(
        {c.text for c in hand}, [c.text for c in trick], None if trump is None else "SHDC"[trump]
    )
    assert {c.text for c in cards_of(got)} == expected
