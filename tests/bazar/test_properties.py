"""Properties of Bazar Blot over thousands of random games (OpenSpiel-style), each checked against
the reference model of ``helpers`` (the rule text read again) rather than against the engine
itself:

- every played deal uses each of the 32 cards exactly once, from the hand it was dealt to, and
  its tricks, card points (162), declarations, belote and score are those the rules give;
- B-56 holds when no contra and made; void deals score (0, 0); every score is a whole number;
- the game ends exactly when B-70 (or B-55) says, with the match score of B-71;
- a seat's view shows the declarations as B-43 says (announced as kind and top rank, the
  counting team's shown from the second trick, really declared and really held) and the belote
  as B-42 says.

What every game must do (refused actions, copies, views holding only what a seat may know,
records …) is checked for both games by the contract suite, tests/contract.
"""

from __future__ import annotations

from random import Random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from blot.bazar import PASS, Action, Deal, Game, Rules, random_deal
from blot.bazar.declarations import Declare
from blot.bazar.view import DealView
from blot.cards import DECK32, KING, QUEEN, Suit, card, cards_of

from .helpers import snapshot, spec_legal, spec_points, spec_resolve, spec_score, spec_winner

seeds = st.integers(min_value=0, max_value=2**64 - 1)
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None)


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


def check_view(deal: Deal, seat: int) -> None:
    v: DealView = deal.view(seat)
    assert v.seat == seat and v.hand == deal.hands[seat]
    played = 0
    for c in deal.plays:
        played |= c.bit
    if deal.tricks:  # B-43: from the second trick, the counting team's declarations (B-44, B-45)
        team = deal.outcome.team
        for s, d in v.shown:
            assert s % 2 == team and d in (deal.declared[s] or ())
            assert deal.dealt[s] & d.mask == d.mask  # really in that seat's hand
        declared = [[d.mask for d in (ds or ())] for ds in deal.declared]
        _, _, counting = spec_resolve(declared, deal.rules, trump_of(deal), deal.tricks[0].winner)
        assert sorted((s, d.mask) for s, d in v.shown) == sorted(counting)
    else:
        assert v.shown == () and v.declarations_team is None
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
def test_views_show_declarations_and_belote_as_the_rules_say(seed: int) -> None:
    rng = Random(seed)
    deal = Deal(random_deal(rng).hands, rng.randrange(4), random_rules(rng))
    while True:
        for seat in range(4):
            check_view(deal, seat)
        if deal.is_over:
            break
        deal.apply(choose(deal.legal_actions(), rng, 0.7))


# --- copies ---------------------------------------------------------------------------------------


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
