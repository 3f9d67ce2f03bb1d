"""Properties over thousands of random games (OpenSpiel-style), each checked against the reference
model of ``helpers`` (the rule text read again) rather than against the engine itself:

- every played deal uses each of the 32 cards exactly once, from the hand it was dealt to, and
  its tricks, card points (162), declarations, belote and score are those the rules give;
- B-56 holds when no contra and made; void deals score (0, 0); every score is a whole number;
- the game ends exactly when B-70 (or B-55) says, with the match score of B-71;
- a seat's view never holds another seat's unplayed card, except the counting team's
  declarations shown from the second trick on, which really were in that seat's hand;
- a random illegal action leaves the state identical; ``copy()`` is independent.
"""

from __future__ import annotations

import dataclasses
from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blot.bazar import PASS, Action, Deal, Game, Rules, random_deal
from blot.bazar.declarations import Declaration, Declare
from blot.bazar.view import DealView
from blot.cards import DECK32, KING, QUEEN, Card, Suit, card, cards_of
from blot.errors import IllegalAction

from .helpers import all_actions, snapshot, spec_legal, spec_points, spec_resolve, spec_score, spec_winner

seeds = st.integers(min_value=0, max_value=2**64 - 1)
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)
UNIVERSE = all_actions()


def random_rules(rng: Random) -> Rules:
    ruleset = rng.choice(["league", "league", "classic"])
    return Rules(
        ruleset=ruleset,  # type: ignore[arg-type]
        kanach=rng.random() < 0.3,
        three_passes_end_bidding=rng.random() < 0.8,
        # B-41's option, left at 10 in classic where B-90 fixes no-trump four 9s at 10 (ambiguous)
        nt_four_nines=rng.choice([10, 0]) if ruleset == "league" else 10,
        target=rng.choice([301, 301, 151, 501]),
    )


def choose(legal: Any, rng: Random, pass_rate: float) -> Action:
    if PASS in legal and rng.random() < pass_rate:
        return PASS
    return rng.choice(legal)  # type: ignore[no-any-return]


def trump_of(deal: Deal) -> Suit | None:
    assert deal.contract is not None
    return None if deal.contract.strain == "NT" else Suit[deal.contract.strain]


def check_deal(deal: Deal) -> None:
    """Everything about one finished deal, from the rule text."""
    r = deal.result
    assert r is not None and deal.is_over
    assert deal.dealt[0] | deal.dealt[1] | deal.dealt[2] | deal.dealt[3] == DECK32
    if r.void:
        assert deal.plays == () and r.contract is None and r.made is None
        assert r.points == r.tricks == r.card_points == r.declaration_points == r.belote == (0, 0)
        last = deal.calls[-1]
        assert last.kind == "sevens" or [c.kind for c in deal.calls] == ["pass"] * 4
        return
    contract = deal.contract
    assert contract is not None and r.contract == contract
    trump = trump_of(deal)
    # every card once, each from the hand it was dealt to, in turn
    assert len(deal.plays) == 32 and {c.index for c in deal.plays} == {c.index for c in cards_of(DECK32)}
    assert len(deal.tricks) == 8
    leader = (deal.dealer + 1) % 4
    card_points = [0, 0]
    tricks = [0, 0]
    for trick in deal.tricks:
        assert trick.leader == leader
        for i, c in enumerate(trick.cards):
            assert deal.dealt[(leader + i) % 4] & c.bit
        winner = (leader + spec_winner(trick.cards, trump)) % 4
        assert trick.winner == winner
        card_points[winner % 2] += sum(spec_points(c, trump) for c in trick.cards)
        tricks[winner % 2] += 1
        leader = winner
    card_points[leader % 2] += 10
    assert r.card_points == tuple(card_points) and sum(card_points) == 162
    assert r.tricks == tuple(tricks)
    # declarations (B-44, B-45) and belote (B-42)
    declared = [[d.mask for d in (ds or ())] for ds in deal.declared]
    for seat, masks in enumerate(declared):
        used = 0
        for m in masks:
            assert deal.dealt[seat] & m == m and not used & m
            used |= m
    _, decl_points, _ = spec_resolve(declared, deal.rules, trump, deal.tricks[0].winner)
    assert r.declaration_points == decl_points
    belote = [0, 0]
    if trump is not None:
        pair = card(trump, KING).bit | card(trump, QUEEN).bit
        for seat in range(4):
            if deal.dealt[seat] & pair == pair:
                belote[seat % 2] = 2
    assert r.belote == tuple(belote)
    # the score (B-50 … B-55)
    team = contract.team
    alone = sum(1 for t in deal.tricks if t.winner == contract.declarer) == 8
    spec = spec_score(
        team=team,
        level=contract.level,
        multiplier=contract.multiplier,
        tricks=(tricks[0], tricks[1]),
        card_points=(card_points[0], card_points[1]),
        declarer_alone=alone,
        declarations=decl_points,
        belote=(belote[0], belote[1]),
    )
    assert (r.made, r.points, r.tars_kapoot) == (spec.made, spec.points, spec.tars_kapoot)
    assert all(type(p) is int and p >= 0 for p in r.points)
    assert r.kapoot == (0 if tricks[0] == 8 else 1 if tricks[1] == 8 else None)
    if contract.multiplier == 1 and r.made:  # B-56
        base = 25 if 8 in tricks else 16
        assert sum(r.points) == base + contract.level + sum(decl_points) + sum(belote)


