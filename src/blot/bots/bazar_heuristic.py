"""``heuristic``: a rule-based Bazar Blot player that counts cards and tracks voids.

Bidding: a hand evaluation in each strain counting trumps (J and 9 above all, then length),
side aces and guarded tens, declarations and belote, plus what a partner brings (more when he
has bid the same strain); it raises its partner only with real support, contras a contract its
trumps and aces should break, and redoubles one it is sure of.

Play: it remembers every card played and every void revealed (B-31 … B-33 force a seat to
follow, to trump and to overtrump, so a seat that did not has revealed what it lacks), and
plays by the conventions of the game: the declarer's side draws trumps with the master trump;
masters are cashed while no opponent can ruff them; a partner who holds the trick surely is given
points (a ten or an ace), else the trick is won as cheaply as possible, or the cheapest card
is thrown, keeping tens guarded and trumps for later.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from blot.bazar.calls import CONTRA, PASS, REDOUBLE, Call
from blot.bazar.rules import Rules
from blot.bazar.tables import KEY, NT, POINTS, STRAIN_INDEX
from blot.bazar.values import Action
from blot.bazar.view import DealView
from blot.bots.bazar_bot import BazarBot, declaration_bonus, last_bid_of
from blot.bots.bazar_info import Knowledge, infer, trick_state
from blot.cards import ACE, JACK, KING, SUIT_MASKS, Card, cards_of

STRAINS = ("S", "H", "D", "C", "NT")


def _suit_points() -> tuple[tuple[tuple[int, ...], ...], ...]:
    """``table[tix][suit][pattern]``: the card points of the cards of ``suit`` whose ranks 7 … A
    are the bits of ``pattern``, in strain ``tix``."""
    return tuple(
        tuple(
            tuple(
                sum(POINTS[tix][16 * suit + 7 + r] for r in range(8) if pattern >> r & 1)
                for pattern in range(256)
            )
            for suit in range(4)
        )
        for tix in range(5)
    )


_SUIT_POINTS: Final = _suit_points()


def evaluate(hand: int, strain: str, rules: Rules, partner_strain: str | None = None) -> float:
    """Game points (card points / 10, declarations, belote) this hand's side should make as the
    contractors in ``strain``: 0 when the strain is not worth naming."""
    tix = STRAIN_INDEX[strain]
    points = POINTS[tix]
    won = 0.0
    aces = 0
    for suit in range(4):
        ranks = (hand >> (16 * suit)) & 0xFFFF
        n = ranks.bit_count()
        if suit == tix:
            jack, nine = ranks >> JACK & 1, ranks >> 9 & 1
            if n < 3 and not (n == 2 and jack and nine):
                return 0.0
            if not (jack or nine):
                return 0.0
            won += _SUIT_POINTS[tix][suit][ranks >> 7 & 0xFF]
            won += 9 * max(0, n - 3)  # long trumps take side tricks and ruff
            if jack:
                won += 8
                if nine:
                    won += 8
        else:
            if ranks >> ACE & 1:
                aces += 1
                won += points[16 * suit + ACE]
                if ranks >> 10 & 1:
                    won += 10 + (points[16 * suit + KING] if ranks >> KING & 1 else 0)
            elif ranks >> 10 & 1 and n >= 2:
                won += 4
            if tix != NT and n == 0:
                won += 6  # a void to ruff with
    if tix == NT:
        if aces < 3:
            return 0.0
        won += 6 * aces
    partner = 34.0 if partner_strain == strain else 24.0
    bonus = declaration_bonus(hand, rules, tix)
    card_points = min(162.0, won + partner + 5)
    return card_points / 10 + bonus


def defence(hand: int, strain: str) -> float:
    """Card points this hand should take on defence against ``strain``."""
    tix = STRAIN_INDEX[strain]
    points = POINTS[tix]
    got = 0.0
    for suit in range(4):
        ranks = (hand >> (16 * suit)) & 0xFFFF
        if suit == tix:
            n = ranks.bit_count()
            jack = ranks >> JACK & 1
            if jack:
                got += 20 + 8
            if ranks >> 9 & 1 and (n >= 2 or jack):
                got += 14 + 4
            if n >= 3:
                got += 10 * (n - 2)
        elif ranks >> ACE & 1:
            got += points[16 * suit + ACE] + (10 if ranks >> 10 & 1 else 4)
    return got


def heuristic_call(
    hand: int,
    seat: int,
    calls: Sequence[tuple[int, Call]],
    rules: Rules,
    legal: Sequence[Action],
    boldness: float = 0.0,
) -> Call:
    """The heuristic player's call for ``seat`` holding ``hand`` after ``calls``, from the
    ``legal`` ones: a function of what a seat knows at its turn in the bidding, so that a search
    bot can ask what this player would have called with another hand (:mod:`blot.bots.bazar_belief`)."""
    current, holder = last_bid_of(calls)
    team = seat % 2
    partner = (seat + 2) % 4
    partner_strain = next((c.strain for s, c in calls if s == partner and c.is_bid), None)
    if REDOUBLE in legal:
        assert current is not None
        value = evaluate(hand, current.strain, rules, partner_strain)
        return REDOUBLE if value >= current.level + 5 else PASS
    if CONTRA in legal and current is not None:
        needed = 10 * current.level
        mine = defence(hand, current.strain)
        if current.level >= 10 and mine + 30 > 162 - needed + 25:
            return CONTRA
    cheapest: dict[str, Call] = {}  # the lowest legal bid of each strain (legal calls go up)
    for a in legal:
        if type(a) is Call and a.is_bid and a.strain not in cheapest:
            cheapest[a.strain] = a
            if len(cheapest) == len(STRAINS):
                break
    best: Call | None = None
    best_value = 0.0
    for strain in STRAINS:
        value = evaluate(hand, strain, rules, partner_strain) + boldness
        if value < 8:
            continue
        # our side holds the bid: raise only our own strain with clear extra values
        if (
            holder is not None
            and holder % 2 == team
            and (current is None or strain != current.strain or value < current.level + 3)
        ):
            continue
        option = cheapest.get(strain)
        if option is not None and option.level <= min(int(value), 24) and value > best_value:
            best, best_value = option, value
    return best if best is not None else PASS


class HeuristicBot(BazarBot):
    """The strongest player without search."""

    name = "heuristic"

    # --- bidding -----------------------------------------------------------------------------

    def call(self, view: DealView, legal: Sequence[Action]) -> Call:
        return heuristic_call(view.hand, view.seat, view.calls, view.rules, legal, self.boldness)

    # --- play ----------------------------------------------------------------------------------

    def card(self, view: DealView, legal: list[Card]) -> Card:
        if len(legal) == 1:
            return legal[0]
        k = infer(view)
        trick, win, tix = trick_state(view)
        if not trick:
            return self.lead(view, k, legal, tix)
        return self.follow(view, k, legal, trick, win, tix)

    def _master(self, k: Knowledge, c: Card, tix: int) -> bool:
        """No card still out (in the other hands) beats ``c`` in its suit."""
        keys = KEY[tix]
        out = k.hidden & SUIT_MASKS[c.suit]
        return all(keys[o.index] < keys[c.index] for o in cards_of(out))

    def _opponents_may_ruff(self, k: Knowledge, suit: int, tix: int) -> bool:
        if tix == NT or suit == tix:
            return False
        trumps_out = k.hidden & SUIT_MASKS[tix]
        for s in ((k.seat + 1) % 4, (k.seat + 3) % 4):
            if k.void(s, suit) and k.may_hold(s) & trumps_out:
                return True
        return False

    def lead(self, view: DealView, k: Knowledge, legal: list[Card], tix: int) -> Card:
        points, keys = POINTS[tix], KEY[tix]
        ours = view.contract is not None and view.contract.team == view.team
        if tix != NT:
            trumps = [c for c in legal if c.suit == tix]
            trumps_out = k.hidden & SUIT_MASKS[tix]
            opp_trumps = any(k.may_hold(s) & trumps_out for s in ((k.seat + 1) % 4, (k.seat + 3) % 4))
            if trumps and opp_trumps:
                top = max(trumps, key=lambda c: keys[c.index])
                if self._master(k, top, tix) and (ours or len(trumps) >= 3):
                    return top  # draw trumps with the master
        masters = [
            c
            for c in legal
            if c.suit != tix and self._master(k, c, tix) and not self._opponents_may_ruff(k, c.suit, tix)
        ]
        if masters:
            return max(masters, key=lambda c: (points[c.index], keys[c.index]))
        # a suit the partner may win or ruff: lead low from it, never away from a guarded ten
        side = [c for c in legal if c.suit != tix] or legal
        partner = (k.seat + 2) % 4

        def lead_cost(c: Card) -> tuple[int, int, int]:
            suit_cards = [x for x in legal if x.suit == c.suit]
            guarded_ten = any(x.rank == 10 for x in suit_cards) and len(suit_cards) <= 2
            partner_void = (
                tix != NT and k.void(partner, c.suit) and bool(k.may_hold(partner) & SUIT_MASKS[tix])
            )
            return (int(guarded_ten) - 2 * int(partner_void), points[c.index], keys[c.index])

        return min(side, key=lead_cost)

    def follow(
        self, view: DealView, k: Knowledge, legal: list[Card], trick: list[Card], win: int, tix: int
    ) -> Card:
        points, keys = POINTS[tix], KEY[tix]
        led = trick[0].suit
        winner = trick[win]
        n = len(trick)
        partner_winning = n >= 2 and win == n - 2
        last = n == 3

        def beats(c: Card) -> bool:
            return keys[c.index] > keys[winner.index] and (c.suit == led or keys[c.index] >= 100)

        def sure(c: Card) -> bool:
            """``c`` will hold the trick: last to play, or nothing still to come beats it."""
            if last:
                return True
            later = [(k.seat + i) % 4 for i in range(1, 4 - n)]
            opponents = [s for s in later if s % 2 != k.seat % 2]
            for s in opponents:
                held = k.may_hold(s)
                if c.suit == led and held & SUIT_MASKS[led]:
                    if any(keys[o.index] > keys[c.index] for o in cards_of(held & SUIT_MASKS[led])):
                        return False
                    continue
                ruffs = tix != NT and held & SUIT_MASKS[tix] and c.suit != tix and not held & SUIT_MASKS[led]
                if ruffs or (
                    c.suit == tix
                    and any(keys[o.index] > keys[c.index] for o in cards_of(held & SUIT_MASKS[tix]))
                    and (not held & SUIT_MASKS[led] or led == tix)
                ):
                    return False
            return True

        stake = sum(points[c.index] for c in trick)
        if partner_winning and sure(winner):
            # give points to the partner, keeping trumps and masters of other suits
            givers = [c for c in legal if c.suit != tix] or legal
            return max(
                givers,
                key=lambda c: (
                    points[c.index] - (6 if self._master(k, c, tix) and c.rank != 10 else 0),
                    -keys[c.index],
                ),
            )
        winning = [c for c in legal if beats(c)]
        if winning:
            safe = [c for c in winning if sure(c)]
            if safe and (last or stake + max(points[c.index] for c in safe) >= 10 or not partner_winning):
                # cheapest sure winner; when last, the one worth most
                if last:
                    return max(safe, key=lambda c: (points[c.index], -keys[c.index]))
                return min(safe, key=lambda c: (c.suit == tix, keys[c.index]))
            if not partner_winning and (stake >= 10 or n == 1):
                cheap = min(winning, key=lambda c: (c.suit == tix, points[c.index], keys[c.index]))
                if points[cheap.index] <= 4 or stake >= 10:
                    return cheap

        # cannot or need not win: throw the cheapest card, keeping guarded tens and trumps
        def discard_cost(c: Card) -> tuple[int, int, int]:
            suit_cards = [x for x in legal if x.suit == c.suit]
            guard = c.rank != 10 and any(x.rank == 10 for x in suit_cards) and len(suit_cards) == 2
            return (int(c.suit == tix and tix != NT), points[c.index] + (5 if guard else 0), keys[c.index])

        return min(legal, key=discard_cost)
