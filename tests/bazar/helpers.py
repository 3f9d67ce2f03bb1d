"""Shared helpers for the Bazar Blot tests: deals built from card text, driving a deal, a deep
snapshot of a state (the contract suite's), and a small *reference model* of the rules written
again from the text of docs/rules.md (B-10, B-12, B-31 … B-34, B-40 … B-45, B-50 … B-55, B-70) so
that properties can check the engine against an independent reading rather than against itself."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from blot.bazar import PASS, Action, Call, Deal, Declare, Game, Rules, parse_call
from blot.bazar.declarations import DECLARE_NONE, Declaration, parse_declaration
from blot.cards import DECK32, RANK_TEXT, SUIT_MASKS, Card, Suit, cards_of, parse_card, parse_cards
from contract.helpers import snapshot as snapshot  # one deep snapshot for every test

LEAGUE = Rules()
CLASSIC = Rules(ruleset="classic")

# --- building deals ---------------------------------------------------------------------------


def fill(*hands: str, voids: str = "") -> list[int]:
    """Four hands of 8 cards from the cards a test names for each seat (up to four texts).

    Every other card goes, lowest index first, to the seat with the fewest cards so far that
    may take it; ``voids`` lists suits a seat must not be given, e.g. ``"2:SH 3:S"``. The cards
    some seat may not take are placed first so the others still have room."""
    texts = [*hands, "", "", "", ""][:4]
    masks = [parse_cards(t) for t in texts]
    banned = [0, 0, 0, 0]
    for item in voids.split():
        who, suits = item.split(":")
        for letter in suits:
            banned[int(who)] |= SUIT_MASKS["SHDC".index(letter)]
    named = masks[0] | masks[1] | masks[2] | masks[3]
    assert sum(m.bit_count() for m in masks) == named.bit_count(), "a card is named twice"
    rest = DECK32 & ~named
    order = sorted(cards_of(rest), key=lambda c: (-sum(bool(b & c.bit) for b in banned), c.index))
    for card in order:
        open_seats = [s for s in range(4) if masks[s].bit_count() < 8 and not banned[s] & card.bit]
        assert open_seats, f"no seat can take {card}"
        seat = min(open_seats, key=lambda s: (masks[s].bit_count(), s))
        masks[seat] |= card.bit
    assert all(m.bit_count() == 8 for m in masks), [m.bit_count() for m in masks]
    return masks


def calls(text: str) -> list[Call]:
    return [parse_call(word) for word in text.split()]


def new_deal(
    hands: Sequence[int] | Sequence[str],
    bidding: str = "",
    *,
    dealer: int = 3,
    rules: Rules = LEAGUE,
) -> Deal:
    """A deal from four hands (card sets, or card text each naming a whole hand) with the calls
    of ``bidding`` already made. With dealer 3 (the default) seat 0 calls and leads first."""
    masks = [h if isinstance(h, int) else parse_cards(h) for h in hands]
    deal = Deal(masks, dealer, rules)
    for call in calls(bidding):
        deal.apply(call)
    return deal


def decl(text: str) -> Declaration:
    """The declaration written as its cards (``"AS KS QS"``, ``"JS JH JD JC"``)."""
    return parse_declaration(text, DECK32)


def declare(*texts: str) -> Declare:
    """A seat's set of declarations, each written as its cards."""
    return Declare(tuple(decl(t) for t in texts))


DeclarePolicy = Callable[[Deal, int], Declare]


def declare_none(deal: Deal, seat: int) -> Declare:
    return DECLARE_NONE


def declare_best(deal: Deal, seat: int) -> Declare:
    return deal.best_declare(seat)


def best_for(*seats: int) -> DeclarePolicy:
    """Seats in ``seats`` declare their best set, the others declare nothing."""

    def policy(deal: Deal, seat: int) -> Declare:
        return deal.best_declare(seat) if seat in seats else DECLARE_NONE

    return policy