def check_game(game: Game, first_dealer: int) -> None:
    """B-3 dealers, B-70 end, B-55, B-71, totals."""
    rules = game.rules
    totals = (0, 0)
    winner: int | None = None
    tars = False
    for i, deal in enumerate(game.deals):
        assert deal.dealer == (first_dealer + i) % 4
        assert winner is None, "a deal was dealt after the game had ended"
        check_deal(deal)
        r = deal.result
        assert r is not None
        if r.void:
            continue
        totals = (totals[0] + r.points[0], totals[1] + r.points[1])
        assert r.contract is not None
        if r.contract.level >= 25 and r.tricks[r.contract.team] == 0:
            winner, tars = 1 - r.contract.team, True
        elif 8 not in r.tricks and max(totals) >= rules.target and totals[0] != totals[1]:
            winner = 0 if totals[0] > totals[1] else 1
    assert game.totals == totals
    assert game.winner == winner and game.tars_kapoot == tars
    if winner is not None:
        assert game.match_score == ("2-0" if totals[1 - winner] <= 150 else "1-0")
    else:
        assert game.match_score is None


# --- whole games --------------------------------------------------------------------------------


@settings(FAST, max_examples=1000)
@given(seed=seeds)
def test_random_games_follow_the_rules(seed: int) -> None:
    rng = Random(seed)
    rules = random_rules(rng)
    first = rng.randrange(4)
    game = Game(rules, dealer=first, rng=Random(rng.getrandbits(64)))
    pass_rate = rng.uniform(0.3, 0.9)
    while not game.is_over:
        game.apply(choose(game.legal_actions(), rng, pass_rate))
    check_game(game, first)


@settings(FAST, max_examples=300)
@given(seed=seeds)
def test_legal_cards_are_those_of_the_rule_text(seed: int) -> None:
    rng = Random(seed)
    deal = Deal(random_deal(rng).hands, rng.randrange(4), random_rules(rng))
    while deal.phase.value == "bidding":
        deal.apply(choose(deal.legal_actions(), rng, 0.7))
    while not deal.is_over:
        legal = deal.legal_actions()
        if deal.must_declare:
            assert legal and all(type(a) is Declare for a in legal)
        else:
            seat = deal.to_act
            assert seat is not None
            trick = deal.plays[len(deal.tricks) * 4 :]
            assert set(legal) == spec_legal(deal.hands[seat], trick, trump_of(deal))
        deal.apply(rng.choice(legal))
    check_deal(deal)


# --- views ---------------------------------------------------------------------------------------


def _cards_in(obj: Any, found: list[Card], declarations: list[Declaration], depth: int = 0) -> None:
    """Every card and declaration anywhere in a view, whatever field holds it."""
    assert depth < 20
    if isinstance(obj, Card):
        found.append(obj)
    elif isinstance(obj, Declaration):
        declarations.append(obj)
    elif isinstance(obj, (tuple, list)):
        for x in obj:
            _cards_in(x, found, declarations, depth + 1)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            _cards_in(getattr(obj, f.name), found, declarations, depth + 1)


def check_view(deal: Deal, seat: int) -> None:
    v: DealView = deal.view(seat)
    assert v.seat == seat and v.hand == deal.hands[seat]
    played = 0
    for c in deal.plays:
        played |= c.bit
    shown = 0
    if deal.tricks:
        team = deal.outcome.team
        for s, d in v.shown:
            assert s % 2 == team and d in (deal.declared[s] or ())
            assert deal.dealt[s] & d.mask == d.mask  # really in that seat's hand
            shown |= d.mask
    else:
        assert v.shown == () and v.declarations_team is None
    allowed = deal.dealt[seat] | played | shown
    found: list[Card] = []
    declarations: list[Declaration] = []
    _cards_in(v, found, declarations)
    for c in found:
        assert allowed & c.bit, f"seat {seat} sees {c}"
    for d in declarations:
        assert d.mask & ~allowed == 0, f"seat {seat} sees {d}"
    assert v.hand & ~deal.dealt[seat] == 0
    assert v.own_declarations == deal.declared[seat]
    assert v.legal == (tuple(deal.legal_actions()) if deal.to_act == seat else ())
    assert [c.text for _, c in v.trick] == [c.text for c in deal.plays[len(deal.tricks) * 4 :]]
    assert list(v.tricks) == list(deal.tricks)
    assert list(v.belotes) == list(deal.belotes)
    for s, c in v.belotes:
        assert played & c.bit and deal.dealt[s] & c.bit
    # announcements: kind and top rank of declarations really declared, nothing more
    for a in v.announced:
        assert any(d.kind == a.kind and d.rank == a.rank for d in (deal.declared[a.seat] or ()))
    expected = sum(len(ds or ()) for ds in deal.declared) if deal.phase.value != "bidding" else 0
    assert len(v.announced) == expected


