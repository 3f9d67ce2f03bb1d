"""Properties over many random games (OpenSpiel-style): every card used once per deal, 16
tricks, scores adding up to 0, views that never show another seat's unplayed card beyond what
the seat saw, refused actions that change nothing, legal cards as the rule text reads."""

from __future__ import annotations

from random import Random

from hypothesis import given, settings
from hypothesis import strategies as st

from blot.cards import CARD_OF_BIT, DECK52, SUIT_MASKS, Card, cards_of
from blot.errors import IllegalAction
from blot.three_five_eight import (
    CALLS,
    PASS,
    Action,
    Deal,
    DealView,
    Game,
    Phase,
    game_winner,
    legal_mask,
)

seeds = st.integers(min_value=0, max_value=2**32 - 1)
dealers = st.integers(min_value=0, max_value=2)


def _check_finished_deal(deal: Deal) -> None:
    r = deal.result
    assert r is not None
    d = deal.dealt
    assert d[0] | d[1] | d[2] | deal.talon == DECK52
    assert sum(h.bit_count() for h in d) + deal.talon.bit_count() == 52
    if deal.is_void:
        assert deal.plays == () and deal.discard == ()
        return
    used = [*deal.plays, *deal.discard]
    assert len(used) == 52 and len(set(used)) == 52  # every card once
    assert len(deal.tricks) == 16 and sum(deal.tricks_taken) == 16
    assert sum(deal.scores) == 0 and deal.hands == (0, 0, 0)
    assert len(deal.gifts) == len(deal.plan) == r.exchanged


@settings(max_examples=1000, deadline=None)
@given(seed=seeds, dealer=dealers)
def test_random_games_use_every_card_once_and_score_zero_sum(seed: int, dealer: int) -> None:
    game = Game(dealer=dealer, rng=Random(seed))
    rng = Random(seed ^ 0x5EED)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    for deal in game.deals:
        _check_finished_deal(deal)
    assert game.counted == 9 and sum(game.totals) == 0
    winner = game.winner
    assert winner is not None and winner == game_winner(game.results)
    assert max(game.totals) == game.totals[winner]


def _seen(view: DealView) -> tuple[int, int]:
    """Every card the view shows, and those of them it may show from another seat's hand."""
    legit = view.talon or 0
    shown = view.hand | legit | (view.discard or 0)
    for e in view.exchanges:
        for c in (e.gift, e.returned):
            if c is not None:
                legit |= c.bit
                shown |= c.bit
    for _, c in view.trick:
        shown |= c.bit
    for t in view.tricks:
        for c in t.cards:
            shown |= c.bit
    for a in view.legal:
        if isinstance(a, Card):
            shown |= a.bit
    return shown, legit


def _check_views(deal: Deal) -> None:
    first = deal.first
    for seat in range(3):
        v = deal.view(seat)
        shown, legit = _seen(v)
        for other in range(3):
            if other != seat:
                assert shown & deal.hand(other) & ~legit == 0
        if seat != first:
            assert v.discard is None
        for e in v.exchanges:
            assert (e.gift is None) == (seat not in (e.giver, e.receiver))
        assert v.legal == (deal.legal_actions() if deal.to_act == seat else ())
    if deal.phase is Phase.PLAY:  # the engine's inlined T-31 … T-33 agree with the rule text
        trick = [c for _, c in deal.trick]
        trump = None if deal.trump is None else deal.trump.suit
        to_act = deal.to_act
        assert to_act is not None
        expected = _reference_legal(cards_of(deal.hand(to_act)), trick, trump)
        assert set(deal.legal_actions()) == expected


@settings(max_examples=60, deadline=None)
@given(seed=seeds, dealer=dealers)
def test_views_never_show_another_seats_unplayed_cards(seed: int, dealer: int) -> None:
    game = Game(dealer=dealer, rng=Random(seed))
    rng = Random(~seed)
    while not game.is_over:
        deal = game.deal
        assert deal is not None
        _check_views(deal)
        game.apply(rng.choice(game.legal_actions()))
    assert game.deal is not None
    _check_views(game.deal)


def _illegal(deal: Deal, rng: Random) -> Action:
    """Something the seat to act may not do now."""
    phase = deal.phase
    if phase is Phase.CALL:
        if not deal.may_pass[deal.to_act or 0] and rng.random() < 0.5:
            return PASS
        return CARD_OF_BIT[1 << rng.choice([c.index for c in cards_of(DECK52)])]
    legal = set(deal.legal_actions())
    if rng.random() < 0.1:
        return rng.choice(CALLS)
    options = [c for c in cards_of(DECK52) if c not in legal]
    return rng.choice(options)


@settings(max_examples=60, deadline=None)
@given(seed=seeds, dealer=dealers)
def test_refused_actions_change_nothing(seed: int, dealer: int) -> None:
    game = Game(dealer=dealer, rng=Random(seed))
    rng = Random(seed + 1)
    while not game.is_over:
        deal = game.deal
        assert deal is not None
        if deal.phase is not Phase.CALL or not all(deal.may_pass) or rng.random() < 0.5:
            before, views = game.copy(), [game.view(s) for s in range(3)]
            action = _illegal(deal, rng)
            try:
                game.apply(action)
            except IllegalAction as refused:
                text = str(refused)
                assert text and "\n" not in text and text[0].islower() and not text.endswith(".")
            else:
                raise AssertionError(f"{action} was accepted in {deal!r}")
            assert game == before and [game.view(s) for s in range(3)] == views
        game.apply(rng.choice(game.legal_actions()))


def _reference_legal(hand: list[Card], trick: list[Card], trump: int | None) -> set[Card]:
    """T-31 … T-33 read literally, card by card."""
    if not trick:
        return set(hand)
    led = trick[0].suit
    follow = [c for c in hand if c.suit == led]
    trumps_in = [c.rank for c in trick if c.suit == trump]
    if follow:
        if led == trump:
            higher = [c for c in follow if all(c.rank > r for r in trumps_in)]
            return set(higher or follow)
        return set(follow)
    mine = [c for c in hand if trump is not None and c.suit == trump]
    if not mine:
        return set(hand)
    if trumps_in:
        higher = [c for c in mine if c.rank > max(trumps_in)]
        return set(higher) if higher else set(hand)
    return set(mine)


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
    assert set(cards_of(got)) == _reference_legal(hand, trick, trump)


@settings(max_examples=100, deadline=None)
@given(seed=seeds, cut=st.integers(min_value=0, max_value=60))
def test_copies_are_independent(seed: int, cut: int) -> None:
    deal = Deal.random(Random(seed), dealer=seed % 3)
    rng = Random(seed)
    for _ in range(cut):
        if deal.is_over:
            break
        deal.apply(rng.choice(deal.legal_actions()))
    twin, witness = deal.copy(), deal.copy()
    while not twin.is_over:
        twin.apply(rng.choice(twin.legal_actions()))
    assert deal == witness