def play(deal: Deal, text: str, declare: DeclarePolicy = declare_none) -> None:
    """Play the cards of ``text`` one after another; a seat that must first say what it declares
    declares what ``declare`` chooses (nothing by default)."""
    for word in text.split():
        if deal.must_declare:
            deal.apply(declare(deal, deal.to_act))  # type: ignore[arg-type]
        deal.apply(parse_card(word))


def finish(deal: Deal, declare: DeclarePolicy = declare_none) -> Deal:
    """Play to the end: every seat plays the first legal card (lowest index); declarations as
    ``declare`` chooses."""
    while not deal.is_over:
        if deal.must_declare:
            deal.apply(declare(deal, deal.to_act))  # type: ignore[arg-type]
            continue
        deal.apply(deal.legal_actions()[0])
    return deal


def texts(actions: Iterable[Action]) -> list[str]:
    return [str(a) for a in actions]


def hand_text(deal: Deal, seat: int) -> str:
    return " ".join(c.text for c in cards_of(deal.hands[seat]))


# --- a reference model of the rules, from the text of docs/rules.md -------------------------------

#: B-10, high to low.
TRUMP_STRENGTH = ["J", "9", "A", "10", "K", "Q", "8", "7"]
PLAIN_STRENGTH = ["A", "10", "K", "Q", "J", "9", "8", "7"]
#: B-11, high to low.
SEQUENCE_ORDER = ["A", "K", "Q", "J", "10", "9", "8", "7"]
#: B-12: (trump suit, other suit in a trump deal, any suit in a no-trump deal).
CARD_POINTS = {
    "J": (20, 2, 2),
    "9": (14, 0, 0),
    "A": (11, 11, 19),
    "10": (10, 10, 10),
    "K": (4, 4, 4),
    "Q": (3, 3, 3),
    "8": (0, 0, 0),
    "7": (0, 0, 0),
}


def rank_text(card: Card) -> str:
    return card.text[:-1]


def spec_points(card: Card, trump: Suit | None) -> int:
    """B-12."""
    column = 2 if trump is None else 0 if card.suit == trump else 1
    return CARD_POINTS[rank_text(card)][column]


def spec_beats(new: Card, best: Card, led: Suit, trump: Suit | None) -> bool:
    """B-10, B-34: does ``new`` beat ``best`` (the card winning so far) in a trick led in ``led``?"""
    if trump is not None and new.suit == trump:
        if best.suit != trump:
            return True
        return TRUMP_STRENGTH.index(rank_text(new)) < TRUMP_STRENGTH.index(rank_text(best))
    if trump is not None and best.suit == trump:
        return False
    if new.suit != led:
        return False
    return PLAIN_STRENGTH.index(rank_text(new)) < PLAIN_STRENGTH.index(rank_text(best))


def spec_winner(trick: Sequence[Card], trump: Suit | None) -> int:
    """B-34: the position of the winning card."""
    best = 0
    for i in range(1, len(trick)):
        if spec_beats(trick[i], trick[best], trick[0].suit, trump):
            best = i
    return best


def spec_legal(hand: int, trick: Sequence[Card], trump: Suit | None) -> set[Card]:
    """B-31 … B-33, read from the rule text. ``trick`` is the cards already played, in order."""
    held = cards_of(hand)
    if not trick:
        return set(held)
    led = trick[0].suit
    of_led = [c for c in held if c.suit == led]
    trumps_in_trick = [c for c in trick if trump is not None and c.suit == trump]
    if of_led:
        if trump is not None and led == trump:
            stronger = [c for c in of_led if all(spec_beats(c, t, led, trump) for t in trumps_in_trick)]
            return set(stronger or of_led)
        return set(of_led)
    my_trumps = [c for c in held if trump is not None and c.suit == trump]
    if trump is None or not my_trumps:
        return set(held)  # B-33
    winning = spec_winner(trick, trump)
    if len(trick) >= 2 and winning == len(trick) - 2:
        return set(held)  # B-32 (a): the partner played and is winning
    above_all = [c for c in my_trumps if all(spec_beats(c, t, led, trump) for t in trick)]
    if above_all:
        return set(above_all)  # B-32 (b)
    return set(held)  # B-32 (c)