@settings(FAST, max_examples=200)
@given(seed=seeds)
def test_views_never_show_another_seats_unplayed_card(seed: int) -> None:
    rng = Random(seed)
    deal = Deal(random_deal(rng).hands, rng.randrange(4), random_rules(rng))
    while True:
        for seat in range(4):
            check_view(deal, seat)
        if deal.is_over:
            break
        deal.apply(choose(deal.legal_actions(), rng, 0.7))


# --- refused actions and copies ----------------------------------------------------------------


@settings(FAST, max_examples=300)
@given(seed=seeds)
def test_random_illegal_actions_change_nothing(seed: int) -> None:
    rng = Random(seed)
    deal = Deal(random_deal(rng).hands, rng.randrange(4), random_rules(rng))
    while True:
        legal = list(deal.legal_actions())
        if rng.random() < 0.3 or deal.is_over:
            before = snapshot(deal)
            for action in rng.sample(UNIVERSE, 4):
                if action in legal:
                    continue
                try:
                    deal.apply(action)
                except IllegalAction as e:
                    message = str(e)
                    assert message and "\n" not in message
                else:
                    raise AssertionError(f"{action} was accepted but is not in legal_actions()")
                assert snapshot(deal) == before, action
                assert list(deal.legal_actions()) == legal
        if deal.is_over:
            break
        deal.apply(choose(legal, rng, 0.7))


def _play_out(deal: Deal, rng: Random) -> list[Action]:
    done = []
    while not deal.is_over:
        action = choose(deal.legal_actions(), rng, 0.7)
        deal.apply(action)
        done.append(action)
    return done


@settings(FAST, max_examples=300)
@given(seed=seeds, stop=st.integers(0, 60))
def test_copy_is_independent(seed: int, stop: int) -> None:
    rng = Random(seed)
    deal = Deal(random_deal(rng).hands, rng.randrange(4), random_rules(rng))
    for _ in range(stop):
        if deal.is_over:
            break
        deal.apply(choose(deal.legal_actions(), rng, 0.7))
    before = snapshot(deal)
    twin = deal.copy()
    assert snapshot(twin) == before
    actions = _play_out(twin, Random(seed + 1))
    assert snapshot(deal) == before  # playing the copy left the original alone
    after_twin = snapshot(twin)
    for action in actions:
        deal.apply(action)
    assert deal.result == twin.result
    assert snapshot(deal) == after_twin
    assert snapshot(twin) == after_twin  # and playing the original left the copy alone


@settings(FAST, max_examples=100)
@given(seed=seeds, stop=st.integers(0, 400))
def test_game_copy_is_independent(seed: int, stop: int) -> None:
    rng = Random(seed)
    game = Game(random_rules(rng), dealer=rng.randrange(4), rng=Random(rng.getrandbits(64)))
    for _ in range(stop):
        if game.is_over:
            break
        game.apply(choose(game.legal_actions(), rng, 0.7))
    before = snapshot(game)
    twin = game.copy()
    moves = Random(seed + 1)
    done = []
    while not twin.is_over:
        action = choose(twin.legal_actions(), moves, 0.7)
        twin.apply(action)
        done.append(action)
    assert snapshot(game) == before
    for action in done:
        game.apply(action)
    assert game.totals == twin.totals and game.winner == twin.winner
    assert [d.result for d in game.deals] == [d.result for d in twin.deals]


def test_copy_made_during_the_bidding_does_not_share_declaration_options() -> None:
    """Regression: finishing the bidding on a copy used to fill the original's options."""
    from .helpers import fill, new_deal

    deal = new_deal(fill("AS KS QS JS"), "8S pass pass")
    before = snapshot(deal)
    twin = deal.copy()
    twin.apply(PASS)
    assert twin.declare_options(0) and deal.declare_options(0) == ()
    assert str(deal.best_declare(0)) == "none"
    assert snapshot(deal) == before