@dataclass(frozen=True)
class SpecDeclaration:
    kind: str  # "terz", "fifty", "hundred", "four"
    top: str  # the top rank's text (the rank of a four)
    suit: Suit | None
    mask: int


def spec_classify(mask: int) -> SpecDeclaration:
    """What a declaration is, from its cards alone (B-40, B-41)."""
    cs = cards_of(mask)
    if len(cs) == 4 and len({c.rank for c in cs}) == 1:
        return SpecDeclaration("four", rank_text(cs[0]), None, mask)
    assert len({c.suit for c in cs}) == 1, cs
    ranks = sorted(SEQUENCE_ORDER.index(rank_text(c)) for c in cs)
    assert ranks == list(range(ranks[0], ranks[0] + len(cs))), cs
    kind = {3: "terz", 4: "fifty", 5: "hundred"}[len(cs)]
    return SpecDeclaration(kind, SEQUENCE_ORDER[ranks[0]], cs[0].suit, mask)


#: B-41 (league) and B-90 (classic): points of four of a kind, (trump deal, no-trump deal).
FOUR_POINTS: dict[str, dict[str, tuple[int, int | None]]] = {
    "league": {"J": (20, 10), "9": (15, None), "A": (10, 20), "10": (10, 15), "K": (10, 10), "Q": (10, 10)},
    "classic": {"J": (20, 20), "9": (14, 10), "A": (10, 19), "10": (10, 10), "K": (10, 10), "Q": (10, 10)},
}
FOUR_ORDER = {
    ("league", False): ["J", "9", "A", "10", "K", "Q"],
    ("league", True): ["A", "10", "K", "Q", "J", "9"],
    ("classic", False): ["J", "9", "A", "10", "K", "Q"],
    ("classic", True): ["J", "9", "A", "10", "K", "Q"],
}
SEQUENCE_POINTS = {"terz": 2, "fifty": 5, "hundred": 10}


def four_points(rules: Rules) -> dict[str, tuple[int, int | None]]:
    """B-41 / B-90 for the ruleset: the tables above, written from the rule text, for the
    rulesets it describes; for any other (a preset added since, which is that ruleset's only
    text) the preset's own values."""
    if rules.ruleset in FOUR_POINTS:
        return FOUR_POINTS[rules.ruleset]
    return {RANK_TEXT[rank]: points for rank, points in rules.preset.four_points.items() if rank != 8}


def four_order(rules: Rules, no_trump: bool) -> list[str]:
    """B-44's four-of-a-kind order below the 8s, as :func:`four_points` chooses its source."""
    if (rules.ruleset, no_trump) in FOUR_ORDER:
        return FOUR_ORDER[rules.ruleset, no_trump]
    order = rules.preset.four_order_no_trump if no_trump else rules.preset.four_order_trump
    return [RANK_TEXT[rank] for rank in order if rank != 8]


def four_eights_void_others(rules: Rules) -> bool:
    """B-45: the League's four 8s void the other seats' declarations; classic's do not."""
    if rules.ruleset in FOUR_POINTS:
        return rules.ruleset == "league"
    return rules.preset.four_eights_void_others


def spec_declaration_points(d: SpecDeclaration, rules: Rules, trump: Suit | None) -> int:
    if d.kind != "four":
        return SEQUENCE_POINTS[d.kind]
    if d.top == "8":
        return 0
    trump_deal, nt_deal = four_points(rules)[d.top]
    if trump is not None:
        return trump_deal
    if nt_deal is None:
        return rules.nt_four_nines
    return nt_deal


def spec_rank(d: SpecDeclaration, rules: Rules, trump: Suit | None) -> tuple[int, int]:
    """B-44: a bigger tuple is a higher declaration; equal tuples are equal declarations."""
    if d.kind == "four":
        if d.top == "8":
            return (5, 0)
        order = four_order(rules, trump is None)
        return (4, -order.index(d.top))
    klass = {"hundred": 3, "fifty": 2, "terz": 1}[d.kind]
    return (klass, -SEQUENCE_ORDER.index(d.top))


def spec_resolve(
    declared: Sequence[Sequence[int]], rules: Rules, trump: Suit | None, second_leader: int
) -> tuple[int | None, tuple[int, int], list[tuple[int, int]]]:
    """B-44, B-45: the counting team, the points per team and the counting (seat, mask) pairs,
    from each seat's declared masks."""
    pairs = [(seat, spec_classify(m)) for seat, masks in enumerate(declared) for m in masks]
    if not pairs:
        return None, (0, 0), []

    def key(pair: tuple[int, SpecDeclaration]) -> tuple[tuple[int, int], bool, int]:
        seat, d = pair
        in_trump = trump is not None and d.suit == trump
        return (spec_rank(d, rules, trump), in_trump, -((seat - second_leader) % 4))

    best_seat, best = max(pairs, key=key)
    team = best_seat % 2
    if four_eights_void_others(rules) and best.kind == "four" and best.top == "8":
        counting = [(s, d) for s, d in pairs if s == best_seat]
    else:
        counting = [(s, d) for s, d in pairs if s % 2 == team]
    total = sum(spec_declaration_points(d, rules, trump) for _, d in counting)
    points = (total, 0) if team == 0 else (0, total)
    return team, points, [(s, d.mask) for s, d in counting]


def spec_game_points(d: int) -> tuple[int, int]:
    """B-50 as the text says it: the defenders' card points in tens, 5 rounded down and 6 up;
    the contractors get the rest of 16. Returns (contractors, defenders)."""
    tens, units = divmod(d, 10)
    pd = tens + (1 if units >= 6 else 0)
    return 16 - pd, pd


@dataclass(frozen=True)
class SpecScore:
    made: bool
    points: tuple[int, int]  # by team
    tars_kapoot: bool


def spec_score(
    *,
    team: int,
    level: int,
    multiplier: int,
    tricks: tuple[int, int],
    card_points: tuple[int, int],
    declarer_alone: bool,
    declarations: tuple[int, int],
    belote: tuple[int, int],
) -> SpecScore:
    """B-50 … B-55 from the text, by team."""
    ct, dt = team, 1 - team
    c, d = card_points[ct], card_points[dt]
    all_c, all_d = tricks[ct] == 8, tricks[dt] == 8
    dc, dd = declarations[ct], declarations[dt]
    bc, bd = belote[ct], belote[dt]
    z = dc + dd
    if level == 25:
        made = all_c
    elif level == 30:
        made = all_c and declarer_alone
    else:
        made = (25 if all_c else c // 10) + dc + bc >= level
    if multiplier == 1:
        if made:
            if all_c:
                pc, pd = 25, 0
            elif all_d:
                pc, pd = 0, 25
            else:
                pc, pd = spec_game_points(d)
            sc, sd = level + pc + dc + bc, pd + dd + bd
        else:
            v = 25 if all_d else 16
            sc, sd = bc, v + level + z + bd
    elif made:
        sc, sd = multiplier * level + (25 if all_c else 16) + z + bc, bd
    else:
        sc, sd = bc, multiplier * level + (25 if all_d else 16) + z + bd
    points = (sc, sd) if ct == 0 else (sd, sc)
    return SpecScore(made, points, level >= 25 and tricks[ct] == 0)


def play_random_game(game: Game, rng: Any, pass_rate: float = 0.6) -> list[Action]:
    """Random legal actions (passing often, so contracts are not all at the top) to the end."""
    done: list[Action] = []
    while not game.is_over:
        legal = game.legal_actions()
        action = PASS if PASS in legal and rng.random() < pass_rate else rng.choice(legal)
        game.apply(action)
        done.append(action)
    return done
